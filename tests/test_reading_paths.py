"""The short cuts of reading records (benchmarks/records.py): each gives what the long way gives.

``Game.apply`` checks a play against the placements of its own tile only, ``Tile.parse`` and ``Move.parse``
remember the texts they have read, ``options.specs`` works a variant's options out once.  None may change what is
legal, what a text means, or what an error says.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import boneyard
from boneyard import IllegalMoveError, Kind, Move, NotationError, Tile, moves, options, tiles
from boneyard.rules.base import make_rules
from boneyard.state import Game

TABLES = [
    ("block", 2, {}), ("block", 4, {"partnerships": True}), ("draw", 3, {}), ("all-fives", 2, {}),
    ("all-fives", 4, {"spinner_mode": "all_doubles"}), ("bergen", 3, {}), ("double-bergen", 2, {}),
    ("flower-scorpion", 2, {}), ("pip", 3, {}), ("pip", 2, {"letter_end": "open_wild", "nested_double": "forbid"}),
]


def candidate_plays(game: Game) -> list[Move]:
    """Every play the seat on turn could write: each tile of its hand by either half onto each tile on the table
    (and one past the last), whether legal or not; and a tile of another seat's hand."""
    hand = game.hands[game.turn]
    others = [tile for seat, held in enumerate(game.hands) if seat != game.turn for tile in held[:1]]
    return [Move(Kind.PLAY, tile, half, target) for tile in hand + others for half in sorted(set(tile.halves))
            for target in range(1, len(game.layout) + 2)]


@pytest.mark.parametrize(("variant", "players", "chosen"), TABLES, ids=lambda v: str(v))
def test_a_play_is_accepted_exactly_when_legal_moves_lists_it(variant: str, players: int,
                                                               chosen: dict[str, object]) -> None:
    checked = refused = 0
    for seed in range(3):
        game = boneyard.new_game(variant, players, seed=seed, options=chosen)
        rng = random.Random(seed)
        for _ in range(400):
            if game.finished:
                break
            if game.hand_over:
                game.next_hand()
                continue
            legal = game.legal_moves()
            scores = list(game.scores)
            for move in candidate_plays(game):
                try:
                    game.apply(move)
                except IllegalMoveError as error:
                    assert move not in legal, f"{variant}: legal {move} refused"
                    assert error.reason == game.explain_illegal(move, legal)  # the reason names what is wrong
                    refused += 1
                else:
                    assert move in legal, f"{variant}: {move} accepted but not legal"
                    assert game.undo() == move
                checked += 1
                assert game.legal_moves() == legal and list(game.scores) == scores  # nothing left changed
            game.apply(rng.choice(legal))
    assert checked > 500 and refused > 100


def test_a_play_of_a_tile_not_in_hand_is_refused_as_before() -> None:
    game = boneyard.new_game("block", 2, seed=3)
    game.apply(game.legal_moves()[0])
    other = game.hands[1 - game.turn][0]
    move = Move.play(other, other.high, 1)
    with pytest.raises(IllegalMoveError) as raised:
        game.apply(move)
    assert raised.value.reason == game.explain_illegal(move, game.legal_moves())


def refusal_read_twice(parse: Callable[[str], object], text: str) -> str:
    """The error ``parse`` gives ``text``, the same the second time (a bad text is never remembered)."""
    messages = set()
    for _ in range(2):
        with pytest.raises(NotationError) as raised:
            parse(text)
        messages.add(str(raised.value))
    assert len(messages) == 1
    return messages.pop()


def test_a_tile_text_read_again_is_the_same_tile_and_a_bad_one_fails_every_time() -> None:
    for text in ("6-4", "4-6", " w-7 ", "S-W", "12-11"):
        first = Tile.parse(text)
        assert Tile.parse(text) is first
        assert first is Tile(*first.halves)
    for text in ("6-", "6-4-2", "x-1", "13-1"):
        assert "tile" in refusal_read_twice(Tile.parse, text)


def test_the_texts_remembered_are_bounded_whatever_input_brings() -> None:
    for number in range(3 * tiles._PARSED_MOST):
        text = f"{number % 7}-{number % 5}" + " " * (number // 35)
        assert Tile.parse(text) == Tile(number % 7, number % 5)
    assert len(tiles._PARSED) <= tiles._PARSED_MOST
    for number in range(2 * moves._PARSED_MOST):
        text = " " * (number // 9999) + f"6-4@{number % 9999 + 1}"
        assert Move.parse(text) == Move.play(Tile(6, 4), 6, number % 9999 + 1)
    assert len(moves._PARSED) <= moves._PARSED_MOST


def test_a_move_text_read_again_means_the_same_and_a_bad_one_fails_every_time() -> None:
    for text in ("4-2@1", "2-4@1", "DRAW", "draw 3-2", "give 5-2", "pass", "6-4"):
        assert Move.parse(text) == Move.parse(text) == Move.parse(str(Move.parse(text)))
    assert Move.parse("4-2@1").half == 4 and Move.parse("2-4@1").half == 2
    for text in ("4-2@0", "4-2@x", "give", "7-13"):
        assert "is not a move" in refusal_read_twice(Move.parse, text)


def test_the_options_worked_out_once_are_a_new_list_each_time() -> None:
    cls = make_rules("all-fives", 2).Options
    first = options.specs(cls)
    first.clear()
    again = options.specs(cls)
    assert again and [spec.name for spec in again] == [spec.name for spec in options.specs(cls)]
    assert "spinner_mode" in {spec.name for spec in again}
