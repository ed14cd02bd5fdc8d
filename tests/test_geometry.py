"""Layout geometry (boneyard.render.geometry) and the SVG drawn from it (boneyard.render.svg)."""

from __future__ import annotations

import random
import re

import pytest

import boneyard
from boneyard.layout import Layout, Role
from boneyard.moves import Move
from boneyard.render.geometry import (
    PIP_POSITIONS,
    Geometry,
    hotspots,
    layout_geometry,
    table_size,
)
from boneyard.render.svg import table_svg, tile_svg
from boneyard.rules.base import VARIANTS
from boneyard.tiles import S, Tile, W


def overlapping(geometry: Geometry) -> list[tuple[int, int]]:
    boxes = [(tile.index, tile.box) for tile in geometry.tiles]
    pairs = []
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[:i]:
            if (box_a[0] < box_b[2] - 1e-6 and box_b[0] < box_a[2] - 1e-6
                    and box_a[1] < box_b[3] - 1e-6 and box_b[1] < box_a[3] - 1e-6):
                pairs.append((b, a))
    return pairs


def test_lead_sits_at_the_origin_lengthwise_with_its_left_half_first() -> None:
    layout = Layout()
    layout.place_lead(Tile(6, 4), 4, Role.LINE)
    (lead,) = layout_geometry(layout).tiles
    assert (lead.x, lead.y, lead.rotation, lead.halves) == (0.0, 0.0, 0, ("4", "6"))
    assert lead.box == (-1.0, -0.5, 1.0, 0.5)


def test_line_tiles_lie_lengthwise_joining_half_towards_the_lead() -> None:
    layout = Layout()
    layout.place_lead(Tile(6, 4), 4, Role.LINE)
    layout.place(Tile(6, 2), 6, 1, Role.LINE)  # right of the lead
    layout.place(Tile(4, 1), 4, 1, Role.LINE)  # left of the lead
    _, right, left = layout_geometry(layout).tiles
    assert (right.x, right.y, right.rotation, right.halves) == (2.0, 0.0, 0, ("6", "2"))
    # turned half a turn: its first half (the joining 4) is on the right, touching the lead
    assert (left.x, left.y, left.rotation, left.halves) == (-2.0, 0.0, 180, ("4", "1"))


def test_doubles_lie_crosswise() -> None:
    layout = Layout()
    layout.place_lead(Tile(5, 3), 5, Role.LINE)
    layout.place(Tile(3, 3), 3, 1, Role.CROSS)
    layout.place(Tile(3, 1), 3, 2, Role.LINE)
    _, double, after = layout_geometry(layout).tiles
    assert (double.x, double.rotation, double.horizontal) == (1.5, 90, False)
    assert double.box == (1.0, -1.0, 2.0, 1.0)
    assert (after.x, after.rotation) == (3.0, 0)


def test_lead_double_is_crosswise_and_a_spinner_grows_arms_in_four_directions() -> None:
    layout = Layout()
    layout.place_lead(Tile(5, 5), 5, Role.SPINNER)
    for tile in (Tile(5, 1), Tile(5, 2), Tile(5, 3), Tile(5, 4)):
        layout.place(tile, 5, 1, Role.LINE)
    tiles = layout_geometry(layout).tiles
    assert tiles[0].rotation == 90
    centres = {(t.x, t.y, t.rotation) for t in tiles[1:]}
    assert centres == {(-1.5, 0.0, 180), (1.5, 0.0, 0), (0.0, -2.0, 270), (0.0, 2.0, 90)}


def test_pip_hub_and_three_toe_double() -> None:
    layout = Layout()
    layout.place_lead(Tile(3, 3), 3, Role.HUB)
    layout.place(Tile(3, 6), 3, 1, Role.LINE)  # west side of the hub
    layout.place(Tile(6, 6), 6, 2, Role.TOES)
    for tile in (Tile(6, 1), Tile(6, 2), Tile(W, 6)):
        layout.place(tile, tile.high if tile.high != W else W, 3, Role.LINE)
    geometry = layout_geometry(layout)
    hub, arm, toes, *feet = geometry.tiles
    assert (hub.role, toes.role) == ("hub", "toes")
    assert (arm.x, arm.rotation) == (-1.5, 180)
    assert (toes.x, toes.y, toes.rotation) == (-3.0, 0.0, 270)  # crosswise to its westward arm
    directions = sorted(foot.rotation for foot in feet)
    assert directions == [90, 180, 270]  # straight on (west) and out to both sides
    assert feet[2].halves == ("W", "6")
    assert not overlapping(geometry)


def test_wild_and_letter_halves_are_named() -> None:
    layout = Layout()
    layout.place_lead(Tile(4, 4), 4, Role.HUB)
    layout.place(Tile(S, W), W, 1, Role.LINE)
    letter = layout_geometry(layout).tiles[1]
    assert letter.halves == ("W", "S")
    svg = table_svg(layout_geometry(layout))
    assert ">S</text>" in svg and ">★</text>" in svg


def test_long_arms_turn_at_the_edges_and_never_overlap() -> None:
    layout = Layout()
    layout.place_lead(Tile(1, 0), 0, Role.LINE)
    # a chain 1-2-3-...-12-0-... of twenty non-doubles running right from the lead
    value = 1
    for step in range(20):
        nxt = (value % 12) + 1 if step % 2 == 0 else (value + 5) % 13
        if nxt == value:
            nxt = (value + 1) % 13
        layout.place(Tile(value, nxt), value, len(layout), Role.LINE)
        value = nxt
    geometry = layout_geometry(layout, width=16, height=12)
    assert not overlapping(geometry)
    assert {tile.rotation for tile in geometry.tiles} >= {0, 90}  # it turned
    box = geometry.bounds
    assert box[0] >= -8 and box[2] <= 8 and box[1] >= -6 and box[3] <= 6


def test_table_grows_with_the_set() -> None:
    assert table_size(28) == (30.0, 20.0)
    assert table_size(70)[0] > 30 and table_size(91)[0] > table_size(70)[0]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_hands_geometry_is_stable_and_hotspots_show_where_tiles_land(variant: str) -> None:
    """A tile's place never changes once played, and every legal placement has a hotspot whose
    ghost is exactly where the tile then appears."""
    rng = random.Random(variant)
    for seed in range(6):
        game = boneyard.new_game(variant, players=2, seed=seed)
        size = table_size(len(game.rules.tile_set()))
        before = layout_geometry(game.layout, width=size[0], height=size[1])
        while game.in_hand:
            moves = game.legal_moves()
            spots = hotspots(game.layout, moves, before)
            placements = [m for m in moves if m.is_placement]
            assert sorted(m for s in spots for m in s.moves) == sorted(str(m) for m in placements)
            move = rng.choice(moves)
            game.apply(move)
            after = layout_geometry(game.layout, width=size[0], height=size[1])
            assert after.tiles[:len(before.tiles)] == before.tiles
            if move.is_placement:
                (spot,) = [s for s in spots if str(move) in s.moves]
                new = after.tiles[-1]
                assert (spot.ghost.x, spot.ghost.y, spot.ghost.rotation) == (new.x, new.y, new.rotation)
                if len(spot.moves) == 1:  # (a tile that fits either way round shows the first way)
                    assert spot.ghost.halves == new.halves or new.role != "line"
            before = after
        assert not overlapping(before)


def played_out(variant: str, players: int, seed: int, *, check: bool = False) -> Geometry:
    """The table at the end of a random hand (placements preferred, so rounds run long); with
    ``check``, also that no tile moves and every ghost is where its move puts the tile."""
    game = boneyard.new_game(variant, players=players, seed=seed)
    size = table_size(len(game.rules.tile_set()))
    rng = random.Random(f"{variant}/{players}/{seed}")
    before = layout_geometry(game.layout, width=size[0], height=size[1])
    while game.in_hand:
        moves = game.legal_moves()
        move = rng.choice([m for m in moves if m.is_placement] or moves)
        spots = hotspots(game.layout, moves, before) if check else []
        game.apply(move)
        if check:
            after = layout_geometry(game.layout, width=size[0], height=size[1])
            assert after.tiles[:len(before.tiles)] == before.tiles
            if move.is_placement:
                (spot,) = [s for s in spots if str(move) in s.moves]
                new = after.tiles[-1]
                assert (spot.ghost.x, spot.ghost.y, spot.ghost.rotation) == (new.x, new.y, new.rotation)
                assert spot.ghost.role == new.role or new.role == "hub"
            before = after
    return layout_geometry(game.layout, width=size[0], height=size[1])


@pytest.mark.parametrize("players", range(2, 8))
def test_long_pip_rounds_never_overlap(players: int) -> None:
    """Many tiles round the hub and several three-toe doubles: arms and toes that would run
    into a tile turn, bend or (as a last resort) leave a gap — they never overlap."""
    longest = 0
    for seed in range(30):
        geometry = played_out("pip", players, seed)
        assert not overlapping(geometry), (players, seed)
        longest = max(longest, len(geometry.tiles))
    assert longest >= 55  # the rounds do get long


@pytest.mark.parametrize("players", [3, 5, 7])
def test_long_pip_rounds_keep_tiles_still_and_ghosts_exact(players: int) -> None:
    for seed in range(3):
        assert not overlapping(played_out("pip", players, seed, check=True))


@pytest.mark.parametrize("variant", sorted(set(VARIANTS) - {"pip"}))
def test_random_hands_of_every_variant_and_player_count_never_overlap(variant: str) -> None:
    cls = VARIANTS[variant]
    low, high = cls(cls.min_players).player_range()
    for players in range(low, high + 1):
        for seed in range(12):
            assert not overlapping(played_out(variant, players, seed)), (variant, players, seed)


def test_hotspots_group_both_ways_round_onto_a_wild_end() -> None:
    layout = Layout()
    layout.place_lead(Tile(W, 5), W, Role.LINE)  # the wild half is open on the left
    moves = [Move.play(Tile(3, 2), 3, 1), Move.play(Tile(3, 2), 2, 1)]
    (spot,) = [s for s in hotspots(layout, moves) if s.value == "W"]
    assert spot.moves == ("3-2@1", "2-3@1")


def test_geometry_json_names_every_tile_and_a_view_around_them() -> None:
    game = boneyard.new_game("all-fives", seed=4)
    for _ in range(6):
        game.apply(game.legal_moves()[0])
    data = layout_geometry(game.layout).as_json()
    assert [t["index"] for t in data["tiles"]] == list(range(1, len(game.layout) + 1))
    x, y, w, h = data["view"]
    for tile in data["tiles"]:
        assert x < tile["x"] < x + w and y < tile["y"] < y + h


def test_svg_draws_real_pips() -> None:
    layout = Layout()
    layout.place_lead(Tile(6, 4), 6, Role.LINE)
    layout.place(Tile(4, 4), 4, 1, Role.CROSS)
    svg = table_svg(layout_geometry(layout))
    assert svg.count('class="tile"') == 2
    assert len(re.findall(r"<circle", svg)) == 6 + 4 + 4 + 4
    assert tile_svg(Tile(12, 11)).count("<circle") == 23


def test_pip_positions_cover_every_number_inside_the_half() -> None:
    for number, spots in PIP_POSITIONS.items():
        assert len(spots) == number == len(set(spots))
        assert all(0 < x < 1 and 0 < y < 1 for x, y in spots)
