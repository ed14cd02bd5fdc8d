"""The PettingZoo AEC environment: one agent per seat, a whole game per episode.

Agents are ``seat_0`` … ``seat_{n-1}``; the agent to act is the seat on turn (one seat may act
several times in a row: draws, PIP's ``A`` tile).  Hands follow one another inside an episode;
the episode ends (every agent *terminated*) when the rules end the game, or is *truncated* after
``max_moves`` moves when that limit is given, or when a game some options make endless has played
:attr:`DominoEnv.hand_limit` hands (given up, as ``simulate`` gives it up).

Rewards (``reward="score"``, the default) are each seat's score change caused by a step —
points scored by a play and hand-end points, including those that reach a partner.  In PIP,
where the lowest total wins, the reward is the negative of what is added, so more reward is
always better.  ``reward="win"`` gives instead +1 to the winning seats and -1 to the others when
the game ends (0 to everyone if it ends without a winner).

The environment steps on the fast engine (:class:`~boneyard.fast.FastGame`) wherever it plays the
variant and options (``engine="auto"``, the default: every variant today), with the same deals,
observations, masks and rewards as on the reference engine (``engine="reference"``, the oracle, kept
for comparison); :mod:`boneyard.env.fast` keeps the fast engine's observations up to date move by move.
:attr:`DominoEnv.game` is always a reference :class:`~boneyard.state.Game` of the position; on the fast
engine it is built from the deals and actions played only when it is read (for rendering, or for a
player that decides from a view).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, ClassVar, Literal, NoReturn

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from boneyard.chance import Chance, Deal, as_whole, seed_error
from boneyard.env.encoding import ActionCodec, Observer, action_number, number_values, slot_owners
from boneyard.env.fast import FastTracker, tracker_for
from boneyard.errors import IllegalMoveError, OptionError
from boneyard.fast import FastGame
from boneyard.moves import Kind, Move
from boneyard.rules.base import Rules, make_rules
from boneyard.sim.engines import deal_hand, engine_for, hand_limit, rules_for
from boneyard.state import Game
from boneyard.tiles import Tile
from boneyard.view import SeatView

RewardMode = Literal["score", "win"]


def lower_score_wins(rules: Rules) -> bool:
    """Whether the variant's lowest total wins (PIP), so score additions are bad news."""
    return rules.lower_score_wins


def check_limit(max_moves: object) -> None:
    """Refuse a ``max_moves`` that is neither ``None`` nor a whole number of at least 1."""
    if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1):
        raise OptionError(f"max_moves must be a whole number of at least 1 (or None for no limit), not {max_moves!r}")


def check_seed(seed: object) -> None:
    """Refuse a seed the game records could not hold (``None``: a seed drawn at random)."""
    error = None if seed is None else seed_error(seed)
    if error is not None:
        raise OptionError(error)


def check_reset_options(rules: Rules, options: object) -> None:
    """Refuse ``reset`` options that name rule options: the rules are set when the environment is made, not per
    episode.  Other keys are ignored (PettingZoo's API test passes some to see that ``reset`` takes them)."""
    if not isinstance(options, Mapping):
        return
    named = sorted(str(key) for key in options if str(key) in {field.name for field in fields(rules.Options)})
    if named:
        raise OptionError(f"reset cannot change the rule options ({', '.join(named)}): give them when making the "
                          f"environment, e.g. env({rules.name!r}, options={{{named[0]!r}: ...}})")


class DominoEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """A whole game of one variant as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {"name": "boneyard_v0", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, variant: str = "all-fives", players: int = 2, *,
                 options: Mapping[str, object] | None = None, seed: int | None = None,
                 reward: RewardMode = "score", max_moves: int | None = None,
                 render_mode: str | None = None, engine: str = "auto") -> None:
        super().__init__()
        players, seed, max_moves = as_whole(players), as_whole(seed), as_whole(max_moves)
        if reward not in ("score", "win"):
            raise OptionError(f"reward {reward!r} is not 'score' or 'win'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        check_limit(max_moves)
        check_seed(seed)
        self.rules = make_rules(variant, players, options)
        #: "fast" or "reference": the engine the environment steps on
        self.engine = engine_for(self.rules, engine)
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
        self._zero_rewards = dict.fromkeys(self.possible_agents, 0.0)
        #: the rewards dict the last step that scored nothing set (kept while it is :attr:`rewards`)
        self._zeroed: dict[str, float] | None = None
        self._seeds = np.random.default_rng(seed)
        self._next_seed: int | None = seed
        self._game: Game | None = None
        self.fast: FastGame | None = None
        self._tracker: FastTracker | None = None
        #: the fast game's deals and actions, from which :attr:`game` is brought up to date when read
        self._played: list[Deal | int] = []
        self._synced = 0
        self._shadow: FastGame | None = None  #: a fast copy that follows :attr:`game`, to name its moves
        self.seen: list[set[Tile]] = []
        self.lacks: list[set[int]] = []
        self.game_seed = 0
        #: the hands after which a game that has not ended is given up (the episode truncated), as ``simulate`` does:
        #: some options make a game endless (:func:`~boneyard.sim.engines.hand_limit`)
        self.hand_limit = hand_limit(self.rules)
        self.given_up = False  #: whether this episode's game was given up at :attr:`hand_limit`

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the reference view of the game
    @property
    def game(self) -> Game | None:
        """The game as a reference :class:`~boneyard.state.Game` (on the fast engine, built and brought up
        to date from the deals and actions played only now, when it is read)."""
        if self.fast is None or self._synced == len(self._played):
            return self._game
        if self._game is None or self._shadow is None:
            rules = rules_for(self.variant, self.players, self.options)
            self._game = Game(rules)
            self._shadow = FastGame(rules, deal=False)
            self._synced = 0
        game, shadow = self._game, self._shadow
        for item in self._played[self._synced:]:
            if isinstance(item, Deal):
                game.start_hand(self._chance.hand_setup(game.rules, item))  # the deal as tiles
                shadow.start_hand(item.hands, item.stock, item.leader, item.dice)
            else:
                game.apply(shadow.to_move(item))
                shadow.apply(item)
        self._synced = len(self._played)
        return game

    @property
    def scores(self) -> list[int]:
        """The scores now."""
        if self.fast is not None:
            return list(self.fast.scores)
        assert self._game is not None
        return list(self._game.scores)

    @property
    def winner(self) -> int | None:
        """The game's winner (None while it runs or when nobody won)."""
        if self.fast is not None:
            return self.fast.winner
        assert self._game is not None
        return self._game.winner

    @property
    def views(self) -> list[SeatView]:
        """One :class:`~boneyard.view.SeatView` per seat, of :attr:`game`."""
        game = self.game
        assert game is not None
        return [SeatView(game, seat) for seat in range(self.players)]

    # ------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed`` if given, else from the constructor's seed sequence.  ``options`` may not
        name rule options: those are the environment's own (given when it is made)."""
        seed = as_whole(seed)
        check_seed(seed)
        check_reset_options(self.rules, options)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            self._next_seed = seed
        game_seed = self._next_seed if self._next_seed is not None else int(self._seeds.integers(2**62))
        self._next_seed = None
        self.game_seed = game_seed
        if self.engine == "fast":
            if self.fast is None or self._tracker is None:
                self.fast = FastGame(rules_for(self.variant, self.players, self.options), deal=False)
                self._tracker = tracker_for(self.observer, self.fast)
            else:
                self.fast.reset()  # the same game object and vectors, for the next episode
            self._chance = Chance(game_seed)
            self._game = self._shadow = None
            self._played = []
            self._synced = 0
        else:
            self._game = Game(make_rules(self.variant, self.players, self.options), chance=Chance(game_seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.moves = 0
        self.given_up = False
        self._new_hand()
        self.agent_selection = self.possible_agents[self._turn()]

    def _turn(self) -> int:
        if self.fast is not None:
            return self.fast.turn
        assert self._game is not None
        return self._game.turn

    def _new_hand(self) -> None:
        """Deal the next hand, unless the game is over or has played :attr:`hand_limit` hands (then it is given up,
        between hands, and the step that ended the last hand truncates the episode)."""
        fast = self.fast
        if fast is not None:
            assert self._tracker is not None
            if not fast.in_hand and not fast.finished:
                if fast.hand_number >= self.hand_limit:
                    self.given_up = True
                    return
                deal = deal_hand(fast, self._chance)  # (tile indices: the reference's tiles only if it is read)
                self._played.append(deal)
                self._tracker.start_hand(deal.dice)
            return
        assert self._game is not None
        if not self._game.in_hand and not self._game.finished:
            if len(self._game.log) >= self.hand_limit:
                self.given_up = True
                return
            self._game.next_hand()
        self.seen = [set() for _ in range(self.players)]
        self.lacks = [set() for _ in range(self.players)]

    @property
    def seat(self) -> int:
        """The seat of the agent to act."""
        return self.agent_seat[self.agent_selection]

    def _dead(self, seat: int) -> bool:
        agent = self.possible_agents[seat]
        return bool(self.terminations.get(agent) or self.truncations.get(agent))

    def _on_turn(self, seat: int) -> bool:
        """Whether ``seat`` is the live seat to move in a hand in progress (fast engine)."""
        fast = self.fast
        assert fast is not None
        return fast.turn == seat and fast.in_hand and not self._dead(seat)

    def legal_moves(self, agent: str | None = None) -> list[Move]:
        """The legal moves of ``agent`` (default: the one to act); empty when it is not on turn."""
        seat = self.agent_seat[agent or self.agent_selection]
        if self._tracker is not None:
            if not self._on_turn(seat):
                return []
            to_move = self._tracker.game.to_move
            return [to_move(action) for action in self._tracker.legal().values()]
        if self._dead(seat):
            return []
        return self.views[seat].legal_moves()

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        seat = self.agent_seat[agent or self.agent_selection]
        if self._tracker is not None:
            return self._tracker.mask(self._on_turn(seat))
        assert self._game is not None
        return self.codec.mask(self.legal_moves(agent), slot_owners(self._game.layout))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_seat[agent]
        tracker = self._tracker
        if tracker is not None:
            fast = tracker.game
            # (a hand is in progress unless the game is over, and then every agent is terminated)
            return tracker.observe(seat, fast.turn == seat
                                   and not (self.terminations[agent] or self.truncations[agent]))
        game = self._game
        assert game is not None
        moves = self.legal_moves(agent)
        vector = self.observer.observe(SeatView(game, seat), self.seen[seat], self.lacks, moves,
                                       forced_draw=bool(game.forced_draw and seat == game.turn))
        return {"observation": vector, "action_mask": self.codec.mask(moves, slot_owners(game.layout))}

    def _owners(self) -> list[int]:
        """The tiles with an open end, one per slot (:func:`~boneyard.env.encoding.slot_owners`)."""
        if self._tracker is not None:
            return self._tracker.owners
        assert self._game is not None
        return slot_owners(self._game.layout)

    def move_of(self, action: int) -> Move:
        """The move ``action`` stands for in the current position."""
        return self.codec.decode(int(action), self._owners())

    def encode(self, move: Move) -> int:
        """The action number of a legal ``move`` in the current position."""
        return self.codec.encode(move, self._owners())

    def number_of(self, fast_action: int) -> int:
        """The action number of a legal fast-engine action (a fast player's choice)."""
        assert self._tracker is not None
        for number, action in self._tracker.legal().items():
            if action == fast_action:
                return number
        raise IllegalMoveError(f"fast action {fast_action} is not legal now")

    def step(self, action: int | None) -> None:
        if not self.agents:  # (PettingZoo's wrapper warns and never gets here)
            raise IllegalMoveError("the episode is over (every agent is done): reset() deals a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError(f"{agent} is on turn and must act (got None)")
        action = action_number(action, agent)
        tracker = self._tracker
        if tracker is not None:
            legal = tracker.legal_now if tracker.legal_now is not None else tracker.legal()
            chosen = legal.get(action)
            if chosen is None:
                self._refuse(agent, action)
            self._cumulative_rewards[agent] = 0.0
            before = tracker.apply(chosen)
            self._played.append(chosen)
            fast = tracker.game
            finished = fast.finished
            if not fast.in_hand and not finished:
                self._new_hand()
            if before is None and fast.in_hand and self.max_moves is None:  # most steps: nothing else changes
                self.moves += 1
                rewards = self.rewards  # (all zeros already after a step that scored nothing, unless edited since)
                if rewards is not self._zeroed or rewards != self._zero_rewards:
                    self.rewards = self._zeroed = self._zero_rewards.copy()
                self.agent_selection = self.possible_agents[fast.turn]
            else:
                self._settle(agent, fast.scores, before, finished, fast.winner, fast.turn)
        else:
            game = self._game
            assert game is not None
            move = self.move_of(action)
            legal_moves = self.legal_moves(agent)
            check = Move.lead(move.tile) if move.kind == Kind.LEAD and move.tile is not None else move
            if check not in legal_moves or (move.kind == Kind.PLAY and self.encode(move) != action):
                self._refuse(agent, action)  # (a double's low-half action is not its move's: see _refuse)
            self._cumulative_rewards[agent] = 0.0
            before = list(game.scores)
            self._track(self.seat, move)
            game.apply(move)
            if not game.in_hand and not game.finished:
                self._new_hand()
            self._settle(agent, game.scores, before if game.scores != before else None, game.finished, game.winner,
                         game.turn)
        if self.render_mode == "human":
            print(self._text())

    def _settle(self, agent: str, scores: list[int], before: list[int] | None, finished: bool, winner: int | None,
                turn: int) -> None:
        """Rewards, the end of the episode and the next agent, after ``agent``'s move (``before``: the scores
        before it, when it changed any)."""
        self.moves += 1
        agents = self.possible_agents
        if before is not None and self.reward_mode == "score":
            sign = self.sign
            rewards: dict[str, float] = {}
            for other, name in enumerate(agents):
                rewards[name] = sign * float(scores[other] - before[other])
            self.rewards = rewards
        else:
            self.rewards = self._zero_rewards.copy()
        limit = self.max_moves
        truncated = not finished and (self.given_up or (limit is not None and self.moves >= limit))
        if finished:
            winners = set(self.rules.game_winners(winner, scores))  # (PIP's equal lowest totals share the win)
            for other, name in enumerate(agents):
                if self.reward_mode == "win" and winners:
                    self.rewards[name] = 1.0 if other in winners else -1.0
                self.terminations[name] = True
                self.infos[name] = {"winner": winner, "scores": list(scores)}
        elif truncated:
            for name in agents:
                self.truncations[name] = True
                if self.given_up:
                    self.infos[name] = {"given_up": f"the game was still going after {self.hand_limit:,} hands",
                                        "scores": list(scores)}
        if before is not None or finished:
            self._accumulate_rewards()
        if finished or truncated:
            self._deads_step_first()
        else:
            self.agent_selection = agents[turn]

    def _refuse(self, agent: str, action: int) -> NoReturn:
        """Raise the error of an illegal action, with the reason the rules give."""
        move = self.move_of(action)
        game = self.game
        assert game is not None
        legal = game.legal_moves() if game.turn == self.agent_seat[agent] else []
        if move in legal and move.kind == Kind.PLAY and self.encode(move) != action:
            reason = f"a double is joined by its high half, which is action {self.encode(move)} (the mask's)"
        else:
            reason = game.explain_illegal(move, legal)
        raise IllegalMoveError(f"action {action} ({move}) for {agent}: {reason}", move, reason)

    def _track(self, seat: int, move: Move) -> None:
        """Public facts a move reveals: suits a seat lacks, tiles a give shows to two seats."""
        game = self._game
        assert game is not None
        if move.kind == Kind.PASS or (move.kind == Kind.DRAW and not game.forced_draw):
            if move.kind == Kind.DRAW and not game.rules.draw_shows_lack():
                return  # a draw that may be voluntary tells nothing, whether or not the drawer could play
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
        """``render_mode="ansi"``: the table as text (the layout, the scores, the hand of the seat to move);
        ``"human"``: the same printed (and every step prints it), returning ``None``."""
        if self.render_mode is None or self.game is None:
            return None
        if self.render_mode == "human":
            print(self._text())
            return None
        return self._text()

    def _text(self) -> str:
        from boneyard.render.text import layout_lines

        game = self.game
        assert game is not None
        lines = [line.plain for line in layout_lines(game.layout)]
        lines.append("scores " + "  ".join(f"{name}={score}" for name, score in zip(self.possible_agents,
                                                                                   game.scores, strict=True)))
        if not game.finished:
            hand = " ".join(str(tile) for tile in game.hands[game.turn])
            lines.append(f"{self.possible_agents[game.turn]} to move, holding {hand}")
        return "\n".join(lines)

    def close(self) -> None:
        self._game = self._shadow = None
        self.fast = None
        self._tracker = None

