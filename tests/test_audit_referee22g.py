"""Block, Draw and All Fives checked against an independent referee (tests/referee22g.py) written from RULES.md
§1-§4, §9, §9a and RECORD.md alone.

* Seeded whole games of the computer players (random and greedy, 2 to 4 players and 5-8 with the larger sets,
  partnerships with both ``partnership_block`` values, the defaults and combinations in which every option value
  of the three variants appears) are written as records and replayed by the referee and by ``record.replay_json``:
  every event's seat, move, points and scoring items, every hand's leader, end, winner, hand points and totals,
  the game's end and winner must agree.  The same seeds are played on the fast engine, whose scores and winner
  must be the reference's.
* Random games built move by move (biased towards doubles and voluntary draws) compare, at every step, the
  referee's set of legal moves, the seat on turn and the scores with the product's ``Game``.
* Hand-worked records: RULES.md §2 worked examples 1-4 (domino bonus; the tie on 17 pips under every
  ``tie_rule`` / ``blocked_score``; 8/12/20 pips under the four blocked scores; the second tie-break key),
  §3 examples 1-3 (draw until playable; the two-tile reserve and a blocked hand; 4 against 15 pips), §4 examples
  1-5 (spinner taken late and both its short ends; a double lead; the maxima 35 and 20 of All Fives and Muggins;
  bonus rounding in total and per opponent; a blocked hand and the ``split_3p`` tie), and edges: an immediate win
  in mid-hand and on the last tile, the called lead after a tied block, the dead layout (DRW-8), voluntary draws.
* Partnership blocks of every kind (the two ``partnership_block`` rules disagreeing, sides level, a tie for fewest
  across the sides, partners tied), the second hand's lead under each ``lead_rule``, and records the rules refuse
  (a wrong leader, a move after the end, a draw in Block, a pass while able to play, a bad deal, a hand after the
  game's end, a missing random leader, a named draw that is not the stock's first tile).
* Bugs found: none.  The referee and the product agree on every record and position checked here and on a few
  thousand more random-option games tried while writing it (replay_json and the fast engine).  Doc note:
  docs/variants/all-fives.md says that under ``win_check=immediate`` "only one player scores per play, so no tie
  can arise", but ``tie_rule=split_3p`` scores two players at once at the end of a blocked hand; both can reach
  the target together, and the product then plays another hand (test_a5_split_3p_tie_at_the_target_plays_on).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard import record
from boneyard.players.base import make_player
from boneyard.sim.engines import play_game, reference_game, rules_for
from boneyard.sim.simulate import player_names, seat_specs
from tests.referee22g import (
    VARIANTS,
    Hand,
    Referee,
    RefereeError,
    deal_size,
    full_set,
    name,
    options_of,
    pips,
    round5,
    tile,
)
from tests.referee_compare import differences

#: (variant, players, options): the defaults and combinations that give every option value of the three variants
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 2, {}),
    ("block", 3, {}),
    ("block", 4, {}),
    ("block", 3, {"tie_rule": "no_score", "blocked_score": "opponents_minus_own", "lead_rule": "rotate"}),
    ("block", 2, {"blocked_score": "sum_of_differences", "first_lead": "random_player_any_tile",
                  "lead_rule": "random", "target": 61}),
    ("block", 4, {"blocked_score": "all_pips", "win_check": "immediate", "deal_sizes": 6}),
    ("block", 6, {"set": 9, "tie_rule": "no_score", "deal_sizes": "7/7/6/6/5"}),
    ("block", 3, {"set": 12, "blocked_score": "opponents_minus_own", "win_check": "immediate"}),
    ("block", 4, {"partnerships": True}),
    ("block", 4, {"partnerships": True, "partnership_block": "lowest_hand", "lead_rule": "rotate"}),
    ("block", 4, {"partnerships": True, "set": 9, "win_check": "immediate", "target": 150}),
    ("draw", 2, {}),
    ("draw", 3, {}),
    ("draw", 4, {}),
    ("draw", 2, {"boneyard_reserve": 2, "tie_rule": "no_score", "blocked_score": "all_pips"}),
    ("draw", 3, {"allow_voluntary_draw": True, "end_on_dead_layout": True, "lead_rule": "rotate", "target": 50}),
    ("draw", 4, {"end_on_dead_layout": True, "boneyard_reserve": 2, "blocked_score": "sum_of_differences",
                 "first_lead": "random_player_any_tile", "lead_rule": "random"}),
    ("draw", 2, {"blocked_score": "opponents_minus_own", "win_check": "immediate", "deal_sizes": "5/4/3"}),
    ("draw", 7, {"set": 9, "allow_voluntary_draw": True}),
    ("draw", 4, {"partnerships": True, "set": 9, "partnership_block": "lowest_hand", "boneyard_reserve": 2}),
    ("draw", 4, {"partnerships": True, "set": 12, "end_on_dead_layout": True}),
    ("all-fives", 2, {}),
    ("all-fives", 3, {}),
    ("all-fives", 4, {}),
    ("all-fives", 2, {"spinner_mode": "none", "score_unit": "fives"}),
    ("all-fives", 3, {"spinner_mode": "all_doubles", "tie_rule": "split_3p", "boneyard_reserve": 2}),
    ("all-fives", 3, {"tie_rule": "split_3p", "bonus_rounding": "per_opponent", "deal_sizes": 7,
                      "boneyard_reserve": 1}),
    ("all-fives", 4, {"blocked_score": "opponents_minus_own", "bonus_rounding": "per_opponent",
                      "win_check": "end_of_hand", "lead_rule": "rotate"}),
    ("all-fives", 2, {"blocked_score": "opponents_minus_own", "first_lead": "random_player_any_tile",
                      "allow_voluntary_draw": True, "target": 100}),
    ("all-fives", 3, {"end_scoring": "each_subtracts_own", "deal_sizes": "9/7/5", "target": 60}),
    ("all-fives", 4, {"spinner_mode": "all_doubles", "score_unit": "fives", "win_check": "end_of_hand",
                      "boneyard_reserve": 1}),
    ("all-fives", 5, {"set": 9, "spinner_mode": "none", "target": 150}),
    ("all-fives", 9, {"set": 12, "lead_rule": "rotate", "first_lead": "random_player_any_tile"}),
]

#: every option value the product offers for the three variants (``boneyard variants block|draw|all-fives``)
VALUES: dict[str, dict[str, list[Any]]] = {
    "block": {"set": [6, 9, 12], "first_lead": ["call_highest_double", "random_player_any_tile"],
              "lead_rule": ["winner_any", "rotate", "random"], "tie_rule": ["lightest_tile", "no_score"],
              "blocked_score": ["opponents_total", "opponents_minus_own", "sum_of_differences", "all_pips"],
              "win_check": ["end_of_hand", "immediate"], "partnerships": [False, True],
              "partnership_block": ["side_total", "lowest_hand"]},
    "all-fives": {"spinner_mode": ["first_double", "none", "all_doubles"], "set": [6, 9, 12],
                  "first_lead": ["call_highest_double", "random_player_any_tile"],
                  "lead_rule": ["winner_any", "rotate"], "boneyard_reserve": [0, 1, 2],
                  "allow_voluntary_draw": [False, True], "score_unit": ["pips", "fives"],
                  "tie_rule": ["no_score", "split_3p"], "bonus_rounding": ["total", "per_opponent"],
                  "blocked_score": ["opponents_total", "opponents_minus_own"],
                  "end_scoring": ["winner_takes", "each_subtracts_own"], "win_check": ["immediate", "end_of_hand"]},
}
VALUES["draw"] = {**VALUES["block"], "allow_voluntary_draw": [False, True], "boneyard_reserve": [0, 2],
                  "end_on_dead_layout": [False, True]}


def test_the_cases_use_every_option_value() -> None:
    for variant, values in VALUES.items():
        seen = {key: set() for key in values}
        for name_, _, options in CASES:
            if name_ != variant:
                continue
            full = options_of(variant, {"options": options})
            for key in values:
                seen[key].add(full[key])
        for key, wanted in values.items():
            assert seen[key] == set(wanted), (variant, key)
        assert {"deal_sizes", "target"} <= {key for v, _, o in CASES if v == variant for key in o}


def _seats(players: int, seed: int) -> tuple[list[str], list[Any]]:
    levels = seat_specs("random,greedy" if seed % 2 else "random", players)
    return levels, [make_player(level, seed=seed + 101 * s) for s, level in enumerate(levels)]


def seeded_record(variant: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """The record of a whole game of random and greedy players on the reference engine (as ``simulate`` writes)."""
    levels, seats = _seats(players, seed)
    game = reference_game(rules_for(variant, players, options), seed, seats, player_names(levels))
    return record.to_record(game, seed=seed)


def fast_result(variant: str, players: int, options: dict[str, Any], seed: int) -> tuple[list[int], int | None]:
    _, seats = _seats(players, seed)
    played = play_game(rules_for(variant, players, options), seed, seats, "fast")
    assert played.engine == "fast"
    return list(played.scores), played.winner


GAMES_PER_CASE = 8


@pytest.mark.parametrize("case", range(len(CASES)))
def test_seeded_games_agree_with_the_referee_and_the_fast_engine(case: int) -> None:
    variant, players, options = CASES[case]
    for k in range(GAMES_PER_CASE):
        seed = 2200 + 37 * case + k
        data = seeded_record(variant, players, options, seed)
        mine = Referee(data).result()
        found = differences(mine, record.replay_json(data))
        assert not found, (variant, players, options, seed, found)
        assert mine["finished"]
        assert fast_result(variant, players, options, seed) == (mine["totals"], mine["winner"]), (
            variant, players, options, seed)


def test_the_seeded_games_reach_the_rare_endings() -> None:
    """The seeded games above include blocked hands, tied blocks with no winner (and the called lead after
    them), partnership blocks of both kinds, immediate wins in mid-hand and draws down to the reserve."""
    seen: dict[str, int] = {}
    for case, (variant, players, options) in enumerate(CASES):
        for k in range(GAMES_PER_CASE):
            data = seeded_record(variant, players, options, 2200 + 37 * case + k)
            out = Referee(data).result()
            for number, hand in enumerate(out["hands"]):
                key = f"{variant}:{hand['end']}"
                seen[key] = seen.get(key, 0) + 1
                if hand["end"] == "blocked" and hand["winner"] is None:
                    seen[f"{variant}:no-winner"] = seen.get(f"{variant}:no-winner", 0) + 1
                    if number + 1 < len(out["hands"]):
                        seen["called-after-tie"] = seen.get("called-after-tie", 0) + 1
                if hand["end"] == "blocked" and options.get("partnerships"):
                    seen[f"partners:{options.get('partnership_block', 'side_total')}"] = 1
                if variant == "all-fives" and options.get("tie_rule") == "split_3p" and hand["end"] == "blocked" \
                        and hand["winner"] is None and any(hand["hand_points"]):
                    seen["split_3p"] = seen.get("split_3p", 0) + 1
    for key in ("block:blocked", "draw:blocked", "all-fives:blocked", "all-fives:unfinished", "block:no-winner",
                "all-fives:no-winner", "called-after-tie", "partners:side_total", "partners:lowest_hand"):
        assert seen.get(key), (key, seen)


# ---------------------------------------------------------------- move by move
def _weight(move: str) -> int:
    if move == "draw":
        return 3
    if "@" not in move:
        return 1
    a, b = move.split("@")[0].split("-")
    return 4 if a == b else 1


#: option sets for the move-by-move games (variant, players, options)
STEP_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 2, {"target": 60}),
    ("block", 3, {"tie_rule": "no_score", "lead_rule": "rotate", "target": 40}),
    ("block", 4, {"partnerships": True, "partnership_block": "lowest_hand", "target": 60}),
    ("draw", 2, {"allow_voluntary_draw": True, "target": 60}),
    ("draw", 3, {"boneyard_reserve": 2, "end_on_dead_layout": True, "target": 40}),
    ("draw", 4, {"partnerships": True, "set": 9, "allow_voluntary_draw": True, "target": 60}),
    ("all-fives", 2, {"allow_voluntary_draw": True, "target": 100}),
    ("all-fives", 3, {"spinner_mode": "all_doubles", "boneyard_reserve": 1, "target": 100}),
    ("all-fives", 4, {"spinner_mode": "none", "boneyard_reserve": 2, "tie_rule": "split_3p", "target": 100}),
    ("all-fives", 3, {"spinner_mode": "all_doubles", "set": 9, "score_unit": "fives", "allow_voluntary_draw": True,
                      "tie_rule": "split_3p", "target": 20}),
]


@pytest.mark.parametrize("case", range(len(STEP_CASES)))
def test_random_games_move_by_move(case: int) -> None:
    """Legal moves, the seat on turn and the scores of the referee and the reference Game agree at every step."""
    variant, players, options = STEP_CASES[case]
    steps = 0
    for number in range(6):
        seed = 9100 + 10 * case + number
        rng = random.Random(seed)
        game = boneyard.new_game(variant, players=players, seed=seed, options=options)
        referee = Referee({"variant": variant, "players": [""] * players, "options": options})
        while not game.finished:
            if game.hand_over:
                game.next_hand()
            dealt = record.to_record(game)["hands"][-1]
            hand = referee.start(len(game.log), dealt)
            while not game.hand_over and not game.finished:
                theirs = {str(move) for move in game.legal_moves()}
                assert hand.legal() == theirs, (variant, options, seed, len(game.log), steps)
                assert hand.turn == game.turn, (variant, options, seed, len(game.log), steps)
                moves = sorted(theirs)
                move = rng.choices(moves, [_weight(m) for m in moves])[0]
                game.apply(move)
                hand.apply(move)
                if not game.hand_over:   # the product adds the hand's points with its last move
                    assert referee.scores == game.scores
                steps += 1
            referee.close(hand)
            assert referee.scores == game.scores
            assert (referee.finished, referee.game_winner) == (game.finished, game.winner)
        data = record.to_record(game)
        assert not differences(Referee(data).result(), record.replay_json(data))
    assert steps > 150


# ---------------------------------------------------------------- hand-worked records
def build(variant: str, players: int, hands: list[str], moves: str, stock: str = "",
          options: dict[str, Any] | None = None, leader: int | None = None) -> dict[str, Any]:
    """A one-hand record: each seat holds the named tiles, the stock starts with ``stock``; seats are filled up to
    the deal size with the spare tiles, non-doubles and lightest first, and the rest of the set ends the stock."""
    options = options or {}
    canonical = VARIANTS[variant]
    opts = options_of(canonical, {"options": options})
    size = deal_size(canonical, opts, players)
    named = [tile(t) for t in (" ".join(hands) + " " + stock).split()]
    spare = sorted((t for t in full_set(opts["set"]) if t not in named),
                   key=lambda t: (t[0] == t[1], t[0] + t[1], t))
    deal = []
    for held in hands + [""] * (players - len(hands)):
        seat = held.split()
        while len(seat) < size:
            seat.append(name(spare.pop(0)))
        deal.append(seat)
    hand: dict[str, Any] = {"deal": deal, "stock": stock.split() + [name(t) for t in spare], "moves": moves.split()}
    if leader is not None:
        hand["leader"] = leader
    return {"format": "boneyard/1", "variant": variant, "options": options,
            "players": [f"P{s}" for s in range(players)], "hands": [hand]}


def replayed(data: dict[str, Any]) -> dict[str, Any]:
    """The product's replay JSON of ``data``, after checking that the referee reads it the same."""
    out = record.replay_json(data)
    found = differences(Referee(data).result(), out)
    assert not found, found
    return out


def summary(data: dict[str, Any]) -> tuple[list[int], str, int | None, list[int]]:
    """(points of every move, end, winner, hand points) of the record's first hand."""
    hand = replayed(data)["hands"][0]
    return [e["points"] for e in hand["events"]], hand["end"], hand["winner"], hand["hand_points"]


RANDOM_LEAD = {"first_lead": "random_player_any_tile"}


def test_round5_c10() -> None:
    assert [round5(x) for x in (2, 3, 7, 13, 22, 0, 1, 4, 5)] == [0, 5, 5, 15, 20, 0, 0, 5, 5]


def test_blk_worked_example_1_domino() -> None:
    """3 players, A dominoes; B holds [6-6][3-4] = 19, C holds [0-1] = 1 → A scores 20."""
    data = build("block", 3, ["2-2 5-1 3-2", "6-6 4-3 2-0", "1-0 5-0 1-1"],
                 "2-2 2-0@1 0-5@2 5-1@3 pass 1-1@4 2-3@1", options={"deal_sizes": 3, **RANDOM_LEAD}, leader=0)
    assert summary(data)[1:] == ("domino", 0, [20, 0, 0])


@pytest.mark.parametrize(("options", "winner", "points"), [
    ({}, 0, [17, 0]),
    ({"blocked_score": "opponents_minus_own"}, 0, [0, 0]),
    ({"tie_rule": "no_score"}, None, [0, 0]),
])
def test_blk_worked_example_2_tie_on_17(options: dict[str, Any], winner: int | None, points: list[int]) -> None:
    """A [1-2][2-4][3-5] = 17 against B [5-5][3-4] = 17, blocked: A's 1-2 is the lighter tile."""
    data = build("block", 2, ["6-6 1-2 2-4 3-5", "5-5 3-4 6-0 0-0"], "6-6 6-0@1 pass 0-0@2 pass pass",
                 options={"deal_sizes": 4, **options})
    assert summary(data)[1:] == ("blocked", winner, points)


@pytest.mark.parametrize(("score", "points"), [
    ("opponents_total", 32), ("opponents_minus_own", 24), ("sum_of_differences", 16), ("all_pips", 40)])
def test_blk_worked_example_3_blocked_scores(score: str, points: int) -> None:
    """A 8 pips, B 12, C 20, blocked → A wins and scores 32 / 24 / 16 / 40."""
    data = build("block", 3, ["2-0 0-0 5-3", "2-1 4-4 2-2", "1-1 6-5 6-3"], "2-0 2-1@1 1-1@2 0-0@1 pass pass pass",
                 options={"deal_sizes": 3, "blocked_score": score, **RANDOM_LEAD}, leader=0)
    assert summary(data)[1:] == ("blocked", 0, [points, 0, 0])


def test_blk_worked_example_4_second_tie_break_key() -> None:
    """3 pips each: [1-2] against [0-3]; the smaller half decides, so B (second seat) wins."""
    data = build("block", 2, ["6-6 1-2", "6-4 0-3"], "6-6 6-4@1 pass pass", options={"deal_sizes": 2})
    assert summary(data)[1:] == ("blocked", 1, [0, 3])


def test_blk_called_lead_and_no_draw() -> None:
    """BLK-3: 6-6 is not dealt (deal 3 each), 5-5 is called; BLK-6: a player who cannot play passes at once."""
    data = build("block", 2, ["5-5 1-0 2-0", "4-4 3-1 6-3"], "5-5", options={"deal_sizes": 3})
    assert replayed(data)["hands"][0]["leader"] == 0
    game = record.replay(data)
    assert [str(m) for m in game.legal_moves()] == ["pass"]
    wrong = build("block", 2, ["5-5 1-0 2-0", "4-4 3-1 6-3"], "1-0", options={"deal_sizes": 3})
    with pytest.raises(RefereeError):
        Referee(wrong).result()
    with pytest.raises(boneyard.RecordError):
        record.replay_json(wrong)


def test_blk_no_double_dealt_heaviest_tile_leads() -> None:
    """BLK-3 / A5-3: no double in any hand → the holder of the heaviest tile (6-3 before 5-4) leads it."""
    for variant in ("block", "all-fives"):
        data = build(variant, 2, ["5-4 1-0", "6-3 2-1"], "6-3", options={"deal_sizes": 2})
        assert replayed(data)["hands"][0]["leader"] == 1


def test_drw_worked_example_1_draw_until_playable() -> None:
    """Ends 6 | 4, A holds no 4 or 6: A draws 2-2 and 1-5 (kept) and then 6-3, which must be played on the 6."""
    hands = ["0-0 1-0 1-1 2-0 2-1 3-0 3-1", "6-4"]
    data = build("draw", 2, hands, "6-4 draw draw draw 6-3@1", stock="2-2 5-1 6-3", options=RANDOM_LEAD, leader=1)
    _, end, _, _ = summary(data)
    assert end == "unfinished" and [e["seat"] for e in replayed(data)["hands"][0]["events"]] == [1, 0, 0, 0, 0]
    hand = Referee(data).start(1, data["hands"][0])
    hand.apply("6-4")
    legal = []
    for move in ("draw", "draw", "draw"):
        legal.append(hand.legal())
        hand.apply(move)
    assert legal == [{"draw"}, {"draw"}, {"draw"}] and hand.legal() == {"6-3@1"}
    game = record.replay({**data, "hands": [{**data["hands"][0], "moves": ["6-4", "draw", "draw", "draw"]}]})
    assert [str(m) for m in game.legal_moves()] == ["6-3@1"]
    hand.apply("6-3@1")
    assert len(hand.hands[0]) == 9 and hand.turn == 1


#: RULES.md §3 example 3: 22 tiles in a line whose ends both show 4, the reserve [6-1][5-3] (see the draw docs)
DRAW3_DEAL = ["6-4 6-3 5-4 5-2 6-0 5-1 4-4 3-2 3-0 2-1 1-0 0-0 3-1",
              "6-6 4-3 5-5 6-2 5-0 4-1 4-2 3-3 2-0 1-1 4-0 6-5 2-2"]
DRAW3_MOVES = ("4-6 6-6@1 6-3@2 3-4@3 4-5@4 5-5@5 5-2@6 2-6@7 6-0@8 0-5@9 5-1@10 1-4@11 4-4@12 4-2@13 2-3@14 "
               "3-3@15 3-0@16 0-2@17 2-1@18 1-1@19 1-0@20 0-4@21 pass pass")


@pytest.mark.parametrize(("score", "points"), [("opponents_total", 15), ("opponents_minus_own", 11),
                                              ("sum_of_differences", 11), ("all_pips", 19)])
def test_drw_worked_examples_2_and_3_reserve_and_block(score: str, points: int) -> None:
    """A [0-0][1-3] = 4, B [6-5][2-2] = 15, the boneyard holds its 2 reserved tiles: each passes without drawing,
    the hand is blocked, A scores 15 (11 minus own)."""
    data = build("draw", 2, DRAW3_DEAL, DRAW3_MOVES, stock="6-1 5-3",
                 options={"boneyard_reserve": 2, "blocked_score": score, "deal_sizes": 13, **RANDOM_LEAD}, leader=0)
    assert summary(data)[1:] == ("blocked", 0, [points, 0])
    before_block = {**data, "hands": [{**data["hands"][0], "moves": data["hands"][0]["moves"][:-2]}]}
    assert [str(m) for m in record.replay(before_block).legal_moves()] == ["pass"]
    without = build("draw", 2, DRAW3_DEAL, DRAW3_MOVES, stock="6-1 5-3", options={"deal_sizes": 13, **RANDOM_LEAD},
                    leader=0)
    for check in (lambda: Referee(without).result(), lambda: record.replay_json(without)):
        with pytest.raises((RefereeError, boneyard.RecordError)):
            check()   # with no reserve A must draw, not pass


DEAD_LINE = "6-5 5-4@1 4-6@2 6-6@3 6-3@4 3-2@5 2-6@6 6-1@7 1-0@8 0-6@9"


@pytest.mark.parametrize("dead", [False, True])
def test_drw8_dead_layout(dead: bool) -> None:
    """DRW-8: the tenth tile leaves ends 6 | 6 with all seven 6s on the table: with ``end_on_dead_layout`` the hand
    is blocked at once (14 tiles still in the boneyard); without it the next player must draw."""
    data = build("draw", 2, ["6-5 6-4 6-3 6-2 1-0", "5-4 6-6 3-2 6-1 6-0"], DEAD_LINE, leader=0,
                 options={"end_on_dead_layout": dead, **RANDOM_LEAD})
    out = replayed(data)["hands"][0]
    if dead:
        # A holds the fillers 2-0 2-1 (6), B 3-0 3-1 (7): A wins and scores 7
        assert (out["end"], out["winner"], out["hand_points"]) == ("blocked", 0, [7, 0])
    else:
        assert out["end"] == "unfinished"
        assert [str(m) for m in record.replay(data).legal_moves()] == ["draw"]


def test_a5_worked_example_1_spinner_later() -> None:
    """A leads 6-4 (+10); B's 4-4 becomes the spinner (14); C covers its other side (7); A and B start its short
    ends (+10, +10); C's 6-6 on the 6 tip counts 16."""
    data = build("all-fives", 3, ["6-4 4-3", "4-4 4-0", "4-1 6-6"], "6-4 4-4@1 4-1@2 4-3@2 4-0@2 6-6@1",
                 options=RANDOM_LEAD, leader=0)
    assert summary(data)[0] == [10, 0, 0, 10, 10, 0]
    game = record.replay({**data, "hands": [{**data["hands"][0], "moves": ["6-4", "4-4@1", "4-1@2"]}]})
    assert "4-3@2" in {str(m) for m in game.legal_moves()}
    early = {**data, "hands": [{**data["hands"][0], "moves": ["6-4", "4-4@1"]}]}
    hand = Referee(early).start(1, early["hands"][0])
    hand.apply("6-4")
    hand.apply("4-4@1")
    assert "4-1@2" in hand.legal() and hand.table.count() == 14


@pytest.mark.parametrize("mode", ["first_double", "none", "all_doubles"])
def test_a5_worked_example_2_double_lead(mode: str) -> None:
    """5-5 led → 10; 5-0 on a side → 10 (the double still counts both halves); 5-3 → 3."""
    data = build("all-fives", 3, ["5-5", "5-0", "5-3"], "5-5 5-0@1 5-3@1",
                 options={"spinner_mode": mode, **RANDOM_LEAD}, leader=0)
    assert summary(data)[0] == [10, 10, 0]


def test_a5_worked_example_3_maximum_35() -> None:
    """Spinner 0-0 with arms ending [6-6], [5-5], [4-4] and a 5 tip: count 35."""
    data = build("all-fives", 2, ["0-0 0-5 0-1 5-5 5-1", "0-6 0-4 6-6 4-4"],
                 "0-0 0-6@1 0-5@1 0-4@1 0-1@1 6-6@2 5-5@3 4-4@4 1-5@5", options=RANDOM_LEAD, leader=0)
    assert summary(data)[0] == [0, 0, 0, 15, 0, 0, 0, 0, 35]


@pytest.mark.parametrize("mode", ["none", "first_double"])
def test_a5_worked_example_3_muggins_maximum_20(mode: str) -> None:
    data = build("all-fives", 2, ["6-4 4-4", "6-6"], "6-4 6-6@1 4-4@1", options={"spinner_mode": mode, **RANDOM_LEAD},
                 leader=0)
    assert summary(data)[0] == [10, 0, 20]


@pytest.mark.parametrize(("mode", "faces"), [("first_double", 4), ("all_doubles", 4), ("none", 2)])
def test_a5_spinner_sides_first_then_ends(mode: str, faces: int) -> None:
    """C4, C5, A5-6, A5-7: a lone spinner 5-5 counts 10 until both sides are taken (5-0 → 10), then nothing (5-3 →
    3); its short ends then open (5-2 → 5) and it takes four tiles in all.  A lone non-spinner double (Muggins) takes
    two, the second side counting as a crosswise double at a tip."""
    moves = ["5-5", "5-0@1", "5-3@1", "5-2@1", "5-4@1", "5-1@1"]
    data = build("all-fives", 2, ["5-5 5-3 5-4 6-6", "5-0 5-2 5-1"], " ".join(moves[:faces + 1]),
                 options={"spinner_mode": mode, **RANDOM_LEAD}, leader=0)
    assert summary(data)[0] == [10, 10, 0, 5, 0][:faces + 1]
    data["hands"][0]["moves"] = moves[:faces + 2]
    with pytest.raises(RefereeError):
        Referee(data).result()
    with pytest.raises(boneyard.RecordError, match=f"move {faces + 2}"):
        record.replay_json(data)


@pytest.mark.parametrize(("loser", "bonus"), [("1-2", 5), ("1-1", 0)])
def test_a5_worked_example_4_two_player_bonus(loser: str, bonus: int) -> None:
    data = build("all-fives", 2, ["6-6 6-3", f"6-4 {loser}"], "6-6 6-4@1 6-3@1", options={"deal_sizes": 2})
    assert summary(data) == ([0, 0, 0], "domino", 0, [bonus, 0])


@pytest.mark.parametrize(("rounding", "unit", "bonus"), [("total", "pips", 20), ("per_opponent", "pips", 25),
                                                        ("total", "fives", 4), ("per_opponent", "fives", 5)])
def test_a5_worked_example_4_three_player_rounding(rounding: str, unit: str, bonus: int) -> None:
    """B holds 13 (after drawing 4-0 and 6-1 and playing 6-1), C holds 9: 22 → 20, or 15 + 10 = 25."""
    data = build("all-fives", 3, ["6-6 6-2", "3-3 2-1", "6-0 5-4"], "6-6 draw draw 6-1@1 6-0@1 6-2@1",
                 stock="4-0 6-1", options={"deal_sizes": 2, "bonus_rounding": rounding, "score_unit": unit})
    assert summary(data) == ([0, 0, 0, 0, 0, 0], "domino", 0, [bonus, 0, 0])


#: RULES.md §4 example 5: a 21-tile line (Muggins) whose ends both show 3 (A 4, B 9, C 11) or 2 (A 9, B 9, C 11)
A5_BLOCK = (["6-3 5-5 6-1 4-3 5-0 1-1 3-2 0-0 2-2", "6-6 5-4 5-1 4-2 4-0 3-1 2-0 1-0 4-4",
             "6-5 6-4 5-3 5-2 4-1 3-3 3-0 2-1 6-2"], "6-0",
            "3-6 6-6@1 6-5@2 5-5@3 5-4@4 4-6@5 6-1@6 1-5@7 5-3@8 3-4@9 4-2@10 2-5@11 5-0@12 0-4@13 4-1@14 1-1@15 "
            "1-3@16 3-3@17 3-2@18 2-0@19 0-3@20 pass pass pass")
A5_TIE = (["6-2 5-5 6-4 4-0 5-1 3-2 1-1 0-0 5-4", "6-6 5-2 6-3 6-0 5-0 3-3 2-1 1-0 4-4",
           "6-5 4-2 4-3 6-1 2-0 3-1 2-2 3-0 5-3"], "4-1",
          "2-6 6-6@1 6-5@2 5-5@3 5-2@4 2-4@5 4-6@6 6-3@7 3-4@8 4-0@9 0-6@10 6-1@11 1-5@12 5-0@13 0-2@14 2-3@15 "
          "3-3@16 3-1@17 1-1@18 1-2@19 2-2@20 pass pass pass")


def a5_blocked(layout: tuple[list[str], str, str], **options: Any) -> dict[str, Any]:
    deal, stock, moves = layout
    return build("all-fives", 3, deal, moves, stock=stock, leader=0,
                 options={"spinner_mode": "none", "deal_sizes": 9, "boneyard_reserve": 1, **RANDOM_LEAD, **options})


@pytest.mark.parametrize(("options", "points"), [
    ({}, [20, 0, 0]), ({"bonus_rounding": "per_opponent"}, [20, 0, 0]),
    ({"blocked_score": "opponents_minus_own"}, [15, 0, 0]),
    ({"blocked_score": "opponents_minus_own", "bonus_rounding": "per_opponent"}, [15, 0, 0]),
    ({"end_scoring": "each_subtracts_own"}, [-5, -10, -10]),
])
def test_a5_worked_example_5_blocked(options: dict[str, Any], points: list[int]) -> None:
    """A 4 pips, B 9, C 11 → A wins, round5(20) = 20."""
    data = a5_blocked(A5_BLOCK, **options)
    assert [sum(tile(t)) for t in data["hands"][0]["deal"][0][-2:]] == [0, 4]
    assert summary(data)[1:] == ("blocked", 0, points)


@pytest.mark.parametrize(("options", "points"), [({}, [0, 0, 0]), ({"tie_rule": "split_3p"}, [5, 5, 0]),
                                                ({"tie_rule": "split_3p", "score_unit": "fives"}, [1, 1, 0])])
def test_a5_worked_example_5_tie(options: dict[str, Any], points: list[int]) -> None:
    """A and B tie on 9, C holds 11: nobody scores, or each tied player gets round5(11) / 2 → 5."""
    assert summary(a5_blocked(A5_TIE, **options))[1:] == ("blocked", None, points)


def test_a5_called_lead_after_a_tied_block() -> None:
    """A5-4: after a hand with no winner the next hand opens with the call (the holder of the highest double)."""
    first = a5_blocked(A5_TIE)
    second = build("all-fives", 3, ["1-0 2-0", "5-5 3-0", "2-2 6-0"], "5-5",
                   options={"spinner_mode": "none", "deal_sizes": 9, "boneyard_reserve": 1, **RANDOM_LEAD})
    data = {**first, "hands": first["hands"] + second["hands"]}
    out = replayed(data)
    assert out["hands"][1]["leader"] == 1
    data["hands"][1]["moves"] = ["1-0"]
    with pytest.raises(RefereeError):
        Referee(data).result()


def test_a5_immediate_win_in_mid_hand_and_on_the_last_tile() -> None:
    """A5-12 immediate: 5-5 led to a target of 10 ends the game at once, the hand unfinished; when it is the
    player's last tile the hand is a domino first (C9 a) and its bonus is scored."""
    mid = build("all-fives", 2, ["5-5 4-4", "6-1"], "5-5", options={"deal_sizes": 2, "target": 10, **RANDOM_LEAD},
                leader=0)
    out = replayed(mid)
    assert (out["hands"][0]["end"], out["hands"][0]["winner"], out["finished"], out["winner"], out["totals"]) == (
        "unfinished", None, True, 0, [10, 0])
    last = build("all-fives", 2, ["5-5", "6-1"], "5-5", options={"deal_sizes": 1, "target": 10, **RANDOM_LEAD},
                 leader=0)
    out = replayed(last)
    assert (out["hands"][0]["end"], out["hands"][0]["hand_points"], out["finished"], out["totals"]) == (
        "domino", [5, 0], True, [15, 0])
    later = build("all-fives", 2, ["5-5 4-4", "6-1"], "5-5", leader=0,
                  options={"deal_sizes": 2, "target": 10, "win_check": "end_of_hand", **RANDOM_LEAD})
    assert (replayed(later)["finished"], replayed(later)["totals"]) == (False, [10, 0])


def test_voluntary_draw_and_the_reserve() -> None:
    """C7 ``allow_voluntary_draw``: B can play 6-4 but draws instead; the boneyard then holds only the reserved
    tile (``boneyard_reserve`` 1), so B must play, and may play any tile, not only the one drawn."""
    options = {"allow_voluntary_draw": True, "deal_sizes": 13, "boneyard_reserve": 1}
    good = build("all-fives", 2, ["6-6", "6-4"], "6-6 draw 6-4@1", stock="5-0", options=options)
    assert [e["seat"] for e in replayed(good)["hands"][0]["events"]] == [0, 1, 1]
    game = record.replay({**good, "hands": [{**good["hands"][0], "moves": ["6-6"]}]})
    assert "draw" in {str(m) for m in game.legal_moves()}
    game.apply("draw")
    assert "draw" not in {str(m) for m in game.legal_moves()}
    bad = build("all-fives", 2, ["6-6", "6-4"], "6-6 draw draw", stock="5-0", options=options)
    with pytest.raises(RefereeError):
        Referee(bad).result()
    with pytest.raises(boneyard.RecordError):
        record.replay_json(bad)
    forced = build("all-fives", 2, ["6-6", "6-4"], "6-6 draw", stock="5-0", options={**options,
                                                                                    "allow_voluntary_draw": False})
    with pytest.raises(RefereeError):
        Referee(forced).result()
    with pytest.raises(boneyard.RecordError):
        record.replay_json(forced)


def test_a5_split_3p_tie_at_the_target_plays_on() -> None:
    """A5-10 ``split_3p`` gives two players points at once: A and B (5 each from counts) both reach a target of 10
    with the split; a tie for highest plays another hand (C11), under ``immediate`` as under ``end_of_hand``."""
    for check in ("immediate", "end_of_hand"):
        out = replayed(a5_blocked(A5_TIE, tie_rule="split_3p", target=10, win_check=check))
        assert (out["totals"], out["finished"], out["winner"]) == ([10, 10, 0], False, None)
    out = replayed(a5_blocked(A5_TIE, tie_rule="split_3p", target=2, win_check="immediate", score_unit="fives"))
    assert (out["totals"], out["finished"]) == ([2, 2, 0], False)   # 1 for each count, 1 each from the split


# ---------------------------------------------------------------- partnerships (C12, §9a)
def _blocked_partnership_kinds(hand: Hand) -> set[str]:
    totals = [pips(held) for held in hand.hands]
    sides = (totals[0] + totals[2], totals[1] + totals[3])
    low = min(totals)
    lows = {s % 2 for s in range(4) if totals[s] == low}
    by_side = None if sides[0] == sides[1] else int(sides[1] < sides[0])
    by_hand = None if len(lows) > 1 else lows.pop()
    kinds = {"differ"} if by_side != by_hand else set()
    if by_side is None:
        kinds.add("side-tie")
    if by_hand is None:
        kinds.add("cross-tie")
    if hand.winner is not None and totals[hand.winner] == totals[(hand.winner + 2) % 4]:
        kinds.add("partners-tie")
    return kinds


@pytest.mark.parametrize("rule", ["side_total", "lowest_hand"])
def test_partnership_blocks_of_every_kind(rule: str) -> None:
    """Partnership hands of 3, 4 and 7 tiles each (short hands block often; with all 28 tiles dealt the pip total is
    even, so sides often tie): among them hands where the two rules disagree,
    sides level (winner null, the next lead called), a tie for fewest across the sides, a tie between partners
    (the lighter tile names the winner seat); the referee and replay_json agree on all of them."""
    kinds: set[str] = set()
    for size in (3, 4, 7):
        for seed in range(40):
            options = {"partnerships": True, "partnership_block": rule, "deal_sizes": size, "target": 60}
            data = seeded_record("block" if seed % 3 else "draw", 4, options, seed)
            assert not differences(Referee(data).result(), record.replay_json(data)), (options, seed)
            referee = Referee(data)
            for number, dealt in enumerate(data["hands"], 1):
                hand = referee.start(number, dealt)
                for move in dealt["moves"]:
                    hand.apply(move)
                if hand.end == "blocked":
                    kinds |= _blocked_partnership_kinds(hand)
                referee.close(hand)
    assert kinds == {"differ", "side-tie", "cross-tie", "partners-tie"}


# ---------------------------------------------------------------- records the rules refuse
def _refused(data: dict[str, Any], where: str) -> None:
    with pytest.raises(RefereeError):
        Referee(data).result()
    with pytest.raises(boneyard.RecordError, match=where):
        record.replay_json(data)


def test_illegal_records_are_refused_by_both() -> None:
    tie = build("block", 2, ["6-6 1-2 2-4 3-5", "5-5 3-4 6-0 0-0"], "6-6 6-0@1 pass 0-0@2 pass pass",
                options={"deal_sizes": 4})
    for change, where in (
        (lambda d: d["hands"][0].update(leader=1), "hand 1"),                      # the call gives seat 0
        (lambda d: d["hands"][0]["moves"].append("pass"), "move 7"),               # after the block
        (lambda d: d["hands"][0]["moves"].__setitem__(2, "draw"), "move 3"),       # BLK-6: no drawing
        (lambda d: d["hands"][0]["moves"].__setitem__(1, "pass"), "move 2"),       # C7: must play 6-0
        (lambda d: d["hands"][0]["deal"][0].append(d["hands"][0]["stock"].pop()), "hand 1"),   # deal size
    ):
        data = {**tie, "hands": [{**tie["hands"][0], "moves": list(tie["hands"][0]["moves"]),
                                  "deal": [list(s) for s in tie["hands"][0]["deal"]],
                                  "stock": list(tie["hands"][0]["stock"])}]}
        change(data)
        _refused(data, where)
    over = build("block", 2, ["6-6 1-2", "6-4 0-3"], "6-6 6-4@1 pass pass", options={"deal_sizes": 2, "target": 3})
    assert replayed(over)["finished"]
    _refused({**over, "hands": over["hands"] * 2}, "hand 2")                      # a hand after the game's end
    _refused(build("block", 2, ["6-6 1-2", "6-4 0-3"], "6-6", options={"deal_sizes": 2, **RANDOM_LEAD}), "hand 1")
    named = build("draw", 2, ["6-6 1-0", "2-1 3-1"], "6-6 draw", stock="5-0", options={"deal_sizes": 2})
    assert replayed({**named, "hands": [{**named["hands"][0], "moves": ["6-6", "draw 5-0"]}]})
    _refused({**named, "hands": [{**named["hands"][0], "moves": ["6-6", "draw 4-0"]}]}, "move 2")


@pytest.mark.parametrize(("rule", "leader", "lead"), [("winner_any", 1, "0-3"), ("rotate", 1, "6-4"),
                                                     ("random", 0, "1-2")])
def test_the_second_hands_lead(rule: str, leader: int, lead: str) -> None:
    """BLK-4: seat 1 won hand 1 (led by seat 0): ``winner_any`` → seat 1 leads any tile; ``rotate`` → the seat left
    of the last leader (1); ``random`` → the record's leader, any tile."""
    data = build("block", 2, ["6-6 1-2", "6-4 0-3"], "6-6 6-4@1 pass pass",
                 options={"deal_sizes": 2, "lead_rule": rule})
    second = build("block", 2, ["6-6 1-2", "6-4 0-3"], lead, options={"deal_sizes": 2})["hands"][0]
    if rule == "random":
        second["leader"] = leader
    out = replayed({**data, "hands": data["hands"] + [second]})
    assert out["hands"][1]["leader"] == leader and out["hands"][1]["events"][0]["seat"] == leader
