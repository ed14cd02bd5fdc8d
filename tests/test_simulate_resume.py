"""``boneyard simulate --records DIR --resume``: a run cut short (or one of fewer games) is played on from its records.

The games a folder holds are counted from their records, only the others are played, and the result is the one a
single uninterrupted run gives; a record of any other run is refused, naming it, before anything is played or
written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boneyard import record
from tests.test_audit_sim25 import cli, digest, one_line_error, simulate

TIMED = ("seconds", "games_per_second", "records", "resumed")


def results(summary: dict[str, Any]) -> dict[str, Any]:
    """A run's summary without what depends on the clock or the folder."""
    return {key: value for key, value in summary.items() if key not in TIMED}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_run_cut_short_and_resumed_is_the_uninterrupted_run(tmp_path: Path, workers: int) -> None:
    whole = simulate("all-fives", 3, 5, seed=8, ai="greedy,random,heuristic", duplicate=True, workers=1,
                     records=tmp_path / "whole")
    cut = tmp_path / "cut"
    simulate("all-fives", 3, 5, seed=8, ai="greedy,random,heuristic", duplicate=True, workers=1, records=cut)
    removed = sorted(cut.glob("*.boneyard.json"))[3::2]  # as a Ctrl-C leaves it: some games without a record
    for path in removed:
        path.unlink()
    (cut / f".{removed[0].name}.x1y2.tmp").write_text("{\"format\": \"boneyard/1\", \"var", encoding="utf-8")  # killed
    resumed = simulate("all-fives", 3, 5, seed=8, ai="greedy,random,heuristic", duplicate=True, workers=workers,
                       records=cut, resume=True)
    assert resumed["resumed"] == whole["games"] - len(removed) and whole["resumed"] == 0
    assert results(resumed) == results(whole)
    assert digest(cut) == digest(tmp_path / "whole")  # the missing records written again, the same games


def test_a_run_of_fewer_games_is_played_on_to_more(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    simulate("block", 2, 4, seed=3, ai="greedy,random", workers=1, records=folder)
    before = digest(folder)
    more = simulate("block", 2, 7, seed=3, ai="greedy,random", workers=1, records=folder, resume=True)
    assert more["resumed"] == 4 and more["games"] == 7
    after = digest(folder)
    assert {name: after[name] for name in before} == before and len(after) == 7  # the old kept, three more
    whole = simulate("block", 2, 7, seed=3, ai="greedy,random", workers=1, records=tmp_path / "whole")
    assert results(more) == results(whole) and after == digest(tmp_path / "whole")


def test_resuming_a_finished_run_plays_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    first = simulate("pip", 3, 2, seed=1, ai="greedy", workers=1, records=folder)
    before = digest(folder)
    again = simulate("pip", 3, 2, seed=1, ai="greedy", workers=1, records=folder, resume=True)
    assert again["resumed"] == 2 and again["games_per_second"] == 0.0
    assert results(again) == results(first) and digest(folder) == before


def rewrite(path: Path, change: Any) -> None:
    data = record.load(path)
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(("args", "spoil", "said"), [
    (["--seed", "3"], None, "written by another run"),  # the folder is seed 2's
    (["--ai", "random,greedy"], None, "written by another run"),
    (["--games", "2"], None, "game-000003.boneyard.json: no game of this run (2 games)"),
    (["--duplicate"], None, "game-000001.boneyard.json: no game of this run (6 games, each deal from its seat"),
    ([], lambda data: data.update(options={"target": 1000}), "options {\"target\": 1000}, not this run's"),
    ([], lambda data: data["hands"][-1]["moves"].pop(), "the game is not finished"),
    ([], lambda data: data["hands"][0]["moves"].insert(0, "9-9"), "hand 1, move 1"),
])
def test_a_record_of_another_run_is_refused_naming_it_and_nothing_changes(
        tmp_path: Path, args: list[str], spoil: Any, said: str) -> None:
    folder = tmp_path / "run"
    simulate("block", 2, 3, seed=2, ai="greedy,random", workers=1, records=folder)
    if spoil is not None:
        rewrite(folder / "game-000002.boneyard.json", spoil)
    before = digest(folder)
    base = {"--seed": "2", "--ai": "greedy,random", "--games": "3"}
    for flag, value in zip(args[::2], args[1::2], strict=False):
        base[flag] = value
    flags = [item for pair in base.items() for item in pair] + [arg for arg in args if arg == "--duplicate"]
    line = one_line_error(cli("simulate", "block", *flags, "--workers", "1", "--records", str(folder), "--resume"))
    assert said in line and "--resume:" in line and str(folder) in line
    assert digest(folder) == before


def test_resume_needs_a_records_folder_and_the_refusal_names_it(tmp_path: Path) -> None:
    assert "name it with --records" in one_line_error(cli("simulate", "block", "--resume"))
    folder = tmp_path / "run"
    simulate("block", 2, 2, seed=2, ai="greedy,random", workers=1, records=folder)
    line = one_line_error(cli("simulate", "block", "--records", str(folder)))
    assert "already holds game records" in line and "add --resume to play on the run that wrote them" in line


def test_the_command_says_how_many_games_came_from_the_records(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    simulate("draw", 2, 3, seed=5, ai="greedy,random", workers=1, records=folder)
    (folder / "game-000003.boneyard.json").unlink()
    shown = cli("simulate", "draw", "--games", "3", "--seed", "5", "--ai", "greedy,random", "--workers", "1",
                "--records", str(folder), "--resume")
    assert shown.exit_code == 0, shown.output
    assert "2 of the 3 games counted from the records the folder held" in " ".join(shown.stdout.split())
    assert (folder / "game-000003.boneyard.json").is_file()


def test_a_record_that_is_not_one_is_refused_naming_it(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    simulate("block", 2, 2, seed=2, ai="greedy,random", workers=1, records=folder)
    (folder / "game-000002.boneyard.json").write_text("{not json", encoding="utf-8")
    before = digest(folder)
    line = one_line_error(cli("simulate", "block", "--games", "2", "--seed", "2", "--ai", "greedy,random",
                              "--records", str(folder), "--resume"))
    assert line.startswith(f"boneyard: --resume: {folder / 'game-000002.boneyard.json'}: not valid JSON")
    assert digest(folder) == before
