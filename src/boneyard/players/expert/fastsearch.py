"""The expert's per-deal evaluation on the fast engine, in every variant.

When :func:`boneyard.fast.unsupported` accepts the variant and its options, :class:`FastRoot`
rebuilds the current position once per decision on a :class:`~boneyard.fast.FastGame` (for PIP a
:class:`~boneyard.fast.FastPip`): the public history replayed move by move, hidden tiles and hidden
gives left out, the set-up draws of Double Bergen and PIP (no moves) only in the stock's count.  It
checks that the result offers exactly the view's legal moves (else the reference game is searched),
and then, for every sampled deal, only swaps in the sampled hands and stock.  Each root move is then
valued on that deal:

* **exactly** when nothing can be drawn any more (no stock, or the stock is down to the
  reserve) and at most :data:`EXACT_TILES` tiles remain in all hands — for two-player Block
  that is the whole hand from the first move.  The search is alpha-beta with the searching
  side maximising and every other seat minimising (paranoid) the same objective as the
  playouts; moves are tried by the points they score (where plays score), then heaviest tile first
  (PIP: heaviest by hand value), a play on either of two equal line ends is
  searched once, and games without in-hand scoring (Block, Draw) share a transposition table
  across the root moves of one deal.  A search that passes :data:`EXACT_NODES` nodes, or the
  decision's deadline (:attr:`FastRoot.deadline`, set under a time budget), or — where plays score
  and no table helps — :data:`EXACT_SHARE` of the budget within one deal, is given up and the
  decision falls back to playouts for its remaining deals.
* otherwise by :data:`PLAYOUTS` greedy playouts (one in Double Bergen and PIP, :data:`ONE_PLAYOUT`):
  best immediate score, then a double before any other tile (``doubles_first``; not in PIP, where the
  playout sheds its heaviest tile first as the reference playout does), then the heaviest tile, ties
  at random, each playout on its own random order of the hidden stock.  A PIP give hands over the
  heaviest tile.  With :attr:`FastRoot.defend` (the expert's ``defend=1``) a placement's points count
  less the most the next seat can score with one placement right after it, and where plays do not
  score a placement that leaves the next seat none comes first.  :meth:`FastRoot._playout` is the
  policy's definition; where the compiled kernel is built the same policy runs there
  (:meth:`.FastGame.greedy_finishes`, the hand's end scored by :meth:`.FastGame.finish_outcome`).
  Both draw the same random numbers (a :class:`~boneyard.chance.SplitMix` stream seeded once per root
  move and deal breaks the ties and orders the stock), so a seed values a deal alike with or without it.

The value is the reference search's objective (:class:`~.objective.Objective`: for PIP, whose lowest
score wins, the best opponent's points minus the seat's), plus :data:`HAND_WIN` for winning the hand
in Block and Draw.  Every search and playout ends with the position taken back by ``undo``: nothing
is copied.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boneyard.chance import SplitMix
from boneyard.errors import BoneyardError
from boneyard.fast import FastGame, FastPip, unsupported
from boneyard.fast.pip import PIP_TILES, SPAN, TARGETS
from boneyard.moves import Kind, Move
from boneyard.players.expert.determinize import rules_of
from boneyard.players.expert.objective import Objective
from boneyard.tiles import Tile, W, lightness

try:  # the optional compiled exact solver of closed two-player line hands (setup.py builds it)
    from boneyard.fast import _solve
except ImportError:  # pragma: no cover - depends on the build
    _solve = None  # type: ignore[assignment]
from boneyard.view import PublicEvent, SeatView

EXACT_TILES = 16  #: tiles left in all hands at most for the exact search (two-player Block: the whole hand)
EXACT_NODES = 60_000  #: node limit of one exact search (beyond it this decision uses playouts)
EXACT_SHARE = 0.25  #: share of the time budget one deal's exact searches may take where plays score
#: bonus for winning the hand in games without in-hand scoring (Block, Draw), where the hand's
#: points all go to its winner: the search plays first for the hand, then for its margin
HAND_WIN = 100.0
PLAYOUTS = 2  #: greedy playouts per root move and deal when the exact search does not apply
#: the variants with one playout per root move and deal: more deals at the same budget (the stock's order
#: is sampled anew with each deal); the other line games keep the two they were measured with
ONE_PLAYOUT = ("double-bergen", "pip")
_PHANTOM = 255  #: a tile index outside every set: the stand-in for hidden tiles during the replay
_HIDDEN_GIVE = 254  #: the stand-in for a PIP tile given out of this seat's sight (never the phantom)
#: a tile the first player is dealt in the replay, so that the opening finds him without set-up draws
#: (Double Bergen's draws for a double to set, PIP's for the starter: not moves, only the stock's count)
_OPENERS = {"double-bergen": Tile(0, 0).index, "pip": Tile(W, W).index}
_INF = float("inf")
#: node limit of one compiled exact search of a deal (about a tenth of a second; beyond it this decision
#: uses playouts)
SOLVE_NODES = 1_000_000
#: alpha-mu (:meth:`FastRoot.evaluate_worlds`): deals searched together at most, and the strategies' value vectors
#: a node keeps at most (the best by their sums beyond those no other one beats)
MAX_WORLDS = 64
FRONT_KEEP = 8
_OWNERS = itertools.count(1)  #: tokens tagging each root's entries in the compiled solver's table
_CLOCK_MASK = 1023  #: the exact search looks at the clock once every 1,024 nodes
_POINT = 1 << 12  #: a playout key's unit of points (a tile's rank stays below it)
_DRAW_KEY = -(1 << 40)  #: a draw or pass in the playout's order: after every placement (the kernel's)


@dataclass(frozen=True, slots=True)
class Answers:
    """A root move's continuation on one deal (:meth:`FastRoot.evaluate_answers`): the other seat's ``reply``
    (``-1``: the hand ended with the root move), and the exact ``values`` of this seat's answers to it by their
    actions ``keys`` (``(-1,)``: the hand ended before an answer)."""

    reply: int
    keys: tuple[int, ...]
    values: tuple[float, ...]


class _Abort(Exception):
    """The exact search went past its node limit."""


class FastRoot:
    """The decision's position on the fast engine; values root moves on sampled deals."""

    def __init__(self, game: FastGame, me: int, side: Sequence[int], start: Sequence[int],
                 actions: list[int], objective: Objective) -> None:
        self.game = game
        self.me = me
        self.side = frozenset(side)
        self.rivals = [seat for seat in range(game.players) if seat not in self.side]
        self.start = list(start)
        self.actions = actions
        self.objective = objective
        self.root_pos = game.stock_pos
        self.exact_ok = True  #: cleared when an exact search runs past its node limit or the deadline
        #: the decision's deadline (``perf_counter``): an exact search still running then is given up
        self.deadline: float | None = None
        #: the decision's time budget (``None`` under ``samples=``): where plays score (no transposition
        #: table), one deal's exact searches may take :data:`EXACT_SHARE` of it, so a few deals get searched
        self.budget: float | None = None
        self._deal_started = 0.0
        self.nodes = 0  #: nodes of the exact searches so far (for measurements)
        self.noisy = False  #: set once a root move was valued by playouts rather than exactly
        #: the playout policy: after the points, a double before any other tile (else only the heaviest)
        self.doubles_first = True
        #: the playout policy: a placement's points less the most the next seat can score right after it (where
        #: plays do not score: a placement that leaves the next seat none first; every seat plays so; not PIP)
        self.defend = False
        self._mix = (0.0, 0.0)
        self._tt: dict[tuple[int, ...], tuple[float, float]] = {}
        rules = game.rules
        self._no_draw = rules.draw_mode == "none"
        self.playouts = 1 if rules.name in ONE_PLAYOUT else PLAYOUTS
        self._reserve = rules.reserve
        scoring = game.scores_during_hand
        self._scoring = scoring
        pip = isinstance(game, FastPip)
        self._pip = pip
        self._hand_win = not scoring and not pip  # Block and Draw
        # no in-hand points, two line ends: a transposition table, and equal ends searched once
        self._plain = self._hand_win and game.spinner_mode == 0
        #: the compiled solver takes the exact searches: a plain two-player line on a set up to double-nine,
        #: valued by this class's own :meth:`value` (a subclass that values positions itself searches in Python)
        self._compiled = (_solve is not None and self._plain and game.players == 2 and game.t.top <= 9
                          and type(self).value is FastRoot.value)
        #: the greedy playouts run in the compiled kernel (:meth:`.FastGame.greedy_finishes`, PIP's too) where it is
        #: built, valued by this class's own :meth:`value` (a subclass that values positions itself plays out in Python)
        self._kernel = game.kernel_plays and type(self).value is FastRoot.value
        self._leaves: array[float] | None = None  #: the solver's leaf values (NaN: not asked yet), made at first use
        #: one more than the most pips a hand can hold: the leaf table's stride
        self._span = sum(game.t.pips) + 1 if self._compiled else 0
        self._owner = next(_OWNERS) % 0xFFFFFFFF + 1  #: this root's tag in the solver's transposition table
        self._side_mask = sum(1 << seat for seat in self.side)
        self._rank: list[int] = []  #: per tile index, its place in the order of lightness (C2)
        self._roots: list[int] = []  #: the root moves as the compiled solver takes them (made at first use)
        #: an action's tile: ``action // unit`` below ``draw``, ``action - give_base`` from ``give_base`` (PIP)
        self._unit = 2 * TARGETS if pip else game.arms
        self._give_base = game.give_base if isinstance(game, FastPip) else 1 << 62
        #: per tile index: what it weighs in hand, and whether the playouts take it first as a double
        self._weights: Sequence[int] = game.t.pips if not pip else _pip_values(rules.tile_value)
        doubles: Sequence[bool] = [False] * SPAN if pip else game.t.is_double
        #: the playout's order of tiles after the points, by ``doubles_first``: a double first, then the weight
        self._ranks = {first: [(int(first and double) << 10) + weight
                               for double, weight in zip(doubles, self._weights, strict=True)]
                       for first in (False, True)}

    @property
    def mix(self) -> tuple[float, float]:
        """The compiled solver's mixed choices ``(deep, own)`` (:class:`.Search`): below the root, a choice of the
        other seat is worth ``(1 - deep)`` times its worst child plus ``deep`` times their mean, a later choice of
        this seat's side ``(1 - own)`` times its best plus ``own`` times the mean; ``(0, 0)`` (the default): both
        play the deal's best, as each sampled deal were known to both."""
        return self._mix

    @mix.setter
    def mix(self, shares: tuple[float, float]) -> None:
        if shares != self._mix:
            self._mix = shares
            self._owner = next(_OWNERS) % 0xFFFFFFFF + 1  # the table's values under other shares are not these

    @classmethod
    def build(cls, view: SeatView, moves: Sequence[Move], side: Sequence[int],
              objective: Objective | None = None) -> FastRoot | None:
        """The position of ``view`` on the fast engine, or ``None`` where it does not apply.

        ``objective`` values finished positions (default: the expert's for ``view``); a caller that
        values positions itself (a subclass's :meth:`value`) and passes none gets ``None`` for a
        lowest-score game (PIP), where its highest-score value would be wrong."""
        rules = rules_of(view)
        if unsupported(rules) or (rules.lower_score_wins and objective is None):
            return None
        try:
            game = replay_hand(view)
        except (BoneyardError, IndexError, ValueError):  # pragma: no cover - a safety net, never seen
            return None
        if game is None:
            return None
        game.hands[view.seat] = _mask(view.hand)
        legal = {game.to_move(action) for action in game.legal_actions()}
        if legal != set(view.legal_moves()):  # pragma: no cover - the fast engine's tests rule this out
            return None
        actions = [game.from_move(move) for move in moves]
        return cls(game, view.seat, side, view.scores, actions, objective or Objective(view))

    # ------------------------------------------------------------------ one deal
    def load(self, hands: Sequence[Sequence[Tile]], stock: Sequence[Tile]) -> None:
        """Put a sampled deal (every seat's hand, the stock in draw order) in place."""
        game = self.game
        game.hands = [_mask(hand) for hand in hands]
        del game.stock[self.root_pos:]
        game.stock.extend(tile.index for tile in stock)
        self._tt.clear()
        self._deal_started = time.perf_counter()

    def evaluate(self, index: int, rng: random.Random) -> float:
        """The value of root move ``index`` on the loaded deal."""
        game = self.game
        game.apply(self.actions[index])
        try:
            if game.in_hand and self.exact_ok and self._closed():
                try:
                    return self._exact()
                except _Abort:
                    self.exact_ok = False
            return self._playouts(rng)
        finally:
            game.undo()

    def _closed(self) -> bool:
        """Whether nothing can be drawn any more and few enough tiles remain for the exact search."""
        game = self.game
        if not self._no_draw and game.stock_left > self._reserve:
            return False
        return sum(hand.bit_count() for hand in game.hands) <= EXACT_TILES

    def value(self) -> float:
        """The objective of the current (finished) position (:meth:`.Objective.outcome`, plus the hand bonus)."""
        game = self.game
        return self._valued(game.scores, game.finished, game.winner, None if game.in_hand else game.last_winner)

    def _valued(self, scores: Sequence[int], finished: bool, winner: int | None, hand_winner: int | None) -> float:
        value = self.objective.outcome(scores, finished, winner)
        if self._hand_win and hand_winner is not None:
            value += HAND_WIN if hand_winner in self.side else -HAND_WIN
        return value

    def _leaf(self, end: int, who: int, pips0: int, pips1: int) -> float:
        """The value of a hand the compiled solver ended with these pip totals: ``end`` 0 is a domino by
        ``who``, 1 a block (``who``: the seat holding the lighter lightest tile, which only a tie asks).
        The variant's own hand end decides it (:meth:`.FastGame.hand_result`, :meth:`.FastGame.game_over_at`)."""
        game = self.game
        pips = (pips0, pips1)

        def lightest(seat: int) -> tuple[int, int]:
            return (0, 0) if seat == who else (1, 0)

        if end == 0:
            hand_winner, points = game.hand_result("domino", who, pips, lightest)
        else:
            hand_winner, points = game.hand_result("blocked", None, pips, lightest)
        scores = [score + gained for score, gained in zip(game.scores, points, strict=True)]
        finished, winner = game.game_over_at(scores)
        return self._valued(scores, finished, winner, hand_winner)

    def _solved(self) -> float:
        """The exact value of the current position by the compiled solver (:data:`_compiled`)."""
        value = self._solve(None)
        if value is None:
            raise _Abort
        assert isinstance(value, float)
        return value

    def _ensure_leaves(self) -> None:
        """The compiled solver's leaf table and order of lightness, made at first use."""
        if self._leaves is None:
            tiles = self.game.t.tiles
            self._leaves = array("d", [math.nan]) * (4 * self._span * self._span)
            self._rank = [0] * len(tiles)
            for place, index in enumerate(sorted(range(len(tiles)), key=lambda i: lightness(tiles[i]))):
                self._rank[index] = place

    def _solve(self, roots: Sequence[int] | None) -> float | list[float] | None:
        """The compiled solver's values of ``roots`` (its move codes) here, or of this position (``None``);
        ``None`` when it ran past :data:`SOLVE_NODES`."""
        game = self.game
        self._ensure_leaves()
        values, nodes = _solve.solve(self._owner, game.t.top, self._rank, self._side_mask, game.hands,
                                     (game.value[0], game.value[1]), game.turn, game.passes, game.drawn, roots,
                                     self._leaves, self._span, self._leaf, SOLVE_NODES, *self._mix)
        self.nodes += nodes
        return values  # type: ignore[no-any-return]

    def evaluate_all(self, indices: Sequence[int]) -> list[float] | None:
        """The values of root moves ``indices`` on the loaded deal in one call of the compiled solver, where it
        applies and nothing can be drawn any more (else ``None``: value them one by one with :meth:`evaluate`)."""
        if not (self._compiled and self.exact_ok and self._closed()):
            return None
        if not self._roots:
            self._roots = [self._code(action) for action in self.actions]
        values = self._solve([self._roots[index] for index in indices])
        if values is None:
            self.exact_ok = False
            return None
        assert isinstance(values, list)
        return values

    def fuses(self) -> bool:
        """Whether :meth:`evaluate_worlds` applies here: the compiled solver values the deals, two players play (this
        seat for itself), nothing can be drawn any more, and no mixed choices are set (:attr:`mix`: the solver's
        table then holds mixed values, which alpha-mu's own searches of each deal must not read)."""
        return (self._compiled and self.exact_ok and self._closed() and self.game.players == 2
                and len(self.side) == 1 and self._mix == (0.0, 0.0))

    def evaluate_worlds(self, indices: Sequence[int], deals: Sequence[Sequence[Sequence[Tile]]], fuse: int,
                        keep: int = FRONT_KEEP) -> list[float] | None:
        """Root moves ``indices`` valued over ``deals`` (the seats' hands, at most :data:`MAX_WORLDS`) together by the
        compiled solver's alpha-mu: this seat makes its first ``fuse`` choices (the root move the first) alike on
        every deal, as it cannot tell them apart, and the other seat chooses knowing the deal; each move's value is
        its best such strategy's mean over the deals (``fuse=1``: :meth:`evaluate_all`'s values, averaged).  Only
        where the compiled solver applies, two players play and nothing can be drawn any more (else ``None``)."""
        if not self.fuses():
            return None
        game = self.game
        if not self._roots:
            self._roots = [self._code(action) for action in self.actions]
        self._ensure_leaves()
        other = 1 - self.me
        hands = [0, 0]
        hands[self.me] = game.hands[self.me]
        worlds = [_mask(deal[other]) for deal in deals]
        values, nodes = _solve.solve_worlds(self._owner, game.t.top, self._rank, self._side_mask, hands,
                                            (game.value[0], game.value[1]), game.turn, game.passes, game.drawn,
                                            [self._roots[index] for index in indices], self._leaves, self._span,
                                            self._leaf, SOLVE_NODES * len(worlds), worlds, fuse, keep)
        self.nodes += nodes
        if values is None:
            self.exact_ok = False
            return None
        assert isinstance(values, list)
        return values

    def evaluate_doubting(self, indices: Sequence[int], doubt: float) -> list[float] | None:
        """The values of root moves ``indices`` on the loaded deal where the other seat's reply is valued as one
        that does not see this seat's hand: ``(1 - doubt)`` times the reply worst for this seat plus ``doubt``
        times the mean over its legal replies, each reply valued exactly (both seats knowing the deal after it).
        ``doubt=0`` is :meth:`evaluate_all`'s value.  Only where the compiled solver applies, two players play and
        nothing can be drawn any more (else ``None``: value them otherwise)."""
        game = self.game
        if not (self._compiled and self.exact_ok and self._closed() and game.players == 2):
            return None
        found: list[float] = []
        for index in indices:
            game.apply(self.actions[index])
            try:
                replies = self._reply_values() if game.in_hand else [self.value()]
            finally:
                game.undo()
            if replies is None:
                self.exact_ok = False
                return None
            found.append((1.0 - doubt) * min(replies) + doubt * sum(replies) / len(replies))
        return found

    def _reply_values(self) -> list[float] | None:
        """The exact value of each legal move of the seat to move here, in one call of the compiled solver
        (a forced move: its value alone); ``None`` when the solver ran past its node limit."""
        game = self.game
        actions = game.legal_actions()
        if len(actions) == 1:
            value = self._solve(None)
            return [value] if isinstance(value, float) else None
        values = self._solve([self._code(action) for action in actions])
        return values if isinstance(values, list) else None

    def _code(self, action: int) -> int:
        """The compiled solver's code of a placement ``action`` here (tile and end; a lead: its tile)."""
        unit = self._unit
        return action // unit * 2 + action % unit if self.game.placed else -1 - action // unit

    def evaluate_answers(self, indices: Sequence[int]) -> list[Answers] | None:
        """Per root move of ``indices`` on the loaded deal: the other seat's reply and the exact value of each of
        this seat's answers to it (:class:`Answers`), where the compiled solver applies and nothing can be drawn
        any more (else ``None``).  The reply is the one that leaves this seat's best answer lowest (the other seat
        knows the deal, as in every exact search); the answer is left to the caller, who must choose it alike on
        every deal where the same reply was made (it cannot see the deal)."""
        game = self.game
        if not (self._compiled and self.exact_ok and self._closed() and game.players == 2):
            return None
        found: list[Answers] = []
        try:
            for index in indices:
                game.apply(self.actions[index])
                try:
                    found.append(self._answers())
                finally:
                    game.undo()
        except _Abort:
            self.exact_ok = False
            return None
        return found

    def _answers(self) -> Answers:
        """:meth:`evaluate_answers` of the position after a root move."""
        game = self.game
        if not game.in_hand:
            return Answers(-1, (-1,), (self.value(),))
        best: Answers | None = None
        for reply in game.legal_actions():
            game.apply(reply)
            try:
                if not game.in_hand:
                    answers = Answers(reply, (-1,), (self.value(),))
                else:
                    keys, values = [], []
                    for answer in game.legal_actions():
                        game.apply(answer)
                        try:
                            values.append(self._solved() if game.in_hand else self.value())
                        finally:
                            game.undo()
                        keys.append(answer)
                    answers = Answers(reply, tuple(keys), tuple(values))
            finally:
                game.undo()
            if best is None or max(answers.values) < max(best.values):
                best = answers
        assert best is not None
        return best

    # ------------------------------------------------------------------ exact search
    def _exact(self) -> float:
        game = self.game
        if self._compiled and game.placed:
            return self._solved()
        side = self.side
        weights = self._weights
        unit = self._unit
        give_base = self._give_base
        draw = game.draw
        plain = self._plain
        tt = self._tt if plain else None
        limit = self.nodes + EXACT_NODES
        deadline = self.deadline
        if deadline is not None and self.budget is not None and not plain:
            deadline = min(deadline, self._deal_started + self.budget * EXACT_SHARE)
        clock = _CLOCK_MASK
        value_of = self.value
        scoring = self._scoring
        placement = game.placement_points
        legal = game.legal_actions
        apply = game.apply
        undo = game.undo
        hands = game.hands  # the list is updated in place by apply/undo
        values = game.value

        def heavy(action: int) -> int:
            if action < draw:
                return -weights[action // unit]
            return -weights[action - give_base] if action >= give_base else 1

        def search(alpha: float, beta: float) -> float:
            self.nodes += 1
            if self.nodes > limit or (deadline is not None and not self.nodes & clock
                                      and time.perf_counter() > deadline):
                raise _Abort
            if not game.in_hand:
                return value_of()
            key: tuple[int, ...] | None = None
            if tt is not None:
                low_end, high_end = values[0], values[1]
                if low_end > high_end:
                    low_end, high_end = high_end, low_end
                key = (*hands, game.turn, game.passes, game.drawn, low_end, high_end)
                entry = tt.get(key)
                if entry is not None:
                    lower, upper = entry
                    if lower >= beta:
                        return lower
                    if upper <= alpha or lower == upper:
                        return upper
                    alpha = max(alpha, lower)
                    beta = min(beta, upper)
            alpha0, beta0 = alpha, beta
            actions = legal()
            if len(actions) > 1:
                if plain and game.narms == 2 and values[0] == values[1] and game.placed:
                    actions = [a for a in actions if a >= draw or a % unit == 0]
                if scoring:  # the most points first, then the heaviest tile: cut-offs come early
                    order = [(-points * _POINT + heavy(action), action)
                             for action, points in zip(actions, placement(actions), strict=True)]
                    order.sort()
                    actions = [action for _, action in order]
                else:
                    actions.sort(key=heavy)
            if game.turn in side:
                best = -_INF
                for action in actions:
                    apply(action)
                    score = search(alpha, beta)
                    undo()
                    if score > best:
                        best = score
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
            else:
                best = _INF
                for action in actions:
                    apply(action)
                    score = search(alpha, beta)
                    undo()
                    if score < best:
                        best = score
                        if score < beta:
                            beta = score
                            if alpha >= beta:
                                break
            if key is not None and tt is not None:
                lower, upper = tt.get(key, (-_INF, _INF))
                if best <= alpha0:
                    upper = best
                elif best >= beta0:
                    lower = best
                else:
                    lower = upper = best
                tt[key] = (lower, upper)
            return best

        depth = len(game._undo)
        try:
            return search(-_INF, _INF)
        except _Abort:
            while len(game._undo) > depth:
                game.undo()
            raise

    # ------------------------------------------------------------------ playouts
    def _playouts(self, rng: random.Random) -> float:
        game = self.game
        if not game.in_hand:
            return self.value()
        self.noisy = True
        total = 0.0
        seed = rng.getrandbits(64)
        if self._kernel:  # the same policy in the compiled kernel, the position left untouched
            outcome = game.finish_outcome
            defend = (1 << game.players) - 1 if self.defend and not self._pip else 0
            for end, seat, hands, scores, _ in game.greedy_finishes(self._ranks[self.doubles_first], seed,
                                                                    self.playouts, defend=defend):
                total += self._valued(*outcome(end, seat, hands, scores))
            return total / self.playouts
        # the kernel's random numbers, drawn alike (so a seed plays the same with or without it): one splitmix64
        # stream from the seed orders the stock anew for every playout after the first and breaks the ties (in PIP,
        # :meth:`.FastPip.greedy_finishes`, it seeds each playout's per-seat streams, which break them)
        mix = SplitMix(seed)
        stock = game.stock
        start = game.stock_pos
        dealt = stock[start:]
        try:
            for number in range(self.playouts):
                if number:  # the stock's order is hidden: every playout draws its own
                    mix.shuffle(stock, start)
                streams = [SplitMix(mix.next()) for _ in range(game.players)] if self._pip else None
                total += self._playout(mix, streams)
        finally:
            stock[start:] = dealt
        return total / self.playouts

    def _playout(self, mix: SplitMix, streams: Sequence[SplitMix] | None = None) -> float:
        """One greedy playout to the end of the hand, taken back afterwards: ties broken by ``mix``, or where
        ``streams`` are given (PIP) by the seat's own stream, among the tied actions in the choice order."""
        game = self.game
        unit = self._unit
        give_base = self._give_base
        draw = game.draw
        scoring = self._scoring
        legal = game.legal_actions
        apply = game.apply
        placement = game.placement_points
        # the policy's key as one int: points, then a double (doubles_first), then the tile's weight
        rank = self._ranks[self.doubles_first]
        taken = 0
        while game.in_hand:
            actions = legal()
            if len(actions) > 1:
                if scoring:  # every placement's points at once, nothing applied
                    gained = placement(actions)
                    if self.defend:
                        gained = [points - self._reply(action) if action < draw else points
                                  for action, points in zip(actions, gained, strict=True)]
                    keys = [points * _POINT + rank[action // unit] if action < draw else _DRAW_KEY
                            for action, points in zip(actions, gained, strict=True)]
                elif self.defend and not self._pip:  # a placement that leaves the next seat none, first
                    keys = [rank[action // unit] - _POINT * self._reply(action) if action < draw else _DRAW_KEY
                            for action in actions]
                else:
                    keys = [rank[action // unit] if action < draw
                            else rank[action - give_base] if action >= give_base  # a PIP give: the heaviest
                            else _DRAW_KEY for action in actions]
                best_key = max(keys)
                if keys.count(best_key) == 1:  # most choices: no tie to break, no list to build
                    action = actions[keys.index(best_key)]
                else:  # the kernel's draw among the tied actions, in the order it lists them
                    tied = [action for action, key in zip(actions, keys, strict=True) if key == best_key]
                    action = mix.pick(tied) if streams is None else streams[game.turn].pick(game.choice_order(tied))
            else:
                action = actions[0]
            apply(action)
            taken += 1
        value = self.value()
        undo = game.undo
        for _ in range(taken):
            undo()
        return value

    def _reply(self, action: int) -> int:
        """The most the next seat can score with one placement right after ``action`` (0 where the hand ends, the
        turn stays or nothing can be placed; where plays do not score, 1 if it can place a tile): what
        :attr:`defend` subtracts."""
        game = self.game
        seat = game.turn
        game.apply(action)
        try:
            if not game.in_hand or game.turn == seat:
                return 0
            replies = [reply for reply in game.legal_actions() if reply < game.draw]
            if not self._scoring:
                return 1 if replies else 0
            return max(0, *game.placement_points(replies)) if replies else 0
        finally:
            game.undo()


def _mask(tiles: Sequence[Tile]) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << tile.index
    return mask


def _pip_values(value: Callable[[Tile], int]) -> list[int]:
    """What each PIP tile counts in hand, by tile index (0 where no tile has the index)."""
    values = [0] * SPAN
    for tile in PIP_TILES:
        values[tile.index] = value(tile)
    return values


def replay_hand(view: SeatView, visit: Callable[[FastGame, int, PublicEvent], None] | None = None
                ) -> FastGame | None:
    """The current hand on a fast game: the public history replayed (hidden tiles are phantoms).

    ``visit(game, number, event)``, where given, sees the game before each event of the history is
    applied (the seats' hands are phantoms then; a visitor that changes one puts it back).  ``None``
    where the fast engine cannot follow the history."""
    rules = rules_of(view)
    history = view.history()
    draws = sum(1 for event in history if event.move.kind == Kind.DRAW)
    first = history[0].seat if history else view.turn
    game = FastGame(rules, deal=False)
    game.hand_number = max(1, view.hand_number) - 1
    dice = view.dice
    deal: list[list[int]] = [[] for _ in range(view.players)]
    if rules.name in _OPENERS:
        deal[first] = [_OPENERS[rules.name]]
    game.start_hand(deal, [_PHANTOM] * (view.stock_count + draws), first,
                    (dice.flower, dice.scorpion) if dice is not None else None)
    game.leader = game.turn = first
    game.lead_tile = -1
    # the tiles that may lead, where the lead is this decision (the replay's own leads are not checked)
    game.lead_mask = 0 if history else _mask([m.tile for m in view.legal_moves() if m.tile is not None])
    phantom = 1 << _PHANTOM
    game.hands = [phantom] * view.players  # never empty: the replay cannot end the hand
    for number, event in enumerate(history):
        if not game.in_hand or game.turn != event.seat:
            return None  # pragma: no cover - the replay follows the table
        if visit is not None:
            visit(game, number, event)
        move = event.move
        if isinstance(game, FastPip) and move.kind == Kind.GIVE and move.tile is None:
            game.apply(game.give_base + _HIDDEN_GIVE)  # a give this seat did not see
        else:
            game.apply(game.from_move(move))
    if not game.in_hand or game.turn != view.turn:
        return None  # pragma: no cover
    game.drop_history()
    game.scores = list(view.scores)
    return game
