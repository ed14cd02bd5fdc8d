"""The web table's FastAPI application: the lobby's REST API, the game WebSocket, the page.

``create_app(db_url, limits=Limits())`` builds an app around one :class:`~boneyard.web.store.Store`;
every request passes :class:`~boneyard.web.guard.Guard` (Host/Origin allow-list, body caps) and
every JSON text is read with :func:`boneyard.jsontext.loads` (nesting limit), so bad input is a
clear 400 (not JSON, not the expected shape), 413 (too large) or 422 (a value out of range).

REST (JSON):

- ``GET /api/meta``: pip positions and sizes shared with the browser's renderer, player levels;
- ``GET /api/variants``: the ``boneyard variants --json`` data (options with their defaults);
- ``GET /api/games[?status=running|finished&offset=N&limit=N]``: the games, newest first, a page
  at a time (``limit`` 1-1000, default 200);
- ``POST /api/games``: a new game ``{variant, seats: [{name, kind: human|computer, level}],
  options, seed, hot_seat, invite}`` (or ``players`` instead of ``seats``: seat 0 human, the rest
  computers; ``hot_seat``: one connection may play every human seat; ``invite``: only those with the
  invitation the answer carries, once, may sit down);
- ``GET /api/games/{id}``: a game's public summary;
- ``GET /api/games/{id}/record``: download the record (finished games; a running game only
  for the token of its one human seat, since a record holds every hidden tile);
- ``GET /api/games/{id}/replay``: the replay steps of a finished game;
- ``GET /api/games/{id}/table.svg``: the table now, drawn by :func:`boneyard.render.svg.table_svg`;
- ``POST /api/records``: load a record ``{record, seats?}`` as a new room (continues if unfinished);
- ``POST /api/replay``: the replay steps of a record given in the body;
- ``POST /api/review``: the game review of one seat (docs/review.md) ``{game_id | record, seat, samples}``,
  worked out in a worker process (:class:`boneyard.review.worker.Reviewer`).
- ``POST /api/stats``: a player's statistics (``boneyard stats --json``) over the tables where they sit,
  ``{seats: [{game, token}]}``: each game counted for the seat its token opens (:func:`seat_stats`).

WebSocket ``/ws/{id}``: the room protocol of :mod:`boneyard.web.rooms`, with the connection
limits of :class:`~boneyard.web.limits.Limits` (``too_many_connections``, ``rate_limited``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
from collections.abc import AsyncIterator, Coroutine, MutableMapping, Sequence
from contextlib import asynccontextmanager
from html import escape
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketState

from boneyard import jsontext, record, rulebook
from boneyard.chance import MAX_SEED, seed_error
from boneyard.errors import BoneyardError
from boneyard.options import specs
from boneyard.player_stats import Stats
from boneyard.players.base import LEVELS, load_levels
from boneyard.render.geometry import PIP_POSITIONS, PIP_RADIUS, layout_geometry
from boneyard.render.svg import table_svg
from boneyard.review.worker import Reviewer
from boneyard.rules.base import VARIANTS, find_variant, variant_row
from boneyard.web.guard import Guard
from boneyard.web.limits import Admission, Limits, PerClient, TokenBucket
from boneyard.web.narrate import json_text
from boneyard.web.outbox import FELL_BEHIND, Outbox
from boneyard.web.replayer import replay_steps
from boneyard.web.rooms import Connection, ConnectionClosed, ProtocolError, Room, Rooms, Seat, _hash
from boneyard.web.store import SWITCH_INTERVAL, Store, StoredGame, StoreLock

STATIC = Path(__file__).parent / "static"
TRY_AGAIN_LATER: Final = 1013  #: WebSocket close code for a connection over the limits
NO_GAME: Final = 4404
#: a stored game that no longer replays (written under other rules, or damaged): said once, never retried
DAMAGED_GAME: Final = 4422


def record_seats(players: list[Any], meta: Any) -> list[Seat]:
    """A record's seats where the loader gives none: its person where ``meta.human_seat`` says (the terminal and the
    web download write it; seat 0 otherwise), the others computers at the levels ``meta.ai`` gives by seat, read as
    ``make_player`` reads a spec's level: a level with settings (the terminal's "expert:time=2") is the table's own
    level of that name, at the table's budget; a name the table has no level of is greedy."""
    human, given = record.seat_levels({"meta": meta}, len(players))
    known = levels()

    def level(spec: str) -> str:
        name = spec.partition(":")[0].strip().lower()
        return name if name in known else "greedy"

    return [Seat(str(name), "human") if seat == human else Seat(str(name), "computer", level(given[seat]))
            for seat, name in enumerate(players)]


def variant_rows() -> list[dict[str, Any]]:
    """The data of ``boneyard variants --json``."""
    return [variant_row(cls) for cls in VARIANTS.values()]


def levels() -> list[str]:
    load_levels()
    return sorted(LEVELS)


#: why a table of several people takes no seed and no record still to play: whoever chose them knows every hand
DEALT_BY_THE_SERVER = ("a table of several people is dealt by the server: a seed or an uploaded deal would show "
                       "whoever chose it every hand and the stock; ")


#: the page around a variant's rules (``/rules/NAME``): the site's header and style, the rules as written
RULES_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}: the rules — Boneyard</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body>
  <header><a href="/" class="brand">Boneyard</a></header>
  <main class="rules-page">
{body}
  </main>
</body>
</html>
"""


def _bad(message: str, status: int = 400) -> HTTPException:
    return HTTPException(status_code=status, detail=message)


async def json_object(request: Request, limits: Limits) -> dict[str, Any]:
    """The request's body as a JSON object, read with the nesting limit; anything else is a 400."""
    raw = await request.body()
    try:
        data = jsontext.loads(raw, limits.max_depth)
    except ValueError as error:  # not UTF-8, not JSON, or nested too deep
        raise _bad(f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise _bad("the body must be a JSON object")
    return data


def checked_seed(value: Any, where: str) -> int | None:
    """``value`` as a seed (None if absent); refused with 422 unless a whole number 0 … 2^63 - 1."""
    if value is None:
        return None
    if seed_error(value) is not None or not isinstance(value, int):
        raise _bad(f"{where} must be a whole number from 0 to 2^63 - 1, not {json.dumps(value)[:40]}", 422)
    return value


def checked_name(name: str, limit: int, where: str) -> str:
    """``name`` with its white space collapsed; refused with 422 if longer than ``limit`` characters."""
    cleaned = " ".join(name.split())
    if len(cleaned) > limit:
        raise _bad(f"{where}: a name is at most {limit} characters (this one has {len(cleaned)})", 422)
    return cleaned


def record_names(data: dict[str, Any], limit: int) -> None:
    """Refuse a record whose player names are not strings of at most ``limit`` characters."""
    players = data.get("players")
    if isinstance(players, list):
        for index, name in enumerate(players):
            if not isinstance(name, str):
                raise _bad(f"the record's player {index + 1}: a name must be a string", 422)
            checked_name(name, limit, f"the record's player {index + 1}")


def _seats(body: dict[str, Any], max_name: int) -> list[Seat]:
    given = body.get("seats")
    if given is None:
        players = body.get("players", 2)
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 12:
            raise _bad("'players' must be a number of players")
        level = body.get("level", "greedy")
        given = [{"kind": "human"}] + [{"kind": "computer", "level": level}] * (players - 1)
    if not isinstance(given, list) or not 1 <= len(given) <= 12:
        raise _bad("'seats' must be a list with one entry per player")
    seats: list[Seat] = []
    for index, item in enumerate(given):
        where = f"seat {index + 1}"  # counted as the lobby counts its rows
        if not isinstance(item, dict):
            raise _bad(f"{where}: expected an object {{kind, name, level}}")
        kind = item.get("kind", "human")
        if kind not in ("human", "computer"):
            raise _bad(f"{where}: kind must be human or computer, not {kind!r}")
        level = item.get("level") or "greedy"
        if not isinstance(level, str):
            raise _bad(f"{where}: level must be a string such as greedy")
        if kind == "computer" and level not in levels():
            # settings such as expert:time=600 are for the command line, where the machine is the player's own:
            # here the computers of every table share the server's workers
            known = level.split(":")[0] in levels()
            raise _bad(f"{where}: " + (f"{level!r}: the table takes a level by name, one of {', '.join(levels())} "
                                       "(settings such as time= are for the command line)" if known else
                                       f"unknown player level {level!r} (choose from {', '.join(levels())})"))
        name = item.get("name")
        if name is not None and not isinstance(name, str):
            raise _bad(f"{where}: name must be a string")
        name = checked_name(name or "", max_name, where)
        if name.casefold() == "you":  # the table says "You" to each player itself: a name "You" would be two people
            name = ""
        taken = next((other for other, seat in enumerate(seats)
                      if seat.name and seat.name.casefold() == name.casefold()), None)
        if name and taken is not None:
            raise _bad(f"{where}: the name {name!r} is already seat {taken + 1}'s; give each player a name of "
                       "their own", 422)
        seats.append(Seat(name, kind, level))  # (unnamed: "" until every typed name is known)
    for seat in seats:  # the unnamed: the first default of their kind nobody has taken
        if not seat.name:
            seat.name = free_name(seat.kind, [other.name for other in seats])
    return seats


def free_name(kind: str, names: Sequence[str]) -> str:
    """The first of ``Player 1``, ``Player 2`` … (``Computer 1`` … for the computer) not among ``names``."""
    used = {name.casefold() for name in names}
    number = 1
    while default_name(kind, number).casefold() in used:
        number += 1
    return default_name(kind, number)


def web_names(data: dict[str, Any]) -> None:
    """A loaded record's player named "You" (a terminal game's) gets a name of its own at the table."""
    players = data.get("players")
    if isinstance(players, list):
        for index, name in enumerate(players):
            if isinstance(name, str) and name.casefold() == "you":
                players[index] = free_name("human", [str(other) for other in players])


def default_name(kind: str, number: int) -> str:
    """The name of the ``number``-th seat of its ``kind`` left unnamed: ``Player 1`` for a person, ``Computer 1``
    for the computer (its level is shown beside it)."""
    return f"Player {number}" if kind == "human" else f"Computer {number}"


#: the most tables one statistics request counts (a browser keeps a token for each table it sat at)
MAX_STATS_GAMES: Final = 500


def seat_stats(store: Store, held: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """``boneyard stats --json`` over the games a browser sat at: each ``(game id, seat token)`` counts its game for
    the seat that token opens (a token that opens none, or a game that is not stored, is left out), against the
    other seats' computers by level, each game once however often it is listed.  A table several people shared on
    one screen (pass and play) is nobody's own: it is counted under ``shared``.  Only totals come back, never a
    hand, so a running game's hidden tiles stay hidden."""
    stats = Stats()
    shared = 0
    counted: set[str] = set()  # each game once, however often it is listed (as `boneyard stats` counts a file)
    for game_id, token in held:
        if game_id in counted:
            continue
        stored: StoredGame | None = store.load(game_id)
        digest = _hash(token)
        seat = next((index for index, info in enumerate(stored.seats) if isinstance(info.get("token_hash"), str)
                     and secrets.compare_digest(info["token_hash"], digest)), None) if stored is not None else None
        if stored is None or seat is None:
            continue
        counted.add(game_id)
        meta = stored.record.get("meta")
        meta = dict(meta) if isinstance(meta, dict) else {}
        if meta.get("hot_seat") is True and sum(info.get("kind") == "human" for info in stored.seats) > 1:
            shared += 1
            continue
        meta["human_seat"] = seat
        meta["ai"] = {str(index): str(info.get("level")) for index, info in enumerate(stored.seats)
                      if info.get("kind") == "computer"}
        stats.add({**stored.record, "meta": meta}, f"game {game_id}")
    return {**stats.as_json(), "shared": shared}


def create_app(db_url: str | None = None, *, ai_delay: float = 0.6, limits: Limits | None = None) -> FastAPI:
    """The web table, storing games at ``db_url`` (default: a SQLite file in the user data dir).
    ``ai_delay`` is the pause before each computer move, in seconds, so people can follow;
    ``limits`` are the sizes, rates and allowed origins (:class:`~boneyard.web.limits.Limits`)."""
    from boneyard.web.store import default_url

    limits = limits or Limits()
    store = Store(db_url or default_url())
    lock = StoreLock(store)
    rooms = Rooms(store, ai_delay)
    admission = Admission(limits)
    reviewer = Reviewer()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if sys.getswitchinterval() > SWITCH_INTERVAL:  # the store's writer takes the GIL back sooner
            sys.setswitchinterval(SWITCH_INTERVAL)
        lock.acquire()  # one server per store: a second one is refused here, before it takes up the games
        try:
            await rooms.start()  # every running game is loaded: computers on turn move again
            yield
            await rooms.close()
            await asyncio.to_thread(reviewer.close)
            store.dispose()
        finally:
            lock.release()

    app = FastAPI(title="Boneyard web table", lifespan=lifespan)
    app.add_middleware(Guard, limits=limits)
    app.state.store = store
    app.state.rooms = rooms
    app.state.limits = limits

    async def room_or_404(game_id: str) -> Any:
        room = await rooms.open(game_id)  # a game not in memory is read and replayed off the event loop
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

    @app.get("/rules/{variant}", include_in_schema=False)
    async def rules_page(variant: str) -> HTMLResponse:
        """A variant's rules in full (docs/variants, :mod:`boneyard.rulebook`), as a page of the site."""
        try:
            title, body = find_variant(variant).title, rulebook.html(variant)
        except BoneyardError as error:  # an unknown name, or the pages not installed
            raise _bad(str(error), 404) from None
        return HTMLResponse(RULES_PAGE.format(title=escape(title), body=body),
                            headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ---------------------------------------------------------------- lobby
    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {"pips": {str(n): [list(p) for p in spots] for n, spots in PIP_POSITIONS.items()},
                "pip_radius": PIP_RADIUS, "levels": levels(), "max_message": limits.max_message,
                "max_name": limits.max_name}

    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        return variant_rows()

    @app.get("/api/games")
    def games(status: str | None = None, offset: int = 0, limit: int = 200) -> list[dict[str, Any]]:
        # a plain def: FastAPI runs it in a worker thread, so the query never holds the event loop
        if status not in (None, "running", "finished"):
            raise _bad("status must be running or finished")
        if not 0 <= offset <= MAX_SEED or not 1 <= limit <= 1000:
            raise _bad(f"offset must be 0 to {MAX_SEED} and limit 1 to 1000 (page with offset=offset+limit)")
        listed = []
        for stored in store.list(status, offset=offset, limit=limit):
            players = stored.record.get("players", [])
            listed.append({"id": stored.id, "variant": stored.variant, "status": stored.status,
                           "created": stored.created, "updated": stored.updated, "moves": stored.moves,
                           "players": [{"name": name, "kind": seat.get("kind"), "claimed": bool(seat.get("token_hash"))}
                                       for name, seat in zip(players, stored.seats, strict=False)],
                           "invite_only": isinstance(meta := stored.record.get("meta"), dict)
                                          and isinstance(meta.get("invite_hash"), str),
                           # the next game at the same table (Play again), whose seats the same tokens open
                           "rematch": meta.get("rematch") if isinstance(meta, dict)
                                      and isinstance(meta.get("rematch"), str) else None,
                           "hands": len(stored.record.get("hands", [])),
                           # the house rules (a record's options are those that differ from the defaults)
                           "options": options if isinstance(options := stored.record.get("options"), dict) else {}})
        return listed

    creations = PerClient(limits.games_per_minute / 60, limits.game_burst)

    def admit_game(request: Request, seats: list[Seat], finished: bool = False) -> None:
        """Refuse (429) a new table beyond the client's rate, or a table of computers alone beyond the server's."""
        if not creations.take(request.client.host if request.client is not None else "unknown"):
            raise _bad(f"too many new games from your address: at most {limits.game_burst} at once and "
                       f"{limits.games_per_minute:g} a minute; try again in a minute", 429)
        if not finished and all(seat.kind == "computer" for seat in seats):
            playing = sum(room.computers_only for room in rooms.rooms.values())
            if playing >= limits.max_computer_tables:
                raise _bad(f"{playing} tables of computers alone are playing, the most this server runs at once: "
                           "watch one of them, or try again when one is over", 429)

    @app.post("/api/games", status_code=201)
    async def new_game(request: Request) -> dict[str, Any]:
        body = await json_object(request, limits)
        variant = body.get("variant")
        if not isinstance(variant, str):
            raise _bad("'variant' must be a variant name (see /api/variants)")
        cls = find_variant(variant)
        seats = _seats(body, limits.max_name)
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise _bad("'options' must be an object of KEY: VALUE")
        # an empty field is the lobby form's "default" for an option the variant has (an unknown name is still
        # refused by name); null is an option's "none", as a record writes it
        known = {spec.name for spec in specs(cls.Options)}
        options = {key: value for key, value in options.items()
                   if value != "" or str(key).replace("-", "_") not in known}
        seed = checked_seed(body.get("seed"), "'seed'")
        hot_seat = body.get("hot_seat", False)
        if not isinstance(hot_seat, bool):
            raise _bad("'hot_seat' must be true or false")
        invited = body.get("invite", False)
        if not isinstance(invited, bool):
            raise _bad("'invite' must be true (only people with the invitation may sit down) or false")
        if seed is not None and not limits.chosen_deals and sum(seat.kind == "human" for seat in seats) > 1:
            raise _bad(DEALT_BY_THE_SERVER + "leave out 'seed'", 422)
        admit_game(request, seats)
        invite = secrets.token_urlsafe(18) if invited else None
        room = rooms.create(cls.name, seats, options, seed, hot_seat=hot_seat, invite=invite)
        return room.public() | ({"invite": invite} if invite is not None else {})

    @app.get("/api/games/{game_id}")
    async def game(game_id: str) -> dict[str, Any]:
        return dict((await room_or_404(game_id)).public())

    @app.get("/api/games/{game_id}/record")
    async def download(game_id: str, token: str | None = None) -> Response:
        room = await room_or_404(game_id)
        if not room.game.finished:
            humans = [seat for seat in room.seats if seat.kind == "human"]
            allowed = (token is not None and len(humans) == 1 and humans[0].token_hash == _hash(token))
            if not allowed:
                raise _bad("the game is still running and its record holds every hidden tile; it can be "
                           "downloaded when the game is over (or by the one player against computers)", 403)
        text = record.dumps(room.record())
        name = f"{room.game.rules.name}-{game_id}.boneyard.json"
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/games/{game_id}/replay")
    async def game_replay(game_id: str) -> Response:
        room = await room_or_404(game_id)
        if not room.game.finished:
            raise _bad("the game is still running; its replay opens when it is over", 409)
        return await replay_response(room.record())

    @app.get("/api/games/{game_id}/table.svg")
    async def table(game_id: str) -> Response:
        room = await room_or_404(game_id)
        geometry = layout_geometry(room.game.layout, width=room.table[0], height=room.table[1])
        return Response(table_svg(geometry, title=room.game.rules.title), media_type="image/svg+xml")

    def record_in(body: dict[str, Any], default: Any) -> dict[str, Any]:
        """The record a body carries (an object or its JSON text), its names checked."""
        data = body.get("record", default)
        if isinstance(data, str):
            data = record.loads(data)
        if not isinstance(data, dict):
            raise _bad("'record' must be a boneyard/1 record (an object or its JSON text)")
        record_names(data, limits.max_name)
        hands = data.get("hands")
        if isinstance(hands, list) and len(hands) > limits.max_record_hands:
            raise _bad(f"the record has {len(hands):,} hands; the table takes records of at most "
                       f"{limits.max_record_hands:,}", 422)
        meta = data.get("meta")
        size = 0 if meta is None else len(json_text(meta).encode())
        if size > limits.max_meta:
            raise _bad(f"the record's meta is {size:,} bytes as JSON; the table keeps at most {limits.max_meta:,}",
                       422)
        return data

    @app.post("/api/records", status_code=201)
    async def load_record(request: Request) -> dict[str, Any]:
        body = await json_object(request, limits)
        data = record_in(body, None)
        checked_seed(data.get("seed"), "the record's seed")
        web_names(data)
        players = data.get("players")
        if "seats" in body:
            seats = _seats(body, limits.max_name)
        else:
            seats = record_seats(players if isinstance(players, list) else [], data.get("meta"))
        several = sum(seat.kind == "human" for seat in seats) > 1
        game = await asyncio.to_thread(record.replay, data)  # a long record: other tables go on meanwhile
        if several and not limits.chosen_deals and not game.finished:
            raise _bad(DEALT_BY_THE_SERVER + "load a record still to play for one person against computers", 422)
        admit_game(request, seats, game.finished)
        room = rooms.adopt(data, seats, game)
        return room.public()

    @app.post("/api/replay")
    async def replay_any(request: Request) -> Response:
        body = await json_object(request, limits)
        data = record_in(body, body)
        return await replay_response(data)

    async def replay_response(data: dict[str, Any]) -> Response:
        """A record's replay steps as JSON, worked out and encoded in a worker thread: a long record's
        replay (and its megabytes of JSON) must not hold the event loop, where the other tables are served."""
        text = await asyncio.to_thread(lambda: json_text(replay_steps(data)))
        return Response(text, media_type="application/json")

    reviewing: set[str] = set()  #: client addresses with a review under way (one each)

    @app.post("/api/review")
    async def review_game(request: Request) -> dict[str, Any]:
        body = await json_object(request, limits)
        if "game_id" in body:
            room = await room_or_404(str(body["game_id"]))
            if not room.game.finished:
                raise _bad("the game is still running; its review opens when it is over", 409)
            data = room.record()
        else:
            data = record_in(body, None)
        client = request.client.host if request.client is not None else "unknown"
        if client in reviewing:
            raise _bad("a review you asked for is still being worked out: wait for it (one at a time)", 429)
        reviewing.add(client)
        try:
            return await unless_gone(request, reviewer.review(data, body.get("seat"), body.get("samples")))
        finally:
            reviewing.discard(client)

    counting = PerClient(limits.stats_per_minute / 60, limits.stats_burst)

    @app.post("/api/stats")
    async def player_stats(request: Request) -> dict[str, Any]:
        if not counting.take(request.client.host if request.client is not None else "unknown"):
            raise _bad(f"too many statistics requests from your address: at most {limits.stats_burst} at once and "
                       f"{limits.stats_per_minute:g} a minute; try again in a minute", 429)
        body = await json_object(request, limits)
        seats = body.get("seats")
        if not isinstance(seats, list):
            raise _bad("'seats' must be a list of {game, token}: the tables this browser sat at")
        if len(seats) > MAX_STATS_GAMES:
            raise _bad(f"'seats' lists {len(seats)} tables; at most {MAX_STATS_GAMES:,} are counted at once", 422)
        held = []
        for index, item in enumerate(seats):
            if not (isinstance(item, dict) and isinstance(item.get("game"), str) and isinstance(item.get("token"), str)
                    and 0 < len(item["game"]) <= 100 and 0 < len(item["token"]) <= 100):
                raise _bad(f"seats[{index}] must be {{game, token}}: a game id and that table's seat token")
            held.append((item["game"], item["token"]))
        return await asyncio.to_thread(seat_stats, store, held)  # records replayed off the event loop

    async def unless_gone(request: Request, work: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
        """``work``'s answer; if the client leaves first the work is cancelled (a review's worker is ended)."""
        task = asyncio.ensure_future(work)
        try:
            while True:
                done, _ = await asyncio.wait((task,), timeout=0.25)
                if done:
                    return task.result()
                if await request.is_disconnected():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                    raise _bad("the client left before its review was ready", 499)
        finally:  # this request cancelled (the server stops): the work goes with it
            if not task.done():
                task.cancel()

    # ---------------------------------------------------------------- the table
    @app.websocket("/ws/{game_id}")
    async def table_socket(websocket: WebSocket, game_id: str) -> None:
        client = websocket.client.host if websocket.client is not None else "unknown"
        refusal = admission.admit(client)
        await websocket.accept()
        if refusal is not None:
            await websocket.send_json({"type": "error", "code": "too_many_connections", "message": refusal})
            await websocket.close(code=TRY_AGAIN_LATER, reason=refusal)
            return
        try:
            try:
                room = await rooms.open(game_id)  # a game not in memory is loaded off the event loop
            except BoneyardError as error:  # its stored moves do not replay: said, and the page stops trying
                message = f"game {game_id!r} cannot be opened: its stored record does not replay ({error})"
                await websocket.send_json({"type": "error", "code": "damaged_game", "message": message})
                await websocket.close(code=DAMAGED_GAME)
                return
            if room is None:
                await websocket.send_json({"type": "error", "code": "no_game", "message": f"no game {game_id!r}"})
                await websocket.close(code=NO_GAME)
                return
            await seat_at_table(websocket, room)
        finally:
            admission.release(client)

    async def seat_at_table(websocket: WebSocket, room: Room) -> None:
        async def write(text: str) -> None:
            try:
                await websocket.send_text(text)
            except (WebSocketDisconnect, OSError) as error:
                raise ConnectionClosed from error
            except RuntimeError as error:  # Starlette's "send after close"; anything else is a bug
                if WebSocketState.DISCONNECTED in (websocket.client_state, websocket.application_state):
                    raise ConnectionClosed from error
                raise

        # the room never waits on this socket: its messages are queued and sent by the outbox's task
        outbox = Outbox(write, backlog=limits.max_backlog, timeout=limits.send_timeout)

        async def send_text(text: str) -> None:
            outbox.put(text)

        async def send(message: dict[str, Any]) -> None:
            outbox.put(json_text(message))

        async def refuse(code: str, message: str, request: Any = None) -> None:
            await send({"type": "error", "code": code, "message": message, "request": request})

        async def receive() -> MutableMapping[str, Any] | None:
            """The socket's next ASGI message; None once the outbox dropped the connection."""
            receiving = asyncio.ensure_future(websocket.receive())
            dropped = asyncio.ensure_future(outbox.dropped.wait())
            try:
                await asyncio.wait((receiving, dropped), return_when=asyncio.FIRST_COMPLETED)
            finally:  # neither waiter outlives this call (nor the handler, when the server stops)
                dropped.cancel()
                if not receiving.done():
                    receiving.cancel()
            return receiving.result() if not receiving.cancelled() else None

        address = websocket.client.host if websocket.client is not None else "unknown"
        # the next game at a table (Play again) is a new game: the address's limit holds for it as for the lobby's
        connection = Connection(send, send_text, may_start_game=lambda: creations.take(address))
        messages = TokenBucket(limits.messages_per_second, limits.message_burst)
        hints = TokenBucket(limits.hints_per_second, limits.hint_burst)
        try:
            await room.join(connection)
            while True:
                received = await receive()
                if received is None or received["type"] == "websocket.disconnect":
                    break
                if not messages.take():
                    await refuse("rate_limited", f"too many messages: at most {limits.message_burst} at once and "
                                                 f"{limits.messages_per_second:g} a second; this one was dropped")
                    continue
                data = received.get("text")
                if data is None:
                    data = received.get("bytes") or b""
                size = len(data) if isinstance(data, bytes) else len(data.encode())
                if size > limits.max_message:
                    await refuse("oversized", f"messages are at most {limits.max_message} bytes")
                    continue
                try:
                    message = jsontext.loads(data, limits.max_depth)
                except ValueError as error:
                    await refuse("malformed", f"not JSON: {error}")
                    continue
                kind = message.get("type") if isinstance(message, dict) else None
                if kind == "hint" and not hints.take():
                    await refuse("rate_limited", f"hints come at most one every {1 / limits.hints_per_second:g} s "
                                                 f"({limits.hint_burst} in a row): ask again in a moment", kind)
                    continue
                try:
                    await room.handle(connection, message)
                except ProtocolError as error:
                    await refuse(error.code, str(error), kind if isinstance(kind, str) else None)
        except (WebSocketDisconnect, ConnectionClosed):
            pass
        finally:
            await room.leave(connection)
            reason = outbox.reason
            await outbox.aclose()
            if reason:  # it fell behind: closed with a code that says so (a socket that reads nothing may
                with contextlib.suppress(Exception):  # not take the close frame either, hence the time limit)
                    await asyncio.wait_for(websocket.close(code=FELL_BEHIND, reason=reason[:120]), 5)

    return app


__all__ = ["create_app", "variant_rows"]
