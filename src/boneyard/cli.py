"""The ``boneyard`` command: play, replay, variants, simulate (and serve, tournament when installed).

Every error from bad input is one line on standard error and exit status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from boneyard.errors import BoneyardError, OptionError, RecordError
from boneyard.options import value_text
from boneyard.players.base import make_player, split_specs
from boneyard.rules.base import VARIANTS, assigned_options, find_variant, make_rules, variant_row
from boneyard.state import Game

if TYPE_CHECKING:
    from boneyard.menu import Choice
    from boneyard.terminal import TerminalSession

# Rich, the record module and the front ends' own modules are imported inside the commands that use
# them, so a command starts without them (``boneyard simulate ... --json`` loads no Rich at all).

def _flags_without_type(params: list[Any]) -> list[Any]:
    """A flag takes no value, so its help shows no type: Typer 0.29's Rich help writes ``--json <bool>`` (as if
    it took one) unless the option has a metavar, and an empty one shows nothing."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Command(TyperCommand):
    """Every ``boneyard`` command: Typer's, with its flags' help shown without a type."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_type(super().get_params(ctx))


class Group(TyperGroup):
    """The ``boneyard`` group: Typer's, with ``--help`` shown without a type."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_type(super().get_params(ctx))


class App(typer.Typer):
    """Typer's app whose commands are :class:`Command` unless a command says otherwise (the front ends'
    ``register(app)`` add theirs with ``app.command()`` too)."""

    def command(self, name: str | None = None, *, cls: type[TyperCommand] | None = None,
                **settings: Any) -> Callable[[Any], Any]:
        return super().command(name, cls=cls or Command, **settings)


app = App(add_completion=False, no_args_is_help=True, cls=Group,
          help="Boneyard: domino games to play, study and simulate.")


def show_version(asked: bool) -> None:
    if asked:
        from boneyard import __version__

        typer.echo(f"boneyard {__version__}")
        raise typer.Exit()


@app.callback()
def boneyard(
    version: Annotated[bool, typer.Option("--version", callback=show_version, is_eager=True,
                                          help="Print Boneyard's version and exit.")] = False,
) -> None:
    """Boneyard: domino games to play, study and simulate."""


def fail(message: str) -> NoReturn:
    typer.echo(f"boneyard: {message}", err=True)
    raise typer.Exit(2)


def player_count(value: Any) -> int:
    """``--players`` of ``play`` and ``simulate``: how many seats.  ``tournament``'s ``--players`` lists players
    instead, so a list of levels here is pointed to ``--ai``, where ``play`` and ``simulate`` take them."""
    try:
        return int(value)
    except ValueError:
        hint = ("; the computer players' levels go in --ai, e.g. --ai expert,heuristic"
                if any(char.isalpha() for char in str(value)) else "")
        raise typer.BadParameter(f"{value!r} is not a number of players{hint}") from None


def one_variant(given: str | None, option: str | None) -> str | None:
    """The variant named as the argument or with ``--variant`` (``tournament`` takes the option, ``play`` and
    ``simulate`` the argument, and each accepts the other's way); two different ones are refused."""
    if given is not None and option is not None and given != option:
        try:
            same = find_variant(given).name == find_variant(option).name
        except BoneyardError:
            same = False
        if not same:
            fail(f"two variants given, {given!r} and --variant {option!r}: give one")
    return given if given is not None else option


#: ``--variant`` beside the argument, accepted but not shown in the help (the argument is)
VARIANT_OPTION = typer.Option("--variant", hidden=True, help="the variant, as the argument")


#: The third-party modules the commands import only when they run, by the extra of pyproject.toml that installs
#: them: a command that finds one missing names the extra to install (``main``) instead of showing a traceback.
EXTRA_OF: Final = {"fastapi": "web", "starlette": "web", "uvicorn": "web", "sqlalchemy": "web", "websockets": "web",
                   "psycopg": "web", "numpy": "stats", "matplotlib": "stats", "pettingzoo": "env",
                   "gymnasium": "env", "ray": "ray"}


def check_web_extra() -> None:
    """Refuse ``--web`` at once where the web extra is missing (the server imports it only as it starts)."""
    import importlib.util

    for module in ("fastapi", "uvicorn", "sqlalchemy"):
        if importlib.util.find_spec(module) is None:
            fail(f"the web table needs the web extra (No module named {module!r}): pip install 'boneyard[web]'")


def check_seed(seed: int | None) -> None:
    """A seed given on the command line must be one a record and the web table can keep."""
    from boneyard.chance import seed_error

    if seed is not None and (wrong := seed_error(seed)) is not None:
        raise OptionError(wrong)


def saved_games_folder() -> Path:
    """The folder in the user's data folder where ``play`` saves a game not given ``--save`` (and where ``stats``
    counts by default)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("boneyard")) / "games"


def default_save_path(variant: str) -> Path:
    """Where a game goes when ``--save`` is not given: :func:`saved_games_folder` (created on demand)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = saved_games_folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stamp}-{variant}.boneyard.json"
    number = 1
    while path.exists():  # another game began in the same second: never write over it
        number += 1
        path = folder / f"{stamp}-{variant}-{number}.boneyard.json"
    return path


def computer_levels(ai: str, seats: int, players: int) -> list[str]:
    """The ``--ai`` levels for ``seats`` computer seats: more levels than seats is an error; fewer
    repeat the last one (the table names each computer's level)."""
    levels = split_specs(ai) or ["greedy"]
    if len(levels) > seats:
        raise OptionError(f"--ai names {len(levels)} levels ({', '.join(levels)}) but a {players}-player game has "
                          f"{seats} {'seat' if seats == 1 else 'seats'} to fill")
    for spec in dict.fromkeys(levels):
        make_player(spec)
    return [levels[min(i, len(levels) - 1)] for i in range(seats)]


@app.command()
def play(
    variant: Annotated[str | None, typer.Argument(help="a variant (see `boneyard variants`)")] = None,
    players: Annotated[int | None, typer.Option("--players", "-n", parser=player_count,
                                                help="number of players (2 if omitted)")] = None,
    seed: Annotated[int | None, typer.Option(help="seed of the deals (random if omitted)")] = None,
    option: Annotated[list[str] | None,
                      typer.Option("--option", "-o", metavar="KEY=VALUE",
                                   help="a rule option (repeatable)")] = None,
    save: Annotated[Path | None, typer.Option(help="record file, written after every move (default: a new file "
                                                   "in your data folder when playing at a terminal)")] = None,
    force: Annotated[bool, typer.Option("--force", help="let --save overwrite an existing file")] = False,
    ai: Annotated[str | None, typer.Option(help="levels of the computer seats in order, e.g. greedy or "
                                                "expert:time=0.5,greedy; the last one fills the remaining "
                                                "seats (greedy if omitted)")] = None,
    resume: Annotated[Path | None, typer.Option(help="resume the game in this record file")] = None,
    web: Annotated[bool, typer.Option("--web", help="play in the browser instead")] = False,
    name: Annotated[str | None, typer.Option(help="your name (You at the terminal, Player 1 in the browser, if "
                                                  "omitted)")] = None,
    port: Annotated[int | None, typer.Option(min=1, max=65535, help="with --web: the port of the local server "
                                             "(default 8000, as boneyard serve; a free one if it is busy)")] = None,
    plain: Annotated[bool, typer.Option("--plain", help="the table as plain lines, without its box (for a screen "
                                                        "reader or a braille display)")] = False,
    variant_option: Annotated[str | None, VARIANT_OPTION] = None,
) -> None:
    """Play a game in the terminal against computer players."""
    from boneyard.terminal import SaveError

    variant = one_variant(variant, variant_option)
    if variant is None and resume is None and not web and _interactive():
        chosen = _chosen_at_the_terminal(players, option, resumable=all(
            given in (None, []) for given in (players, seed, option, ai, name)))
        if chosen is None:
            return
        variant, players, resume = chosen.variant, chosen.players, chosen.resume
    try:
        if web and plain:
            raise OptionError("--plain is for the terminal table (the web table is read by screen readers as it is): "
                              "leave out --web or --plain")
        if web:
            _play_web(variant, players, seed, option, ai, name, resume, save, port)
            return
        if port is not None:
            raise OptionError("--port is for the web table's server: add --web")
        session = _resume_session(resume, save, force, variant, players, seed, option, ai, name) \
            if resume is not None else _new_session(variant, 2 if players is None else players, seed, option or [],
                                                    save, force, ai or "greedy", name or "You")
        if session is None:
            return
        session.plain = plain
    except (BoneyardError, SaveError) as error:
        fail(str(error))
    while True:
        try:
            code = session.run()
        except KeyboardInterrupt:  # Ctrl-C while a computer thinks: keep the game
            where = session.save_path
            kept = f"saved to {where}; resume with: boneyard play --resume {where}" \
                if where is not None and session.save(quiet=True) else "the game was not saved"
            typer.echo(f"boneyard: interrupted; {kept}", err=True)
            raise typer.Exit(130) from None
        try:
            again = code == 0 and session.game.finished and _interactive() and session.again()
        except KeyboardInterrupt:  # (the game is over and kept: nothing to say)
            raise typer.Exit(130) from None
        if not again:
            raise typer.Exit(code)
        session = _another(session)


def _another(session: TerminalSession) -> TerminalSession:
    """The session of the game asked for after a game over (:meth:`TerminalSession.again`): saved to a new file in
    the data folder, whatever file the last one went to (``--save`` names one game's file)."""
    try:
        path: Path | None = default_save_path(session.game.rules.name)
    except OSError as error:
        typer.echo(f"boneyard: the next game is not saved: cannot create a file in {saved_games_folder()} "
                   f"({error.strerror or error})", err=True)
        path = None
    following = session.next_game(path)
    if path is not None and not following.save(quiet=True):
        typer.echo(f"boneyard: the next game is not saved ({following.unsaved})", err=True)
        following.save_path = None
    return following


def _interactive() -> bool:
    """Whether a person is at the terminal, to be asked (the standard input and output are a terminal)."""
    from boneyard.terminal import at_a_terminal

    return at_a_terminal() and sys.stdout.isatty()


def _chosen_at_the_terminal(players: int | None, option: list[str] | None, *, resumable: bool) -> Choice | None:
    """``play`` without a variant, at a terminal: the game chosen from the menu (a saved game is offered only
    where nothing but ``--save`` or ``--plain`` was given: resuming takes its settings from the record)."""
    from boneyard.menu import Menu, unfinished_games
    from boneyard.terminal import terminal_console

    console = terminal_console()
    saved = unfinished_games(saved_games_folder()) if resumable else []
    try:
        return Menu(console, saved, players=players, options=option).choose()
    except KeyboardInterrupt:
        console.line()
        raise typer.Exit(130) from None


def _new_session(variant: str | None, players: int, seed: int | None, option: list[str], save: Path | None,
                 force: bool, ai: str, name: str) -> TerminalSession:
    from boneyard.chance import HandChance
    from boneyard.terminal import SaveError, check_save_path, start_session

    if variant is None:
        fail("name a variant to play (see `boneyard variants`) or give --resume FILE")
    check_seed(seed)
    rules = make_rules(variant, players, assigned_options(variant, option))
    levels = computer_levels(ai, players - 1, players)
    if save is not None:
        check_save_path(save, force=force)
    elif sys.stdin.isatty():
        save = default_save_path(rules.name)
    others = [f"Computer {i} ({spec})" for i, spec in enumerate(levels, 1)]
    game = Game(rules, [name, *others], HandChance(seed))
    game.next_hand()
    session = start_session(game, levels, 0, save)
    if save is not None and not session.save(quiet=True):
        raise SaveError(f"{save}: cannot write the record ({session.unsaved})")
    return session


def _resume_session(resume: Path, save: Path | None, force: bool, variant: str | None, players: int | None,
                    seed: int | None, option: list[str] | None, ai: str | None,
                    name: str | None) -> TerminalSession | None:
    from boneyard import record
    from boneyard.chance import HandChance
    from boneyard.terminal import check_save_path, result_line, resume_levels, start_session

    refuse_with_resume(resume, variant, players, seed, option, ai, name)
    data = record.load(resume)
    try:
        game = record.replay(data)
    except RecordError as error:
        raise RecordError(f"{resume}: {error}") from None
    if game.finished:
        typer.echo(f"{resume} holds a finished game: {result_line(game)}. "
                   f"Replay it with: boneyard replay {resume}")
        return None
    stored = data.get("seed")
    from boneyard.chance import seed_error

    unusable = stored is not None and seed_error(stored) is not None
    game.chance = HandChance(None if unusable else stored)
    if not game.log:  # a record of a game not dealt yet: its first hand is dealt now
        game.next_hand()
    human, levels = resume_levels(data, game)
    target = save or resume
    check_save_path(target, force=force, resuming=resume)
    try:
        session = start_session(game, levels, human, target, source=data)
    except OptionError as error:  # a computer level the record's meta names
        raise OptionError(f"{resume}: meta.ai: {error}") from None
    if unusable:  # (said once the game is sure to go on: a refusal is the only line)
        typer.echo(f"note: {resume}'s seed {json.dumps(stored)[:40]} is not a whole number from 0 to 2^63 - 1; the "
                   "next deals come from a new seed, which the record keeps", err=True)
    return session


def refuse_with_resume(resume: Path, variant: str | None, players: int | None, seed: int | None,
                       option: list[str] | None, ai: str | None, name: str | None) -> None:
    """``--resume`` takes the game's settings from its record: any other given is refused, naming it."""
    given = [flag for flag, value in (("variant", variant), ("--players", players), ("--seed", seed),
                                      ("--option", option), ("--ai", ai), ("--name", name)) if value not in (None, [])]
    if given:
        raise OptionError(f"--resume continues the game as recorded in {resume}; it takes no "
                          f"{' or '.join(given)} (start a new game for other settings)")


def _play_web(variant: str | None, players: int | None, seed: int | None, option: list[str] | None,
              ai: str | None, name: str | None, resume: Path | None, save: Path | None, port: int | None) -> None:
    if save is not None:
        raise OptionError("--save is for the terminal: the web table keeps its games in its own database (named "
                          "when it starts), and offers each game's record for download at its end")
    if resume is not None:
        refuse_with_resume(resume, variant, players, seed, option, ai, name)
    elif variant is not None:
        make_rules(variant, 2 if players is None else players, assigned_options(variant, option or []))  # checked here
    check_seed(seed)
    check_web_extra()
    from boneyard.web.limits import DEFAULT_PORT
    from boneyard.web.server import play_in_browser

    play_in_browser(variant, 2 if players is None else players, option or [], ai or "greedy", seed=seed, name=name,
                    resume=resume, port=DEFAULT_PORT if port is None else port)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a boneyard/1 record (.boneyard.json)")],
    as_json: Annotated[bool, typer.Option("--json", help="print the replay as one JSON object")] = False,
) -> None:
    """Replay a game record and print it (the format: docs/record.md)."""
    from boneyard import record

    try:
        data = record.load(file)
    except BoneyardError as error:
        fail(str(error))
    try:
        output = json.dumps(record.replay_json(data)) if as_json else record.replay_text(data)
    except BoneyardError as error:
        fail(f"{file}: {error}")
    typer.echo(output)


@app.command()
def stats(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="game records, or folders searched for *.boneyard.json (default: the folder where boneyard play saves "
             "your games)", show_default=False)] = None,
    player: Annotated[str | None, typer.Option("--player", "-p", help="count the seat with this name (any case); "
                                               "default: the human seat each record names")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Your statistics over saved games: wins per variant and opponent, hands, points, reviewed moves."""
    from boneyard.player_stats import collect

    if not paths:
        folder = saved_games_folder()
        if not folder.is_dir():
            fail(f"no saved games yet: boneyard play saves your games in {folder}; or name records or folders")
        paths = [folder]
    try:
        result = collect(paths, player).as_json()
    except BoneyardError as error:
        fail(str(error))
    for reason in result["skipped"]:
        typer.echo(f"boneyard: skipped {reason}", err=True)
    if not result["records"]:
        read, skipped = result["not_yours"], len(result["skipped"])
        if not read and not skipped:
            fail(f"no game to count: no game record (*.boneyard.json) in {', '.join(map(str, paths))}")
        if not read:
            fail("no game to count: " + ("the file named above could not be read as a game record" if skipped == 1
                                         else f"none of the {skipped:,} files named above could be read as a game "
                                              "record"))
        whose = f"a seat named {player!r}" if player is not None else "a human seat (meta.human_seat)"
        fail(f"no game to count: none of the {read:,} records read has {whose}"
             + (f" ({skipped:,} more could not be read)" if skipped else "")
             + ("; name your seat with --player" if player is None else ""))
    if as_json:
        typer.echo(json.dumps(result))
        return
    print_stats(result)


def print_stats(result: dict[str, Any]) -> None:
    """``boneyard stats`` as tables (in ASCII where the output cannot show the tables' lines and dashes)."""
    from typing import TextIO, cast

    from rich.console import Console
    from rich.table import Table

    from boneyard.terminal import PlainOutput, shows_signs

    plain = not shows_signs(getattr(sys.stdout, "encoding", None))  # a cp1252 or ASCII console, a file so encoded
    console = Console(highlight=False, file=cast(TextIO, PlainOutput(sys.stdout)) if plain else None)
    title = f"Games of {result['player']}" if result["player"] else "Your games"
    for heading, rows in (("variant", result["variants"]), ("against", result["against"])):
        # a narrow window wraps the names and the rate before its interval, never cuts a number to "20…"
        table = Table(title=f"{title}, by {heading}" if heading == "variant" else "by opponent",
                      caption="games finished, won (rate, 95% interval), not finished; hands over, won, played out;"
                      " points a hand" if heading == "against" else None)
        table.add_column(heading, overflow="fold")
        for column in ("games", "won", "rate", "open", "hands", "won", "out", "pts"):
            if column == "rate":
                table.add_column(column, justify="right", overflow="fold")
            else:
                table.add_column(column, justify="right", no_wrap=True)
        for name, row in rows.items():
            low, high = row["ci95"]
            rate = f"{row['win_rate']:.0%} ({low:.0%}–{high:.0%})" if row["games"] else "—"
            per_hand = "—" if row["points_per_hand"] is None else f"{row['points_per_hand']:.1f}"
            table.add_row(name, str(row["games"]), str(row["won"]), rate, str(row["unfinished"]),
                          str(row["hands"]), str(row["hands_won"]), str(row["dominoes"]), per_hand)
        console.print(table)
    review = result["review"]
    if review["decisions"]:
        console.print(f"Reviewed decisions: {review['decisions']}, {review['accuracy']:.0%} best; "
                      f"{review['inaccuracy']} inaccuracies, {review['mistake']} mistakes, "
                      f"{review['blunder']} blunders")
    else:
        console.print("No reviewed decisions (boneyard review FILE --write FILE adds them to a record).")
    if result["not_yours"]:
        console.print(f"{result['not_yours']} records without your seat were not counted"
                      + ("" if result["player"] else " (name a seat with --player)") + ".")
    if result["duplicates"]:
        many = result["duplicates"]
        held = "record held a game" if many == 1 else "records held games"
        console.print(f"{many} {held} counted from another record (a copy, a reviewed copy, or an earlier part): "
                      "each game is counted once.")


@app.command()
def variants(
    variant: Annotated[str | None, typer.Argument(help="one variant (name or alias), shown in full")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """List every variant with its aliases, player counts and options (one variant in full detail)."""
    try:
        chosen = [find_variant(variant)] if variant is not None else list(VARIANTS.values())
    except BoneyardError as error:
        fail(str(error))
    rows = [variant_row(cls) for cls in chosen]
    if as_json:
        typer.echo(json.dumps(rows[0] if variant is not None else rows, indent=1))
        return
    typer.echo("\n\n".join(variant_text(row, detail=variant is not None) for row in rows))
    if variant is None:
        typer.echo("\nboneyard variants NAME shows one variant with the meaning of every option; "
                   "set an option with -o NAME=VALUE.")


@app.command()
def rules(
    variant: Annotated[str, typer.Argument(help="a variant (name or alias; see `boneyard variants`)")],
) -> None:
    """Print a variant's rules in full, with its options (the page docs/variants/NAME.md)."""
    from boneyard import rulebook

    try:
        text = rulebook.page(variant)
    except BoneyardError as error:
        fail(str(error))
    from boneyard.terminal import rules_text, terminal_console

    terminal_console().print(rules_text(text))


def variant_text(row: dict[str, Any], *, detail: bool) -> str:
    """A variant and its options as plain lines, one option per line, never cut: what users must type
    is printed whole (a long line wraps in the terminal, it is never shortened)."""
    import textwrap

    aliases = ", ".join(row["aliases"]) or "none"
    larger = "".join(f"; {low}-{high} with set={top}" for top, (low, high) in row.get("players_by_set", {}).items()
                     if [low, high] != [row["min_players"], row["max_players"]])
    lines = [f"{row['name']} — {row['title']}  (players {row['min_players']}-{row['max_players']}{larger}; "
             f"aliases: {aliases})"]
    if detail:
        lines.append(f"  play it: boneyard play {row['name']};  its rules: boneyard rules {row['name']}")
    for spec in row["options"]:
        allowed = spec["allowed"]
        values = f"one of {', '.join(map(str, allowed))}" if allowed else spec["type"]
        if spec.get("nullable"):
            values += ", none" if allowed else ", or none for the variant's default"
        lines.append(f"  {spec['name']}={value_text(spec['default'])}   ({values})")
        if detail and spec["help"]:
            lines.extend(textwrap.wrap(spec["help"], width=76, initial_indent="      ", subsequent_indent="      ",
                                       break_long_words=False, break_on_hyphens=False))
    return "\n".join(lines)


@app.command()
def simulate(
    variant: Annotated[str | None, typer.Argument(help="variant name or alias", show_default=False)] = None,
    players: Annotated[int, typer.Option("--players", "-n", parser=player_count)] = 2,
    games: Annotated[int, typer.Option("--games", "-g")] = 100,
    seed: Annotated[int, typer.Option()] = 0,
    ai: Annotated[str, typer.Option(help="levels per seat, e.g. greedy,random or expert:time=0.2,greedy; the "
                                         "last one fills the remaining seats")] = "random",
    option: Annotated[list[str] | None, typer.Option("--option", "-o", metavar="KEY=VALUE",
                                                     help="a rule option (repeatable)")] = None,
    workers: Annotated[int | None, typer.Option(help="processes (default: every core)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object (and no progress bar)")] = False,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="play every deal once per distinct seat rotation, so luck cancels (GAMES counts "
                            "deals)")] = False,
    engine: Annotated[str, typer.Option(help="auto (the fast engine where it plays the rules), fast or reference; "
                                             "the results are the same")] = "auto",
    backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address to join (ray backend)")] = None,
    records: Annotated[Path | None, typer.Option(help="a new or empty folder: write every game's record there "
                                                      "(game-000001.boneyard.json …), to replay or review")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="with --records: play on the run whose records the "
                                                         "folder holds (cut short, or of fewer games), playing only "
                                                         "the games without one")] = False,
    variant_option: Annotated[str | None, VARIANT_OPTION] = None,
) -> None:
    """Play computer-only games and report wins, points and speed (a progress bar on a terminal; Ctrl-C stops)."""
    from boneyard.sim.simulate import simulate as run

    variant = one_variant(variant, variant_option)
    if variant is None:
        fail("name the variant to simulate, e.g. boneyard simulate block (`boneyard variants` lists them)")
    try:
        options = assigned_options(variant, option or [])
        make_rules(variant, players, options)  # the player count first: --ai is read against it
        computer_levels(ai, players, players)
        with progress_bar("games", enabled=not as_json) as advance:
            result = run(variant, players, games, seed=seed, ai=ai, options=options,
                         workers=workers, duplicate=duplicate, engine=engine, backend=backend,
                         address=address, progress=advance, records=records, resume=resume)
    except BoneyardError as error:
        fail(str(error))
    except OSError as error:  # a record that cannot be written (a full disk, a folder removed)
        fail(f"cannot write a record: {error.filename or records}: {error.strerror or error}"
             + _records_kept(records))
    except KeyboardInterrupt:
        typer.echo("boneyard: simulate interrupted (Ctrl-C); nothing was reported" + _records_kept(records),
                   err=True)
        raise typer.Exit(130) from None
    if as_json:
        typer.echo(json.dumps(result))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    # (a line of its own: as the table's title it was wrapped to the table's width, "seed" on one line, 0 the next)
    console.print(f"{result['variant']}, {players} players, {result['games']} games, seed {seed}", style="bold",
                  markup=False, highlight=False)
    table = Table()
    for column in ("seat", "player", "wins", "mean points"):
        table.add_column(column)
    seats = result["seats"]
    assert isinstance(seats, list)
    for seat, row in enumerate(seats):
        player = "(rotating)" if row["ai"] is None else str(row["ai"])
        table.add_row(str(seat), player, str(row["wins"]), f"{row['mean_points']:.1f}")
    console.print(table)
    stats = result["ai_stats"]
    assert isinstance(stats, list)
    if not any(row["games"] for row in stats):  # every level on every side of every game: none played another
        names = [str(row["ai"]) for row in stats]
        who = f"every seat is {names[0]}" if len(names) == 1 else \
            f"{' and '.join(names)} sat on every side of every game"
        console.print(f"Per level: {who}, so no level played another (to compare levels, seat them on different "
                      "sides: --ai greedy,random).", markup=False, highlight=False)
        stats = []
    levels = Table(title="per level" + (" (duplicate deals)" if duplicate else ""))
    for column in ("player", "games", "wins", "win rate", "95% interval"):
        levels.add_column(column)
    for row in stats:
        low, high = row["ci95"]
        if row["games"]:
            levels.add_row(str(row["ai"]), str(row["games"]), str(row["wins"]), f"{row['win_rate']:.1%}",
                           f"{low:.1%} – {high:.1%}")
        else:  # on every side of every game: nothing to say of its strength
            levels.add_row(str(row["ai"]), "0", "—", "—", "on every side")
    if stats:
        console.print(levels)
    speed = float(result["games_per_second"])  # type: ignore[arg-type]
    console.print(f"{result['hands']} hands ({result['blocked_hands']} blocked), {result['moves']} moves, "
                  f"{speed:.{0 if speed >= 10 else 2}f} games/s")
    if result["records"] is not None:
        resumed, total = int(result["resumed"]), int(result["games"])  # type: ignore[call-overload]
        if resumed:
            console.print(f"{resumed:,} of the {total:,} games counted from the records the folder held; the speed "
                          f"is that of the {total - resumed:,} played now", highlight=False)
        console.print(f"Records in {result['records']}: boneyard replay FILE, boneyard review FILE", highlight=False)


def _records_kept(records: Path | None) -> str:
    """What a simulation stopped early leaves in its ``--records`` folder, said after the reason it stopped."""
    if records is None:
        return ""
    from boneyard.sim.simulate import written_records

    count = written_records(records) if records.is_dir() else 0
    if not count:
        return "; no record was written"
    kept = "1 record of a finished game is" if count == 1 else f"{count:,} records of finished games are"
    return f"; {kept} kept in {records} (the same command with --resume plays on from them)"


@contextmanager
def progress_bar(what: str, *, enabled: bool = True) -> Iterator[Callable[[int, int], None]]:
    """A Rich progress bar for long work, shown only when ``enabled`` and standard output is a terminal;
    yields the ``progress(done, total)`` callback to hand to the work.  Not ``enabled``: Rich is not loaded."""
    if not enabled:
        yield _no_progress
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    console = Console()
    with Progress(f"[progress.description]{what}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as bar:
        job = bar.add_task(what, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(job, completed=done, total=total)

        yield advance


def _no_progress(done: int, total: int) -> None:
    """The progress callback of a run that shows none."""


def _register_front_ends() -> None:
    """Commands that live with their front end (``serve`` in boneyard.web, ``tournament`` in
    boneyard.sim): each such module has ``register(app)`` and imports its heavy extras lazily."""
    import importlib
    import importlib.util

    for module in ("boneyard.web.cli", "boneyard.sim.cli", "boneyard.review.cli"):
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
    except ModuleNotFoundError as error:  # an extra a command imports as it runs (``boneyard prune``: SQLAlchemy)
        extra = EXTRA_OF.get((error.name or "").partition(".")[0])
        if extra is None:
            raise
        typer.echo(f"boneyard: this needs the {extra} extra ({error}): pip install 'boneyard[{extra}]'", err=True)
        sys.exit(2)
    except SystemExit as done:
        # Ctrl-C that no command caught (while starting up, say): Typer exits 130 without a word
        typer_exit = done.__context__
        if done.code == 130 and typer_exit is not None and isinstance(typer_exit.__cause__, KeyboardInterrupt):
            typer.echo("boneyard: interrupted", err=True)
        raise


if __name__ == "__main__":
    main()
