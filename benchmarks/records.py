"""Reading game records (`record.replay`, `boneyard stats`): today's code beside an earlier commit's.

Every saved game is replayed move by move, each move checked legal, whenever it is read: by ``boneyard replay``,
``review``, ``stats``, resuming, and the web table loading a stored game.  This benchmark writes one folder of
records (greedy players, seeded, every variant asked for), then times, in a child process per code base, reading
them all back: ``record.replay(record.loads(text))`` over every file (the texts are read from disk first), and
``player_stats.collect`` over the folder (what ``boneyard stats`` does).  Today's code and the commit's take turns
within each repeat, so the machine's load hits both alike; the table shows medians with their min-max range.

    python -m benchmarks.records                            # 40 games of each variant, 3 repeats, against HEAD
    python -m benchmarks.records --games 200 --repeats 5 --commit 4179288
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks import arguments

ROOT = Path(__file__).resolve().parent.parent
#: (variant, players) of the folder's games, the default: the seven variants at a usual table size
TABLES = [("block", 2), ("draw", 2), ("all-fives", 2), ("bergen", 2), ("double-bergen", 4), ("flower-scorpion", 2),
          ("pip", 3)]

#: the child: times reading every record of the folder (argv[1]) with the code on its PYTHONPATH, prints one JSON line
CHILD = """
import json, sys, time
from pathlib import Path
from boneyard import player_stats, record
folder = Path(sys.argv[1])
texts = [path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*.boneyard.json"))]
started = time.perf_counter()
moves = 0
for text in texts:
    game = record.replay(record.loads(text))
    moves += sum(len(log.events) for log in game.log)
replayed = time.perf_counter() - started
started = time.perf_counter()
stats = player_stats.collect([folder])
collected = time.perf_counter() - started
print(json.dumps({"records": len(texts), "moves": moves, "replay_s": replayed, "stats_s": collected,
                  "skipped": len(stats.skipped)}))
"""


def write_records(folder: Path, tables: Sequence[tuple[str, int]], games: int, seed: int) -> None:
    """``games`` seeded games of greedy players for each ``(variant, players)``, their records under ``folder``."""
    from boneyard.sim.simulate import simulate

    for variant, players in tables:
        simulate(variant, players, games, seed=seed, ai="greedy", workers=1,
                 records=folder / f"{variant}-{players}")


def time_reading(src: Path, folder: Path) -> dict[str, Any]:
    """One child's timings, reading ``folder`` with the package under ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(folder)], env=env, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise SystemExit(f"records: reading with {src} failed: {said[-1] if said else done.returncode}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def cell(values: list[float], digits: int = 0) -> str:
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}-{max(values):,.{digits}f})"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.records", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=arguments.positive, default=40, help="games of each variant")
    parser.add_argument("--variants", type=arguments.variants, default=None,
                        help="comma-separated variants (default: all seven, PIP with 3 players, Double Bergen 4)")
    parser.add_argument("--seed", type=arguments.seed, default=1)
    parser.add_argument("--repeats", type=arguments.positive, default=3)
    parser.add_argument("--commit", default="HEAD", help="the earlier code to read beside today's (git archive)")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    from benchmarks.previous_expert import resolve, unpack

    parser = build_parser()
    args = parser.parse_args(argv)
    commit = resolve(args.commit)  # (named by its hash in the table: HEAD moves)
    if commit is None:
        parser.error(f"--commit {args.commit}: git knows no such commit here")
    args.commit = commit
    players = dict(TABLES)
    tables = TABLES if args.variants is None else [(name, players[name]) for name in args.variants]
    bases = {"today": ROOT / "src", args.commit: unpack(args.commit)}
    with tempfile.TemporaryDirectory(prefix="boneyard-records-") as top:
        folder = Path(top)
        write_records(folder, tables, args.games, args.seed)
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in bases}
        for _ in range(args.repeats):
            for name, src in bases.items():
                runs[name].append(time_reading(src, folder))
    first = runs["today"][0]
    print(f"Reading {first['records']:,} records ({first['moves']:,} moves; {args.games} greedy games each of "
          f"{', '.join(f'{v} ({p})' for v, p in tables)}, seed {args.seed}), {args.repeats} repeats, one process "
          "each, in turn\n")
    header = ["code", "replay: records/s", "replay: moves/s", "stats: records/s", "today is × (replay)"]
    rows = []
    for name, results in runs.items():
        ratio = [mine["replay_s"] / today["replay_s"] for mine, today in zip(results, runs["today"], strict=True)]
        rows.append([name, cell([r["records"] / r["replay_s"] for r in results]),
                     cell([r["moves"] / r["replay_s"] for r in results]),
                     cell([r["records"] / r["stats_s"] for r in results]),
                     "-" if name == "today" else cell(ratio, 2)])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(text.ljust(width) for text, width in zip(row, widths, strict=True)).rstrip())
    if any(r["skipped"] for results in runs.values() for r in results):
        print("\n(some records could not be read by one of the code bases: its stats count fewer)")


if __name__ == "__main__":
    main()
