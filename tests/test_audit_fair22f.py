"""Audit 22f: hints and the computer players, a strong but fair computer.

Fairness is checked on positions of later hands (the existing proof in test_fairness.py looks at the first
hand only) for every level and for the hint: the current hand's deal and stock are changed in a way the
seat's view cannot tell apart (two hidden tiles swap places and the record is replayed, so every pass and
draw still happens), and every decision, and the hint's words, must stay the same.  The hint's words are
checked against the table after the move and against the hands the seat cannot see.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import boneyard
from boneyard import record
from boneyard.errors import BoneyardError, OptionError
from boneyard.moves import Move
from boneyard.players.base import hint_move, make_player
from boneyard.players.expert.hint import explain
from boneyard.players.expert.hint import hint_move as expert_hint
from boneyard.players.expert.inference import infer
from boneyard.rules.base import VARIANTS
from boneyard.state import Game
from boneyard.view import SeatView
from tests.helpers import play, start_filled

LEVELS = ["random", "greedy", "heuristic", "expert:samples=3"]


def projection(view: SeatView) -> tuple[object, ...]:
    """Everything the seat's view shows."""
    return (view.hand, [(p.tile, p.join, p.parent) for p in view.layout.tiles], view.history(), view.hand_sizes,
            view.stock_count, view.scores, view.turn, view.direction, view.pending, view.dice, view.legal_moves(),
            view.hand_number, view.previous_hand, view.hand_leader)


def decisions(view: SeatView) -> list[object]:
    made: list[object] = [str(make_player(spec, seed=5).choose(view)) for spec in LEVELS]
    move, reason = expert_hint(view, samples=3, seed=1)
    made.append((str(move), reason))
    return made


def hidden(game: Game, seat: int) -> list[str]:
    tiles = [str(tile) for other in range(game.players) if other != seat for tile in game.hands[other]]
    return tiles + [str(tile) for tile in game.stock[game.stock_pos:]]


def swapped(data: dict[str, Any], first: str, second: str) -> dict[str, Any]:
    """The record with two tiles exchanged in its last hand's deal and stock."""
    changed = copy.deepcopy(data)
    hand = changed["hands"][-1]

    def swap(tile: str) -> str:
        return second if tile == first else first if tile == second else tile

    hand["deal"] = [[swap(tile) for tile in tiles] for tiles in hand["deal"]]
    if "stock" in hand:
        hand["stock"] = [swap(tile) for tile in hand["stock"]]
    return changed


def later_positions(variant: str, players: int, seed: int, options: dict[str, object] | None = None,
                    most: int = 3) -> Iterator[Game]:
    """Positions with a choice from the second hand on, of a game greedy players play."""
    game = boneyard.new_game(variant, players, seed=seed, options=options)
    movers = [make_player("greedy", seed=seat) for seat in range(players)]
    step = found = 0
    while not game.finished and found < most:
        if not game.in_hand:
            game.next_hand()
            continue
        if len(game.log) >= 2 and len(game.legal_moves()) > 1 and step % 3 == 0:
            yield game
            found += 1
        game.apply(movers[game.turn].choose(SeatView(game, game.turn)))
        step += 1


FAIR_CASES = [(variant, players, None) for variant in sorted(VARIANTS) for players in (2, 4)]
FAIR_CASES += [("block", 4, {"partnerships": True}),
               ("block", 4, {"partnerships": True, "partnership_block": "lowest_hand"}),
               ("pip", 3, None), ("draw", 3, None)]


@pytest.mark.parametrize(("variant", "players", "options"), FAIR_CASES)
def test_no_level_and_no_hint_reads_what_the_seat_cannot_see_in_later_hands(
        variant: str, players: int, options: dict[str, object] | None) -> None:
    checked = 0
    for seed in range(2):
        for game in later_positions(variant, players, seed, options):
            seat = game.turn
            view = SeatView(game, seat)
            before, shown = decisions(view), projection(view)
            data = record.to_record(game)
            unseen = hidden(game, seat)
            rng = random.Random(len(game.hand.events))
            for _ in range(3):
                first, second = rng.sample(unseen, 2)
                try:
                    other = record.replay(swapped(data, first, second))
                except BoneyardError:
                    continue  # the history could not have happened with this deal
                other_view = SeatView(other, seat)
                if projection(other_view) != shown:
                    continue  # the seat could tell this deal apart
                assert hidden(other, seat) != hidden(game, seat)
                assert decisions(other_view) == before, (variant, players, options, seed, first, second)
                checked += 1
    assert checked >= 4


def _suit(word: str) -> int:
    return 0 if word == "blanks" else int(word[:-1])


@pytest.mark.parametrize("variant", ["block", "draw", "flower-scorpion", "pip"])
def test_the_hint_says_a_seat_lacks_a_suit_only_where_it_really_does(variant: str) -> None:
    """"Computer 1 has no 3s" comes from the inference: it must be true of the real hand (wild halves follow every
    suit) and about a suit the table really shows after the move, and the seat named is an opponent."""
    said = 0
    for seed in range(3):
        game = boneyard.new_game(variant, 3, seed=seed, names=["P0", "P1", "P2"])
        rng = random.Random(seed)
        while game.in_hand:
            moves = game.legal_moves()
            if len(moves) > 1:
                view = SeatView(game, game.turn)
                info = infer(view)
                for move in (m for m in moves if m.is_placement):
                    for seat_text, suit_word in re.findall(r"P(\d) has no (\w+)", explain(view, move, info) or ""):
                        seat, suit = int(seat_text), _suit(suit_word)
                        assert seat != game.turn
                        assert not any(tile.has(suit) or tile.is_wild for tile in game.hands[seat])
                        game.apply(move)
                        if game.in_hand:
                            assert suit in [face.value for face in game.layout.open_ends()]
                        game.undo()
                        said += 1
            game.apply(rng.choice(moves))
    assert said >= 5


@pytest.mark.parametrize("variant", ["all-fives", "double-bergen", "flower-scorpion"])
def test_scores_n_is_what_the_move_scores(variant: str) -> None:
    said = 0
    for seed in range(3):
        game = boneyard.new_game(variant, 2, seed=seed)
        rng = random.Random(seed)
        while game.in_hand:
            moves = game.legal_moves()
            if len(moves) > 1:
                view = SeatView(game, game.turn)
                info = infer(view)
                for move in (m for m in moves if m.is_placement):
                    words = explain(view, move, info) or ""
                    if words.startswith("scores "):
                        points = game.apply(move).points
                        game.undo()
                        assert words == f"scores {points}" and points > 0
                        said += 1
            game.apply(rng.choice(moves))
    assert said >= 3


@pytest.mark.parametrize("variant", ["all-fives", "pip", "double-bergen"])
def test_the_hint_names_a_legal_move_in_the_notation_the_player_types(variant: str) -> None:
    game = boneyard.new_game(variant, 2, seed=4, names=["You", "Computer 1"])
    rng = random.Random(4)
    hinted = 0
    while game.in_hand and hinted < 3:
        moves = game.legal_moves()
        if game.turn == 0 and len(moves) > 1:
            move, reason = expert_hint(SeatView(game, 0), samples=4, seed=0)
            assert Move.parse(str(move)) == move and move in moves
            assert reason and not re.search(r"\d\.\d", reason)
            hinted += 1
        game.apply(rng.choice(moves))
    assert hinted == 3


def test_a_forced_move_is_hinted_without_a_search() -> None:
    game = start_filled("block", 2, ["6-6 1-0", "6-5 2-2"], leader=0, first_lead="random_player_any_tile")
    play(game, "6-6")
    assert hint_move(SeatView(game, 1)) == (Move.parse("6-5@1"), "the only move")


def test_greedy_takes_the_most_points_now_in_all_fives() -> None:
    checked = 0
    for seed in range(4):
        game = boneyard.new_game("all-fives", 2, seed=seed)
        rng = random.Random(seed)
        while game.in_hand:
            moves = game.legal_moves()
            placements = [move for move in moves if move.is_placement]
            if len(placements) > 1:
                view = SeatView(game, game.turn)
                chosen = make_player("greedy").choose(view)
                best = max(view.play_points(move)[1] for move in placements)
                assert view.play_points(chosen)[1] == best
                checked += 1
            game.apply(rng.choice(moves))
    assert checked >= 10


@pytest.mark.parametrize(("spec", "words"), [
    ("expert:foo=1", "expert has no setting 'foo'"),
    ("heuristic:depth=2", "it takes no settings"),
    ("greedy:x", "is not key=value"),
    ("expert:time=nan", "time=nan"),
    ("expert:samples=0", "samples=0"),
    ("expert:samples=1.5", "samples=1.5"),
    ("champion", "unknown player level 'champion'"),
])
def test_a_bad_level_spec_is_refused_saying_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(OptionError, match=re.escape(words)):
        make_player(spec, seed=1)


def test_the_expert_with_samples_is_reproducible() -> None:
    game = boneyard.new_game("draw", 3, seed=8)
    rng = random.Random(8)
    while len(game.legal_moves()) < 2 or len(game.hand.events) < 4:
        game.apply(rng.choice(game.legal_moves()))
    view = SeatView(game, game.turn)
    first = make_player("expert:samples=6", seed=3).choose(view)
    assert make_player("expert:samples=6", seed=3).choose(view) == first


# ---------------------------------------------------------------- bugs


def test_all_fives_hint_does_not_say_blocks_when_the_spinner_ends_open() -> None:
    game = start_filled("all-fives", 2, ["5-5 3-1 6-6", "5-3 5-2 2-2 6-0 4-0 4-1 3-2"], leader=0,
                        first_lead="random_player_any_tile")
    game.names = ["Ann", "You"]
    play(game, "5-5 5-3@1 3-1@2")  # the spinner 5-5 has one side taken; You hold no 5 but 5-2
    view = SeatView(game, 1)
    move, reason = expert_hint(view, samples=10, seed=0)
    assert move == Move.parse("5-2@1")
    game.apply(move)  # both sides of the spinner taken: its two 5 ends open (A5-6)
    assert sorted(face.value for face in game.layout.open_ends()) == [1, 2, 5, 5]
    assert "blocks the 5s" not in reason


def test_pip_hint_does_not_say_blocks_when_a_wild_double_opens_the_suit() -> None:
    game = boneyard.new_game("pip", 2, seed=5, names=["You", "Computer 1"])
    for text in ("1-1", "W-9@1", "1-0@1", "1-6@1"):
        game.apply(Move.parse(text))
    view = SeatView(game, 0)
    words = explain(view, Move.parse("W-W@3")) or ""
    game.apply(Move.parse("W-W@3"))  # W-W takes the blank it joins and opens three blank toes (PIP-11)
    assert [face.value for face in game.layout.open_ends()].count(0) == 3
    assert "blocks the blanks" not in words
