"""The expert against the previous expert: today's code against the code of an earlier commit.

The earlier code is not copied into the tree.  ``git archive COMMIT src`` unpacks that commit's
package into a temporary folder, and a child process started with that folder on its
``PYTHONPATH`` plays its seats: for every decision the match sends it the game's record so far
(RECORD.md) and the seat; the child replays the record with its own engine, builds that seat's
:class:`~boneyard.view.SeatView` and answers its expert's move in move notation.  The child sees
the whole record, but its expert — like today's — decides from the seat's view alone (that is
what ``tests/test_fairness.py`` proves of the expert at that commit too).  A commit with the compiled kernel and
solver (``boneyard/fast/*.c``) has them built in the unpacked folder (:func:`build_compiled`), so that its expert
plays at the speed it was written for.

The match is played on today's reference ``Game``: duplicate deals, each deal once with today's
expert in every seat rotation (two players: each deal from both seats), the same time budget for
both; the table gives today's expert's win rate with its 95% Wilson interval.

    python -m benchmarks.previous_expert --variants block,draw --deals 4 --expert expert:time=0.1
    python -m benchmarks.previous_expert --variants block --players 4 --options partnerships=on --deals 4

With four players today's expert holds seats 0 and 2 in one game of a deal and 1 and 3 in the other
(in partnership Block: one side each).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from benchmarks import arguments
from boneyard.chance import Chance, game_seed
from boneyard.moves import Move
from boneyard.players.base import make_player
from boneyard.record import to_record
from boneyard.rules.base import VARIANTS, make_rules
from boneyard.sim.simulate import wilson
from boneyard.state import Game
from boneyard.view import SeatView

#: the last commit before issue 15's stronger expert ("today's code" when the work started)
PREVIOUS_COMMIT = "0ddea28"
ROOT = Path(__file__).resolve().parent.parent

#: the child: one JSON request a line ({"record", "seat", "spec", "seed"}), one line back: the move, a tab,
#: how many deals its expert searched for it (0 for a forced move), a tab and the seconds its choice took
CHILD = """
import json, sys, time
from boneyard.players.base import make_player
from boneyard.record import replay
from boneyard.view import SeatView
players = {}
for line in sys.stdin:
    request = json.loads(line)
    if "check" in request:  # can this commit's make_player build the spec? ("ok", or why not)
        try:
            make_player(request["check"], seed=0)
        except Exception as error:
            said = " ".join(f"{type(error).__name__}: {error}".split())
            sys.stdout.write(said + "\\n")
        else:
            sys.stdout.write("ok\\n")
        sys.stdout.flush()
        continue
    key = (request["game"], request["seat"])
    if key not in players:
        players[key] = make_player(request["spec"], seed=request["seed"])
    game = replay(request["record"])
    player = players[key]
    player.last = None
    view = SeatView(game, request["seat"])
    started = time.perf_counter()
    move = player.choose(view)
    seconds = time.perf_counter() - started
    deals = player.last.samples if player.last is not None else 0
    sys.stdout.write(f"{move}\\t{deals}\\t{seconds:.6f}\\n")
    sys.stdout.flush()
"""


def resolve(commit: str) -> str | None:
    """``commit`` (a hash, a tag, ``HEAD``…) as its short hash; None where git knows no such commit here."""
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "--verify", "--quiet",
                           f"{commit}^{{commit}}"], capture_output=True, text=True, check=False)
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def unpack(commit: str) -> Path:
    """The ``src`` folder of ``commit``, unpacked once into the temporary folder under its hash (``HEAD`` moves)
    (exits with one line where git cannot unpack it: an unknown commit, or no git repository)."""
    hashed = resolve(commit)
    if hashed is None:
        raise SystemExit(f"--commit {commit}: git knows no such commit here (or {ROOT} is no git repository)")
    target = Path(tempfile.gettempdir()) / f"boneyard-previous-{hashed}"
    src = target / "src"
    if not (src / "boneyard" / "__init__.py").exists():
        target.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", hashed, "src"],
                              check=False, capture_output=True)
        if done.returncode != 0:
            said = done.stderr.decode(errors="replace").strip().splitlines()
            raise SystemExit(f"--commit {commit}: git cannot unpack its src ({said[0] if said else done.returncode})")
        archive = done.stdout
        with tempfile.TemporaryFile() as handle:
            handle.write(archive)
            handle.seek(0)
            with tarfile.open(fileobj=handle) as tar:
                tar.extractall(target, filter="data")
        build_compiled(src)
    return src


def build_compiled(src: Path) -> None:
    """Compile the unpacked commit's optional C parts (``boneyard/fast/*.c``) in place, with the options of its
    ``setup.py``: without them a commit since the compiled kernel and solver would play in pure Python, slower
    and so weaker at the same budget than it ever played.  A commit without C sources has nothing to build; a
    failed build is said on stderr and its expert plays in pure Python."""
    sources = sorted((src / "boneyard" / "fast").glob("*.c"))
    if not sources:
        return
    try:
        from setuptools import Distribution, Extension
    except ImportError:
        print("previous_expert: setuptools is not installed; the commit's expert runs in pure Python", file=sys.stderr)
        return
    modules = [Extension(f"boneyard.fast.{source.stem}", [str(source)], extra_compile_args=["-O3"])
               for source in sources]
    dist = Distribution({"ext_modules": modules, "package_dir": {"": str(src)}, "script_args": []})
    command = dist.get_command_obj("build_ext")
    command.inplace = True  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as build:
        command.build_temp = build  # type: ignore[attr-defined]
        try:
            dist.run_command("build_ext")
        except Exception as error:  # the benchmark still runs, in pure Python, and says so
            print(f"previous_expert: the commit's C parts did not build ({error}); its expert runs in pure Python",
                  file=sys.stderr)


class PreviousExpert:
    """A seat played by the previous commit's expert in a child process."""

    def __init__(self, child: subprocess.Popen[str], spec: str, game_id: int, seed: int,
                 commit: str = PREVIOUS_COMMIT) -> None:
        self.child = child
        self.commit = commit
        self.spec = spec
        self.game_id = game_id
        self.seed = seed

    def decide(self, game: Game, seat: int) -> tuple[Move, int, float]:
        """The previous expert's move for ``seat``, how many deals it searched for it and the seconds it took."""
        request = {"record": to_record(game), "seat": seat, "spec": self.spec, "game": self.game_id,
                   "seed": self.seed}
        stdin: IO[str] | None = self.child.stdin
        stdout: IO[str] | None = self.child.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
        answer = stdout.readline().strip()
        if not answer:
            raise RuntimeError(f"the previous expert (commit {self.commit}) stopped answering")
        move, deals, seconds = answer.split("\t")
        return Move.parse(move), int(deals), float(seconds)


def start_child(commit: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(unpack(commit)))
    return subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env=env)


def check_spec(child: subprocess.Popen[str], spec: str, commit: str) -> None:
    """Exit with one line where the commit's own ``make_player`` refuses ``spec`` (a setting it did not have yet),
    before any game is played."""
    stdin, stdout = child.stdin, child.stdout
    assert stdin is not None and stdout is not None
    stdin.write(json.dumps({"check": spec}) + "\n")
    stdin.flush()
    answer = stdout.readline().strip()
    if answer != "ok":
        stop_child(child)
        raise SystemExit(f"previous_expert: --expert {spec}: the expert of commit {commit} does not take it "
                         f"({answer or 'its process ended'})")


def stop_child(child: subprocess.Popen[str]) -> None:
    """End the child: its input closes, it finishes its loop and exits."""
    if child.stdin is not None:
        child.stdin.close()
    child.wait(timeout=30)


def play(variant: str, players: int, seed: int, index: int, rotation: int, spec: str,
         child: subprocess.Popen[str], options: Mapping[str, object] | None = None,
         clock: dict[str, list[float]] | None = None, today_spec: str | None = None,
         commit: str = PREVIOUS_COMMIT) -> bool:
    """One game of deal ``index``; today's expert sits in the seats ``s`` with ``(s + rotation) % 2 == 0``.

    Whether today's expert's side won.  ``clock``, where given, collects each side's seconds per move
    (``"today"``, ``"previous"``: every move, forced ones included, as each expert's own choice timed it)."""
    number = game_seed(seed, index)
    game = Game(make_rules(variant, players, options), chance=Chance(number))
    today = {s for s in range(players) if (s + rotation) % 2 == 0}
    seats: list[Any] = [make_player(today_spec or spec, seed=number + 101 * s) if s in today
                        else PreviousExpert(child, spec, index * players + rotation, number + 101 * s, commit)
                        for s in range(players)]
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
            continue
        seat = game.turn
        player = seats[seat]
        if isinstance(player, PreviousExpert):
            move, _, seconds = player.decide(game, seat)
            side = "previous"
        else:
            view = SeatView(game, seat)
            started = time.perf_counter()
            move = player.choose(view)
            seconds = time.perf_counter() - started
            side = "today"
        if clock is not None:
            clock[side].append(seconds)
        game.apply(move)
    return game.winner is not None and game.winner in today


def match(variants: Sequence[str], deals: int, spec: str, players: int, seed: int,
          commit: str = PREVIOUS_COMMIT, options: Mapping[str, object] | None = None,
          progress: bool = False, today_spec: str | None = None) -> list[dict[str, object]]:
    """Today's expert (``today_spec``, default ``spec``) against the expert of ``commit`` (``spec``)."""
    mine = today_spec or spec
    rows: list[dict[str, object]] = []
    child = start_child(commit)
    check_spec(child, spec, commit)
    try:
        for variant in variants:
            started = time.perf_counter()
            wins = games = 0
            clock: dict[str, list[float]] = {"today": [], "previous": []}
            for index in range(deals):
                for rotation in range(2):
                    wins += play(variant, players, seed, index, rotation, spec, child, options, clock, mine, commit)
                    games += 1
                if progress:
                    print(f"  {variant} deal {index + 1}/{deals}: {wins}/{games} "
                          f"({time.perf_counter() - started:.0f} s)", flush=True)
            low, high = wilson(wins, games)
            per_move = {side: sum(times) / max(1, len(times)) for side, times in clock.items()}
            rows.append({"variant": variant, "pair": f"{mine} vs {spec}@{commit}", "games": games, "wins": wins,
                         "win_rate": wins / games, "ci95": [low, high], "seconds": time.perf_counter() - started,
                         "seconds_per_move": per_move, "moves": {side: len(times) for side, times in clock.items()}})
            print(f"{variant:16} {mine} vs {spec}@{commit:10} {wins:>4}/{games:<4} {wins / games:6.1%}  "
                  f"[{low:.2f}, {high:.2f}]  s/move today {per_move['today']:.3f}, "
                  f"previous {per_move['previous']:.3f}", flush=True)
    finally:
        stop_child(child)
    return rows


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.previous_expert", description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=arguments.variants, default=",".join(sorted(VARIANTS)),
                        help="comma-separated variants")
    parser.add_argument("--deals", type=arguments.positive, default=2,
                        help="duplicate deals per variant (two games each)")
    parser.add_argument("--expert", type=arguments.player, default="expert:time=0.1",
                        help="the spec both experts play with")
    parser.add_argument("--today", type=arguments.player, default=None,
                        help="today's expert's own spec, where it differs (e.g. expert:time=0.1,read=0)")
    parser.add_argument("--players", type=arguments.whole(2), default=2)
    parser.add_argument("--seed", type=arguments.seed, default=2024)
    parser.add_argument("--commit", default=PREVIOUS_COMMIT, help="the earlier commit to play against")
    parser.add_argument("--options", type=arguments.options, default="",
                        help="variant options, KEY=VALUE,... (partnerships=on)")
    parser.add_argument("--json", dest="json_path", default=None, help="also write the results to this file")
    parser.add_argument("--progress", action="store_true", help="print the running count after every deal")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    variants, options = args.variants, args.options
    arguments.check_rules(parser, variants, args.players, options)
    print(f"Win rate of today's expert against the expert of commit {args.commit}, {args.players} players, "
          f"{args.deals} duplicate deals, seed {args.seed}")
    rows = match(variants, args.deals, args.expert, args.players, args.seed, args.commit, options, args.progress,
                 args.today)
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump({"previous": rows, "args": vars(args)}, handle, indent=2)


if __name__ == "__main__":
    main()
