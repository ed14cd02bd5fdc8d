"""Playing strength of the computer levels, variant by variant.

For every variant the pairs expert-heuristic, heuristic-greedy, greedy-random (and
expert-greedy, the project's target: at least 60% in two-player Block and All Fives) play
duplicate deals (each deal once per seat rotation, so luck cancels); the table gives the first
level's win rate with its 95% Wilson interval.  The pair expert-previous plays today's expert
against the expert of commit :data:`benchmarks.previous_expert.PREVIOUS_COMMIT` (unpacked from git
into a temporary folder and run in a child process, see :mod:`benchmarks.previous_expert`).
A second table gives each level's decision time
per move (mean and 95th percentile), measured on a few hands of every variant.

    python -m benchmarks.strength                       # the short default run (a few minutes)
    python -m benchmarks.strength --deals 50 --variants block,all-fives --pairs expert-greedy
    python -m benchmarks.strength --expert "expert:time=0.5" --workers 8 --json out.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence

from benchmarks import previous_expert
from boneyard.players.base import make_player
from boneyard.rules.base import VARIANTS
from boneyard.sim.simulate import simulate
from boneyard.state import Game
from boneyard.view import SeatView

PAIRS = ("expert-heuristic", "heuristic-greedy", "greedy-random", "expert-greedy", "expert-previous")


def level_spec(name: str, expert: str) -> str:
    return expert if name == "expert" else name


def strength(variants: Sequence[str], pairs: Sequence[str], deals: int, expert: str, players: int,
             seed: int, workers: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for variant in variants:
        for pair in pairs:
            if pair == "expert-previous":  # the expert of an earlier commit, in a child process
                rows.extend(previous_expert.match([variant], deals, expert, players, seed))
                continue
            first, second = (level_spec(name, expert) for name in pair.split("-"))
            started = time.perf_counter()
            result = simulate(variant, players, deals, seed=seed, ai=[first, second], workers=workers,
                              duplicate=True)
            stats = result["ai_stats"]
            assert isinstance(stats, list)
            row = stats[0]
            rows.append({"variant": variant, "pair": f"{first} vs {second}", "games": row["games"],
                         "wins": row["wins"], "win_rate": row["win_rate"], "ci95": row["ci95"],
                         "seconds": time.perf_counter() - started})
            print(f"{variant:16} {first + ' vs ' + second:34} {row['wins']:>4}/{row['games']:<4} "
                  f"{row['win_rate']:6.1%}  [{row['ci95'][0]:.2f}, {row['ci95'][1]:.2f}]", flush=True)
    return rows


def decision_times(variants: Sequence[str], levels: Sequence[str], hands: int, players: int,
                   seed: int) -> list[dict[str, object]]:
    """Seconds per ``choose`` call of each level (seat 0 against greedy), over ``hands`` hands per variant."""
    rows: list[dict[str, object]] = []
    for spec in levels:
        times: list[float] = []
        for variant in variants:
            for number in range(hands):
                from boneyard.chance import Chance
                from boneyard.rules.base import make_rules

                game = Game(make_rules(variant, players), chance=Chance(seed + number))
                game.next_hand()
                seats = [make_player(spec, seed=number)] + [make_player("greedy") for _ in range(players - 1)]
                while game.in_hand:
                    seat = game.turn
                    view = SeatView(game, seat)
                    started = time.perf_counter()
                    move = seats[seat].choose(view)
                    if seat == 0:
                        times.append(time.perf_counter() - started)
                    game.apply(move)
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0
        rows.append({"ai": spec, "moves": len(times), "mean_ms": 1000 * statistics.fmean(times) if times else 0.0,
                     "p95_ms": 1000 * p95, "max_ms": 1000 * (ordered[-1] if ordered else 0.0)})
        print(f"{spec:24} {len(times):5} moves  mean {rows[-1]['mean_ms']:8.2f} ms  "
              f"p95 {rows[-1]['p95_ms']:8.2f} ms  max {rows[-1]['max_ms']:8.2f} ms", flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength", description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(sorted(VARIANTS)), help="comma-separated variants")
    parser.add_argument("--pairs", default=",".join(PAIRS), help="comma-separated FIRST-SECOND level pairs")
    parser.add_argument("--deals", type=int, default=2, help="duplicate deals per variant and pair")
    parser.add_argument("--expert", default="expert:time=0.1", help="the expert's spec")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timing-hands", type=int, default=2,
                        help="hands per variant for the timing table (0: no timing table)")
    parser.add_argument("--json", dest="json_path", default=None, help="also write the results to this file")
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    pairs = [p.strip() for p in args.pairs.split(",") if p.strip()]
    print(f"Win rate of the first level, {args.players} players, {args.deals} duplicate deals "
          f"(each played from every seat), seed {args.seed}")
    rows = strength(variants, pairs, args.deals, args.expert, args.players, args.seed, args.workers)
    timing: list[dict[str, object]] = []
    if args.timing_hands > 0:
        print("\nDecision time per move (seat 0 against greedy)")
        levels = ["random", "greedy", "heuristic", args.expert]
        timing = decision_times(variants, levels, args.timing_hands, args.players, args.seed)
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump({"strength": rows, "timing": timing, "args": vars(args)}, handle, indent=2)


if __name__ == "__main__":
    main()
