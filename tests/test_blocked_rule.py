"""The rule that decided a blocked hand, said beside the hands: in the terminal's hand end, the web table's summary and
the replay viewer (a tie-break, or a rule other than the lowest total, is otherwise a surprise)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.console import Console

import boneyard
from boneyard import make_rules, record
from boneyard.state import Game
from boneyard.terminal import start_session
from boneyard.web.replayer import replay_steps
from tests.helpers import play
from tests.test_block import BLK2, start

LIGHTEST = "the lowest pip total wins; a tie goes to the tied player holding the lightest single tile"


def hand_end_text(game: Game) -> str:
    console = Console(record=True, width=160, force_terminal=False)
    start_session(game, ["greedy"], 0, None, console, lambda prompt: "q").say_hand_end()
    return console.export_text()


@pytest.mark.parametrize(("options", "said"), [
    ({}, LIGHTEST),
    ({"tie_rule": "no_score"}, "the lowest pip total wins; a tie scores nothing"),
])
def test_blk_example_2_the_tie_break_is_said_at_the_hand_end(options: dict[str, object], said: str) -> None:
    game = start(2, BLK2["hands"], BLK2["stock"], **options)
    play(game, BLK2["moves"])
    assert game.hand.result is not None and game.hand.result.end == "blocked"
    assert f"A blocked hand: {said}." in hand_end_text(game)
    last = replay_steps(record.to_record(game))["hands"][0]["steps"][-1]
    assert last["end"]["blocked_rule"] == said
    assert replay_steps(record.to_record(game))["hands"][0]["steps"][-2]["end"] is None


def test_a_domino_says_no_blocked_rule() -> None:
    game = start(2, BLK2["hands"], BLK2["stock"])
    game.hands[game.turn] = [game.legal_moves()[0].tile]  # (a position set by hand) the lead is the last tile
    game.apply(game.legal_moves()[0])
    assert game.hand.result is not None and game.hand.result.end == "domino"
    assert "A blocked hand" not in hand_end_text(game)


@pytest.mark.parametrize(("variant", "players", "first", "second", "words"), [
    ("block", 2, {}, {"tie_rule": "no_score"}, ("lightest", "scores nothing")),
    ("block", 4, {"partnerships": True}, {"partnerships": True, "partnership_block": "lowest_hand"},
     ("two hands", "player holding the fewest")),
    ("draw", 4, {"partnerships": True}, {"partnerships": True, "partnership_block": "lowest_hand"},
     ("two hands", "player holding the fewest")),
    ("all-fives", 3, {}, {"tie_rule": "split_3p"}, ("no bonus", "split the third")),
    ("bergen", 3, {}, {"block_rule": "german"}, ("lowest pip total wins", "fewest doubles")),
    ("bergen", 3, {}, {"block_rule": "american"}, ("lowest pip total wins", "no double wins")),
    ("double-bergen", 2, {}, {"end_scoring": "tile_penalty"}, ("no winner", "per tile")),
    ("flower-scorpion", 3, {}, {"lowest_double_mode": "lowest_total_with_double"},
     ("smallest double", "lowest pip total among")),
    ("flower-scorpion", 3, {}, {"cancel_affects_block": True}, ("Scorpion tile,", "unless the dice cancel")),
])
def test_the_sentence_follows_the_options_in_force(variant: str, players: int, first: dict[str, object],
                                                   second: dict[str, object], words: tuple[str, str]) -> None:
    before, after = (make_rules(variant, players, options).blocked_rule() for options in (first, second))
    assert words[0] in before and words[1] not in before
    assert words[1] in after


def test_all_fives_split_is_said_only_where_three_play() -> None:
    assert "split" not in make_rules("all-fives", 2, {"tie_rule": "split_3p"}).blocked_rule()


def blocked_game(variant: str, seed: int) -> Game:
    """A game of greedy play stopped at its first blocked hand's end."""
    rng = random.Random(seed)
    for attempt in range(400):
        game = boneyard.new_game(variant, 2, seed=seed * 1000 + attempt)
        while game.in_hand:
            game.apply(rng.choice(game.legal_moves()))
        if game.hand.result is not None and game.hand.result.end == "blocked":
            return game
    raise AssertionError(f"no blocked {variant} hand in 400 deals")


@pytest.mark.parametrize("variant", ["block", "draw", "all-fives", "bergen", "double-bergen", "flower-scorpion", "pip"])
def test_every_variant_says_its_blocked_rule_in_the_terminal_and_the_replay(variant: str, tmp_path: Path) -> None:
    game = blocked_game(variant, 7)
    said = game.rules.blocked_rule()
    assert said and said == said.strip() and not said.endswith(".")
    assert f"A blocked hand: {said}." in " ".join(hand_end_text(game).split())  # (a long sentence wraps)
    path = record.save(game, tmp_path / "g.boneyard.json")
    assert replay_steps(record.load(path))["hands"][-1]["steps"][-1]["end"]["blocked_rule"] == said
