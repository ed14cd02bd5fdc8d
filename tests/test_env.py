"""The PettingZoo and Gymnasium environments: API conformance, masks, observations, rewards, seeding."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import boneyard
from boneyard.env import DominoEnv, SingleSeatEnv, env, raw_env, slot_owners
from boneyard.errors import IllegalMoveError, OptionError
from boneyard.moves import Kind, Move

VARIANTS = sorted(boneyard.VARIANTS)
OPTION_SETS: list[tuple[str, int, dict[str, object]]] = [
    ("all-fives", 3, {"spinner_mode": "all_doubles", "set": 9}),
    ("block", 4, {"partnerships": True}),
    ("pip", 3, {"letter_end": "open_wild", "nested_double": "forbid", "draw_tile_skips": True}),
]


def normalised(move: Move) -> Move:
    return Move.lead(move.tile) if move.kind == Kind.LEAD and move.tile is not None else move


def random_episode(game: DominoEnv, seed: int, steps: int | None = None) -> dict[str, float]:
    """Play random legal actions; check the mask against the legal moves at every step."""
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    done = 0
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.step(None)
            continue
        assert game.game is not None
        legal = game.legal_moves(agent)
        owners = slot_owners(game.game.layout)
        assert len(owners) <= game.codec.slots
        mask = observation["action_mask"]
        actions = np.flatnonzero(mask)
        assert len(actions) == len(legal)  # one action per legal move, none shared
        assert {normalised(game.move_of(int(a))) for a in actions} == {normalised(m) for m in legal}
        hand = game.observer.part(observation["observation"], "hand")
        assert hand.sum() == len(game.game.hands[game.agent_seat[agent]])
        game.step(int(rng.choice(actions)))
        done += 1
        if steps is not None and done >= steps:
            break
    return totals


@pytest.mark.parametrize("variant", VARIANTS)
def test_api_test_passes_for_every_variant(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's advice on Dict spaces
        api_test(env(variant, players=2, seed=1), num_cycles=200)


@pytest.mark.parametrize(("variant", "players", "options"), OPTION_SETS)
def test_api_test_passes_with_other_options_and_player_counts(variant: str, players: int,
                                                              options: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(variant, players=players, options=options, seed=2), num_cycles=200)


@pytest.mark.parametrize("variant", VARIANTS)
def test_masks_match_legal_moves_through_whole_games(variant: str) -> None:
    for seed in range(2):
        game = raw_env(variant, players=2 + seed, seed=seed)
        game.reset()
        random_episode(game, seed)
        assert game.game is not None and game.game.finished


@pytest.mark.parametrize(("variant", "players", "options"), OPTION_SETS)
def test_masks_match_legal_moves_with_other_options(variant: str, players: int, options: dict[str, object]) -> None:
    game = raw_env(variant, players=players, options=options, seed=5)
    game.reset()
    random_episode(game, 5)


def test_action_space_is_fixed_by_the_set() -> None:
    six = raw_env("all-fives").codec
    assert six.slots == 4 + 2 * 7 and six.size == 2 * 28 * six.slots + 2 * 28 + 2
    nine = raw_env("all-fives", options={"set": 9}).codec
    assert nine.slots == 4 + 2 * 10 and nine.size == 2 * 55 * nine.slots + 2 * 55 + 2
    pip = raw_env("pip", players=3).codec
    assert len(pip.tiles) == 70 and pip.slots == 4 + 2 * 11
    assert six.describe(six.draw_action) == "draw" and six.describe(six.lead_base) == "lead 0-0"


def test_score_rewards_add_up_to_the_final_scores() -> None:
    game = raw_env("all-fives", players=2, seed=3)
    game.reset()
    totals = random_episode(game, 3)
    assert game.game is not None
    assert [totals[agent] for agent in game.possible_agents] == [float(s) for s in game.game.scores]
    assert max(game.game.scores) > 0


def test_pip_rewards_are_the_negative_of_what_is_added() -> None:
    game = raw_env("pip", players=2, seed=4)
    game.reset()
    totals = random_episode(game, 4)
    assert game.game is not None
    assert [totals[agent] for agent in game.possible_agents] == [-float(s) for s in game.game.scores]


def test_win_rewards_go_to_the_winner_at_the_end_only() -> None:
    game = raw_env("block", players=3, seed=6, reward="win")
    game.reset()
    totals = random_episode(game, 6)
    assert game.game is not None and game.game.winner is not None
    assert totals == {agent: (1.0 if seat == game.game.winner else -1.0)
                      for seat, agent in enumerate(game.possible_agents)}


def test_same_seed_same_game_and_reset_seed_overrides() -> None:
    def trajectory(game: DominoEnv, seed: int | None) -> list[int]:
        game.reset(seed=seed)
        actions = []
        for _ in range(40):
            observation, *_ = game.last()
            action = int(np.flatnonzero(observation["action_mask"])[0])
            actions.append(action)
            game.step(action)
        return actions

    assert trajectory(raw_env("draw", seed=8), None) == trajectory(raw_env("draw", seed=8), None)
    assert trajectory(raw_env("draw", seed=8), 9) == trajectory(raw_env("draw"), 9)
    assert trajectory(raw_env("draw"), 1) != trajectory(raw_env("draw"), 2)


def test_observation_shows_only_what_the_seat_may_see() -> None:
    game = raw_env("draw", players=2, seed=12)
    game.reset()
    assert game.game is not None
    other = 1 - game.seat
    before = game.observe(game.possible_agents[other])["observation"].copy()
    game.game.hands[game.seat].reverse()  # hidden from the other seat: its observation must not change
    game.game.stock.reverse()
    assert np.array_equal(game.observe(game.possible_agents[other])["observation"], before)
    assert not game.observe(game.possible_agents[other])["action_mask"].any()  # not its turn


def test_lacked_suits_are_recorded_when_a_seat_passes() -> None:
    game = raw_env("block", players=2, seed=0)
    game.reset()
    assert game.game is not None
    rng = np.random.default_rng(0)
    for _ in range(200):
        observation, *_ = game.last()
        if game.terminations[game.agent_selection]:
            break
        legal = game.legal_moves()
        if legal == [Move.passing()]:
            seat = game.seat
            ends = {face.value for face in game.game.layout.open_ends()}
            game.step(int(np.flatnonzero(observation["action_mask"])[0]))
            if game.game.in_hand and game.game.hand.number == len(game.game.log):
                watcher = game.possible_agents[1 - seat]
                lacks = game.observer.part(game.observe(watcher)["observation"], "lacks")
                assert {v for v, i in game.observer.halves.items() if lacks[i]} >= ends
                return
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    pytest.skip("no pass in this game")


def test_illegal_actions_raise_with_the_reason() -> None:
    game = env("all-fives", seed=1)
    game.reset()
    observation, *_ = game.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match=f"action {illegal}"):
        game.step(illegal)
    with pytest.raises(IllegalMoveError, match="outside the action space"):
        game.step(10**6)
    with pytest.raises(OptionError, match="reward"):
        raw_env("block", reward="points")  # type: ignore[arg-type]


@pytest.mark.parametrize(("arguments", "error"), [
    ({"max_moves": 0}, "max_moves must be a whole number of at least 1"),
    ({"max_moves": -1}, "max_moves must be a whole number of at least 1"),
    ({"max_moves": 2.5}, "max_moves must be a whole number of at least 1"),
    ({"seed": -1}, "the seed must be a whole number from 0 to 2\\^63 - 1, not -1"),
    ({"seed": "x"}, "the seed must be a whole number from 0 to 2\\^63 - 1, not 'x'"),
    ({"seed": 2**70}, "the seed must be a whole number from 0 to 2\\^63 - 1"),
    ({"players": "2"}, "the number of players must be a whole number, not '2'"),
    ({"render_mode": "rgb_array"}, "render_mode 'rgb_array' is not one of"),
])
def test_bad_environment_arguments_are_refused_with_what_and_why(arguments: dict[str, Any], error: str) -> None:
    with pytest.raises((OptionError, boneyard.VariantError), match=error):
        raw_env("block", **arguments)


def test_reset_refuses_rule_options_and_a_bad_seed_and_keeps_the_game() -> None:
    table = raw_env("all-fives", seed=3)
    table.reset()
    before = table.observe(table.agent_selection)
    with pytest.raises(OptionError, match="reset cannot change the rule options \\(target\\)"):
        table.reset(options={"target": 61})
    with pytest.raises(OptionError, match="the seed must be"):
        table.reset(seed=-2)
    assert np.array_equal(table.observe(table.agent_selection)["observation"], before["observation"])
    table.reset(options={"other": 1})  # (keys that are no rule option are let through: PettingZoo's API test)
    assert table.rules.target == 250  # type: ignore[attr-defined]


def test_the_codec_refuses_actions_outside_its_space() -> None:
    table = raw_env("block")
    for action in (-1, table.codec.size):
        with pytest.raises(IllegalMoveError, match="outside the action space"):
            table.codec.describe(action)


def test_a_step_after_the_game_ended_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    table = raw_env("block", seed=2, options={"target": 1}, render_mode="human")
    table.reset()
    while table.agents:
        observation, *_ = table.last()
        if table.terminations[table.agent_selection] or table.truncations[table.agent_selection]:
            table.step(None)
        else:
            table.step(int(np.flatnonzero(observation["action_mask"])[0]))
    with pytest.raises(IllegalMoveError, match="the episode is over \\(every agent is done\\): reset\\(\\)"):
        table.step(0)
    printed = capsys.readouterr().out
    assert "scores seat_0=" in printed  # render_mode="human": every step printed the table
    assert table.render() is None and "scores seat_0=" in capsys.readouterr().out  # and render() prints it


# ---------------------------------------------------------------- Gymnasium
@pytest.mark.parametrize("variant", VARIANTS)
def test_single_seat_env_passes_gymnasium_checks(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings would be real problems
        check_env(SingleSeatEnv(variant, 2, opponents="greedy", seed=1), skip_render_check=True)


def play_single(single: SingleSeatEnv, seed: int) -> tuple[float, dict[str, Any]]:
    observation, info = single.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    while True:
        assert np.array_equal(observation["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = single.step(action)
        total += float(reward)
        if terminated or truncated:
            return total, info


def test_single_seat_env_plays_whole_games_against_levels() -> None:
    single = SingleSeatEnv("all-fives", 3, opponents="greedy,random", seat=1, seed=2)
    assert single.opponent_specs == ["greedy", "random"]
    total, info = play_single(single, 7)
    assert total == float(info["scores"][1])
    win = SingleSeatEnv("block", 2, opponents="greedy", reward="win")
    total, info = play_single(win, 3)
    assert total == (1.0 if info["winner"] == 0 else -1.0 if info["winner"] is not None else 0.0)


def test_single_seat_env_illegal_actions() -> None:
    single = SingleSeatEnv("block", 2, seed=1)
    observation, _ = single.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = single.step(illegal)
    assert reward == -1.0 and info["illegal"] and not terminated and not truncated
    assert np.array_equal(again["observation"], observation["observation"])
    strict = SingleSeatEnv("block", 2, seed=1, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="is not legal now"):
        strict.step(illegal)
    with pytest.raises(OptionError, match="seat 2"):
        SingleSeatEnv("block", 2, seat=2)
    with pytest.raises(OptionError, match="3 opponent levels \\(random, greedy, random\\) for the 1 other seat"):
        SingleSeatEnv("block", 2, opponents="random,greedy,random")
    with pytest.raises(OptionError, match="2 opponent levels \\(random, greedy\\) for the 3 other seats of a 4-player "
                                          "game: give one level for all, or one per other seat"):
        SingleSeatEnv("block", 4, opponents="random,greedy")
    for penalty in (-5, float("nan"), "1"):
        with pytest.raises(OptionError, match="illegal_penalty is what an illegal action costs, a number of"):
            SingleSeatEnv("block", 2, illegal_penalty=penalty)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="render_mode 'human' is not one of"):
        SingleSeatEnv("block", 2, render_mode="human")


def test_illegal_actions_count_towards_max_moves() -> None:
    single = SingleSeatEnv("block", 2, seed=1, max_moves=10)
    observation, _ = single.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    played = single.game_env.moves
    steps = 0
    truncated = False
    while not truncated:
        _, reward, terminated, truncated, info = single.step(illegal)
        steps += 1
        assert reward == -1.0 and info["illegal"] and not terminated
        assert steps <= 10
    assert played + steps == 10  # the moves played before the learner's turn, and the refused ones
    with pytest.raises(IllegalMoveError, match="the game is over; call reset"):
        single.step(illegal)
    single.reset(seed=1)
    assert not single.step(illegal)[3]  # a new episode starts counting again


# ---------------------------------------------------------------- the two engines
FAST_CONFIGS: list[tuple[str, int, dict[str, object]]] = [
    ("block", 2, {}),
    ("block", 4, {"partnerships": True}),
    ("draw", 3, {"allow_voluntary_draw": True}),
    ("draw", 4, {}),
    ("all-fives", 2, {}),
    ("all-fives", 4, {}),
    ("all-fives", 3, {"spinner_mode": "all_doubles", "set": 9}),
    ("all-fives", 2, {"spinner_mode": "none"}),
    ("bergen", 3, {}),
    ("bergen", 2, {"cover_lead_double_first": True}),
    ("flower-scorpion", 2, {}),
    ("flower-scorpion", 4, {}),
    ("double-bergen", 2, {}),
    ("double-bergen", 4, {}),
    ("pip", 2, {}),
    ("pip", 3, {}),
    ("pip", 5, {}),
    ("pip", 3, {"letter_end": "open_wild", "nested_double": "forbid", "draw_tile_skips": True}),
    ("pip", 2, {"two_player_reverse_skips": True}),
]


def assert_same_position(fast: DominoEnv, reference: DominoEnv) -> None:
    """Every seat's observation and mask, the agent to act, rewards and terminations on both engines."""
    assert fast.agent_selection == reference.agent_selection
    assert fast.rewards == reference.rewards
    assert fast.terminations == reference.terminations
    assert fast._cumulative_rewards == reference._cumulative_rewards
    for agent in fast.possible_agents:
        mine, theirs = fast.observe(agent), reference.observe(agent)
        assert np.array_equal(mine["action_mask"], theirs["action_mask"]), agent
        assert np.array_equal(mine["observation"], theirs["observation"]), agent
        assert np.array_equal(fast.action_mask(agent), theirs["action_mask"]), agent


def step_both(fast: DominoEnv, reference: DominoEnv, action: int) -> None:
    assert {normalised(m) for m in fast.legal_moves()} == {normalised(m) for m in reference.legal_moves()}
    assert fast.move_of(action) == reference.move_of(action)
    fast.step(action)
    reference.step(action)


@pytest.mark.parametrize(("variant", "players", "options"), FAST_CONFIGS)
def test_fast_and_reference_environments_are_the_same(variant: str, players: int,
                                                      options: dict[str, object]) -> None:
    """Every observation, mask, reward and agent of random games, for every seat, on both engines: 600
    steps, a new episode (on the same environment objects) whenever one ends."""
    fast = raw_env(variant, players, options=options, seed=31)
    reference = raw_env(variant, players, options=options, seed=31, engine="reference")
    assert fast.engine == "fast" and reference.engine == "reference"
    for game in (fast, reference):
        game.reset()
    rng = np.random.default_rng(1)
    phases: set[int] = set()  # the phase flags (lead, give, forced draw, reversed, may draw) seen on turn
    episodes = 1
    for _ in range(600):
        assert_same_position(fast, reference)
        agent = fast.agent_selection
        if fast.terminations[agent]:
            assert fast.game is not None and reference.game is not None
            assert fast.game.scores == reference.game.scores == fast.scores
            assert fast.game.winner == reference.game.winner == fast.winner
            for game in (fast, reference):
                game.reset()
            episodes += 1
            continue
        observation = fast.observe(agent)
        phases |= {int(i) for i in np.flatnonzero(fast.observer.part(observation["observation"], "phase"))}
        step_both(fast, reference, int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert fast.game is not None and reference.game is not None
    assert fast.game.scores == reference.game.scores
    assert [tile for hand in fast.game.hands for tile in hand] == [t for hand in reference.game.hands for t in hand]
    if variant == "pip":
        assert {2, 3} <= phases  # forced draws and reversed play came up (gives: the next test)
    if variant == "block":
        assert episodes > 1  # the environments were reset and played on


def test_pip_gives_are_the_same_on_both_engines() -> None:
    """PIP's give (a D tile on an empty stock) is rare in random play: find one on the fast engine, then play
    that game on both engines, comparing every seat around each give and every 25th step on the way."""
    players = 7  # the smallest stock (70 - 63 tiles), so the stock runs out most often
    found = None
    for seed in range(40):
        game = raw_env("pip", players, seed=seed)
        game.reset()
        rng = np.random.default_rng(seed)
        actions: list[int] = []
        while not game.terminations[game.agent_selection]:
            mask = game.observe(game.agent_selection)["action_mask"]
            actions.append(int(rng.choice(np.flatnonzero(mask))))
            give = game.codec.give_base <= actions[-1] < game.codec.draw_action
            game.step(actions[-1])
            if give:
                found = seed, actions
                break
        if found:
            break
    assert found is not None, "no give in 40 random 7-player PIP games"
    seed, actions = found
    fast, reference = raw_env("pip", players, seed=seed), raw_env("pip", players, seed=seed, engine="reference")
    for game in (fast, reference):
        game.reset()
    for index, action in enumerate(actions):
        if index % 25 == 0 or index >= len(actions) - 3:
            assert_same_position(fast, reference)
        giver = fast.agent_selection
        step_both(fast, reference, action)
    assert_same_position(fast, reference)
    given = actions[-1] - fast.codec.give_base  # the codec's index of the tile given
    after = fast.observe(giver)["observation"]
    assert fast.observer.part(after, "seen")[given] == 1 and fast.observer.part(after, "hand")[given] == 0


def test_single_seat_env_same_games_on_both_engines() -> None:
    results = []
    for engine in ("auto", "reference"):
        single = SingleSeatEnv("all-fives", 3, opponents="greedy,random", seat=1, seed=2)
        single.game_env = DominoEnv("all-fives", 3, seed=2, engine=engine)
        results.append(play_single(single, 7))
    assert results[0][0] == results[1][0]
    assert results[0][1]["scores"] == results[1][1]["scores"]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_an_action_must_be_a_whole_number_not_rounded(engine: str) -> None:
    game = raw_env("all-fives", 2, seed=5, engine=engine)
    game.reset(seed=5)
    agent = game.agent_selection
    actions = np.flatnonzero(game.observe(agent)["action_mask"])
    assert game.game is not None
    before = str(game.game.hands)
    for wrong in (float(actions[0]) + 0.7, True, str(actions[0]), np.array([actions[0], actions[0]]),
                  np.float64(actions[0]), np.array([float(actions[0])])):
        with pytest.raises(IllegalMoveError, match=r"an action is a whole number \(int\)"):
            game.step(wrong)  # type: ignore[arg-type]
        assert game.agent_selection == agent and str(game.game.hands) == before and not game.game.hand.events
    game.step(np.array([actions[0]]))  # a NumPy integer, or an integer array of one number, is an action
    assert len(game.game.hand.events) == 1


def test_the_single_seat_env_refuses_a_fractional_action_in_every_illegal_mode() -> None:
    for illegal in ("raise", "penalty"):
        single = SingleSeatEnv("block", 2, opponents="greedy", seed=3, illegal=illegal)
        observation, _ = single.reset(seed=3)
        action = int(np.flatnonzero(observation["action_mask"])[0])
        with pytest.raises(IllegalMoveError, match="not a float"):
            single.step(action + 0.5)  # type: ignore[arg-type]
        assert single.step(np.int64(action))[0]["action_mask"].shape == observation["action_mask"].shape
