"""``boneyard serve``: the web table's command, added to the ``boneyard`` CLI by ``register``.

FastAPI, uvicorn and SQLAlchemy (the ``web`` extra) are imported only when the command runs,
so the rest of the CLI works without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final

import typer

from boneyard.errors import BoneyardError
from boneyard.web.limits import DEFAULT_PORT, Limits

#: addresses that listen on every interface of the machine: no browser opens them
WILDCARDS: Final = frozenset({"", "0.0.0.0", "::", "[::]"})


def addresses(host: str, port: int, limits: Limits) -> list[str]:
    """What ``serve`` says to open: an address this server answers (a wildcard host is served to browsers as
    localhost; an IPv6 address is bracketed), then the address of each origin others may use."""
    bare = host.strip("[]")
    local = "127.0.0.1" if host in WILDCARDS else f"[{bare}]" if ":" in bare else bare
    lines = [f"Open http://{local}:{port}/ in a browser (Ctrl+C stops the server)."]
    for origin in limits.origins:
        name = f"[{origin.host}]" if ":" in origin.host else origin.host
        own = {"http": 80, "https": 443}.get(origin.scheme or "")
        where = f"{origin.scheme}://{name}" + (f":{origin.port}" if origin.port not in (None, own) else "") \
            if origin.scheme is not None else f"http://{name}:{port}"
        lines.append(f"Others open {where}/")
    return lines


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``boneyard`` command."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="address to listen on (127.0.0.1: this machine only)")] = "127.0.0.1",
        port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = DEFAULT_PORT,
        db: Annotated[str | None, typer.Option(help="SQLAlchemy URL of the game store "
                                                    "(default: a SQLite file in the user data directory)")] = None,
        allow_origin: Annotated[list[str] | None, typer.Option(
            "--allow-origin", metavar="ORIGIN",
            help="a public origin (https://play.example) or host name (play.example, 192.168.1.5) browsers "
                 "may reach the table by, besides localhost; repeat for several")] = None,
        limit: Annotated[list[str] | None, typer.Option(
            "--limit", metavar="NAME=VALUE",
            help="change one of the server's limits (docs/web.md, \"Limits and security\"), e.g. "
                 "max_connections_per_client=200 for a club whose members share one address; repeat for "
                 "several")] = None,
    ) -> None:
        """Run the web table: play in the browser, alone or with friends."""
        try:
            import uvicorn

            from boneyard.web.app import create_app
            from boneyard.web.limits import LOCAL_HOSTS, Limits, server_config
            from boneyard.web.store import StoreBusy, StoreLock, sqlite_path, store_url
        except ImportError as error:
            typer.echo(f"boneyard: the web table needs the web extra (pip install 'boneyard[web]'): {error}",
                       err=True)
            raise typer.Exit(2) from None
        try:
            limits = Limits.from_settings(limit or [], allow_origins=tuple(allow_origin or ()))
        except BoneyardError as error:
            typer.echo(f"boneyard serve: {error}", err=True)
            raise typer.Exit(2) from None
        url = store_url(db)
        try:
            table = create_app(url, limits=limits)
        except Exception as error:  # SQLAlchemy's errors for a URL it cannot use: a bad scheme, a missing driver
            typer.echo(f"boneyard serve: --db {db}: cannot open the game store ({type(error).__name__}: "
                       f"{str(error).splitlines()[0]}); give a SQLAlchemy URL such as sqlite:///games.sqlite3 "
                       "or postgresql://user@host/db, or a file name", err=True)
            raise typer.Exit(2) from None
        try:
            StoreLock(table.state.store).check()
        except StoreBusy as error:
            table.state.store.dispose()
            typer.echo(f"boneyard serve: {error}: stop it, or give this one a store of its own with --db", err=True)
            raise typer.Exit(2) from None
        path = sqlite_path(url)
        typer.echo(f"Games are stored in {path}" if path is not None else f"Games are stored at {url}")
        for line in addresses(host, port, limits):
            typer.echo(line)
        if host.strip("[]") not in LOCAL_HOSTS and not limits.origins:
            typer.echo("Only pages from localhost are served: pass --allow-origin with the name or address "
                       "others use to reach this machine.")
        uvicorn.Server(server_config(table, limits, host=host, port=port)).run()

    @app.command()
    def prune(
        idle: Annotated[float, typer.Option(min=0, help="remove running games whose last move is older than this "
                                                         "many days (abandoned tables)")],
        db: Annotated[str | None, typer.Option(help="SQLAlchemy URL of the game store, as for serve "
                                                    "(default: the SQLite file in the user data directory)")] = None,
        keep: Annotated[Path | None, typer.Option(help="write each removed game's record to this folder first "
                                                       "(ID.boneyard.json), to play on or replay later")] = None,
        yes: Annotated[bool, typer.Option("--yes", help="remove them; without it the games are only listed")] = False,
    ) -> None:
        """List, then remove, a server's abandoned games: running games nobody has moved in for --idle days.

        The server must be stopped first (it holds the store); finished games are never removed."""
        import time

        from boneyard import record
        from boneyard.web.store import Store, StoreBusy, StoreLock, store_url

        url = store_url(db)
        store = Store(url)
        lock = StoreLock(store)
        try:
            try:
                lock.acquire()  # held while it works: no server starts on the store meanwhile
            except StoreBusy as error:
                typer.echo(f"boneyard prune: {error}: stop it first (a running server would keep its games)", err=True)
                raise typer.Exit(2) from None
            games = store.idle(time.time() - idle * 86400)
            for game in games:
                names = ", ".join(str(seat.get("name", "?")) for seat in game.seats)
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.updated))
                typer.echo(f"{game.id}  {game.variant}  {names}  {game.moves} moves  last move {when}")
            if not games:
                typer.echo(f"No running game has gone {idle:g} days without a move.")
                return
            if not yes:
                typer.echo(f"{len(games)} abandoned game(s) listed; add --yes to remove them"
                           + (f" (their records kept in {keep})" if keep else ""))
                return
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                for game in games:
                    stored = store.load(game.id)
                    if stored is not None:  # written in full before anything is removed
                        record.write_atomically(keep / f"{game.id}.boneyard.json", record.dumps(stored.record))
            store.remove([game.id for game in games])
            typer.echo(f"Removed {len(games)} abandoned game(s)" + (f"; their records are in {keep}" if keep else ""))
        except OSError as error:
            typer.echo(f"boneyard prune: --keep {keep}: {error.strerror or error}; nothing was removed", err=True)
            raise typer.Exit(2) from None
        finally:
            lock.release()
            store.dispose()
