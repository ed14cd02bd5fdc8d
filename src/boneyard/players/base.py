"""The one player interface, the level registry and the two simple levels.

Every player — computer, terminal human, browser seat, environment agent — is an object with
``choose(view) -> Move``.  Levels are registered by name (``random``, ``greedy``, …) and built
from a spec such as ``"expert:time=0.2"``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from boneyard.chance import SplitMix
from boneyard.errors import IllegalMoveError, OptionError, did_you_mean
from boneyard.fast.pip import PIP_TILES, FastPip, action_tile, listing_key, tile_at
from boneyard.moves import Kind, Move
from boneyard.view import SeatView

if TYPE_CHECKING:
    from boneyard.fast import FastGame
    from boneyard.tiles import Tile


@runtime_checkable
class Player(Protocol):
    """Given what one seat may see, return a legal move."""

    name: str

    def choose(self, view: SeatView) -> Move: ...


_T = TypeVar("_T")
PlayerFactory = Callable[..., Player]
LEVELS: dict[str, PlayerFactory] = {}


def level(name: str) -> Callable[[PlayerFactory], PlayerFactory]:
    def register(factory: PlayerFactory) -> PlayerFactory:
        LEVELS[name] = factory
        return factory
    return register


def move_order(move: Move) -> tuple[int, int, int, int, int, int, int]:
    """The order in which every engine lists a position's moves for a player's choice.

    The reference engine lists moves hand-first and the fast engine end-first; a player that
    picks by position in the list (random) or keeps the first of equals (greedy) sorts by this key
    so that it makes the same choice on both engines: placements by tile index, then the tile
    they join and the half that joins; draw and pass after every placement."""
    tile = move.tile
    if tile is None:
        return (1, int(move.kind), 0, 0, 0, 0, 0)
    return (0, tile.index, tile.high, tile.low, int(move.kind), move.target, move.half)


def fast_order(game: FastGame, actions: list[int]) -> list[int]:
    """``actions`` of a fast game in :func:`move_order` (the reference engine's choice order), without
    building Move objects for the line games (a placement's key is its tile, then the tip tile and
    the number it joins)."""
    if len(actions) < 2:
        return actions
    if game.rules.name not in _LINE_ACTIONS:
        orders = {action: move_order(game.to_move(action)) for action in actions}
        return sorted(actions, key=orders.__getitem__)
    return game.choice_order(actions)


#: variants whose fast actions are ``tile * arms + arm`` on line arms (draw and pass last)
_LINE_ACTIONS = frozenset({"block", "draw", "all-fives", "bergen", "double-bergen", "flower-scorpion"})


def placement_rank(points: int, tile: Tile, tile_value: Callable[[Tile], int]) -> tuple[int, int, int, int]:
    """The greedy level's preference for a placement of ``tile`` that scores ``points`` now: the
    points, then the value of the tile it sheds, then the tile's high half (higher is better)."""
    return (1, points, tile_value(tile), tile.high)


def greedy_rank(move: Move, points: int, tile_value: Callable[[Tile], int]) -> tuple[int, int, int, int]:
    """The greedy level's preference for ``move`` (higher is better; ``points``: what it scores now).

    A placement ranks by :func:`placement_rank`; a give hands over the lightest tile; a draw or a
    pass ranks below every placement."""
    tile = move.tile
    if tile is None:
        return (0, 0, 0, 0)
    if move.kind == Kind.GIVE:
        return (1, 0, -tile.pips, 0)
    return placement_rank(points, tile, tile_value)


def first_best(items: list[_T], rank: Callable[[_T], tuple[int, ...]]) -> _T:
    """The first of ``items`` with the highest ``rank``."""
    best = items[0]
    best_rank = rank(best)
    for item in items[1:]:
        item_rank = rank(item)
        if item_rank > best_rank:
            best, best_rank = item, item_rank
    return best


def legal_choices(view: SeatView) -> list[Move]:
    """The moves ``view``'s seat may choose from: an error, not an empty list, where it has none (a player asked
    to choose after the hand's end, or off turn)."""
    moves = view.legal_moves()
    if not moves:
        raise IllegalMoveError(f"nothing to choose: seat {view.seat} has no legal move here "
                               "(the hand is over, or another seat is on turn)")
    return moves


class RandomPlayer:
    """Plays a uniformly random legal move: of the legal moves in :func:`move_order`, the one its
    splitmix64 stream (:class:`~boneyard.chance.SplitMix`, seeded with ``seed``) picks; with a single
    legal move the stream does not move.  The same choice on either engine and in the compiled
    kernel's playouts (``FastGame.finish_as_random`` with the players' ``stream`` objects)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.stream = SplitMix(seed)

    def choose(self, view: SeatView) -> Move:
        moves = legal_choices(view)
        if len(moves) > 1:
            moves.sort(key=move_order)
        return self.stream.pick(moves)

    def choose_action(self, game: FastGame) -> int:
        """The same choice on the fast engine (``game`` is the table; only the legal actions are read)."""
        return self.stream.pick(fast_order(game, game.legal_actions()))


class GreedyPlayer:
    """Best immediate score; among equals it sheds its heaviest tile (see :func:`greedy_rank`)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "greedy"
        self._shed_rules: object = None
        self._shed: list[int] = []
        self._spread = 1

    def choose(self, view: SeatView) -> Move:
        def rank(move: Move) -> tuple[int, ...]:
            points = view.play_points(move)[1] if move.is_placement else 0
            return greedy_rank(move, points, view.tile_value)

        return first_best(sorted(legal_choices(view), key=move_order), rank)

    def choose_action(self, game: FastGame) -> int:
        """The same choice on the fast engine, from the actions alone: a placement's points are
        :meth:`~boneyard.fast.FastGame.placement_points` (nothing is applied), the rest of its rank
        depends on the tile only (tabled once per rules), and equal ranks go to the first in
        :func:`move_order`."""
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if game.rules is not self._shed_rules:
            self._table_shedding(game)
        if isinstance(game, FastPip):
            return self._choose_pip(game, actions)
        # a placement of the line games is tile * arms + arm; a draw (listed with placements only
        # where drawing is voluntary) ranks below every placement
        draw = game.draw
        if actions[-1] >= draw:
            actions = [action for action in actions if action < draw]
        shed = self._shed
        arms = game.arms
        best = _BELOW
        chosen = -1
        tied: list[int] | None = None  # every action of the best rank, when there are several
        if game.scores_during_hand:
            spread = self._spread
            points = game.placement_points(actions)
            for index, action in enumerate(actions):  # (zip with strict= costs more than the loop's body)
                rank = shed[action // arms] + points[index] * spread
                if rank > best:
                    best, chosen, tied = rank, action, None
                elif rank == best:
                    tied = [*(tied or [chosen]), action]
        else:  # Block and Draw: placements score nothing until the hand ends
            for action in actions:
                rank = shed[action // arms]
                if rank > best:
                    best, chosen, tied = rank, action, None
                elif rank == best:
                    tied = [*(tied or [chosen]), action]
        return chosen if tied is None else fast_order(game, tied)[0]

    def _choose_pip(self, game: FastPip, actions: list[int]) -> int:
        """PIP: plays score nothing during the round, so a placement's rank is its tile's; a give
        hands over the lightest tile (:func:`greedy_rank`)."""
        if game.give_pending:
            base = game.give_base
            pips = [tile_at(action - base).pips for action in actions]
            return actions[pips.index(min(pips))]  # gives are listed by tile index, move_order's order
        shed = self._shed
        best = _BELOW
        chosen = -1
        tied: list[int] | None = None
        for action in actions:
            rank = shed[action_tile(action)]
            if rank > best:
                best, chosen, tied = rank, action, None
            elif rank == best:
                tied = [*(tied or [chosen]), action]
        return chosen if tied is None else min(tied, key=listing_key)

    def _table_shedding(self, game: FastGame) -> None:
        rules = game.rules
        tabled = _SHEDDING.get(id(rules))
        if tabled is None or tabled[0] is not rules:
            if len(_SHEDDING) > 64:
                _SHEDDING.clear()
            tiles = PIP_TILES if isinstance(game, FastPip) else game.t.tiles
            tabled = (rules, *shedding_ranks(tiles, rules.tile_value))
            _SHEDDING[id(rules)] = tabled
        _, self._shed, self._spread = tabled
        self._shed_rules = rules


def fast_chooser(player: object) -> Callable[[FastGame], int] | None:
    """The choice of ``player`` on a :class:`~boneyard.fast.FastGame`, where it is one of the levels that choose
    there exactly as from a view (``random`` and ``greedy``, not a subclass); ``None`` for any other player, which
    decides from its seat's :class:`~boneyard.view.SeatView`.  A fast game holds every hand and the stock, so a
    player of one's own (``module:function``, a subclass that overrides ``choose``) is never handed one: it sees
    what its seat may see, and the rules check the move it returns."""
    if type(player) is RandomPlayer or type(player) is GreedyPlayer:
        return player.choose_action
    return None


def shedding_ranks(tiles: Sequence[Tile], tile_value: Callable[[Tile], int]) -> tuple[list[int], int]:
    """Per tile index, :func:`placement_rank` after the points as one int (tile value x 32 + high
    half, both read off the rank), shifted to start at 0; and the spread that puts points above it."""
    keys: dict[int, int] = {}
    for tile in tiles:
        _, _, value, high = placement_rank(0, tile, tile_value)
        assert 0 <= high < 32
        keys[tile.index] = value * 32 + high
    low = min(keys.values())
    shed = [keys.get(index, low) - low for index in range(max(keys) + 1)]
    return shed, max(shed) + 1


#: below every placement's rank
_BELOW = -(1 << 62)
#: the shedding ranks of the rules in use (the player of every game of a series shares its rules' table)
_SHEDDING: dict[int, tuple[object, list[int], int]] = {}


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
    if name not in LEVELS:  # random and greedy are here: a simulation of them imports no search
        load_levels()
    factory = LEVELS.get(name)
    if factory is None:
        guess = did_you_mean(name, LEVELS.keys())
        raise OptionError(f"unknown player level {name!r} ({guess}known: {', '.join(sorted(LEVELS))})")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise OptionError(f"player {spec!r}: a player's seed must be a whole number, not {seed!r}")
    accepted = _settings(factory)
    params: dict[str, object] = {}
    for item in filter(None, (p.strip() for p in params_text.split(","))):
        key, equals, value = item.partition("=")
        if not equals:
            raise OptionError(f"player {spec!r}: parameter {item!r} is not key=value")
        key = key.strip()
        if key == "seed":
            raise OptionError(f"player {spec!r}: a player's seed comes from the game (make_player's seed argument), "
                              "not from its spec")
        if accepted is not None and key not in accepted:
            takes = f"it takes {', '.join(accepted)}" if accepted else "it takes no settings"
            raise OptionError(f"player {spec!r}: {name} has no setting {key!r} ({takes})")
        params[key] = parse_number(value.strip())
    try:
        return factory(seed=seed, **params)
    except TypeError as error:
        raise OptionError(f"player {spec!r}: {error}") from None


def _settings(factory: Callable[..., Player]) -> list[str] | None:
    """The settings a level's factory takes (its keyword parameters but the seed), ``None`` where it cannot tell."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # pragma: no cover - a factory without a signature
        return None
    if any(parameter.kind == parameter.VAR_KEYWORD for parameter in parameters):
        return None
    return [parameter.name for parameter in parameters if parameter.name != "seed"]


def load_levels() -> None:
    """Import the modules that register further levels (heuristic, expert) if present (``make_player``
    does it for a level it does not know yet)."""
    import importlib

    for module in ("boneyard.players.heuristic", "boneyard.players.expert"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise


def hint_move(view: SeatView) -> tuple[Move, str]:
    """The expert's move for ``view`` and a one-line reason ("scores 15", "Computer 1 has no 3s")."""
    from boneyard.players.expert.hint import hint_move as expert_hint

    return expert_hint(view)
