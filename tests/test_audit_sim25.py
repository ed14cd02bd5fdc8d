"""Audit of simulations, tournaments, statistics and their plots (``boneyard simulate``, ``boneyard tournament``,
``boneyard stats``), as a researcher who wants reproducible, correct numbers and a player who wants his statistics,
and as someone feeding them bad input.

The numbers are recomputed here from what the runs saved (game records, ``games.jsonl``), each record replayed by
:func:`boneyard.record.replay`, and who won a game read off its final totals in the words of RULES.md (the highest
side reaches the target; in PIP the lowest total wins and equal lowest totals share the win).
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boneyard import record
from boneyard.cli import app
from boneyard.errors import BoneyardError, OptionError
from boneyard.player_stats import collect
from boneyard.sim import stats as sim_stats
from boneyard.sim.simulate import play_one, rotation_period, rotations
from boneyard.sim.simulate import simulate as run_simulate
from boneyard.sim.tournament import (
    GAMES_FILE,
    TournamentError,
    deal_seed,
    game_pairs,
    make_settings,
    report,
    run_tournament,
    schedule,
    tournament,
)

ROOT = Path(__file__).resolve().parent.parent
Z95 = 1.959963984540054


def cli(*args: str) -> Any:
    """The ``boneyard`` command run in this process."""
    return CliRunner().invoke(app, list(args))


def simulate(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """:func:`boneyard.sim.simulate.simulate`, its summary typed for reading here."""
    return dict(run_simulate(*args, **kwargs))


def one_line_error(result: Any) -> str:
    """A refusal as bad input must give one: status 2, one line on standard error, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output[-1500:], result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    return str(lines[0])


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The Wilson score interval written out from its textbook formula (not the product's function)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + Z95 ** 2 / (2 * games)
    spread = Z95 * math.sqrt(p * (1 - p) / games + Z95 ** 2 / (4 * games ** 2))
    scale = 1 + Z95 ** 2 / games
    return (centre - spread) / scale, (centre + spread) / scale


def winners_from_totals(variant: str, scores: list[int], partnerships: bool) -> set[int]:
    """Who won a finished game, from its final totals alone: in PIP every seat with the lowest total (PIP-20);
    elsewhere the highest total (with partners, both seats of that side)."""
    if variant == "pip":
        return {seat for seat, score in enumerate(scores) if score == min(scores)}
    best = max(scores)
    top = {seat for seat, score in enumerate(scores) if score == best}
    if partnerships:
        assert top in ({0, 2}, {1, 3}), scores
    else:
        assert len(top) == 1, scores
    return top


def digest(folder: Path) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"
            for path in sorted(folder.iterdir())}


# ---------------------------------------------------------------- simulate: duplicate deals
def test_a_repeating_line_up_is_rotated_only_to_its_distinct_seatings() -> None:
    assert rotation_period(["greedy", "random"]) == 2
    assert rotation_period(["greedy", "random", "greedy", "random"]) == 2
    assert rotation_period(["greedy", "random", "random", "random"]) == 4
    assert rotation_period(["random"] * 4) == 1
    assert rotation_period(["a", "b", "a", "b", "a", "b"]) == 2
    assert rotations(["greedy", "random", "greedy", "random"], 4) == [0, 1]
    assert rotations(["greedy", "random", "random"], 3) == [0, 1, 2]


def test_duplicate_partnership_simulation_never_plays_one_game_twice(tmp_path: Path) -> None:
    # two randoms as partners against two greedies: rotating by two seats sits everyone as before, and the same
    # deal, seating and player seeds are the same game, counted twice (it was: 12 "games", 6 of them copies)
    folder = tmp_path / "records"
    result = simulate("block", 4, 3, seed=0, ai="random,greedy,random,greedy", options={"partnerships": True},
                      duplicate=True, workers=1, records=folder)
    assert result["games"] == 6 and result["deals"] == 3
    names = sorted(path.name for path in folder.glob("*.boneyard.json"))
    assert names == [f"game-00000{deal}-r{turn}.boneyard.json" for deal in (1, 2, 3) for turn in (1, 2)]
    games = [record.load(folder / name) for name in names]
    assert len({json.dumps(data["hands"]) for data in games}) == 6  # six different games
    for data in games:  # each deal once with greedy's side in seats 1 and 3, once in 0 and 2
        levels = data["meta"]["simulate"]["levels"]
        assert levels in (["random", "greedy", "random", "greedy"], ["greedy", "random", "greedy", "random"])
    stats = {row["ai"]: row for row in result["ai_stats"]}
    assert stats["greedy"]["games"] == stats["random"]["games"] == 6
    assert stats["greedy"]["wins"] + stats["random"]["wins"] == 6


# ---------------------------------------------------------------- simulate: numbers from the records
CASES = [  # (variant, players, options, ai)
    ("block", 2, {}, "greedy,random"),
    ("draw", 4, {"partnerships": True}, "greedy,random,greedy,random"),
    ("block", 4, {"partnerships": True}, "heuristic,greedy"),
    ("all-fives", 3, {}, "heuristic,random"),
    ("bergen", 3, {}, "greedy,random"),
    ("double-bergen", 2, {}, "random,greedy"),
    ("flower-scorpion", 2, {}, "greedy,random"),
    ("pip", 3, {}, "greedy,random"),
]


@pytest.mark.parametrize("variant,players,options,ai", CASES)
def test_simulate_counts_are_what_its_records_replay_to(tmp_path: Path, variant: str, players: int,
                                                        options: dict[str, Any], ai: str) -> None:
    folder = tmp_path / "records"
    result = simulate(variant, players, 4, seed=11, ai=ai, options=options, duplicate=True, workers=1,
                      records=folder)
    on_fast_engine = simulate(variant, players, 4, seed=11, ai=ai, options=options, duplicate=True, workers=1)
    for run in (result, on_fast_engine):
        for key in ("seconds", "games_per_second", "engine", "records"):
            run.pop(key)
    assert result == on_fast_engine  # the records' games are the reported ones

    files = sorted(folder.glob("*.boneyard.json"))
    assert len(files) == result["games"]
    partnerships = bool(options.get("partnerships"))
    sides = [{0, 2}, {1, 3}] if partnerships else [{seat} for seat in range(players)]
    wins, points = [0] * players, [0] * players
    level_games: Counter[str] = Counter()
    level_wins: Counter[str] = Counter()
    hands = 0
    for file in files:
        data = record.load(file)
        game = record.replay(data)
        assert game.finished
        levels = data["meta"]["simulate"]["levels"]
        assert data["meta"]["ai"] == {str(seat): level for seat, level in enumerate(levels)}
        won = winners_from_totals(variant, list(game.scores), partnerships)
        hands += len(game.log)
        for seat in range(players):
            wins[seat] += seat in won
            points[seat] += game.scores[seat]
        for level in set(levels):
            if all(any(levels[seat] == level for seat in side) for side in sides):
                continue  # on every side: it cannot lose this game to another level
            level_games[level] += 1
            level_wins[level] += any(levels[seat] == level for seat in won)
    assert [row["wins"] for row in result["seats"]] == wins
    assert [row["mean_points"] for row in result["seats"]] == pytest.approx(
        [total / len(files) for total in points])
    assert result["hands"] == hands
    for row in result["ai_stats"]:
        assert (row["games"], row["wins"]) == (level_games[row["ai"]], level_wins[row["ai"]]), row
        assert row["ci95"] == pytest.approx(wilson(row["wins"], row["games"]) if row["games"] else [0.0, 1.0])


def test_a_shared_pip_win_counts_for_each_seat_that_shares_it(tmp_path: Path) -> None:
    # game 37 of seed 1, greedy against two randoms: seats 0 and 2 end level on the lowest total
    summary = play_one("pip", 3, None, ["greedy", "random", "random"], 1, 37, records=str(tmp_path))
    data = record.load(next(tmp_path.glob("*.boneyard.json")))
    game = record.replay(data)
    assert game.finished and game.scores[0] == game.scores[2] < game.scores[1]
    assert summary.winners == (0, 2) and summary.winner is None
    result = simulate("pip", 3, 38, seed=1, ai="greedy,random", workers=1)
    seats = result["seats"]
    assert sum(row["wins"] for row in seats) == 38 + 1
    # boneyard stats counts that game as won by the greedy seat, and by a random seat
    for name in ("greedy", "random#2"):
        counted = collect([tmp_path], player=name).as_json()
        assert counted["variants"]["pip"]["won"] == 1, name
    assert collect([tmp_path], player="random").as_json()["variants"]["pip"]["won"] == 0


def test_the_same_seed_writes_the_same_records_whatever_the_workers(tmp_path: Path) -> None:
    runs = {}
    for workers, seed in ((1, 4), (2, 4), (2, 5)):
        folder = tmp_path / f"w{workers}-s{seed}"
        result = simulate("all-fives", 3, 3, seed=seed, ai="greedy,random,heuristic", duplicate=True,
                          workers=workers, records=folder)
        for key in ("seconds", "games_per_second", "records"):
            result.pop(key)
        runs[(workers, seed)] = (result, digest(folder))
    assert runs[(1, 4)] == runs[(2, 4)]
    assert runs[(2, 5)][1] != runs[(1, 4)][1] and runs[(2, 5)][0] != runs[(1, 4)][0]


# ---------------------------------------------------------------- simulate: interrupted, failing
def test_ctrl_c_keeps_every_finished_record_whole_and_says_how_many(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    process = subprocess.Popen(
        [sys.executable, "-m", "boneyard", "simulate", "all-fives", "--games", "100000", "--ai", "greedy,random",
         "--workers", "2", "--json", "--records", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        started = time.monotonic()
        while len(list(folder.glob("*.boneyard.json"))) < 4:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() - started < 60, "no record written"
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130 and stdout == ""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    kept = sorted(folder.glob("*.boneyard.json"))
    assert f"; {len(kept)} records of finished games are kept in {folder}" in lines[0]
    assert sorted(path.name for path in folder.iterdir()) == [path.name for path in kept]  # no half-written file
    for path in kept:
        assert record.replay(record.load(path)).finished


def test_a_record_that_cannot_be_written_is_one_line_naming_the_folder(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "records"
    written: list[Path] = []
    real = record.write_atomically

    def fill_the_disk(target: Path, text: str) -> None:
        if len(written) == 3:
            raise OSError(28, "No space left on device", str(target))
        real(target, text)
        written.append(target)

    monkeypatch.setattr(record, "write_atomically", fill_the_disk)
    line = one_line_error(cli("simulate", "block", "--games", "20", "--workers", "1", "--records", str(folder)))
    assert "cannot write a record:" in line and "No space left on device" in line
    assert line.endswith(f"; 3 records of finished games are kept in {folder} (the same command with --resume "
                         "plays on from them)")
    assert len(list(folder.glob("*.boneyard.json"))) == 3


@pytest.mark.parametrize("args,expected", [
    (["simulate", "nosuch"], "unknown variant 'nosuch'"),
    (["simulate", "block", "--ai", "greedy,wizard"], "unknown player level 'wizard'"),
    (["simulate", "block", "--ai", "expert:samples=0"], "samples=0"),
    (["simulate", "block", "--games", "0"], "--games: the number of games must be from 1"),
    (["simulate", "block", "--games", "-3"], "not -3"),
    (["simulate", "block", "-o", "target=lots"], "option 'target': 'lots' is not a whole number"),
    (["simulate", "block", "--players", "5"], "block is for 2 to 4 players, not 5"),
    (["simulate", "block", "--workers", "0"], "--workers"),
    (["simulate", "block", "--seed", "-1"], "the seed must be a whole number"),
    (["tournament", "--players", "greedy"], "a tournament needs at least two players"),
    (["tournament", "--players", "greedy,wizard"], "unknown player level 'wizard'"),
    (["tournament", "--format", "swiss"], "unknown format 'swiss'"),
    (["tournament", "--rating", "glicko"], "unknown rating method 'glicko'"),
    (["tournament", "--games", "0"], "games must be a whole number from 1"),
    (["tournament", "--variant", "pip", "--seats", "9"], "pip is for 2 to 7 players, not 9"),
])
def test_bad_input_is_one_line_that_says_what(tmp_path: Path, args: list[str], expected: str) -> None:
    if args[0] == "tournament":
        args = [*args, "--out", str(tmp_path / "t")]
    assert expected in one_line_error(cli(*args))
    assert not (tmp_path / "t").exists()  # refused before any folder was made


def test_a_records_folder_that_is_a_file_or_holds_records_is_refused_and_kept(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("mine")
    assert "is a file, not a folder" in one_line_error(cli("simulate", "block", "--records", str(afile)))
    assert "cannot make the folder" in one_line_error(cli("simulate", "block", "--records", str(afile / "sub")))
    assert afile.read_text() == "mine"
    old = tmp_path / "old"
    simulate("block", 2, 2, ai="greedy,random", workers=1, records=old)
    before = digest(old)
    assert "already holds game records" in one_line_error(cli("simulate", "block", "--records", str(old)))
    assert digest(old) == before


# ---------------------------------------------------------------- tournaments: schedule and numbers
def test_a_partnership_gauntlet_plays_each_seating_of_a_deal_once(tmp_path: Path) -> None:
    # the first player holds both seats of its side: a deal has two seatings, not four (the other two were the
    # same games again, deal and seating, and were counted twice)
    settings = make_settings("block", ["greedy", "heuristic", "random"], games=7, format="gauntlet",
                             options={"partnerships": True})
    assert settings.seats == 4 and settings.identity()["deal_set"] == 2
    tasks = schedule(settings)
    assert len(tasks) == 2 * 8  # 7 games rounded up to whole sets of two
    seen: dict[str, set[tuple[int, tuple[int, ...]]]] = {}
    for task in tasks:
        rotation = task.game % settings.seats
        seating = tuple(task.lineup[(seat + rotation) % 4] for seat in range(4))
        pair = (deal_seed(settings, task), seating)
        assert pair not in seen.setdefault(task.match, set()), task
        seen[task.match].add(pair)
    deals = {deal_seed(settings, task) for task in tasks}
    assert len(deals) == 4  # one deal per set of two, the same in both matches
    result = tournament("block", ["greedy", "heuristic"], games=4, format="gauntlet",
                        options={"partnerships": True}, workers=1, out=tmp_path, plots=False)
    lines = [json.loads(line) for line in (tmp_path / GAMES_FILE).read_text().splitlines()[1:]]
    assert len({json.dumps([line["scores"], line["seats"], line["moves"], line["hands"]]) for line in lines}) == 4
    assert result["settings"]["deal_set"] == 2 and result["settings"]["games_per_match"] == 4
    # a 3-seat gauntlet and a 4-seat round robin still rotate through every seat
    assert "deal_set" not in make_settings("draw", ["greedy", "random"], seats=3, format="gauntlet").identity()
    four = make_settings("block", ["greedy", "random", "heuristic", "greedy"], games=1,
                         options={"partnerships": True})
    assert len(schedule(four)) == 4 and "deal_set" not in four.identity()


def test_a_pip_tournament_table_is_what_its_results_file_says(tmp_path: Path) -> None:
    result = tournament("pip", ["random", "greedy", "greedy"], games=9, seats=3, seed=3, workers=1, out=tmp_path)
    lines = [json.loads(line) for line in (tmp_path / GAMES_FILE).read_text().splitlines()[1:]]
    assert len(lines) == result["games_played"] == 9
    names = [row["player"] for row in result["table"]]
    assert names == ["random", "greedy", "greedy#2"]
    games, wins, draws = Counter[int](), Counter[int](), Counter[int]()
    seat_games, seat_wins = Counter[tuple[int, int]](), Counter[tuple[int, int]]()
    meetings, scored = Counter[tuple[int, int]](), Counter[tuple[int, int]]()
    for line in lines:
        won = winners_from_totals("pip", line["scores"], False)
        assert set(line["winners"]) == won
        holders = {line["seats"][seat] for seat in won}
        for seat, player in enumerate(line["seats"]):
            games[player] += 1
            wins[player] += player in holders
            draws[player] += not holders
            seat_games[(player, seat)] += 1
            seat_wins[(player, seat)] += seat in won
        for a in set(line["seats"]):
            for b in set(line["seats"]) - {a}:
                if (a in holders) != (b in holders):
                    meetings[(a, b)] += 1
                    scored[(a, b)] += a in holders
    for player, row in enumerate(result["table"]):
        assert (row["games"], row["wins"], row["draws"]) == (games[player], wins[player], draws[player])
        assert row["losses"] == games[player] - wins[player] - draws[player]
        assert (row["win_rate_low"], row["win_rate_high"]) == pytest.approx(wilson(wins[player], games[player]))
        assert row["seat_win_rates"] == [seat_wins[(player, seat)] / seat_games[(player, seat)] for seat in range(3)]
    h2h = {(row["player"], row["against"]): (row["score"], row["games"]) for row in result["head_to_head"]}
    for (a, b), count in meetings.items():
        assert h2h[(names[a], names[b])] == (pytest.approx(scored[(a, b)] / count), count)
    with (tmp_path / "table.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(row["player"], int(row["wins"])) for row in rows] == [(name, wins[i]) for i, name in enumerate(names)]
    saved = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert saved["table"] == json.loads(json.dumps(result["table"]))


def test_bradley_terry_ratings_solve_their_likelihood_equations() -> None:
    settings = make_settings("block", ["random", "greedy", "heuristic", "random"], games=6, seed=8)
    outcome = run_tournament(settings, workers=1)
    games = [game_pairs(line) for line in outcome.records]
    ratings = report(outcome, bootstrap_samples=0)["ratings"]
    by_name = {row["player"]: row["rating"] for row in ratings}
    names = ["random", "greedy", "heuristic", "random#2"]
    strength = [10 ** (by_name[name] / 400) for name in names]
    assert sum(by_name.values()) == pytest.approx(0, abs=1e-6)
    won = [0.0] * 4
    met = [[0.0] * 4 for _ in range(4)]
    for game in games:
        for a, b, score in game:
            won[a] += score
            won[b] += 1 - score
            met[a][b] += 1
            met[b][a] += 1
    for a in range(4):  # with one virtual tie between every two players who met
        virtual = [met[a][b] + (1 if met[a][b] else 0) for b in range(4)]
        expected = sum(virtual[b] * strength[a] / (strength[a] + strength[b]) for b in range(4) if b != a)
        assert won[a] + 0.5 * sum(1 for b in range(4) if met[a][b]) == pytest.approx(expected, rel=1e-6)


def test_elo_is_sequential_from_the_ratings_before_each_game() -> None:
    games = [[sim_stats.Pair(0, 1, 1.0)], [sim_stats.Pair(0, 1, 1.0)], [sim_stats.Pair(0, 1, 0.5)]]
    first = 16 * 0.5
    second = 16 * (1 - 1 / (1 + 10 ** (-2 * first / 400)))
    lead = first + second
    third = 16 * (0.5 - 1 / (1 + 10 ** (-2 * lead / 400)))
    assert sim_stats.elo(2, games) == pytest.approx([lead + third, -(lead + third)])


# ---------------------------------------------------------------- tournaments: files and folders
def _svg_text(path: Path) -> str:
    ElementTree.parse(path)  # a whole, well-formed SVG document
    return path.read_text(encoding="utf-8")


def test_plots_are_png_and_svg_with_labelled_axes(tmp_path: Path) -> None:
    result = tournament("pip", ["random", "greedy"], games=2, workers=1, out=tmp_path / "pip")
    files = result["files"]
    for key in ("ratings_png", "scores_png"):
        assert Path(files[key]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ratings, scores = _svg_text(Path(files["ratings_svg"])), _svg_text(Path(files["scores_svg"]))
    assert "rating (bradley-terry, Elo scale) with 95% bootstrap interval" in ratings and "player" in ratings
    assert "final score (penalty points: the lowest wins)" in scores and "games" in scores
    other = tournament("block", ["random", "greedy"], games=2, workers=1, out=tmp_path / "block")
    assert "the lowest wins" not in _svg_text(Path(other["files"]["scores_svg"]))


def test_an_out_folder_of_someone_elses_files_is_refused_and_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "table.csv").write_text("my own table\n")
    (folder / "notes.txt").write_text("notes\n")
    before = digest(folder)
    line = one_line_error(cli("tournament", "--games", "2", "--workers", "1", "--out", str(folder)))
    assert "holds table.csv but no tournament's games.jsonl" in line
    assert digest(folder) == before
    # a folder of other files only is fine, and so is resuming a tournament's own folder
    (folder / "table.csv").unlink()
    assert cli("tournament", "--games", "2", "--workers", "1", "--out", str(folder), "--json").exit_code == 0
    again = cli("tournament", "--games", "2", "--workers", "1", "--out", str(folder), "--json")
    assert again.exit_code == 0 and json.loads(again.stdout)["played_now"] == 0


@pytest.mark.parametrize("content", [b"hello", b"hello world\n", b"\x89PNG\r\n\x1a", b"[1, 2]\n", b'{"a": 1}\n'])
def test_a_games_file_of_another_kind_is_refused_not_written_over(tmp_path: Path, content: bytes) -> None:
    (tmp_path / GAMES_FILE).write_bytes(content)
    line = one_line_error(cli("tournament", "--games", "2", "--workers", "1", "--out", str(tmp_path)))
    assert f"{tmp_path / GAMES_FILE}" in line and ("is not a tournament's results file" in line
                                                    or "damaged" in line)
    assert (tmp_path / GAMES_FILE).read_bytes() == content
    assert sorted(path.name for path in tmp_path.iterdir()) == [GAMES_FILE]


def test_a_games_line_that_is_not_utf8_is_refused_naming_its_line(tmp_path: Path) -> None:
    assert cli("tournament", "--games", "2", "--workers", "1", "--out", str(tmp_path), "--json").exit_code == 0
    lines = (tmp_path / GAMES_FILE).read_bytes().splitlines(keepends=True)
    damaged = lines[0] + b"\xff\xfe\x00\x01 not text\n" + b"".join(lines[1:])
    (tmp_path / GAMES_FILE).write_bytes(damaged)
    line = one_line_error(cli("tournament", "--games", "2", "--workers", "1", "--out", str(tmp_path)))
    assert line == f"boneyard: {tmp_path / GAMES_FILE}, line 2: not JSON; the results file is damaged"
    assert (tmp_path / GAMES_FILE).read_bytes() == damaged


def test_a_header_cut_short_is_still_written_again(tmp_path: Path) -> None:
    (tmp_path / GAMES_FILE).write_bytes(b'{"boneyard_tournament": 1, "settings": {"variant": "all-f')
    result = cli("tournament", "--games", "2", "--workers", "1", "--out", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    assert len((tmp_path / GAMES_FILE).read_text().splitlines()) == 3


def test_without_numpy_or_matplotlib_the_tournament_says_so_before_playing(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[object] = []
    monkeypatch.setattr("boneyard.sim.tournament.play_game", lambda *args: played.append(args))
    for module in ("numpy", "matplotlib"):
        with monkeypatch.context() as patch:
            patch.setitem(sys.modules, module, None)
            line = one_line_error(cli("tournament", "--games", "2", "--workers", "1", "--out", str(tmp_path / "t")))
        assert f"need {module}" in line and "pip install 'boneyard[stats]'" in line
    assert not played and not (tmp_path / "t").exists()


def test_a_player_module_that_fails_is_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "audit25_broken.py").write_text("def player(:\n    pass\n")
    (tmp_path / "audit25_raises.py").write_text("def player():\n    raise RuntimeError('no weights file')\n")
    line = one_line_error(cli("tournament", "--players", "audit25_broken:player,random", "--out", "t"))
    assert "player 'audit25_broken:player': importing module 'audit25_broken' failed: SyntaxError" in line
    assert "audit25_broken.py, line 1" in line
    line = one_line_error(cli("tournament", "--players", "audit25_raises:player,random", "--out", "t"))
    assert "player 'audit25_raises:player': player() failed: RuntimeError: no weights file" in line
    assert "audit25_raises.py, line 2" in line
    assert not (tmp_path / "t").exists()


class _Returns:
    """A player of one's own that returns what it was given, whatever the view."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def choose(self, view: object) -> object:
        return self.answer


def illegal_player() -> _Returns:
    return _Returns("6-6@99")


def not_a_move_player() -> _Returns:
    return _Returns(42)


@pytest.mark.parametrize("engine", ["auto", "reference"])
@pytest.mark.parametrize("spec,said", [("illegal_player", "6-6@99: nothing is on the table yet"),
                                       ("not_a_move_player", "42 is no move")])
def test_a_player_choosing_what_the_rules_refuse_stops_the_run_saying_where(engine: str, spec: str,
                                                                           said: str) -> None:
    settings = make_settings("all-fives", [f"tests.test_audit_sim25:{spec}", "random"], games=2)
    with pytest.raises(BoneyardError) as refused:
        run_tournament(settings, workers=1, engine=engine)
    message = str(refused.value)
    assert "the all-fives game dealt from seed" in message and "hand 1: the player in seat" in message
    assert said in message


# ---------------------------------------------------------------- boneyard stats
def test_stats_of_simulated_games_agree_with_the_simulation(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    result = simulate("all-fives", 2, 6, seed=2, ai="greedy,random", duplicate=True, workers=1, records=folder)
    greedy = {row["ai"]: row for row in result["ai_stats"]}["greedy"]
    done = cli("stats", str(folder), "--player", "GREEDY", "--json")
    assert done.exit_code == 0, done.output
    counted = json.loads(done.stdout)
    assert counted["records"] == 12 and counted["not_yours"] == 0 and counted["skipped"] == []
    row = counted["variants"]["all-fives"]
    assert (row["games"], row["won"]) == (greedy["games"], greedy["wins"])
    assert row["ci95"] == pytest.approx(wilson(row["won"], row["games"]), abs=1e-4)
    assert counted["against"]["random"]["games"] == 12 and row["hands"] == result["hands"]
    points = hands_won = 0
    for file in folder.glob("*.boneyard.json"):
        data = record.load(file)
        game = record.replay(data)
        seat = data["players"].index("greedy")
        points += game.scores[seat]
        hands_won += sum(log.result is not None and log.result.winner == seat for log in game.log)
    assert row["points_per_hand"] == round(points / row["hands"], 2) and row["hands_won"] == hands_won


def test_stats_of_an_empty_folder_or_unreadable_files_says_why_and_changes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert one_line_error(cli("stats", str(empty))) == \
        f"boneyard: no game to count: no game record (*.boneyard.json) in {empty}"
    bad = tmp_path / "bad"
    bad.mkdir()
    good = record.load(next(iter(sorted(_a_record(tmp_path).glob("*.boneyard.json")))))
    text = json.dumps(good, indent=1)
    (bad / "cut.boneyard.json").write_text(text[: len(text) // 2])
    (bad / "image.boneyard.json").write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    (bad / "tournament.boneyard.json").write_text('{"boneyard_tournament": 1}\n')
    (bad / "folder.boneyard.json").mkdir()
    before = digest(bad)
    done = cli("stats", str(bad))
    assert done.exit_code == 2 and "Traceback" not in done.output
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 5
    for name in ("cut", "image", "tournament", "folder"):
        assert any(line.startswith(f"boneyard: skipped {bad / name}.boneyard.json: ") for line in lines), name
    assert lines[-1] == "boneyard: no game to count: none of the 4 files named above could be read as a game record"
    assert digest(bad) == before


def _a_record(tmp_path: Path) -> Path:
    folder = tmp_path / "one"
    if not folder.exists():
        simulate("block", 2, 1, ai="greedy,random", workers=1, records=folder)
    return folder


# ---------------------------------------------------------------- help and documentation
def test_help_texts_run() -> None:
    for command in ("simulate", "tournament", "stats"):
        done = cli(command, "--help")
        assert done.exit_code == 0 and "Usage" in done.output, command


def test_the_readme_simulate_example_runs_as_written() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("boneyard simulate all-fives"))
    done = subprocess.run([sys.executable, "-m", "boneyard", *line.split()[1:]], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 1000 and [row["games"] for row in result["ai_stats"]] == [1000, 1000]
    assert result["seed"] == 1 and [row["ai"] for row in result["seats"]] == ["greedy", "random"]


def test_the_tournaments_page_table_is_what_its_command_gives(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8")
    assert "boneyard tournament --players random,greedy,heuristic --variant all-fives --games 200 --seed 1" in page
    rows = {cells[0]: cells for line in page.splitlines() if line.startswith("| ")
            for cells in [[cell.strip() for cell in line.strip("|").split("|")]]}
    result = tournament("all-fives", "random,greedy,heuristic", games=200, seed=1, out=tmp_path, plots=False)
    ratings = {row["player"]: row for row in result["ratings"]}

    def signed(value: float) -> str:
        return f"{value:+.0f}".replace("-", "\N{MINUS SIGN}")

    for row in result["table"]:
        rating = ratings[row["player"]]
        shown = rows[row["player"]]
        assert shown[1:5] == [str(row["games"]), str(row["wins"]), f"{row['win_rate']:.1%}",
                              f"{row['win_rate_low']:.1%} – {row['win_rate_high']:.1%}"] or \
            [shown[1], shown[2], shown[3], " ".join(shown[4].split())] == [
                str(row["games"]), str(row["wins"]), f"{row['win_rate']:.1%}",
                f"{row['win_rate_low']:.1%} – {row['win_rate_high']:.1%}"], (shown, row)
        assert shown[5:] == [signed(rating["rating"]), f"{signed(rating['low'])} … {signed(rating['high'])}"], shown


def test_simulate_api_refuses_bad_values_before_any_game(tmp_path: Path) -> None:
    for kwargs in ({"games": 0}, {"games": 2.5}, {"seed": -1}, {"workers": 0}, {"ai": "greedy,random,heuristic"},
                   {"engine": "warp"}, {"backend": "cloud"}):
        with pytest.raises(OptionError):
            simulate("block", 2, **{"games": 2, "records": tmp_path / "r", **kwargs})
        assert not (tmp_path / "r").exists(), kwargs
    with pytest.raises(TournamentError):
        tournament("block", ["greedy", "random"], games=2, out=tmp_path / "t", backend="cloud", plots=False)
    assert not (tmp_path / "t").exists()
