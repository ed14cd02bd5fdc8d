"""``python -m benchmarks``: Boneyard's speed, side by side with the anchors, in one table.

Installs nothing.  The anchors are used when the ``bench`` extra is installed
(``pip install -e '.[bench]'``: ``dominoes==6.1.0`` and ``open_spiel==2.0.2``); a missing one is
reported and skipped.  Every comparison runs its engines one after the other inside each repeat,
so machine load hits all of them alike; a ratio is computed within a repeat, and the table shows
the median over repeats with the min-max range.

    python -m benchmarks              # 5 repeats of 2 s per engine
    python -m benchmarks --quick      # 3 repeats of 0.5 s, smaller simulate runs
    python -m benchmarks --repeats 9 --seconds 3 --json results.json
    python -m benchmarks --only commands   # issue 12's targets: simulate, greedy per variant, environments
    python -m benchmarks --only env        # the environments' steps/s against those of commit 0ddea28
    python -m benchmarks --only greedy     # only the greedy rows of 'commands': fast vs reference engine
    python -m benchmarks --only scoring    # random-player simulate of the Bergen family and PIP: kernel vs Python loop
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import platform
import sys
import time
from typing import Any

from benchmarks import arguments, workloads
from benchmarks.workloads import Count, Workload, summary

SECTIONS = ["anchors", "throughput", "simulate", "primitives", "commands", "greedy", "env", "scoring"]
PARTNERSHIP = {"partnerships": True}
OPEN_LEAD = {"first_lead": "random_player_any_tile"}  # OpenSpiel's player 0 leads any tile


def have(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def kernel_built() -> bool:
    from boneyard.fast import engine

    return engine.KERNEL


class Table:
    """Rows of engine, game, games/s, moves/s, placements/s and the ratio to Boneyard (medians with min-max)."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add(self, engine: str, game: str, counts: list[Count], ratios: list[float] | None,
            ratio_unit: str = "") -> None:
        self.rows.append({
            "engine": engine, "game": game,
            "games_per_s": summary([c.rate("games") for c in counts]),
            "moves_per_s": summary([c.rate("moves") for c in counts]),
            # (None, shown "-": a workload that counts no placements, the environments' steps)
            "placements_per_s": summary([c.rate("placements") for c in counts])
            if any(c.placements for c in counts) else None,
            "ratio": summary(ratios) if ratios else None, "ratio_unit": ratio_unit,
        })

    def render(self) -> str:
        def cell(triple: tuple[float, float, float] | None, digits: int = 0) -> str:
            if triple is None:
                return "-"
            mid, low, high = triple
            return f"{mid:,.{digits}f} ({low:,.{digits}f}-{high:,.{digits}f})"

        header = ["engine", "game", "games/s", "moves/s", "placements/s", "Boneyard is ×"]
        body = [[r["engine"], r["game"], cell(r["games_per_s"]), cell(r["moves_per_s"]),
                 cell(r["placements_per_s"]),
                 (cell(r["ratio"], 1) + (f" {r['ratio_unit']}" if r["ratio_unit"] else "")) if r["ratio"] else "-"]
                for r in self.rows]
        widths = [max(len(str(line[i])) for line in [header, *body]) for i in range(len(header))]
        lines = [" | ".join(str(v).ljust(w) for v, w in zip(header, widths, strict=True))]
        lines.append("-|-".join("-" * w for w in widths))
        lines += [" | ".join(str(v).ljust(w) for v, w in zip(line, widths, strict=True)) for line in body]
        return "\n".join(lines)


def side_by_side(runs: dict[str, Workload], repeats: int, seconds: float) -> dict[str, list[Count]]:
    """Each repeat runs every engine once, in turn (the order alternates between repeats)."""
    results: dict[str, list[Count]] = {name: [] for name in runs}
    names = list(runs)
    for repeat in range(repeats):
        order = names if repeat % 2 == 0 else names[::-1]
        for name in order:
            results[name].append(runs[name](seconds, 1000 + repeat))
    return results


def ratios(ours: list[Count], theirs: list[Count], what: str) -> list[float]:
    return [a.rate(what) / b.rate(what) for a, b in zip(ours, theirs, strict=True) if b.rate(what)]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 repeats of 0.5 s, small simulate runs")
    parser.add_argument("--repeats", type=arguments.positive, help="repeats of every measurement (default 5, quick 3)")
    parser.add_argument("--seconds", type=arguments.seconds,
                        help="seconds per engine per repeat (default 2, quick 0.5)")
    parser.add_argument("--simulate-games", type=arguments.positive,
                        help="games per simulate run (default 3000, quick 600)")
    parser.add_argument("--simulate-long", type=arguments.positive,
                        help="games of the longer simulate runs of 'commands', where start-up weighs less "
                             "(default 10000, quick 3000)")
    parser.add_argument("--skip", action="append", default=[],
                        choices=SECTIONS, help="leave a section out")
    parser.add_argument("--only", action="append", default=[], choices=SECTIONS, help="run only this section")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.only:
        args.skip = [section for section in SECTIONS if section not in args.only]

    def given(value: float | None, default: float, quick: float) -> Any:
        """A value given on the command line (0 is refused by its type, never taken for "not given")."""
        return value if value is not None else quick if args.quick else default

    repeats = given(args.repeats, 5, 3)
    seconds = given(args.seconds, 2.0, 0.5)
    sim_games = given(args.simulate_games, 3000, 600)
    sim_long = given(args.simulate_long, 10000, 3000)

    kernel = kernel_built()
    print(f"Boneyard benchmarks: python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start; "
          f"compiled kernel {'built' if kernel else 'NOT built (pure Python)'}; "
          f"{repeats} repeats × {seconds:g} s", flush=True)
    table = Table()
    notes: list[str] = []
    started = time.perf_counter()
    fast_label = "Boneyard fast (kernel)" if kernel else "Boneyard fast"

    if "anchors" not in args.skip:
        # 4-player partnership Block against the dominoes package
        runs: dict[str, Workload] = {
            fast_label: workloads.fast_deals("block", 4, PARTNERSHIP, kernel=True),
            "Boneyard fast (Python loop)": workloads.fast_deals("block", 4, PARTNERSHIP, kernel=False),
        }
        if have("dominoes"):
            runs["dominoes 6.1.0"] = workloads.dominoes_partnership
        else:
            notes.append("dominoes is not installed (pip install dominoes==6.1.0): its row is skipped")
        got = side_by_side(runs, repeats, seconds)
        ours = got[fast_label]
        game = "partnership Block, 1 deal"
        table.add(fast_label, game, ours, None)
        table.add("Boneyard fast (Python loop)", game, got["Boneyard fast (Python loop)"], None)
        if "dominoes 6.1.0" in got:
            table.add("dominoes 6.1.0", game, got["dominoes 6.1.0"],
                      ratios(ours, got["dominoes 6.1.0"], "placements"), "placements/s")
        print(table.render().splitlines()[-1], flush=True)

        # 2-player Block against OpenSpiel's Python game
        runs = {
            fast_label: workloads.fast_deals("block", 2, OPEN_LEAD, kernel=True),
            "Boneyard fast (Python loop)": workloads.fast_deals("block", 2, OPEN_LEAD, kernel=False),
        }
        if have("pyspiel"):
            runs["OpenSpiel 2.0.2 python_block_dominoes"] = workloads.openspiel_block
        else:
            notes.append("open_spiel is not installed (pip install open_spiel==2.0.2): its row is skipped")
        got = side_by_side(runs, repeats, seconds)
        ours = got[fast_label]
        game = "2p Block, 1 deal"
        table.add(fast_label, game, ours, None)
        table.add("Boneyard fast (Python loop)", game, got["Boneyard fast (Python loop)"], None)
        if "OpenSpiel 2.0.2 python_block_dominoes" in got:
            theirs = got["OpenSpiel 2.0.2 python_block_dominoes"]
            table.add("OpenSpiel 2.0.2 python_block_dominoes", game, theirs, ratios(ours, theirs, "placements"),
                      "moves/s")
        print(table.render().splitlines()[-1], flush=True)

    if "throughput" not in args.skip:
        for variant, players, options, game in [
            ("block", 2, {}, "2p Block to 100"),
            ("block", 4, PARTNERSHIP, "partnership Block to 100"),
            ("all-fives", 2, {}, "2p All Fives to 250"),
        ]:
            runs = {
                fast_label: workloads.fast_games(variant, players, options, kernel=True),
                "Boneyard fast (Python loop)": workloads.fast_games(variant, players, options, kernel=False),
                "Boneyard reference (Game)": workloads.reference_games(variant, players, options),
            }
            got = side_by_side(runs, repeats, seconds)
            ours = got[fast_label]
            table.add(fast_label, game, ours, None)
            for name in ("Boneyard fast (Python loop)", "Boneyard reference (Game)"):
                table.add(name, game, got[name], ratios(ours, got[name], "moves"), "moves/s")
            print(table.render().splitlines()[-1], flush=True)

    print()
    print(table.render())
    results: dict[str, Any] = {"table": table.rows, "repeats": repeats, "seconds": seconds, "kernel": kernel}

    if "simulate" not in args.skip:
        one: list[float] = []
        two: list[float] = []
        for repeat in range(repeats):
            pair: list[tuple[list[float], int]] = [(one, 1), (two, 2)]
            for bucket, workers in (pair if repeat % 2 == 0 else pair[::-1]):
                bucket.append(workloads.simulate_rate(workers, sim_games))
        scaling = [b / a for a, b in zip(one, two, strict=True)]

        def fmt(values: list[float], digits: int = 0) -> str:
            mid, low, high = summary(values)
            return f"{mid:,.{digits}f} ({low:,.{digits}f}-{high:,.{digits}f})"

        print()
        print(f"boneyard simulate, 2p Block, random players, {sim_games} games per run:")
        print(f"  1 worker : {fmt(one)} games/s")
        print(f"  2 workers: {fmt(two)} games/s")
        print(f"  scaling  : {fmt(scaling, 2)}×")
        results["simulate"] = {"games": sim_games, "one_worker": one, "two_workers": two, "scaling": scaling}

    if "primitives" not in args.skip:
        timings: dict[str, list[float]] = {}
        for repeat in range(repeats):
            for label, value in workloads.primitives(min(seconds, 1.0), 500 + repeat).items():
                timings.setdefault(label, []).append(value)
        print()
        print("search primitives, mid-hand positions of partnership Block (µs per call, median (min-max)):")
        for label, values in timings.items():
            mid, low, high = summary(values)
            print(f"  {label:<24} {mid:7.2f} ({low:.2f}-{high:.2f})")
        results["primitives_us"] = timings

    if "commands" not in args.skip:
        results["commands"] = commands(repeats, seconds, sim_games, sim_long, notes)
    elif "greedy" not in args.skip:  # (the commands' table has the greedy rows already)
        greedy_table = Table()
        print(f"\nsimulate with greedy players ({max(4, sim_games // 100)} games per run):", flush=True)
        greedy_rows(greedy_table, repeats, sim_games)
        print()
        print(greedy_table.render())
        results["greedy"] = greedy_table.rows
    if "scoring" not in args.skip:
        if kernel:
            scoring_table = Table()
            scoring_rows(scoring_table, repeats, sim_games)
            print()
            print(scoring_table.render())
            results["scoring"] = scoring_table.rows
        else:
            notes.append("the compiled kernel is not built: no 'scoring' rows")
    if "commands" in args.skip and "env" not in args.skip:  # (the commands' table has the environment rows)
        env_table = Table()
        env_rows(env_table, repeats, seconds)
        print()
        print(env_table.render())
        results["env"] = env_table.rows

    for note in notes:
        print("note:", note)
    print(f"\ntotal {time.perf_counter() - started:.0f} s; load average {os.getloadavg()[0]:.2f} at the end")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
    return 0


def env_rows(table: Table, repeats: int, seconds: float) -> None:
    """The PettingZoo environment's steps/s with random legal actions (``workloads.env_steps``), today against
    the environment of commit 0ddea28 (issue 12's "today"), side by side in two child processes
    (``benchmarks.env_anchor``): every variant with its fewest players, and a 4- and a 5-player game."""
    from benchmarks import env_anchor
    from boneyard.rules.base import VARIANTS, find_variant

    configs: list[env_anchor.Config] = [(name, find_variant(name).min_players, {}) for name in sorted(VARIANTS)]
    configs += [("all-fives", 4, {}), ("pip", 5, {})]
    print(f"\nthe environments against commit {env_anchor.ANCHOR_COMMIT}:", flush=True)
    for (variant, players, _), today, anchor in env_anchor.measure(configs, repeats, seconds):
        game = f"env {variant} {players}p, random"
        table.add("environment", game, today, env_anchor.ratios(today, anchor), f"{env_anchor.ANCHOR_COMMIT}'s steps/s")
        table.add(f"environment at {env_anchor.ANCHOR_COMMIT}", game, anchor, None)
        print("\n".join(table.render().splitlines()[-2:]), flush=True)


def greedy_rows(table: Table, repeats: int, sim_games: int) -> None:
    """``simulate`` with greedy players on the fast and the reference engine for every variant (one
    ``sim_games // 100`` game run per engine and repeat, the two summaries compared): a row pair each."""
    from boneyard.fast import unsupported
    from boneyard.rules.base import VARIANTS, find_variant, make_rules

    greedy_games = max(4, sim_games // 100)
    for variant in sorted(VARIANTS):
        players = find_variant(variant).min_players
        fast_plays = not unsupported(make_rules(variant, players))
        for engine in ("auto", "reference"):  # one game each first: imports and tables are not timed
            workloads.simulate_games(variant, players, 1, "greedy", engine, 0)
        runs: dict[str, list[Count]] = {"auto": [], "reference": []}
        for repeat in range(repeats):
            summaries = []
            for engine in (("auto", "reference") if repeat % 2 == 0 else ("reference", "auto")):
                count, same = workloads.simulate_games(variant, players, greedy_games, "greedy", engine, repeat)
                runs[engine].append(count)
                summaries.append(same)
            if summaries[0] != summaries[1]:
                raise SystemExit(f"simulate {variant}: the engines disagree for seed {repeat}")
        game = f"simulate {variant} {players}p, greedy"
        label = "fast engine" if fast_plays else "auto (reference: no fast engine yet)"
        table.add(f"{label}", game, runs["auto"], ratios(runs["auto"], runs["reference"], "games"),
                  "reference games/s")
        table.add("reference engine", game, runs["reference"], None)
        print(table.render().splitlines()[-2], flush=True)


def scoring_rows(table: Table, repeats: int, sim_games: int) -> None:
    """``simulate`` with random players of the variants that score during the hand and PIP, on the fast engine
    (in this process, one worker, ``sim_games // 10`` games per run, CPU time): whole hands in the compiled
    kernel, its points tables (PIP: its rule tables) emptied before the run (as a new ``boneyard simulate``
    process starts) and already filled, against the Python loop (no kernel).  The three summaries must be
    the same."""
    games = max(20, sim_games // 10)
    print(f"\nsimulate with random players, the Bergen family and PIP ({games} games per run):", flush=True)
    for variant, players in (("bergen", 2), ("flower-scorpion", 2), ("double-bergen", 2), ("double-bergen", 4),
                             ("pip", 2), ("pip", 5)):
        workloads.simulate_games(variant, players, 1, "random", "fast", 0)  # imports are not timed
        runs: dict[str, list[Count]] = {"empty": [], "filled": [], "python": []}
        for repeat in range(repeats):
            summaries = []
            kinds = ("empty", "filled", "python") if repeat % 2 == 0 else ("python", "empty", "filled")
            for kind in kinds:
                if kind == "empty":
                    workloads.kernel_tables_emptied()
                with workloads.kernel_off() if kind == "python" else contextlib.nullcontext():
                    count, same = workloads.simulate_games(variant, players, games, "random", "fast", repeat)
                runs[kind].append(count)
                summaries.append(same)
            if any(summary != summaries[0] for summary in summaries):
                raise SystemExit(f"simulate {variant}: the kernel and the Python loop disagree for seed {repeat}")
        game = f"simulate {variant} {players}p, random"
        for kind, label in (("empty", "kernel, tables from empty"), ("filled", "kernel, tables filled")):
            table.add(label, game, runs[kind], ratios(runs[kind], runs["python"], "games"), "Python loop's games/s")
        table.add("Python loop (no kernel)", game, runs["python"], None)
        print("\n".join(table.render().splitlines()[-3:]), flush=True)


def commands(repeats: int, seconds: float, sim_games: int, sim_long: int, notes: list[str]) -> list[dict[str, Any]]:
    """Issue 12's targets, each side by side in one run: ``boneyard simulate`` (the command, a fresh
    process, ``sim_games`` and ``sim_long`` games) against OpenSpiel's ``python_block_dominoes``;
    ``simulate`` with greedy players on the fast and the reference engine for every variant; the
    PettingZoo environment's steps/s against commit 0ddea28's (:func:`env_rows`)."""
    table = Table()
    print(f"\nthe commands ({sim_games} and {sim_long} games per simulate run):", flush=True)
    runs = [(f"{games}/{workers}", games, workers) for games in dict.fromkeys((sim_games, sim_long))
            for workers in ("1", "")]
    got: dict[str, list[Count]] = {key: [] for key, _, _ in runs}
    got["openspiel"] = []
    for repeat in range(repeats):
        for key, games, workers in runs:
            block = ["block", "--players", "2", "--ai", "random,random", "--games", str(games), "--seed", str(repeat)]
            got[key].append(workloads.command_simulate([*block, "--workers", workers] if workers else block))
        if have("pyspiel"):
            got["openspiel"].append(workloads.openspiel_block(seconds, 1000 + repeat))
    for key, games, workers in runs:
        label = f"boneyard simulate --workers {workers}" if workers else f"boneyard simulate ({os.cpu_count()} workers)"
        table.add(label, f"2p Block, random, {games} games", got[key],
                  ratios(got[key], got["openspiel"], "placements") or None, "OpenSpiel's placements/s")
    if got["openspiel"]:
        table.add("OpenSpiel 2.0.2 python_block_dominoes", "2p Block, 1 deal, random", got["openspiel"], None)
    else:
        notes.append("open_spiel is not installed (pip install open_spiel==2.0.2): no simulate ratio")
    print(table.render(), flush=True)

    greedy_rows(table, repeats, sim_games)

    env_rows(table, repeats, seconds)
    print()
    print(table.render())
    print("(moves/s of the environment rows are steps/s; simulate rows through the command are wall-clock, "
          "start-up included)")
    return table.rows


if __name__ == "__main__":
    sys.exit(main())

