"""A connection that does not read never stops a table (boneyard.web.outbox).

Found on a live server: a spectator that stopped reading filled its socket's buffers, the room's
broadcast then waited on it while holding the room's lock, and every other player's table froze
(after about 600 messages with the default buffers).  Each socket now has an outbox that takes a
message at once and sends it from a task of its own; one that falls behind is dropped."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import httpx2 as httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed as ClientClosed

from boneyard.errors import BoneyardError
from boneyard.web.limits import Limits
from boneyard.web.outbox import FELL_BEHIND, Outbox
from boneyard.web.rooms import ConnectionClosed
from tests.web_live import LiveServer, sit


async def never_returns(text: str) -> None:
    await asyncio.Event().wait()


def test_messages_go_out_in_order_and_put_never_waits() -> None:
    async def main() -> tuple[list[str], list[str]]:
        sent: list[str] = []
        gate = asyncio.Event()

        async def send(text: str) -> None:
            await gate.wait()
            sent.append(text)

        outbox = Outbox(send, backlog=10, timeout=5)
        for number in range(6):
            outbox.put(f"m{number}")  # returns at once although nothing can be sent yet
        before = list(sent)
        gate.set()
        await asyncio.wait_for(outbox.flush(), 5)
        await outbox.aclose()
        return before, sent

    before, sent = asyncio.run(main())
    assert before == []
    assert sent == [f"m{number}" for number in range(6)]


def test_a_connection_with_too_many_messages_waiting_is_dropped() -> None:
    async def main() -> tuple[bool, str, bool]:
        outbox = Outbox(never_returns, backlog=3, timeout=60)
        outbox.put("taken")  # the task takes it and waits on the socket
        await asyncio.sleep(0.01)
        for number in range(3):
            outbox.put(f"waiting {number}")
        with pytest.raises(ConnectionClosed):
            outbox.put("one too many")
        with pytest.raises(ConnectionClosed):  # and every later message
            outbox.put("later")
        dropped, reason = outbox.dropped.is_set(), outbox.reason
        await asyncio.wait_for(outbox.flush(), 5)  # a dropped outbox lets its flush go
        await outbox.aclose()
        return dropped, reason, True

    dropped, reason, flushed = asyncio.run(main())
    assert dropped and flushed
    assert reason == "fell behind: 3 messages were waiting to be read"


def test_a_message_not_taken_in_time_drops_the_connection() -> None:
    async def main() -> str:
        outbox = Outbox(never_returns, backlog=10, timeout=0.05)
        outbox.put("stuck")
        await asyncio.wait_for(outbox.dropped.wait(), 5)
        with pytest.raises(ConnectionClosed, match=r"waited over 0\.05 s"):
            outbox.put("next")
        await outbox.aclose()
        return outbox.reason

    assert asyncio.run(main()) == "fell behind: one message waited over 0.05 s to be read"


@pytest.mark.parametrize("failure", [ConnectionClosed, OSError])
def test_a_socket_that_fails_drops_the_connection_quietly(failure: type[Exception]) -> None:
    async def main() -> tuple[bool, str, list[str]]:
        sent: list[str] = []

        async def send(text: str) -> None:
            if text == "breaks":
                raise failure("gone")
            sent.append(text)

        outbox = Outbox(send, backlog=10, timeout=5)
        outbox.put("fine")
        outbox.put("breaks")
        outbox.put("never sent")
        await asyncio.wait_for(outbox.dropped.wait(), 5)
        await outbox.aclose()
        return outbox.dropped.is_set(), outbox.reason, sent

    dropped, reason, sent = asyncio.run(main())
    assert dropped and reason == ""  # no close code to send: the socket closed itself
    assert sent == ["fine"]


def test_backlog_and_send_timeout_are_checked_limits() -> None:
    with pytest.raises(BoneyardError, match="max_backlog must be a whole number of at least 1"):
        Limits(max_backlog=0)
    with pytest.raises(BoneyardError, match="send_timeout must be a positive number"):
        Limits(send_timeout=0)


async def lurker(server: LiveServer, game_id: str) -> ClientConnection:
    """A spectator that never reads: a tiny receive buffer, and its client stops reading after one message."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    raw.connect(("127.0.0.1", server.port))
    return await connect(f"{server.ws_url}/ws/{game_id}", sock=raw, max_size=None, max_queue=1, open_timeout=15)


def test_spectators_that_do_not_read_do_not_freeze_the_table(tmp_path: Path) -> None:
    """A whole game against the computer with three spectators that never read: every state reaches
    the player in time, and the spectators are dropped (close code 4408, or the connection cut when
    even the close frame could not be written)."""
    limits = Limits(chosen_deals=True, max_backlog=4, send_timeout=3)

    async def main(server: LiveServer, game_id: str) -> tuple[int, bool, int, list[int | None]]:
        ann = await sit(server, game_id)
        state = await ann.claim(0)
        lurkers = [await lurker(server, game_id) for _ in range(3)]
        moves = 0
        while not state["finished"]:
            if state["in_hand"] and state["turn"] == 0:
                await ann.send({"type": "move", "move": state["legal"][0]})
                moves += 1
                await asyncio.sleep(0.06)  # within the message rate
            elif not state["in_hand"]:
                await ann.send({"type": "next_hand", "hand": state["hand_number"]})
            state = await ann.state(timeout=10)  # an AssertionError if the table froze
        room = server.app.state.rooms.get(game_id)
        codes: list[int | None] = []
        for spectator in lurkers:
            with pytest.raises(ClientClosed):
                while True:
                    await asyncio.wait_for(spectator.recv(), 15)
            codes.append(spectator.close_code)
        return moves, bool(state["finished"]), len(room.connections), codes

    with LiveServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", limits, send_buffer=4096) as server:
        body = {"variant": "all-fives", "seed": 5,
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}]}
        game_id = httpx.post(f"{server.url}/api/games", json=body).json()["id"]
        moves, finished, connections, codes = asyncio.run(main(server, game_id))
    assert finished and moves > 20
    assert connections == 1  # only Ann: the three that did not read were dropped
    assert all(code in (FELL_BEHIND, 1006) for code in codes), codes


def test_the_thinker_serves_a_waiting_person_first_and_forgets_a_cancelled_job() -> None:
    """The tables' computers share the workers: a job a person waits for (``urgent``) goes before the moves of
    tables of computers alone, and a job cancelled while it waits gives its place to the next."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor
    from typing import Any

    from boneyard.web.rooms import Thinker

    order: list[str] = []
    lock = threading.Lock()

    def job(name: str) -> str:
        time.sleep(0.05)
        with lock:
            order.append(name)
        return name

    class ThreadThinker(Thinker):  # the same scheduling, in threads
        def __init__(self) -> None:
            super().__init__(1)
            self.threads = ThreadPoolExecutor(1)

        def pool(self) -> Any:
            return self.threads

    async def main() -> None:
        thinker = ThreadThinker()
        first = asyncio.ensure_future(thinker._run(job, "computers 1", urgent=False))
        await asyncio.sleep(0.01)  # it holds the one worker
        later = asyncio.ensure_future(thinker._run(job, "computers 2", urgent=False))
        dropped = asyncio.ensure_future(thinker._run(job, "left", urgent=True))
        await asyncio.sleep(0.01)
        person = asyncio.ensure_future(thinker._run(job, "person", urgent=True))
        await asyncio.sleep(0.01)
        dropped.cancel()
        await asyncio.wait_for(asyncio.gather(first, later, person), 5)
        assert thinker._busy == 0 and not thinker._waiting
        thinker.threads.shutdown()

    asyncio.run(main())
    assert order == ["computers 1", "person", "computers 2"]


def test_slow_headers_are_cut_off_but_a_quiet_websocket_stays(tmp_path: Path) -> None:
    """A connection must send a whole request's headers within ``header_timeout`` (idle sockets and headers sent a
    byte at a time used up the server's files); a WebSocket, once open, may stay quiet as long as it likes."""
    limits = Limits(chosen_deals=True, header_timeout=0.5)

    async def quiet_socket(server: LiveServer, game_id: str) -> str:
        seat = await sit(server, game_id)
        await asyncio.sleep(1.5)  # three times the header timeout, saying nothing
        await seat.send({"type": "ping"})
        return str((await seat.until(lambda m: m["type"] == "pong", 5))["type"])

    with LiveServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", limits) as server:
        with socket.create_connection(("127.0.0.1", server.port)) as slow:
            slow.settimeout(5)
            started = time.monotonic()
            closed = False
            for byte in b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\n":  # never finished
                try:
                    slow.sendall(bytes([byte]))
                except OSError:
                    closed = True
                    break
                time.sleep(0.05)
            if not closed:
                closed = slow.recv(100) == b""
            took = time.monotonic() - started
        with socket.create_connection(("127.0.0.1", server.port)) as idle:
            idle.settimeout(5)
            assert idle.recv(100) == b""  # connected, said nothing: closed
        game_id = httpx.post(f"{server.url}/api/games", json={"variant": "draw", "players": 2}).json()["id"]
        answer = asyncio.run(quiet_socket(server, game_id))
        with httpx.Client() as http:  # a kept-alive connection serves request after request
            statuses = [http.get(f"{server.url}/api/meta").status_code for _ in range(3)]
    assert closed and took < 4
    assert answer == "pong"
    assert statuses == [200, 200, 200]
