"""The PettingZoo AEC environment: one agent per seat, a whole game per episode.

Agents are ``seat_0`` … ``seat_{n-1}``; the agent to act is the seat on turn (one seat may act
several times in a row: draws, PIP's ``A`` tile).  Hands follow one another inside an episode;
the episode ends (every agent *terminated*) when the rules end the game, or is *truncated* after
``max_moves`` moves when that limit is given.

Rewards (``reward="score"``, the default) are each seat's score change caused by a step —
points scored by a play and hand-end points, including those that reach a partner.  In PIP,
where the lowest total wins, the reward is the negative of what is added, so more reward is
always better.  ``reward="win"`` gives instead +1 to the winning seats and -1 to the others when
the game ends (0 to everyone if it ends without a winner).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from boneyard.chance import Chance
from boneyard.env.encoding import ActionCodec, Observer, number_values, slot_owners
from boneyard.errors import IllegalMoveError, OptionError
from boneyard.moves import Kind, Move
from boneyard.rules.base import Rules, make_rules
from boneyard.state import Game
from boneyard.tiles import Tile
from boneyard.view import SeatView

RewardMode = Literal["score", "win"]


def lower_score_wins(rules: Rules) -> bool:
    """Whether the variant's lowest total wins (PIP), so score additions are bad news."""
    return rules.lower_score_wins


class DominoEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """A whole game of one variant as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {"name": "boneyard_v0", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, variant: str = "all-fives", players: int = 2, *,
                 options: Mapping[str, object] | None = None, seed: int | None = None,
                 reward: RewardMode = "score", max_moves: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in ("score", "win"):
            raise OptionError(f"reward {reward!r} is not 'score' or 'win'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.rules = make_rules(variant, players, options)
        self.variant = self.rules.name
        self.players = players
        self.options = options
        self.reward_mode = reward
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.sign = -1.0 if lower_score_wins(self.rules) else 1.0
        self.codec = ActionCodec(self.rules)
        self.observer = Observer(self.rules, self.codec)
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Box(self.observer.low, self.observer.high, dtype=np.float32)
        mask = spaces.Box(0, 1, (self.codec.size,), dtype=np.int8)
        self.observation_spaces = {agent: spaces.Dict({"observation": observation, "action_mask": mask})
                                   for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.codec.size) for agent in self.possible_agents}
        self._seeds = np.random.default_rng(seed)
        self._next_seed: int | None = seed
        self.game: Game | None = None

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed`` if given, else from the constructor's seed sequence."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            self._next_seed = seed
        game_seed = self._next_seed if self._next_seed is not None else int(self._seeds.integers(2**62))
        self._next_seed = None
        self.game = Game(make_rules(self.variant, self.players, self.options), chance=Chance(game_seed))
        self.views = [SeatView(self.game, seat) for seat in range(self.players)]
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.moves = 0
        self._new_hand()
        self.agent_selection = self.possible_agents[self.game.turn]

    def _new_hand(self) -> None:
        assert self.game is not None
        if not self.game.in_hand and not self.game.finished:
            self.game.next_hand()
        self.seen: list[set[Tile]] = [set() for _ in range(self.players)]
        self.lacks: list[set[int]] = [set() for _ in range(self.players)]

    @property
    def seat(self) -> int:
        """The seat of the agent to act."""
        return self.agent_seat[self.agent_selection]

    def legal_moves(self, agent: str | None = None) -> list[Move]:
        """The legal moves of ``agent`` (default: the one to act); empty when it is not on turn."""
        seat = self.agent_seat[agent or self.agent_selection]
        if self.terminations.get(self.possible_agents[seat]) or self.truncations.get(self.possible_agents[seat]):
            return []
        return self.views[seat].legal_moves()

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        assert self.game is not None
        return self.codec.mask(self.legal_moves(agent), slot_owners(self.game.layout))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        seat = self.agent_seat[agent]
        moves = self.legal_moves(agent)
        vector = self.observer.observe(self.views[seat], self.seen[seat], self.lacks, moves,
                                       forced_draw=bool(self.game.forced_draw and seat == self.game.turn))
        return {"observation": vector, "action_mask": self.codec.mask(moves, slot_owners(self.game.layout))}

    def move_of(self, action: int) -> Move:
        """The move ``action`` stands for in the current position."""
        assert self.game is not None
        return self.codec.decode(int(action), slot_owners(self.game.layout))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        if action is None:
            raise IllegalMoveError(f"{agent} is on turn and must act (got None)")
        move = self.move_of(int(action))
        legal = self.legal_moves(agent)
        check = Move.lead(move.tile) if move.kind == Kind.LEAD and move.tile is not None else move
        if check not in legal:
            reason = game.explain_illegal(move, legal)
            raise IllegalMoveError(f"action {int(action)} ({move}) for {agent}: {reason}", move, reason)
        seat = self.seat
        self._cumulative_rewards[agent] = 0.0
        before = list(game.scores)
        self._track(seat, move)
        game.apply(move)
        self.moves += 1
        if not game.in_hand and not game.finished:
            self._new_hand()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.reward_mode == "score":
            for other, name in enumerate(self.possible_agents):
                self.rewards[name] = self.sign * float(game.scores[other] - before[other])
        if game.finished:
            winners = set(game.rules.score_seats(game.winner)) if game.winner is not None else set()
            for other, name in enumerate(self.possible_agents):
                if self.reward_mode == "win" and winners:
                    self.rewards[name] = 1.0 if other in winners else -1.0
                self.terminations[name] = True
                self.infos[name] = {"winner": game.winner, "scores": list(game.scores)}
        elif self.max_moves is not None and self.moves >= self.max_moves:
            for name in self.possible_agents:
                self.truncations[name] = True
        self._accumulate_rewards()
        if not (game.finished or self.truncations[agent]):
            self.agent_selection = self.possible_agents[game.turn]
        self._deads_step_first()
        if self.render_mode == "human":
            print(self.render())

    def _track(self, seat: int, move: Move) -> None:
        """Public facts a move reveals: suits a seat lacks, tiles a give shows to two seats."""
        game = self.game
        assert game is not None
        if move.kind == Kind.PASS or (move.kind == Kind.DRAW and not game.forced_draw):
            if any(m.kind == Kind.PLAY for m in game.legal_moves()):
                return  # a voluntary draw tells nothing
            target = game.rules.play_target(game)
            self.lacks[seat] |= number_values([face.value for face in game.layout.open_ends()
                                               if not target or face.owner == target])
        elif move.kind == Kind.GIVE and move.tile is not None:
            receiver = game.next_seat(seat)
            self.seen[seat].add(move.tile)
            self.seen[receiver].add(move.tile)
            self.lacks[receiver] -= set(move.tile.halves)

    # ------------------------------------------------------------ display
    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        from boneyard.render.text import layout_lines

        game = self.game
        lines = [line.plain for line in layout_lines(game.layout)]
        lines.append("scores " + "  ".join(f"{name}={score}" for name, score in zip(self.possible_agents,
                                                                                   game.scores, strict=True)))
        if not game.finished:
            hand = " ".join(str(tile) for tile in game.hands[game.turn])
            lines.append(f"{self.possible_agents[game.turn]} to move, holding {hand}")
        return "\n".join(lines)

    def close(self) -> None:
        self.game = None
