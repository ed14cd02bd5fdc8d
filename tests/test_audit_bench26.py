"""Audit (session 26): the benchmarks as a researcher uses them.

docs/ quotes a hundred-odd ``python -m benchmarks...`` commands; each is checked against its benchmark's own
parser (``build_parser()``), with the ``bench`` extra (OpenSpiel, ``dominoes``) blocked as in CI, which does not
install it.  A bad value is refused with one line that names it, before a game is played; the smallest runs
print tables whose counts add up and repeat with the seed; the ISMCTS logs kept in ``benchmarks/logs`` pool.
The findings (fixed in ``benchmarks/``): tracebacks or nonsense tables for a bad value (``--deals -1`` printed
``0/-2 -0.0%``, ``--deals 0`` divided by zero, an unknown variant or player spec or a missing log raised), ``python
-m benchmarks --repeats 0`` running the full default instead, OpenSpiel imported before ``--help`` could
answer, a game nobody won (PIP's shared lowest totals) not told from a loss by ``duel`` and ``hidden``, ``--pool``
stopping at a log just started, and the environments' rows claiming 0 placements/s.
"""

from __future__ import annotations

import glob
import importlib
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from boneyard.sim.simulate import wilson

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BENCH_EXTRA = ("pyspiel", "open_spiel", "dominoes")
#: every benchmark that runs as ``python -m benchmarks.NAME`` (and the one-command runner, ``python -m benchmarks``)
RUNNABLE = [*sorted(f"benchmarks.{path.stem}" for path in (ROOT / "benchmarks").glob("*.py")
                    if path.stem != "__main__" and 'if __name__ == "__main__":' in path.read_text()), "benchmarks"]
FENCE = re.compile(r"^[ \t]*```[^\n]*\n(.*?)^[ \t]*```", re.M | re.S)
COMMAND = re.compile(r"python -m (benchmarks(?:\.\w+)?)\b(.*)")
#: the placeholders the docs write for a value
VALUES = {"V": "bergen", "VARIANTS": "block,draw", "D": "3", "N": "3", "S": "7", "SPEC": "expert:time=0.4"}


def commands_in(markdown: str) -> list[str]:
    """Every ``python -m benchmarks...`` command of ``markdown``: in code blocks (``\\``-continued lines joined, a
    ``# comment`` cut) and in inline code, tables included (a span may go on over a line break)."""
    found = []
    for body in FENCE.findall(markdown):
        for line in body.replace("\\\n", " ").splitlines():
            match = COMMAND.search(line)
            if match:
                found.append(" ".join(re.split(r"\s+#\s", match[0])[0].split()))
    for span in re.findall(r"`([^`]+)`", FENCE.sub("", markdown)):
        match = COMMAND.search(" ".join(span.replace("\\\n", " ").split()))
        if match:
            found.append(match[0].strip())
    return found


def documented() -> list[tuple[str, str]]:
    return [(page.name, command) for page in PAGES for command in commands_in(page.read_text(encoding="utf-8"))]


def log_text(results: list[int], summary: bool = True) -> str:
    """A log as ``benchmarks.openspiel_adapter --progress`` writes it: a game line per result, then its summary."""
    lines = [f"deal {number // 2} expert seat {number % 2}: {result:+d}  (so far ...)"
             for number, result in enumerate(results)]
    if summary:
        lines.append("expert:time=0.4 vs OpenSpiel ISMCTS (1000 simulations), python_block_dominoes, ...")
    return "\n".join(lines) + "\n"


def argv_of(command: str, folder: Path) -> tuple[str, list[str]]:
    """The module and the arguments of a documented command, its placeholders given values (a log: a new file)."""
    match = COMMAND.match(command)
    assert match, command
    module, argv = match[1], []
    for token in shlex.split(match[2]):
        token = token.strip("[]")  # an optional part: [--seed S]
        if token in ("...", "…"):
            continue
        if module == "benchmarks.paired" and not token.startswith("--"):
            if "*" in token:
                logs = sorted(glob.glob(str(ROOT / token)))
                assert logs, f"{command}: {token} matches no file"
                argv += logs
                continue
            log = folder / f"log-{len(list(folder.iterdir()))}.txt"
            log.write_text(log_text([1, -1, 1, 0]))
            token = str(log)
        token = VALUES.get(token, re.sub(r"(?<==)[A-Z]\b", "0.5", token))  # expert:time=0.4,doubt=D
        argv.append(token)
    return module, argv


def module_of(name: str) -> ModuleType:
    return importlib.import_module("benchmarks.__main__" if name == "benchmarks" else name)


@pytest.fixture
def without_bench_extra(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The ``bench`` extra uninstalled (as in CI), and every benchmark module to be imported afresh."""
    for name in BENCH_EXTRA:
        monkeypatch.setitem(sys.modules, name, None)
    for name in [name for name in sys.modules if name == "benchmarks" or name.startswith("benchmarks.")]:
        monkeypatch.delitem(sys.modules, name)
    yield


# ---------------------------------------------------------------- the commands the docs quote
def test_the_extraction_finds_continued_lines_tables_and_indented_blocks() -> None:
    page = ("Run `python -m benchmarks.duel --variants V\n--deals D` for it.\n\n"
            "| a | `python -m benchmarks.review --seed 2` |\n\n"
            "1. step\n\n   ```\n   python -m benchmarks.strength --pairs expert-greedy \\\n"
            "       --deals 3   # a comment\n   ```\n")
    assert commands_in(page) == ["python -m benchmarks.strength --pairs expert-greedy --deals 3",
                                 "python -m benchmarks.duel --variants V --deals D",
                                 "python -m benchmarks.review --seed 2"]


def test_every_documented_benchmark_command_parses_without_the_bench_extra(
        without_bench_extra: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each command docs/ quotes names a benchmark that exists and takes every flag and value quoted (``V``, ``D``,
    ``S``, ``SPEC``, ``LOG``... given values), checked by the benchmark's own parser without running it."""
    commands = documented()
    assert len(commands) > 100
    assert {COMMAND.match(command)[1] for _, command in commands} == set(RUNNABLE)  # type: ignore[index]
    failures = []
    for page, command in commands:
        module, argv = argv_of(command, tmp_path)
        try:
            module_of(module).build_parser().parse_args(argv)
        except SystemExit:
            failures.append(f"{page}: {command}\n    {capsys.readouterr().err.strip().splitlines()[-1]}")
    assert not failures, "\n".join(failures)
    assert not any(name in sys.modules and sys.modules[name] is not None for name in BENCH_EXTRA)


@pytest.mark.parametrize("module", RUNNABLE)
def test_help_works_without_the_bench_extra(module: str, without_bench_extra: None,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        module_of(module).main(["--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: python -m {module} ")  # not "usage: review.py"


@pytest.mark.parametrize("module", ["benchmarks.openspiel_adapter", "benchmarks.replies"])
def test_without_the_bench_extra_a_run_says_how_to_install_it(module: str, without_bench_extra: None,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        module_of(module).main(["--deals", "1", "--sims", "2", "--expert", "expert:samples=2"])
    message = str(done.value.code)
    assert len(message.splitlines()) == 1 and message.startswith(f"python -m {module} needs OpenSpiel")
    assert "pip install 'boneyard[bench]'" in message
    assert capsys.readouterr().out == ""


# ---------------------------------------------------------------- bad values
BAD = [
    ("benchmarks.duel", ["--deals", "-1"], "argument --deals: must be a whole number from 1 up, not '-1'"),
    ("benchmarks.duel", ["--deals", "0"], "argument --deals"),
    ("benchmarks.duel", ["--variants", "draw,nope"], "argument --variants: unknown variant 'nope'"),
    ("benchmarks.duel", ["--first", "wizard"], "argument --first: unknown player level 'wizard'"),
    ("benchmarks.duel", ["--second", "expert:foo=1"], "expert has no setting 'foo'"),
    ("benchmarks.duel", ["--seed", "-4"], "argument --seed"),
    ("benchmarks.strength", ["--deals", "-1"], "argument --deals"),
    ("benchmarks.strength", ["--variants", "nope"], "unknown variant 'nope'"),
    ("benchmarks.strength", ["--pairs", "wizard-random"], "unknown level 'wizard'"),
    ("benchmarks.strength", ["--pairs", "expert-expert"], "two different levels"),
    ("benchmarks.strength", ["--expert", "expert:samples=0"], "argument --expert: expert: samples=0"),
    ("benchmarks.strength", ["--variants", "block", "--players", "9"], "--players 9: block is for 2 to 4"),
    ("benchmarks.hidden", ["--samples", "0"], "argument --samples"),
    ("benchmarks.hidden", ["--against", "wizard"], "argument --against"),
    ("benchmarks.reading", ["--games", "0"], "argument --games"),
    ("benchmarks.reading", ["--variants", "nope"], "unknown variant 'nope'"),
    ("benchmarks.review", ["--samples", "-3"], "argument --samples"),  # divided by zero
    ("benchmarks.review", ["--samples", "1"], "from 2 to 100,000"),  # as boneyard review: an interval needs two
    ("benchmarks.review", ["--time", "-1"], "argument --time: must be a number of seconds above 0 and at most 600"),
    ("benchmarks.review", ["--seat", "5"], "argument --seat"),
    ("benchmarks.paired", ["--pool", "no-such-log.txt"], "no-such-log.txt: no such file"),
    ("benchmarks.previous_expert", ["--options", "partnerships"], "'partnerships' is not KEY=VALUE"),
    ("benchmarks.previous_expert", ["--variants", "block", "--players", "4", "--options", "nope=1"],
     "unknown option 'nope'"),
    ("benchmarks.env_anchor", ["--variants", "nope"], "unknown variant 'nope'"),
    ("benchmarks.web_moves", ["--games", "0"], "argument --games"),
    ("benchmarks.web_load", ["--src", "no-such-checkout/src"], "no boneyard package in it"),
    ("benchmarks.openspiel_adapter", ["--deals", "0"], "argument --deals"),
    ("benchmarks.openspiel_adapter", ["--expert", "wizard"], "argument --expert"),
    ("benchmarks.replies", ["--alternatives", "-1"], "argument --alternatives"),
    ("benchmarks", ["--repeats", "0"], "argument --repeats"),  # was taken for "not given": the full default ran
    ("benchmarks", ["--seconds", "0"], "argument --seconds"),
    ("benchmarks", ["--simulate-games", "-5"], "argument --simulate-games"),
]


@pytest.mark.parametrize(("module", "argv", "said"), BAD, ids=[f"{m} {' '.join(a)}" for m, a, _ in BAD])
def test_a_bad_value_is_one_line_naming_it_before_anything_runs(module: str, argv: list[str], said: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        module_of(module).main(argv)
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""  # no table of nonsense, no game played
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"python -m {module}: error: ") and said in last


def test_a_bad_value_from_the_command_line_is_no_traceback() -> None:
    done = subprocess.run([sys.executable, "-m", "benchmarks.duel", "--deals", "0", "--first", "random"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith("--deals: must be a whole number from 1 up, not '0'")


# ---------------------------------------------------------------- tiny real runs
ROW = re.compile(r"^(\S+)\s+(\d+)-(\d+)-(\d+)\s+([\d.]+)%\s+([\d.]+)% – ([\d.]+)%", re.M)


def table_rows(text: str) -> list[tuple[str, int, int, int, float, float, float]]:
    return [(m[1], int(m[2]), int(m[3]), int(m[4]), float(m[5]), float(m[6]), float(m[7])) for m in ROW.finditer(text)]


def check_rows(text: str, variants: list[str], games: int) -> list[tuple[int, int, int]]:
    """The rows of a duel-style table add up: won + lost + tied = games, the rate is won / games and lies in its
    printed Wilson interval, which is the interval of those counts."""
    rows = table_rows(text)
    assert [row[0] for row in rows] == variants
    for _, won, lost, tied, rate, low, high in rows:
        assert won + lost + tied == games
        assert rate == round(100 * won / games, 1)
        assert low <= rate <= high
        assert (low, high) == tuple(round(100 * bound, 1) for bound in wilson(won, games))
    return [row[1:4] for row in rows]


def run_main(module: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    module_of(module).main(argv)
    return capsys.readouterr().out


def test_duel_table_adds_up_and_repeats_with_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--variants", "draw,bergen", "--deals", "3", "--first", "greedy", "--second", "expert:samples=2",
            "--seed", "11"]
    first = run_main("benchmarks.duel", argv, capsys)
    counts = check_rows(first, ["draw", "bergen"], 6)
    assert check_rows(run_main("benchmarks.duel", argv, capsys), ["draw", "bergen"], 6) == counts
    assert "2 players, 3 duplicate deals, seed 11" in first


def test_a_game_nobody_won_is_a_tie_not_the_first_specs_loss() -> None:
    """PIP's equal lowest totals share the win (``Game.winner`` is None): duel and hidden showed only the first
    spec's wins, so such a game could not be told from a loss, and a deal of such a game and a loss counted among
    the deals one side won twice.  It is a tie now: won + lost + tied = games, and the rate still counts it as not
    won (as ``boneyard simulate`` counts a game nobody won)."""
    from benchmarks.duel import outcome, tally

    shared = SimpleNamespace(rules=SimpleNamespace(game_winners=lambda winner, scores: (0, 1)), winner=None,
                             scores=[40, 40])
    assert outcome(shared, {0}) == outcome(shared, {1}) == 0  # type: ignore[arg-type]
    won = SimpleNamespace(rules=SimpleNamespace(game_winners=lambda winner, scores: (1,)), winner=1, scores=[9, 0])
    assert (outcome(won, {1}), outcome(won, {0})) == (1, -1)  # type: ignore[arg-type]
    row = tally("pip", 2, lambda index: [[0, -1], [1, 1]][index], progress=False)
    assert (row["wins"], row["losses"], row["ties"], row["games"], row["swept"]) == (2, 1, 1, 4, 1)
    assert row["rate"] == 0.5


def test_hidden_table_adds_up_and_repeats_with_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--variants", "bergen", "--deals", "2", "--samples", "2", "--against", "greedy", "--shows", "all"]
    counts = check_rows(run_main("benchmarks.hidden", argv, capsys), ["bergen"], 4)
    assert check_rows(run_main("benchmarks.hidden", argv, capsys), ["bergen"], 4) == counts


def test_strength_smallest_run_adds_up_and_repeats_whatever_the_workers(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    results = []
    for workers in ("1", "2", "1"):
        out = tmp_path / f"strength-{len(results)}.json"
        run_main("benchmarks.strength", ["--variants", "block,pip", "--pairs", "greedy-random,heuristic-greedy",
                                         "--deals", "3", "--timing-hands", "0", "--workers", workers,
                                         "--json", str(out)], capsys)
        rows = json.loads(out.read_text())["strength"]
        for row in rows:
            assert row["games"] == 6 and 0 <= row["wins"] <= 6
            assert row["win_rate"] == row["wins"] / row["games"]
            assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
        results.append([(row["variant"], row["pair"], row["wins"]) for row in rows])
    assert len(results[0]) == 4 and results[0] == results[1] == results[2]


def test_reading_repeats_with_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--variants", "block", "--games", "1", "--deals", "20", "--reader", "expert:samples=2"]
    first, second = (run_main("benchmarks.reading", argv, capsys) for _ in range(2))
    rows = [re.search(r"^block\s+(\d+)\s+([\d.]+)\s+([\d.]+)", text, re.M) for text in (first, second)]
    assert rows[0] and rows[1] and rows[0].groups() == rows[1].groups()
    assert int(rows[0][1]) > 0 and float(rows[0][2]) > 0


def test_review_with_samples_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    runs = [json.loads(run_main("benchmarks.review", ["--samples", "2", "--json"], capsys)) for _ in range(2)]
    for run in runs:
        assert run["decisions"] > 0 and 0 <= run["open_hands_solved"] <= run["decisions"] + run["forced"]
    keys = ("decisions", "forced", "hands", "accuracy", "points_lost", "open_hands_solved")
    assert [runs[0][key] for key in keys] == [runs[1][key] for key in keys]


def test_the_one_command_runner_prints_its_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The smallest run of ``python -m benchmarks``: the table of every engine, and each ratio is Boneyard's
    kernel's moves/s over that engine's (one repeat: exactly)."""
    results = tmp_path / "results.json"
    out = run_main("benchmarks", ["--repeats", "1", "--seconds", "0.02", "--only", "throughput",
                                  "--json", str(results)], capsys)
    assert "1 repeats × 0.02 s" in out and "engine" in out and "Boneyard is ×" in out
    rows = json.loads(results.read_text())["table"]
    assert len(rows) == 9 and out.count("Boneyard reference (Game)") >= 3
    for kernel, *others in (rows[index:index + 3] for index in range(0, 9, 3)):
        for row in others:
            assert row["ratio"][0] == pytest.approx(kernel["moves_per_s"][0] / row["moves_per_s"][0])


def test_a_row_that_counts_no_placements_shows_none() -> None:
    """The environments count steps, not placements: their rows said ``0 (0-0)`` placements/s."""
    from benchmarks.__main__ import Table
    from benchmarks.workloads import Count

    table = Table()
    table.add("environment", "env block 2p", [Count(games=3, moves=90, placements=0, seconds=1.0)], None)
    table.add("fast", "2p Block", [Count(games=3, moves=90, placements=70, seconds=1.0)], None)
    steps, placed = (line.split(" | ") for line in table.render().splitlines()[2:])
    assert steps[4].strip() == "-" and placed[4].strip() == "70 (70-70)"


# ---------------------------------------------------------------- the ISMCTS logs
def pool(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[list[list[str]], str]:
    from benchmarks.paired import main

    main(["--pool", *argv])
    out, err = capsys.readouterr()
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in out.splitlines()
            if line.startswith("| ")][1:], err


def test_the_kept_logs_pool_and_their_totals_are_the_sum(capsys: pytest.CaptureFixture[str]) -> None:
    logs = sorted(glob.glob(str(ROOT / "benchmarks/logs/ismcts/default-*.txt")))
    rows, err = pool(logs, capsys)
    assert err == "" and len(rows) == len(logs) + 1
    counts = [[int(cell.strip(" *")) for cell in row[1:4]] for row in rows]
    assert [sum(column) for column in zip(*counts[:-1], strict=True)] == counts[-1]
    won, lost, _ = counts[-1]
    assert won > 6000 and lost > 4000 and won > lost


def test_pooling_a_run_still_going(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log just started (no game line yet) is left out with a line on stderr instead of stopping the pool; one
    without the adapter's summary is counted and marked; a log given twice is refused."""
    done, going, started = tmp_path / "done.txt", tmp_path / "going.txt", tmp_path / "started.txt"
    done.write_text(log_text([1, -1, 1, 1]))
    going.write_text(log_text([1, 0], summary=False))
    started.write_text("")
    rows, err = pool([str(done), str(going), str(started)], capsys)
    assert [row[0] for row in rows] == ["done.txt", "going.txt (unfinished: no summary line)", "**all**"]
    assert rows[-1][1:4] == ["**4**", "**1**", "**1**"]
    assert "started.txt: no game lines" in err and "left out" in err
    with pytest.raises(SystemExit) as refused:
        pool([str(done), str(tmp_path / ".." / tmp_path.name / "done.txt")], capsys)
    assert refused.value.code == 2 and "given twice" in capsys.readouterr().err


def test_an_adapter_run_is_a_log_that_paired_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The adapter's ``--progress`` output (one deal, a tiny budget) pooled by ``benchmarks.paired``: the same
    counts as its summary line."""
    pytest.importorskip("pyspiel", reason="the bench extra (open_spiel) is not installed")
    out = run_main("benchmarks.openspiel_adapter", ["--deals", "1", "--sims", "5", "--expert", "expert:samples=2",
                                                    "--progress"], capsys)
    summary = re.search(r"(\d+) wins, (\d+) losses, (\d+) ties of (\d+)", out)
    assert summary and int(summary[1]) + int(summary[2]) + int(summary[3]) == int(summary[4]) == 2
    log = tmp_path / "adapter.txt"
    log.write_text(out)
    rows, _ = pool([str(log)], capsys)
    assert rows[0][0] == "adapter.txt" and [int(cell) for cell in rows[0][1:4]] == [int(summary[i]) for i in (1, 2, 3)]

