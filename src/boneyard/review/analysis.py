"""The review's analysis: every decision of a seat valued from what that seat could see then.

A record is replayed move by move.  At each turn of a reviewed seat with more than one legal move
(a *decision*; forced moves are counted and skipped) the seat's :class:`~boneyard.view.SeatView`
is built from the replayed game, and the expert's machinery values **every** legal move on the
same sampled deals: :func:`~boneyard.players.expert.inference.infer` and
:func:`~boneyard.players.expert.sampling.sample_deal` draw hidden hands and a stock order
consistent with the view, and each move is played out on every deal — on the fast engine where
:class:`~boneyard.players.expert.fastsearch.FastRoot` applies (exact alpha-beta once nothing can
be drawn, greedy playouts before: every line game), on the reference game otherwise (PIP).  Nothing hidden is read: a
decision's samples are seeded from the review's seed, the hand and the move number only, so two
records that the seat cannot tell apart get the same review (``tests/test_review.py`` proves it).

Values are the variant's own: the expected net points of the hand for the seat (or its side) —
own score change over the hand minus the best opponent's, or the reverse in a lowest-score game
(PIP).  Where some deal ends the game during this hand, each move also gets its win rate, and
the moves are then compared by it (a point is worth little next to the game).

Every move is compared with the best one deal by deal: the paired difference has a mean (the
*loss*) and a 95% interval.  A move whose interval reaches zero is within the noise and is
marked ``best``; otherwise :data:`THRESHOLDS` (per variant, documented in ``docs/review.md``) grade
the loss as ``inaccuracy``, ``mistake`` or ``blunder``.

**Words**: a move marked worse than best gets one sentence saying why (:func:`explain`, :func:`reason`): the
one or two facts that set the best move most apart from it.  They come from the public table and from the
decision's own sampled deals, never from the record's hidden tiles: the first :data:`KEPT_DEALS` deals are
kept, and each of the two moves is made on them to see what it leaves right after it (:class:`After`: the
open ends, whether the next opponent, the partner and the seat itself can follow them, what the next
opponent can score in reply, whether the table is blocked).

**Open hands** (hindsight, double-dummy): the exact value of the position after the move played,
every hand and the stock order known, solved by the fast engine's alpha-beta where it is
affordable (at most :data:`OPEN_TILES` tiles in hands and stock, within the search's node limit);
elsewhere it is omitted and the review says so.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from boneyard import __version__, record
from boneyard.errors import BoneyardError, OptionError, RecordError
from boneyard.moves import Kind, Move
from boneyard.players import heuristic
from boneyard.players.expert.determinize import determinize, replay_public, rules_of, start_scores
from boneyard.players.expert.fastsearch import FastRoot
from boneyard.players.expert.hint import suit_name
from boneyard.players.expert.inference import Inference, infer
from boneyard.players.expert.sampling import sample_deal
from boneyard.players.expert.search import (
    DEFAULT_TIME,
    MAX_SAMPLES,
    MAX_TIME,
    Endgame,
    Objective,
    playout,
    small_endgame,
)
from boneyard.state import Game
from boneyard.tiles import MAX_PIPS, Tile
from boneyard.view import PublicEvent, SeatView

#: a won game in the review's objective: far above any hand's points, so it is decoded back out
GAME = 1e8
#: a deal's game result may be an average over a few playouts: a multiple of 1/n for any n dividing this
_RESULT_GRID = 840
Z95 = 1.959964
MIN_SAMPLES = 2  #: deals at least per decision, whatever the clock says (an interval needs two)
OPEN_TILES = 16  #: tiles in all hands and the stock at most for the open-hands solution
KEPT_DEALS = 1000  #: the first deals of a decision kept to say what a move leaves right after it (the words)
MARKS = ("best", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The loss at which a move becomes an inaccuracy, a mistake, a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, loss: float) -> str:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return "best"


#: expected points of the hand lost, per variant (see docs/review.md for the reasoning)
THRESHOLDS = {
    "block": Thresholds(3.0, 8.0, 15.0),
    "draw": Thresholds(3.0, 8.0, 15.0),
    "all-fives": Thresholds(3.0, 7.0, 15.0),
    "bergen": Thresholds(0.3, 0.7, 1.5),
    "double-bergen": Thresholds(2.0, 5.0, 10.0),
    "flower-scorpion": Thresholds(0.5, 1.0, 2.0),
    "pip": Thresholds(5.0, 12.0, 25.0),
}
#: win probability lost (half the expected game result lost: won 1, lost -1), where the game may end this hand
WIN_THRESHOLDS = Thresholds(0.05, 0.10, 0.20)


# ---------------------------------------------------------------------------- the objective
def net_points(scores: Sequence[int], start: Sequence[int], me: int, rivals: Sequence[int], lowest: bool) -> float:
    """The seat's score change since ``start`` minus the best rival's (the reverse where the lowest wins)."""
    delta = [now - before for now, before in zip(scores, start, strict=True)]
    rival = (min if lowest else max)(delta[s] for s in rivals)
    return float(rival - delta[me] if lowest else delta[me] - rival)


def _game_result(finished: bool, winner: int | None, side: Collection[int]) -> float:
    if not finished or winner is None:
        return 0.0
    return GAME if winner in side else -GAME


class _ReviewObjective(Objective):
    """The expert's objective on the reference game, with :data:`GAME` for the game's result."""

    def value(self, game: Game) -> float:
        return (net_points(game.scores, self.start, self.me, self.rivals, self.lowest)
                + _game_result(game.finished, game.winner, self.side))


class _ReviewRoot(FastRoot):
    """The expert's fast-engine position, valued in points plus :data:`GAME` (no hand-win bonus)."""

    def value(self) -> float:
        game = self.game
        return (net_points(game.scores, self.start, self.me, self.rivals, False)
                + _game_result(game.finished, game.winner, self.side))


class _OpenRoot(_ReviewRoot):
    """Every tile known, the stock's order too: the exact search may run through the draws."""

    def _closed(self) -> bool:
        game = self.game
        return super()._closed() or sum(hand.bit_count() for hand in game.hands) + game.stock_left <= OPEN_TILES

    def load(self, hands: Sequence[Sequence[Tile]], stock: Sequence[Tile]) -> None:
        super().load(hands, stock)
        if stock:
            self._plain = False  # the transposition key leaves out the stock's position


def _split(value: float) -> tuple[float, float]:
    """A value of the review's objective as (net points, game result: 1 won, -1 lost, 0 going on).

    Where a deal's value is the mean of several playouts the result is their mean too."""
    result = round(value / GAME * _RESULT_GRID) / _RESULT_GRID
    return value - result * GAME, result


# ---------------------------------------------------------------------------- one decision
class Seen(NamedTuple):
    """What one move leaves right after it on one sampled deal."""

    ends: tuple[int, ...]  #: the numbers on the open ends (wild and letter ends left out), smallest first
    next_seat: int | None  #: the opponent on turn next (None: the hand is over, or your side plays next)
    follows: bool  #: that opponent can place a tile
    reply: int  #: the most that opponent can score with that tile (0 at least)
    partner: bool  #: your partner (partnerships) holds a tile that fits the table
    mine: bool  #: you still hold a tile that fits the table
    stuck: bool  #: no tile in a hand or still to be drawn fits the table: the hand can only end blocked


@dataclass(slots=True)
class After:
    """What a move leaves right after it, over the sampled deals: the open ends and who can follow them.

    The table is public, so the ends, who is on turn and what the seat itself holds are the same on every
    deal (they are kept from the first); who else holds what is per deal."""

    ends: tuple[int, ...] = ()
    next_seat: int | None = None
    mine: bool = False
    follows: list[bool] = field(default_factory=list)  #: [deal], see :class:`Seen`
    reply: list[int] = field(default_factory=list)
    partner: list[bool] = field(default_factory=list)
    stuck: list[bool] = field(default_factory=list)

    def add(self, seen: Seen) -> None:
        if not self.follows:
            self.ends, self.next_seat, self.mine = seen.ends, seen.next_seat, seen.mine
        self.follows.append(seen.follows)
        self.reply.append(seen.reply)
        self.partner.append(seen.partner)
        self.stuck.append(seen.stuck)


def share(row: Sequence[bool | int | float]) -> float:
    """The share of the deals in which ``row`` is true (above 0)."""
    return sum(1 for x in row if x > 0) / len(row) if row else 0.0


Deal = tuple[list[list[Tile]], list[Tile]]  #: every seat's hand (in seat order) and the stock (in draw order)


@dataclass(slots=True)
class Estimate:
    """Every legal move's values on the same sampled deals."""

    moves: list[Move]
    banked: float  #: net points this hand has already brought the seat (public)
    points: list[list[float]]  #: [move][deal]: net points from now to the end of the hand
    results: list[list[float]]  #: [move][deal]: 1 game won, -1 game lost, 0 the game goes on (means)
    exact: bool = True  #: every deal's value was solved, none played out
    public: Game | None = None  #: the public replay the deals were dealt onto (None: the deals are not kept)
    deals: list[Deal] = field(default_factory=list)  #: the first :data:`KEPT_DEALS` deals, in the order of the values
    _after: dict[int, After] = field(default_factory=dict, init=False, repr=False, compare=False)

    def after(self, index: int) -> After | None:
        """What ``moves[index]`` leaves right after it on each kept deal (the first of :attr:`points`' deals),
        worked out when first asked, since only the moves a comment compares need it; ``None`` where no deal
        was kept."""
        public = self.public
        if public is None or not self.deals:
            return None
        known = self._after.get(index)
        if known is None:
            known = After()
            side = public.rules.score_seats(public.turn)
            for hands, stock in self.deals:
                known.add(look(determinize(public, hands, stock), self.moves[index], side))
            self._after[index] = known
        return known

    @property
    def samples(self) -> int:
        return len(self.points[0]) if self.points else 0

    @property
    def game_may_end(self) -> bool:
        return any(any(row) for row in self.results)

    def value(self, index: int) -> float:
        """Expected net points of the hand for ``moves[index]`` (what was banked plus what is to come)."""
        row = self.points[index]
        return self.banked + sum(row) / len(row)

    def win_rate(self, index: int) -> float:
        """The share of the deals in which the move wins the game."""
        row = self.results[index]
        return sum(max(0.0, r) for r in row) / len(row)

    def game_result(self, index: int) -> float:
        """The expected game result: won minus lost, over the deals."""
        row = self.results[index]
        return sum(row) / len(row)

    def criterion(self, index: int) -> list[float]:
        """Per deal, what moves are compared by: the game result where it may end, else the points."""
        return self.results[index] if self.game_may_end else self.points[index]

    def best(self) -> int:
        """The move with the highest mean points (ties: first listed); where the game may end, the move with the
        best game result instead, if it is better than that one beyond the noise (a result that differs by a
        deal or two in hundreds says nothing, and the points then decide)."""
        moves = range(len(self.moves))
        by_points = max(moves, key=lambda i: (round(self.value(i), 9), -i))
        if not self.game_may_end:
            return by_points
        by_game = max(moves, key=lambda i: (round(self.game_result(i), 9), round(self.value(i), 9), -i))
        if by_game != by_points and self.paired(by_game, by_points)[1] > 0:
            return by_game
        return by_points

    def ties(self, one: int, other: int) -> bool:
        """Whether two moves are worth the same on these deals: the same mean points, and the same game result
        where the game may end (e.g. one tile on either of two equal ends)."""
        same = round(self.value(one), 9) == round(self.value(other), 9)
        return same and (not self.game_may_end or round(self.game_result(one), 9) == round(self.game_result(other), 9))

    def paired(self, better: int, worse: int, *, points: bool = False) -> tuple[float, float, float]:
        """Mean and 95% interval of ``better - worse`` deal by deal (points, or the criterion)."""
        a = self.points[better] if points else self.criterion(better)
        b = self.points[worse] if points else self.criterion(worse)
        return paired_interval([x - y for x, y in zip(a, b, strict=True)])


def paired_interval(diffs: Sequence[float]) -> tuple[float, float, float]:
    """Mean of paired differences and its 95% interval (normal approximation)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, -math.inf, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def estimate(view: SeatView, rng: random.Random, *, seconds: float = DEFAULT_TIME,
             samples: int | None = None) -> Estimate:
    """Value every legal move of ``view`` on sampled deals (exactly ``samples``, or for ``seconds``)."""
    moves = view.legal_moves()
    if not moves:
        raise ValueError(f"seat {view.seat} has no move: it is not its turn")
    info = infer(view)
    objective = _ReviewObjective(view)
    root = _ReviewRoot.build(view, moves, sorted(objective.side))
    result = Estimate(moves, _banked(view, objective), [[] for _ in moves], [[] for _ in moves],
                      public=info.public)
    deadline = None if samples is not None else time.perf_counter() + seconds
    while True:
        count = result.samples
        if samples is not None and count >= samples:
            break
        late = deadline if count >= MIN_SAMPLES else None
        if late is not None and time.perf_counter() >= late:
            break
        if not _add_deal(result, view, info, objective, root, rng, late):
            break
    if root is not None and root.noisy:
        result.exact = False
    return result


def _banked(view: SeatView, objective: Objective) -> float:
    """The net points the hand has brought so far (public: the scores now and at the hand's start)."""
    return net_points(view.scores, start_scores(view, rules_of(view)), view.seat, objective.rivals, objective.lowest)


def _add_deal(result: Estimate, view: SeatView, info: Inference, objective: _ReviewObjective,
              root: FastRoot | None, rng: random.Random, deadline: float | None) -> bool:
    """Value every move on one more sampled deal; a deal the ``deadline`` cuts short is left out (``False``),
    so every move keeps the same deals and the comparisons stay paired."""
    hands, stock = sample_deal(info, rng)
    seed = rng.getrandbits(32)
    if root is not None:
        root.load(hands, stock)
    values: list[float] = []
    exact = True
    for move_index, move in enumerate(result.moves):
        if deadline is not None and time.perf_counter() >= deadline:
            return False
        if root is not None:
            value = root.evaluate(move_index, random.Random(seed))
        else:
            game = determinize(info.public, hands, stock)
            game.apply(move)
            value, solved = _reference_value(game, objective, random.Random(seed))
            exact &= solved
        values.append(value)
    result.exact &= exact
    for index, value in enumerate(values):
        points, outcome = _split(value)
        result.points[index].append(points)
        result.results[index].append(outcome)
    if len(result.deals) < KEPT_DEALS:  # what a move leaves is read off them (:meth:`Estimate.after`)
        result.deals.append((hands, stock))
    return True


def look(table: Game, move: Move, side: Collection[int]) -> Seen:
    """What ``move`` leaves right after it on ``table`` (a sampled deal, the seat on turn): the move is made
    and taken back.  Who can follow is asked of the variant's own plays, so wild halves and targets count."""
    me = table.turn
    table.apply(move)
    try:
        ends = tuple(sorted(face.value for face in table.layout.open_ends() if face.value <= MAX_PIPS))
        if not table.in_hand:
            result = table.hand.result
            return Seen(ends, None, False, 0, False, False, result is not None and result.end == "blocked")
        hands = table.hands
        fits = [bool(table.plays(hand)) for hand in hands]
        partner = next((seat for seat in sorted(side) if seat != me), None)
        turn = table.turn
        rival = None if turn in side else turn
        reply = 0
        if rival is not None and fits[rival]:
            reply = max(0, max(table.play_points(play)[1] for play in table.plays(hands[rival])))
        left = table.stock_left
        drawable = table.stock[table.stock_pos:len(table.stock) - table.rules.never_drawn(left)]
        stuck = not any(fits) and not table.plays(drawable)
        return Seen(ends, rival, rival is not None and fits[rival], reply, partner is not None and fits[partner],
                    fits[me], stuck)
    finally:
        table.undo()


def _reference_value(game: Game, objective: Objective, rng: random.Random) -> tuple[float, bool]:
    """A determinized game after the move: solved when small enough, else one greedy playout."""
    if game.in_hand and not game.finished and small_endgame(game):
        exact = Endgame(objective).search(game, -math.inf, math.inf)
        if exact is not None:
            return exact, True
    solved = not game.in_hand or game.finished
    playout(game, rng)
    return objective.value(game), solved


def open_hands(game: Game, view: SeatView, move: Move) -> float | None:
    """The exact net points of the hand after ``move`` with every hand and the stock order known
    (hindsight), or ``None`` where it is not affordable."""
    objective = _ReviewObjective(view)
    stock = list(game.stock[game.stock_pos:])
    hands = [list(hand) for hand in game.hands]
    root = _OpenRoot.build(view, [move], sorted(objective.side))
    if root is not None:
        root.load(hands, stock)
        value = root.evaluate(0, random.Random(0))
        if root.noisy:
            return None
    else:
        position = determinize(infer(view).public, hands, stock)
        position.apply(move)
        if position.in_hand and not position.finished:
            if not small_endgame(position):
                return None
            solved = Endgame(objective).search(position, -math.inf, math.inf)
            if solved is None:
                return None
            value = solved
        else:
            value = objective.value(position)
    points, _ = _split(value)
    return _banked(view, objective) + points


# ---------------------------------------------------------------------------- the review
@dataclass(slots=True)
class MoveValue:
    move: Move
    value: float  #: expected net points of the hand
    win: float | None  #: win rate of the game, where it may end this hand


@dataclass(slots=True)
class Decision:
    """One reviewed decision."""

    hand: int  #: 1-based
    number: int  #: the move's number in the hand, 1-based (as in the record and the replay)
    seat: int
    played: Move
    best: Move
    values: list[MoveValue]
    value: float
    best_value: float
    loss: float  #: expected net points lost (best minus played)
    interval: tuple[float, float]  #: 95% interval of that loss (paired over the deals)
    mark: str
    samples: int
    exact: bool
    win: float | None = None  #: win rate of the move played, where the game may end
    best_win: float | None = None
    open_hands: float | None = None  #: hindsight; None where not affordable
    by_game: bool = False  #: marked by the game's result lost (the game may end this hand), not by points
    comment: str = ""

    def annotation(self, by: str) -> dict[str, Any]:
        """This decision as a record annotation (RECORD.md)."""
        note: dict[str, Any] = {
            "value": round(self.value, 2), "best": str(self.best), "best_value": round(self.best_value, 2),
            "interval": [round(self.interval[0], 2), round(self.interval[1], 2)], "mark": self.mark,
        }
        if self.open_hands is not None:
            note["open_hands"] = round(self.open_hands, 2)
        if self.comment:
            note["comment"] = self.comment
        note["by"] = by
        return note


@dataclass(slots=True)
class SeatSummary:
    seat: int
    name: str
    decisions: int = 0
    forced: int = 0
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))
    points_lost: float = 0.0  #: over the moves marked worse than best (noise counts as nothing)
    costliest: list[Decision] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        """The share of decisions marked best (no move surely better)."""
        return self.marks["best"] / self.decisions if self.decisions else 1.0


@dataclass(slots=True)
class Review:
    variant: str
    names: list[str]
    seats: list[int]
    by: str
    decisions: list[Decision]
    summaries: list[SeatSummary]
    open_hands_note: str = ""
    seconds: float = 0.0

    def annotations(self) -> dict[tuple[int, int], dict[str, Any]]:
        """(hand, move number) → annotation, for every reviewed decision."""
        return {(d.hand, d.number): d.annotation(self.by) for d in self.decisions}


def check_budget(seconds: float, samples: int | None, *, time_name: str = "time=",
                 samples_name: str = "samples=") -> None:
    """Refuse a review budget no search can spend: ``seconds`` per decision above 0 and at most
    :data:`~boneyard.players.expert.search.MAX_TIME`, ``samples`` (where given) a whole number of deals from
    :data:`MIN_SAMPLES` (an interval needs two) to ``MAX_SAMPLES``.  The names are how the caller's user wrote
    them (``--time`` on the command line)."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_TIME:
        raise OptionError(f"{time_name}{seconds!r}: the seconds per decision must be above 0 and at most {MAX_TIME}")
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int)
                                or not MIN_SAMPLES <= samples <= MAX_SAMPLES):
        raise OptionError(f"{samples_name}{samples!r}: from {MIN_SAMPLES} deals per decision (an interval needs "
                          f"two) to {MAX_SAMPLES:,}")


@dataclass(frozen=True, slots=True)
class Settings:
    """A review's budget: ``seconds`` of search per decision, or ``samples`` deals (reproducible with ``seed``);
    ``open_hands`` adds the hindsight solution.  A budget no search can spend is refused here, for every caller."""

    seconds: float = DEFAULT_TIME
    samples: int | None = None
    seed: int = 0
    open_hands: bool = True

    def __post_init__(self) -> None:
        check_budget(self.seconds, self.samples)

    @property
    def by(self) -> str:
        budget = f"samples={self.samples} seed={self.seed}" if self.samples is not None else f"time={self.seconds:g}"
        return f"boneyard {__version__} review expert:{budget}"


def positions(data: dict[str, Any]) -> Iterator[tuple[Game, int, int, Move]]:
    """Every move of a record with the game as it stood before it: (game, hand, move number, move).

    The whole record is replayed first, so a bad record fails before any work is done."""
    final = record.replay(data)
    game = Game(final.rules, final.names)
    for log in final.log:
        game.start_hand(log.setup)
        for number, event in enumerate(log.events, 1):
            yield game, log.number, number, event.move
            game.apply(event.move)


def review(data: dict[str, Any], seats: Sequence[int] | None = None, settings: Settings = Settings(),
           *, hands: Sequence[int] | None = None) -> Review:
    """Review the decisions of ``seats`` (every seat when ``None``) in the record ``data``.

    ``hands`` (1-based numbers) limits the review to those hands."""
    started = time.perf_counter()
    final_names: list[str] = []
    decisions: list[Decision] = []
    summaries: dict[int, SeatSummary] = {}
    variant = ""
    open_seen = open_missing = 0
    for game, hand, number, move in positions(data):
        if not final_names:
            final_names = list(game.names)
            variant = game.rules.name
            chosen = list(range(game.players)) if seats is None else list(seats)
            for seat in chosen:
                if not 0 <= seat < game.players:
                    raise BoneyardError(f"--seat {seat}: the game has seats 0-{game.players - 1}")
            summaries = {seat: SeatSummary(seat, game.names[seat]) for seat in chosen}
        seat = game.turn
        if seat not in summaries or (hands is not None and hand not in hands):
            continue
        view = SeatView(game, seat)
        if len(view.legal_moves()) <= 1:
            summaries[seat].forced += 1
            continue
        decision = judge(view, hand, number, move, settings)
        if settings.open_hands:
            decision.open_hands = open_hands(game, view, move)
            open_seen += 1
            open_missing += decision.open_hands is None
        decisions.append(decision)
    if not final_names:
        raise RecordError("the record has no moves to review")
    for decision in decisions:
        summary = summaries[decision.seat]
        summary.decisions += 1
        summary.marks[decision.mark] += 1
        if decision.mark != "best":
            summary.points_lost += max(0.0, decision.loss)
    for summary in summaries.values():
        costly = [d for d in decisions if d.seat == summary.seat and d.mark != "best"]
        costly.sort(key=lambda d: (-_severity(d), -d.loss))
        summary.costliest = costly[:3]
    note = ""
    if open_missing:
        note = (f"open hands (hindsight) solved for {open_seen - open_missing} of {open_seen} decisions; "
                f"the others have more than {OPEN_TILES} tiles in hands and stock or run past the node limit")
    return Review(variant, final_names, list(summaries), settings.by, decisions, list(summaries.values()), note,
                  time.perf_counter() - started)


def _severity(decision: Decision) -> int:
    return MARKS.index(decision.mark)


def judge(view: SeatView, hand: int, number: int, played: Move, settings: Settings = Settings()) -> Decision:
    """Review one decision: ``played`` from ``view`` (the seat's view before the move)."""
    rng = random.Random(f"{settings.seed}/{hand}/{number}")
    est = estimate(view, rng, seconds=settings.seconds, samples=settings.samples)
    best = est.best()
    mine = est.moves.index(played)
    if est.ties(mine, best):  # the move played is as good as the best on these deals: it is a best move
        best = mine
    ending = est.game_may_end
    loss, low, high = est.paired(best, mine, points=True)
    mark = "best"
    by_game = False
    if best != mine and ending and est.paired(best, mine)[1] > 0:
        mark = WIN_THRESHOLDS.mark((est.game_result(best) - est.game_result(mine)) / 2)
        by_game = mark != "best"
    if best != mine and mark == "best" and low > 0:  # beyond the noise in points (or in the game, above)
        mark = THRESHOLDS.get(view.variant, THRESHOLDS["draw"]).mark(loss)
    values = [MoveValue(m, est.value(i), est.win_rate(i) if ending else None) for i, m in enumerate(est.moves)]
    decision = Decision(
        hand, number, view.seat, played, est.moves[best], values, est.value(mine), est.value(best), loss,
        (low, high), mark, est.samples, est.exact,
        win=est.win_rate(mine) if ending else None, best_win=est.win_rate(best) if ending else None,
        by_game=by_game)
    decision.comment = explain(view, decision, est)
    return decision


# ---------------------------------------------------------------------------- words
#: the least weight (0-1: how far a fact sets the best move apart from the one played) of a fact worth saying
TELLING = 0.15
#: the least weight of a second fact said beside the first (it must also weigh half the first at least)
SECOND = 0.3
#: the variants whose points all come at the end of a hand: there the net points of its rest say who wins it
_HAND_END_POINTS = frozenset({"block", "draw"})


def explain(view: SeatView, decision: Decision, est: Estimate | None = None) -> str:
    """Why the best move was better than the one played, in a few words ("" when it was the best)."""
    played, best = decision.played, decision.best
    if played == best:
        return ""
    if decision.mark == "best" and decision.interval[0] > 0:
        return f"{best} was {decision.loss:.1f} points better, too little to call {played} an inaccuracy"
    if decision.mark == "best":
        return f"within the noise of {best} ({decision.loss:+.1f} points, interval {span(decision.interval)})"
    if decision.by_game and est is not None:  # marked by the game's result: its cost is said so, not in points
        a, b = est.moves.index(best), est.moves.index(played)
        lost = (est.game_result(a) - est.game_result(b)) / 2
        game = _game_words(est, best, played)
        said = facts(view, best, played, est, decision.loss)
        if said and said[0].weight >= SECOND and ";" not in game:  # and why, where it is short enough to add
            game += f"; {said[0].words}"
        return f"{played} cost {lost:.0%} of a game won: {game}"
    why = reason(view, best, played, est, decision.loss) or f"{best} does better in the sampled deals"
    return f"{played} cost {decision.loss:.1f} points: {why}"


def _game_words(est: Estimate, best: Move, played: Move) -> str:
    """The game's result in words: the wins where only they differ, the losses where only they do, else both
    (so the figures add up to the cost said before them)."""
    a, b = est.moves.index(best), est.moves.index(played)
    wins = round(est.win_rate(a), 2), round(est.win_rate(b), 2)
    losses = [round(est.win_rate(i) - est.game_result(i), 2) for i in (a, b)]  # won minus lost = the game's result
    if losses[0] == losses[1]:
        return f"{best} wins the game in {wins[0]:.0%} of the deals, {played} in {wins[1]:.0%}"
    if wins[0] == wins[1]:
        return f"{best} loses the game in {losses[0]:.0%} of the deals, {played} in {losses[1]:.0%}"
    return (f"{best} wins the game in {wins[0]:.0%} of the deals and loses it in {losses[0]:.0%}; "
            f"{played} wins in {wins[1]:.0%} and loses in {losses[1]:.0%}")


class Fact(NamedTuple):
    """One thing that sets the best move apart from the one played."""

    weight: float  #: 0-1: a difference of shares of the deals, or of points over the loss
    about: str  #: what it is about ("points", "partner", "next", ...): one fact said about each at most
    words: str


def reason(view: SeatView, best: Move, played: Move, est: Estimate | None = None, loss: float = 0.0) -> str:
    """Why ``best`` did better than ``played``, in one sentence: the one or two facts that set them most apart
    (:func:`facts`); where none weighs :data:`TELLING`, the heuristic's rules of thumb, or nothing."""
    info = infer(view)
    said = facts(view, best, played, est, loss, info)
    if said:
        return "; ".join(fact.words for fact in said)
    items = {item.move: item for item in heuristic.assess(view, info)}
    a, b = items.get(best), items.get(played)
    if a is None or b is None:
        return ""
    new_voids = [void for void in a.voids if void not in b.voids]
    if new_voids:
        seat, suit = new_voids[0]
        return f"{best} leaves {_a(suit)} open that {view.names[seat]} {_lacks(_passes(view), seat, suit)}"
    if a.suits_kept > b.suits_kept:
        return f"{best} keeps {a.suits_kept} suits in hand, {played} only {b.suits_kept}"
    if est is not None:  # the share of the deals in which the rest of the hand brings more than it costs
        ahead = [share(est.points[est.moves.index(move)]) for move in (best, played)]
        if round(ahead[0] - ahead[1], 6) >= TELLING:
            won = "wins the hand" if view.variant in _HAND_END_POINTS else "comes out ahead over the rest of the hand"
            return f"{best} {won} in {ahead[0]:.0%} of the deals, {played} in {ahead[1]:.0%}"
    if a.shed > b.shed:
        return f"{best} sheds {a.shed} points of hand weight, {played} {b.shed}"
    return ""


def facts(view: SeatView, best: Move, played: Move, est: Estimate | None = None, loss: float = 0.0,
          info: Inference | None = None) -> list[Fact]:
    """The one or two facts that set ``best`` most apart from ``played``, heaviest first.

    The facts are public (what each scores now, the scorpion, a suit the partner has shown not to hold, a
    draw) or read off the estimate's sampled deals (who can follow the ends each move leaves — the next
    opponent, the partner, you — what the next opponent can score in reply, a blocked table).  Each is
    weighed 0-1, a share of the deals by the difference of the shares, points by their difference over the
    ``loss``; the heaviest is said if it weighs :data:`TELLING`, and beside it the heaviest of another kind
    that weighs :data:`SECOND` and half the first."""
    if info is None:
        info = infer(view)
    items = {item.move: item for item in heuristic.assess(view, info)}
    a, b = items.get(best), items.get(played)
    if a is None or b is None:
        return []
    lowest = heuristic.lowest_score_wins(view)
    found: list[Fact] = []
    if not lowest and a.points > b.points:
        found.append(Fact(min(1.0, (a.points - b.points) / max(loss, 1.0)), "points",
                          f"{best} scores {a.points}, {played} {b.points}"))
    elif b.points < 0 <= a.points:
        found.append(Fact(1.0, "points", f"{played} took the scorpion's {b.points}"))
    if played.kind == Kind.DRAW and best.kind != Kind.DRAW:
        found.append(Fact(1.0, "draw", f"{best} plays instead of drawing"))
    partner = _partner_reason(view, info, best, played)
    if partner:
        found.append(Fact(0.5, "partner", partner))
    if est is not None:
        found += _sampled_facts(view, info, est, best, played, loss)
    said: list[Fact] = []
    for fact in sorted(found, key=lambda fact: -fact.weight):  # the heaviest of each kind, heaviest first
        weight = round(fact.weight, 6)  # 0.95 - 0.8 is a difference of 0.15
        if weight < TELLING or any(fact.about == other.about for other in said):
            continue
        if not said or (len(said) == 1 and weight >= max(SECOND, said[0].weight / 2)):
            said.append(fact._replace(weight=weight))
    return said


def _sampled_facts(view: SeatView, info: Inference, est: Estimate, best: Move, played: Move,
                   loss: float) -> list[Fact]:
    """The facts of the sampled deals about what each move leaves right after it (:class:`After`)."""
    fa, fb = est.after(est.moves.index(best)), est.after(est.moves.index(played))
    if fa is None or fb is None:
        return []
    lowest = heuristic.lowest_score_wins(view)
    passes = _passes(view)
    found: list[Fact] = []
    if not lowest:
        blocked = _blocked(view, est, best, played, fa, fb)
        if blocked is not None:
            found.append(blocked)
    rival = fa.next_seat
    if rival is not None and rival == fb.next_seat:
        name = view.names[rival]
        follow = share(fa.follows), share(fb.follows)
        if follow[1] > follow[0]:
            note = _void_note(view, info, passes, rival, _first(fa.ends, fb.ends))
            found.append(Fact(follow[1] - follow[0], "next",
                              f"after {played}{_ends(fb.ends, 'ends ')} {name} can follow in {follow[1]:.0%} of "
                              f"the deals, after {best}{_ends(fa.ends)} in {follow[0]:.0%}{note}"))
        reply = sum(fa.reply) / len(fa.reply), sum(fb.reply) / len(fb.reply)
        if not lowest and reply[1] > reply[0]:
            found.append(Fact(min(1.0, (reply[1] - reply[0]) / max(loss, 1.0)), "next",
                              f"after {played} {name} can score in reply in {share(fb.reply):.0%} of the deals "
                              f"({reply[1]:.1f} points on average), after {best} in {share(fa.reply):.0%} "
                              f"({reply[0]:.1f})"))
    if fa.mine and not fb.mine and fb.ends and played.is_placement:  # your own hand is the same on every deal
        numbers = sorted(set(fb.ends))
        nothing = (f"no {' or '.join(_number(n) for n in numbers)} for" if len(numbers) <= 2 else
                   "nothing to play on")
        found.append(Fact(0.4, "own", f"{played} leaves you {nothing} your next turn, while after {best} you can "
                                      f"still play"))
    partners = [seat for seat in heuristic.side_of(view, view.seat) if seat != view.seat]
    if partners:
        partner = partners[0]
        held = share(fa.partner), share(fb.partner)
        if held[0] > held[1]:
            note = _void_note(view, info, passes, partner, _first(fb.ends, fa.ends))
            found.append(Fact(held[0] - held[1], "partner",
                              f"after {best}{_ends(fa.ends, 'ends ')} your partner {view.names[partner]} has a "
                              f"tile to play in {held[0]:.0%} of the deals, after {played}{_ends(fb.ends)} in "
                              f"{held[1]:.0%}{note}"))
    return found


def _blocked(view: SeatView, est: Estimate, best: Move, played: Move, fa: After, fb: After) -> Fact | None:
    """A move that blocks the table (no tile in a hand or the stock fits) in more of the deals than the other,
    where that block goes the seat's way (the best move's) or against it (the move played's)."""
    you, win, lose = ("your side", "wins", "loses") if len(heuristic.side_of(view, view.seat)) > 1 else (
        "you", "win", "lose")
    rows = {}
    for move, after in ((best, fa), (played, fb)):
        now = view.play_points(move)[1]  # a blocked hand's net points beyond this move's own: the block's result
        row = est.points[est.moves.index(move)][:len(after.stuck)]  # the kept deals are the first ones
        rows[move] = share(after.stuck), [points - now for points, stuck in zip(row, after.stuck, strict=True)
                                          if stuck]
    (sa, won), (sb, lost) = rows[best], rows[played]
    if sa > sb and won and share(won) >= 0.5:
        return Fact(sa - sb, "block", f"{best} blocks the table in {sa:.0%} of the deals ({you} {win} "
                                      f"{share(won):.0%} of those blocks), {played} in {sb:.0%}")
    lost_share = share([-x for x in lost])
    if sb > sa and lost and lost_share >= 0.5:
        return Fact(sb - sa, "block", f"{played} blocks the table in {sb:.0%} of the deals ({you} {lose} "
                                      f"{lost_share:.0%} of those blocks), {best} in {sa:.0%}")
    return None


def _number(n: int) -> str:
    return "blank" if n == 0 else str(n)


def _a(n: int) -> str:
    """``a 5``, ``an 8``, ``a blank``."""
    return f"{'an' if n in (8, 11) else 'a'} {_number(n)}"


def _ends(ends: Sequence[int], label: str = "") -> str:
    """`` (ends 3 and 5)``: the numbers on the open ends, where there are a few (else nothing)."""
    if not ends or len(ends) > 4:
        return ""
    words = [str(n) for n in ends]
    return f" ({label}{' and '.join([', '.join(words[:-1]), words[-1]]) if len(words) > 1 else words[0]})"


def _passes(view: SeatView) -> dict[tuple[int, int], str]:
    """(seat, number) → ``passed`` or ``drew``, for every number showing on an open end when a seat passed or
    drew for want of a play (the public history, as :mod:`~boneyard.players.expert.inference` reads it)."""
    seen: dict[tuple[int, int], str] = {}
    voluntary = rules_of(view).voluntary_draw

    def observe(game: Game, event: PublicEvent) -> None:
        kind = event.move.kind
        if kind == Kind.PASS or (kind == Kind.DRAW and not game.forced_draw and not voluntary):
            for face in game.layout.open_ends():
                seen.setdefault((event.seat, face.value), "passed" if kind == Kind.PASS else "drew")

    replay_public(view, observe)
    return seen


def _first(ends: Sequence[int], other: Sequence[int]) -> list[int]:
    """The numbers of ``ends``, those the ``other`` ends do not show first."""
    return sorted(set(ends), key=lambda n: (n in other, n))


def _void_note(view: SeatView, info: Inference, passes: dict[tuple[int, int], str], seat: int,
               numbers: Sequence[int]) -> str:
    """`` (Bob passed on 2s)``: the first of ``numbers`` that ``seat`` cannot hold, and how it is known where a
    pass or a draw showed it (else by counting the tiles, or by the lead the rules called)."""
    for n in numbers:
        if info.lacks(seat, n):
            how = passes.get((seat, n))
            name = view.names[seat]
            return f" ({name} {how} on {suit_name(n)})" if how else f" ({name} cannot hold {_a(n)})"
    return ""


def _partner_reason(view: SeatView, info: Inference, best: Move, played: Move) -> str:
    """In partnerships: the move played left open a suit the partner cannot hold (and some opponent may), the
    best did not.  "Has shown not to hold" only where the partner passed or drew on that suit; a void known by
    counting the tiles is "cannot hold"."""
    side = heuristic.side_of(view, view.seat)
    partners = [seat for seat in side if seat != view.seat]
    if not partners or not played.is_placement:
        return ""
    opponents = [seat for seat in range(len(view.names)) if seat not in side]
    left_open = _ends_after(view, info, played)
    closed = set(_ends_after(view, info, best)) if best.is_placement else set()
    passes: dict[tuple[int, int], str] | None = None
    for suit in left_open:
        if suit in closed or all(info.lacks(seat, suit) for seat in opponents):
            continue  # a suit nobody else can follow either is closed for both sides
        for partner in partners:
            if info.lacks(partner, suit):
                passes = _passes(view) if passes is None else passes
                return (f"{played} left {_a(suit)} open, and your partner {view.names[partner]} "
                        f"{_lacks(passes, partner, suit)}")
    return ""


def _lacks(passes: dict[tuple[int, int], str], seat: int, suit: int) -> str:
    """``has shown not to hold a 4`` where ``seat`` passed or drew on 4s, else ``cannot hold a 4`` (counted)."""
    return f"has shown not to hold {_a(suit)}" if (seat, suit) in passes else f"cannot hold {_a(suit)}"


def _ends_after(view: SeatView, info: Inference, move: Move) -> list[int]:
    """The numbers on the open ends once ``move`` is made (the table is public: any consistent deal will do)."""
    hands, stock = sample_deal(info, random.Random(0))
    game = determinize(info.public, hands, stock)
    game.apply(move)
    return [face.value for face in game.layout.open_ends() if face.value <= MAX_PIPS]


def span(interval: tuple[float, float]) -> str:
    """An interval of points for people: ``[-1.2, +3.4]``."""
    return f"[{interval[0]:+.1f}, {interval[1]:+.1f}]"


__all__ = [
    "GAME", "KEPT_DEALS", "MARKS", "THRESHOLDS", "WIN_THRESHOLDS", "After", "Decision", "Estimate", "Fact",
    "MoveValue", "Review", "SeatSummary", "Seen", "Settings", "Thresholds", "estimate", "explain", "facts", "judge",
    "look", "open_hands", "paired_interval", "positions", "reason", "review", "share", "span",
]
