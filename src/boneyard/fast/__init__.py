"""The fast path: every variant on bit sets with integer actions and undo, for search and simulation.

>>> from boneyard.fast import FastGame
>>> game = FastGame("block", players=2, seed=3)
>>> points = game.apply(game.legal_actions()[0])
>>> _ = game.undo()

See :mod:`boneyard.fast.engine` for the representation, ``docs/speed.md`` for the measurements.
"""

from __future__ import annotations

from boneyard.fast.engine import FAST_VARIANTS, FastGame, TileTables, bits, tables, unsupported
from boneyard.fast.pip import FastPip

__all__ = ["FAST_VARIANTS", "FastGame", "FastPip", "TileTables", "bits", "tables", "unsupported"]
