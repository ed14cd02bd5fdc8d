"""The expert's search: perfect-information Monte Carlo over sampled deals.

For each determinization (a deal of the hidden tiles consistent with :mod:`.inference`, built
by :mod:`.sampling` and :mod:`.determinize`) every root move is tried and the hand is played
out to its end by a fast greedy policy (best immediate score, then the heaviest tile, ties at
random).  All root moves share the same deal, so their comparison is not blurred by the luck
of the sample.  The outcome is scored from the searching side's point of view:

* the change of the score difference over the hand — own side minus the best opponent, or for
  a lowest-score game (PIP) the best opponent minus own side — so a hand of a multi-hand game
  counts for what it brings towards the target;
* plus or minus :data:`~.objective.WIN_VALUE` when the playout ends the game (:class:`~.objective.Objective`);
* in two-player Bergen the search plays for the game instead: a playout that leaves the game unfinished is worth
  the chance of winning it from the score reached (:mod:`.equity`; ``equity=0`` switches it off).

Near the end of a hand with nothing left to draw (an empty stock, or one down to the reserve),
when few tiles remain, the playout is replaced by an exact alpha-beta search of the determinized
hand (paranoid: the others minimise).

The root moves are the heuristic's best ones, in its order.  Where playouts value them, the search
overrules the heuristic's first choice only when the deals show, beyond the playouts' noise, that
another move does better: every move is compared with that choice deal by deal (same deal, same
playout seed) and the move with the highest lower confidence bound on that paired gain is played.
Where every value is exact, the best mean wins (see :meth:`Search.best`).

In every variant each deal is valued on a :class:`~boneyard.fast.FastGame` instead (:mod:`.fastsearch`;
PIP's is a :class:`~boneyard.fast.FastPip`): exact alpha-beta as soon as nothing can be drawn and few
enough tiles remain (in two-player Block the whole hand), fast greedy playouts before.  The reference
game described above is searched only where the fast replay of the position fails (a safety net).

The budget goes where it decides: a forced move is not searched; racing (:meth:`Search.race`)
drops a root move once its paired value clearly trails the leader's and stops when one is left;
where nothing can be drawn and few deals agree with the inference, each of them is searched once
(:func:`~.sampling.all_deals`), which is the exact expectation.

In Block, Draw and All Fives the sampled deals also follow what the others' choices say about their
hands (:mod:`.plays`): a deal is kept with the likelihood of the moves it implies they made (rejection
sampling).  Where the compiled solver applies (closed two-player Block and Draw hands), every root move
of a deal is valued in one call (:meth:`~.fastsearch.FastRoot.evaluate_all`).

The search is anytime: determinizations are added until ``time`` seconds have passed, and the time a
decision leaves unspent is banked for later close ones (:class:`ExpertPlayer`).  With
``samples=N`` it searches exactly N determinizations and ignores the clock, so a seed
reproduces every decision on any machine.
"""

from __future__ import annotations

import math
import random
import time

from boneyard.moves import Move
from boneyard.players import heuristic
from boneyard.players.base import legal_choices
from boneyard.players.expert.determinize import determinize, rules_of
from boneyard.players.expert.equity import game_equity
from boneyard.players.expert.fastsearch import MAX_WORLDS, Answers, FastRoot
from boneyard.players.expert.inference import Inference, infer
from boneyard.players.expert.objective import Objective as Objective  # re-exported: the review imports it from here
from boneyard.players.expert.plays import PlayModel
from boneyard.players.expert.sampling import Plan, all_deals, fill_plan, sample_deal
from boneyard.state import NONE, Game
from boneyard.tiles import Tile
from boneyard.view import SeatView

DEFAULT_TIME = 0.5
#: the most deals ``samples=`` may ask for a decision (as ``time=`` stops at 600 s: a few minutes a decision at most)
MAX_SAMPLES = 100_000
MAX_TIME = 600  #: the most seconds ``time=`` may give a decision
ENDGAME_TILES = 6  #: tiles left in all hands at most for the exact endgame search
ENDGAME_NODES = 1500  #: node limit of one exact search (beyond it the playout decides)
CANDIDATES = 10  #: root moves searched at most: the heuristic's best ones
#: standard errors a move's paired gain over the heuristic's choice must clear to overrule it
CONFIDENCE = 1.0
#: racing: complete deals before a root move may be dropped, and the standard errors by which its paired
#: value must trail the leader's (dropped moves are searched no more: the budget goes to the close ones)
RACE_START = 6
RACE_MARGIN = 2.5
#: consistent deals at most for searching every one of them instead of sampling (nothing can be drawn)
ENUMERATE = 48
#: ``fuse``: sampled deals searched together in one batch, and the batches before racing may drop a move
BATCH = 32
BATCH_RACE = 3
MAX_FUSE = 16  #: ``fuse`` at most
#: sampled deals drawn at most for one kept under the others' earlier choices (:mod:`.plays`; the last is kept)
PLAY_TRIES = 24
#: the time bank (:class:`ExpertPlayer`): a close decision spends at most this many budgets in all ...
BANK_SPEND = 3.0
#: ... and the bank holds at most this many
BANK_CAP = 6.0


def greedy_move(game: Game, rng: random.Random) -> Move:
    """The playout policy: best immediate score, then shed the heaviest tile, ties at random."""
    moves = game.legal_moves()
    if len(moves) == 1:
        return moves[0]
    value = game.rules.tile_value
    best: list[Move] = []
    best_key: tuple[int, int] | None = None
    for move in moves:
        tile = move.tile
        if tile is not None and move.is_placement:
            key = (game.play_points(move)[1], value(tile))
        elif tile is not None:  # give: the heaviest
            key = (0, value(tile))
        else:
            key = (-10_000, 0)
        if best_key is None or key > best_key:
            best, best_key = [move], key
        elif key == best_key:
            best.append(move)
    return best[0] if len(best) == 1 else rng.choice(best)


def playout(game: Game, rng: random.Random) -> None:
    """Play the hand to its end with :func:`greedy_move`."""
    while game.in_hand and not game.finished:
        game.apply(greedy_move(game, rng))


class Endgame:
    """Exact paranoid alpha-beta of a determinized hand (own side maximises)."""

    def __init__(self, objective: Objective) -> None:
        self.objective = objective
        self.nodes = 0

    def search(self, game: Game, alpha: float, beta: float) -> float | None:
        self.nodes += 1
        if self.nodes > ENDGAME_NODES:
            return None
        if not game.in_hand or game.finished:
            return self.objective.value(game)
        maximise = game.turn in self.objective.side
        best = -float("inf") if maximise else float("inf")
        for move in game.legal_moves():
            game.apply(move)
            score = self.search(game, alpha, beta)
            game.undo()
            if score is None:
                return None
            if maximise:
                best = max(best, score)
                alpha = max(alpha, score)
            else:
                best = min(best, score)
                beta = min(beta, score)
            if alpha >= beta:
                break
        return best


def small_endgame(game: Game) -> bool:
    """Nothing left to draw (an empty stock, or one down to the reserve) and few tiles in the hands."""
    return game.stock_left <= game.rules.reserve and sum(len(hand) for hand in game.hands) <= ENDGAME_TILES


class Search:
    """One decision's search (kept after the decision so the hint can explain it)."""

    def __init__(self, view: SeatView, rng: random.Random, info: Inference | None = None, *,
                 race: bool = True, doubles_first: bool = True, read: bool = True, defend: bool = True,
                 defuse: bool = False, equity: bool = True, doubt: float = 0.0, deep: float = 0.0,
                 own: float = 0.0, fuse: int = 1) -> None:
        legal_choices(view)  # (an error where the seat has no move to choose)
        self.view = view
        self.rng = rng
        self.info = info if info is not None else infer(view)
        #: the others' earlier choices as a likelihood of the deals (``read``; only where they say something)
        model = PlayModel(view) if read else None
        self.plays = model if model is not None and model.active else None
        self.ranked = heuristic.assess(view, self.info)
        self.moves = [item.move for item in self.ranked[:CANDIDATES]]
        #: for the game, where the variant's expert plays so (``equity``; :mod:`.equity`), else for the hand's points
        self.objective = Objective(view, game_equity(view) if equity else None)
        self.totals = [0.0] * len(self.moves)
        self.counts = [0] * len(self.moves)
        #: paired differences against the first move over complete deals: sums and sums of squares
        self.diff_sums = [0.0] * len(self.moves)
        self.diff_squares = [0.0] * len(self.moves)
        #: per pair of root moves (i, j), over the complete deals: the sum of value i - value j and of its square
        #: (kept while both are searched, so every active pair counts every complete deal)
        size = len(self.moves)
        self.pair_sums = [[0.0] * size for _ in range(size)]
        self.pair_squares = [[0.0] * size for _ in range(size)]
        self.active = list(range(len(self.moves)))  #: root moves still searched (racing drops the rest)
        self.racing = race
        #: every consistent deal, where few enough exist and the stock's order cannot matter (else ``None``)
        self.deals = self._enumerable()
        self._next_deal = 0  #: the next of :attr:`deals` to search
        #: per deal of :attr:`deals`, the chance it is searched: its weight under :attr:`plays` over the largest
        self._keep: list[float] | None = None
        if self.deals is not None and self.plays is not None:
            weights = [self.plays.weight(hands) for hands, _ in self.deals]
            top = max(weights)
            self._keep = [weight / top for weight in weights]
        self._plan: Plan | None = None  #: the fill order of the sampled deals (worked out at the first)
        self.noisy = False  #: set once a root move was valued by a playout rather than exactly
        self.samples = 0
        self.extended = 0.0  #: the banked seconds :meth:`run` added because the top moves were still close
        #: ``defuse``: where the compiled solver values the deals, the answer to each reply of the other seat is
        #: chosen alike on every deal where that reply was made (:meth:`_answered`)
        self.defuse = defuse
        #: ``doubt``: where the compiled solver values the deals, the other seat's reply is valued as that of a seat
        #: that cannot see this one's hand (:meth:`.FastRoot.evaluate_doubting`); 0: the worst reply, as before
        self.doubt = doubt
        #: ``fuse``: where the compiled solver values the deals, this seat's first ``fuse`` choices (the root move the
        #: first) are made alike over a batch of deals searched together (alpha-mu, :meth:`_add_batch`); 1: each
        #: deal on its own (perfect-information Monte Carlo)
        self.fuse = fuse
        self._batches: list[list[float]] = []  #: per batch of deals searched together, the active moves' values
        #: per root move, per reply: this seat's answers and their values summed over the deals with that reply
        self._answer_sums: dict[int, dict[int, list[float]]] = {}
        self._answered_deals: list[dict[int, Answers]] = []  #: per deal so valued, each root move's answers
        #: the fast engine's position (``None``: the reference game is searched)
        self.fast = (FastRoot.build(view, self.moves, sorted(self.objective.side), self.objective)
                     if len(self.moves) > 1 else None)
        if self.fast is not None:
            self.fast.doubles_first = doubles_first
            self.fast.defend = defend
            self.fast.mix = (deep, own)

    def run(self, seconds: float, samples: int | None, extra: float = 0.0) -> Move:
        """Search until ``seconds`` have passed (every move tried at least once), or exactly ``samples`` deals.

        ``extra`` seconds more are spent where, at that point, the top moves are still close (racing has not
        left one move) and deals remain to search (:class:`ExpertPlayer`'s time bank)."""
        if len(self.moves) == 1:
            return self.moves[0]
        deadline = None if samples is not None else time.perf_counter() + seconds
        if self.fast is not None:
            self.fast.budget = None if samples is not None else seconds
        while True:
            while (samples is None or self.samples < samples) and len(self.active) > 1 and not self.exhausted():
                batched = self._add_batch(deadline, samples) if self.fuse > 1 else None
                if batched is None:
                    batched = self.add_sample(deadline)
                if not batched:
                    break
            if deadline is None or extra <= 0 or len(self.active) < 2 or self.exhausted():
                break
            deadline = time.perf_counter() + extra  # still close: the banked time goes here
            self.extended = extra
            extra = 0.0
        return self.best()

    def exhausted(self) -> bool:
        """Whether every listed deal was searched (or passed over): the values are the expectation itself."""
        return self.deals is not None and self._next_deal >= len(self.deals)

    def nothing_to_draw(self) -> bool:
        """Whether nothing can be drawn any more this hand (no drawing, or the stock down to the reserve): the
        stock's order cannot matter then."""
        rules = rules_of(self.view)
        return rules.draw_mode == NONE or self.view.stock_count <= rules.reserve

    def _enumerable(self) -> list[tuple[list[list[Tile]], list[Tile]]] | None:
        """Every consistent deal, shuffled, where nothing can be drawn and there are at most :data:`ENUMERATE`."""
        if len(self.moves) < 2 or not self.nothing_to_draw():
            return None
        deals = all_deals(self.info, ENUMERATE)
        if deals is not None:
            self.rng.shuffle(deals)
        return deals

    def add_sample(self, deadline: float | None = None) -> bool:
        """Try every root move on one more sampled deal; ``False`` once the deadline has passed.

        A deal cut short by the deadline still counts towards the means (every move is tried at least
        once), but only complete deals enter the paired comparison of :meth:`best`."""
        deal = self.next_deal()
        if deal is None:
            return False
        hands, stock = deal
        seed = self.rng.getrandbits(32)
        fast = self.fast
        if fast is not None:
            fast.deadline = deadline
            fast.load(hands, stock)
        # every root move in one call where the compiled solver values the deal exactly
        solved = self._answered(fast) if fast is not None and self.defuse else None
        if solved is None and fast is not None and self.doubt:
            solved = fast.evaluate_doubting(self.active, self.doubt)
        if solved is None:
            solved = fast.evaluate_all(self.active) if fast is not None else None
        values: list[float] = []
        for number, index in enumerate(self.active):
            move = self.moves[index]
            if solved is not None:
                value = solved[number]
            elif deadline is not None and self.samples and time.perf_counter() >= deadline:
                return False
            elif fast is not None:
                value = fast.evaluate(index, random.Random(seed))
            else:
                game = determinize(self.info.public, hands, stock)
                game.apply(move)
                value = self.evaluate(game, random.Random(seed))
            self.totals[index] += value
            self.counts[index] += 1
            values.append(value)
        sums, squares = self.pair_sums, self.pair_squares
        for index, value in zip(self.active, values, strict=True):
            row, row_squares = sums[index], squares[index]
            for other, other_value in zip(self.active, values, strict=True):
                diff = value - other_value
                row[other] += diff
                row_squares[other] += diff * diff
        if self.active[0] == 0:  # the heuristic's choice is still searched: the guard's paired gains
            base = values[0]
            for index, value in zip(self.active, values, strict=True):
                diff = value - base
                self.diff_sums[index] += diff
                self.diff_squares[index] += diff * diff
        self.samples += 1
        if self.racing and self.samples >= RACE_START:
            self.race()
        return deadline is None or time.perf_counter() < deadline

    def next_deal(self) -> tuple[list[list[Tile]], list[Tile]] | None:
        """The next deal to search: the next of :attr:`deals` where they are listed (``None`` once all were), else a
        sampled one."""
        if self.deals is None:
            return self.sample()
        # each deal once; under the others' choices, each kept with its weight (a ratio estimate of the
        # expectation over the posterior: the likeliest deal is always kept)
        keep = self._keep
        while self._next_deal < len(self.deals):
            number = self._next_deal
            self._next_deal += 1
            if keep is None or keep[number] >= 1.0 or self.rng.random() < keep[number]:
                return self.deals[number]
        return None

    def _add_batch(self, deadline: float | None, samples: int | None) -> bool | None:
        """Search a batch of deals together (``fuse``; :meth:`.FastRoot.evaluate_worlds`): every listed deal left, or
        :data:`BATCH` sampled ones (fewer where ``samples`` says so).  ``None`` where the solver does not value them
        (search deal by deal instead); ``False`` once the deadline has passed or no deal is left.

        Each batch is one estimate of every active move's value; racing drops a move whose value trails the
        leader's, batch by batch, by more than :data:`RACE_MARGIN` standard errors (after :data:`BATCH_RACE`
        batches)."""
        fast = self.fast
        if fast is None or not fast.fuses():
            return None
        size = MAX_WORLDS if self.deals is not None else BATCH
        if samples is not None:
            size = min(size, samples - self.samples)
        listed = self._next_deal
        batch: list[list[list[Tile]]] = []
        while len(batch) < size:
            deal = self.next_deal()
            if deal is None:
                break
            batch.append(deal[0])
        if not batch:
            return False
        values = fast.evaluate_worlds(self.active, batch, self.fuse)
        if values is None:  # past the node limit: deal by deal from the start, or stop where batches were searched
            self._next_deal = listed
            return False if self._batches else None
        for index, value in zip(self.active, values, strict=True):
            self.totals[index] += value * len(batch)
            self.counts[index] += len(batch)
        self.samples += len(batch)
        row = [math.nan] * len(self.moves)
        for index, value in zip(self.active, values, strict=True):
            row[index] = value
        self._batches.append(row)
        if self.racing and len(self._batches) >= BATCH_RACE:
            self._race_batches()
        return deadline is None or time.perf_counter() < deadline

    def _race_batches(self) -> None:
        """Drop the active moves whose value trails the leader's by more than :data:`RACE_MARGIN` standard errors,
        compared batch by batch over the batches where both were searched."""
        means = self.means()
        leader = max(self.active, key=lambda i: (round(means[i], 9), -i))
        keep = []
        for index in self.active:
            diffs = [row[index] - row[leader] for row in self._batches
                     if not math.isnan(row[index]) and not math.isnan(row[leader])]
            n = len(diffs)
            if index == leader or n < 2:
                keep.append(index)
                continue
            mean = sum(diffs) / n
            variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean + RACE_MARGIN * math.sqrt(variance / n) >= 0:
                keep.append(index)
        self.active = keep

    def _answered(self, fast: FastRoot) -> list[float] | None:
        """The active root moves' values on the loaded deal where this seat's answer to the other's reply is chosen
        by the deals so far with that reply (this one included), not by this deal alone; ``None`` where the
        solver does not value the deal (:meth:`.FastRoot.evaluate_answers`)."""
        rows = fast.evaluate_answers(self.active)
        if rows is None:
            return None
        self._answered_deals.append(dict(zip(self.active, rows, strict=True)))
        values = []
        for index, row in zip(self.active, rows, strict=True):
            sums = self._answer_sums.setdefault(index, {}).setdefault(row.reply, [0.0] * len(row.keys))
            for place, value in enumerate(row.values):
                sums[place] += value
            values.append(row.values[sums.index(max(sums))])
        return values

    def _settle_answers(self) -> None:
        """Value every deal again with the answers all the deals chose (:meth:`_answered` chose by those so far)."""
        for index in self.active:
            replies = self._answer_sums.get(index, {})
            rows = [deal[index] for deal in self._answered_deals if index in deal]
            if len(rows) != self.counts[index]:
                return  # some deals were valued otherwise: keep the values as they came
            chosen = {reply: sums.index(max(sums)) for reply, sums in replies.items()}
            self.totals[index] = sum(row.values[chosen[row.reply]] for row in rows)

    def sample(self) -> tuple[list[list[Tile]], list[Tile]]:
        """A deal of the hidden tiles consistent with the inference; where the others' choices are read, kept with
        its weight under them (rejection sampling, at most :data:`PLAY_TRIES` tries: the last is kept)."""
        if self._plan is None:
            self._plan = fill_plan(self.info)
        hands, stock = sample_deal(self.info, self.rng, self._plan)
        plays = self.plays
        if plays is not None:
            for _ in range(PLAY_TRIES - 1):
                if self.rng.random() < plays.weight(hands):
                    break
                hands, stock = sample_deal(self.info, self.rng, self._plan)
        return hands, stock

    def race(self) -> None:
        """Drop the root moves whose paired value trails the leader's by more than :data:`RACE_MARGIN` standard errors.

        The leader is the active move with the best mean over the complete deals; a move is compared
        with it deal by deal (the same deal and playout seed), so the luck of the deal cancels and a
        clearly worse move is dropped after a few deals."""
        n = self.samples
        sums, squares = self.pair_sums, self.pair_squares
        first = self.active[0]
        # where playouts valued the moves the heuristic's choice (index 0) stays: the noise guard of
        # :meth:`best` compares with it, and the leader by mean may only be the luckiest
        kept = 0 if self.noisy_values() else -1
        # the best mean: every active move's sum relative to the first active one ranks them
        leader = max(self.active, key=lambda i: (round(sums[i][first], 9), -i))
        keep = []
        for index in self.active:
            mean = sums[index][leader] / n
            variance = max(0.0, (squares[index][leader] - n * mean * mean) / (n - 1))
            if index in (kept, leader) or mean + RACE_MARGIN * math.sqrt(variance / n) >= 0:
                keep.append(index)
        self.active = keep

    def evaluate(self, game: Game, rng: random.Random) -> float:
        if game.in_hand and not game.finished and small_endgame(game):
            exact = Endgame(self.objective).search(game, -float("inf"), float("inf"))
            if exact is not None:
                return exact
        if game.in_hand and not game.finished:
            self.noisy = True
        playout(game, rng)
        return self.objective.value(game)

    def means(self) -> list[float]:
        return [total / max(1, count) for total, count in zip(self.totals, self.counts, strict=True)]

    def lower_bounds(self) -> list[float]:
        """Per root move, a lower confidence bound on how much better than the heuristic's choice it is.

        Over the complete deals, the paired difference (this move's value minus the first move's,
        on the same deal and playout seed) has a mean m and a standard error e; the bound is
        ``m - CONFIDENCE * e``.  The first move's bound is 0; with fewer than two deals nothing
        is known, and every other bound is minus infinity."""
        n = self.samples
        bounds = [0.0] + [-math.inf] * (len(self.moves) - 1)
        if n < 2:
            return bounds
        for index in self.active[1:] if self.active[0] == 0 else ():
            mean = self.diff_sums[index] / n
            variance = max(0.0, (self.diff_squares[index] - n * mean * mean) / (n - 1))
            bounds[index] = mean - CONFIDENCE * math.sqrt(variance / n)
        return bounds

    def noisy_values(self) -> bool:
        """Whether some root move was valued by a playout rather than exactly."""
        return self.noisy or (self.fast is not None and self.fast.noisy)

    def best(self) -> Move:
        """The move to play.

        Where playouts valued the moves, their noise is guarded against: moves are compared by
        :meth:`lower_bounds`, so the search overrules the heuristic's choice (the first move) only
        where the sampled deals show, beyond that noise, that another move does better.  Where every
        value was exact (alpha-beta to the end of the hand), the best mean wins.  Ties go to the
        heuristic's order."""
        if self._answered_deals:
            self._settle_answers()
        # the heuristic's choice is dropped only while every value is exact (it was shown worse then)
        guard = self.noisy_values() and self.active[0] == 0
        scores = self.lower_bounds() if guard else self.means()
        index = max(self.active, key=lambda i: (round(scores[i], 9), -i))
        return self.moves[index]


class ExpertPlayer:
    """Determinize and search (see the module docstring); ``time`` seconds per move, or ``samples`` deals.

    Under ``time`` the budget is a mean per move, banked (``bank=1``): what a decision leaves unspent (a forced
    move, racing that settled early, every deal searched) goes into the player's bank, and a later decision whose
    top moves are still close when its own ``time`` is up may spend up to :data:`BANK_SPEND` - 1 budgets more from
    it.  The bank holds at most :data:`BANK_CAP` budgets and never goes below zero, so no move takes longer
    than ``BANK_SPEND * time`` and the player's moves together take no longer than ``time`` each (both up to
    the one playout each search finishes past its deadline, as without the bank).  ``bank=0`` spends ``time``
    on every decision with a choice, as before."""

    def __init__(self, seed: int | None = None, time: float = DEFAULT_TIME, samples: int | None = None,
                 race: int = 1, playouts: str = "doubles", read: int = 1, bank: int = 1, defend: int = 1,
                 defuse: int = 0, equity: int = 1, doubt: float = 0.0, deep: float = 0.0, own: float = 0.0,
                 fuse: int = 1) -> None:
        from boneyard.errors import OptionError

        if isinstance(time, bool) or not isinstance(time, (int, float)) or not 0 < time <= MAX_TIME:
            raise OptionError(f"expert: time={time!r} must be more than 0 and at most {MAX_TIME} seconds "
                              "(e.g. time=0.5)")
        if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int)
                                    or not 1 <= samples <= MAX_SAMPLES):
            raise OptionError(f"expert: samples={samples!r} is not a whole number from 1 to {MAX_SAMPLES:,} "
                              "(e.g. samples=200)")
        if race not in (0, 1) or isinstance(race, bool):
            raise OptionError(f"expert: race={race!r} is not 0 or 1")
        if playouts not in ("doubles", "greedy"):
            raise OptionError(f"expert: playouts={playouts!r} is not 'doubles' or 'greedy'")
        if read not in (0, 1) or isinstance(read, bool):
            raise OptionError(f"expert: read={read!r} is not 0 or 1")
        if bank not in (0, 1) or isinstance(bank, bool):
            raise OptionError(f"expert: bank={bank!r} is not 0 or 1")
        if defend not in (0, 1) or isinstance(defend, bool):
            raise OptionError(f"expert: defend={defend!r} is not 0 or 1")
        if defuse not in (0, 1) or isinstance(defuse, bool):
            raise OptionError(f"expert: defuse={defuse!r} is not 0 or 1")
        self.defuse = bool(defuse)
        if isinstance(doubt, bool) or not isinstance(doubt, (int, float)) or not 0 <= doubt <= 1:
            raise OptionError(f"expert: doubt={doubt!r} is not a number from 0 to 1")
        if doubt and defuse:
            raise OptionError("expert: doubt and defuse=1 do not go together (each values the reply its own way)")
        self.doubt = float(doubt)
        for name, share in (("deep", deep), ("own", own)):
            if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
                raise OptionError(f"expert: {name}={share!r} is not a number from 0 to 1")
        self.deep, self.own = float(deep), float(own)
        if isinstance(fuse, bool) or not isinstance(fuse, int) or not 1 <= fuse <= MAX_FUSE:
            raise OptionError(f"expert: fuse={fuse!r} is not a whole number from 1 to {MAX_FUSE}")
        if fuse > 1 and (defuse or doubt or deep or own):
            raise OptionError("expert: fuse above 1 does not go with defuse, doubt, deep or own "
                              "(each values the later choices its own way)")
        self.fuse = fuse
        if equity not in (0, 1) or isinstance(equity, bool):
            raise OptionError(f"expert: equity={equity!r} is not 0 or 1")
        self.equity = bool(equity)
        self.defend = bool(defend)
        self.read = bool(read)
        self.banking = bool(bank) and samples is None
        self.bank = 0.0  #: seconds left unspent by earlier decisions (see the class docstring)
        self.name = "expert"
        self.race = bool(race)
        self.doubles_first = playouts == "doubles"
        self.time = float(time)
        self.samples = samples
        self.rng = random.Random(seed)
        self.last: Search | None = None

    def choose(self, view: SeatView) -> Move:
        started = time.perf_counter()
        moves = view.legal_moves()
        if len(moves) == 1:
            self._settle(started)
            return moves[0]
        search = self.search(view, random.Random(self.rng.getrandbits(64)))
        self.last = search
        extra = min(self.bank, (BANK_SPEND - 1) * self.time) if self.banking else 0.0
        move = search.run(self.time, self.samples, extra)
        self._settle(started)
        return move

    def search(self, view: SeatView, rng: random.Random) -> Search:
        """This decision's search, with this player's options."""
        return Search(view, rng, race=self.race, doubles_first=self.doubles_first, read=self.read,
                      defend=self.defend, defuse=self.defuse, equity=self.equity, doubt=self.doubt,
                      deep=self.deep, own=self.own, fuse=self.fuse)

    def _settle(self, started: float) -> None:
        """Bank what this decision left of its budget (or take what it spent beyond it)."""
        if self.banking:
            spent = time.perf_counter() - started
            self.bank = min(BANK_CAP * self.time, max(0.0, self.bank + self.time - spent))
