"""The expert's objective: what a finished playout or search leaf is worth to the searching side.

One definition for both engines: the reference search values a :class:`~boneyard.state.Game` with
:meth:`Objective.value`, the fast path (:mod:`.fastsearch`) a fast game's scores and result with
:meth:`Objective.outcome`.
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.players import heuristic
from boneyard.players.expert.determinize import rules_of
from boneyard.players.expert.equity import Equity
from boneyard.state import Game
from boneyard.view import SeatView

WIN_VALUE = 1000.0  #: ending the game won (lost: minus as much)


class Objective:
    """How the searching side values a finished playout.

    The change of the score difference over the hand — own side minus the best opponent, or for a
    lowest-score game (PIP) the best opponent minus own side — plus or minus :data:`WIN_VALUE` when
    the game ends (:meth:`~boneyard.rules.base.Rules.game_winners`: a PIP win shared by equal lowest totals is
    each sharer's).

    With an ``equity`` table (:mod:`.equity`, two players) it plays for the game instead: plus or minus
    :data:`WIN_VALUE` when the game ends, else :data:`WIN_VALUE` times the chance of winning it from the score
    reached, scaled to -1 (lost) ... 1 (won)."""

    def __init__(self, view: SeatView, equity: Equity | None = None) -> None:
        self.equity = equity
        self.lowest = heuristic.lowest_score_wins(view)
        self.side = set(heuristic.side_of(view, view.seat))
        self.me = view.seat
        self.rivals = [seat for seat in range(view.players) if seat not in self.side]
        self.start = list(view.scores)
        self._winners = rules_of(view).game_winners  # (PIP's equal lowest totals share the win)

    def value(self, game: Game) -> float:
        return self.outcome(game.scores, game.finished, game.winner)

    def outcome(self, scores: Sequence[int], finished: bool, winner: int | None) -> float:
        """The value of a position with ``scores`` and, where the game is ``finished``, its ``winner``."""
        if self.equity is not None:
            if finished and winner is not None:  # (two players: a game ends with one winner)
                return WIN_VALUE if winner in self.side else -WIN_VALUE
            target = self.equity.target
            rival = max(scores[s] for s in self.rivals)
            return WIN_VALUE * (2.0 * self.equity.win(target - scores[self.me], target - rival) - 1.0)
        start = self.start
        mine = scores[self.me] - start[self.me]
        if self.lowest:
            value = float(min(scores[s] - start[s] for s in self.rivals) - mine)
        else:
            value = float(mine - max(scores[s] - start[s] for s in self.rivals))
        if finished:
            won = self._winners(winner, scores)
            if won:  # a win shared (PIP-20) is a win for each seat that shares it, as the tournaments count it
                value += WIN_VALUE if self.me in won else -WIN_VALUE
        return value
