"""Where the web table keeps its games: a header row per game plus one row per move.

A game is stored as its ``boneyard/1`` record (RECORD.md) in a header row — with what a room
needs around it: the seat kinds and computer levels, the hashes of the seat tokens and the
seed later hands are dealt from — and the moves of its current hand as rows appended to
``game_moves``, one per move.  The header's record is rewritten only when a hand is dealt or
the game ends (a *checkpoint*, which also clears the move rows it took in); an undo deletes the
rows it takes back.  Loading joins the two: the header's record with the moves appended to its
last hand.  Files written before the move rows existed have a complete record in the header and
no move rows, so they load as they are.

Writes go through one writer thread (:meth:`Store.write`): it takes every write waiting in its
queue, commits them in one transaction, then answers each caller.  A room awaits its write
before it tells anyone about the move, so a server restart loses nothing, and the event loop
never waits for a commit; many rooms' moves share one commit (and one ``fsync``).

Any SQLAlchemy URL works: ``sqlite:///games.db`` (the default is a SQLite file in the user data
directory, :func:`default_url`) or ``postgresql+psycopg://user@host/db`` (``postgresql://`` is
taken to mean the same driver, which the ``web`` extra installs).
"""

from __future__ import annotations

import asyncio
import functools
import json
import queue
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    BigInteger,
    Float,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from boneyard.errors import BoneyardError

BATCH: Final = 500  #: most writes committed in one transaction
#: The GIL switch interval (seconds) for a server with a writer thread (the app sets it when it
#: starts serving).  The writer lets go of the GIL in every SQLite call and must take it back
#: from the event loop each time; a busy loop keeps it a whole switch interval (Python's default
#: is 5 ms), so a commit of a few moves took tens of milliseconds while the loop was busy.
SWITCH_INTERVAL: Final = 0.001


def default_path() -> Path:
    """The default SQLite file: ``<user data dir>/boneyard/web.sqlite3``."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("boneyard")) / "web.sqlite3"


def default_url() -> str:
    return f"sqlite:///{default_path()}"


def store_url(db: str | None) -> str:
    """The store a command's ``--db`` names: a SQLAlchemy URL as given, a plain file name as the SQLite file there,
    nothing as the default file."""
    url = db or default_url()
    return url if "://" in url else f"sqlite:///{Path(url).expanduser().resolve()}"


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL (``None`` for other databases or in-memory SQLite)."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url in (prefix, prefix + ":memory:"):
        return None
    return Path(url[len(prefix):])


def engine_url(url: str) -> str:
    """``postgresql://…`` and ``postgres://…`` mean psycopg 3 (the driver of the ``web`` extra)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), index=True)  #: running or finished
    created: Mapped[float] = mapped_column(Float, index=True)
    updated: Mapped[float] = mapped_column(Float)
    seed: Mapped[int] = mapped_column(BigInteger)
    moves: Mapped[int] = mapped_column(Integer, default=0)
    seats: Mapped[str] = mapped_column(Text)  #: JSON list of seat dicts
    record: Mapped[str] = mapped_column(Text)  #: the boneyard/1 record as JSON, up to the last checkpoint


class MoveRow(Base):
    """One move of a game's current hand, made after the header's record was written."""

    __tablename__ = "game_moves"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  #: the game's move count after this move
    move: Mapped[str] = mapped_column(String(80))


@dataclass(slots=True)
class StoredGame:
    id: str
    variant: str
    status: str
    created: float
    updated: float
    seed: int
    moves: int
    seats: list[dict[str, Any]]
    record: dict[str, Any]


# ---------------------------------------------------------------- writes
@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The whole game: insert or rewrite the header, drop the move rows it now holds."""

    game_id: str
    variant: str
    status: str
    seed: int
    seats: list[dict[str, Any]]
    record: dict[str, Any]
    moves: int


@dataclass(frozen=True, slots=True)
class Append:
    """One move of the current hand; ``moves`` is the game's move count after it."""

    game_id: str
    move: str
    moves: int
    status: str = "running"


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Undo: forget the move rows after the game's move count ``moves``."""

    game_id: str
    moves: int


@dataclass(frozen=True, slots=True)
class Seats:
    """The seats changed (a seat claimed)."""

    game_id: str
    seats: list[dict[str, Any]]


Write = Checkpoint | Append | TakeBack | Seats
_Job = tuple[Sequence[Write], "Future[None]"]


class StoreBusy(BoneyardError):
    """Another server holds the game store (:class:`StoreLock`)."""


#: the PostgreSQL advisory lock a server holds on its store ("BONEYARD" in ASCII, as a 64-bit key)
ADVISORY_KEY: Final = 0x424F4E4559415244


class StoreLock:
    """One server per store: a server holds its store's lock while it runs, so a second one on the same store is
    refused before it takes up the first one's running games (both would play them and write the same moves).

    SQLite: an exclusive ``flock`` on ``FILE.lock`` beside the database (released by the system if the process
    dies); PostgreSQL: a session advisory lock on a connection of its own.  Other stores (in-memory SQLite) have no
    lock: only one process can see them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._file: Any = None
        self._connection: Connection | None = None

    def acquire(self) -> None:
        """Hold the lock; :class:`StoreBusy`, saying what to do, where another server holds it."""
        path = sqlite_path(self.store.url)
        if path is not None:
            import fcntl

            handle = open(path.with_name(path.name + ".lock"), "a+b")  # noqa: SIM115 (held until release)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                raise StoreBusy(self._busy(str(path))) from None
            self._file = handle
        elif self.store.engine.dialect.name == "postgresql":
            connection = self.store.engine.connect()
            held = connection.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": ADVISORY_KEY}).scalar()
            if not held:
                connection.close()
                raise StoreBusy(self._busy(self.store.url))
            self._connection = connection

    def check(self) -> None:
        """:class:`StoreBusy` where another server holds the lock now (taken and given back at once: a command
        says so before it writes anything, and its server takes the lock for good as it starts)."""
        self.acquire()
        self.release()

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # (closing the file releases its flock)
            self._file = None
        if self._connection is not None:
            # given back by name: closing only returns the session to the pool, which would keep holding it
            self._connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_KEY})
            self._connection.close()
            self._connection = None

    @staticmethod
    def _busy(where: str) -> str:
        return f"another boneyard server is using the game store {where}"


class Store:
    """Games in a SQL database, through SQLAlchemy, written by one writer thread."""

    def __init__(self, url: str) -> None:
        path = sqlite_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self.url = url
        self.engine: Engine = create_engine(engine_url(url))
        if self.engine.dialect.name == "sqlite" and path is not None:
            event.listen(self.engine, "connect", _sqlite_wal)
        Base.metadata.create_all(self.engine)
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()
        self._connection: Connection | None = None  #: the writer thread's connection, opened on its first commit
        self.commits = 0  #: transactions the writer committed (a batch is one)

    # ------------------------------------------------------------ writing
    def submit(self, *writes: Write) -> Future[None]:
        """Queue ``writes`` (committed together, in order); the future is done once they are stored."""
        done: Future[None] = Future()
        with self._writer_lock:
            if self._writer is None or not self._writer.is_alive():
                self._writer = threading.Thread(target=self._write_loop, name="boneyard-store-writer", daemon=True)
                self._writer.start()
        self._queue.put((writes, done))
        return done

    async def write(self, *writes: Write) -> None:
        """Store ``writes`` without blocking the event loop; returns once they are committed."""
        await asyncio.wrap_future(self.submit(*writes))

    def save(self, *writes: Write) -> None:
        """Store ``writes`` and wait for the commit (for code outside the event loop)."""
        self.submit(*writes).result()

    def _write_loop(self) -> None:
        try:
            while True:
                job = self._queue.get()
                if job is None:
                    return
                jobs = [job]
                stop = False
                while len(jobs) < BATCH:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stop = True
                        break
                    jobs.append(more)
                self._commit(jobs)
                if stop:
                    return
        finally:
            connection, self._connection = self._connection, None
            if connection is not None:
                connection.close()

    def _commit(self, jobs: list[_Job]) -> None:
        # A write whose caller was cancelled (a room closing) is still made: the room has made the change.
        for _, done in jobs:
            if not done.running():
                done.set_running_or_notify_cancel()  # from now on the caller cannot cancel it
        try:
            if self._connection is None:  # the writer's own, kept: a pool checkout per commit cost more CPU
                self._connection = self.engine.connect()
            with self._connection.begin():  # (a connection the database dropped is opened again here)
                _write(self._connection, [item for writes, _ in jobs for item in writes])
            self.commits += 1
        except Exception as error:  # one bad write must not fail the others: retry them one by one
            if len(jobs) > 1:
                for job in jobs:
                    self._commit([job])
                return
            if not jobs[0][1].cancelled():
                jobs[0][1].set_exception(error)
            return
        for _, done in jobs:
            if not done.cancelled():
                done.set_result(None)

    # ------------------------------------------------------------ reading
    def load(self, game_id: str) -> StoredGame | None:
        """A game with its record complete: the header's record, the move rows added to its last hand."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            moves = list(session.scalars(select(MoveRow.move).where(MoveRow.game_id == game_id)
                                         .order_by(MoveRow.seq)))
            stored = _stored(row)
        if moves:
            hands = stored.record.get("hands")
            if isinstance(hands, list) and hands and isinstance(hands[-1], dict):
                hands[-1]["moves"] = [*hands[-1].get("moves", []), *moves]
        return stored

    def idle(self, before: float) -> list[StoredGame]:
        """The running games whose last move was before ``before`` (a time), oldest first: abandoned tables."""
        query = (select(GameRow).where(GameRow.status == "running", GameRow.updated < before)
                 .order_by(GameRow.updated, GameRow.id))
        with Session(self.engine) as session:
            return [_stored(row) for row in session.scalars(query)]

    def remove(self, game_ids: Sequence[str]) -> None:
        """Delete games (their headers and move rows), in one transaction; for ``boneyard prune``, with no server
        running on the store (:class:`StoreLock`): a running server would write them back."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(MoveRow).where(MoveRow.game_id.in_(game_ids)))
            session.execute(delete(GameRow).where(GameRow.id.in_(game_ids)))

    def list(self, status: str | None = None, *, offset: int = 0, limit: int | None = 200) -> list[StoredGame]:
        """Games, newest first (by creation, so pages stay put while games are played)."""
        query = select(GameRow).order_by(GameRow.created.desc(), GameRow.id.desc()).offset(offset)
        if limit is not None:
            query = query.limit(limit)
        if status is not None:
            query = query.where(GameRow.status == status)
        with Session(self.engine) as session:
            return [_stored(row) for row in session.scalars(query)]

    def count(self, status: str | None = None) -> int:
        query = select(func.count()).select_from(GameRow)
        if status is not None:
            query = query.where(GameRow.status == status)
        with Session(self.engine) as session:
            return int(session.scalar(query) or 0)

    def ids(self, status: str | None = None, page: int = 500) -> Iterator[str]:
        """Every game id (of ``status``), page by page, oldest first."""
        after: tuple[float, str] | None = None
        while True:
            query = select(GameRow.created, GameRow.id).order_by(GameRow.created, GameRow.id).limit(page)
            if status is not None:
                query = query.where(GameRow.status == status)
            if after is not None:
                query = query.where((GameRow.created > after[0]) | ((GameRow.created == after[0])
                                                                    & (GameRow.id > after[1])))
            with Session(self.engine) as session:
                rows = [(created, game_id) for created, game_id in session.execute(query)]
            yield from (game_id for _, game_id in rows)
            if len(rows) < page:
                return
            after = rows[-1]

    def dispose(self) -> None:
        """Finish the queued writes, stop the writer, close the connections."""
        with self._writer_lock:
            writer, self._writer = self._writer, None
        if writer is not None and writer.is_alive():
            self._queue.put(None)
            writer.join()
        self.engine.dispose()


#: the header after a run of appended moves: one statement for every game in the run
_HEADS = (update(GameRow).where(GameRow.id == bindparam("head_id"))
          .values(moves=bindparam("head_moves"), status=bindparam("head_status"), updated=bindparam("head_updated")))
_MOVES = insert(MoveRow)


@functools.cache
def _driver_sql(dialect: Dialect, statement: ClauseElement) -> tuple[str, tuple[str, ...] | None]:
    """``statement`` as the database driver's own SQL, compiled once per dialect, and the names of
    its parameters in order if the driver takes them by position (else it takes them by name)."""
    compiled = statement.compile(dialect=dialect)
    assert isinstance(compiled, SQLCompiler)
    return compiled.string, tuple(compiled.positiontup or ()) if compiled.positional else None


def _many(connection: Connection, statement: ClauseElement, rows: list[dict[str, Any]]) -> None:
    """Run ``statement`` once per row of named parameters, as the driver's own SQL: the run of
    appended moves is the writer's usual batch, and SQLAlchemy's statement machinery took most of
    its CPU (which holds the server's GIL)."""
    sql, order = _driver_sql(connection.dialect, statement)
    params: list[Any] = rows if order is None else [tuple(row[name] for name in order) for row in rows]
    connection.exec_driver_sql(sql, params)


def _write(connection: Connection, writes: Sequence[Write]) -> None:
    """Make ``writes`` in order, in the caller's transaction.  A run of appended moves (the usual
    batch: one move from each of many rooms) is two statements, the move rows and the headers."""
    now = time.time()
    rows: list[dict[str, Any]] = []
    heads: dict[str, dict[str, Any]] = {}

    def flush() -> None:
        if rows:
            _many(connection, _MOVES, rows)
            _many(connection, _HEADS, list(heads.values()))
            rows.clear()
            heads.clear()

    for item in writes:
        if isinstance(item, Append):
            rows.append({"game_id": item.game_id, "seq": item.moves, "move": item.move})
            heads[item.game_id] = {"head_id": item.game_id, "head_moves": item.moves, "head_status": item.status,
                                   "head_updated": now}
            continue
        flush()
        if isinstance(item, Checkpoint):
            values = {"variant": item.variant, "status": item.status, "updated": now, "seed": item.seed,
                      "moves": item.moves, "seats": json.dumps(item.seats), "record": json.dumps(item.record)}
            if connection.execute(update(GameRow).where(GameRow.id == item.game_id).values(values)).rowcount == 0:
                connection.execute(insert(GameRow).values(id=item.game_id, created=now, **values))
            connection.execute(delete(MoveRow).where(MoveRow.game_id == item.game_id))
        elif isinstance(item, TakeBack):
            connection.execute(delete(MoveRow).where(MoveRow.game_id == item.game_id, MoveRow.seq > item.moves))
            connection.execute(update(GameRow).where(GameRow.id == item.game_id)
                               .values(moves=item.moves, updated=now))
        else:
            connection.execute(update(GameRow).where(GameRow.id == item.game_id)
                               .values(seats=json.dumps(item.seats), updated=now))
    flush()


def _sqlite_wal(connection: Any, record: Any) -> None:
    """Write-ahead logging: readers never wait for the writer, and a commit is one ``fsync``."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def _stored(row: GameRow) -> StoredGame:
    return StoredGame(row.id, row.variant, row.status, row.created, row.updated, row.seed, row.moves,
                      json.loads(row.seats), json.loads(row.record))


__all__ = ["SWITCH_INTERVAL", "Append", "Checkpoint", "Seats", "Store", "StoreBusy", "StoreLock", "StoredGame",
           "TakeBack", "Write",
           "default_path", "default_url", "engine_url", "sqlite_path", "store_url"]
