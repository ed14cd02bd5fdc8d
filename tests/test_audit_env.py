"""Audit of the RL environments from a researcher's side: the official checkers on further variants and
player counts, masks against the reference game's legal moves, rewards, reproducibility, the observation
space's bounds, and that a seat's observation does not change when tiles it cannot see are swapped."""

from __future__ import annotations

import hashlib
import random
import warnings
from typing import Any, cast

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the env extra is not installed")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import boneyard.env.aec as aec_module
from boneyard.chance import Chance, Deal
from boneyard.env import DominoEnv, SingleSeatEnv, env, raw_env
from boneyard.errors import IllegalMoveError
from boneyard.fast import FastGame
from boneyard.moves import Kind, Move
from boneyard.sim.engines import _Between

CHECKED: list[tuple[str, int, dict[str, object]]] = [
    ("block", 10, {"set": 12}),
    ("block", 4, {"partnerships": True, "set": 12}),
    ("draw", 8, {"set": 9, "end_on_dead_layout": True}),
    ("all-fives", 6, {"set": 9, "win_check": "end_of_hand", "target": 50}),
    ("bergen", 4, {"lead_rule": "rotate_any_tile", "set": 9}),
    ("double-bergen", 3, {"set": 12, "target": 30}),
    ("flower-scorpion", 3, {"score_floor": None, "long_pairs": "all_pairs"}),
    ("pip", 7, {"directional_value": 25}),
]

#: variants without voluntary draws, where a draw or a pass is a public fact
HIDDEN: list[tuple[str, int, dict[str, object]]] = [
    ("block", 3, {}),
    ("draw", 2, {}),
    ("all-fives", 3, {}),
    ("bergen", 2, {}),
    ("double-bergen", 2, {}),
    ("flower-scorpion", 2, {}),
    ("pip", 3, {}),
    ("pip", 5, {}),
    # a draw that may be free shows nothing: the observation once told a forced draw from a free one
    ("draw", 2, {"allow_voluntary_draw": True}),
    ("draw", 3, {"allow_voluntary_draw": True, "boneyard_reserve": 2}),
    ("all-fives", 4, {"allow_voluntary_draw": True, "spinner_mode": "all_doubles"}),
]


def normalised(move: Move) -> Move:
    return Move.lead(move.tile) if move.kind == Kind.LEAD and move.tile is not None else move


@pytest.mark.parametrize(("variant", "players", "options"), CHECKED)
def test_official_checkers_on_larger_sets_and_player_counts(
    variant: str, players: int, options: dict[str, object]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(variant, players, options=options, seed=3), num_cycles=100)
        seed_test(lambda: env(variant, players, options=options), num_cycles=100)
        check_env(
            SingleSeatEnv(
                variant, players, opponents="random", seat=players - 1, options=options, seed=2, max_moves=60
            ),
            skip_render_check=True,
        )


@pytest.mark.parametrize(("variant", "players", "options"), CHECKED)
def test_masks_are_the_reference_legal_moves_and_every_observation_is_in_the_space(
    variant: str, players: int, options: dict[str, object]
) -> None:
    game = raw_env(variant, players, options=options, seed=5)
    game.reset()
    space = game.observation_space("seat_0")
    rng = np.random.default_rng(5)
    for step in range(300):
        agent = game.agent_selection
        if game.terminations[agent]:
            break
        for other in game.possible_agents:
            observation = game.observe(other)
            assert space.contains(observation)
            if other != agent:
                assert not observation["action_mask"].any()
        mask = game.action_mask()
        actions = np.flatnonzero(mask)
        if step % 10 == 0:
            reference = game.game
            assert reference is not None and reference.turn == game.seat
            decoded = [normalised(game.move_of(int(a))) for a in actions]
            assert len(set(decoded)) == len(decoded) == len(reference.legal_moves())
            assert set(decoded) == {normalised(m) for m in reference.legal_moves()}
            before = game.observe(agent)["observation"]
            for action in (game.codec.size, -1, *(a for a in rng.integers(0, game.codec.lead_base, 4) if not mask[a])):
                with pytest.raises(IllegalMoveError):
                    game.step(int(action))
            assert game.agent_selection == agent
            assert np.array_equal(before, game.observe(agent)["observation"])
        game.step(int(rng.choice(actions)))


def play_out(game: DominoEnv, seed: int) -> dict[str, float]:
    totals = dict.fromkeys(game.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        if terminated or truncated:
            assert all(game.terminations.values()) or all(game.truncations.values())
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("block", 4, {"partnerships": True, "target": 60}),
        ("pip", 3, {}),
        ("flower-scorpion", 3, {"score_floor": None}),
    ],
)
def test_rewards_add_up_to_the_final_scores_or_the_win(variant: str, players: int, options: dict[str, object]) -> None:
    game = raw_env(variant, players, options=options, seed=8)
    game.reset()
    totals = play_out(game, 1)
    sign = -1.0 if variant == "pip" else 1.0
    assert totals == {agent: sign * score for agent, score in zip(game.possible_agents, game.scores, strict=True)}
    game = raw_env(variant, players, options=options, seed=8, reward="win")
    game.reset()
    totals = play_out(game, 1)
    winners = set(game.rules.game_winners(game.winner, game.scores))
    assert totals == {
        agent: (1.0 if seat in winners else -1.0) if winners else 0.0 for seat, agent in enumerate(game.possible_agents)
    }


def test_a_shared_pip_win_rewards_every_seat_that_shares_it() -> None:
    # seven players, random moves from seed 1: seats 3 and 6 end on the lowest total, 165 (PIP-20: they share it)
    game = raw_env("pip", 7, seed=55, reward="win")
    game.reset()
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        game.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    low = min(game.scores)
    assert game.winner is None and [seat for seat, score in enumerate(game.scores) if score == low] == [3, 6]
    assert totals == {agent: 1.0 if seat in (3, 6) else -1.0 for seat, agent in enumerate(game.possible_agents)}


def test_truncation_after_max_moves_for_every_agent() -> None:
    game = raw_env("pip", 4, seed=2, max_moves=30)
    game.reset()
    rng = np.random.default_rng(0)
    moves = 0
    for _agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            assert truncated and not terminated
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        moves += 1
    assert moves == 30 and not game.agents


def episode_digest(game: DominoEnv, seed: int | None, steps: int = 200) -> str:
    digest = hashlib.sha256()
    game.reset(seed=seed)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        observation, reward, terminated, truncated, _ = game.last()
        digest.update(
            game.agent_selection.encode()
            + observation["observation"].tobytes()
            + observation["action_mask"].tobytes()
            + repr((reward, terminated, truncated)).encode()
        )
        if terminated or truncated:
            game.step(None)
            if not game.agents:
                game.reset()
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return digest.hexdigest()


@pytest.mark.parametrize("variant", ["all-fives", "pip"])
def test_the_same_seed_gives_the_same_episodes(variant: str) -> None:
    game = raw_env(variant, 3, seed=9)
    first = episode_digest(game, None)
    assert episode_digest(game, 9) == first == episode_digest(game, 9)
    assert episode_digest(raw_env(variant, 3, seed=9), None) == first
    assert episode_digest(game, 10) != first


class SwappedDeals:
    """Deals as the environment would, except that in the ``hand``-th deal two tiles change places."""

    def __init__(self) -> None:
        self.calls = 0
        self.hand: int | None = None
        self.swap: tuple[int, int] = (-1, -1)

    def __call__(self, game: FastGame, chance: Chance) -> Deal:
        number, self.calls = self.calls, self.calls + 1
        deal = chance.deal(cast(Any, _Between(game.rules, game.hand_number)))
        if number == self.hand:
            x, y = self.swap
            swapped = {x: y, y: x}
            deal = Deal(
                [[swapped.get(t, t) for t in hand] for hand in deal.hands],
                [swapped.get(t, t) for t in deal.stock],
                deal.leader,
                deal.dice,
            )
        game.start_hand(deal.hands, deal.stock, deal.leader, deal.dice)
        return deal


def replay(
    variant: str, players: int, options: dict[str, object], seed: int, actions: list[int], deals: SwappedDeals
) -> list[tuple[str, list[dict[str, np.ndarray]]]] | None:
    """Every step's agent and every seat's observation, or None where the actions are not legal."""
    deals.calls = 0
    game = raw_env(variant, players, options=options, seed=seed)
    game.reset()
    trace = []
    for action in [*actions, None]:
        trace.append((game.agent_selection, [game.observe(agent) for agent in game.possible_agents]))
        if action is None:
            break
        try:
            game.step(action)
        except IllegalMoveError:
            return None
    return trace


@pytest.mark.parametrize(("variant", "players", "options"), HIDDEN)
def test_swapping_tiles_a_seat_cannot_see_leaves_its_observation_alone(
    variant: str, players: int, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tiles a seat has not seen (other hands, the undrawn stock) change places in the hand's deal; where the
    same actions are still legal and the same seats act, that seat's observation is the same at every step of
    the hand.  A tile of its own hand swapped with an unseen one shows."""
    deals = SwappedDeals()
    monkeypatch.setattr(aec_module, "deal_hand", deals)
    pick = random.Random(players)
    rng = np.random.default_rng(players)
    game = raw_env(variant, players, options=options, seed=4)
    game.reset()
    actions: list[int] = []
    while len(actions) < 60 or game.fast is None or game.fast.placed < 2:
        actions.append(int(rng.choice(np.flatnonzero(game.action_mask()))))
        game.step(actions[-1])
        assert not game.terminations[game.agent_selection]
    deals.hand = deals.calls - 1  # the hand in progress
    base = replay(variant, players, options, 4, actions, deals)
    assert base is not None
    tiles = [tile.index for tile in game.codec.tiles]
    tested = shown = 0
    for seat in range(players):
        observation = game.observe(game.possible_agents[seat])["observation"]
        unseen = [t for t, seen in zip(tiles, game.observer.part(observation, "seen"), strict=True) if not seen]
        own = [t for t, held in zip(tiles, game.observer.part(observation, "hand"), strict=True) if held]
        for _ in range(4):
            deals.swap = (pick.choice(unseen), pick.choice(unseen))
            trace = replay(variant, players, options, 4, actions, deals)
            if trace is None or [agent for agent, _ in trace] != [agent for agent, _ in base]:
                continue
            tested += 1
            for (_, mine), (_, theirs) in zip(trace, base, strict=True):
                assert np.array_equal(mine[seat]["observation"], theirs[seat]["observation"])
                assert np.array_equal(mine[seat]["action_mask"], theirs[seat]["action_mask"])
        deals.swap = (pick.choice(own), pick.choice(unseen))
        trace = replay(variant, players, options, 4, actions, deals)
        if trace is not None and [agent for agent, _ in trace] == [agent for agent, _ in base]:
            shown += 1
            assert not np.array_equal(trace[-1][1][seat]["observation"], base[-1][1][seat]["observation"])
    assert tested >= players
    assert shown >= 1


@pytest.mark.parametrize("engine", ["auto", "reference"])
def test_a_doubles_low_half_action_is_refused_alike_by_both_engines(engine: str) -> None:
    # a double has one action per slot (its high half); the low half's number is masked out and refused
    game = raw_env("draw", 2, options={"allow_voluntary_draw": True}, seed=0, engine=engine)
    game.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = game.action_mask()
        doubles = [m for m in game.legal_moves() if m.kind == Kind.PLAY and m.tile is not None and m.tile.is_double]
        if doubles:
            high = game.encode(doubles[0])
            low = high + game.codec.slots
            assert mask[high] == 1 and mask[low] == 0
            moves = game.moves
            with pytest.raises(IllegalMoveError, match=f"high half, which is action {high}"):
                game.step(low)
            assert game.moves == moves
            game.step(high)
            assert game.moves == moves + 1
            return
        game.step(int(rng.choice(np.flatnonzero(mask))))
    pytest.fail("no double came to be played")
