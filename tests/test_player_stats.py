"""``boneyard stats``: a player's statistics over saved records, checked against each record's replay (the
``boneyard replay --json`` contract), not against the counting code's own view of the games."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import boneyard
from boneyard import record
from boneyard.cli import app
from boneyard.player_stats import Stats, collect, opponents


def played(variant: str, players: int, seed: int, *, you: int | None = 0, hands: int | None = None,
           options: dict[str, Any] | None = None, ai: str = "greedy") -> dict[str, Any]:
    """A record of a game played at random from ``seed`` (stopped after ``hands`` hands if given), with the
    terminal's meta: ``you`` is the human seat (None: no human seat), the others computers at ``ai``."""
    names = [f"Seat {seat}" if seat != you else "Ann" for seat in range(players)]
    game = boneyard.new_game(variant, players, seed=seed, names=names, options=options)
    rng = random.Random(seed)
    while not game.finished and (hands is None or len(game.log) <= hands):
        if not game.in_hand:
            if hands is not None and len(game.log) == hands:
                break
            game.next_hand()
            continue
        game.apply(rng.choice(game.legal_moves()))
    meta: dict[str, Any] = {"ai": {str(seat): ai for seat in range(players) if seat != you}}
    if you is not None:
        meta["human_seat"] = you
    return record.to_record(game, meta=meta)


def expected(data: dict[str, Any], seat: int, side: set[int]) -> dict[str, int]:
    """What the statistics of ``seat`` should be, read from the record's replay."""
    replay = record.replay_json(data)
    ended = [hand for hand in replay["hands"] if hand.get("end") is not None]  # a hand being played has none
    finished = bool(replay["finished"])
    points = ended[-1]["totals"][seat] if ended else 0
    return {"games": int(finished), "won": int(finished and replay["winner"] in side),
            "unfinished": int(not finished), "hands": len(ended),
            "hands_won": sum(hand["winner"] in side for hand in ended),
            "dominoes": sum(hand["end"] == "domino" and hand["winner"] in side for hand in ended),
            "points": points}


def test_each_variant_is_counted_as_its_replay_says() -> None:
    records = [played("block", 2, 1), played("block", 2, 2, you=1), played("draw", 2, 3), played("bergen", 2, 4),
               played("block", 2, 5, hands=1)]
    stats = Stats()
    for number, data in enumerate(records):
        assert stats.add(data, f"game {number}")
    for variant in ("block", "draw", "bergen"):
        totals: dict[str, int] = {}
        for data in records:
            if data["variant"] == variant:
                seat = data["meta"]["human_seat"]
                for key, value in expected(data, seat, {seat}).items():
                    totals[key] = totals.get(key, 0) + value
        tally = stats.variants[variant]
        assert (tally.games, tally.won, tally.unfinished, tally.hands, tally.hands_won, tally.dominoes) == (
            totals["games"], totals["won"], totals["unfinished"], totals["hands"], totals["hands_won"],
            totals["dominoes"]), variant
    assert stats.variants["block"].unfinished == 1  # the game stopped after its first hand
    assert stats.records == 5 and stats.not_yours == 0


def test_points_a_hand_follow_the_scores_in_all_fives() -> None:
    """All Fives scores during the hand as well as at its end: the points counted are the score's growth."""
    data = played("all-fives", 2, 7)
    stats = Stats()
    stats.add(data, "all fives")
    replay = record.replay_json(data)
    tally = stats.variants["all-fives"]
    assert tally.points == replay["totals"][0] and tally.hands == len(replay["hands"])
    assert stats.as_json()["variants"]["all-fives"]["points_per_hand"] == round(tally.points / tally.hands, 2)


def test_partners_share_wins_and_hands() -> None:
    data = played("block", 4, 11, you=2, options={"partnerships": True})
    stats = Stats()
    stats.add(data, "partners")
    want = expected(data, 2, {0, 2})
    tally = stats.variants["block"]
    assert (tally.games, tally.won, tally.hands, tally.hands_won, tally.dominoes) == (
        want["games"], want["won"], want["hands"], want["hands_won"], want["dominoes"])
    assert opponents(data, {0, 2}, 4) == "greedy"  # the partner (seat 0) is not an opponent


def test_whose_seat_is_counted() -> None:
    computers = played("draw", 2, 21, you=None)
    named = played("draw", 2, 22, you=1)
    stats = Stats()
    stats.add(computers, "computers")
    stats.add(named, "named")
    assert (stats.records, stats.not_yours) == (1, 1)  # a game of computers has no "you"
    by_name = Stats(player="ANN")  # any case
    by_name.add(named, "named")
    by_name.add(computers, "computers")
    assert (by_name.records, by_name.not_yours) == (1, 1)
    assert by_name.variants["draw"].hands == stats.variants["draw"].hands


def test_review_marks_count_only_your_moves() -> None:
    data = played("block", 2, 31)
    marks = ["best", "mistake", "blunder", "inaccuracy"]
    hand = data["hands"][0]
    hand["annotations"] = [{"mark": marks[index % 4]} if index % 5 else None for index in range(len(hand["moves"]))]
    game = record.replay(data)
    mine = [note["mark"] for event, note in zip(game.log[0].events, hand["annotations"], strict=False)
            if note is not None and event.seat == 0]
    stats = Stats()
    stats.add(data, "reviewed")
    review = stats.as_json()["review"]
    assert review["decisions"] == len(mine) > 0
    assert all(review[mark] == mine.count(mark) for mark in marks)
    assert review["accuracy"] == round(mine.count("best") / len(mine), 4)


def test_the_command_reads_folders_skips_bad_files_and_prints_tables(tmp_path: Path) -> None:
    games = tmp_path / "games"
    (games / "old").mkdir(parents=True)
    (games / "a.boneyard.json").write_text(json.dumps(played("block", 2, 41)))
    (games / "old" / "b.boneyard.json").write_text(json.dumps(played("draw", 2, 42, ai="expert:time=0.2")))
    (games / "broken.boneyard.json").write_text("{not json")
    (games / "notes.txt").write_text("not a record, not read")
    result = CliRunner().invoke(app, ["stats", str(games), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["records"] == 2 and sorted(data["variants"]) == ["block", "draw"]
    assert sorted(data["against"]) == ["expert", "greedy"]
    assert len(data["skipped"]) == 1 and "broken.boneyard.json" in data["skipped"][0]
    assert "boneyard: skipped" in result.stderr and "broken.boneyard.json" in result.stderr
    text = CliRunner().invoke(app, ["stats", str(games)])
    assert text.exit_code == 0
    assert "Your games, by variant" in text.stdout and "by opponent" in text.stdout
    assert "No reviewed decisions" in text.stdout


@pytest.mark.parametrize("case", ["missing", "nobody", "no-name"])
def test_nothing_to_count_is_a_clear_error(tmp_path: Path, case: str) -> None:
    (tmp_path / "c.boneyard.json").write_text(json.dumps(played("block", 2, 51, you=None)))
    args = {"missing": ["stats", str(tmp_path / "nowhere")], "nobody": ["stats", str(tmp_path)],
            "no-name": ["stats", str(tmp_path), "--player", "Zed"]}[case]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    message = {"missing": "nowhere: no such file or folder",
               "nobody": "none of the 1 records read has a human seat (meta.human_seat); name your seat with --player",
               "no-name": "none of the 1 records read has a seat named 'Zed'"}[case]
    assert message in result.stderr


def test_collect_is_the_commands_counting(tmp_path: Path) -> None:
    (tmp_path / "a.boneyard.json").write_text(json.dumps(played("bergen", 2, 61)))
    stats = collect([tmp_path])
    assert stats.records == 1 and stats.variants["bergen"].games + stats.variants["bergen"].unfinished == 1


def test_without_a_path_stats_counts_the_games_play_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``boneyard play`` saves a game not given ``--save`` in the data folder; ``boneyard stats`` alone counts
    the games there, and says where they would be before any was saved (creating nothing)."""
    from boneyard.cli import default_save_path, saved_games_folder

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = saved_games_folder()
    assert folder.is_relative_to(tmp_path / "data")
    runner = CliRunner()
    none = runner.invoke(app, ["stats"])
    assert none.exit_code == 2
    assert f"no saved games yet: boneyard play saves your games in {folder}" in none.stderr
    assert not folder.exists()
    for seed in (1, 2):
        default_save_path("block").write_text(record.dumps(played("block", 2, seed)), encoding="utf-8")
    assert default_save_path("block").parent == folder
    counted = runner.invoke(app, ["stats", "--json"])
    assert counted.exit_code == 0, counted.output
    assert json.loads(counted.stdout)["records"] == 2
    assert json.loads(counted.stdout) == json.loads(runner.invoke(app, ["stats", str(folder), "--json"]).stdout)
