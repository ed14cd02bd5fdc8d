"""A real web table for tests: uvicorn in a thread on 127.0.0.1 (an ephemeral port), served with the
settings of ``boneyard serve`` (:func:`boneyard.web.limits.server_config`), and WebSocket clients whose
every wait has a timeout, so a seat that stops receiving fails a test instead of hanging it."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from boneyard.web.app import create_app
from boneyard.web.limits import Limits, server_config

Message = dict[str, Any]


class LiveServer:
    """``with LiveServer(db, limits) as server:`` serves the table at ``server.url`` until the block ends."""

    def __init__(self, db: str, limits: Limits | None = None, *, ai_delay: float = 0.0,
                 send_buffer: int | None = None) -> None:
        self.limits = limits or Limits(chosen_deals=True)  # tables dealt from a seed, the same every run
        self.app = create_app(db, ai_delay=ai_delay, limits=self.limits)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if send_buffer is not None:  # the sockets it accepts inherit it: a client that does not read fills it soon
            self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        self.listener.bind(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(server_config(self.app, self.limits))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.listener.close()


class Seat:
    """One browser's WebSocket at a table."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.seen: list[Message] = []

    async def until(self, predicate: Callable[[Message], bool], timeout: float = 15.0) -> Message:
        """The next message that ``predicate`` accepts; AssertionError if none comes within ``timeout`` s."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:
                raw = await asyncio.wait_for(self.socket.recv(), max(left, 0.001))
            except TimeoutError:
                raise AssertionError(f"no expected message within {timeout} s; the last were "
                                     f"{[m.get('type') for m in self.seen[-5:]]}") from None
            message: Message = json.loads(raw)
            self.seen.append(message)
            if predicate(message):
                return message

    async def state(self, predicate: Callable[[Message], bool] = lambda m: True, timeout: float = 15.0) -> Message:
        return await self.until(lambda m: m["type"] == "state" and predicate(m), timeout)

    async def send(self, message: Message) -> None:
        await self.socket.send(json.dumps(message))

    async def claim(self, seat: int) -> Message:
        """Take ``seat``; its first state."""
        await self.send({"type": "claim", "seat": seat})
        await self.until(lambda m: m["type"] == "claimed")
        return await self.state(lambda m: m["you"] == seat)


async def sit(server: LiveServer, game_id: str, **options: Any) -> Seat:
    """A new connection to ``game_id``'s table, past its welcome state (as a spectator)."""
    socket = await connect(f"{server.ws_url}/ws/{game_id}", max_size=None, open_timeout=15, **options)
    seat = Seat(socket)
    await seat.state()
    return seat


__all__ = ["LiveServer", "Message", "Seat", "sit"]
