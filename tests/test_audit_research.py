"""Audit of the researcher's tools: ``boneyard simulate``, ``boneyard tournament``, ``boneyard variants`` and the Python
API (``new_game``, ``Game.apply``/``undo``/``next_hand``, ``make_player``, ``record.save``/``load``), as README.md,
docs/tournaments.md, docs/players.md and docs/architecture.md describe them.

Tests marked ``xfail(strict=True)`` assert the correct behaviour of a bug found by the audit; they flip when it is
fixed.
"""

from __future__ import annotations

import csv
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard import IllegalMoveError, Move, OptionError, Tile, record
from boneyard.errors import BoneyardError
from boneyard.players.base import make_player
from boneyard.rules.base import make_rules
from boneyard.sim import stats
from boneyard.sim.simulate import simulate
from boneyard.sim.tournament import GAMES_FILE, TournamentError, make_settings, run_tournament, tournament

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ["block", "draw", "all-fives", "bergen", "double-bergen", "flower-scorpion", "pip"]


def run(*args: str, cwd: Path | None = None, memory: int | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real ``boneyard`` command in a subprocess (with at most ``memory`` bytes of address space if given)."""
    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, "-m", "boneyard", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd, preexec_fn=limit, env={**os.environ, "COLUMNS": "80"})


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The command failed as bad input must: status 2, nothing on standard output, one line on standard error."""
    assert done.returncode == 2, (done.returncode, done.stderr[-1500:])
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-1500:]
    assert "Traceback" not in done.stderr
    return lines[0]


def state(game: boneyard.Game) -> tuple[Any, ...]:
    """Everything a user can see of a game, to compare two games."""
    return (list(game.scores), game.finished, game.winner, game.turn, [sorted(map(str, hand)) for hand in game.hands],
            game.stock_left, game.in_hand, [str(move) for move in game.legal_moves()], len(game.log),
            [str(tile) for tile in game.layout.tiles])


# ---------------------------------------------------------------- simulate
@pytest.mark.parametrize("variant,players", [(v, 3) for v in VARIANTS] + [("pip", 7), ("block", 4)])
def test_simulate_is_the_same_on_one_or_two_workers_and_its_counts_add_up(variant: str, players: int) -> None:
    runs = [simulate(variant, players, 3, seed=5, ai="greedy,random,heuristic", duplicate=True, workers=workers)
            for workers in (1, 2)]
    for result in runs:
        result.pop("seconds"), result.pop("games_per_second")
    assert runs[0] == runs[1]
    result = runs[0]
    assert result["games"] == 3 * players and result["deals"] == 3
    stats_rows = {row["ai"]: row for row in result["ai_stats"]}  # type: ignore[union-attr]
    assert set(stats_rows) == {"greedy", "random", "heuristic"}
    for row in stats_rows.values():
        assert row["games"] == result["games"] and 0 <= row["wins"] <= row["games"]
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
    level_wins = sum(row["wins"] for row in stats_rows.values())
    seat_wins = sum(seat["wins"] for seat in result["seats"])  # type: ignore[union-attr]
    if variant == "pip":  # equal lowest totals share the win (PIP-20): each seat that shares it counts it
        assert level_wins <= seat_wins
    else:  # every game is won by one side, or by nobody: the wins never add up to more than the games
        assert level_wins <= result["games"] and seat_wins <= result["games"]


def test_simulate_records_replay_to_the_reported_results(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    args = ["simulate", "bergen", "-n", "3", "--games", "3", "--seed", "9", "--ai", "greedy,random", "--duplicate",
            "--json"]
    with_records = json.loads(run(*args, "--records", str(folder)).stdout)
    without = json.loads(run(*args).stdout)
    for result in (with_records, without):
        for key in ("seconds", "games_per_second", "engine", "records"):
            result.pop(key)
    assert with_records == without  # writing records does not change the games
    files = sorted(folder.glob("*.boneyard.json"))
    assert [path.name for path in files][:3] == ["game-000001-r1.boneyard.json", "game-000001-r2.boneyard.json",
                                                 "game-000001-r3.boneyard.json"]
    assert len(files) == 9
    wins, points = [0, 0, 0], [0, 0, 0]
    for path in files:
        game = record.replay(record.load(path))
        assert game.finished
        wins[game.winner] += 1  # type: ignore[index]
        points = [total + score for total, score in zip(points, game.scores, strict=True)]
    assert [seat["wins"] for seat in with_records["seats"]] == wins
    assert [seat["mean_points"] for seat in with_records["seats"]] == pytest.approx([p / 9 for p in points])
    done = run("replay", "--json", str(files[-1]))  # and the command replays them as a user would
    assert done.returncode == 0 and json.loads(done.stdout)["finished"] is True


def test_simulate_records_folder_must_be_new_or_empty_of_records(tmp_path: Path) -> None:
    kept = tmp_path / "notes"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    simulate("block", 2, 1, records=kept, workers=1)  # other files are fine, and kept
    assert (kept / "notes.txt").read_text() == "mine" and (kept / "game-000001.boneyard.json").is_file()
    with pytest.raises(OptionError, match="already holds game records"):
        simulate("block", 2, 1, records=kept, workers=1)
    (tmp_path / "file").write_text("x")
    with pytest.raises(OptionError, match="is a file, not a folder"):
        simulate("block", 2, 1, records=tmp_path / "file", workers=1)
    with pytest.raises(OptionError, match="cannot make the folder"):
        simulate("block", 2, 1, records=tmp_path / "file" / "below", workers=1)
    with pytest.raises(OptionError, match="use the local backend"):
        simulate("block", 2, 1, records=tmp_path / "new", backend="ray")


@pytest.mark.parametrize("ai,message", [
    ("expert:time=-1", "time=-1 must be more than 0"),
    ("expert:samples=0", "samples=0 is not a whole number"),
    ("foo", "unknown player level 'foo' (known: expert, greedy, heuristic, random)"),
    ("greedy,greedy,greedy", "--ai names 3 levels"),
    ("random:seed=1", "a player's seed comes from the game"),
    ("expert:time", "parameter 'time' is not key=value"),
])
def test_simulate_refuses_bad_player_specs_in_one_line(ai: str, message: str) -> None:
    assert message in one_line_error(run("simulate", "block", "--games", "1", "--ai", ai, "--json"))


@pytest.mark.parametrize("option,message", [
    ("foo=1", "unknown option 'foo' (this variant has: blocked_score,"),
    ("set=7", "option 'set': 7 is not allowed (choose from 6, 9, 12)"),
    ("target=1.5", "option 'target': '1.5' is not a whole number"),
    ("partnerships=maybe", "option 'partnerships': 'maybe' is not true or false"),
])
def test_simulate_refuses_bad_options_naming_the_option(option: str, message: str) -> None:
    assert message in one_line_error(run("simulate", "block", "--games", "1", "-o", option, "--json"))


def test_simulate_refuses_a_number_of_games_past_the_limit() -> None:
    assert "must be from 1 to 10,000,000, not 10,000,001" in one_line_error(
        run("simulate", "block", "--games", "10000001", "--json"))


def test_simulate_with_an_impossible_player_count_says_so_at_once() -> None:
    assert "block is for 2 to 4 players, not 0" in one_line_error(run("simulate", "block", "-n", "0", "--json"))
    started = time.monotonic()
    huge = run("simulate", "block", "-n", "99999999999999999999", "--json", memory=600 * 2**20, timeout=60)
    assert "block is for 2 to 4 players, not 99999999999999999999" in one_line_error(huge)
    assert time.monotonic() - started < 30


def test_simulate_api_refuses_more_levels_than_seats() -> None:
    with pytest.raises(OptionError, match="3 levels"):
        simulate("block", 2, 1, ai="greedy,random,heuristic", workers=1)


def test_simulate_refuses_more_games_in_all_than_it_can_hold() -> None:
    done = run("simulate", "block", "-n", "4", "--duplicate", "--ai", "greedy,random", "--games", "10000000",
               "--json", memory=1200 * 2**20, timeout=60)
    assert "10,000,000" in one_line_error(done)


def test_simulate_and_tournament_bound_the_games_in_all_before_playing_any(monkeypatch: pytest.MonkeyPatch) -> None:
    import boneyard.sim.simulate as module

    monkeypatch.setattr(module, "MAX_GAMES", 100)  # (the real limit's lists are what must not be built)
    calls: list[tuple[int, int]] = []
    with pytest.raises(OptionError, match="30 deals, each played from 4 seat rotations, make 120 games in all, "
                                          "more than the 100"):
        simulate("block", 4, 30, ai="greedy,random", duplicate=True, workers=1,
                 progress=lambda done, total: calls.append((done, total)))
    assert calls == []
    monkeypatch.undo()
    players = ["random", "greedy", "heuristic", *(f"random#{n}" for n in range(2, 9))]
    with pytest.raises(TournamentError, match="45 matches of 10,000,000 games make 450,000,000 games in all"):
        make_settings("block", [p.partition("#")[0] for p in players], games=10_000_000, duplicate=False)
    assert make_settings("block", ["random", "greedy"], games=10_000_000, duplicate=False).games == 10_000_000


def test_a_number_out_of_range_is_one_line() -> None:
    assert "--games" in one_line_error(run("simulate", "block", "--games", "0", "--json"))
    assert "--workers" in one_line_error(run("simulate", "block", "--workers", "0", "--json"))
    for extra, message in ((["--games", "0"], "games must be a whole number from 1"),
                           (["--workers", "0"], "--workers"), (["--seats", "1"], "block is for 2 to 4 players, not 1")):
        assert message in one_line_error(run("tournament", "--players", "greedy,random", "--variant", "block",
                                             "--json", *extra))


# ---------------------------------------------------------------- tournament
def tournament_args(out: Path, *extra: str) -> list[str]:
    return ["tournament", "--players", "random,greedy,heuristic", "--variant", "all-fives", "--games", "60",
            "--seed", "7", "--workers", "1", "--json", "--out", str(out), *extra]


def test_a_killed_tournament_resumes_to_the_results_of_a_clean_run(tmp_path: Path) -> None:
    clean = json.loads(run(*tournament_args(tmp_path / "clean")).stdout)
    folder = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, "-m", "boneyard", *tournament_args(folder)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    games = folder / GAMES_FILE
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not games.exists() or len(games.read_bytes().splitlines()) < 20):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    done_before = len(games.read_bytes().splitlines()) - 1
    resumed = json.loads(run(*tournament_args(folder)).stdout)
    assert resumed["played_now"] == 180 - done_before
    assert 0 < resumed["played_now"] < 180
    for key in ("settings", "games_played", "table", "ratings", "head_to_head", "scores"):
        assert resumed[key] == clean[key], key
    assert len(games.read_text().splitlines()) == 1 + 180
    # a resumed run on more workers, another engine or rating method plays nothing and keeps the games
    again = json.loads(run(*tournament_args(folder, "--workers", "2", "--engine", "reference", "--rating",
                                            "elo")).stdout)
    assert again["played_now"] == 0 and again["table"] == clean["table"]


@pytest.mark.parametrize("change,named", [
    ({"--players": "greedy,random,heuristic"}, "players"),
    ({"--seed": "8"}, "seed 7 there, 8 now"),
    ({"--no-duplicate": None}, "duplicate true there, false now"),
    ({"--format": "gauntlet"}, "format"),
    ({"-o": "target=100"}, "options {} there"),
])
def test_resuming_with_other_settings_is_refused_naming_them(tmp_path: Path, change: dict[str, str | None],
                                                            named: str) -> None:
    settings = make_settings("all-fives", ["random", "greedy", "heuristic"], games=2, seed=7)
    run_tournament(settings, out=tmp_path, workers=1)
    args = tournament_args(tmp_path)
    for flag, value in change.items():
        if flag in args:
            args[args.index(flag) + 1] = str(value)
        else:
            args += [flag] if value is None else [flag, value]
    line = one_line_error(run(*args))
    assert "holds a different tournament" in line and named in line


def test_tournament_files_agree_and_ratings_order_random_greedy_heuristic(tmp_path: Path) -> None:
    result = tournament("block", ["heuristic", "random", "greedy"], games=40, seed=3, workers=2, out=tmp_path)
    assert [row["player"] for row in result["ratings"]] == ["heuristic", "greedy", "random"]
    ratings = {row["player"]: row for row in result["ratings"]}
    assert ratings["random"]["high"] < ratings["greedy"]["rating"] < ratings["heuristic"]["rating"]
    assert sum(row["rating"] for row in result["ratings"]) == pytest.approx(0, abs=1e-6)
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["table"] == result["table"] and saved["ratings"] == result["ratings"]
    with (tmp_path / "table.csv").open() as handle:
        table = list(csv.DictReader(handle))
    for row, wanted in zip(table, result["table"], strict=True):
        assert (row["player"], int(row["games"]), int(row["wins"]), int(row["draws"]), int(row["losses"])) == \
               (wanted["player"], wanted["games"], wanted["wins"], wanted["draws"], wanted["losses"])
        assert int(row["wins"]) + int(row["draws"]) + int(row["losses"]) == int(row["games"]) == 80
    with (tmp_path / "ratings.csv").open() as handle:
        assert [(row["player"], float(row["rating"])) for row in csv.DictReader(handle)] == \
               [(row["player"], pytest.approx(row["rating"])) for row in result["ratings"]]
    lines = (tmp_path / GAMES_FILE).read_text().splitlines()
    assert len(lines) == 1 + result["games_played"] == 1 + 120
    for name in ("ratings", "scores"):
        svg = (tmp_path / f"{name}.svg").read_text()
        assert all(player in svg for player in ("heuristic", "greedy", "random")), name
        assert (tmp_path / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    h2h = {(row["player"], row["against"]): row for row in result["head_to_head"]}
    for (a, b), row in h2h.items():
        assert row["score"] + h2h[(b, a)]["score"] == pytest.approx(1) and row["games"] == 40


def test_a_three_seat_gauntlet_counts_every_game_once_per_player(tmp_path: Path) -> None:
    result = tournament("draw", ["heuristic", "random", "greedy"], games=6, seed=3, seats=3, format="gauntlet",
                        workers=1, out=tmp_path, plots=False)
    table = {row["player"]: row for row in result["table"]}
    assert table["heuristic"]["games"] == 12 and table["random"]["games"] == table["greedy"]["games"] == 6
    assert table["heuristic"]["wins"] + table["random"]["wins"] + table["greedy"]["wins"] + \
        table["heuristic"]["draws"] == 12


def test_tournament_default_seats_follow_the_options() -> None:
    settings = make_settings("block", ["greedy", "random"], games=2, format="gauntlet",
                             options={"partnerships": True})
    assert settings.seats == 4


def test_tournament_refuses_an_address_without_the_ray_backend(tmp_path: Path) -> None:
    line = one_line_error(run("tournament", "--players", "greedy,random", "--games", "1", "--address", "ray://x:1",
                              "--out", str(tmp_path / "t"), "--json"))
    assert "--backend ray" in line


@pytest.mark.parametrize("line", ["{}", "null", '{"match": "greedy | random", "game": "abc"}',
                                  '{"match": "greedy | random", "game": 0}'])
def test_a_damaged_results_line_is_a_one_line_error(tmp_path: Path, line: str) -> None:
    args = ["tournament", "--players", "greedy,random", "--games", "2", "--out", str(tmp_path), "--json"]
    assert run(*args).returncode == 0
    damaged = len((tmp_path / GAMES_FILE).read_text().splitlines()) + 1  # (4: after the header and the 2 games)
    with (tmp_path / GAMES_FILE).open("a") as handle:
        handle.write(line + "\n" + '{"match": "greedy | random", "game": 1, "seats": [1, 0], "scores": [0, 0], '
                     '"winners": []}\n')
    message = one_line_error(run(*args))
    assert GAMES_FILE in message and f"line {damaged}:" in message


def test_a_results_file_with_a_cut_header_still_resumes(tmp_path: Path) -> None:
    (tmp_path / GAMES_FILE).write_text('{"boneyard_tournament": 1, "sett')
    settings = make_settings("block", ["greedy", "random"], games=2, seed=1)
    run_tournament(settings, out=tmp_path, workers=1)
    assert "settings" in json.loads((tmp_path / GAMES_FILE).read_text().splitlines()[0])
    assert run_tournament(settings, out=tmp_path, workers=1).played == 0


def test_wilson_interval_contains_zero_and_all_wins() -> None:
    for trials in range(1, 30):
        assert stats.wilson(0, trials).low == 0.0
        assert stats.wilson(trials, trials).high == 1.0


def test_tournament_refuses_bad_inputs_in_one_line(tmp_path: Path) -> None:
    base = ["tournament", "--games", "1", "--out", str(tmp_path / "t"), "--json"]
    for extra, message in ((["--players", "greedy"], "at least two players, got 1"),
                           (["--players", "greedy,random", "--seats", "3"], "a round robin at 3 seats needs 3"),
                           (["--players", "greedy,random", "--format", "swiss"], "unknown format 'swiss'"),
                           (["--players", "greedy,nosuchmodule:make"], "cannot import module 'nosuchmodule'")):
        assert message in one_line_error(run(*base, *extra))
    assert not (tmp_path / "t").exists()


def test_an_unknown_rating_method_is_refused_before_any_game(tmp_path: Path) -> None:
    line = one_line_error(run("tournament", "--players", "greedy,random", "--games", "2", "--rating", "glicko",
                              "--out", str(tmp_path / "t"), "--json"))
    assert "unknown rating method 'glicko'" in line
    assert not (tmp_path / "t").exists()


# ---------------------------------------------------------------- variants
def variant_rows() -> list[dict[str, Any]]:
    done = run("variants", "--json")
    assert done.returncode == 0
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def accepted(variant: str, players: int, name: str, value: object) -> bool:
    for count, extra in ((players, {}), (4, {"partnerships": True})):  # partnership_block needs partnerships
        try:
            make_rules(variant, count, {**extra, name: value} if name != "partnerships" else {name: value})
        except BoneyardError:
            continue
        return True
    return False


def test_every_option_refuses_a_value_just_outside_naming_the_option() -> None:
    for row in variant_rows():
        for spec in row["options"]:
            name = spec["name"]
            outside: list[object] = ["bogus"] if spec["type"] in ("choice", "bool") else []
            if spec["type"] == "int":
                outside += [spec["min"] - 1, spec["max"] + 1, "x"]
            if spec["type"] == "choice" and all(isinstance(v, int) for v in spec["allowed"]):
                outside.append(max(spec["allowed"]) + 1)
            if not spec["nullable"] and spec["type"] != "sizes":
                outside.append(None)
            for value in outside:
                with pytest.raises(OptionError, match=f"'{name}'"):
                    make_rules(row["name"], row["min_players"], {name: value})
            if spec["type"] == "int":
                assert accepted(row["name"], row["min_players"], name, spec["min"])
                assert accepted(row["name"], row["min_players"], name, spec["max"])
            if spec["type"] == "bool":
                assert all(accepted(row["name"], 4, name, value) for value in (True, False, "true", "off"))


def test_every_value_variants_offers_is_accepted() -> None:
    refused = [(row["name"], spec["name"], value) for row in variant_rows() for spec in row["options"]
               for value in spec["allowed"] or [] if not accepted(row["name"], row["min_players"], spec["name"], value)]
    assert refused == []


def test_variants_defaults_are_the_rules_defaults() -> None:
    for row in variant_rows():
        options = make_rules(row["name"], row["min_players"]).options
        for spec in row["options"]:
            default = getattr(options, spec["name"])
            assert spec["default"] == (list(default) if isinstance(default, tuple) else default), \
                (row["name"], spec["name"])


def test_variant_pages_give_the_target_range_the_product_takes() -> None:
    with pytest.raises(OptionError):
        make_rules("block", 2, {"target": 0})
    for page in ("block", "all-fives"):
        text = (ROOT / "docs" / "variants" / f"{page}.md").read_text()
        row = next(line for line in text.splitlines() if line.startswith("| `target`"))
        assert "≥ 0" not in row, (page, row)


# ---------------------------------------------------------------- the Python API
def test_the_readme_snippet_runs_and_new_game_is_deterministic() -> None:
    snippet = re.search(r"### From Python\n\n```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert snippet is not None
    code = snippet.group(1).replace("print(", "result = (")
    scope: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), scope)  # the README's own example
    assert scope["game"].finished and scope["game"].winner is not None
    first, second = (boneyard.new_game("pip", 4, seed=123) for _ in range(2))
    assert (first.hands, first.stock, first.turn) == (second.hands, second.stock, second.turn)
    assert boneyard.new_game("pip", 4, seed=124).hands != first.hands


def test_an_illegal_move_raises_and_leaves_the_game_unchanged() -> None:
    game = boneyard.new_game("block", seed=1)
    before = (record.dumps(record.to_record(game)), state(game))
    for move, message in (("9-9", "is not a tile of this game's set"), ("pass", "may not pass while able to move"),
                          ("draw", "may not draw now"), (Move.lead(Tile.parse("1-0")), "1-0")):
        with pytest.raises(IllegalMoveError, match=message):
            game.apply(move)
    with pytest.raises(boneyard.NotationError, match="is not a move"):
        game.apply("xyz")
    assert (record.dumps(record.to_record(game)), state(game)) == before


def test_apply_of_something_that_is_not_a_move_says_what_it_wants() -> None:
    game = boneyard.new_game("block", seed=1)
    for wrong in (Tile.parse("6-6"), None, 5):
        with pytest.raises((TypeError, BoneyardError), match="Move"):
            game.apply(wrong)  # type: ignore[arg-type]


def test_undo_walks_back_over_hands_to_the_start_and_no_further() -> None:
    rng = random.Random(1)
    game = boneyard.new_game("all-fives", 2, seed=11, options={"target": 60})
    seen = [state(game)]
    while not game.finished:
        if game.hand_over:
            game.next_hand()
        else:
            game.apply(rng.choice(game.legal_moves()))
        seen.append(state(game))
    assert len(game.log) > 1
    for earlier in reversed(seen[:-1]):
        game.undo()
        assert state(game) == earlier
    assert game.undo() is None  # the first deal
    assert game.legal_moves() == [] and game.hand_over
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()
    game.next_hand()  # dealing again deals the hand taken back
    assert state(game) == seen[0]


@pytest.mark.parametrize("variant,players,options", [
    ("block", 4, {"partnerships": True}), ("draw", 3, {}), ("all-fives", 2, {"target": 60}), ("bergen", 3, {}),
    ("double-bergen", 2, {"target": 30}), ("flower-scorpion", 4, {}), ("pip", 5, {}), ("draw", 10, {"set": 12}),
])
def test_save_and_load_round_trip_mid_hand_between_hands_and_finished(tmp_path: Path, variant: str, players: int,
                                                                     options: dict[str, object]) -> None:
    rng = random.Random(3)
    game = boneyard.new_game(variant, players, seed=21, options=options)
    path = tmp_path / "game.boneyard.json"
    checked = 0
    while True:
        if game.finished or game.hand_over or rng.random() < 0.03:
            record.save(game, path, meta={"study": 1})
            data = record.load(path)
            assert state(record.replay(data)) == state(game)
            assert data["meta"] == {"study": 1} and data["seed"] == 21
            checked += 1
        if game.finished:
            break
        if game.hand_over:
            game.next_hand()
        else:
            game.apply(rng.choice(game.legal_moves()))
    assert checked >= 2


@pytest.mark.parametrize("names", [["Ann", ""], ["Ann", "   "], [1, 2]])
def test_names_a_game_takes_are_names_its_record_keeps(tmp_path: Path, names: list[Any]) -> None:
    try:
        game = boneyard.new_game("block", 2, seed=1, names=names)
    except (ValueError, TypeError, BoneyardError):
        return  # refused up front: fine
    game.apply(game.legal_moves()[0])
    path = record.save(game, tmp_path / "named.boneyard.json")
    assert record.replay(record.load(path)).names == game.names


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "7", True])
def test_new_game_refuses_a_seed_the_commands_refuse(seed: Any) -> None:
    with pytest.raises((OptionError, ValueError, TypeError), match="seed"):
        boneyard.new_game("draw", 3, seed=seed)


def test_make_player_refuses_bad_specs_and_seeds() -> None:
    assert make_player("expert:samples=4,time=0.1", seed=7) is not None
    for spec, message in (("expert:samples=0", "samples=0"), ("heuristic:depth=2", "no setting 'depth'"),
                          ("wizard", "unknown player level 'wizard'")):
        with pytest.raises(OptionError, match=message):
            make_player(spec)
    with pytest.raises(OptionError, match="seed must be a whole number"):
        make_player("greedy", seed=1.5)  # type: ignore[arg-type]


def test_the_tournament_api_refuses_what_the_command_refuses() -> None:
    with pytest.raises(TournamentError, match="at least two players"):
        make_settings("block", ["greedy"])
    with pytest.raises(TournamentError, match="games must be a whole number"):
        make_settings("block", ["greedy", "random"], games=0)


def test_the_expert_takes_a_bounded_number_of_samples() -> None:
    """``samples=`` is bounded as ``time=`` is (600 s): a huge count would search for ever without a word."""
    from boneyard.players.expert.search import MAX_SAMPLES

    assert make_player(f"expert:samples={MAX_SAMPLES}") is not None
    for bad in (f"expert:samples={MAX_SAMPLES + 1}", "expert:samples=99999999999999"):
        with pytest.raises(OptionError, match=f"from 1 to {MAX_SAMPLES:,}"):
            make_player(bad)


def test_the_hand_before_the_first_deal_is_a_clear_error() -> None:
    """Session 17 left it: ``game.hand`` before any deal was a bare IndexError."""
    from boneyard.chance import Chance
    from boneyard.errors import BoneyardError
    from boneyard.rules.base import make_rules
    from boneyard.state import Game

    game = Game(make_rules("draw", 2), chance=Chance(7))
    with pytest.raises(BoneyardError, match=r"no hand has been dealt yet: call next_hand\(\)"):
        _ = game.hand
    game.next_hand()
    assert game.hand is game.log[-1]
