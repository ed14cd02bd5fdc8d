"""The environments' steps/s against the environments of an earlier commit, side by side in one run.

Issue 12 asks for environment steps/s with random legal actions at least 5x "today's", the code of
commit 0ddea28 when the issue was filed.  That code is not copied into the tree: ``git archive
COMMIT src`` unpacks its package into a temporary folder (as :mod:`benchmarks.previous_expert`
does), and two child processes run the same workload, :func:`benchmarks.workloads.env_steps`
(``observe(agent)["action_mask"]``, then ``step`` with a uniformly random legal action, whole games),
one with that folder on its ``PYTHONPATH`` and one with today's ``src``.  Each child times its own
loop; the repeats alternate which child goes first, and a ratio is taken inside a repeat.

The old environment had no ``engine`` argument, so the workload leaves it out in both children and
each environment steps on its default engine.

    python -m benchmarks.env_anchor                       # every variant, 2 players; 3 repeats of 1 s
    python -m benchmarks.env_anchor --variants all-fives,pip --players 4 --repeats 5 --seconds 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from benchmarks import arguments
from benchmarks.previous_expert import unpack
from benchmarks.workloads import Count, summary

#: the code when issue 12 was filed ("today's" in its targets)
ANCHOR_COMMIT = "0ddea28"
ROOT = Path(__file__).resolve().parent.parent

#: the child: one JSON request a line ({"variant", "players", "options", "seconds", "seed"}), one count back
CHILD = """
import json, sys
import boneyard
from benchmarks.workloads import env_steps
sys.stdout.write(json.dumps({"package": boneyard.__file__}) + "\\n")
sys.stdout.flush()
for line in sys.stdin:
    request = json.loads(line)
    run = env_steps(request["variant"], request["players"], None, request["options"])
    count = run(request["seconds"], request["seed"])
    sys.stdout.write(json.dumps({"games": count.games, "moves": count.moves, "seconds": count.seconds}) + "\\n")
    sys.stdout.flush()
"""


class Child:
    """A process that runs the environment workload on the package found in ``src``."""

    def __init__(self, src: Path) -> None:
        path = os.pathsep.join([str(src), str(ROOT)])  # that package, and today's benchmarks
        self.process = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env=dict(os.environ, PYTHONPATH=path), cwd=ROOT)
        self.src = src
        self.package = str(self._answer()["package"])
        if not self.package.startswith(str(src)):
            raise RuntimeError(f"the child imported {self.package}, not the package in {src}")

    def _answer(self) -> dict[str, Any]:
        stdout: IO[str] | None = self.process.stdout
        assert stdout is not None
        line = stdout.readline()
        if not line:
            raise RuntimeError(f"the benchmark child on {self.src} stopped answering")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def run(self, variant: str, players: int, options: Mapping[str, object], seconds: float, seed: int) -> Count:
        stdin: IO[str] | None = self.process.stdin
        assert stdin is not None
        stdin.write(json.dumps({"variant": variant, "players": players, "options": dict(options),
                                "seconds": seconds, "seed": seed}) + "\n")
        stdin.flush()
        answer = self._answer()
        return Count(games=answer["games"], moves=answer["moves"], seconds=answer["seconds"])

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


Config = tuple[str, int, Mapping[str, object]]


def resolve(commit: str) -> str:
    """The full hash of ``commit`` (its unpacked package is kept under that name)."""
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", commit], check=True, capture_output=True,
                          text=True).stdout.strip()


def measure(configs: Sequence[Config], repeats: int, seconds: float,
            commit: str = ANCHOR_COMMIT) -> list[tuple[Config, list[Count], list[Count]]]:
    """For every ``(variant, players, options)``: the counts of each repeat today and at ``commit``."""
    out: list[tuple[Config, list[Count], list[Count]]] = []
    children = {"today": Child(ROOT / "src"), "anchor": Child(unpack(resolve(commit)))}
    try:
        for variant, players, options in configs:
            counts: dict[str, list[Count]] = {name: [] for name in children}
            for repeat in range(repeats):
                order = list(children) if repeat % 2 == 0 else list(children)[::-1]
                for name in order:
                    counts[name].append(children[name].run(variant, players, options, seconds, 1000 + repeat))
            out.append(((variant, players, options), counts["today"], counts["anchor"]))
    finally:
        for child in children.values():
            child.close()
    return out


def ratios(today: Sequence[Count], anchor: Sequence[Count]) -> list[float]:
    """Today's steps/s over the anchor's, repeat by repeat."""
    return [a.rate("moves") / b.rate("moves") for a, b in zip(today, anchor, strict=True) if b.rate("moves")]


def compare(configs: Sequence[Config], repeats: int, seconds: float,
            commit: str = ANCHOR_COMMIT) -> list[dict[str, Any]]:
    """:func:`measure`, summarised: median (min, max) steps/s today and at ``commit``, and their ratio."""
    rows: list[dict[str, Any]] = []
    for (variant, players, options), today, old in measure(configs, repeats, seconds, commit):
        rows.append({"variant": variant, "players": players, "options": dict(options),
                     "today": summary([c.rate("moves") for c in today]),
                     "anchor": summary([c.rate("moves") for c in old]), "ratio": summary(ratios(today, old)),
                     "commit": commit})
        print(render_row(rows[-1]), flush=True)
    return rows


def cell(triple: Sequence[float], digits: int = 0) -> str:
    mid, low, high = triple
    return f"{mid:,.{digits}f} ({low:,.{digits}f}-{high:,.{digits}f})"


def render_row(row: Mapping[str, Any]) -> str:
    options = ",".join(f"{key}={value}" for key, value in row["options"].items())
    game = f"{row['variant']} {row['players']}p" + (f" {options}" if options else "")
    return (f"| {game} | {cell(row['today'])} | {cell(row['anchor'])} | **{cell(row['ratio'], 1)}** |")


def build_parser() -> argparse.ArgumentParser:
    from boneyard.rules.base import VARIANTS

    parser = argparse.ArgumentParser(prog="python -m benchmarks.env_anchor", description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=arguments.variants, default=",".join(sorted(VARIANTS)),
                        help="comma-separated variants")
    parser.add_argument("--players", type=arguments.whole(2), default=2)
    parser.add_argument("--options", type=arguments.options, default="",
                        help="variant options, KEY=VALUE,... (partnerships=on)")
    parser.add_argument("--repeats", type=arguments.positive, default=3)
    parser.add_argument("--seconds", type=arguments.seconds, default=1.0, help="seconds per environment per repeat")
    parser.add_argument("--commit", default=ANCHOR_COMMIT, help="the earlier commit to compare with")
    parser.add_argument("--json", dest="json_path", default=None, help="also write the results to this file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    options, variants = args.options, args.variants
    arguments.check_rules(parser, variants, args.players, options)
    print(f"Environment steps/s (observe, then step with a random legal action), today against commit "
          f"{args.commit}; {args.repeats} repeats × {args.seconds:g} s; load average {os.getloadavg()[0]:.2f}")
    print(f"| game | today | {args.commit} | today is × |\n|---|---|---|---|", flush=True)
    rows = compare([(variant, args.players, options) for variant in variants], args.repeats, args.seconds,
                   args.commit)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump({"rows": rows, "args": vars(args)}, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
