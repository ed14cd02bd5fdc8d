"""Audit 22c: an independent referee (tests/referee22c.py, written from RULES.md and RECORD.md alone) for Bergen,
Double Bergen and Flower & Scorpion, checked against ``record.replay_json`` on a fixed set of seeded games
(default rules and random combinations of every option, 2-8 players), against the product's legal moves, and
the reference engine against the fast engine; then hand-worked records from the rulebook's worked examples."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from boneyard import Game, HandSetup, Move, make_rules, record
from boneyard.chance import game_seed
from boneyard.players.base import make_player
from boneyard.sim.engines import play_game, reference_game, rules_for
from boneyard.state import Dice
from tests.helpers import filled
from tests.referee22c import referee
from tests.referee_compare import differences

CHOICES: dict[str, dict[str, list[Any]]] = {
    "bergen": {"set": [6, 6, 9, 12], "boneyard_reserve": [2, 0], "deal_sizes": [None, 3, 4],
               "lead_rule": ["lowest_double", "highest_double", "rotate_any_tile"],
               "cover_lead_double_first": [False, True], "approach_cap": [True, False],
               "block_rule": ["simple", "american", "german"], "winner_bonus": [2, 1, 5],
               "target": [None, 1, 3, 5, 7, 12], "win_check": ["end_of_hand", "immediate"]},
    "double-bergen": {"set": [6, 6, 9, 12], "boneyard_reserve": [0, 2], "deal_sizes": [None, 3, 4],
                      "lone_double_scores": [False, True], "spinner_sides_first": [False, True],
                      "end_scoring": ["winner_plus_1", "tile_penalty"], "target": [100, 10, 20, 5, 2],
                      "win_check": ["end_of_hand", "immediate"]},
    "flower-scorpion": {"deal_sizes": [None, 3, 4, 7], "winner_bonus": [2, 1],
                        "long_pairs": ["cross", "all_pairs"], "lead_tile": ["any", "heaviest_double_in_hand"],
                        "double_scorpion_blocks_dual": ["always", "only_when_tile_played"],
                        "cancel_affects_block": [False, True],
                        "lowest_double_mode": ["smallest_double", "lowest_total_with_double"],
                        "score_floor": [0, None], "target": [20, 5, 8, 3], "win_check": ["end_of_hand", "immediate"]},
}
VARIANTS = list(CHOICES)


def random_options(variant: str, rng: random.Random) -> dict[str, Any]:
    options = {}
    for key, choices in CHOICES[variant].items():
        value = rng.choice(choices)
        if rng.random() < 0.5 and value != choices[0]:
            options[key] = value
    return options


def player_count(options: dict[str, Any], rng: random.Random) -> int:
    if options.get("set", 6) > 6 and rng.random() < 0.3:
        return rng.choice([5, 6, 7, 8])
    return rng.choice([2, 3, 4])


def random_record(variant: str, players: int, options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A whole game of random legal moves, dealt by ``rng``; Flower & Scorpion's dice favour cancelled pairs and
    double flowers and scorpions."""
    game = Game(make_rules(variant, players, options))
    tile_set = list(game.rules.tile_set())
    size = game.rules.deal_size()
    while not game.finished and len(game.log) < 40:
        if game.in_hand:
            game.apply(rng.choice(game.legal_moves()))
            continue
        while True:
            rng.shuffle(tile_set)
            dice = None
            if variant == "flower-scorpion":
                flower = (rng.randint(1, 6), rng.randint(1, 6))
                roll = rng.random()
                scorpion = ((flower[1], flower[0]) if roll < 0.2 else (roll_d := rng.randint(1, 6), roll_d)
                            if roll < 0.45 else (rng.randint(1, 6), rng.randint(1, 6)))
                dice = Dice(flower, scorpion)
            deal = [tile_set[s * size:(s + 1) * size] for s in range(players)]
            leader = rng.randrange(players) if game.rules.random_leader_needed(game) else None
            if variant == "bergen" and options.get("lead_rule", "lowest_double") != "rotate_any_tile" and not any(
                    t.is_double for hand in deal for t in hand):
                continue  # BRG-4: no double dealt, redeal
            game.start_hand(HandSetup([list(h) for h in deal], tile_set[players * size:], leader, dice))
            break
    return record.to_record(game)


def simulated_record(variant: str, players: int, options: dict[str, Any], rng: random.Random, seed: int) -> dict[
        str, Any]:
    rules = make_rules(variant, players, options)
    seats = [make_player(rng.choice(["random", "greedy"]), seed=seed + 101 * s) for s in range(players)]
    return record.to_record(reference_game(rules, seed, seats), seed=seed)


def games(variant: str, count: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(seed)
    found = []
    for index in range(count):
        options = {} if index % 5 == 0 else random_options(variant, rng)
        players = player_count(options, rng)
        if index % 2:
            data = simulated_record(variant, players, options, rng, game_seed(seed, index))
        else:
            data = random_record(variant, players, options, rng)
        found.append((f"{variant} {players}p {options}", data))
    return found


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [22, 23])
def test_referee_agrees_with_replay_json(variant: str, seed: int) -> None:
    checked = 0
    for label, data in games(variant, 60, seed):
        data = json.loads(json.dumps(data))
        found = differences(referee(data), record.replay_json(data))
        assert not found, f"{label}: {found[:3]}"
        checked += len(data["hands"])
    assert checked >= 60


def _canonical(move: Move) -> str:
    text = str(move)
    if "@" in text or "-" not in text:
        return text
    high, low = sorted((int(half) for half in text.split("-")), reverse=True)
    return f"{high}-{low}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_moves_agree_with_the_referee(variant: str) -> None:
    """At every step the product's legal moves are the rulebook's (C6-C8, BRG-4/5, DBG-4/5, FS-6)."""
    steps = 0
    for label, data in games(variant, 30, 7):
        mine: list[list[set[str]]] = []
        referee(data, mine)
        game = record.new_game_from(data)
        for number, hand in enumerate(data["hands"], 1):
            game.start_hand(record._setup(game, hand, number))
            for index, text in enumerate(hand["moves"]):
                theirs = {_canonical(move) for move in game.legal_moves()}
                assert theirs == mine[number - 1][index], f"{label}: hand {number}, move {index + 1}"
                game.apply(Move.parse(text))
                steps += 1
    assert steps > 1000


@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_and_fast_engines_play_the_same_games(variant: str) -> None:
    rng = random.Random(99)
    for index in range(50):
        options = {} if index % 5 == 0 else random_options(variant, rng)
        players = player_count(options, rng)
        levels = ["random"] * players if index % 2 else [rng.choice(["random", "greedy"]) for _ in range(players)]
        seed = game_seed(4242, index)
        rules = rules_for(variant, players, options)
        results = []
        for engine in ("reference", "fast"):
            seats = [make_player(level, seed=seed + 101 * s) for s, level in enumerate(levels)]
            played = play_game(rules, seed, seats, engine)
            results.append((played.winner, played.scores, played.hands, played.blocked_hands, played.placements,
                            played.moves))
        assert results[0] == results[1], f"{variant} {players}p {options} {levels} seed {seed}"


# ------------------------------------------------------------------ hand-worked records (RULES.md examples)

def hand_record(variant: str, players: int, hands: list[str], moves: str, *, leader: int | None = None,
                dice: Dice | None = None, **options: Any) -> dict[str, Any]:
    rules = make_rules(variant, players, options)
    setup = filled(rules, hands, leader=leader, dice=dice)
    hand: dict[str, Any] = {"deal": [[str(t) for t in seat] for seat in setup.deal],
                            "stock": [str(t) for t in setup.stock], "moves": moves.split()}
    if leader is not None:
        hand["leader"] = leader
    if dice is not None:
        hand["dice"] = {"flower": list(dice.flower), "scorpion": list(dice.scorpion)}
    return {"format": "boneyard/1", "variant": variant, "options": options,
            "players": [f"P{s}" for s in range(players)], "hands": [hand]}


def event_numbers(data: dict[str, Any]) -> list[tuple[int, dict[str, int]]]:
    """(points, items) of every move, the product's, after checking the referee gives the same."""
    product = record.replay_json(data)
    assert not differences(referee(data), product)
    return [(e["points"], {i["name"]: i["points"] for i in e["scoring"]}) for e in product["hands"][0]["events"]]


def test_brg7_worked_example_1_headers() -> None:
    data = hand_record("bergen", 3, ["6-6 4-2 0-1", "6-2 2-2 0-3", "6-4 1-3 0-5"],
                       "6-6 6-2@1 6-4@1 4-2@3 2-2@2", lead_rule="highest_double")
    assert event_numbers(data) == [(2, {"double-header": 2}), (0, {}), (0, {}), (2, {"double-header": 2}),
                                   (3, {"triple-header": 3})]


def test_brg8_approach_cap_on_the_lead() -> None:
    """Target 2: the leader needs 2, so the lead double's header is worth 1; the item keeps its face value."""
    data = hand_record("bergen", 2, ["0-0 6-5"], "0-0", target=2)
    assert event_numbers(data) == [(1, {"double-header": 2})]
    uncapped = hand_record("bergen", 2, ["0-0 6-5"], "0-0", target=2, approach_cap=False)
    assert event_numbers(uncapped) == [(2, {"double-header": 2})]


def test_dbg7_worked_examples_1_and_2() -> None:
    data = hand_record("double-bergen", 3, ["3-3 6-3 1-1", "5-3 3-0 6-1", "3-1 5-1"],
                       "3-3 3-5@1 3-1@1 3-6@1 3-0@1 5-1@2 1-1@3 6-1@4", leader=0)
    assert [points for points, _ in event_numbers(data)] == [2, 2, 2, 2, 0, 2, 3, 4]


def test_fs9_worked_example_7_lead_doubles() -> None:
    flower = hand_record("flower-scorpion", 2, ["2-2"], "2-2", leader=0, dice=Dice((2, 2), (1, 3)))
    assert event_numbers(flower) == [(4, {"dual": 2, "short-flower": 1, "long-flower": 1})]
    scorpion = hand_record("flower-scorpion", 2, ["5-5"], "5-5", leader=0, dice=Dice((1, 3), (5, 5)),
                           score_floor=None)
    assert event_numbers(scorpion) == [(-2, {"short-scorpion": -1, "long-scorpion": -1})]
    floored = hand_record("flower-scorpion", 2, ["5-5"], "5-5", leader=0, dice=Dice((1, 3), (5, 5)))
    assert event_numbers(floored) == [(0, {"short-scorpion": -1, "long-scorpion": -1})]


def test_fs9_worked_example_5_double_flower_plural() -> None:
    """Flower {4,4}: ends 4 | 4 → +3; then 4-4 on a 4 → plural 3, short 1, long 2 = +6."""
    data = hand_record("flower-scorpion", 2, ["4-2 5-4", "5-2 4-4"], "4-2 2-5@1 5-4@2 4-4@3", leader=0,
                       dice=Dice((4, 4), (2, 6)))
    assert event_numbers(data) == [(0, {}), (0, {}), (3, {"dual": 2, "long-flower": 1}),
                                   (6, {"plural": 3, "short-flower": 1, "long-flower": 2})]


def test_fs9_all_pairs_counts_the_pair_inside_a_double_flower() -> None:
    """docs/variants/flower-scorpion.md: with all_pairs, ends [x-x] | x show three x halves: 3 pairings."""
    data = hand_record("flower-scorpion", 2, ["4-2 5-4", "5-2 4-4"], "4-2 2-5@1 5-4@2 4-4@3", leader=0,
                       dice=Dice((4, 4), (2, 6)), long_pairs="all_pairs")
    assert event_numbers(data)[3] == (7, {"plural": 3, "short-flower": 1, "long-flower": 3})


def test_immediate_win_on_the_last_tile_is_a_domino_with_its_bonus() -> None:
    """The play that empties a hand ends it (C9 a) and its bonus is scored before the target is checked, as
    docs/variants/all-fives.md says for every variant; the game then ends."""
    data = hand_record("bergen", 2, ["0-0", "1-0"], "0-0", target=2, win_check="immediate", deal_sizes=1,
                       approach_cap=False)
    # the lone lead double is a double header (+2, the target) and P0's last tile: a domino, +2 → 4
    out = record.replay_json(data)
    assert not differences(referee(data), out)
    assert (out["hands"][0]["end"], out["hands"][0]["winner"], out["totals"], out["finished"], out["winner"]) == (
        "domino", 0, [4, 0], True, 0)


# ------------------------------------------------------------------ bugs

def test_replay_text_names_the_approach_cap() -> None:
    data = hand_record("bergen", 2, ["0-0 6-5"], "0-0", target=2)
    line = next(line for line in record.replay_text(data).splitlines() if line.strip().startswith("1."))
    assert "approach cap" in line, line


def test_replay_text_names_the_score_floor() -> None:
    data = hand_record("flower-scorpion", 2, ["5-5"], "5-5", leader=0, dice=Dice((1, 3), (5, 5)))
    line = next(line for line in record.replay_text(data).splitlines() if line.strip().startswith("1."))
    assert "score floor" in line, line
