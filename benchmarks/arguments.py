"""The benchmarks' command lines: argument types that refuse a bad value with one line naming it.

Every benchmark builds its parser in a ``build_parser()`` (so that the commands docs/ quotes can be checked
against it without running anything) and gives these as ``type=``: argparse then answers a bad value with
``error: argument --deals: ...`` and exit status 2, before any game is played, instead of a traceback or a
table of nonsense (``-1 duplicate deals``).  The benchmarks that need the ``bench`` extra (OpenSpiel, the
``dominoes`` package) import it only when they run, and :func:`bench_extra_missing` says how to install it.
Boneyard itself is imported only by the types that need it, so that a benchmark run on another checkout's code
(``benchmarks.web_load --src``, ``PYTHONPATH=...``) imports nothing of this one's by parsing its arguments.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

BENCH_EXTRA = "pip install 'boneyard[bench]'"  #: dominoes==6.1.0 and open_spiel==2.0.2 (pyproject.toml)
MAX_SEED = 2**63 - 1


def whole(least: int, most: int | None = None) -> Callable[[str], int]:
    """A whole number from ``least`` (up to ``most``)."""
    span = f"from {least} up" if most is None else f"from {least} to {most:,}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < least or (most is not None and value > most):
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, not {text!r}")
        return value

    return parse


positive = whole(1)  #: deals, games, repeats, samples: at least one
count = whole(0)  #: at least none (--timing-hands 0: no timing table)
seed = whole(0, MAX_SEED)  #: as ``boneyard simulate --seed`` takes it


def duration(most: float | None = None) -> Callable[[str], float]:
    """A positive number of seconds (up to ``most``)."""
    span = "a positive number of seconds" if most is None else f"a number of seconds above 0 and at most {most:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = 0.0
        if not 0 < value < float("inf") or (most is not None and value > most):
            raise argparse.ArgumentTypeError(f"must be {span}, not {text!r}")
        return value

    return parse


seconds = duration()  #: --seconds, --duration


def variant(text: str) -> str:
    """A variant's name or alias, as its name."""
    from boneyard.errors import BoneyardError
    from boneyard.rules.base import VARIANTS, find_variant

    try:
        return find_variant(text).name
    except BoneyardError:
        raise argparse.ArgumentTypeError(f"unknown variant {text!r} (one of {', '.join(sorted(VARIANTS))})") from None


def variants(text: str) -> list[str]:
    """Comma-separated variants (at least one), as their names."""
    names = [variant(part.strip()) for part in text.split(",") if part.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"no variant in {text!r}")
    return names


def player(text: str) -> str:
    """A player spec that ``make_player`` accepts (``greedy``, ``expert:samples=40,defend=1``)."""
    from boneyard.errors import BoneyardError
    from boneyard.players.base import make_player

    try:
        make_player(text, seed=0)
    except BoneyardError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def options(text: str) -> dict[str, object]:
    """Variant options ``KEY=VALUE,...`` (``partnerships=on``)."""
    found: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise argparse.ArgumentTypeError(f"{item!r} is not KEY=VALUE")
        found[key.strip()] = value.strip()
    return found


def log_file(text: str) -> Path:
    """A file that exists."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text}: {'a folder, not a file' if path.is_dir() else 'no such file'}")
    return path


def check_rules(parser: argparse.ArgumentParser, names: list[str], players: int,
                chosen: dict[str, object] | None = None) -> None:
    """Refuse (``parser.error``) a player count or option that one of the variants ``names`` does not take."""
    from boneyard.errors import BoneyardError
    from boneyard.rules.base import make_rules

    for name in names:
        try:
            make_rules(name, players, chosen or {})
        except BoneyardError as error:
            parser.error(f"{name} with --players {players}: {error}")


def bench_extra_missing(error: ImportError, benchmark: str, package: str) -> SystemExit:
    """The one line a benchmark that needs ``package`` of the ``bench`` extra exits with where it is not installed."""
    return SystemExit(f"python -m {benchmark} needs {package}, which is not installed ({error}): {BENCH_EXTRA} "
                      "(from a checkout: pip install -e '.[bench]')")
