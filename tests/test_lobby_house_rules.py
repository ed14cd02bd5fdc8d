"""The lobby's list of games says each table's house rules (its options that differ from the variant's defaults),
as the table itself does under its facts, so a person choosing a table to sit at knows the rules before sitting.

The API check runs everywhere; the page's check needs /usr/bin/chromium and is skipped, with the reason, without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from boneyard.web.app import create_app
from tests.test_web_api import SCRIPTED, LocalClient

CHROMIUM = Path("/usr/bin/chromium")
HUMAN = {"kind": "human", "name": "Ann"}
COMPUTER = {"kind": "computer", "level": "greedy"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with LocalClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay=0, limits=SCRIPTED)) as test:
        yield test


def test_the_list_of_games_carries_each_tables_house_rules(client: TestClient) -> None:
    house = client.post("/api/games", json={"variant": "all-fives", "seats": [HUMAN, COMPUTER],
                                            "options": {"target": "150", "spinner_mode": "none"}})
    plain = client.post("/api/games", json={"variant": "all-fives", "seats": [HUMAN, COMPUTER]})
    assert {house.status_code, plain.status_code} == {201}
    listed = {game["id"]: game for game in client.get("/api/games").json()}
    assert listed[house.json()["id"]]["options"] == {"target": 150, "spinner_mode": "none"}
    assert listed[plain.json()["id"]]["options"] == {}
    for made in (house, plain):  # the lobby and the table say the same
        game_id = made.json()["id"]
        assert listed[game_id]["options"] == client.get(f"/api/games/{game_id}").json()["options"]


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed (apt install chromium)")
def test_the_lobby_shows_the_house_rules_beside_the_variant(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.test_browser import ARGS, Server, open_page

    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        house: dict[str, Any] = server.post("/api/games", {"variant": "all-fives", "seats": [HUMAN, COMPUTER],
                                                           "options": {"target": 150, "spinner_mode": "none"}})
        plain: dict[str, Any] = server.post("/api/games", {"variant": "draw", "seats": [HUMAN, COMPUTER]})
        with sync_api.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                page = open_page(browser, server.url)
                page.wait_for_selector("#games tbody tr")
                rows = page.locator("#games tbody tr")
                assert rows.count() == 2
                texts = {rows.nth(i).locator("a").first.get_attribute("href"): rows.nth(i).locator("td").first
                         for i in range(2)}
                house_cell, plain_cell = texts[f"/game/{house['id']}"], texts[f"/game/{plain['id']}"]
                assert house_cell.locator(".house-rules").inner_text() == "house rules: spinner mode none · target 150"
                assert house_cell.inner_text().startswith("all-fives")
                assert plain_cell.locator(".house-rules").count() == 0 and plain_cell.inner_text() == "draw"
            finally:
                browser.close()
    finally:
        server.stop()
