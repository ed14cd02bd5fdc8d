"""Audit (session 21) of the web table as a club runs it: one ``boneyard serve`` on one machine for its members, for
weeks.  Setting it up as docs/web.md says (the store, the printed address, a reverse proxy, backups), the lobby
when the server holds hundreds of games, restarts and stops while games run, members' statistics after many games,
names, abandoned and damaged games, a record downloaded and loaded back.

The audit found ten bugs; each is fixed and held by a test asserting the right behaviour (the others hold what
was already right).  The bugs, in short, as found:

1. A second server on the same store (``boneyard play --web`` while the club's ``serve`` holds port 8000, which
   docs/web.md describes) reloads the first one's running games and plays their computers too: the two write the
   same moves, one is refused by the store and stuck, and the stored game is mixed or no longer replays.
2. The lobby shows the newest 200 games and no way past them: a member's running game older than that is gone
   from the page (``GET /api/games`` pages; the page asks for the first page only).
3. The lobby does not say which games are this browser's: two tables of the same people read the same, though
   the page holds a seat token for one of them.
4. *Show my statistics* counts 500 of a browser's tables, chosen by the storage's order, and says nothing of the
   rest.
5. ``serve --host 0.0.0.0`` prints "Open http://0.0.0.0:8000/", an address the server refuses (403, Host not
   allowed); ``--host ::`` prints ``http://:::8000/``.
6. A running game whose stored record no longer replays (a store written by two servers, an older version's
   rules) is listed in the lobby, and opening it makes the socket handler crash (a traceback in the log, close
   1011) every second while the page says "Connection lost — reconnecting…" for ever.
7. The lobby's *Play on from it* ignores the record's ``meta.human_seat`` and ``meta.ai``, which the web table's
   own download writes: a member's game against ``random`` or ``expert`` goes on against ``greedy``, and where the
   member sat second they get the computer's seat.
8. docs/web.md says nothing about backing the store up: a copy of ``web.sqlite3`` while the server runs holds
   none of the recent games (they are in ``web.sqlite3-wal``).
9. docs/web.md says nothing about serving behind a reverse proxy with https (the WebSocket upgrade, which
   proxy's ``X-Forwarded-For`` the per-address limits trust).
10. On a phone, the strip of a four-player table cuts names to about ten characters: "Christopher Allen" and
    "Christopher Adams" both read "Christophe…".
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2 as httpx
import pytest

pytest.importorskip("fastapi")

import boneyard
from boneyard import record
from boneyard.errors import BoneyardError
from boneyard.web.limits import Limits
from boneyard.web.rooms import Seat as TableSeat
from boneyard.web.rooms import _hash
from boneyard.web.store import Checkpoint, Store
from tests.test_browser import Server, browser, open_page, server
from tests.test_browser_fit import finished_game
from tests.web_live import LiveServer, sit

__all__ = ["browser", "server"]  # the fixtures, shared with tests.test_browser

DOCS = Path(__file__).resolve().parent.parent / "docs" / "web.md"
COMPUTERS = [{"kind": "computer", "level": "random"}, {"kind": "computer", "level": "random"}]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def post(url: str, path: str, body: dict[str, Any], **headers: str) -> httpx.Response:
    return httpx.post(url + path, json=body, headers=headers, timeout=30)


def created(url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = post(url, path, body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def wait_for(check: Any, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


def moves_of(data: dict[str, Any]) -> list[tuple[int, str]]:
    """A record's moves as (hand, move), every hand's deal folded into its first entry."""
    flat: list[tuple[int, str]] = []
    for index, hand in enumerate(data["hands"]):
        flat.append((index, json.dumps(hand.get("deal"), sort_keys=True)))
        flat.extend((index, str(move)) for move in hand.get("moves", []))
    return flat


def stored_finished(store: Store, game_id: str, data: dict[str, Any], human_token: str | None = None) -> None:
    """A finished game of ``data`` in the store (seat 0 held by ``human_token``'s browser where given)."""
    seats = [TableSeat(str(name), "human" if index == 0 else "computer", "greedy",
                       _hash(human_token) if index == 0 and human_token else None).as_stored()
             for index, name in enumerate(data["players"])]
    store.save(Checkpoint(game_id, variant=data["variant"], status="finished", seed=3, seats=seats, record=data,
                          moves=sum(len(hand["moves"]) for hand in data["hands"])))


# ---------------------------------------------------------------------------------------------- setting it up
def test_behind_a_proxy_on_this_machine_each_member_has_their_own_new_game_limit(db: str) -> None:
    """A proxy on the same machine (https://play.example to 127.0.0.1) forwards each member's address: the
    per-address limits count members, not the proxy (uvicorn trusts X-Forwarded-For from 127.0.0.1)."""
    limits = Limits(game_burst=2, games_per_minute=1, allow_origins=("https://play.example",))
    proxied = {"Host": "play.example", "X-Forwarded-Proto": "https", "Origin": "https://play.example"}
    body = {"variant": "draw", "players": 2}
    with LiveServer(db, limits) as live:
        first = [post(live.url, "/api/games", body, **proxied, **{"X-Forwarded-For": "10.0.0.1"}).status_code
                 for _ in range(3)]
        other = post(live.url, "/api/games", body, **proxied, **{"X-Forwarded-For": "10.0.0.2"})
        assert first == [201, 201, 429]
        assert other.status_code == 201, other.text


def test_a_backup_taken_while_the_server_runs_and_a_copy_after_it_stops_hold_every_game(tmp_path: Path) -> None:
    """SQLite's online backup (``sqlite3 web.sqlite3 ".backup copy.sqlite3"``) is complete while the server runs;
    once the server has stopped, the file alone is (the write-ahead log is folded back in and removed)."""
    path = tmp_path / "club.sqlite3"
    with LiveServer(f"sqlite:///{path}") as live:
        ids = [created(live.url, "/api/games", {"variant": "draw", "players": 2, "seed": seed})["id"]
               for seed in (1, 2, 3)]
        finished = created(live.url, "/api/records", {"record": finished_game("block", 2)})["id"]

        async def one_move() -> None:
            ann = await sit(live, ids[0])
            await ann.claim(0)
            state = ann.seen[-1]
            if state["turn"] == 0:
                await ann.send({"type": "move", "move": state["legal"][0]})
                await ann.state(lambda m: m["version"] > state["version"])
            await ann.socket.close()

        asyncio.run(one_move())
        moves = httpx.get(f"{live.url}/api/games/{ids[0]}", timeout=10).json()["moves"]
        source = sqlite3.connect(path)
        target = sqlite3.connect(tmp_path / "backup.sqlite3")
        source.backup(target)
        source.close()
        target.close()
    backup = Store(f"sqlite:///{tmp_path / 'backup.sqlite3'}")
    try:
        assert sorted(game.id for game in backup.list()) == sorted([*ids, finished])
        copy = backup.load(ids[0])
        assert copy is not None and record.replay(copy.record) is not None and copy.moves == moves
    finally:
        backup.dispose()
    assert not Path(f"{path}-wal").exists()
    shutil.copy(path, tmp_path / "copy.sqlite3")
    copied = Store(f"sqlite:///{tmp_path / 'copy.sqlite3'}")
    try:
        assert copied.count() == 4
    finally:
        copied.dispose()


# uvicorn ends a server whose start-up failed with SystemExit(3) in the thread that runs it: that is the refusal
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_second_server_on_the_same_store_leaves_the_first_servers_games_alone(db: str) -> None:
    """docs/web.md: where port 8000 is busy, ``play --web`` serves on a free port, from the same default store.
    That second server must not take up the running games of the first (refusing to start on a store another
    server holds would do): the stored game is the one the first server's table shows."""
    diverged: list[str] = []
    with LiveServer(db, ai_delay=0.02) as first:
        game_id = created(first.url, "/api/games", {"variant": "draw", "seats": COMPUTERS,
                                                    "options": {"target": 500}})["id"]
        room = first.app.state.rooms.rooms[game_id]
        wait_for(lambda: room.moves >= 5)
        store = Store(db)
        try:
            with LiveServer(db, ai_delay=0.02):
                deadline = time.monotonic() + 3
                while time.monotonic() < deadline and not diverged:
                    stored = store.load(game_id)
                    assert stored is not None
                    try:
                        record.replay(stored.record)
                    except BoneyardError as error:
                        diverged.append(f"the stored game does not replay: {error}")
                        break
                    kept = moves_of(stored.record)
                    shown = moves_of(record.to_record(room.game))  # the first server's table, a moment later
                    if kept != shown[:len(kept)]:
                        diverged.append(f"stored {len(kept)} entries, not the {len(shown)} the table shows")
                    time.sleep(0.05)
        except AssertionError:
            raise
        except Exception:  # refused to start on a store another server holds: fine
            pass
        finally:
            store.dispose()
    assert not diverged, diverged


def test_the_address_serve_prints_is_one_it_serves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from boneyard.cli import app

    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: served.append(server.config))
    bad = []
    for options in (["--host", "0.0.0.0", "--allow-origin", "192.168.1.5"], ["--host", "::"]):
        result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "games.sqlite3"), *options])
        assert result.exit_code == 0, result.output
        limits = served[-1].app.state.limits
        served[-1].app.state.store.dispose()
        address = re.search(r"Open (\S+) in a browser", result.output)
        assert address is not None, result.output
        try:
            parts = urlsplit(address[1])
            fine = parts.port is not None and limits.allows_host(parts.netloc)
        except ValueError:
            fine = False
        if not fine:
            bad.append((options, address[1]))
    assert not bad


def test_the_docs_say_how_to_back_up_a_running_servers_games() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert re.search(r"back(ing)? ?up|backup", text, re.IGNORECASE)
    assert re.search(r"-wal|\.backup|VACUUM INTO", text)


def test_the_docs_say_how_to_serve_behind_a_reverse_proxy_with_https() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert "X-Forwarded-For" in text
    assert re.search(r"Upgrade", text)


# ---------------------------------------------------------------------------------------------- restarts
def hand_over_record() -> dict[str, Any]:
    """A Block game of Ann and a computer whose first hand is over and the game not."""
    for seed in range(50):
        game = boneyard.new_game("block", seed=seed, names=["Ann", "Computer 1"])
        rng = random.Random(seed)
        while game.in_hand:
            game.apply(rng.choice(game.legal_moves()))
        if not game.finished:
            return record.to_record(game, seed=seed)
    raise AssertionError("no such game")


def test_a_restart_keeps_a_hands_end_the_seat_the_scores_and_the_next_deal(db: str) -> None:
    """A member looking at a hand's end when the organiser restarts the server comes back to the same panel and
    deals on from it."""
    data = hand_over_record()
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}]

    async def before(live: LiveServer) -> tuple[str, str, dict[str, Any]]:
        game_id = created(live.url, "/api/records", {"record": data, "seats": seats})["id"]
        ann = await sit(live, game_id)
        state = await ann.claim(0)
        token = next(m for m in ann.seen if m["type"] == "claimed")["token"]
        await ann.socket.close()
        return game_id, token, state

    async def after(live: LiveServer, game_id: str, token: str) -> tuple[dict[str, Any], dict[str, Any]]:
        ann = await sit(live, game_id)
        await ann.send({"type": "resume", "token": token})
        state = await ann.state(lambda m: m["you"] == 0)
        await ann.send({"type": "next_hand", "hand": state["hand_number"]})
        dealt = await ann.state(lambda m: m["in_hand"])
        await ann.socket.close()
        return state, dealt

    with LiveServer(db) as live:
        game_id, token, was = asyncio.run(before(live))
    with LiveServer(db) as live:
        now, dealt = asyncio.run(after(live, game_id, token))
    assert was["summary"] is not None and now["summary"] == was["summary"]
    assert [p["score"] for p in now["players"]] == [p["score"] for p in was["players"]]
    assert now["hand"] == was["hand"] and now["can_undo"] == was["can_undo"]
    assert dealt["hand_number"] == was["hand_number"] + 1 and dealt["summary"] is None


def test_a_server_stopped_while_a_computer_thinks_stops_soon_and_the_game_goes_on(db: str) -> None:
    """Ctrl-C while an ``expert`` searches: the server stops within a few seconds (the search is not waited for),
    and after the restart the computers play on from the stored game."""
    experts = [{"kind": "computer", "level": "expert"}, {"kind": "computer", "level": "expert"}]
    with LiveServer(db) as live:
        game_id = created(live.url, "/api/games", {"variant": "all-fives", "seats": experts})["id"]
        room = live.app.state.rooms.rooms[game_id]
        wait_for(lambda: room.moves >= 2, 60)
        stopping = time.monotonic()
    stopped_in = time.monotonic() - stopping
    store = Store(db)
    try:
        stored = store.load(game_id)
        assert stored is not None and stored.status == "running"
        at_stop = stored.moves
    finally:
        store.dispose()
    assert stopped_in < 8, stopped_in
    with LiveServer(db) as live:
        again = live.app.state.rooms.rooms[game_id]
        wait_for(lambda: again.moves > at_stop, 60)
        assert moves_of(record.to_record(again.game))[:at_stop] == moves_of(stored.record)[:at_stop]


# ---------------------------------------------------------------------------------------------- old games
def test_a_finished_games_download_loaded_back_replays_the_same(db: str) -> None:
    with LiveServer(db) as live:
        first = created(live.url, "/api/records", {"record": finished_game("all-fives", 3)})["id"]
        text = httpx.get(f"{live.url}/api/games/{first}/record", timeout=10).text
        again = created(live.url, "/api/records", {"record": text})
        assert again["finished"] and again["id"] != first
        replays = [httpx.get(f"{live.url}/api/games/{game}/replay", timeout=30).json() for game in (first, again["id"])]
        assert replays[0] == replays[1]


def test_a_record_loaded_to_play_on_keeps_its_person_and_its_computers_levels(db: str) -> None:
    def loaded(human: int, level: str) -> list[dict[str, Any]]:
        names = ["Zoë", "Computer 1"] if human == 0 else ["Computer 1", "Zoë"]
        game = boneyard.new_game("draw", seed=4, names=names)
        game.apply(game.legal_moves()[0])
        data = record.to_record(game, seed=4, meta={"human_seat": human, "ai": {str(1 - human): level}})
        players: list[dict[str, Any]] = created(live.url, "/api/records", {"record": data})["players"]
        return players

    with LiveServer(db) as live:
        first = loaded(0, "random")
        second = loaded(1, "random")
    assert first[0]["kind"] == "human" and first[1]["level"] == "random"
    assert second[1]["kind"] == "human" and second[0]["kind"] == "computer" and second[0]["level"] == "random"


def test_a_game_whose_stored_record_no_longer_replays_is_refused_in_words(db: str) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    game = boneyard.new_game("draw", seed=4, names=["Ann", "Computer 1"])
    data = record.to_record(game, seed=4)
    data["hands"][0]["moves"] = ["draw", "draw", "draw"]  # not this game's line (written by another version)
    seats = [TableSeat("Ann", "human").as_stored(), TableSeat("Computer 1", "computer", "greedy").as_stored()]

    async def opened(live: LiveServer) -> tuple[list[dict[str, Any]], int | None]:
        seen: list[dict[str, Any]] = []
        async with connect(f"{live.ws_url}/ws/damaged", open_timeout=10) as socket:
            try:
                while True:
                    seen.append(json.loads(await asyncio.wait_for(socket.recv(), 10)))
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
        return seen, code

    with LiveServer(db) as live:
        live.app.state.store.save(Checkpoint("damaged", variant="draw", status="running", seed=4, seats=seats,
                                             record=data, moves=3))
        assert [g["id"] for g in httpx.get(f"{live.url}/api/games", timeout=10).json()] == ["damaged"]
        seen, code = asyncio.run(opened(live))
    assert seen and seen[0]["type"] == "error" and "hand 1" in seen[0]["message"], seen
    assert code is not None and code >= 4000, code  # the page stops reconnecting (as for no_game, 4404)


# ---------------------------------------------------------------------------------------------- the lobby
@pytest.mark.browser
def test_a_member_finds_their_running_game_after_200_newer_games(server: Server, browser: Any) -> None:
    mine = server.post("/api/games", {"variant": "draw", "seats": [{"kind": "human", "name": "Zoë"},
                                                                    {"kind": "computer"}]})["id"]
    page = open_page(browser, f"{server.url}/game/{mine}")
    page.wait_for_selector("#hand .hand-tile")
    data = finished_game("block", 2)
    store = server.app.state.store
    for index in range(201):  # a few weeks of a club: each game later than Zoë's
        stored_finished(store, f"later{index:03}", data)
    page.goto(server.url + "/")
    page.wait_for_selector("#games table")
    assert page.locator("#games tbody tr").count() == 200
    for _ in range(3):
        if page.locator(f"#games a[href='/game/{mine}']").count():
            break
        more = page.locator("#lobby button, #lobby a").filter(has_text=re.compile(r"more|older|next", re.I))
        if not more.count():
            break
        more.first.click()
        page.wait_for_timeout(500)
    assert page.locator(f"#games a[href='/game/{mine}']").count() == 1


@pytest.mark.browser
def test_the_lobby_tells_a_member_which_table_is_theirs(server: Server, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy", "name": "Computer 1"}]
    ids = [server.post("/api/games", {"variant": "draw", "seats": seats, "seed": 7})["id"] for _ in range(2)]
    page = open_page(browser, f"{server.url}/game/{ids[0]}")
    page.wait_for_selector("#hand .hand-tile")
    page.goto(server.url + "/")
    page.wait_for_selector("#games table")
    rows = [page.locator("#games tbody tr").filter(has=page.locator(f"a[href='/game/{game}']")).inner_text()
            for game in ids]
    assert page.evaluate(f"() => localStorage.getItem('boneyard-token-{ids[0]}') !== null")
    assert rows[0] != rows[1], rows


@pytest.mark.browser
def test_statistics_after_more_than_500_tables_count_them_all_or_say_so(server: Server, browser: Any) -> None:
    data = finished_game("block", 2)
    store = server.app.state.store
    tables = 510
    for index in range(tables):
        stored_finished(store, f"g{index:04}", data, human_token="t0ken")
    page = open_page(browser, server.url + "/")
    page.evaluate(f"() => {{ for (let i = 0; i < {tables}; i += 1) "
                  "localStorage.setItem(`boneyard-token-g${String(i).padStart(4, '0')}`, 't0ken'); }")
    page.click("#show-stats")
    page.wait_for_selector("#stats table, #stats p", timeout=30000)
    text = page.locator("#stats").inner_text()
    assert str(tables) in text, text


PHONE_NAMES = ["Margaret Thompson", "Margaret Thornton", "Christopher Allen", "Christopher Adams"]
VISIBLE_NAMES = """() => {
  const canvas = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('.player .given')].map((element) => {
    const style = getComputedStyle(element);
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = element.textContent;
    if (element.scrollWidth <= element.clientWidth) return text;
    const room = element.clientWidth - canvas.measureText('…').width;
    let shown = text.length;
    while (shown > 0 && canvas.measureText(text.slice(0, shown)).width > room) shown -= 1;
    return text.slice(0, shown) + '…';
  });
}"""


@pytest.mark.browser
def test_on_a_phone_members_with_names_that_begin_alike_are_told_apart(server: Server, browser: Any) -> None:
    seats = [{"kind": "human", "name": name} for name in PHONE_NAMES]
    game_id = server.post("/api/games", {"variant": "all-fives", "seats": seats, "seed": 5})["id"]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = open_page(browser, f"{server.url}/game/{game_id}?watch", context)
    page.wait_for_selector(".player .given")
    shown = page.evaluate(VISIBLE_NAMES)
    context.close()
    assert len(shown) == 4
    waiting = [name for name in shown if not name.startswith("▶")]  # the one on turn is marked apart anyway
    assert len(set(waiting)) == len(waiting), shown
