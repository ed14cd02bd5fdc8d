"""The web table's store (boneyard.web.store): header rows plus move rows, one writer thread,
SQLite and a real PostgreSQL (``db_url`` in conftest.py runs each test on both)."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

import boneyard
from boneyard import record
from boneyard.web import store as store_module
from boneyard.web.store import Append, Checkpoint, Seats, Store, TakeBack, engine_url

SEATS = [{"name": "Ann", "kind": "human", "level": "greedy", "token_hash": None},
         {"name": "Bob", "kind": "human", "level": "greedy", "token_hash": None}]


def header(game_id: str, game: boneyard.Game, seed: int = 7) -> Checkpoint:
    moves = sum(len(log.events) for log in game.log)
    return Checkpoint(game_id, variant=game.rules.name, status="finished" if game.finished else "running",
                      seed=seed, seats=SEATS, record=record.to_record(game, seed=seed), moves=moves)


@pytest.fixture
def store(db_url: str) -> Any:
    opened = Store(db_url)
    yield opened
    opened.dispose()


def test_moves_are_rows_after_the_header_and_load_joins_them(store: Store) -> None:
    game = boneyard.new_game("draw", seed=4, names=["Ann", "Bob"])
    store.save(header("g1", game))
    for count in range(1, 6):
        event = game.apply(game.legal_moves()[-1])
        store.save(Append("g1", str(event.move), count))
    loaded = store.load("g1")
    assert loaded is not None and loaded.moves == 5 and loaded.seed == 7
    assert loaded.record == record.to_record(game, seed=7)
    assert record.to_record(record.replay(loaded.record), seed=7) == record.to_record(game, seed=7)


def test_take_back_forgets_later_moves_and_a_checkpoint_takes_the_rows_in(store: Store) -> None:
    game = boneyard.new_game("block", seed=2, names=["Ann", "Bob"])
    store.save(header("g", game))
    texts = []
    for count in range(1, 5):
        texts.append(str(game.apply(game.legal_moves()[0]).move))
        store.save(Append("g", texts[-1], count))
    store.save(TakeBack("g", 2))
    loaded = store.load("g")
    assert loaded is not None and loaded.record["hands"][0]["moves"] == texts[:2] and loaded.moves == 2
    game.undo()
    game.undo()
    store.save(header("g", game))  # the whole game again: no move rows left over
    assert store.load("g") == store.load("g") and store.load("g").record == record.to_record(game, seed=7)  # type: ignore[union-attr]


def test_seats_and_large_seeds_are_kept(store: Store) -> None:
    game = boneyard.new_game("draw", seed=1)
    store.save(header("big", game, seed=2**62))
    claimed = [dict(SEATS[0], token_hash="ab" * 32), SEATS[1]]
    store.save(Seats("big", claimed))
    loaded = store.load("big")
    assert loaded is not None and loaded.seed == 2**62 and loaded.seats == claimed


def test_writes_waiting_together_share_one_commit(store: Store) -> None:
    store.save(*(header(f"r{index}", boneyard.new_game("draw", seed=index)) for index in range(20)))
    before = store.commits
    futures = [store.submit(Seats(f"r{index % 20}", SEATS)) for index in range(200)]
    for future in futures:
        future.result(timeout=60)
    assert store.commits - before < 200  # the writer took several writes per transaction


def test_a_failed_write_fails_its_caller_only(store: Store) -> None:
    game = boneyard.new_game("draw", seed=3)
    store.save(header("a", game), header("b", game))
    event = game.apply(game.legal_moves()[0])
    store.save(Append("a", str(event.move), 1))
    duplicate = store.submit(Append("a", str(event.move), 1))  # the same move number twice
    fine = store.submit(Append("b", str(event.move), 1))
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        duplicate.result(timeout=60)
    fine.result(timeout=60)
    stored_b = store.load("b")
    assert stored_b is not None and stored_b.moves == 1


def test_a_slow_commit_does_not_hold_the_event_loop(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, every move's commit ran on the event loop (about 19 ms each, issue 13 #3)."""
    game = boneyard.new_game("draw", seed=5)
    store.save(header("slow", game))
    real_write = store_module._write

    def slow_write(connection: Any, writes: Any) -> None:
        time.sleep(0.4)
        real_write(connection, writes)

    monkeypatch.setattr(store_module, "_write", slow_write)

    async def main() -> tuple[float, float]:
        ticks: list[float] = []

        async def ticker() -> None:
            while True:
                ticks.append(time.perf_counter())
                await asyncio.sleep(0.01)

        task = asyncio.create_task(ticker())
        started = time.perf_counter()
        await store.write(Seats("slow", SEATS))
        took = time.perf_counter() - started
        task.cancel()
        gaps = [b - a for a, b in itertools.pairwise(ticks)]
        return took, max(gaps)

    took, longest_gap = asyncio.run(main())
    # a write on the event loop would stop the ticker for all of its 0.4 s
    assert took >= 0.4 and longest_gap < took / 2


def test_pages_list_every_game_newest_first(store: Store) -> None:
    for index in range(7):
        store.save(header(f"p{index}", boneyard.new_game("block", seed=index)))
    pages = [[game.id for game in store.list("running", offset=offset, limit=3)] for offset in (0, 3, 6)]
    assert [len(page) for page in pages] == [3, 3, 1]
    listed = [game_id for page in pages for game_id in page]
    assert listed == [f"p{index}" for index in reversed(range(7))]
    assert sorted(store.ids("running", page=2)) == sorted(listed)
    assert store.count("running") == 7 and store.list("finished") == []


def test_writes_from_many_threads_all_land(store: Store) -> None:
    store.save(*(header(f"t{index}", boneyard.new_game("draw", seed=index)) for index in range(4)))

    def claim(index: int) -> None:
        for _ in range(10):
            store.save(Seats(f"t{index}", [dict(SEATS[0], token_hash=str(index)), SEATS[1]]))

    threads = [threading.Thread(target=claim, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [store.load(f"t{index}").seats[0]["token_hash"] for index in range(4)] == ["0", "1", "2", "3"]  # type: ignore[union-attr]


def test_a_file_written_before_move_rows_still_loads(tmp_path: Path) -> None:
    """The old schema: one row per game with the whole record, no game_moves table."""
    game = boneyard.new_game("all-fives", seed=9, names=["Ann", "Bob"])
    for _ in range(3):
        game.apply(game.legal_moves()[0])
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, variant VARCHAR(40), status VARCHAR(16),"
                           " created FLOAT, updated FLOAT, seed INTEGER, moves INTEGER, seats TEXT, record TEXT)")
        connection.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           ("old", "all-fives", "running", 1.0, 2.0, 9, 3, json.dumps(SEATS),
                            json.dumps(record.to_record(game, seed=9))))
    opened = Store(f"sqlite:///{path}")
    try:
        loaded = opened.load("old")
        assert loaded is not None
        assert record.to_record(record.replay(loaded.record), seed=9) == record.to_record(game, seed=9)
        event = game.apply(game.legal_moves()[0])
        opened.save(Append("old", str(event.move), 4))
        again = opened.load("old")
        assert again is not None and again.record["hands"][0]["moves"][-1] == str(event.move)
    finally:
        opened.dispose()


def test_postgresql_urls_mean_psycopg() -> None:
    assert engine_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert engine_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert engine_url("sqlite:///x.db") == "sqlite:///x.db"


def test_the_writer_keeps_its_connection_and_opens_it_again_when_the_database_drops_it(store: Store) -> None:
    """The writer commits on one connection of its own (a pool checkout per commit cost CPU
    under the server's GIL); a connection PostgreSQL drops fails one write, and the next is stored."""
    game = boneyard.new_game("draw", seed=5)
    store.save(header("g", game))
    first = str(game.apply(game.legal_moves()[0]).move)
    store.save(Append("g", first, 1))
    assert store.engine.pool.checkedout() == 1  # the writer's, kept between commits
    second = str(game.apply(game.legal_moves()[0]).move)
    if store.engine.dialect.name == "postgresql":
        from sqlalchemy import text

        with store.engine.connect() as admin:
            admin.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
            admin.commit()
        with pytest.raises(Exception, match=r"(?i)terminat|closed|connection"):
            store.save(Append("g", second, 2))
    store.save(Append("g", second, 2))  # (again, after a failure: on a new connection)
    loaded = store.load("g")
    assert loaded is not None and loaded.moves == 2
    assert loaded.record["hands"][-1]["moves"][-2:] == [first, second]


def test_a_writer_that_cannot_connect_fails_that_write_only(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    game = boneyard.new_game("draw", seed=6)
    real_connect = store.engine.connect
    refused: list[bool] = []

    def connect_once_refused() -> Any:
        if not refused:
            refused.append(True)
            raise OSError("the database is not up yet")
        return real_connect()

    monkeypatch.setattr(store.engine, "connect", connect_once_refused)
    with pytest.raises(OSError, match="not up yet"):
        store.submit(header("g", game)).result(timeout=30)  # answered, not left waiting
    store.submit(header("g", game)).result(timeout=30)
    loaded = store.load("g")
    assert refused and loaded is not None and loaded.moves == 0
