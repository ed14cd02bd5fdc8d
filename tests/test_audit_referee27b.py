"""Audit 27b: hand-worked records for three areas audit 27 left without one.

1. Double Bergen with ``boneyard_reserve=2`` (DBG-3 option, C8): a player who cannot play draws until the stock is
   down to the two reserved tiles, then passes; how the hand then blocks (C9(b) and its §9a timing: a turn that
   draws and then passes resets the count); and DBG-4's search for a double when nobody was dealt one, with the
   tiles it draws kept and the stock then close to the reserve.
2. Draw in partnerships (C12, ``partnerships=true``) with double-nine (C13: 7 tiles each, 27 left to draw): the
   first lead called from 9-9 down, drawing until playable, the side's score for a domino (every pip left, the
   partner's too) and for a blocked hand (``partnership_block`` both ways), the shared target of 100.
3. Double-twelve Block and Draw with the largest counts C13 allows: 9 and 10 players, 8 tiles each; the call
   from 12-12 down; a blocked hand needs 9 or 10 passes; its scoring (BLK-8 ... BLK-11, BLK-9's tie).

Every expected number was worked by hand from RULES.md (v1.1, §1-§9a) and RECORD.md before the replay ran; the
comments carry the arithmetic.  ``@k`` is tile k of the hand (the lead is 1; draws place no tile).  The helpers
are audit 27's and rules3's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from boneyard.tiles import Tile
from tests.test_audit_referee27 import full_set, hand, refusal
from tests.test_audit_rules3 import canon, game_end, items, points, replay, seats, summary

Json = dict[str, Any]


def pips(tiles: str) -> int:
    """Pip total of space-separated tiles (plain arithmetic on the notation, for the comments' sums)."""
    return sum(int(half) for tile in tiles.split() for half in tile.split("-"))


def filled(fixed: list[str], size: int, top: int, keep_out: str = "",
           refuse: dict[int, Callable[[Tile], bool]] | None = None) -> list[str]:
    """Deals of ``size`` tiles: each seat's ``fixed`` tiles, topped up in canonical order from the set minus every
    fixed tile and ``keep_out`` (the stock's front); ``refuse[seat]`` names tiles that seat must not get."""
    taken = {canon(t) for d in fixed for t in d.split()} | {canon(t) for t in keep_out.split()}
    pool = [t for t in full_set(top) if t not in taken]
    deals = []
    for seat, given in enumerate(fixed):
        tiles = given.split()
        bad = (refuse or {}).get(seat, lambda tile: False)
        for t in list(pool):
            if len(tiles) == size:
                break
            if not bad(Tile.parse(t)):
                tiles.append(t)
                pool.remove(t)
        assert len(tiles) == size
        deals.append(" ".join(tiles))
    return deals


def suits(*numbers: int) -> Callable[[Tile], bool]:
    return lambda tile: tile.high in numbers or tile.low in numbers


# ================================================================== 1. Double Bergen, boneyard_reserve=2
# 2 players, deal_sizes=12 (24 dealt, stock 4: two drawable, then the reserve 5-3 5-4).  Designated leader P0
# (recorded, DBG-4) holds 0-0 1-1 5-5 6-6 and sets 6-6 (his choice).
#   1 P0 6-6 lone spinner: +2            2 P1 6-0 face: spinner open +2, tip 0 alone 0
#   3 P0 6-1: +2                         4 P1 6-2: +2
#   5 P0 6-5 fourth face: spinner closed, tips 0 1 2 5 -> 0
#   6 P1 0-5 on the 0: tips 5 1 2 5 -> pair +2      7 P0 1-5 on the 1: 5 5 2 5 -> +3
#   8 P1 2-5 on the 2: 5 5 5 5 -> +4                9 P0 5-5 on the 5 of 6-5: [5-5] 5 5 5 -> 2+1+1+1 = +5
# Every 5 is now on the table or in the reserve.  P1 holds no 5: draws 6-3, draws 6-4 (no 5), the stock is down to
# the reserve, so P1 passes (move 12).  That turn drew, so the count starts again (§9a C9(b)): P0 passes (13),
# P1 passes (14): two passes in a row with nothing drawn -> blocked.
# Left: P0 0-0 1-0 2-0 3-0 4-0 1-1 2-1 = 15 (7 tiles); P1 3-1 4-1 2-2 3-2 4-2 3-3 4-3 4-4 + 6-3 6-4 = 45+19 = 64
# (10 tiles).  P0 has the lowest total and scores 1 (DBG-9).  Totals: P0 2+2+0+3+5 = 12, +1 = 13; P1 2+2+2+4 = 10.
DBG_R = ["6-6 6-1 6-5 1-5 5-5 0-0 1-0 2-0 3-0 4-0 1-1 2-1", "6-0 6-2 0-5 2-5 3-1 4-1 2-2 3-2 4-2 3-3 4-3 4-4"]
DBG_R_MOVES = "6-6 6-0@1 6-1@1 6-2@1 6-5@1 0-5@2 1-5@3 2-5@4 5-5@5 draw draw pass pass pass"
DBG_R_PLAYS = [2, 2, 2, 2, 0, 2, 3, 4, 5]


def dbg_reserve(moves: str = DBG_R_MOVES) -> Json:
    return hand(DBG_R, moves, front="6-3 6-4 5-3 5-4", leader=0)


@pytest.mark.parametrize(
    "options,hand_points,totals",
    [
        ({}, [1, 0], [13, 10]),
        ({"end_scoring": "tile_penalty"}, [-7, -10], [5, 0]),  # 1 point per tile left, no bonus (DBG-9 option)
    ],
)
def test_double_bergen_reserve_two_draws_to_the_reserve_then_blocks(options: Json, hand_points: list[int],
                                                                    totals: list[int]) -> None:
    out = replay("double-bergen", 2, [dbg_reserve()], deal_sizes=12, boneyard_reserve=2, **options)
    assert seats(out) == [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1]
    assert points(out) == DBG_R_PLAYS + [0] * 5
    assert items(out) == {1: [("spinner", 2)], 2: [("spinner", 2)], 3: [("spinner", 2)], 4: [("spinner", 2)],
                          6: [("pairs", 2)], 7: [("pairs", 3)], 8: [("pairs", 4)], 9: [("pairs", 5)]}
    assert summary(out) == (0, "blocked", 0, hand_points, totals)
    assert game_end(out) == (False, None, totals)  # target 100 (DBG-10)


def test_double_bergen_reserve_two_pass_after_drawing_does_not_count_toward_the_block() -> None:
    # only one pass with nothing drawn so far (P0's, move 13): the hand goes on, P1 to move
    out = replay("double-bergen", 2, [dbg_reserve(DBG_R_MOVES.rsplit(" ", 1)[0])], deal_sizes=12, boneyard_reserve=2)
    assert summary(out) == (0, "unfinished", None, [0, 0], [12, 10])
    assert game_end(out) == (False, None, [12, 10])


def test_double_bergen_reserve_refusals() -> None:
    # a third draw would take a reserved tile (C8, DBG-3 option)
    third = dbg_reserve(DBG_R_MOVES.replace("draw draw pass", "draw draw draw"))
    assert refusal("double-bergen", 2, [third], deal_sizes=12, boneyard_reserve=2).startswith(
        'hand 1, move 12 "draw": ')
    # without the reserve (the default, DBG-3) P1 must draw on: his pass at move 12 is refused (5-3 is next)
    assert refusal("double-bergen", 2, [dbg_reserve()], deal_sizes=12).startswith('hand 1, move 12 "pass": ')
    # with the reserve, passing with two drawable tiles left is refused too
    early = dbg_reserve(DBG_R_MOVES.replace("draw draw pass", "pass"))
    assert refusal("double-bergen", 2, [early], deal_sizes=12, boneyard_reserve=2).startswith(
        'hand 1, move 10 "pass": ')


# DBG-4's search with boneyard_reserve=2: 2 players, 6 each (DBG-2), nobody dealt a double.  The stock lists nine
# non-doubles, then 6-6, then the other six doubles (4-4 5-5 are the reserve).  From the designated leader P0 the
# players draw in turn, keeping non-doubles [DEF]: P0 3-1, P1 4-1, P0 5-1, P1 3-2, P0 4-2, P1 5-2, P0 4-3, P1 5-3,
# P0 5-4, P1 6-6 (tenth draw, P1) -> P1 sets 6-6; play continues with P0 (left of the setter).  Not written as
# moves (RECORD.md).  Six tiles remain: 0-0 1-1 2-2 3-3 drawable, 4-4 5-5 reserved.
#   1 P1 6-6: +2.  P0 holds no 6 and arms may not grow (DBG-5): draws 0-0 1-1 2-2 3-3 (moves 2-5, none fits),
#   the stock is at the reserve -> pass (6).
#   7 P1 6-0: +2    8 P0 pass (cannot play, cannot draw)    9 P1 6-1: +2    10 P0 pass    11 P1 6-2: +2
#   12 P0 pass      13 P1 6-3 fourth face: tips 0 1 2 3 -> 0
#   14 P0 1-3 (drawn in the search) on the 1 of tile 3 (6-1): tips 0 3 2 3 -> pair +2
#   15 P1 2-3 (drawn in the search) on the 2 of tile 4 (6-2): tips 0 3 3 3 -> +3
# P0 2; P1 2+2+2+2+3 = 11.
SEARCH_DEAL = ["1-0 2-0 3-0 4-0 5-0 2-1", "6-0 6-1 6-2 6-3 6-4 6-5"]
SEARCH_STOCK = "3-1 4-1 5-1 3-2 4-2 5-2 4-3 5-3 5-4 6-6 0-0 1-1 2-2 3-3 4-4 5-5"
SEARCH_MOVES = "6-6 draw draw draw draw pass 6-0@1 pass 6-1@1 pass 6-2@1 pass 6-3@1 1-3@3 2-3@4"


def dbg_search(moves: str = SEARCH_MOVES) -> Json:
    return hand(SEARCH_DEAL, moves, front=SEARCH_STOCK, leader=0)


def test_double_bergen_search_for_a_double_then_draws_to_the_reserve() -> None:
    out = replay("double-bergen", 2, [dbg_search()], boneyard_reserve=2)
    assert seats(out) == [1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
    assert points(out) == [2, 0, 0, 0, 0, 0, 2, 0, 2, 0, 2, 0, 0, 2, 3]
    assert items(out)[15] == [("pairs", 3)]
    # the hand's leader is the designated leader, P0, though P1 set the double
    assert summary(out) == (0, "unfinished", None, [0, 0], [2, 11])


def test_double_bergen_search_refusals() -> None:
    # a fifth draw for P0 would reach the reserve
    fifth = dbg_search(SEARCH_MOVES.replace("draw pass", "draw draw", 1))
    assert refusal("double-bergen", 2, [fifth], boneyard_reserve=2).startswith('hand 1, move 6 "draw": ')
    # without the reserve P0 must draw 4-4 and 5-5 as well: the pass is refused
    assert refusal("double-bergen", 2, [dbg_search()]).startswith('hand 1, move 6 "pass": ')
    # the search is not written as moves (RECORD.md): the first move is the set double, played by P1
    written = dbg_search("draw " + SEARCH_MOVES)
    assert refusal("double-bergen", 2, [written], boneyard_reserve=2).startswith('hand 1, move 1 "draw": ')
    # nor is the designated leader P0 the setter: the record's first move is P1's, and 0-0 sits in the stock
    own = dbg_search("0-0")
    assert refusal("double-bergen", 2, [own], boneyard_reserve=2).startswith(
        'hand 1, move 1 "0-0": 0-0 is not in seat 1\'s hand')


# ================================================================== 2. Draw, partnerships, double-nine
# deal_sizes=2 keeps the hands short (C13: deal_sizes still overrides).  Seats 0+2 against 1+3 (C12).
# Hand 1: 9-9 is called first (C13: the call starts at N-N; C12's "6-6" is the double-six case).  P2 holds it.
#   1 P2 9-9 (lone: ends 9 | 9)
#   2-5 P3 holds 4-4 6-0, no 9: draws 7-0, 8-1 (no 9), 9-6 -> must play it at once (DRW-5): 9-6 on tile 1, 9 | 6
#   6 P0 9-1 on tile 1: 1 | 6        7 P1 6-2 on tile 2: 1 | 2        8 P2 1-3 on tile 3: P2 is out -> domino
# Left: P0 5-5 = 10, P1 0-0 = 0, P3 4-4 6-0 7-0 8-1 = 30 -> 40, scored by P2's side: both partners show 40
# (C12, §9a).
# Hand 2: the winner P2 leads any tile (BLK-4, DRW-3): 1-0, ends 1 | 0.
#   2-5 P3 holds 9-9 8-7: draws 9-7, 8-6 (no 1 or 0), 5-1 -> 1-5 on tile 1: 5 | 0
#   6 P0 0-3 on tile 1: 5 | 3        7 P1 3-6 on tile 3: 5 | 6        8 P2 6-2 on tile 4: domino
# Left: P0 8-8 16, P1 9-8 17, P3 9-9 8-7 9-7 8-6 = 63 -> 96.  Side 0+2: 40 + 96 = 136 >= 100 (C12 target 100).
PD1 = hand(["9-1 5-5", "6-2 0-0", "9-9 1-3", "4-4 6-0"], "9-9 draw draw draw 9-6@1 9-1@1 6-2@2 1-3@3", top=9,
           front="7-0 8-1 9-6")
PD2 = hand(["0-3 8-8", "3-6 9-8", "1-0 6-2", "9-9 8-7"], "1-0 draw draw draw 1-5@1 0-3@1 3-6@3 6-2@4", top=9,
           front="9-7 8-6 5-1")


def test_draw_partnerships_double_nine_domino_scores_the_side() -> None:
    out = replay("draw", 4, [PD1, PD2], set=9, partnerships=True, deal_sizes=2)
    assert pips("5-5 0-0 4-4 6-0 7-0 8-1") == 40 and pips("8-8 9-8 9-9 8-7 9-7 8-6") == 96
    assert seats(out, 0) == [2, 3, 3, 3, 3, 0, 1, 2]
    assert points(out, 0) == [0] * 8
    assert summary(out, 0) == (2, "domino", 2, [40, 0, 40, 0], [40, 0, 40, 0])
    assert seats(out, 1) == [2, 3, 3, 3, 3, 0, 1, 2]
    assert summary(out, 1) == (2, "domino", 2, [96, 0, 96, 0], [136, 0, 136, 0])
    # the game's winner seat for a side: the side's lower seat (project convention, test_audit_options22a)
    assert game_end(out) == (True, 0, [136, 0, 136, 0])


def test_draw_partnerships_double_nine_one_hand_short_of_the_target() -> None:
    out = replay("draw", 4, [PD1], set=9, partnerships=True, deal_sizes=2)
    assert game_end(out) == (False, None, [40, 0, 40, 0])


def test_draw_partnerships_double_nine_refusals() -> None:
    # DRW-5: the drawn 9-6 fits, so it must be played at once; a fourth draw is refused
    more = {**PD1, "moves": ["9-9", "draw", "draw", "draw", "draw"]}
    assert refusal("draw", 4, [more], set=9, partnerships=True, deal_sizes=2).startswith('hand 1, move 5 "draw": ')
    # nor may P3 pass while the stock still has tiles
    early = {**PD1, "moves": ["9-9", "draw", "pass"]}
    assert refusal("draw", 4, [early], set=9, partnerships=True, deal_sizes=2).startswith('hand 1, move 3 "pass": ')
    # hand 2 is the winner's (P2) to lead with any tile; it is not called again: P3's 9-9 may not lead
    called = {**PD2, "moves": ["9-9"]}
    assert refusal("draw", 4, [PD1, called], set=9, partnerships=True, deal_sizes=2).startswith(
        'hand 2, move 1 "9-9": ')
    # C12/C13: double-nine partnerships deal 7 each, not the 2 of the records above
    assert "dealt 2 tiles" in refusal("draw", 4, [PD1], set=9, partnerships=True)


# Blocked partnership Draw, double-nine, deal_sizes=13 (52 dealt, stock 3), boneyard_reserve=2: the stock is one
# drawable tile (0-0) and the reserve 9-7 9-9.  Nobody holds 9-9, so 8-8 is called (P1).
#   1 P1 8-8            2 P2 8-2: 8 | 2         3 P3 8-9: 9 | 2          4 P0 2-9 on tile 2: 9 | 9
#   5 P1 9-1 on tile 3: 1 | 9                   6 P2 1-0 on tile 5: 0 | 9   7 P3 0-9 on tile 6: 9 | 9
#   8 P0 9-3 on tile 4: 9 | 3                   9 P1 3-4 on tile 8: 9 | 4   10 P2 4-9 on tile 9: 9 | 9
#   11 P3 9-5 on tile 7: 5 | 9                  12 P0 5-6 on tile 11: 6 | 9  13 P1 6-9 on tile 12: 9 | 9
# Every 9 is on the table or in the reserve.  14 P2 draws 0-0, 15 passes (stock at the reserve; the count restarts,
# §9a), 16-19 P3 P0 P1 P2 pass: four passes with nothing drawn -> blocked.
# Left: P0 76, P1 32, P2 80 (0-0 adds 0), P3 127 = 315 (= 495 in the set - 146 on the table - 34 reserved).
# side_total [DEF]: 0+2 hold 156 < 1+3's 159 -> side 0+2 scores 315; its player with fewer pips is P0 (§9a).
# lowest_hand: P1's 32 is the fewest -> side 1+3 scores 315, winner P1.  315 >= 100 ends the game.
PB_HANDS = ["5-0 4-2 6-0 6-1 4-4 6-2 8-0 6-3 8-1 6-4", "1-1 2-0 2-1 3-0 2-2 3-1 4-0 3-2 4-1",
            "3-3 5-1 5-2 7-0 5-3 7-1 5-4 7-2 5-5 7-3", "7-4 8-3 6-6 7-5 8-4 7-6 8-5 7-7 8-6 8-7"]
PB_PLAYED = ["2-9 9-3 5-6", "8-8 9-1 3-4 6-9", "8-2 1-0 4-9", "8-9 0-9 9-5"]
PB_MOVES = ("8-8 8-2@1 8-9@1 2-9@2 9-1@3 1-0@5 0-9@6 9-3@4 3-4@8 4-9@9 9-5@7 5-6@11 6-9@12 draw pass pass pass "
            "pass pass")
PB = hand([f"{p} {h}" for p, h in zip(PB_PLAYED, PB_HANDS, strict=True)], PB_MOVES, top=9, front="0-0 9-7 9-9")


@pytest.mark.parametrize(
    "options,winner,side",
    [
        ({}, 0, [315, 0, 315, 0]),
        ({"partnership_block": "side_total"}, 0, [315, 0, 315, 0]),
        ({"partnership_block": "lowest_hand"}, 1, [0, 315, 0, 315]),
    ],
)
def test_draw_partnerships_double_nine_blocked_hand(options: Json, winner: int, side: list[int]) -> None:
    assert [pips(h) for h in PB_HANDS] == [76, 32, 80, 127]
    out = replay("draw", 4, [PB], set=9, partnerships=True, deal_sizes=13, boneyard_reserve=2, **options)
    assert seats(out) == [1, 2, 3, 0] * 3 + [1, 2, 2, 3, 0, 1, 2]
    assert points(out) == [0] * 19
    assert summary(out) == (1, "blocked", winner, side, side)
    assert game_end(out) == (True, winner, side)


def test_draw_partnerships_blocked_hand_needs_four_passes_after_the_draw() -> None:
    short = {**PB, "moves": PB["moves"][:-1]}
    out = replay("draw", 4, [short], set=9, partnerships=True, deal_sizes=13, boneyard_reserve=2)
    assert summary(out) == (1, "unfinished", None, [0] * 4, [0] * 4)
    # and a record that led 9-9-less hand 1 with anything but the called 8-8 is refused
    bad = {**PB, "moves": ["9-1"]}  # P1 holds 9-1, but the call names 8-8
    assert refusal("draw", 4, [bad], set=9, partnerships=True, deal_sizes=13, boneyard_reserve=2).startswith(
        'hand 1, move 1 "9-1": ')


# ================================================================== 3. Double-twelve, 9 and 10 players (C13)
# Block, 10 players: 8 each (80 dealt, 11 out of play: 12-2 ... 12-11 and 11-11).  P0 holds 12-12 and leads it.
#   2 P1 12-0: 0 | 12     3 P2 0-1 on tile 2: 1 | 12     4 P3 1-12 on tile 3: 12 | 12
# No hand holds a 12 any more: P4 ... P9, P0 ... P3 pass: ten passes -> blocked (C9(b), n = 10).
# Left (pips): P0 74, P1 74, P2 75, P3 79, P4 99, P5 22, P6 99, P7 102, P8 104, P9 107 = 835
# (= 1092 in the set - 50 on the table - 207 out of play).  P5 has the lowest total and scores the others' 813
# (BLK-10); opponents_minus_own 813 - 22 = 791.  Either reaches 100: P5 wins the game.
B10_DEAL = ["12-12 3-2 6-1 7-2 10-1 7-5 11-3 11-5", "12-0 4-1 7-0 8-1 11-0 8-4 7-7 8-8",
            "1-0 5-0 4-4 9-0 6-5 9-3 8-6 9-7", "12-1 3-3 5-3 10-0 7-4 10-3 9-5 10-7",
            "4-2 6-2 5-5 8-3 11-2 10-5 11-6 10-9", "0-0 1-1 2-0 2-1 3-0 2-2 3-1 4-0",
            "5-1 7-1 6-4 9-2 7-6 11-4 9-8 11-8", "6-0 8-0 7-3 10-2 8-5 8-7 10-8 10-10",
            "4-3 5-4 8-2 11-1 9-4 9-6 11-7 11-9", "5-2 6-3 9-1 6-6 10-4 10-6 9-9 11-10"]
B10_MOVES = "12-12 12-0@1 0-1@2 1-12@3" + " pass" * 10


@pytest.mark.parametrize("options,score", [({}, 813), ({"blocked_score": "opponents_minus_own"}, 791)])
def test_block_double_twelve_ten_players_blocked(options: Json, score: int) -> None:
    left = [" ".join(d.split()[1:] if seat < 4 else d.split()) for seat, d in enumerate(B10_DEAL)]
    assert [pips(x) for x in left] == [74, 74, 75, 79, 99, 22, 99, 102, 104, 107]
    out = replay("block", 10, [hand(B10_DEAL, B10_MOVES, top=12)], set=12, **options)
    assert seats(out) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3]  # the lead, 3 plays, 10 passes
    assert points(out) == [0] * 14
    expected = [0] * 10
    expected[5] = score
    assert summary(out) == (0, "blocked", 5, expected, expected)
    assert game_end(out) == (True, 5, expected)


def test_block_double_twelve_ten_players_limits_and_refusals() -> None:
    # nine passes are not ten: the hand is still on
    out = replay("block", 10, [hand(B10_DEAL, B10_MOVES.rsplit(" ", 1)[0], top=12)], set=12)
    assert summary(out) == (0, "unfinished", None, [0] * 10, [0] * 10)
    # the lead is called from 12-12 (P0): P3 may not open with 12-1 (P0 is on turn, and must lead 12-12)
    assert refusal("block", 10, [hand(B10_DEAL, "12-1", top=12)], set=12).startswith('hand 1, move 1 "12-1": ')
    assert refusal("block", 10, [hand(B10_DEAL, "3-2", top=12)], set=12).startswith('hand 1, move 1 "3-2": ')
    # a 9-tile deal is refused: C13 deals 8 each to 9-10 players
    extra = [f"12-{n}" for n in range(2, 12)]
    nine = [d + " " + t for d, t in zip(B10_DEAL, extra, strict=True)]
    assert "dealt 9 tiles" in refusal("block", 10, [hand(nine, "12-12", top=12)], set=12)
    # C13: at most 10 players with double-twelve
    assert "2 to 10 players" in refusal("block", 11, [hand([*B10_DEAL, "11-11"], "12-12", top=12)], set=12)


# Block, 9 players: 8 each (72 dealt, 19 out of play: 12-12, every 11 but 11-11, 12-5 ... 12-10).  Nobody holds
# 12-12, so 11-11 is called (P6).  No hand holds another 11: P7 ... P5 and P6 pass, nine passes -> blocked.
# P2 and P7 tie on 31 pips, the lowest (the others hold more).  BLK-9: the lighter single tile wins: P7's 0-0
# beats P2's lightest 2-0 -> P7 scores the others' pips: hands 1092 - 340 out of play - 22 (11-11) = 730, less his
# 31 = 699.  tie_rule=no_score: nobody scores.
B9_FIXED = ["", "", "1-1 2-0 2-2 3-1 4-0 3-2 4-1 5-0", "", "", "", "11-11", "0-0 1-0 6-0 5-1 4-2 3-3 2-1 3-0", ""]
B9_OUT = " ".join(["12-12", *(f"11-{n}" for n in range(11)), "12-11", *(f"12-{n}" for n in range(5, 11))])


def test_block_double_twelve_nine_players_call_falls_to_11_11_and_tie_break() -> None:
    deal = filled(B9_FIXED, 8, 12, keep_out=B9_OUT)
    assert pips(B9_FIXED[2]) == pips(B9_FIXED[7]) == 31
    assert min(pips(d) for seat, d in enumerate(deal) if seat not in (2, 6, 7)) > 31
    assert pips(B9_OUT) == 340
    record = hand(deal, "11-11" + " pass" * 9, top=12, front=B9_OUT)
    out = replay("block", 9, [record], set=12)
    assert seats(out) == [6, 7, 8, 0, 1, 2, 3, 4, 5, 6]
    expected = [0] * 9
    expected[7] = 699
    assert summary(out) == (6, "blocked", 7, expected, expected)
    assert game_end(out) == (True, 7, expected)
    out = replay("block", 9, [record], set=12, tie_rule="no_score")
    assert summary(out) == (6, "blocked", None, [0] * 9, [0] * 9)
    assert game_end(out) == (False, None, [0] * 9)


# Draw, 9 players: 8 each, 19 to draw (C13).  12-12 is in the stock, so 11-11 is called (P4).
#   1 P4 11-11 (ends 11 | 11)
#   2-4 P5 holds no 11: draws 6-5 (no 11), draws 11-3 -> plays it at once: 11 | 3
#   5 P6 11-7 on tile 1: 7 | 3
#   6-8 P7 holds no 7, 3 or 11: draws 12-12 (no fit), 3-2 -> plays 3-2 on tile 2: 7 | 2
D9_FIXED = ["", "", "", "", "11-11", "", "11-7", "", ""]
D9_FRONT = "6-5 11-3 12-12 3-2"


def draw9(moves: str) -> Json:
    deal = filled(D9_FIXED, 8, 12, keep_out=D9_FRONT, refuse={5: suits(11), 7: suits(11, 7, 3)})
    return hand(deal, moves, top=12, front=D9_FRONT)


def test_draw_double_twelve_nine_players_call_and_draws() -> None:
    out = replay("draw", 9, [draw9("11-11 draw draw 11-3@1 11-7@1 draw draw 3-2@2")], set=12)
    assert seats(out) == [4, 5, 5, 5, 6, 7, 7, 7]
    assert points(out) == [0] * 8
    assert summary(out) == (4, "unfinished", None, [0] * 9, [0] * 9)
    assert game_end(out) == (False, None, [0] * 9)


def test_draw_double_twelve_nine_players_refusals() -> None:
    # the drawn 6-5 does not fit: P5 must draw on, not pass (DRW-5)
    assert refusal("draw", 9, [draw9("11-11 draw pass")], set=12).startswith('hand 1, move 3 "pass": ')
    # 12-12 was not dealt: it cannot lead, nor can a lower double than the called 11-11
    assert refusal("draw", 9, [draw9("12-12")], set=12).startswith('hand 1, move 1 "12-12": ')
    assert refusal("draw", 9, [draw9("10-10")], set=12).startswith('hand 1, move 1 "10-10": ')
    # P4 holds 7-7 as well, but the call names 11-11
    assert refusal("draw", 9, [draw9("7-7")], set=12).startswith('hand 1, move 1 "7-7": ')
