"""What the server sends to one WebSocket, queued and sent by a task of its own.

A room tells every connection of a change while it holds its lock (the next change waits for the
broadcast), so a send that waits would stop the whole table: a browser tab whose network stalled,
or a client that never reads, would freeze every other player once the socket's buffers filled
(on a live server, after about 600 messages to a spectator that did not read).  An :class:`Outbox`
takes a message at once (:meth:`Outbox.put` never waits) and its own task sends them in order.  A
connection that falls behind — more than ``backlog`` messages waiting, or one send that takes
longer than ``timeout`` seconds — is dropped: :attr:`Outbox.dropped` is set, every later
:meth:`~Outbox.put` raises :class:`~boneyard.web.rooms.ConnectionClosed` (so the room forgets the
connection) and the socket's owner closes it with :data:`FELL_BEHIND`; the page then reconnects
and gets the table as it is.

>>> import asyncio
>>> async def demo() -> list[str]:
...     sent: list[str] = []
...     async def send(text: str) -> None:
...         sent.append(text)
...     outbox = Outbox(send, backlog=8, timeout=1.0)
...     outbox.put("one"); outbox.put("two")
...     await outbox.flush()
...     await outbox.aclose()
...     return sent
>>> asyncio.run(demo())
['one', 'two']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from boneyard.web.rooms import ConnectionClosed

log = logging.getLogger(__name__)

FELL_BEHIND: Final = 4408
"""WebSocket close code for a connection dropped because it did not read what it was sent (the page
reconnects, as after any lost connection)."""


class Outbox:
    """One socket's outgoing messages: :meth:`put` queues, a task sends (``send`` raises
    :class:`ConnectionClosed`, or anything else, when the socket is gone)."""

    def __init__(self, send: Callable[[str], Awaitable[None]], *, backlog: int, timeout: float) -> None:
        self._send = send
        self._backlog = backlog
        self._timeout = timeout
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self.dropped = asyncio.Event()  #: set once the socket is gone or fell behind: nothing more is sent
        self.reason = ""  #: why it was dropped, for the close frame ("" when the socket closed itself)
        self._task = asyncio.create_task(self._drain())

    def put(self, text: str) -> None:
        """Queue ``text``; raises :class:`ConnectionClosed` if the connection is dropped (now or before)."""
        if self.dropped.is_set():
            raise ConnectionClosed(self.reason or "the socket is closed")
        if self._queue.qsize() >= self._backlog:
            self._drop(f"fell behind: {self._backlog} messages were waiting to be read")
            raise ConnectionClosed(self.reason)
        self._queue.put_nowait(text)

    async def flush(self) -> None:
        """Wait until every message queued so far is sent (or the connection dropped)."""
        joined = asyncio.ensure_future(self._queue.join())
        dropped = asyncio.ensure_future(self.dropped.wait())
        await asyncio.wait((joined, dropped), return_when=asyncio.FIRST_COMPLETED)
        for waiter in (joined, dropped):
            waiter.cancel()

    async def aclose(self) -> None:
        """Stop sending (what is still queued is not sent)."""
        self.dropped.set()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    def _drop(self, reason: str) -> None:
        if not self.dropped.is_set():
            self.reason = reason
            self.dropped.set()

    async def _drain(self) -> None:
        while True:
            text = await self._queue.get()
            try:
                await asyncio.wait_for(self._send(text), self._timeout)
            except TimeoutError:
                self._drop(f"fell behind: one message waited over {self._timeout:g} s to be read")
            except ConnectionClosed:
                self._drop("")
            except Exception:  # a socket that fails in another way is as gone as a closed one
                log.exception("a message could not be sent; the connection is dropped")
                self._drop("")
            finally:
                self._queue.task_done()
            if self.dropped.is_set():
                while not self._queue.empty():  # flush() waiters are let go
                    self._queue.get_nowait()
                    self._queue.task_done()
                return


__all__ = ["FELL_BEHIND", "Outbox"]
