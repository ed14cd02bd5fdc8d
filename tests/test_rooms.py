"""Rooms off the event loop (boneyard.web.rooms): hints and searching computers in worker
processes, moves stored (off the loop) before anyone is told, one room's changes in order,
idle rooms leaving memory, every running game reloaded at start.  Each test that stores runs on
SQLite and on a real PostgreSQL (``db_url`` in conftest.py)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

import boneyard
from boneyard import record
from boneyard.moves import Move
from boneyard.state import Game
from boneyard.view import SeatView
from boneyard.web import store as store_module
from boneyard.web.app import create_app
from boneyard.web.rooms import Connection, ConnectionClosed, ProtocolError, Room, Rooms, Seat, SharedState, Thinker
from boneyard.web.store import Checkpoint, Store

Message = dict[str, Any]


def slow_hint(data: dict[str, Any], seat: int) -> tuple[str, str]:
    """A hint that keeps its process busy for half a second (as the expert's search does)."""
    end = time.perf_counter() + 0.5
    while time.perf_counter() < end:
        pass
    return str(SeatView(record.replay(data), seat).legal_moves()[0]), "slow"


class Client(Connection):
    """A connection that keeps what it is sent."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

        async def send(message: Message) -> None:
            self.messages.append(message)

        super().__init__(send)

    async def wait_for(self, predicate: Callable[[Message], bool], seconds: float = 30) -> Message:
        deadline = time.monotonic() + seconds
        seen = 0
        while time.monotonic() < deadline:
            for message in self.messages[seen:]:
                if predicate(message):
                    return message
            seen = len(self.messages)
            await asyncio.sleep(0.005)
        raise AssertionError(f"no such message in {seconds} s: {self.messages[-3:]}")


@contextlib.asynccontextmanager
async def open_rooms(db_url: str, **options: Any) -> AsyncIterator[Rooms]:
    """The rooms of one server on ``db_url`` (computers move without a pause), closed afterwards."""
    rooms = Rooms(Store(db_url), ai_delay=0, **options)
    try:
        yield rooms
    finally:
        await rooms.close()
        rooms.store.dispose()


def humans() -> list[Seat]:
    return [Seat("Ann", "human"), Seat("Bob", "human")]


def stored_record(store: Store, game_id: str) -> dict[str, Any]:
    stored = store.load(game_id)
    assert stored is not None
    return record.to_record(record.replay(stored.record), seed=stored.seed)


def same_game(store: Store, room: Room) -> bool:
    return stored_record(store, room.id) == record.to_record(room.game, seed=room.seed)


async def seated(room: Room, seat: int) -> Client:
    client = Client()
    await room.join(client)
    await room.handle(client, {"type": "claim", "seat": seat})
    return client


def test_a_hint_in_the_pool_does_not_delay_another_rooms_ping(db_url: str) -> None:
    """Issue 13 #2: a hint ran the expert on the event loop; 50 hints delayed another room's ping by 25 s."""
    async def main() -> tuple[float, float]:
        thinker = Thinker(1, hint_job=slow_hint)
        await asyncio.wrap_future(thinker.pool().submit(int))  # the worker is up before the clock starts
        async with open_rooms(db_url, thinker=thinker) as rooms:
            first, second = rooms.create("draw", humans(), seed=1), rooms.create("draw", humans(), seed=2)
            asker, other = await seated(first, first.game.turn), await seated(second, 0)
            started = time.perf_counter()
            await first.handle(asker, {"type": "hint"})
            await second.handle(other, {"type": "ping"})
            await other.wait_for(lambda m: m["type"] == "pong")
            ping = time.perf_counter() - started
            answer = await asker.wait_for(lambda m: m["type"] == "hint")
            assert Move.parse(answer["move"]) in first.game.legal_moves() and answer["reason"] == "slow"
            return ping, time.perf_counter() - started

    ping, hint = asyncio.run(main())
    # on the event loop the ping would wait for the whole hint; in the pool it is answered at once
    assert hint >= 0.5 and ping < hint / 2


def test_one_pending_hint_per_connection_and_a_stale_hint_is_not_sent(db_url: str) -> None:
    async def main() -> None:
        async with open_rooms(db_url, thinker=Thinker(1, hint_job=slow_hint)) as rooms:
            room = rooms.create("draw", humans(), seed=3)
            client = await seated(room, room.game.turn)
            await room.handle(client, {"type": "hint"})
            with pytest.raises(ProtocolError) as refused:
                await room.handle(client, {"type": "hint"})
            assert refused.value.code == "hint_pending"
            await client.wait_for(lambda m: m["type"] == "hint")
            await room.handle(client, {"type": "hint"})  # allowed again once answered
            await room.handle(client, {"type": "move", "move": str(room.game.legal_moves()[0])})
            stale = await client.wait_for(lambda m: m["type"] == "error")
            assert stale["code"] == "hint_stale" and not client.hinting
            assert sum(m["type"] == "hint" for m in client.messages) == 1

    asyncio.run(main())


class GatedThinker(Thinker):
    """Computer moves that wait for the test to open the gate (the first legal move, when asked)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.gate = asyncio.Event()
        self.asked = 0

    async def move(self, game: Game, seat: int, level: str, seed: int, *, urgent: bool = True) -> Move:
        self.asked += 1
        move = SeatView(game, seat).legal_moves()[0]
        await self.gate.wait()
        return move


def test_undo_and_moves_while_a_computer_thinks(db_url: str) -> None:
    async def main() -> None:
        thinker = GatedThinker()
        async with open_rooms(db_url, thinker=thinker) as rooms:
            room = next(r for r in (rooms.create("all-fives", [Seat("Ann", "human"), Seat("C", "computer")],
                                                  seed=seed) for seed in range(40)) if r.game.turn == 0)
            ann = await seated(room, 0)
            await room.handle(ann, {"type": "move", "move": str(room.game.legal_moves()[0])})
            while thinker.asked < 1:
                await asyncio.sleep(0.005)
            started = time.perf_counter()
            with pytest.raises(ProtocolError) as early:  # answered at once, not after the computer
                await room.handle(ann, {"type": "move", "move": "pass"})
            assert early.value.code == "not_your_turn" and time.perf_counter() - started < 0.2
            await room.handle(ann, {"type": "undo"})
            assert room.moves == 0 and room.game.turn == 0
            thinker.gate.set()  # the computer's answer to a position that is gone
            await asyncio.sleep(0.2)
            assert room.moves == 0 and room.game.turn == 0 and same_game(rooms.store, room)
            await room.handle(ann, {"type": "move", "move": str(room.game.legal_moves()[0])})
            await ann.wait_for(lambda m: m["type"] == "state" and m["version"] >= 2)
            assert thinker.asked == 2 and room.game.log[0].events[1].seat == 1 and same_game(rooms.store, room)

    asyncio.run(main())


def test_a_searching_computer_moves_from_a_worker_process(db_url: str) -> None:
    async def main() -> None:
        async with open_rooms(db_url, thinker=Thinker(1)) as rooms:
            room = next(r for r in (rooms.create("block", [Seat("Ann", "human"), Seat("C", "computer", "heuristic")],
                                                  seed=seed) for seed in range(40)) if r.game.turn == 0)
            ann = await seated(room, 0)
            await room.handle(ann, {"type": "move", "move": str(room.game.legal_moves()[0])})
            await ann.wait_for(lambda m: m["type"] == "state" and m["version"] >= 2, seconds=60)
            assert rooms.thinker._pool is not None and room.game.log[0].events[1].seat == 1
            assert same_game(rooms.store, room)

    asyncio.run(main())


def test_a_move_is_stored_before_its_state_is_sent(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = store_module._write

    def slow_write(connection: Any, writes: Any) -> None:  # a slow disk: a state sent early would show
        time.sleep(0.02)
        real_write(connection, writes)

    monkeypatch.setattr(store_module, "_write", slow_write)
    reader = Store(db_url)

    async def main() -> list[tuple[int, int]]:
        seen: list[tuple[int, int]] = []
        async with open_rooms(db_url) as rooms:
            room = rooms.create("draw", humans(), seed=4)
            ann, bob = await seated(room, 0), await seated(room, 1)
            watcher = Client()

            async def check(message: Message) -> None:
                if message["type"] == "state":
                    stored = reader.load(room.id)
                    assert stored is not None
                    seen.append((message["version"], stored.moves))

            watcher.send = check
            await room.join(watcher)
            clients = {0: ann, 1: bob}
            for _ in range(12):
                if not room.game.in_hand:
                    break
                seat = room.game.turn
                await room.handle(clients[seat], {"type": "move", "move": str(room.game.legal_moves()[-1])})
            return seen

    try:
        seen = asyncio.run(main())
    finally:
        reader.dispose()
    assert len(seen) > 5 and all(version <= stored for version, stored in seen)


def test_a_move_that_cannot_be_stored_is_taken_back(db_url: str) -> None:
    async def main() -> None:
        async with open_rooms(db_url) as rooms:
            room = rooms.create("draw", humans(), seed=5)
            client = await seated(room, room.game.turn)
            before = record.to_record(room.game)

            async def broken(*writes: Any) -> None:
                raise OSError("disk full")

            room.store.write = broken  # type: ignore[method-assign]
            with pytest.raises(ProtocolError) as refused:
                await room.handle(client, {"type": "move", "move": str(room.game.legal_moves()[0])})
            assert refused.value.code == "not_stored" and record.to_record(room.game) == before

    asyncio.run(main())


def test_idle_rooms_leave_memory_and_come_back_on_demand(db_url: str) -> None:
    async def main() -> None:
        async with open_rooms(db_url, idle_seconds=100) as rooms:
            done = rooms.create("block", [Seat("A", "computer", "greedy"), Seat("B", "computer", "random")], seed=6)
            while done._task is None or not done._task.done():
                await asyncio.sleep(0.01)
            assert done.game.finished
            waiting = rooms.create("draw", humans(), seed=7)
            watched = rooms.create("draw", humans(), seed=8)
            await watched.join(Client())
            slow = Rooms(rooms.store, ai_delay=100)  # a computer on turn, waiting out its pause
            due = next(r for r in (slow.create("draw", [Seat("A", "human"), Seat("C", "computer")], seed=seed)
                                   for seed in range(40)) if r.game.turn == 1)
            finished_record = record.to_record(done.game, seed=done.seed)
            assert rooms.sweep() == []  # not idle long enough
            gone = rooms.sweep(time.monotonic() + 101)
            assert sorted(gone) == sorted([done.id, waiting.id]) and watched.id in rooms.rooms
            assert due.id not in slow.sweep(time.monotonic() + 1000) and due.id in slow.rooms
            first, second = await asyncio.gather(rooms.open(done.id), rooms.open(done.id))
            again = rooms.get(done.id)
            assert again is first is second and again is not None and again is not done
            assert again.status == "finished" and await rooms.open("nope") is None
            assert record.to_record(again.game, seed=again.seed) == finished_record
            await slow.close()

    asyncio.run(main())


def test_moves_undo_and_deals_survive_a_restart(db_url: str) -> None:
    async def play() -> tuple[str, dict[str, Any]]:
        async with open_rooms(db_url) as rooms:
            room = rooms.create("block", [Seat("Ann", "human"), Seat("C", "computer", "greedy")], seed=9)
            ann = await seated(room, 0)
            undone = False
            for _ in range(200):
                if room.game.finished or len(room.game.log) > 2:
                    break
                if not room.game.in_hand:
                    await room.handle(ann, {"type": "next_hand"})
                elif room.game.turn == 0:
                    if room.can_undo(0) and not undone:
                        await room.handle(ann, {"type": "undo"})
                        undone = True
                    await room.handle(ann, {"type": "move", "move": str(room.game.legal_moves()[0])})
                await asyncio.sleep(0.01)
            assert undone
            while room._task is not None and not room._task.done():
                await asyncio.sleep(0.01)
            return room.id, record.to_record(room.game, seed=room.seed)

    game_id, before = asyncio.run(play())
    store = Store(db_url)
    try:
        assert stored_record(store, game_id) == before
    finally:
        store.dispose()


def test_a_restart_reloads_and_lists_every_running_game_beyond_200(db_url: str) -> None:
    """Issue 13 #8: only 200 running games were listed and reloaded at start."""
    store = Store(db_url)
    seats = [seat.as_stored() for seat in humans()]
    games = [boneyard.new_game("draw", seed=index, names=["Ann", "Bob"]) for index in range(205)]
    store.save(*(Checkpoint(f"g{index:03}", variant="draw", status="running", seed=index, seats=seats,
                            record=record.to_record(game, seed=index), moves=0) for index, game in enumerate(games)))
    store.dispose()
    with TestClient(create_app(db_url, ai_delay=0), base_url="http://localhost") as client:
        loaded = client.app.state.rooms.rooms  # type: ignore[attr-defined]
        assert len(loaded) == 205
        pages = [client.get("/api/games", params={"status": "running", "offset": offset, "limit": 100}).json()
                 for offset in (0, 100, 200)]
        assert [len(page) for page in pages] == [100, 100, 5]
        assert sorted(game["id"] for page in pages for game in page) == sorted(loaded)
        bad = client.get("/api/games", params={"limit": 0})
        assert bad.status_code == 400 and "limit" in bad.json()["detail"]


def test_a_deal_that_cannot_be_stored_is_stored_whole_with_the_next_move(db_url: str) -> None:
    async def main() -> tuple[str, dict[str, Any]]:
        async with open_rooms(db_url) as rooms:
            room = rooms.create("block", humans(), seed=12)
            clients = {0: await seated(room, 0), 1: await seated(room, 1)}
            while room.game.in_hand:
                await room.handle(clients[room.game.turn], {"type": "move", "move": str(room.game.legal_moves()[0])})
            real_write = room.store.write

            async def fail_once(*writes: Any) -> None:
                room.store.write = real_write  # type: ignore[method-assign]
                raise OSError("the database went away")

            room.store.write = fail_once  # type: ignore[method-assign]
            with pytest.raises(ProtocolError) as refused:
                await room.handle(clients[0], {"type": "next_hand"})
            assert refused.value.code == "not_stored" and room.game.in_hand  # dealt, not yet stored
            await room.handle(clients[room.game.turn], {"type": "move", "move": str(room.game.legal_moves()[0])})
            return room.id, record.to_record(room.game, seed=room.seed)

    game_id, expected = asyncio.run(main())
    store = Store(db_url)
    try:
        assert stored_record(store, game_id) == expected and len(expected["hands"]) == 2
    finally:
        store.dispose()


def test_spectators_share_one_state_per_broadcast(db_url: str) -> None:
    """Issue 13 #8: with 500 spectators a move took ten times as long; their state is built once."""
    async def main() -> tuple[int, int]:
        async with open_rooms(db_url) as rooms:
            room = rooms.create("draw", humans(), seed=13)
            mover = await seated(room, room.game.turn)
            watchers = [Client() for _ in range(30)]
            for watcher in watchers:
                await room.join(watcher)
            built: list[int | None] = []
            real_state = room.state_text

            def counting(seat: int | None, shared: SharedState | None = None) -> str:
                built.append(seat)
                return real_state(seat, shared)

            room.state_text = counting  # type: ignore[method-assign]
            await room.handle(mover, {"type": "move", "move": str(room.game.legal_moves()[0])})
            assert all(w.messages[-1]["version"] == 1 and w.messages[-1]["you"] is None for w in watchers)
            return len(built), len(set(built))

    built, distinct = asyncio.run(main())
    assert built == distinct == 2


def test_a_socket_closed_while_joining_is_not_kept(db_url: str) -> None:
    """Found under the 10-minute load: a client that left while its first state was being sent
    stayed in the room's connections and the error escaped the socket handler as a traceback."""
    async def closed(message: Message) -> None:
        raise ConnectionClosed

    async def main() -> tuple[int, int, int, bool]:
        async with open_rooms(db_url) as rooms:
            room = rooms.create("draw", humans(), seed=5)
            watcher = Client()
            await room.join(watcher)
            raised = False
            try:
                await room.join(Connection(closed))
            except ConnectionClosed:
                raised = True
            kept = len(room.connections)
            mover = await seated(room, room.game.turn)
            await room.handle(mover, {"type": "move", "move": str(room.game.legal_moves()[0])})
            return kept, len(room.connections), watcher.messages[-1]["version"], raised

    kept, connections, version, raised = asyncio.run(main())
    assert raised
    assert kept == 1  # only the watcher: the closed socket is not kept
    assert connections == 2  # the watcher and the mover
    assert version == 1  # the room goes on and the others are told of the move


def test_a_second_next_hand_for_a_hand_already_dealt_changes_nothing_quietly(db_url: str) -> None:
    """Two players press "Next hand" together: the second press, naming the hand it saw end, is no error."""
    async def main() -> None:
        async with open_rooms(db_url) as rooms:
            room = rooms.create("block", humans(), seed=12)
            ann, bob = await seated(room, 0), await seated(room, 1)
            clients = {0: ann, 1: bob}
            while room.game.in_hand:
                await room.handle(clients[room.game.turn], {"type": "move", "move": str(room.game.legal_moves()[0])})
            over = len(room.game.log)
            with pytest.raises(ProtocolError) as malformed:
                await room.handle(bob, {"type": "next_hand", "hand": "1"})
            assert malformed.value.code == "malformed" and not room.game.in_hand
            await room.handle(ann, {"type": "next_hand", "hand": over})
            dealt = record.to_record(room.game, seed=room.seed)
            sent = len(bob.messages)
            await room.handle(bob, {"type": "next_hand", "hand": over})  # too late: Ann dealt it
            assert record.to_record(room.game, seed=room.seed) == dealt and len(room.game.log) == over + 1
            assert len(bob.messages) == sent  # nothing broadcast, no error
            with pytest.raises(ProtocolError) as plain:  # without the hand's number it is still refused
                await room.handle(bob, {"type": "next_hand"})
            assert plain.value.code == "hand_in_progress"

    asyncio.run(main())
