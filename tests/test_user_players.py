"""Players of one's own on the fast engine: only the built-in random and greedy levels choose on a
:class:`~boneyard.fast.FastGame` (which holds every hand); a subclass or any other object decides from its seat's
view, so it sees what its seat may see, its own ``choose`` is the one that plays, and the rules check its move.
And the tournament's score plot when a player holds several seats of a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from boneyard.errors import BoneyardError
from boneyard.fast import FastGame
from boneyard.moves import Move
from boneyard.players.base import GreedyPlayer, RandomPlayer, fast_chooser, legal_choices, move_order
from boneyard.rules.base import make_rules
from boneyard.sim.engines import Played, play_game
from boneyard.sim.tournament import tournament
from boneyard.view import SeatView


class LastChoice(GreedyPlayer):
    """Greedy's subclass that plays the last of its legal choices instead of greedy's."""

    def choose(self, view: SeatView) -> Move:
        return sorted(legal_choices(view), key=move_order)[-1]


class ViewOnly:
    """A player of one's own that has a ``choose_action`` it must never be asked: it would see the whole deal."""

    name = "view-only"

    def __init__(self) -> None:
        self.views = 0

    def choose(self, view: SeatView) -> Move:
        self.views += 1
        return sorted(legal_choices(view), key=move_order)[0]

    def choose_action(self, game: FastGame) -> int:
        raise AssertionError("a player of one's own was handed the fast game, every hidden tile with it")


class Cheat(RandomPlayer):
    """Random's subclass whose ``choose`` returns a move the rules refuse."""

    def choose(self, view: SeatView) -> Move:
        return Move.passing()


def outcome(played: Played) -> tuple[object, ...]:
    return played.winner, tuple(played.scores), played.hands, played.moves


@pytest.mark.parametrize("variant", ["block", "draw", "all-fives", "bergen", "pip"])
def test_a_subclass_plays_its_own_choice_on_both_engines(variant: str) -> None:
    rules = make_rules(variant, 2)
    differs = False
    for seed in range(6):
        fast = play_game(rules, seed, [LastChoice(seed), RandomPlayer(seed + 1)], engine="fast")
        reference = play_game(rules, seed, [LastChoice(seed), RandomPlayer(seed + 1)], engine="reference")
        assert fast.engine == "fast" and reference.engine == "reference"
        assert outcome(fast) == outcome(reference), f"{variant}, seed {seed}"
        greedy = play_game(rules, seed, [GreedyPlayer(seed), RandomPlayer(seed + 1)], engine="fast")
        differs = differs or outcome(greedy) != outcome(fast)
    assert differs, "the subclass's own choice never changed a game: the test would not see greedy's in its place"


def test_a_player_of_ones_own_is_never_handed_the_fast_game() -> None:
    rules = make_rules("all-fives", 2)
    player = ViewOnly()
    played = play_game(rules, 3, [player, GreedyPlayer(4)], engine="fast")
    assert played.engine == "fast"
    assert played.winner is not None
    assert player.views > 0


def test_a_subclass_that_chooses_a_refused_move_is_stopped_with_the_game_named() -> None:
    rules = make_rules("block", 2)
    with pytest.raises(BoneyardError, match=r"the block game dealt from seed 5, hand 1: the player in seat 0"):
        play_game(rules, 5, [Cheat(1), GreedyPlayer(2)], engine="fast")


def test_only_the_built_in_levels_choose_on_the_fast_game() -> None:
    assert fast_chooser(RandomPlayer(1)) is not None
    assert fast_chooser(GreedyPlayer(1)) is not None
    for player in (LastChoice(1), ViewOnly(), Cheat(1)):
        assert fast_chooser(player) is None


def test_the_score_histogram_says_when_it_counts_seats_not_games(tmp_path: Path) -> None:
    """In a gauntlet of three seats the field's player holds two seats of every game, so its bars count seats."""
    three = tournament("block", ["greedy", "random"], games=2, seats=3, format="gauntlet", workers=1,
                       out=tmp_path / "three")
    field = next(row for row in three["table"] if row["player"] == "random")
    assert len(three["scores"]["random"]["values"]) == 2 * field["games"]
    scores = Path(three["files"]["scores_svg"]).read_text(encoding="utf-8")
    assert "seats held (a score per seat of each game)" in scores
    two = tournament("block", ["greedy", "random"], games=2, workers=1, out=tmp_path / "two")
    scores = Path(two["files"]["scores_svg"]).read_text(encoding="utf-8")
    assert "seats held" not in scores and "games" in scores
