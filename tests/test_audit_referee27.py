"""Audit 27: hand-worked records for the config keys, set sizes and player counts no earlier record replayed.

Earlier audits (22a-22g, rules3, pip, all_fives, bergen_family, block_draw) replay hand-worked records for every
option at the double-six set and mostly with 2-3 players; larger sets appear there only for Block/Draw with
double-nine and All Fives with double-nine for 3 players.  The records below go to: the double-twelve set (Block,
Draw, All Fives: C13's 9-tile hands, the call from 12-12, a spinner of 12s), double-nine Bergen, Five-Up and
Double Bergen, C13's 7-player hand of 6 with the call falling to 8-8, ``deal_sizes`` given per player count,
Block's ``lead_rule=rotate`` against ``winner_any``, Bergen's default 4-player game (hands of 5, target 10: the
approach cap depends on it) and ``cover_lead_double_first`` forcing a draw, All Fives' ``bonus_rounding`` with
``score_unit=fives``, Flower & Scorpion with 4 players and FS-13's end-of-round tie, and PIP with 5 players
(reverse, skip and draw tiles in one round, with and without ``draw_tile_skips``).

Every expected number was worked out by hand from RULES.md (v1.1, §1-§9a) and RECORD.md before the replay was
run; the comments carry the arithmetic.  ``@k`` is tile k of the hand (the lead is 1; draws place no tile); a
move ``J-O@k`` joins half J.  A hand's stock is ``front``, then every other tile of the set in canonical order.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from boneyard import record
from boneyard.errors import BoneyardError
from boneyard.tiles import double_set
from tests.test_audit_rules3 import PIP, canon, game_end, items, points, rec, replay, seats, summary

Json = dict[str, Any]


def full_set(top: int) -> list[str]:
    return [str(tile) for tile in double_set(top)]


def hand(deal: list[str], moves: str, *, top: int = 6, tiles: list[str] | None = None, front: str = "",
         **extra: Any) -> Json:
    """One hand: ``deal`` is one space-separated string per seat; the stock is ``front`` (drawn first), then
    every other tile of the set in canonical order."""
    seats = [d.split() for d in deal]
    first = front.split()
    every = tiles if tiles is not None else full_set(top)
    used = [canon(t) for seat in seats for t in seat] + [canon(t) for t in first]
    assert len(set(used)) == len(used), "a tile is dealt twice"
    assert set(used) <= set(every), "a tile is not in the set"
    stock = first + [t for t in every if t not in set(used)]
    return {"deal": seats, "stock": stock, "moves": moves.split(), **extra}


def refusal(variant: str, players: int, hands: list[Json], **options: Any) -> str:
    with pytest.raises(BoneyardError) as caught:
        record.replay(rec(variant, players, hands, **options))
    return str(caught.value)


# ================================================================== Block (§2, C13)
# Double-twelve, 3 players: C13 deals 9 each and the call starts at 12-12 (BLK-3).  P1 holds it; nobody else
# holds a 12, and P1 has no other, so after the lead P2, P0 and P1 pass: blocked (C9(b), 3 passes).
# Left: P0 1-0 … 9-0 = 1+…+9 = 45; P1 1-1 2-1 … 8-1 = 2+3+…+9 = 44; P2 2-2 3-2 … 10-2 = 4+5+…+12 = 72.
# P1 has the lowest total (44).
B12_DEAL = ["1-0 2-0 3-0 4-0 5-0 6-0 7-0 8-0 9-0", "12-12 1-1 2-1 3-1 4-1 5-1 6-1 7-1 8-1",
            "2-2 3-2 4-2 5-2 6-2 7-2 8-2 9-2 10-2"]


@pytest.mark.parametrize(
    "blocked_score,score",
    [
        ("opponents_total", 117),  # 45 + 72 (BLK-10 default): reaches the target 100 (C13: targets stay)
        ("opponents_minus_own", 73),  # 117 - 44
        ("sum_of_differences", 29),  # (45 - 44) + (72 - 44)
        ("all_pips", 161),  # 45 + 44 + 72
    ],
)
def test_block_double_twelve_three_players_called_lead_and_blocked_scores(blocked_score: str, score: int) -> None:
    out = replay("block", 3, [hand(B12_DEAL, "12-12 pass pass pass", top=12)], set=12, blocked_score=blocked_score)
    assert seats(out) == [1, 2, 0, 1]
    assert points(out) == [0, 0, 0, 0]
    assert summary(out) == (1, "blocked", 1, [0, score, 0], [0, score, 0])
    assert game_end(out) == ((True, 1, [0, score, 0]) if score >= 100 else (False, None, [0, score, 0]))


def test_block_double_twelve_deals_nine_not_the_double_six_five() -> None:
    short = [" ".join(d.split()[:5]) for d in B12_DEAL]
    assert "dealt 5 tiles" in refusal("block", 3, [hand(short, "12-12", top=12)], set=12)


# Double-nine, 7 players: C13 deals 6 each.  Nobody was dealt 9-9, so the call falls to 8-8 (P3).  Every other
# tile with an 8 is undealt: after the lead the other six pass and so does P3 -> blocked after 7 passes.
# Left: P0 21 (1+2+3+4+5+6), P1 32 (7+3+4+5+6+7), P2 43 (8+5+6+7+8+9), P3 43 (7+8+9+10+9),
# P4 57 (10+11+11+12+13+0), P5 42 (2+4+…+12), P6 69 (14+9+10+11+12+13).  P0 wins with 21 and scores
# 32+43+43+57+42+69 = 286.
B9_SEVEN = ["1-0 2-0 3-0 4-0 5-0 6-0", "7-0 2-1 3-1 4-1 5-1 6-1", "7-1 3-2 4-2 5-2 6-2 7-2",
            "8-8 4-3 5-3 6-3 7-3 5-4", "6-4 7-4 6-5 7-5 7-6 0-0", "1-1 2-2 3-3 4-4 5-5 6-6",
            "7-7 9-0 9-1 9-2 9-3 9-4"]


def test_block_double_nine_seven_players_call_falls_to_8_8() -> None:
    out = replay("block", 7, [hand(B9_SEVEN, "8-8" + " pass" * 7, top=9)], set=9)
    assert seats(out) == [3, 4, 5, 6, 0, 1, 2, 3]
    assert summary(out) == (3, "blocked", 0, [286, 0, 0, 0, 0, 0, 0], [286, 0, 0, 0, 0, 0, 0])
    assert game_end(out) == (True, 0, [286, 0, 0, 0, 0, 0, 0])


# deal_sizes given per player count (7/6/6: 3 players get 6), lead_rule=rotate.
# Hand 1: P2 is called with 6-6; the other six 6s are undealt, so three passes block.  Left: P0 1-1 2-1 3-1
# 4-1 5-1 2-2 = 2+3+4+5+6+4 = 24; P1 0-0 1-0 … 5-0 = 15; P2 3-2 4-2 4-3 3-3 4-4 = 5+6+7+6+8 = 32.
# P1 wins, +56.  Hand 2 (BLK-4 rotate): the lead passes to the left of the previous leader (P2) -> P0, who
# may lead any tile (0-0, although P1 holds 6-6); P1 and P2 hold no 0.  Under winner_any P1 would lead.
R_H1 = ["1-1 2-1 3-1 4-1 5-1 2-2", "0-0 1-0 2-0 3-0 4-0 5-0", "6-6 3-2 4-2 4-3 3-3 4-4"]
R_H2 = [R_H1[1], R_H1[2], R_H1[0]]


def test_block_deal_sizes_per_player_count_and_rotating_lead() -> None:
    hands = [hand(R_H1, "6-6 pass pass pass"), hand(R_H2, "0-0 pass pass")]
    out = replay("block", 3, hands, deal_sizes="7/6/6", lead_rule="rotate")
    assert seats(out, 0) == [2, 0, 1, 2]
    assert summary(out, 0) == (2, "blocked", 1, [0, 56, 0], [0, 56, 0])
    assert seats(out, 1) == [0, 1, 2]
    assert summary(out, 1) == (0, "unfinished", None, [0, 0, 0], [0, 56, 0])
    assert game_end(out) == (False, None, [0, 56, 0])
    # the same record under the default lead rule: the winner P1 leads hand 2, and he holds no 0-0
    assert refusal("block", 3, hands, deal_sizes="7/6/6").startswith('hand 2, move 1 "0-0"')


# ================================================================== Draw (§3, C13)
# Double-twelve, 2 players, 9 each.  P0 leads the called 12-12; P1 holds no 12: draws 2-2 (kept), draws 12-5 and
# must play it at once (DRW-5); P0 plays 12-3 on the double's other side; P1 plays 5-1 on the 5.
def test_draw_double_twelve_draws_until_playable() -> None:
    deal = ["12-12 12-3 1-0 2-0 3-0 4-0 5-0 6-0 7-0", "1-1 2-1 3-1 4-1 5-1 6-1 7-1 8-1 9-1"]
    out = replay("draw", 2, [hand(deal, "12-12 draw draw 12-5@1 12-3@1 5-1@2", top=12, front="2-2 12-5")], set=12)
    assert seats(out) == [0, 1, 1, 1, 0, 1]
    assert points(out) == [0] * 6
    assert summary(out) == (0, "unfinished", None, [0, 0], [0, 0])
    # the drawn 2-2 is no play: drawing stops only at a playable tile, so passing after it is refused
    bad = hand(deal, "12-12 draw pass", top=12, front="2-2 12-5")
    assert refusal("draw", 2, [bad], set=12).startswith('hand 1, move 3 "pass"')


# ================================================================== All Fives (§4, C13)
# Double-twelve, 2 players, 9 each; 12-12 is called (P0) and is the spinner (A5-6).
#   1 12-12 lone: 2x12 = 24 -> 0        2 12-3 on a side: spinner still counts 24, + 3 = 27 -> 0
#   3 12-1 other side: spinner closed; 3 + 1 = 4 -> 0
#   4 12-6 on a short end (open now): 3 + 1 + 6 = 10 -> P1 +10     5 12-0 other end: 10 -> P0 +10
#   6 3-8 on the 3 tip: 8 + 1 + 6 + 0 = 15 -> P1 +15 (25)
A12 = hand(["12-12 12-1 12-0 1-0 2-0 3-0 4-0 5-0 6-0", "12-3 12-6 8-3 1-1 2-1 3-1 4-1 5-1 6-1"],
           "12-12 12-3@1 12-1@1 12-6@1 12-0@1 3-8@2", top=12)


def test_all_fives_double_twelve_spinner_counts() -> None:
    out = replay("all-fives", 2, [A12], set=12)
    assert points(out) == [0, 0, 0, 10, 10, 15]
    assert summary(out) == (0, "unfinished", None, [0, 0], [10, 25])
    assert game_end(out) == (False, None, [10, 25])  # target stays 250 for 2 players (C13)


def test_all_fives_double_twelve_immediate_win_in_mid_hand() -> None:
    out = replay("all-fives", 2, [A12], set=12, target=25)
    assert points(out) == [0, 0, 0, 10, 10, 15]
    assert summary(out) == (0, "unfinished", None, [0, 0], [10, 25])
    assert game_end(out) == (True, 1, [10, 25])


# 3 players, 2 tiles each (deal_sizes=2).  P0 is called with 6-6 (the spinner).
#   1 6-6: 12 -> 0    2 P1 6-1 on a side: 12 + 1 = 13 -> 0    3 P2 6-0 other side: 1 + 0 = 1 -> 0
#   4 P0 6-3 on a short end: 1 + 0 + 3 = 4 -> 0; P0 dominoes.  Left: P1 5-4 = 9, P2 5-3 = 8.
A5_BONUS = hand(["6-6 6-3", "6-1 5-4", "6-0 5-3"], "6-6 6-1@1 6-0@1 6-3@1")


@pytest.mark.parametrize(
    "options,bonus",
    [
        ({}, 15),  # round5(9 + 8) = round5(17) = 15 (A5-11, combined total rounded once)
        ({"bonus_rounding": "per_opponent"}, 20),  # round5(9) + round5(8) = 10 + 10
        ({"score_unit": "fives"}, 3),  # 15 / 5
        ({"score_unit": "fives", "bonus_rounding": "per_opponent"}, 4),  # 20 / 5
        ({"blocked_score": "opponents_minus_own"}, 15),  # a domino: the blocked-hand option does not apply
    ],
)
def test_all_fives_three_player_domino_bonus_rounding_and_unit(options: Json, bonus: int) -> None:
    out = replay("all-fives", 3, [A5_BONUS], deal_sizes=2, **options)
    assert seats(out) == [0, 1, 2, 0]
    assert points(out) == [0, 0, 0, 0]
    assert summary(out) == (0, "domino", 0, [bonus, 0, 0], [bonus, 0, 0])
    assert game_end(out) == (False, None, [bonus, 0, 0])


# Five-Up (spinner_mode=all_doubles) with double-nine and 4 players: C13 deals 7 each.  P1 is called with 9-9.
#   1 P1 9-9 lone: 18 -> 0        2 P2 9-1 side: 18 + 1 = 19 -> 0      3 P3 9-5 side: 9-9 closed, 1 + 5 = 6 -> 0
#   4 P0 5-5 on the 5 tip: a spinner with one side (its parent) taken counts 10: 1 + 10 = 11 -> 0
#   5 P1 9-4 on a short end of 9-9: 1 + 10 + 4 = 15 -> P1 +15
#   6 P2 5-0 on 5-5's free side: 5-5 closed: 1 + 4 + 0 = 5 -> P2 +5
#   7 P3 5-6 on a short end of 5-5 (open now): 1 + 4 + 0 + 6 = 11 -> 0
#   8 P0 9-3 on 9-9's other short end: 14 -> 0     9 P1 4-0 on the 4 tip: 1 + 0 + 0 + 6 + 3 = 10 -> P1 +10
FIVE_UP9 = hand(["5-5 9-3 1-0 2-0 3-0 6-0 7-0", "9-9 9-4 4-0 2-1 3-1 4-1 6-1", "9-1 5-0 7-1 8-1 3-2 4-2 6-2",
                 "9-5 6-5 7-2 8-2 4-3 6-3 7-3"],
                "9-9 9-1@1 9-5@1 5-5@3 9-4@1 5-0@4 5-6@4 9-3@1 4-0@5", top=9)


def test_five_up_double_nine_four_players() -> None:
    out = replay("all-fives", 4, [FIVE_UP9], set=9, spinner_mode="all_doubles")
    assert seats(out) == [1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert points(out) == [0, 0, 0, 0, 15, 5, 0, 0, 10]
    assert summary(out) == (1, "unfinished", None, [0, 0, 0, 0], [0, 25, 5, 0])


@pytest.mark.parametrize(
    "mode,where",
    [
        ("first_double", 'hand 1, move 7 "5-6@4"'),  # 5-5 is crosswise: no face left after 5-0
        ("none", 'hand 1, move 5 "9-4@1"'),  # Muggins: the lead double has no short ends
    ],
)
def test_five_up_record_is_refused_under_the_other_spinner_modes(mode: str, where: str) -> None:
    assert refusal("all-fives", 4, [FIVE_UP9], set=9, spinner_mode=mode).startswith(where)


# ================================================================== Bergen (§5, C13)
# Double-nine, 2 players: 7 each (C13), reserve 2.  The doubles dealt are 7-7 (P0), 8-8 (P0), 9-9 (P1): the
# lowest, 7-7, leads (BRG-4).
#   1 7-7 lone: double header +2     2 P1 7-9: ends [7-7] | 9 -> 0     3 P0 7-8 other side: 9 | 8 -> 0
#   4 P1 9-8 on the 9: 8 | 8 -> double header +2     5 P0 8-8 on an 8: [8-8] | 8 -> triple header +3
BRG9 = hand(["7-7 8-7 8-8 1-0 2-0 3-0 4-0", "9-7 9-8 9-9 2-1 3-1 4-1 5-1"], "7-7 7-9@1 7-8@1 9-8@2 8-8@3", top=9)


def test_bergen_double_nine_lowest_double_leads_and_headers() -> None:
    out = replay("bergen", 2, [BRG9], set=9)
    assert seats(out) == [0, 1, 0, 1, 0]
    assert points(out) == [2, 0, 0, 2, 3]
    assert items(out) == {1: [("double-header", 2)], 4: [("double-header", 2)], 5: [("triple-header", 3)]}
    assert summary(out) == (0, "unfinished", None, [0, 0], [5, 2])


def test_bergen_double_nine_refusals() -> None:
    # highest_double: P1 must lead 9-9
    assert refusal("bergen", 2, [BRG9], set=9, lead_rule="highest_double").startswith('hand 1, move 1 "7-7"')
    short = hand(["7-7 8-7 8-8 1-0 2-0 3-0", "9-7 9-8 9-9 2-1 3-1 4-1"], "7-7", top=9)
    assert "dealt 6 tiles" in refusal("bergen", 2, [short], set=9)


# 4 players, defaults: 5 tiles each (BRG-2), target 10 (BRG-12).  P0 leads 0-0 (lowest double).
#   1 P0 0-0: +2 (2)          5 P0 3-0 on the 3 tip: [0-0] | 0 triple header +3 (5)
#   9 P0 6-0 on the 6 tip: [0-0] | 0 +3 (8)
#   13 P0 5-0 on the 5 tip: [0-0] | 0 triple header 3, but P0 needs 10 - 8 = 2: capped to 1 (9)  (BRG-8)
# Every other play leaves unequal ends (11: [0-0] | [2-2] differ).
BRG4 = hand(["0-0 3-0 6-0 5-0 1-1", "0-1 0-4 0-2 3-1 4-1", "1-2 4-5 2-2 5-1 6-1", "2-3 5-6 2-5 3-3 4-3"],
            "0-0 0-1@1 1-2@2 2-3@3 3-0@4 0-4@5 4-5@6 5-6@7 6-0@8 0-2@9 2-2@10 2-5@11 5-0@12")


@pytest.mark.parametrize(
    "options,last",
    [
        ({}, 1),
        ({"target": 15}, 3),  # needs 7: no cap
        ({"approach_cap": False}, 3),
    ],
)
def test_bergen_four_players_default_target_ten_caps_the_header(options: Json, last: int) -> None:
    out = replay("bergen", 4, [BRG4], **options)
    assert seats(out) == [0, 1, 2, 3] * 3 + [0]
    assert points(out) == [2, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, last]
    assert items(out)[13] == [("triple-header", 3)]
    assert summary(out) == (0, "unfinished", None, [0, 0, 0, 0], [8 + last, 0, 0, 0])


# cover_lead_double_first (BRG-5 option), 2 players.  P0 leads 1-1 (+2); P1 covers one side with 1-4.  P0 holds
# 6-4 and 4-3, which fit the 4 tip, but no 1: the other side of the lead double must be covered first, so P0
# draws 5-3 (no 1), draws 2-1 and plays it on the double (ends 2 | 4).  P1 plays 4-2 on the 4: 2 | 2, +2.
COVER = hand(["1-1 6-4 3-2 5-2 6-2 4-3", "4-1 4-2 6-6 5-5 6-5 5-4"], "1-1 1-4@1 draw draw 1-2@1 4-2@2",
             front="5-3 2-1")


def test_bergen_cover_lead_double_first_forces_a_draw() -> None:
    out = replay("bergen", 2, [COVER], cover_lead_double_first=True)
    assert seats(out) == [0, 1, 0, 0, 0, 1]
    assert points(out) == [2, 0, 0, 0, 0, 2]
    assert summary(out) == (0, "unfinished", None, [0, 0], [2, 2])
    # without the option P0 can play on the 4 tip, so the draw is refused (BRG-6 forced play)
    assert refusal("bergen", 2, [COVER]).startswith('hand 1, move 3 "draw"')


# Bergen, double-twelve, 3 players, lead_rule=rotate_any_tile (random first leader P1, recorded), winner_bonus=5,
# 2 tiles each (deal_sizes=2).  Hand 1: 1 P1 12-3: ends 12 | 3 -> 0   2 P2 12-7: 7 | 3 -> 0
#   3-4 P0 holds 11-0 10-0: draws 7-7 (playable) and plays it on the 7: [7-7] | 3 -> 0
#   5 P1 3-3 on the 3: [7-7] | [3-3] -> 0; P1 is out: a domino scores 5 (BRG-11 option).
# Hand 2: the lead passes to the left of P1 -> P2, any tile (no double needed): 5-4, ends 5 | 4 -> 0.
ROT = [hand(["11-0 10-0", "12-3 3-3", "12-7 8-0"], "12-3 12-7@1 draw 7-7@2 3-3@1", top=12, front="7-7",
            leader=1),
       hand(["11-0 10-0", "12-3 3-3", "5-4 8-0"], "5-4", top=12)]


@pytest.mark.parametrize("bonus,scored", [(5, 5), (2, 2)])
def test_bergen_double_twelve_rotating_lead_and_domino_bonus(bonus: int, scored: int) -> None:
    out = replay("bergen", 3, ROT, set=12, deal_sizes=2, lead_rule="rotate_any_tile", winner_bonus=bonus)
    assert seats(out, 0) == [1, 2, 0, 0, 1]
    assert points(out, 0) == [0] * 5
    assert summary(out, 0) == (1, "domino", 1, [0, scored, 0], [0, scored, 0])
    assert seats(out, 1) == [2]
    assert summary(out, 1) == (2, "unfinished", None, [0, 0, 0], [0, scored, 0])
    assert game_end(out) == (False, None, [0, scored, 0])  # target 10 for 3 players


# ================================================================== Double Bergen (§6, C13)
# Double-nine, 2 players: 7 each.  Designated leader P0 (round 1: recorded) holds no double; the duty passes to
# P1, who holds 9-9 and 5-5 and sets 9-9 (his choice, DBG-4); play continues with P0.
#   1-4 spinner with a free face: +2 each (P1, P0, P1, P0)     5 P1 9-8, fourth face: tips 1 5 3 8 -> 0
#   6 P0 1-5 on the 1: tips 5 5 3 8 -> pair +2     7 P1 5-5 on that 5: [5-5] + 5 = 3 halves -> +3
#   8 P0 3-8 on the 3: [5-5] 5 -> 3, 8 8 -> 2: +5
DBG9 = hand(["9-1 9-3 5-1 8-3 2-0 4-0 6-0", "9-9 9-5 9-8 5-5 7-0 2-1 4-1"],
            "9-9 9-1@1 9-5@1 9-3@1 9-8@1 1-5@2 5-5@6 3-8@4", top=9, leader=0)


@pytest.mark.parametrize("options", [{}, {"spinner_sides_first": True}, {"lone_double_scores": True}])
def test_double_bergen_double_nine_setter_and_arm_tips(options: Json) -> None:
    """The spinner's faces are filled sides first either way (RECORD.md: the first free face in fixed order), and
    the only double at a tip has a partner tip, so neither option changes a number."""
    out = replay("double-bergen", 2, [DBG9], set=9, **options)
    assert seats(out) == [1, 0, 1, 0, 1, 0, 1, 0]
    assert points(out) == [2, 2, 2, 2, 0, 2, 3, 5]
    assert items(out)[8] == [("pairs", 5)]
    assert summary(out) == (0, "unfinished", None, [0, 0], [11, 7])


# DBG worked example 4 (lone doubles at tips), 2 players, designated leader P0 (recorded), who sets 0-0 of his
# three doubles.  1-4 spinner open: +2 each; 5 0-5 fills the fourth face: tips 1 2 3 5 -> 0.  Then 1-1, 2-2,
# 3-3, 5-5 go crosswise on the tips 1, 2, 3, 5: every double is alone in its suit -> 0 by default (DBG-7.3);
# lone_double_scores gives 2 per lone double: 2, 4, 6, then 8 for [1-1] [2-2] [3-3] [5-5] (P-DBG's "four pairs").
LONE = hand(["0-0 0-2 0-5 2-2 5-5 6-4", "0-1 0-3 1-1 3-3 6-3 6-2"],
            "0-0 0-1@1 0-2@1 0-3@1 0-5@1 1-1@2 2-2@3 3-3@4 5-5@5", leader=0)


@pytest.mark.parametrize(
    "options,lone,totals",
    [
        ({}, [0, 0, 0, 0], [4, 4]),
        ({"lone_double_scores": True}, [2, 4, 6, 8], [16, 12]),  # P0 2+2+0+4+8, P1 2+2+2+6
    ],
)
def test_double_bergen_lone_doubles_at_every_tip(options: Json, lone: list[int], totals: list[int]) -> None:
    out = replay("double-bergen", 2, [LONE], **options)
    assert seats(out) == [0, 1, 0, 1, 0, 1, 0, 1, 0]
    assert points(out) == [2, 2, 2, 2, 0, *lone]
    assert summary(out) == (0, "unfinished", None, [0, 0], totals)


# ================================================================== Flower & Scorpion (§7)
# 4 players: 5 tiles each (FS-2).  Flower {3,5}, Scorpion {2,6}; caravan master P2 (recorded), who holds no
# double, so lead_tile=heaviest_double_in_hand leaves him any tile too.
#   1 P2 3-4: ends 3 | 4 -> 0             2 P3 4-5: 3 | 5 long flower +1 (FS worked example 1)
#   3 P0 5-3 (Flower tile) on the 5: 3 | 3 dual +2, short flower +1 = +3 (example 2)
#   4 P1 3-3 on the lead's 3: [3-3] | 3 plural +3      5 P2 3-6 on the 3 tip: [3-3] | 6 -> 0
#   6 P3 6-2 (Scorpion tile): [3-3] | 2 short scorpion -1 (P3 1 -> 0)     7 P0 3-2 on [3-3]: 2 | 2 dual +2
FS4 = hand(["5-3 3-2 4-1 5-1 6-1", "3-3 6-4 6-5 4-2 5-2", "3-4 3-6 1-0 2-0 4-0", "4-5 6-2 5-0 6-0 2-1"],
           "3-4 4-5@1 5-3@2 3-3@1 3-6@3 6-2@5 3-2@4", leader=2, dice={"flower": [3, 5], "scorpion": [2, 6]})


@pytest.mark.parametrize("options", [{}, {"lead_tile": "heaviest_double_in_hand"}])
def test_flower_scorpion_four_players(options: Json) -> None:
    out = replay("flower-scorpion", 4, [FS4], **options)
    assert seats(out) == [2, 3, 0, 1, 2, 3, 0]
    assert points(out) == [0, 1, 3, 3, 0, -1, 2]
    assert items(out) == {2: [("long-flower", 1)], 3: [("dual", 2), ("short-flower", 1)], 4: [("plural", 3)],
                          6: [("short-scorpion", -1)], 7: [("dual", 2)]}
    assert summary(out) == (2, "unfinished", None, [0, 0, 0, 0], [5, 3, 0, 0])


# FS-13 with target 3, 2 players of 2 tiles.  Flower {3,5}, Scorpion {2,6}; P0 is the caravan master.
#   1 P0 3-3 lone: dual +2      2 P1 3-5 (Flower tile) on a side: [3-3] | 5 long flower 2x1 = 2 + short 1 = +3
#   3 P0 5-4 on the 5: [3-3] | 4 -> 0; P0 is out: +2 (FS-12)
FS_END = hand(["3-3 5-4", "3-5 4-1"], "3-3 3-5@1 5-4@2", leader=0, dice={"flower": [3, 5], "scorpion": [2, 6]})


@pytest.mark.parametrize(
    "options,hand_points,finished,winner",
    [
        ({}, [2, 0], True, 0),  # 4 and 3 are both >= 3: the highest wins
        ({"winner_bonus": 1}, [1, 0], False, None),  # 3 and 3: a tie for highest -> another round
    ],
)
def test_flower_scorpion_end_of_round_target(options: Json, hand_points: list[int], finished: bool,
                                             winner: int | None) -> None:
    out = replay("flower-scorpion", 2, [FS_END], deal_sizes=2, target=3, **options)
    assert points(out) == [2, 3, 0]
    totals = [2 + hand_points[0], 3]
    assert summary(out) == (0, "domino", 0, hand_points, totals)
    assert game_end(out) == (finished, winner, totals)


def test_flower_scorpion_immediate_target_stops_at_the_play() -> None:
    # the game ends at move 2 (P1 reaches 3), so the record stops there
    stopped = {**FS_END, "moves": FS_END["moves"][:2]}
    out = replay("flower-scorpion", 2, [stopped], deal_sizes=2, target=3, win_check="immediate")
    assert points(out) == [2, 3]
    assert summary(out) == (0, "unfinished", None, [0, 0], [2, 3])
    assert game_end(out) == (True, 1, [2, 3])


# ================================================================== PIP (§8), 5 players: 9 each, stock 25
# Round 1: P2 holds 1-1 and places it; play goes clockwise from P3 (PIP-7).
#   1 P2 1-1          2 P3 1-5 (a side)      3 P4 1-6 (other side; the hub's ends open)
#   4 P0 W-R on the 5: direction reverses -> P4       5 P4 6-3 on the 6 -> P3
#   6 P3 W-S on a hub end: skips P2 -> P1             7 P1 3-8 on the 3 -> P0
#   8 P0 1-7 on the hub's other end -> P4             9 P4 W-D on the 8 (stock left): P3 draws 9-0, then plays
#   11 P3 7-2 on the 7 (the only open end) -> P2      12 P2 2-4 on the 2 -> P1
PIP5_DEAL = ["R-W 7-1 2-0 3-0 4-0 5-0 6-0 7-0 8-0", "8-3 4-1 8-1 9-1 5-2 6-2 8-2 9-2 4-3",
             "1-1 4-2 5-3 7-3 9-3 5-4 6-4 7-4 8-4", "5-1 S-W 7-2 9-4 6-5 7-5 8-5 9-5 7-6",
             "6-1 6-3 D-W 8-6 9-6 8-7 9-7 9-8 3-2"]
PIP5_MOVES = "1-1 1-5@1 1-6@1 W-R@2 6-3@3 W-S@1 3-8@5 1-7@1 W-D@7 draw"


def test_pip_five_players_reverse_skip_and_draw_tiles() -> None:
    out = replay("pip", 5, [hand(PIP5_DEAL, PIP5_MOVES + " 7-2@8 2-4@10", tiles=PIP, front="9-0")])
    assert seats(out) == [2, 3, 4, 0, 4, 3, 1, 0, 4, 3, 3, 2]
    assert points(out) == [0] * 12
    assert summary(out) == (2, "unfinished", None, [0] * 5, [0] * 5)


def test_pip_five_players_draw_tile_skips() -> None:
    # with draw_tile_skips the D victim (P3) loses the turn after drawing: P2 (direction still reversed) plays
    out = replay("pip", 5, [hand(PIP5_DEAL, PIP5_MOVES + " 7-4@8", tiles=PIP, front="9-0")], draw_tile_skips=True)
    assert seats(out) == [2, 3, 4, 0, 4, 3, 1, 0, 4, 3, 2]
    # and without it, P2 playing there is refused: P3's normal turn comes after the draw
    bad = hand(PIP5_DEAL, PIP5_MOVES + " 7-4@8", tiles=PIP, front="9-0")
    assert refusal("pip", 5, [bad]).startswith('hand 1, move 11 "7-4@8"')


# ================================================================== the command line
def test_cli_replay_json_gives_the_same_numbers(tmp_path: Path) -> None:
    path = tmp_path / "bergen4.boneyard.json"
    path.write_text(json.dumps(rec("bergen", 4, [BRG4])))
    done = subprocess.run([sys.executable, "-m", "boneyard", "replay", str(path), "--json"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert points(out) == [2, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 1]
    assert summary(out) == (0, "unfinished", None, [0, 0, 0, 0], [9, 0, 0, 0])
    assert game_end(out) == (False, None, [9, 0, 0, 0])
