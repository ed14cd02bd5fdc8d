"""The hint's reason in plain words (boneyard.players.expert.hint), on positions built by hand."""

from __future__ import annotations

import random
import re

from boneyard import new_game
from boneyard.moves import Move
from boneyard.players.expert.hint import explain, hint_move, suit_name
from boneyard.view import SeatView
from tests.helpers import play, start_exact, start_filled
from tests.test_pip import arrange, round_one

BLOCK_STOCK = "3-0 3-1 3-2 3-3 4-0 4-1 4-2 4-4 5-0 5-4 5-5 6-3 6-4 6-5"


def test_a_play_that_scores_says_how_much_and_one_that_does_not_does_not() -> None:
    game = start_filled("all-fives", 3, ["5-5", "5-0 5-4", "5-3"], stock="6-6")
    game.names = ["Ann", "You", "Carl"]
    play(game, "5-5")  # A5 example 2: the lone spinner counts 10
    view = SeatView(game, 1)
    assert explain(view, Move.parse("5-0@1")) == "scores 10"  # 5-5 still shows 10
    assert explain(view, Move.parse("5-4@1")) == "keeps your 5s"  # 10 + 4 = 14 scores nothing


def test_keeps_your_suit_blocks_theirs_and_names_a_known_void() -> None:
    game = start_exact("block", 2, ["3-4 5-3 5-1 5-2 6-1 6-2 1-1", "0-0 0-1 0-2 1-2 2-2 6-0 6-6"],
                       stock=BLOCK_STOCK, leader=0, first_lead="random_player_any_tile")
    game.names = ["You", "Computer 1"]
    play(game, "4-3 pass")  # Computer 1 had no 3 and no 4
    view = SeatView(game, 0)
    # 5-3 on the 3: a 5 end for your 5-1 and 5-2; your last 3 covers the only 3 end while 3s are
    # still out; the 4 end stays open for a player known to have none
    assert explain(view, Move.parse("3-5@1")) == "keeps your 5s; blocks the 3s; Computer 1 has no 4s"


def test_a_give_names_the_weight_handed_over() -> None:
    game = round_one()
    arrange(game, {1: "W-D 5-2 9-8", 2: "1-3"}, stock="")
    play(game, "W-D@1")
    assert explain(SeatView(game, 1), Move.parse("give 9-8")) == "hands over a heavy tile (17 points)"


def test_blanks_are_called_blanks() -> None:
    assert suit_name(0) == "blanks" and suit_name(5) == "5s"


def test_the_reason_quotes_no_search_statistics() -> None:
    rng = random.Random(3)
    reasons = []
    for seed in range(6):
        game = new_game("draw", seed=seed, names=["You", "Computer 1"])
        while game.in_hand and (game.turn != 0 or len(game.legal_moves()) < 2 or len(game.layout) < 3):
            legal = game.legal_moves()
            game.apply(rng.choice([m for m in legal if m.is_placement] or legal))
        if game.in_hand:
            move, reason = hint_move(SeatView(game, 0), samples=8, seed=seed)
            assert move in game.legal_moves()
            reasons.append(reason)
    assert reasons
    for reason in reasons:
        assert reason and not re.search(r"\d\.\d|sampled|average|over \d+", reason), reason
