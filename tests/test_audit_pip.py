"""Audit of PIP (RULES.md §8, §9, §9a) by hand-worked game records.

Every record below was worked out by hand from the rulebook before it was replayed; each expected value carries
its arithmetic. A hand is written ``(deal, stock, moves)``: one string of tiles per seat, the stock in draw order,
and the moves separated by spaces (``give_9-8`` stands for the move ``give 9-8``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boneyard import record
from tests.helpers import replay_refusal

Hand = tuple[list[str], str, str]


A_FEATURES4: list[Hand] = [
    (
        [
            "1-1 5-2 6-6 6-1 2-0 W-A 0-0 4-4 9-3",
            "1-5 4-1 6-3 7-3 7-4 3-0 4-0 8-2 9-2",
            "W-3 W-W W-R W-D 5-9 7-0 8-0 9-0 9-1",
            "5-5 W-S 9-4 3-8 2-1 6-0 7-1 9-6 8-W",
        ],
        (
            "8-1 6-2 7-2 8-4 7-7 9-8 1-0 5-0 3-1 2-2 3-2 4-2 3-3 4-3 5-3 5-4 6-4 6-5 7-5 8-5 7-6 8-6 8-7 9-7 8-8 "
            "9-9 W-0 W-1 W-2 W-4 W-5 W-6 W-7 W-9"
        ),
        (
            "1-1 1-5@1 W-3@1 5-5@2 5-2@4 draw pass 5-9@4 W-S@4 2-8@5 1-9@1 8-W@8 3-9@3 9-2@11 W-W@10 9-4@13 "
            "6-6@13 6-3@15 W-R@15 draw 6-2@15 2-0@13 9-6@6 W-D@9 draw 0-3@19 W-A@12 1-6@1 3-8@16 8-0@25 2-7@18 "
            "0-0@26 0-6@28 0-7@28 0-4@28 4-4@14"
        ),
    ),
    (
        [
            "W-W S-W W-5 7-3 3-4 4-4 4-5 5-5 3-5",
            "2-7 7-7 7-8 8-8 6-7 6-8 6-6 7-9 8-9",
            "2-2 W-0 W-1 W-2 W-3 W-4 A-W R-W D-W",
            "2-9 9-9 0-9 1-9 0-1 0-0 1-1 0-8 1-8",
        ],
        (
            "2-0 5-0 6-0 8-5 3-0 4-0 7-0 2-1 3-1 4-1 5-1 6-1 7-1 3-2 4-2 5-2 6-2 8-2 3-3 6-3 8-3 9-3 6-4 7-4 8-4 "
            "9-4 6-5 7-5 9-5 9-6 W-6 W-7 W-8 W-9"
        ),
        (
            "2-2 2-9@1 W-5@1 2-7@1 W-0@1 0-1@5 5-4@3 7-7@4 W-1@8 draw pass 7-3@8 7-6@8 W-A@2 W-D@6 draw 1-9@9 "
            "4-3@7 6-8@11 W-R@10 9-8@14 3-5@15 8-0@16 W-2@18 draw 0-6@20 5-5@19 5-0@23 W-4@23 draw 5-8@23 4-4@25 "
            "draw pass W-3@27"
        ),
    ),
]


B_BLOCK7: list[Hand] = [
    (
        [
            "A-W D-W 9-0 5-5 W-4 W-1 8-8 5-0 9-1",
            "R-W 8-0 5-4 W-7 8-3 4-4 6-6 3-3 6-1",
            "7-0 W-0 2-0 7-7 7-3 7-5 1-0 9-8 2-2",
            "7-1 8-6 5-2 8-7 6-5 9-7 6-4 9-4 9-3",
            "5-1 6-2 7-4 9-6 6-3 W-2 W-6 8-4 8-1",
            "4-2 4-1 4-0 3-1 3-2 W-8 W-3 9-5 9-2",
            "S-W 7-6 8-5 6-0 3-0 2-1 7-2 W-9 5-3",
        ],
        "0-0 9-9 3-4 8-2 W-5 1-1 W-W",
        "1-1 W-S@1 W-R@1 W-A@1 W-D@1 draw pass pass pass pass pass pass pass",
    ),
    (
        [
            "D-W 9-8 W-0 W-9 W-8 W-5 7-2 5-4 5-1",
            "2-5 8-6 9-4 1-1 6-3 9-1 3-1 6-2 6-4",
            "S-W 3-2 6-1 4-2 3-0 8-3 4-1 6-0 9-0",
            "A-W W-7 1-0 6-5 7-0 8-4 3-3 W-2 4-4",
            "R-W 9-2 8-0 2-1 4-0 8-8 7-1 9-3 2-0",
            "7-4 6-6 W-6 9-6 W-1 8-2 9-7 8-1 8-5",
            "9-5 8-7 7-7 7-5 5-3 7-6 5-0 5-5 7-3",
        ],
        "0-0 9-9 3-4 W-3 W-4 W-W 2-2",
        "W-W draw 2-2@1 W-D@2 give_9-8 2-5@2 W-S@2 W-R@1 W-A@1 W-7@1 pass pass",
    ),
]


C_2P: list[Hand] = [
    (
        [
            "1-1 S-W R-W A-W D-W 6-2 2-3 3-4 4-4 0-0 0-9 9-9 8-8 7-7 0-8",
            "1-5 5-6 1-2 7-1 6-6 2-2 3-3 5-5 9-7 8-7 9-8 9-6 9-5 9-4 9-3",
        ],
        (
            "6-0 7-0 9-2 1-0 2-0 3-0 4-0 5-0 3-1 4-1 6-1 8-1 9-1 4-2 5-2 7-2 8-2 5-3 6-3 7-3 8-3 5-4 6-4 7-4 8-4 "
            "7-5 8-5 7-6 8-6 W-0 W-1 W-2 W-3 W-4 W-5 W-6 W-7 W-8 W-9 W-W"
        ),
        (
            "1-1 1-5@1 W-S@1 W-R@1 5-6@2 W-A@1 W-D@5 draw draw pass draw pass draw pass draw pass draw pass draw "
            "pass draw pass draw pass draw pass draw pass draw pass draw pass draw pass draw pass draw pass draw "
            "pass draw pass draw pass draw pass draw pass draw pass draw pass draw pass draw pass draw pass draw "
            "pass draw pass draw pass draw pass draw pass draw pass draw pass draw pass draw pass draw pass draw "
            "pass draw pass draw pass draw pass pass pass"
        ),
    ),
]


NINE_TIE: list[Hand] = [
    (
        [
            "8-6 3-3 6-6 7-3 7-5 7-7 W-0 W-6 8-1",
            "8-2 8-0 8-3 3-2 5-2 6-2 W-8 W-W 1-0",
            "9-3 6-0 W-5 9-5 6-3 W-1 5-4 W-4 4-3",
            "1-1 7-2 9-6 W-9 9-2 3-1 4-1 9-8 9-0",
            "S-W 3-0 W-7 6-5 4-4 8-4 9-9 7-1 5-0",
            "A-W D-W 0-0 9-4 8-7 8-8 8-5 2-1 5-5",
            "R-W 2-2 5-1 5-3 W-2 2-0 6-4 7-0 4-0",
        ],
        "9-1 7-4 W-3 7-6 9-7 6-1 4-2",
        (
            "1-1 W-S@1 W-R@1 W-A@1 W-D@1 draw draw pass draw pass draw pass draw pass draw pass draw pass pass "
            "pass pass pass pass pass pass"
        ),
    ),
    (
        [
            "R-W 9-7 W-0 9-4 7-5 7-4 6-0 2-0 9-0",
            "4-1 5-3 7-1 0-0 8-7 5-5 5-2 9-1 8-2",
            "4-0 8-6 5-0 W-1 8-4 6-5 6-1 9-8 W-7",
            "7-2 8-5 6-3 8-0 7-3 5-4 9-6 6-6 4-2",
            "7-6 W-2 7-0 3-2 3-3 W-5 W-4 4-4 6-4",
            "S-W 8-1 6-2 3-1 W-6 W-3 7-7 W-9 1-0",
            "A-W D-W 9-2 9-5 9-3 W-8 3-0 8-8 5-1",
        ],
        "1-1 2-1 4-3 8-3 2-2 9-9 W-W",
        "2-2 W-S@1 W-R@1 W-A@1 W-D@1 draw draw pass pass pass pass pass pass pass pass",
    ),
    (
        [
            "W-W 8-4 4-4 2-1 W-5 8-6 4-0 8-0 5-1",
            "S-W 7-3 6-4 7-5 5-5 9-8 W-4 8-1 4-1",
            "A-W D-W 7-7 1-0 9-7 8-7 9-2 5-3 6-1",
            "R-W 3-0 2-0 W-7 9-1 6-2 W-8 W-3 5-0",
            "7-4 5-4 8-5 W-2 1-1 4-2 9-3 5-2 7-1",
            "W-9 7-6 9-5 W-6 0-0 9-9 9-4 9-0 3-2",
            "2-2 7-2 W-1 4-3 7-0 6-6 8-2 W-0 9-6",
        ],
        "6-5 3-3 3-1 8-8 6-0 8-3 6-3",
        (
            "W-W W-S@1 W-R@1 W-A@1 W-D@1 draw draw pass draw pass draw pass draw pass draw pass draw pass pass "
            "pass pass pass pass pass pass"
        ),
    ),
    (
        [
            "S-W 7-5 6-1 5-2 1-1 4-2 9-2 9-9 8-8",
            "A-W D-W 8-2 1-0 W-2 3-3 9-1 9-4 3-1",
            "R-W 2-1 5-4 8-1 2-0 9-0 7-2 9-7 8-6",
            "W-3 7-0 6-4 7-3 W-0 9-8 W-1 8-5 0-0",
            "W-7 7-1 9-3 7-4 W-9 7-6 9-6 8-3 5-3",
            "W-6 3-2 6-5 4-3 6-2 4-0 W-5 2-2 7-7",
            "4-4 4-1 8-0 W-4 6-3 8-7 6-0 8-4 W-W",
        ],
        "6-6 3-0 W-8 9-5 5-0 5-5 5-1",
        (
            "4-4 W-S@1 W-R@1 W-A@1 W-D@1 draw draw pass draw pass draw pass draw pass draw pass draw pass pass "
            "pass pass pass pass pass pass"
        ),
    ),
    (
        [
            "8-2 9-8 6-3 7-1 2-1 7-6 0-0 7-7 W-7",
            "S-W 4-4 W-4 2-0 W-5 5-1 8-1 5-2 W-0",
            "A-W D-W 6-6 9-3 8-3 9-4 1-1 W-9 9-7",
            "R-W 5-0 9-2 7-2 8-0 4-3 5-3 3-1 W-3",
            "7-4 8-7 9-1 3-2 W-6 7-5 8-5 6-5 8-4",
            "5-4 6-0 3-0 W-2 4-2 7-0 9-9 W-8 4-0",
            "6-4 3-3 9-5 7-3 8-6 8-8 1-0 9-0 2-2",
        ],
        "5-5 4-1 6-1 6-2 9-6 W-1 W-W",
        (
            "5-5 W-S@1 W-R@1 W-A@1 W-D@1 draw draw pass draw pass draw pass draw pass draw pass pass pass pass "
            "pass pass pass pass"
        ),
    ),
    (
        [
            "W-0 3-3 2-2 3-0 9-7 4-0 6-0 8-2 W-9",
            "6-6 7-7 7-1 W-W 7-5 W-4 2-1 6-5 W-3",
            "S-W 6-2 7-2 4-1 5-1 W-2 W-8 4-2 4-3",
            "A-W D-W 5-5 8-6 9-4 3-2 1-0 6-1 9-0",
            "R-W 8-1 2-0 6-4 4-4 9-2 9-9 W-5 1-1",
            "3-1 7-3 8-0 7-4 9-3 9-6 0-0 9-1 9-5",
            "8-8 W-1 8-5 7-6 9-8 5-4 8-7 5-3 8-3",
        ],
        "5-2 W-6 W-7 7-0 6-3 5-0 8-4",
        (
            "6-6 W-S@1 W-R@1 W-A@1 W-D@1 draw draw pass draw pass draw pass draw pass draw pass draw pass pass "
            "pass pass pass pass pass pass"
        ),
    ),
    (
        [
            "A-W D-W 6-2 3-2 8-4 W-8 W-3 3-1 4-1",
            "R-W 8-7 W-4 6-0 8-0 6-1 9-9 7-6 5-0",
            "7-1 7-2 W-0 3-3 9-2 4-4 8-8 W-1 8-2",
            "1-0 9-7 6-5 6-4 5-2 W-9 7-0 8-3 4-2",
            "9-6 7-3 9-5 W-7 5-5 2-0 9-8 3-0 0-0",
            "9-4 8-1 2-2 6-3 8-6 4-0 6-6 4-3 5-3",
            "S-W 8-5 5-1 2-1 9-1 W-5 5-4 7-5 W-2",
        ],
        "9-0 1-1 9-3 7-4 W-6 7-7 W-W",
        "7-7 W-S@1 W-R@1 W-A@1 W-D@1 draw pass pass pass pass pass pass pass",
    ),
    (
        [
            "A-W D-W 8-7 5-3 3-3 8-3 5-2 W-7 4-1",
            "R-W 8-4 6-2 0-0 5-5 9-5 2-0 3-1 2-1",
            "9-2 W-8 W-1 7-6 8-2 W-9 W-2 1-1 6-0",
            "W-6 W-0 3-2 5-0 9-8 8-5 9-4 4-2 7-1",
            "8-0 8-6 3-0 6-6 W-4 7-2 6-4 4-4 4-0",
            "W-W 6-5 8-1 7-7 W-3 5-4 9-6 9-9 2-2",
            "S-W 9-7 1-0 7-4 W-5 7-0 7-3 7-5 9-1",
        ],
        "6-1 9-0 9-3 6-3 8-8 4-3 5-1",
        (
            "W-W W-S@1 W-R@1 W-A@1 W-D@1 draw draw pass draw pass draw pass draw pass draw pass draw pass pass "
            "pass pass pass pass pass pass"
        ),
    ),
    (
        [
            "W-1 8-0 6-3 6-0 W-W 5-3 6-2 9-0 W-9",
            "8-5 8-3 6-1 W-7 8-6 8-1 5-0 9-4 4-0",
            "9-9 7-3 8-7 3-0 9-1 5-5 2-0 7-7 0-0",
            "S-W 9-5 7-4 8-4 6-5 W-6 3-3 4-1 9-2",
            "A-W D-W 1-0 5-2 7-2 4-3 9-3 1-1 W-2",
            "R-W 6-6 3-1 9-7 W-0 9-6 7-0 2-2 W-3",
            "5-4 W-5 4-4 7-1 7-5 3-2 7-6 2-1 W-4",
        ],
        "6-4 W-8 8-8 5-1 9-8 8-2 4-2",
        (
            "9-9 W-S@1 W-R@1 W-A@1 W-D@1 draw draw pass draw pass draw pass draw pass draw pass draw pass pass "
            "pass pass pass pass pass pass"
        ),
    ),
]


def make(hands: list[Hand], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of a PIP game with these hands, one player per seat of the first deal."""
    players = [f"P{seat}" for seat in range(len(hands[0][0]))]
    return {
        "format": "boneyard/1",
        "variant": "pip",
        "options": options or {},
        "players": players,
        "hands": [
            {
                "deal": [seat.split() for seat in deal],
                "stock": stock.split(),
                "moves": [move.replace("_", " ") for move in moves.split()],
            }
            for deal, stock, moves in hands
        ],
    }


def seats(hand: dict[str, Any]) -> str:
    """Who made each move of a replayed hand, as one string of seat digits."""
    return "".join(str(event["seat"]) for event in hand["events"])


def replay_error(tmp_path: Path, data: dict[str, Any]) -> str:
    """Replay ``data`` with the real command; it must fail with status 2, one stderr line and no stdout."""
    return replay_refusal(tmp_path, data)


def test_four_players_toes_nested_double_wild_ends_and_directionals() -> None:
    result = record.replay_json(make(A_FEATURES4))
    one, two = result["hands"]
    # Hand 1, round 1: seat 0 holds 1-1. 5-5 owes 3 toes: seat 1 draws 8-1 and passes, S on toe 3 skips seat 0.
    # W-W on the open wild end of 8-W has wild toes; 6-6 on one of them is stacked; R on 6-6 reverses, so seat 1
    # goes again, draws 6-2 and must play it. D (stock left) makes seat 1 draw first, then play.
    assert one["leader"] == 0
    assert seats(one) == "012301123123012301211032110032103210"
    assert all(event["points"] == 0 and event["scoring"] == [] for event in one["events"])
    assert (one["end"], one["winner"]) == ("domino", 0)
    # seat 0: 0 held, 0 - 10 floored at 0 -> 0; seat 1: 4-1 5 + 7-3 10 + 7-4 11 + 8-1 9 = 35;
    # seat 2: 9-0 = 9; seat 3: 2-1 3 + 7-1 8 = 11
    assert one["hand_points"] == [0, 35, 9, 11]
    assert one["totals"] == [0, 35, 9, 11]
    # Hand 2, round 2: 2-2 (seat 2) beats W-W (seat 0) for the start; direction is clockwise again.
    assert two["leader"] == 2
    assert seats(two) == "23012301233012233012103211032110332"
    assert (two["end"], two["winner"]) == ("domino", 2)
    # seat 0: W-W 50 + S-W 45 = 95; seat 1: 8-7 15 + 8-8 16 + 6-6 12 + 9-7 16 = 59;
    # seat 2: 9 + 0 - 10 = -1 -> floored at 0, a change of -9;
    # seat 3: 9-9 18 + 9-0 9 + 0-0 0 + 1-1 2 + 8-1 9 + 2-0 2 + 3-0 3 = 43
    assert two["hand_points"] == [95, 59, -9, 43]
    assert two["totals"] == [95, 94, 0, 54]  # 0+95, 35+59, 9-9, 11+43
    assert (result["finished"], result["winner"], result["totals"]) == (False, None, [95, 94, 0, 54])


def test_directional_value_25_changes_only_the_directional_tile_held() -> None:
    result = record.replay_json(make(A_FEATURES4, {"directional_value": 25}))
    # hand 2, seat 0: W-W 50 + S-W 25 = 75; the rest as with 45
    assert result["hands"][1]["hand_points"] == [75, 59, -9, 43]
    assert result["totals"] == [75, 94, 0, 54]


def test_seven_players_search_letters_block_and_give() -> None:
    result = record.replay_json(make(B_BLOCK7))
    one, two = result["hands"]
    # Round 1: 1-1 and W-W undealt; seats 0..4 draw 0-0 9-9 3-4 8-2 W-5, seat 5 draws 1-1 and places it.
    # S (seat 6) skips seat 0, R (seat 1) reverses, A and D (seat 0) close the hub. D with W-W left in the
    # stock: seat 6 draws it, cannot play, passes; that pass counts (§9a), so 7 passes end the round.
    assert one["leader"] == 5
    assert seats(one) == "5610066543210"
    assert (one["end"], one["winner"]) == ("blocked", None)
    # blocked, nobody gets -10; hands:
    # 0: 9-0 9 + 5-5 10 + W-4 24 + W-1 21 + 8-8 16 + 5-0 5 + 9-1 10 + 0-0 0 = 95
    # 1: 8-0 8 + 5-4 9 + W-7 27 + 8-3 11 + 4-4 8 + 6-6 12 + 3-3 6 + 6-1 7 + 9-9 18 = 106
    # 2: 7-0 7 + W-0 20 + 2-0 2 + 7-7 14 + 7-3 10 + 7-5 12 + 1-0 1 + 9-8 17 + 2-2 4 + 3-4 7 = 94
    # 3: 7-1 8 + 8-6 14 + 5-2 7 + 8-7 15 + 6-5 11 + 9-7 16 + 6-4 10 + 9-4 13 + 9-3 12 + 8-2 10 = 116
    # 4: 5-1 6 + 6-2 8 + 7-4 11 + 9-6 15 + 6-3 9 + W-2 22 + W-6 26 + 8-4 12 + 8-1 9 + W-5 25 = 143
    # 5: 4-2 6 + 4-1 5 + 4-0 4 + 3-1 4 + 3-2 5 + W-8 28 + W-3 23 + 9-5 14 + 9-2 11 = 100
    # 6: 7-6 13 + 8-5 13 + 6-0 6 + 3-0 3 + 2-1 3 + 7-2 9 + W-9 29 + 5-3 8 + W-W 50 = 134
    assert one["hand_points"] == [95, 106, 94, 116, 143, 100, 134]
    # Round 2: the search (from seat 0 again) ends at seat 5 with W-W, which counts as 2-2; clockwise again,
    # seat 6 draws 2-2 and must play it; D on a toe with an empty stock makes seat 0 give 9-8 to seat 1.
    assert two["leader"] == 5
    assert seats(two) == "566001243321"
    assert two["events"][4] == {"seat": 0, "move": "give 9-8", "points": 0, "scoring": []}
    assert (two["end"], two["winner"], two["hand_points"]) == ("unfinished", None, [0] * 7)
    assert result["totals"] == [95, 106, 94, 116, 143, 100, 134]


def test_draw_tile_skips_costs_the_victim_the_turn_after_a_draw_or_a_gift() -> None:
    data = make(B_BLOCK7, {"draw_tile_skips": True})
    # Round 1: seat 6's forced draw ends its turn; seats 5 4 3 2 1 0 6 pass (7) -> blocked, same hands.
    data["hands"][0]["moves"] = ["1-1", "W-S@1", "W-R@1", "W-A@1", "W-D@1", "draw"] + ["pass"] * 7
    # Round 2: seat 1 receives 9-8 and loses its turn; seat 2's S skips seat 3; seat 4's R reverses.
    data["hands"][1]["moves"] = ["W-W", "draw", "2-2@1", "W-D@2", "give 9-8", "W-S@2", "W-R@2", "W-A@1", "W-7@1"]
    result = record.replay_json(data)
    one, two = result["hands"]
    assert seats(one) == "5610065432106" and one["end"] == "blocked"
    assert one["hand_points"] == [95, 106, 94, 116, 143, 100, 134]  # as without the option (same tiles held)
    assert seats(two) == "566002433"


def test_two_players_skip_goes_again_reverse_changes_nothing_then_block() -> None:
    result = record.replay_json(make(C_2P))
    one = result["hands"][0]
    # S: the skipped player is the opponent, so seat 0 plays again; R: no effect, seat 1 next; A: seat 0 again;
    # D: seat 1 draws, then (nothing open) draws once more and passes; the 40-tile stock runs out; 2 passes.
    assert seats(one) == "0100100111" + "0011" * 19 + "01"
    assert (one["end"], one["winner"]) == ("blocked", None)
    # seat 0, 24 number tiles: 8+5+7+8+0+9+18+16+14+8+11+2+4+4+7+10+7+10+9+11+10+12+13+14 = 217,
    #   W-1 21 + W-3 23 + W-5 25 + W-7 27 + W-9 29 = 125 -> 342
    # seat 1, 28 number tiles: 3+8+12+4+6+10+16+15+17+15+14+13+12+6+7+1+3+5+5+9+6+9+8+10+9+11+12+13 = 259,
    #   W-0 20 + W-2 22 + W-4 24 + W-6 26 + W-8 28 = 120, W-W 50 -> 429
    assert one["hand_points"] == [342, 429]
    assert result["totals"] == [342, 429]


def test_two_player_options_move_the_turn() -> None:
    # With two_player_reverse_skips, R (move 4) lets seat 0 go again, so move 5 "5-6@2" is seat 0's: not held.
    data = make(C_2P, {"two_player_reverse_skips": True})
    with pytest.raises(record.RecordError, match=r'hand 1, move 5 "5-6@2": 6-5 is not in seat 0'):
        record.replay(data)
    # With draw_tile_skips, seat 1's forced draw (move 8) ends its turn, so move 9, a second draw, is seat 0's.
    data = make(C_2P, {"draw_tile_skips": True})
    result = record.replay_json({**data, "hands": [{**data["hands"][0], "moves": data["hands"][0]["moves"][:10]}]})
    assert seats(result["hands"][0]) == "0100100100"


def test_nine_blocked_rounds_end_in_a_shared_win() -> None:
    result = record.replay_json(make(NINE_TIE))
    # each round: starter, S, R, A, D close the hub's four faces; everyone draws until the stock is empty, then
    # seven passes block the round; each seat adds its hand (values worked per tile, listed per round here).
    # round: leader, hand values -> running totals
    expected = [
        (3, [130, 144, 140, 122, 113, 70, 69], [130, 144, 140, 122, 113, 70, 69]),
        (4, [91, 76, 125, 102, 120, 182, 90], [221, 220, 265, 224, 233, 252, 159]),  # search: seat 4 draws 2-2
        (0, [84, 114, 72, 115, 101, 133, 121], [305, 334, 337, 339, 334, 385, 280]),  # W-W dealt, 3-3 not
        (6, [94, 66, 77, 131, 139, 118, 157], [399, 400, 414, 470, 473, 503, 437]),
        (0, [109, 113, 95, 75, 165, 124, 99], [508, 513, 509, 545, 638, 627, 536]),  # search: seat 0 at once
        (1, [105, 172, 124, 59, 97, 89, 132], [613, 685, 633, 604, 735, 716, 668]),
        (5, [94, 98, 121, 109, 124, 80, 150], [707, 783, 754, 713, 859, 796, 818]),  # search: seat 5
        (5, [79, 59, 149, 129, 101, 115, 108], [786, 842, 903, 842, 960, 911, 926]),  # W-W dealt, 8-8 not
        (2, [165, 109, 80, 134, 60, 107, 117], [951, 951, 983, 976, 1020, 1018, 1043]),
    ]
    for hand, (leader, values, totals) in zip(result["hands"], expected, strict=True):
        assert (hand["leader"], hand["end"], hand["winner"]) == (leader, "blocked", None)
        assert hand["hand_points"] == values
        assert hand["totals"] == totals
    # lowest after round 9: seats 0 and 1 on 951 share the win -> winner null
    assert (result["finished"], result["winner"]) == (True, None)
    extra = make(NINE_TIE)
    extra["hands"].append(extra["hands"][0])
    with pytest.raises(record.RecordError, match="hand 10: the game was already over after hand 9"):
        record.replay(extra)


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda r: r.__setitem__("options", {"open_wild_end": "declared_on_play"}), "declared_on_play"),
        (lambda r: r.__setitem__("options", {"nested_double": "forbid"}), 'hand 1, move 17 "6-6@13"'),
        (lambda r: r["hands"][0]["moves"].__setitem__(4, "1-6@1"), 'hand 1, move 5 "1-6@1": a double is owed'),
        (lambda r: r["hands"][0]["moves"].__setitem__(5, "pass"), 'hand 1, move 6 "pass"'),
        (lambda r: r["hands"][0]["moves"].__setitem__(20, "pass"), 'hand 1, move 21 "pass"'),
        (lambda r: r["hands"][0]["moves"].__setitem__(24, "0-3@19"), 'hand 1, move 25 "0-3@19"'),
        (lambda r: r["hands"][0]["moves"].__setitem__(8, "S-W@4"), 'hand 1, move 9 "S-W@4"'),
        (lambda r: r["hands"][0]["moves"].append("pass"), 'hand 1, move 37 "pass": the hand is over'),
    ],
)
def test_bad_records_exit_2_naming_the_move(tmp_path: Path, change: Any, message: str) -> None:
    data = make(A_FEATURES4)
    change(data)
    assert message in replay_error(tmp_path, data)


def test_a_letter_end_is_closed_unless_open_wild() -> None:
    data = make(A_FEATURES4)
    data["hands"] = data["hands"][:1]
    data["hands"][0]["moves"] = [*data["hands"][0]["moves"][:9], "8-1@7"]  # seat 1 on the S of tile 7
    with pytest.raises(record.RecordError, match='move 10 "8-1@7": tile 7 has no open 8 end'):
        record.replay(data)
    hand = record.replay_json({**data, "options": {"letter_end": "open_wild"}})["hands"][0]
    assert hand["events"][-1] == {"seat": 1, "move": "8-1@7", "points": 0, "scoring": []}
