"""Audit, third pass over the rules: hand-worked game records (RULES.md v1.1, RECORD.md).

Every expected number below was worked out by hand from RULES.md before the replay was run; the comments
show the arithmetic.  The records go where the earlier audits did not: option combinations (Five-Up's
spinners on an arm with their short ends, Draw's reserve with C9(b)'s timing, partnerships with equal side
totals under both ``partnership_block`` rules, Bergen's three blocked-hand rules with the approach cap and
every ``winner_bonus``, Flower & Scorpion's ``long_pairs`` and ``lowest_double_mode`` with the dice tiles on
the table, Double Bergen's lone double and tile penalty, PIP's directional effects on a double's toes) and
the config keys of RULES.md with every value it names.  Tiles are written as in RECORD.md; ``@k`` is tile k
of the hand (the lead is tile 1, draws place no tile).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from boneyard import record
from boneyard.errors import BoneyardError, OptionError, RecordError
from boneyard.options import parse_assignments
from boneyard.rules.base import find_variant, make_rules
from boneyard.tiles import Tile, pip_set

Json = dict[str, Any]

SIX = [f"{b}-{a}" for a in range(7) for b in range(a, 7)]
PIP = [str(tile) for tile in pip_set()]


def canon(tile: str) -> str:
    return str(Tile.parse(tile))


def hand(deal: list[str], moves: str, front: str = "", back: str = "", tiles: list[str] = SIX, **extra: Any) -> Json:
    """One hand: ``deal`` is one space-separated string per seat; the stock is ``front`` (drawn first), then
    every other tile of the set in canonical order, then ``back`` (the last tiles: a reserve)."""
    seats = [d.split() for d in deal]
    first, last = front.split(), back.split()
    used = {canon(t) for t in [*itertools.chain.from_iterable(seats), *first, *last]}
    assert len(used) == sum(map(len, seats)) + len(first) + len(last)
    stock = first + [t for t in tiles if t not in used] + last
    return {"deal": seats, "stock": stock, "moves": moves.split(), **extra}


def rec(variant: str, players: int, hands: list[Json], **options: Any) -> Json:
    return {"format": "boneyard/1", "variant": variant, "options": options,
            "players": [f"P{seat}" for seat in range(players)], "hands": hands}


def replay(variant: str, players: int, hands: list[Json], **options: Any) -> Json:
    """What ``boneyard replay --json`` prints for the record."""
    return record.replay_json(rec(variant, players, hands, **options))


def points(out: Json, h: int = 0) -> list[int]:
    return [e["points"] for e in out["hands"][h]["events"]]


def seats(out: Json, h: int = 0) -> list[int]:
    return [e["seat"] for e in out["hands"][h]["events"]]


def items(out: Json, h: int = 0) -> dict[int, list[tuple[str, int]]]:
    """The scoring items of the moves that have any, by 1-based move number."""
    return {i: [(s["name"], s["points"]) for s in e["scoring"]]
            for i, e in enumerate(out["hands"][h]["events"], 1) if e["scoring"]}


def summary(out: Json, h: int = 0) -> tuple[int, str, int | None, list[int], list[int]]:
    x = out["hands"][h]
    return x["leader"], x["end"], x["winner"], x["hand_points"], x["totals"]


def game_end(out: Json) -> tuple[bool, int | None, list[int]]:
    return out["finished"], out["winner"], out["totals"]


# ---------------------------------------------------------------- config keys of RULES.md (§2-§9, §9a)
NAMED: dict[str, tuple[int, list[tuple[str, list[str]]]]] = {
    "block": (4, [
        ("set", ["6", "9", "12"]), ("deal_sizes", ["7/5/5", "7"]),
        ("first_lead", ["call_highest_double", "random_player_any_tile"]),
        ("lead_rule", ["winner_any", "rotate", "random"]), ("tie_rule", ["lightest_tile", "no_score"]),
        ("blocked_score", ["opponents_total", "opponents_minus_own", "sum_of_differences", "all_pips"]),
        ("target", ["100", "61"]), ("win_check", ["end_of_hand", "immediate"]),
        ("partnerships", ["true", "false"]),
    ]),
    "draw": (4, [
        ("set", ["6", "9", "12"]), ("deal_sizes", ["7/5/5", "7/7/6", "7/7/7"]),
        ("first_lead", ["call_highest_double", "random_player_any_tile"]),
        ("lead_rule", ["winner_any", "rotate", "random"]), ("tie_rule", ["lightest_tile", "no_score"]),
        ("blocked_score", ["opponents_total", "opponents_minus_own", "sum_of_differences", "all_pips"]),
        ("target", ["100"]), ("win_check", ["end_of_hand", "immediate"]),
        ("allow_voluntary_draw", ["true", "false"]), ("boneyard_reserve", ["0", "2"]),
        ("end_on_dead_layout", ["true", "false"]), ("partnerships", ["true", "false"]),
    ]),
    "all-fives": (3, [
        ("spinner_mode", ["first_double", "none", "all_doubles"]), ("set", ["6", "9", "12"]),
        ("deal_sizes", ["9/7/5", "5"]), ("first_lead", ["call_highest_double", "random_player_any_tile"]),
        ("lead_rule", ["winner_any", "rotate"]), ("boneyard_reserve", ["0", "1", "2"]),
        ("allow_voluntary_draw", ["true", "false"]), ("score_unit", ["pips", "fives"]),
        ("tie_rule", ["no_score", "split_3p"]), ("bonus_rounding", ["total", "per_opponent"]),
        ("blocked_score", ["opponents_total", "opponents_minus_own"]),
        ("end_scoring", ["winner_takes", "each_subtracts_own"]), ("target", ["250", "100", "500"]),
        ("win_check", ["immediate", "end_of_hand"]),
    ]),
    "bergen": (3, [
        ("set", ["6", "9", "12"]), ("boneyard_reserve", ["2", "0"]),
        ("lead_rule", ["lowest_double", "highest_double", "rotate_any_tile"]),
        ("cover_lead_double_first", ["true", "false"]), ("approach_cap", ["on", "off"]),
        ("block_rule", ["simple", "american", "german"]), ("winner_bonus", ["2", "1", "5"]),
        ("target", ["15", "10"]), ("win_check", ["end_of_hand", "immediate"]),
    ]),
    "double-bergen": (3, [
        ("set", ["6", "9", "12"]), ("boneyard_reserve", ["0", "2"]), ("lone_double_scores", ["true", "false"]),
        ("spinner_sides_first", ["true", "false"]), ("end_scoring", ["winner_plus_1", "tile_penalty"]),
        ("target", ["100"]), ("win_check", ["end_of_hand", "immediate"]),
    ]),
    "flower-scorpion": (3, [
        ("winner_bonus", ["2", "1"]), ("long_pairs", ["cross", "all_pairs"]),
        ("lead_tile", ["any", "heaviest_double_in_hand"]),
        ("double_scorpion_blocks_dual", ["always", "only_when_tile_played"]),
        ("cancel_affects_block", ["true", "false"]),
        ("lowest_double_mode", ["smallest_double", "lowest_total_with_double"]),
        ("score_floor", ["0", "none"]), ("target", ["20"]), ("win_check", ["end_of_hand", "immediate"]),
    ]),
    "pip": (3, [
        ("open_wild_end", ["matches_anything"]), ("letter_end", ["closed", "open_wild"]),
        ("nested_double", ["stack", "forbid"]), ("draw_tile_skips", ["true", "false"]),
        ("two_player_reverse_skips", ["true", "false"]), ("directional_value", ["45", "25"]),
    ]),
}


def typed(key: str, value: str) -> object:
    """A value as typed on the command line, as the options hold it."""
    if key == "deal_sizes":
        return tuple(int(part) for part in value.split("/"))
    words: dict[str, object] = {"true": True, "on": True, "false": False, "off": False}
    if key == "score_floor" and value == "none":
        return None
    if value in words:
        return words[value]
    return int(value) if value.isdigit() else value


@pytest.mark.parametrize("variant", sorted(NAMED))
def test_every_config_key_takes_every_value_rules_md_names(variant: str) -> None:
    """Each key of RULES.md with each value its text or §9's register names, as typed after ``-o KEY=``."""
    players, keys = NAMED[variant]
    cls = find_variant(variant)
    for key, values in keys:
        for value in values:
            options = parse_assignments(cls.Options, [f"{key}={value}"])
            rules = make_rules(variant, players, options)
            assert getattr(rules.options, key) == typed(key, value), (variant, key, value)


@pytest.mark.parametrize("variant", ["block", "draw"])
def test_partnership_block_takes_both_values_with_partnerships(variant: str) -> None:
    cls = find_variant(variant)
    for value in ("side_total", "lowest_hand"):
        options = parse_assignments(cls.Options, ["partnerships=true", f"partnership_block={value}"])
        assert make_rules(variant, 4, options).options.partnership_block == value


@pytest.mark.parametrize(
    "variant,assignment,words",
    [
        ("block", "tie_rule=split_3p", ["'tie_rule'", "'split_3p'", "lightest_tile, no_score"]),
        ("draw", "boneyard_reserve=1", ["'boneyard_reserve'", "0, 2"]),
        ("all-fives", "boneyard_reserve=3", ["'boneyard_reserve'", "0, 1, 2"]),
        ("all-fives", "lead_rule=random", ["'lead_rule'", "winner_any, rotate"]),
        ("bergen", "winner_bonus=3", ["'winner_bonus'", "2, 1, 5"]),
        ("bergen", "approach_cap=maybe", ["'approach_cap'", "true or false"]),
        ("double-bergen", "end_scoring=winner_takes", ["'end_scoring'", "winner_plus_1, tile_penalty"]),
        ("flower-scorpion", "score_floor=-1", ["'score_floor'", "0, none"]),
        ("flower-scorpion", "set=9", ["unknown option 'set'"]),
        ("pip", "directional_value=20", ["'directional_value'", "45, 25"]),
        ("pip", "open_wild_end=declared_on_play", ["'open_wild_end'", "declared_on_play", "not supported"]),
    ],
)
def test_a_value_rules_md_does_not_name_is_refused_naming_key_and_choices(
        variant: str, assignment: str, words: list[str]) -> None:
    cls = find_variant(variant)
    with pytest.raises(OptionError) as caught:
        make_rules(variant, 2, parse_assignments(cls.Options, [assignment]))
    for word in words:
        assert word in str(caught.value)


def test_a_record_with_a_bad_option_value_is_refused_naming_options() -> None:
    data = rec("double-bergen", 2, [], end_scoring="tile")
    with pytest.raises(RecordError) as caught:
        record.replay(data)
    assert str(caught.value).startswith("options: option 'end_scoring'")


# ---------------------------------------------------------------- All Fives: Five-Up's spinners on an arm (A5-6, A5-7)
FIVE_UP = hand(
    ["6-6 6-0 6-4 5-0 4-1 3-2 2-1", "6-5 5-5 5-1 6-3 3-3 1-1 4-3"],
    "6-6 6-5@1 6-0@1 5-5@2 6-4@1 5-1@4 5-0@4 6-3@1 4-1@5 3-3@8 3-2@10 1-1@6 2-1@11",
)


def test_five_up_a_spinner_on_an_arm_counts_both_halves_then_opens_its_short_ends() -> None:
    out = replay("all-fives", 2, [FIVE_UP], spinner_mode="all_doubles")
    # 1 6-6 lone 12; 2 6-5: 6-6 one side taken, counts 12 + 5 = 17; 3 6-0: 6-6 closed, 5 + 0 = 5 (P0);
    # 4 5-5 on the 5 tip is a spinner with one side (its parent) taken: 10 + 0 = 10 (P1);
    # 5 6-4 on a short end of 6-6: 10 + 0 + 4 = 14; 6 5-1 on 5-5's free side: 5-5 closed, 1 + 0 + 4 = 5 (P1);
    # 7 5-0 on a short end of 5-5 (open now): 1 + 0 + 4 + 0 = 5 (P0); 8 6-3 on 6-6's other end: 8;
    # 9 4-1: 1 + 0 + 1 + 0 + 3 = 5 (P0); 10 3-3 a spinner on the 3 tip: 1 + 0 + 1 + 0 + 6 = 8;
    # 11 3-2 on its free side: 1 + 0 + 1 + 0 + 2 = 4; 12 1-1 on the 5-1 tip: 0 + 1 + 0 + 2 + 2 = 5 (P1);
    # 13 2-1: 0 + 1 + 0 + 1 + 2 = 4, P0 dominoes; P1 holds 4-3 = 7 -> round5 5
    assert points(out) == [0, 0, 5, 10, 0, 5, 5, 0, 5, 0, 0, 5, 0]
    assert summary(out) == (0, "domino", 0, [5, 0], [20, 20])
    assert game_end(out) == (False, None, [20, 20])


def test_all_fives_second_double_is_crosswise_so_its_short_end_is_refused() -> None:
    """With the default spinner_mode only 6-6 is a spinner: 5-5 has one free side, which 5-1 takes."""
    with pytest.raises(RecordError) as caught:
        record.replay(rec("all-fives", 2, [FIVE_UP]))
    assert str(caught.value).startswith('hand 1, move 7 "5-0@4"')


# ---------------------------------------------------- Draw: reserve 2 and C9(b)'s timing (DRW-5, DRW-6, §9a)
# Line of seven tiles with 0 at both ends; 0-5 and 0-6 are the two reserve tiles at the bottom of the stock.
RESERVE_MOVES = "0-0 0-1@1 1-2@2 2-0@3 0-3@1 3-4@5 4-0@6 " + "draw " * 12


def reserve_hand(tail: str) -> Json:
    return hand(["0-0 1-2 0-3 4-0 1-1 2-2 1-3", "0-1 2-0 3-4 6-6 5-5 4-4 3-3"], RESERVE_MOVES + tail,
                back="0-5 0-6", leader=0)


@pytest.mark.parametrize(
    "options,score",
    [
        # P0 holds 1-1 2-2 1-3 = 10; P1 holds every other tile without a 0: 147 - 3 - 7 - 10 = 127
        ({}, 127),
        # not a dead layout: two 0s are in the reserve, not on the table (DRW-8)
        ({"end_on_dead_layout": True}, 127),
        ({"blocked_score": "opponents_minus_own"}, 117),
        ({"blocked_score": "sum_of_differences"}, 117),
        ({"blocked_score": "all_pips"}, 137),
    ],
)
def test_draw_reserve_two_a_draw_then_pass_turn_restarts_the_pass_count(options: Json, score: int) -> None:
    # P1 draws the 12 drawable tiles (none shows a 0) and passes: the count starts again, so the hand is
    # blocked only after P0 and P1 each pass once more without drawing
    out = replay("draw", 2, [reserve_hand("pass pass pass")], boneyard_reserve=2,
                 first_lead="random_player_any_tile", **options)
    assert seats(out) == [0, 1, 0, 1, 0, 1, 0] + [1] * 13 + [0, 1]
    assert points(out) == [0] * 22
    assert summary(out) == (0, "blocked", 0, [score, 0], [score, 0])
    assert game_end(out) == (True, 0, [score, 0])


def test_draw_reserve_two_two_passes_after_a_drawing_turn_do_not_block() -> None:
    out = replay("draw", 2, [reserve_hand("pass pass")], boneyard_reserve=2, first_lead="random_player_any_tile")
    assert summary(out)[1:3] == ("unfinished", None)


def test_draw_reserve_two_the_thirteenth_draw_is_refused() -> None:
    data = rec("draw", 2, [reserve_hand("draw")], boneyard_reserve=2, first_lead="random_player_any_tile")
    with pytest.raises(RecordError) as caught:
        record.replay(data)
    assert str(caught.value).startswith('hand 1, move 20 "draw"')


# ---------------------------------------------------------------- partnerships, equal side totals (C12, §9a)
# S0 leads 6-6 (called); all seven 6s go down, both ends show 6 and all four pass.
P_DEAL = ["6-6 6-2 4-5 0-0 0-2 0-3 1-1", "6-0 2-3 5-6 2-5 3-3 2-4 1-5", "0-1 3-6 5-5 4-4 3-5 3-4 1-4",
          "1-6 6-4 0-4 0-5 1-2 1-3 2-2"]
P_MOVES = "6-6 6-0@1 0-1@2 1-6@3 6-2@1 2-3@5 3-6@6 6-4@4 4-5@8 5-6@9 pass pass pass pass"
# left: S0 0-0 0-2 0-3 1-1 = 7, S1 25, S2 38, S3 20 -> sides 7 + 38 = 45 and 25 + 20 = 45; all four hands 90


@pytest.mark.parametrize("variant", ["block", "draw"])
def test_partnerships_equal_side_totals_score_nothing_and_the_next_lead_is_called(variant: str) -> None:
    second = hand(P_DEAL[-1:] + P_DEAL[:-1], P_MOVES)  # S1 now holds 6-6 and must lead it
    out = replay(variant, 4, [hand(P_DEAL, P_MOVES), second], partnerships=True)
    assert seats(out) == [0, 1, 2, 3] * 3 + [0, 1]
    assert summary(out, 0) == (0, "blocked", None, [0, 0, 0, 0], [0, 0, 0, 0])
    assert summary(out, 1) == (1, "blocked", None, [0, 0, 0, 0], [0, 0, 0, 0])
    assert game_end(out) == (False, None, [0, 0, 0, 0])


@pytest.mark.parametrize("variant", ["block", "draw"])
def test_partnerships_lowest_hand_equal_side_totals_go_to_the_fewest_pips(variant: str) -> None:
    out = replay(variant, 4, [hand(P_DEAL, P_MOVES)], partnerships=True, partnership_block="lowest_hand")
    # S0 holds the fewest pips (7): seats 0+2 score all four hands, 90; S0 is the hand's winner
    assert summary(out) == (0, "blocked", 0, [90, 0, 90, 0], [90, 0, 90, 0])
    assert game_end(out) == (False, None, [90, 0, 90, 0])


# ---------------------------------------------------- Bergen: blocked-hand rules, cap, bonus (BRG-7 … BRG-11)
# 3 players, target 7.  P0 leads the lowest double 0-0; all five 0s in play go down, 0-5 0-6 are the reserve.
# 1 0-0 lone: double header 2 (P0); 4 2-0 -> [0-0] | 0 triple header 3 (P0, 5); 7 4-0 -> 0 | 0 double header,
# P0 needs 2 -> capped to 1 (6).  P1 draws the 8 drawable tiles (no 0) and passes; then 3 passes block.
LOCK = "0-0 0-1@1 1-2@2 2-0@3 0-3@1 3-4@5 4-0@6 " + "draw " * 8 + "pass pass pass pass"
# C: left P0 6-6 5-4 6-5 = 32 (1 double, 3 tiles); P1 12 tiles, 4 doubles; P2 1-1 1-3 1-4 2-3 = 16 (1 double)
LOCK_C = hand(["0-0 2-0 4-0 6-6 5-4 6-5", "0-1 0-3 2-2 3-3 4-4 5-5", "1-2 3-4 1-1 1-3 1-4 2-3"], LOCK,
              front="1-5 1-6 2-4 2-5 2-6 3-5 3-6 4-6", back="0-5 0-6")
# B: left P0 1-1 1-3 1-4 = 11 (1 double); P1 12 tiles with doubles; P2 1-5 1-6 2-3 2-4 = 24 (no double)
LOCK_B = hand(["0-0 2-0 4-0 1-1 1-3 1-4", "0-1 0-3 2-2 3-3 4-4 5-5", "1-2 3-4 1-5 1-6 2-3 2-4"], LOCK,
              front="2-5 2-6 3-5 3-6 4-5 4-6 5-6 6-6", back="0-5 0-6")


@pytest.mark.parametrize(
    "lock,rule,winner",
    [
        (LOCK_C, "simple", 2),  # lowest pips: P2 16
        (LOCK_C, "american", 0),  # everyone holds a double: fewest tiles, P0 (3), pips ignored
        (LOCK_C, "german", 2),  # fewest doubles: P0 and P2 (1 each), then pips: P2
        (LOCK_B, "simple", 0),  # lowest pips: P0 11
        (LOCK_B, "american", 2),  # only P2 holds no double
        (LOCK_B, "german", 2),  # P2 holds no double: the fewest
    ],
)
@pytest.mark.parametrize("bonus,scored", [(2, 2), (1, 1), (5, 2)])  # 5 is for a domino only (§9a)
def test_bergen_blocked_rules_cap_and_bonus(lock: Json, rule: str, winner: int, bonus: int, scored: int) -> None:
    out = replay("bergen", 3, [lock], target=7, block_rule=rule, winner_bonus=bonus)
    assert points(out) == [2, 0, 0, 3, 0, 0, 1] + [0] * 12
    hp = [0, 0, 0]
    hp[winner] = scored
    totals = [6 + hp[0], hp[1], hp[2]]
    assert summary(out) == (0, "blocked", winner, hp, totals)
    # the bonus is not capped: P0 on 6 reaches 7 or 8 and wins at the end of the hand
    assert game_end(out) == ((True, 0, totals) if winner == 0 else (False, None, totals))


# ---------------------------------------------------------------- Flower & Scorpion (FS-9, FS-11, §9a)
# Flower {6,6} (a double flower), Scorpion {3,2}.  All seven 6s go down; P0 then draws the whole oasis.
FS_ROUND = hand(
    ["6-6 0-1 6-2 3-6 4-5 1-1", "6-0 1-6 2-3 6-4 5-6 5-5"],
    "6-6 6-0@1 0-1@2 1-6@3 6-2@1 2-3@5 3-6@6 6-4@4 4-5@8 5-6@9 " + "draw " * 16 + "pass pass pass",
    leader=0, dice={"flower": [6, 6], "scorpion": [3, 2]},
)


@pytest.mark.parametrize(
    "options,move_points,winner,totals",
    [
        # 1 6-6 lone: dual 2 + short flower 1 + long 1x1 = 4; 4 1-6 -> [6-6] | 6: plural 3 + long 2x1 = 5;
        # 6 2-3 is the Scorpion tile: -1; 7 3-6 -> 6 | 6: dual 2 + long 1 = 3; 10 5-6 -> 6 | 6: 3.
        # Blocked: both dice tiles are on the table, so steps 2-3 decide nothing (§9a); step 4: P0 holds
        # 0-0 (drawn) -> P0 +2
        ({}, [4, 0, 0, 5, 0, -1, 3, 0, 0, 3], 0, [9, 7]),
        # all_pairs also counts the pair inside the double 6-6 at an end: 2 [6-6] | 0 +1, 3 [6-6] | 1 +1,
        # 4: plural 3 + long 2 + 1 = 6
        ({"long_pairs": "all_pairs"}, [4, 1, 1, 6, 0, -1, 3, 0, 0, 3], 0, [10, 9]),
        # step 4 by the lowest pip total among holders of a double: P1 (5-5 = 10) against P0's 17 tiles
        ({"lowest_double_mode": "lowest_total_with_double"}, [4, 0, 0, 5, 0, -1, 3, 0, 0, 3], 1, [7, 9]),
    ],
)
def test_flower_scorpion_double_flower_long_pairs_and_step_four(
        options: Json, move_points: list[int], winner: int, totals: list[int]) -> None:
    out = replay("flower-scorpion", 2, [FS_ROUND], **options)
    assert points(out) == move_points + [0] * 19
    assert items(out)[1] == [("dual", 2), ("short-flower", 1), ("long-flower", 1)]
    assert items(out)[6] == [("short-scorpion", -1)]
    hp = [0, 0]
    hp[winner] = 2
    assert summary(out) == (0, "blocked", winner, hp, totals)


# ---------------------------------------------------------------- Double Bergen (DBG-7, DBG-9)
DBG_ROUND = hand(["3-3 3-1 3-0 1-5 0-5 5-4", "3-5 3-6 5-5 6-5 5-2 6-6"],
                 "3-3 3-5@1 3-1@1 3-6@1 3-0@1 5-5@2 1-5@3 6-5@4 0-5@5 5-2@6 5-4@7", leader=0)


@pytest.mark.parametrize(
    "options,lone,hand_points,totals",
    [
        ({}, 0, [1, 0], [15, 11]),
        # the crosswise 5-5 alone at a tip (tips [5-5], 1, 6, 0) scores 2
        ({"lone_double_scores": True}, 2, [1, 0], [15, 13]),
        # no bonus; P1 still holds 6-6: -1
        ({"end_scoring": "tile_penalty"}, 0, [0, -1], [14, 10]),
    ],
)
def test_double_bergen_spinner_then_arm_tips(options: Json, lone: int, hand_points: list[int],
                                              totals: list[int]) -> None:
    out = replay("double-bergen", 2, [DBG_ROUND], **options)
    # 1-4 spinner open: 2 each; 5 fourth face: tips 5 1 6 0 -> 0; 6 5-5 at the 5 tip: lone double;
    # 7 1-5: [5-5] + 5 = 3; 8 6-5: [5-5] 5 5 = 4; 9 0-5: [5-5] 5 5 5 = 5; 10 5-2 on 5-5: 5 5 5 = 3;
    # 11 5-4: tips 2 4 5 5 -> 2, P0 dominoes
    assert points(out) == [2, 2, 2, 2, 0, lone, 3, 4, 5, 3, 2]
    assert summary(out) == (0, "domino", 0, hand_points, totals)


# ---------------------------------------------------------------- PIP: directional tiles on and after a double's toes
PIP_DEAL = ["1-1 5-5 W-A 9-8 W-R 3-0 2-2 4-0 6-0", "1-5 5-2 W-D W-S 6-6 7-7 8-8 9-9 4-4",
            "1-9 W-3 1-4 2-6 3-3 9-0 8-0 7-0 2-0"]
PIP_MOVES = ("1-1 1-5@1 1-9@1 5-5@2 5-2@4 W-3@4 W-A@4 9-8@3 W-D@8 draw 1-4@1 W-R@10 2-6@5 W-S@12 3-3@6 "
             "draw pass 3-0@14")


def pip_round(moves: str = PIP_MOVES) -> Json:
    return hand(PIP_DEAL, moves, front="8-7 6-5", tiles=PIP)


def test_pip_directional_tiles_around_the_toes_of_doubles() -> None:
    out = replay("pip", 3, [pip_round()])
    # round 1: P0 holds 1-1. 2-3 both hub sides; 4 5-5 owes three toes: 5-2, W-3, and W-A as the third,
    # so P0 goes again (8). 9 D with stock left: P2 draws 8-7 first, then plays on the hub's end (11).
    # 12 R: the direction turns, P2 is next; 14 S skips P0 -> P2; 15 3-3 owes toes: P1 cannot cover,
    # draws 6-5 and passes; P0 covers the first toe
    assert seats(out) == [0, 1, 2, 0, 1, 2, 0, 0, 1, 2, 2, 0, 2, 1, 2, 1, 1, 0]
    assert points(out) == [0] * 18
    assert summary(out) == (0, "unfinished", None, [0, 0, 0], [0, 0, 0])


@pytest.mark.parametrize(
    "index,move,where",
    [
        (10, "1-4@1", 'hand 1, move 10 "1-4@1"'),  # the D tile's draw comes first
        (9, "W-D@7", 'hand 1, move 9 "W-D@7"'),  # the letter half of W-A is a closed end
        (16, "pass", 'hand 1, move 16 "pass"'),  # a player who cannot cover must draw before passing
        (18, "3-0@1", 'hand 1, move 18 "3-0@1"'),  # the toes of 3-3 are owed
    ],
)
def test_pip_illegal_moves_around_the_toes_are_refused(index: int, move: str, where: str) -> None:
    moves = PIP_MOVES.split()
    moves[index - 1] = move
    data = rec("pip", 3, [pip_round(" ".join(moves))])
    with pytest.raises(BoneyardError) as caught:
        record.replay(data)
    assert str(caught.value).startswith(where)
