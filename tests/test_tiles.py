"""Tiles and tile sets (RULES.md C1, C2; RECORD.md tile notation)."""

from __future__ import annotations

import pickle

import pytest

from boneyard import NotationError, Tile
from boneyard.tiles import A, D, R, S, W, double_set, heaviness, lightness, pip_set

T = Tile.parse


@pytest.mark.parametrize("tile", [*double_set(12), *pip_set()], ids=str)
def test_every_tile_round_trips_through_its_notation(tile: Tile) -> None:
    assert Tile.parse(str(tile)) is tile
    assert eval(repr(tile), {"Tile": Tile}) is tile


@pytest.mark.parametrize(("text", "canonical"), [
    ("4-6", "6-4"), ("6-4", "6-4"), ("0-0", "0-0"), ("12-3", "12-3"), ("3-12", "12-3"),
    ("7-w", "W-7"), ("W-7", "W-7"), ("w-w", "W-W"), ("w-s", "S-W"), ("S-W", "S-W"),
    ("r-W", "R-W"), ("a-w", "A-W"), ("W-d", "D-W"), (" 5 - 2 ", "5-2"),
])
def test_canonical_order_is_letters_then_wild_then_numbers_high_to_low(text: str, canonical: str) -> None:
    assert str(T(text)) == canonical


def test_input_is_case_insensitive() -> None:
    assert T("s-w") is T("S-W") is T("W-s")
    assert T("w-9") is T("9-W")


def test_tiles_are_interned_and_immutable() -> None:
    assert Tile(6, 4) is Tile(4, 6) is T("6-4")
    with pytest.raises(AttributeError):
        T("6-4").high = 5  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(T("W-7"))) is T("W-7")


@pytest.mark.parametrize("text", ["", "6", "6-4-2", "13-0", "x-1", "S-4", "S-S", "S-R", "-1-2", "6_4", "007-1"])
def test_bad_tile_text_raises_a_notation_error_naming_it(text: str) -> None:
    with pytest.raises(NotationError, match="is not"):
        T(text)


def test_tile_values() -> None:
    assert T("6-4").pips == 10 and not T("6-4").is_double
    assert T("5-5").pips == 10 and T("5-5").is_double
    assert T("W-7").pips == 7 and T("W-7").is_wild and T("W-W").pips == 0
    assert T("S-W").letter == S and T("R-W").letter == R and T("A-W").letter == A and T("D-W").letter == D
    assert T("6-4").letter is None
    assert T("S-W").halves == (S, W)
    assert T("6-4").other_half(6) == 4 and T("6-4").other_half(4) == 6
    with pytest.raises(ValueError, match="3 is not a half of 6-4"):
        T("6-4").other_half(3)


@pytest.mark.parametrize(("top", "count"), [(6, 28), (9, 55), (12, 91)])
def test_double_n_sets(top: int, count: int) -> None:
    tiles = double_set(top)
    assert len(tiles) == len(set(tiles)) == count
    assert sum(tile.is_double for tile in tiles) == top + 1
    assert all(0 <= tile.low <= tile.high <= top for tile in tiles)
    # each suit appears on top + 1 tiles
    assert all(sum(tile.has(n) for tile in tiles) == top + 1 for n in range(top + 1))
    assert list(tiles) == sorted(tiles)


def test_double_six_set_has_168_pips() -> None:
    assert sum(tile.pips for tile in double_set(6)) == 168


def test_no_set_beyond_double_twelve() -> None:
    with pytest.raises(ValueError, match="no double-13 set"):
        double_set(13)


def test_pip_set_has_70_tiles() -> None:
    tiles = pip_set()
    assert len(tiles) == len(set(tiles)) == 70
    assert set(double_set(9)) < set(tiles)
    assert [str(t) for t in tiles if t.is_wild and t.letter is None] == [f"W-{n}" for n in range(10)] + ["W-W"]
    assert sorted(str(t) for t in tiles if t.letter is not None) == ["A-W", "D-W", "R-W", "S-W"]
    assert W not in {t.low for t in double_set(9)}


def test_c2_heavier_and_lightest_orders() -> None:
    assert max([T("5-4"), T("6-3")], key=heaviness) is T("6-3")  # equal pips: higher larger half
    assert min([T("1-2"), T("0-3")], key=lightness) is T("0-3")  # equal pips: lower smaller half
    assert max(double_set(6), key=heaviness) is T("6-6")
    assert min(double_set(6), key=lightness) is T("0-0")
