"""The expert's per-deal evaluation on the fast engine (line games: Block, Draw, All Fives, Bergen, F&S).

When :func:`boneyard.fast.unsupported` accepts the variant and its options, :class:`FastRoot`
rebuilds the current position once per decision on a :class:`~boneyard.fast.FastGame` (the
public history replayed move by move, hidden tiles left out), checks that it offers exactly
the view's legal moves, and then, for every sampled deal, only swaps in the sampled hands and
stock.  Each root move is then valued on that deal:

* **exactly** when nothing can be drawn any more (no stock, or the stock is down to the
  reserve) and at most :data:`EXACT_TILES` tiles remain in all hands — for two-player Block
  that is the whole hand from the first move.  The search is alpha-beta with the searching
  side maximising and every other seat minimising (paranoid) the same objective as the
  playouts; heaviest tiles are tried first, a play on either of two equal line ends is
  searched once, and games without in-hand scoring (Block, Draw) share a transposition table
  across the root moves of one deal.  A search that passes :data:`EXACT_NODES` nodes is given
  up and the decision falls back to playouts for its remaining deals.
* otherwise by :data:`PLAYOUTS` greedy playouts (best immediate score, then a double before any
  other tile — ``doubles_first`` — then the heaviest tile, ties at random), each on its own random
  order of the hidden stock.

The value is the reference search's objective (:class:`~.search.Objective`), plus
:data:`HAND_WIN` for winning the hand in Block and Draw.  Every search and playout ends with the
position taken back by ``undo``: nothing is copied.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from boneyard.errors import BoneyardError
from boneyard.fast import FastGame, unsupported
from boneyard.moves import Kind, Move
from boneyard.players.expert.determinize import rules_of
from boneyard.tiles import Tile
from boneyard.view import SeatView

WIN_VALUE = 1000.0
EXACT_TILES = 16  #: tiles left in all hands at most for the exact search (two-player Block: the whole hand)
EXACT_NODES = 60_000  #: node limit of one exact search (beyond it this decision uses playouts)
#: bonus for winning the hand in games without in-hand scoring (Block, Draw), where the hand's
#: points all go to its winner: the search plays first for the hand, then for its margin
HAND_WIN = 100.0
PLAYOUTS = 2  #: greedy playouts per root move and deal when the exact search does not apply
_PHANTOM = 255  #: a tile index outside every set: the stand-in for hidden tiles during the replay
_INF = float("inf")


class _Abort(Exception):
    """The exact search went past its node limit."""


class FastRoot:
    """The decision's position on the fast engine; values root moves on sampled deals."""

    def __init__(self, game: FastGame, me: int, side: Sequence[int], start: Sequence[int],
                 actions: list[int]) -> None:
        self.game = game
        self.me = me
        self.side = frozenset(side)
        self.rivals = [seat for seat in range(game.players) if seat not in self.side]
        self.start = list(start)
        self.actions = actions
        self.root_pos = game.stock_pos
        self.exact_ok = True  #: cleared when an exact search runs past its node limit
        self.nodes = 0  #: nodes of the exact searches so far (for measurements)
        self.noisy = False  #: set once a root move was valued by playouts rather than exactly
        #: the playout policy: after the points, a double before any other tile (else only the heaviest)
        self.doubles_first = True
        self._tt: dict[tuple[int, ...], tuple[float, float]] = {}
        rules = game.rules
        self._no_draw = rules.draw_mode == "none"
        self._reserve = rules.reserve
        scoring = game.scores_during_hand
        self._scoring = scoring
        self._hand_win = not scoring
        self._plain = not scoring and game.spinner_mode == 0  # no in-hand points, two line ends: a table

    @classmethod
    def build(cls, view: SeatView, moves: Sequence[Move], side: Sequence[int]) -> FastRoot | None:
        """The position of ``view`` on the fast engine, or ``None`` where it does not apply."""
        rules = rules_of(view)
        if unsupported(rules) or rules.lower_score_wins:
            return None
        try:
            game = _replay(view)
        except (BoneyardError, IndexError, ValueError):  # pragma: no cover - a safety net, never seen
            return None
        if game is None:
            return None
        game.hands[view.seat] = _mask(view.hand)
        legal = {game.to_move(action) for action in game.legal_actions()}
        if legal != set(view.legal_moves()):  # pragma: no cover - the fast engine's tests rule this out
            return None
        actions = [game.from_move(move) for move in moves]
        return cls(game, view.seat, side, view.scores, actions)

    # ------------------------------------------------------------------ one deal
    def load(self, hands: Sequence[Sequence[Tile]], stock: Sequence[Tile]) -> None:
        """Put a sampled deal (every seat's hand, the stock in draw order) in place."""
        game = self.game
        game.hands = [_mask(hand) for hand in hands]
        del game.stock[self.root_pos:]
        game.stock.extend(tile.index for tile in stock)
        self._tt.clear()

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
        """The objective of the current (finished) position: own score change minus the best rival's."""
        game = self.game
        scores = game.scores
        start = self.start
        value = float(scores[self.me] - start[self.me] - max(scores[s] - start[s] for s in self.rivals))
        if self._hand_win and not game.in_hand and game.last_winner is not None:
            value += HAND_WIN if game.last_winner in self.side else -HAND_WIN
        if game.finished and game.winner is not None:
            value += WIN_VALUE if game.winner in self.side else -WIN_VALUE
        return value

    # ------------------------------------------------------------------ exact search
    def _exact(self) -> float:
        game = self.game
        side = self.side
        pips = game.t.pips
        arms = game.arms
        draw = game.draw
        tt = self._tt if self._plain else None
        limit = self.nodes + EXACT_NODES
        value_of = self.value
        legal = game.legal_actions
        apply = game.apply
        undo = game.undo
        hands = game.hands  # the list is updated in place by apply/undo
        values = game.value

        def heavy(action: int) -> int:
            return -pips[action // arms] if action < draw else 1

        def search(alpha: float, beta: float) -> float:
            self.nodes += 1
            if self.nodes > limit:
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
                if game.narms == 2 and values[0] == values[1] and game.placed and not self._scoring:
                    actions = [a for a in actions if a >= draw or a % arms == 0]
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
        hidden = game.stock[game.stock_pos:]
        for number in range(PLAYOUTS):
            if number and len(hidden) > 1:  # the stock's order is hidden: every playout draws its own
                rng.shuffle(hidden)
                game.stock[game.stock_pos:] = hidden
            total += self._playout(rng)
        return total / PLAYOUTS

    def _playout(self, rng: random.Random) -> float:
        """One greedy playout to the end of the hand, taken back afterwards."""
        game = self.game
        pips = game.t.pips
        arms = game.arms
        draw = game.draw
        scoring = self._scoring
        legal = game.legal_actions
        apply = game.apply
        undo = game.undo
        no_doubles = [False] * len(game.t.is_double)
        doubles = game.t.is_double if self.doubles_first else no_doubles
        taken = 0
        while game.in_hand:
            actions = legal()
            if len(actions) > 1:
                best: list[int] = []
                best_key = (-_INF, 0, 0)
                for action in actions:
                    if action >= draw:
                        key: tuple[float, int, int] = (-10_000.0, 0, 0)
                    else:
                        points = 0
                        if scoring:
                            points = apply(action)
                            undo()
                        tile = action // arms
                        key = (float(points), doubles[tile], pips[tile])
                    if key > best_key:
                        best, best_key = [action], key
                    elif key == best_key:
                        best.append(action)
                action = best[0] if len(best) == 1 else rng.choice(best)
            else:
                action = actions[0]
            apply(action)
            taken += 1
        value = self.value()
        for _ in range(taken):
            undo()
        return value


def _mask(tiles: Sequence[Tile]) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << tile.index
    return mask


def _replay(view: SeatView) -> FastGame | None:
    """The current hand on a fast game: the public history replayed (hidden tiles are phantoms)."""
    rules = rules_of(view)
    history = view.history()
    draws = sum(1 for event in history if event.move.kind == Kind.DRAW)
    first = history[0].seat if history else view.turn
    game = FastGame(rules, deal=False)
    game.hand_number = max(1, view.hand_number) - 1
    dice = view.dice
    game.start_hand([[] for _ in range(view.players)], [_PHANTOM] * (view.stock_count + draws), first,
                    (dice.flower, dice.scorpion) if dice is not None else None)
    game.leader = game.turn = first
    game.lead_tile = -1
    phantom = 1 << _PHANTOM
    game.hands = [phantom] * view.players  # never empty: the replay cannot end the hand
    for event in history:
        if not game.in_hand or game.turn != event.seat:
            return None  # pragma: no cover - the replay follows the table
        game.apply(game.from_move(event.move))
    if not game.in_hand or game.turn != view.turn:
        return None  # pragma: no cover
    game.drop_history()
    game.scores = list(view.scores)
    return game
