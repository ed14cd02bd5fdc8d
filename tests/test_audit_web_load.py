"""Audit: the web table as an attacker and as a stressed public server see it (resource exhaustion, denial of
service).  A real server (uvicorn in a thread, :class:`tests.web_live.LiveServer`, or ``boneyard serve`` in a
subprocess) is attacked with real sockets; each test asserts what a public server must do.  Its nine bugs were
fixed in session 18 (each test says what it found), so every test here is a plain one.

The event loop's responsiveness is measured with ``ping``/``pong`` round trips on a WebSocket of another table
while the attack runs: on an idle server a round trip takes about a millisecond."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import httpx2 as httpx
from fastapi.testclient import TestClient

from boneyard import record
from boneyard.moves import Move
from boneyard.players.base import make_player
from boneyard.rules.base import make_rules
from boneyard.state import Game
from boneyard.view import SeatView
from boneyard.web.app import create_app
from boneyard.web.limits import Limits
from boneyard.web.rooms import Thinker, deal_next
from tests.web_live import LiveServer, Seat, sit

SEEDED = Limits(chosen_deals=True)
JSON = {"content-type": "application/json"}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    app = create_app(db, ai_delay=0, limits=SEEDED)
    app.state.rooms.thinker = NeverThinks()  # nothing searches for minutes in a test of what is accepted
    with TestClient(app, base_url="http://localhost", raise_server_exceptions=False) as test_client:
        yield test_client


def end_new_children(before: set[int | None]) -> None:
    """End the worker processes (a review's, a search's) spawned since ``before`` was taken, by pid: a server
    waits for a running review or search before it stops, and a search left running burns the machine's cores.
    A killed worker breaks its pool, so the server's waiting request ends and the server can stop."""
    for child in multiprocessing.active_children():
        if child.pid not in before:
            child.terminate()
            child.join(5)


def children() -> set[int | None]:
    return {child.pid for child in multiprocessing.active_children()}


class NeverThinks(Thinker):
    """A thinker whose computers never move: a test of what the server accepts starts no search."""

    async def move(self, game: Game, seat: int, level: str, seed: int, *, urgent: bool = True) -> Move:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def long_record(hands: int) -> dict[str, Any]:
    """A legal Block game of two greedy players, ``hands`` hands long (target 1,000,000: still running).
    About 350 bytes a hand: 1,000 hands are 0.35 MB, well under the 1 MiB ``max_record_body``."""
    game = Game(make_rules("block", 2, {"target": 1_000_000}), ["Ann", "Bob"])
    player = make_player("greedy")
    for _ in range(hands):
        deal_next(game, 7)
        while game.in_hand:
            game.apply(player.choose(SeatView(game, game.turn)))
    deal_next(game, 7)
    return record.to_record(game, seed=7)


def ask_review(url: str, body: dict[str, Any], timeout: float) -> None:
    """POST a review request and give up after ``timeout`` s, as a closed tab does."""
    with contextlib.suppress(httpx.HTTPError):
        httpx.post(f"{url}/api/review", json=body, timeout=timeout)


def new_game(server: LiveServer, seats: list[dict[str, Any]], **extra: Any) -> str:
    response = httpx.post(f"{server.url}/api/games", json={"variant": "draw", "seats": seats, **extra}, timeout=30)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def worst_ping_during(seat: Seat, request: Callable[[], httpx.Response]) -> tuple[float, float, httpx.Response]:
    """The slowest ping round trip (seconds) on ``seat`` while ``request`` runs in a thread, the request's own
    time, and its response."""
    answer: list[httpx.Response] = []
    worker = threading.Thread(target=lambda: answer.append(request()))
    began = time.monotonic()
    worker.start()
    worst = 0.0
    while worker.is_alive():
        start = time.monotonic()
        await seat.send({"type": "ping"})
        await seat.until(lambda m: m["type"] == "pong", 120)
        worst = max(worst, time.monotonic() - start)
        await asyncio.sleep(0.06)  # within the table's 20 messages a second
    worker.join()
    return worst, time.monotonic() - began, answer[0]


# ---------------------------------------------------------------------------------------------- computers' time
@pytest.mark.parametrize("level", ["expert:time=600", "expert:samples=100000"])
def test_a_client_cannot_choose_how_long_a_server_computer_thinks(client: TestClient, level: str) -> None:
    # the lobby offers levels by name (GET /api/meta "levels"); settings such as time= are for the command line,
    # where the machine is the player's own.  On the server they are everybody's workers.
    body = {"variant": "draw", "seats": [{"kind": "human"}, {"kind": "computer", "level": level}]}
    assert client.post("/api/games", json=body).status_code in (400, 422)
    data = long_record(1)
    loaded = client.post("/api/records", json={"record": data, "seats": body["seats"]})
    assert loaded.status_code in (400, 422)


def test_the_levels_the_lobby_offers_are_accepted(client: TestClient) -> None:
    levels = client.get("/api/meta").json()["levels"]
    assert "expert" in levels
    for level in levels:
        body = {"variant": "draw", "seats": [{"kind": "human"}, {"kind": "computer", "level": level}]}
        assert client.post("/api/games", json=body).status_code == 201, level


async def computer_answers(server: LiveServer, replies: int = 3, game_id: str | None = None) -> list[float]:
    """Seconds a human waits for an expert opponent's reply, after each of ``replies`` moves that pass the turn."""
    if game_id is None:
        game_id = new_game(server, [{"kind": "human"}, {"kind": "computer", "level": "expert"}], seed=11)
    seat = await sit(server, game_id)
    state = await seat.claim(0)
    waits: list[float] = []
    while len(waits) < replies and not state["finished"]:
        if not state["in_hand"]:
            await seat.send({"type": "next_hand", "hand": state["hand_number"]})
            state = await seat.state(lambda m: m["in_hand"], 120)
        elif state["turn"] != 0:
            state = await seat.state(lambda m: m["turn"] == 0 or not m["in_hand"], 120)
        else:
            version = state["version"]
            await seat.send({"type": "move", "move": state["legal"][0]})
            state = await seat.state(lambda m, seen=version: m["version"] > seen, 120)  # the move, stored and shown
            if state["in_hand"] and state["turn"] == 1:  # the computer's turn: time its reply
                start = time.monotonic()
                state = await seat.state(lambda m: m["turn"] == 0 or not m["in_hand"], 120)
                waits.append(time.monotonic() - start)
    return waits


def test_one_clients_computer_tables_do_not_starve_another_players_computer(db: str) -> None:
    async def main() -> list[float]:
        with LiveServer(db, ai_delay=0.0) as server:
            # the human's table first: the attacker's address (the same one here) then uses up its own quota
            game_id = new_game(server, [{"kind": "human"}, {"kind": "computer", "level": "expert"}], seed=11)
            with httpx.Client(timeout=30) as http:
                for _ in range(48):  # an attacker's tables: every seat an expert (a refusal is fine)
                    http.post(f"{server.url}/api/games",
                              json={"variant": "draw", "seats": [{"kind": "computer", "level": "expert"}] * 4})
            await asyncio.sleep(1)
            return await computer_answers(server, game_id=game_id)

    waits = asyncio.run(main())
    # measured here: alone, 0.5 s a reply; beside 16 such tables 1.1-1.6 s, beside 64 3.3-5.5 s
    assert statistics.median(waits) < 2.0, waits


def test_one_client_cannot_create_games_without_limit(client: TestClient) -> None:
    codes = [client.post("/api/games", json={"variant": "draw", "players": 2}).status_code for _ in range(300)]
    assert 429 in codes, "300 games created back to back from one address, none refused"


# ---------------------------------------------------------------------------------------- work on the event loop
def test_replaying_a_long_record_does_not_stop_other_tables(db: str) -> None:
    data = long_record(900)  # 901 hands: under the table's limit of 1,000
    body = json.dumps({"record": data})
    assert len(body) < Limits().max_record_body  # a body the server accepts

    async def main() -> tuple[float, float, int]:
        with LiveServer(db) as server:
            seat = await sit(server, new_game(server, [{"kind": "human"}, {"kind": "human"}]))
            worst, took, response = await worst_ping_during(
                seat, lambda: httpx.post(f"{server.url}/api/replay", content=body, headers=JSON, timeout=120))
            return worst, took, response.status_code

    worst, took, status = asyncio.run(main())
    assert status == 200
    # worked out on the event loop, the replay (about 1.5 s of work) would hold a ping for all of it; in a
    # worker thread a ping waits only for its turn at the interpreter.  Measured against the replay's own time,
    # so a machine busy with other work slows both alike.
    assert worst < took / 3, f"a ping on another table waited {worst:.2f} s of the replay's {took:.2f} s"


# ---------------------------------------------------------------------------------------- what is stored and read
def heavy_meta_body() -> str:
    """A legal one-hand record whose free-form ``meta`` (kept by writers, RECORD.md) is 330,000 empty lists:
    a 0.99 MB body, under the 1 MiB ``max_record_body``, that becomes about 24 MB of Python objects when read."""
    data = long_record(1)
    data["meta"] = {"notes": [[]] * 330_000}
    return json.dumps({"record": data}, separators=(",", ":"))


def resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 1e6


def test_an_uploaded_records_meta_does_not_hold_the_servers_memory(db: str) -> None:
    body = heavy_meta_body()
    with LiveServer(db) as server, httpx.Client(timeout=60) as http:
        before = resident_mb()
        codes = [http.post(f"{server.url}/api/records", content=body, headers=JSON).status_code for _ in range(10)]
        grown = resident_mb() - before
    assert set(codes) <= {201, 413, 422, 429}, codes
    # a record's game is a few KB; ten uploads may not hold more than a few MB once answered
    assert grown < 60, f"ten uploads of {len(body) // 1000} KB left the server {grown:.0f} MB larger"


def test_the_lobby_list_does_not_read_whole_stored_records(db: str) -> None:
    body = heavy_meta_body()
    with LiveServer(db) as server, httpx.Client(timeout=60) as http:
        for _ in range(10):
            loaded = http.post(f"{server.url}/api/records", content=body, headers=JSON)
            assert loaded.status_code in (201, 413, 422, 429), loaded.text
        server.app.state.rooms.rooms.clear()  # as after the idle sweep: the lobby reads the store, not memory
        start = time.monotonic()
        listed = http.get(f"{server.url}/api/games")
        took = time.monotonic() - start
    assert listed.status_code == 200
    # the 10 rows hold a name, a variant and a few numbers each: an idle server lists them in about 10 ms
    assert took < 0.25, f"GET /api/games took {took:.2f} s for {len(listed.json())} games"


@pytest.mark.parametrize("offset", [2**63, 10**20])
def test_a_huge_lobby_offset_is_a_clear_400(client: TestClient, offset: int) -> None:
    response = client.get(f"/api/games?offset={offset}")
    assert response.status_code == 400
    assert "offset" in response.json()["detail"]


def test_the_largest_lobby_offset_is_an_empty_page(client: TestClient) -> None:
    response = client.get(f"/api/games?offset={2**63 - 1}")
    assert response.status_code == 200
    assert response.json() == []


# ------------------------------------------------------------------------------------------------------ reviews
REVIEW_BODY_HANDS = 20  #: a 7 KB record: reviewing one seat at samples=400 takes a worker about 45 s


def heavy_review() -> dict[str, Any]:
    """A review request that keeps the worker busy (a 20-hand game, 400 deals a decision)."""
    return {"record": long_record(REVIEW_BODY_HANDS), "seat": 0, "samples": 400}


def test_reviews_whose_clients_left_do_not_lock_out_other_users(db: str) -> None:
    heavy = heavy_review()
    small = {"record": long_record(1), "seat": 0, "samples": 2}
    before = children()
    with LiveServer(db) as server:
        attackers = [threading.Thread(target=ask_review, args=(server.url, heavy, 1)) for _ in range(4)]
        for attacker in attackers:
            attacker.start()
        for attacker in attackers:
            attacker.join()
        time.sleep(0.5)
        try:
            answer = httpx.post(f"{server.url}/api/review", json=small, timeout=60)
        finally:
            end_new_children(before)
    assert answer.status_code == 200, answer.text


def test_the_server_stops_promptly_while_a_review_runs(db: str) -> None:
    heavy = heavy_review()
    before = children()
    server = LiveServer(db)
    with server:
        asker = threading.Thread(target=ask_review, args=(server.url, heavy, 30), daemon=True)
        asker.start()
        time.sleep(2)  # the review is running in the worker
        start = time.monotonic()
        server.server.should_exit = True
        server.thread.join(10)
        stopped = not server.thread.is_alive()
        took = time.monotonic() - start
        end_new_children(before)
    assert stopped, f"the server still runs {took:.0f} s after it was told to stop"


def test_a_second_review_at_once_from_one_address_is_refused_clearly(db: str) -> None:
    heavy = heavy_review()
    before = children()
    with LiveServer(db) as server:
        first = threading.Thread(target=ask_review, args=(server.url, heavy, 1))
        first.start()
        time.sleep(0.5)
        try:
            second = httpx.post(f"{server.url}/api/review", json=heavy, timeout=30)
        finally:
            end_new_children(before)
        first.join()
    assert second.status_code == 429
    assert "one at a time" in second.json()["detail"]


def test_a_review_beyond_the_servers_work_is_refused_with_what_to_ask_instead(db: str) -> None:
    long_game = {"record": long_record(2 * REVIEW_BODY_HANDS + 20), "seat": 0, "samples": 400}
    with LiveServer(db) as server:
        refused = httpx.post(f"{server.url}/api/review", json=long_game, timeout=30)
    assert refused.status_code == 400
    detail = refused.json()["detail"]
    assert "is more than one review here searches (100,000 moves times deals)" in detail
    assert "ask for at most" in detail and "boneyard review on your own machine" in detail


# -------------------------------------------------------------------------------------------- connections (HTTP)
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def answered(url: str, seconds: float) -> int | None:
    """The status of GET ``url``, asked again until ``seconds`` pass; None if it never came."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            return httpx.get(url, timeout=max(0.5, deadline - time.monotonic())).status_code
        except httpx.HTTPError:
            time.sleep(0.25)
    return None


def test_idle_connections_cannot_lock_out_new_visitors(tmp_path: Path) -> None:
    port = free_port()

    def few_files() -> None:  # a server allowed 256 open files (systemd's default soft limit is 1024)
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    command = [sys.executable, "-m", "boneyard", "serve", "--port", str(port),
               "--db", f"sqlite:///{tmp_path / 'games.sqlite3'}"]
    served = subprocess.Popen(command, preexec_fn=few_files, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    idle: list[socket.socket] = []
    try:
        url = f"http://127.0.0.1:{port}/api/meta"
        assert answered(url, 30) == 200
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(300)]  # connect, then say nothing
        time.sleep(0.5)
        # a public server closes a connection that sends no request within a few seconds (uvicorn closes an
        # idle kept-alive one after 5 s) or caps how many one address holds, so a visitor gets in
        assert answered(url, 8) == 200
    finally:
        for connection in idle:
            connection.close()
        served.terminate()
        served.wait(20)


def test_a_huge_request_header_is_refused(db: str) -> None:
    with LiveServer(db) as server, socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n")
        connection.settimeout(10)
        assert connection.recv(100).startswith(b"HTTP/1.1 400")


# ------------------------------------------------------------------------------------------ messages that fan out
def test_a_spectators_leave_sends_nothing_to_the_others(db: str) -> None:
    async def main() -> list[str]:
        with LiveServer(db) as server:
            game_id = new_game(server, [{"kind": "human"}, {"kind": "human"}])
            idle, others = await sit(server, game_id), await sit(server, game_id)
            await idle.send({"type": "leave"})
            await idle.state()  # the sender's answer: the table as a spectator
            await others.send({"type": "ping"})
            await others.until(lambda m: m["type"] == "pong")
            return [str(message["type"]) for message in others.seen[1:]]

    assert asyncio.run(main()) == ["pong"]


def test_tables_of_computers_alone_are_capped_and_people_still_get_tables(client: TestClient) -> None:
    """Each table of computers alone plays on by itself; the server runs at most ``max_computer_tables`` at once."""
    computers = {"variant": "draw", "seats": [{"kind": "computer", "level": "expert"}] * 2}
    codes = [client.post("/api/games", json=computers).status_code for _ in range(Limits().max_computer_tables + 1)]
    assert codes == [201] * Limits().max_computer_tables + [429]
    refused = client.post("/api/games", json=computers)
    assert "tables of computers alone are playing" in refused.json()["detail"]
    assert client.post("/api/games", json={"variant": "draw", "players": 2}).status_code == 201
