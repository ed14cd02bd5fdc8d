"""The game equity the expert plays for in Bergen (:mod:`boneyard.players.expert.equity`)."""

from __future__ import annotations

import random
from math import comb

import pytest

import boneyard
from boneyard.fast import FastGame
from boneyard.players.expert.equity import Equity, HandPoints, game_equity, hand_points
from boneyard.players.expert.objective import WIN_VALUE, Objective
from boneyard.players.expert.search import ExpertPlayer, Search
from boneyard.rules.base import make_rules
from boneyard.view import SeatView


def coin_race(mine: int, theirs: int) -> float:
    """The chance of ``mine`` heads before ``theirs`` tails with a fair coin: at least ``mine`` heads in
    ``mine + theirs - 1`` tosses."""
    tosses = mine + theirs - 1
    return sum(comb(tosses, k) for k in range(mine, tosses + 1)) / 2 ** tosses


@pytest.mark.parametrize(("mine", "theirs"), [(1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (4, 4), (5, 2), (1, 7)])
def test_one_point_a_hand_to_either_player_is_a_coin_race(mine: int, theirs: int) -> None:
    equity = Equity(10, [(1, 0, 0.5), (0, 1, 0.5)])
    assert equity.win(mine, theirs) == pytest.approx(coin_race(mine, theirs))


def test_hands_that_score_nothing_do_not_change_the_chances() -> None:
    plain = Equity(10, [(1, 0, 0.5), (0, 1, 0.5)])
    idle = Equity(10, [(1, 0, 0.25), (0, 1, 0.25), (0, 0, 0.5)])
    assert idle.win(3, 5) == pytest.approx(plain.win(3, 5))


def test_when_both_reach_the_target_the_higher_score_wins_and_a_tie_is_level() -> None:
    equity = Equity(10, [(3, 2, 0.5), (2, 2, 0.5)])
    assert equity.win(2, 2) == pytest.approx(0.5 * 1.0 + 0.5 * 0.5)  # 3-2 over the line wins; 2-2 is level
    assert equity.win(0, 0) == 0.5 and equity.win(0, 3) == 1.0 and equity.win(3, 0) == 0.0


def test_bergen_s_table_is_symmetric_and_rewards_being_closer() -> None:
    rules = make_rules("bergen", 2)
    equity = Equity.counted(15, hand_points(rules, 300))
    for mine in range(1, 16):
        for theirs in range(1, 16):
            assert equity.win(mine, theirs) + equity.win(theirs, mine) == pytest.approx(1.0)
            if mine > 1:
                assert equity.win(mine - 1, theirs) >= equity.win(mine, theirs)
    assert equity.win(15, 15) == pytest.approx(0.5)
    assert equity.win(1, 15) > 0.95


def test_near_the_target_a_header_is_worth_what_the_approach_cap_leaves() -> None:
    """Hands in which one player or the other makes one double header and nothing else: 2 points apiece far from
    the target, but 1 from 13 or 14 (BRG-8), so two players who each need 1 or 2 run a one-point coin race."""
    hands = [HandPoints(((2,), ()), (0, 0))]
    capped = Equity.counted(15, hands, FastGame(make_rules("bergen", 2), deal=False).adjusted_points)
    plain = Equity.counted(15, hands)
    for mine, theirs in ((1, 2), (2, 1), (2, 2), (1, 1)):
        assert capped.win(mine, theirs) == pytest.approx(coin_race(mine, theirs))
    assert plain.win(1, 2) == pytest.approx(0.5)  # uncapped, the header takes either player home
    assert capped.win(1, 2) == pytest.approx(0.75)
    # a triple header from 12 (need 3) brings 2, so it takes a second header to win
    triples = [HandPoints(((3,), ()), (0, 0))]
    assert Equity.counted(15, triples).win(3, 1) == pytest.approx(0.5)
    capped_triples = Equity.counted(15, triples, FastGame(make_rules("bergen", 2), deal=False).adjusted_points)
    assert capped_triples.win(3, 1) == pytest.approx(0.25)
    uncapped = FastGame(make_rules("bergen", 2, {"approach_cap": False}), deal=False).adjusted_points
    assert Equity.counted(15, hands, uncapped).win(1, 2) == pytest.approx(0.5)


def test_the_engine_adjusts_a_play_s_points_to_the_score_as_the_rules_do() -> None:
    bergen = FastGame(make_rules("bergen", 2), deal=False)
    assert [bergen.adjusted_points(3, score) for score in (11, 12, 13, 14, 15)] == [3, 2, 1, 1, 1]
    assert [bergen.adjusted_points(2, score) for score in (12, 13)] == [2, 1]
    assert FastGame(make_rules("bergen", 2, {"target": 10}), deal=False).adjusted_points(3, 8) == 1
    assert FastGame(make_rules("bergen", 2, {"approach_cap": False}), deal=False).adjusted_points(3, 14) == 3
    assert FastGame(make_rules("all-fives", 2), deal=False).adjusted_points(10, 245) == 10


def test_bergen_s_counted_hands_are_the_plays_before_the_cap_and_the_winner_s_bonus() -> None:
    rules = make_rules("bergen", 2)
    hands = hand_points(rules, 300)
    assert all(sorted(hand.end) in ([0, 0], [0, 2]) for hand in hands)  # a bonus of 2 to the winner, if any
    assert all(points in (2, 3) for hand in hands for plays in hand.plays for points in plays)  # headers
    # the table the expert uses applies the cap: needing 2, a player is further from winning than without it
    table = game_equity(SeatView(boneyard.new_game("bergen", 2, seed=1), 0))
    assert table is not None
    plain = Equity.counted(15, hand_points(rules))
    assert table.win(2, 5) < plain.win(2, 5) - 0.05
    assert table.win(9, 9) == pytest.approx(0.5)
    uncapped = game_equity(SeatView(boneyard.new_game("bergen", 2, seed=1, options={"approach_cap": False}), 0))
    assert uncapped is not None and uncapped.win(2, 5) == pytest.approx(plain.win(2, 5))


def test_the_table_is_counted_from_a_fixed_seed() -> None:
    rules = make_rules("bergen", 2)
    assert hand_points(rules, 50) == hand_points(rules, 50)
    assert len(set(hand_points(rules, 50))) > 5  # hands score differently


def test_where_the_expert_plays_for_the_game() -> None:
    view = SeatView(boneyard.new_game("bergen", 2, seed=1), 0)
    table = game_equity(view)
    assert table is not None and table.target == 15
    assert game_equity(SeatView(boneyard.new_game("bergen", 2, seed=2), 1)) is table  # counted once per rules
    short = game_equity(SeatView(boneyard.new_game("bergen", 2, seed=1, options={"target": 10}), 0))
    assert short is not None and short.target == 10
    for variant, players in (("bergen", 3), ("block", 2), ("draw", 2), ("pip", 2), ("flower-scorpion", 2)):
        assert game_equity(SeatView(boneyard.new_game(variant, players, seed=1), 0)) is None, (variant, players)


def test_the_objective_values_a_score_by_the_chance_of_winning_the_game() -> None:
    game = boneyard.new_game("bergen", 2, seed=1)
    view = SeatView(game, 0)
    equity = game_equity(view)
    assert equity is not None
    objective = Objective(view, equity)
    assert objective.outcome([15, 9], True, 0) == WIN_VALUE
    assert objective.outcome([9, 15], True, 1) == -WIN_VALUE
    assert objective.outcome([0, 0], False, None) == pytest.approx(0.0, abs=1e-9)
    # two points are worth more close to the target than far from it
    near = objective.outcome([13, 10], False, None) - objective.outcome([11, 10], False, None)
    far = objective.outcome([2, 10], False, None) - objective.outcome([0, 10], False, None)
    assert near > far > 0
    assert Objective(view).outcome([13, 10], False, None) == 3.0  # without the table: the points


def test_the_expert_searches_for_the_game_in_bergen_unless_told_not_to() -> None:
    game = boneyard.new_game("bergen", 2, seed=4)
    view = SeatView(game, game.turn)
    assert Search(view, random.Random(0)).objective.equity is not None
    assert Search(view, random.Random(0), equity=False).objective.equity is None
    assert ExpertPlayer(equity=0).search(view, random.Random(0)).objective.equity is None
    block = boneyard.new_game("block", 2, seed=4)
    assert Search(SeatView(block, block.turn), random.Random(0)).objective.equity is None
