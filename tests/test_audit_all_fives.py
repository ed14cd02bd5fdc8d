"""Audit of All Fives / Muggins / Five-Up (RULES.md §4) by hand-worked game records.

Every expected value below was worked out by hand from RULES.md before the replay was run; the comments show
the arithmetic of each count (the sum of the open ends, A5-7) and of each hand bonus (round5, C10).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boneyard import record
from tests.helpers import replay_refusal

Json = dict[str, Any]


def canon(tile: str) -> str:
    a, b = (int(part) for part in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def full_set(top: int = 6) -> list[str]:
    return [f"{a}-{b}" for a in range(top, -1, -1) for b in range(a, -1, -1)]


def hand(
    deal: list[list[str]],
    moves: str,
    first: str = "",
    top: int = 6,
    leader: int | None = None,
    stock: list[str] | None = None,
) -> Json:
    """A hand: ``first`` are the first stock tiles (drawn first), the rest of the set follows in a fixed order."""
    if stock is None:
        head = first.split()
        used = {canon(t) for seat in deal for t in seat} | {canon(t) for t in head}
        stock = head + [t for t in full_set(top) if t not in used]
    result: Json = {"deal": deal, "stock": stock, "moves": moves.split()}
    if leader is not None:
        result["leader"] = leader
    return result


def game(hands: list[Json], players: int = 2, options: Json | None = None, variant: str = "all-fives") -> Json:
    return {
        "format": "boneyard/1",
        "variant": variant,
        "options": options or {},
        "players": ["Ann", "Bob", "Cy", "Dee"][:players],
        "hands": hands,
    }


def points(out: Json, index: int) -> list[int]:
    return [event["points"] for event in out["hands"][index]["events"]]


def summary(out: Json, index: int) -> tuple[int, str, int | None, list[int], list[int]]:
    h = out["hands"][index]
    return h["leader"], h["end"], h["winner"], h["hand_points"], h["totals"]


# ---------------------------------------------------------------- the spinner, two players, three hands
G1_H1 = hand(
    [["6-6", "6-4", "5-5", "5-0", "4-1", "1-5", "3-1"], ["6-1", "6-5", "6-2", "1-2", "3-3", "5-3", "6-3"]],
    "6-6 6-1@1 6-4@1 6-5@1 5-5@4 6-2@1 5-0@5 1-2@2 4-1@3 draw draw draw 0-0@7 1-5@9 5-3@11 3-1@12",
    first="4-4 5-4 0-0",
)
G1_H2 = hand(
    [["5-0", "0-3", "5-5", "3-3", "5-4", "3-6", "5-3"], ["0-0", "0-2", "0-4", "4-1", "2-2", "1-1", "4-2"]],
    "5-0 0-0@1 0-3@2 0-2@2 5-5@1 0-4@2 3-3@3 4-1@6 5-4@5 2-2@4 3-6@7 1-1@8 draw 6-2@11 4-2@9",
    first="6-2",
)
G1_H3 = hand(
    [["5-0", "1-1", "2-2", "3-3", "4-4", "6-6", "0-0"], ["5-5", "5-3", "6-5", "6-4", "6-3", "6-2", "6-1"]],
    "5-5 5-0@1 5-3@1",
)


def test_spinner_counts_draws_domino_and_the_winner_leading() -> None:
    out = record.replay_json(game([G1_H1, G1_H2, G1_H3]))
    # hand 1, Ann holds 6-6 and must lead it (A5-3):
    # 6-6 lone spinner 12; 6-1 one side: 12+1=13; 6-4 both sides, spinner 0: 1+4=5 (Ann);
    # 6-5 on a short end: 1+4+5=10 (Bob); 5-5 crosswise at that tip: 1+4+10=15 (Ann); 6-2 other end: 17;
    # 5-0: 1+4+0+2=7; 1-2: 2+4+0+2=8; 4-1: 2+1+0+2=5 (Ann); Bob draws 4-4, 5-4, 0-0 and plays it
    # crosswise on the 0: 2+1+0+2=5 (Bob); 1-5: 9; 5-3: 7; 3-1: 2+1+0+2=5 (Ann) and Ann dominoes.
    assert points(out, 0) == [0, 0, 5, 10, 15, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 5]
    # Bob holds 3-3 6-3 4-4 5-4 = 6+9+8+9 = 32 -> round5 30; Ann 5+15+5+5 = 30 counts + 30
    assert summary(out, 0) == (0, "domino", 0, [30, 0], [60, 15])
    # hand 2, Ann (the winner) leads 5-0: 5 (Ann); 0-0 becomes the spinner at the 0 tip, one side taken:
    # 5+0=5 (Bob); 0-3 second side: 5+3=8; 0-2 short end: 5+3+2=10 (Bob); 5-5 crosswise: 10+3+2=15 (Ann);
    # 0-4: 19; 3-3: 10+6+2+4=22; 4-1: 19; 5-4: 4+6+2+1=13; 2-2: 4+6+4+1=15 (Bob); 3-6: 4+6+4+1=15 (Ann);
    # 1-1: 16; Ann draws 6-2 and plays it: 4+2+4+2=12; 4-2: 2+2+4+2=10 (Bob), Bob dominoes.
    assert points(out, 1) == [5, 5, 0, 10, 15, 0, 0, 0, 0, 15, 15, 0, 0, 0, 10]
    # Ann holds 5-3 = 8 -> round5 10 for Bob; Ann 95 = 60+5+15+15, Bob 65 = 15+5+10+15+10+10
    assert summary(out, 1) == (0, "domino", 1, [0, 10], [95, 65])
    # hand 3, Bob leads: 5-5 lone double 10 (Bob); 5-0 one side: 0+10=10 (Ann); 5-3: 0+3=3
    assert points(out, 2) == [10, 10, 0]
    assert summary(out, 2) == (1, "unfinished", None, [0, 0], [105, 75])
    assert (out["finished"], out["winner"], out["totals"]) == (False, None, [105, 75])


# ---------------------------------------------------------------- blocked hands (Muggins line, all tiles dealt)
LINE_A = ["6-6", "6-1", "1-0", "2-6", "3-0", "4-6", "5-0"]
LINE_B = ["6-0", "0-0", "0-2", "6-3", "0-4", "6-5"]
LINE_MOVES = "6-6 6-0@1 6-1@1 0-0@2 1-0@3 0-2@4 2-6@6 6-3@7 3-0@8 0-4@9 4-6@10 6-5@11 5-0@12 pass pass"
# 12; 12+0=12; 1+0; 1+0; 0+0; 0+2; 0+6; 3; 0; 4; 6; 0+5=5 (Bob); 0+0 - both ends 0, every 0 on the table
LINE_POINTS = [0] * 11 + [5, 0, 0, 0]
A29 = ["1-1", "2-1", "3-1", "2-2", "4-1", "3-2", "5-1"]  # 2+3+4+4+5+5+6 = 29
B61 = ["3-3", "4-2", "4-3", "4-4", "5-2", "5-3", "5-4", "5-5"]  # 6+6+7+8+7+8+9+10 = 61
A45 = ["5-5", "5-4", "5-3", "4-4", "1-1", "2-1", "4-1"]  # 10+9+8+8+2+3+5 = 45
B45 = ["3-1", "2-2", "3-2", "5-1", "4-2", "3-3", "5-2", "4-3"]  # 4+4+5+6+6+6+7+7 = 45
MUGGINS_ALL_DEALT = {"spinner_mode": "none", "deal_sizes": 14}


@pytest.mark.parametrize(
    ("options", "bonus"),
    [
        ({}, [60, 0]),  # round5(61) = 60
        ({"blocked_score": "opponents_minus_own"}, [30, 0]),  # round5(61-29 = 32) = 30
        ({"bonus_rounding": "per_opponent"}, [60, 0]),  # one opponent: round5(61) = 60
        ({"bonus_rounding": "per_opponent", "blocked_score": "opponents_minus_own"}, [30, 0]),  # 60 - round5(29)=30
        ({"end_scoring": "each_subtracts_own"}, [-30, -60]),  # -round5(29), -round5(61)
    ],
)
def test_blocked_hand_scoring_options_and_the_winner_leads_next(options: Json, bonus: list[int]) -> None:
    deal = [LINE_A + A29, LINE_B + B61]
    first = {"deal": deal, "moves": LINE_MOVES.split()}
    second = {"deal": deal, "moves": ["3-2"]}  # Ann, the blocked hand's winner, leads any tile: 3+2 = 5
    out = record.replay_json(game([first, second], options={**MUGGINS_ALL_DEALT, **options}))
    assert points(out, 0) == LINE_POINTS
    after = [bonus[0], bonus[1] + 5]
    assert summary(out, 0) == (0, "blocked", 0, bonus, after)
    assert points(out, 1) == [5]
    assert summary(out, 1) == (0, "unfinished", None, [0, 0], [after[0] + 5, after[1]])


@pytest.mark.parametrize(("options", "lost"), [({}, [0, 0]), ({"end_scoring": "each_subtracts_own"}, [-45, -45])])
def test_tied_block_scores_nothing_and_the_next_lead_is_called(options: Json, lost: list[int]) -> None:
    first = {"deal": [LINE_A + A45, LINE_B + B45], "moves": LINE_MOVES.split()}
    second = {"deal": [LINE_B + B45, LINE_A + A45], "moves": ["6-6"]}  # Bob holds 6-6: the call gives him the lead
    out = record.replay_json(game([first, second], options={**MUGGINS_ALL_DEALT, **options}))
    assert summary(out, 0) == (0, "blocked", None, lost, [lost[0], lost[1] + 5])
    assert summary(out, 1)[:3] == (1, "unfinished", None)


# ---------------------------------------------------------------- three players: ties, split_3p, rounding
def three_player_block(a: list[str], b: list[str], c: list[str], draws: list[str]) -> Json:
    deal = [["0-0", "2-1", "4-0", *a], ["0-2", "3-4", *b], ["0-3", "1-0", *c]]
    # Muggins line: 0-0 lone 0; 0+2; 2+3=5 (Cy); 1+3; 1+4=5 (Bob); 0+4; 0+0; Bob draws the two drawable tiles
    # and passes (his draw resets the pass count), then Cy, Ann and Bob pass: blocked.
    return hand(
        deal,
        "0-0 0-2@1 0-3@1 2-1@2 3-4@3 1-0@4 4-0@5 draw draw pass pass pass pass",
        stock=[*draws, "6-0", "5-0"],
        leader=0,
    )


THREE_BASE = {"spinner_mode": "none", "deal_sizes": 8, "boneyard_reserve": 2, "first_lead": "random_player_any_tile"}
TIE = three_player_block(
    ["6-6", "5-5", "4-4", "3-1", "1-1"],
    ["4-1", "5-1", "6-1", "5-3", "6-3", "5-4"],
    ["2-2", "3-2", "4-2", "3-3", "5-2", "6-2"],
    ["6-5", "6-4"],
)  # Ann 36, Bob 65, Cy 36
WIN = three_player_block(
    ["1-1", "3-1", "4-1", "5-1", "6-1"],
    ["5-3", "6-3", "4-4", "5-4", "6-4", "6-5"],
    ["2-2", "3-2", "4-2", "3-3", "5-2", "6-2"],
    ["6-6", "5-5"],
)  # Ann 24, Bob 77, Cy 36
CALLED = hand(
    [
        ["5-5", "4-4", "3-3", "2-2", "1-1", "0-0", "6-5", "6-4"],
        ["5-4", "5-3", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1"],
        ["6-6", "6-3", "6-2", "6-1", "6-0", "4-0", "3-2", "3-1"],
    ],
    "6-6",
)


@pytest.mark.parametrize(
    ("options", "split"),
    [
        ({}, [0, 0, 0]),
        ({"tie_rule": "split_3p"}, [30, 0, 30]),  # round5(65) = 65, / 2 = 32, down to a multiple of 5: 30 each
        ({"end_scoring": "each_subtracts_own"}, [-35, -65, -35]),  # round5(36) = 35, round5(65) = 65
    ],
)
def test_three_player_tie(options: Json, split: list[int]) -> None:
    out = record.replay_json(game([TIE, CALLED], 3, {**THREE_BASE, **options}))
    assert points(out, 0) == [0, 0, 5, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0]
    totals = [split[0], split[1] + 5, split[2] + 5]
    assert summary(out, 0) == (0, "blocked", None, split, totals)
    assert summary(out, 1) == (2, "unfinished", None, [0, 0, 0], totals)  # called again: Cy holds 6-6


@pytest.mark.parametrize(
    ("options", "bonus"),
    [
        ({}, 115),  # round5(77 + 36 = 113) = 115
        ({"bonus_rounding": "per_opponent"}, 110),  # round5(77) + round5(36) = 75 + 35
        ({"blocked_score": "opponents_minus_own"}, 90),  # round5(113 - 24 = 89) = 90
        ({"blocked_score": "opponents_minus_own", "bonus_rounding": "per_opponent"}, 85),  # 110 - round5(24) = 85
        ({"tie_rule": "split_3p"}, 115),  # no tie: the option changes nothing
    ],
)
def test_three_player_block_rounding(options: Json, bonus: int) -> None:
    out = record.replay_json(game([WIN], 3, {**THREE_BASE, **options}))
    assert summary(out, 0) == (0, "blocked", 0, [bonus, 0, 0], [bonus, 5, 5])


def test_default_target_200_for_three_players_ends_the_game() -> None:
    second = dict(WIN)
    del second["leader"]  # Ann won the block and leads any tile
    out = record.replay_json(game([WIN, second], 3, THREE_BASE))
    # 115 + 115 = 230 >= 200
    assert summary(out, 1) == (0, "blocked", 0, [115, 0, 0], [230, 10, 10])
    assert (out["finished"], out["winner"]) == (True, 0)


SPINNER_BLOCK = hand(
    [
        ["5-5", "5-6", "1-6", "3-4", "0-0", "1-0", "1-1", "2-0", "2-1"],
        ["5-0", "5-2", "2-6", "4-6", "5-4", "4-4", "5-3", "4-2", "3-3"],
        ["5-1", "0-6", "6-3", "2-2", "3-0", "3-1", "3-2", "4-0", "4-1"],
    ],
    "5-5 5-0@1 5-1@1 5-6@1 5-2@1 0-6@2 1-6@3 2-6@5 6-3@8 3-4@9 4-6@10 pass pass pass",
    stock=["6-6"],
)


@pytest.mark.parametrize(("options", "bonus"), [({}, 60), ({"blocked_score": "opponents_minus_own"}, 55)])
def test_spinner_block_with_a_reserve(options: Json, bonus: int) -> None:
    out = record.replay_json(game([SPINNER_BLOCK], 3, {"deal_sizes": 9, "boneyard_reserve": 1, **options}))
    # 6-6 is the reserve, so the call gives 5-5 to Ann: 10 (Ann); 5-0 one side: 10+0=10 (Bob); 5-1: 0+1=1;
    # 5-6 short end: 1+6=7; 5-2 other end: 9; 0-6: 6+1+6+2=15 (Cy); 1-6: 6+6+6+2=20 (Ann); 24; 21; 22; 24;
    # every tip shows 6 and every 6 is on the table or in the reserve: three passes block the hand.
    assert points(out, 0) == [10, 10, 0, 0, 0, 15, 20, 0, 0, 0, 0, 0, 0, 0]
    # Ann 0-0 1-0 1-1 2-0 2-1 = 8, Bob 37, Cy 25: round5(62) = 60; minus own round5(54) = 55
    assert summary(out, 0) == (0, "blocked", 0, [bonus, 0, 0], [30 + bonus, 10, 15])


def test_two_passes_of_three_do_not_block() -> None:
    unfinished = dict(SPINNER_BLOCK, moves=SPINNER_BLOCK["moves"][:-1])
    out = record.replay_json(game([unfinished], 3, {"deal_sizes": 9, "boneyard_reserve": 1}))
    assert summary(out, 0) == (0, "unfinished", None, [0, 0, 0], [30, 10, 15])


@pytest.mark.parametrize(("options", "bonus"), [({}, 10), ({"bonus_rounding": "per_opponent"}, 15)])
def test_three_players_default_deal_domino(options: Json, bonus: int) -> None:
    h = hand(
        [["6-6", "6-3", "6-1", "3-3", "3-4"], ["6-5", "5-0", "0-2", "2-2", "5-4"], ["6-4", "4-1", "1-1", "1-5", "3-0"]],
        "6-6 6-5@1 6-4@1 6-3@1 5-0@2 4-1@3 6-1@1 0-2@5 1-1@6 3-3@4 2-2@8 1-5@7 3-4@10",
    )
    out = record.replay_json(game([h], 3, options))
    # 12; 12+5=17; 5+4=9; 5+4+3=12; 0+4+3=7; 0+1+3=4; 0+1+3+1=5 (Ann); 2+1+3+1=7; 2+2+3+1=8; 2+2+6+1=11;
    # 4+2+6+1=13; 4+2+6+5=17; 4+2+4+5=15 (Ann), domino
    assert points(out, 0) == [0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 15]
    # Bob 5-4 = 9, Cy 3-0 = 3: round5(12) = 10; per opponent round5(9) + round5(3) = 10 + 5
    assert summary(out, 0) == (0, "domino", 0, [bonus, 0, 0], [20 + bonus, 0, 0])


# ---------------------------------------------------------------- four players
@pytest.mark.parametrize(("options", "bonus"), [({}, 15), ({"bonus_rounding": "per_opponent"}, 10)])
def test_four_players(options: Json, bonus: int) -> None:
    first = hand(
        [
            ["6-5", "3-0", "4-0", "3-3", "4-4"],
            ["6-1", "6-2", "2-1", "5-2", "1-1"],
            ["6-6", "5-5", "5-3", "4-3", "2-0"],
            ["6-4", "4-2", "2-2", "5-1", "3-2"],
        ],
        "6-6 6-4@1 6-5@1 6-1@1 5-5@3 4-2@2 draw draw 1-3@4 6-2@1 5-3@5 2-2@6 3-3@9 2-1@8 3-4@7 1-5@12 "
        "4-4@13 5-2@14 2-0@16",
        first="0-0 3-1",
    )
    second = hand(
        [
            ["4-1", "0-0", "1-1", "2-2", "3-3"],
            ["6-6", "5-5", "4-4", "6-5", "6-4"],
            ["5-0", "6-0", "6-1", "6-2", "6-3"],
            ["5-1", "5-2", "5-3", "5-4", "4-0"],
        ],
        "5-0",
    )
    out = record.replay_json(game([first, second], 4, options))
    # Cy leads 6-6: 12; 12+4=16; 4+5=9; 6-1 on an end: 4+5+1=10 (Bob); 5-5: 4+10+1=15 (Cy); 2+10+1=13;
    # Ann draws 0-0, 3-1: 2+10+3=15 (Ann); 6-2 end: 17; 5-3: 2+3+3+2=10 (Cy); 2-2: 4+3+3+2=12;
    # 3-3: 4+6+3+2=15 (Ann); 2-1: 14; 3-4: 4+6+4+1=15 (Cy); 1-5: 19; 4-4: 4+6+8+5=23; 5-2: 4+6+8+2=20 (Bob);
    # 2-0: 4+6+8+0=18, Cy dominoes
    assert points(out, 0) == [0, 0, 0, 10, 15, 0, 0, 0, 15, 0, 10, 0, 15, 0, 15, 0, 0, 20, 0]
    # Ann 0-0 3-0 4-0 = 7, Bob 1-1 = 2, Dee 3-2 = 5: round5(14) = 15; per opponent 5 + 0 + 5 = 10
    assert summary(out, 0) == (2, "domino", 2, [0, 0, bonus, 0], [30, 30, 40 + bonus, 0])
    assert points(out, 1) == [5]  # Cy, the winner, leads 5-0: 5
    assert summary(out, 1)[0] == 2


# ---------------------------------------------------------------- spinner modes
def test_five_up_every_double_is_a_spinner() -> None:
    h = hand(
        [["6-6", "6-2", "3-1", "2-2", "2-0", "2-5", "1-1"], ["6-3", "3-3", "3-5", "6-4", "3-0", "6-5", "4-4"]],
        "6-6 6-3@1 6-2@1 3-3@2 3-1@4 3-5@4 2-2@3 6-4@1 2-0@7 3-0@4 2-5@7 6-5@1",
    )
    out = record.replay_json(game([h], options={"spinner_mode": "all_doubles"}))
    # 12; 12+3=15 (Bob); 3+2=5 (Ann); 3-3 a spinner with one side: 6+2=8; its second side: 1+2=3;
    # 3-5 on its short end: 1+5+2=8; 2-2 one side: 1+5+4=10 (Ann); 6-4: 14; 2-0: 1+5+0+4=10 (Ann);
    # 3-0: 10 (Bob); 2-5: 15 (Ann); 6-5: 20 (Bob)
    assert points(out, 0) == [0, 15, 5, 0, 0, 0, 10, 0, 10, 10, 15, 20]
    assert out["totals"] == [40, 45]


def test_muggins_doubles_at_both_tips_count_20() -> None:
    h = hand(
        [["6-6", "4-4", "4-0", "1-0", "2-0", "3-0", "5-0"], ["6-4", "6-1", "6-3", "1-1", "2-1", "3-1", "5-1"]],
        "6-6 6-4@1 4-4@2 6-1@1 4-0@3",
    )
    out = record.replay_json(game([h], options={"spinner_mode": "none"}, variant="muggins"))
    # 12; 12+4=16; 12+8=20 (Ann); 1+8=9; 1+0=1
    assert points(out, 0) == [0, 0, 20, 0, 0]


def test_call_continues_through_non_doubles() -> None:
    h = hand(
        [["5-4", "4-3", "5-2", "5-1", "4-2", "3-1", "2-1"], ["6-3", "6-2", "6-1", "6-0", "5-3", "5-0", "4-0"]],
        "6-3 3-4@1 6-2@1 2-1@3",
        first="6-6 5-5 4-4 3-3 2-2 1-1 0-0 6-5 6-4",
    )
    out = record.replay_json(game([h]))
    # no doubles dealt, 6-5 and 6-4 in the stock: 6-3 (9 pips, higher half 6) beats 5-4; Bob leads it:
    # 9; 6+4=10 (Ann); 2+4=6; 1+4=5 (Ann)
    assert points(out, 0) == [0, 10, 0, 5]
    assert out["hands"][0]["leader"] == 1


def test_double_nine_three_players() -> None:
    h = hand(
        [
            ["9-8", "9-5", "5-2", "1-0", "3-1", "4-1", "6-1"],
            ["8-7", "7-3", "9-0", "9-1", "9-2", "9-3", "9-4"],
            ["8-8", "8-2", "2-0", "7-0", "7-1", "7-2", "6-0"],
        ],
        "8-8 8-9@1 8-7@1 8-2@1 9-5@2 7-3@3 2-0@4 5-2@5",
        top=9,
    )
    out = record.replay_json(game([h], 3, {"set": 9}))
    # 9-9 is in the stock, Cy holds 8-8: 16; 16+9=25 (Ann); 9+7=16; 9+7+2=18; 5+7+2=14; 5+3+2=10 (Bob);
    # 5+3+0=8; 2+3+0=5 (Ann)
    assert points(out, 0) == [0, 25, 0, 0, 0, 10, 0, 5]
    assert out["hands"][0]["leader"] == 2


# ---------------------------------------------------------------- the target
def test_immediate_win_ends_the_game_mid_hand() -> None:
    h = dict(G1_H1, moves=G1_H1["moves"][:5])
    out = record.replay_json(game([h], options={"target": 20}))
    # Ann: 5 + 15 = 20 at the fifth move
    assert summary(out, 0) == (0, "unfinished", None, [0, 0], [20, 10])
    assert (out["finished"], out["winner"]) == (True, 0)


def test_end_of_hand_plays_the_hand_out() -> None:
    out = record.replay_json(game([G1_H1], options={"target": 20, "win_check": "end_of_hand"}))
    assert summary(out, 0) == (0, "domino", 0, [30, 0], [60, 15])
    assert (out["finished"], out["winner"]) == (True, 0)


def test_end_of_hand_the_highest_wins_not_the_first_over() -> None:
    h = hand(
        [["5-5", "5-3", "6-6"], ["5-0", "3-2", "2-6"]],
        "5-5 5-0@1 5-3@1 3-2@3 draw draw 0-4@2 2-6@4",
        first="1-1 4-0",
        leader=0,
    )
    options = {"deal_sizes": 3, "first_lead": "random_player_any_tile", "target": 10, "win_check": "end_of_hand"}
    out = record.replay_json(game([h], options=options))
    # 10 (Ann, at the target); 0+10=10 (Bob); 0+3=3; 0+2=2; Ann draws 1-1, 4-0: 4+2=6; 4+6=10 (Bob), domino;
    # Ann holds 6-6 1-1 = 14 -> 15 for Bob: Bob 35 beats Ann 10
    assert points(out, 0) == [10, 10, 0, 0, 0, 0, 0, 10]
    assert summary(out, 0) == (0, "domino", 1, [0, 15], [10, 35])
    assert (out["finished"], out["winner"]) == (True, 1)


def test_end_of_hand_tie_at_the_target_plays_another_hand() -> None:
    first = hand([["5-5", "5-3", "2-6"], ["5-0", "3-2", "1-0"]], "5-5 5-0@1 5-3@1 3-2@3 2-6@4", leader=0)
    second = hand([["5-0", "6-6", "4-4"], ["0-3", "1-1", "2-2"]], "5-0 0-3@1")
    options = {"deal_sizes": 3, "first_lead": "random_player_any_tile", "target": 10, "win_check": "end_of_hand"}
    out = record.replay_json(game([first, second], options=options))
    # 10; 10; 3; 2; 6 (Ann dominoes); Bob's 1-0 = 1 -> round5 0: 10 all, play on
    assert summary(out, 0) == (0, "domino", 0, [0, 0], [10, 10])
    assert points(out, 1) == [5, 0]  # 5+0; 5+3=8
    assert (out["finished"], out["winner"], out["totals"]) == (False, None, [15, 10])


def test_default_target_250_for_two_players() -> None:
    block = {"deal": [LINE_A + A29, LINE_B + B61], "moves": LINE_MOVES.split()}  # Ann +60, Bob +5 a hand
    last = {"deal": [LINE_A + A45, LINE_B + B45], "moves": ["5-5"]}  # Ann leads 5-5: 10
    out = record.replay_json(game([block] * 4 + [last], options=MUGGINS_ALL_DEALT))
    assert out["hands"][3]["totals"] == [240, 20]
    assert summary(out, 4) == (0, "unfinished", None, [0, 0], [250, 20])
    assert (out["finished"], out["winner"]) == (True, 0)


# ---------------------------------------------------------------- bad records: exit 2, one line, no output
@pytest.mark.parametrize(
    ("records", "message"),
    [
        (game([dict(G1_H1, moves=["6-4"])]), 'hand 1, move 1 "6-4"'),
        (game([dict(G1_H1, moves=["6-6", "draw"])]), 'hand 1, move 2 "draw"'),
        (game([dict(G1_H1, moves=[*G1_H1["moves"][:9], "pass"])]), 'hand 1, move 10 "pass"'),
        (game([dict(G1_H1, moves=[*G1_H1["moves"][:12], "draw"])]), 'hand 1, move 13 "draw"'),
        (game([G1_H1], options={"target": 20}), 'hand 1, move 6 "6-2@1"'),
        (
            game([dict(G1_H1, moves=["6-6", "6-1@1", "6-4@1", "6-5@1", "5-5@4", "6-2@1", "5-0@5", "1-2@2", "4-1@5"])]),
            'hand 1, move 9 "4-1@5"',
        ),
    ],
)
def test_bad_records_exit_2(tmp_path: Path, records: Json, message: str) -> None:
    assert message in replay_refusal(tmp_path, records)
