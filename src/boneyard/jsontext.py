"""JSON text from outside (records, web messages) read with a limit on nesting.

``json.loads`` recurses once per nested array or object and raises :class:`RecursionError` on a
few kilobytes of ``[[[[…``; nothing Boneyard reads is nested more than a handful of levels, so the
depth is checked first, by one pass of a regular expression over the text (strings skipped), and a
deeper text is refused with :class:`JSONDepthError`, a :class:`ValueError` that names where.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Sequence
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


class JSONValueError(ValueError):
    """JSON text that parses but holds what no Boneyard value may: a lone surrogate escape (``"\\ud800"``, not
    text: it cannot be written back as UTF-8), ``NaN`` or an infinity, or a number too long to read; or bytes that
    are not UTF-8 text at all."""


def _refuse_constant(name: str) -> Any:
    raise JSONValueError(f"{name} is not a JSON number")


def _path(steps: Sequence[str | int]) -> str:
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in steps).lstrip(".") or "the text"


def check_values(value: Any) -> None:
    """Raise :class:`JSONValueError`, naming where, at the first string or key that is not UTF-8 text (a lone
    surrogate) or the first float that is not finite (``1e400`` reads as infinity)."""
    try:  # one pass in C over sound values; only a value that fails it is walked to say where
        json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
        return
    except (ValueError, UnicodeEncodeError):
        pass
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, steps = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if not key.isascii() and not _is_text(key):
                    raise JSONValueError(f"{_path(steps)}: a key holds a lone surrogate escape, which is not text")
                stack.append((inner, (*steps, key)))
        elif isinstance(item, list):
            stack.extend((inner, (*steps, index)) for index, inner in enumerate(item))
        elif isinstance(item, str):
            if not item.isascii() and not _is_text(item):
                raise JSONValueError(f"{_path(steps)}: a lone surrogate escape is not text")
        elif isinstance(item, float) and not math.isfinite(item):
            raise JSONValueError(f"{_path(steps)}: a number too large to hold")


def _is_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` with the nesting limit and :func:`check_values`; errors are :class:`ValueError`
    (``json.JSONDecodeError``, :class:`JSONDepthError` or :class:`JSONValueError`), never
    :class:`RecursionError`."""
    if isinstance(text, bytes | bytearray):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            wrong = error.object[error.start:error.start + 1]
            raise JSONValueError(f"not UTF-8 text (byte {error.start + 1} is {wrong!r})") from None
    check_depth(text, max_depth)
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except (json.JSONDecodeError, JSONValueError):
        raise
    except ValueError:  # Python reads at most 4300 digits of an integer
        raise JSONValueError(f"a number of more than {sys.get_int_max_str_digits()} digits") from None
    check_values(value)
    return value


__all__ = ["MAX_DEPTH", "JSONDepthError", "JSONValueError", "check_depth", "check_values", "loads"]
