"""Audit 23 of the research side: the environments (PettingZoo AEC, Gymnasium single seat) on option sets the
other tests leave out, NumPy numbers where researchers pass them, games some options make endless, a
``max_moves`` that ends an episode before the learner's turn; and ``simulate`` / ``tournament`` / ``stats``
numbers recomputed from what they summarise."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import boneyard
from boneyard import record
from boneyard.env import DominoEnv, SingleSeatEnv, env, raw_env
from boneyard.errors import OptionError, VariantError
from boneyard.player_stats import collect
from boneyard.rules.base import make_rules
from boneyard.sim.engines import hand_limit
from boneyard.sim.simulate import simulate
from boneyard.sim.stats import wilson
from boneyard.sim.tournament import GAMES_FILE, tournament

from .test_env import assert_same_position, step_both

#: option sets no other environment test plays (house rules, partnerships, larger sets, PIP's options together)
OPTION_SETS: list[tuple[str, int, dict[str, object]]] = [
    ("all-fives", 4, {"spinner_mode": "all_doubles", "set": 12, "allow_voluntary_draw": True, "boneyard_reserve": 2}),
    ("all-fives", 2, {"score_unit": "fives", "end_scoring": "each_subtracts_own", "target": 30}),
    ("all-fives", 4, {"tie_rule": "split_3p", "bonus_rounding": "per_opponent"}),
    ("draw", 4, {"partnerships": True, "partnership_block": "lowest_hand", "allow_voluntary_draw": True}),
    ("block", 2, {"first_lead": "random_player_any_tile", "lead_rule": "random", "win_check": "immediate"}),
    ("bergen", 3, {"block_rule": "german", "cover_lead_double_first": True, "approach_cap": False,
                   "boneyard_reserve": 0}),
    ("double-bergen", 4, {"lone_double_scores": True, "spinner_sides_first": True, "end_scoring": "tile_penalty",
                          "boneyard_reserve": 2}),
    ("flower-scorpion", 4, {"lead_tile": "heaviest_double_in_hand",
                            "double_scorpion_blocks_dual": "only_when_tile_played", "cancel_affects_block": True,
                            "lowest_double_mode": "lowest_total_with_double", "winner_bonus": 1}),
    ("pip", 2, {"letter_end": "open_wild", "nested_double": "forbid", "draw_tile_skips": True,
                "two_player_reverse_skips": True}),
    ("pip", 6, {"letter_end": "open_wild"}),
]

#: All Fives where every hand's end takes each seat's own pips off its score, in hands of two tiles: no score ever
#: climbs to the target, so the game never ends
ENDLESS: dict[str, object] = {"end_scoring": "each_subtracts_own", "deal_sizes": "2"}


def random_action(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


# ---------------------------------------------------------------- the official checkers and the two engines
@pytest.mark.parametrize(("variant", "players", "options"), OPTION_SETS)
def test_official_checkers_pass_with_house_rules(variant: str, players: int, options: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(variant, players, options=options, seed=3, reward="win"), num_cycles=200)
        check_env(SingleSeatEnv(variant, players, opponents="greedy", seat=players - 1, options=options, seed=2,
                                max_moves=80), skip_render_check=True)


@pytest.mark.parametrize(("variant", "players", "options"), OPTION_SETS)
def test_both_engines_agree_and_score_rewards_add_up_with_house_rules(variant: str, players: int,
                                                                     options: dict[str, object]) -> None:
    """Every seat's observation and mask, rewards and the agent to act are the same on both engines through whole
    random games; each game's score rewards add up to its final scores; every observation is in the space."""
    fast = raw_env(variant, players, options=options, seed=11)
    reference = raw_env(variant, players, options=options, seed=11, engine="reference")
    for game in (fast, reference):
        game.reset()
    rng = np.random.default_rng(2)
    totals = dict.fromkeys(fast.possible_agents, 0.0)
    games = 0
    for _ in range(500):
        assert_same_position(fast, reference)
        for agent in fast.possible_agents:
            totals[agent] += fast.rewards[agent]
        agent = fast.agent_selection
        if fast.terminations[agent]:
            assert totals == {name: fast.sign * score for name, score in zip(fast.possible_agents, fast.scores,
                                                                            strict=True)}
            games += 1
            for game in (fast, reference):
                game.reset()
            totals = dict.fromkeys(fast.possible_agents, 0.0)
            continue
        observation = fast.observe(agent)
        assert fast.observation_space(agent).contains(observation)
        step_both(fast, reference, random_action(observation, rng))
    assert games or fast.moves > 0


@pytest.mark.parametrize(("variant", "players", "options", "opponents", "seat"), [
    ("block", 4, {"partnerships": True, "target": 60}, "greedy", 1),
    ("all-fives", 3, {}, "random,greedy", 2),
    ("pip", 4, {}, "random", 0),
    ("flower-scorpion", 3, {"score_floor": None}, "greedy", 1),
    ("draw", 4, {"partnerships": True}, "heuristic", 3),
])
def test_single_seat_rewards_add_up_to_the_learners_result(variant: str, players: int, options: dict[str, object],
                                                           opponents: str, seat: int) -> None:
    """Score rewards over a Gymnasium episode are the learner's final score (negated in PIP), partner's points
    included; win rewards are +1 / -1 for its side."""
    for mode in ("score", "win"):
        single = SingleSeatEnv(variant, players, opponents=opponents, seat=seat, options=options, seed=4,
                               reward=mode)  # type: ignore[arg-type]
        observation, _ = single.reset()
        rng = np.random.default_rng(0)
        total = 0.0
        terminated = truncated = False
        while not (terminated or truncated):
            observation, reward, terminated, truncated, info = single.step(random_action(observation, rng))
            total += float(reward)
        assert terminated and not truncated
        scores = info["scores"]
        winners = set(single.game_env.rules.game_winners(info["winner"], scores))
        if mode == "score":
            assert total == single.game_env.sign * scores[seat]
        else:
            assert total == ((1.0 if seat in winners else -1.0) if winners else 0.0)


# ---------------------------------------------------------------- NumPy numbers
def test_numpy_integers_are_taken_as_seeds_players_and_limits() -> None:
    """A seed drawn with NumPy (``rng.integers``) is a whole number: it deals the same game as the plain int, and
    players, max_moves and the learner's seat may be NumPy integers too (they were refused as 'not a whole
    number')."""
    plain = raw_env("all-fives", 3, seed=7, max_moves=40)
    plain.reset()
    numpy = raw_env("all-fives", np.int64(3), seed=np.int64(7), max_moves=np.int32(40))  # type: ignore[arg-type]
    numpy.reset()
    assert numpy.players == 3 and numpy.max_moves == 40 and type(numpy.max_moves) is int
    assert numpy.game_seed == plain.game_seed == 7
    assert np.array_equal(numpy.observe("seat_0")["observation"], plain.observe("seat_0")["observation"])
    numpy.reset(seed=np.uint32(9))  # type: ignore[arg-type]
    plain.reset(seed=9)
    assert numpy.game_seed == 9
    assert np.array_equal(numpy.observe(numpy.agent_selection)["observation"],
                          plain.observe(plain.agent_selection)["observation"])
    single = SingleSeatEnv("block", np.int64(3), seat=np.int64(2), seed=np.int64(5))  # type: ignore[arg-type]
    observation, _ = single.reset(seed=np.int64(5))  # type: ignore[arg-type]
    assert single.seat == 2 and single.agent == "seat_2"
    again = SingleSeatEnv("block", 3, seat=2, seed=5)
    assert np.array_equal(observation["observation"], again.reset(seed=5)[0]["observation"])
    with pytest.raises(OptionError, match="the seed must be a whole number"):
        raw_env("block", 2, seed=np.float64(3))  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="the seed must be a whole number"):
        numpy.reset(seed=np.int64(-1))  # type: ignore[arg-type]


def test_the_library_takes_numpy_integers_as_counts_and_seeds() -> None:
    """``make_rules`` and ``new_game`` take a NumPy player count and seed as the plain ints (the environments
    converted them first; a researcher calling the library directly got 'not a whole number'); a float or a
    bool stays refused."""
    plain = boneyard.new_game("draw", players=3, seed=5)
    numpy = boneyard.new_game("draw", players=np.int32(3), seed=np.int64(5))  # type: ignore[arg-type]
    assert type(numpy.players) is int and type(numpy.chance.seed) is int and numpy.chance.seed == 5
    assert json.dumps(record.to_record(numpy, seed=5)) == json.dumps(record.to_record(plain, seed=5))
    assert make_rules("block", np.uint8(4)).players == 4  # type: ignore[arg-type]
    for wrong in (True, 3.0, np.float64(3)):
        with pytest.raises(VariantError, match="the number of players must be a whole number"):
            make_rules("block", wrong)  # type: ignore[arg-type]


def test_rewards_edited_in_place_do_not_outlive_the_next_step() -> None:
    """A step that scores nothing sets every reward to 0, even where the caller wrote into ``env.rewards``
    after the last such step (the fast path used to keep the edited dict)."""
    game = raw_env("block", 2, seed=3)
    game.reset()
    rng = np.random.default_rng(0)
    checked = 0
    while not any(game.terminations.values()):
        agent = game.agent_selection
        game.rewards[agent] = 99.0  # the caller's own bookkeeping, written into the env's dict
        game.step(random_action(game.observe(agent), rng))
        assert 99.0 not in game.rewards.values()
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("seat", [1.0, True, "1", None])
def test_a_learner_seat_that_is_no_whole_number_is_refused(seat: Any) -> None:
    # 1.0 failed with "list indices must be integers", True was taken as seat 1
    with pytest.raises(OptionError, match=r"seat .* is not a seat of a 2-player game \(0-1\)"):
        SingleSeatEnv("block", 2, seat=seat)


# ---------------------------------------------------------------- games that never end
@pytest.mark.parametrize("engine", ["auto", "reference"])
def test_an_endless_game_is_given_up_and_the_episode_truncated(engine: str) -> None:
    """With these options random play never ends a game (200,000 steps: scores near -35,000); the episode is
    truncated when the game has played its hand limit, as ``simulate`` gives such a game up, not run forever."""
    game = raw_env("all-fives", 2, options=ENDLESS, seed=1, engine=engine)
    assert game.hand_limit == hand_limit(game.rules) == 25_000  # 100 hands a point of the target, 250
    game.hand_limit = 12  # (the same path, sooner)
    game.reset()
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter(max_iter=5_000):  # (12 hands of two tiles each take about 150)
        observation, reward, terminated, truncated, info = game.last()
        totals[agent] += reward
        if terminated or truncated:
            assert truncated and not terminated
            assert info["given_up"] == "the game was still going after 12 hands"
            assert info["scores"] == game.scores
            assert not observation["action_mask"].any()
            game.step(None)
            continue
        game.step(random_action(observation, rng))
    assert game.given_up and not game.agents
    reference = game.game
    assert reference is not None and len(reference.log) == 12 and not reference.finished
    assert totals == dict(zip(game.possible_agents, map(float, game.scores), strict=True))
    game.reset()  # a new episode starts afresh
    assert not game.given_up and game.agents == game.possible_agents


def test_a_given_up_game_truncates_the_single_seat_episode() -> None:
    single = SingleSeatEnv("all-fives", 2, options=ENDLESS, seed=3)
    single.game_env.hand_limit = 5
    observation, _ = single.reset()
    rng = np.random.default_rng(1)
    terminated = truncated = False
    steps = 0
    while not (terminated or truncated) and steps < 5_000:
        observation, _, terminated, truncated, info = single.step(random_action(observation, rng))
        steps += 1
    assert truncated and not terminated and single.game_env.given_up
    assert len(single.game.log) == 5 and info["scores"] == single.game_env.scores


def test_ordinary_games_never_reach_the_hand_limit() -> None:
    game = raw_env("block", 4, options={"partnerships": True}, seed=2)
    game.reset()
    rng = np.random.default_rng(2)
    for agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else random_action(observation, rng))
        del agent
    assert all(game.terminations.values()) and not any(game.truncations.values()) and not game.given_up


# ---------------------------------------------------------------- max_moves before the learner's first turn
def test_max_moves_that_run_out_before_the_learners_turn_are_refused_at_reset() -> None:
    """The other seats move first and use up max_moves: reset returned an episode already over, and every step
    then raised 'the game is over; call reset()', for ever."""
    single = SingleSeatEnv("pip", 7, seat=6, max_moves=3, seed=1)
    with pytest.raises(OptionError, match=r"max_moves=3 ran out before seat_6's first turn \(3 moves by the other "
                                          r"seats\): give a larger max_moves"):
        single.reset()
    enough = SingleSeatEnv("pip", 7, seat=6, max_moves=30, seed=1)
    observation, _ = enough.reset()
    assert observation["action_mask"].any()
    _, _, terminated, truncated, _ = enough.step(random_action(observation, np.random.default_rng(0)))
    assert not (terminated or truncated)


# ---------------------------------------------------------------- simulate, stats and tournaments
def test_simulate_records_name_the_levels_so_stats_counts_opponents_by_level(tmp_path: Path) -> None:
    """``boneyard stats DIR --player greedy`` over simulate's records counted every opponent as 'people': the
    records did not say which seats were computers (``meta.ai``, as the terminal writes)."""
    folder = tmp_path / "records"
    summary = simulate("block", 3, 4, seed=3, ai="greedy,random", workers=1, duplicate=True, records=folder)
    files = sorted(folder.glob("*.boneyard.json"))
    assert len(files) == summary["games"] == 12
    for path in files:
        data = record.load(path)
        levels = data["meta"]["simulate"]["levels"]
        assert data["meta"]["ai"] == {str(seat): level for seat, level in enumerate(levels)}
    stats = collect([folder], "greedy").as_json()
    greedy = next(row for row in summary["ai_stats"] if row["ai"] == "greedy")  # type: ignore[attr-defined]
    assert list(stats["against"]) == ["random"]
    assert stats["against"]["random"]["games"] == greedy["games"] == 12
    assert stats["against"]["random"]["won"] == greedy["wins"]


@pytest.mark.parametrize("games", [2.5, "3", True, None])
def test_simulate_refuses_a_number_of_games_that_is_no_whole_number(games: Any) -> None:
    # 2.5 and "3" raised TypeError from inside; True played one game
    with pytest.raises(OptionError, match="--games: the number of games must be from 1 to 10,000,000, not"):
        simulate("block", 2, games, workers=1)


def test_simulate_takes_a_numpy_number_of_games() -> None:
    summary = simulate("block", 2, np.int64(3), workers=1)  # type: ignore[arg-type]
    assert summary["games"] == summary["deals"] == 3 and type(summary["deals"]) is int


def test_simulate_and_tournaments_take_a_numpy_seed_as_the_same_seed(tmp_path: Path) -> None:
    """A seed drawn with NumPy plays the games of the plain int (it was refused as 'not a whole number')."""
    timing = ("seconds", "games_per_second")
    drawn_run = simulate("block", 2, 3, seed=np.int64(11), workers=1)  # type: ignore[arg-type]
    plain_run = simulate("block", 2, 3, seed=11, workers=1)
    assert {k: v for k, v in drawn_run.items() if k not in timing} == {k: v for k, v in plain_run.items()
                                                                       if k not in timing}
    assert type(drawn_run["seed"]) is int
    drawn = tournament("block", "random,greedy", games=np.int64(2), seed=np.int64(4), workers=1,  # type: ignore[arg-type]
                       out=tmp_path / "numpy", plots=False)
    plain = tournament("block", "random,greedy", games=2, seed=4, workers=1, out=tmp_path / "plain", plots=False)
    assert drawn["settings"] == plain["settings"] and drawn["table"] == plain["table"]
    with pytest.raises(OptionError, match="the seed must be a whole number"):
        simulate("block", 2, 3, seed=np.float64(11.0), workers=1)  # type: ignore[arg-type]


def test_a_partnership_gauntlet_report_is_what_its_games_file_says(tmp_path: Path) -> None:
    """The table, the head-to-head scores and the Bradley–Terry ratings recomputed from games.jsonl: wins and draws
    per player (a player in two seats counts once), mean score over its seats, Wilson intervals, pairwise results,
    and the ratings solve the model's equations (with one virtual tie between every two players who met)."""
    out = tmp_path / "t"
    result = tournament("draw", "random,greedy,heuristic", games=8, seed=5, format="gauntlet",
                        options={"partnerships": True}, workers=1, out=out)
    lines = [json.loads(line) for line in (out / GAMES_FILE).read_text().splitlines()][1:]
    assert result["games_played"] == len(lines) == 16
    names = [row["player"] for row in result["table"]]
    for player, row in enumerate(result["table"]):
        games = [game for game in lines if player in game["seats"]]
        wins = sum(any(game["seats"][seat] == player for seat in game["winners"]) for game in games)
        scores = [game["scores"][seat] for game in games for seat, who in enumerate(game["seats"]) if who == player]
        assert (row["games"], row["wins"], row["draws"]) == (len(games), wins, sum(not g["winners"] for g in games))
        assert row["losses"] == row["games"] - row["wins"] - row["draws"]
        assert math.isclose(row["mean_score"], sum(scores) / len(scores))
        assert (row["win_rate_low"], row["win_rate_high"]) == tuple(wilson(wins, len(games)))
    count = len(names)
    won = np.zeros((count, count))
    met = np.zeros((count, count))
    for game in lines:
        seats, winners = game["seats"], set(game["winners"])
        for a, b in itertools.combinations(sorted(set(seats)), 2):
            a_won = any(seats[seat] == a for seat in winners)
            b_won = any(seats[seat] == b for seat in winners)
            if winners and a_won == b_won:
                continue  # partners, or two losers
            score = 0.5 if not winners else float(a_won)
            won[a, b] += score
            won[b, a] += 1 - score
            met[a, b] += 1
            met[b, a] += 1
    for row in result["head_to_head"]:
        a, b = names.index(row["player"]), names.index(row["against"])
        assert row["games"] == met[a, b] and math.isclose(row["score"], won[a, b] / met[a, b])
    assert len(result["head_to_head"]) == int((met > 0).sum())
    rating = {row["player"]: row["rating"] for row in result["ratings"]}
    strength = np.array([10 ** (rating[name] / 400) for name in names])
    virtual = np.where(met > 0, 0.5, 0.0)
    for i in range(count):
        expected = sum((met[i, j] + 2 * virtual[i, j]) * strength[i] / (strength[i] + strength[j])
                       for j in range(count) if j != i)
        assert math.isclose((won[i] + virtual[i]).sum(), expected, rel_tol=1e-6)
    assert math.isclose(sum(rating.values()), 0.0, abs_tol=1e-6)


def test_the_environment_seeds_the_game_simulate_and_records_name(tmp_path: Path) -> None:
    """A finished episode saved with its seed replays, from the file alone, to the environment's result."""
    game = env("pip", 4, seed=3)
    game.reset()
    rng = np.random.default_rng(1)
    for _agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else random_action(observation, rng))
    bare: DominoEnv = game.unwrapped
    assert bare.game is not None and bare.game.finished
    path = tmp_path / "episode.boneyard.json"
    record.save(bare.game, path, seed=bare.game_seed)
    replayed = record.replay(record.load(path))
    assert replayed.finished and replayed.scores == bare.scores
