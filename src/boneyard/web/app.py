"""The web table's FastAPI application: the lobby's REST API, the game WebSocket, the page.

``create_app(db_url)`` builds an app around one :class:`~boneyard.web.store.Store`.

REST (JSON):

- ``GET /api/meta``: pip positions and sizes shared with the browser's renderer, player levels;
- ``GET /api/variants``: the ``boneyard variants --json`` data (options with their defaults);
- ``GET /api/games[?status=running|finished]``: the games, newest first;
- ``POST /api/games``: a new game ``{variant, seats: [{name, kind: human|computer, level}],
  options, seed}`` (or ``players`` instead of ``seats``: seat 0 human, the rest computers);
- ``GET /api/games/{id}``: a game's public summary;
- ``GET /api/games/{id}/record``: download the record (finished games; a running game only
  for the token of its one human seat, since a record holds every hidden tile);
- ``GET /api/games/{id}/replay``: the replay steps of a finished game;
- ``GET /api/games/{id}/table.svg``: the table now, drawn by :func:`boneyard.render.svg.table_svg`;
- ``POST /api/records``: load a record ``{record, seats?}`` as a new room (continues if unfinished);
- ``POST /api/replay``: the replay steps of a record given in the body.

WebSocket ``/ws/{id}``: the room protocol of :mod:`boneyard.web.rooms`.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from boneyard import record
from boneyard.errors import BoneyardError
from boneyard.options import specs
from boneyard.players.base import LEVELS, _load_levels, make_player
from boneyard.render.geometry import PIP_POSITIONS, PIP_RADIUS, layout_geometry
from boneyard.render.svg import table_svg
from boneyard.rules.base import VARIANTS, find_variant
from boneyard.web.replayer import replay_steps
from boneyard.web.rooms import MAX_MESSAGE, Connection, ProtocolError, Rooms, Seat, _hash
from boneyard.web.store import Store

STATIC = Path(__file__).parent / "static"
MAX_RECORD = 2_000_000  #: bytes of a record sent to the server
MAX_NAME = 30


def variant_rows() -> list[dict[str, Any]]:
    """The data of ``boneyard variants --json``."""
    rows = []
    for name, cls in VARIANTS.items():
        low, high = cls(cls.min_players).player_range()
        rows.append({"name": name, "title": cls.title, "aliases": list(cls.aliases), "min_players": low,
                     "max_players": high, "options": [spec.as_json() for spec in specs(cls.Options)]})
    return rows


def levels() -> list[str]:
    _load_levels()
    return sorted(LEVELS)


def _bad(message: str, status: int = 400) -> HTTPException:
    return HTTPException(status_code=status, detail=message)


def _seats(body: dict[str, Any]) -> list[Seat]:
    given = body.get("seats")
    if given is None:
        players = body.get("players", 2)
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 12:
            raise _bad("'players' must be a number of players")
        level = body.get("level", "greedy")
        given = [{"kind": "human", "name": "You"}] + [{"kind": "computer", "level": level}] * (players - 1)
    if not isinstance(given, list) or not 1 <= len(given) <= 12:
        raise _bad("'seats' must be a list with one entry per player")
    seats = []
    for index, item in enumerate(given):
        if not isinstance(item, dict):
            raise _bad(f"seat {index}: expected an object {{kind, name, level}}")
        kind = item.get("kind", "human")
        if kind not in ("human", "computer"):
            raise _bad(f"seat {index}: kind must be human or computer, not {kind!r}")
        level = item.get("level") or "greedy"
        if not isinstance(level, str):
            raise _bad(f"seat {index}: level must be a string such as greedy")
        if kind == "computer":
            try:
                make_player(level)
            except BoneyardError as error:
                raise _bad(f"seat {index}: {error}") from None
        name = item.get("name")
        if name is not None and not isinstance(name, str):
            raise _bad(f"seat {index}: name must be a string")
        name = " ".join((name or "").split())[:MAX_NAME]
        if not name:
            name = f"Player {index + 1}" if kind == "human" else f"Computer {index} ({level})"
        seats.append(Seat(name, kind, level))
    return seats


def create_app(db_url: str | None = None, *, ai_delay: float = 0.6) -> FastAPI:
    """The web table, storing games at ``db_url`` (default: a SQLite file in the user data dir).
    ``ai_delay`` is the pause before each computer move, in seconds, so people can follow."""
    from boneyard.web.store import default_url

    store = Store(db_url or default_url())
    rooms = Rooms(store, ai_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for stored in store.list("running"):  # rooms resume: computers on turn move again
            with contextlib.suppress(BoneyardError):  # a damaged record stays out of the way
                rooms.get(stored.id)
        yield
        await rooms.close()
        store.dispose()

    app = FastAPI(title="Boneyard web table", lifespan=lifespan)
    app.state.store = store
    app.state.rooms = rooms

    def room_or_404(game_id: str) -> Any:
        room = rooms.get(game_id)
        if room is None:
            raise _bad(f"no game {game_id!r}", 404)
        return room

    @app.exception_handler(BoneyardError)
    async def boneyard_error(request: Any, error: BoneyardError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=400)

    # ---------------------------------------------------------------- pages
    @app.get("/", include_in_schema=False)
    @app.get("/game/{game_id}", include_in_schema=False)
    @app.get("/replay/{game_id}", include_in_schema=False)
    async def page(game_id: str = "") -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ---------------------------------------------------------------- lobby
    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {"pips": {str(n): [list(p) for p in spots] for n, spots in PIP_POSITIONS.items()},
                "pip_radius": PIP_RADIUS, "levels": levels(), "max_message": MAX_MESSAGE}

    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        return variant_rows()

    @app.get("/api/games")
    async def games(status: str | None = None) -> list[dict[str, Any]]:
        if status not in (None, "running", "finished"):
            raise _bad("status must be running or finished")
        listed = []
        for stored in store.list(status):
            players = stored.record.get("players", [])
            listed.append({"id": stored.id, "variant": stored.variant, "status": stored.status,
                           "created": stored.created, "updated": stored.updated, "moves": stored.moves,
                           "players": [{"name": name, "kind": seat.get("kind"), "claimed": bool(seat.get("token_hash"))}
                                       for name, seat in zip(players, stored.seats, strict=False)],
                           "hands": len(stored.record.get("hands", []))})
        return listed

    @app.post("/api/games", status_code=201)
    async def new_game(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        variant = body.get("variant")
        if not isinstance(variant, str):
            raise _bad("'variant' must be a variant name (see /api/variants)")
        cls = find_variant(variant)
        seats = _seats(body)
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise _bad("'options' must be an object of KEY: VALUE")
        options = {key: value for key, value in options.items() if value is not None and value != ""}
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise _bad("'seed' must be a whole number")
        room = rooms.create(cls.name, seats, options, seed)
        return room.public()

    @app.get("/api/games/{game_id}")
    async def game(game_id: str) -> dict[str, Any]:
        return dict(room_or_404(game_id).public())

    @app.get("/api/games/{game_id}/record")
    async def download(game_id: str, token: str | None = None) -> Response:
        room = room_or_404(game_id)
        if not room.game.finished:
            humans = [seat for seat in room.seats if seat.kind == "human"]
            allowed = (token is not None and len(humans) == 1 and humans[0].token_hash == _hash(token))
            if not allowed:
                raise _bad("the game is still running and its record holds every hidden tile; it can be "
                           "downloaded when the game is over (or by the one player against computers)", 403)
        text = record.dumps(record.to_record(room.game, seed=room.seed))
        name = f"{room.game.rules.name}-{game_id}.boneyard.json"
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/games/{game_id}/replay")
    async def game_replay(game_id: str) -> dict[str, Any]:
        room = room_or_404(game_id)
        if not room.game.finished:
            raise _bad("the game is still running; its replay opens when it is over", 409)
        return replay_steps(record.to_record(room.game, seed=room.seed))

    @app.get("/api/games/{game_id}/table.svg")
    async def table(game_id: str) -> Response:
        room = room_or_404(game_id)
        geometry = layout_geometry(room.game.layout, width=room.table[0], height=room.table[1])
        return Response(table_svg(geometry, title=room.game.rules.title), media_type="image/svg+xml")

    @app.post("/api/records", status_code=201)
    async def load_record(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        data = body.get("record")
        if isinstance(data, str):
            if len(data) > MAX_RECORD:
                raise _bad("the record is too large")
            data = record.loads(data)
        if not isinstance(data, dict):
            raise _bad("'record' must be a boneyard/1 record (an object or its JSON text)")
        players = data.get("players")
        if "seats" in body:
            seats = _seats(body)
        else:
            count = len(players) if isinstance(players, list) else 0
            seats = [Seat(str(name), "human" if index == 0 else "computer") for index, name in
                     enumerate(players or [])] if count else []
        room = rooms.adopt(data, seats)
        return room.public()

    @app.post("/api/replay")
    async def replay_any(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        data = body.get("record", body)
        if isinstance(data, str):
            data = record.loads(data)
        if not isinstance(data, dict):
            raise _bad("expected a boneyard/1 record")
        return replay_steps(data)

    # ---------------------------------------------------------------- the table
    @app.websocket("/ws/{game_id}")
    async def table_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        room = rooms.get(game_id)
        if room is None:
            await websocket.send_json({"type": "error", "code": "no_game", "message": f"no game {game_id!r}"})
            await websocket.close(code=4404)
            return
        connection = Connection(websocket.send_json)
        await room.join(connection)
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                if text is None:
                    text = (received.get("bytes") or b"").decode("utf-8", "replace")
                if len(text.encode()) > MAX_MESSAGE:
                    await websocket.send_json({"type": "error", "code": "oversized",
                                               "message": f"messages are at most {MAX_MESSAGE} bytes"})
                    continue
                try:
                    message = json.loads(text)
                except ValueError:
                    await websocket.send_json({"type": "error", "code": "malformed", "message": "not JSON"})
                    continue
                try:
                    await room.handle(connection, message)
                except ProtocolError as error:
                    await websocket.send_json({"type": "error", "code": error.code, "message": str(error),
                                               "request": message.get("type") if isinstance(message, dict) else None})
        except WebSocketDisconnect:
            pass
        finally:
            await room.leave(connection)

    return app


__all__ = ["create_app", "variant_rows"]
