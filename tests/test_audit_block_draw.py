"""Audit of Block (RULES.md §2) and Draw (§3) by hand-worked game records.

Every expected value below was worked out by hand from RULES.md (§1, §2, §3, §9, §9a) before replaying.
Block and Draw score only at the end of a hand, so every event carries 0 points and no scoring items; the
hand's score is in ``hand_points``. Deals are written out; in Block the undealt tiles' order does not matter,
so ``rest`` fills the stock with the tiles not dealt (Draw stocks are written out, first drawn first).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boneyard import record
from tests.helpers import replay_refusal

Hand = dict[str, Any]


def rest(top: int, deal: list[list[str]], front: tuple[str, ...] = ()) -> list[str]:
    """The undealt tiles of a double-``top`` set: ``front`` first, then the others in a fixed order."""
    used = {canon(t) for seat in deal for t in seat} | {canon(t) for t in front}
    others = [f"{a}-{b}" for a in range(top + 1) for b in range(a + 1) if f"{a}-{b}" not in used]
    return list(front) + others


def canon(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def hand(
    deal: list[list[str]],
    moves: list[str],
    top: int = 6,
    front: tuple[str, ...] = (),
    leader: int | None = None,
    stock: bool = True,
) -> Hand:
    out: Hand = {"deal": deal, "moves": moves}
    if stock:
        out["stock"] = rest(top, deal, front)
    if leader is not None:
        out["leader"] = leader
    return out


def rec(variant: str, options: dict[str, Any], players: int, hands: list[Hand]) -> dict[str, Any]:
    return {
        "format": "boneyard/1",
        "variant": variant,
        "options": options,
        "players": [f"P{i}" for i in range(players)],
        "hands": hands,
    }


def seats(start: int, players: int, count: int) -> list[int]:
    """Seats in turn order from ``start`` (a turn is one move unless the player draws)."""
    return [(start + i) % players for i in range(count)]


Want = tuple[int, list[int], str, int | None, list[int], list[int]]
"""Per hand: leader, seat of each move, end, winner, hand_points, totals."""


def check(data: dict[str, Any], wants: list[Want], finished: bool, winner: int | None) -> None:
    out = record.replay_json(data)
    assert len(out["hands"]) == len(wants)
    for got, (leader, movers, end, hand_winner, points, totals), given in zip(
        out["hands"], wants, data["hands"], strict=True
    ):
        assert got["leader"] == leader
        assert [e["seat"] for e in got["events"]] == movers
        assert [e["move"] for e in got["events"]] == given["moves"]
        assert all(e["points"] == 0 and e["scoring"] == [] for e in got["events"])
        assert (got["end"], got["winner"], got["hand_points"], got["totals"]) == (end, hand_winner, points, totals)
    assert (out["finished"], out["winner"], out["totals"]) == (finished, winner, wants[-1][5])


# ------------------------------------------------------------------ Block, 2 players
B2 = [
    hand(
        [["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"], ["6-6", "5-5", "5-4", "4-4", "5-3", "4-3", "3-3"]],
        ["6-6", "pass", "pass"],
    ),
    hand(
        [["5-5", "2-0", "4-0", "4-1", "3-3", "4-2", "6-4"], ["1-1", "6-6", "2-1", "3-0", "2-2", "3-1", "3-2"]],
        ["5-5", "pass", "pass"],
    ),
    hand(
        [["6-6", "5-5", "5-4", "5-3", "4-4", "5-2", "4-3"], ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"]],
        ["6-6", "pass", "pass"],
    ),
    hand(
        [["6-6", "1-1", "2-1", "3-1", "2-2", "4-1", "3-2"], ["0-0", "6-5", "6-4", "5-5", "6-3", "5-4", "4-4"]],
        ["0-0", "pass", "pass"],
    ),
]


def test_block_two_players_call_winner_leads_tie_and_target() -> None:
    check(
        rec("block", {}, 2, B2),
        [
            # call: seat 1 holds 6-6. Blocked: A 0+1+2+2+3+4+3 = 15, B 10+9+8+8+7+6 = 48 -> A scores 48
            (1, [1, 0, 1], "blocked", 0, [48, 0], [48, 0]),
            # A (winner) leads 5-5. A 2+4+5+6+6+10 = 33, B 2+12+3+3+4+4+5 = 33: lightest 2-0 vs 1-1, both 2 pips,
            # smaller half 0 < 1 -> A (BLK-9, C2); scores 33 -> 81
            (0, [0, 1, 0], "blocked", 0, [33, 0], [81, 0]),
            # A 10+9+8+8+7+7 = 49, B 15 -> B scores 49
            (0, [0, 1, 0], "blocked", 1, [0, 49], [81, 49]),
            # B (winner) leads 0-0 although A holds 6-6. A 35, B 11+10+10+9+9+8 = 57 -> A scores 57 -> 138 >= 100
            (1, [1, 0, 1], "blocked", 0, [57, 0], [138, 49]),
        ],
        True,
        0,
    )


def test_block_two_players_blocked_score_options() -> None:
    check(
        rec("block", {"blocked_score": "opponents_minus_own"}, 2, B2),
        [
            (1, [1, 0, 1], "blocked", 0, [33, 0], [33, 0]),  # 48 - 15
            (0, [0, 1, 0], "blocked", 0, [0, 0], [33, 0]),  # 33 - 33 = 0; A still wins the hand and leads next
            (0, [0, 1, 0], "blocked", 1, [0, 34], [33, 34]),  # 49 - 15
            (1, [1, 0, 1], "blocked", 0, [22, 0], [55, 34]),  # 57 - 35
        ],
        False,
        None,
    )
    check(
        rec("block", {"blocked_score": "all_pips"}, 2, B2[:2]),
        [
            (1, [1, 0, 1], "blocked", 0, [63, 0], [63, 0]),  # 48 + 15
            (0, [0, 1, 0], "blocked", 0, [66, 0], [129, 0]),  # 33 + 33 -> 129 >= 100
        ],
        True,
        0,
    )
    check(
        rec("block", {"tie_rule": "no_score", "win_check": "immediate"}, 2, B2[:2]),
        [
            (1, [1, 0, 1], "blocked", 0, [48, 0], [48, 0]),
            (0, [0, 1, 0], "blocked", None, [0, 0], [48, 0]),  # 33 = 33 -> nobody scores
        ],
        False,
        None,
    )


def test_block_target_reached_exactly_ends_the_game() -> None:
    check(rec("block", {"target": 48}, 2, B2[:1]), [(1, [1, 0, 1], "blocked", 0, [48, 0], [48, 0])], True, 0)


def test_block_two_players_domino() -> None:
    data = rec(
        "block",
        {},
        2,
        [
            hand(
                [["6-5", "5-4", "4-3", "3-2", "2-1", "1-0", "0-0"], ["6-6", "1-1", "2-2", "3-3", "4-4", "5-5", "3-1"]],
                [
                    "6-6",
                    "6-5@1",
                    "5-5@2",
                    "5-4@3",
                    "4-4@4",
                    "4-3@5",
                    "3-3@6",
                    "3-2@7",
                    "2-2@8",
                    "2-1@9",
                    "1-1@10",
                    "1-0@11",
                    "pass",
                    "0-0@12",
                ],
            )
        ],
    )
    # B cannot match 6 | 0 and passes; A dominoes; B holds 3-1 = 4
    check(data, [(1, [1, 0] * 7, "domino", 0, [4, 0], [4, 0])], False, None)


# ------------------------------------------------------------------ Block, 3 players
B3_FIRST = hand(
    [["0-0", "1-0", "1-1", "2-0", "3-0"], ["4-4", "5-0", "5-1", "6-0", "5-2"], ["2-1", "3-1", "2-2", "3-2", "3-3"]],
    ["4-4", "pass", "pass", "pass"],
)
# 6-6 and 5-5 undealt, seat 1 holds 4-4 (called before seat 2's 3-3). Pips: S0 8, S1 5+6+6+7 = 24, S2 22


def chain_hand(leader: int) -> Hand:
    """``leader`` plays 3-0 0-0 0-1 1-1 1-2 alone; the next seat holds 34 pips, the one after 51."""
    deal: list[list[str]] = [[], [], []]
    deal[leader] = ["3-0", "0-0", "1-0", "1-1", "2-1"]
    deal[(leader + 1) % 3] = ["2-2", "4-2", "4-4", "5-2", "5-4"]  # 4+6+8+7+9 = 34
    deal[(leader + 2) % 3] = ["5-5", "6-2", "6-4", "6-5", "6-6"]  # 10+8+10+11+12 = 51
    moves = ["3-0", "pass", "pass", "0-0@1", "pass", "pass", "0-1@2", "pass", "pass", "1-1@3", "pass", "pass", "1-2@4"]
    return hand(deal, moves)


def test_block_three_players_default() -> None:
    check(
        rec("block", {}, 3, [B3_FIRST, chain_hand(0)]),
        [
            (1, [1, 2, 0, 1], "blocked", 0, [46, 0, 0], [46, 0, 0]),  # 24 + 22
            (0, seats(0, 3, 13), "domino", 0, [85, 0, 0], [131, 0, 0]),  # 34 + 51 -> 131 >= 100
        ],
        True,
        0,
    )


def test_block_three_players_minus_own_and_rotate() -> None:
    third = hand(
        [["6-6", "5-5", "5-4", "5-3", "4-4"], ["4-3", "5-2", "4-2", "5-1", "3-3"], ["0-0", "1-0", "1-1", "2-0", "2-1"]],
        ["6-6", "pass", "pass", "pass"],
    )
    check(
        rec(
            "block",
            {"blocked_score": "opponents_minus_own", "lead_rule": "rotate"},
            3,
            [B3_FIRST, chain_hand(2), third],
        ),
        [
            (1, [1, 2, 0, 1], "blocked", 0, [38, 0, 0], [38, 0, 0]),  # (24 + 22) - 8
            (2, seats(2, 3, 13), "domino", 2, [0, 0, 85], [38, 0, 85]),  # left of leader 1; 85 - 0
            # left of leader 2 = seat 0. S0 10+9+8+8 = 35, S1 7+7+6+6+6 = 32, S2 8 -> (35 + 32) - 8 = 59
            (0, [0, 1, 2, 0], "blocked", 2, [0, 0, 59], [38, 0, 144]),
        ],
        True,
        2,
    )


def test_block_three_players_differences_and_random_lead() -> None:
    second = chain_hand(1)
    second["leader"] = 1
    third = hand(
        [["0-0", "1-1", "2-1", "3-1", "2-2"], ["5-5", "5-4", "5-3", "4-4", "3-3"], ["6-6", "1-0", "2-0", "3-0", "4-3"]],
        ["6-6", "pass", "pass", "pass"],
        leader=2,
    )
    check(
        rec("block", {"blocked_score": "sum_of_differences", "lead_rule": "random"}, 3, [B3_FIRST, second, third]),
        [
            (1, [1, 2, 0, 1], "blocked", 0, [30, 0, 0], [30, 0, 0]),  # (24 - 8) + (22 - 8)
            (1, seats(1, 3, 13), "domino", 1, [0, 85, 0], [30, 85, 0]),  # 34 + 51
            # S0 0+2+3+4+4 = 13, S2 1+2+3+7 = 13 tie: 0-0 lighter than 1-0 -> S0; (41 - 13) + (13 - 13) = 28
            (2, [2, 0, 1, 2], "blocked", 0, [28, 0, 0], [58, 85, 0]),
        ],
        False,
        None,
    )


def test_block_three_players_all_pips_no_score_then_called_lead() -> None:
    second = hand(
        [["6-6", "1-0", "2-0", "3-0", "4-3"], ["0-0", "1-1", "2-1", "3-1", "2-2"], ["5-5", "5-4", "5-3", "4-4", "3-3"]],
        ["6-6", "pass", "pass", "pass"],
    )
    third = hand(
        [["5-2", "6-1", "5-1", "3-3", "6-0"], ["0-0", "1-0", "1-1", "2-0", "2-1"], ["4-4", "6-5", "6-3", "5-3", "6-2"]],
        ["4-4", "pass", "pass", "pass"],
    )
    check(
        rec("block", {"blocked_score": "all_pips", "tie_rule": "no_score"}, 3, [B3_FIRST, second, third]),
        [
            (1, [1, 2, 0, 1], "blocked", 0, [54, 0, 0], [54, 0, 0]),  # 8 + 24 + 22
            (0, [0, 1, 2, 0], "blocked", None, [0, 0, 0], [54, 0, 0]),  # S0 13 = S1 13 -> nobody
            # no winner -> called lead: 6-6, 5-5 undealt, S2 holds 4-4. S1 8 wins: 36 + 32 + 8 = 76
            (2, [2, 0, 1, 2], "blocked", 1, [0, 76, 0], [54, 76, 0]),
        ],
        False,
        None,
    )


def test_block_no_double_dealt_heaviest_tile_leads() -> None:
    data = rec(
        "block",
        {},
        3,
        [
            hand(
                [
                    ["6-2", "5-4", "5-2", "5-1", "5-0"],
                    ["6-3", "4-2", "4-1", "4-0", "3-1"],
                    ["3-2", "3-0", "2-1", "2-0", "1-0"],
                ],
                ["6-3", "3-2@1", "2-6@2", "pass", "pass", "pass"],
            )
        ],
    )
    # 6-3 and 5-4 both 9 pips, 6-3 heavier (larger half) -> S1. S0 9+7+6+5 = 27, S1 19, S2 9 -> 27 + 19 = 46
    check(data, [(1, [1, 2, 0, 1, 2, 0], "blocked", 2, [0, 0, 46], [0, 0, 46])], False, None)


# ------------------------------------------------------------------ Block, 4 players
B4_DEAL = [
    ["3-0", "4-1", "2-1", "5-3", "6-0"],
    ["1-0", "4-0", "5-1", "3-2", "6-1"],
    ["6-4", "6-2", "5-0", "2-0", "6-3"],
    ["4-3", "5-2", "4-2", "5-4", "3-1"],
]
B4_MOVES = [
    "6-4",
    "4-3@1",
    "3-0@2",
    "0-1@3",
    "6-2@1",
    "2-5@5",
    "1-4@4",
    "4-0@7",
    "0-5@8",
    "5-4@9",
    "5-3@6",
    "3-2@11",
    "2-0@12",
    "4-2@10",
    "0-6@13",
    "6-1@15",
]


def test_block_four_players() -> None:
    second = hand(
        [
            ["6-6", "6-5", "6-4", "5-5", "5-4"],
            ["1-0", "2-0", "2-1", "4-0", "2-2"],
            ["4-1", "5-0", "4-2", "5-1", "6-0"],
            ["3-3", "4-4", "5-2", "6-1", "6-2"],
        ],
        ["3-3", "pass", "pass", "pass", "pass"],
    )
    check(
        rec("block", {}, 4, [hand(B4_DEAL, [*B4_MOVES, "pass", "1-3@16"]), second]),
        [
            # no double dealt: 6-4 heaviest. S3 dominoes: 2-1 (3) + 5-1 (6) + 6-3 (9) = 18
            (2, seats(2, 4, 18), "domino", 3, [0, 0, 0, 18], [0, 0, 0, 18]),
            # S3 leads any tile (S0 holds 6-6). S0 52, S1 1+2+3+4+4 = 14, S2 28, S3 30 -> 52 + 28 + 30 = 110
            (3, [3, 0, 1, 2, 3], "blocked", 1, [0, 110, 0, 0], [0, 110, 0, 18]),
        ],
        True,
        1,
    )


def test_block_double_nine_seven_players() -> None:
    deal = [
        ["2-2", "3-1", "4-0", "3-2", "4-1", "5-0"],
        ["3-3", "4-2", "5-1", "6-0", "4-3", "5-2"],
        ["6-1", "7-0", "4-4", "5-3", "6-2", "7-1"],
        ["9-9", "8-0", "6-3", "5-4", "7-2", "8-1"],
        ["5-5", "6-4", "7-3", "8-2", "6-5", "7-4"],
        ["0-0", "1-0", "1-1", "2-0", "2-1", "3-0"],
        ["8-3", "6-6", "7-5", "8-4", "7-6", "7-7"],
    ]
    data = rec("block", {"set": 9}, 7, [hand(deal, ["9-9"] + ["pass"] * 7, top=9)])
    # 6 tiles each; S5 11 wins: 27 + 38 + 46 + 44 + 62 + 74 = 291
    check(data, [(3, seats(3, 7, 8), "blocked", 5, [0, 0, 0, 0, 0, 291, 0], [0, 0, 0, 0, 0, 291, 0])], True, 5)


# ------------------------------------------------------------------ partnerships (C12, §9a)
PAT = ["6-6", "6-5@1", "6-1@1", "5-0@2", "1-2@3", "0-6@4", "2-6@5", "6-3@7", "3-4@8", "4-6@9"] + ["pass"] * 4
PAT2 = ["6-3", "3-4@1", "4-6@2", "6-2@1", "2-1@4", "1-6@5", "6-6@6", "6-5@7", "5-0@8", "0-6@9"] + ["pass"] * 4
P_FIRST = hand(
    [
        ["6-6", "2-1", "4-3", "5-5", "5-4", "4-4", "5-3"],
        ["6-5", "6-0", "6-4", "3-3", "4-2", "5-2", "3-2"],
        ["6-1", "6-2", "0-0", "1-0", "1-1", "2-0", "5-1"],
        ["5-0", "6-3", "2-2", "3-0", "3-1", "4-0", "4-1"],
    ],
    PAT,
    stock=False,
)
# left after the block: S0 10+9+8+8 = 35, S1 6+6+7+5 = 24, S2 0+1+2+2+6 = 11, S3 4+3+4+4+5 = 20; all four 90


@pytest.mark.parametrize("variant", ["block", "draw"])
def test_partnerships_side_total(variant: str) -> None:
    second = hand(
        [
            ["4-3", "6-1", "6-0", "5-5", "5-4", "0-0", "1-0"],
            ["6-4", "6-6", "1-1", "2-2", "3-1", "3-2", "4-0"],
            ["6-2", "6-5", "4-4", "3-0", "2-0", "3-3", "4-2"],
            ["6-3", "2-1", "5-0", "4-1", "5-1", "5-2", "5-3"],
        ],
        PAT2,
        stock=False,
    )
    third = hand(
        [
            ["6-1", "6-2", "1-0", "3-2", "4-1", "4-2", "5-1"],
            ["5-0", "6-3", "1-1", "3-0", "3-1", "4-0", "5-2"],
            ["6-6", "2-1", "4-3", "5-5", "5-4", "5-3", "0-0"],
            ["6-5", "6-0", "6-4", "2-0", "4-4", "3-3", "2-2"],
        ],
        PAT,
        stock=False,
    )
    check(
        rec(variant, {"partnerships": True}, 4, [P_FIRST, second, third]),
        [
            # sides 35 + 11 = 46 against 24 + 20 = 44 -> seats 1+3 score 90; hand winner S3 (20 < 24)
            (0, seats(0, 4, 14), "blocked", 3, [0, 90, 0, 90], [0, 90, 0, 90]),
            # S3 leads any tile; left S0 20, S1 19, S2 25, S3 26: sides 45 = 45 -> nothing, winner null
            (3, seats(3, 4, 14), "blocked", None, [0, 0, 0, 0], [0, 90, 0, 90]),
            # called lead (S2 holds 6-6). Sides 23 + 27 = 50 against 20 + 20 = 40 -> 1+3 score 90;
            # partners tie 20/20: S3's 2-0 is lighter than S1's 1-1 -> S3. 180 >= 100, game winner the lower seat 1
            (2, seats(2, 4, 14), "blocked", 3, [0, 90, 0, 90], [0, 180, 0, 180]),
        ],
        True,
        1,
    )


def test_partnerships_lowest_hand() -> None:
    second = hand(
        [
            ["6-4", "6-6", "5-4", "5-3", "5-2", "3-1", "4-0"],
            ["6-2", "6-5", "3-2", "3-3", "4-1", "4-2", "5-1"],
            ["6-3", "2-1", "5-0", "0-0", "5-5", "3-0", "1-1"],
            ["4-3", "6-1", "6-0", "1-0", "2-0", "2-2", "4-4"],
        ],
        PAT2,
        stock=False,
    )
    third = hand(
        [
            ["5-0", "6-3", "2-0", "3-0", "3-1", "4-0", "3-2"],
            ["6-6", "2-1", "4-3", "5-5", "5-4", "0-0", "1-0"],
            ["6-5", "6-0", "6-4", "1-1", "2-2", "4-1", "5-2"],
            ["6-1", "6-2", "3-3", "4-2", "4-4", "5-1", "5-3"],
        ],
        PAT,
        stock=False,
    )
    check(
        rec("block", {"partnerships": True, "partnership_block": "lowest_hand"}, 4, [P_FIRST, second, third]),
        [
            # fewest pips: S2 (11) -> seats 0+2 score 90, hand winner S2
            (0, seats(0, 4, 14), "blocked", 2, [90, 0, 90, 0], [90, 0, 90, 0]),
            # S2 leads any tile; S0 32, S1 28, S2 15, S3 15: lowest shared across sides -> nothing
            (2, seats(2, 4, 14), "blocked", None, [0, 0, 0, 0], [90, 0, 90, 0]),
            # called (S1 holds 6-6); S0 18, S1 20, S2 18, S3 34: partners tie -> their side scores 90,
            # S0's 2-0 lighter than S2's 1-1 -> S0; 180 >= 100
            (1, seats(1, 4, 14), "blocked", 0, [90, 0, 90, 0], [180, 0, 180, 0]),
        ],
        True,
        0,
    )


@pytest.mark.parametrize("variant", ["block", "draw"])
def test_partnership_domino_scores_all_four_hands(variant: str) -> None:
    data = rec(
        variant,
        {"partnerships": True},
        4,
        [
            hand(
                [
                    ["6-6", "6-5", "5-5", "5-4", "4-4", "4-3", "3-3"],
                    ["6-0", "6-2", "6-4", "2-0", "1-1", "5-0", "5-3"],
                    ["1-0", "3-2", "4-0", "2-2", "3-1", "5-1", "4-2"],
                    ["6-1", "6-3", "0-0", "2-1", "3-0", "4-1", "5-2"],
                ],
                [
                    "6-6",
                    "6-0@1",
                    "0-1@2",
                    "1-6@3",
                    "6-5@1",
                    "6-2@4",
                    "2-3@6",
                    "3-6@7",
                    "5-5@5",
                    "6-4@8",
                    "4-0@10",
                    "0-0@11",
                    "5-4@9",
                    "0-2@12",
                    "2-2@14",
                    "2-1@15",
                    "4-4@13",
                    "1-1@16",
                    "1-3@18",
                    "3-0@19",
                    "4-3@17",
                    "0-5@20",
                    "5-1@22",
                    "1-4@23",
                    "3-3@21",
                ],
                stock=False,
            )
        ],
    )
    # S0 dominoes: S1 5-3 (8) + S2 4-2 (6, the partner's pips count too) + S3 5-2 (7) = 21 for seats 0+2
    check(data, [(0, seats(0, 4, 25), "domino", 0, [21, 0, 21, 0], [21, 0, 21, 0])], False, None)


@pytest.mark.parametrize("variant", ["block", "draw"])
def test_partnerships_with_a_double_nine_set_call_9_9_and_leave_27_tiles_undealt(variant: str) -> None:
    # C12 deals 7 each; C13's double-nine set leaves 55 - 28 = 27 tiles undealt, and the call starts at 9-9:
    # seat 2 holds it and leads, although seat 1 holds 6-6
    deal = [
        ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"],
        ["6-6", "3-1", "3-2", "3-3", "4-0", "4-1", "4-2"],
        ["9-9", "4-3", "4-4", "5-0", "5-1", "5-2", "5-3"],
        ["5-4", "5-5", "6-0", "6-1", "6-2", "6-3", "6-4"],
    ]
    data = rec(variant, {"partnerships": True, "set": 9}, 4, [hand(deal, ["9-9"], top=9)])
    assert len(data["hands"][0]["stock"]) == 27
    check(data, [(2, [2], "unfinished", None, [0, 0, 0, 0], [0, 0, 0, 0])], False, None)


# ------------------------------------------------------------------ Draw
D1_DEAL = [["1-1", "2-2", "3-1", "3-2", "2-1", "5-0", "4-3"], ["6-6", "6-5", "6-2", "6-3", "6-4", "5-5", "0-0"]]
D1_STOCK = ("4-1", "4-2", "6-1", "3-3", "5-1", "6-0", "1-0", "2-0", "3-0", "4-0", "4-4", "5-2", "5-3", "5-4")
D1_PLAY = [
    "6-6",
    "draw",
    "draw",
    "draw",
    "6-1@1",
    "6-5@1",
    "1-2@2",
    "2-6@4",
    "5-0@3",
    "6-3@5",
    "3-4@7",
    "4-6@8",
    "draw",
    "draw",
    "draw",
    "0-6@6",
]
D1_SEATS = [1, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0]
D2 = hand(
    [["3-3", "3-1", "1-1", "1-0", "0-0", "2-0", "2-2"], ["6-6", "6-5", "5-5", "5-4", "4-4", "6-4", "4-2"]],
    [
        "3-3",
        "draw",
        "draw",
        "3-5@1",
        "3-1@1",
        "5-5@2",
        "1-1@3",
        "5-4@4",
        "1-0@5",
        "4-4@6",
        "0-0@7",
        "4-6@8",
        "0-2@9",
        "6-6@10",
        "2-2@11",
    ],
    front=("6-0", "5-3"),
)


@pytest.mark.parametrize("target,finished,winner", [(None, False, None), (60, True, 0)])
def test_draw_two_players_draw_until_playable_and_the_pass_count(
    target: int | None, finished: bool, winner: int | None
) -> None:
    # B draws the last 8 tiles and passes (a draw-then-pass turn does not count); A and B then pass: blocked
    first = hand(D1_DEAL, [*D1_PLAY, *["draw"] * 8, "pass", "pass", "pass"], front=D1_STOCK)
    options = {} if target is None else {"target": target}
    check(
        rec("draw", options, 2, [first, D2]),
        [
            # A 1-1 2-2 3-1 3-2 4-1 4-2 3-3 5-1 = 2+4+4+5+5+6+6+6 = 38; B 5-5 0-0 + 8 drawn = 10+0+1+2+3+4+8+7+8+9 = 52
            (1, [*D1_SEATS, *[1] * 9, 0, 1], "blocked", 0, [52, 0], [52, 0]),
            # A leads any tile; B draws 6-0 then 5-3 and plays it; A dominoes; B holds 6-5 6-0 4-2 = 23
            (0, [0, 1, 1, 1, *[0, 1] * 5, 0], "domino", 0, [23, 0], [75, 0]),
        ],
        finished,
        winner,
    )


def test_draw_reserve_two() -> None:
    first = hand(D1_DEAL, [*D1_PLAY, *["draw"] * 6, "pass", "pass", "pass"], front=D1_STOCK)
    # B may draw only down to 2 (5-3, 5-4 stay): B 10 + 1+2+3+4+8+7 = 35 < A 38 -> B scores 38
    check(
        rec("draw", {"boneyard_reserve": 2}, 2, [first]),
        [(1, [*D1_SEATS, *[1] * 7, 0, 1], "blocked", 1, [0, 38], [0, 38])],
        False,
        None,
    )


def test_draw_voluntary_draws() -> None:
    # A draws 3-3 although it can play, then plays; later draws 5-1, 6-0 and plays 6-0: same final hands
    moves = [*D1_PLAY[:6], "draw", *D1_PLAY[6:12], "draw", "draw", "0-6@6", *["draw"] * 8, "pass", "pass", "pass"]
    movers = [*D1_SEATS[:6], 0, *D1_SEATS[6:12], 0, 0, 0, *[1] * 9, 0, 1]
    check(
        rec("draw", {"allow_voluntary_draw": True}, 2, [hand(D1_DEAL, moves, front=D1_STOCK)]),
        [(1, movers, "blocked", 0, [52, 0], [52, 0])],
        False,
        None,
    )
    # A keeps drawing after the playable 6-1 appeared (4-1 4-2 6-1 3-3), then plays it
    moves = [
        "6-6",
        "draw",
        "draw",
        "draw",
        "draw",
        "6-1@1",
        *D1_PLAY[5:12],
        "draw",
        "draw",
        "0-6@6",
        *["draw"] * 8,
        "pass",
        "pass",
        "pass",
    ]
    movers = [1, 0, 0, 0, 0, 0, *D1_SEATS[5:12], 0, 0, 0, *[1] * 9, 0, 1]
    check(
        rec("draw", {"allow_voluntary_draw": True}, 2, [hand(D1_DEAL, moves, front=D1_STOCK)]),
        [(1, movers, "blocked", 0, [52, 0], [52, 0])],
        False,
        None,
    )


def test_draw_dead_layout_ends_the_hand_at_once() -> None:
    # after 0-6@6 both ends show 6 and all seven 6s are down: blocked with 8 tiles undrawn.
    # A 38, B 5-5 0-0 = 10 -> B scores 38
    check(
        rec("draw", {"end_on_dead_layout": True}, 2, [hand(D1_DEAL, D1_PLAY, front=D1_STOCK)]),
        [(1, D1_SEATS, "blocked", 1, [0, 38], [0, 38])],
        False,
        None,
    )


D3 = hand(
    [["6-6", "5-0", "6-2", "6-4", "4-0"], ["6-5", "2-1", "6-3", "5-5", "0-0"], ["6-1", "6-0", "4-3", "3-0", "1-0"]],
    [
        "6-6",
        "6-5@1",
        "6-1@1",
        "5-0@2",
        "1-2@3",
        "0-6@4",
        "2-6@5",
        "6-3@7",
        "3-4@8",
        "4-6@9",
        *["draw"] * 13,
        "pass",
        "pass",
        "pass",
        "pass",
    ],
    front=("1-1", "2-0", "2-2", "3-1", "3-2", "3-3", "4-1", "4-2", "4-4", "5-1", "5-2", "5-3", "5-4"),
)
D3_SEATS = [*seats(0, 3, 10), *[1] * 14, 2, 0, 1]


@pytest.mark.parametrize(
    "options,winner,points",
    [
        ({}, 2, 86),  # S0 4-0 = 4, S2 3-0 + 1-0 = 4: lightest 1-0 -> S2; S1 10 + 0 + 72 = 82; 4 + 82 = 86
        ({"blocked_score": "opponents_minus_own"}, 2, 82),  # 86 - 4
        ({"blocked_score": "sum_of_differences"}, 2, 78),  # (4 - 4) + (82 - 4)
        ({"blocked_score": "all_pips"}, 2, 90),  # 4 + 82 + 4
        ({"tie_rule": "no_score"}, None, 0),
    ],
)
def test_draw_three_players_block_needs_three_passes_without_a_draw(
    options: dict[str, Any], winner: int | None, points: int
) -> None:
    check(
        rec("draw", options, 3, [D3]), [(0, D3_SEATS, "blocked", winner, [0, 0, points], [0, 0, points])], False, None
    )


def test_draw_four_players() -> None:
    data = rec(
        "draw",
        {},
        4,
        [
            hand(
                B4_DEAL,
                [*B4_MOVES, "draw", "draw", "draw", "draw", "2-2@14", "1-3@16"],
                front=("0-0", "3-3", "6-6", "2-2", "1-1", "4-4", "5-5", "6-5"),
            )
        ],
    )
    # S2 draws 0-0 3-3 6-6 then 2-2 and plays it; S3 dominoes: 3 + 6 + (9 + 0 + 6 + 12) = 36
    check(data, [(2, [*seats(2, 4, 16), 2, 2, 2, 2, 2, 3], "domino", 3, [0, 0, 0, 36], [0, 0, 0, 36])], False, None)


def test_draw_double_nine_three_players_deal_seven() -> None:
    deal = [
        ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"],
        ["3-1", "3-2", "3-3", "4-0", "4-1", "4-2", "4-3"],
        ["8-8", "7-7", "6-6", "5-5", "4-4", "9-0", "9-1"],
    ]
    data = rec("draw", {"set": 9}, 3, [hand(deal, ["8-8", "draw", "draw", "8-3@1"], top=9, front=("7-0", "8-3"))])
    # 9-9 undealt -> 8-8 called (S2); S0 draws 7-0, then 8-3 and plays it
    check(data, [(2, [2, 0, 0, 0], "unfinished", None, [0, 0, 0], [0, 0, 0])], False, None)


# ------------------------------------------------------------------ bad records and illegal moves
def block_domino_record() -> dict[str, Any]:
    return rec(
        "block",
        {},
        2,
        [
            hand(
                [["6-5", "5-4", "4-3", "3-2", "2-1", "1-0", "0-0"], ["6-6", "1-1", "2-2", "3-3", "4-4", "5-5", "3-1"]],
                ["6-6", "6-5@1", "5-5@2"],
            )
        ],
    )


@pytest.mark.parametrize(
    "variant,moves,where",
    [
        ("block", ["6-6", "6-5@1", "pass"], 'hand 1, move 3 "pass"'),  # seat 1 holds 5-5 for the 5 end
        ("block", ["6-6", "6-5@1", "draw"], 'hand 1, move 3 "draw"'),  # Block has no drawing
        ("block", ["5-5"], 'hand 1, move 1 "5-5"'),  # 6-6 is held: it must be led
    ],
)
def test_illegal_moves_exit_2_with_one_line(tmp_path: Path, variant: str, moves: list[str], where: str) -> None:
    data = block_domino_record()
    data["variant"] = variant
    data["hands"][0]["moves"] = moves
    assert where in replay_refusal(tmp_path, data)


@pytest.mark.parametrize(
    "change,text",
    [
        (lambda r: r["hands"][0]["moves"].insert(4, "draw"), 'move 5 "draw"'),  # 6-1 drawn must be played at once
        (lambda r: r["hands"][0]["moves"].__setitem__(1, "pass"), 'move 2 "pass"'),  # must draw, stock not empty
        (lambda r: r["hands"][0]["moves"].__setitem__(6, "draw"), 'move 7 "draw"'),  # can play: no voluntary draw
    ],
)
def test_draw_illegal_moves(change: Any, text: str) -> None:
    data = rec("draw", {}, 2, [hand(D1_DEAL, list(D1_PLAY), front=D1_STOCK)])
    change(data)
    with pytest.raises(Exception, match=text):
        record.replay_json(data)


def test_draw_reserve_two_refuses_a_draw_from_the_last_two() -> None:
    data = rec("draw", {"boneyard_reserve": 2}, 2, [hand(D1_DEAL, [*D1_PLAY, *["draw"] * 7], front=D1_STOCK)])
    with pytest.raises(Exception, match='move 23 "draw"'):
        record.replay_json(data)


def test_no_hand_after_the_game_is_over() -> None:
    data = rec("block", {"target": 48}, 2, B2[:2])
    with pytest.raises(Exception, match="hand 2"):
        record.replay_json(data)
