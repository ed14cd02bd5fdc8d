"""The rule functions both engines call, on RULES.md's worked examples (numbers in the test names).

These are the one copy of each variant's leads, scoring and hand-end decisions (docs/architecture.md): pure functions
of pip totals, tile counts, line ends and scores.  The reference Game reaches them through its Rules hooks and
the fast engine directly; here they are called with the examples' numbers.
"""

from __future__ import annotations

import random

from boneyard.chance import deal_indices
from boneyard.rules.all_fives import AllFivesOptions, count_points, fives_hand_end
from boneyard.rules.base import called_leader, make_rules
from boneyard.rules.bergen import (
    NO_DOUBLE,
    approach_capped,
    bergen_blocked_winner,
    bergen_lead_double,
    bergen_leader_by_lot,
    double_must_lead,
    family_bonus,
    first_leader_by_lot,
    header_points,
    rotating_leader,
)
from boneyard.rules.block import block_game_over, block_hand_end, partnership_hand_end
from boneyard.rules.double_bergen import double_bergen_hand_end, double_drawer, double_setter, tip_points
from boneyard.rules.draw import dead_layout
from boneyard.rules.flower_scorpion import (
    FlowerScorpionOptions,
    blocked_winner,
    floored,
    master_lead_double,
    play_scores,
)
from boneyard.rules.pip import (
    directional_effect,
    pip_game_over,
    pip_hand_end,
    settle_doubles,
    starter_drawer,
    starter_holder,
)
from boneyard.tiles import A, D, R, S


def no_tie(seat: int) -> tuple[int, int]:
    raise AssertionError("the lightest tile was asked for without a tie")


def test_blk_example_3_blocked_scores() -> None:
    pips = [8, 12, 20]
    assert block_hand_end(pips, None, no_tie, "lightest_tile", "opponents_total") == (0, 32)
    assert block_hand_end(pips, None, no_tie, "lightest_tile", "opponents_minus_own") == (0, 24)
    assert block_hand_end(pips, None, no_tie, "lightest_tile", "sum_of_differences") == (0, 16)
    assert block_hand_end(pips, None, no_tie, "lightest_tile", "all_pips") == (0, 40)


def test_blk_example_2_tie_goes_to_the_lightest_tile_or_to_nobody() -> None:
    lightest = {0: (3, 1), 1: (7, 3)}.__getitem__  # A's 1-2, B's 3-4
    assert block_hand_end([17, 17], None, lightest, "lightest_tile", "opponents_total") == (0, 17)
    assert block_hand_end([17, 17], None, lightest, "no_score", "opponents_total") == (None, 0)


def test_c12_partnership_blocked_hand_both_readings() -> None:
    # side 0+2 holds 5 + 30 = 35, side 1+3 holds 10 + 12 = 22: side_total gives it to 1+3, lowest_hand to 0+2
    pips = [5, 10, 30, 12]
    assert partnership_hand_end(pips, None, no_tie, "side_total") == (1, 57)
    assert partnership_hand_end(pips, None, no_tie, "lowest_hand") == (0, 57)
    assert partnership_hand_end([4, 9, 9, 4], None, no_tie, "side_total") == (None, 0)
    assert block_game_over([100, 40, 100, 40], 100, partnerships=True) == (True, 0)
    assert block_game_over([100, 40, 100, 40], 100, partnerships=False) == (False, None)


def test_a5_examples_4_and_5_hand_bonus() -> None:
    opts = AllFivesOptions()
    assert fives_hand_end(opts, 1, "domino", 0, [0, 3]) == (0, [5, 0])
    assert fives_hand_end(opts, 1, "domino", 0, [0, 2]) == (0, [0, 0])
    assert fives_hand_end(opts, 1, "domino", 0, [0, 13, 9]) == (0, [20, 0, 0])
    per_opponent = AllFivesOptions(bonus_rounding="per_opponent")
    assert fives_hand_end(per_opponent, 1, "domino", 0, [0, 13, 9]) == (0, [25, 0, 0])
    assert fives_hand_end(opts, 1, "blocked", None, [4, 9, 11]) == (0, [20, 0, 0])
    split = AllFivesOptions(tie_rule="split_3p")
    assert fives_hand_end(opts, 1, "blocked", None, [9, 9, 11]) == (None, [0, 0, 0])
    assert fives_hand_end(split, 1, "blocked", None, [9, 9, 11]) == (None, [5, 5, 0])
    assert [count_points(count, 1) for count in (10, 14, 35, 0)] == [10, 0, 35, 0]
    assert count_points(35, 5) == 7


def test_brg_examples_headers_cap_and_blocked_winners() -> None:
    assert header_points(6, 1, 6, 1) == 2  # a lone lead double: two ends of one exposed half
    assert header_points(2, 2, 2, 1) == 3  # [2-2] | 2
    assert header_points(2, 1, 4, 1) == 0
    assert [approach_capped(3, 15 - score) for score in (11, 12, 13, 14)] == [3, 2, 1, 1]  # example 2
    # example 3: A [0-0][1-2], B [1-1], C [2-2]
    pips, doubles, sizes, lowest = [3, 2, 4], [1, 1, 1], [2, 1, 1], [0, 1, 2]
    args = (pips, doubles.__getitem__, sizes.__getitem__, lowest.__getitem__)
    assert bergen_blocked_winner("simple", *args) == 1
    assert bergen_blocked_winner("german", *args) == 1
    assert bergen_blocked_winner("american", *args) == 0
    assert bergen_blocked_winner("simple", [9, 9], *args[1:]) is None  # example 4
    assert [family_bonus(5, "domino"), family_bonus(5, "blocked"), family_bonus(1, "blocked")] == [5, 2, 1]


def test_dbg_examples_2_to_5_tips_and_round_end() -> None:
    assert tip_points([(1, 1), (1, 1), (6, 1), (0, 1)], False) == 2
    assert tip_points([(1, 2), (1, 1), (6, 1), (0, 1)], False) == 3
    assert tip_points([(1, 2), (1, 1), (1, 1), (0, 1)], False) == 4
    assert tip_points([(2, 2), (2, 1), (5, 2), (5, 1)], False) == 6
    assert tip_points([(3, 2), (3, 1), (3, 1), (3, 1)], False) == 5
    assert tip_points([(4, 2), (2, 1), (5, 1), (0, 1)], False) == 0
    assert tip_points([(4, 2), (2, 1), (5, 1), (0, 1)], True) == 2
    assert tip_points([(1, 2), (2, 2), (3, 2), (5, 2)], True) == 8
    assert double_bergen_hand_end("winner_plus_1", 0, [0, 9, 4], [0, 3, 1]) == (0, [1, 0, 0])
    assert double_bergen_hand_end("tile_penalty", 0, [0, 9, 4], [0, 3, 1]) == (0, [0, -3, -1])


def test_fs_examples_play_scores_floor_and_blocked_round() -> None:
    opts = FlowerScorpionOptions()
    flower, scorpion = (5, 3), (6, 2)
    assert sum(play_scores(3, 1, 5, 1, (5, 4), flower, scorpion, opts)) == 1  # example 1
    assert sum(play_scores(5, 1, 5, 1, (5, 3), flower, scorpion, opts)) == 3  # example 2
    assert sum(play_scores(3, 2, 5, 1, (3, 3), flower, scorpion, opts)) == 2  # example 3
    assert sum(play_scores(2, 1, 2, 1, (6, 2), flower, scorpion, opts)) == 1  # example 4
    assert play_scores(4, 2, 4, 1, (4, 4), (4, 4), scorpion, opts) == (3, 1, 2, 0, 0)  # example 5
    assert sum(play_scores(6, 2, 6, 1, (6, 6), flower, (6, 6), opts)) == -3  # example 6
    assert sum(play_scores(1, 1, 3, 2, (3, 3), (3, 1), (3, 3), opts)) == 1  # example 9
    assert sum(play_scores(1, 1, 4, 1, (4, 1), (4, 1), (4, 1), opts)) == 0  # example 10
    assert floored(-1, 0, 0) == 0 and floored(-3, 2, 0) == -2 and floored(-3, 2, None) == -3  # example 11
    lowest = [0, 1, NO_DOUBLE]  # example 12: A [2-6][0-0], B [1-1][4-4], C [0-3]
    assert blocked_winner(opts, 3, None, 0, False, [8, 10, 3].__getitem__, lowest.__getitem__) == 0
    assert blocked_winner(opts, 3, None, None, False, [8, 10, 3].__getitem__, lowest.__getitem__) == 0
    none = [NO_DOUBLE] * 3
    assert blocked_winner(opts, 3, None, None, False, [8, 10, 3].__getitem__, none.__getitem__) is None


def test_fs_play_items_are_plain_numbers() -> None:
    """Every item of a play is an ``int`` (never a ``bool``): the reference names each one in a
    ``ScoreItem`` that records and the web table write out."""
    opts = FlowerScorpionOptions(long_pairs="all_pairs")
    flower, scorpion = (5, 3), (6, 2)
    for played in ((5, 3), (6, 2), (4, 1)):
        for ends in ((5, 1, 3, 1), (6, 2, 2, 1), (4, 1, 4, 1), (0, 1, 1, 1)):
            items = play_scores(*ends, played, flower, scorpion, opts)
            assert len(items) == 5 and all(type(item) is int for item in items), (played, ends, items)
    assert play_scores(5, 1, 3, 1, (5, 3), flower, scorpion, opts) == (0, 1, 1, 0, 0)
    assert play_scores(6, 1, 2, 2, (6, 2), flower, scorpion, opts) == (0, 0, 0, -1, -2)


def test_pip_examples_2_and_4_round_end_and_owed_double() -> None:
    assert pip_hand_end("domino", 0, [0, 83, 68], [6, 40, 12]) == (0, 6)  # 6 + 0 - 10 floored at 0
    assert pip_hand_end("blocked", None, [45, 7, 21], [0, 0, 0]) == (None, 0)
    assert pip_game_over([30, 30, 40], 9, True) == (True, None)  # equal lowest totals share the win
    assert pip_game_over([20, 30, 40], 8, True) == (False, None)
    owed = settle_doubles((), 1, 5, True)  # A plays 5-5 (tile 5) on an open 5
    assert owed == ((5, 3),)
    owed = settle_doubles(owed, 5, 6, False)  # B covers toe 1
    owed = settle_doubles(owed, 5, 7, False)  # D covers toe 2
    assert settle_doubles(owed, 5, 8, False) == ()  # A's S-W on toe 3 completes the double


def test_pip_16_directional_effects() -> None:
    assert directional_effect(S, 0, 4, 1, 10, False) == (2, 1, False, False)
    assert directional_effect(R, 0, 4, 1, 10, False) == (3, -1, False, False)
    assert directional_effect(R, 0, 2, 1, 10, False) == (1, -1, False, False)
    assert directional_effect(R, 0, 2, 1, 10, True) == (0, -1, False, False)
    assert directional_effect(A, 1, 4, -1, 10, False) == (1, -1, False, False)
    assert directional_effect(D, 1, 4, -1, 10, False) == (0, -1, True, False)
    assert directional_effect(D, 1, 4, -1, 0, False) == (1, -1, False, True)


def test_drw_8_dead_layout() -> None:
    on_table = {4: 7, 6: 7, 2: 3}.get
    assert dead_layout([4, 6], lambda n: on_table(n) or 0, 7)
    assert not dead_layout([4, 2], lambda n: on_table(n) or 0, 7)
    assert not dead_layout([], lambda n: 7, 7)


# ---------------------------------------------------------------- leads
def test_blk_3_call_goes_to_the_highest_double_then_the_heaviest_tile() -> None:
    assert called_leader([3, 6, -1], no_tie) == 1  # 6-6 leads
    assert called_leader([-1, 0, -1], no_tie) == 1  # only 0-0 is out
    heaviest = {0: (9, 5), 1: (11, 6), 2: (10, 6)}.__getitem__  # 4-5, 5-6, 4-6: no double out, 5-6 leads
    assert called_leader([-1, -1, -1], heaviest) == 1


def test_leaders_by_lot_and_rotation() -> None:
    assert first_leader_by_lot(1) and not first_leader_by_lot(2)
    assert rotating_leader(None, 4) is None  # hand 1: chance picked
    assert rotating_leader(3, 4) == 0
    assert bergen_leader_by_lot("rotate_any_tile", 1) and not bergen_leader_by_lot("rotate_any_tile", 2)
    assert not bergen_leader_by_lot("highest_double", 1)
    block = make_rules("block", 2, {"first_lead": "random_player_any_tile"})
    assert block.leader_by_lot(1) and not block.leader_by_lot(2)
    assert make_rules("double-bergen", 2).leader_by_lot(1)
    assert not make_rules("pip", 2).leader_by_lot(1)


def test_brg_4_highest_or_lowest_double_leads() -> None:
    doubles = [[2, 5], [], [0, 6]]
    assert double_must_lead("highest_double") and not double_must_lead("rotate_any_tile")
    assert bergen_lead_double("highest_double", doubles) == (2, 6)
    assert bergen_lead_double("lowest_double", doubles) == (2, 0)
    assert bergen_lead_double("lowest_double", [[4], [1, 3]]) == (1, 1)
    assert bergen_lead_double("highest_double", [[], []]) is None  # a deal the rules redeal


def test_fs_6_master_leads_his_heaviest_double() -> None:
    assert master_lead_double("heaviest_double_in_hand", [1, 4, 3]) == 4
    assert master_lead_double("heaviest_double_in_hand", []) is None  # no double: any tile
    assert master_lead_double("any", [1, 4]) is None


def test_dbg_4_who_sets_the_double() -> None:
    assert double_setter(2, [True, False, False, False]) == 0  # the first to the designated leader's left
    assert double_setter(1, [True, True, False]) == 1  # the designated leader himself
    assert double_setter(0, [False, False]) is None
    # nobody holds one: from the designated seat 1 of 3, they draw in turn; the fourth draw (seat 1) is 3-3
    assert double_drawer(1, 3, [False, False, False, True, False]) == (4, 1)
    assert double_drawer(0, 2, [False, False]) is None  # the boneyard gives none


def test_pip_6_who_places_the_starter() -> None:
    # holds[c][seat]: c = 0 the round's double r-r, 1 W-W
    assert starter_holder([[False, False, True], [True, False, False]]) == (2, 0)  # r-r before W-W
    assert starter_holder([[False, False, False], [False, True, False]]) == (1, 1)  # no r-r dealt: W-W's holder
    assert starter_holder([[False, False], [False, False]]) is None
    # neither dealt: the scorekeeper (seat 0) and then clockwise draw; the fifth draw (seat 1 of 4) is a starter
    assert starter_drawer(4, [False, False, False, False, True, True]) == (5, 0)
    assert starter_drawer(3, [False, False, False, False, True]) == (5, 1)
    assert starter_drawer(2, [False, False]) is None  # the stock holds neither


def test_deal_indices_redeals_until_acceptable_and_draws_the_leader_and_dice() -> None:
    def has_zero(hands: list[list[int]]) -> bool:
        return any(0 in hand for hand in hands)

    deal = deal_indices(random.Random(5), 28, 7, 2, acceptable=has_zero, leader_by_lot=True, dice=True)
    assert any(0 in hand for hand in deal.hands)
    assert sorted(deal.hands[0] + deal.hands[1] + deal.stock) == list(range(28))
    assert deal.leader in (0, 1) and deal.dice is not None
    assert deal_indices(random.Random(5), 28, 7, 2).leader is None
