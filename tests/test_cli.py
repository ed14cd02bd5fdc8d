"""The ``boneyard`` command: replay, variants, simulate, play — output and error contracts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boneyard import record
from boneyard.cli import app
from tests.test_record import a5_example_record, play_random

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real command in a subprocess, as a user would."""
    return subprocess.run([sys.executable, "-m", "boneyard", *args], capture_output=True, text=True,
                          input=stdin, timeout=120)


def test_replay_json_prints_the_replay_object(tmp_path: Path) -> None:
    path = tmp_path / "a5.boneyard.json"
    path.write_text(json.dumps(a5_example_record()))
    done = run("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == record.replay_json(a5_example_record())
    assert done.stderr == ""


def test_replay_text_for_a_person(tmp_path: Path) -> None:
    path = tmp_path / "game.boneyard.json"
    record.save(play_random("block", 3, seed=9), path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0
    assert "Hand 1" in result.stdout and "Game over" in result.stdout


@pytest.mark.parametrize("content,message", [
    ("not json", "not valid JSON"),
    ("[1, 2]", "a record is a JSON object"),
    (json.dumps({**a5_example_record(), "variant": "chess"}), "variant: unknown variant 'chess'"),
])
def test_replay_errors_exit_2_with_one_line_and_no_stdout(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.boneyard.json"
    path.write_text(content)
    done = run("replay", str(path), "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert "Traceback" not in done.stderr


def test_replay_of_an_illegal_move_names_it(tmp_path: Path) -> None:
    data = a5_example_record()
    data["hands"][0]["moves"][3] = "4-3@1"
    path = tmp_path / "illegal.boneyard.json"
    path.write_text(json.dumps(data))
    done = run("replay", str(path), "--json")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip().endswith('hand 1, move 4 "4-3@1": tile 1 has no open 4 end')


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    done = run("replay", str(tmp_path / "nope.json"))
    assert done.returncode == 2 and "cannot read the record" in done.stderr


def test_variants_json_lists_every_variant_with_options() -> None:
    result = runner.invoke(app, ["variants", "--json"])
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert {"block", "draw", "all-fives"} <= set(rows)
    assert "muggins" in rows["all-fives"]["aliases"]
    spinner = next(o for o in rows["all-fives"]["options"] if o["name"] == "spinner_mode")
    assert spinner["default"] == "first_double"
    assert spinner["allowed"] == ["first_double", "none", "all_doubles"]
    assert rows["block"]["min_players"] == 2 and rows["block"]["max_players"] == 4


def test_simulate_json_keys_and_reproducibility_across_workers() -> None:
    outputs = []
    for workers in ("1", "2"):
        result = runner.invoke(app, ["simulate", "all-fives", "--players", "2", "--games", "12", "--seed", "4",
                                     "--ai", "greedy,random", "--workers", workers, "--json"])
        assert result.exit_code == 0, result.stdout
        outputs.append(json.loads(result.stdout))
    keys = {"variant", "players", "games", "seed", "seats", "hands", "mean_hands", "blocked_hands", "placements",
            "moves", "seconds", "games_per_second"}
    assert keys <= set(outputs[0])
    for output in outputs:
        output.pop("seconds"), output.pop("games_per_second")
    assert outputs[0]["seats"] == outputs[1]["seats"]
    assert outputs[0] == outputs[1]
    assert [seat["ai"] for seat in outputs[0]["seats"]] == ["greedy", "random"]
    assert sum(seat["wins"] for seat in outputs[0]["seats"]) <= 12
    assert outputs[0]["placements"] < outputs[0]["moves"]


@pytest.mark.parametrize("args,message", [
    (["simulate", "chess"], "unknown variant 'chess'"),
    (["simulate", "block", "--option", "target"], "expected KEY=VALUE"),
    (["simulate", "block", "--option", "tie_rule=coin"], "option 'tie_rule': 'coin' is not allowed"),
    (["simulate", "block", "--players", "9"], "block is for 2 to 4 players, not 9"),
    (["simulate", "block", "--ai", "wizard"], "unknown player level 'wizard'"),
    (["play", "block", "--option", "partnerships=true", "--players", "3"], "'partnerships' needs 4 players"),
])
def test_bad_command_line_input_exits_2_with_a_clear_line(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_play_then_quit_saves_a_record_that_replays_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "mine.boneyard.json"
    done = run("play", "all-fives", "--seed", "3", "--save", str(path), stdin="1\n1\nq\n")
    assert done.returncode == 0, done.stderr
    assert "Saved to" in done.stdout
    data = record.load(path)
    moves = data["hands"][0]["moves"]
    assert len(moves) >= 2
    game = record.replay(data)
    assert game.in_hand
    resumed = run("play", "--resume", str(path), stdin="1\nq\n")
    assert resumed.returncode == 0, resumed.stderr
    assert len(record.load(path)["hands"][0]["moves"]) > len(moves)


def test_play_a_whole_game_to_the_end_by_always_choosing_the_first_move(tmp_path: Path) -> None:
    path = tmp_path / "whole.boneyard.json"
    done = run("play", "block", "--seed", "5", "--save", str(path), stdin="1\n" * 2000)
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout
    assert record.replay(record.load(path)).finished


def test_terminal_shows_scoring_as_it_happens_and_hint_and_undo(tmp_path: Path) -> None:
    path = tmp_path / "t.boneyard.json"
    done = run("play", "all-fives", "--seed", "3", "--save", str(path), stdin="h\n1\nu\n2\nq\n")
    assert done.returncode == 0, done.stderr
    assert "Hint:" in done.stdout
    assert "count +20 = +20" in done.stdout  # the computer's 4-4 scores 20 (see replay)
    assert "Undone." in done.stdout
    events = record.replay_json(record.load(path))["hands"][0]["events"]
    human_moves = [e["move"] for e in events if e["seat"] == 0]
    assert human_moves and human_moves[0] != "6-4@1"  # the undone first choice was replaced by the second


def test_play_rejects_an_illegal_move_and_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "t.boneyard.json"
    done = run("play", "all-fives", "--seed", "3", "--save", str(path), stdin="0-0@1\n9\n1\nq\n")
    assert done.returncode == 0, done.stderr
    assert "Not allowed: 0-0@1: 0-0 is not in seat 0's hand" in done.stdout
    assert "Choose 1 to" in done.stdout
    assert record.replay(record.load(path)).in_hand
