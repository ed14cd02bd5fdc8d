"""Compare or pool the game-by-game logs of ``benchmarks.openspiel_adapter --progress``.

ISMCTS is seeded by the deal (its rollouts and its resampler), so two runs on the same ``--seed`` play the
same games wherever the expert makes the same moves: only the games where a change altered a move can
change outcome.  Comparing two runs game by game (which games changed outcome, and for whom) then
measures a change far more sharply than the two totals, whose difference carries the deals' luck twice.

    python -m benchmarks.paired BASE.txt OTHER.txt [OTHER.txt ...]   # each against the first, game by game
    python -m benchmarks.paired --pool LOG.txt [LOG.txt ...]          # the runs' games counted together

The pooled share's interval is given twice: the Wilson interval of the games as if independent, and the interval
counted by deal (:func:`by_deal`), the unit the duplicate design samples: a deal is played from both seats, and
where the deal decides, its two games split, so the games-as-independent interval is wider than the design's.

A log is the adapter's output with ``--progress``: one line ``deal D expert seat S: +R  (so far ...)`` per
game (positive R: the expert won), then its summary.  Pooled, a log without the summary (a run still going) is
counted and marked *unfinished*, and one without a game line yet is left out with a line on stderr.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks import arguments
from boneyard.sim.simulate import wilson

_LINE = re.compile(r"deal (\d+) expert seat (\d): ([+-]?\d+)")
_SUMMARY = re.compile(r"^\S.* vs OpenSpiel ISMCTS \(\d+ simulations\)", re.M)  #: the adapter's last lines begin so


def outcomes(path: Path) -> dict[tuple[int, int], int]:
    """Per game (deal, the expert's seat) of a log: 1 won, -1 lost, 0 tied."""
    found: dict[tuple[int, int], int] = {}
    for line in path.read_text().splitlines():
        match = _LINE.match(line)
        if match:
            result = int(match[3])
            found[(int(match[1]), int(match[2]))] = (result > 0) - (result < 0)
    if not found:
        raise SystemExit(f"{path}: no game lines (run the adapter with --progress)")
    return found


def tally(games: dict[tuple[int, int], int]) -> tuple[int, int, int]:
    """Won, lost, tied."""
    values = list(games.values())
    return values.count(1), values.count(-1), values.count(0)


def by_deal(runs: Sequence[dict[tuple[int, int], int]], z: float = 1.96) -> tuple[float, float, float, float]:
    """The share of decided games won with its 95% interval counted by deal, the unit the duplicate design draws at
    random (each deal is played from both seats, so its two games are not independent): the ratio of the sums and
    its standard error over the deals (the delta method, the deals of every run independent).  Also the design
    effect: that variance over the binomial one of as many independent games (below 1: the deal's two games
    tend to split, and the games-as-independent interval is too wide).  ``(nan, 0, 1, nan)`` without decided
    games."""
    won: dict[tuple[int, int], int] = {}
    decided: dict[tuple[int, int], int] = {}
    for number, games in enumerate(runs):
        for (deal, _), outcome in games.items():
            if outcome:
                key = (number, deal)
                won[key] = won.get(key, 0) + (outcome > 0)
                decided[key] = decided.get(key, 0) + 1
    total, count = sum(won.values()), sum(decided.values())
    if not count or len(decided) < 2:
        return math.nan, 0.0, 1.0, math.nan
    share = total / count
    deals = len(decided)
    variance = (sum((won[key] - share * decided[key]) ** 2 for key in decided) / count ** 2
                * deals / (deals - 1))
    binomial = share * (1 - share) / count
    half = z * math.sqrt(variance)
    return share, max(0.0, share - half), min(1.0, share + half), variance / binomial if binomial else math.nan


def rate(won: int, lost: int) -> str:
    """The share of decided games won, with its 95% interval."""
    if not won + lost:
        return "—"
    low, high = wilson(won, won + lost)
    return f"{won / (won + lost):.1%} ({low:.1%} – {high:.1%})"


def finished(path: Path) -> bool:
    """Whether the log ends with the adapter's summary (a run still going, or stopped, has game lines only)."""
    return _SUMMARY.search(path.read_text()) is not None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.paired", description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=arguments.log_file,
                        help="logs of benchmarks.openspiel_adapter --progress (the first is the base)")
    parser.add_argument("--pool", action="store_true", help="count every log's games together")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    seen: set[Path] = set()
    for path in args.logs:
        if path.resolve() in seen:
            parser.error(f"{path}: given twice (its games would count twice)")
        seen.add(path.resolve())
    if args.pool:
        runs = []
        for path in args.logs:
            try:
                runs.append((path, outcomes(path)))
            except SystemExit as empty:  # a run just started has no game yet: the others are pooled
                print(f"{empty} — left out", file=sys.stderr)
        if not runs:
            parser.error("no log has a game line (logs of benchmarks.openspiel_adapter --progress)")
        print("| log | won | lost | tied | of decided games |")
        print("|---|---|---|---|---|")
        totals = [0, 0, 0]
        for path, games in runs:
            counts = tally(games)
            totals = [total + count for total, count in zip(totals, counts, strict=True)]
            name = path.name if finished(path) else f"{path.name} (unfinished: no summary line)"
            print(f"| {name} | {counts[0]} | {counts[1]} | {counts[2]} | {rate(counts[0], counts[1])} |")
        print(f"| **all** | **{totals[0]}** | **{totals[1]}** | **{totals[2]}** | **{rate(totals[0], totals[1])}** |")
        share, low, high, effect = by_deal([games for _, games in runs])
        print(f"\nCounted by deal (a deal's two games are not independent): {share:.1%} ({low:.1%} – {high:.1%}), "
              f"design effect {effect:.2f}")
        return
    runs = [(path, outcomes(path)) for path in args.logs]
    if len(runs) < 2:
        parser.error("give a base log and at least one to compare with it (or --pool)")
    base_path, base = runs[0]
    print(f"against {base_path.name}: {'–'.join(map(str, tally(base)))}, {rate(*tally(base)[:2])}")
    print("| log | won–lost–tied | of decided games | games in both | outcome changed | better | worse |")
    print("|---|---|---|---|---|---|---|")
    for path, games in runs[1:]:
        shared = sorted(set(base) & set(games))
        better = sum(games[key] > base[key] for key in shared)
        worse = sum(games[key] < base[key] for key in shared)
        won, lost, tied = tally(games)
        print(f"| {path.name} | {won}–{lost}–{tied} | {rate(won, lost)} | {len(shared)} | {better + worse} | "
              f"{better} | {worse} |")


if __name__ == "__main__":
    main()
