"""Audit (gaps): hand-worked records for what the first audit pass left out (RULES.md §1-§7, §9, §9a).

All Fives ``lead_rule=rotate``, ``allow_voluntary_draw``, ``score_unit=fives``, ``set`` 12 and four-player tied
blocks; Bergen and Double Bergen with ``set`` 9 and 12 (C13 deal sizes, lead calls, default targets),
``cover_lead_double_first``, ``spinner_sides_first``, Double Bergen's reserve and immediate win; Flower & Scorpion's
``lead_tile=heaviest_double_in_hand``, a tie at or above 20, three and four players; Block and Draw with ``set`` 12
and 9-10 players, ``first_lead``, ``lead_rule`` and ``win_check`` in Draw; the text replay and the variant aliases.
Every expected value was worked out by hand from the rulebook before the replay was run; comments show the
arithmetic per scoring event.  ``@k`` is tile k of the hand (the lead is tile 1; draws place no tile).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from boneyard import record
from tests.helpers import replay_refusal

Json = dict[str, Any]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
C, DH, TH, SP, PR = "count", "double-header", "triple-header", "spinner", "pairs"
DU, PL, SF, LF, SS = "dual", "plural", "short-flower", "long-flower", "short-scorpion"


def canon(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def full(top: int = 6) -> list[str]:
    return [f"{a}-{b}" for a in range(top, -1, -1) for b in range(a, -1, -1)]


def hand(deal: list[str] | list[list[str]], moves: str, front: str = "", top: int = 6, **extra: Any) -> Json:
    """A hand: the stock is ``front`` (drawn first), then every other tile of the double-``top`` set."""
    seats = [d.split() if isinstance(d, str) else list(d) for d in deal]
    used = [canon(t) for s in seats for t in s] + [canon(t) for t in front.split()]
    assert len(used) == len(set(used))
    stock = front.split() + [t for t in full(top) if t not in set(used)]
    return {"deal": seats, "stock": stock, **extra, "moves": moves.split()}


def rec(variant: str, players: int, hands: list[Json], **options: Any) -> Json:
    return {"format": "boneyard/1", "variant": variant, "options": options, "players": NAMES[:players], "hands": hands}


def ev(seat: int, move: str, *items: tuple[str, int], points: int | None = None) -> Json:
    total = sum(p for _, p in items) if points is None else points
    return {"seat": seat, "move": move, "points": total, "scoring": [{"name": n, "points": p} for n, p in items]}


def quiet(seats: list[int], moves: list[str]) -> list[Json]:
    return [ev(s, m) for s, m in zip(seats, moves, strict=True)]


def xhand(leader: int, events: list[Json], end: str, winner: int | None, hp: list[int], totals: list[int]) -> Json:
    return {"leader": leader, "events": events, "end": end, "winner": winner, "hand_points": hp, "totals": totals}


def check(data: Json, hands: list[Json], finished: bool, winner: int | None) -> None:
    out = record.replay_json(data)
    assert out["hands"] == hands
    assert (out["finished"], out["winner"], out["totals"]) == (finished, winner, hands[-1]["totals"])


def refused(tmp_path: Path, data: Json, where: str) -> None:
    assert where in replay_refusal(tmp_path, data)


# ------------------------------------------------------------------ All Fives: lead_rule=rotate, a game to the target
AF_H1 = hand(["6-1 1-4", "6-6 6-4"], "6-6 6-1@1 6-4@1")
AF_H2 = hand(["5-0 3-2", "0-0 3-1"], "5-0 0-0@1 draw 5-3@1 3-1@3", front="5-3")
AF_H3 = hand(["1-1 2-2", "4-1 6-3"], "4-1 1-1@1 draw 1-0@2 draw 4-2@1 draw 1-3@2 2-2@4", front="1-0 4-2 3-1")
AF_H4 = hand(["5-5 6-2", "5-0 4-3"], "5-5 5-0@1")


def test_all_fives_rotate_four_hands_to_the_target() -> None:
    data = rec("all-fives", 2, [AF_H1, AF_H2, AF_H3, AF_H4], lead_rule="rotate", deal_sizes=2, target=40)
    hands = [
        # call 6-6 -> Bob. 6-6 lone 12; 6-1 on a side 12+1=13; 6-4 other side: spinner closed, 1+4=5 -> Bob 5;
        # domino: Ann 1-4 = 5 -> round5 5
        xhand(1, [ev(1, "6-6"), ev(0, "6-1@1"), ev(1, "6-4@1", (C, 5))], "domino", 1, [0, 5], [0, 10]),
        # rotate: left of the last leader (1) -> Ann, although Bob won. 5-0: 5+0=5; 0-0 spinner one side 5+0=5;
        # 5-3: 3+0=3; 3-1: 1+0=1; Bob domino, Ann 3-2 = 5 -> 5
        xhand(
            0,
            [ev(0, "5-0", (C, 5)), ev(1, "0-0@1", (C, 5)), ev(0, "draw"), ev(0, "5-3@1"), ev(1, "3-1@3")],
            "domino",
            1,
            [0, 5],
            [5, 20],
        ),
        # rotate -> Bob. 4-1: 5; 1-1 spinner one side 4+2=6; 1-0 other side: closed, 4+0=4; 4-2: 2+0=2;
        # 1-3 on a short end: 2+0+3=5; 2-2 at a tip: 4+0+3=7; Ann domino, Bob 6-3 = 9 -> round5 10
        xhand(
            1,
            [
                ev(1, "4-1", (C, 5)),
                ev(0, "1-1@1"),
                ev(1, "draw"),
                ev(1, "1-0@2"),
                ev(0, "draw"),
                ev(0, "4-2@1"),
                ev(1, "draw"),
                ev(1, "1-3@2", (C, 5)),
                ev(0, "2-2@4"),
            ],
            "domino",
            0,
            [10, 0],
            [15, 30],
        ),
        # rotate -> Ann. 5-5 lone 10 -> 25; 5-0: 10+0=10 -> Bob 40 = target: the game ends at once (immediate)
        xhand(0, [ev(0, "5-5", (C, 10)), ev(1, "5-0@1", (C, 10))], "unfinished", None, [0, 0], [25, 40]),
    ]
    check(data, hands, True, 1)


def test_all_fives_rotate_refuses_the_winner_leading(tmp_path: Path) -> None:
    second = hand(["5-0 3-2", "0-0 3-1"], "0-0 0-5@1")
    refused(tmp_path, rec("all-fives", 2, [AF_H1, second], lead_rule="rotate", deal_sizes=2), 'hand 2, move 1 "0-0"')
    # winner_any: Bob leads 0-0 (lone 0); 0-5: 0+5=5 -> Ann 5
    data = rec("all-fives", 2, [AF_H1, second], deal_sizes=2)
    check(
        data,
        [
            xhand(1, [ev(1, "6-6"), ev(0, "6-1@1"), ev(1, "6-4@1", (C, 5))], "domino", 1, [0, 5], [0, 10]),
            xhand(1, [ev(1, "0-0"), ev(0, "0-5@1", (C, 5))], "unfinished", None, [0, 0], [5, 10]),
        ],
        False,
        None,
    )


# ------------------------------------------------------------ All Fives: four players, every tile dealt, tied block
TIE = hand(
    [
        "0-0 3-4 5-6 1-1 2-6 4-6 3-5",
        "0-2 1-0 6-0 1-3 3-6 5-5 1-4",
        "0-3 4-0 6-6 2-2 2-3 1-5 4-4",
        "2-1 0-5 2-4 3-3 1-6 2-5 4-5",
    ],
    "0-0 0-2@1 0-3@1 2-1@2 3-4@3 1-0@4 4-0@5 0-5@7 5-6@8 6-0@9 pass pass pass pass",
    leader=0,
)
# Muggins counts: 0 | 2+0=2 | 2+3=5 | 1+3=4 | 1+4=5 | 0+4=4 | 0+0 | 0+5=5 | 0+6=6 | 0+0; all seven 0s on the table.
# Left: Ann 1-1 2-6 4-6 3-5 = 28, Bob 1-3 3-6 5-5 1-4 = 28, Cy 6-6 2-2 2-3 1-5 4-4 = 35, Dee 2-4 3-3 1-6 2-5 4-5 = 35
TIE_EV = [
    ev(0, "0-0"),
    ev(1, "0-2@1"),
    ev(2, "0-3@1", (C, 5)),
    ev(3, "2-1@2"),
    ev(0, "3-4@3", (C, 5)),
    ev(1, "1-0@4"),
    ev(2, "4-0@5"),
    ev(3, "0-5@7", (C, 5)),
    ev(0, "5-6@8"),
    ev(1, "6-0@9"),
    ev(2, "pass"),
    ev(3, "pass"),
    ev(0, "pass"),
    ev(1, "pass"),
]
TIE_OPTS = {"spinner_mode": "none", "deal_sizes": 7, "first_lead": "random_player_any_tile"}
NEXT = [
    "0-0 3-4 5-6 1-1 2-6 4-6 3-5",
    "2-1 0-5 2-4 3-3 1-6 2-5 4-5",
    "0-2 1-0 6-0 1-3 3-6 5-5 1-4",
    "0-3 4-0 6-6 2-2 2-3 1-5 4-4",
]


@pytest.mark.parametrize(
    ("options", "hp"),
    [
        ({}, [0, 0, 0, 0]),
        ({"tie_rule": "split_3p"}, [0, 0, 0, 0]),  # split_3p is for three players only
        ({"end_scoring": "each_subtracts_own"}, [-30, -30, -35, -35]),  # round5(28) = 30, round5(35) = 35
    ],
)
def test_all_fives_four_players_tied_block_then_the_call(options: Json, hp: list[int]) -> None:
    # hand 2: no winner -> the call: 6-6 held by Dee. 6-6 lone 12; 6-4: 4+12=16; 6-1: 4+1=5 -> Bob 5
    data = rec("all-fives", 4, [TIE, hand(NEXT, "6-6 6-4@1 6-1@1")], **TIE_OPTS, **options)
    t1 = [5 + hp[0], hp[1], 5 + hp[2], 5 + hp[3]]
    check(
        data,
        [
            xhand(0, TIE_EV, "blocked", None, hp, t1),
            xhand(
                3,
                [ev(3, "6-6"), ev(0, "6-4@1"), ev(1, "6-1@1", (C, 5))],
                "unfinished",
                None,
                [0] * 4,
                [t1[0], t1[1] + 5, t1[2], t1[3]],
            ),
        ],
        False,
        None,
    )


def test_all_fives_rotate_after_a_tied_block_passes_the_lead_left() -> None:
    # rotate: left of the last leader (Ann) -> Bob leads any tile, no call. 2-1: 3; 1-3 on the 1: 2+3=5 -> Cy
    data = rec("all-fives", 4, [TIE, hand(NEXT, "2-1 1-3@1")], **TIE_OPTS, lead_rule="rotate")
    check(
        data,
        [
            xhand(0, TIE_EV, "blocked", None, [0] * 4, [5, 0, 5, 5]),
            xhand(1, [ev(1, "2-1"), ev(2, "1-3@1", (C, 5))], "unfinished", None, [0] * 4, [5, 0, 10, 5]),
        ],
        False,
        None,
    )


# ------------------------------------------------------------------ All Fives: voluntary draw, fives, larger sets
def test_all_fives_voluntary_draw(tmp_path: Path) -> None:
    h = hand(["6-6 6-1", "6-3 2-2"], "6-6 draw draw 6-3@1 6-1@1", front="6-5 3-3")
    data = rec("all-fives", 2, [h], deal_sizes=2, allow_voluntary_draw=True)
    # 6-6 lone 12; Bob can play 6-3 but draws 6-5 and 3-3; 6-3: 12+3=15 -> Bob 15; 6-1 other side: 3+1=4;
    # Ann domino: Bob 2-2 6-5 3-3 = 4+11+6 = 21 -> round5 20
    check(
        data,
        [
            xhand(
                0,
                [ev(0, "6-6"), ev(1, "draw"), ev(1, "draw"), ev(1, "6-3@1", (C, 15)), ev(0, "6-1@1")],
                "domino",
                0,
                [20, 0],
                [20, 15],
            )
        ],
        False,
        None,
    )
    refused(tmp_path, rec("all-fives", 2, [h], deal_sizes=2), 'hand 1, move 2 "draw"')
    stop = hand(["6-6 6-1", "6-3 2-2"], "6-6 draw pass", front="6-5 3-3")
    refused(tmp_path, rec("all-fives", 2, [stop], deal_sizes=2, allow_voluntary_draw=True), 'hand 1, move 3 "pass"')


def test_all_fives_score_in_fives() -> None:
    data = rec("all-fives", 2, [hand(["5-5 0-3", "5-0 4-4"], "5-5 5-0@1 0-3@2")], deal_sizes=2, score_unit="fives")
    # 5-5 lone 10 -> 2; 5-0: 10+0=10 -> 2; 0-3: 3+10=13; domino: Bob 4-4 = 8 -> round5 10 -> 2
    check(
        data,
        [xhand(0, [ev(0, "5-5", (C, 2)), ev(1, "5-0@1", (C, 2)), ev(0, "0-3@2")], "domino", 0, [2, 0], [4, 2])],
        False,
        None,
    )


def test_all_fives_double_twelve_three_players_deal_nine_and_call_11_11(tmp_path: Path) -> None:
    h = hand(
        [
            "11-4 1-4 0-0 0-1 0-2 0-3 0-5 0-6 0-7",
            "11-1 1-1 1-2 1-3 1-5 1-6 1-7 1-8 1-9",
            "11-11 4-6 2-2 2-3 2-5 2-6 2-7 2-8 2-9",
        ],
        "11-11 11-4@1 11-1@1 4-6@2 1-4@3",
        top=12,
    )
    # 12-12 undealt -> Cy's 11-11: lone 22; 11-4: 22+4=26; 11-1: closed, 4+1=5; 4-6: 6+1=7; 1-4: 6+4=10
    check(
        rec("all-fives", 3, [h], set=12),
        [
            xhand(
                2,
                [ev(2, "11-11"), ev(0, "11-4@1"), ev(1, "11-1@1", (C, 5)), ev(2, "4-6@2"), ev(0, "1-4@3", (C, 10))],
                "unfinished",
                None,
                [0, 0, 0],
                [10, 5, 0],
            )
        ],
        False,
        None,
    )
    seven = hand(
        ["11-4 1-4 0-0 0-1 0-2 0-3 0-5", "11-1 1-1 1-2 1-3 1-5 1-6 1-7", "11-11 4-6 2-2 2-3 2-5 2-6 2-7"],
        "11-11",
        top=12,
    )
    refused(tmp_path, rec("all-fives", 3, [seven], set=12), "dealt 7 tiles")


def spread(
    players: int, per: int, special: dict[int, list[str]], top: int, skip: tuple[str, ...] = ()
) -> list[list[str]]:
    """Seats get their ``special`` tiles, then the lightest free tiles in seat order."""
    used = {canon(t) for v in special.values() for t in v} | set(skip)
    pool = [t for t in full(top) if t not in used]
    deal = [list(special.get(s, [])) for s in range(players)]
    for seat in deal:
        while len(seat) < per:
            seat.append(pool.pop())
    return deal


@pytest.mark.parametrize("players", [9, 10])
def test_all_fives_double_twelve_nine_and_ten_players_deal_eight(tmp_path: Path, players: int) -> None:
    deal = spread(players, 8, {4: ["12-12"], 5: ["12-3"], 6: ["12-2"]}, 12)
    # 12-12 lone 24; 12-3: 24+3=27; 12-2: closed, 3+2=5 -> seat 6
    totals = [0] * players
    totals[6] = 5
    check(
        rec("all-fives", players, [hand(deal, "12-12 12-3@1 12-2@1", top=12)], set=12),
        [
            xhand(
                4, [ev(4, "12-12"), ev(5, "12-3@1"), ev(6, "12-2@1", (C, 5))], "unfinished", None, [0] * players, totals
            )
        ],
        False,
        None,
    )
    nine = spread(players, 9, {4: ["12-12"]}, 12)
    refused(tmp_path, rec("all-fives", players, [hand(nine, "12-12", top=12)], set=12), "dealt 9 tiles")


def test_all_fives_double_nine_call_through_non_doubles_heavier_of_equal_pips() -> None:
    # no double dealt, 9-8 and 9-7 undealt: 9-6 (Bob) and 8-7 (Ann) both 15 pips, 9-6 heavier (C2) -> Bob, count 15
    h = hand(["8-7 8-6 8-5 7-6 7-5 6-5 4-3", "9-6 9-5 9-4 8-4 7-4 6-4 5-4"], "9-6 6-5@1", top=9)
    # 6-5 on the 6: 9+5=14
    check(
        rec("all-fives", 2, [h], set=9),
        [xhand(1, [ev(1, "9-6", (C, 15)), ev(0, "6-5@1")], "unfinished", None, [0, 0], [0, 15])],
        False,
        None,
    )


# ------------------------------------------------------------------ Bergen: larger sets, 3 and 4 players to the end
def test_bergen_double_nine_two_players_deal_seven(tmp_path: Path) -> None:
    h = hand(["3-3 1-5 5-9 8-4 7-4 6-4 7-3", "1-1 1-9 9-9 8-7 8-6 7-6 8-5"], "1-1 1-5@1 1-9@1 5-9@2 9-9@3", top=9)
    # 0-0 undealt, Bob's 1-1 lowest: DH 2; 5|[1-1]; 5|9; 5-9 on 5: 9|9 DH 2; 9-9 on 9: [9-9]|9 TH 3
    check(
        rec("bergen", 2, [h], set=9),
        [
            xhand(
                1,
                [
                    ev(1, "1-1", (DH, 2)),
                    ev(0, "1-5@1"),
                    ev(1, "1-9@1"),
                    ev(0, "5-9@2", (DH, 2)),
                    ev(1, "9-9@3", (TH, 3)),
                ],
                "unfinished",
                None,
                [0, 0],
                [2, 5],
            )
        ],
        False,
        None,
    )
    six = hand(["3-3 1-5 5-9 8-4 7-4 6-4", "1-1 1-9 9-9 8-7 8-6 7-6"], "1-1", top=9)
    refused(tmp_path, rec("bergen", 2, [six], set=9), "dealt 6 tiles")


def test_bergen_double_nine_eight_players_deal_six() -> None:
    light = ("0-0", "1-1", "2-2", "3-3")
    pool = [t for t in full(9) if t not in (*light, "4-4", "9-4", "4-3")]
    deal = [[pool.pop(0) for _ in range(6)] if s not in (5, 6, 7) else [] for s in range(8)]
    for seat, tile in ((5, "4-4"), (6, "9-4"), (7, "4-3")):
        deal[seat] = [tile] + [pool.pop(0) for _ in range(5)]
    # 0-0..3-3 undealt: seat 5's 4-4 is the lowest double dealt: DH 2; 4-9: 9|[4-4]; 4-3: 9|3
    check(
        rec("bergen", 8, [hand(deal, "4-4 4-9@1 4-3@1", top=9)], set=9),
        [
            xhand(
                5,
                [ev(5, "4-4", (DH, 2)), ev(6, "4-9@1"), ev(7, "4-3@1")],
                "unfinished",
                None,
                [0] * 8,
                [0, 0, 0, 0, 0, 2, 0, 0],
            )
        ],
        False,
        None,
    )


def test_bergen_double_twelve_highest_double(tmp_path: Path) -> None:
    h = hand(
        [
            "10-10 11-5 0-1 0-2 0-3 0-4 0-5 0-6 0-7",
            "11-3 1-2 1-3 1-4 1-5 1-6 1-7 1-8 1-9",
            "11-11 5-3 2-3 2-4 2-5 2-6 2-7 2-8 2-9",
        ],
        "11-11 11-5@1 11-3@1 5-3@2",
        top=12,
    )
    # 12-12 undealt, Cy's 11-11 highest: DH 2; 5|[11-11]; 5|3; 5-3 on the 5: 3|3 DH 2
    check(
        rec("bergen", 3, [h], set=12, lead_rule="highest_double"),
        [
            xhand(
                2,
                [ev(2, "11-11", (DH, 2)), ev(0, "11-5@1"), ev(1, "11-3@1"), ev(2, "5-3@2", (DH, 2))],
                "unfinished",
                None,
                [0, 0, 0],
                [0, 0, 4],
            )
        ],
        False,
        None,
    )
    refused(tmp_path, rec("bergen", 3, [h], set=12), 'hand 1, move 1 "11-11"')  # lowest: Ann's 10-10


def test_bergen_double_twelve_three_players_to_the_default_target_10() -> None:
    g1 = hand(["2-2 2-5", "2-7 11-11", "12-12 5-7"], "2-2 2-7@1 7-5@2 5-2@3", top=12)
    g2 = hand(["4-4 5-4", "4-6 10-10", "6-5 12-12"], "4-4 4-6@1 6-5@2 5-4@3", top=12)
    hands = [
        # 2-2 DH 2; 7|[2-2]; 5|[2-2]; 5-2: 2|[2-2] TH 3; Ann domino +2 -> 7
        xhand(
            0,
            [ev(0, "2-2", (DH, 2)), ev(1, "2-7@1"), ev(2, "7-5@2"), ev(0, "5-2@3", (TH, 3))],
            "domino",
            0,
            [2, 0, 0],
            [7, 0, 0],
        ),
        # Ann on 7 needs 3: DH 2 -> 9; TH 3 when 1 short -> 1 -> 10; domino +2 -> 12 >= 10
        xhand(
            0,
            [ev(0, "4-4", (DH, 2)), ev(1, "4-6@1"), ev(2, "6-5@2"), ev(0, "5-4@3", (TH, 3), points=1)],
            "domino",
            0,
            [2, 0, 0],
            [12, 0, 0],
        ),
    ]
    check(rec("bergen", 3, [g1, g2], set=12, deal_sizes=2), hands, True, 0)


def test_bergen_four_players_to_the_default_target_10() -> None:
    k1 = hand(["0-0 2-1", "0-5 6-6", "5-3 4-4", "3-0 6-5"], "0-0 0-5@1 5-3@2 3-0@3 draw 0-6@4 6-6@5", front="0-6")
    k2 = hand(["1-3 6-6", "3-4 5-5", "4-1 2-2", "1-1 1-5"], "1-1 1-3@1 3-4@2 4-1@3 1-5@4")
    k3 = hand(["0-2 6-6", "2-4 3-3", "4-5 1-1", "0-0 5-0"], "0-0 0-2@1 2-4@2 4-5@3 5-0@4")
    hands = [
        # 0-0 DH 2; 5|[0-0]; 3|[0-0]; 3-0: 0|[0-0] TH 3 (Dee); Ann draws 0-6: 6|[0-0]; 6-6: [6-6]|[0-0]; Bob +2
        xhand(
            0,
            [
                ev(0, "0-0", (DH, 2)),
                ev(1, "0-5@1"),
                ev(2, "5-3@2"),
                ev(3, "3-0@3", (TH, 3)),
                ev(0, "draw"),
                ev(0, "0-6@4"),
                ev(1, "6-6@5"),
            ],
            "domino",
            1,
            [0, 2, 0, 0],
            [2, 2, 0, 3],
        ),
        # Dee's 1-1 lowest: DH 2 -> 5; 3|[1-1]; 4|[1-1]; 4-1: 1|[1-1] TH 3 (Cy); 1-5: 5|[1-1]; Dee +2 -> 7
        xhand(
            3,
            [ev(3, "1-1", (DH, 2)), ev(0, "1-3@1"), ev(1, "3-4@2"), ev(2, "4-1@3", (TH, 3)), ev(3, "1-5@4")],
            "domino",
            3,
            [0, 0, 0, 2],
            [2, 2, 3, 7],
        ),
        # Dee on 7 (needs 3): DH 2 -> 9; 5-0: 0|[0-0] TH 3, needs 1 -> 1 -> 10; domino +2 -> 12
        xhand(
            3,
            [ev(3, "0-0", (DH, 2)), ev(0, "0-2@1"), ev(1, "2-4@2"), ev(2, "4-5@3"), ev(3, "5-0@4", (TH, 3), points=1)],
            "domino",
            3,
            [0, 0, 0, 2],
            [2, 2, 3, 12],
        ),
    ]
    check(rec("bergen", 4, [k1, k2, k3], deal_sizes=2), hands, True, 3)


def test_bergen_cover_lead_double_first(tmp_path: Path) -> None:
    h = hand(["3-3 5-2 6-0", "3-5 6-6 1-4"], "3-3 3-5@1 draw draw 3-4@1 4-1@3 5-2@2", front="4-4 3-4")
    # 3-3 DH 2; 5|[3-3]; Ann's 5-2 fits only the tip: she must draw (4-4 no, 3-4 covers the side): 5|4; 5|1; 2|1
    check(
        rec("bergen", 2, [h], deal_sizes=3, cover_lead_double_first=True),
        [
            xhand(
                0,
                [
                    ev(0, "3-3", (DH, 2)),
                    ev(1, "3-5@1"),
                    ev(0, "draw"),
                    ev(0, "draw"),
                    ev(0, "3-4@1"),
                    ev(1, "4-1@3"),
                    ev(0, "5-2@2"),
                ],
                "unfinished",
                None,
                [0, 0],
                [2, 0],
            )
        ],
        False,
        None,
    )
    tip = hand(["3-3 5-2 6-0", "3-5 6-6 1-4"], "3-3 3-5@1 5-2@2", front="4-4 3-4")
    refused(tmp_path, rec("bergen", 2, [tip], deal_sizes=3, cover_lead_double_first=True), 'hand 1, move 3 "5-2@2"')
    refused(tmp_path, rec("bergen", 2, [h], deal_sizes=3), 'hand 1, move 3 "draw"')


# ------------------------------------------------------------------ Double Bergen
def test_double_bergen_double_nine_three_players(tmp_path: Path) -> None:
    h = hand(
        ["7-2 1-2 0-3 0-4 0-5 0-6 0-8", "7-7 7-3 1-3 1-4 1-5 1-6 1-8", "7-1 7-4 2-3 2-4 2-5 2-6 2-8"],
        "7-7 7-1@1 7-2@1 7-3@1 7-4@1 1-2@2",
        top=9,
        leader=1,
    )
    # 7-7 lone spinner 2; three faces: spinner open 2 each; fourth face closes: tips 1,2,3,4 -> 0;
    # 1-2 on the 1 tip: tips 2,2,3,4 -> pair 2
    check(
        rec("double-bergen", 3, [h], set=9),
        [
            xhand(
                1,
                [
                    ev(1, "7-7", (SP, 2)),
                    ev(2, "7-1@1", (SP, 2)),
                    ev(0, "7-2@1", (SP, 2)),
                    ev(1, "7-3@1", (SP, 2)),
                    ev(2, "7-4@1"),
                    ev(0, "1-2@2", (PR, 2)),
                ],
                "unfinished",
                None,
                [0, 0, 0],
                [4, 4, 2],
            )
        ],
        False,
        None,
    )
    six = hand(
        ["7-2 1-2 0-3 0-4 0-5 0-6", "7-7 7-3 1-3 1-4 1-5 1-6", "7-1 7-4 2-3 2-4 2-5 2-6"], "7-7", top=9, leader=1
    )
    refused(tmp_path, rec("double-bergen", 3, [six], set=9), "dealt 6 tiles")


@pytest.mark.parametrize("sides_first", [False, True])
def test_double_bergen_double_twelve_four_players_duty_passes(sides_first: bool) -> None:
    h = hand(
        [
            "12-12 5-5 5-4 0-1 0-2 0-3 0-4 0-6 0-7",
            "5-1 1-2 1-3 1-4 1-6 1-7 1-8 1-9 1-10",
            "5-2 2-3 2-4 2-6 2-7 2-8 2-9 2-10 2-11",
            "5-3 3-4 3-6 3-7 3-8 3-9 3-10 3-11 3-12",
        ],
        "5-5 5-1@1 5-2@1 5-3@1 5-4@1 1-2@2",
        top=12,
        leader=2,
    )
    # designated Cy and then Dee hold no double -> Ann sets (her choice) 5-5: 2; Bob, Cy, Dee: spinner open 2 each;
    # Ann's fourth face: tips 1,2,3,4 -> 0; Bob 1-2: tips 2,2,3,4 -> 2. spinner_sides_first changes nothing.
    check(
        rec("double-bergen", 4, [h], set=12, spinner_sides_first=sides_first),
        [
            xhand(
                2,
                [
                    ev(0, "5-5", (SP, 2)),
                    ev(1, "5-1@1", (SP, 2)),
                    ev(2, "5-2@1", (SP, 2)),
                    ev(3, "5-3@1", (SP, 2)),
                    ev(0, "5-4@1"),
                    ev(1, "1-2@2", (PR, 2)),
                ],
                "unfinished",
                None,
                [0] * 4,
                [2, 4, 2, 2],
            )
        ],
        False,
        None,
    )


def test_double_bergen_double_twelve_ten_players() -> None:
    doubles = [f"{a}-{a}" for a in range(13)]
    plain = [t for t in full(12) if t not in doubles and t != "6-0"]
    deal: list[list[str]] = [[] for _ in range(10)]
    deal[7].append("6-6")
    deal[8].append("6-0")
    for seat in (5, 6, 7, 8):
        while len(deal[seat]) < 8:
            deal[seat].append(plain.pop(0))
    rest = [t for t in doubles if t != "6-6"] + plain
    for seat in (0, 1, 2, 3, 4, 9):
        while len(deal[seat]) < 8:
            deal[seat].append(rest.pop(0))
    # designated 5 and then 6 hold no double; seat 7 sets 6-6: 2; seat 8 plays 6-0 on a face: 2
    totals = [0] * 10
    totals[7] = totals[8] = 2
    check(
        rec("double-bergen", 10, [hand(deal, "6-6 6-0@1", top=12, leader=5)], set=12),
        [xhand(5, [ev(7, "6-6", (SP, 2)), ev(8, "6-0@1", (SP, 2))], "unfinished", None, [0] * 10, totals)],
        False,
        None,
    )


RESERVE = hand(
    ["6-6 6-5 6-4 6-3 6-2 6-1 6-0 5-5 5-4 5-3 5-2 5-1 5-0", "4-4 4-3 4-2 4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1"],
    "6-6 pass 6-5@1 pass 6-4@1 pass 6-3@1 pass 6-2@1 4-4@3",
    leader=0,
)


def test_double_bergen_reserve_two_and_no_arm_before_four_faces(tmp_path: Path) -> None:
    # stock 2 = the reserve. 6-6: 2; Bob has no 6 -> pass; 6-5: 2; Bob's 4s may not go on the 4 tip before all
    # four faces -> pass; ...; 6-2 closes: tips 5,4,3,2 -> 0 (Ann 8); 4-4 on the 4 tip: lone double 0
    check(
        rec("double-bergen", 2, [RESERVE], deal_sizes=13, boneyard_reserve=2),
        [
            xhand(
                0,
                [
                    ev(0, "6-6", (SP, 2)),
                    ev(1, "pass"),
                    ev(0, "6-5@1", (SP, 2)),
                    ev(1, "pass"),
                    ev(0, "6-4@1", (SP, 2)),
                    ev(1, "pass"),
                    ev(0, "6-3@1", (SP, 2)),
                    ev(1, "pass"),
                    ev(0, "6-2@1"),
                    ev(1, "4-4@3"),
                ],
                "unfinished",
                None,
                [0, 0],
                [8, 0],
            )
        ],
        False,
        None,
    )
    refused(tmp_path, rec("double-bergen", 2, [RESERVE], deal_sizes=13), 'hand 1, move 2 "pass"')
    drew = dict(RESERVE, moves=["6-6", "draw"])
    refused(tmp_path, rec("double-bergen", 2, [drew], deal_sizes=13, boneyard_reserve=2), 'hand 1, move 2 "draw"')


def test_double_bergen_immediate_win() -> None:
    h = hand(["6-6 6-5 6-4", "6-3 6-2 0-0"], "6-6 6-3@1 6-5@1", leader=0)
    # 2, 2, 2 -> Ann 4 = target: the game ends at once
    check(
        rec("double-bergen", 2, [h], deal_sizes=3, target=4, win_check="immediate"),
        [
            xhand(
                0,
                [ev(0, "6-6", (SP, 2)), ev(1, "6-3@1", (SP, 2)), ev(0, "6-5@1", (SP, 2))],
                "unfinished",
                None,
                [0, 0],
                [4, 2],
            )
        ],
        True,
        0,
    )


# ------------------------------------------------------------------ Flower & Scorpion
def dice(flower: list[int], scorpion: list[int]) -> Json:
    return {"flower": flower, "scorpion": scorpion}


FS1 = hand(["4-4 2-2", "4-2 6-5", "4-1 6-6"], "4-4 4-2@1 4-1@1 2-2@2", dice=dice([2, 4], [5, 6]), leader=0)
FS2 = hand(["3-5 0-0", "5-1 5-6", "1-3 0-1"], "5-1 1-3@1 3-5@2 5-6@1", dice=dice([1, 5], [3, 6]))
FS3 = hand(
    ["3-0 3-6", "0-5 6-6", "3-3 1-1"], "3-3 3-0@1 0-5@2 draw 5-3@3 3-6@4", front="5-3", dice=dice([3, 3], [1, 2])
)


def test_flower_scorpion_heaviest_double_three_players(tmp_path: Path) -> None:
    hands = [
        # Ann must lead 4-4 (not 2-2): lone double dual 2; 4-2 Flower tile -> 2|[4-4]: short 1 + long 1x2 = 3;
        # 4-1: 2|1; 2-2: [2-2]|1; Ann domino +2
        xhand(
            0,
            [ev(0, "4-4", (DU, 2)), ev(1, "4-2@1", (SF, 1), (LF, 2)), ev(2, "4-1@1"), ev(0, "2-2@2")],
            "domino",
            0,
            [2, 0, 0],
            [4, 3, 0],
        ),
        # Bob holds no double -> any tile: 5-1 Flower tile, ends 5|1: short 1 + long 1; 5|3; 3-5: 5|5 dual 2;
        # 5-6: 6|5; Bob domino +2
        xhand(
            1,
            [ev(1, "5-1", (SF, 1), (LF, 1)), ev(2, "1-3@1"), ev(0, "3-5@2", (DU, 2)), ev(1, "5-6@1")],
            "domino",
            1,
            [0, 2, 0],
            [6, 7, 0],
        ),
        # Cy must lead 3-3 (not 1-1), double Flower: dual 2 + short 1 + long 1 = 4; 0|[3-3]; 5|[3-3];
        # Cy draws 5-3: 3|[3-3] plural 3 + long 1x2 = 5; 3-6: 6|[3-3]; Ann domino +2
        xhand(
            2,
            [
                ev(2, "3-3", (DU, 2), (SF, 1), (LF, 1)),
                ev(0, "3-0@1"),
                ev(1, "0-5@2"),
                ev(2, "draw"),
                ev(2, "5-3@3", (PL, 3), (LF, 2)),
                ev(0, "3-6@4"),
            ],
            "domino",
            0,
            [2, 0, 0],
            [8, 7, 9],
        ),
    ]
    check(
        rec("flower-scorpion", 3, [FS1, FS2, FS3], deal_sizes=2, lead_tile="heaviest_double_in_hand"),
        hands,
        False,
        None,
    )
    light = dict(FS1, moves=["2-2", "2-4@1"])
    refused(
        tmp_path,
        rec("flower-scorpion", 3, [light], deal_sizes=2, lead_tile="heaviest_double_in_hand"),
        'hand 1, move 1 "2-2"',
    )
    # lead_tile=any: 2-2 dual 2; 2-4: 4|[2-2] short 1 + long 1x2 = 3
    check(
        rec("flower-scorpion", 3, [light], deal_sizes=2),
        [xhand(0, [ev(0, "2-2", (DU, 2)), ev(1, "2-4@1", (SF, 1), (LF, 2))], "unfinished", None, [0, 0, 0], [2, 3, 0])],
        False,
        None,
    )


def p2(cm: int) -> Json:
    deal = ["4-2 6-1", "4-2 6-1"]
    deal[cm] = "4-4 2-2"
    return hand(deal, "4-4 4-2@1 2-2@2", dice=dice([2, 4], [5, 6]), **({"leader": 0} if cm == 0 else {}))


def test_flower_scorpion_tie_at_or_above_20_plays_another_round(tmp_path: Path) -> None:
    # each round: CM 4-4 dual 2; other 4-2: short 1 + long 2 = 3; CM 2-2: [2-2]|[4-4] long 2x2 = 4; domino +2
    # -> CM +8, other +3: 8/3, 11/11, 19/14, 22/22 (tie at >= 20: play on), 30/25 -> Ann
    hands, totals = [], [0, 0]
    for cm in (0, 1, 0, 1, 0):
        other = 1 - cm
        totals = [totals[0] + (8 if cm == 0 else 3), totals[1] + (8 if cm == 1 else 3)]
        hp = [2, 0] if cm == 0 else [0, 2]
        hands.append(
            xhand(
                cm,
                [ev(cm, "4-4", (DU, 2)), ev(other, "4-2@1", (SF, 1), (LF, 2)), ev(cm, "2-2@2", (LF, 4))],
                "domino",
                cm,
                hp,
                totals,
            )
        )
    check(rec("flower-scorpion", 2, [p2(0), p2(1), p2(0), p2(1), p2(0)], deal_sizes=2), hands, True, 0)
    extra = rec("flower-scorpion", 2, [p2(0), p2(1), p2(0), p2(1), p2(0), p2(1)], deal_sizes=2)
    refused(tmp_path, extra, "hand 6")


def test_flower_scorpion_four_players_cancelled_dice_and_rotation() -> None:
    q1 = hand(
        ["6-1 0-0", "1-2 0-1", "2-6 0-2", "6-6 6-5"], "6-6 6-1@1 1-2@2 2-6@3 6-5@4", dice=dice([6, 6], [6, 6]), leader=3
    )
    q2 = hand(["3-1 3-2", "1-6 0-0", "6-2 0-1", "3-3 0-2"], "3-1 1-6@1 6-2@2 3-3@1 3-2@4", dice=dice([1, 3], [2, 6]))
    hands = [
        # cancelled: 6-6 dual 2 only; 1|[6-6]; 2|[6-6]; 2-6: 6|[6-6] plural 3 (no suppression); 5|[6-6]; Dee +2
        xhand(
            3,
            [ev(3, "6-6", (DU, 2)), ev(0, "6-1@1"), ev(1, "1-2@2"), ev(2, "2-6@3", (PL, 3)), ev(3, "6-5@4")],
            "domino",
            3,
            [0, 0, 0, 2],
            [0, 0, 3, 4],
        ),
        # CM passes left to Ann: 3-1 Flower tile, 3|1: short 1 + long 1; 3|6; 6-2 Scorpion tile: short -1 (3|2);
        # 3-3: [3-3]|2; 3-2 on 3-3: 2|2 dual 2; Ann domino +2
        xhand(
            0,
            [
                ev(0, "3-1", (SF, 1), (LF, 1)),
                ev(1, "1-6@1"),
                ev(2, "6-2@2", (SS, -1)),
                ev(3, "3-3@1"),
                ev(0, "3-2@4", (DU, 2)),
            ],
            "domino",
            0,
            [2, 0, 0, 0],
            [6, 0, 2, 4],
        ),
    ]
    check(rec("flower-scorpion", 4, [q1, q2], deal_sizes=2), hands, False, None)


@pytest.mark.parametrize(
    ("deal", "leader"),
    [
        (["6-1 0-0 0-1 0-2 0-3", "1-2 0-4 0-5 0-6 1-1", "2-6 1-3 1-4 1-5 3-3", "6-6 6-5 2-2 2-3 2-4"], 3),
        (["6-1 0-0 0-1 0-2 0-3 0-4", "1-2 0-5 0-6 1-1 1-3 1-4", "6-6 6-5 2-2 2-3 2-4 2-5"], 2),
    ],
)
def test_flower_scorpion_default_deals_five_and_six(deal: list[str], leader: int) -> None:
    n = len(deal)
    # 6-6 lone: dual 2 (flower {1,2}, scorpion {3,4} not involved); 6-1: 1|[6-6] -> 0
    totals = [0] * n
    totals[leader] = 2
    check(
        rec("flower-scorpion", n, [hand(deal, "6-6 6-1@1", dice=dice([1, 2], [3, 4]), leader=leader)]),
        [xhand(leader, [ev(leader, "6-6", (DU, 2)), ev(0, "6-1@1")], "unfinished", None, [0] * n, totals)],
        False,
        None,
    )


# ------------------------------------------------------------------ Block and Draw
def test_block_double_twelve_nine_players_blocked_at_once() -> None:
    undealt = {f"12-{b}" for b in range(12)} | {"11-11", "11-10", "11-9", "11-8", "10-10", "10-9", "11-7"}
    light = [t for t in reversed(full(12)) if t not in undealt and t != "12-12"]
    deal: list[list[str]] = [[] for _ in range(9)]
    deal[2].append("12-12")
    seat = 0
    while light:
        while len(deal[seat]) >= 8:
            seat = (seat + 1) % 9
        deal[seat].append(light.pop(0))
        seat = (seat + 1) % 9
    moves = "12-12" + " pass" * 9
    # every other 12 undealt: nine passes -> blocked. Seat 2 holds 1-1 4-1 5-5 7-1 8-2 9-2 10-1 = 57 (lowest);
    # the others 79 + 61 + 70 + 78 + 86 + 88 + 96 + 104 = 662 -> seat 2 scores 662 >= 100: game over
    hp = [0, 0, 662, 0, 0, 0, 0, 0, 0]
    check(
        rec("block", 9, [hand(deal, moves, top=12)], set=12),
        [xhand(2, quiet([2, 3, 4, 5, 6, 7, 8, 0, 1, 2], moves.split()), "blocked", 2, hp, hp)],
        True,
        2,
    )


def test_block_double_twelve_ten_players_call_11_11() -> None:
    deal = spread(10, 8, {4: ["11-11"], 5: ["11-3"], 6: ["11-5"]}, 12, skip=("12-12",))
    # 12-12 undealt (eleven tiles undealt: 12-12 and the 12-x from 12-11 down) -> 11-11 called
    check(
        rec("block", 10, [hand(deal, "11-11 11-3@1 11-5@1", top=12)], set=12),
        [xhand(4, quiet([4, 5, 6], ["11-11", "11-3@1", "11-5@1"]), "unfinished", None, [0] * 10, [0] * 10)],
        False,
        None,
    )


@pytest.mark.parametrize("players", [9, 10])
def test_draw_double_twelve_nine_and_ten_players(tmp_path: Path, players: int) -> None:
    special: dict[int, list[str]] = {5: ["12-12"], 7: ["12-3"]}
    for i, t in enumerate(f"12-{b}" for b in range(12) if b not in (3, 7)):
        special.setdefault([0, 1, 2, 3, 4, 8, 9][i % 7] % players, []).append(t)
    deal = spread(players, 8, special, 12, skip=("1-0", "12-7"))
    moves = "12-12 draw draw 12-7@1 12-3@1"
    # seat 6 holds no 12: draws 1-0 (no), 12-7 (fits) and plays it; seat 7 12-3 on the other side
    check(
        rec("draw", players, [hand(deal, moves, front="1-0 12-7", top=12)], set=12),
        [xhand(5, quiet([5, 6, 6, 6, 7], moves.split()), "unfinished", None, [0] * players, [0] * players)],
        False,
        None,
    )
    nine = spread(players, 9, special, 12)
    refused(tmp_path, rec("draw", players, [hand(nine, "12-12", top=12)], set=12), "dealt 9 tiles")


DR1 = hand(["6-6 0-0", "5-3 3-2"], "5-3 draw draw 3-1@1 draw 1-2@2 draw 5-5@1 2-3@3", front="4-4 3-1 1-2 5-5", leader=1)
DR2 = hand(["2-2 2-4", "4-1 6-5"], "2-2 draw 2-1@1 2-4@1", front="2-1")
DR3 = hand(["4-0 5-5", "6-4 0-2"], "6-4 4-0@1 0-2@2")
DR_OPTS = {"deal_sizes": 2, "first_lead": "random_player_any_tile", "lead_rule": "rotate", "target": 30}
DR_HANDS = [
    # Bob (by lot) leads any tile and dominoes; Ann holds 6-6 0-0 4-4 = 12 + 0 + 8 = 20
    xhand(1, quiet([1, 0, 0, 0, 1, 1, 0, 0, 1], DR1["moves"]), "domino", 1, [0, 20], [0, 20]),
    # rotate: left of the last leader -> Ann (winner_any would give Bob); Ann dominoes: 4-1 + 6-5 = 5 + 11 = 16
    xhand(0, quiet([0, 1, 1, 0], DR2["moves"]), "domino", 0, [16, 0], [16, 20]),
    # rotate -> Bob; Bob dominoes: Ann 5-5 = 10 -> 30 = target
    xhand(1, quiet([1, 0, 1], DR3["moves"]), "domino", 1, [0, 10], [16, 30]),
]


@pytest.mark.parametrize("win_check", ["immediate", "end_of_hand"])
def test_draw_random_first_lead_rotate_and_win_check(win_check: str) -> None:
    check(rec("draw", 2, [DR1, DR2, DR3], **DR_OPTS, win_check=win_check), DR_HANDS, True, 1)


def test_draw_lead_rule_random_and_winner_any(tmp_path: Path) -> None:
    check(rec("draw", 2, [DR1, dict(DR2, leader=0)], **{**DR_OPTS, "lead_rule": "random"}), DR_HANDS[:2], False, None)
    refused(tmp_path, rec("draw", 2, [DR1, DR2], **{**DR_OPTS, "lead_rule": "random"}), "hand 2")
    refused(tmp_path, rec("draw", 2, [DR1, DR2], **{**DR_OPTS, "lead_rule": "winner_any"}), 'hand 2, move 1 "2-2"')


@pytest.mark.parametrize("sizes", ["7/6/5", [7, 6, 5]])
def test_block_random_first_lead_and_deal_sizes_per_player_count(sizes: Any) -> None:
    deal = ["1-4 0-0 0-1 0-2 0-3 0-4", "4-6 0-5 0-6 1-1 1-2 2-3", "3-1 6-6 5-5 2-2 3-3 1-5"]
    # 3 players -> 6 each; Cy (by lot) leads any tile although Cy holds 6-6
    data = rec(
        "block",
        3,
        [hand(deal, "3-1 1-4@1 4-6@2", leader=2)],
        deal_sizes=sizes,
        first_lead="random_player_any_tile",
        win_check="immediate",
    )
    check(
        data, [xhand(2, quiet([2, 0, 1], ["3-1", "1-4@1", "4-6@2"]), "unfinished", None, [0] * 3, [0] * 3)], False, None
    )


# ------------------------------------------------------------------ text replay and aliases
TEXT_CASES = [
    rec("all-fives", 2, [AF_H1, AF_H2, AF_H3, AF_H4], lead_rule="rotate", deal_sizes=2, target=40),
    rec("bergen", 4, [hand(["0-0 2-1", "0-5 6-6", "5-3 4-4", "3-0 6-5"], "0-0 0-5@1")], deal_sizes=2),
    rec("double-bergen", 2, [RESERVE], deal_sizes=13, boneyard_reserve=2),
    rec("flower-scorpion", 3, [FS1, FS2, FS3], deal_sizes=2, lead_tile="heaviest_double_in_hand"),
    rec("draw", 2, [DR1, DR2, DR3], **DR_OPTS),
    rec("block", 3, [hand(["1-4 0-0 0-1 0-2 0-3", "4-6 0-5 0-6 1-1 1-2", "6-6 5-5 2-2 3-3 1-5"], "6-6")]),
]


@pytest.mark.parametrize("data", TEXT_CASES, ids=[d["variant"] for d in TEXT_CASES])
def test_text_replay_prints_a_readable_game(tmp_path: Path, data: Json) -> None:
    path = tmp_path / "g.boneyard.json"
    path.write_text(json.dumps(data))
    proc = subprocess.run(
        [sys.executable, "-m", "boneyard", "replay", str(path)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0
    assert proc.stderr == ""
    assert "Hand 1" in proc.stdout
    assert all(name in proc.stdout for name in data["players"])


@pytest.mark.parametrize(
    ("alias", "data"),
    [
        ("muggins", TEXT_CASES[0]),
        ("five-up", TEXT_CASES[0]),
        ("fives", TEXT_CASES[0]),
        ("flower-and-scorpion", TEXT_CASES[3]),
    ],
)
def test_aliases_replay_identically(alias: str, data: Json) -> None:
    assert record.replay_json({**data, "variant": alias}) == record.replay_json(data)


def test_the_text_replay_names_who_placed_the_first_tile_when_the_duty_passed() -> None:
    h = hand(
        [
            "12-12 5-5 5-4 0-1 0-2 0-3 0-4 0-6 0-7",
            "5-1 1-2 1-3 1-4 1-6 1-7 1-8 1-9 1-10",
            "5-2 2-3 2-4 2-6 2-7 2-8 2-9 2-10 2-11",
            "5-3 3-4 3-6 3-7 3-8 3-9 3-10 3-11 3-12",
        ],
        "5-5",
        top=12,
        leader=2,
    )
    text = record.replay_text(rec("double-bergen", 4, [h], set=12))
    names = record.replay_json(rec("double-bergen", 4, [h], set=12))["players"]
    assert f"Hand 1 — {names[0]} places the first tile ({names[2]} was to lead)" in text
