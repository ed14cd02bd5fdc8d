"""Play again at the same table: at game over a seated person asks for the next game, which keeps the variant,
the options, the seats and their people (seat tokens), the invitation and the hot seat, and is dealt anew; every
page at the old table is told where it is (``state.rematch``), and a page goes there in the browser."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from boneyard import record
from boneyard.web.rooms import ProtocolError, Room, deal_next
from boneyard.web.store import Store
from tests.test_rooms import Client, humans, open_rooms, seated


def play_out(room: Room, seed: int = 5) -> None:
    """Finish the room's game by random moves (dealing each next hand as the table does)."""
    rng = random.Random(seed)
    game = room.game
    while not game.finished:
        if not game.in_hand:
            deal_next(game, room.seed)
        game.apply(rng.choice(game.legal_moves()))


async def refused(room: Room, client: Client, message: dict[str, Any]) -> str:
    with pytest.raises(ProtocolError) as caught:
        await room.handle(client, message)
    return caught.value.code


def test_play_again_makes_one_next_game_with_the_same_table_and_people(db_url: str) -> None:
    async def main() -> None:
        async with open_rooms(db_url) as rooms:
            options = {"target": 100}
            room = rooms.create("all-fives", humans(), options, seed=3, invite="secret-link")
            ann, bob = await seated_invited(room, 0), await seated_invited(room, 1)
            watcher = Client()
            await room.join(watcher)
            assert await refused(room, ann, {"type": "rematch"}) == "game_running"
            play_out(room)
            assert await refused(room, watcher, {"type": "rematch"}) == "spectator"
            await room.handle(ann, {"type": "rematch"})
            told = await bob.wait_for(lambda m: m.get("type") == "state" and m["rematch"] is not None)
            seen = await watcher.wait_for(lambda m: m.get("type") == "state" and m["rematch"] is not None)
            new_id = told["rematch"]
            assert seen["rematch"] == new_id and new_id != room.id
            await room.handle(bob, {"type": "rematch"})  # asked twice (two people at once): one next game
            assert room.rematch == new_id and sum(1 for r in rooms.rooms.values() if r is not room) == 1

            new = rooms.rooms[new_id]
            assert new.game.rules.name == "all-fives" and new.game.rules.options.target == 100
            assert [s.name for s in new.seats] == ["Ann", "Bob"] and new.invite_hash == room.invite_hash
            assert not new.game.finished and new.game.in_hand and new.seed != room.seed  # (dealt anew)
            assert [s.token_hash for s in new.seats] == [s.token_hash for s in room.seats]
            # each person's token from the old table seats them at the new one; a stranger finds the seats taken
            ann_token = next(m for m in ann.messages if m.get("type") == "claimed")["token"]
            again = Client()
            await new.join(again)
            await new.handle(again, {"type": "resume", "token": ann_token})
            assert again.seat == 0
            stranger = Client()
            await new.join(stranger)
            assert await refused(new, stranger, {"type": "claim", "seat": 1, "invite": "secret-link"}) == "seat_taken"
            # the old game's stored record names the next game (a page opening it later is shown the way);
            # its downloaded record does not (the table's own keys stay in the store)
            stored = rooms.store.load(room.id)
            assert stored is not None and stored.record["meta"]["rematch"] == new_id
            assert "rematch" not in room.record().get("meta", {})
            restored = Room.restore(stored, rooms.store, 0)
            assert restored.rematch == new_id and record.replay(stored.record).finished

    asyncio.run(main())


async def seated_invited(room: Room, seat: int) -> Client:
    client = Client()
    await room.join(client)
    await room.handle(client, {"type": "claim", "seat": seat, "invite": "secret-link"})
    return client


def test_play_again_keeps_the_computers_and_the_hot_seat(db_url: str) -> None:
    async def main() -> None:
        async with open_rooms(db_url) as rooms:
            seats = humans()
            seats[1].kind, seats[1].level = "computer", "random"
            room = rooms.create("block", seats, seed=8, hot_seat=True)
            ann = await seated(room, 0)
            play_out(room)
            await room.handle(ann, {"type": "rematch"})
            assert room.rematch is not None
            new = rooms.rooms[room.rematch]
            assert new.hot_seat and [(s.kind, s.level) for s in new.seats] == [("human", "greedy"),
                                                                                ("computer", "random")]
            assert new.seats[0].token_hash == room.seats[0].token_hash and new.seats[1].token_hash is None

    asyncio.run(main())


def test_a_table_outside_a_server_says_it_cannot_play_again(tmp_path: Any) -> None:
    async def main() -> str:
        store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
        try:
            room = Room.create("abc123", "block", humans(), None, 4, store, 0)
            ann = await seated(room, 0)
            play_out(room)
            return await refused(room, ann, {"type": "rematch"})
        finally:
            store.dispose()

    assert asyncio.run(main()) == "no_rematch"


def test_rooms_play_again_is_reachable_from_every_room_the_server_holds(db_url: str) -> None:
    async def main() -> None:
        async with open_rooms(db_url) as rooms:
            made = rooms.create("draw", humans(), seed=2)
            rooms.rooms.clear()  # gone from memory: opened again from the store
            opened = await rooms.open(made.id)
            assert opened is not None and opened.spawn is not None
            assert rooms.get(made.id) is opened and rooms.get(made.id).spawn == rooms.play_again

    asyncio.run(main())
