"""The chance of winning a game from its score: what the expert values a hand's end by, where it plays for the game.

A hand's points are worth more or less than their count by where they leave the game: two points that bring a
player from 13 to 15 win it, two more at 0 to 12 change little.  :class:`Equity` turns a two-player score into
the chance of winning the game from it, before the next hand's deal, from how hands of the variant score: the
points each player makes in one hand, counted over :data:`HANDS` hands the greedy player plays against itself on
the fast engine (from a fixed seed: the table is the same on every machine), made symmetric between the two
players.  The chance is then worked out exactly over the scores still needed (:meth:`Equity.win`): a hand that
takes one player or both to the target ends the game (the higher score wins, as every variant with a target
checks at a hand's end), any other leads to the next hand.

Where a play's points depend on the score (Bergen's approach cap: a header is worth less close to the target),
the counted hands keep each play's points before that adjustment, in order, and the table applies the engine's
own adjustment (:meth:`FastGame.adjusted_points`) at the scores of each state: from 13 points a double header
brings 1, not 2.  It is still an approximation, and used as one: the hands are played from 0 to 0 (the greedy
player does not play otherwise near the target) and the lead's dependence on the previous hand is left out.
The search still plays the current hand to its end under the real rules; only a hand that leaves the game
unfinished is valued by the table.

Where it applies (:func:`game_equity`): two players, the highest score wins, and the variant is one where it was
measured to help (:data:`EQUITY_VARIANTS`; docs/players.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from typing import NamedTuple

from boneyard.fast import FastGame, unsupported
from boneyard.players.base import GreedyPlayer
from boneyard.players.expert.determinize import rules_of
from boneyard.rules.base import Rules
from boneyard.view import SeatView

#: the variants whose expert plays for the game by this table: Bergen, where it was measured to help; elsewhere
#: the hand's points count as they are (docs/players.md, session 9)
EQUITY_VARIANTS = frozenset({"bergen"})
HANDS = 2000  #: hands counted for the table (about half a second)
SEED = 9  #: the seed of the counted hands' deals
#: the target of the counted hands: out of reach, so that no play's points are adjusted to a score
UNREACHED = 1_000_000

Outcomes = Sequence[tuple[int, int, float]]  #: (first player's points, second player's, probability)


class HandPoints(NamedTuple):
    """What one counted hand brought each of the two players: the points of each of their plays, in order, before
    any adjustment to the score, and what each made at the hand's end (the winner's bonus)."""

    plays: tuple[tuple[int, ...], tuple[int, ...]]
    end: tuple[int, int]

    def total(self, player: int, score: int, adjusted: Callable[[int, int], int] | None) -> int:
        """The points the hand brings ``player`` from a score of ``score``, each play's ``adjusted`` to the score
        it is made at (``None``: as counted)."""
        reached = score
        for points in self.plays[player]:
            reached += points if adjusted is None else adjusted(points, reached)
        return reached + self.end[player] - score


class Equity:
    """The chance of winning a two-player game to ``target`` from the points each player still needs, given how
    often one hand brings the two players ``(x, y)`` points: ``outcomes`` (probabilities, symmetric), or a
    function that gives them for the points each still needs, where a hand scores differently near the target."""

    def __init__(self, target: int, outcomes: Outcomes | Callable[[int, int], Outcomes]) -> None:
        self.target = target
        self._outcomes: Callable[[int, int], Outcomes]
        if callable(outcomes):
            self._outcomes = outcomes
        else:
            fixed = tuple(outcomes)
            self._outcomes = lambda mine, theirs: fixed
        self._table: dict[tuple[int, int], float] = {}

    @classmethod
    def counted(cls, target: int, hands: Sequence[HandPoints],
                adjusted: Callable[[int, int], int] | None = None) -> Equity:
        """The table from counted hands, made symmetric between the players, each play's points ``adjusted`` to
        the score it is made at (the engine's :meth:`FastGame.adjusted_points`; ``None``: as counted)."""
        counts = Counter(hands)
        total = 2 * len(hands)

        @cache
        def brings(hand: HandPoints, player: int, need: int) -> int:
            return hand.total(player, target - need, adjusted)

        def outcomes(mine: int, theirs: int) -> Outcomes:
            tally: Counter[tuple[int, int]] = Counter()
            for hand, n in counts.items():
                tally[(brings(hand, 0, mine), brings(hand, 1, theirs))] += n
                tally[(brings(hand, 1, mine), brings(hand, 0, theirs))] += n
            return [(x, y, n / total) for (x, y), n in sorted(tally.items())]

        return cls(target, outcomes)

    def win(self, mine: int, theirs: int) -> float:
        """The chance that the player who needs ``mine`` more points wins against one who needs ``theirs``, before
        the next hand (where a player is already at the target without the game being over, the two are level)."""
        if mine <= 0 or theirs <= 0:
            return 0.5 if mine == theirs else float(mine < theirs)
        table = self._table
        if (mine, theirs) not in table:
            # every state needs the states with fewer points to go: fill them in order of the points both need
            for total in range(2, mine + theirs + 1):
                for a in range(max(1, total - theirs), min(mine, total - 1) + 1):
                    if (a, total - a) not in table:
                        table[(a, total - a)] = self._after_hand(a, total - a)
        return table[(mine, theirs)]

    def _after_hand(self, mine: int, theirs: int) -> float:
        outcomes = self._outcomes(mine, theirs)
        still = sum(p for x, y, p in outcomes if x <= 0 and y <= 0)  # a hand that changes nothing is dealt again
        chance = 0.0
        table = self._table
        for x, y, p in outcomes:
            if x <= 0 and y <= 0:
                continue
            if x >= mine or y >= theirs:  # the game ends: the higher score wins, a tie plays on (level)
                over = (x - mine) - (y - theirs)
                chance += p * (1.0 if over > 0 else 0.0 if over < 0 else 0.5)
            else:
                chance += p * table[(mine - x, theirs - y)]
        return chance / (1.0 - still)


_TABLES: dict[tuple[str, int, str], Equity | None] = {}


def game_equity(view: SeatView) -> Equity | None:
    """The equity table of ``view``'s game, where the expert plays for the game (see the module docstring), counted
    once per rules and kept; else ``None``."""
    rules = rules_of(view)
    if rules.name not in EQUITY_VARIANTS or rules.players != 2 or rules.lower_score_wins:
        return None
    key = (rules.name, rules.players, repr(rules.options))  # (the options are a dataclass: its repr has them all)
    if key not in _TABLES:  # once per rules: options the fast engine does not play get none
        _TABLES[key] = (None if unsupported(rules) else
                        Equity.counted(int(rules.target), hand_points(rules),  # type: ignore[attr-defined]
                                       FastGame(rules, deal=False).adjusted_points))
    return _TABLES[key]


def hand_points(rules: Rules, hands: int = HANDS) -> list[HandPoints]:
    """What each of two greedy players makes in ``hands`` hands of ``rules`` from 0 to 0 (the first hand of a game,
    dealt from :data:`SEED` on), with the target out of reach so that each play's points are as the play made
    them, before any adjustment to the score."""
    counting = type(rules)(rules.players, replace(rules.options, target=UNREACHED))
    player = GreedyPlayer()
    counted = []
    for number in range(hands):
        game = FastGame(counting, seed=SEED * 100_003 + number)
        plays: tuple[list[int], list[int]] = ([], [])
        while game.in_hand:
            seat = game.turn
            points = game.apply(player.choose_action(game))
            if points:
                plays[seat].append(points)
        end = (game.scores[0] - sum(plays[0]), game.scores[1] - sum(plays[1]))
        counted.append(HandPoints((tuple(plays[0]), tuple(plays[1])), end))
    return counted
