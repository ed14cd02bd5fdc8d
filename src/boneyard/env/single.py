"""A Gymnasium environment: one seat of a game against built-in computer opponents.

The learner plays ``seat`` (0 by default); the other seats are computer levels given by spec
(``"random"``, ``"greedy"``, ``"expert:time=0.1"``; one spec for all, or one per other seat).
Observations and actions are those of :mod:`boneyard.env.encoding`; the observation is a dict
with the ``observation`` vector and the ``action_mask``, which ``info["action_mask"]`` repeats.
The reward of a step is the learner's reward (see :mod:`boneyard.env.aec`) from its move and the
opponents' moves up to its next turn.

An action that is not legal now changes nothing: under ``illegal="penalty"`` (the default) it
costs ``illegal_penalty`` and ``info["illegal"]`` is true; under ``illegal="raise"`` it raises
:class:`~boneyard.errors.IllegalMoveError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Real
from typing import Any, Literal, SupportsFloat

import gymnasium
import numpy as np

from boneyard.chance import as_whole
from boneyard.env.aec import DominoEnv, RewardMode, check_reset_options, check_seed
from boneyard.env.encoding import action_number
from boneyard.errors import IllegalMoveError, OptionError
from boneyard.players.base import Player, fast_chooser, make_player, split_specs
from boneyard.state import Game


class SingleSeatEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One learner seat against computer opponents, as a Gymnasium environment."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (Gymnasium declares it an instance variable)

    def __init__(self, variant: str = "all-fives", players: int = 2, *, opponents: str | Sequence[str] = "random",
                 seat: int = 0, options: Mapping[str, object] | None = None, seed: int | None = None,
                 reward: RewardMode = "score", illegal: Literal["penalty", "raise"] = "penalty",
                 illegal_penalty: float = 1.0, max_moves: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        players, seat = as_whole(players), as_whole(seat)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        penalty: object = illegal_penalty  # (numpy's numbers are Real too)
        if isinstance(penalty, bool) or not isinstance(penalty, Real) or not float(penalty) >= 0:
            raise OptionError(f"illegal_penalty is what an illegal action costs, a number of at least 0, not "
                              f"{illegal_penalty!r}")
        self.game_env: DominoEnv = DominoEnv(variant, players, options=options, seed=seed, reward=reward,
                                             max_moves=max_moves, render_mode="ansi" if render_mode else None)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise OptionError(f"seat {seat!r} is not a seat of a {players}-player game (0-{players - 1})")
        if illegal not in ("penalty", "raise"):
            raise OptionError(f"illegal {illegal!r} is not 'penalty' or 'raise'")
        specs = split_specs(opponents) if isinstance(opponents, str) else list(opponents)
        if not specs:
            raise OptionError("name at least one opponent level, e.g. opponents='random'")
        if len(specs) not in (1, players - 1):
            raise OptionError(f"{len(specs)} opponent levels ({', '.join(specs)}) for the {players - 1} other "
                              f"{'seat' if players == 2 else 'seats'} of a {players}-player game: give one level "
                              f"for all, or one per other seat")
        self.opponent_specs = [specs[min(i, len(specs) - 1)] for i in range(players - 1)]
        for spec in set(self.opponent_specs):
            make_player(spec)
        self.seat = seat
        self.agent = self.game_env.possible_agents[seat]
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self.observation_space = self.game_env.observation_space(self.agent)
        self.action_space = self.game_env.action_space(self.agent)
        self.opponents: dict[int, Player] = {}
        self._refused = 0

    @property
    def game(self) -> Game:
        """The game being played (``env.unwrapped.game``, as for the PettingZoo environment); refused before the
        first ``reset``, which deals it."""
        game = self.game_env.game
        if game is None:
            raise RuntimeError("no game yet: call reset() first")
        return game

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        seed = as_whole(seed)
        check_seed(seed)
        check_reset_options(self.game_env.rules, options)
        super().reset(seed=seed)
        self.game_env.reset(seed=seed)
        self._refused = 0  #: illegal actions refused this episode (they count towards ``max_moves``)
        others = [s for s in range(self.game_env.players) if s != self.seat]
        self.opponents = {other: make_player(spec, seed=self.game_env.game_seed + 101 * other)
                          for other, spec in zip(others, self.opponent_specs, strict=True)}
        reward = self._play_opponents()
        del reward  # nothing is owed before the learner's first move
        if self._over():  # (a step could only refuse: the episode ended before it began for the learner)
            raise OptionError(f"max_moves={self.game_env.max_moves} ran out before {self.agent}'s first turn "
                              f"({self.game_env.moves} moves by the other seats): give a larger max_moves")
        return self._observation(), self._info()

    def _observation(self) -> dict[str, np.ndarray]:
        return self.game_env.observe(self.agent)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.game_env.action_mask(self.agent), "illegal": illegal}
        if self._over():
            info.update(winner=self.game_env.winner, scores=self.game_env.scores)
        return info

    def _over(self) -> bool:
        env = self.game_env
        return env.terminations[self.agent] or env.truncations[self.agent] or self._cut()

    def _cut(self) -> bool:
        """Whether ``max_moves`` has run out, counting refused actions as moves (so an agent that keeps choosing
        illegal actions is stopped too)."""
        limit = self.game_env.max_moves
        return limit is not None and self._refused > 0 and self.game_env.moves + self._refused >= limit

    def _play_opponents(self) -> float:
        """Let the opponents move until the learner is on turn or the game ends; the learner's reward."""
        env = self.game_env
        total = 0.0
        while not self._over() and env.agent_selection != self.agent:
            seat = env.seat
            player = self.opponents[seat]
            choose_action = fast_chooser(player)
            if env.fast is not None and choose_action is not None:
                env.step(env.number_of(choose_action(env.fast)))  # random and greedy choose on the fast engine
            else:
                env.step(env.encode(player.choose(env.views[seat])))
            total += env.rewards.get(self.agent, 0.0)
        return total

    def step(self, action: int) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        env = self.game_env
        if self._over():
            raise IllegalMoveError("the game is over; call reset()")
        mask = env.action_mask(self.agent)
        action = action_number(action, self.agent)
        if not 0 <= action < mask.size or not mask[action]:
            if self.illegal == "raise":
                move = env.codec.describe(action) if 0 <= action < mask.size else str(action)
                legal = ", ".join(str(m) for m in env.legal_moves(self.agent)[:8])
                raise IllegalMoveError(f"action {action} ({move}) is not legal now (legal: {legal})")
            self._refused += 1
            return self._observation(), -self.illegal_penalty, False, self._cut(), self._info(illegal=True)
        env.step(action)
        reward = env.rewards.get(self.agent, 0.0) + self._play_opponents()
        terminated = env.terminations[self.agent]
        truncated = (env.truncations[self.agent] or self._cut()) and not terminated
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        return self.game_env.render() if self.render_mode == "ansi" else None

