"""The one player interface, the level registry and the two simple levels.

Every player — computer, terminal human, browser seat, environment agent — is an object with
``choose(view) -> Move``.  Levels are registered by name (``random``, ``greedy``, …) and built
from a spec such as ``"expert:time=0.2"``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from boneyard.errors import OptionError
from boneyard.moves import Kind, Move
from boneyard.view import SeatView


@runtime_checkable
class Player(Protocol):
    """Given what one seat may see, return a legal move."""

    name: str

    def choose(self, view: SeatView) -> Move: ...


PlayerFactory = Callable[..., Player]
LEVELS: dict[str, PlayerFactory] = {}


def level(name: str) -> Callable[[PlayerFactory], PlayerFactory]:
    def register(factory: PlayerFactory) -> PlayerFactory:
        LEVELS[name] = factory
        return factory
    return register


class RandomPlayer:
    """Plays a uniformly random legal move."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        return self.rng.choice(view.legal_moves())


class GreedyPlayer:
    """Best immediate score; among equals it sheds its heaviest tile."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "greedy"

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves()
        best = moves[0]
        best_key: tuple[int, int, int, int] | None = None
        for move in moves:
            if move.kind in (Kind.LEAD, Kind.PLAY) and move.tile is not None:
                points = view.play_points(move)[1]
                value = view.tile_value(move.tile)
                key = (1, points, value, move.tile.high)
            elif move.kind == Kind.GIVE and move.tile is not None:
                key = (1, 0, -move.tile.pips, 0)  # give away the lightest tile
            else:
                key = (0, 0, 0, 0)
            if best_key is None or key > best_key:
                best, best_key = move, key
        return best


level("random")(RandomPlayer)
level("greedy")(GreedyPlayer)


def parse_number(text: str) -> float | int | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def split_specs(text: str) -> list[str]:
    """Split ``"expert:time=0.2,depth=3,greedy"`` into one spec per player."""
    specs: list[str] = []
    for piece in (part.strip() for part in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and specs:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def make_player(spec: str, seed: int | None = None) -> Player:
    """Build a player from ``LEVEL`` or ``LEVEL:key=value,...``."""
    name, _, params_text = spec.partition(":")
    name = name.strip().lower()
    _load_levels()
    factory = LEVELS.get(name)
    if factory is None:
        raise OptionError(f"unknown player level {name!r} (known: {', '.join(sorted(LEVELS))})")
    params: dict[str, object] = {}
    for item in filter(None, (p.strip() for p in params_text.split(","))):
        key, equals, value = item.partition("=")
        if not equals:
            raise OptionError(f"player {spec!r}: parameter {item!r} is not key=value")
        params[key.strip()] = parse_number(value.strip())
    try:
        return factory(seed=seed, **params)
    except TypeError as error:
        raise OptionError(f"player {spec!r}: {error}") from None


def _load_levels() -> None:
    """Import the modules that register further levels (heuristic, expert) if present."""
    import importlib

    for module in ("boneyard.players.heuristic", "boneyard.players.expert"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise


def hint_move(view: SeatView) -> tuple[Move, str]:
    """The expert's move for ``view`` and a one-line reason ("scores 15", "B cannot hold a 4")."""
    from boneyard.players.expert.hint import hint_move as expert_hint

    return expert_hint(view)
