"""What the table shows besides the tiles (marker ``browser``): the last tile and owed doubles
marked, opponents' hands as tile backs, the stock pile, the All Fives count, the log of the hand,
upright letter halves, words that agree ("1 tile", "you score")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from boneyard.rules.all_fives import AllFives
from boneyard.state import Game
from boneyard.web.narrate import hand_log
from tests.test_audit_referee22d import shared_game_record
from tests.test_browser import Server, browser, open_page, server
from tests.test_browser_fit import find_position, finished_game, seat_table

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # the fixtures, shared with tests.test_browser


def room_game(server: Server, game_id: str) -> Game:
    game: Game = server.app.state.rooms.get(game_id).game
    return game


def my_turn(game: Game) -> bool:
    return game.in_hand and game.turn == 0


def test_all_fives_count_last_tile_backs_stock_and_a_log_that_stays(server: Server, browser: Any) -> None:
    data = find_position("all-fives", 3, lambda g: my_turn(g) and len(g.layout) >= 4
                         and any(e.points for e in g.hand.events))
    game_id = seat_table(server, data)
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you.turn")
    game = room_game(server, game_id)
    assert page.inner_text("#count") == f"Count {AllFives.count(game)}"
    last = page.locator("#table g.tile.last")
    assert last.count() == 1 and last.get_attribute("data-index") == str(len(game.layout))
    assert last.get_attribute("data-tile") == str(game.layout.tiles[-1].tile)
    for seat in (1, 2):
        chip = page.locator(f'#table-players .player[data-seat="{seat}"]')
        size = len(game.hands[seat])
        assert chip.locator(".backs svg").count() == min(size, 12)
        assert chip.locator(".tiles").inner_text() == (f"{size} tile" if size == 1 else f"{size} tiles")
    assert page.locator("#table-players .player.you .backs").count() == 0  # your own tiles are in your hand
    assert page.inner_text("#stock-count") == f"Stock {game.stock_left}"
    assert page.locator("#table-players .stock-pile svg.pile rect").count() == min(3, game.stock_left)
    logged = [entry["text"] for entry in hand_log(game, 0)]
    scoring = next(text for text in logged if ", +" in text)
    assert scoring.split(": count ")[1].split(",")[0].isdigit()
    page.wait_for_timeout(2500)  # callouts used to vanish after 2 s: the log stays
    assert page.locator("#history li").all_inner_texts() == logged
    page.context.close()


def test_one_tile_is_singular(server: Server, browser: Any) -> None:
    data = find_position("block", 2, lambda g: my_turn(g) and len(g.hands[1]) == 1)
    page = open_page(browser, f"{server.url}/game/{seat_table(server, data)}")
    page.wait_for_selector("#table-players .player.you.turn")
    assert page.locator('#table-players .player[data-seat="1"] .tiles').inner_text() == "1 tile"
    # Block's undealt tiles are never drawn (BLK-2): not a stock to draw from
    assert page.inner_text("#stock-count") == "Out of play 14"
    assert page.get_attribute("#table-players .stock-pile", "aria-label") == "14 tiles out of play"
    page.context.close()


def test_the_hand_end_says_you_win_and_you_score(server: Server, browser: Any) -> None:
    data = find_position("draw", 2, lambda g: not g.in_hand and g.hand.result is not None
                         and g.hand.result.winner == 0 and not g.finished)
    page = open_page(browser, f"{server.url}/game/{seat_table(server, data)}")
    page.wait_for_selector("#table-players .player.you")  # seated: the summary speaks to you
    page.wait_for_selector("#summary-title >> text=You win the hand")
    assert "At the hand's end you score " in page.locator("#history li").last.inner_text()
    assert page.locator("#summary-actions #next-hand").count() == 1  # the place add-ons hook into
    page.context.close()


def test_a_blocked_hand_says_the_rule_that_decided_it(server: Server, browser: Any) -> None:
    data = find_position("block", 2, lambda g: not g.in_hand and g.hand.result is not None
                         and g.hand.result.end == "blocked" and not g.finished)
    game_id = seat_table(server, data)
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#summary-title >> text=over (blocked)")
    rule = room_game(server, game_id).rules.blocked_rule()
    assert page.inner_text("#summary-rule") == f"A blocked hand: {rule}."
    assert "lightest single tile" in rule
    page.context.close()


def letter_angles(page: Any, selector: str) -> list[list[float]]:
    """The screen matrix (a, b, c, d) of every letter half under ``selector``."""
    result: list[list[float]] = page.evaluate(f"""() => [...document.querySelectorAll('{selector} text.letter')]
      .map((t) => {{ const m = t.getScreenCTM(); return [m.a, m.b, m.c, m.d]; }})""")
    return result


def test_pip_letters_upright_and_the_owed_double_marked(server: Server, browser: Any) -> None:
    def wanted(game: Game) -> bool:
        letters_down = any(placed.tile.letter is not None for placed in game.layout.tiles)
        letters_held = any(tile.letter is not None for tile in game.hands[0])
        return my_turn(game) and bool(game.pending) and letters_down and letters_held

    data = find_position("pip", 3, wanted)
    game_id = seat_table(server, data)
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you.turn")
    game = room_game(server, game_id)
    owed_index, plays = game.pending[-1]
    owed = page.locator("#table g.tile.owed")
    assert owed.count() == len(game.pending)
    assert page.locator(f'#table g.tile.owed[data-index="{owed_index}"]').count() == 1
    assert f"owes {plays} more play" in page.inner_text("#facts")
    angles = letter_angles(page, "#table") + letter_angles(page, "#hand")
    turned = page.evaluate("() => [...document.querySelectorAll('#table g.tile, #hand g.tile')]"
                           ".some((g) => /rotate\\((90|270)\\)/.test(g.getAttribute('transform')))")
    assert angles and turned
    for a, b, c, d in angles:
        assert a > 0 and d > 0 and abs(b) < 1e-6 and abs(c) < 1e-6, "a letter is not upright"
    page.context.close()


def test_an_owed_double_is_cleared_when_the_hand_ends(server: Server, browser: Any) -> None:
    data = find_position("pip", 3, lambda g: not g.in_hand and not g.finished and bool(g.pending))
    page = open_page(browser, f"{server.url}/game/{seat_table(server, data)}")
    page.wait_for_selector("#summary-title")
    assert page.locator("#table g.tile").count() > 0
    assert page.locator("#table g.tile.owed").count() == 0
    assert not re.search(r"\bowes\b", page.inner_text("#facts"))  # ("lowest total wins" stays)
    assert "Round 1 of 9" in page.inner_text("#facts") and "lowest total wins" in page.inner_text("#facts")
    page.context.close()


def test_a_hint_names_the_tile_and_gives_a_reason_in_words(server: Server, browser: Any) -> None:
    data = find_position("draw", 2, lambda g: my_turn(g) and len(g.layout) >= 3
                         and sum(m.is_placement for m in g.legal_moves()) >= 2)
    page = open_page(browser, f"{server.url}/game/{seat_table(server, data)}")
    page.wait_for_selector("#table-players .player.you.turn")
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Hint: ')", timeout=30000)
    status = page.inner_text("#status")
    selected = page.locator("#hand .hand-tile.selected").get_attribute("data-tile")
    assert status.startswith(f"Hint: play {selected} (lit on the table) — ")
    reason = status.split(" — ", 1)[1]
    assert reason and not re.search(r"\d\.\d|sampled|average", reason), reason
    page.context.close()


def test_the_hand_end_panel_may_be_put_aside_to_look_at_the_table(server: Server, browser: Any) -> None:
    data = find_position("draw", 2, lambda g: not g.in_hand and g.hand.result is not None and not g.finished)
    game_id = seat_table(server, data)
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#summary-title")
    assert page.is_hidden("#show-summary")
    page.click("#look-at-table")
    page.wait_for_selector("#summary", state="hidden")
    page.wait_for_selector("#show-summary", state="visible")
    placed = len(room_game(server, game_id).layout)
    assert page.locator("#table g.tile").count() == placed  # the final table, uncovered
    page.click("#show-summary")
    page.wait_for_selector("#summary-title", state="visible")
    assert page.is_hidden("#show-summary")
    page.keyboard.press("Escape")  # Esc puts it aside too
    page.wait_for_selector("#summary", state="hidden")
    page.click("#show-summary")
    page.click("#next-hand")  # the next hand: nothing to bring back
    page.wait_for_function("() => document.querySelector('#summary').hidden"
                           " && document.querySelector('#show-summary').hidden")
    assert room_game(server, game_id).in_hand
    page.context.close()


def test_the_end_panels_focus_stays_on_its_action_when_the_seat_comes_after_it_was_drawn(
        server: Server, browser: Any) -> None:
    # A page opens a table as a watcher, then claims its seat: the seated state adds "Play again" to the game's
    # end panel.  The messages after the first state are held here until the player has put the panel aside
    # and brought it back (Esc, Enter): the redraw must leave the focus on "Look at the table", not on the
    # action that now stands at its place in the row.
    game_id = seat_table(server, finished_game("all-fives", 2))
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    held: list[str | bytes] = []  # the server's messages after its first state, until released
    sockets: list[Any] = []
    released = False

    def route(socket: Any) -> None:
        sockets.append(socket)
        seen_state = False

        def from_server(message: str | bytes) -> None:
            nonlocal seen_state
            if released or not seen_state:
                seen_state = seen_state or json.loads(message)["type"] == "state"
                socket.send(message)
            else:
                held.append(message)

        socket.connect_to_server().on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/"), route)
    try:
        page.goto(f"{server.url}/game/{game_id}")
        page.wait_for_selector("#summary-title >> text=Game over")
        assert page.locator("#play-again").count() == 0  # drawn for a watcher
        page.keyboard.press("Escape")
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.activeElement.id") == "look-at-table"
        for _ in range(100):  # the seat claimed, its state on the way (the page's events run while it waits)
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the seated state never came"
        released = True
        for message in held:
            sockets[-1].send(message)
        page.wait_for_selector("#play-again")  # drawn again, seated
        assert page.evaluate("() => document.activeElement.id") == "look-at-table"
    finally:
        page.context.close()


def test_the_table_says_its_house_rules(server: Server, browser: Any) -> None:
    made = server.post("/api/games", {"variant": "all-fives", "seats": [{"kind": "human"}, {"kind": "computer"}],
                                      "options": {"spinner_mode": "none", "deal_sizes": "6"}})
    page = open_page(browser, f"{server.url}/game/{made['id']}")
    page.wait_for_selector("#house-rules:not([hidden])")
    assert page.inner_text("#house-rules") == "House rules: spinner mode none · deal sizes 6"
    plain = server.post("/api/games", {"variant": "all-fives", "seats": [{"kind": "human"}, {"kind": "computer"}]})
    page.goto(f"{server.url}/game/{plain['id']}")
    page.wait_for_selector("#hand .hand-tile")
    assert page.locator("#house-rules").is_hidden()  # the variant's own rules: nothing more to say
    page.context.close()


def test_a_shared_pip_win_is_said_so_at_game_over(server: Server, browser: Any, tmp_path: Path) -> None:
    data = shared_game_record(tmp_path)  # seven players; two share the lowest total (PIP-20)
    game_id = server.post("/api/records", {"record": data})["id"]
    page = open_page(browser, f"{server.url}/game/{game_id}?watch")
    page.wait_for_selector("#summary-title >> text=Game over")
    names = data["players"]
    assert page.inner_text("#summary-title") == f"Game over — {names[3]} and {names[4]} share the win"
    page.context.close()


def test_the_search_for_a_starting_tile_is_a_note_before_the_numbered_moves(server: Server, browser: Any) -> None:
    data = find_position("pip", 2, lambda g: g.in_hand and len(g.hand.setup_draws) > 2 and len(g.hand.events) >= 2)
    game_id = seat_table(server, data)
    page = open_page(browser, f"{server.url}/game/{game_id}")
    # the page reads the table as a spectator until its claim of the free seat is answered: the log names
    # seat 0 "you" only from then on
    page.wait_for_selector("#table-players .player.you")
    page.wait_for_selector("#history li.note")
    game = room_game(server, game_id)
    logged = hand_log(game, 0)
    assert logged[0]["text"].startswith("Nobody held a starting tile, so they drew in turn: ")
    items = page.locator("#history li")
    assert items.all_inner_texts() == [entry["text"] for entry in logged]
    assert items.nth(0).get_attribute("value") is None  # a note, not move 1
    assert items.nth(1).get_attribute("value") == "1"
    page.context.close()


def test_on_a_phone_a_long_name_is_cut_short_but_you_stays(server: Server, browser: Any) -> None:
    data = find_position("block", 2, my_turn)
    name = "Bartholomew Featherstonehaugh"
    data["players"][0] = name  # a loaded record's seats keep its names
    game_id = seat_table(server, data)
    page = open_page(browser, f"{server.url}/game/{game_id}",
                     browser.new_context(viewport={"width": 390, "height": 844}))
    page.wait_for_selector("#table-players .player.you")
    chip = page.locator("#table-players .player.you .name")
    assert chip.get_attribute("title") == name
    mark, given = chip.locator(".mark"), chip.locator(".given")
    assert mark.inner_text().strip() == "(you)"
    assert given.evaluate("node => node.scrollWidth > node.clientWidth")  # the name is cut short...
    outer, box = chip.bounding_box(), mark.bounding_box()
    assert box["width"] > 10 and box["x"] + box["width"] <= outer["x"] + outer["width"] + 0.5  # ...not "(you)"
    page.context.close()


def test_the_replay_viewer_opens_a_hand_with_its_search_for_a_starting_tile(server: Server, browser: Any) -> None:
    import random

    from boneyard import record
    from tests.helpers import start_filled

    game = start_filled("double-bergen", 2, [], stock="3-1 2-2", leader=0, target=1)  # nobody dealt a double
    game.names = ["Ann", "Bob"]
    rng = random.Random(1)
    while game.in_hand:
        game.apply(rng.choice(game.legal_moves()))
    assert game.finished  # a point ends it in the first hand
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random", "name": "Bob"}]
    game_id = server.post("/api/records", {"record": record.to_record(game, seed=1), "seats": seats})["id"]
    page = open_page(browser, f"{server.url}/replay/{game_id}")
    page.wait_for_selector("#replay-event >> text=Nobody held")
    assert page.inner_text("#replay-event") == \
        "Hand 1: Nobody held a starting tile, so they drew in turn: Ann 1 tile (3-1), Bob 1 tile (2-2)."
    page.context.close()


def test_play_again_at_game_over_takes_the_page_to_the_next_game_in_its_seat(server: Server, browser: Any) -> None:
    game_id = seat_table(server, finished_game("all-fives", 2))
    page = open_page(browser, f"{server.url}/game/{game_id}")
    watcher = open_page(browser, f"{server.url}/game/{game_id}?watch")
    try:
        page.wait_for_selector("#summary-title >> text=Game over")
        assert watcher.locator("#play-again").count() == 0  # a spectator cannot ask for it
        page.click("#play-again")
        page.wait_for_url(re.compile(r"/game/(?!" + game_id + r")\w+$"))
        page.wait_for_selector("#table-players .player.you")  # seated with the old table's token
        page.wait_for_selector("#hand .hand-tile")
        new_id = page.url.rsplit("/", 1)[1]
        new = server.app.state.rooms.get(new_id)
        assert new.game.rules.name == "all-fives" and not new.game.finished
        assert page.locator("#hand .hand-tile").count() == len(new.game.hands[0])
        # the spectator's panel now shows the way to the next game, as a spectator
        link = watcher.locator("#play-again")
        link.wait_for()
        assert link.inner_text() == "Watch the next game" and link.get_attribute("href") == f"/game/{new_id}?watch"
    finally:
        page.context.close()
        watcher.context.close()


def test_a_seat_taken_to_another_device_by_its_link(server: Server, browser: Any) -> None:
    data = find_position("all-fives", 2, lambda g: my_turn(g) and len(g.layout) >= 2)
    game_id = seat_table(server, data)
    page = open_page(browser, f"{server.url}/game/{game_id}")
    phone = None
    try:
        page.wait_for_selector("#table-players .player.you")
        assert page.locator("#device").is_hidden()
        page.click("#other-device")
        link = page.input_value("#device-link")
        assert link.startswith(f"{server.url}/game/{game_id}#seat=")
        phone = open_page(browser, link)  # a new browser context: nothing stored there
        phone.wait_for_selector("#table-players .player.you")
        assert "#seat=" not in phone.url  # the token leaves the address bar at once
        assert sorted(phone.locator("#hand .hand-tile").evaluate_all("(ts) => ts.map((t) => t.dataset.tile)")) \
            == sorted(page.locator("#hand .hand-tile").evaluate_all("(ts) => ts.map((t) => t.dataset.tile)"))
        # a link with a token that is no seat's: the page is told so and sits down elsewhere or watches
        stranger = open_page(browser, f"{server.url}/game/{game_id}#seat=not-a-token")
        stranger.wait_for_selector("#status >> text=/watching|no seat/i")
        assert stranger.locator("#table-players .player.you").count() == 0
        stranger.context.close()
    finally:
        page.context.close()
        if phone is not None:
            phone.context.close()
