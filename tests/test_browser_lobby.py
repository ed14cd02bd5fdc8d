"""The lobby and the table as people meet them (marker ``browser``): a player count typed, the page opened at its
top, teams shown, one move per click, the status of an optional draw, a replay from a file that survives a
reload, and the undo offered at a hand's end."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard import record
from boneyard.moves import Kind
from boneyard.player_stats import Stats
from boneyard.view import SeatView
from tests.test_audit_rooms20 import HOLD_CLAIMS
from tests.test_browser import (
    Server,
    browser,
    gesture_table,
    my_moves,
    open_page,
    play_one_turn,
    server,
    server_game,
    version,
    wait_for_my_move,
    wait_past,
)
from tests.test_browser_fit import find_position, seat_table

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # the fixtures, shared with tests.test_browser


def phone(browser: Any, url: str) -> Any:
    return open_page(browser, url, browser.new_context(viewport={"width": 390, "height": 844}))


def test_a_typed_player_count_a_single_click_and_the_table_opens_at_its_top(server: Server, browser: Any) -> None:
    page = phone(browser, server.url + "/")
    page.select_option("#variant", "block")
    page.fill("#players", "4")  # typed, not yet left: the seats follow at once
    assert page.locator("#seats .seat-row").count() == 4
    assert page.locator("#seats .seat-name").first.get_attribute("placeholder") == "Player 1"
    assert page.locator("#seats .seat-name").nth(2).get_attribute("placeholder") == "Computer 2"
    page.locator("#seats .seat-kind").nth(1).select_option("human")  # the computers after it count again
    assert page.locator("#seats .seat-name").nth(1).get_attribute("placeholder") == "Player 2"
    assert page.locator("#seats .seat-name").nth(2).get_attribute("placeholder") == "Computer 1"
    page.locator("#seats .seat-kind").nth(1).select_option("computer")
    page.click("text=Rule options")
    page.check("#opt-partnerships")
    page.locator("#create").scroll_into_view_if_needed()
    assert page.evaluate("() => window.scrollY") > 0
    page.click("#create")  # one click creates the game
    page.wait_for_url("**/game/*", timeout=10000)
    page.wait_for_selector("#table-players .player.you")
    assert page.evaluate("() => window.scrollY") == 0  # the title and the scores are in sight
    assert page.locator("#game-title").is_visible()
    teams = [page.locator(f'#table-players .player[data-seat="{seat}"] .team').inner_text() for seat in range(4)]
    assert teams == ["Team 1", "Team 2", "Team 1", "Team 2"]
    names = [page.locator(f'#table-players .player[data-seat="{seat}"] .name').inner_text().lstrip("▶ ")
             for seat in range(4)]
    assert names == ["Player 1 (you)", "Computer 1", "Computer 2", "Computer 3"]
    page.context.close()


def test_a_double_click_on_a_lit_end_sends_one_move(server: Server, browser: Any) -> None:
    sent: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.on("page", lambda page: page.on("websocket", lambda socket: socket.on(
        "framesent", lambda frame: sent.append(str(frame)))))
    page, game_id, single, _ = gesture_table(server, browser, context)
    before = my_moves(server, game_id)
    page.locator(f'#hand .hand-tile[data-tile="{single}"]').click()
    page.locator("#table .hotspot").first.dblclick()
    wait_for_my_move(server, game_id, len(before))
    page.wait_for_timeout(400)
    assert len(my_moves(server, game_id)) == len(before) + 1
    assert sum('"type":"move"' in frame for frame in sent) == 1  # the second click sent nothing
    assert "not yours" not in page.inner_text("#status")
    page.context.close()


def test_an_optional_draw_beside_a_tile_that_fits(server: Server, browser: Any) -> None:
    options = {"allow_voluntary_draw": True}
    for seed in range(100):
        game = boneyard.new_game("draw", 2, seed=seed, options=options, names=["You", "Computer 1"])
        rng = random.Random(seed)
        while game.in_hand and not (game.turn == 0 and game.layout.tiles and any(
                move.kind == Kind.DRAW for move in game.legal_moves()) and any(
                move.is_placement for move in game.legal_moves())):
            game.apply(rng.choice(game.legal_moves()))
        if game.in_hand:
            break
    assert game.in_hand and SeatView(game, 0).legal_moves()
    page = open_page(browser, f"{server.url}/game/{seat_table(server, record.to_record(game))}")
    page.wait_for_selector("#table-players .player.you.turn")
    page.wait_for_selector("#status >> text=Your turn: pick a tile (or draw).")
    assert page.locator("#draw").is_visible() and page.locator("#hand .hand-tile.playable").count() >= 1
    page.context.close()


def test_a_replay_loaded_from_a_file_comes_back_after_a_reload(server: Server, browser: Any, tmp_path: Path) -> None:
    game = boneyard.new_game("block", 2, seed=3, names=["Ann", "Bob"])
    rng = random.Random(3)
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
            continue
        game.apply(rng.choice(game.legal_moves()))
    path = tmp_path / "ann-bob.boneyard.json"
    path.write_text(json.dumps(record.to_record(game)), encoding="utf-8")
    page = open_page(browser, server.url + "/")
    page.set_input_files("#record-file", str(path))
    page.click("#view-record")
    page.wait_for_selector("#replay-event >> text=leads")
    title = page.inner_text("#replay-title")
    assert "Ann, Bob" in title and page.url.endswith("/replay/file")
    page.reload()
    page.wait_for_selector("#replay-event >> text=leads")
    assert page.inner_text("#replay-title") == title
    page.click("#replay-last")
    assert "Hand over" in page.inner_text("#replay-end")
    page.context.close()


def test_the_undo_at_a_hand_s_end_is_in_the_summary(server: Server, browser: Any) -> None:
    data = find_position("draw", 2, lambda g: not g.in_hand and g.hand.result is not None
                         and g.hand.result.winner == 0 and not g.finished)
    game_id = seat_table(server, data)
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#summary-title >> text=You win the hand")
    assert not page.locator("#undo").is_visible()  # not behind the summary
    seen = version(page)
    page.click("#summary-undo")
    page.wait_for_function("(v) => Number(document.body.dataset.version) !== v", arg=seen, timeout=20000)
    page.wait_for_selector("#summary", state="hidden")
    page.wait_for_selector("#table-players .player.you.turn")
    assert server.get(f"/api/games/{game_id}")["status"] == "running"
    page.context.close()


def test_a_move_after_an_undo_is_sent(server: Server, browser: Any) -> None:
    # an undo takes the table's version back: the guard against double clicks must not keep the next move
    page, game_id, single, _ = gesture_table(server, browser)
    before = my_moves(server, game_id)
    seen = version(page)
    page.locator(f'#hand .hand-tile[data-tile="{single}"]').dblclick()
    wait_for_my_move(server, game_id, len(before))
    # the page shows the move and the computer's answer: two positions later, and the tile gone from the hand
    page.wait_for_function("(v) => Number(document.body.dataset.version) >= v + 2", arg=seen, timeout=20000)
    page.wait_for_selector(f'#hand .hand-tile[data-tile="{single}"]', state="detached")
    page.wait_for_selector("#undo:not([hidden])")
    page.click("#undo")
    page.wait_for_selector(f'#hand .hand-tile[data-tile="{single}"]', timeout=20000)  # back in the hand
    assert my_moves(server, game_id) == before
    page.locator(f'#hand .hand-tile[data-tile="{single}"]').dblclick()
    assert len(wait_for_my_move(server, game_id, len(before))) == len(before) + 1
    page.context.close()


def test_a_seat_nobody_has_taken_is_waited_for_not_thinking(server: Server, browser: Any) -> None:
    for seed in range(40):  # a deal where Bob (seat 1) leads
        game_id = server.post("/api/games", {"variant": "draw", "seed": seed, "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})["id"]
        if server_game(server, game_id).turn == 1:
            break
    assert server_game(server, game_id).turn == 1
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you >> text=Ann")
    page.wait_for_selector("#status >> text=Waiting for Bob to join")
    page.context.close()


#: Claims sent by the page are kept back until ``window.__letClaimsGo()`` (HOLD_CLAIMS); every redraw of the
#: players' chips is noted as ``you`` (a seat's view) or ``spectator``.
SEAT_SPY = HOLD_CLAIMS + """
window.__views = [];
new MutationObserver(() => {
  if (document.querySelector('#table-players .player'))
    window.__views.push(document.querySelector('#table-players .player.you') ? 'you' : 'spectator');
}).observe(document, { childList: true, subtree: true });
"""


def test_a_page_taking_its_seat_shows_the_table_from_the_seat_not_as_a_spectator_first(server: Server,
                                                                                         browser: Any) -> None:
    """The first state a page gets is a spectator's; a page that asks for its seat draws nothing until the
    answer comes (no flash of other names and "Sit here" buttons), and draws the spectator's table after all if
    no answer comes within two seconds."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random", "name": "Cy"}]
    pages = []
    for waited in (False, True):
        game_id = server.post("/api/games", {"variant": "draw", "seed": 5, "seats": seats})["id"]
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script(SEAT_SPY)
        page = context.new_page()
        pages.append(page)
        page.goto(f"{server.url}/game/{game_id}")
        page.wait_for_function("() => window.__held.length === 1")  # the first state seen, its claim kept back
        if not waited:
            assert page.locator("#table-players .player").count() == 0
            assert page.inner_text("#status") == "Taking your seat…"
        else:  # no answer: the table as a spectator sees it, after two seconds
            page.wait_for_selector("#table-players .player", timeout=5000)
            assert page.locator("#table-players .player.you").count() == 0
            assert page.locator("#table-players .player button", has_text="Sit here").count() == 1
        page.evaluate("() => window.__letClaimsGo()")
        page.wait_for_selector("#table-players .player.you >> text=Ann")
        views = page.evaluate("() => window.__views")
        assert views[-1] == "you"
        assert ("spectator" in views) is waited
    for page in pages:
        page.context.close()


def test_a_table_of_friends_is_for_the_invited_and_its_link_seats_them(server: Server, browser: Any) -> None:
    """The creator of a table of two people gets its invitation link on the table; a friend who opens the
    link sits down; someone who opens the game from the lobby may only watch."""
    page = open_page(browser, server.url + "/")
    page.select_option("#variant", "draw")
    assert page.locator("#invite-row").is_hidden()  # one person against the computer: nobody to invite
    page.locator("#seats .seat-kind").nth(1).select_option("human")
    assert page.locator("#invite-only").is_checked()  # two people: invited only, unless unticked
    page.click("#create")
    page.wait_for_url("**/game/*", timeout=10000)
    page.wait_for_selector("#table-players .player.you")
    page.wait_for_selector("#invite:not([hidden])")
    link = page.input_value("#invite-link")
    game_id = page.url.rsplit("/", 1)[1]
    assert link.startswith(f"{server.url}/game/{game_id}?invite=")

    stranger = open_page(browser, f"{server.url}/game/{game_id}")
    stranger.wait_for_function("() => document.querySelector('#status').textContent.includes('invitation link')")
    assert stranger.locator("#table-players .player.you").count() == 0
    assert stranger.locator("#table-players .player").count() == 2  # the seat refused: the table, watched
    lobby = open_page(browser, server.url + "/")
    lobby.wait_for_selector(f'#games a[href="/game/{game_id}?watch"]')  # the lobby offers to watch it
    assert "invited only" in lobby.inner_text("#games")

    friend = open_page(browser, link)
    friend.wait_for_selector("#table-players .player.you")
    you = friend.locator("#table-players .player.you .name").inner_text()
    assert "Player 2" in you
    page.wait_for_selector("#invite", state="hidden")  # every seat taken: no more link to give
    for opened in (page, stranger, lobby, friend):
        opened.context.close()


def test_pass_and_play_keeps_each_hand_face_down_until_its_player_takes_the_screen(server: Server,
                                                                                   browser: Any) -> None:
    """Two people at one screen (the lobby's "We all play on this screen"): the page holds both seats, shows the
    hand on turn only after its player says so, and hides it again once the turn has passed; a reload keeps both."""
    page = open_page(browser, server.url + "/")
    page.select_option("#variant", "block")
    page.locator("#seats .seat-kind").nth(1).select_option("human")
    page.locator("#seats .seat-name").nth(0).fill("Ann")
    page.locator("#seats .seat-name").nth(1).fill("Bob")
    page.check("#same-screen")
    assert page.locator("#invite-label").is_hidden()  # one screen: nobody to invite
    page.click("#create")
    page.wait_for_url("**/game/*", timeout=10000)
    game_id = page.url.rsplit("/", 1)[1]
    room = server.app.state.rooms.get(game_id)
    assert room.hot_seat and room.invite_hash is not None  # only this page may take its seats

    def take_the_screen() -> str:
        """Wait for the pass bar, check the hand is face down, press it; the name of the player on turn."""
        page.wait_for_selector("#pass-screen:not([hidden])")
        turn = room.game.turn
        name = ["Ann", "Bob"][turn]
        assert page.inner_text("#pass-text") == f"{name}'s turn: pass the screen to {name}."
        assert page.locator("#hand .face-down").count() > 0 and page.locator("#hand .hand-tile[data-tile]").count() == 0
        page.click("#take-turn")
        page.wait_for_selector(f"#table-players .player.you >> text={name}")
        tiles = page.locator("#hand .hand-tile[data-tile]")
        shown = sorted(tiles.evaluate_all("tiles => tiles.map(t => t.dataset.tile)"))
        assert shown == sorted(str(tile) for tile in room.game.hands[turn])  # that person's own hand
        assert page.locator("#pass-screen").is_hidden()
        return name

    first = take_the_screen()
    assert all(seat.token_hash is not None for seat in room.seats)  # the page holds both seats, both online
    assert page.locator("#table-players .player .who").all_inner_texts() == ["online", "online"]
    before = version(page)
    play_one_turn(page)
    wait_past(page, before)
    second = take_the_screen()  # the turn passed: the first hand is face down again, the bar names the other
    assert {first, second} == {"Ann", "Bob"}

    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert take_the_screen() == second  # both seats kept: the screen asks again before it shows a hand
    assert len({seat.token_hash for seat in room.seats}) == 2
    page.context.close()


def test_the_lobby_shows_your_statistics_from_the_tables_you_sat_at(server: Server, browser: Any) -> None:
    page = open_page(browser, server.url + "/")
    page.click("#show-stats")
    page.wait_for_selector("#stats >> text=No games yet")
    game = boneyard.new_game("block", 2, seed=4, names=["Ann", "Bob"], options={"target": 20})
    while not game.finished:
        game.apply(game.legal_moves()[0]) if game.in_hand else game.next_hand()
    seats = [{"kind": "human"}, {"kind": "computer", "level": "random"}]
    game_id = server.post("/api/records", {"record": record.to_record(game, seed=4), "seats": seats})["id"]
    page.goto(f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you")  # the free seat claimed: its token kept in this browser
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready]")
    page.click("#show-stats")
    page.wait_for_selector("#stats table.stats")
    rows = [row.split("\t") for row in page.locator("#stats table.stats").first.locator("tbody tr").all_inner_texts()]
    counted = Stats()  # what `boneyard stats` makes of the same record for seat 0 against random
    counted.add({**record.to_record(game), "meta": {"human_seat": 0, "ai": {"1": "random"}}}, "the record")
    block = counted.as_json()["variants"]["block"]
    def pct(x: float) -> str:
        return f"{math.floor(x * 100 + 0.5)}%"  # as the page rounds (Math.round)
    rate = f"{pct(block['win_rate'])} ({pct(block['ci95'][0])}–{pct(block['ci95'][1])})"
    assert rows == [["block", "1", str(block["won"]), rate, f"{block['hands_won']} of {block['hands']}", "0"]]
    against = page.locator("#stats table.stats").nth(1).locator("tbody tr td").first.inner_text()
    assert against == "random"
    page.context.close()
