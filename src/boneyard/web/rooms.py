"""Rooms: one per game, with its seats, its connections and the message protocol.

A seat is ``human`` (claimed by a browser with ``claim``, which returns a secret token; the
same browser comes back with ``resume``) or ``computer`` (a player level that moves on the
server).  Anyone else connected is a spectator.  A connection plays one human seat, unless the
room was made for hot-seat play (``hot_seat``).  Each connection gets its own ``state``
message built from a :class:`~boneyard.view.SeatView` (a spectator's from a
:class:`~boneyard.view.TableView`): its own hand and legal moves, the public table, and never
another seat's tiles, the stock order or the seed.  Hands are shown to
everyone once a hand is over (the end-of-hand summary), as at a real table.

Messages from a client (JSON objects, ``type`` says which; at most :data:`MAX_MESSAGE` bytes):

=============  ===========================================  ===================================
type           fields                                       answer
=============  ===========================================  ===================================
``claim``      ``seat``: a free human seat; ``invite``:     ``claimed`` {seat, token}, states
               the table's invitation, where it has one
``resume``     ``token``: from an earlier ``claimed``       ``claimed`` {seat, token}, state
``leave``      —                                            ``state`` as a spectator
``move``       ``move``: notation (``4-2@1``, ``draw``…)    ``state`` to everyone
``hint``       —  (one pending per connection)              ``hint`` {move, reason}
``undo``       —  (one human against computers only)        ``state`` to everyone
``next_hand``  ``hand`` (optional): the hand seen to end     ``state`` to everyone (nothing if dealt already)
``ping``       —                                            ``pong``
=============  ===========================================  ===================================

Anything wrong is answered with ``error`` {code, message} to that connection only and changes
nothing: ``malformed``, ``oversized``, ``unknown_type``, ``bad_move``, ``illegal``,
``not_your_turn``, ``spectator``, ``seat_taken``, ``bad_seat``, ``bad_token``, ``no_undo``,
``hand_in_progress``, ``game_over``, ``hint_pending``, ``hint_stale``, ``hint_failed``,
``not_stored``, ``one_seat``, ``invite_needed``.

A table made for invited people (``POST /api/games`` with ``"invite": true``) keeps its free seats
for whoever has its invitation: a secret given once to its creator (the page puts it in the table's
link), of which the room keeps only a hash.  Anyone else may watch; a seat once claimed comes back
with its token, as at any table.

Nothing slow runs on the event loop: a move is stored by the store's writer thread (awaited,
so nobody is told of a move before it is committed), and hints and the moves of computer levels
that search (anything but ``random`` and ``greedy``) are worked out by a :class:`Thinker`, a
small pool of worker processes sent the game's record, so a search holds neither the loop nor
the server's GIL.  One room's changes are strictly ordered by its lock; a computer thinks
outside it, and its move is dropped (and thought again) if the position changed meanwhile (an
undo, say).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import heapq
import itertools
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Final, Literal

from boneyard import record
from boneyard.chance import MAX_SEED, HandChance, game_seed
from boneyard.errors import BoneyardError, IllegalMoveError, NotationError
from boneyard.moves import Kind, Move
from boneyard.options import non_defaults
from boneyard.players.base import make_player
from boneyard.pools import spawn_pool, stop_pool
from boneyard.render.geometry import Geometry, TileBox, extend_geometry, hotspots, table_size
from boneyard.rules.base import make_rules
from boneyard.state import Game
from boneyard.tiles import Tile
from boneyard.view import SeatView, TableView
from boneyard.web.narrate import Narrator, json_text, table_marks
from boneyard.web.store import Append, Checkpoint, Seats, Store, StoredGame, TakeBack

MAX_MESSAGE: Final = 4096  #: bytes; longer messages are refused unread
INLINE_LEVELS: Final = frozenset({"random", "greedy"})  #: levels cheap enough to choose on the event loop
IDLE_SECONDS: Final = 600.0  #: a room with nobody connected and nothing to do leaves memory after this long
log = logging.getLogger(__name__)
SeatKind = Literal["human", "computer"]
Send = Callable[[dict[str, Any]], Awaitable[None]]
SendText = Callable[[str], Awaitable[None]]
#: The fields of a ``state`` message, in order; those in :data:`SEAT_KEYS` are each connection's
#: own, the rest are the same for every connection and encoded once per broadcast.
STATE_KEYS: Final = ("type", "game", "variant", "title", "version", "hand_number", "you", "players", "hand", "legal",
                     "can_draw", "can_pass", "gives", "turn", "direction", "stock", "out_of_play", "target",
                     "hands_in_game", "lowest_wins", "options", "dice", "pending", "in_hand", "finished", "winner",
                     "invite_only", "hot_seat", "rematch", "table", "hotspots", "history", "last", "can_undo",
                     "summary", "count", "last_tile", "log", "owed", "ends", "public_log")
SEAT_KEYS: Final = frozenset({"you", "hand", "legal", "can_draw", "can_pass", "gives", "table", "hotspots", "history",
                              "last", "can_undo", "log", "public_log"})


def _runs() -> tuple[tuple[tuple[str, ...], str | None], ...]:
    """:data:`STATE_KEYS` as runs of shared fields, each followed by one seat's own field (the last by none)."""
    runs: list[tuple[tuple[str, ...], str | None]] = []
    shared: list[str] = []
    for key in STATE_KEYS:
        if key in SEAT_KEYS:
            runs.append((tuple(shared), key))
            shared = []
        else:
            shared.append(key)
    return (*runs, (tuple(shared), None))


_RUNS: Final = _runs()


class ConnectionClosed(Exception):
    """Raised by a connection's ``send`` when its socket is closed: the room forgets the connection."""


class ProtocolError(Exception):
    """A message the room refuses; ``code`` is the error's type in the ``error`` message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class Seat:
    name: str
    kind: SeatKind
    level: str = "greedy"
    token_hash: str | None = None

    def as_stored(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level, "token_hash": self.token_hash}

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Seat:
        kind: SeatKind = "computer" if data.get("kind") == "computer" else "human"
        return cls(str(data.get("name", "Player")), kind, str(data.get("level", "greedy")), data.get("token_hash"))


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def deal_next(game: Game, seed: int) -> None:
    """Deal the game's next hand: hand ``i`` comes from ``game_seed(seed, i)``, so a game
    restored from its record deals the same hands as one that never stopped."""
    game.start_hand(HandChance(seed).setup(game))


def hint(view: SeatView) -> tuple[Move, str]:
    """The strongest installed level's move (``hint_move``), else greedy's, with a reason."""
    from boneyard.players import base

    advisor = getattr(base, "hint_move", None)
    if callable(advisor):
        move, reason = advisor(view)
        return move, str(reason)
    move = make_player("greedy").choose(view)
    points = view.play_points(move)[1]
    if points:
        return move, f"scores {points}"
    if move.tile is not None and move.is_placement:
        return move, f"sheds a heavy tile ({view.tile_value(move.tile)} points)"
    return move, "the only move" if len(view.legal_moves()) == 1 else "nothing scores now"


def choose_job(data: dict[str, Any], seat: int, level: str, seed: int) -> str:
    """In a worker process: the move of computer ``level`` for ``seat`` of the game in ``data`` (a record)."""
    return str(make_player(level, seed=seed).choose(SeatView(record.replay(data), seat)))


def hint_job(data: dict[str, Any], seat: int) -> tuple[str, str]:
    """In a worker process: :func:`hint` for ``seat`` of the game in ``data`` (a record), as text."""
    move, reason = hint(SeatView(record.replay(data), seat))
    return str(move), reason


HintJob = Callable[[dict[str, Any], int], tuple[str, str]]


class Thinker:
    """Computer moves and hints, worked out in ``workers`` processes (started on first use).

    A job is sent the game's record (a live :class:`Game` need not be picklable, and the worker
    rebuilds the seat's :class:`SeatView` from it), so the player still sees only its view.
    ``random`` and ``greedy`` choose on the event loop: they take well under a millisecond, less
    than a trip to a worker.  ``hint_job`` may be replaced (tests use a slow one).

    At most ``workers`` jobs are in the pool at once; the others wait their turn here, and a job someone is
    waiting for (a hint, or a move at a table where a person sits) goes before the moves of tables of computers
    alone, so a crowd of those cannot make a person wait for their opponent."""

    def __init__(self, workers: int = 2, *, hint_job: HintJob = hint_job) -> None:
        self.workers = max(1, workers)
        self.hint_job = hint_job
        self._pool: ProcessPoolExecutor | None = None
        self._busy = 0  #: jobs in the pool
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  #: (0 urgent / 1 not, order, turn) heap
        self._order = itertools.count()

    async def _turn(self, urgent: bool) -> None:
        """Wait for a place in the pool (urgent jobs first, then in order of asking)."""
        if self._busy < self.workers and not self._waiting:
            self._busy += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (0 if urgent else 1, next(self._order), turn)
        heapq.heappush(self._waiting, entry)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # handed a place just as it was cancelled: pass it on
                self._done()
            else:  # no longer waiting (a place must never wait for a job that left)
                self._waiting.remove(entry)
                heapq.heapify(self._waiting)
            raise

    def _done(self) -> None:
        """A job left the pool: its place goes to the first job waiting (cancelled ones are skipped)."""
        while self._waiting:
            turn = heapq.heappop(self._waiting)[2]
            if not turn.done():
                turn.set_result(None)
                return
        self._busy -= 1

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:  # spawn: the server's threads (the store's writer) are not forked
            self._pool = spawn_pool(self.workers)
        return self._pool

    async def _run(self, job: Callable[..., Any], *args: Any, urgent: bool = True) -> Any:
        await self._turn(urgent)
        try:
            for attempt in (1, 2):
                try:
                    return await asyncio.wrap_future(self.pool().submit(job, *args))
                except BrokenProcessPool:  # a worker died (killed, out of memory): a fresh pool, once
                    self._pool = None
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")
        finally:
            self._done()

    async def move(self, game: Game, seat: int, level: str, seed: int, *, urgent: bool = True) -> Move:
        """The move of computer ``level`` in ``seat``; ``urgent``: a person is waiting for it."""
        if level in INLINE_LEVELS:
            return make_player(level, seed=seed).choose(SeatView(game, seat))
        text = await self._run(choose_job, record.to_record(game), seat, level, seed, urgent=urgent)
        return Move.parse(text)

    async def hint(self, data: dict[str, Any], seat: int) -> tuple[str, str]:
        """The hint for ``seat`` of the game whose record is ``data`` (taken when the hint was asked)."""
        move, reason = await self._run(self.hint_job, data, seat)
        return str(move), str(reason)

    def close(self) -> None:
        """Stop at once: a search under way is not waited for (its worker is ended)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)


class Connection:
    """One WebSocket (or test double): how to send to it and which seat it holds.

    ``send`` sends a message given as an object; ``send_text`` (if given) sends one already
    encoded as JSON text, as ``state`` messages are (a test double without it gets the object)."""

    __slots__ = ("held", "hinting", "may_start_game", "seat", "send", "send_text")

    def __init__(self, send: Send, send_text: SendText | None = None,
                 may_start_game: Callable[[], bool] | None = None) -> None:
        self.send = send
        self.send_text = send_text
        #: whether a new game asked from this connection (Play again) is within its address's limit
        self.may_start_game: Callable[[], bool] = may_start_game or (lambda: True)
        self.seat: int | None = None
        self.held: set[int] = set()  #: every seat this connection has claimed or resumed
        self.hinting = False  #: a hint for this connection is being worked out

    async def send_state(self, text: str) -> None:
        """Send a message given as its JSON text."""
        if self.send_text is not None:
            await self.send_text(text)
        else:
            await self.send(json.loads(text))


@dataclass(frozen=True, slots=True)
class SharedState:
    """The part of a room's ``state`` message that every connection gets alike, as JSON text
    (:meth:`Room.shared_state`): each seat's message is ``pieces`` with that seat's own field
    after each piece (the piece ends with its key), then ``suffix``."""

    geometry: Geometry
    pieces: tuple[tuple[str, str], ...]  #: (text up to a seat's own field, that field's key)
    suffix: str
    table_head: str  #: the ``table`` field up to its ``view``, which ghosts may widen
    view: str  #: the ``view`` of the table without ghosts


#: the keys of a stored record's ``meta`` that the table writes itself (not kept from a loaded record)
TABLE_META = frozenset({"web", "seats", "hot_seat", "invite_hash", "rematch"})


class Room:
    """One game and everyone at its table."""

    def __init__(self, game_id: str, game: Game, seats: list[Seat], seed: int, store: Store,
                 ai_delay: float = 0.6, *, hot_seat: bool = False, source: dict[str, Any] | None = None,
                 invite_hash: str | None = None) -> None:
        self.id = game_id
        #: the hash of the invitation a free seat is claimed with (None: anyone may sit down)
        self.invite_hash = invite_hash
        #: the record the game was loaded from (an upload, or the store): its annotations and meta are kept
        self.source = source
        self.hot_seat = hot_seat  #: one connection may play several human seats (players share a screen)
        self.game = game
        self.seats = seats
        self.seed = seed
        self.store = store
        self.ai_delay = ai_delay
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.thinker = Thinker(1)  #: Rooms gives every room its own server's thinker
        self.revision = 0  #: counts every change to the game (moves, undo, deals)
        self.checkpointed = self.moves  #: the move count in the stored header's record (-1: write it all again)
        self.touched = time.monotonic()  #: last join, leave or message
        self._hints: set[asyncio.Task[None]] = set()
        self._geometry: tuple[tuple[int, int, int], Geometry] | None = None
        self.last: dict[str, Any] | None = None  #: the last move's hand and end; the move is in each view
        self.narrator = Narrator()  #: each seat's history and log, extended move by move
        self._tile_texts: list[tuple[TileBox, str]] = []  #: the table's tiles and their JSON text
        self._task: asyncio.Task[None] | None = None
        self.table = table_size(len(game.rules.tile_set()))
        #: the game played next at this table ("Play again" at game over), once someone asked for it
        self.rematch: str | None = None
        #: how the server makes that game (:meth:`Rooms.play_again`); None outside a server's rooms
        self.spawn: Callable[[Room], Awaitable[Room]] | None = None

    # ------------------------------------------------------------ life cycle
    @classmethod
    def create(cls, game_id: str, variant: str, seats: list[Seat], options: dict[str, Any] | None,
               seed: int, store: Store, ai_delay: float, *, hot_seat: bool = False,
               invite_hash: str | None = None) -> Room:
        game = Game(make_rules(variant, len(seats), options), [seat.name for seat in seats])
        deal_next(game, seed)
        room = cls(game_id, game, seats, seed, store, ai_delay, hot_seat=hot_seat, invite_hash=invite_hash)
        store.save(room.checkpoint())
        return room

    @classmethod
    def restore(cls, stored: StoredGame, store: Store, ai_delay: float) -> Room:
        game = record.replay(stored.record)
        seats = [Seat.from_stored(data) for data in stored.seats]
        meta = stored.record.get("meta")
        hot_seat = isinstance(meta, dict) and meta.get("hot_seat") is True
        invite_hash = meta.get("invite_hash") if isinstance(meta, dict) else None
        room = cls(stored.id, game, seats, stored.seed, store, ai_delay, hot_seat=hot_seat, source=stored.record,
                   invite_hash=invite_hash if isinstance(invite_hash, str) else None)
        rematch = meta.get("rematch") if isinstance(meta, dict) else None
        room.rematch = rematch if isinstance(rematch, str) else None
        return room  # a table of computers between hands deals when kicked (and stores the deal)

    @property
    def moves(self) -> int:
        return sum(len(log.events) for log in self.game.log)

    @property
    def status(self) -> str:
        return "finished" if self.game.finished else "running"

    def record(self, *, stored: bool = False) -> dict[str, Any]:
        """The game's record, with the annotations and the free-form ``meta`` of the record it was loaded from
        (RECORD.md: writers keep them); ``stored`` adds the table's own keys to ``meta`` (seats, hot seat)."""
        kept = self.source.get("meta") if self.source is not None else None
        meta = {key: value for key, value in kept.items() if key not in TABLE_META} if isinstance(kept, dict) else {}
        # who played, in the keys the terminal writes (docs/record.md), so `boneyard stats` counts a download as it
        # counts a terminal game: the computers' levels by seat, and the one person's seat where there is one
        meta["ai"] = {str(seat): s.level for seat, s in enumerate(self.seats) if s.kind == "computer"}
        people = [seat for seat, s in enumerate(self.seats) if s.kind == "human"]
        meta.pop("human_seat", None)
        if len(people) == 1:
            meta["human_seat"] = people[0]
        if stored:
            meta |= {"web": True, "seats": [{"kind": s.kind, "level": s.level} for s in self.seats],
                     "hot_seat": self.hot_seat}
            if self.invite_hash is not None:
                meta["invite_hash"] = self.invite_hash
            if self.rematch is not None:
                meta["rematch"] = self.rematch
        data = record.to_record(self.game, seed=self.seed, meta=meta)
        if self.source is not None:
            record.keep_annotations(self.source, data)
        return data

    def checkpoint(self) -> Checkpoint:
        """The whole game as one write (after a deal, at the end, or when an undo reaches into it)."""
        return Checkpoint(self.id, variant=self.game.rules.name, status=self.status, seed=self.seed,
                          seats=[seat.as_stored() for seat in self.seats], record=self.record(stored=True),
                          moves=self.moves)

    def geometry(self) -> Geometry:
        """The table's geometry, computed once per change: every connection's state shares it."""
        key = (self.revision, self.moves, len(self.game.log))
        if self._geometry is None or self._geometry[0] != key:
            previous = None if self._geometry is None else self._geometry[1]  # extended by the new tiles
            self._geometry = (key, extend_geometry(previous, self.game.layout, width=self.table[0],
                                                   height=self.table[1]))
        return self._geometry[1]

    def idle(self, now: float, seconds: float) -> bool:
        """Nobody connected, nothing under way, nothing for a computer to do, for ``seconds``."""
        return (not self.connections and now - self.touched >= seconds and not self.lock.locked()
                and (self._task is None or self._task.done()) and not self._hints and not self._computer_due())

    def _all_computers(self) -> bool:
        return all(seat.kind == "computer" for seat in self.seats)

    @property
    def computers_only(self) -> bool:
        """A table of computers alone, still playing (it plays on by itself)."""
        return self._all_computers() and not self.game.finished

    def people_waiting(self) -> bool:
        """Whether a person sits at this table now (their computer opponents' moves go first)."""
        return any(connection.seat is not None for connection in self.connections)

    def _deal_if_due(self) -> bool:
        """Rooms of computers alone go on to the next hand by themselves."""
        game = self.game
        if not game.in_hand and not game.finished and self._all_computers():
            deal_next(game, self.seed)
            return True
        return False

    # ------------------------------------------------------------ what a seat sees
    def public(self) -> dict[str, Any]:
        game = self.game
        return {"id": self.id, "variant": game.rules.name, "title": game.rules.title, "status": self.status,
                "players": [{"name": seat.name, "kind": seat.kind, "level": seat.level if seat.kind == "computer"
                             else None, "claimed": seat.token_hash is not None, "score": score}
                            for seat, score in zip(self.seats, game.scores, strict=True)],
                "hand_number": len(game.log), "moves": self.moves, "finished": game.finished,
                "winner": game.winner, "invite_only": self.invite_hash is not None, "hot_seat": self.hot_seat,
                "options": non_defaults(game.rules.options)}

    @property
    def shared_screen(self) -> bool:
        """A hot-seat table of several people: one screen, passed round (the page hides a hand between turns)."""
        return self.hot_seat and sum(seat.kind == "human" for seat in self.seats) > 1

    def can_undo(self, seat: int | None) -> bool:
        game = self.game
        if seat is None or game.finished or not game.log:
            return False
        if any(other.kind == "human" for index, other in enumerate(self.seats) if index != seat):
            return False
        return any(event.seat == seat for event in game.hand.events)

    def state(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for one connection (``seat`` None: a spectator), as an object."""
        message: dict[str, Any] = json.loads(self.state_text(seat))
        return message

    def state_text(self, seat: int | None, shared: SharedState | None = None) -> str:
        """The ``state`` message for one connection as the JSON text sent: ``shared`` (the part
        every connection gets alike, :meth:`shared_state`, built once per broadcast) with this
        seat's own fields spliced in."""
        shared = shared or self.shared_state()
        own = self._own_fields(seat, shared)
        return "".join([text for before, key in shared.pieces for text in (before, own[key])]) + shared.suffix

    def shared_state(self) -> SharedState:
        """What every connection's ``state`` message holds alike, encoded once."""
        game = self.game
        view = TableView(game)
        names = view.names
        geometry = self.geometry()
        dice = view.dice
        in_hand = game.in_hand
        # a seat is online while a connection sits in it (at a hot-seat table: every seat its screen holds)
        connected = {seat for connection in self.connections if connection.seat is not None
                     for seat in (connection.held if self.hot_seat else (connection.seat,))}
        fields: dict[str, Any] = {
            "type": "state",
            "game": self.id,
            "variant": view.variant,
            "title": game.rules.title,
            "version": self.moves,
            "hand_number": view.hand_number,
            "players": [
                {"name": names[index], "kind": info.kind,
                 "level": info.level if info.kind == "computer" else None,
                 "claimed": info.token_hash is not None, "score": view.scores[index], "tiles": size,
                 "connected": index in connected, "side": sorted(game.rules.score_seats(index))}
                for index, (info, size) in enumerate(zip(self.seats, view.hand_sizes, strict=True))
            ],
            "turn": view.turn if in_hand else None,
            "direction": view.direction,
            "stock": view.stock_count,
            "out_of_play": game.rules.never_drawn(view.stock_count),
            "target": view.target,
            "hands_in_game": game.rules.hands_in_game,
            "lowest_wins": game.rules.lower_score_wins,
            "options": non_defaults(game.rules.options),  # the house rules in force (JSON values, as a record's)
            "dice": None if dice is None or (not in_hand and not game.log) else
            {"flower": list(dice.flower), "scorpion": list(dice.scorpion)},
            "pending": [list(pair) for pair in view.pending] if in_hand else [],
            "in_hand": in_hand,
            "finished": game.finished,
            "winner": game.winner,
            "invite_only": self.invite_hash is not None,
            "hot_seat": self.hot_seat,
            "rematch": self.rematch,
            "summary": None if in_hand else self.summary(),
            **table_marks(game),  # count, last_tile, owed, ends
        }
        pieces: list[tuple[str, str]] = []
        text, comma = "{", ""
        for keys, own in _RUNS:  # each run of shared fields encoded at once (an object, its braces cut)
            if keys:
                text += comma + json_text({key: fields[key] for key in keys})[1:-1]
                comma = ","
            if own is not None:
                pieces.append((text + comma + json_text(own) + ":", own))
                text, comma = "", ","
        table_head = (f'{{"tiles":{self._tiles_text(geometry)},"table":{json_text([geometry.width, geometry.height])}'
                      ',"view":')
        return SharedState(geometry, tuple(pieces), text + "}", table_head, json_text(list(geometry.view())))

    def _own_fields(self, seat: int | None, shared: SharedState) -> dict[str, str]:
        """The fields of ``seat``'s state message that are its own (:data:`SEAT_KEYS`), as JSON text."""
        game = self.game
        view = TableView(game) if seat is None else SeatView(game, seat)
        hand: list[Tile] = []
        legal: list[Move] = []
        if isinstance(view, SeatView):
            hand, legal = list(view.hand), view.legal_moves()
        spots = hotspots(game.layout, legal, shared.geometry) if legal else []
        told = self.narrator.told(game, seat, view)
        last = None if self.last is None or not told else {**told[-1].entry, **self.last}
        ghosts = [spot.ghost for spot in spots]
        return {
            "you": json_text(seat),
            "hand": json_text([str(tile) for tile in hand]),
            "legal": json_text([str(move) for move in legal]),
            "can_draw": json_text(any(move.kind == Kind.DRAW for move in legal)),
            "can_pass": json_text(any(move.kind == Kind.PASS for move in legal)),
            "gives": json_text([str(move.tile) for move in legal if move.kind == Kind.GIVE]),
            "table": shared.table_head + (json_text(list(shared.geometry.view(ghosts))) if ghosts
                                          else shared.view) + "}",
            "hotspots": json_text([spot.as_json() for spot in spots]),
            "history": Narrator.history_text(told),
            "last": json_text(last),  # the move just made, as this view saw it (a give's tile hidden)
            "can_undo": json_text(self.can_undo(seat)),
            "log": self.narrator.log_text(game, seat, told),
            "public_log": self._public_log(),
        }

    def _public_log(self) -> str:
        """At a screen several people share, the log as a spectator reads it (the page shows it while a hand is
        face down: the seat it shows may have drawn or given tiles the person about to look must not read), from
        the narrator's spectator entries; elsewhere null."""
        if not self.shared_screen:
            return "null"
        game = self.game
        return self.narrator.log_text(game, None, self.narrator.told(game, None, TableView(game)))

    def _tiles_text(self, geometry: Geometry) -> str:
        """The JSON text of the table's tiles: a tile kept from the previous geometry keeps its text."""
        known = self._tile_texts
        tiles = geometry.tiles
        kept = 0
        limit = min(len(known), len(tiles))
        while kept < limit and known[kept][0] is tiles[kept]:
            kept += 1
        del known[kept:]
        known.extend((tile, json_text(tile.as_json())) for tile in tiles[kept:])
        return "[" + ",".join(text for _, text in known) + "]"

    def summary(self) -> dict[str, Any] | None:
        """The end-of-hand summary: every hand shown, how each seat's points were made."""
        game = self.game
        if not game.log or game.hand.result is None:
            return None
        result = game.hand.result
        names = game.names
        return {
            "hand_number": len(game.log),
            "end": result.end,
            "winner": result.winner,
            "blocked_rule": game.rules.blocked_rule() if result.end == "blocked" else None,
            "hands": [[str(tile) for tile in hand] for hand in game.hands],
            "hand_values": [game.hand_points_of(seat) for seat in range(game.players)],
            "hand_points": list(result.hand_points),
            "scoring": [[{"name": item.name, "points": item.points} for item in items] for items in result.scoring],
            "play_points": [sum(e.points for e in game.hand.events if e.seat == seat) for seat in range(game.players)],
            "totals": list(game.scores),
            "names": names,
            "game_over": game.finished,
            "game_winner": game.winner,
            "game_winners": list(game.rules.game_winners(game.winner, game.scores)) if game.finished else [],
        }

    # ------------------------------------------------------------ connections
    async def join(self, connection: Connection) -> None:
        """Add a connection and send it the table.  A socket that closes before it got the table is
        not kept: :class:`ConnectionClosed` is raised to the caller with the room as it was."""
        self.touched = time.monotonic()
        async with self.lock:  # a move being stored is not shown yet
            self.connections.append(connection)
            try:
                await connection.send_state(self.state_text(None))
            except ConnectionClosed:
                self.connections.remove(connection)
                raise
        self.kick()

    async def leave(self, connection: Connection) -> None:
        self.touched = time.monotonic()
        async with self.lock:
            if connection in self.connections:
                self.connections.remove(connection)
            await self.broadcast()

    async def broadcast(self) -> None:
        """Send each connection its state.  Only a closed socket is forgotten: any other failure is
        logged and that connection stays, so a bug costs one message, never a player's seat."""
        shared: SharedState | None = None  # the part every connection gets alike, encoded once
        texts: dict[int | None, str] = {}  # built once per seat: spectators share theirs
        for connection in list(self.connections):
            try:
                text = texts.get(connection.seat)
                if text is None:
                    shared = shared or self.shared_state()
                    text = texts[connection.seat] = self.state_text(connection.seat, shared)
                await connection.send_state(text)
            except ConnectionClosed:
                if connection in self.connections:
                    self.connections.remove(connection)
            except Exception:
                log.exception("room %s: the state for seat %s could not be sent", self.id, connection.seat)

    # ------------------------------------------------------------ messages
    async def handle(self, connection: Connection, message: Any) -> None:
        """Carry out one client message; raises :class:`ProtocolError` (and changes nothing)."""
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise ProtocolError("malformed", "a message is a JSON object with a string 'type'")
        kind = message["type"]
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r} (known: {', '.join(_HANDLERS)})")
        self.touched = time.monotonic()
        async with self.lock:  # stored, then told, in order: the next change waits for the broadcast
            changed = await handler(self, connection, message)
            if changed:
                await self.broadcast()
        if changed:
            self.kick()

    async def _claim(self, connection: Connection, message: dict[str, Any]) -> bool:
        seat = message.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise ProtocolError("bad_seat", f"'seat' must be a seat number 0-{len(self.seats) - 1}")
        info = self.seats[seat]
        if info.kind != "human":
            raise ProtocolError("bad_seat", f"{info.name}'s seat is played by the computer")
        if info.token_hash is not None:
            raise ProtocolError("seat_taken", f"{info.name}'s seat is already taken")
        if self.invite_hash is not None:
            invite = message.get("invite")
            given = _hash(invite) if isinstance(invite, str) and 0 < len(invite) <= 100 else ""
            if not secrets.compare_digest(given, self.invite_hash):
                raise ProtocolError("invite_needed", "this table's seats are for the people its creator invited: "
                                                     "open the invitation link to sit down (anyone may watch)")
        self._one_seat(connection, seat)
        token = secrets.token_urlsafe(18)
        info.token_hash = _hash(token)
        try:
            await self.store.write(Seats(self.id, [seat.as_stored() for seat in self.seats]))
        except Exception:
            info.token_hash = None
            raise ProtocolError("not_stored", "the seat could not be stored; try again") from None
        connection.seat = seat
        connection.held.add(seat)
        await connection.send({"type": "claimed", "seat": seat, "token": token})
        return True

    async def _resume(self, connection: Connection, message: dict[str, Any]) -> bool:
        token = message.get("token")
        if not isinstance(token, str) or not token or len(token) > 100:
            raise ProtocolError("bad_token", "'token' must be the token a 'claimed' message gave")
        digest = _hash(token)
        for seat, info in enumerate(self.seats):
            if info.token_hash is not None and secrets.compare_digest(info.token_hash, digest):
                self._one_seat(connection, seat)
                connection.seat = seat
                connection.held.add(seat)
                await connection.send({"type": "claimed", "seat": seat, "token": token})
                return True
        raise ProtocolError("bad_token", "no seat of this game has that token")

    def _named(self, message: str) -> str:
        """A rules message for people at the table: "seat 1 may not pass" reads "Bob may not pass", and "not in
        seat 1's hand" "not in Bob's hand" (the engine counts seats from 0, as records and the protocol do)."""
        names = self.game.names

        def name(match: re.Match[str]) -> str:
            seat = int(match.group(1))
            return names[seat] if seat < len(names) else match.group(0)

        return re.sub(r"\bseat (\d+)\b", name, message)

    def _one_seat(self, connection: Connection, seat: int) -> None:
        """One person, one seat: a connection holds one human seat, unless the room is for hot-seat play."""
        held = connection.held - {seat}
        if held and not self.hot_seat:
            playing = self.seats[min(held)].name
            raise ProtocolError("one_seat", f"this connection already plays {playing}'s seat; one seat per "
                                            "connection (a hot-seat game lets one screen play several)")

    async def _leave(self, connection: Connection, message: dict[str, Any]) -> bool:
        if connection.seat is None:  # a spectator already: nothing changes, so only the sender is answered
            await connection.send_state(self.state_text(None))
            return False
        connection.seat = None
        return True

    def _seated(self, connection: Connection) -> int:
        if connection.seat is None:
            raise ProtocolError("spectator", "spectators cannot do that; claim a seat first")
        return connection.seat

    async def _move(self, connection: Connection, message: dict[str, Any]) -> bool:
        seat = self._seated(connection)
        text = message.get("move")
        if not isinstance(text, str) or len(text) > 40:
            raise ProtocolError("bad_move", "'move' must be move notation such as 4-2@1, draw or pass")
        try:
            move = Move.parse(text)
        except NotationError as error:
            raise ProtocolError("bad_move", str(error)) from None
        if move.kind == Kind.DRAW and move.tile is not None:  # the answer would tell the stock's next tile
            raise ProtocolError("bad_move", "a draw at the table names no tile: send draw")
        game = self.game
        if game.finished:
            raise ProtocolError("game_over", "the game is over")
        if not game.in_hand:
            raise ProtocolError("hand_over", "the hand is over; send next_hand to deal the next one")
        if game.turn != seat:
            raise ProtocolError("not_your_turn", f"it is {game.names[game.turn]}'s turn, not yours")
        await self._apply(seat, move)
        return True

    async def _apply(self, seat: int, move: Move) -> None:
        """Make ``move`` and store it; if it cannot be stored it is taken back."""
        game = self.game
        try:
            event = game.apply(move)
        except IllegalMoveError as error:  # the rules say "seat 1"; a person at the table reads "Bob"
            raise ProtocolError("illegal", self._named(str(error))) from None
        last, self.last = self.last, {"hand": len(game.log), "hand_over": not game.in_hand}
        self.revision += 1
        whole = game.finished or self.checkpointed < 0
        try:
            await self._store(self.checkpoint() if whole else Append(self.id, str(event.move), self.moves))
        except ProtocolError:
            game.undo()
            self.last = last
            self.revision += 1
            raise ProtocolError("not_stored", "the move could not be stored and was taken back; try again") from None

    async def _hint(self, connection: Connection, message: dict[str, Any]) -> bool:
        seat = self._seated(connection)
        game = self.game
        if not game.in_hand or game.turn != seat:
            raise ProtocolError("not_your_turn", "a hint is for the player on turn")
        if connection.hinting:
            raise ProtocolError("hint_pending", "a hint is already being worked out for you")
        connection.hinting = True
        position = (self.revision, record.to_record(game))  # as it is now, not when the task starts
        task = asyncio.get_running_loop().create_task(self._give_hint(connection, seat, *position))
        self._hints.add(task)
        task.add_done_callback(self._hints.discard)
        return False

    async def _give_hint(self, connection: Connection, seat: int, revision: int, data: dict[str, Any]) -> None:
        """Work out a hint in the thinker's pool, off the room's lock; send it if the position is unchanged."""
        try:
            text, reason = await self.thinker.hint(data, seat)
            if self.revision != revision:
                await connection.send({"type": "error", "code": "hint_stale", "request": "hint",
                                       "message": "the game moved on before the hint was ready; ask again"})
                return
            move = Move.parse(text)
            await connection.send({"type": "hint", "move": text, "tile": str(move.tile) if move.tile else None,
                                   "reason": reason})
        except Exception:  # a failed search or a closed socket: the table goes on without the hint
            log.warning("game %s: no hint for seat %s", self.id, seat, exc_info=True)
            with contextlib.suppress(Exception):
                await connection.send({"type": "error", "code": "hint_failed", "request": "hint",
                                       "message": "no hint could be worked out; ask again"})
        finally:
            connection.hinting = False

    async def _undo(self, connection: Connection, message: dict[str, Any]) -> bool:
        seat = self._seated(connection)
        if not self.can_undo(seat):
            raise ProtocolError("no_undo", "undo is for one player against computers, with a move of "
                                           "yours in this hand to take back")
        game = self.game
        events = game.hand.events
        while events:
            mover = events[-1].seat
            game.undo()
            if mover == seat and game.turn == seat:
                break
        self.last = None
        self.revision += 1
        whole = not 0 <= self.checkpointed <= self.moves
        await self._store(self.checkpoint() if whole else TakeBack(self.id, self.moves))
        return True

    async def _next_hand(self, connection: Connection, message: dict[str, Any]) -> bool:
        self._seated(connection)
        game = self.game
        over = message.get("hand")  # the number of the hand the sender saw end (its state's hand_number)
        if over is not None and (isinstance(over, bool) or not isinstance(over, int)):
            raise ProtocolError("malformed", "'hand' must be the number of the hand that is over")
        if game.finished:
            raise ProtocolError("game_over", "the game is over")
        if game.in_hand:
            if over is not None and over < len(game.log):  # another player dealt it first: nothing to do
                return False
            raise ProtocolError("hand_in_progress", "the hand is still being played")
        await self._deal()
        return True

    async def _rematch(self, connection: Connection, message: dict[str, Any]) -> bool:
        """Play again at this table, once the game is over: a new game of the same variant and options with the same
        seats, held by the same people (their seat tokens and the invitation carry over, so each page takes its
        seat there as here), dealt from a new seed.  Asked twice, or by two people at once, it is made once."""
        self._seated(connection)
        if not self.game.finished:
            raise ProtocolError("game_running", "the game is not over yet: play again once it is")
        if self.rematch is not None:  # someone asked first: every page has its id in the state
            return False
        if self.spawn is None:
            raise ProtocolError("no_rematch", "this table cannot start another game")
        if not connection.may_start_game():
            raise ProtocolError("rate_limited", "too many new games from your address; try again in a minute")
        try:
            self.rematch = (await self.spawn(self)).id
        except Exception:
            log.exception("game %s: the next game could not be made", self.id)
            raise ProtocolError("not_stored", "the next game could not be stored; try again") from None
        self.revision += 1
        try:
            await self._store(self.checkpoint())
        except ProtocolError:
            log.warning("game %s: the next game %s is not written into its record", self.id, self.rematch)
        return True

    async def _deal(self) -> None:
        deal_next(self.game, self.seed)
        self.last = None
        self.revision += 1
        await self._store(self.checkpoint())

    async def _store(self, write: Checkpoint | Append | TakeBack) -> None:
        """Store one change of the game; after a failed checkpoint the next change stores the whole game."""
        try:
            await self.store.write(write)
        except Exception:
            log.exception("game %s: not stored", self.id)
            if isinstance(write, Checkpoint):
                self.checkpointed = -1
            raise ProtocolError("not_stored", "the game could not be stored; try again") from None
        if isinstance(write, Checkpoint):
            self.checkpointed = write.moves

    async def _ping(self, connection: Connection, message: dict[str, Any]) -> bool:
        await connection.send({"type": "pong"})
        return False

    # ------------------------------------------------------------ computers
    def kick(self) -> None:
        """Let the computer seats move (in the background) if one of them is on turn.  Outside
        an event loop this does nothing: the first connection kicks again."""
        if self._task is not None and not self._task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._computer_due():
            self._task = loop.create_task(self._run_computers())

    def _computer_due(self) -> bool:
        game = self.game
        if game.finished:
            return False
        if not game.in_hand:
            return self._all_computers()
        return self.seats[game.turn].kind == "computer"

    async def _run_computers(self) -> None:
        while self._computer_due():
            revision = self.revision
            game = self.game
            move: Move | None = None
            if game.in_hand:  # think outside the lock: people's messages are answered meanwhile
                # the pause runs while the computer thinks, so a move shows after the pause or the thought,
                # whichever is longer: a reply that comes at once no longer says the computer had one move
                pause = asyncio.ensure_future(asyncio.sleep(self.ai_delay))
                seat = game.turn
                seed = game_seed(game_seed(self.seed, 1000 + seat), self.moves)
                try:
                    move = await self.thinker.move(game, seat, self.seats[seat].level, seed,
                                                   urgent=self.people_waiting())
                except asyncio.CancelledError:  # the room closes
                    pause.cancel()
                    raise
                except Exception:  # a worker that keeps dying, a player's bug: try again, not in a tight loop
                    log.exception("game %s: the computer in seat %s found no move", self.id, seat)
                    pause.cancel()
                    await asyncio.sleep(1.0)
                    continue
                await pause
            else:
                await asyncio.sleep(max(self.ai_delay * 3, 0.01))
            if self.revision != revision or not self._computer_due():
                continue
            failed = False
            async with self.lock:
                if self.revision != revision:  # an undo, a deal or a move came first: think again
                    continue
                try:
                    if move is None:
                        await self._deal()
                    else:
                        await self._apply(game.turn, move)
                except Exception:  # not stored (a move is taken back, a deal stored whole next time)
                    log.exception("game %s: the computer's move %s was not made", self.id, move)
                    failed = True
                else:
                    await self.broadcast()
            if failed:
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        for task in [self._task, *self._hints]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task


_Handler = Callable[[Room, Connection, dict[str, Any]], Awaitable[bool]]
_HANDLERS: Final[dict[str, _Handler]] = {
    "claim": Room._claim, "resume": Room._resume, "leave": Room._leave, "move": Room._move, "hint": Room._hint,
    "undo": Room._undo, "next_hand": Room._next_hand, "ping": Room._ping, "rematch": Room._rematch,
}


class Rooms:
    """Every room of one server, loaded from the store on first use.

    A room with nobody connected and nothing to do (finished, or waiting for a person) leaves
    memory after ``idle_seconds`` (:meth:`sweep`, run by :meth:`start`'s background task) and is
    loaded again when someone opens it.  At start every running game is loaded, so computers on
    turn carry on."""

    def __init__(self, store: Store, ai_delay: float = 0.6, *, thinker: Thinker | None = None,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.store = store
        self.ai_delay = ai_delay
        self.thinker = thinker or Thinker()
        self.idle_seconds = idle_seconds
        self.rooms: dict[str, Room] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def create(self, variant: str, seats: list[Seat], options: dict[str, Any] | None = None,
               seed: int | None = None, *, hot_seat: bool = False, invite: str | None = None) -> Room:
        """A new room; with ``invite`` (a secret for its creator to pass on) only those who have it may sit down."""
        game_id = secrets.token_hex(6)
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        room = Room.create(game_id, variant, seats, options, seed, self.store, self.ai_delay, hot_seat=hot_seat,
                           invite_hash=None if invite is None else _hash(invite))
        room.thinker = self.thinker
        room.spawn = self.play_again
        self.rooms[game_id] = room
        room.kick()
        return room

    async def play_again(self, room: Room) -> Room:
        """The next game at ``room``'s table: its variant and options, its seats with their people (the names the
        table showed, the tokens kept), its invitation and hot seat, a new seed; stored off the event loop."""
        seats = [Seat(name, seat.kind, seat.level, seat.token_hash)
                 for name, seat in zip(room.game.names, room.seats, strict=True)]
        game_id = secrets.token_hex(6)
        options = non_defaults(room.game.rules.options)
        new = await asyncio.to_thread(Room.create, game_id, room.game.rules.name, seats, options,
                                      secrets.randbelow(MAX_SEED + 1), self.store, self.ai_delay,
                                      hot_seat=room.hot_seat, invite_hash=room.invite_hash)
        new.thinker = self.thinker
        new.spawn = self.play_again
        self.rooms[game_id] = new
        new.kick()
        return new

    def adopt(self, data: dict[str, Any], seats: list[Seat], game: Game | None = None) -> Room:
        """A room for a loaded record (which may be finished, or go on from where it stopped); ``game`` is the
        record already replayed, where the caller did that off the event loop."""
        game = record.replay(data) if game is None else game
        if len(seats) != game.players:
            raise BoneyardError(f"the record has {game.players} players but {len(seats)} seats were given")
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            seed = secrets.randbelow(MAX_SEED + 1)
        game_id = secrets.token_hex(6)
        room = Room(game_id, game, seats, seed, self.store, self.ai_delay, source=data)
        room.thinker = self.thinker
        room.spawn = self.play_again
        room._deal_if_due()
        self.store.save(room.checkpoint())
        self.rooms[game_id] = room
        room.kick()
        return room

    def get(self, game_id: str) -> Room | None:
        room = self.rooms.get(game_id)
        if room is None:
            stored = self.store.load(game_id)
            if stored is None:
                return None
            room = Room.restore(stored, self.store, self.ai_delay)
            room.thinker = self.thinker
            room.spawn = self.play_again
            self.rooms[game_id] = room
            room.kick()
        room.touched = time.monotonic()
        return room

    async def open(self, game_id: str) -> Room | None:
        """:meth:`get` for the event loop: a room not in memory is read and replayed in a worker thread."""
        room = self.rooms.get(game_id)
        if room is None:
            stored = await asyncio.to_thread(self.store.load, game_id)
            if stored is None:
                return None
            restored = await asyncio.to_thread(Room.restore, stored, self.store, self.ai_delay)
            room = self.rooms.setdefault(game_id, restored)  # two opens at once: the first one in wins
            if room is restored:
                room.thinker = self.thinker
                room.spawn = self.play_again
                room.kick()
        room.touched = time.monotonic()
        return room

    def reload_running(self) -> int:
        """Load every running game (page by page); a damaged record stays out of the way."""
        loaded = 0
        for game_id in self.store.ids("running"):
            try:
                loaded += self.get(game_id) is not None
            except BoneyardError as error:
                log.warning("game %s not loaded: %s", game_id, error)
        return loaded

    def sweep(self, now: float | None = None) -> list[str]:
        """Let idle rooms leave memory; returns their ids (they are all stored)."""
        now = time.monotonic() if now is None else now
        gone = [game_id for game_id, room in self.rooms.items() if room.idle(now, self.idle_seconds)]
        for game_id in gone:
            del self.rooms[game_id]
        return gone

    async def start(self) -> None:
        """Reload the running games and start sweeping idle rooms."""
        self.reload_running()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, max(0.05, self.idle_seconds / 4)))
            self.sweep()

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        for room in list(self.rooms.values()):
            await room.close()
        await asyncio.to_thread(self.thinker.close)


__all__ = ["MAX_MESSAGE", "SEAT_KEYS", "STATE_KEYS", "Connection", "ConnectionClosed", "ProtocolError", "Room", "Rooms",
           "Seat", "SharedState", "Thinker", "deal_next"]
