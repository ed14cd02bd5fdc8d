"""Boneyard: domino games to play, study and simulate.

>>> import boneyard
>>> game = boneyard.new_game("all-fives", players=2, seed=7)
>>> move = game.legal_moves()[0]
>>> event = game.apply(move)
"""

from __future__ import annotations

from collections.abc import Mapping

from boneyard import rules as _rules  # noqa: F401  (registers the variants)
from boneyard.chance import Chance
from boneyard.errors import (
    BoneyardError,
    IllegalMoveError,
    NotationError,
    OptionError,
    RecordError,
    VariantError,
)
from boneyard.layout import Layout
from boneyard.moves import Kind, Move
from boneyard.rules.base import VARIANTS, Rules, find_variant, make_rules
from boneyard.state import Event, Game, HandSetup
from boneyard.tiles import Tile

__version__ = "0.1.0"


def new_game(variant: str, players: int = 2, *, seed: int | None = None,
             options: Mapping[str, object] | None = None, names: list[str] | None = None) -> Game:
    """A new game of ``variant`` with its first hand dealt from ``seed`` (a whole number from 0 to 2^63 - 1, or
    ``None`` for a random one; another is an :class:`OptionError`, as are names that are not non-empty strings)."""
    game = Game(make_rules(variant, players, options), names, Chance(seed))
    game.next_hand()
    return game


__all__ = [
    "VARIANTS", "BoneyardError", "Chance", "Event", "Game", "HandSetup", "IllegalMoveError", "Kind",
    "Layout", "Move", "NotationError", "OptionError", "RecordError", "Rules", "Tile", "VariantError",
    "find_variant", "make_rules", "new_game",
]
