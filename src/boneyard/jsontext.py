"""JSON text from outside (records, web messages) read with a limit on nesting.

``json.loads`` recurses once per nested array or object and raises :class:`RecursionError` on a
few kilobytes of ``[[[[…``; nothing Boneyard reads is nested more than a handful of levels, so the
depth is checked first, by one pass of a regular expression over the text (strings skipped), and a
deeper text is refused with :class:`JSONDepthError`, a :class:`ValueError` that names where.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

MAX_DEPTH: Final = 32  #: deepest nesting accepted; a record needs 5 (record → hands → hand → deal → seat)

_TOKENS: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JSONDepthError(ValueError):
    """JSON text nested deeper than allowed; ``offset`` is where the limit was passed (0-based)."""

    def __init__(self, depth: int, offset: int) -> None:
        super().__init__(f"JSON nested deeper than {depth} levels (at character {offset + 1})")
        self.depth = depth
        self.offset = offset


def check_depth(text: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`JSONDepthError` if ``text`` opens more than ``max_depth`` arrays or objects at once."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > max_depth:
                raise JSONDepthError(max_depth, match.start())
        elif token in "]}":
            depth -= 1


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` with the nesting limit; errors are :class:`ValueError` (``json.JSONDecodeError`` or
    :class:`JSONDepthError`), never :class:`RecursionError`."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8")
    check_depth(text, max_depth)
    return json.loads(text)


__all__ = ["MAX_DEPTH", "JSONDepthError", "check_depth", "loads"]
