"""Statistics for tournaments: win-rate intervals, ratings and bootstrap intervals.

* :func:`wilson` — the Wilson score interval of a proportion (95 % by default), which behaves
  well at 0 and 1 where the normal approximation does not (``boneyard simulate`` uses it too: NumPy,
  which the ratings need, is imported only by the functions that use it).
* :func:`bradley_terry` — Bradley–Terry strengths fitted by Hunter's MM algorithm from
  pairwise wins (ties count half a win to each side), with one virtual tie between every pair
  that met so that a player who never lost still gets a finite rating.  Strengths are reported
  on the Elo scale (400 · log10), centred so the mean rating is 0.
* :func:`elo` — sequential Elo over the pairwise results in a fixed order.
* :func:`bootstrap` — percentile intervals of a rating method from games resampled with
  replacement, with a seeded generator so the same seed gives the same intervals.

Outcomes are :class:`Pair` values (two player indices and the first one's score: 1, ½ or 0),
grouped per game, so the bootstrap resamples whole games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np

Z95 = 1.959963984540054
ELO_SCALE = 400.0 / math.log(10.0)


class Pair(NamedTuple):
    """One pairwise outcome: player ``a`` against player ``b``; ``score`` is a's (1, 0.5 or 0)."""

    a: int
    b: int
    score: float


class Interval(NamedTuple):
    low: float
    high: float


RatingMethod = Callable[[int, Sequence[Sequence[Pair]]], list[float]]


def wilson(successes: float, trials: int, z: float = Z95) -> Interval:
    """The Wilson score interval of ``successes`` out of ``trials`` (``(0, 1)`` with no trials).  Its bound is
    exactly 0 with no successes and exactly 1 when every trial succeeded (as the formula gives, which rounding
    would miss by a hair, leaving the rate outside its own interval)."""
    if trials <= 0:
        return Interval(0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return Interval(low, high)


def pair_matrices(players: int, games: Sequence[Sequence[Pair]]) -> tuple[np.ndarray, np.ndarray]:
    """``wins[i, j]`` (i's score against j, ties as halves) and ``meetings[i, j]``."""
    import numpy as np

    wins = np.zeros((players, players))
    meetings = np.zeros((players, players))
    for game in games:
        for a, b, score in game:
            wins[a, b] += score
            wins[b, a] += 1.0 - score
            meetings[a, b] += 1
            meetings[b, a] += 1
    return wins, meetings


def bradley_terry(players: int, games: Sequence[Sequence[Pair]], *, prior: float = 1.0,
                  iterations: int = 1000, tolerance: float = 1e-9) -> list[float]:
    """Bradley–Terry ratings (Elo scale, mean 0) by minorization–maximization.

    ``prior`` virtual games, split evenly, are added between every two players who met, which
    keeps an unbeaten player's rating finite.  Players in separate components that never met
    share a common scale only through the centring; a tournament always connects them.
    """
    import numpy as np

    wins, meetings = pair_matrices(players, games)
    met = meetings > 0
    wins = wins + np.where(met, prior / 2, 0.0)
    meetings = meetings + np.where(met, prior, 0.0)
    total_wins = wins.sum(axis=1)
    strength = np.ones(players)
    for _ in range(iterations):
        sums = strength[:, None] + strength[None, :]
        denominator = (meetings / sums).sum(axis=1)
        updated = np.where(denominator > 0, total_wins / np.where(denominator > 0, denominator, 1.0), strength)
        updated = np.maximum(updated, 1e-300)
        updated /= math.exp(float(np.mean(np.log(updated))))
        change = float(np.max(np.abs(np.log(updated) - np.log(strength))))
        strength = updated
        if change < tolerance:
            break
    ratings = ELO_SCALE * np.log(strength)
    return [float(value) for value in ratings - ratings.mean()]


def elo(players: int, games: Sequence[Sequence[Pair]], *, k: float = 16.0) -> list[float]:
    """Sequential Elo ratings (mean 0) after the games in the given order."""
    ratings = [0.0] * players
    for game in games:
        change = [0.0] * players
        for a, b, score in game:  # every pair of one game is rated from the ratings before it
            expected = 1.0 / (1.0 + 10 ** ((ratings[b] - ratings[a]) / 400.0))
            change[a] += k * (score - expected)
            change[b] -= k * (score - expected)
        ratings = [r + c for r, c in zip(ratings, change, strict=True)]
    mean = sum(ratings) / players if players else 0.0
    return [r - mean for r in ratings]


def bootstrap(method: RatingMethod, players: int, games: Sequence[Sequence[Pair]], *, samples: int = 200,
              seed: int = 0, level: float = 0.95) -> list[Interval]:
    """Percentile intervals of ``method``'s ratings over games resampled with replacement."""
    if not games or samples <= 0:
        return [Interval(math.nan, math.nan)] * players
    import numpy as np

    rng = np.random.default_rng(seed)
    draws = np.empty((samples, players))
    for sample in range(samples):
        chosen = rng.integers(0, len(games), size=len(games))
        draws[sample] = method(players, [games[i] for i in chosen])
    tail = (1 - level) / 2 * 100
    low = np.percentile(draws, tail, axis=0)
    high = np.percentile(draws, 100 - tail, axis=0)
    return [Interval(float(lo), float(hi)) for lo, hi in zip(low, high, strict=True)]


RATING_METHODS: dict[str, RatingMethod] = {"bradley-terry": bradley_terry, "elo": elo}
