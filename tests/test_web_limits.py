"""The web table's limits (issue 13, defects 6-8): sizes refused before they are read, nesting, seeds,
names, the Host/Origin allow-list, one seat per connection, connection caps and rate limits.

Each limit is lowered through :class:`boneyard.web.limits.Limits` where the default would make the
test slow; the defaults themselves are checked where the attack of the issue used them."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import httpx2 as httpx
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import boneyard
from boneyard import record
from boneyard.chance import MAX_SEED
from boneyard.errors import BoneyardError
from boneyard.web.app import create_app
from boneyard.web.limits import Limits, TokenBucket, server_config
from tests.web_live import LiveServer, Message, sit

DEEP = "[" * 2000 + "]" * 2000

#: tables of people dealt from a seed, the same games every run
SEEDED = Limits(chosen_deals=True)


def local(app: Any, host: str = "localhost") -> TestClient:
    return TestClient(app, base_url=f"http://{host}")


def connect(client: TestClient, path: str, host: str = "localhost", **headers: str) -> WebSocketTestSession:
    return client.websocket_connect(urljoin(f"ws://{host}", path), headers=dict(headers))


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with local(create_app(db, ai_delay=0, limits=SEEDED)) as test_client:
        yield test_client


def make_client(db: str, **limits: Any) -> TestClient:
    return local(create_app(db, ai_delay=0, limits=Limits(**{"chosen_deals": True, **limits})))


def new_game(client: TestClient, **extra: Any) -> str:
    body = {"variant": "draw", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 3, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def welcome(ws: WebSocketTestSession) -> Message:
    message: Message = ws.receive_json()
    assert message["type"] == "state"
    return message


def answer(ws: WebSocketTestSession, kind: str) -> Message:
    """The next message of type ``kind`` (states in between are skipped)."""
    for _ in range(50):
        message: Message = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def small_record() -> dict[str, Any]:
    game = boneyard.new_game("draw", seed=5, names=["Ann", "Bob"])
    game.apply(game.legal_moves()[0])
    return record.to_record(game)


# ---------------------------------------------------------------------------- Host and Origin
@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:9", "[::1]:8000"])
def test_local_hosts_are_served(db: str, host: str) -> None:
    with local(create_app(db, limits=SEEDED), host) as client:
        assert client.get("/api/variants").status_code == 200


@pytest.mark.parametrize("headers", [{"host": "evil.example"}, {"host": "127.0.0.1.evil.example"},
                                     {"origin": "http://evil.example"}, {"origin": "null"},
                                     {"origin": "http://localhost.evil.example:8000"}])
def test_other_hosts_and_origins_are_refused_on_http_and_websocket(client: TestClient, headers: dict[str, str]) -> None:
    """Defect 8: DNS rebinding (a page of evil.example resolving to 127.0.0.1) and cross-site pages."""
    response = client.get("/api/games", headers=headers)
    assert response.status_code == 403 and "--allow-origin" in response.json()["detail"]
    game_id = new_game(client)
    host = headers.get("host", "localhost")
    with pytest.raises(WebSocketDenialResponse) as denied, connect(client, f"/ws/{game_id}", host, **{
            k: v for k, v in headers.items() if k != "host"}):
        pass
    assert denied.value.status_code == 403


def test_allow_origin_adds_a_public_host(db: str) -> None:
    limits = {"allow_origins": ("https://play.example", "192.168.1.5")}
    with make_client(db, **limits) as client:
        for host, origin, status in [
            ("play.example", "https://play.example", 200), ("play.example", "https://play.example:443", 200),
            ("play.example", "http://play.example", 403), ("play.example", "https://play.example:8443", 403),
            ("192.168.1.5:8000", "http://192.168.1.5:8000", 200), ("other.example", "https://play.example", 403),
            ("localhost", "http://localhost:5173", 200),
        ]:
            response = client.get("/api/variants", headers={"host": host, "origin": origin})
            assert response.status_code == status, (host, origin)


def test_a_live_server_refuses_a_cross_site_websocket(db: str) -> None:
    async def attempt(server: LiveServer, game_id: str) -> None:
        with pytest.raises(InvalidStatus) as refused:
            await sit(server, game_id, origin="http://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        assert (await sit(server, game_id, origin="http://localhost:8000")).socket.response is not None

    with LiveServer(db) as server:
        game_id = httpx.post(f"{server.url}/api/games", json={"variant": "draw", "players": 2}).json()["id"]
        assert httpx.get(f"{server.url}/api/games", headers={"host": "evil.example"}).status_code == 403
        asyncio.run(attempt(server, game_id))


@pytest.mark.parametrize("origin", ["ftp://play.example", "https://play.example/path", "", "https://:80"])
def test_a_bad_allowed_origin_is_a_clear_error(origin: str) -> None:
    with pytest.raises(BoneyardError, match="allow-origin"):
        Limits(allow_origins=(origin,))


def test_limits_out_of_range_are_clear_errors() -> None:
    for limits, words in [({"max_message": 0}, "max_message must be a whole number of at least 1"),
                          ({"hints_per_second": 0}, "hints_per_second must be a positive number"),
                          ({"allow_origins": "https://play.example"}, "a tuple of origins")]:
        with pytest.raises(BoneyardError, match=words):
            Limits(**limits)


def test_serve_takes_allow_origin_and_serves_with_the_limits(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect 6: ``serve`` hands uvicorn the WebSocket size limit (checked before a frame is read)."""
    import uvicorn
    from typer.testing import CliRunner

    from boneyard.cli import app

    served: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: served.append(server.config))
    result = CliRunner().invoke(app, ["serve", "--db", db, "--allow-origin", "https://play.example",
                                      "--allow-origin", "lan-box"])
    assert result.exit_code == 0, result.output
    config = served[0]
    assert config.ws_max_size == Limits().max_message
    limits = config.app.state.limits  # type: ignore[union-attr]
    config.app.state.store.dispose()  # type: ignore[union-attr]
    assert limits.allows_host("lan-box:8000") and limits.allows_origin("https://play.example")
    bad = CliRunner().invoke(app, ["serve", "--db", db, "--allow-origin", "ftp://x"])
    assert bad.exit_code == 2 and "the scheme must be http or https" in bad.output


def test_serve_takes_a_file_name_for_its_store_and_refuses_a_bad_url(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from boneyard.cli import app

    served: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: served.append(server.config))
    plain = tmp_path / "games.db"
    result = CliRunner().invoke(app, ["serve", "--db", str(plain)])
    assert result.exit_code == 0, result.output
    assert f"Games are stored in {plain}" in result.output and plain.exists()
    served[0].app.state.store.dispose()  # type: ignore[union-attr]
    bad = CliRunner().invoke(app, ["serve", "--db", "bogus://x"])
    assert bad.exit_code == 2 and "--db bogus://x: cannot open the game store" in bad.output
    assert "Traceback" not in bad.output and len(served) == 1


def test_play_in_the_browser_serves_with_the_limits_at_a_hot_seat_table(db: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from boneyard.web.server import play_in_browser

    served: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: served.append(server.config))
    play_in_browser("block", 2, [], "random", db_url=db, open_browser=False)
    config = served[0]
    assert config.ws_max_size == Limits().max_message
    rooms = config.app.state.rooms  # type: ignore[union-attr]
    hot_seat = [room.hot_seat for room in rooms.rooms.values()]
    config.app.state.store.dispose()  # type: ignore[union-attr]
    assert hot_seat == [True]


def test_play_in_the_browser_takes_a_name_a_seed_and_a_record_to_resume(db: str, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from boneyard import record
    from boneyard.web.server import play_in_browser

    served: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: served.append(server.config))
    play_in_browser("draw", 2, [], "random", db_url=db, open_browser=False, name="You")  # "You": the default
    (named,) = served[0].app.state.rooms.rooms.values()  # type: ignore[union-attr]
    assert named.seats[0].name == "Player 1"
    served[0].app.state.store.dispose()  # type: ignore[union-attr]
    served.clear()
    play_in_browser("draw", 2, [], "random", db_url=db, open_browser=False, seed=7, name="Ann")
    rooms = served[0].app.state.rooms  # type: ignore[union-attr]
    (room,) = [room for room in rooms.rooms.values() if room.seed == 7]
    assert [seat.name for seat in room.seats] == ["Ann", "Computer 1"]
    room.game.apply(room.game.legal_moves()[0])
    saved = tmp_path / "ann.boneyard.json"
    record.save(room.game, saved, meta={"human_seat": 0, "ai": {"1": "heuristic"}})
    served[0].app.state.store.dispose()  # type: ignore[union-attr]
    play_in_browser(None, 2, [], "greedy", db_url=db, open_browser=False, resume=saved)
    resumed = [room for room in served[1].app.state.rooms.rooms.values()]  # type: ignore[union-attr]
    served[1].app.state.store.dispose()  # type: ignore[union-attr]
    assert len(resumed) == 1 and len(resumed[0].game.hand.events) >= 1
    assert [(seat.name, seat.kind, seat.level) for seat in resumed[0].seats][1] == ("Computer 1", "computer",
                                                                                    "heuristic")


def test_play_in_the_browser_opens_a_finished_record_at_its_replay(db: str, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``boneyard play --resume FINISHED --web``: there is nothing left to play, so the browser is sent to the
    game's replay (the terminal offers ``boneyard replay`` for the same record), and the replay is served."""
    import random

    import uvicorn

    from boneyard.web.server import play_in_browser

    game = boneyard.new_game("block", players=2, seed=4, names=["Ann", "Computer 1"])
    rng = random.Random(4)
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
        game.apply(rng.choice(game.legal_moves()))
    saved = tmp_path / "done.boneyard.json"
    record.save(game, saved, meta={"human_seat": 0, "ai": {"1": "greedy"}})
    before = saved.read_bytes()
    served: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: served.append(server.config))
    play_in_browser(None, 2, [], "greedy", db_url=db, open_browser=False, resume=saved, port=0)
    out = capsys.readouterr().out
    app = served[0].app
    try:
        (room,) = app.state.rooms.rooms.values()  # type: ignore[union-attr]
        assert f"{saved} holds a finished game" in out and "replay" in out
        assert f"/replay/{room.id} " in out and f"/game/{room.id}" not in out
        with TestClient(app, base_url="http://127.0.0.1") as client:  # type: ignore[arg-type]
            assert client.get(f"/replay/{room.id}").status_code == 200
            steps = client.get(f"/api/games/{room.id}/replay")
            assert steps.status_code == 200, steps.text
            hands = steps.json()["hands"]
            assert len(hands) == len(game.log) and all(hand["steps"] for hand in hands)
    finally:
        app.state.store.dispose()  # type: ignore[union-attr]
    assert saved.read_bytes() == before  # the record file is only read


# ---------------------------------------------------------------------------- sizes
def test_an_oversized_websocket_message_is_refused_by_the_server_unread(db: str) -> None:
    """Defect 6: uvicorn used to read messages up to 16 MiB before the app refused them."""

    async def send_big(server: LiveServer, game_id: str) -> None:
        seat = await sit(server, game_id)
        await seat.send({"type": "ping"})
        await seat.until(lambda m: m["type"] == "pong")
        await seat.send({"type": "move", "move": "x" * 100_000})
        with pytest.raises(ConnectionClosed) as closed:
            await seat.until(lambda m: False, timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

    with LiveServer(db) as server:
        game_id = httpx.post(f"{server.url}/api/games", json={"variant": "draw", "players": 2}).json()["id"]
        asyncio.run(send_big(server, game_id))


@pytest.mark.parametrize("path", ["/api/games", "/api/records", "/api/replay"])
def test_a_body_over_its_cap_is_refused_from_its_length(db: str, path: str) -> None:
    with make_client(db, max_body=2000, max_record_body=5000) as client:
        cap = 5000 if path != "/api/games" else 2000
        response = client.post(path, content=b'{"pad": "' + b"x" * cap + b'"}',
                               headers={"content-type": "application/json"})
        assert response.status_code == 413
        assert response.json()["detail"] == f"the request body is larger than {cap} bytes, the limit of {path}"


def test_the_default_caps_refuse_a_large_record_or_replay(client: TestClient) -> None:
    """Defect 6: a 100 MB body was accepted by /api/records (as an object) and /api/replay."""
    data = small_record()
    data["padding"] = "x" * (Limits().max_record_body + 1)
    for path in ("/api/records", "/api/replay"):
        assert client.post(path, json={"record": data}).status_code == 413
    assert client.post("/api/games", json={"variant": "draw", "pad": "x" * Limits().max_body}).status_code == 413


def test_a_streamed_body_is_cut_off_at_its_cap(db: str) -> None:
    """A chunked body has no length: its bytes are counted as they come, and it stops at the cap."""
    chunks_sent = 0

    def chunks() -> Iterator[bytes]:
        nonlocal chunks_sent
        yield b'{"record": "'
        for _ in range(200):
            chunks_sent += 1
            yield b"x" * 1000

    with LiveServer(db, Limits(max_record_body=10_000, chosen_deals=True)) as server:
        try:
            response = httpx.post(f"{server.url}/api/replay", content=chunks(),
                                  headers={"content-type": "application/json"})
        except httpx.HTTPError:  # the server may close before every chunk is sent
            assert chunks_sent < 200
        else:
            assert response.status_code == 413 and "10000 bytes" in response.json()["detail"]
        ok = httpx.post(f"{server.url}/api/replay", json={"record": small_record()})
        assert ok.status_code == 200


# ---------------------------------------------------------------------------- nesting, seeds, names
def test_deep_nesting_in_a_socket_message_is_malformed_and_the_socket_goes_on(client: TestClient) -> None:
    """Defect 7: 2,000 nested ``[`` raised RecursionError in the socket handler."""
    game_id = new_game(client)
    with connect(client, f"/ws/{game_id}") as ws:
        welcome(ws)
        ws.send_text(DEEP)
        error = answer(ws, "error")
        assert error["code"] == "malformed" and "nested deeper than" in error["message"]
        ws.send_json({"type": "ping"})
        assert answer(ws, "pong")


@pytest.mark.parametrize(("path", "body"), [
    *((path, '{"record": ' + DEEP + "}") for path in ("/api/records", "/api/replay")),
    *((path, json.dumps({"record": DEEP})) for path in ("/api/records", "/api/replay")),
    ("/api/games", '{"variant": "draw", "options": ' + DEEP + "}"),
])
def test_deep_nesting_in_a_body_is_a_clean_400(client: TestClient, path: str, body: str) -> None:
    """Defect 7: the same nesting in a record sent to /api/records or /api/replay was a 500."""
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400 and "nested deeper than" in response.json()["detail"]


@pytest.mark.parametrize("seed", [2**63, 2**64 + 5, -1, "7", 1.5, True])
def test_a_seed_out_of_range_is_a_422(client: TestClient, seed: Any) -> None:
    """Defect 7: a seed of 2^63 or more overflowed the database column (a 500)."""
    response = client.post("/api/games", json={"variant": "draw", "players": 2, "seed": seed})
    assert response.status_code == 422 and "from 0 to 2^63 - 1" in response.json()["detail"]
    data = small_record()
    data["seed"] = seed
    loaded = client.post("/api/records", json={"record": data})
    assert loaded.status_code == 422 and "the record's seed" in loaded.json()["detail"]
    assert client.get("/api/games").json() == []


def test_the_largest_seed_is_stored(client: TestClient) -> None:
    response = client.post("/api/games", json={"variant": "draw", "players": 2, "seed": MAX_SEED})
    assert response.status_code == 201
    data = small_record()
    data["seed"] = MAX_SEED
    assert client.post("/api/records", json={"record": data}).status_code == 201


def test_names_are_at_most_40_characters(client: TestClient) -> None:
    """Defect 8: names in loaded records were not length-limited; the lobby cut them silently."""
    fine, long = "A" * 40, "B" * 41
    response = client.post("/api/games", json={"variant": "draw", "seats": [{"name": fine}, {"name": long}]})
    assert response.status_code == 422
    assert response.json()["detail"] == "seat 2: a name is at most 40 characters (this one has 41)"
    assert client.post("/api/games", json={"variant": "draw", "seats": [{"name": fine}, {}]}).status_code == 201
    data = small_record()
    data["players"] = ["Ann", long]
    for path in ("/api/records", "/api/replay"):
        refused = client.post(path, json={"record": data})
        assert refused.status_code == 422 and "the record's player 2" in refused.json()["detail"], path


# ---------------------------------------------------------------------------- seats and connections
def test_one_connection_plays_one_seat(client: TestClient) -> None:
    """Defect 8: one connection could claim every free human seat."""
    game_id = new_game(client)
    with connect(client, f"/ws/{game_id}") as ws, connect(client, f"/ws/{game_id}") as other:
        welcome(ws)
        welcome(other)
        ws.send_json({"type": "claim", "seat": 0})
        token = answer(ws, "claimed")["token"]
        ws.send_json({"type": "claim", "seat": 1})
        assert answer(ws, "error")["code"] == "one_seat"
        ws.send_json({"type": "leave"})
        ws.send_json({"type": "claim", "seat": 1})
        assert answer(ws, "error")["code"] == "one_seat"
        other.send_json({"type": "claim", "seat": 1})
        other_token = answer(other, "claimed")["token"]
        ws.send_json({"type": "resume", "token": other_token})
        assert answer(ws, "error")["code"] == "one_seat"
        ws.send_json({"type": "resume", "token": token})
        assert answer(ws, "claimed")["seat"] == 0


def test_a_hot_seat_table_lets_one_connection_play_every_seat(db: str) -> None:
    with local(create_app(db, ai_delay=0, limits=SEEDED)) as client:
        assert client.post("/api/games", json={"variant": "draw", "players": 2, "hot_seat": "yes"}).status_code == 400
        game_id = new_game(client, hot_seat=True)
        with connect(client, f"/ws/{game_id}") as ws:
            welcome(ws)
            tokens = []
            for seat in (0, 1):
                ws.send_json({"type": "claim", "seat": seat})
                tokens.append(answer(ws, "claimed")["token"])
            ws.send_json({"type": "resume", "token": tokens[0]})
            assert answer(ws, "claimed")["seat"] == 0
    # the room is still for hot-seat play after a restart
    with local(create_app(db, ai_delay=0, limits=SEEDED)) as client:
        room = client.app.state.rooms.get(game_id)  # type: ignore[attr-defined]
        assert room is not None and room.hot_seat


def test_connections_per_client_and_in_total_are_capped(db: str) -> None:
    """Defect 8: 500 spectators slowed every move; now the server says no, with a reason and close code 1013."""
    with make_client(db, max_connections_per_client=2, max_connections=3) as client:
        game_id = new_game(client)
        with connect(client, f"/ws/{game_id}") as one, connect(client, f"/ws/{game_id}") as two:
            welcome(one)
            welcome(two)
            with connect(client, f"/ws/{game_id}") as three:
                refused = three.receive_json()
                assert refused["code"] == "too_many_connections" and "at most 2" in refused["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    three.receive_json()
                assert closed.value.code == 1013
        with connect(client, f"/ws/{game_id}") as again:  # closed connections are counted out
            welcome(again)
    with make_client(db, max_connections_per_client=5, max_connections=1) as client:
        game_id = new_game(client)
        with connect(client, f"/ws/{game_id}") as one, connect(client, f"/ws/{game_id}") as two:
            welcome(one)
            assert "the server is full" in two.receive_json()["message"]


def test_messages_and_hints_are_rate_limited_per_connection(db: str) -> None:
    with make_client(db, message_burst=4, messages_per_second=0.001, hint_burst=1, hints_per_second=0.001) as client:
        game_id = new_game(client)
        with connect(client, f"/ws/{game_id}") as ws:
            ws.send_json({"type": "claim", "seat": welcome(ws)["turn"]})  # the seat on turn may ask for hints
            answer(ws, "claimed")
            ws.send_json({"type": "hint"})
            assert answer(ws, "hint")["move"]
            ws.send_json({"type": "hint"})
            limited = answer(ws, "error")
            assert limited["code"] == "rate_limited" and "hints" in limited["message"]
            ws.send_json({"type": "ping"})  # the fourth message of a burst of four
            assert answer(ws, "pong")
            ws.send_json({"type": "ping"})
            limited = answer(ws, "error")
            assert limited["code"] == "rate_limited" and "at most 4 at once" in limited["message"]


def test_a_token_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(2.0, 3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 100  # never more than the burst
    assert sum(bucket.take() for _ in range(10)) == 3


def test_the_server_compresses_no_message_unless_asked(db: str) -> None:
    # Deflating every state message cost about a tenth of a move's CPU (docs/web.md); it is a choice, not a default.
    app = create_app(db)
    limits = Limits(max_message=2048)
    plain = server_config(app, limits)
    assert plain.ws_per_message_deflate is False
    assert plain.ws_max_size == 2048
    assert server_config(app, limits, ws_per_message_deflate=True).ws_per_message_deflate is True


def test_the_server_runs_on_uvloop_where_it_is_installed(db: str) -> None:
    # uvloop (the web extra installs it) took 5-20% off the event loop's CPU per move (docs/web.md).
    uvloop = pytest.importorskip("uvloop")
    config = server_config(create_app(db), Limits())
    if not hasattr(config, "get_loop_factory"):
        pytest.skip("uvicorn before 0.36 chooses its loop elsewhere")
    factory = config.get_loop_factory()
    assert factory is not None
    loop = factory()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_a_serving_app_lets_the_store_writer_take_the_gil_back_within_a_millisecond(db: str) -> None:
    # The writer lets go of the GIL in every SQLite call; at Python's default 5 ms switch interval a
    # busy event loop kept it that long each time (docs/web.md, "Load").
    from boneyard.web.store import SWITCH_INTERVAL

    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        with TestClient(create_app(db)):
            assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL) and SWITCH_INTERVAL <= 0.001
    finally:
        sys.setswitchinterval(before)


def test_play_in_the_browser_keeps_serves_port_and_says_so_when_it_is_busy(db: str,
                                                                           monkeypatch: pytest.MonkeyPatch,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The browser keeps a seat's token per origin: a table on a new port every run lost the player's seat."""
    import socket

    import uvicorn

    from boneyard.web.server import play_in_browser

    ports: list[int] = []
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda server, sockets=None: ports.append(sockets[0].getsockname()[1]))
    with socket.socket() as probe:  # a port nobody holds now
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    play_in_browser("block", 2, [], "random", db_url=db, open_browser=False, port=free)
    assert ports == [free]
    assert "busy" not in capsys.readouterr().out
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        busy = holder.getsockname()[1]
        play_in_browser("block", 2, [], "random", db_url=db, open_browser=False, port=busy)
    out = capsys.readouterr().out
    assert ports[1] != busy
    assert f"Port {busy} is busy" in out and f"uses port {ports[1]}" in out and f"127.0.0.1:{ports[1]}/game/" in out


def test_serve_sets_a_limit_by_name_and_refuses_one_it_does_not_know(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A club whose members reach the server from one address (one NAT) raises that address's share:
    ``boneyard serve --limit max_connections_per_client=200``."""
    import uvicorn
    from typer.testing import CliRunner

    from boneyard.cli import app
    from boneyard.web.limits import Limits

    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: served.append(server.config))
    db = str(tmp_path / "club.sqlite3")
    result = CliRunner().invoke(app, ["serve", "--db", db, "--limit", "max_connections_per_client=200",
                                      "--limit", "games-per-minute=60"])
    assert result.exit_code == 0, result.output
    limits = served[-1].app.state.limits
    served[-1].app.state.store.dispose()
    assert (limits.max_connections_per_client, limits.games_per_minute) == (200, 60.0)
    assert limits.max_connections == Limits().max_connections  # the others as they were
    for wrong, said in (("nope=3", "expected NAME=VALUE with NAME one of"),
                        ("max_connections_per_client=lots", "max_connections_per_client takes a whole number"),
                        ("games_per_minute=0", "games_per_minute must be a positive number"),
                        ("chosen_deals=1", "expected NAME=VALUE")):
        refused = CliRunner().invoke(app, ["serve", "--db", db, "--limit", wrong])
        assert refused.exit_code == 2 and said in refused.output, (wrong, refused.output)
    assert len(served) == 1
