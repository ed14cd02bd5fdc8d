"""Train a small agent with NumPy only and show that it beats ``random``.

The agent is a linear softmax policy over the observation vector of
:class:`boneyard.env.SingleSeatEnv` (logits = W·x + b for every action, illegal actions masked
out), trained by REINFORCE with a running baseline on the learner's score changes in All Fives
against a random opponent.  Only the rows of the legal actions are touched at each step, so an
update costs little even though the action space has about a thousand entries.

    python examples/train_agent.py            # about two minutes of training
    python examples/train_agent.py --quick    # a few seconds, for a smoke test

It ends by playing the trained policy (greedily) against ``random`` and printing the win rate
with its Wilson 95 % interval, next to the untrained policy's (uniform over legal moves, i.e. random itself).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np

from boneyard.env import SingleSeatEnv


class LinearPolicy:
    """Softmax over legal actions of ``W·x + b``."""

    def __init__(self, observations: int, actions: int, rng: np.random.Generator) -> None:
        self.weights = np.zeros((actions, observations))
        self.bias = np.zeros(actions)
        self.rng = rng

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.weights[legal] @ x + self.bias[legal]
        logits -= logits.max()
        exp = np.exp(logits)
        probabilities: np.ndarray = exp / exp.sum()
        return probabilities

    def act(self, observation: dict[str, np.ndarray], greedy: bool = False) -> tuple[int, np.ndarray, int]:
        legal = np.flatnonzero(observation["action_mask"])
        probs = self.probabilities(observation["observation"], legal)
        choice = int(np.argmax(probs)) if greedy else int(self.rng.choice(len(legal), p=probs))
        return int(legal[choice]), legal, choice


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def evaluate(policy: LinearPolicy, env: SingleSeatEnv, games: int, seed: int, greedy: bool) -> tuple[int, int]:
    wins = 0
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        done = False
        while not done:
            action, _, _ = policy.act(observation, greedy=greedy)
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += info.get("winner") == env.seat
    return wins, games


def train(env: SingleSeatEnv, policy: LinearPolicy, seconds: float, rate: float, seed: int) -> int:
    deadline = time.perf_counter() + seconds
    baseline = 0.0
    episodes = 0
    while time.perf_counter() < deadline:
        observation, _ = env.reset(seed=seed + 1_000_000 + episodes)
        steps: list[tuple[np.ndarray, np.ndarray, int, float]] = []
        done = False
        while not done:
            action, legal, choice = policy.act(observation)
            x = observation["observation"].astype(np.float64)
            observation, reward, terminated, truncated, _ = env.step(action)
            steps.append((x, legal, choice, float(reward)))
            done = terminated or truncated
        returns = 0.0
        for x, legal, choice, reward in reversed(steps):  # reward-to-go, discounted
            returns = reward + 0.9 * returns
            advantage = (returns - baseline) / 10.0
            baseline += 0.001 * (returns - baseline)
            probs = policy.probabilities(x, legal)
            gradient = -probs
            gradient[choice] += 1.0
            policy.weights[legal] += rate * advantage * np.outer(gradient, x)
            policy.bias[legal] += rate * advantage * gradient
        episodes += 1
    return episodes


def positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` above 0."""
    def parse(text: str) -> float:
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text} is not above 0")
        return value
    return parse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="train for seconds, evaluate on few games")
    parser.add_argument("--seconds", type=positive(float), default=None, help="training time (default 120, quick 8)")
    parser.add_argument("--games", type=positive(int), default=None, help="evaluation games (default 400, quick 60)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    seconds = args.seconds if args.seconds is not None else (8.0 if args.quick else 120.0)
    games = args.games if args.games is not None else (60 if args.quick else 400)
    env = SingleSeatEnv("all-fives", 2, opponents="random", reward="score", options={"target": 100})
    observations = env.game_env.observer.size
    actions = env.game_env.codec.size
    rng = np.random.default_rng(args.seed)
    untrained = LinearPolicy(observations, actions, rng)
    policy = LinearPolicy(observations, actions, rng)
    episodes = train(env, policy, seconds, rate=0.01, seed=args.seed)
    print(f"trained for {seconds:.0f} s: {episodes} games of All Fives (target 100) against random")
    for name, candidate in (("untrained", untrained), ("trained", policy)):
        wins, played = evaluate(candidate, env, games, seed=10_000_000 + args.seed, greedy=candidate is policy)
        low, high = wilson(wins, played)
        print(f"{name:>9} vs random: won {wins}/{played} = {wins / played:.1%} (95% interval {low:.1%}-{high:.1%})")


if __name__ == "__main__":
    main()
