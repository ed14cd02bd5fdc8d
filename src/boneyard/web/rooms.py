"""Rooms: one per game, with its seats, its connections and the message protocol.

A seat is ``human`` (claimed by a browser with ``claim``, which returns a secret token; the
same browser comes back with ``resume``) or ``computer`` (a player level that moves on the
server).  Anyone else connected is a spectator.  Each connection gets its own ``state``
message built from a :class:`~boneyard.view.SeatView`: its own hand and legal moves, the
public table, and never another seat's tiles, the stock order or the seed.  Hands are shown to
everyone once a hand is over (the end-of-hand summary), as at a real table.

Messages from a client (JSON objects, ``type`` says which; at most :data:`MAX_MESSAGE` bytes):

=============  ===========================================  ===================================
type           fields                                       answer
=============  ===========================================  ===================================
``claim``      ``seat``: a free human seat                  ``claimed`` {seat, token}, states
``resume``     ``token``: from an earlier ``claimed``       ``claimed`` {seat, token}, state
``leave``      —                                            ``state`` as a spectator
``move``       ``move``: notation (``4-2@1``, ``draw``…)    ``state`` to everyone
``hint``       —                                            ``hint`` {move, reason}
``undo``       —  (one human against computers only)        ``state`` to everyone
``next_hand``  —  (after a hand is over)                    ``state`` to everyone
``ping``       —                                            ``pong``
=============  ===========================================  ===================================

Anything wrong is answered with ``error`` {code, message} to that connection only and changes
nothing: ``malformed``, ``oversized``, ``unknown_type``, ``bad_move``, ``illegal``,
``not_your_turn``, ``spectator``, ``seat_taken``, ``bad_seat``, ``bad_token``, ``no_undo``,
``hand_in_progress``, ``game_over``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from boneyard import record
from boneyard.chance import Chance, game_seed
from boneyard.errors import BoneyardError, IllegalMoveError, NotationError
from boneyard.moves import Kind, Move
from boneyard.players.base import Player, make_player
from boneyard.render.geometry import hotspots, layout_geometry, table_size
from boneyard.rules.base import make_rules
from boneyard.state import Event, Game
from boneyard.view import PublicEvent, SeatView, TableView
from boneyard.web.narrate import table_fields
from boneyard.web.store import Store, StoredGame

MAX_MESSAGE: Final = 4096  #: bytes; longer messages are refused unread
log = logging.getLogger(__name__)
SeatKind = Literal["human", "computer"]
Send = Callable[[dict[str, Any]], Awaitable[None]]


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
    game.start_hand(Chance(game_seed(seed, len(game.log))).setup(game))


def event_json(event: Event | Any, names: list[str]) -> dict[str, Any]:
    return {"seat": event.seat, "name": names[event.seat], "move": str(event.move), "points": event.points,
            "scoring": [{"name": item.name, "points": item.points} for item in event.scoring]}


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


class Connection:
    """One WebSocket (or test double): how to send to it and which seat it holds."""

    __slots__ = ("held", "seat", "send")

    def __init__(self, send: Send) -> None:
        self.send = send
        self.seat: int | None = None
        self.held: set[int] = set()  #: every seat this connection has claimed or resumed


class Room:
    """One game and everyone at its table."""

    def __init__(self, game_id: str, game: Game, seats: list[Seat], seed: int, store: Store,
                 ai_delay: float = 0.6, *, hot_seat: bool = False) -> None:
        self.id = game_id
        self.hot_seat = hot_seat  #: one connection may play several human seats (players share a screen)
        self.game = game
        self.seats = seats
        self.seed = seed
        self.store = store
        self.ai_delay = ai_delay
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.computers: dict[int, Player] = {
            seat: make_player(info.level, seed=game_seed(seed, 1000 + index))
            for index, (seat, info) in enumerate((s, i) for s, i in enumerate(seats) if i.kind == "computer")
        }
        self.last: dict[str, Any] | None = None  #: the last move's hand and end; the move is in each view
        self._task: asyncio.Task[None] | None = None
        self.table = table_size(len(game.rules.tile_set()))

    # ------------------------------------------------------------ life cycle
    @classmethod
    def create(cls, game_id: str, variant: str, seats: list[Seat], options: dict[str, Any] | None,
               seed: int, store: Store, ai_delay: float, *, hot_seat: bool = False) -> Room:
        game = Game(make_rules(variant, len(seats), options), [seat.name for seat in seats])
        deal_next(game, seed)
        room = cls(game_id, game, seats, seed, store, ai_delay, hot_seat=hot_seat)
        room.persist()
        return room

    @classmethod
    def restore(cls, stored: StoredGame, store: Store, ai_delay: float) -> Room:
        game = record.replay(stored.record)
        seats = [Seat.from_stored(data) for data in stored.seats]
        meta = stored.record.get("meta")
        hot_seat = isinstance(meta, dict) and meta.get("hot_seat") is True
        room = cls(stored.id, game, seats, stored.seed, store, ai_delay, hot_seat=hot_seat)
        room._deal_if_due()
        return room

    @property
    def moves(self) -> int:
        return sum(len(log.events) for log in self.game.log)

    @property
    def status(self) -> str:
        return "finished" if self.game.finished else "running"

    def persist(self) -> None:
        meta = {"web": True, "seats": [{"kind": s.kind, "level": s.level} for s in self.seats],
                "hot_seat": self.hot_seat}
        self.store.save(self.id, variant=self.game.rules.name, status=self.status, seed=self.seed,
                        seats=[seat.as_stored() for seat in self.seats],
                        record=record.to_record(self.game, seed=self.seed, meta=meta), moves=self.moves)

    def _all_computers(self) -> bool:
        return all(seat.kind == "computer" for seat in self.seats)

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
                "winner": game.winner}

    def can_undo(self, seat: int | None) -> bool:
        game = self.game
        if seat is None or game.finished or not game.log:
            return False
        if any(other.kind == "human" for index, other in enumerate(self.seats) if index != seat):
            return False
        return any(event.seat == seat for event in game.hand.events)

    def state(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for one connection (``seat`` None: a spectator)."""
        game = self.game
        view = TableView(game) if seat is None else SeatView(game, seat)
        names = view.names
        geometry = layout_geometry(view.layout, width=self.table[0], height=self.table[1])
        own_hand = list(view.hand) if isinstance(view, SeatView) else []
        legal = view.legal_moves() if isinstance(view, SeatView) else []
        history = view.history()
        spots = hotspots(view.layout, legal, geometry) if legal else []
        dice = view.dice
        in_hand = game.in_hand
        state: dict[str, Any] = {
            "type": "state",
            "game": self.id,
            "variant": view.variant,
            "title": game.rules.title,
            "version": self.moves,
            "hand_number": view.hand_number,
            "you": seat,
            "players": [
                {"name": names[index], "kind": info.kind,
                 "level": info.level if info.kind == "computer" else None,
                 "claimed": info.token_hash is not None, "score": view.scores[index], "tiles": size,
                 "connected": any(c.seat == index for c in self.connections)}
                for index, (info, size) in enumerate(zip(self.seats, view.hand_sizes, strict=True))
            ],
            "hand": [str(tile) for tile in own_hand],
            "legal": [str(move) for move in legal],
            "can_draw": any(move.kind == Kind.DRAW for move in legal),
            "can_pass": any(move.kind == Kind.PASS for move in legal),
            "gives": [str(move.tile) for move in legal if move.kind == Kind.GIVE],
            "turn": view.turn if in_hand else None,
            "direction": view.direction,
            "stock": view.stock_count,
            "target": view.target,
            "dice": None if dice is None or (not in_hand and not game.log) else
            {"flower": list(dice.flower), "scorpion": list(dice.scorpion)},
            "pending": [list(pair) for pair in view.pending] if in_hand else [],
            "in_hand": in_hand,
            "finished": game.finished,
            "winner": game.winner,
            "table": geometry.as_json(spot.ghost for spot in spots),
            "hotspots": [spot.as_json() for spot in spots],
            "history": [event_json(event, names) for event in history],
            "last": self.last_move(history, names),
            "can_undo": self.can_undo(seat),
            "summary": None if in_hand else self.summary(),
            **table_fields(game, seat),  # count, last_tile, log, owed
        }
        return state

    def last_move(self, history: list[PublicEvent], names: list[str]) -> dict[str, Any] | None:
        """The move to show as just made, as the receiving view saw it (a give's tile hidden)."""
        if self.last is None or not history:
            return None
        return {**event_json(history[-1], names), **self.last}

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
            "hands": [[str(tile) for tile in hand] for hand in game.hands],
            "hand_values": [game.hand_points_of(seat) for seat in range(game.players)],
            "hand_points": list(result.hand_points),
            "scoring": [[{"name": item.name, "points": item.points} for item in items] for items in result.scoring],
            "play_points": [sum(e.points for e in game.hand.events if e.seat == seat) for seat in range(game.players)],
            "totals": list(game.scores),
            "names": names,
            "game_over": game.finished,
            "game_winner": game.winner,
        }

    # ------------------------------------------------------------ connections
    async def join(self, connection: Connection) -> None:
        self.connections.append(connection)
        await connection.send(self.state(None))
        self.kick()

    async def leave(self, connection: Connection) -> None:
        if connection in self.connections:
            self.connections.remove(connection)
        await self.broadcast()

    async def broadcast(self) -> None:
        """Send each connection its state.  Only a closed socket is forgotten: any other failure is
        logged and that connection stays, so a bug costs one message, never a player's seat."""
        for connection in list(self.connections):
            try:
                await connection.send(self.state(connection.seat))
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
        async with self.lock:
            changed = await handler(self, connection, message)
        if changed:
            await self.broadcast()
            self.kick()

    async def _claim(self, connection: Connection, message: dict[str, Any]) -> bool:
        seat = message.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise ProtocolError("bad_seat", f"'seat' must be a seat number 0-{len(self.seats) - 1}")
        info = self.seats[seat]
        if info.kind != "human":
            raise ProtocolError("bad_seat", f"seat {seat} is played by the computer")
        if info.token_hash is not None:
            raise ProtocolError("seat_taken", f"seat {seat} ({info.name}) is already taken")
        self._one_seat(connection, seat)
        token = secrets.token_urlsafe(18)
        info.token_hash = _hash(token)
        self.persist()
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

    def _one_seat(self, connection: Connection, seat: int) -> None:
        """One person, one seat: a connection holds one human seat, unless the room is for hot-seat play."""
        held = connection.held - {seat}
        if held and not self.hot_seat:
            raise ProtocolError("one_seat", f"this connection already plays seat {min(held)}; one seat per "
                                            "connection (a hot-seat game lets one screen play several)")

    async def _leave(self, connection: Connection, message: dict[str, Any]) -> bool:
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
        game = self.game
        if game.finished:
            raise ProtocolError("game_over", "the game is over")
        if not game.in_hand:
            raise ProtocolError("hand_over", "the hand is over; send next_hand to deal the next one")
        if game.turn != seat:
            raise ProtocolError("not_your_turn", f"it is {game.names[game.turn]}'s turn, not yours")
        self._apply(seat, move)
        return True

    def _apply(self, seat: int, move: Move) -> None:
        try:
            self.game.apply(move)
        except IllegalMoveError as error:
            raise ProtocolError("illegal", str(error)) from None
        self.last = {"hand": len(self.game.log), "hand_over": not self.game.in_hand}
        self.persist()

    async def _hint(self, connection: Connection, message: dict[str, Any]) -> bool:
        seat = self._seated(connection)
        game = self.game
        if not game.in_hand or game.turn != seat:
            raise ProtocolError("not_your_turn", "a hint is for the player on turn")
        move, reason = hint(SeatView(game, seat))
        await connection.send({"type": "hint", "move": str(move), "tile": str(move.tile) if move.tile else None,
                               "reason": reason})
        return False

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
        self.persist()
        return True

    async def _next_hand(self, connection: Connection, message: dict[str, Any]) -> bool:
        self._seated(connection)
        game = self.game
        if game.finished:
            raise ProtocolError("game_over", "the game is over")
        if game.in_hand:
            raise ProtocolError("hand_in_progress", "the hand is still being played")
        deal_next(game, self.seed)
        self.last = None
        self.persist()
        return True

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
            version = self.moves
            await asyncio.sleep(self.ai_delay if self.game.in_hand else max(self.ai_delay * 3, 0.01))
            async with self.lock:
                if self.moves != version or not self._computer_due():
                    continue
                game = self.game
                if not game.in_hand:
                    self._deal_if_due()
                    self.last = None
                    self.persist()
                else:
                    seat = game.turn
                    view = SeatView(game, seat)
                    move = await asyncio.to_thread(self.computers[seat].choose, view)
                    self._apply(seat, move)
            await self.broadcast()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


_Handler = Callable[[Room, Connection, dict[str, Any]], Awaitable[bool]]
_HANDLERS: Final[dict[str, _Handler]] = {
    "claim": Room._claim, "resume": Room._resume, "leave": Room._leave, "move": Room._move, "hint": Room._hint,
    "undo": Room._undo, "next_hand": Room._next_hand, "ping": Room._ping,
}


class Rooms:
    """Every room of one server, loaded from the store on first use."""

    def __init__(self, store: Store, ai_delay: float = 0.6) -> None:
        self.store = store
        self.ai_delay = ai_delay
        self.rooms: dict[str, Room] = {}

    def create(self, variant: str, seats: list[Seat], options: dict[str, Any] | None = None,
               seed: int | None = None, *, hot_seat: bool = False) -> Room:
        game_id = secrets.token_hex(6)
        if seed is None:
            seed = secrets.randbelow(2**31)
        room = Room.create(game_id, variant, seats, options, seed, self.store, self.ai_delay, hot_seat=hot_seat)
        self.rooms[game_id] = room
        room.kick()
        return room

    def adopt(self, data: dict[str, Any], seats: list[Seat]) -> Room:
        """A room for a loaded record (which may be finished, or go on from where it stopped)."""
        game = record.replay(data)
        if len(seats) != game.players:
            raise BoneyardError(f"the record has {game.players} players but {len(seats)} seats were given")
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            seed = secrets.randbelow(2**31)
        game_id = secrets.token_hex(6)
        room = Room(game_id, game, seats, seed, self.store, self.ai_delay)
        room._deal_if_due()
        room.persist()
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
            self.rooms[game_id] = room
            room.kick()
        return room

    async def close(self) -> None:
        for room in self.rooms.values():
            await room.close()


__all__ = ["MAX_MESSAGE", "Connection", "ConnectionClosed", "ProtocolError", "Room", "Rooms", "Seat", "deal_next"]
