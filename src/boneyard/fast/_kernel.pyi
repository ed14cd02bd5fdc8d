"""Type stub of the optional compiled kernel (src/boneyard/fast/_kernel.c)."""

def rollout(
    config: tuple[int, ...], state: tuple[object, ...], streams: list[int], trace: bool,
    tables: tuple[object, object, object, object] | None, /
) -> tuple[int, int | None, int, int, int, list[int], list[int], int, list[int], list[tuple[int, int]] | None]: ...

def deal(
    pool: list[int], sizes: list[int], banned: list[int], seed: int, /
) -> tuple[list[int], list[int]] | None: ...

def shuffle(items: list[object], top: int, words: bytes, /) -> int: ...

def pip_rollout(
    config: tuple[object, ...], state: tuple[object, ...], streams: list[int], trace: bool,
    ranks: list[int] | None = None, /
) -> tuple[int, int | None, tuple[int, int, int, int, int, int, int, int], list[int], list[int], list[int],
           tuple[int, int], list[int], int, list[int], list[tuple[int, int]] | None]: ...

def greedy(
    config: tuple[int, ...], state: tuple[object, ...], tables: tuple[object, object, object, object] | None,
    ranks: list[int], scoring: bool, seed: int, count: int, trace: bool, defend: int, /
) -> list[tuple[int, int | None, list[int], list[int], tuple[list[int], list[int]] | None]]: ...
