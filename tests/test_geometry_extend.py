"""The table's geometry extended by the new tiles (boneyard.render.geometry.extend_geometry)
equals a full recomputation, after moves, undos and new hands, in every variant."""

from __future__ import annotations

import random

import pytest

import boneyard
from boneyard.chance import Chance
from boneyard.render.geometry import Geometry, extend_geometry, hotspots, layout_geometry, table_size
from boneyard.rules.base import VARIANTS
from boneyard.state import Game


def assert_same(incremental: Geometry, full: Geometry) -> None:
    assert incremental == full
    assert incremental.ends == full.ends  # (the hotspots are placed from the ends)
    assert incremental.placements == full.placements


def players_of(variant: str) -> list[int]:
    cls = VARIANTS[variant]
    return sorted({cls.min_players, cls.max_players})


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_extended_geometry_equals_a_full_recomputation_after_every_move_and_undo(variant: str) -> None:
    rng = random.Random(f"extend/{variant}")
    undone = 0
    for players in players_of(variant):
        for seed in range(3):
            game: Game = boneyard.new_game(variant, players=players, seed=seed)
            width, height = table_size(len(game.rules.tile_set()))
            geometry = extend_geometry(None, game.layout, width=width, height=height)
            hands = 0
            while not game.finished and hands < 2:
                if not game.in_hand:
                    deal(game, rng)
                    hands += 1
                    continue
                moves = game.legal_moves()
                if rng.random() < 0.7:  # (the ghosts found here are where the next tile lands)
                    hotspots(game.layout, moves, geometry)
                game.apply(rng.choice(moves))
                if rng.random() < 0.15 and len(game.hand.events) > 1:
                    game.undo()  # the last tile may leave the table: the next one goes elsewhere
                    undone += 1
                previous, before = geometry, (geometry.tiles, dict(geometry.ends), geometry.placements)
                geometry = extend_geometry(previous, game.layout, width=width, height=height)
                assert_same(geometry, layout_geometry(game.layout, width=width, height=height))
                assert (previous.tiles, previous.ends, previous.placements) == before  # not changed in place
    assert undone > 0


def deal(game: Game, rng: random.Random) -> None:
    """The next hand (a new hand's lead replaces the old table, sharing no tile with it)."""
    game.start_hand(Chance(rng.randrange(2**32)).setup(game))


def test_another_table_size_is_not_extended_from_the_old_one() -> None:
    game = boneyard.new_game("draw", seed=3)
    rng = random.Random(3)
    for _ in range(12):
        game.apply(rng.choice(game.legal_moves()))
    small = layout_geometry(game.layout, width=14.0, height=10.0)
    assert extend_geometry(small, game.layout) == layout_geometry(game.layout)
