"""The ``boneyard`` command: replay, variants, simulate, play — output and error contracts."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import boneyard
from boneyard import record
from boneyard.chance import HandChance
from boneyard.cli import app
from tests.test_record import a5_example_record, play_random

runner = CliRunner()


def run(*args: str, stdin: str | None = None, columns: int = 80) -> subprocess.CompletedProcess[str]:
    """Run the real command in a subprocess, as a user would (a terminal ``columns`` wide)."""
    return subprocess.run([sys.executable, "-m", "boneyard", *args], capture_output=True, text=True,
                          input=stdin, timeout=120, env={**os.environ, "COLUMNS": str(columns)})


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
    (["play", "draw", "--web", "--save", "x.json"], "--save is for the terminal"),
    (["simulate", "block", "-o", "deal_sizes=5,5,5,5,5"], "lists 5 sizes, but block seats 2 to 4 players"),
    (["simulate", "block", "-o", "deal_sizes=7/0"], "'deal_sizes': '7/0' is not a hand size (7) or one per player "
                                                    "count (7/5/5), each at least 1"),
    (["simulate", "block", "--address", "ray://x:1"], "is for the ray backend: add --backend ray"),
    (["play", "block", "--players", "0"], "block is for 2 to 4 players, not 0"),
    (["play", "block", "--seed", "-3"], "the seed must be a whole number from 0 to 2^63 - 1, not -3"),
    (["simulate", "block", "--option", "target=0"], "option 'target': 0 is not a whole number from 1 to 1,000,000"),
    (["simulate", "all-fives", "--option", "target=999999999999999999999"], "is not a whole number from 1 to"),
    (["simulate", "flower-scorpion", "--option", "score_floor=5"],
     "'score_floor': 5 is not allowed (choose from 0, none)"),
    (["simulate", "block", "--players", "9"], "block is for 2 to 4 players, not 9"),
    (["simulate", "block", "--ai", "wizard"], "unknown player level 'wizard'"),
    (["play", "block", "--option", "partnerships=true", "--players", "3"], "'partnerships' needs 4 players"),
])
def test_bad_command_line_input_exits_2_with_a_clear_line(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_resuming_a_record_with_no_hand_yet_deals_the_first_from_its_seed(tmp_path: Path) -> None:
    path = tmp_path / "new.boneyard.json"
    path.write_text(json.dumps({"format": "boneyard/1", "variant": "draw", "options": {}, "players": ["Ann", "Bob"],
                                "hands": [], "seed": 5, "meta": {"human_seat": 0, "ai": {"1": "greedy"}}}))
    done = run("play", "--resume", str(path), stdin="q\n")
    assert done.returncode == 0, done.stderr
    data = record.load(path)
    fresh = boneyard.Game(boneyard.make_rules("draw", 2), ["Ann", "Bob"], HandChance(5))  # as a new game deals
    fresh.next_hand()
    dealt = fresh.hands
    assert data["seed"] == 5 and [hand for hand in data["hands"][0]["deal"]] == [[str(t) for t in hand]
                                                                                for hand in dealt]


def test_resuming_a_record_whose_seed_is_not_one_says_so(tmp_path: Path) -> None:
    path = tmp_path / "odd.boneyard.json"
    data = record.to_record(boneyard.new_game("draw", 2, seed=5, names=["Ann", "Bob"]))
    data["seed"] = "abc"
    path.write_text(json.dumps(data))
    done = run("play", "--resume", str(path), stdin="q\n")
    assert done.returncode == 0, done.stderr
    assert "seed \"abc\" is not a whole number from 0 to 2^63 - 1; the next deals come from a new seed" in done.stderr
    assert isinstance(record.load(path)["seed"], int)


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
    done = run("play", "all-fives", "--seed", "2", "--save", str(path), stdin="h\n1\nu\n2\n" + "1\n" * 30 + "q\n")
    assert done.returncode == 0, done.stderr
    assert "Hint:" in done.stdout
    assert "Undone." in done.stdout
    events = record.replay_json(record.load(path))["hands"][0]["events"]
    scored = [e for e in events if e["points"]]
    assert scored, "no move scored in 30 moves"
    for event in scored:  # every score is named as it happens, with its parts
        parts = ", ".join(f"{item['name'].replace('-', ' ')} {item['points']:+d}" for item in event["scoring"])
        assert f"{parts} = {event['points']:+d}" in done.stdout
    data = record.load(path)
    moves = data["hands"][0]["moves"]
    first = next(index for index, event in enumerate(events) if event["seat"] == 0)
    game = record.replay({**data, "hands": [{**data["hands"][0], "moves": moves[:first]}]})
    legal = game.legal_moves()
    assert len(legal) > 1 and moves[first] == str(legal[1])  # the undone first choice was replaced by the second


def test_play_rejects_an_illegal_move_and_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "t.boneyard.json"
    done = run("play", "all-fives", "--seed", "3", "--save", str(path), stdin="1\n0-0@1\n99\n1\nq\n")
    assert done.returncode == 0, done.stderr
    game = record.replay(record.load(path))
    assert record.replay(record.load(path)).in_hand
    if any(str(tile) == "0-0" for tile in game.log[0].setup.deal[0]):
        assert "Not allowed: 0-0@1" in done.stdout
    else:
        assert "Not allowed: 0-0@1: 0-0 is not in your hand" in done.stdout
    assert "Choose 1 to" in done.stdout


# ---------------------------------------------------------------- issue 14: never lose a game, resume exactly
def one_line_error(done: subprocess.CompletedProcess[str], *parts: str) -> str:
    """Exit 2 with one line on standard error that holds every part, and no traceback."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    for part in parts:
        assert part in lines[0]
    return lines[0]


def test_save_refuses_to_overwrite_the_record_of_another_game(tmp_path: Path) -> None:
    path = tmp_path / "keep.json"
    first = run("play", "all-fives", "--seed", "1", "--save", str(path), stdin="1\nq\n")
    assert first.returncode == 0, first.stderr
    before = path.read_bytes()
    done = run("play", "block", "--save", str(path), stdin="q\n")
    one_line_error(done, str(path), "All Fives", f"boneyard play --resume {path}", "--force")
    assert path.read_bytes() == before
    forced = run("play", "block", "--save", str(path), "--force", stdin="q\n")
    assert forced.returncode == 0, forced.stderr
    assert record.load(path)["variant"] == "block"


def test_save_refuses_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my notes")
    done = run("play", "block", "--save", str(path), stdin="q\n")
    one_line_error(done, "exists and is not a game record; save elsewhere, or pass --force to overwrite it")
    assert "resume" not in done.stderr  # there is no game in it to resume
    assert path.read_text() == "my notes"


def test_save_over_a_finished_game_points_to_its_replay(tmp_path: Path) -> None:
    game = boneyard.new_game("block", 2, seed=1, options={"target": 1})
    while not game.finished:
        game.apply(game.legal_moves()[0])
    path = tmp_path / "done.boneyard.json"
    record.save(game, path)
    done = run("play", "block", "--save", str(path), stdin="q\n")
    one_line_error(done, "holds a finished game", f"replay it with `boneyard replay {path}`", "--force")
    assert "--resume" not in done.stderr


def _play_lines(path: Path, answers: int, *extra: str) -> None:
    done = run("play", "all-fives", "--seed", "7", "--save", str(path), *extra, stdin="1\n" * answers + "q\n")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("level", ["greedy", "random"])  # a random computer draws the same numbers after a resume
def test_a_resumed_game_goes_on_exactly_as_if_it_had_never_stopped(tmp_path: Path, level: str) -> None:
    straight, stopped = tmp_path / "straight.json", tmp_path / "stopped.json"
    _play_lines(straight, 60, "--ai", level)
    _play_lines(stopped, 3, "--ai", level)
    for _ in range(3):  # quit and resume three times, within hand 1 and later hands
        resumed = run("play", "--resume", str(stopped), stdin="1\n" * 19 + "q\n")
        assert resumed.returncode == 0, resumed.stderr
    a, b = record.load(straight), record.load(stopped)
    assert len(a["hands"]) >= 2, "the test needs a second hand to compare deals"
    assert a["seed"] == b["seed"] == 7
    assert a["hands"] == b["hands"]


def test_resuming_a_finished_game_says_so_and_leaves_the_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "done.json"
    done = run("play", "block", "--seed", "5", "--save", str(path), stdin="1\n" * 2000)
    assert done.returncode == 0 and "Game over" in done.stdout
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    again = run("play", "--resume", str(path), stdin="1\n" * 50)
    assert again.returncode == 0, again.stderr
    assert "finished game" in again.stdout and f"boneyard replay {path}" in again.stdout
    assert (path.read_bytes(), path.stat().st_mtime_ns) == (before, stamp)


@pytest.mark.parametrize("extra,named", [
    (["block"], "takes no variant"), (["--players", "3"], "--players"), (["-o", "target=50"], "--option"),
    (["--seed", "0"], "--seed"), (["--ai", "random"], "--ai"),
])
def test_resume_refuses_settings_it_would_ignore(tmp_path: Path, extra: list[str], named: str) -> None:
    path = tmp_path / "g.json"
    _play_lines(path, 1)
    before = path.read_bytes()
    args = ["play", *extra[:1], "--resume", str(path), *extra[1:]] if extra[0] == "block" else \
        ["play", "--resume", str(path), *extra]
    one_line_error(run(*args, stdin="q\n"), "--resume", named)
    assert path.read_bytes() == before


def test_partners_and_the_winning_side_are_named(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    done = run("play", "block", "-n", "4", "-o", "partnerships=true", "--seed", "2", "--save", str(path),
               stdin="1\n" * 3000, columns=200)
    assert done.returncode == 0, done.stderr
    assert "You, partner" not in done.stdout and "Computer 2 (greedy), partner" in done.stdout
    assert "Sides: You and Computer 2 (greedy) against Computer 1 (greedy) and Computer 3 (greedy)" in done.stdout
    game = record.replay(record.load(path))
    assert game.finished and game.winner is not None
    won = "You and Computer 2 (greedy)" if game.winner in (0, 2) else "Computer 1 (greedy) and Computer 3 (greedy)"
    ours, theirs = game.scores[game.winner], game.scores[(game.winner + 1) % 4]
    assert f"Game over — {won} win, {ours} to {theirs}." in done.stdout


# ---------------------------------------------------------------- one-line errors
def test_save_naming_a_folder_is_one_line(tmp_path: Path) -> None:
    one_line_error(run("play", "block", "--save", str(tmp_path), stdin="q\n"), "is a folder")


def test_save_into_a_missing_folder_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent"
    one_line_error(run("play", "block", "--save", str(missing / "x.json"), stdin="q\n"), "does not exist")
    assert not missing.exists()


def test_save_below_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("")
    one_line_error(run("play", "block", "--save", str(tmp_path / "plain" / "x.json"), stdin="q\n"),
                   "is not a folder")


def test_an_unwritable_save_path_is_one_line() -> None:
    one_line_error(run("play", "block", "--save", "/proc/boneyard-test.boneyard.json", stdin="q\n"),
                   "/proc/boneyard-test.boneyard.json")


def test_deeply_nested_records_are_one_line_errors_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 1000 + "]" * 1000)
    one_line_error(run("replay", str(path)), str(path), "nested")
    one_line_error(run("play", "--resume", str(path), stdin="q\n"), str(path), "nested")


def test_a_record_that_does_not_replay_names_its_file(tmp_path: Path) -> None:
    data = a5_example_record()
    data["hands"][0]["moves"][3] = "4-3@1"
    path = tmp_path / "illegal.boneyard.json"
    path.write_text(json.dumps(data))
    one_line_error(run("replay", str(path)), f'{path}: hand 1, move 4 "4-3@1"')
    one_line_error(run("play", "--resume", str(path), stdin="q\n"), f'{path}: hand 1, move 4 "4-3@1"')


def test_tournament_out_naming_a_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "results.txt"
    path.write_text("keep")
    one_line_error(run("tournament", "--players", "random,greedy", "--games", "2", "--out", str(path)),
                   str(path), "not a folder")
    assert path.read_text() == "keep"


# ---------------------------------------------------------------- computer levels
def test_more_levels_than_computer_seats_is_an_error() -> None:
    one_line_error(run("play", "block", "--ai", "greedy,random,heuristic", stdin="q\n"),
                   "3 levels", "1 seat")
    one_line_error(run("simulate", "block", "--ai", "greedy,random,heuristic", "--games", "1"), "3 levels")


def test_fewer_levels_than_seats_repeat_the_last_and_the_table_says_so(tmp_path: Path) -> None:
    done = run("play", "block", "-n", "4", "--ai", "random,greedy", "--save", str(tmp_path / "g.json"),
               stdin="q\n")
    assert done.returncode == 0, done.stderr
    for name in ("Computer 1 (random)", "Computer 2 (greedy)", "Computer 3 (greedy)"):
        assert name in done.stdout


def test_an_unknown_level_setting_lists_the_valid_settings() -> None:
    line = one_line_error(run("play", "block", "--ai", "expert:foo=1", stdin="q\n"), "'foo'", "time", "samples")
    assert "__init__" not in line
    line = one_line_error(run("simulate", "block", "--ai", "greedy:depth=2", "--games", "1"), "'depth'")
    assert "takes no settings" in line
    one_line_error(run("tournament", "--players", "expert:foo=1,greedy", "--games", "2"), "'foo'", "time, samples")


# ---------------------------------------------------------------- variants
def test_variants_prints_every_option_name_and_value_whole() -> None:
    result = runner.invoke(app, ["variants"], terminal_width=80)
    assert result.exit_code == 0, result.stdout
    assert "…" not in result.stdout
    rows = json.loads(runner.invoke(app, ["variants", "--json"]).stdout)
    for row in rows:
        for spec in row["options"]:
            assert f"  {spec['name']}=" in result.stdout
            for value in spec["allowed"] or []:
                assert str(value) in result.stdout
    # an option whose values include none says so (Flower & Scorpion's score floor)
    assert "score_floor=0   (one of 0, none)" in result.stdout


def test_variants_pip_shows_one_variant_in_full() -> None:
    result = runner.invoke(app, ["variants", "pip"], terminal_width=80)
    assert result.exit_code == 0, result.stdout
    assert result.stdout.startswith("pip — ")
    assert "block —" not in result.stdout
    row = json.loads(runner.invoke(app, ["variants", "pip", "--json"]).stdout)
    for spec in row["options"]:
        assert f"  {spec['name']}=" in result.stdout
        assert " ".join(spec["help"].split()[:3]) in " ".join(result.stdout.split())
    done = run("variants", "chess")
    one_line_error(done, "unknown variant 'chess'")


def test_simulate_json_starts_without_rich_or_the_record_module() -> None:
    # the command line imports Rich and boneyard.record only in the commands that use them
    script = ("import sys\nfrom boneyard.cli import main\nsys.argv = ['boneyard', *sys.argv[1:]]\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "print(sorted(m for m in sys.modules if m == 'rich' or m == 'boneyard.record'))")
    done = subprocess.run([sys.executable, "-c", script, "simulate", "block", "--players", "2", "--ai",
                           "random,random", "--games", "2", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary, loaded = done.stdout.strip().splitlines()
    assert json.loads(summary)["games"] == 2
    assert loaded == "[]"


def test_simulate_table_still_prints_with_rich() -> None:
    done = run("simulate", "block", "--players", "2", "--ai", "greedy,random", "--games", "3", "--seed", "4",
               columns=60)
    assert done.returncode == 0, done.stderr
    assert "block, 2 players, 3 games, seed 4\n" in done.stdout  # on one line (as the table's title it wrapped)
    assert "per level" in done.stdout and "games/s" in done.stdout
    assert re.search(r"greedy\s*│\s*3\s*│", done.stdout)  # the level's games


def test_simulate_says_so_when_no_level_played_another() -> None:
    same = run("simulate", "block", "--ai", "random", "--games", "3")
    assert same.returncode == 0, same.stderr
    said = " ".join(same.stdout.split())
    assert "Per level: every seat is random, so no level played another (to compare levels, seat them on " \
           "different sides: --ai greedy,random)." in said
    assert "per level" not in same.stdout and "on every side" not in same.stdout  # (no table of zeros)
    mirrored = run("simulate", "block", "--players", "4", "-o", "partnerships=true", "--ai", "greedy,greedy,random",
                   "--games", "3")
    assert mirrored.returncode == 0, mirrored.stderr
    assert "Per level: greedy and random sat on every side of every game, so no level played another" in \
        " ".join(mirrored.stdout.split())


def test_play_takes_a_port_only_for_the_web_table() -> None:
    result = runner.invoke(app, ["play", "block", "--port", "9000"])
    assert result.exit_code == 2
    assert "--port is for the web table's server: add --web" in result.output
    assert "Traceback" not in result.output
    bad = runner.invoke(app, ["play", "block", "--web", "--port", "70000"])
    assert bad.exit_code == 2 and "--port" in bad.output


def test_help_shows_flags_without_a_value_and_options_with_theirs() -> None:
    """Typer's Rich help wrote ``--json <bool>``, as if the flag took a value; flags show no type now, and the
    options that do take a value still show theirs."""
    commands = ("play", "replay", "stats", "variants", "simulate", "serve", "prune", "tournament", "review")
    top = help_of()
    assert "--help" in top and "<bool>" not in top
    for name in commands:
        shown = help_of(name)
        assert "<bool>" not in shown, name
        assert shown_after(shown, "--help")[:2] == ["Show", "this"], name  # nothing between flag and help
    play = help_of("play")
    assert "KEY=VALUE" in play and "<int>" in play and "<path>" in play
    assert shown_after(play, "--force")[:2] == ["let", "--save"]
    assert shown_after(play, "--seed")[:2] == ["<int>", "seed"]


def help_of(*command: str) -> str:
    """``boneyard COMMAND --help`` as text (Rich's colours, which FORCE_COLOR turns on, taken out)."""
    shown = runner.invoke(app, [*command, "--help"], terminal_width=160)
    assert shown.exit_code == 0, (command, shown.output)
    return without_colours(shown.output)


def without_colours(output: str) -> str:
    """``output`` without Rich's colours (which FORCE_COLOR turns on)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", output)


def shown_after(help_text: str, option: str) -> list[str]:
    """The words of the help's row for ``option`` after the option's name (Rich's box and markers dropped)."""
    for line in help_text.splitlines():
        words = line.strip("│ ").split()
        if option in words:
            return words[words.index(option) + 1:]
    raise AssertionError(f"{option} is not in the help")


def test_the_variant_and_the_players_are_given_the_way_any_of_the_commands_takes_them(tmp_path: Path) -> None:
    """``tournament`` takes ``--variant`` and a list of players in ``--players``; ``play`` and ``simulate`` take the
    variant as their argument and a number of players in ``--players`` (levels in ``--ai``).  Each accepts the
    other's way of naming the variant, and a list where a number belongs (or a number where a list does) is
    pointed to the option that takes it."""
    simulate = ["simulate", "-g", "2", "--json", "--workers", "1"]

    def games(args: list[str]) -> dict[str, object]:
        done = runner.invoke(app, args)
        assert done.exit_code == 0, done.output
        return {key: value for key, value in json.loads(done.stdout).items()
                if key not in ("seconds", "games_per_second")}

    plain = games([*simulate, "fives"])
    assert plain["variant"] == "all-fives"
    for named in (["--variant", "fives"], ["fives", "--variant", "all-fives"]):  # (an alias is the same variant)
        assert games([*simulate, *named]) == plain
    both = runner.invoke(app, [*simulate, "block", "--variant", "draw"])
    assert both.exit_code == 2 and "two variants given, 'block' and --variant 'draw': give one" in both.stderr
    none = runner.invoke(app, simulate)
    assert none.exit_code == 2 and "name the variant to simulate" in none.stderr
    levels = runner.invoke(app, [*simulate, "block", "--players", "expert,heuristic"])
    assert levels.exit_code == 2
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", without_colours(levels.output)).split())  # (the error's box dropped)
    assert "'expert,heuristic' is not a number of players; the computer players' levels go in --ai" in said
    game = runner.invoke(app, ["play", "--variant", "draw", "--seed", "3"], input="q\n")
    assert game.exit_code == 0, game.output
    assert "Draw dominoes" in game.stdout
    tournament = ["tournament", "--players", "random,greedy", "--games", "2", "--workers", "1", "--json"]
    given = runner.invoke(app, [*tournament, "block", "--out", str(tmp_path / "t")])
    assert given.exit_code == 0, given.output
    assert json.loads(given.stdout)["settings"]["variant"] == "block"
    seats = runner.invoke(app, ["tournament", "--players", "3", "--variant", "block", "--out", str(tmp_path / "u")])
    assert seats.exit_code == 2 and "the players at each table are --seats, e.g. --seats 3" in seats.stderr
    assert not (tmp_path / "u").exists()


@pytest.mark.parametrize(("args", "said"), [
    (["play", "bloc"], "unknown variant 'bloc' (did you mean 'block'? known: all-fives, bergen, block, "
                       "double-bergen, draw, flower-scorpion, pip, and their aliases)"),
    (["simulate", "muggin"], "unknown variant 'muggin' (did you mean 'all-fives'? known: "),
    (["play", "chess"], "unknown variant 'chess' (known: all-fives, bergen, block, double-bergen, draw, "
                        "flower-scorpion, pip, and their aliases)"),
    (["play", "block", "--ai", "expret"], "unknown player level 'expret' (did you mean 'expert'? known: expert, "
                                          "greedy, heuristic, random)"),
    (["simulate", "block", "--ai", "greedy,herustic"], "unknown player level 'herustic' (did you mean 'heuristic'?"),
    (["play", "block", "--option", "tie-rul=no_score"], "unknown option 'tie-rul' (did you mean 'tie_rule'? this "
                                                        "variant has: blocked_score, deal_sizes, first_lead,"),
    (["simulate", "draw", "--option", "partnership=true"], "unknown option 'partnership' (did you mean "
                                                           "'partnerships'? this variant has: "),
    (["play", "all-fives", "--option", "colour=red"], "unknown option 'colour' (this variant has: "),
])
def test_a_misspelt_variant_level_or_option_is_named_with_the_likely_one(args: list[str], said: str) -> None:
    done = runner.invoke(app, args)
    assert done.exit_code == 2
    assert said in done.stderr


def test_the_version_is_the_installed_package_s() -> None:
    from importlib.metadata import version

    done = runner.invoke(app, ["--version"])
    assert done.exit_code == 0
    assert done.stdout == f"boneyard {version('boneyard')}\n"
    assert runner.invoke(app, ["--version", "play", "block"]).stdout == done.stdout  # printed before any command runs
