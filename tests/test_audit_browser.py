"""Audit of the web table as a player meets it in Chromium (marker ``browser``): what the other browser tests do
not cover — two people's hands kept apart in the page and through a server restart, PIP's chooser, the game-over
panel's download and Review on a phone — and the rough edges an audit found and session 17 fixed (a `play --web`
game kept across runs, a link to no game, PIP's give in the log and the hint, two "Next hand" presses, a tile that
fits nowhere, Esc, the replay's arrows).

The server and browser fixtures are those of ``tests.test_browser`` (which skips where Chromium is missing); the
plain tests collect every page's console errors.
"""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard import record
from boneyard.moves import Kind
from boneyard.render.geometry import hotspots
from boneyard.state import Game
from tests.test_browser import (
    Server,
    browser,
    gesture_table,
    open_page,
    play_one_turn,
    server,
    server_game,
    version,
)
from tests.test_browser_fit import find_position, finished_game, seat_table

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # the fixtures, shared with tests.test_browser

PHONE = {"width": 390, "height": 844}


def watched_page(browser: Any, url: str, errors: list[str], viewport: dict[str, int] | None = None) -> Any:
    """A page at ``url`` whose console errors and uncaught exceptions are appended to ``errors``."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800})
    page = context.new_page()
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    return page


def hand_of(page: Any) -> list[str]:
    tiles: list[str] = page.locator("#hand .hand-tile").evaluate_all("(ts) => ts.map((t) => t.dataset.tile)")
    return tiles


def shown_tiles(page: Any, tiles: list[str]) -> list[str]:
    """Which of ``tiles`` (either way round) the page names anywhere: an attribute, a label, a text."""
    html = page.content()
    found = []
    for tile in tiles:
        a, b = tile.split("-")
        if re.search(rf"(?<![\w-])({re.escape(a)}-{re.escape(b)}|{re.escape(b)}-{re.escape(a)})(?![\w-])", html):
            found.append(tile)
    return found


def on_turn(pages: list[Any]) -> Any:
    return next(page for page in pages if page.locator("#table-players .player.you.turn").count())


# ---------------------------------------------------------------------------------------------- right already


def test_two_people_never_see_each_others_tiles_and_a_restart_keeps_both_seats(server: Server, browser: Any) -> None:
    errors: list[str] = []
    game_id = server.post("/api/games", {"variant": "draw", "seed": 11, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})["id"]
    ann = watched_page(browser, f"{server.url}/game/{game_id}", errors)
    ann.wait_for_selector("#table-players .player.you >> text=Ann")
    bob = watched_page(browser, f"{server.url}/game/{game_id}", errors, PHONE)
    bob.wait_for_selector("#table-players .player.you >> text=Bob")
    watcher = watched_page(browser, f"{server.url}/game/{game_id}?watch", errors)
    watcher.wait_for_selector("#table-players .player.turn")
    for _ in range(3):
        mover = on_turn([ann, bob])
        seen = version(mover)
        play_one_turn(mover)
        for page in (ann, bob, watcher):
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=seen, timeout=20000)
        game = server_game(server, game_id)
        hands = [[str(tile) for tile in hand] for hand in game.hands]
        assert hand_of(ann) == hands[0] and hand_of(bob) == hands[1]
        assert shown_tiles(ann, hands[1]) == [] and shown_tiles(bob, hands[0]) == []
        assert shown_tiles(watcher, hands[0] + hands[1]) == [] and hand_of(watcher) == []
    tiles = ann.locator("#table g.tile").count()
    restarted = server.restart()
    try:
        for page in (ann, bob):  # both pages reconnect by themselves and take their seats back
            page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Your turn')"
                                   " || / is thinking/.test(document.querySelector('#status').textContent)",
                                   timeout=20000)
            assert page.locator("#table g.tile").count() == tiles
        assert (hand_of(ann), hand_of(bob)) == tuple(hands)
        mover = on_turn([ann, bob])
        other = bob if mover is ann else ann
        seen = version(other)
        play_one_turn(mover)
        other.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=seen, timeout=20000)
    finally:
        server.__dict__.update(restarted.__dict__)  # the fixture stops whichever is running
    for page in (ann, bob, watcher):
        page.context.close()
    assert errors == []


def test_the_pip_chooser_plays_the_half_chosen_on_a_phone(server: Server, browser: Any) -> None:
    def wild_either_way(game: Game) -> bool:
        return game.in_hand and game.turn == 0 and any(
            len(spot.moves) > 1 for spot in hotspots(game.layout, game.legal_moves()))

    game_id = seat_table(server, find_position("pip", 3, wild_either_way))
    errors: list[str] = []
    page = watched_page(browser, f"{server.url}/game/{game_id}", errors, PHONE)
    page.wait_for_selector("#table-players .player.you.turn")
    game = server_game(server, game_id)
    spot = next(s for s in hotspots(game.layout, game.legal_moves()) if len(s.moves) > 1)
    page.locator(f'#hand .hand-tile[data-tile="{spot.tile}"]').click()
    page.locator(f'#table .hotspot[data-moves="{" ".join(spot.moves)}"]').click()
    buttons = page.locator("#chooser button")
    assert buttons.count() == len(spot.moves)
    chosen = buttons.last.get_attribute("data-move")
    outward = chosen.split("@")[0].split("-")[1].replace("W", "★")
    assert buttons.last.inner_text() == f"Leave {outward} open"
    box = buttons.last.bounding_box()  # on the phone's screen with the hand
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    moves = len(game.hand.events)
    buttons.last.click()
    deadline = time.monotonic() + 20
    while len(game.hand.events) == moves:
        assert time.monotonic() < deadline, "the chosen move never reached the server"
        time.sleep(0.05)
    assert str(game.hand.events[moves].move) == chosen
    page.wait_for_selector("#chooser button", state="detached")
    page.context.close()
    assert errors == []


def test_the_game_over_panel_on_a_phone_downloads_the_record_and_opens_the_review(
        server: Server, browser: Any, tmp_path: Path) -> None:
    data = finished_game("block", 2)
    game_id = seat_table(server, data)
    errors: list[str] = []
    page = watched_page(browser, f"{server.url}/game/{game_id}", errors, PHONE)
    page.wait_for_selector("#summary-title >> text=Game over")
    page.wait_for_selector("#summary #play-again")  # seated (a first state may come before the seat is taken)
    actions = page.locator("#summary-actions .button, #summary-actions button")
    assert actions.all_inner_texts() == ["Review", "Play again", "Watch the replay", "Download the record",
                                         "Back to the lobby", "Look at the table"]
    for index in range(actions.count()):  # every button on the phone's screen, none cut off
        box = actions.nth(index).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= 844
    with page.expect_download() as download:
        page.click("#summary-actions >> text=Download the record")
    assert download.value.suggested_filename == f"block-{game_id}.boneyard.json"
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    replayed = record.replay(record.load(saved))
    assert replayed.finished and replayed.scores == server_game(server, game_id).scores
    page.click("#summary-actions >> text=Review")  # the review of your own seat starts by itself
    page.wait_for_url(f"**/replay/{game_id}#review-0")
    page.wait_for_selector("#review-panel")
    assert page.input_value("#review-seat") == "0"
    assert page.inner_text("#replay-title").startswith("Block dominoes — ")
    page.context.close()
    assert errors == []


# ---------------------------------------------------------------------------------------------- bugs found


def test_a_play_web_game_is_yours_again_after_the_command_is_run_again(browser: Any, tmp_path: Path) -> None:
    """The browser keeps a seat's token per origin: each run of `boneyard play --web` listens on one port (8000 by
    default, as `boneyard serve`; here a free one passed with --port, as tests run side by side)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "BROWSER": "true"}
    boneyard_cli = str(Path(sys.executable).with_name("boneyard"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])

    def play_web(log: Path) -> tuple[subprocess.Popen[bytes], str]:
        process = subprocess.Popen([boneyard_cli, "play", "block", "--web", "--port", port], env=env,
                                   stdout=log.open("wb"),
                                   stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while not (found := re.search(r"http://127\.0\.0\.1:\d+/game/\w+", log.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        while True:  # the address is printed just before the server starts
            try:
                urllib.request.urlopen(found.group(0), timeout=5).close()
                return process, found.group(0)
            except OSError:
                assert time.monotonic() < deadline, "the server of `boneyard play --web` never answered"
                time.sleep(0.1)

    def stop(process: subprocess.Popen[bytes]) -> None:
        process.send_signal(signal.SIGINT)  # Ctrl+C, as a player stops it
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(20)

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    first, address = play_web(tmp_path / "first.log")
    try:
        page = context.new_page()
        page.goto(address)
        page.wait_for_selector("#table-players .player.you")  # seated, the game under way
    finally:
        stop(first)
    game_path = "/game/" + address.rsplit("/", 1)[1]
    second, later = play_web(tmp_path / "second.log")  # the next evening: the command again, the same browser
    try:
        page.goto(later.split("/game/")[0] + "/")
        page.wait_for_selector(f'#games a[href="{game_path}"]')  # the lobby lists the first game…
        page.click(f'#games a[href="{game_path}"]')
        page.wait_for_selector("#table-players .player")
        page.wait_for_timeout(1500)
        assert page.locator("#table-players .player.you").count() == 1  # … and it is still yours to play
        assert page.locator("#hand .hand-tile").count() > 0
    finally:
        stop(second)
        context.close()


def test_a_link_to_no_game_says_so_and_stops(server: Server, browser: Any) -> None:
    page = browser.new_context().new_page()
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.goto(f"{server.url}/game/nosuchgame")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_timeout(3500)
    status = page.inner_text("#status")
    try:
        assert "no game" in status.lower() and "reconnecting" not in status
        assert len(sockets) <= 1, f"{len(sockets)} connections to a game that does not exist"
    finally:
        page.context.close()


def give_position() -> dict[str, Any]:
    """PIP, 5 players: "You" played D on an empty stock and must give a tile (PIP-16)."""
    return find_position("pip", 5, lambda g: g.in_hand and g.turn == 0
                         and any(move.kind == Kind.GIVE for move in g.legal_moves()))


def test_a_d_tile_on_an_empty_stock_is_logged_as_a_give(server: Server, browser: Any) -> None:
    game_id = seat_table(server, give_position())
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#status >> text=Your turn: choose a tile to give to the next player.")
    played = page.locator("#history li").last.inner_text()
    try:
        assert re.match(r"You played D-", played), played
        assert "draws" not in played and "give" in played, played
    finally:
        page.context.close()


def test_a_hint_to_give_says_give(server: Server, browser: Any) -> None:
    game_id = seat_table(server, give_position())
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#status >> text=Your turn: choose a tile to give to the next player.")
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Hint: ')", timeout=60000)
    status = page.inner_text("#status")
    try:
        assert status.startswith("Hint: give "), status
        assert "lit on the table" not in status
    finally:
        page.context.close()


def test_two_people_pressing_next_hand_together(server: Server, browser: Any) -> None:
    game = boneyard.new_game("draw", players=2, seed=3, names=["Ann", "Bob"])
    rng = random.Random(3)
    while game.in_hand:
        legal = game.legal_moves()
        game.apply(rng.choice([move for move in legal if move.is_placement] or legal))
    game_id = server.post("/api/records", {"record": record.to_record(game), "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})["id"]
    ann = open_page(browser, f"{server.url}/game/{game_id}")
    ann.wait_for_selector("#next-hand")
    bob = open_page(browser, f"{server.url}/game/{game_id}")
    bob.wait_for_selector("#next-hand")
    ann.evaluate("() => document.querySelector('#next-hand').click()")
    bob.evaluate("() => document.querySelector('#next-hand').click()")  # both looked at the summary and pressed it
    try:
        for page in (ann, bob):
            page.wait_for_selector("#summary", state="hidden")
        bob.wait_for_timeout(800)
        assert server.get(f"/api/games/{game_id}")["hand_number"] == 2
        for page in (ann, bob):
            status = page.inner_text("#status")
            assert status.startswith("Your turn") or "thinking" in status, status
    finally:
        ann.context.close()
        bob.context.close()


def test_a_tile_that_fits_nowhere_says_so(server: Server, browser: Any) -> None:
    page, _, _, _ = gesture_table(server, browser)
    dim = page.locator("#hand .hand-tile:not(.playable)")
    assert dim.count() >= 1
    tile = dim.first.get_attribute("data-tile")
    dim.first.click()
    try:
        assert page.locator("#table .hotspot").count() == 0
        assert f"{tile} does not fit" in page.inner_text("#status")
    finally:
        page.context.close()


def test_escape_puts_the_tile_back_and_closes_the_chooser(server: Server, browser: Any) -> None:
    def wild_either_way(game: Game) -> bool:
        return game.in_hand and game.turn == 0 and any(
            len(spot.moves) > 1 for spot in hotspots(game.layout, game.legal_moves()))

    game_id = seat_table(server, find_position("pip", 3, wild_either_way))
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you.turn")
    game = server_game(server, game_id)
    spot = next(s for s in hotspots(game.layout, game.legal_moves()) if len(s.moves) > 1)
    page.locator(f'#hand .hand-tile[data-tile="{spot.tile}"]').click()
    page.locator(f'#table .hotspot[data-moves="{" ".join(spot.moves)}"]').click()
    page.wait_for_selector("#chooser button")
    page.keyboard.press("Escape")  # "Esc puts the tile back" (docs/web.md)
    try:
        assert page.locator("#hand .hand-tile.selected").count() == 0
        assert page.locator("#chooser button").count() == 0
    finally:
        page.context.close()


def test_replay_arrow_keys_after_a_button(server: Server, browser: Any) -> None:
    game_id = seat_table(server, finished_game("block", 2))
    page = open_page(browser, f"{server.url}/replay/{game_id}")
    page.wait_for_selector("#replay-event >> text=leads")
    page.click("#replay-next")
    page.keyboard.press("ArrowRight")
    try:
        assert page.inner_text("#replay-position").startswith("move 2 of")
    finally:
        page.context.close()


def test_the_lobby_seats_as_many_players_as_the_chosen_set_allows(server: Server, browser: Any) -> None:
    """Double-nine seats 2-8 and double-twelve 2-10 (the variant pages, C13): the lobby reads the range per set."""
    page = open_page(browser, f"{server.url}/")
    try:
        page.select_option("#variant", "block")
        assert page.get_attribute("#players", "max") == "4"
        page.click("text=Rule options")
        page.select_option("#opt-set", "9")
        assert page.get_attribute("#players", "max") == "8"
        page.fill("#players", "6")
        page.dispatch_event("#players", "change")
        assert page.locator("#seats .seat-kind").count() == 6
        page.click("#create")
        page.wait_for_url("**/game/*", timeout=10000)
        page.wait_for_selector("#table-players .player")
        assert page.locator("#table-players .player").count() == 6
        page.goto(f"{server.url}/")
        page.wait_for_selector("body[data-ready]")
        page.select_option("#variant", "block")
        page.click("text=Rule options")
        page.select_option("#opt-set", "12")
        assert page.get_attribute("#players", "max") == "10"
        page.select_option("#opt-set", "6")  # back to double-six: the count comes back within 2-4
        assert page.get_attribute("#players", "max") == "4"
        assert page.locator("#seats .seat-kind").count() <= 4
    finally:
        page.context.close()
