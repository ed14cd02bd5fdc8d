"""Tournaments: schedules, seat rotation, duplicate deals, resume, determinism, statistics, output files."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boneyard.chance import Chance
from boneyard.cli import app
from boneyard.errors import BoneyardError, OptionError
from boneyard.moves import Move
from boneyard.players.base import RandomPlayer, make_player
from boneyard.rules.base import make_rules
from boneyard.sim import stats
from boneyard.sim.tournament import (
    GAMES_FILE,
    Settings,
    Task,
    TournamentError,
    build_player,
    deal_seed,
    game_pairs,
    make_settings,
    matches,
    report,
    results_only,
    run_tournament,
    schedule,
    tournament,
    write_outputs,
)
from boneyard.state import Game
from boneyard.view import SeatView

FAST = {"target": 60}  # All Fives to 60: a few hands per game


class FirstMover:
    """Always the first legal move (a weak, deterministic player for module:function specs)."""

    name = "first"

    def choose(self, view: SeatView) -> Move:
        return view.legal_moves()[0]


def first_mover() -> FirstMover:
    return FirstMover()


def seeded_random(seed: int | None = None) -> RandomPlayer:
    return RandomPlayer(seed)


def small(**changes: Any) -> Settings:
    values: dict[str, Any] = {"games": 6, "seed": 3, "options": FAST}
    values.update(changes)
    players = values.pop("players", ["random", "greedy"])
    return make_settings(values.pop("variant", "all-fives"), players, **values)


# ---------------------------------------------------------------- schedules
def test_round_robin_meets_every_pair_and_gauntlet_only_the_first() -> None:
    players = ["random", "greedy", "tests.test_tournament:first_mover"]
    assert matches(small(players=players)) == [(0, 1), (0, 2), (1, 2)]
    assert matches(small(players=players, format="gauntlet")) == [(0, 1), (0, 2)]
    assert matches(small(players=players, seats=3)) == [(0, 1, 2)]
    assert matches(small(players=players, seats=3, format="gauntlet")) == [(0, 1, 1), (0, 2, 2)]


def test_a_partnership_gauntlet_seats_the_first_player_with_itself() -> None:
    # partners share a side: the first player's partner seat is its own, so each match is side against side
    settings = make_settings("block", ["greedy", "random"], seats=4, format="gauntlet", games=4,
                             options={"partnerships": True})
    assert matches(settings) == [(0, 1, 0, 1)]
    outcome = run_tournament(settings, workers=1)
    for record in outcome.records:
        sides = {frozenset(record["seats"][seat] for seat in side) for side in ((0, 2), (1, 3))}
        assert sides == {frozenset({0}), frozenset({1})}
    rows = {row["player"]: row for row in report(outcome)["table"]}
    assert rows["greedy"]["wins"] + rows["random"]["wins"] == len(outcome.records)


def test_rotation_puts_every_player_in_every_seat_equally_often() -> None:
    settings = small(players=["random", "greedy", "tests.test_tournament:first_mover"], seats=3, games=6)
    outcome = run_tournament(settings, workers=1)
    seats_of: dict[int, list[int]] = {0: [0, 0, 0], 1: [0, 0, 0], 2: [0, 0, 0]}
    for record in outcome.records:
        for seat, player in enumerate(record["seats"]):
            seats_of[player][seat] += 1
    assert seats_of == {0: [2, 2, 2], 1: [2, 2, 2], 2: [2, 2, 2]}


def test_duplicate_deals_share_one_deal_per_set_and_across_matches() -> None:
    settings = small(players=["random", "greedy", "tests.test_tournament:first_mover"], games=4)
    tasks = schedule(settings)
    assert len(tasks) == 3 * 4
    seeds = {(task.match, task.game): deal_seed(settings, task) for task in tasks}
    first, second = tasks[0], tasks[1]
    assert seeds[(first.match, 0)] == seeds[(second.match, 1)]  # games 0 and 1 form a set
    assert seeds[(first.match, 0)] != seeds[(first.match, 2)]
    assert len({seed for (match, game), seed in seeds.items() if game == 2}) == 1  # the same deal in every match
    rules = make_rules("all-fives", 2, FAST)
    deals = []
    for task in tasks[:2]:
        game = Game(rules, chance=Chance(deal_seed(settings, task)))
        game.next_hand()
        deals.append(game.hands)
    assert deals[0] == deals[1]


def test_without_duplicate_every_game_has_its_own_deal_and_games_are_not_rounded() -> None:
    settings = small(duplicate=False, games=5)
    tasks = schedule(settings)
    assert len(tasks) == 5
    assert len({deal_seed(settings, task) for task in tasks}) == 5
    assert len(schedule(small(games=5))) == 6  # duplicate: rounded up to whole sets of 2


def test_bad_settings_are_refused_with_the_reason() -> None:
    with pytest.raises(TournamentError, match="at least two players"):
        make_settings("block", ["greedy"])
    with pytest.raises(TournamentError, match="needs 3 players"):
        make_settings("block", ["random", "greedy"], seats=3)
    with pytest.raises(TournamentError, match="unknown format"):
        make_settings("block", ["random", "greedy"], format="swiss")
    with pytest.raises(OptionError, match="unknown player level"):
        make_settings("block", ["random", "nobody"])
    with pytest.raises(OptionError, match="cannot import module 'no_such_module_xyz'"):
        make_settings("block", ["random", "no_such_module_xyz:make"])
    with pytest.raises(OptionError, match="no callable 'missing'"):
        make_settings("block", ["random", "tests.test_tournament:missing"])
    with pytest.raises(BoneyardError, match="unknown option"):
        make_settings("block", ["random", "greedy"], options={"spinner": True})
    with pytest.raises(TournamentError, match="the seed must be a whole number from 0 to 2\\^63 - 1, not -1"):
        make_settings("block", ["random", "greedy"], seed=-1)
    with pytest.raises(TournamentError, match="games must be a whole number from 1 to 10,000,000"):
        make_settings("block", ["random", "greedy"], games=10**8)


def test_callable_players_get_a_seed_when_they_take_one() -> None:
    first = build_player("tests.test_tournament:seeded_random", seed=5)
    second = build_player("tests.test_tournament:seeded_random", seed=5)
    assert isinstance(first, RandomPlayer)
    assert first.stream.next() == second.stream.next()
    assert isinstance(build_player("tests.test_tournament:first_mover"), FirstMover)


def test_the_boneyard_command_finds_a_player_module_in_the_current_folder(tmp_path: Path) -> None:
    # the installed command starts without the current folder on its import path (python -m adds it)
    (tmp_path / "myplayers.py").write_text(
        "def first(seed=None):\n"
        "    from tests.test_tournament import FirstMover\n"
        "    return FirstMover()\n")
    command = ("import sys; sys.path = [p for p in sys.path if p not in ('', sys.argv[1])]; "
               "sys.path.append(sys.argv[2]); sys.argv = sys.argv[:1] + sys.argv[3:]; "
               "from boneyard.cli import main; main()")
    out = subprocess.run([sys.executable, "-c", command, str(tmp_path), str(Path(__file__).parents[1]), "tournament",
                          "--players", "myplayers:first,greedy", "--variant", "block", "--games", "4", "--workers",
                          "2", "--json", "--out", str(tmp_path / "run"), "-o", "target=20"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    table = {row["player"]: row for row in json.loads(out.stdout)["table"]}
    assert table["myplayers:first"]["games"] == 4


def test_player_specs_with_unknown_settings_or_a_seed_are_refused_by_the_api() -> None:
    with pytest.raises(OptionError, match="heuristic has no setting 'depth' \\(it takes no settings\\)"):
        make_player("heuristic:depth=2")
    with pytest.raises(OptionError, match="expert has no setting 'depth' \\(it takes time, samples,"):
        make_player("expert:depth=3")
    with pytest.raises(OptionError, match="a player's seed comes from the game"):
        make_player("random:seed=1")
    with pytest.raises(OptionError, match="a player's seed must be a whole number, not 'a'"):
        make_player("random", seed="a")  # type: ignore[arg-type]


# ---------------------------------------------------------------- results
def test_table_counts_add_up_and_greedy_beats_random(tmp_path: Path) -> None:
    result = tournament("all-fives", ["random", "greedy"], games=40, seed=1, options=FAST, workers=1,
                        out=tmp_path, plots=False)
    table = {row["player"]: row for row in result["table"]}
    for row in table.values():
        assert row["games"] == 40
        assert row["wins"] + row["draws"] + row["losses"] == 40
        assert row["win_rate_low"] <= row["win_rate"] <= row["win_rate_high"]
        assert (row["win_rate_low"], row["win_rate_high"]) == pytest.approx(stats.wilson(row["wins"], 40))
    assert table["greedy"]["wins"] + table["random"]["wins"] + table["greedy"]["draws"] == 40
    assert table["greedy"]["win_rate_low"] > 0.5
    ratings = {row["player"]: row for row in result["ratings"]}
    assert result["ratings"][0]["player"] == "greedy"
    assert ratings["greedy"]["rating"] == pytest.approx(-ratings["random"]["rating"])
    assert ratings["greedy"]["low"] <= ratings["greedy"]["rating"] <= ratings["greedy"]["high"]
    assert ratings["random"]["high"] < ratings["greedy"]["low"]
    h2h = {(row["player"], row["against"]): row["score"] for row in result["head_to_head"]}
    assert h2h[("greedy", "random")] == pytest.approx(1 - h2h[("random", "greedy")])
    assert len(result["scores"]["greedy"]["values"]) == 40


def test_files_written_json_csv_and_plots(tmp_path: Path) -> None:
    result = tournament("block", ["random", "greedy", "tests.test_tournament:first_mover"], games=4, seed=2,
                        workers=1, out=tmp_path)
    files = result["files"]
    for key in ("games", "json", "table_csv", "ratings_csv", "ratings_png", "ratings_svg", "scores_png",
                "scores_svg"):
        assert Path(files[key]).is_file() and Path(files[key]).stat().st_size > 0, key
    assert Path(files["ratings_png"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in Path(files["ratings_svg"]).read_bytes()[:500]
    saved = json.loads(Path(files["json"]).read_text())
    assert [row["player"] for row in saved["table"]] == ["random", "greedy", "tests.test_tournament:first_mover"]
    with Path(files["table_csv"]).open() as handle:
        rows = list(csv.DictReader(handle))
    assert [row["player"] for row in rows] == ["random", "greedy", "tests.test_tournament:first_mover"]
    assert [int(row["games"]) for row in rows] == [8, 8, 8]
    with Path(files["ratings_csv"]).open() as handle:
        assert [int(row["rank"]) for row in csv.DictReader(handle)] == [1, 2, 3]
    lines = (tmp_path / GAMES_FILE).read_text().splitlines()
    assert json.loads(lines[0])["settings"]["players"][0] == "random"
    assert len(lines) == 1 + 3 * 4


def test_same_seed_same_results_whatever_the_workers() -> None:
    settings = small(players=["random", "greedy", "random"], games=4)
    one = run_tournament(settings, workers=1)
    two = run_tournament(settings, workers=2)
    assert results_only(one.records) == results_only(two.records)
    assert report(one) == report(two)
    other = run_tournament(small(players=["random", "greedy", "random"], games=4, seed=4), workers=1)
    assert results_only(other.records) != results_only(one.records)


def test_an_interrupted_tournament_resumes_and_skips_done_games(tmp_path: Path) -> None:
    settings = small(games=8)
    reference = run_tournament(settings, workers=1)

    class Interrupt(Exception):
        pass

    seen = []

    def stop_after_five(record: dict[str, Any]) -> None:
        seen.append(record)
        if len(seen) == 5:
            raise Interrupt

    with pytest.raises(Interrupt):
        run_tournament(settings, out=tmp_path, workers=1, on_result=stop_after_five)
    path = tmp_path / GAMES_FILE
    assert len(path.read_text().splitlines()) == 1 + 5
    with path.open("a") as handle:  # a line cut short by the interruption
        handle.write('{"match": "random | greedy", "ga')
    resumed = run_tournament(settings, out=tmp_path, workers=2)
    assert resumed.played == 8 - 5
    assert results_only(resumed.records) == results_only(reference.records)
    again = run_tournament(settings, out=tmp_path, workers=1)
    assert again.played == 0
    more = run_tournament(small(games=10), out=tmp_path, workers=1)  # more games: only the new ones
    assert more.played == 2
    assert len(path.read_text().splitlines()) == 1 + 10


def test_an_out_folder_of_another_tournament_is_refused(tmp_path: Path) -> None:
    run_tournament(small(games=2), out=tmp_path, workers=1)
    with pytest.raises(TournamentError, match=r"holds a different tournament \(seed 3 there, 99 now\)"):
        run_tournament(small(games=2, seed=99), out=tmp_path, workers=1)


def test_pairs_winner_beats_each_loser_and_no_winner_is_a_tie() -> None:
    assert game_pairs({"seats": [0, 1, 2], "winners": [1]}) == [stats.Pair(0, 1, 0.0), stats.Pair(1, 2, 1.0)]
    assert game_pairs({"seats": [0, 1], "winners": []}) == [stats.Pair(0, 1, 0.5)]
    # partners (seats 0 and 2) both win; the same player twice at a table is one player
    assert game_pairs({"seats": [0, 1, 0, 1], "winners": [0, 2]}) == [stats.Pair(0, 1, 1.0)]


def test_elo_rating_method_and_unknown_method(tmp_path: Path) -> None:
    outcome = run_tournament(small(games=10), workers=1)
    result = report(outcome, rating="elo", bootstrap_samples=50)
    assert result["rating_method"] == "elo"
    assert sum(row["rating"] for row in result["ratings"]) == pytest.approx(0.0)
    with pytest.raises(TournamentError, match="unknown rating method"):
        report(outcome, rating="glicko")
    paths = write_outputs(result, tmp_path, plots=False)
    assert "ratings_png" not in paths


# ---------------------------------------------------------------- statistics
def test_wilson_interval_known_values() -> None:
    assert stats.wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = stats.wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert stats.wilson(10, 10)[1] == pytest.approx(1.0)
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_bradley_terry_recovers_a_three_to_one_edge() -> None:
    games = [[stats.Pair(0, 1, 1.0)]] * 75 + [[stats.Pair(0, 1, 0.0)]] * 25
    ratings = stats.bradley_terry(2, games, prior=0.0)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3), abs=0.01)
    assert ratings[0] == pytest.approx(-ratings[1])


def test_bradley_terry_orders_a_chain_and_keeps_an_unbeaten_player_finite() -> None:
    games = ([[stats.Pair(0, 1, 1.0)]] * 10 + [[stats.Pair(1, 2, 1.0)]] * 7 + [[stats.Pair(1, 2, 0.0)]] * 3
             + [[stats.Pair(0, 2, 1.0)]] * 10)
    ratings = stats.bradley_terry(3, games)
    assert ratings[0] > ratings[1] > ratings[2]
    assert all(math.isfinite(r) for r in ratings)


def test_elo_moves_towards_the_winner_and_bootstrap_brackets() -> None:
    games = [[stats.Pair(0, 1, 1.0)]] * 30 + [[stats.Pair(0, 1, 0.5)]] * 10
    ratings = stats.elo(2, games)
    assert ratings[0] > 0 > ratings[1]
    intervals = stats.bootstrap(stats.bradley_terry, 2, games, samples=100, seed=1)
    assert intervals == stats.bootstrap(stats.bradley_terry, 2, games, samples=100, seed=1)
    assert intervals[0].low <= stats.bradley_terry(2, games)[0] <= intervals[0].high


# ---------------------------------------------------------------- the command
def test_cli_json_holds_table_ratings_and_plot_paths(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["tournament", "--players", "random,greedy", "--variant", "all-fives",
                                      "--games", "4", "--seed", "1", "--option", "target=60", "--workers", "1",
                                      "--out", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [row["player"] for row in data["table"]] == ["random", "greedy"]
    assert {row["player"] for row in data["ratings"]} == {"random", "greedy"}
    assert set(data["plots"]) == {"ratings_png", "ratings_svg", "scores_png", "scores_svg"}
    assert all(Path(path).is_file() for path in data["plots"].values())
    assert data["settings"]["options"] == {"target": 60}


def test_cli_table_and_errors(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["tournament", "--players", "random,greedy", "--variant", "block",
                                      "--games", "2", "--workers", "1", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.stdout and "ratings" in result.stdout
    # the ratings' title on one line, over a table with two players (narrower than the title once was)
    assert "ratings (bradley-terry, Elo scale)" in [line.strip() for line in result.stdout.splitlines()]
    assert "95% bootstrap interval" in result.stdout
    bad = CliRunner().invoke(app, ["tournament", "--players", "random,greedy", "--variant", "block",
                                   "--option", "nonsense=1", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2
    assert "unknown option 'nonsense'" in bad.stderr
    solo = CliRunner().invoke(app, ["tournament", "--players", "greedy", "--out", str(tmp_path / "y")])
    assert solo.exit_code == 2 and "at least two players" in solo.stderr


def test_task_is_plain_data() -> None:
    assert Task("a | b", (0, 1), 3) == Task("a | b", (0, 1), 3)
