"""The web table in a real browser: Debian's Chromium driven by Playwright (marker ``browser``).

The server runs in a thread on 127.0.0.1 with an ephemeral port.  Skipped, with the reason,
only when /usr/bin/chromium is missing (CI installs it; nothing here downloads a browser).
"""

from __future__ import annotations

import os
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
#: The docs' screenshots are redrawn only when asked (BONEYARD_SCREENSHOTS=1): a test run leaves the tree clean.
DOCS_SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt install chromium)", allow_module_level=True)

pytest.importorskip("fastapi")
playwright_api = pytest.importorskip("playwright.sync_api")

import httpx2 as httpx  # noqa: E402
import uvicorn  # noqa: E402

import boneyard  # noqa: E402
from boneyard import record  # noqa: E402
from boneyard.rules.base import VARIANTS  # noqa: E402
from boneyard.web.app import create_app  # noqa: E402
from boneyard.web.limits import Limits  # noqa: E402


class Server:
    """A uvicorn server in a thread; ``restart`` brings it back on the same port and database."""

    def __init__(self, db: str, ai_delay: float = 0.05, port: int = 0) -> None:
        self.db = db
        self.ai_delay = ai_delay
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(db, ai_delay=ai_delay, limits=Limits(chosen_deals=True))  # the same deals every run
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.listener.close()

    def restart(self) -> Server:
        self.stop()
        return Server(self.db, self.ai_delay, self.port)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = httpx.post(self.url + path, json=body, timeout=20)
        assert response.status_code == 201, response.text
        result: dict[str, Any] = response.json()
        return result

    def get(self, path: str) -> Any:
        return httpx.get(self.url + path, timeout=20).json()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


def open_page(browser: Any, url: str, context: Any = None) -> Any:
    context = context or browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    return page


def table_tiles(page: Any) -> int:
    return int(page.locator("#table g.tile").count())


def play_one_turn(page: Any) -> None:
    """Make one move the way a person would: click a tile, then a lit end (or Draw / Pass)."""
    playable = page.locator("#hand .hand-tile.playable")
    if playable.count():
        playable.first.click()
        page.locator("#table .hotspot").first.click()
        chooser = page.locator("#chooser button")
        if chooser.count():
            chooser.first.click()
    elif page.locator("#draw").is_visible():
        page.locator("#draw").click()
    elif page.locator("#pass").is_visible():
        page.locator("#pass").click()


def version(page: Any) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.version ?? -1)"))


def wait_past(page: Any, seen: int) -> None:
    """Wait until the page shows a state after move number ``seen``."""
    page.wait_for_function("(v) => Number(document.body.dataset.version ?? -1) > v", arg=seen, timeout=20000)


def wait_my_turn_or_hand_over(page: Any) -> None:
    page.wait_for_function(
        "() => !document.querySelector('#summary').hidden"
        " || document.querySelector('#hand .hand-tile.playable')"
        " || !document.querySelector('#draw').hidden || !document.querySelector('#pass').hidden",
        timeout=20000)


def test_play_a_whole_hand_against_a_computer_by_clicking_hotspots(server: Server, browser: Any) -> None:
    page = open_page(browser, server.url + "/")
    page.select_option("#variant", "all-fives")
    page.locator("#seats .seat-level").nth(1).select_option("greedy")
    page.click("#create")
    page.wait_for_url("**/game/*")
    game_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#table-players .player.you")
    for _ in range(200):
        wait_my_turn_or_hand_over(page)
        if page.locator("#summary").is_visible():
            break
        before = version(page)
        play_one_turn(page)
        wait_past(page, before)
    assert page.locator("#summary").is_visible()
    game = server.get(f"/api/games/{game_id}")
    scores = [player["score"] for player in game["players"]]
    shown_totals = [int(cell) for cell in page.locator("#summary td.total").all_inner_texts()]
    shown_panel = [int(cell) for cell in page.locator("#table-players .score").all_inner_texts()]
    assert shown_totals == scores == shown_panel
    assert game["moves"] > 3
    page.context.close()


def test_the_lobby_offers_none_where_an_option_takes_it(server: Server, browser: Any) -> None:
    # Flower & Scorpion's score floor is 0 or none (scores may go negative): the lobby offers both
    page = open_page(browser, server.url + "/")
    page.select_option("#variant", "flower-scorpion")
    choices = page.locator("#opt-score_floor option").evaluate_all("options => options.map((o) => o.textContent)")
    assert choices == ["0", "none"]
    page.click("text=Rule options")
    page.select_option("#opt-score_floor", "none")
    page.click("#create")
    page.wait_for_url("**/game/*")
    game_id = page.url.rsplit("/", 1)[1]
    assert server_game(server, game_id).rules.options.score_floor is None
    page.context.close()


def test_two_browsers_in_one_room_see_each_others_moves(server: Server, browser: Any) -> None:
    game_id = server.post("/api/games", {"variant": "draw", "seed": 4, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})["id"]
    ann = open_page(browser, f"{server.url}/game/{game_id}")
    ann.wait_for_selector("#table-players .player.you >> text=Ann")
    bob = open_page(browser, f"{server.url}/game/{game_id}")
    bob.wait_for_selector("#table-players .player.you >> text=Bob")
    for _ in range(4):
        mover, watcher = (ann, bob) if ann.locator("#table-players .player.you.turn").count() else (bob, ann)
        count = table_tiles(watcher)
        draws = watcher.locator("#history li").count()
        play_one_turn(mover)
        watcher.wait_for_function(
            "([n, d]) => document.querySelectorAll('#table g.tile').length > n"
            " || document.querySelectorAll('#history li').length !== d", arg=[count, draws], timeout=20000)
        # the mover's own page is sent the new state too, but may show it later than the watcher's: the next
        # mover is read from Ann's page, so both pages must show this move first (a stale page still shows
        # the old turn, and its mover would play a move the server refuses)
        for page in (ann, bob):
            page.wait_for_function("(v) => Number(document.body.dataset.version ?? -1) >= v", arg=version(watcher),
                                   timeout=20000)
    assert table_tiles(ann) == table_tiles(bob) >= 1
    ann.context.close()
    bob.context.close()


def test_reload_restores_the_seat(server: Server, browser: Any) -> None:
    game_id = server.post("/api/games", {"variant": "block", "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"}]})["id"]
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you >> text=Ann")
    hand = page.locator("#hand .hand-tile").evaluate_all("(tiles) => tiles.map((t) => t.dataset.tile)")
    page.reload()
    page.wait_for_selector("#table-players .player.you >> text=Ann")
    assert page.locator("#hand .hand-tile").evaluate_all("(tiles) => tiles.map((t) => t.dataset.tile)") == hand
    assert server.get(f"/api/games/{game_id}")["players"][0]["claimed"]
    page.context.close()


def test_a_server_restart_resumes_the_game(server: Server, browser: Any) -> None:
    game_id = server.post("/api/games", {"variant": "draw", "seed": 8, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"}]})["id"]
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you")
    wait_my_turn_or_hand_over(page)
    before = page.locator("#history li").count()
    play_one_turn(page)
    page.wait_for_function(  # my move and the computer's answer are in
        "(n) => document.querySelectorAll('#history li').length >= n + 2"
        " && (document.querySelector('#table-players .player.you.turn') || !document.querySelector('#summary').hidden)",
        arg=before, timeout=20000)
    tiles = table_tiles(page)
    hand = page.locator("#hand .hand-tile").evaluate_all("(tiles) => tiles.map((t) => t.dataset.tile)")
    assert tiles >= 1
    restarted = server.restart()
    try:
        page.wait_for_function("(n) => document.querySelectorAll('#table g.tile').length === n", arg=tiles,
                               timeout=20000)
        page.reload()
        page.wait_for_selector("#table-players .player.you >> text=Ann")
        assert table_tiles(page) == tiles
        assert page.locator("#hand .hand-tile").evaluate_all("(tiles) => tiles.map((t) => t.dataset.tile)") == hand
        assert restarted.get(f"/api/games/{game_id}")["moves"] >= 2
        wait_my_turn_or_hand_over(page)
        if not page.locator("#summary").is_visible():
            moves = restarted.get(f"/api/games/{game_id}")["moves"]
            play_one_turn(page)
            deadline = time.monotonic() + 20
            while restarted.get(f"/api/games/{game_id}")["moves"] == moves:
                assert time.monotonic() < deadline, "the move after the restart never arrived"
                time.sleep(0.1)
    finally:
        server.__dict__.update(restarted.__dict__)  # the fixture stops whichever is running
    page.context.close()


def record_in_play(variant: str, seed: int, moves: int) -> dict[str, Any]:
    players = 3 if variant == "pip" else 2
    game = boneyard.new_game(variant, players=players, seed=seed,
                             names=["You"] + [f"Computer {i}" for i in range(1, players)])
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        placements = [m for m in legal if m.is_placement]
        if not game.in_hand or (game.turn == 0 and len(game.hand.events) >= moves - 2):
            break
        game.apply(rng.choice(placements or legal))
    return record.to_record(game)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_screenshot_of_the_table_for_every_variant(server: Server, browser: Any, variant: str,
                                                  tmp_path: Path) -> None:
    data = record_in_play(variant, seed=3, moves=9 if variant != "pip" else 24)
    seats = [{"kind": "human", "name": "You"}] + [{"kind": "computer", "level": "greedy", "name": name}
                                                   for name in data["players"][1:]]
    game_id = server.post("/api/records", {"record": data, "seats": seats})["id"]
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you")
    wait_my_turn_or_hand_over(page)
    playable = page.locator("#hand .hand-tile.playable")
    if playable.count():
        playable.first.click()  # light up where it fits
        page.wait_for_selector("#table .hotspot")
    page.wait_for_timeout(400)
    folder = DOCS_SCREENSHOTS if os.environ.get("BONEYARD_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{variant}.png"
    page.screenshot(path=str(target), full_page=False)
    assert target.stat().st_size > 10_000
    assert table_tiles(page) >= 3
    page.context.close()


def test_keyboard_play_and_replay_viewer(server: Server, browser: Any) -> None:
    game_id = server.post("/api/games", {"variant": "block", "seed": 2, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"}]})["id"]
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you")
    for _ in range(200):
        wait_my_turn_or_hand_over(page)
        if page.locator("#summary").is_visible():
            break
        before = version(page)
        playable = page.locator("#hand .hand-tile.playable")
        if playable.count():
            playable.first.focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        else:
            page.locator("#pass").click()
        wait_past(page, before)
    assert page.locator("#summary").is_visible()
    page.context.close()


def test_replay_viewer_steps_through_a_finished_game(server: Server, browser: Any) -> None:
    game_id = server.post("/api/games", {"variant": "block", "seed": 6, "seats": [
        {"kind": "computer", "level": "greedy"}, {"kind": "computer", "level": "random"}]})["id"]
    deadline = time.monotonic() + 180  # a whole game of computers: about 17 s on a loaded 2-core machine
    while server.get(f"/api/games/{game_id}")["status"] != "finished":
        assert time.monotonic() < deadline, "the computers did not finish their game in 180 s"
        time.sleep(0.2)
    page = open_page(browser, f"{server.url}/replay/{game_id}")
    page.wait_for_selector("#replay-event >> text=leads")
    assert page.locator("#replay-table g.tile").count() == 0
    for name in ("first", "prev", "next", "last"):  # icons drawn in SVG, not font glyphs
        button = page.locator(f"#replay-{name}")
        assert button.locator("svg.icon path").count() >= 1 and button.inner_text().strip() == ""
        assert button.bounding_box()["width"] >= 20
    page.click("#replay-next")
    assert page.locator("#replay-table g.tile.last").count() == 1
    assert " led " in page.inner_text("#replay-event")
    assert page.locator("#replay-tools").count() == 1  # the place add-ons hook into
    page.click("#replay-next")
    assert page.locator("#replay-table g.tile").count() >= 1
    assert "move 2 of" in page.inner_text("#replay-position")
    page.click("#replay-last")
    assert "Hand over" in page.inner_text("#replay-end")
    page.context.close()


def position_for_gestures(variant: str = "block") -> tuple[dict[str, Any], str, str]:
    """A record that stops with "You" (seat 0) on turn holding a tile that fits exactly one
    place (one end, one way round) and another that fits several: (record, single, several)."""
    from boneyard.render.geometry import hotspots

    for seed in range(200):
        game = boneyard.new_game(variant, players=2, seed=seed, names=["You", "Computer"])
        rng = random.Random(seed)
        while game.in_hand and len(game.hand.events) < 12:
            legal = game.legal_moves()
            if game.turn == 0 and len(game.layout) >= 2:
                spots: dict[str, list[tuple[str, ...]]] = {}
                for spot in hotspots(game.layout, legal):
                    spots.setdefault(spot.tile, []).append(spot.moves)
                single = [tile for tile, found in spots.items() if len(found) == 1 and len(found[0]) == 1]
                several = [tile for tile, found in spots.items() if len(found) > 1]
                if single and several:
                    return record.to_record(game), single[0], several[0]
            game.apply(rng.choice([m for m in legal if m.is_placement] or legal))
    raise AssertionError("no position with both kinds of tile")


def gesture_table(server: Server, browser: Any, context: Any = None) -> tuple[Any, str, str, str]:
    data, single, several = position_for_gestures()
    seats = [{"kind": "human", "name": "You"}, {"kind": "computer", "level": "greedy", "name": "Computer"}]
    game_id = server.post("/api/records", {"record": data, "seats": seats})["id"]
    page = open_page(browser, f"{server.url}/game/{game_id}", context)
    page.wait_for_selector("#table-players .player.you.turn")
    page.wait_for_selector("#hand .hand-tile.playable")
    return page, game_id, single, several


def server_game(server: Server, game_id: str) -> Any:
    return server.app.state.rooms.get(game_id).game


def my_moves(server: Server, game_id: str) -> list[str]:
    return [str(event.move) for event in server_game(server, game_id).hand.events if event.seat == 0]


def wait_for_my_move(server: Server, game_id: str, count: int) -> list[str]:
    deadline = time.monotonic() + 20
    while len(moves := my_moves(server, game_id)) <= count:
        assert time.monotonic() < deadline, "the move never reached the server"
        time.sleep(0.05)
    return moves


def logged_tile(move: str) -> str:
    """The tile of a move as the log names it (``4-2@1`` and ``2-4@1`` both play 4-2)."""
    from boneyard.moves import Move

    return str(Move.parse(move).tile)


def tile_at(page: Any, tile: str) -> tuple[float, float, int]:
    """Centre and rotation of a tile drawn on the table (from its SVG transform)."""
    transform = page.locator(f'#table g.tile[data-tile="{tile}"]').get_attribute("transform")
    numbers = [float(part) for part in transform.replace("translate(", "").replace("rotate(", "")
               .replace(")", " ").split()]
    return numbers[0], numbers[1], int(numbers[2])


def spot_at(page: Any, spot: Any) -> tuple[float, float, int]:
    x, y, w, h = (float(spot.get_attribute(name)) for name in ("x", "y", "width", "height"))
    return x + w / 2, y + h / 2, 0 if w > h else 90


def test_dragging_a_tile_onto_a_lit_end_plays_it_there(server: Server, browser: Any) -> None:
    page, game_id, _, tile = gesture_table(server, browser)
    before = my_moves(server, game_id)
    source = page.locator(f'#hand .hand-tile[data-tile="{tile}"]')
    box = source.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 8, box["y"] + box["height"] / 2 - 8, steps=3)
    spots = page.locator("#table .hotspot")  # dragging lights up where the tile fits
    assert spots.count() >= 2
    target = spots.last
    moves = target.get_attribute("data-moves").split()
    place = spot_at(page, target)
    drop = target.bounding_box()
    page.mouse.move(drop["x"] + drop["width"] / 2, drop["y"] + drop["height"] / 2, steps=8)
    page.mouse.up()
    played = wait_for_my_move(server, game_id, len(before))
    assert played[-1:] == moves  # (Block has no wild ends: one move per lit end)
    # the page shows it: on the table at the ghost's place, gone from the hand, in the history
    page.wait_for_selector(f'#table g.tile[data-tile="{tile}"]')
    assert page.locator(f'#hand .hand-tile[data-tile="{tile}"]').count() == 0
    centre_x, centre_y, rotation = tile_at(page, tile)
    assert (round(centre_x, 3), round(centre_y, 3), rotation % 180) == (round(place[0], 3), round(place[1], 3),
                                                                         place[2])
    page.wait_for_selector(f"#history li >> text=You played {logged_tile(played[-1])} on the", state="attached")
    assert tile not in [str(t) for t in server_game(server, game_id).hands[0]]
    assert f'data-tile="{tile}"' in httpx.get(f"{server.url}/api/games/{game_id}/table.svg", timeout=20).text
    page.context.close()


def test_double_click_plays_a_tile_that_fits_one_place_and_selects_one_that_fits_several(
        server: Server, browser: Any) -> None:
    page, game_id, single, several = gesture_table(server, browser)
    before = my_moves(server, game_id)
    seen = version(page)
    page.locator(f'#hand .hand-tile[data-tile="{several}"]').dblclick()
    page.wait_for_selector(f'#hand .hand-tile.selected[data-tile="{several}"]')
    assert page.locator("#table .hotspot").count() >= 2
    page.wait_for_timeout(500)
    assert version(page) == seen and my_moves(server, game_id) == before  # nothing was played
    assert page.locator(f'#hand .hand-tile[data-tile="{several}"]').count() == 1
    page.locator(f'#hand .hand-tile[data-tile="{single}"]').dblclick()
    played = wait_for_my_move(server, game_id, len(before))
    assert played[-1].split("@")[0] in (single, "-".join(reversed(single.split("-"))))
    page.wait_for_selector(f'#table g.tile[data-tile="{single}"]')
    assert page.locator(f'#hand .hand-tile[data-tile="{single}"]').count() == 0
    page.wait_for_selector(f"#history li >> text=You played {logged_tile(played[-1])} on the", state="attached")
    assert single not in [str(t) for t in server_game(server, game_id).hands[0]]
    page.context.close()
