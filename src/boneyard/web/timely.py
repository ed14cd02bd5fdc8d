"""uvicorn's HTTP/1.1 protocol (h11), which also closes a connection that does not send a whole request in time.

uvicorn closes a kept-alive connection that stays silent after a response, but not one that connects and sends
nothing, or sends its request's headers a byte at a time: such connections were never closed, and a few hundred of
them used up the server's file descriptors, so every new visitor was turned away (an attacker's audit, session 18).
:class:`TimelyH11Protocol` gives every request ``header_timeout`` seconds from the connection (or from the previous
response) to deliver its headers; a WebSocket, once upgraded, is no longer timed.  :func:`~boneyard.web.limits.
server_config` serves with it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol


class TimelyH11Protocol(H11Protocol):
    """:class:`H11Protocol` with a deadline for each request's headers (``header_timeout``, set per server)."""

    header_timeout: float = 5.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        upgraded = self.transport.get_protocol() is not self  # a WebSocket now: its own protocol times it
        if upgraded or (self.cycle is not None and not self.cycle.response_complete):
            self._disarm()  # a whole request's headers came

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._header_timer is None and not self.transport.is_closing():
            self._arm()  # the next request on this connection gets the same time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        waiting = self.cycle is None or self.cycle.response_complete  # no request under way
        if waiting and self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()


def timely(header_timeout: float) -> type[TimelyH11Protocol]:
    """The protocol class for one server's ``header_timeout``."""
    return type("TimelyH11Protocol", (TimelyH11Protocol,), {"header_timeout": header_timeout})


__all__ = ["TimelyH11Protocol", "timely"]
