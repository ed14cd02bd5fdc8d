"""The ``boneyard`` command: play, replay, variants, simulate (and serve, tournament when installed).

Every error from bad input is one line on standard error and exit status 2.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from boneyard import record
from boneyard.chance import Chance, game_seed
from boneyard.errors import BoneyardError
from boneyard.options import parse_assignments, specs
from boneyard.players.base import split_specs
from boneyard.rules.base import VARIANTS, find_variant, make_rules
from boneyard.state import Game

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Boneyard: domino games to play, study and simulate.")


def fail(message: str) -> NoReturn:
    typer.echo(f"boneyard: {message}", err=True)
    raise typer.Exit(2)


def _options(variant: str, assignments: list[str]) -> dict[str, Any]:
    cls = find_variant(variant)
    parsed = parse_assignments(cls.Options, assignments)
    from boneyard.options import non_defaults

    return non_defaults(parsed)


def default_save_path(variant: str) -> Path:
    from platformdirs import user_data_dir

    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(user_data_dir("boneyard")) / "games" / f"{stamp}-{variant}.boneyard.json"


@app.command()
def play(
    variant: Annotated[str | None, typer.Argument(help="a variant (see `boneyard variants`)")] = None,
    players: Annotated[int, typer.Option("--players", "-n", help="number of players")] = 2,
    seed: Annotated[int | None, typer.Option(help="seed of the deal (random if omitted)")] = None,
    option: Annotated[list[str] | None,
                      typer.Option("--option", "-o", help="rule option KEY=VALUE (repeatable)")] = None,
    save: Annotated[Path | None, typer.Option(help="record file, written after every move")] = None,
    ai: Annotated[str, typer.Option(help="levels for the other seats, e.g. greedy or expert:time=0.5")] = "greedy",
    resume: Annotated[Path | None, typer.Option(help="resume the game in this record file")] = None,
    web: Annotated[bool, typer.Option("--web", help="play in the browser instead")] = False,
    name: Annotated[str, typer.Option(help="your name")] = "You",
) -> None:
    """Play a game in the terminal against computer players."""
    from boneyard.terminal import start_session

    try:
        if web:
            _play_web(variant, players, option or [], ai)
            return
        if resume is not None:
            data = record.load(resume)
            game = record.replay(data)
            seed_value = data.get("seed") if isinstance(data.get("seed"), int) else None
            game.chance = Chance(game_seed(seed_value if seed_value is not None else 0, len(game.log)))
            meta_value = data.get("meta")
            meta: dict[str, Any] = meta_value if isinstance(meta_value, dict) else {}
            human_value = meta.get("human_seat", 0)
            human = human_value if isinstance(human_value, int) and 0 <= human_value < game.players else 0
            stored = meta.get("ai", {})
            levels = [str(stored.get(str(s), "greedy")) for s in range(game.players) if s != human] \
                if isinstance(stored, dict) else ["greedy"]
            session = start_session(game, levels, human, save or resume)
        else:
            if variant is None:
                fail("name a variant to play (see `boneyard variants`) or give --resume FILE")
            rules = make_rules(variant, players, _options(variant, option or []))
            others = [f"Computer {i} ({spec})" for i, spec in
                      enumerate(_seat_levels(ai, players - 1), 1)]
            game = Game(rules, [name, *others], Chance(seed))
            game.next_hand()
            session = start_session(game, split_specs(ai) or ["greedy"], 0, save or default_save_path(rules.name))
        session.save()
        raise typer.Exit(session.run())
    except BoneyardError as error:
        fail(str(error))


def _seat_levels(ai: str, count: int) -> list[str]:
    levels = split_specs(ai) or ["greedy"]
    return [levels[min(i, len(levels) - 1)] for i in range(count)]


def _play_web(variant: str | None, players: int, option: list[str], ai: str) -> None:
    try:
        from boneyard.web.server import play_in_browser  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        fail("the web table needs the web extra: pip install 'boneyard[web]'")
    play_in_browser(variant, players, option, ai)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a boneyard/1 record (.boneyard.json)")],
    as_json: Annotated[bool, typer.Option("--json", help="print the replay as one JSON object")] = False,
) -> None:
    """Replay a game record and print it (RECORD.md)."""
    try:
        data = record.load(file)
        output = json.dumps(record.replay_json(data)) if as_json else record.replay_text(data)
    except BoneyardError as error:
        fail(str(error))
    typer.echo(output)


@app.command()
def variants(as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False) -> None:
    """List every variant with its aliases, player counts and options."""
    rows: list[dict[str, Any]] = []
    for name, cls in VARIANTS.items():
        low, high = cls(cls.min_players).player_range()
        rows.append({"name": name, "title": cls.title, "aliases": list(cls.aliases), "min_players": low,
                     "max_players": high, "options": [spec.as_json() for spec in specs(cls.Options)]})
    if as_json:
        typer.echo(json.dumps(rows, indent=1))
        return
    console = Console()
    for row in rows:
        table = Table(title=f"{row['name']} — {row['title']}  (players {row['min_players']}-{row['max_players']};"
                      f" aliases: {', '.join(row['aliases']) or 'none'})", title_justify="left")
        for column in ("option", "type", "default", "allowed", "meaning"):
            table.add_column(column)
        for spec in row["options"]:
            allowed = ", ".join(map(str, spec["allowed"])) if spec["allowed"] else ""
            table.add_row(spec["name"], spec["type"], str(spec["default"]), allowed, spec["help"])
        console.print(table)


@app.command()
def simulate(
    variant: Annotated[str, typer.Argument(help="variant name or alias")],
    players: Annotated[int, typer.Option("--players", "-n")] = 2,
    games: Annotated[int, typer.Option("--games", "-g", min=1)] = 100,
    seed: Annotated[int, typer.Option()] = 0,
    ai: Annotated[str, typer.Option(help="levels per seat, e.g. greedy,random or expert:time=0.2,greedy")] = "random",
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="rule option KEY=VALUE")] = None,
    workers: Annotated[int | None, typer.Option(min=1, help="processes (default: every core)")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="play every deal once per seat rotation, so luck cancels (GAMES counts deals)")] = False,
) -> None:
    """Play computer-only games and report wins, points and speed."""
    from boneyard.sim.simulate import simulate as run

    try:
        result = run(variant, players, games, seed=seed, ai=ai, options=_options(variant, option or []),
                     workers=workers, duplicate=duplicate)
    except BoneyardError as error:
        fail(str(error))
    if as_json:
        typer.echo(json.dumps(result))
        return
    console = Console()
    table = Table(title=f"{result['variant']}, {players} players, {result['games']} games, seed {seed}")
    for column in ("seat", "player", "wins", "mean points"):
        table.add_column(column)
    seats = result["seats"]
    assert isinstance(seats, list)
    for seat, row in enumerate(seats):
        player = "(rotating)" if duplicate and len(stats_levels(result)) > 1 else str(row["ai"])
        table.add_row(str(seat), player, str(row["wins"]), f"{row['mean_points']:.1f}")
    console.print(table)
    levels = Table(title="per level" + (" (duplicate deals)" if duplicate else ""))
    for column in ("player", "games", "wins", "win rate", "95% interval"):
        levels.add_column(column)
    stats = result["ai_stats"]
    assert isinstance(stats, list)
    for row in stats:
        low, high = row["ci95"]
        levels.add_row(str(row["ai"]), str(row["games"]), str(row["wins"]), f"{row['win_rate']:.1%}",
                       f"{low:.1%} – {high:.1%}")
    console.print(levels)
    console.print(f"{result['hands']} hands ({result['blocked_hands']} blocked), {result['moves']} moves, "
                  f"{result['games_per_second']:.0f} games/s")


def stats_levels(result: dict[str, object]) -> list[object]:
    """The levels of a simulation summary's ``ai_stats``."""
    stats = result.get("ai_stats")
    return [row["ai"] for row in stats] if isinstance(stats, list) else []


def _register_front_ends() -> None:
    """Commands that live with their front end (``serve`` in boneyard.web, ``tournament`` in
    boneyard.sim): each such module has ``register(app)`` and imports its heavy extras lazily."""
    import importlib
    import importlib.util

    for module in ("boneyard.web.cli", "boneyard.sim.cli"):
        package = module.rpartition(".")[0]
        if importlib.util.find_spec(package) is not None and importlib.util.find_spec(module) is not None:
            importlib.import_module(module).register(app)


_register_front_ends()


def main() -> None:
    try:
        app()
    except BoneyardError as error:  # pragma: no cover - commands catch their own
        typer.echo(f"boneyard: {error}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
