"""The lobby's statistics name the tables the server could not count (``skipped``), with why, never quietly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def lobby_stats_text(tmp_path: Path, answer: dict[str, Any]) -> str:
    """What *Show my statistics* shows when the server answers ``answer``, for a browser that sat at 8 tables."""
    from tests.test_browser import ARGS, CHROMIUM, Server, open_page, playwright_api  # (skips without Chromium)

    running = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        with playwright_api.sync_playwright() as driver:
            chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = open_page(chromium, running.url + "/")
            page.route("**/api/stats", lambda route: route.fulfill(json=answer))
            page.evaluate("""() => { for (let i = 0; i < 8; i += 1)
                                       localStorage.setItem(`boneyard-token-g${i}`, 't'); }""")
            page.click("#show-stats")
            page.wait_for_selector("#stats p")
            text = page.inner_text("#stats")
            chromium.close()
    finally:
        running.stop()
    return text


def answer_with(skipped: list[str], records: int = 0) -> dict[str, Any]:
    tally = {"games": records, "won": records, "win_rate": 1.0, "ci95": [0.5, 1.0], "hands": records,
             "hands_won": records, "dominoes": 0, "points": 0, "unfinished": 0}
    return {"player": None, "records": records, "not_yours": 0, "duplicates": 0, "skipped": skipped,
            "variants": {"block": tally} if records else {}, "against": {"greedy": tally} if records else {},
            "review": {"decisions": 0, "best": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0, "accuracy": None},
            "shared": 0}


@pytest.mark.browser
def test_tables_not_counted_are_named_with_why(tmp_path: Path) -> None:
    skipped = [f"game g{i}: hand 1, move 3 \"5-3@4\": tile 4 has no open 5 end" for i in range(7)]
    text = lobby_stats_text(tmp_path, answer_with(skipped, records=1))
    assert "7 tables could not be counted:" in text
    assert "game g0: hand 1, move 3 \"5-3@4\": tile 4 has no open 5 end" in text
    assert "game g4:" in text and "game g5:" not in text and "… and 2 more." in text
    assert "Variant" in text  # the counted table is still shown


@pytest.mark.browser
def test_when_every_table_was_skipped_the_page_does_not_call_them_gone(tmp_path: Path) -> None:
    text = lobby_stats_text(tmp_path, answer_with(["game g0: hand 2: the deal is not the variant's tile set"]))
    assert "1 table could not be counted:" in text and "the deal is not the variant's tile set" in text
    assert "stored here any more" not in text
