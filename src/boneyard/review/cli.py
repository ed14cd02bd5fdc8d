"""The ``boneyard review`` command (registered by :mod:`boneyard.cli`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from boneyard.errors import BoneyardError, RecordError


def default_seat(data: dict[str, Any]) -> int:
    """The seat a record's own human played (``meta.human_seat``, where the game has that seat), else seat 0."""
    from boneyard import record

    players = data.get("players")
    seat = record.human_seat(data, len(players) if isinstance(players, list) else 0)
    return 0 if seat is None else seat


def run_review(file: Path, seat: int | None, every: bool, as_json: bool, seconds: float | None,
               samples: int | None, seed: int, write: Path | None, force: bool, hindsight: bool) -> str:
    """The command's work; returns what to print.  Bad input is a :class:`BoneyardError`."""
    from boneyard import record
    from boneyard.players.expert.search import DEFAULT_TIME  # the search: imported when it runs
    from boneyard.review.analysis import Settings, check_budget, review
    from boneyard.review.report import annotate, review_json, review_text

    if seconds is not None and samples is not None:
        raise BoneyardError("--time and --samples: give one budget, not both")
    if seat is not None and every:
        raise BoneyardError("--seat and --all: review one seat or every seat, not both")
    check_budget(DEFAULT_TIME if seconds is None else seconds, samples, time_name="--time ",
                 samples_name="--samples ")
    if write is not None and write.is_dir():
        raise BoneyardError(f"--write {write}: that is a folder; name a file, e.g. {write / 'reviewed.boneyard.json'}")
    if write is not None and write.exists() and not force:
        what = "the reviewed record itself" if file.exists() and write.resolve() == file.resolve() else "a file"
        raise BoneyardError(f"--write {write}: {what} is there already; pass --force to overwrite it")
    if write is not None and not write.parent.is_dir():
        raise BoneyardError(f"--write {write}: there is no folder {write.parent} to write it in")
    data = record.load(file)
    seats = None if every else [default_seat(data) if seat is None else seat]
    settings = Settings(seconds=DEFAULT_TIME if seconds is None else seconds, samples=samples, seed=seed,
                        open_hands=hindsight)
    try:
        result = review(data, seats, settings)
    except RecordError as error:  # the record read but does not replay: say which file
        raise RecordError(f"{file}: {error}") from None
    if write is not None:
        annotated = annotate(data, result)
        try:
            record.write_atomically(write, record.dumps(annotated))
        except OSError as error:
            raise BoneyardError(f"--write {write}: cannot write ({error.strerror or error})") from None
    return json.dumps(review_json(result)) if as_json else review_text(result)


def register(app: typer.Typer) -> None:
    @app.command("review")
    def review_command(
        file: Annotated[Path, typer.Argument(help="a boneyard/1 record (.boneyard.json)")],
        seat: Annotated[int | None, typer.Option("--seat", help="the seat to review (default: the record's human, "
                                                 "else 0)")] = None,
        every: Annotated[bool, typer.Option("--all", help="review every seat")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="print the review as one JSON object")] = False,
        seconds: Annotated[float | None, typer.Option(
            "--time", help="seconds of search per decision (default: the expert's time per move; not reproducible)")
        ] = None,
        samples: Annotated[int | None, typer.Option(
            "--samples", help="sampled deals per decision (reproducible with --seed)")] = None,
        seed: Annotated[int, typer.Option(help="seed of the sampled deals")] = 0,
        write: Annotated[Path | None, typer.Option(
            "--write", help="write the record with the review's annotations to this file")] = None,
        force: Annotated[bool, typer.Option("--force", help="let --write overwrite an existing file")] = False,
        hindsight: Annotated[bool, typer.Option(
            "--open-hands/--no-open-hands", help="solve each position with every hand known (hindsight)")] = True,
    ) -> None:
        """Review a game: each decision's value, the best move and what the move played cost."""
        try:
            output = run_review(file, seat, every, as_json, seconds, samples, seed, write, force, hindsight)
        except BoneyardError as error:
            typer.echo(f"boneyard: {error}", err=True)
            raise typer.Exit(2) from None
        typer.echo(output)


__all__ = ["default_seat", "register", "run_review"]
