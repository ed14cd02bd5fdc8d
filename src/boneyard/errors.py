"""The error types.  Every message says what is wrong and where."""

from __future__ import annotations


class BoneyardError(Exception):
    """Base class of every error Boneyard raises on bad input."""


class NotationError(BoneyardError, ValueError):
    """A string is not valid notation (a tile, a half, a move)."""


class IllegalMoveError(BoneyardError, ValueError):
    """A well-formed move that the rules do not allow at this point."""


class OptionError(BoneyardError, ValueError):
    """An unknown rule option or a bad option value."""


class VariantError(BoneyardError, ValueError):
    """An unknown variant or an unsupported player count."""


class RecordError(BoneyardError, ValueError):
    """A game record that is malformed or does not replay."""
