"""The lobby's statistics name the tables the server could not count (``skipped``), with why, never quietly, and
count the tables sat at most recently where there are more than the server counts at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

#: a browser that sat at 8 tables
EIGHT_TABLES = """() => { for (let i = 0; i < 8; i += 1) localStorage.setItem(`boneyard-token-g${i}`, 't'); }"""


def lobby_stats_text(tmp_path: Path, answer: dict[str, Any], tables: str = EIGHT_TABLES,
                     asked: list[dict[str, Any]] | None = None) -> str:
    """What *Show my statistics* shows when the server answers ``answer``, for a browser whose storage ``tables``
    (a script) fills; the requests' bodies are put in ``asked``."""
    from tests.test_browser import ARGS, CHROMIUM, Server, open_page, playwright_api  # (skips without Chromium)

    def answered(route: Any) -> None:
        if asked is not None:
            asked.append(route.request.post_data_json)
        route.fulfill(json=answer)

    running = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        with playwright_api.sync_playwright() as driver:
            chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = open_page(chromium, running.url + "/")
            page.route("**/api/stats", answered)
            page.evaluate(tables)
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


@pytest.mark.browser
def test_past_the_server_s_limit_the_tables_sat_at_most_recently_are_counted(tmp_path: Path) -> None:
    """502 tables: 500 with the time this browser sat there, in an order of their own, and two kept from before
    that time was (sat at before any of them); the 500 most recent are sent, newest first, and the page says so."""
    tables = """() => {
        for (let i = 0; i < 502; i += 1) localStorage.setItem(`boneyard-token-g${i}`, `t${i}`);
        for (let i = 2; i < 502; i += 1) localStorage.setItem(`boneyard-sat-g${i}`, String(1e12 + (i * 7919) % 500));
    }"""
    asked: list[dict[str, Any]] = []
    text = lobby_stats_text(tmp_path, answer_with([], records=1), tables, asked)
    assert len(asked) == 1
    sent = asked[0]["seats"]
    assert len(sent) == 500 and {"game": "g0", "token": "t0"} not in sent and {"game": "g1", "token": "t1"} not in sent
    assert all(seat["token"] == "t" + seat["game"][1:] for seat in sent)
    times = [(int(seat["game"][1:]) * 7919) % 500 for seat in sent]
    assert times == sorted(times, reverse=True)
    assert "Counted the 500 tables you sat at most recently, of the 502 this browser sat at" in text


@pytest.mark.browser
def test_taking_and_resuming_a_seat_keeps_when_this_browser_sat_there(tmp_path: Path) -> None:
    from tests.test_browser import ARGS, CHROMIUM, Server, open_page, playwright_api  # (skips without Chromium)

    running = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        game = running.post("/api/games", {"variant": "block", "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"}]})["id"]
        with playwright_api.sync_playwright() as driver:
            chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = open_page(chromium, f"{running.url}/game/{game}")
            page.wait_for_selector("#table-players .player.you")
            now = page.evaluate("() => Date.now()")
            sat = float(page.evaluate(f"() => localStorage.getItem('boneyard-sat-{game}')"))
            assert now - 60_000 < sat <= now
            page.evaluate(f"() => localStorage.setItem('boneyard-sat-{game}', '5')")
            page.reload()
            page.wait_for_selector("#table-players .player.you")
            assert float(page.evaluate(f"() => localStorage.getItem('boneyard-sat-{game}')")) > sat - 1
            chromium.close()
    finally:
        running.stop()
