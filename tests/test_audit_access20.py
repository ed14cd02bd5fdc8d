"""Audit 20: playing without a mouse, with a screen reader, and on narrow or plain terminals.

The web table is driven with the keyboard alone (Tab, Shift+Tab, Enter, Esc: no ``click``, no ``focus()``), as
docs/web.md promises ("Tab to a tile, arrow keys to choose where it goes, Enter to play, Esc to put it back"), and
what a screen reader gets is read from the page: accessible names, the live region, where the focus is. The
terminal game is run as the real command on a pseudo-terminal (TERM=dumb, NO_COLOR, 60 columns) and with its
input and output piped, as README's "A game in the terminal" describes it.

Browser tests (marker ``browser``) use the server and browser fixtures of ``tests.test_browser`` and are skipped
where Chromium is missing; the terminal tests run everywhere.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard.moves import Kind
from boneyard.render.geometry import hotspots
from boneyard.render.text import LEGEND
from boneyard.state import Game
from boneyard.tiles import half_text
from tests.helpers import ambiguous_choices, two_places
from tests.test_audit_terminal import Terminal, _controlling_terminal, cli, first_position, session_for

try:
    from tests.test_browser import (
        Server,
        browser,
        gesture_table,
        open_page,
        server,
        server_game,
        version,
        wait_my_turn_or_hand_over,
        wait_past,
    )
    from tests.test_browser_fit import find_position, finished_game, seat_table

    HAVE_BROWSER = True
except pytest.skip.Exception:  # no Chromium here: the terminal tests still run
    HAVE_BROWSER = False

    @pytest.fixture
    def server() -> Iterator[Any]:
        pytest.skip("/usr/bin/chromium is not installed")
        yield None

    @pytest.fixture
    def browser() -> Iterator[Any]:
        pytest.skip("/usr/bin/chromium is not installed")
        yield None

__all__ = ["browser", "server"]  # the fixtures, shared with tests.test_browser

MOVABLE = "#hand .hand-tile.playable, #draw:not([hidden]), #pass:not([hidden])"


# ---------------------------------------------------------------- keyboard helpers
def focused(page: Any, selector: str) -> bool:
    """Whether the element with the keyboard focus matches ``selector``."""
    return bool(page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector))


def tab_to(page: Any, selector: str, *, back: bool = False, limit: int = 120) -> int:
    """Press Tab (Shift+Tab with ``back``) until the focus is on an element matching ``selector``; the presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if focused(page, selector):
            return presses
    raise AssertionError(f"{selector} is not reached with {limit} presses of {'Shift+Tab' if back else 'Tab'}")


def keyboard_turn(page: Any) -> None:
    """One turn with the keyboard alone: Tab to a tile that fits (or Draw, Pass), Enter; where PIP's chooser asks
    which way round, Enter on its first choice (it has the focus)."""
    tab_to(page, MOVABLE)
    page.keyboard.press("Enter")
    if page.locator("#chooser button").count():
        if not focused(page, "#chooser button"):  # (it takes the focus as it opens)
            tab_to(page, "#chooser button", back=True)
        page.keyboard.press("Enter")


def play_hand_by_keyboard(page: Any, turns: int = 200) -> int:
    """Keyboard turns until the hand's end panel shows; how many turns were played."""
    for turn in range(turns):
        wait_my_turn_or_hand_over(page)
        if page.locator("#summary").is_visible():
            return turn
        before = version(page)
        keyboard_turn(page)
        wait_past(page, before)
    raise AssertionError(f"the hand did not end in {turns} turns")


def spoken(context: Any) -> None:
    """Record everything the page's live region and status line are given, from before the page's script runs."""
    context.add_init_script("""document.addEventListener('DOMContentLoaded', () => {
      window.__spoken = [];
      for (const id of ['live', 'status']) {
        const node = document.getElementById(id);
        new MutationObserver(() => window.__spoken.push([id, node.textContent]))
          .observe(node, { childList: true, characterData: true, subtree: true });
      }
    });""")


def said(page: Any, where: str = "live") -> list[str]:
    entries: list[list[str]] = page.evaluate("() => window.__spoken || []")
    return [text for kind, text in entries if kind == where]


def either_way(tile: str) -> re.Pattern[str]:
    """``6-4`` or ``4-6`` as a whole token (a W may be shown as a star)."""
    a, b = (re.escape(half).replace("W", "(?:W|★)") for half in tile.split("-"))
    return re.compile(rf"(?<![\w-])(?:{a}-{b}|{b}-{a})(?![\w-])")


# ---------------------------------------------------------------- the web table with the keyboard alone
@pytest.mark.browser
def test_a_whole_hand_of_all_fives_by_keyboard_with_a_hint_then_the_next_hand(server: Server, browser: Any) -> None:
    game_id = server.post("/api/games", {"variant": "all-fives", "seed": 5, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"},
        {"kind": "computer", "level": "greedy"}]})["id"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    spoken(context)
    page = open_page(browser, f"{server.url}/game/{game_id}", context)
    try:
        page.wait_for_selector("#table-players .player.you.turn")
        # a hint with the keyboard: it selects the tile and puts the focus on it, so Enter plays it
        tab_to(page, "#hint")
        page.keyboard.press("Enter")
        page.wait_for_selector("#status >> text=Hint:")
        hinted = page.evaluate("() => document.activeElement.dataset.tile")
        assert hinted and page.locator(f'#hand .hand-tile.selected[data-tile="{hinted}"]').count() == 1
        before = version(page)
        page.keyboard.press("Enter")
        wait_past(page, before)
        game = server_game(server, game_id)
        mine = [event.move for event in game.hand.events if event.seat == 0]
        assert str(mine[0].tile) == hinted
        play_hand_by_keyboard(page)
        # the hand's end: the panel has the focus on Next hand, Enter deals the next hand
        assert focused(page, "#summary #next-hand")
        assert page.get_attribute("#summary [role=dialog]", "aria-labelledby") == "summary-title"
        before = version(page)
        page.keyboard.press("Enter")
        page.wait_for_selector("#summary", state="hidden")
        assert page.inner_text("#facts").startswith("Hand 2")
        # what a screen reader was told: the computers' moves as they happened, and each time it was Ann's turn
        logged_moves = [text for text in said(page) if text.startswith(("Computer 1 ", "Computer 2 "))]
        assert len(logged_moves) >= 4
        assert "Your turn: pick a tile." in said(page, "status") or "Your turn: no tile fits, draw." in said(
            page, "status")
    finally:
        context.close()


def open_the_chooser(server: Server, page: Any, game_id: str) -> tuple[Game, Any]:
    """On the seat's turn, with a wild tile that fits an end either way round: Tab to the tile, the arrows to that
    end, Enter opens PIP's chooser; the game and the hotspot."""
    page.wait_for_selector("#table-players .player.you.turn")
    game = server_game(server, game_id)
    spot = next(s for s in hotspots(game.layout, game.legal_moves()) if len(s.moves) > 1)
    tab_to(page, f'#hand .hand-tile[data-tile="{spot.tile}"]')
    for _ in range(8):
        if page.get_attribute("#table .hotspot.active, #table .hotspot", "data-moves") == " ".join(spot.moves):
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    return game, spot


@pytest.mark.browser
def test_a_whole_round_of_pip_by_keyboard_with_the_which_way_chooser(server: Server, browser: Any) -> None:
    def late_in_the_round(game: Game) -> bool:  # a few tiles left each, a wild tile that fits either way held
        return (game.in_hand and game.turn == 0 and len(game.hands[0]) <= 7
                and any(len(spot.moves) > 1 for spot in hotspots(game.layout, game.legal_moves())))

    game_id = seat_table(server, find_position("pip", 2, late_in_the_round))
    page = open_page(browser, f"{server.url}/game/{game_id}")
    try:
        game, spot = open_the_chooser(server, page, game_id)
        assert page.locator("#chooser button").count() == len(spot.moves)
        tab_to(page, f'#chooser button[data-move="{spot.moves[-1]}"]')
        moves = len(game.hand.events)
        before = version(page)
        page.keyboard.press("Enter")
        wait_past(page, before)
        assert str(game.hand.events[moves].move) == spot.moves[-1]
        play_hand_by_keyboard(page)
        assert "over" in page.inner_text("#summary-title")
    finally:
        page.context.close()


@pytest.mark.browser
def test_the_focus_stays_in_the_hand_after_a_keyboard_move(server: Server, browser: Any) -> None:
    page, _, _, _ = gesture_table(server, browser)
    try:
        tab_to(page, "#hand .hand-tile.playable")
        before = version(page)
        page.keyboard.press("Enter")
        wait_past(page, before)
        wait_my_turn_or_hand_over(page)
        assert not page.locator("#summary").is_visible()
        where = page.evaluate("() => document.activeElement.tagName + ' ' + document.activeElement.className")
        assert focused(page, "#hand *, .actions *"), f"the focus is on {where}"
    finally:
        page.context.close()


def at_a_hands_end(server: Server, browser: Any) -> Any:
    """A page seated at a table whose hand is over (the game is not): its panel shows, *Next hand* focused."""
    data = find_position("all-fives", 2, lambda g: not g.in_hand and not g.finished)
    page = open_page(browser, f"{server.url}/game/{seat_table(server, data)}")
    page.wait_for_selector("#summary #next-hand")  # (a first state may come before the seat is taken)
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'next-hand'")
    assert focused(page, "#summary #next-hand")
    return page


@pytest.mark.browser
def test_after_next_hand_the_focus_is_in_the_new_hand(server: Server, browser: Any) -> None:
    page = at_a_hands_end(server, browser)
    try:
        page.keyboard.press("Enter")
        page.wait_for_selector("#summary", state="hidden")
        page.wait_for_selector("#hand .hand-tile")
        page.wait_for_timeout(300)
        assert focused(page, "#hand *, .actions *")
    finally:
        page.context.close()


def wild_either_way(game: Game) -> bool:
    return game.in_hand and game.turn == 0 and any(
        len(spot.moves) > 1 for spot in hotspots(game.layout, game.legal_moves()))


@pytest.mark.browser
def test_the_which_way_chooser_takes_the_focus_and_is_announced(server: Server, browser: Any) -> None:
    game_id = seat_table(server, find_position("pip", 3, wild_either_way))
    page = open_page(browser, f"{server.url}/game/{game_id}")
    try:
        open_the_chooser(server, page, game_id)
        page.wait_for_selector("#chooser button")
        live = page.inner_text("#live")
        assert focused(page, "#chooser button") or "Leave" in live or "which way" in live.lower(), live
    finally:
        page.context.close()


@pytest.mark.browser
def test_from_the_game_over_panel_to_a_new_game_by_keyboard(server: Server, browser: Any) -> None:
    game_id = seat_table(server, finished_game("all-fives", 2))
    page = open_page(browser, f"{server.url}/game/{game_id}")
    try:
        page.wait_for_selector("#summary-title >> text=Game over")
        page.keyboard.press("Escape")  # "Look at the table", then back: the focus comes back to the panel
        assert focused(page, "#show-summary")
        page.keyboard.press("Enter")
        assert page.locator("#summary").is_visible() and focused(page, "#summary #look-at-table")
        tab_to(page, '#summary a[href="/"]')
        page.keyboard.press("Enter")
        page.wait_for_selector("#lobby:not([hidden])")
        tab_to(page, "#create")
        page.keyboard.press("Enter")
        page.wait_for_url("**/game/*")
        page.wait_for_selector("#table-players .player.you")
        assert page.url.rsplit("/", 1)[1] != game_id
        page.wait_for_selector("#hand .hand-tile")
    finally:
        page.context.close()


@pytest.mark.browser
def test_the_game_over_panel_takes_the_focus(server: Server, browser: Any) -> None:
    game_id = seat_table(server, finished_game("all-fives", 2))
    page = open_page(browser, f"{server.url}/game/{game_id}")
    try:
        page.wait_for_selector("#summary-title >> text=Game over")
        page.wait_for_timeout(300)
        assert focused(page, "#summary [role=dialog] *")
    finally:
        page.context.close()


@pytest.mark.browser
def test_tab_stays_in_the_hands_end_panel(server: Server, browser: Any) -> None:
    page = at_a_hands_end(server, browser)
    try:
        outside = []
        for _ in range(8):
            page.keyboard.press("Tab")
            if not focused(page, "#summary *"):
                outside.append(page.evaluate("() => document.activeElement.outerHTML.slice(0, 60)"))
        assert outside == []
        assert page.get_attribute("#summary [role=dialog]", "aria-modal") == "true"
    finally:
        page.context.close()


def domino_after_my_forced_move(game: Game) -> bool:
    """Seat 0 on turn with one legal placement, after which seat 1 plays its last tile (in every way it may)."""
    if not (game.in_hand and game.turn == 0 and len(game.hands[1]) == 1):
        return False
    legal = game.legal_moves()
    if len(legal) != 1 or not legal[0].is_placement:
        return False
    game.apply(legal[0])
    try:
        replies = game.legal_moves() if game.in_hand and game.turn == 1 else []
        return bool(replies) and all(move.is_placement for move in replies)
    finally:
        game.undo()


@pytest.mark.browser
def test_the_move_that_ends_the_hand_is_announced(server: Server, browser: Any) -> None:
    game_id = seat_table(server, find_position("block", 2, domino_after_my_forced_move))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    spoken(context)
    page = open_page(browser, f"{server.url}/game/{game_id}", context)
    try:
        page.wait_for_selector("#table-players .player.you.turn")
        tab_to(page, "#hand .hand-tile.playable")
        page.keyboard.press("Enter")
        page.wait_for_selector("#summary-title")
        last = page.locator("#history li").all_inner_texts()[-2]  # the last move, before the hand's end
        assert last.startswith("Computer 1 played")
        assert any(last in text for text in said(page)), said(page)
    finally:
        context.close()


@pytest.mark.browser
def test_a_screen_reader_can_read_the_tiles_on_the_table(server: Server, browser: Any) -> None:
    page, game_id, _, _ = gesture_table(server, browser)
    try:
        down = page.locator("#table g.tile").evaluate_all("(ts) => ts.map((t) => t.dataset.tile)")
        assert len(down) >= 2
        tree = page.locator("#table").aria_snapshot()  # (the log names the tiles played, not where they lie)
        missing = [tile for tile in down if not either_way(tile).search(tree)]
        assert missing == [], tree
        ends = server_game(server, game_id).layout.open_ends()  # and the numbers its open ends show
        said_ends = ", ".join("wild" if half_text(face.value) == "W" else half_text(face.value) for face in ends)
        assert page.get_attribute("#table", "aria-label").endswith(f"; open ends {said_ends}")
    finally:
        page.context.close()


@pytest.mark.browser
def test_what_a_screen_reader_reads_of_the_hand_players_and_turn(server: Server, browser: Any) -> None:
    page, game_id, single, _ = gesture_table(server, browser)
    try:
        game = server_game(server, game_id)
        hand = page.get_by_role("group", name="your hand")
        for tile in game.hands[0]:
            playable = page.locator(f'#hand .hand-tile.playable[data-tile="{tile}"]').count() == 1
            name = f"tile {tile}" if playable else f"tile {tile} (does not fit now)"
            assert hand.get_by_role("button", name=name, exact=True).count() == 1  # not by colour alone
        me = page.locator("#table-players .player.you")
        assert me.get_attribute("aria-label").endswith(", on turn") and "▶" in me.inner_text()
        assert page.get_attribute("#status", "role") == "status"
        assert page.get_attribute("#live", "aria-live") == "polite"
        # a tile selected from the keyboard says where it goes and how to play it
        tab_to(page, f'#hand .hand-tile[data-tile="{single}"]')
        assert page.get_attribute(f'#hand .hand-tile[data-tile="{single}"]', "aria-pressed") == "true"
        assert page.inner_text("#live").endswith("(1 of 1); Enter plays")
        lit = re.compile(r"^play on the \d+ end of \d+-\d+ \(tile \d+\)$")  # the tile it joins, by name
        assert page.get_by_role("button", name=lit).count() == 1
        page.keyboard.press("Escape")
        assert page.locator("#hand .hand-tile.selected").count() == 0 and page.locator("#table .hotspot").count() == 0
    finally:
        page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), [(640, 400), (683, 384)], ids=["1280x800-at-200%", "1366x768-at-200%"])
def test_at_200_percent_zoom_the_hand_turn_and_buttons_are_on_screen(server: Server, browser: Any, width: int,
                                                                      height: int) -> None:
    data = find_position("pip", 4, lambda g: g.in_hand and g.turn == 0 and len(g.layout) >= 5)
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=2)
    page = open_page(browser, f"{server.url}/game/{seat_table(server, data)}", context)
    try:
        page.wait_for_selector("#table-players .player.you.turn")
        found = page.evaluate("""() => {
          const box = (s) => [...document.querySelectorAll(s)].map((e) => e.getBoundingClientRect())
            .map((b) => [b.left, b.top, b.right, b.bottom]);
          return { width: innerWidth, height: innerHeight, scroll: document.documentElement.scrollWidth,
                   boxes: [...box('#hand .hand-tile'), ...box('#status'), ...box('.actions button:not([hidden])'),
                           ...box('#table-players .player')] };
        }""")
        assert found["scroll"] <= found["width"]  # nothing to scroll sideways
        for left, top, right, bottom in found["boxes"]:
            assert left >= 0 and right <= found["width"] + 0.5 and top >= 0 and bottom <= found["height"] + 0.5
    finally:
        context.close()


# ---------------------------------------------------------------- the terminal, plain
class PlainTerminal(Terminal):
    """``boneyard`` on a pseudo-terminal whose TERM and environment are the test's own (Terminal says xterm)."""

    def __init__(self, *args: str, env: dict[str, str], columns: int = 60, rows: int = 30) -> None:
        self.leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        full = {**os.environ, "COLUMNS": str(columns), "LINES": str(rows), **env}
        if "NO_COLOR" not in env:
            full.pop("NO_COLOR", None)
        self.process = subprocess.Popen([sys.executable, "-m", "boneyard", *args], stdin=follower, stdout=follower,
                                        stderr=follower, preexec_fn=_controlling_terminal, env=full)
        os.close(follower)
        self.raw = b""
        self.seen = 0


COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


@pytest.mark.parametrize("env", [{"TERM": "dumb"}, {"TERM": "xterm-256color", "NO_COLOR": "1"}],
                         ids=["TERM=dumb", "NO_COLOR"])
def test_a_whole_game_on_a_60_column_plain_terminal(tmp_path: Path, env: dict[str, str]) -> None:
    save = tmp_path / "game.boneyard.json"
    terminal = PlainTerminal("play", "all-fives", "--seed", "7", "--save", str(save), env=env, columns=60)
    answers = 0
    started = time.monotonic()
    while terminal.wait_for(r"Your move: |Which\? |Another game with the same players and rules\? \(y/N\) ", 30):
        if terminal.text().endswith("(y/N) "):  # the game is over
            terminal.send("n\n")
            break
        terminal.send("1\n")
        answers += 1
        assert answers < 1000 and time.monotonic() - started < 120
    assert terminal.finish() == 0
    raw = terminal.raw.decode("utf-8")
    if env["TERM"] == "dumb":
        assert "\x1b" not in raw  # a dumb terminal gets no escape sequence at all
    assert not COLOUR.search(raw)  # NO_COLOR (and dumb): no colour; bold is allowed (no-color.org)
    text = terminal.text()
    assert "Game over — " in text and f"Record: {save}" in text.replace("\n", "")
    assert max(len(line) for line in text.splitlines()) <= 60
    assert boneyard.record.replay(boneyard.record.load(save)).finished


def test_a_whole_pip_game_piped_at_60_columns_refuses_bad_input_in_words() -> None:
    bad = ["xyz", "99", "7-7", "6-6@99", "draw 5-0"]
    run = cli("play", "pip", "--seed", "3", stdin="\n".join([*bad, *["1"] * 3000]) + "\n", columns=60)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "\x1b" not in out and "Traceback" not in out + run.stderr
    # (piped, what is typed is not echoed: the prompt and the answer to it share a line)
    assert max(len(line.replace("Your move: ", "")) for line in out.splitlines()) <= 60
    flat = " ".join(out.split())
    assert "'xyz' is not a move: expected a tile like 6-4" in flat
    assert re.search(r"Choose 1 to \d+\.|Type 1: it is the only move\.", flat)
    assert "Not allowed: 7-7: 7-7 is not in your hand (" in flat  # (double-nine: 7-7 is a tile of the set)
    assert "The stock is face down: type draw (without a tile) to draw." in flat
    assert "Game over — " in flat


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_a_terminal_that_is_not_utf8_still_plays(encoding: str) -> None:
    run = subprocess.run([sys.executable, "-m", "boneyard", "play", "all-fives", "--seed", "7"], input="1\n1\nq\n",
                         capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=60,
                         env={**os.environ, "PYTHONIOENCODING": encoding, "COLUMNS": "80"})
    assert "Traceback" not in run.stdout + run.stderr and "UnicodeEncodeError" not in run.stdout + run.stderr
    assert run.returncode == 0
    assert "Your hand:" in run.stdout


def test_replay_on_an_ascii_terminal_does_not_crash(tmp_path: Path) -> None:
    game = boneyard.new_game("all-fives", players=2, seed=7)
    while game.in_hand:
        game.apply(game.legal_moves()[0])
    path = tmp_path / "g.boneyard.json"
    boneyard.record.save(game, path)
    run = subprocess.run([sys.executable, "-m", "boneyard", "replay", str(path)], capture_output=True, text=True,
                         encoding="ascii", errors="replace", timeout=60,
                         env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert run.returncode == 0 and "Traceback" not in run.stderr


@pytest.mark.parametrize("width", [80, 60])
def test_the_legend_keeps_its_columns_in_a_narrow_window(width: int) -> None:
    game = first_position("all-fives", 2, lambda g: True)
    session, console = session_for(game, ["?"], None, width=width)
    session.run()
    text = console.export_text()
    legend = text[text.index("[4|2]₃   tile 3"):]
    keys = [line[:9] for line in LEGEND.splitlines()]
    lines = [line for line in legend.splitlines()[:40] if line.strip()]
    shown = lines[:next(i for i, line in enumerate(lines) if line.startswith("(+10)")) + 1]
    for line in shown:
        assert any(line.startswith(key) for key in keys if key.strip()) or line.startswith(" " * 9), line


def test_a_wrong_answer_to_which_says_what_to_type() -> None:
    game = first_position("block", 2, two_places)
    tile, moves = ambiguous_choices(game)
    session, console = session_for(game, [str(tile), "c", "q"], None, width=60)
    session.run()
    said_text = " ".join(console.export_text().split())
    refusal = said_text[said_text.index("b) "):]
    letters = "a or b" if len(moves) == 2 else "a to " + "abcdefgh"[len(moves) - 1]
    assert "'c'" in refusal or letters in refusal


def test_the_which_prompt_takes_a_letter_or_the_move_itself() -> None:
    game = first_position("block", 2, two_places)
    tile, moves = ambiguous_choices(game)
    for answer, chosen in (("b", moves[1]), (str(moves[0]).upper(), moves[0])):
        copy = boneyard.record.replay(boneyard.record.to_record(game))
        session, console = session_for(copy, [str(tile), answer, "q"], None, width=60)
        session.run()
        mine = [event.move for event in copy.hand.events if event.seat == 0]
        assert mine and mine[-1] == chosen and mine[-1].kind == Kind.PLAY
        assert f"{tile} fits {len(moves)} ways: a) " in " ".join(console.export_text().split())


def test_plain_prints_the_table_without_its_box_for_a_screen_reader() -> None:
    game = first_position("all-fives", 2, lambda g: len(g.layout) >= 2 and g.turn == 0)
    session, console = session_for(game, ["q"], None, width=60)
    session.plain = True
    session.run()
    text = console.export_text()
    assert not set("╭╮╰╯│─") & set(text)  # no border to read on every line
    lines = text.splitlines()
    assert game.rules.title in lines and any(line.startswith("Your hand: ") for line in lines)
    boxed, boxed_console = session_for(game, ["q"], None, width=60)
    boxed.run()
    assert "╭" in boxed_console.export_text()  # (the box is the default)


def test_plain_is_refused_with_web() -> None:
    run = subprocess.run([sys.executable, "-m", "boneyard", "play", "all-fives", "--web", "--plain"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "--plain is for the terminal table" in run.stderr
