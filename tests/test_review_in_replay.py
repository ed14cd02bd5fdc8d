"""A reviewed record in the web replay viewer: each annotated move shows its annotation (RECORD.md "Annotations"),
as `boneyard replay` prints it, without a new review (issue 15: "so boneyard replay and the web replay viewer show
them").

The API checks run everywhere; the page's checks need /usr/bin/chromium and are skipped, with the reason, without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from boneyard import record
from boneyard.cli import app as cli
from boneyard.web.app import create_app
from tests.test_review import greedy_game
from tests.test_web_api import SCRIPTED, LocalClient

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with LocalClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay=0, limits=SCRIPTED)) as test:
        yield test


def events(steps: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Per hand, each move's event in the viewer's steps (the first step of a hand is before any move)."""
    return [[step["event"] for step in hand["steps"][1:]] for hand in steps["hands"]]


def test_a_reviewed_record_shows_each_annotation_on_its_move(client: TestClient, tmp_path: Path) -> None:
    """`boneyard review --write` on a whole game, loaded as a table: the replay carries each annotation on its own
    move, in the words `boneyard replay` prints, and nothing on the moves the review did not judge."""
    game_file, reviewed = tmp_path / "game.boneyard.json", tmp_path / "reviewed.boneyard.json"
    record.save(greedy_game("block", 3, target=30), game_file)
    done = CliRunner().invoke(cli, ["review", str(game_file), "--seat", "1", "--samples", "6", "--write",
                                    str(reviewed)])
    assert done.exit_code == 0, done.output
    data = record.load(reviewed)
    notes = record.annotations_of(data)
    assert sum(note is not None for hand in notes for note in hand) > 3
    room = client.post("/api/records", json={"record": data})
    assert room.status_code == 201, room.text
    steps = client.get(f"/api/games/{room.json()['id']}/replay").json()
    shown = 0
    for hand_notes, hand_events, moves in zip(notes, events(steps), (h["moves"] for h in data["hands"]), strict=True):
        for number, (event, move) in enumerate(zip(hand_events, moves, strict=True)):
            note = hand_notes[number] if number < len(hand_notes) else None
            if note is None:
                assert event["annotation"] is None
                continue
            shown += 1
            assert event["move"] == move and event["seat"] == 1  # the reviewed seat's own move
            assert event["annotation"] == {"text": record.annotation_text(note, move).removeprefix("» "),
                                           "mark": note["mark"]}
            assert event["annotation"]["text"].startswith(note["mark"])
    assert shown == sum(note is not None for hand in notes for note in hand)


def test_another_tools_annotation_is_shown_as_text_on_one_line(client: TestClient) -> None:
    """A record annotated by another tool (RECORD.md's keys, free text): the comment's line breaks fold, a mark the
    format does not know is shown as a word but not coloured, the file-loaded replay (POST /api/replay) the same."""
    data = record.to_record(greedy_game("draw", 4, target=30))
    moves = data["hands"][0]["moves"]
    data["hands"][0]["annotations"] = [
        {"mark": "mistake", "best": "x", "comment": "kept the <b>6s</b>\n  closed", "by": "other 1.0"},
        None,
        {"mark": "brilliant", "value": True, "comment": "a word of its own"},
    ]
    steps = client.post("/api/replay", json={"record": data}).json()
    first, second, third, *rest = events(steps)[0]
    assert first["annotation"] == {"text": "mistake; best x; kept the <b>6s</b> closed", "mark": "mistake"}
    assert second["annotation"] is None
    assert third["annotation"] == {"text": "brilliant; a word of its own", "mark": None}  # true is no value
    assert all(event["annotation"] is None for event in rest) and len(rest) == len(moves) - 3


def test_a_partnership_hand_end_names_the_winning_side(client: TestClient) -> None:
    """The viewer's hand end says who won it as the text replay does: both partners in a partnership game."""
    game = greedy_game("block", 11, 4, target=30, partnerships=True)
    steps = client.post("/api/replay", json={"record": record.to_record(game)}).json()
    for hand, log in zip(steps["hands"], game.log, strict=True):
        end = hand["steps"][-1]["end"]
        assert log.result is not None
        if log.result.winner is None:
            assert end["says"] == "nobody wins"
        else:
            side = sorted({log.result.winner, (log.result.winner + 2) % 4})
            assert end["says"] == f"{game.names[side[0]]} and {game.names[side[1]]} win"


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed (apt install chromium)")
def test_the_replay_viewer_shows_the_annotation_under_its_move(tmp_path: Path) -> None:
    """In Chromium: stepping to an annotated move shows its annotation under the move's line, with its mark's
    colour as a class; the comment is text (markup in it is not made into elements); a move without one shows
    none."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.test_browser import ARGS, Server, open_page

    data = record.to_record(greedy_game("block", 3, target=30))
    data["hands"][0]["annotations"] = [None, {"mark": "blunder", "best": "6-6", "value": -4,
                                              "comment": "<img src=x onerror=alert(1)> too early"}]
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        room = server.post("/api/records", {"record": data})
        with sync_api.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                page = open_page(browser, f"{server.url}/replay/{room['id']}")
                page.wait_for_selector("#replay-event >> text=leads")
                page.click("#replay-next")
                assert page.locator("#replay-event .annotation").count() == 0
                page.click("#replay-next")
                note = page.locator("#replay-event .annotation")
                assert note.count() == 1
                assert note.inner_text() == "» blunder; value -4.0; best 6-6; <img src=x onerror=alert(1)> too early"
                assert note.get_attribute("class") == "annotation mark-blunder"
                assert page.locator("#replay-event img").count() == 0
                colour = page.evaluate("() => getComputedStyle(document.querySelector('#replay-event .annotation'))"
                                       ".borderLeftColor")
                assert colour == "rgb(208, 49, 45)"  # --review-blunder
                page.click("#replay-next")
                assert page.locator("#replay-event .annotation").count() == 0
            finally:
                browser.close()
    finally:
        server.stop()
