"""The web table's gate: an ASGI middleware that checks every request before the app sees it.

- ``Host`` must name this server (localhost, 127.0.0.1, [::1], or a host of ``--allow-origin``),
  and a browser's ``Origin``, when sent, must be one of those too — on HTTP and WebSocket alike.
  A page on another site cannot drive the table, even by pointing its own name at 127.0.0.1
  (DNS rebinding).  Refused with 403 and a JSON ``detail`` that says which header and how to allow it.
- A request body over its cap (:meth:`~boneyard.web.limits.Limits.body_cap`) is refused with 413
  before it is read: from ``Content-Length`` when the client sends one, else by counting the bytes
  as they stream in and stopping at the cap.
"""

from __future__ import annotations

from typing import Final

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketClose

from boneyard.tiles import is_ascii_number
from boneyard.web.limits import Limits

POLICY_VIOLATION: Final = 1008  #: WebSocket close code for a refused Host or Origin


class BodyTooLarge(HTTPException):
    """A body that passed its cap while streaming in (answered 413 by the app's HTTP error handler)."""

    def __init__(self, cap: int, path: str) -> None:
        super().__init__(413, f"the request body is larger than {cap} bytes, the limit of {path}")


class Guard:
    """Host/Origin allow-list and body caps in front of ``app``."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    def refusal(self, headers: Headers) -> str | None:
        """Why a request with ``headers`` is refused, or None."""
        host = headers.get("host", "")
        if not self.limits.allows_host(host):
            return (f"the Host {host[:100]!r} is not this server's; start the server with --allow-origin "
                    "NAME to serve a public name")
        origin = headers.get("origin")
        if origin is not None and not self.limits.allows_origin(origin):
            return (f"pages from {origin[:100]!r} may not use this server; start it with --allow-origin "
                    "ORIGIN to allow them")
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self.refusal(headers)
        if refusal is not None:
            if kind == "http":
                await JSONResponse({"detail": refusal}, status_code=403)(scope, receive, send)
            elif "websocket.http.response" in scope.get("extensions", {}):
                await send({"type": "websocket.http.response.start", "status": 403,
                            "headers": [(b"content-type", b"application/json")]})
                body = JSONResponse({"detail": refusal}).body
                await send({"type": "websocket.http.response.body", "body": body})
            else:
                await WebSocketClose(POLICY_VIOLATION, refusal[:120])(scope, receive, send)
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        await self._capped(scope, receive, send, headers)

    async def _capped(self, scope: Scope, receive: Receive, send: Send, headers: Headers) -> None:
        path = str(scope.get("path", ""))
        cap = self.limits.body_cap(path)
        declared = headers.get("content-length")
        number = None if declared is None else declared.strip()
        if number is not None and (not is_ascii_number(number, 18) or int(number) > cap):
            counted = number.isascii() and number.isdigit()  # a number, too large to read or to take
            detail = (f"the request body is larger than {cap} bytes, the limit of {path}" if counted
                      else f"Content-Length {number[:40]!r} is not a number of bytes")
            status = 413 if counted else 400
            await JSONResponse({"detail": detail}, status_code=status)(scope, receive, send)
            return
        received = 0
        started = False

        async def capped_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > cap:
                    raise BodyTooLarge(cap, path)
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, capped_receive, tracked_send)
        except BodyTooLarge as error:  # read outside the app's own error handling
            if started:
                raise
            await JSONResponse({"detail": error.detail}, status_code=413)(scope, receive, send)


__all__ = ["BodyTooLarge", "Guard"]
