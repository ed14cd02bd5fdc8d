"""Audit 20b: the lobby, the replay viewer, the game review and the statistics, with the keyboard alone and with a
screen reader (the game table itself is tests/test_audit_access20.py).

Everything is driven by keys (Tab, Enter, Space, the arrows); what a screen reader gets is read from the page:
Chromium's accessibility tree (names and descriptions, through the DevTools protocol), the live regions (every change
of an ``aria-live``/``role=status``/``role=alert`` region is recorded from before the page's script runs) and where
the focus is. Screen sizes: a 390x844 phone, and 200% zoom of 1280x800 (640x400 CSS pixels at scale 2).

A review is asked of the server at 2 deals a decision (the page's request is rewritten on its way), so it takes about
a second; one review is shared by the review tests (``reviewed``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    from tests.test_audit_access20 import either_way, focused, tab_to
    from tests.test_browser import Server, browser, open_page, server
    from tests.test_browser_fit import finished_game, seat_table
except pytest.skip.Exception:  # no Chromium here
    pytest.skip("/usr/bin/chromium is not installed", allow_module_level=True)

__all__ = ["browser", "server"]  # the fixtures, shared with tests.test_browser

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ZOOM_200 = {"width": 640, "height": 400}  # 1280x800 at 200%


# ---------------------------------------------------------------- what a screen reader gets
def accessible(page: Any, selector: str) -> tuple[str, str, str]:
    """(role, name, description) of the first element matching ``selector`` in Chromium's accessibility tree."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        found = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"][0]
    finally:
        cdp.detach()
    return tuple(str((found.get(key) or {}).get("value") or "") for key in ("role", "name", "description"))  # type: ignore[return-value]


def listening(context: Any) -> None:
    """Record every change of a live region (aria-live, role=status, role=alert) as [its id, its text]."""
    context.add_init_script("""document.addEventListener('DOMContentLoaded', () => {
      window.__heard = [];
      new MutationObserver((changes) => {
        const regions = new Set();
        for (const change of changes) {
          const at = change.target.nodeType === 1 ? change.target : change.target.parentElement;
          const region = at && at.closest('[aria-live], [role=status], [role=alert]');
          if (region) regions.add(region);
        }
        for (const region of regions) window.__heard.push([region.id, region.textContent]);
      }).observe(document.body, { childList: true, characterData: true, subtree: true });
    });""")


def heard(page: Any) -> list[list[str]]:
    return list(page.evaluate("() => window.__heard || []"))


def forget(page: Any) -> None:
    page.evaluate("() => { window.__heard = []; }")


def active(page: Any) -> str:
    return str(page.evaluate("() => { const a = document.activeElement;"
                             " return a ? a.tagName + '#' + a.id + '.' + a.className : 'none'; }"))


def off_screen(page: Any, root: str, ignore: str = "none") -> list[str]:
    """Elements under ``root`` (but not in ``ignore``) that reach past the screen's sides, and text boxes whose text
    is cut off."""
    return list(page.evaluate("""([root, ignore]) => {
      const out = [];
      for (const n of document.querySelectorAll(root + ' *')) {
        const b = n.getBoundingClientRect();
        if ((!b.width && !b.height) || n.closest(ignore)) continue;
        const name = n.id || (n.className && n.className.baseVal !== undefined ? n.className.baseVal : n.className)
          || n.tagName;
        if (b.left < -0.5 || b.right > innerWidth + 0.5) out.push(`${name} spans ${b.left}-${b.right}`);
        const style = getComputedStyle(n);
        if ((style.overflowX === 'hidden' || style.textOverflow === 'ellipsis') && n.scrollWidth > n.clientWidth + 1)
          out.push(`${name} cuts its text: ${n.textContent.slice(0, 40)}`);
      }
      if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
      return out;
    }""", [root, ignore]))


# ---------------------------------------------------------------- the lobby
def lobby(browser: Any, server: Server, viewport: dict[str, int] | None = None, scale: float = 1) -> Any:
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, device_scale_factor=scale)
    listening(context)
    page = open_page(browser, server.url + "/", context)
    page.wait_for_selector("#seats .seat-row")
    return page


def test_every_control_of_the_lobby_is_reached_by_tab_and_named(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    try:
        page.click("#new-game summary")  # the rule options open (then reached by Tab too)
        page.focus("header .brand")  # from the top of the page
        reached = []
        for _ in range(60):
            page.keyboard.press("Tab")
            reached.append(page.evaluate("() => document.activeElement.id || document.activeElement.className"))
            if focused(page, "#show-stats"):
                break
        for wanted in ("variant", "players", "seat-name", "seat-kind", "seat-level", "opt-first_lead", "create",
                       "record-file", "load-record", "view-record", "show-stats"):
            assert wanted in reached, (wanted, reached)
        unnamed = []
        for selector in ("#variant", "#players", "#seats .seat-name", "#seats .seat-kind",
                         "#seats .seat-row:nth-child(2) .seat-level", "#opt-first_lead", "#opt-set", "#create",
                         "#record-file", "#load-record", "#show-stats"):
            role, name, _ = accessible(page, selector)
            if not name.strip():
                unnamed.append(f"{selector} ({role})")
        assert unnamed == []
        assert accessible(page, "#seats .seat-row:nth-child(2) .seat-level")[1] == "seat 2 level"
    finally:
        page.context.close()


def test_a_pass_and_play_game_is_made_with_the_keyboard_alone(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    try:
        tab_to(page, "#variant")
        page.keyboard.press("ArrowDown")  # Block → All Fives
        assert page.input_value("#variant") == "all-fives"
        tab_to(page, "#seats .seat-row:nth-child(1) .seat-name")
        page.keyboard.type("Ann")
        tab_to(page, "#seats .seat-row:nth-child(2) .seat-name")
        page.keyboard.type("Bob")
        tab_to(page, "#seats .seat-row:nth-child(2) .seat-kind")
        page.keyboard.press("ArrowUp")  # computer → human: the choice of how two people play shows
        assert page.locator("#invite-row").is_visible()
        tab_to(page, "#same-screen")
        page.keyboard.press("Space")
        assert page.locator("#invite-only").is_hidden()  # one screen needs no invitation
        tab_to(page, "#create")
        page.keyboard.press("Enter")
        page.wait_for_url("**/game/*")
        game = server.get(f"/api/games/{page.url.rsplit('/', 1)[1]}")
        assert game["variant"] == "all-fives" and game["hot_seat"] and game["invite_only"]
        assert [p["name"] for p in game["players"]] == ["Ann", "Bob"]
    finally:
        page.context.close()


def test_a_refused_game_is_said_in_words_as_an_alert(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    try:
        page.fill("#seats .seat-row:nth-child(1) .seat-name", "Ann")
        page.fill("#seats .seat-row:nth-child(2) .seat-name", "ann")
        tab_to(page, "#create")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('#create-error').textContent")
        assert page.get_attribute("#create-error", "role") == "alert"
        assert page.inner_text("#create-error") == ("seat 2: the name 'ann' is already seat 1's; give each player "
                                                    "a name of their own")
        assert ["create-error", page.inner_text("#create-error")] in heard(page)
        assert "/game/" not in page.url
    finally:
        page.context.close()


def test_after_create_the_focus_is_on_the_new_table(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    try:
        tab_to(page, "#create")
        page.keyboard.press("Enter")
        page.wait_for_selector("#hand .hand-tile")
        page.wait_for_timeout(300)
        assert focused(page, "#table-view *"), f"the focus is on {active(page)}"
    finally:
        page.context.close()


def test_a_replay_opened_from_the_games_list_has_the_focus_and_a_title(server: Server, browser: Any) -> None:
    seat_table(server, finished_game("block", 2))
    page = lobby(browser, server)
    try:
        page.wait_for_selector("#games a.button")
        title = page.title()
        tab_to(page, '#games a.button[href^="/replay/"]')
        page.keyboard.press("Enter")
        page.wait_for_selector("#replay-hands li")
        page.wait_for_timeout(200)
        assert focused(page, "#replay-view, #replay-view *"), f"the focus is on {active(page)}"
        assert page.title() != title and "Block" in page.title()
    finally:
        page.context.close()


def test_each_rule_option_reads_its_help_and_default(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    try:
        page.select_option("#variant", "all-fives")
        page.click("#new-game summary")
        ids = page.locator("#options [data-option]").evaluate_all("(inputs) => inputs.map((i) => i.id)")
        assert "opt-target" in ids
        silent = []
        for option in ids:
            _, name, description = accessible(page, f"#{option}")
            if "default" not in description:
                silent.append(f"{name}: {description!r}")
        assert silent == []
    finally:
        page.context.close()


def test_a_refused_option_is_shown_and_marked_beside_its_error(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    try:
        page.select_option("#variant", "all-fives")
        page.click("#new-game summary")
        page.fill("#opt-target", "abc")
        page.click("#new-game summary")  # the options are put away again
        tab_to(page, "#create")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('#create-error').textContent")
        assert page.inner_text("#create-error") == "option 'target': 'abc' is not a whole number"
        assert page.locator("#opt-target").is_visible()
        assert page.get_attribute("#opt-target", "aria-invalid") == "true"
    finally:
        page.context.close()


def test_an_error_put_right_does_not_stay_in_the_lobby(server: Server, browser: Any, tmp_path: Path) -> None:
    page = lobby(browser, server)
    try:
        page.fill("#seats .seat-row:nth-child(1) .seat-name", "Ann")
        page.fill("#seats .seat-row:nth-child(2) .seat-name", "Ann")
        page.click("#create")
        page.wait_for_function("() => document.querySelector('#create-error').textContent")
        page.fill("#seats .seat-row:nth-child(2) .seat-name", "Bob")
        page.click("#create")
        page.wait_for_url("**/game/*")
        page.go_back()
        page.wait_for_selector("#lobby:not([hidden])")
        assert page.inner_text("#create-error") == ""
        page.click("#view-record")  # no file chosen
        assert page.inner_text("#load-error") == "Choose a .boneyard.json file first."
        good = tmp_path / "good.boneyard.json"
        good.write_text(json.dumps(finished_game("block", 2)))
        page.set_input_files("#record-file", str(good))
        page.click("#view-record")
        page.wait_for_selector("#replay-hands li")
        page.go_back()
        page.wait_for_selector("#lobby:not([hidden])")
        assert page.inner_text("#load-error") == ""
    finally:
        page.context.close()


def test_a_player_count_out_of_range_is_refused_in_words(server: Server, browser: Any) -> None:
    page = lobby(browser, server)
    try:
        tab_to(page, "#players")
        page.keyboard.press("Control+a")
        page.keyboard.type("9")  # Block takes 2 to 4
        page.keyboard.press("Enter")
        page.wait_for_timeout(800)
        made = page.url
        if "/game/" in made:
            players = len(server.get(f"/api/games/{made.rsplit('/', 1)[1]}")["players"])
            raise AssertionError(f"asked for 9 players, a game of {players} was made")
        said = " ".join(text for _, text in heard(page)) + page.inner_text("#new-game")
        assert re.search(r"2 to 4|2-4|2–4", said)
    finally:
        page.context.close()


def test_the_links_of_the_games_list_say_which_game(server: Server, browser: Any) -> None:
    seat_table(server, finished_game("block", 2))
    seat_table(server, finished_game("all-fives", 2))
    page = lobby(browser, server)
    try:
        page.wait_for_selector("#games tbody tr:nth-child(2)")
        names = [accessible(page, f"#games tbody tr:nth-child({row}) a[href^='/replay/']")[1] for row in (1, 2)]
        assert names[0] != names[1], names
        assert page.locator("#games thead th").last.inner_text().strip()
    finally:
        page.context.close()


# ---------------------------------------------------------------- your statistics
def sat_at_a_finished_table(server: Server, browser: Any, viewport: dict[str, int]) -> Any:
    """A page of a browser that sat at a finished table, back in the lobby."""
    game_id = seat_table(server, finished_game("block", 2))
    context = browser.new_context(viewport=viewport)
    listening(context)
    page = open_page(browser, f"{server.url}/game/{game_id}", context)
    page.wait_for_selector("#summary-title >> text=Game over")
    # the seat is claimed after the first state arrives: leaving before the claim is answered sits at no table
    page.wait_for_function(f"localStorage.getItem('boneyard-token-{game_id}') !== null")
    tab_to(page, '#summary a[href="/"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#lobby:not([hidden])")
    return page


def test_my_statistics_by_keyboard_are_announced_as_a_table_with_headers(server: Server, browser: Any) -> None:
    page = sat_at_a_finished_table(server, browser, {"width": 1280, "height": 900})
    try:
        tab_to(page, "#show-stats")
        page.keyboard.press("Enter")
        page.wait_for_selector("#stats table")
        assert page.get_attribute("#stats", "aria-live") == "polite"
        tree = page.locator("#stats").aria_snapshot()
        for header in ("Variant", "Against", "Games", "Won", "Win rate (95%)", "Hands won", "Unfinished"):
            assert f'columnheader "{header}"' in tree
        assert 'cell "block"' in tree and re.search(r'cell "\d+ of \d+"', tree)
        assert any(where == "stats" and "block" in text for where, text in heard(page))
        assert focused(page, "#show-stats")  # the focus stays where it was
    finally:
        page.context.close()


def test_on_a_phone_the_statistics_keep_every_column(server: Server, browser: Any) -> None:
    page = sat_at_a_finished_table(server, browser, PHONE)
    try:
        tab_to(page, "#show-stats")
        page.keyboard.press("Enter")
        page.wait_for_selector("#stats table, #stats p")
        assert page.locator("#stats table").count() == 2, page.inner_text("#stats")
        assert off_screen(page, "#stats") == []
        tree = page.locator("#stats").aria_snapshot()
        assert 'columnheader "Unfinished"' in tree
    finally:
        page.context.close()


@pytest.mark.parametrize(("viewport", "scale"), [(PHONE, 1), (ZOOM_200, 2)], ids=["390x844", "1280x800-at-200%"])
def test_the_lobby_fits_a_phone_and_200_percent_zoom(server: Server, browser: Any, viewport: dict[str, int],
                                                     scale: float) -> None:
    seat_table(server, finished_game("pip", 4))
    page = lobby(browser, server, viewport, scale)
    try:
        page.select_option("#variant", "pip")
        page.click("#new-game summary")
        page.select_option("#seats .seat-row:nth-child(2) .seat-kind", "human")  # the invitation's choice shows
        page.wait_for_selector("#games table")
        assert off_screen(page, "#lobby") == []
        tab_to(page, "#create")  # the focused button is scrolled into view and drawn with its outline
        box = page.locator("#create").bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]
    finally:
        page.context.close()


# ---------------------------------------------------------------- the replay viewer
def replay_page(server: Server, browser: Any, viewport: dict[str, int] | None = None, scale: float = 1) -> Any:
    game_id = seat_table(server, finished_game("all-fives", 2))
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, device_scale_factor=scale)
    listening(context)
    page = open_page(browser, f"{server.url}/replay/{game_id}", context)
    page.wait_for_selector("#replay-hands li")
    return page


def test_the_replay_steps_by_keyboard_and_each_move_is_said(server: Server, browser: Any) -> None:
    page = replay_page(server, browser)
    try:
        assert page.get_attribute("#replay-event", "role") == "status"
        tab_to(page, "#replay-next")
        assert accessible(page, "#replay-next")[1] == "next move"
        forget(page)
        page.keyboard.press("Enter")
        assert page.inner_text("#replay-position") == "move 1 of 39"
        assert heard(page)[-1] == ["replay-event", "Player 2 led 6-6: count 12"]
        page.keyboard.press("ArrowRight")  # the arrows step from a step button too
        assert heard(page)[-1] == ["replay-event", "Player 1 played 6-1 on the 6: count 13"]
        page.keyboard.press("ArrowLeft")
        assert page.inner_text("#replay-position") == "move 1 of 39"
        # the hand chooser, by keyboard: the next hand opens at its start, and says who leads
        tab_to(page, "#replay-hand", back=True)
        page.keyboard.press("ArrowDown")
        assert page.input_value("#replay-hand") == "1"
        assert heard(page)[-1][0] == "replay-event" and heard(page)[-1][1].startswith("Hand 2: ")
        tree = page.locator("#replay-table").aria_snapshot()
        assert "the table, empty" in tree or 'group "the table' in tree
    finally:
        page.context.close()


def step_to(page: Any, moves: int) -> None:
    page.evaluate("() => document.activeElement.blur()")
    for _ in range(moves):
        page.keyboard.press("ArrowRight")


def test_the_replay_says_whose_turn_it_is_in_words(server: Server, browser: Any) -> None:
    page = replay_page(server, browser)
    try:
        step_to(page, 1)  # Player 2 led: Player 1 is on turn
        turn = page.locator("#replay-hands li.turn")
        assert turn.count() == 1 and turn.inner_text().startswith("Player 1")
        said = (turn.get_attribute("aria-label") or "") + " " + turn.inner_text()
        assert re.search(r"on turn|to play|'s turn|▶", said), said
    finally:
        page.context.close()


def test_a_screen_reader_can_read_the_hands_in_the_replay(server: Server, browser: Any) -> None:
    page = replay_page(server, browser)
    try:
        step_to(page, 3)
        shown = page.locator("#replay-hands svg g.tile").evaluate_all("(ts) => ts.map((t) => t.dataset.tile)")
        assert len(shown) == 11  # 7 + 7 dealt, 3 played
        tree = page.locator("#replay-hands").aria_snapshot()
        missing = [tile for tile in shown if not either_way(tile).search(tree)]
        assert missing == [], tree
    finally:
        page.context.close()


def test_the_replay_announces_the_hands_end(server: Server, browser: Any) -> None:
    page = replay_page(server, browser)
    try:
        tab_to(page, "#replay-last")
        forget(page)
        page.keyboard.press("Enter")
        assert page.inner_text("#replay-end").startswith("Hand over (blocked): Player 1 wins the hand")
        assert any("Hand over" in text for _, text in heard(page)), heard(page)
    finally:
        page.context.close()


@pytest.mark.parametrize(("viewport", "scale"), [(PHONE, 1), (ZOOM_200, 2)], ids=["390x844", "1280x800-at-200%"])
def test_the_replay_fits_a_phone_and_200_percent_zoom(server: Server, browser: Any, viewport: dict[str, int],
                                                      scale: float) -> None:
    page = replay_page(server, browser, viewport, scale)
    try:
        step_to(page, 5)
        assert off_screen(page, "#replay-view") == []
        for name in ("first", "prev", "next", "last"):  # the step buttons stay big enough to touch
            box = page.locator(f"#replay-{name}").bounding_box()
            assert box and box["width"] >= 24 and box["height"] >= 24
    finally:
        page.context.close()


# ---------------------------------------------------------------- the review
def two_deals(route: Any) -> None:
    """The page's review request, at 2 deals a decision (about a second instead of a minute)."""
    body = json.loads(route.request.post_data)
    body["samples"] = 2
    route.continue_(post_data=json.dumps(body))


@pytest.fixture(scope="module")
def reviewed(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Any]]:
    """A page that went from the game-over panel to the review by keyboard (Tab to Review, Enter), the review
    done: the server and the page (its live regions recorded since it opened, see ``heard``)."""
    folder = tmp_path_factory.mktemp("review")
    running = Server(f"sqlite:///{folder / 'games.sqlite3'}")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.route("**/api/review", two_deals)
    listening(context)
    game_id = seat_table(running, finished_game("block", 2))
    page = open_page(browser, f"{running.url}/game/{game_id}", context)
    try:
        page.wait_for_selector("#summary-title >> text=Game over")
        tab_to(page, "#summary .review-link")
        page.keyboard.press("Enter")
        page.wait_for_selector("#review-plot circle, #review-panel .error", timeout=60_000)
        assert page.locator("#review-panel .error").count() == 0, page.inner_text("#review-panel")
        yield running, page
    finally:
        context.close()
        running.stop()


def test_the_review_starts_by_keyboard_from_game_over_and_its_progress_is_said(reviewed: tuple[Server, Any]) -> None:
    _, page = reviewed
    assert re.search(r"/replay/\w+#review-0$", page.url)
    panel = [text for where, text in heard(page) if where == "review-panel"]
    assert panel[0] == "Reviewing… (the server searches every decision)"
    assert re.match(r"Player 1: accuracy \d+%, [\d.]+ expected points lost; \d+ best, ", panel[-1])
    assert page.get_attribute("#review-panel", "aria-live") == "polite"


def go_to_decision(page: Any, mark: str | None = None, nth: int = 0) -> dict[str, Any]:
    """Step, as a keyboard user does, to the ``nth`` reviewed decision of ``mark`` (else with a better move); it."""
    dots = page.evaluate("() => [...document.querySelectorAll('#review-plot circle')].map((c) => ({"
                         "hand: Number(c.dataset.hand), move: Number(c.dataset.move), mark: c.dataset.mark,"
                         "ghost: c.dataset.ghost}))")
    dot = [d for d in dots if (d["mark"] == mark if mark else d["ghost"])][nth]
    page.select_option("#replay-hand", str(dot["hand"] - 1))
    page.evaluate("() => document.activeElement.blur()")
    for _ in range(dot["move"]):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-position").startswith(f"move {dot['move']} of")
    return dict(dot)


def test_a_reviewed_move_says_its_mark_and_the_better_move_in_words(reviewed: tuple[Server, Any]) -> None:
    _, page = reviewed
    dot = go_to_decision(page)
    words = page.locator("#review-panel .mark").inner_text()
    assert words == dot["mark"] and words in ("inaccuracy", "mistake", "blunder")  # not by colour alone
    text = page.inner_text("#review-panel")
    assert re.search(r"best \S+ [+-][\d.]+ \(difference", text)
    role, name, _ = accessible(page, "#replay-table g.tile.ghost")
    assert name.startswith("better: ") and role in ("group", "img", "image")


def test_after_review_by_keyboard_the_focus_is_still_on_the_review(reviewed: tuple[Server, Any]) -> None:
    _, page = reviewed
    tab_to(page, "#review-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-plot circle, #review-panel .error", timeout=60_000)
    page.wait_for_function("() => !document.querySelector('#review-button').disabled")
    assert focused(page, "#replay-view *"), f"the focus is on {active(page)}"


def test_a_step_through_a_reviewed_game_says_the_step_not_the_whole_review(reviewed: tuple[Server, Any]) -> None:
    _, page = reviewed
    go_to_decision(page)
    forget(page)
    page.keyboard.press("ArrowRight")
    said = " ".join(text for _, text in heard(page))
    assert "accuracy" not in said and "expected points lost" not in said, said


def test_the_marks_words_are_legible(reviewed: tuple[Server, Any]) -> None:
    _, page = reviewed
    ratios = page.evaluate("""() => {
      const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
      const lum = ([r, g, b]) => { const c = [r, g, b].map((v) => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; };
      const out = {};
      for (const mark of ['best', 'inaccuracy', 'mistake', 'blunder']) {
        const span = document.createElement('span');
        span.className = `mark mark-${mark}`;
        span.textContent = mark;
        document.getElementById('review-panel').append(span);
        const style = getComputedStyle(span);
        const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
        out[mark] = Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100;
        span.remove();
      }
      return out;
    }""")
    assert all(ratio >= 4.5 for ratio in ratios.values()), ratios


def test_the_plot_is_described_in_text(reviewed: tuple[Server, Any]) -> None:
    _, page = reviewed
    dots = page.evaluate("() => [...document.querySelectorAll('#review-plot circle')].map((c) =>"
                         " `hand ${c.dataset.hand}, move ${c.dataset.move}`)")
    assert len(dots) >= 10
    tree = page.locator("#review-panel").aria_snapshot()
    unread = [dot for dot in dots if dot not in tree]
    assert unread == [], f"{len(unread)} of {len(dots)} decisions cannot be read: {tree[:400]}"


def test_the_plots_marks_are_not_told_by_colour_alone(reviewed: tuple[Server, Any]) -> None:
    _, page = reviewed
    go_to_decision(page, "best")  # the ringed current point is a best: the marks' points are compared as drawn
    looks = page.evaluate("""() => [...document.querySelectorAll('#review-plot circle:not([stroke=currentColor])')]
      .map((c) => [c.dataset.mark, c.tagName + c.getAttribute('r') + (c.getAttribute('stroke') || '')
                   + (c.getAttribute('stroke-dasharray') || '') + (c.getAttribute('d') || '')])""")
    shape = {}
    for mark, drawn in looks:
        shape.setdefault(drawn, set()).add(mark)
    assert len({mark for mark, _ in looks}) >= 2
    assert all(len(marks) == 1 for marks in shape.values()), shape


@pytest.mark.parametrize(("viewport", "scale"), [(PHONE, 1), (ZOOM_200, 2)], ids=["390x844", "1280x800-at-200%"])
def test_the_review_fits_a_phone_and_200_percent_zoom(reviewed: tuple[Server, Any], viewport: dict[str, int],
                                                      scale: float) -> None:
    _, page = reviewed
    context = page.context.browser.new_context(viewport=viewport, device_scale_factor=scale)
    context.route("**/api/review", two_deals)
    try:
        other = open_page(page.context.browser, page.url, context)
        other.wait_for_selector("#review-plot circle", timeout=60_000)
        go_to_decision(other)
        assert off_screen(other, "#replay-view") == []  # the better move's ghost tile too
        assert other.locator("#review-panel .mark").is_visible()
    finally:
        context.close()


def test_on_a_phone_the_better_move_is_drawn_inside_the_table(reviewed: tuple[Server, Any]) -> None:
    _, page = reviewed
    context = page.context.browser.new_context(viewport=PHONE)
    context.route("**/api/review", two_deals)
    try:
        other = open_page(page.context.browser, page.url, context)
        other.wait_for_selector("#review-plot circle", timeout=60_000)
        ghosts = other.evaluate("() => [...document.querySelectorAll('#review-plot circle')]"
                                ".filter((c) => c.dataset.ghost).length")
        assert ghosts >= 1
        cut = []
        for nth in range(min(ghosts, 6)):
            go_to_decision(other, nth=nth)
            cut.append(other.evaluate("""() => {
              const [g, t] = ['#replay-table g.tile.ghost', '#replay-table'].map((s) =>
                document.querySelector(s).getBoundingClientRect());
              const out = g.left < t.left - 0.5 || g.right > t.right + 0.5 || g.top < t.top - 0.5
                || g.bottom > t.bottom + 0.5;
              return out
                ? `move ${document.querySelector('#replay-position').textContent}: ghost ${g.left}-${g.right},`
                  + ` table ${t.left}-${t.right}` : '';
            }"""))
        assert [where for where in cut if where] == []
    finally:
        context.close()
