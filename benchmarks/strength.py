"""Playing strength of the computer levels, variant by variant.

For every variant the pairs expert-heuristic, heuristic-greedy, greedy-random (and
expert-greedy, the project's target: at least 60% in two-player Block and All Fives) play
duplicate deals (each deal once per seat rotation, so luck cancels); the table gives the first
level's win rate with its 95% Wilson interval.  The pair expert-previous plays today's expert
against the expert of commit :data:`benchmarks.previous_expert.PREVIOUS_COMMIT` (unpacked from git
into a temporary folder and run in a child process, see :mod:`benchmarks.previous_expert`).
A second table gives each level's decision time
per move (mean and 95th percentile), measured on a few hands of every variant.

``--deals-per-decision`` instead counts the deals the expert searches per decision: the same decision
positions (taken from seeded games of heuristic players, ``--player-counts`` players) are given to
today's expert and to the expert of :data:`~benchmarks.previous_expert.PREVIOUS_COMMIT`, one after the
other, at the same ``--expert`` budget; today's expert once with ``race=0`` (it searches the whole
budget, like the previous one: the throughput) and once as it plays (racing may stop early).  A
position where today's expert searches every deal that agrees with what the seat saw (nothing left to
draw, few deals: the exact expectation) has no ratio; the table counts it after the ``+``.

    python -m benchmarks.strength                       # the short default run (a few minutes)
    python -m benchmarks.strength --deals 50 --variants block,all-fives --pairs expert-greedy
    python -m benchmarks.strength --expert "expert:time=0.5" --workers 8 --json out.json
    python -m benchmarks.strength --deals-per-decision --variants double-bergen,pip --positions 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence

from benchmarks import arguments, previous_expert
from boneyard.chance import Chance
from boneyard.players.base import make_player
from boneyard.players.expert import ExpertPlayer
from boneyard.record import replay, to_record
from boneyard.rules.base import VARIANTS, make_rules
from boneyard.sim.simulate import simulate
from boneyard.state import Game
from boneyard.view import SeatView

PAIRS = ("expert-heuristic", "heuristic-greedy", "greedy-random", "expert-greedy", "expert-previous")
LEVEL_NAMES = ("random", "greedy", "heuristic", "expert")  #: the levels a pair names (``expert`` is ``--expert``)


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


def decision_positions(variant: str, players: int, count: int, seed: int) -> list[tuple[dict[str, object], int]]:
    """``count`` decisions (record so far, seat on turn) with a choice, every third one of seeded heuristic games."""
    found: list[tuple[dict[str, object], int]] = []
    heuristic = make_player("heuristic")
    number = 0
    while len(found) < count:
        game = Game(make_rules(variant, players), chance=Chance(seed + number))
        number += 1
        decisions = 0
        while not game.finished and len(found) < count:
            if not game.in_hand:
                game.next_hand()
                continue
            view = SeatView(game, game.turn)
            if len(view.legal_moves()) > 1:
                decisions += 1
                if decisions % 3 == 1:
                    found.append((to_record(game), game.turn))
            game.apply(heuristic.choose(view))
    return found


def _spread(values: Sequence[float]) -> str:
    return f"{statistics.median(values):7.1f} [{min(values):g}-{max(values):g}]"


def deals_per_decision(variants: Sequence[str], counts: Sequence[int], positions: int, expert: str,
                       seed: int) -> list[dict[str, object]]:
    """Deals searched per decision by today's expert (``race=0`` and as it plays) and the previous one."""
    full = expert + ("," if ":" in expert else ":") + "race=0"
    rows: list[dict[str, object]] = []
    child = previous_expert.start_child(previous_expert.PREVIOUS_COMMIT)
    print(f"Deals searched per decision at {expert}: the previous expert (commit {previous_expert.PREVIOUS_COMMIT}) "
          f"and today's, same positions; ratio = today (race=0) / previous per position, median [min-max]")
    print(f"{'variant':14} {'players':>7} {'positions':>9}  {'previous':>20}  {'today race=0':>20}  "
          f"{'ratio':>22}  {'today as it plays':>20}  {'s/decision prev, today':>22}")
    try:
        for variant in variants:
            for players in counts:
                deals: dict[str, list[float]] = {"previous": [], "full": [], "default": []}
                seconds: dict[str, list[float]] = {"previous": [], "full": []}
                complete = 0  # positions where today's expert searched every consistent deal (no ratio)
                for index, (record, seat) in enumerate(decision_positions(variant, players, positions, seed)):
                    game = replay(record)
                    started = time.perf_counter()
                    old = previous_expert.PreviousExpert(child, expert, index, seed + index)
                    deals["previous"].append(old.decide(game, seat)[1])
                    seconds["previous"].append(time.perf_counter() - started)
                    for key, spec in (("full", full), ("default", expert)):
                        player = make_player(spec, seed=seed + index)
                        assert isinstance(player, ExpertPlayer)
                        started = time.perf_counter()
                        player.choose(SeatView(game, seat))
                        search = player.last
                        assert search is not None
                        if key == "full" and search.deals is not None and search.samples >= len(search.deals):
                            complete += 1  # the exact expectation: no more deals to search
                            deals["previous"].pop()
                            seconds["previous"].pop()
                            break
                        if key == "full":
                            seconds["full"].append(time.perf_counter() - started)
                        deals[key].append(search.samples)
                ratios = [new / max(1, old) for new, old in zip(deals["full"], deals["previous"], strict=True)]
                row = {"variant": variant, "players": players, "positions": len(ratios), "complete": complete,
                       "expert": expert,
                       "previous": deals["previous"], "today_race0": deals["full"], "today": deals["default"],
                       "ratio_median": statistics.median(ratios), "ratio_min": min(ratios),
                       "ratio_max": max(ratios), "seconds_previous": statistics.fmean(seconds["previous"]),
                       "seconds_today": statistics.fmean(seconds["full"])}
                rows.append(row)
                print(f"{variant:14} {players:>7} {f'{len(ratios)}+{complete}':>9}  {_spread(deals['previous']):>20}  "
                      f"{_spread(deals['full']):>20}  "
                      f"{statistics.median(ratios):6.1f}x [{min(ratios):.1f}-{max(ratios):.1f}]".ljust(107)
                      + f"  {_spread(deals['default']):>20}  "
                      f"{row['seconds_previous']:10.3f}, {row['seconds_today']:.3f}", flush=True)
    finally:
        previous_expert.stop_child(child)
    return rows


def pairs(text: str) -> list[str]:
    """Comma-separated ``FIRST-SECOND`` pairs of two different levels (``expert-previous``: the earlier expert)."""
    found: list[str] = []
    for pair in filter(None, (part.strip() for part in text.split(","))):
        first, dash, second = pair.partition("-")
        if not dash or first == second:
            raise argparse.ArgumentTypeError(f"{pair!r} is not FIRST-SECOND of two different levels (e.g. {PAIRS[0]})")
        for name in (first, second) if pair != "expert-previous" else ():
            if name not in LEVEL_NAMES:
                raise argparse.ArgumentTypeError(f"{pair!r}: unknown level {name!r} (one of {', '.join(LEVEL_NAMES)})")
        found.append(pair)
    return found


def player_counts(text: str) -> list[int]:
    """Comma-separated player counts."""
    return [arguments.whole(2)(part.strip()) for part in text.split(",") if part.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength", description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=arguments.variants, default=",".join(sorted(VARIANTS)),
                        help="comma-separated variants")
    parser.add_argument("--pairs", type=pairs, default=",".join(PAIRS),
                        help="comma-separated FIRST-SECOND level pairs (\"\": none, only the timing table)")
    parser.add_argument("--deals", type=arguments.positive, default=2, help="duplicate deals per variant and pair")
    parser.add_argument("--expert", type=arguments.player, default="expert:time=0.1", help="the expert's spec")
    parser.add_argument("--players", type=arguments.whole(2), default=2)
    parser.add_argument("--seed", type=arguments.seed, default=2024)
    parser.add_argument("--workers", type=arguments.positive, default=2)
    parser.add_argument("--timing-hands", type=arguments.count, default=2,
                        help="hands per variant for the timing table (0: no timing table)")
    parser.add_argument("--json", dest="json_path", default=None, help="also write the results to this file")
    parser.add_argument("--deals-per-decision", action="store_true",
                        help="count the deals the expert searches per decision, today's against the previous one's")
    parser.add_argument("--positions", type=arguments.positive, default=20,
                        help="decision positions per variant and player count (--deals-per-decision)")
    parser.add_argument("--player-counts", type=player_counts, default="2,4",
                        help="player counts (--deals-per-decision)")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    variants = args.variants
    if args.deals_per_decision:
        for players in args.player_counts:
            arguments.check_rules(parser, variants, players)
        found = deals_per_decision(variants, args.player_counts, args.positions, args.expert, args.seed)
        if args.json_path:
            with open(args.json_path, "w", encoding="utf-8") as handle:
                json.dump({"deals_per_decision": found, "args": vars(args)}, handle, indent=2)
        return
    arguments.check_rules(parser, variants, args.players)
    print(f"Win rate of the first level, {args.players} players, {args.deals} duplicate deals "
          f"(each played from every seat), seed {args.seed}")
    rows = strength(variants, args.pairs, args.deals, args.expert, args.players, args.seed, args.workers)
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
