"""benchmarks/paired.py: the logs of the OpenSpiel adapter read, and the pooled share counted by deal."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from benchmarks.paired import by_deal, outcomes


def test_a_log_is_read_game_by_game(tmp_path: Path) -> None:
    log = tmp_path / "run.txt"
    log.write_text("deal 0 expert seat 0: +12  (so far 1-0-0)\ndeal 0 expert seat 1: -3  (so far 1-1-0)\n"
                   "deal 1 expert seat 0: +0  (so far 1-1-1)\nexpert:time=0.4 vs OpenSpiel ISMCTS ...\n")
    assert outcomes(log) == {(0, 0): 1, (0, 1): -1, (1, 0): 0}


def test_deals_that_always_split_leave_no_doubt() -> None:
    """Where the deal alone decides, the expert wins one game of each and loses the other: the share is exactly a
    half, known without error, while the games counted as independent would leave an interval of +-5 points."""
    games = {(deal, seat): 1 if seat == deal % 2 else -1 for deal in range(200) for seat in (0, 1)}
    share, low, high, effect = by_deal([games])
    assert (share, low, high, effect) == (0.5, 0.5, 0.5, 0.0)


def test_independent_games_have_a_design_effect_near_one() -> None:
    rng = random.Random(5)
    runs = [{(deal, seat): 1 if rng.random() < 0.6 else -1 for deal in range(1000) for seat in (0, 1)}
            for _ in range(2)]
    share, low, high, effect = by_deal(runs)
    assert 0.58 < share < 0.62
    assert 0.85 < effect < 1.15
    half = 1.96 * (share * (1 - share) / 4000 * effect) ** 0.5
    assert (low, high) == pytest.approx((share - half, share + half))


def test_ties_are_left_out_and_each_run_has_its_own_deals() -> None:
    """Deal 0 of one run and deal 0 of another are two deals: both won twice, so there is no spread at all, and
    a tie counts for neither side."""
    first = {(0, 0): 1, (0, 1): 1, (1, 0): 0, (1, 1): 0}
    second = {(0, 0): 1, (0, 1): 1}
    share, low, high, _ = by_deal([first, second])
    assert (share, low, high) == (1.0, 1.0, 1.0)
    share, low, high, effect = by_deal([{(0, 0): 0, (0, 1): 0}])  # nothing decided
    assert math.isnan(share) and (low, high) == (0.0, 1.0) and math.isnan(effect)
