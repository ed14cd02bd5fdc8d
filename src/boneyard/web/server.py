"""``boneyard play VARIANT --web``: start a local server, create the game, open the browser.

The server listens on 127.0.0.1 at ``boneyard serve``'s port (8000) and stores the game in the default SQLite
file, so it shows up in the lobby of a later ``boneyard serve`` or ``boneyard play --web`` too, and the browser,
which keeps a seat's token per origin (scheme, host and port), is still sitting at it there.  Where that port is
busy, a free port is used, and the player is told that a later server will not know them at this table (where it
is busy with another server on the same store, which holds the store's lock, the command is refused).  It runs
with the limits of ``boneyard serve`` (:func:`boneyard.web.limits.server_config`); the game is made for hot-seat
play, since the one browser on this machine may take any of its human seats.
"""

from __future__ import annotations

import socket
import threading
import time
import webbrowser
from pathlib import Path

from boneyard import record
from boneyard.players.base import make_player, split_specs
from boneyard.rules.base import assigned_options, find_variant
from boneyard.terminal import result_line, resume_levels
from boneyard.web.limits import DEFAULT_PORT


def listen_locally(port: int) -> tuple[socket.socket, str]:
    """A socket listening on 127.0.0.1 at ``port``, else at a free port; and what to tell the player about it
    ("" when ``port`` was free)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(("127.0.0.1", port))
        return listener, ""
    except OSError as error:
        listener.bind(("127.0.0.1", 0))
        return listener, (f"Port {port} is busy ({error.strerror or error}), so this table uses port "
                          f"{listener.getsockname()[1]}: the browser knows your seat at this address only, and a "
                          f"later server on another port shows this game to watch, not to play on "
                          f"(stop what holds port {port} to keep one address).")


def play_in_browser(variant: str | None, players: int, option_assignments: list[str], ai: str,
                    *, db_url: str | None = None, open_browser: bool = True, seed: int | None = None,
                    name: str | None = None, resume: Path | None = None, port: int = DEFAULT_PORT) -> None:
    """Serve the web table until Ctrl+C, with a new game of ``variant`` open in the browser
    (the lobby when ``variant`` is None): seat 0 is you (``name``), the others are ``ai`` levels, the deals from
    ``seed``.  ``resume``: the game of that record file instead, at the seat and levels it stored."""
    import uvicorn

    from boneyard.web.app import checked_name, create_app, default_name, web_names
    from boneyard.web.limits import Limits, server_config
    from boneyard.web.rooms import Seat
    from boneyard.web.store import StoreBusy, StoreLock, default_url, sqlite_path

    url = db_url or default_url()
    limits = Limits()
    you = checked_name(name or "", limits.max_name, "--name")
    if you.casefold() in ("", "you"):  # the table says "You" to the player itself
        you = default_name("human", 1)
    app = create_app(url, limits=limits)
    try:  # another server on the same store (a `boneyard serve` on port 8000): said before anything is written
        StoreLock(app.state.store).check()
    except StoreBusy as error:
        app.state.store.dispose()
        raise StoreBusy(f"{error}: start the game in that server's lobby (the address `boneyard serve` printed, "
                        f"http://127.0.0.1:{DEFAULT_PORT}/ by default), or stop it first") from None
    path = "/"
    if resume is not None:
        data = record.load(resume)
        web_names(data)
        game = record.replay(data)
        human, levels = resume_levels(data, game)
        computers = iter(levels)
        seats = [Seat(str(player), "human") if seat == human else Seat(str(player), "computer", next(computers))
                 for seat, player in enumerate(game.names)]
        room = app.state.rooms.adopt(data, seats)
        path = f"/game/{room.id}"
        if game.finished:  # nothing to play on: the browser opens the game's replay, as the terminal offers it
            path = f"/replay/{room.id}"
            print(f"{resume} holds a finished game: {result_line(game)}. Its replay opens in the browser.")
    elif variant is not None:
        options = assigned_options(variant, option_assignments)
        levels = split_specs(ai) or ["greedy"]
        seats = [Seat(you, "human")]
        for index in range(1, players):
            level = levels[min(index - 1, len(levels) - 1)]
            make_player(level)  # a bad level is an error now, not in the browser
            seats.append(Seat(default_name("computer", index), "computer", level))
        room = app.state.rooms.create(find_variant(variant).name, seats, options, seed, hot_seat=True)
        path = f"/game/{room.id}"
    listener, moved = listen_locally(port)
    port = listener.getsockname()[1]
    server = uvicorn.Server(server_config(app, limits))
    address = f"http://127.0.0.1:{port}{path}"
    stored = sqlite_path(url)
    print(f"Games are stored in {stored if stored is not None else url}")
    if moved:
        print(moved)
    print(f"The table is at {address} (Ctrl+C stops the server).")

    def open_when_ready() -> None:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        if open_browser:
            webbrowser.open(address)

    threading.Thread(target=open_when_ready, daemon=True).start()
    try:
        server.run(sockets=[listener])
    finally:
        listener.close()


__all__ = ["play_in_browser"]
