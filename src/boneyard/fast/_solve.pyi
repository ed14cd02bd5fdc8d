"""Type stub of the optional compiled exact solver (src/boneyard/fast/_solve.c)."""

from collections.abc import Callable, Sequence
from typing import Any

def solve(
    owner: int, top: int, rank: Sequence[int], side: int, hands: Sequence[int], ends: Sequence[int], turn: int,
    passes: int, drawn: int, roots: Sequence[int] | None, table: Any, span: int,
    leaf: Callable[[int, int, int, int], float], limit: int,
    deep: float = 0.0, own: float = 0.0, /
) -> tuple[Any, int]: ...
def solve_worlds(
    owner: int, top: int, rank: Sequence[int], side: int, hands: Sequence[int], ends: Sequence[int], turn: int,
    passes: int, drawn: int, roots: Sequence[int], table: Any, span: int,
    leaf: Callable[[int, int, int, int], float], limit: int, worlds: Sequence[int], fuse: int, keep: int, /
) -> tuple[Any, int]: ...
