"""Audit 22a: every house rule of Block, Draw and All Fives, hand-worked through records.

Each record below was worked out by hand from RULES.md (§1-§4, §9, §9a) and RECORD.md, not from the program: the
deals are written out in full, every count, bonus, winner, total, next leader and game end is computed in the
comments beside it.  ``boneyard replay --json`` (in process, as :func:`record.replay_json`) must give exactly those
numbers; a wrong record for the option in force must be refused naming the hand and the move.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boneyard import record
from boneyard.errors import BoneyardError
from tests.helpers import replay_refusal


def tiles_of(top: int) -> list[str]:
    return [f"{high}-{low}" for high in range(top, -1, -1) for low in range(high, -1, -1)]


def canon(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def hand(deal: list[list[str]], moves: list[str], top: int = 6, stock: list[str] | None = None,
         leader: int | None = None) -> dict[str, Any]:
    """A hand whose stock is ``stock`` followed by every other tile of the set (high to low)."""
    front = [canon(t) for t in stock or []]
    used = {canon(t) for seat in deal for t in seat} | set(front)
    rest = [t for t in tiles_of(top) if t not in used]
    out: dict[str, Any] = {"deal": [list(seat) for seat in deal], "stock": front + rest, "moves": list(moves)}
    if leader is not None:
        out["leader"] = leader
    return out


def rec(variant: str, players: int, hands: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {"format": "boneyard/1", "variant": variant, "options": options,
            "players": ["Ann", "Bob", "Cid", "Dee"][:players], "hands": hands}


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(BoneyardError) as caught:
        record.replay_json(data)
    return str(caught.value)


# ----------------------------------------------------------------------------------------------------------
# Block / Draw, 3 players: a blocked hand with two players tied for the lowest total.
# Seat 0 holds 6-6 (the call) and no other six; nobody else holds a six, so 6-6 then three passes block it.
# Left: Ann 5-5 5-4 5-3 5-2 = 34; Bob 0-0 2-1 3-2 4-1 5-0 = 18; Cid 1-0 2-0 3-0 3-1 4-4 = 18.
# Tie 18/18: Bob's lightest 0-0 beats Cid's 1-0 (C2), so Bob wins with tie_rule=lightest_tile.
BLK3_H1 = [["6-6", "5-5", "5-4", "5-3", "5-2"], ["0-0", "2-1", "3-2", "4-1", "5-0"],
           ["1-0", "2-0", "3-0", "3-1", "4-4"]]
# Hand 2: the same tiles moved round one seat: Cid now holds 6-6 (the call), Bob 1-0 ... 4-4, Ann 0-0 ... 5-0.
BLK3_H2 = [BLK3_H1[1], BLK3_H1[2], BLK3_H1[0]]


@pytest.mark.parametrize(("options", "winner", "points", "leader2", "lead2"), [
    ({}, 1, 52, 1, "4-4"),                                          # 34 + 18; Bob leads any tile
    ({"blocked_score": "opponents_minus_own"}, 1, 34, 1, "4-4"),     # 52 - 18
    ({"blocked_score": "sum_of_differences"}, 1, 16, 1, "1-0"),      # (34-18) + (18-18)
    ({"blocked_score": "all_pips"}, 1, 70, 1, "3-1"),                # 34 + 18 + 18
    ({"tie_rule": "no_score"}, None, 0, 2, "6-6"),                   # no winner: the call again, Cid's 6-6
    ({"tie_rule": "no_score", "blocked_score": "all_pips"}, None, 0, 2, "6-6"),
    ({"lead_rule": "rotate", "tie_rule": "no_score"}, None, 0, 1, "2-0"),  # left of Ann, whatever the result
    ({"lead_rule": "rotate", "blocked_score": "sum_of_differences"}, 1, 16, 1, "3-0"),
])
def test_block_three_player_tie_options_scores_and_next_lead(options: dict[str, Any], winner: int | None,
                                                             points: int, leader2: int, lead2: str) -> None:
    data = rec("block", 3, [hand(BLK3_H1, ["6-6", "pass", "pass", "pass"]), hand(BLK3_H2, [lead2])], **options)
    out = record.replay_json(data)
    first, second = out["hands"]
    expected = [0, 0, 0]
    if winner is not None:
        expected[winner] = points
    assert (first["end"], first["winner"], first["hand_points"], first["totals"]) == (
        "blocked", winner, expected, expected)
    assert (second["leader"], second["events"][0]["seat"], second["end"]) == (leader2, leader2, "unfinished")
    assert (out["finished"], out["winner"], out["totals"]) == (False, None, expected)


def test_block_called_lead_after_a_no_score_tie_refuses_another_tile() -> None:
    # tie_rule=no_score: hand 2 is called (Cid's 6-6), so Bob leading 4-4 as if he had won is wrong
    data = rec("block", 3, [hand(BLK3_H1, ["6-6", "pass", "pass", "pass"]), hand(BLK3_H2, ["4-4"])],
               tie_rule="no_score")
    message = refusal(data)
    assert message.startswith('hand 2, move 1 "4-4"'), message
    # and a record that names the wrong leader for the rules in force is refused too
    wrong = rec("block", 3, [hand(BLK3_H1, ["6-6", "pass", "pass", "pass"]), hand(BLK3_H2, ["6-6"], leader=1)],
                tie_rule="no_score")
    assert "hand 2" in refusal(wrong) and "leader" in refusal(wrong)


def test_block_random_lead_needs_the_leader_and_lets_him_lead_any_tile() -> None:
    missing = rec("block", 3, [hand(BLK3_H1, ["6-6", "pass", "pass", "pass"]), hand(BLK3_H2, ["5-5"])],
                  lead_rule="random")
    message = refusal(missing)
    assert message.startswith("hand 2") and "leader" in message
    given = rec("block", 3, [hand(BLK3_H1, ["6-6", "pass", "pass", "pass"]), hand(BLK3_H2, ["5-5"], leader=2)],
                lead_rule="random")
    out = record.replay_json(given)
    assert (out["hands"][0]["winner"], out["hands"][0]["totals"]) == (1, [0, 52, 0])
    assert (out["hands"][1]["leader"], out["hands"][1]["events"][0]["seat"]) == (2, 2)


@pytest.mark.parametrize("win_check", ["end_of_hand", "immediate"])
@pytest.mark.parametrize(("target", "finished"), [(52, True), (53, False)])
def test_block_target_reached_by_the_blocked_hand(win_check: str, target: int, finished: bool) -> None:
    data = rec("block", 3, [hand(BLK3_H1, ["6-6", "pass", "pass", "pass"])], target=target, win_check=win_check)
    out = record.replay_json(data)
    assert (out["finished"], out["winner"], out["totals"]) == (finished, 1 if finished else None, [0, 52, 0])
    if finished:  # a further hand after the game's end is refused, naming it
        data["hands"].append(hand(BLK3_H2, ["4-4"]))
        assert refusal(data).startswith("hand 2: the game was already over after hand 1")


def test_block_no_double_dealt_the_heaviest_tile_leads_by_c2_order() -> None:
    # 4 players, 5 each: 20 dealt, 8 asleep: the seven doubles and 6-5, so the deal holds no double (BLK-3).
    # The heaviest tile dealt is 6-4 (10 pips), Cid's: Cid must lead it.
    deal = [["5-4", "6-0", "1-0", "2-0", "3-0"], ["6-3", "5-3", "4-0", "2-1", "3-1"],
            ["6-4", "5-0", "4-1", "3-2", "5-1"], ["6-2", "6-1", "4-2", "5-2", "4-3"]]
    stock = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0", "6-5"]
    out = record.replay_json(rec("block", 4, [hand(deal, ["6-4"], stock=stock)]))
    assert (out["hands"][0]["leader"], out["hands"][0]["events"][0]["seat"]) == (2, 2)
    bad = rec("block", 4, [hand(deal, ["6-3"], stock=stock)])
    assert refusal(bad).startswith('hand 1, move 1 "6-3"')


# ----------------------------------------------------------------------------------------------------------
# Partnerships (C12), double-nine set: 7 each, 27 asleep.  Ann holds 9-9 and no other nine; nobody else holds a
# nine: 9-9 then four passes block the hand.
#   Ann  (after the lead) 8-8 8-7 7-7 8-6 7-6 8-5 = 16+15+14+14+13+13 = 85
#   Bob  3-1 2-2 5-0 4-1 3-2 6-0 5-1 = 4+4+5+5+5+6+6 = 35
#   Cid  0-0 1-0 2-0 1-1 3-0 2-1 4-0 = 0+1+2+2+3+3+4 = 15
#   Dee  4-2 3-3 7-0 6-1 5-2 4-3 8-0 = 6+6+7+7+7+7+8 = 48
# side_total: 0+2 hold 100, 1+3 hold 83 -> Bob's side; Bob (35) has fewer pips than Dee -> winner Bob.
# lowest_hand: Cid holds the fewest (15) -> side 0+2, winner Cid.  Either side scores all four hands: 183.
PART_A = [["9-9", "8-8", "8-7", "7-7", "8-6", "7-6", "8-5"], ["3-1", "2-2", "5-0", "4-1", "3-2", "6-0", "5-1"],
          ["0-0", "1-0", "2-0", "1-1", "3-0", "2-1", "4-0"], ["4-2", "3-3", "7-0", "6-1", "5-2", "4-3", "8-0"]]
# The same hands but Ann holds 8-6 8-5 8-4 8-3 8-2 7-1 = 14+13+12+11+10+8 = 68: sides 83 against 83.
PART_B = [["9-9", "8-6", "8-5", "8-4", "8-3", "8-2", "7-1"], PART_A[1], PART_A[2], PART_A[3]]
BLOCK9 = ["9-9", "pass", "pass", "pass", "pass"]


@pytest.mark.parametrize(("deal", "rule", "winner", "side_points", "leader2"), [
    (PART_A, "side_total", 1, [0, 183, 0, 183], 1),
    (PART_A, "lowest_hand", 2, [183, 0, 183, 0], 2),
    (PART_B, "side_total", None, [0, 0, 0, 0], 0),   # level sides: nobody; hand 2 is called (Ann's 9-9 again)
    (PART_B, "lowest_hand", 2, [166, 0, 166, 0], 2),  # Cid's 15 is still the fewest: 68+35+15+48
])
def test_partnership_blocked_hand_rules_and_next_lead(deal: list[list[str]], rule: str,
                                                      winner: int | None, side_points: list[int],
                                                      leader2: int) -> None:
    lead2 = "9-9" if winner is None else deal[leader2][-1]
    data = rec("block", 4, [hand(deal, BLOCK9, top=9), hand(deal, [lead2], top=9)], set=9, partnerships=True,
               partnership_block=rule, target=500)
    out = record.replay_json(data)
    first, second = out["hands"]
    assert (first["end"], first["winner"], first["hand_points"], first["totals"]) == (
        "blocked", winner, side_points, side_points)
    assert (second["leader"], second["events"][0]["seat"]) == (leader2, leader2)
    assert (out["finished"], out["winner"]) == (False, None)


@pytest.mark.parametrize(("rule", "winner"), [("side_total", 1), ("lowest_hand", 0)])
def test_partnership_game_end_names_the_sides_lower_seat(rule: str, winner: int) -> None:
    # default target 100: 183 ends the game after hand 1; the game winner is the winning side's lower seat
    # (docs/variants/block.md), Bob for 1+3, Ann for 0+2 (although Cid won the hand)
    data = rec("block", 4, [hand(PART_A, BLOCK9, top=9)], set=9, partnerships=True, partnership_block=rule)
    out = record.replay_json(data)
    assert (out["finished"], out["winner"]) == (True, winner)
    assert out["totals"][winner] == out["totals"][winner + 2] == 183


# ----------------------------------------------------------------------------------------------------------
# Draw: DRW-8 dead layout.  2 players, deal_sizes=6, 16 tiles in the boneyard.  The line
#   [6|0][0|1][1|6][6-6][6|2][2|3][3|6][6|4][4|5][5|6]
# holds all seven sixes and shows 6 at both ends after the tenth tile: dead.
DEAD_DEAL = [["6-6", "6-2", "3-2", "6-3", "5-4", "5-5"], ["6-1", "1-0", "6-0", "6-4", "6-5", "1-1"]]
DEAD_MOVES = ["6-6", "6-1@1", "6-2@1", "1-0@2", "2-3@3", "0-6@4", "3-6@5", "6-4@7", "4-5@8", "5-6@9"]


@pytest.mark.parametrize(("options", "points"), [
    ({}, 10),                                         # Bob 1-1 (2) beats Ann 5-5 (10): Ann's 10
    ({"blocked_score": "opponents_minus_own"}, 8),    # 10 - 2
    ({"blocked_score": "all_pips"}, 12),              # 10 + 2
])
def test_draw_end_on_dead_layout_blocks_at_once(options: dict[str, Any], points: int) -> None:
    data = rec("draw", 2, [hand(DEAD_DEAL, DEAD_MOVES)], deal_sizes=6, end_on_dead_layout=True, **options)
    out = record.replay_json(data)
    first = out["hands"][0]
    assert (first["end"], first["winner"], first["hand_points"], out["totals"]) == (
        "blocked", 1, [0, points], [0, points])
    # a move after the dead layout is refused: the hand is over
    data["hands"][0]["moves"].append("draw")
    assert refusal(data).startswith('hand 1, move 11 "draw": the hand is over')
    # without the option the hand goes on: Ann draws (no six is left anywhere)
    plain = rec("draw", 2, [hand(DEAD_DEAL, [*DEAD_MOVES, "draw"])], deal_sizes=6, **options)
    assert record.replay_json(plain)["hands"][0]["end"] == "unfinished"


# Draw: the reserve and voluntary draws.  2 players, deal_sizes=5: Ann 6-6 6-5 6-4 6-3 6-2, Bob no six; the
# boneyard is every non-six tile (16) then 6-1, 6-0.
RES_DEAL = [["6-6", "6-5", "6-4", "6-3", "6-2"], ["0-0", "1-0", "1-1", "2-0", "2-1"]]
RES_STOCK = ["2-2", "3-0", "3-1", "3-2", "3-3", "4-0", "4-1", "4-2", "4-3", "4-4", "5-0", "5-1", "5-2", "5-3",
             "5-4", "5-5", "6-1", "6-0"]


@pytest.mark.parametrize("variant", ["draw", "all-fives"])
def test_reserve_two_stops_the_draws_before_the_last_two(variant: str) -> None:
    draws = ["draw"] * 16
    kept = rec(variant, 2, [hand(RES_DEAL, ["6-6", *draws, "pass", "6-5@1"], stock=RES_STOCK)], deal_sizes=5,
               boneyard_reserve=2)
    out = record.replay_json(kept)
    assert [e["move"] for e in out["hands"][0]["events"]][-2:] == ["pass", "6-5@1"]
    # one draw more is refused: only the reserve is left
    over = rec(variant, 2, [hand(RES_DEAL, ["6-6", *draws, "draw"], stock=RES_STOCK)], deal_sizes=5,
               boneyard_reserve=2)
    assert refusal(over).startswith('hand 1, move 18 "draw"')
    # with no reserve the 17th draw brings 6-1, which must be played at once: a pass is refused
    free = rec(variant, 2, [hand(RES_DEAL, ["6-6", *draws, "draw", "pass"], stock=RES_STOCK)], deal_sizes=5)
    assert refusal(free).startswith('hand 1, move 19 "pass"')


# 2 players, deal_sizes=2: Ann 6-6 6-5, Bob 0-0 6-0; the boneyard starts 3-2.
VOL_DEAL = [["6-6", "6-5"], ["0-0", "6-0"]]


@pytest.mark.parametrize(("variant", "voluntary", "moves", "totals"), [
    # Draw: Bob keeps 0-0 (0) -> Ann's domino scores 0; after a voluntary draw he keeps 0-0 3-2 -> 5
    ("draw", False, ["6-6", "6-0@1", "6-5@1"], [0, 0]),
    ("draw", True, ["6-6", "draw", "6-0@1", "6-5@1"], [5, 0]),
    # All Fives: 6-6 counts 12, 6-0 on a side 12+0, 6-5 on the other side 0+5 = 5 -> Ann +5; bonus round5 of
    # Bob's 0 = 0 or of 5 = 5
    ("all-fives", False, ["6-6", "6-0@1", "6-5@1"], [5, 0]),
    ("all-fives", True, ["6-6", "draw", "6-0@1", "6-5@1"], [10, 0]),
])
def test_voluntary_draw(variant: str, voluntary: bool, moves: list[str], totals: list[int]) -> None:
    options = {"deal_sizes": 2, "allow_voluntary_draw": True} if voluntary else {"deal_sizes": 2}
    out = record.replay_json(rec(variant, 2, [hand(VOL_DEAL, moves, stock=["3-2"])], **options))
    assert (out["hands"][0]["end"], out["hands"][0]["winner"], out["totals"]) == ("domino", 0, totals)


@pytest.mark.parametrize("variant", ["draw", "all-fives"])
def test_voluntary_draw_is_refused_without_the_option_and_a_pass_after_it(variant: str) -> None:
    without = rec(variant, 2, [hand(VOL_DEAL, ["6-6", "draw"], stock=["3-2"])], deal_sizes=2)
    assert refusal(without).startswith('hand 1, move 2 "draw"')
    after = rec(variant, 2, [hand(VOL_DEAL, ["6-6", "draw", "pass"], stock=["3-2"])], deal_sizes=2,
                allow_voluntary_draw=True)
    assert refusal(after).startswith('hand 1, move 3 "pass"')


# ----------------------------------------------------------------------------------------------------------
# All Fives, 3 players, deal_sizes=9: 27 dealt, one tile (5-5) in the boneyard.  The line of the Draw test
# above is played round the table; after the tenth tile both ends show 6 and every six is down.
#   counts: 6-6 12 | 6-1 12+1 | 6-2 1+2 | 1-0 0+2 | 2-3 0+3 | 0-6 6+3 | 3-6 6+6 | 6-4 6+4=10 (Bob +10) | 4-5 6+5
#           | 5-6 6+6 -- the spinner's short ends never start (no six left), so only Bob's 10 scores.
# Left at the end: Ann 5-2 3-3 4-3 5-3 4-4 = 36, Bob 0-0 2-0 4-0 5-0 4-1 5-1 = 22, Cid 1-1 3-0 2-1 3-1 2-2 4-2 = 22.
A5_DEAL = [["6-6", "1-0", "6-3", "6-5", "5-2", "3-3", "4-3", "5-3", "4-4"],
           ["6-1", "3-2", "6-4", "0-0", "2-0", "4-0", "5-0", "4-1", "5-1"],
           ["6-2", "6-0", "5-4", "1-1", "3-0", "2-1", "3-1", "2-2", "4-2"]]
A5_LINE = ["6-6", "6-1@1", "6-2@1", "1-0@2", "2-3@3", "0-6@4", "3-6@5", "6-4@7", "4-5@8", "5-6@9"]
# reserve 1: nobody may draw 5-5, three passes block the hand with Bob and Cid tied on 22.
A5_TIED = [*A5_LINE, "pass", "pass", "pass"]
# no reserve: Bob draws 5-5 (32), passes; Cid, Ann, Bob pass without drawing -> blocked, Cid alone lowest (22).
A5_CID = [*A5_LINE, "draw", "pass", "pass", "pass", "pass"]
# Hand 2 (only its lead): Cid holds 6-6 this time.
A5_DEAL2 = [A5_DEAL[1], A5_DEAL[2], A5_DEAL[0]]


@pytest.mark.parametrize(("options", "hand_points", "leader2", "lead2"), [
    ({}, [0, 0, 0], 2, "6-6"),                                       # no winner: the call, Cid's 6-6
    ({"tie_rule": "split_3p"}, [0, 15, 15], 2, "6-6"),               # round5(36)=35, /2 -> 17 -> 15 each
    ({"tie_rule": "split_3p", "score_unit": "fives"}, [0, 3, 3], 2, "6-6"),
    ({"tie_rule": "split_3p", "lead_rule": "rotate"}, [0, 15, 15], 1, "2-2"),  # left of Ann, any tile
    ({"end_scoring": "each_subtracts_own"}, [-35, -20, -20], 2, "6-6"),
    ({"end_scoring": "each_subtracts_own", "score_unit": "fives"}, [-7, -4, -4], 2, "6-6"),
    ({"tie_rule": "split_3p", "spinner_mode": "none"}, [0, 15, 15], 2, "6-6"),
    ({"tie_rule": "split_3p", "spinner_mode": "all_doubles"}, [0, 15, 15], 2, "6-6"),
])
def test_all_fives_three_player_tied_block(options: dict[str, Any], hand_points: list[int], leader2: int,
                                           lead2: str) -> None:
    data = rec("all-fives", 3, [hand(A5_DEAL, A5_TIED, stock=["5-5"]), hand(A5_DEAL2, [lead2], stock=["5-5"])],
               deal_sizes=9, boneyard_reserve=1, **options)
    out = record.replay_json(data)
    first, second = out["hands"]
    count = 2 if options.get("score_unit") == "fives" else 10
    assert [e["points"] for e in first["events"]] == [0] * 7 + [count, 0, 0, 0, 0, 0]
    assert (first["end"], first["winner"], first["hand_points"]) == ("blocked", None, hand_points)
    assert first["totals"] == [hand_points[0], count + hand_points[1], hand_points[2]]
    assert (second["leader"], second["events"][0]["seat"]) == (leader2, leader2)


@pytest.mark.parametrize(("options", "bonus"), [
    ({}, 70),                                                         # round5(36 + 32) = round5(68)
    ({"bonus_rounding": "per_opponent"}, 65),                         # round5(36) + round5(32) = 35 + 30
    ({"blocked_score": "opponents_minus_own"}, 45),                   # round5(68 - 22) = round5(46)
    ({"blocked_score": "opponents_minus_own", "bonus_rounding": "per_opponent"}, 45),  # 35 + 30 - 20
    ({"score_unit": "fives", "bonus_rounding": "per_opponent"}, 13),  # 65 / 5
    ({"tie_rule": "split_3p"}, 70),                                   # no tie here: split_3p changes nothing
])
def test_all_fives_three_player_block_bonus_options(options: dict[str, Any], bonus: int) -> None:
    data = rec("all-fives", 3, [hand(A5_DEAL, A5_CID, stock=["5-5"]), hand(A5_DEAL2, ["3-3"], stock=["5-5"])],
               deal_sizes=9, **options)
    out = record.replay_json(data)
    first, second = out["hands"]
    count = 2 if options.get("score_unit") == "fives" else 10
    assert (first["end"], first["winner"], first["hand_points"], first["totals"]) == (
        "blocked", 2, [0, 0, bonus], [0, count, bonus])
    assert (second["leader"], second["events"][0]["seat"]) == (2, 2)  # Cid won: he leads any tile


@pytest.mark.parametrize(("options", "finished", "winner", "totals", "end"), [
    # immediate: Bob's 10 (move 8) reaches target 10; the hand stops there, unfinished, no bonus
    ({"target": 10}, True, 1, [0, 10, 0], "unfinished"),
    # end_of_hand: the hand is played out; Cid's 70 is the highest at or over 10
    ({"target": 10, "win_check": "end_of_hand"}, True, 2, [0, 10, 70], "blocked"),
    # immediate, target 70: reached by Cid's bonus at the hand's end
    ({"target": 70}, True, 2, [0, 10, 70], "blocked"),
    ({"target": 71, "win_check": "end_of_hand"}, False, None, [0, 10, 70], "blocked"),
])
def test_all_fives_target_mid_hand_or_at_its_end(options: dict[str, Any], finished: bool, winner: int | None,
                                                  totals: list[int], end: str) -> None:
    moves = A5_LINE[:8] if end == "unfinished" else A5_CID
    data = rec("all-fives", 3, [hand(A5_DEAL, moves, stock=["5-5"])], deal_sizes=9, **options)
    out = record.replay_json(data)
    assert (out["finished"], out["winner"], out["totals"], out["hands"][0]["end"]) == (finished, winner, totals, end)
    if end == "unfinished":  # the record may not go on after the game's end
        data["hands"][0]["moves"] = A5_CID
        assert refusal(data).startswith('hand 1, move 9 "4-5@8": the game is over')


def test_all_fives_no_double_dealt_call_goes_through_the_non_doubles() -> None:
    # 3 players, 5 each; the boneyard holds the 7 doubles, 6-5 and 6-4 (and 4 more): the heaviest tiles dealt are
    # 6-3 (Bob) and 5-4 (Ann), 9 pips each; 6-3 is heavier (C2: larger half), so Bob must lead it.
    deal = [["5-4", "1-0", "2-0", "3-0", "4-0"], ["6-3", "5-0", "2-1", "3-1", "4-1"],
            ["6-2", "6-1", "6-0", "5-1", "3-2"]]
    stock = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0", "6-5", "6-4"]
    out = record.replay_json(rec("all-fives", 3, [hand(deal, ["6-3"], stock=stock)]))
    assert (out["hands"][0]["leader"], out["hands"][0]["events"][0]) == (
        1, {"seat": 1, "move": "6-3", "points": 0, "scoring": []})  # count 9: nothing
    assert refusal(rec("all-fives", 3, [hand(deal, ["5-4"], stock=stock)])).startswith('hand 1, move 1 "5-4"')


# ----------------------------------------------------------------------------------------------------------
# Options refused clearly, in a record and on the command line


@pytest.mark.parametrize(("variant", "options", "words"), [
    ("block", {"spinner_mode": "none"}, "unknown option 'spinner_mode'"),
    ("block", {"boneyard_reserve": 2}, "unknown option 'boneyard_reserve'"),
    ("draw", {"boneyard_reserve": 1}, "option 'boneyard_reserve'"),
    ("all-fives", {"lead_rule": "random"}, "option 'lead_rule'"),
    ("all-fives", {"partnerships": True}, "unknown option 'partnerships'"),
    ("block", {"tie_rule": "split_3p"}, "option 'tie_rule'"),
    ("block", {"partnership_block": "lowest_hand"}, "partnership_block"),
    ("draw", {"partnerships": True}, "partnerships"),
])
def test_record_with_an_option_the_variant_lacks_is_refused(tmp_path: Path, variant: str,
                                                            options: dict[str, Any], words: str) -> None:
    data = rec(variant, 2, [], **options)
    line = replay_refusal(tmp_path, data)
    assert line.startswith("boneyard: ") and "options: " in line and words in line, line


@pytest.mark.parametrize(("variant", "options"), [
    ("block", {"set": 9.0}),
    ("all-fives", {"set": 6.0}),
    ("draw", {"boneyard_reserve": 2.0}),
])
def test_float_option_values_are_refused_in_a_record(tmp_path: Path, variant: str, options: dict[str, Any]) -> None:
    data = rec(variant, 2, [], **options)
    line = replay_refusal(tmp_path, data)
    assert "options: " in line and next(iter(options)) in line, line


@pytest.mark.parametrize("options", [{"tie_rule": "no_score"}, {"blocked_score": "all_pips"}])
def test_partnerships_refuse_the_individual_blocked_hand_options(options: dict[str, Any]) -> None:
    data = rec("block", 4, [hand(PART_A, BLOCK9, top=9)], set=9, partnerships=True, **options)
    assert "partnerships" in refusal(data)


def test_cli_play_takes_options_and_writes_them_into_the_record(tmp_path: Path) -> None:
    import subprocess
    import sys

    save = tmp_path / "game.boneyard.json"
    done = subprocess.run(
        [sys.executable, "-m", "boneyard", "play", "all-fives", "-n", "3", "--seed", "3", "--plain", "--save",
         str(save), "-o", "spinner_mode=none", "-o", "tie_rule=split_3p", "-o", "score_unit=fives",
         "-o", "boneyard_reserve=1", "-o", "target=30"],
        input="1\n" * 300, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "target 30" in done.stdout
    data = json.loads(save.read_text())
    assert data["options"] == {"spinner_mode": "none", "tie_rule": "split_3p", "score_unit": "fives",
                               "boneyard_reserve": 1, "target": 30}
    out = record.replay_json(data)
    assert out["finished"] and out["winner"] is not None and out["totals"][out["winner"]] >= 30
    bad = subprocess.run([sys.executable, "-m", "boneyard", "play", "block", "-o", "lead_rule=sideways"],
                         input="", capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "lead_rule" in bad.stderr and "Traceback" not in bad.stderr


# ----------------------------------------------------------------------------------------------------------
# The web table: options taken, refused, shown and written into the downloaded record


@pytest.fixture
def web(tmp_path: Path) -> Any:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from boneyard.web.app import create_app
    from boneyard.web.limits import Limits

    class Local(TestClient):
        def __init__(self, app: Any) -> None:
            super().__init__(app, base_url="http://localhost")

    limits = Limits(messages_per_second=10_000, message_burst=10_000, chosen_deals=True)
    with Local(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay=0, limits=limits)) as client:
        yield client


COMPUTERS = [{"kind": "computer", "level": "greedy"}]


def test_web_options_are_taken_and_written_into_the_record(web: Any) -> None:
    import time

    options = {"partnerships": "on", "partnership_block": "lowest_hand", "lead_rule": "rotate", "target": "40"}
    made = web.post("/api/games", json={"variant": "block", "seats": COMPUTERS * 4, "seed": 5, "options": options})
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    deadline = time.monotonic() + 60
    while not web.get(f"/api/games/{game_id}").json()["finished"]:
        assert time.monotonic() < deadline, "the computers' game did not end"
        time.sleep(0.05)
    data = json.loads(web.get(f"/api/games/{game_id}/record").text)
    assert data["options"] == {"lead_rule": "rotate", "target": 40, "partnerships": True,
                               "partnership_block": "lowest_hand"}
    out = record.replay_json(data)
    leaders = [h["leader"] for h in out["hands"]]
    assert leaders[1:] == [(seat + 1) % 4 for seat in leaders[:-1]]  # rotate, hand after hand
    assert out["finished"] and out["winner"] in (0, 1)  # a side's lower seat
    assert out["totals"][out["winner"]] == out["totals"][out["winner"] + 2] >= 40


@pytest.mark.parametrize(("variant", "options", "words"), [
    ("all-fives", {"lead_rule": "random"}, "lead_rule"),
    ("draw", {"boneyard_reserve": 1}, "boneyard_reserve"),
    ("block", {"spinner_mode": "none"}, "spinner_mode"),
    ("block", {"partnerships": True}, "partnerships"),  # 2 players
])
def test_web_refuses_bad_options_naming_them(web: Any, variant: str, options: dict[str, Any], words: str) -> None:
    made = web.post("/api/games", json={"variant": variant, "seats": COMPUTERS * 2, "options": options})
    assert made.status_code == 400 and words in made.json()["detail"], made.text


@pytest.mark.parametrize(("variant", "options"), [("block", {"spinner_mode": ""}), ("all-fives", {"colour": ""})])
def test_web_refuses_an_unknown_option_even_when_empty(web: Any, variant: str, options: dict[str, Any]) -> None:
    made = web.post("/api/games", json={"variant": variant, "seats": COMPUTERS * 2, "options": options})
    assert made.status_code == 400 and next(iter(options)) in made.text, made.text


def test_web_table_says_the_options_in_force(web: Any) -> None:
    made = web.post("/api/games", json={"variant": "all-fives", "seats": [{"kind": "human", "name": "Ann"},
                                                                          *COMPUTERS], "seed": 3,
                                        "options": {"spinner_mode": "none", "tie_rule": "split_3p"}})
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    with web.websocket_connect(f"ws://localhost/ws/{game_id}") as ws:
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
    shown = json.dumps(state) + web.get(f"/api/games/{game_id}").text
    assert "spinner_mode" in shown and "split_3p" in shown


def test_text_replay_names_the_winning_side_of_a_partnership_game() -> None:
    data = rec("block", 4, [hand(PART_A, BLOCK9, top=9)], set=9, partnerships=True, partnership_block="lowest_hand")
    text = record.replay_text(data)
    last = text.strip().splitlines()[-1]
    assert last.startswith("Game over: ") and "Ann" in last.split("—")[0] and "Cid" in last.split("—")[0], last


def test_all_fives_first_lead_by_lot_any_tile_scores_its_count() -> None:
    # first_lead=random_player_any_tile: the record's leader (Bob) leads any tile; 3-2 counts 5 -> Bob +5
    data = rec("all-fives", 3, [hand(A5_DEAL, ["3-2"], stock=["5-5"], leader=1)], deal_sizes=9,
               first_lead="random_player_any_tile")
    out = record.replay_json(data)
    assert out["hands"][0]["leader"] == 1
    assert out["hands"][0]["events"] == [{"seat": 1, "move": "3-2", "points": 5,
                                          "scoring": [{"name": "count", "points": 5}]}]
    assert out["totals"] == [0, 5, 0]
    del data["hands"][0]["leader"]
    assert "leader" in refusal(data)
    called = rec("all-fives", 3, [hand(A5_DEAL, ["6-6"], stock=["5-5"], leader=1)], deal_sizes=9)
    message = refusal(called)
    assert message.startswith("hand 1") and "leader 1" in message and "seat 0" in message, message


@pytest.mark.parametrize(("variant", "players", "deal", "moves", "options", "wrong"), [
    ("block", 3, BLK3_H1, ["6-6", "pass", "pass", "pass"], {"blocked_score": "sum_of_differences"},
     "18 pips against 52 pips → +16"),
    ("block", 3, BLK3_H1, ["6-6", "pass", "pass", "pass"], {"blocked_score": "all_pips"},
     "18 pips against 52 pips → +70"),
    ("block", 4, PART_A, BLOCK9, {"set": 9, "partnerships": True, "partnership_block": "lowest_hand"},
     "100 pips against 83 pips → +183"),
])
def test_terminal_summary_explains_the_blocked_score_in_force(variant: str, players: int, deal: list[list[str]],
                                                              moves: list[str], options: dict[str, Any],
                                                              wrong: str) -> None:
    import io

    from rich.console import Console

    from boneyard.terminal import TerminalSession

    game = record.replay(rec(variant, players, [hand(deal, moves, top=options.get("set", 6))], **options))
    out = io.StringIO()
    session = TerminalSession(game, {seat: "greedy" for seat in range(1, players)}, 0, None,
                              console=Console(file=out, width=400))
    session.say_hand_end()
    text = out.getvalue()
    assert "block:" in text and wrong not in text, text
    # what was counted is said instead, in the blocked hand's sentence
    said = game.rules.blocked_rule()
    assert "scores" in said and f"A blocked hand: {said}." in text, text
