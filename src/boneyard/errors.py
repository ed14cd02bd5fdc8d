"""The error types.  Every message says what is wrong and where."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping


class BoneyardError(Exception):
    """Base class of every error Boneyard raises on bad input."""


class NotationError(BoneyardError, ValueError):
    """A string is not valid notation (a tile, a half, a move)."""


class IllegalMoveError(BoneyardError, ValueError):
    """A well-formed move that the rules do not allow at this point.

    ``reason`` is the explanation alone (``tile 4 has no open 5 end``), for messages that
    name the move their own way (RECORD.md's ``hand 2, move 7 "5-3@4": …``).
    """

    def __init__(self, message: str, move: object = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.move = move
        self.reason = reason if reason is not None else message


class OptionError(BoneyardError, ValueError):
    """An unknown rule option or a bad option value."""


class VariantError(BoneyardError, ValueError):
    """An unknown variant or an unsupported player count."""


class RecordError(BoneyardError, ValueError):
    """A game record that is malformed or does not replay."""


def did_you_mean(word: str, names: Mapping[str, str] | Iterable[str]) -> str:
    """``"did you mean 'block'? "`` for the name in ``names`` closest to a misspelt ``word``, or ``""`` where none
    is close.  A mapping names its value for a key that is close (an alias stands for its variant)."""
    close = difflib.get_close_matches(word, list(names), n=1)
    if not close:
        return ""
    return f"did you mean {names[close[0]] if isinstance(names, Mapping) else close[0]!r}? "
