"""The game review in Chromium: the Review button of the replay viewer, marks, the ghost tile and the plot.

Skipped, with the reason, only when /usr/bin/chromium or the web extra is missing (nothing downloads a browser).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt install chromium)", allow_module_level=True)
pytest.importorskip("fastapi")
playwright_api = pytest.importorskip("playwright.sync_api")

from boneyard import record  # noqa: E402
from tests.test_browser import ARGS, Server, open_page  # noqa: E402
from tests.test_review import greedy_game  # noqa: E402

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield running
    running.stop()


def go_to(page: Any, hand: int, move: int) -> None:
    """Show the replay just after move ``move`` of hand ``hand`` (1-based), as a person would get there."""
    page.select_option("#replay-hand", str(hand - 1))
    for _ in range(move):
        page.click("#replay-next")
    assert page.inner_text("#replay-position").startswith(f"move {move} of")


def wait_for_plot(page: Any) -> None:
    """Wait for the review's plot; a review that failed says why (its panel's error) instead of timing out."""
    page.wait_for_selector("#review-plot circle, #review-panel .error", timeout=120_000)
    errors = page.locator("#review-panel .error")
    assert errors.count() == 0, errors.first.inner_text()


def test_review_in_the_replay_viewer_marks_moves_draws_the_better_one_and_plots(server: Server) -> None:
    room = server.post("/api/records", {"record": record.to_record(greedy_game("block", 3, target=30))})
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            # the game-over panel's Review button leads here: the review of the player's seat starts by itself
            page = open_page(browser, f"{server.url}/replay/{room['id']}#review-1")
            wait_for_plot(page)
            assert page.inner_text("#review-panel").startswith("Bob:")
            assert page.input_value("#review-seat") == "1"
            dots = page.evaluate("() => [...document.querySelectorAll('#review-plot circle')].map((c) => ({"
                                 "hand: Number(c.dataset.hand), move: Number(c.dataset.move), mark: c.dataset.mark,"
                                 "played: c.dataset.played, ghost: c.dataset.ghost}))")
            assert {dot["mark"] for dot in dots} <= {"best", "inaccuracy", "mistake", "blunder"}
            assert "accuracy" in page.inner_text("#review-panel")
            with_ghost = [dot for dot in dots if dot["ghost"]]
            assert with_ghost, "the greedy game has a decision where another tile was better"
            dot = with_ghost[0]
            go_to(page, dot["hand"], dot["move"])
            ghost = page.locator("#replay-table g.tile.ghost")
            assert ghost.count() == 1 and ghost.get_attribute("data-tile") == dot["ghost"]
            played = page.locator(f"#replay-table g.tile.review-{dot['mark']}")
            assert played.count() == 1
            assert sorted(played.get_attribute("data-tile").split("-")) == sorted(dot["played"][:3].split("-"))
            assert "Open hands (hindsight" in page.inner_text("#review-panel")
            page.click("#replay-next")  # a ghost belongs to its own move only
            if not any(d["hand"] == dot["hand"] and d["move"] == dot["move"] + 1 and d["ghost"] for d in dots):
                assert page.locator("#replay-table g.tile.ghost").count() == 0
            # the Review button of the replay viewer, for another seat
            page.select_option("#review-seat", "0")
            assert page.locator("#review-plot").count() == 0  # another seat: the old review is gone
            page.click("#review-button")
            wait_for_plot(page)
            assert page.inner_text("#review-panel").startswith("Ann:")
        finally:
            browser.close()


def test_the_review_starts_by_itself_when_its_script_arrives_after_the_replay(server: Server) -> None:
    """review.js listens for app.js's first boneyard:replay event however late it arrives (a slow network, a
    loaded machine): the page runs it before app.js, so the review asked for by #review-N is never missed."""
    room = server.post("/api/records", {"record": record.to_record(greedy_game("block", 3, target=30))})
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context()
            late: list[str] = []

            def slow_review_script(route: Any) -> None:
                late.append(route.request.url)
                time.sleep(1.5)  # longer than the three requests app.js makes before it shows the replay
                route.continue_()

            context.route("**/static/review.js", slow_review_script)
            page = open_page(browser, f"{server.url}/replay/{room['id']}#review-0", context)
            wait_for_plot(page)
            assert late, "the review's script was delayed"
            assert page.inner_text("#review-panel").startswith("Ann:")
            assert page.input_value("#review-seat") == "0"
        finally:
            browser.close()
