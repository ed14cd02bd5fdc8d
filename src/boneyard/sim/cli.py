"""``boneyard tournament``: the command-line front end of :mod:`boneyard.sim.tournament`.

``boneyard.cli`` calls :func:`register` when this module exists; matplotlib, numpy and Ray are
imported only when the command runs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from boneyard.errors import BoneyardError
from boneyard.rules.base import assigned_options

if TYPE_CHECKING:
    from rich.console import Console


def _fmt(value: object, digits: int = 1) -> str:
    if isinstance(value, float):
        return "—" if not math.isfinite(value) else f"{value:.{digits}f}"
    return str(value)


def print_report(result: dict[str, Any], console: Console) -> None:
    """The win-rate table, the ratings and where the files went."""
    from rich.table import Table

    settings = result["settings"]
    title = (f"{settings['variant']} {settings['format']}, {settings['seats']} seats, "
             f"{result['games_played']} games, seed {settings['seed']}"
             f"{', duplicate deals' if settings['duplicate'] else ''}")
    table = Table(title=title, title_justify="left")
    for column in ("player", "games", "wins", "draws", "win rate", "95% interval", "mean score"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for row in result["table"]:
        table.add_row(row["player"], str(row["games"]), str(row["wins"]), str(row["draws"]),
                      f"{row['win_rate']:.1%}", f"{row['win_rate_low']:.1%} – {row['win_rate_high']:.1%}",
                      _fmt(row["mean_score"]))
    console.print(table)
    ratings = Table(title=f"ratings ({result['rating_method']}, Elo scale)",
                    title_justify="left")
    for column in ("rank", "player", "rating", "95% bootstrap interval"):
        ratings.add_column(column, justify="left" if column == "player" else "right")
    for row in result["ratings"]:
        ratings.add_row(str(row["rank"]), row["player"], f"{row['rating']:+.0f}",
                        f"{_fmt(row['low'], 0)} … {_fmt(row['high'], 0)}")
    console.print(ratings)
    files = result.get("files", {})
    if files:
        console.print(f"results in {Path(files['json']).parent}  (played now: {result.get('played_now', 0)})")


def register(app: typer.Typer) -> None:
    """Add the ``tournament`` command to ``app``."""

    @app.command()
    def tournament(
        given: Annotated[str | None, typer.Argument(
            hidden=True, metavar="VARIANT", help="the variant, as --variant", show_default=False)] = None,
        players: Annotated[str, typer.Option(help="players: level specs (expert:time=0.2) or module:function, "
                                                  "comma-separated")] = "random,greedy",
        variant: Annotated[str | None, typer.Option(help="variant name or alias (all-fives if omitted)",
                                                    show_default=False)] = None,
        games: Annotated[int, typer.Option("--games", "-g", help="games per match")] = 100,
        seed: Annotated[int, typer.Option(help="seed of the whole tournament")] = 0,
        format: Annotated[str, typer.Option("--format", help="round-robin or gauntlet (first player against "
                                                             "each other)")] = "round-robin",
        option: Annotated[list[str] | None, typer.Option(
            "--option", "-o", metavar="KEY=VALUE", help="a rule option (repeatable)")] = None,
        seats: Annotated[int | None, typer.Option(help="players at each table (default: the variant's "
                                                        "fewest the options allow)")] = None,
        duplicate: Annotated[bool, typer.Option("--duplicate/--no-duplicate",
                                                help="play every deal from every seat")] = True,
        workers: Annotated[int | None, typer.Option(help="processes (default: every core)")] = None,
        backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
        address: Annotated[str | None, typer.Option(help="Ray cluster address to join (ray backend)")] = None,
        rating: Annotated[str, typer.Option(help="bradley-terry or elo")] = "bradley-terry",
        engine: Annotated[str, typer.Option(help="auto (the fast engine where it plays the rules), fast or "
                                                 "reference; the results are the same")] = "auto",
        out: Annotated[Path | None, typer.Option(help="results folder (default tournaments/VARIANT-HASH); "
                                                      "an interrupted run resumes from it")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print the report as one JSON object")] = False,
    ) -> None:
        """Round robin or gauntlet between computer players, with ratings, plots, JSON and CSV."""
        from boneyard.cli import one_variant, progress_bar
        from boneyard.players.base import load_levels, make_player, split_specs
        from boneyard.sim.tournament import _is_callable_spec, finite
        from boneyard.sim.tournament import tournament as run

        variant = one_variant(given, variant) or "all-fives"
        if all(spec.strip().isdigit() for spec in players.split(",")):
            _fail(f"--players {players}: tournament's --players lists the players (levels such as random,greedy, "
                  "comma-separated); the players at each table are --seats, e.g. --seats 3")
        try:
            options = assigned_options(variant, option or [])
            load_levels()  # every level registered, so module:function specs can be told apart
            for spec in split_specs(players):
                if not _is_callable_spec(spec):  # module:function players are checked when built
                    make_player(spec)
        except BoneyardError as error:
            _fail(str(error))
        if out is not None and out.exists() and not out.is_dir():
            _fail(f"--out {out}: is a file, not a folder (name a new folder, or the folder of an earlier run "
                  "of the same tournament to resume it)")
        try:
            with progress_bar("games", enabled=not as_json) as advance:
                result = run(variant, players, games=games, seed=seed, format=format, seats=seats,
                             duplicate=duplicate, options=options, workers=workers, backend=backend,
                             address=address, out=out, rating=rating, engine=engine, progress=advance)
        except BoneyardError as error:
            _fail(str(error))
        except OSError as error:
            _fail(f"cannot write the results: {error.filename or out}: {error.strerror or error}")
        except KeyboardInterrupt:
            typer.echo("boneyard: tournament interrupted; run the same command again to resume", err=True)
            raise typer.Exit(130) from None
        if as_json:
            slim = {key: value for key, value in result.items() if key != "scores"}
            slim["scores"] = {name: {k: v for k, v in data.items() if k != "values"}
                              for name, data in result["scores"].items()}
            files = result.get("files", {})
            slim["plots"] = {key: value for key, value in files.items() if key.endswith(("_png", "_svg"))}
            typer.echo(json.dumps(finite(slim)))
            return
        from rich.console import Console

        print_report(result, Console())


def _fail(message: str) -> NoReturn:
    typer.echo(f"boneyard: {message}", err=True)
    raise typer.Exit(2)
