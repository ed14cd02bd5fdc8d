"""Audit: a new user's first hour, following README.md's tour step by step.

The terminal game driven through a pipe, a record replayed and reviewed, ``boneyard stats`` over the saved games,
a tournament with its plot, and the web table in Chromium at 1280x800 and on a 390x844 phone: a game created in
the lobby, a hint, an undo, a hand's end and the next hand, a record loaded from a file. Six of these tests
were written for bugs the audit found (session 19) and fixed since: a record counted twice by ``stats``, a
download without its computers' levels, the replay's ragged move column, "You leads" in the replay viewer, a
default name cut short on a phone, option defaults shown as JSON in the lobby.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

BONEYARD = [sys.executable, "-m", "boneyard"]


def boneyard(*args: str, stdin: str = "", cwd: Path | None = None,
             timeout: int = 120) -> subprocess.CompletedProcess[str]:
    """Run the CLI as a user does, standard input from a pipe."""
    return subprocess.run([*BONEYARD, *args], input=stdin, capture_output=True, text=True, timeout=timeout, cwd=cwd)


@pytest.fixture(scope="module")
def terminal_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """README: `boneyard play all-fives --seed 7` with `--save`, a hint, a move, an undo, two moves, `q`."""
    folder = tmp_path_factory.mktemp("tour")
    path = folder / "game.boneyard.json"
    done = boneyard("play", "all-fives", "--seed", "7", "--save", str(path), stdin="h\n1\nu\n1\n1\n1\nq\n", cwd=folder)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stdout + done.stderr
    return path


# ------------------------------------------------------------------ the terminal game


def test_the_terminal_tour_hints_undoes_and_saves(terminal_record: Path) -> None:
    data = json.loads(terminal_record.read_text())
    assert data["players"] == ["You", "Computer 1 (greedy)"] and data["seed"] == 7
    assert data["meta"]["human_seat"] == 0 and data["meta"]["ai"] == {"1": "greedy"}
    moves = data["hands"][0]["moves"]
    # the undone lead and the computer's reply are gone: the lead was played once, the game went on from there
    assert moves[:5] == ["6-6", "6-3@1", "draw", "3-2@2", "2-5@3"]


def test_the_terminal_names_the_hint_and_the_undo(tmp_path: Path) -> None:
    done = boneyard("play", "all-fives", "--seed", "7", "--save", str(tmp_path / "g.boneyard.json"),
                    stdin="h\n1\nu\nq\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Hint: 6-6 — the only move" in done.stdout
    assert "Computer 1 (greedy): 6-3@1  —  count +15 = +15" in done.stdout
    assert "Undone." in done.stdout
    assert "resume with: boneyard play --resume" in done.stdout


def test_save_refuses_another_game_and_resume_refuses_new_settings(terminal_record: Path, tmp_path: Path) -> None:
    before = terminal_record.read_bytes()
    done = boneyard("play", "draw", "--save", str(terminal_record))
    assert done.returncode != 0 and "--force" in done.stderr and "Traceback" not in done.stderr
    assert terminal_record.read_bytes() == before
    done = boneyard("play", "--resume", str(terminal_record), "--seed", "3")
    assert done.returncode != 0 and "takes no --seed" in done.stderr
    done = boneyard("play", "draw", "--save", str(tmp_path / "missing" / "x.boneyard.json"))
    assert done.returncode != 0 and "does not exist" in done.stderr and "Traceback" not in done.stderr


def test_resume_goes_on_where_the_game_stopped(terminal_record: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.boneyard.json"
    copy.write_bytes(terminal_record.read_bytes())
    done = boneyard("play", "--resume", str(copy), stdin="6-5\nfoo\nq\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "6-5 is not in your hand" in done.stdout  # a tile not held is named, with the hand
    assert "'foo' is not a move" in done.stdout
    assert json.loads(copy.read_text())["hands"] == json.loads(terminal_record.read_text())["hands"]


# ------------------------------------------------------------------ replay, review, stats, tournament


def test_replay_of_the_terminal_record_for_a_person(terminal_record: Path) -> None:
    done = boneyard("replay", str(terminal_record))
    assert done.returncode == 0, done.stderr
    assert "Hand 1 — You lead" in done.stdout
    assert "Game not finished: You 0, Computer 1 (greedy) 15" in done.stdout
    as_json = json.loads(boneyard("replay", str(terminal_record), "--json").stdout)
    assert as_json["hands"][0]["events"][1] == {"seat": 1, "move": "6-3@1", "points": 15,
                                                "scoring": [{"name": "count", "points": 15}]}


def test_replay_lines_up_the_moves_of_every_seat(terminal_record: Path) -> None:
    lines = [line for line in boneyard("replay", str(terminal_record)).stdout.splitlines()
             if line[:7].strip().rstrip(".").isdigit()]
    moves = json.loads(terminal_record.read_text())["hands"][0]["moves"]
    starts = {line.index(f" {move}", 9) + 1 for line, move in zip(lines, moves, strict=True)}
    assert len(lines) >= 4 and len(starts) == 1, lines


def test_review_of_the_terminal_record(terminal_record: Path) -> None:
    done = boneyard("review", str(terminal_record), "--seat", "0", "--samples", "40")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "You (seat 0)" in done.stdout and "accuracy" in done.stdout and "Traceback" not in done.stderr


def test_stats_counts_the_terminal_game_and_names_unreadable_files(terminal_record: Path, tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "game.boneyard.json").write_bytes(terminal_record.read_bytes())
    (folder / "broken.boneyard.json").write_text('{"format": "boneyard/1"')
    done = boneyard("stats", str(folder), "--json")
    assert done.returncode == 0, done.stderr
    assert "boneyard: skipped" in done.stderr and "broken.boneyard.json: not valid JSON" in done.stderr
    result = json.loads(done.stdout)
    assert result["records"] == 1 and result["variants"]["all-fives"]["unfinished"] == 1
    assert list(result["against"]) == ["greedy"]


def test_stats_counts_a_record_once_however_often_it_is_named(terminal_record: Path, tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    game = folder / "web-game.boneyard.json"
    game.write_bytes(terminal_record.read_bytes())
    done = boneyard("stats", str(folder), str(game), "--json")  # README: `boneyard stats ~/games web-game... `
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["records"] == 1


def test_tournament_writes_its_plots(tmp_path: Path) -> None:
    done = boneyard("tournament", "--players", "random,greedy", "--variant", "all-fives", "--games", "8", "--seed",
                    "1", "--out", str(tmp_path / "t"), "--workers", "1", timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("ratings.png", "ratings.svg", "scores.png", "scores.svg", "results.json"):
        assert (tmp_path / "t" / name).stat().st_size > 0, name


# ------------------------------------------------------------------ the web table: its record


def web_download(tmp_path: Path) -> Path:
    """A finished web game of two computers (Ann random, Bob greedy), downloaded as a user does."""
    pytest.importorskip("fastapi")
    import httpx2 as httpx

    from tests.web_live import LiveServer

    with LiveServer(f"sqlite:///{tmp_path / 'games.sqlite3'}") as server:
        body = {"variant": "block", "options": {"target": 10}, "seed": 5,
                "seats": [{"kind": "computer", "level": "random", "name": "Ann"},
                          {"kind": "computer", "level": "greedy", "name": "Bob"}]}
        game_id = httpx.post(server.url + "/api/games", json=body, timeout=20).json()["id"]
        deadline = time.monotonic() + 60
        while httpx.get(f"{server.url}/api/games/{game_id}", timeout=20).json()["status"] != "finished":
            assert time.monotonic() < deadline, "the table of computers did not finish"
            time.sleep(0.2)
        data = httpx.get(f"{server.url}/api/games/{game_id}/record", timeout=20).json()
    path = tmp_path / "web-game.boneyard.json"
    path.write_text(json.dumps(data))
    return path


def test_web_download_is_counted_by_stats_with_the_computer_levels(tmp_path: Path) -> None:
    """A web game's download is counted by `boneyard stats --player` (README's `web-game.boneyard.json`), against
    the other seat's level (the download's meta.ai)."""
    done = boneyard("stats", str(web_download(tmp_path)), "--player", "ann", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["records"] == 1 and result["variants"]["block"]["games"] == 1
    assert list(result["against"]) == ["greedy"]


# ------------------------------------------------------------------ the web table in Chromium

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
browser_needed = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("fastapi")
    from tests.web_live import LiveServer

    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('web') / 'games.sqlite3'}", ai_delay=0.02) as server:
        yield server.url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def page_at(chromium: Any, url: str, width: int, height: int) -> Any:
    page = chromium.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    return page


def new_table(chromium: Any, web: str, width: int, height: int, variant: str = "all-fives") -> Any:
    page = page_at(chromium, web + "/", width, height)
    page.select_option("#variant", variant)
    page.click("#create")
    page.wait_for_selector("#table-view:not([hidden])")
    wait_turn(page)
    return page


def wait_turn(page: Any) -> None:
    page.wait_for_function(
        "() => !document.querySelector('#summary').hidden"
        " || (document.querySelector('#status').textContent.startsWith('Your turn')"
        " && (document.querySelector('#hand .hand-tile.playable')"
        " || !document.querySelector('#draw').hidden || !document.querySelector('#pass').hidden))", timeout=20000)


def hand_of(page: Any) -> list[str]:
    return list(page.locator("#hand .hand-tile").evaluate_all("(ts) => ts.map((t) => t.dataset.tile)"))


def one_turn(page: Any) -> None:
    seen = page.evaluate("() => document.body.dataset.version")
    playable = page.locator("#hand .hand-tile.playable")
    if playable.count():
        playable.first.click()
        page.locator("#table .hotspot").first.click()
    elif page.locator("#draw").is_visible():
        page.locator("#draw").click()
    else:
        page.locator("#pass").click()
    page.wait_for_function("(v) => document.body.dataset.version != v", arg=seen, timeout=20000)
    wait_turn(page)


@pytest.mark.browser
@browser_needed
def test_a_hand_in_the_browser_with_a_hint_an_undo_and_the_next_hand(chromium: Any, web: str) -> None:
    page = new_table(chromium, web, 1280, 800)
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Hint: ')",
                           timeout=30000)
    hinted = page.locator("#hand .hand-tile.selected").evaluate_all("(ts) => ts.map((t) => t.dataset.tile)")
    status = page.locator("#status").inner_text()
    assert " — " in status  # the move, then the reason in a player's words
    if status.startswith("Hint: play "):  # a tile to place is selected with its end lit (else: draw or pass)
        assert len(hinted) == 1 and status.startswith(f"Hint: play {hinted[0]} (lit on the table)")
        assert page.locator("#table .hotspot.active").count() == 1
    one_turn(page)
    before = hand_of(page)
    tiles_before = page.locator("#table g.tile").count()
    one_turn(page)
    if page.locator("#summary").is_visible():
        return  # the hand ended at once: nothing left to undo here
    seen = page.evaluate("() => document.body.dataset.version")
    page.click("#undo")
    page.wait_for_function("(v) => document.body.dataset.version != v", arg=seen, timeout=20000)
    wait_turn(page)
    assert sorted(hand_of(page)) == sorted(before)  # back to the position before my last turn
    assert page.locator("#table g.tile").count() == tiles_before
    for _ in range(120):
        if page.locator("#summary").is_visible():
            break
        one_turn(page)
    assert page.locator("#summary").is_visible()
    assert "Hand 1 over" in page.locator("#summary").inner_text()
    page.locator("#summary button", has_text="Next hand").click()
    page.wait_for_function("() => document.querySelector('#facts').textContent.includes('Hand 2')", timeout=20000)
    assert not page.locator("#summary").is_visible()
    page.context.close()


@pytest.mark.browser
@browser_needed
def test_a_reload_keeps_the_game_and_the_seat(chromium: Any, web: str) -> None:
    page = new_table(chromium, web, 1280, 800)
    one_turn(page)
    hand = hand_of(page)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function("(n) => document.querySelectorAll('#hand .hand-tile').length === n", arg=len(hand),
                           timeout=20000)
    assert hand_of(page) == hand
    page.context.close()


@pytest.mark.browser
@browser_needed
def test_a_broken_record_in_the_lobby_says_what_is_wrong(chromium: Any, web: str, tmp_path: Path) -> None:
    page = page_at(chromium, web + "/", 1280, 800)
    page.click("#load-record")
    assert page.locator("#load-error").inner_text() == "Choose a .boneyard.json file first."
    broken = tmp_path / "broken.boneyard.json"
    broken.write_text('{"format": "boneyard/1", "variant": "all-fives"\n')
    page.set_input_files("#record-file", str(broken))
    page.click("#view-record")
    page.wait_for_function("() => document.querySelector('#load-error').textContent.includes('JSON')", timeout=20000)
    assert "not valid JSON (line 2, column 1" in page.locator("#load-error").inner_text()
    page.context.close()


@pytest.mark.browser
@browser_needed
def test_the_replay_viewer_speaks_of_you_in_the_second_person(chromium: Any, web: str, terminal_record: Path) -> None:
    page = page_at(chromium, web + "/", 1280, 800)
    page.set_input_files("#record-file", str(terminal_record))
    page.click("#view-record")
    page.wait_for_selector("#replay-view:not([hidden])")
    assert page.locator("#replay-event").inner_text() == "Hand 1: You lead"
    page.context.close()


@pytest.mark.browser
@browser_needed
def test_the_phone_shows_your_default_name_whole(chromium: Any, web: str) -> None:
    page = new_table(chromium, web, 390, 844)
    given = page.locator("#table-players .player.you .name .given")
    assert "Player 1" in given.text_content()
    assert given.evaluate("(e) => e.scrollWidth <= e.clientWidth")
    page.context.close()


@pytest.mark.browser
@browser_needed
def test_the_lobby_shows_option_defaults_in_words(chromium: Any, web: str) -> None:
    page = page_at(chromium, web + "/", 1280, 800)
    page.select_option("#variant", "all-fives")
    page.click("text=Rule options")
    helps = page.locator("#options small").all_inner_texts()
    assert helps and not [text for text in helps if "null" in text or '"' in text]
    page.context.close()
