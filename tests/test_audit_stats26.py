"""Audit of a player's statistics (``boneyard stats``, ``POST /api/stats``, the lobby's *Show my statistics*).

The counts are checked against each record's ``boneyard replay --json`` (winner, hand ends, totals), never against
the counting code's own view of a game, over games of every variant and player count played by random and greedy
players; then whose seat is counted, a game held by several records (a reviewed copy, the earlier part saved under
another name) counted once, files that cannot be read named and skipped without a traceback or a change, the table
in an ASCII console and an 80-column window, and the web's counts beside those of the same games' downloads."""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import boneyard
from boneyard import record
from boneyard.cli import app
from boneyard.player_stats import Stats, collect, opponents
from boneyard.players.base import make_player
from boneyard.sim.stats import Z95
from boneyard.state import Game
from boneyard.view import SeatView

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ games and an independent count

def played(variant: str, players: int, seed: int, levels: list[str], *, options: dict[str, Any] | None = None,
           stop: int | None = None, names: list[str] | None = None) -> Game:
    """A game played by ``levels`` (one a seat) from ``seed``, stopped after ``stop`` moves if given."""
    game = boneyard.new_game(variant, players, seed=seed, options=options,
                             names=names or [f"Seat {seat}" for seat in range(players)])
    seats = [make_player(level, seed=seed + 101 * seat) for seat, level in enumerate(levels)]
    views = [SeatView(game, seat) for seat in range(players)]
    moves = 0
    while not game.finished and (stop is None or moves < stop):
        if not game.in_hand:
            game.next_hand()
            continue
        game.apply(seats[game.turn].choose(views[game.turn]))
        moves += 1
    return game


def terminal_meta(you: int | None, levels: list[str]) -> dict[str, Any]:
    """``meta`` as the terminal writes it: the person's seat and each computer's level (None: computers only)."""
    meta: dict[str, Any] = {"ai": {str(seat): level for seat, level in enumerate(levels) if seat != you}}
    if you is not None:
        meta["human_seat"] = you
    return meta


def wilson(won: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval, written out here from its formula."""
    if not games:
        return 0.0, 1.0
    p, z = won / games, Z95
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (0.0 if won == 0 else centre - half), (1.0 if won == games else centre + half)


def independent(data: dict[str, Any], you: int, side: set[int]) -> dict[str, int]:
    """What ``you`` scored in a record, read from its ``boneyard replay --json`` alone: a finished game won where
    the winner is on your side, or, with no winner, your side holds the lowest PIP total (a shared win); every hand
    over (a hand still being played when it was saved is not); the growth of your total over those hands."""
    replay = record.replay_json(data)
    finished = bool(replay["finished"])
    won = 0
    if finished:
        totals = replay["totals"]
        won = int(replay["winner"] in side if replay["winner"] is not None
                  else replay["variant"] == "pip" and any(totals[seat] == min(totals) for seat in side))
    counts = {"games": int(finished), "won": won, "unfinished": int(not finished), "hands": 0, "hands_won": 0,
              "dominoes": 0, "points": 0}
    before = 0
    for number, hand in enumerate(replay["hands"]):
        if not finished and number == len(replay["hands"]) - 1 and hand["end"] == "unfinished":
            break  # the hand being played when the game was saved
        counts["hands"] += 1
        counts["hands_won"] += hand["winner"] in side
        counts["dominoes"] += hand["end"] == "domino" and hand["winner"] in side
        counts["points"] += hand["totals"][you] - before
        before = hand["totals"][you]
    return counts


LINE_UPS = [(variant, players, {}) for variant, players in [
    ("block", 2), ("block", 3), ("block", 4), ("draw", 2), ("draw", 4), ("all-fives", 2), ("all-fives", 3),
    ("all-fives", 4), ("bergen", 2), ("bergen", 4), ("double-bergen", 2), ("double-bergen", 3),
    ("flower-scorpion", 2), ("flower-scorpion", 4), ("pip", 2), ("pip", 4), ("pip", 7)]] + [
    ("block", 4, {"partnerships": True}), ("draw", 4, {"partnerships": True}), ("all-fives", 2, {"target": 61})]


def test_every_variant_and_player_count_is_counted_as_its_replay_says() -> None:
    """Games of every variant (some saved part-way), each counted for a random seat: the tallies per variant and
    per opponent equal the sums of the replays' own results, and each interval is the Wilson interval of them."""
    rng = random.Random(26)
    stats = Stats()
    want: dict[tuple[str, str], dict[str, int]] = {}
    for number, (variant, players, options) in enumerate(LINE_UPS * 2):
        levels = [rng.choice(["random", "greedy"]) for _ in range(players)]
        you = rng.randrange(players)
        game = played(variant, players, 1000 + number, levels, options=options,
                      stop=rng.choice([None, None, rng.randrange(1, 60)]))
        data = record.to_record(game, meta=terminal_meta(you, levels))
        assert stats.add(data, f"game {number}")
        side = {you, (you + 2) % 4} if options.get("partnerships") else {you}
        against = " and ".join(sorted({levels[seat] for seat in range(players) if seat not in side}))
        for key in (("variants", game.rules.name), ("against", against)):
            total = want.setdefault(key, {})
            for name, value in independent(data, you, side).items():
                total[name] = total.get(name, 0) + value
    shown = stats.as_json()
    assert shown["records"] == len(LINE_UPS) * 2 and shown["not_yours"] == 0
    assert {(group, name) for group in ("variants", "against") for name in shown[group]} == set(want)
    for (group, name), total in want.items():
        row = shown[group][name]
        assert {key: row[key] for key in ("games", "won", "unfinished", "hands", "hands_won", "dominoes")} == {
            key: total[key] for key in ("games", "won", "unfinished", "hands", "hands_won", "dominoes")}, name
        assert row["points_per_hand"] == (round(total["points"] / total["hands"], 2) if total["hands"] else None)
        low, high = wilson(total["won"], total["games"])
        assert row["ci95"] == pytest.approx([low, high], abs=5e-5), name


def test_a_shared_lowest_pip_total_is_a_win_for_each_seat_that_shares_it() -> None:
    levels = ["random"] * 4
    game = played("pip", 4, 116, levels)
    assert game.finished and game.winner is None and game.scores[1] == game.scores[2] == min(game.scores)
    for seat, won in ((1, 1), (2, 1), (0, 0), (3, 0)):
        stats = Stats()
        stats.add(record.to_record(game, meta=terminal_meta(seat, levels)), "pip")
        assert (stats.variants["pip"].games, stats.variants["pip"].won) == (1, won), seat


# ------------------------------------------------------------------ whose seat is "you"

def finished_block(seed: int = 3, names: list[str] | None = None) -> Game:
    return played("block", 2, seed, ["greedy", "greedy"], options={"target": 30}, names=names)


def test_whose_seat_each_writer_names() -> None:
    game = finished_block(names=["Ann", "Computer 1 (greedy)"])
    stats = Stats()
    stats.add(record.to_record(game, meta=terminal_meta(0, ["human", "greedy"])), "terminal")  # counted: seat 0
    stats.add(record.to_record(game, meta={"ai": {"0": "greedy", "1": "greedy"}}), "simulate")  # nobody's
    stats.add(record.to_record(game), "no meta")  # nobody's
    stats.add(record.to_record(game, meta={"human_seat": 5, "ai": {}}), "a seat the game lacks")  # nobody's
    stats.add(record.to_record(game, meta={"human_seat": True}), "a boolean is no seat")  # nobody's
    assert (stats.records, stats.not_yours) == (1, 4)
    assert stats.variants["block"].won == int(game.winner == 0)


def test_a_name_that_two_seats_bear_counts_the_human_seat_or_none() -> None:
    """``--player Ann`` where both seats are called Ann (the web lets two people take one name): the record's
    human seat where it is one of them, else the record is not yours (seat 0 was counted whoever played it)."""
    game = finished_block(5, names=["Ann", "ann"])
    as_second = Stats(player="ANN")
    as_second.add(record.to_record(game, meta={"human_seat": 1}), "mine at seat 1")
    assert as_second.records == 1
    assert as_second.variants["block"].won == int(game.winner == 1)
    unknown = Stats(player="Ann")
    unknown.add(record.to_record(game), "two Anns, no human seat")
    assert (unknown.records, unknown.not_yours) == (0, 1)


def test_opponents_are_the_levels_as_the_players_read_them() -> None:
    """The terminal writes ``--ai`` as typed (``Greedy``, ``expert :time=0.2``): the same level is one row."""
    assert opponents({"meta": {"ai": {"1": "Greedy"}}}, {0}, 2) == "greedy"
    assert opponents({"meta": {"ai": {"1": " Expert :time=0.2", "2": "greedy"}}}, {0}, 3) == "expert and greedy"
    assert opponents({"meta": {"ai": {"1": "", "2": 7}}}, {0}, 3) == "people"
    assert opponents({"meta": {"ai": {"1": "greedy"}}}, {0, 2}, 4) == "greedy and people"  # seat 3 had none


# ------------------------------------------------------------------ a game held by several records

def write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(record.dumps(data), encoding="utf-8")
    return path


def stats_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["stats", *args, "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


def test_a_reviewed_copy_and_a_review_of_it_count_the_game_once(tmp_path: Path) -> None:
    """README's own example: ``review game --write reviewed`` beside the game, then a second review of that copy:
    three records of one game, one game counted, each of your decisions marked once."""
    game = finished_block(3, names=["Ann", "Computer 1 (greedy)"])
    original = write(tmp_path / "game.boneyard.json", record.to_record(game, meta=terminal_meta(0, ["", "greedy"])))
    runner = CliRunner()
    for source, target in (("game", "reviewed"), ("reviewed", "again")):
        done = runner.invoke(app, ["review", str(tmp_path / f"{source}.boneyard.json"), "--seat", "0",
                                   "--samples", "8", "--no-open-hands", "--write",
                                   str(tmp_path / f"{target}.boneyard.json")])
        assert done.exit_code == 0, done.output
    reviewed = record.load(tmp_path / "again.boneyard.json")
    mine = [note["mark"] for log, hand in zip(record.replay(reviewed).log, reviewed["hands"], strict=True)
            for event, note in zip(log.events, hand.get("annotations", []), strict=False)
            if note is not None and "mark" in note and event.seat == 0]
    assert mine, "the review marked no decision of seat 0"
    alone = stats_json(str(original))
    together = stats_json(str(tmp_path))
    assert together["records"] == 1 and together["duplicates"] == 2
    said = CliRunner().invoke(app, ["stats", str(tmp_path)], env={"COLUMNS": "200"}).output
    assert "2 records held games counted from another record" in said
    said = CliRunner().invoke(app, ["stats", str(original), str(tmp_path / "reviewed.boneyard.json")],
                              env={"COLUMNS": "200"}).output
    assert "1 record held a game counted from another record" in said
    assert together["variants"] == alone["variants"] and together["against"] == alone["against"]
    assert together["review"]["decisions"] == len(mine)
    assert {mark: together["review"][mark] for mark in ("best", "inaccuracy", "mistake", "blunder")} == {
        mark: mine.count(mark) for mark in ("best", "inaccuracy", "mistake", "blunder")}


def test_the_earlier_part_of_a_game_saved_on_under_another_name_is_not_a_second_game(tmp_path: Path) -> None:
    """``s later.boneyard.json`` at the terminal (or ``play --resume A --save B``) leaves A with the game's
    start: not an unfinished game of its own beside the finished one, and its hands not counted twice."""
    levels = ["human", "greedy"]
    whole = played("all-fives", 2, 8, ["greedy", "greedy"])
    start = played("all-fives", 2, 8, ["greedy", "greedy"], stop=40)
    assert len(start.log) > 1 and start.in_hand  # cut in its second hand or later, mid-hand
    between = played("all-fives", 2, 8, ["greedy", "greedy"], stop=sum(len(log.events) for log in whole.log[:1]))
    write(tmp_path / "a-start.boneyard.json", record.to_record(start, meta=terminal_meta(1, levels)))
    write(tmp_path / "b-between.boneyard.json", record.to_record(between, meta=terminal_meta(1, levels)))
    later = write(tmp_path / "c-later.boneyard.json", record.to_record(whole, meta=terminal_meta(1, levels)))
    other = record.to_record(played("all-fives", 2, 8, ["random", "greedy"], stop=30), meta=terminal_meta(1, levels))
    write(tmp_path / "d-other.boneyard.json", other)  # the same deal played otherwise: another game, counted
    counted = stats_json(str(tmp_path))
    alone = stats_json(str(later))["variants"]["all-fives"]
    fives = counted["variants"]["all-fives"]
    assert counted["records"] == 2 and counted["duplicates"] == 2
    assert (fives["games"], fives["unfinished"]) == (1, 1)
    assert fives["hands"] == alone["hands"] + independent(other, 1, {1})["hands"]


def test_a_longer_record_read_after_its_start_replaces_it() -> None:
    levels = ["human", "greedy"]
    whole = finished_block(9, names=["Ann", "Bob"])
    start = played("block", 2, 9, ["greedy", "greedy"], options={"target": 30}, stop=12, names=["Ann", "Bob"])
    data = record.to_record(start, meta=terminal_meta(0, levels))
    data["hands"][0]["annotations"] = [{"mark": "mistake"} if event.seat == 0 else None
                                       for event in start.log[0].events]
    stats = Stats()
    stats.add(data, "start, reviewed")
    assert stats.variants["block"].unfinished == 1
    stats.add(record.to_record(whole, meta=terminal_meta(0, levels)), "whole")
    alone = Stats()
    alone.add(record.to_record(whole, meta=terminal_meta(0, levels)), "whole")
    assert stats.as_json()["variants"] == alone.as_json()["variants"] and stats.duplicates == 1
    assert stats.marks["mistake"] == sum(event.seat == 0 for event in start.log[0].events)  # kept from the start


# ------------------------------------------------------------------ files that cannot be read

def folder_hash(folder: Path) -> str:
    """Every name, link, mode and byte under ``folder`` (links not followed)."""
    digest = hashlib.sha256()
    for top, folders, files in sorted(os.walk(os.fsencode(folder))):
        for name in sorted(folders + files):
            path = os.path.join(top, name)
            digest.update(path + str(os.lstat(path).st_mode).encode())
            if os.path.islink(path):
                digest.update(os.fsencode(os.readlink(path)))
            elif os.path.isfile(path):
                with open(path, "rb") as stream:
                    digest.update(stream.read())
    return digest.hexdigest()


@pytest.fixture
def damaged(tmp_path: Path) -> Iterator[Path]:
    """A folder of one good record among files that are not records, each a different way."""
    folder = tmp_path / "games"
    (folder / "deep" / "er").mkdir(parents=True)
    game = finished_block(4, names=["Ann", "Bob"])
    write(folder / "deep" / "er" / "good.boneyard.json", record.to_record(game, meta=terminal_meta(0, ["", "greedy"])))
    (folder / "cut.boneyard.json").write_text(record.dumps(record.to_record(game))[:200])
    (folder / "list.boneyard.json").write_text("[1, 2]")
    (folder / "other.boneyard.json").write_text('{"name": "not a record"}')
    unknown = record.to_record(game)
    unknown["variant"] = "tiddlywinks"
    write(folder / "unknown.boneyard.json", unknown)
    (folder / "latin1.boneyard.json").write_bytes(b'{"players": ["Jos\xe9"]}')
    (folder / "loop-a.boneyard.json").symlink_to("loop-b.boneyard.json")
    (folder / "loop-b.boneyard.json").symlink_to("loop-a.boneyard.json")
    (folder / "gone.boneyard.json").symlink_to("nowhere.boneyard.json")
    (folder / "up").symlink_to("..")  # a loop of folders
    os.mkdir(os.path.join(os.fsencode(folder), b"caf\xe9-not-utf8"))  # a name that is not UTF-8
    (Path(os.fsdecode(os.path.join(os.fsencode(folder), b"caf\xe9-not-utf8"))) / "x.boneyard.json").write_text("{")
    yield folder


def test_files_that_are_not_records_are_each_named_once_and_nothing_is_changed(damaged: Path) -> None:
    before = folder_hash(damaged)
    result = subprocess.run([sys.executable, "-m", "boneyard.cli", "stats", str(damaged), "--json"],
                            capture_output=True, text=True, cwd=ROOT, timeout=120,
                            env=dict(os.environ))
    assert folder_hash(damaged) == before  # stats only reads
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    counted = json.loads(result.stdout)
    assert counted["records"] == 1 and counted["variants"]["block"]["games"] == 1
    lines = result.stderr.splitlines()
    assert all(line.startswith("boneyard: skipped ") for line in lines)
    for name in ("cut", "list", "other", "unknown", "latin1", "loop-a", "loop-b", "gone", "caf"):
        assert sum(f"/{name}" in line for line in lines) == 1, (name, lines)  # (a cut-short file says "cut")
    assert sum("up: a link to a folder, not followed" in line for line in lines) == 1
    assert len(lines) == len(counted["skipped"]) == 10


def test_a_folder_that_cannot_be_read_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(A permission the tests cannot take away from root is taken away here by refusing the folder's listing.)"""
    write(tmp_path / "mine.boneyard.json", record.to_record(finished_block(), meta={"human_seat": 0}))
    locked = tmp_path / "locked"
    locked.mkdir()
    write(locked / "hidden.boneyard.json", record.to_record(finished_block(), meta={"human_seat": 0}))
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    stats = collect([tmp_path])
    assert stats.records == 1
    assert stats.skipped == [f"{locked}: cannot read the folder (Permission denied)"]


def test_a_few_hundred_small_records_are_each_counted(tmp_path: Path) -> None:
    """Many small files (the time is measured in the audit's report, not asserted): every one counted once."""
    game = finished_block(6, names=["Ann", "Bob"])
    data = record.to_record(game, meta=terminal_meta(0, ["", "greedy"]))
    stop = played("block", 2, 6, ["greedy", "greedy"], options={"target": 30}, stop=3, names=["Ann", "Bob"])
    for number in range(300):  # 300 games: each its own seed (distinct), its own file
        other = played("block", 2, 10_000 + number, ["random", "random"], options={"target": 5}, stop=6)
        write(tmp_path / f"{number:05d}.boneyard.json", record.to_record(other, meta=terminal_meta(0, ["", "r"])))
    write(tmp_path / "z-whole.boneyard.json", data)
    write(tmp_path / "z-start.boneyard.json", record.to_record(stop, meta=terminal_meta(0, ["", "greedy"])))
    counted = collect([tmp_path]).as_json()
    assert counted["records"] == 301 and counted["duplicates"] == 1 and counted["not_yours"] == 0


# ------------------------------------------------------------------ the table as text

@pytest.fixture
def many(tmp_path: Path) -> Path:
    for number, (variant, players, options) in enumerate(LINE_UPS):
        levels = ["greedy" if seat % 2 else "random" for seat in range(players)]
        write(tmp_path / f"{number}.boneyard.json", record.to_record(played(variant, players, number, levels,
                                                                             options=options),
                                                                      meta=terminal_meta(0, levels)))
    return tmp_path


def test_the_tables_print_in_an_ascii_console(many: Path) -> None:
    for encoding in ("ascii", "cp1252"):
        result = subprocess.run([sys.executable, "-m", "boneyard.cli", "stats", str(many)], capture_output=True,
                                cwd=ROOT, timeout=120, env={**os.environ, "PYTHONIOENCODING": encoding,
                                                            "COLUMNS": "80"})
        assert result.returncode == 0, result.stderr.decode(errors="replace")
        text = result.stdout.decode("ascii")  # nothing else in it
        assert "Your games, by variant" in text and "| pip " in text and "by opponent" in text


def test_no_number_is_cut_short_in_an_80_column_table(many: Path) -> None:
    counted = collect([many]).as_json()
    result = CliRunner().invoke(app, ["stats", str(many)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout and max(map(len, result.stdout.splitlines())) <= 80
    for row in (*counted["variants"].values(), *counted["against"].values()):
        if row["points_per_hand"] is not None:
            assert f" {row['points_per_hand']:.1f} " in result.stdout


# ------------------------------------------------------------------ the web

@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    from boneyard.web.app import create_app
    from boneyard.web.limits import Limits
    from tests.test_web_api import LocalClient

    limits = Limits(messages_per_second=10_000, message_burst=10_000, chosen_deals=True, stats_burst=100,
                    stats_per_minute=6000)
    with LocalClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay=0, limits=limits)) as test:
        yield test


def sit_down(client: Any, data: dict[str, Any], seats: list[dict[str, Any]], seat: int) -> tuple[str, str]:
    """A table loaded from ``data`` with ``seats``; its id and the token of ``seat``, claimed."""
    from tests.test_web_api import claim

    answer = client.post("/api/records", json={"record": data, "seats": seats})
    assert answer.status_code == 201, answer.text
    game_id = str(answer.json()["id"])
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        token, _ = claim(ws, seat)
    return game_id, token


def test_the_web_counts_each_table_as_stats_counts_its_download(client: Any, tmp_path: Path) -> None:
    """Tables at different seats, one running, one of partners; a wrong token and a table listed twice: the
    web's answer is `boneyard stats` over the downloaded records, which say who played."""
    tables = []
    partners = played("block", 4, 5, ["greedy", "random", "greedy", "random"], options={"partnerships": True})
    tables.append(sit_down(client, record.to_record(partners), [
        {"kind": "computer", "level": "greedy"}, {"kind": "computer", "level": "random"},
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}], 2))
    fives = played("all-fives", 3, 6, ["greedy"] * 3)
    tables.append(sit_down(client, record.to_record(fives), [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "expert"},
        {"kind": "computer", "level": "greedy"}], 0))
    running = played("draw", 2, 7, ["greedy"] * 2, stop=9)
    tables.append(sit_down(client, record.to_record(running), [
        {"kind": "computer", "level": "random"}, {"kind": "human", "name": "Ann"}], 1))
    listed = [{"game": game, "token": token} for game, token in tables]
    wrong = [{"game": tables[0][0], "token": tables[1][1]}, {"game": "nope", "token": tables[0][1]}]
    answer = client.post("/api/stats", json={"seats": wrong + listed + listed[:1]})
    assert answer.status_code == 200, answer.text
    for number, (game, token) in enumerate(tables):
        download = client.get(f"/api/games/{game}/record", params={"token": token})
        assert download.status_code == 200, download.text
        write(tmp_path / f"{number}.boneyard.json", download.json())
    expected = collect([tmp_path]).as_json()
    assert answer.json() == {**expected, "shared": 0}
    assert expected["records"] == 3 and expected["variants"]["draw"]["unfinished"] == 1
    assert sorted(expected["against"]) == ["expert and greedy", "random"]
    block = expected["variants"]["block"]
    assert block["won"] == int(partners.winner in (0, 2))  # your partner's win is yours


def test_two_tables_of_one_loaded_record_are_one_game(client: Any) -> None:
    data = record.to_record(finished_block(11, names=["Ann", "Bob"]))
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"}]
    listed = [dict(zip(("game", "token"), sit_down(client, data, seats, 0), strict=True)) for _ in range(2)]
    counted = client.post("/api/stats", json={"seats": listed}).json()
    assert counted["records"] == 1 and counted["duplicates"] == 1 and counted["variants"]["block"]["games"] == 1


def test_a_shared_screen_table_is_counted_apart(client: Any) -> None:
    answer = client.post("/api/games", json={"variant": "block", "hot_seat": True, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
    game_id = answer.json()["id"]
    from tests.test_web_api import claim

    with client.websocket_connect(f"/ws/{game_id}") as ws:
        token, _ = claim(ws, 0)
    counted = client.post("/api/stats", json={"seats": [{"game": game_id, "token": token}]}).json()
    assert (counted["records"], counted["shared"], counted["variants"]) == (0, 1, {})


@pytest.mark.browser
def test_the_lobby_says_shared_tables_are_counted_apart_not_gone(tmp_path: Path) -> None:
    """A browser whose only tables were shared on one screen: the page said none of them was stored any more."""
    from tests.test_browser_stats_skipped import lobby_stats_text

    answer = {"player": None, "records": 0, "not_yours": 0, "duplicates": 0, "skipped": [], "variants": {},
              "against": {}, "review": {"decisions": 0, "best": 0, "inaccuracy": 0, "mistake": 0,
                                        "blunder": 0, "accuracy": None}, "shared": 2}
    text = lobby_stats_text(tmp_path, answer)
    assert "2 games played on one screen by several people" in text
    assert "stored here any more" not in text
