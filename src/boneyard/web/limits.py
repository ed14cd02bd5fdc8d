"""The web table's limits, in one settings object: what a client may send, how much and how often.

:class:`Limits` is a frozen dataclass that :func:`boneyard.web.app.create_app` takes (tests lower
it); every field is documented in docs/web.md ("Limits and security").  The limits on size are
enforced before the bytes are read: uvicorn refuses a WebSocket message over ``max_message``
(its ``ws_max_size``, set by :func:`server_config` wherever the app is served) and
:class:`~boneyard.web.guard.Guard` refuses an HTTP body over its cap from ``Content-Length`` or as
it streams in.  The rest is counted per connection (:class:`TokenBucket`) or per client address
(:class:`Admission`).

>>> Limits().allows_host("localhost:8000"), Limits().allows_host("evil.example")
(True, False)
>>> Limits(allow_origins=("https://play.example",)).allows_origin("https://play.example")
True
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, NamedTuple
from urllib.parse import urlsplit

from boneyard.errors import BoneyardError
from boneyard.jsontext import MAX_DEPTH

DEFAULT_PORT: Final = 8000
"""The port of ``boneyard serve`` and ``boneyard play --web``: one origin, so the browser keeps its seats' tokens
(stored per origin) from one server to the next."""

if TYPE_CHECKING:
    import uvicorn

#: Host names that always reach this machine: a page from them is a page of this server.
LOCAL_HOSTS: Final = frozenset({"localhost", "127.0.0.1", "::1"})
DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}


class Origin(NamedTuple):
    """An allowed origin: ``scheme`` None allows http and https on any ``port`` (a host name was
    given); with a scheme, the port is the one given or the scheme's own."""

    scheme: str | None
    host: str
    port: int | None

    @classmethod
    def parse(cls, text: str) -> Origin:
        """``https://play.example``, ``play.example:8080`` or ``192.168.1.5``; raises :class:`BoneyardError`."""
        cleaned = text.strip().lower().rstrip("/")
        has_scheme = "://" in cleaned
        try:
            parts = urlsplit(cleaned if has_scheme else f"//{cleaned}")
            port = parts.port
        except ValueError as error:
            raise BoneyardError(f"--allow-origin {text!r}: {error}") from None
        if has_scheme and parts.scheme not in ("http", "https"):
            raise BoneyardError(f"--allow-origin {text!r}: the scheme must be http or https")
        if not parts.hostname or parts.path or parts.query or parts.fragment or parts.username:
            raise BoneyardError(f"--allow-origin {text!r}: expected an origin such as https://play.example "
                                "or a host name such as play.example")
        if has_scheme and port is None:
            port = DEFAULT_PORTS[parts.scheme]
        return cls(parts.scheme if has_scheme else None, parts.hostname, port)


def split_host(header: str) -> tuple[str, int | None] | None:
    """The host name and port of a ``Host`` header (``[::1]:8000`` → ``("::1", 8000)``); None if malformed."""
    try:
        parts = urlsplit(f"//{header.strip().lower()}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.path or parts.username:
        return None
    return parts.hostname, port


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit of the web table (sizes in bytes, rates per second)."""

    max_message: int = 4096  #: one WebSocket message; uvicorn closes the socket (1009) on a longer frame
    max_body: int = 64 * 1024  #: an HTTP request body, every endpoint but the two that take a record
    max_record_body: int = 1024 * 1024  #: ``POST /api/records`` and ``/api/replay`` (a 7-player PIP game: 16 KB)
    max_depth: int = MAX_DEPTH  #: nesting of arrays and objects in any JSON the server reads
    max_record_hands: int = 1000  #: hands of a record loaded or replayed (a game to 250 has a few dozen)
    max_meta: int = 16 * 1024  #: bytes of a loaded record's free-form ``meta`` as JSON (the table keeps it)
    max_name: int = 40  #: characters of a player's name (lobby and loaded records)
    max_connections: int = 1000  #: WebSocket connections open at once, in total
    max_connections_per_client: int = 32  #: WebSocket connections open at once from one client address
    messages_per_second: float = 20.0  #: WebSocket messages one connection may send, on average
    message_burst: int = 40  #: ... and at once
    #: hints one connection may ask for, on average (one per 2 s: a hint a turn, however quick the computers)
    hints_per_second: float = 0.5
    hint_burst: int = 5  #: ... and in a row
    games_per_minute: float = 20.0  #: new games (created or loaded from a record) one client address may make
    game_burst: int = 20  #: ... and at once
    #: statistics requests (``POST /api/stats``, up to 500 tables each) one client address may make
    stats_per_minute: float = 6.0
    stats_burst: int = 3  #: ... and at once
    #: tables of computers alone playing at once, in the whole server (each one's moves share the workers)
    max_computer_tables: int = 8
    #: messages waiting to be sent to one connection (its socket's buffers full): one more and it is dropped
    max_backlog: int = 64
    send_timeout: float = 30.0  #: seconds one message may wait to be taken by a connection before it is dropped
    #: seconds a connection has to send a whole request's headers (from connecting, or from its last response)
    header_timeout: float = 5.0
    allow_origins: tuple[str, ...] = ()  #: public origins or hosts served besides localhost (``--allow-origin``)
    #: whether a table of several people may be dealt from a seed its creator chose, or go on from an uploaded
    #: record (whose deal and seed its uploader chose): off, since whoever chose them knows every hand; tests
    #: that deal the same games every run turn it on
    chosen_deals: bool = False
    origins: tuple[Origin, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("max_message", "max_body", "max_record_body", "max_depth", "max_name", "max_connections",
                     "max_connections_per_client", "message_burst", "hint_burst", "max_backlog", "max_record_hands",
                     "max_meta", "game_burst", "max_computer_tables", "stats_burst"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise BoneyardError(f"limit {name} must be a whole number of at least 1, not {value!r}")
        for name in ("messages_per_second", "hints_per_second", "send_timeout", "games_per_minute",
                     "header_timeout", "stats_per_minute"):
            if not getattr(self, name) > 0:
                raise BoneyardError(f"limit {name} must be a positive number, not {getattr(self, name)!r}")
        if isinstance(self.allow_origins, str):
            raise BoneyardError("limit allow_origins must be a tuple of origins, not one string")
        object.__setattr__(self, "origins", tuple(Origin.parse(text) for text in self.allow_origins))

    @classmethod
    def settable(cls) -> dict[str, type]:
        """The limits ``boneyard serve --limit NAME=VALUE`` may set, with their types (the sizes, counts, rates
        and timeouts; not the origins, which have ``--allow-origin``, nor the tests' ``chosen_deals``)."""
        return {name: type(getattr(cls(), name)) for name in cls.__dataclass_fields__
                if name not in ("allow_origins", "chosen_deals", "origins")}

    @classmethod
    def from_settings(cls, assignments: Sequence[str], **given: Any) -> Limits:
        """The default limits with ``NAME=VALUE`` assignments (``--limit``) applied; a clear error for an unknown
        name or a value of the wrong kind."""
        known = cls.settable()
        for assignment in assignments:
            name, sep, text = assignment.partition("=")
            name = name.strip().replace("-", "_")
            if not sep or name not in known:
                raise BoneyardError(f"--limit {assignment!r}: expected NAME=VALUE with NAME one of "
                                    f"{', '.join(sorted(known))}")
            try:
                given[name] = known[name](text.strip())
            except ValueError:
                kind = "a whole number" if known[name] is int else "a number"
                raise BoneyardError(f"--limit {assignment!r}: {name} takes {kind}, not {text.strip()!r}") from None
        return cls(**given)

    def body_cap(self, path: str) -> int:
        """The largest body accepted on ``path``."""
        return self.max_record_body if path in ("/api/records", "/api/replay") else self.max_body

    def allows_host(self, header: str) -> bool:
        """Whether a request's ``Host`` header names this server (localhost, or an allowed origin's host)."""
        split = split_host(header)
        if split is None:
            return False
        host = split[0]
        return host in LOCAL_HOSTS or any(origin.host == host for origin in self.origins)

    def allows_origin(self, header: str) -> bool:
        """Whether a browser page from ``header`` (its ``Origin``) may call this server."""
        try:
            parts = urlsplit(header.strip().lower())
            port = parts.port
        except ValueError:
            return False
        host = parts.hostname
        if parts.scheme not in ("http", "https") or not host:
            return False  # includes the opaque origin "null" of files and sandboxed frames
        if host in LOCAL_HOSTS:
            return True
        port = port if port is not None else DEFAULT_PORTS[parts.scheme]
        return any(origin.host == host and origin.scheme in (None, parts.scheme)
                   and (origin.port is None or origin.port == port) for origin in self.origins)


def server_config(app: Any, limits: Limits, **settings: Any) -> uvicorn.Config:
    """uvicorn's settings for serving the web table: a WebSocket message over ``limits.max_message``
    is refused by uvicorn before it is read (``ws_max_size``; a compressed one is measured inflated).

    Per-message deflate is off by default: a state message is a few kilobytes, and compressing every one
    cost the server about 0.2 ms of CPU each, a tenth of a move's whole cost (docs/web.md); pass
    ``ws_per_message_deflate=True`` to trade that CPU for bandwidth.  The event loop is uvloop's
    where it is installed (the ``web`` extra installs it; uvicorn's ``loop="auto"``), else asyncio's."""
    import uvicorn

    from boneyard.web.timely import timely

    settings.setdefault("ws_per_message_deflate", False)
    # a connection that sends no whole request within header_timeout is closed (idle sockets, slow headers)
    settings.setdefault("http", timely(limits.header_timeout))
    # a request still running 3 s after the server was told to stop (a review) is cancelled, not waited for
    settings.setdefault("timeout_graceful_shutdown", 3)
    return uvicorn.Config(app, ws_max_size=limits.max_message, log_level="warning", **settings)


class TokenBucket:
    """``rate`` actions a second on average, ``burst`` at once; :meth:`take` says whether one may go."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class PerClient:
    """A :class:`TokenBucket` per client address (``rate`` a second, ``burst`` at once); buckets that filled up
    again are forgotten once there are many, so the table of addresses stays small."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, client: str) -> bool:
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) >= 10_000:
                now = self.clock()
                self.buckets = {address: kept for address, kept in self.buckets.items()
                                if kept.tokens + (now - kept.stamp) * kept.rate < kept.burst}
            bucket = self.buckets[client] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.take()


class Admission:
    """The open WebSocket connections, per client address and in total."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: Counter[str] = Counter()

    def admit(self, client: str) -> str | None:
        """Count a new connection from ``client`` in, or say why it is refused (nothing counted)."""
        limits = self.limits
        if self.open[client] >= limits.max_connections_per_client:
            return f"too many connections from your address (at most {limits.max_connections_per_client})"
        if self.open.total() >= limits.max_connections:
            return f"the server is full (at most {limits.max_connections} connections)"
        self.open[client] += 1
        return None

    def release(self, client: str) -> None:
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]


__all__ = ["LOCAL_HOSTS", "Admission", "Limits", "Origin", "PerClient", "TokenBucket", "server_config", "split_host"]
