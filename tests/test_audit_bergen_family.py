"""Audit: hand-worked game records for Bergen, Double Bergen and Flower & Scorpion (RULES.md §5-§7, §9a).

Every expected value below was worked out by hand from the rulebook before the replay was run; the comments
show the arithmetic per scoring event.  Tiles are written ``high-low`` or in move order; ``@k`` is tile k of
the hand (the lead is tile 1, draws place no tile).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from boneyard import record
from tests.helpers import replay_refusal

ALL = [f"{b}-{a}" for a in range(7) for b in range(a, 7)]


def norm(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def hand(deal: list[str], moves: str | list[str], front: str = "", back: str = "", **extra: Any) -> dict[str, Any]:
    """One hand: ``deal`` is one space-separated string per seat; the stock is ``front``, then every other
    tile of the double-six set in canonical order, then ``back`` (the last tiles, e.g. the reserve)."""
    seats = [d.split() for d in deal]
    first, last = front.split(), back.split()
    used = {norm(t) for t in [*itertools.chain.from_iterable(seats), *first, *last]}
    assert len(used) == sum(map(len, seats)) + len(first) + len(last)
    stock = first + [t for t in ALL if t not in used] + last
    out: dict[str, Any] = {"deal": seats, "stock": stock, **extra}
    out["moves"] = moves.split() if isinstance(moves, str) else moves
    return out


def game(variant: str, players: list[str], hands: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    rec = {"format": "boneyard/1", "variant": variant, "options": options, "players": players, "hands": hands}
    return record.replay_json(rec)


def points(out: dict[str, Any], h: int) -> list[int]:
    return [e["points"] for e in out["hands"][h]["events"]]


def items(out: dict[str, Any], h: int) -> dict[int, list[tuple[str, int]]]:
    """Scoring items of the events that have any, by 1-based move number."""
    return {
        i: [(s["name"], s["points"]) for s in e["scoring"]]
        for i, e in enumerate(out["hands"][h]["events"], 1)
        if e["scoring"]
    }


def result(out: dict[str, Any], h: int) -> tuple[str, int | None, list[int], list[int]]:
    x = out["hands"][h]
    return x["end"], x["winner"], x["hand_points"], x["totals"]


DH, TH = "double-header", "triple-header"
AB = ["Ann", "Bob"]

# ------------------------------------------------------------------ Bergen
# Hand 1: Ann holds 1-1, Bob 2-2, 0-0 is in the stock -> Ann leads the lowest double 1-1.
B_H1 = hand(
    ["1-1 3-5 1-2 4-2 2-6 3-2", "1-3 5-1 1-4 2-2 6-3 6-0"],
    "1-1 1-3@1 3-5@2 5-1@3 1-2@1 1-4@4 4-2@6 2-2@5 2-6@7 6-3@9 3-2@10",
)
# Hand 2: Bob holds 0-0 -> Bob leads; Bob draws 6-6 (no fit) then 2-4 (fits) at move 9.
B_H2 = hand(
    ["0-1 5-0 0-6 2-2 4-4 3-2", "0-0 1-5 0-2 6-2 4-3 5-5"],
    "0-0 0-1@1 1-5@2 5-0@3 0-2@1 0-6@4 6-2@6 2-2@5 draw draw 2-4@7 4-4@9 4-3@10 3-2@11",
    front="6-6 2-4",
)


def test_bergen_headers_cap_and_game_end() -> None:
    out = game("bergen", AB, [B_H1, B_H2])
    # H1: 1-1 lone lead double = DH 2; 5-1 -> [1-1]|1 TH 3; 4-2 -> 2|2 DH 2; 2-2 -> [2-2]|2 TH 3;
    # 3-2 -> [2-2]|2 TH 3 and Ann dominoes: Ann 2+2+3 = 7 + 2 = 9, Bob 3+3 = 6
    assert points(out, 0) == [2, 0, 0, 3, 0, 0, 2, 3, 0, 0, 3]
    assert items(out, 0) == {1: [(DH, 2)], 4: [(TH, 3)], 7: [(DH, 2)], 8: [(TH, 3)], 11: [(TH, 3)]}
    assert result(out, 0) == ("domino", 0, [2, 0], [9, 6])
    # H2 (target 15): Bob 0-0 DH 6 -> 8; Ann 5-0 [0-0]|0 TH 9 -> 12; Bob 6-2 DH 8 -> 10;
    # Ann 2-2 TH needs 3 -> capped to 2 (14); Ann 3-2 TH needs 1 -> 1 (15); domino +2 -> 17
    assert out["hands"][1]["leader"] == 1
    assert points(out, 1) == [2, 0, 0, 3, 0, 0, 2, 2, 0, 0, 0, 0, 0, 1]
    assert items(out, 1)[8] == [(TH, 3)] and items(out, 1)[14] == [(TH, 3)]  # items keep face value
    assert result(out, 1) == ("domino", 0, [2, 0], [17, 10])
    assert (out["finished"], out["winner"]) == (True, 0)


def test_bergen_no_cap_and_bonus_1() -> None:
    out = game("bergen", AB, [B_H1, B_H2], approach_cap=False, winner_bonus=1)
    # H1: 7 + 1 = 8 | 6.  H2: Ann 8+3+3+3 = 17 + 1 = 18, Bob 6+2+2 = 10
    assert points(out, 1) == [2, 0, 0, 3, 0, 0, 2, 3, 0, 0, 0, 0, 0, 3]
    assert out["hands"][0]["totals"] == [8, 6] and out["totals"] == [18, 10] and out["winner"] == 0


def test_bergen_bonus_5_for_a_domino() -> None:
    out = game("bergen", AB, [B_H1, B_H2], winner_bonus=5)
    # H1 7 + 5 = 12; H2 Ann 12 +2 (TH, 3 short) 14 +1 (1 short) 15 +1 (at target, §9a) 16 +5 = 21
    assert points(out, 1)[13] == 1 and out["hands"][1]["hand_points"] == [5, 0]
    assert out["totals"] == [21, 10] and out["winner"] == 0


def test_bergen_target_3_cap_at_target_and_tie_plays_on() -> None:
    h1 = hand(
        ["1-1 3-5 1-2 4-2 3-0 5-5", "1-3 5-1 1-4 2-6 2-0 0-6"],
        "1-1 1-3@1 3-5@2 5-1@3 1-2@1 1-4@4 4-2@6 2-6@7 draw 6-3@8 2-0@5 3-0@9 0-6@10",
        front="6-3",
    )
    out = game("bergen", AB, [h1, B_H2], target=3)
    # Ann: 1-1 DH (3 short -> 2) = 2; 4-2 DH (1 short) +1 = 3; 3-0 0|0 DH at target +1 = 4
    # Bob: 5-1 TH (3 short -> 2) = 2; 0-6 domino +2 = 4 -> tie for highest at 4 >= 3: another hand
    assert points(out, 0) == [2, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 1, 0]
    assert result(out, 0) == ("domino", 1, [0, 2], [4, 4])
    # H2: both past the target, every header 1: Bob 4+1+1 = 6, Ann 4+1+1+1 = 7 + 2 = 9
    assert points(out, 1) == [1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1]
    assert out["totals"] == [9, 6] and (out["finished"], out["winner"]) == (True, 0)


def test_bergen_immediate_win_stops_the_hand() -> None:
    h2 = dict(B_H2, moves=B_H2["moves"][:8])
    out = game("bergen", AB, [B_H1, h2], target=12, win_check="immediate")
    # H1 [9, 6]; H2 Bob 8, Ann 9 + 2 (TH, 3 short) = 11, Bob 10, Ann 11 + 1 (TH, 1 short) = 12 -> game over
    assert points(out, 1) == [2, 0, 0, 2, 0, 0, 2, 1]
    assert result(out, 1) == ("unfinished", None, [0, 0], [12, 10])
    assert (out["finished"], out["winner"]) == (True, 0)


def test_bergen_highest_double_three_players() -> None:
    h = hand(
        ["6-1 2-2 5-4 3-3 4-6 0-0", "6-2 2-5 4-2 3-0 6-3 1-1", "6-6 1-2 5-5 2-3 0-4 3-1"],
        "6-6 6-1@1 6-2@1 1-2@2 2-2@3 2-5@4 5-5@6 5-4@7 4-2@8 2-3@9 3-3@10 3-0@11 0-4@12 4-6@13 6-3@14 3-1@15",
        leader=2,
    )
    out = game("bergen", ["Ann", "Bob", "Cy"], [h], lead_rule="highest_double")
    # Cy 6-6 DH 2; Cy 1-2 -> 2|2 DH 2; Ann 2-2 TH 3; Bob 4-2 -> [2-2]|2 TH 3; Cy dominoes +2: [3, 3, 6]
    assert points(out, 0) == [2, 0, 0, 2, 3, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]
    assert result(out, 0) == ("domino", 2, [0, 0, 2], [3, 3, 6]) and out["finished"] is False


def test_bergen_rotate_any_tile() -> None:
    h1 = hand(["5-6 6-4 0-0", "5-2 6-3 4-4", "2-6 3-3 1-1"], "5-2 2-6@1 5-6@1 6-3@2 3-3@4 6-4@3 4-4@6", leader=1)
    h2 = hand(["1-5 3-6 0-1", "5-3 6-2 0-2", "3-1 3-2 2-4"], "3-1 1-5@1 5-3@2 3-2@1 3-6@3 6-2@5 2-4@4")
    out = game("bergen", ["Ann", "Bob", "Cy"], [h1, h2], lead_rule="rotate_any_tile", deal_sizes=3)
    # H1 Bob leads 5-2 (5|2: 0); Ann 5-6 -> 6|6 DH 2; Bob dominoes +2
    assert points(out, 0) == [0, 0, 2, 0, 0, 0, 0] and result(out, 0) == ("domino", 1, [0, 2, 0], [2, 2, 0])
    # H2 (no double dealt, no redeal) Cy leads; Bob 5-3 -> 3|3 DH 2; Bob 6-2 -> 2|2 DH 2; Cy dominoes +2
    assert out["hands"][1]["leader"] == 2
    assert points(out, 1) == [0, 0, 2, 0, 0, 2, 0] and result(out, 1) == ("domino", 2, [0, 0, 2], [2, 6, 2])


# 4 players, all 28 dealt (deal_sizes 7): the line locks on 0|0 after ten plays, then four passes block it.
LOCK_LINE = ["0-0 3-4 5-6", "0-2 0-4 0-6", "0-3 0-1", "1-2 0-5"]
LOCK_MOVES = "0-0 0-2@1 0-3@1 2-1@2 3-4@3 4-0@5 1-0@4 0-5@6 5-6@8 6-0@9 pass pass pass pass"


def lock(left: list[str]) -> dict[str, Any]:
    return hand([f"{a} {b}" for a, b in zip(LOCK_LINE, left, strict=True)], LOCK_MOVES)


@pytest.mark.parametrize(
    "left,rule,bonus,winner",
    [
        # S0 2-2 3-3 1-3 1-4 = 19 (2 doubles), S1 4-4 1-5 1-6 2-3 = 26 (1), S2 1-1 2-4 2-5 2-6 3-5 = 31 (1),
        # S3 5-5 6-6 3-6 4-5 4-6 = 50 (2)
        (["2-2 3-3 1-3 1-4", "4-4 1-5 1-6 2-3", "1-1 2-4 2-5 2-6 3-5", "5-5 6-6 3-6 4-5 4-6"], "simple", 2, 0),
        (["2-2 3-3 1-3 1-4", "4-4 1-5 1-6 2-3", "1-1 2-4 2-5 2-6 3-5", "5-5 6-6 3-6 4-5 4-6"], "german", 2, 1),
        # american: everyone holds a double; fewest tiles S0 = S1 (4) tie -> lowest double 1-1 (S2); bonus 5 -> 2 (§9a)
        (["2-2 3-3 1-3 1-4", "4-4 1-5 1-6 2-3", "1-1 2-4 2-5 2-6 3-5", "5-5 6-6 3-6 4-5 4-6"], "american", 5, 2),
        # only S3 (44 pips) holds no double -> american and german give S3; simple S0 (15)
        (["1-1 2-2 1-3 1-4", "3-3 1-5 1-6 2-3", "4-4 5-5 6-6 2-4 2-5", "3-6 4-5 4-6 3-5 2-6"], "american", 2, 3),
        (["1-1 2-2 1-3 1-4", "3-3 1-5 1-6 2-3", "4-4 5-5 6-6 2-4 2-5", "3-6 4-5 4-6 3-5 2-6"], "german", 2, 3),
        # S2 and S3 double-free with 37 pips each -> american and german: no winner; simple S0 (20)
        (["1-1 2-2 3-3 4-4", "5-5 6-6 1-3 1-5", "1-4 2-6 3-6 4-6 2-3", "1-6 2-4 2-5 3-5 4-5"], "american", 2, None),
        (["1-1 2-2 3-3 4-4", "5-5 6-6 1-3 1-5", "1-4 2-6 3-6 4-6 2-3", "1-6 2-4 2-5 3-5 4-5"], "german", 2, None),
        (["1-1 2-2 3-3 4-4", "5-5 6-6 1-3 1-5", "1-4 2-6 3-6 4-6 2-3", "1-6 2-4 2-5 3-5 4-5"], "simple", 2, 0),
        # S2 36 vs S3 38 double-free -> american S2 (not S0 with 20 pips)
        (["1-1 2-2 3-3 4-4", "5-5 6-6 1-3 1-5", "1-4 1-6 2-3 4-5 4-6", "2-4 2-5 2-6 3-5 3-6"], "american", 2, 2),
        # simple: S0 1-1 2-3 2-4 3-3 = 19 and S1 2-2 1-3 1-4 1-5 = 19 tie -> no winner
        (["1-1 2-3 2-4 3-3", "2-2 1-3 1-4 1-5", "4-4 5-5 1-6 2-5 2-6", "6-6 3-5 3-6 4-5 4-6"], "simple", 2, None),
    ],
)
def test_bergen_blocked_hand_rules(left: list[str], rule: str, bonus: int, winner: int | None) -> None:
    out = game("bergen", ["S0", "S1", "S2", "S3"], [lock(left)], deal_sizes=7, block_rule=rule, winner_bonus=bonus)
    # S0 0-0 lone DH 2; S2 1-0 -> 0|0 DH 2; S1 6-0 -> 0|0 DH 2; blocked winner +2
    assert points(out, 0) == [2, 0, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0]
    hp = [0, 0, 0, 0]
    if winner is not None:
        hp[winner] = 2
    assert result(out, 0) == ("blocked", winner, hp, [a + b for a, b in zip([2, 2, 2, 0], hp, strict=True)])


DRAWN = "4-4 5-5 1-3 1-4 1-5 1-6 2-3 2-4 2-5 2-6 3-5 3-6 4-5 4-6"
LOCK2 = "0-0 0-2@1 0-3@1 2-1@2 3-4@3 4-0@5 1-0@4 0-5@6 5-6@8 6-0@9"


@pytest.mark.parametrize("reserve,draws", [(2, 14), (0, 16)])
def test_bergen_block_after_drawing_down_to_the_reserve(reserve: int, draws: int) -> None:
    h = hand(
        ["0-0 0-3 3-4 0-1 5-6 1-1", "0-2 2-1 0-4 0-5 0-6 6-6"],
        LOCK2.split() + ["draw"] * draws + ["pass", "pass", "pass"],
        front=DRAWN,
        back="2-2 3-3",
    )
    out = game("bergen", AB, [h], boneyard_reserve=reserve)
    # Ann DH 2 (0-0), DH 2 (1-0 -> 0|0); Bob DH 2 (6-0 -> 0|0); Ann draws all she may, then 3 passes:
    # Bob holds 6-6 (12) against Ann's 15+ tiles -> Bob +2
    assert len(out["hands"][0]["events"]) == 10 + draws + 3
    assert result(out, 0) == ("blocked", 1, [0, 2], [4, 4])


@pytest.mark.parametrize(
    "mutate,where",
    [
        (lambda r: r["hands"][0]["moves"].__setitem__(0, "3-5"), 'hand 1, move 1 "3-5"'),
        (lambda r: r["hands"][0]["moves"].__setitem__(1, "draw"), 'hand 1, move 2 "draw"'),
        (lambda r: r["options"].__setitem__("cover_lead_double_first", True), 'hand 1, move 3 "3-5@2"'),
        (lambda r: r["hands"][1]["moves"].__setitem__(8, "draw 2-4"), 'hand 2, move 9 "draw 2-4"'),
    ],
)
def test_bergen_bad_records_exit_2(tmp_path: Path, mutate: Any, where: str) -> None:
    rec = {
        "format": "boneyard/1",
        "variant": "bergen",
        "options": {},
        "players": AB,
        "hands": json.loads(json.dumps([B_H1, B_H2])),
    }
    mutate(rec)
    assert where in replay_refusal(tmp_path, rec)


def test_bergen_deal_without_a_double_is_refused(tmp_path: Path) -> None:
    rec = {
        "format": "boneyard/1",
        "variant": "bergen",
        "options": {},
        "players": AB,
        "hands": [hand(["0-1 0-2 0-3 0-4 0-5 0-6", "1-2 1-3 1-4 1-5 1-6 2-3"], "0-1")],
    }
    assert "hand 1" in replay_refusal(tmp_path, rec)


# ------------------------------------------------------------------ Double Bergen
D_H1 = hand(
    ["3-3 3-1 3-0 1-1 0-2 2-2", "3-5 3-6 5-1 6-1 1-2 4-4"],
    "3-3 3-5@1 3-1@1 3-6@1 3-0@1 5-1@2 1-1@3 6-1@4 0-2@5 1-2@6 2-2@9",
    leader=0,
)
# designated leader Bob holds no double -> Ann sets (her choice of 4-4, 5-5, 6-6), Bob plays next
D_H2 = hand(
    ["4-4 4-1 4-5 6-6 5-5 5-3", "4-0 4-2 0-6 1-5 2-3 1-3"],
    "4-4 4-0@1 4-1@1 4-2@1 4-5@1 0-6@2 6-6@6 1-5@3 5-5@8 2-3@4 5-3@5",
)
# nobody dealt a double: Ann (designated) draws 0-3, Bob 5-6, Ann 2-2 -> Ann sets 2-2, Bob next
D_H3 = hand(
    ["2-1 2-4 1-3 4-1 3-5 1-6", "2-0 2-3 0-1 3-4 1-5 4-6"],
    "2-2 2-0@1 2-1@1 2-3@1 2-4@1 0-1@2 1-3@3 3-4@4 4-1@5 1-5@6 3-5@7 4-6@8 1-6@9 5-6@10",
    front="0-3 5-6 2-2",
)
SP, PR = "spinner", "pairs"


def test_double_bergen_three_rounds() -> None:
    out = game("double-bergen", AB, [D_H1, D_H2, D_H3])
    # H1: spinner 2 x4; 3-0 closes it (tips 5,1,6,0): 0; tips 1,1: 2; [1-1],1: 3; [1-1],1,1: 4; [1-1],1,1,2: 4;
    # [1-1],2,1,2: 3+2 = 5; [1-1],2,1,[2-2]: 3+3 = 6. Ann 2+2+0+3+4+6 = 17 + 1 = 18, Bob 2+2+2+4+5 = 15
    assert points(out, 0) == [2, 2, 2, 2, 0, 2, 3, 4, 4, 5, 6]
    assert items(out, 0)[1] == [(SP, 2)] and items(out, 0)[11] == [(PR, 6)]
    assert result(out, 0) == ("domino", 0, [1, 0], [18, 15])
    # H2: lone [6-6] at a tip scores 0; [6-6],5,2,5: 2; [6-6],[5-5],2,5: 3; [6-6],[5-5],3,5: 3;
    # [6-6],[5-5],3,3: 2. Ann 2+2+0+0+3+2 = 9 + 1, Bob 2+2+0+2+3 = 9
    assert out["hands"][1]["leader"] == 1
    assert points(out, 1) == [2, 2, 2, 2, 0, 0, 0, 2, 3, 3, 2]
    assert result(out, 1) == ("domino", 0, [1, 0], [28, 24])
    # H3: Ann 2+2+0+2+2+2+4 = 14, Bob 2+2+2+2+0+2+3 = 13 + 1 (domino)
    assert out["hands"][2]["leader"] == 0
    assert points(out, 2) == [2, 2, 2, 2, 0, 2, 2, 2, 2, 0, 2, 2, 4, 3]
    assert result(out, 2) == ("domino", 1, [0, 1], [42, 38]) and out["finished"] is False


def test_double_bergen_lone_double_scores_and_target() -> None:
    out = game("double-bergen", AB, [D_H1, D_H2, D_H3], lone_double_scores=True, target=40)
    # H2: [6-6] alone 2; 2+2 = 4; 2+3 = 5; 2+3 = 5; [6-6] 2 + [5-5] 2 + 3,3 2 = 6 -> Ann 17 + 1, Bob 13
    assert points(out, 1) == [2, 2, 2, 2, 0, 0, 2, 4, 5, 5, 6]
    assert out["hands"][1]["totals"] == [36, 28]
    assert out["totals"] == [50, 42] and (out["finished"], out["winner"]) == (True, 0)


def test_double_bergen_tile_penalty() -> None:
    out = game("double-bergen", AB, [D_H1, D_H2, D_H3], end_scoring="tile_penalty")
    # H1 Bob keeps 4-4: -1; H2 Bob keeps 1-3: -1; H3 Ann keeps 0-3: -1; no bonus
    assert [h["hand_points"] for h in out["hands"]] == [[0, -1], [0, -1], [-1, 0]]
    assert out["totals"] == [39, 35]


D3_MOVES = "6-6 6-0@1 6-1@1 6-2@1 6-3@1 1-0@3 2-0@4 3-0@5 0-4@8 0-0@2 4-5@9 5-0@11"


@pytest.mark.parametrize(
    "left,options,draws,winner,hp",
    [
        # Ann 1-2 1-3 = 7, Bob 1-4 2-3 = 10, Cy 1-1 1-5 + 10 drawn -> Ann +1
        (["1-2 1-3", "1-4 2-3", "1-1 1-5"], {}, 10, 0, [1, 0, 0]),
        # Ann 1-2 1-5 = 9, Bob 1-3 1-4 = 9 -> tie, no winner
        (["1-2 1-5", "1-3 1-4", "1-1 2-3"], {}, 10, None, [0, 0, 0]),
        # tile penalty: 2, 2 and 12 tiles left
        (["1-2 1-3", "1-4 2-3", "1-1 1-5"], {"end_scoring": "tile_penalty"}, 10, 0, [-2, -2, -12]),
        # reserve 2: Cy draws only 8 -> 10 tiles
        (
            ["1-2 1-3", "1-4 2-3", "1-1 1-5"],
            {"end_scoring": "tile_penalty", "boneyard_reserve": 2},
            8,
            0,
            [-2, -2, -10],
        ),
    ],
)
def test_double_bergen_three_players_search_and_block(
    left: list[str], options: dict[str, Any], draws: int, winner: int | None, hp: list[int]
) -> None:
    h = hand(
        [f"6-0 6-3 3-0 4-5 {left[0]}", f"6-1 1-0 0-4 5-0 {left[1]}", f"6-6 6-2 2-0 0-0 {left[2]}"],
        D3_MOVES.split() + ["draw"] * draws + ["pass"] * 4,
        leader=0,
    )
    out = game("double-bergen", ["Ann", "Bob", "Cy"], [h], **options)
    # designated Ann and Bob hold no double -> Cy sets 6-6, Ann plays next. spinner 2 x4; closed 0;
    # tips 0,0,2,3: 2; 0,0,0,3: 3; 0,0,0,0: 4; 0,0,0,4: 3; [0-0],0,0,4: 4; [0-0],0,0,5: 4; [0-0],0,0,0: 5
    # Ann 2+0+4+4 = 10, Bob 2+2+3+5 = 12, Cy 2+2+3+4 = 11
    assert [e["seat"] for e in out["hands"][0]["events"][:3]] == [2, 0, 1]
    assert points(out, 0)[:12] == [2, 2, 2, 2, 0, 2, 3, 4, 3, 4, 4, 5]
    totals = [a + b for a, b in zip([10, 12, 11], hp, strict=True)]
    assert result(out, 0) == ("blocked", winner, hp, totals)


# ------------------------------------------------------------------ Flower & Scorpion
DU, PL, SF, LF, SS, LS = "dual", "plural", "short-flower", "long-flower", "short-scorpion", "long-scorpion"


def dice(f: list[int], s: list[int]) -> dict[str, list[int]]:
    return {"flower": f, "scorpion": s}


F_H1 = hand(
    ["3-4 3-5 5-6 2-3 3-6 5-2", "4-5 5-5 6-2 3-3 6-6 0-0"],
    "3-4 4-5@1 3-5@1 5-5@3 5-6@2 6-2@5 2-3@6 3-3@7 3-6@8 6-6@9 5-2@4",
    leader=0,
    dice=dice([3, 5], [2, 6]),
)
F_H2 = hand(
    ["4-1 2-1 1-5 4-6 1-3 0-0", "4-4 4-2 1-1 5-4 6-1 3-2"],
    "4-4 4-1@1 4-2@1 2-1@3 1-1@2 1-5@4 5-4@6 4-6@7 6-1@8 1-3@9 3-2@10",
    dice=dice([4, 4], [1, 1]),
)
F_H3 = hand(
    ["0-0 0-3 3-4 0-1 5-6 1-1", "0-2 2-1 0-4 0-5 0-6 2-5"],
    LOCK2.split() + ["draw"] * 16 + ["pass"] * 3,
    dice=dice([2, 5], [5, 2]),
)
F_H4 = hand(
    ["6-3 5-1 6-2 4-2 2-2 3-3", "6-6 3-5 1-6 6-4 2-0 0-0"],
    "6-6 6-3@1 3-5@2 5-1@3 1-6@4 6-2@1 6-4@5 4-2@7 2-0@6 2-2@8 0-0@9",
    dice=dice([6, 6], [3, 4]),
)


def test_flower_scorpion_four_rounds() -> None:
    out = game("flower-scorpion", AB, [F_H1, F_H2, F_H3, F_H4])
    # H1 (Flower 3-5, Scorpion 2-6): 4-5 -> 3|5 long +1; 3-5 -> 5|5 dual 2 + short 1; 5-5 -> plural 3;
    # 6-2 short scorpion -1; 2-3 -> [5-5]|3 long 2; 3-3 -> [5-5]|[3-3] long 4; 5-2 -> 2|[6-6] long scorpion -2.
    # Ann 3+2-2 = 3 + 2 (domino) = 5, Bob 1+3-1+4 = 7
    assert points(out, 0) == [0, 1, 3, 3, 0, -1, 2, 4, 0, 0, -2]
    assert items(out, 0)[3] == [(DU, 2), (SF, 1)] and items(out, 0)[11] == [(LS, -2)]
    assert result(out, 0) == ("domino", 0, [2, 0], [5, 7])
    # H2 (Flower 4-4, Scorpion 1-1; Bob is caravan master): 4-4 lead dual 2 + short 1 + long 1 = 4;
    # 2-1 -> 1|1 dual suppressed, long -1; 1-1 -> [1-1]|1 plural suppressed, short -1, long -2 = -3;
    # 6-1 -> [1-1]|1 long -2. Ann 5-1 = 4; Bob 7+4-3-2 = 6 + 2 = 8
    assert points(out, 1) == [4, 0, 0, -1, -3, 0, 0, 0, -2, 0, 0]
    assert items(out, 1)[1] == [(DU, 2), (SF, 1), (LF, 1)] and items(out, 1)[5] == [(SS, -1), (LS, -2)]
    assert result(out, 1) == ("domino", 1, [0, 2], [4, 8])
    # H3 cancelled dice 2-5: only duals (Ann 0-0, Ann 1-0, Bob 6-0); blocked; Bob holds the Flower tile 2-5
    assert [p for p in points(out, 2) if p] == [2, 2, 2]
    assert result(out, 2) == ("blocked", 1, [0, 2], [8, 12])
    # H4 (Flower 6-6): 6-6 lead 4; 1-6 -> [6-6]|6 plural 3 + long 2 = 5; Ann 4-2 -> 2|2 dual 2; Bob +2 -> 23 >= 20
    assert points(out, 3) == [4, 0, 0, 0, 5, 0, 0, 2, 0, 0, 0]
    assert items(out, 3)[5] == [(PL, 3), (LF, 2)]
    assert result(out, 3) == ("domino", 1, [0, 2], [10, 23]) and (out["finished"], out["winner"]) == (True, 1)


def test_flower_scorpion_cancel_affects_block() -> None:
    out = game("flower-scorpion", AB, [F_H1, F_H2, F_H3, F_H4], cancel_affects_block=True)
    # H3 steps 2-3 skipped; step 4: Ann holds 1-1 (and the drawn doubles), Bob only 2-5 -> Ann +2
    assert result(out, 2) == ("blocked", 0, [2, 0], [10, 10])
    assert out["totals"] == [12, 21] and out["winner"] == 1


def test_flower_scorpion_all_pairs_and_scorpion_scope() -> None:
    out = game("flower-scorpion", AB, [F_H1, F_H2], long_pairs="all_pairs")
    # H2: [4-4]|1 counts the 4-4 pair: +1; [1-1]|x: -1 each; [1-1]|1: three 1-1 pairings -3
    assert points(out, 1) == [4, 1, 0, -1, -4, -1, -1, -1, -3, -1, -1]
    assert out["totals"] == [2, 4]
    out = game("flower-scorpion", AB, [F_H1, F_H2], double_scorpion_blocks_dual="only_when_tile_played")
    # 2-1 -> 1|1 dual 2 - 1 = +1; 1-1 played: -3; 6-1 -> [1-1]|1 plural 3 - 2 = +1
    assert points(out, 1) == [4, 0, 0, 1, -3, 0, 0, 0, 1, 0, 0]
    assert out["totals"] == [6, 11]


F5_H1 = hand(
    ["6-6 3-2 1-4 5-6 6-0 2-4", "6-3 6-1 4-5 2-2 0-0 3-3"],
    "6-6 6-3@1 3-2@2 6-1@1 1-4@4 4-5@5 5-6@6 2-2@3 6-0@7 0-0@9 2-4@8",
    leader=0,
    dice=dice([1, 2], [2, 6]),
)
F5_H2 = hand(
    ["3-1 5-3 3-6 2-4 2-1 4-4", "3-3 1-5 3-2 6-2 4-0 0-1"],
    "3-3 3-1@1 1-5@2 5-3@3 3-2@1 3-6@4 6-2@6 2-4@5 4-0@8 2-1@7 0-1@9",
    dice=dice([3, 3], [3, 3]),
)


def test_flower_scorpion_floor() -> None:
    out = game("flower-scorpion", AB, [F5_H1, F5_H2])
    # H1: Ann 6-6 dual 2; 3-2 -> [6-6]|2 long scorpion -2 (0); Bob 6-1 -> 1|2 long flower 1;
    # Ann 5-6 -> 6|2 -1 on 0 -> 0; Bob 2-2 -> 6|[2-2] -2 on 1 -> points -1; Ann domino +2
    assert points(out, 0) == [2, 0, -2, 1, 0, 0, 0, -1, 0, 0, 0]
    assert items(out, 0)[7] == [(LS, -1)] and items(out, 0)[8] == [(LS, -2)]
    assert result(out, 0) == ("domino", 0, [2, 0], [2, 0])
    # H2 cancelled 3-3 dice: 3-3 dual 2 (no flower items); 5-3 plural 3; 6-2 dual 2; 0-1 dual 2; Bob +2
    assert items(out, 1) == {1: [(DU, 2)], 4: [(PL, 3)], 7: [(DU, 2)], 11: [(DU, 2)]}
    assert out["totals"] == [5, 8]
    out = game("flower-scorpion", AB, [F5_H1, F5_H2], score_floor=None)
    # no floor: Ann 2-2-1+2 = 1, Bob 1-2 = -1; then +3 and +8
    assert out["hands"][0]["totals"] == [1, -1] and out["totals"] == [4, 7]


def test_flower_scorpion_lead_double_scorpion_floored() -> None:
    h = hand(["2-3 2-4 2-5 2-6 3-4 3-5", "5-5 1-2 1-3 1-4 1-5 1-6"], "5-5 5-2@1", leader=1, dice=dice([2, 2], [5, 5]))
    out = game("flower-scorpion", AB, [h])
    # 5-5 led under Scorpion 5-5: no dual, short -1, long -1 = -2, floored at 0
    assert out["hands"][0]["events"][0] == {
        "seat": 1,
        "move": "5-5",
        "points": 0,
        "scoring": [{"name": SS, "points": -1}, {"name": LS, "points": -1}],
    }


F2_MOVES = LOCK2.split() + ["draw"] * 10 + ["pass"] * 4


@pytest.mark.parametrize(
    "cy,scorpion,options,winner,pts,totals",
    [
        # Scorpion 2-3: Cy 0-3 -> 2|3 long -1 on 0 -> 0. Flower 5-6 on the table decides nothing; Cy holds 2-3
        ("2-2 2-3 1-4", [2, 3], {}, 2, [2, 0, 0, 0, 0, 0, 2, 0, 1, 2], [6, 0, 3]),
        ("2-2 2-3 1-4", [2, 3], {"winner_bonus": 1}, 2, [2, 0, 0, 0, 0, 0, 2, 0, 1, 2], [6, 0, 2]),
        # 2-3 drawn by Bob -> Bob
        ("2-2 1-3 1-4", [2, 3], {}, 1, [2, 0, 0, 0, 0, 0, 2, 0, 1, 2], [6, 2, 1]),
        # Scorpion 1-2 (played by Ann: -1): both tiles on the table -> smallest double 1-1 (Ann)
        ("2-2 1-3 1-4", [1, 2], {}, 0, [2, 0, 0, -1, 0, 0, 2, 0, 1, 2], [7, 0, 1]),
        # lowest total with a double: Cy 2-2 1-3 1-4 = 13 < Ann 1-1 6-6 = 14
        (
            "2-2 1-3 1-4",
            [1, 2],
            {"lowest_double_mode": "lowest_total_with_double"},
            2,
            [2, 0, 0, -1, 0, 0, 2, 0, 1, 2],
            [5, 0, 3],
        ),
    ],
)
def test_flower_scorpion_blocked_round_steps(
    cy: str, scorpion: list[int], options: dict[str, Any], winner: int, pts: list[int], totals: list[int]
) -> None:
    ann, cyl = "0-0 2-1 1-0 6-0 1-1 6-6", f"0-3 0-4 5-6 {cy}"
    used = {norm(t) for t in (ann + " " + cyl + " 0-2 3-4 0-5").split()}
    bob_extra = [t for t in ALL if t not in used][:3]
    h = hand([ann, "0-2 3-4 0-5 " + " ".join(bob_extra), cyl], F2_MOVES, leader=0, dice=dice([5, 6], scorpion))
    out = game("flower-scorpion", ["Ann", "Bob", "Cy"], [h], **options)
    # Ann 0-0 dual 2, 1-0 dual 2, 6-0 dual 2; Cy 5-6 short flower 1; Bob draws all 10, then 4 passes
    assert points(out, 0)[:10] == pts
    hp = [0, 0, 0]
    hp[winner] = options.get("winner_bonus", 2)
    assert result(out, 0) == ("blocked", winner, hp, totals)


def test_flower_scorpion_immediate_win() -> None:
    h2 = dict(F_H2, moves=F_H2["moves"][:1])
    out = game("flower-scorpion", AB, [F_H1, h2], target=10, win_check="immediate")
    # H1 [5, 7]; Bob leads 4-4 (+4) -> 11 >= 10: the game ends at that play
    assert result(out, 1) == ("unfinished", None, [0, 0], [5, 11]) and (out["finished"], out["winner"]) == (True, 1)
