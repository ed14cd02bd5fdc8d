"""Where the web table keeps its games: one row per game, its record rewritten after every move.

A game is stored as its ``boneyard/1`` record (RECORD.md) plus what a room needs around it:
the seat kinds and computer levels, the hashes of the seat tokens, and the seed later hands are
dealt from.  Every change is committed before anyone is told about it, so a server restart
loses nothing: the room replays the record and carries on.

Any SQLAlchemy URL works (``sqlite:///games.db``, ``postgresql://…``); the default is a SQLite
file in the user data directory (:func:`default_url`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Float, Integer, String, Text, create_engine, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


def default_path() -> Path:
    """The default SQLite file: ``<user data dir>/boneyard/web.sqlite3``."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("boneyard")) / "web.sqlite3"


def default_url() -> str:
    return f"sqlite:///{default_path()}"


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL (``None`` for other databases or in-memory SQLite)."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url in (prefix, prefix + ":memory:"):
        return None
    return Path(url[len(prefix):])


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), index=True)  #: running or finished
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)
    seed: Mapped[int] = mapped_column(Integer)
    moves: Mapped[int] = mapped_column(Integer, default=0)
    seats: Mapped[str] = mapped_column(Text)  #: JSON list of seat dicts
    record: Mapped[str] = mapped_column(Text)  #: the boneyard/1 record as JSON


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


class Store:
    """Games in a SQL database, through SQLAlchemy."""

    def __init__(self, url: str) -> None:
        path = sqlite_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        Base.metadata.create_all(self.engine)

    def save(self, game_id: str, *, variant: str, status: str, seed: int, seats: list[dict[str, Any]],
             record: dict[str, Any], moves: int) -> None:
        """Insert or update one game (one transaction)."""
        now = time.time()
        with Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is None:
                row = GameRow(id=game_id, created=now)
                session.add(row)
            row.variant = variant
            row.status = status
            row.updated = now
            row.seed = seed
            row.moves = moves
            row.seats = json.dumps(seats)
            row.record = json.dumps(record)

    def load(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            return None if row is None else _stored(row)

    def list(self, status: str | None = None, limit: int = 200) -> list[StoredGame]:
        """The most recently updated games first."""
        query = select(GameRow).order_by(GameRow.updated.desc()).limit(limit)
        if status is not None:
            query = query.where(GameRow.status == status)
        with Session(self.engine) as session:
            return [_stored(row) for row in session.scalars(query)]

    def dispose(self) -> None:
        self.engine.dispose()


def _stored(row: GameRow) -> StoredGame:
    return StoredGame(row.id, row.variant, row.status, row.created, row.updated, row.seed, row.moves,
                      json.loads(row.seats), json.loads(row.record))


__all__ = ["Store", "StoredGame", "default_path", "default_url", "sqlite_path"]
