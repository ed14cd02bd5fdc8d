"""The table fits the screen (marker ``browser``): for every variant and player count, at
1280×800, 1366×768 and a 390×844 phone, your hand, every score and the whose-turn line are on
screen without scrolling; the phone lobby and the hand summary do not overflow; the phone replay shows the table and
every hand, their tiles big enough to read.

One page per variant and player count, resized through the three viewports.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import boneyard
from boneyard import record
from boneyard.rules.base import VARIANTS
from boneyard.state import Game
from tests.test_browser import Server, browser, open_page, server, version, wait_my_turn_or_hand_over, wait_past

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # the fixtures, shared with tests.test_browser

VIEWPORTS = [(1280, 800), (1366, 768), (390, 844)]
CASES = [(variant, players) for variant, cls in sorted(VARIANTS.items())
         for players in range(cls(cls.min_players).player_range()[0], cls(cls.min_players).player_range()[1] + 1)]

#: Where each thing that must be seen is, against the viewport, with nothing scrolled.
MEASURE = """() => {
  const box = (node) => { const r = node.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }; };
  const all = (selector) => [...document.querySelectorAll(selector)].map(box);
  return {
    width: innerWidth, height: innerHeight, scrollX, scrollY,
    scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth,
    hand: all('#hand .hand-tile'), scores: all('#table-players .score'), status: all('#status'),
    turn: all('#table-players .player.turn'), felt: all('.table-screen .felt-wrap'),
    statusText: document.querySelector('#status').textContent,
  };
}"""


def position(variant: str, players: int, seed: int = 1) -> dict[str, Any]:
    """A record stopped early in hand 1 with "You" (seat 0) on turn and a few tiles down."""
    names = ["You"] + [f"Computer {i}" for i in range(1, players)]
    rng = random.Random(seed)
    game = boneyard.new_game(variant, players=players, seed=seed, names=names)
    while game.in_hand and not (game.turn == 0 and len(game.layout) >= players + 1):
        legal = game.legal_moves()
        game.apply(rng.choice([move for move in legal if move.is_placement] or legal))
    assert game.in_hand and game.turn == 0
    return record.to_record(game)


def find_position(variant: str, players: int, wanted: Callable[[Game], bool], tries: int = 300) -> dict[str, Any]:
    """The record of the first random game (placements preferred) that reaches a position where
    ``wanted`` holds, stopped there."""
    names = ["You"] + [f"Computer {i}" for i in range(1, players)]
    for seed in range(tries):
        game = boneyard.new_game(variant, players=players, seed=seed, names=names)
        rng = random.Random(seed)
        while True:
            if game.log and wanted(game):
                return record.to_record(game)
            if not game.in_hand:
                break
            legal = game.legal_moves()
            game.apply(rng.choice([move for move in legal if move.is_placement] or legal))
    raise AssertionError(f"no {variant} position of the kind wanted in {tries} games")


def seat_table(server: Server, data: dict[str, Any]) -> str:
    seats = [{"kind": "human", "name": "You"}] + [{"kind": "computer", "level": "random", "name": name}
                                                   for name in data["players"][1:]]
    return str(server.post("/api/records", {"record": data, "seats": seats})["id"])


def assert_on_screen(found: dict[str, Any], what: str, where: str) -> None:
    width, height = found["width"], found["height"]
    boxes = found[what]
    assert boxes, f"{where}: no {what} on the page"
    for box in boxes:
        assert box["width"] > 0 and box["height"] > 0, f"{where}: a {what} box is empty"
        assert box["left"] >= -0.5 and box["right"] <= width + 0.5, f"{where}: {what} {box} is off the {width} px"
        assert box["top"] >= -0.5 and box["bottom"] <= height + 0.5, f"{where}: {what} {box} is below {height} px"


#: Long hands: "You" on turn holding this many tiles or more after many draws.
BIG_HANDS = [("draw", 2, 16), ("pip", 2, 30)]


def big_hand(variant: str, players: int, size: int) -> dict[str, Any]:
    return find_position(variant, players, lambda g: g.in_hand and g.turn == 0 and len(g.hands[0]) >= size)


@pytest.mark.parametrize(("variant", "players", "size"), [(v, n, 0) for v, n in CASES] + BIG_HANDS,
                         ids=[f"{v}-{n}" for v, n in CASES] + [f"{v}-{n}-hand-of-{k}" for v, n, k in BIG_HANDS])
def test_hand_scores_and_turn_fit_every_screen(server: Server, browser: Any, variant: str, players: int,
                                               size: int) -> None:
    game_id = seat_table(server, big_hand(variant, players, size) if size else position(variant, players))
    page = open_page(browser, f"{server.url}/game/{game_id}")
    page.wait_for_selector("#table-players .player.you.turn")
    wait_my_turn_or_hand_over(page)
    expected = len(server.app.state.rooms.get(game_id).game.hands[0])
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)
        found = page.evaluate(MEASURE)
        where = f"{variant}, {players} players, {width}×{height}"
        assert found["scrollX"] == 0 and found["scrollY"] == 0
        assert found["scrollWidth"] <= found["clientWidth"], f"{where}: the page scrolls sideways"
        assert len(found["hand"]) == expected, where
        assert len(found["scores"]) == players, where
        for what in ("hand", "scores", "status", "turn"):
            assert_on_screen(found, what, where)
        assert found["statusText"].startswith("Your turn"), where
        assert found["felt"][0]["height"] >= 120, f"{where}: the table is squeezed to {found['felt'][0]['height']} px"
    page.context.close()


def test_on_a_phone_a_crowded_tables_lit_ends_are_big_enough_to_touch(server: Server, browser: Any) -> None:
    """A long Draw line on a 390-pixel phone draws its ends about 12 × 24 px: each reaches 24 px at least each way
    (unseen, around the lit end), and a tap beside the drawn end plays there."""
    data = find_position("draw", 2, lambda g: g.in_hand and g.turn == 0 and len(g.layout) >= 20
                         and any(move.is_placement for move in g.legal_moves()))
    game_id = seat_table(server, data)
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    page = open_page(browser, f"{server.url}/game/{game_id}", phone)
    try:
        page.wait_for_selector("#hand .hand-tile.playable")
        page.click("#hand .hand-tile.playable")
        page.wait_for_selector("#table .hotspot")
        spots = page.evaluate("""() => [...document.querySelectorAll('#table .hotspot')].map((spot) => {
          const box = spot.getBoundingClientRect();
          const reach = [...document.querySelectorAll('#table .hotspot-reach')]
            .find((r) => r.dataset.moves === spot.dataset.moves);
          const far = reach ? reach.getBoundingClientRect() : box;
          // 4 px past the drawn end's side, where its reach is wider than that
          const past = (drawn, reached) => (drawn + 8 <= reached ? drawn / 2 + 4 : 0);
          return { moves: spot.dataset.moves, drawn: [box.width, box.height], reach: [far.width, far.height],
                   beside: [box.left + box.width / 2 + past(box.width, far.width),
                            box.top + box.height / 2 + past(box.height, far.height)] };
        })""")
        assert min(min(spot["drawn"]) for spot in spots) < 24, "the table was not crowded: nothing to check"
        assert all(min(spot["reach"]) >= 23.5 for spot in spots), spots
        before = version(page)
        game = server.app.state.rooms.get(game_id).game
        made = len(game.log[-1].events)
        small = next(spot for spot in spots if min(spot["drawn"]) < 24)
        hit = page.evaluate("([x, y]) => { const n = document.elementFromPoint(x, y); return n && n.dataset.moves; }",
                            small["beside"])
        assert hit == small["moves"], f"a tap 4 px beside the drawn end lands on {hit!r}"
        page.mouse.click(*small["beside"])
        wait_past(page, before)
        mine = game.log[-1].events[made]
        assert mine.seat == 0 and str(mine.move) in small["moves"].split()
    finally:
        page.context.close()


def test_phone_lobby_does_not_overflow(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = open_page(browser, server.url + "/", context)
    page.select_option("#variant", "pip")
    page.fill("#players", "7")
    page.dispatch_event("#players", "change")
    page.wait_for_function("() => document.querySelectorAll('#seats .seat-row').length === 7")
    page.click("#new-game summary")  # the rule options open
    server.post("/api/games", {"variant": "pip", "seats": [{"kind": "computer", "level": "random"}] * 7})
    page.reload()
    page.wait_for_selector("#games table")
    widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"the phone lobby is {widths[0]} px wide in a {widths[1]} px screen"
    overflowing = page.evaluate("""() => [...document.querySelectorAll('#lobby *')]
      .filter((n) => n.getBoundingClientRect().right > innerWidth + 0.5)
      .map((n) => n.id || n.className || n.tagName)""")
    assert overflowing == []
    context.close()


#: The shown choices of a page's select boxes whose text is wider than the box (measured in the box's own font,
#: less its padding and the arrow's 16 px).
CUT_SELECTS = """() => {
  const pen = document.createElement('canvas').getContext('2d');
  const cut = [];
  for (const box of document.querySelectorAll('select')) {
    if (!box.offsetParent) continue;
    const style = getComputedStyle(box);
    pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = box.options[box.selectedIndex]?.text || '';
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    if (pen.measureText(text).width > room) cut.push(`${box.id || box.className}: ${text}`);
  }
  return cut;
}"""


@pytest.mark.parametrize("variant", ["block", "pip"])
def test_on_a_phone_no_choice_of_the_lobby_is_cut(server: Server, browser: Any, variant: str) -> None:
    """The variant, the seats' choices and every rule option's value show whole at 390 px (PIP's long name and
    Block's *call_highest_double* were cut): the list names a variant short, the rest of its name said below."""
    page = open_page(browser, server.url + "/", browser.new_context(viewport={"width": 390, "height": 844}))
    try:
        page.select_option("#variant", variant)
        page.click("#new-game summary")
        page.select_option("#seats .seat-row:nth-child(2) .seat-kind", "computer")
        assert page.evaluate(CUT_SELECTS) == []
        said = page.inner_text("#variant-help") if page.locator("#variant-help").is_visible() else ""
        title = next(v["title"] for v in server.get("/api/variants") if v["name"] == variant)
        assert title == (f"{page.inner_text('#variant option:checked')} ({said.split(': ', 1)[1]})" if said
                         else page.inner_text("#variant option:checked"))
    finally:
        page.context.close()


def finished_hand(players: int) -> dict[str, Any]:
    """A 7-player PIP record whose first hand is over (hands full of tiles to show)."""
    names = ["You"] + [f"Computer {i}" for i in range(1, players)]
    game = boneyard.new_game("pip", players=players, seed=4, names=names)
    rng = random.Random(4)
    while game.in_hand:
        legal = game.legal_moves()
        game.apply(rng.choice([move for move in legal if move.is_placement] or legal))
    return record.to_record(game)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_hand_summary_fits(server: Server, browser: Any, width: int, height: int) -> None:
    game_id = seat_table(server, finished_hand(7))
    context = browser.new_context(viewport={"width": width, "height": height})
    page = open_page(browser, f"{server.url}/game/{game_id}", context)
    page.wait_for_selector("#summary .panel")
    page.wait_for_selector("#next-hand")
    found = page.evaluate("""() => {
      const panel = document.querySelector('#summary .panel').getBoundingClientRect();
      const next = document.querySelector('#next-hand').getBoundingClientRect();
      const body = document.querySelector('#summary .summary-body');
      return { panel: [panel.left, panel.top, panel.right, panel.bottom],
               next: [next.left, next.top, next.right, next.bottom],
               rows: document.querySelectorAll('#summary tbody tr').length,
               sideways: body.scrollWidth - body.clientWidth, width: innerWidth, height: innerHeight };
    }""")
    for box in (found["panel"], found["next"]):
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height, found
    assert found["rows"] == 7
    assert found["sideways"] <= 0, f"the summary table is {found['sideways']} px too wide"
    context.close()


def finished_game(variant: str, players: int) -> dict[str, Any]:
    """A finished game's record, played at random."""
    game = boneyard.new_game(variant, players=players, seed=3, names=[f"Player {i + 1}" for i in range(players)])
    rng = random.Random(3)
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
        game.apply(rng.choice(game.legal_moves()))
    return record.to_record(game, seed=3)


def test_the_phone_replay_shows_the_table_and_every_hand_on_one_screen(server: Server, browser: Any) -> None:
    game_id = seat_table(server, finished_game("block", 4))
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = open_page(browser, f"{server.url}/replay/{game_id}", context)
    page.wait_for_selector("#replay-hands li")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    found = page.evaluate("""() => ({
      rows: [...document.querySelectorAll('#replay-hands li')].map((n) => n.getBoundingClientRect().bottom),
      tiles: [...document.querySelectorAll('#replay-hands svg')].map((n) => n.getBoundingClientRect().width),
      table: document.querySelector('#replay-table').getBoundingClientRect().height,
      sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      height: innerHeight })""")
    assert len(found["rows"]) == 4 and max(found["rows"]) <= found["height"], found
    assert found["tiles"] and min(found["tiles"]) >= 18, f"the hands' tiles are {min(found['tiles'])} px wide"
    assert found["table"] >= 300 and found["sideways"] <= 0, found
    context.close()
