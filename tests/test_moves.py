"""Move notation (RECORD.md): leads, plays, draws, passes and gives round-trip through text."""

from __future__ import annotations

import pytest

from boneyard import Kind, Move, NotationError, Tile
from boneyard.tiles import W

T = Tile.parse


@pytest.mark.parametrize("move", [
    Move.lead(T("6-4")), Move.lead(T("6-4"), 4), Move.lead(T("5-5")), Move.lead(T("W-W")),
    Move.play(T("4-2"), 4, 1), Move.play(T("4-2"), 2, 17), Move.play(T("W-7"), W, 3), Move.play(T("S-W"), W, 5),
    Move.play(T("12-11"), 11, 40), Move.draw(), Move.draw(T("3-2")), Move.passing(), Move.give(T("5-2")),
], ids=str)
def test_every_move_kind_round_trips(move: Move) -> None:
    assert Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move


@pytest.mark.parametrize(("text", "expected"), [
    ("6-4", "6-4"), ("4-6", "4-6"), ("4-2@1", "4-2@1"), ("w-7@3", "W-7@3"), ("W-s@5", "W-S@5"),
    ("DRAW", "draw"), ("  Draw  ", "draw"), ("draw 2-3", "draw 3-2"), ("Pass", "pass"),
    ("GIVE 2-5", "give 5-2"), ("give   5-2", "give 5-2"),
])
def test_parsing_is_case_insensitive_and_writes_canonical_text(text: str, expected: str) -> None:
    assert str(Move.parse(text)) == expected


def test_a_play_keeps_which_half_joins() -> None:
    move = Move.parse("4-2@1")
    assert (move.kind, move.tile, move.half, move.target) == (Kind.PLAY, T("4-2"), 4, 1)
    assert Move.parse("2-4@1").half == 2
    lead = Move.parse("4-6")
    assert (lead.kind, lead.tile, lead.half) == (Kind.LEAD, T("6-4"), 4)


def test_kinds() -> None:
    assert Move.parse("6-4").is_placement and Move.parse("6-4@2").is_placement
    assert not Move.parse("draw").is_placement and not Move.parse("pass").is_placement
    assert Move.parse("give 5-2").kind == Kind.GIVE and Move.parse("draw").tile is None


@pytest.mark.parametrize("text", ["", "play", "6-4@", "6-4@0", "6-4@x", "6-4@-1", "6-7-1@2", "13-1", "draw x",
                                  "give", "pass 6-4", "S-4@2"])
def test_bad_move_text_names_the_text(text: str) -> None:
    with pytest.raises(NotationError, match="is not a move"):
        Move.parse(text)


def test_non_string_is_rejected() -> None:
    with pytest.raises(NotationError, match="must be a string"):
        Move.parse(42)  # type: ignore[arg-type]


def test_a_game_takes_a_move_in_its_notation() -> None:
    import boneyard
    from boneyard.errors import IllegalMoveError, NotationError

    game = boneyard.new_game("block", 2, seed=1)
    lead = game.legal_moves()[0]
    assert game.apply(str(lead)).move == lead
    with pytest.raises(NotationError, match="'zz' is not a move"):
        game.apply("zz")
    with pytest.raises(IllegalMoveError):
        game.apply("pass")
    assert len(game.hand.events) == 1
