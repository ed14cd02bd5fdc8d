"""Chance, in one place: the deal, the stock order, leaders chosen by lot, dice, and the random
player's stream.

A :class:`Chance` is a seeded generator.  The same seed gives the same hands, stock order,
leaders and dice, in the same order; nothing else in Boneyard draws random numbers for the
rules, so a record of the outcomes replays a game exactly.  :meth:`Chance.deal` gives a hand's
outcome as tile indices (what the fast engine takes); :meth:`Chance.setup` the same outcome as
:class:`~boneyard.state.HandSetup` tiles (what the reference engine takes).

:class:`SplitMix` is the stream the ``random`` player chooses from: splitmix64, which the
compiled kernel (``boneyard/fast/_kernel.c``) computes number for number, so a random player
makes the same choices in Python and in a compiled playout.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from numbers import Integral
from typing import TYPE_CHECKING, Any, TypeVar, cast

from boneyard.errors import OptionError
from boneyard.rules.base import Rules
from boneyard.state import Dice, HandSetup

if TYPE_CHECKING:
    from boneyard.state import Game
    from boneyard.tiles import Tile

MASK64 = (1 << 64) - 1
MAX_SEED = 2**63 - 1  #: the largest seed a game takes (records, the web table's signed 64-bit column, the commands)

_T = TypeVar("_T")


def as_whole(value: _T) -> _T:
    """``value`` as a plain ``int`` where it is another kind of whole number (a NumPy integer, as seeds and counts
    drawn with NumPy are), else as it is, for the checks to take or refuse (a ``bool`` stays one: it is no number)."""
    if isinstance(value, Integral) and not isinstance(value, int):
        return cast(_T, int(value))
    return value


def seed_error(seed: object) -> str | None:
    """Why ``seed`` is not a seed (a whole number from 0 to :data:`MAX_SEED`), or ``None`` where it is one."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        return f"the seed must be a whole number from 0 to 2^63 - 1, not {seed!r}"
    return None


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a series (the same whatever the worker count)."""
    return (seed * 1_000_003 + index * 7_919) % (2**63)


class SplitMix:
    """A splitmix64 stream (Steele, Lea and Flood 2014): 64-bit state, one addition and two
    multiplications per number.  :meth:`below` maps a number to ``0 … n-1`` by its top 32 bits
    (Lemire's multiply-shift, without rejection: a bias of at most ``n / 2**32``)."""

    __slots__ = ("state",)

    def __init__(self, seed: int | None = None) -> None:
        self.state = (seed if seed is not None else random.SystemRandom().getrandbits(64)) & MASK64

    def next(self) -> int:
        """The next 64-bit number."""
        self.state = state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``0 … n-1`` (one step of the stream)."""
        return ((self.next() >> 32) * n) >> 32

    def pick(self, items: Sequence[_T]) -> _T:
        """One of ``items`` (the one at :meth:`below`); a single item is taken without a step."""
        return items[0] if len(items) == 1 else items[self.below(len(items))]

    def shuffle(self, items: list[_T], start: int = 0) -> None:
        """Shuffle ``items[start:]`` in place as the compiled kernel does, number for number: each position ``i``
        from the last down to ``start + 1`` swaps with ``start + below(i - start + 1)`` (its redeals and its greedy
        playouts' stock orders, so that Python without the kernel draws the same)."""
        for i in range(len(items) - 1, start, -1):
            j = start + self.below(i - start + 1)
            items[i], items[j] = items[j], items[i]


#: how many random bits ``Random._randbelow(i + 1)`` asks for
_BITS = tuple((i + 1).bit_length() for i in range(256))


@cache
def _compiled() -> Callable[[list[Any], int, bytes], int] | None:
    """The compiled kernel's shuffle, if it is built (imported on first use: the kernel's package
    imports this module)."""
    try:
        from boneyard.fast import _kernel
    except ImportError:  # pragma: no cover - depends on the build
        return None
    return getattr(_kernel, "shuffle", None)


def shuffle(rng: random.Random, items: list[_T]) -> None:
    """``rng.shuffle(items)``: the same permutation from the same draws of the generator, faster.

    CPython's ``Random.shuffle`` swaps each position ``i`` from the end with ``_randbelow(i + 1)``, which
    draws ``getrandbits(k)`` (one 32-bit output of the Mersenne Twister, its top ``k`` bits) for the bit
    length ``k`` of ``i + 1`` until the result is below ``i + 1``.  The compiled kernel does those swaps
    from a block of outputs, ``getrandbits(32 * i)`` when ``i`` positions are left (each takes at least
    one output, so no output is drawn that the shuffle would not use); in Python the loop is inline.
    Either way the permutation and the generator's state after it are ``rng.shuffle``'s (a test
    compares them for many seeds and sizes)."""
    top = len(items) - 1
    compiled = _compiled()
    if compiled is not None and top > 0:
        getrandbits = rng.getrandbits
        while top:
            top = compiled(items, top, getrandbits(32 * top).to_bytes(4 * top, "little"))
        return
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(top, 0, -1):
        k = bits[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@dataclass(slots=True)
class Deal:
    """A hand's chance outcome as tile indices (:attr:`Tile.index`): each seat's tiles in the order
    dealt, the stock in drawing order, the leader chosen by lot and the dice (Flower & Scorpion)."""

    hands: list[list[int]]
    stock: list[int]
    leader: int | None
    dice: Dice | None


def deal_indices(rng: random.Random, tiles: int, size: int, players: int, *,
                 indices: Sequence[int] | None = None, acceptable: Callable[[list[list[int]]], bool] | None = None,
                 leader_by_lot: bool = False, dice: bool = False) -> Deal:
    """A hand's chance outcome from ``rng``, as tile indices: the set's ``tiles`` positions shuffled (and
    reshuffled while ``acceptable`` refuses the hands, Bergen's redeal), ``size`` tiles to each of
    ``players`` seats, the rest the stock; then the leader by lot and the four dice where asked.  The
    position ``p`` is the tile ``indices[p]`` (default: ``p``).  :meth:`Chance.deal` and the fast
    engine's own deals (:meth:`~boneyard.fast.engine.FastGame.next_hand`) both come from here."""
    order = list(range(tiles))
    while True:
        shuffle(rng, order)
        dealt = order if indices is None else [indices[position] for position in order]
        hands = [dealt[seat * size:(seat + 1) * size] for seat in range(players)]
        if acceptable is None or acceptable(hands):
            break
    leader = rng.randrange(players) if leader_by_lot else None
    rolled = None
    if dice:
        roll = [rng.randint(1, 6) for _ in range(4)]
        rolled = Dice((roll[0], roll[1]), (roll[2], roll[3]))
    return Deal(hands, dealt[players * size:], leader, rolled)


class _TileSet:
    """A rules' tile set, looked up by index (built once per :class:`Chance`)."""

    __slots__ = ("by_index", "indices", "refuses", "rules")

    def __init__(self, rules: Rules) -> None:
        tiles = rules.tile_set()
        self.rules = rules
        self.by_index: dict[int, Tile] = {tile.index: tile for tile in tiles}
        #: the tile index at each position of the set (None: the positions are the indices)
        positions = tuple(tile.index for tile in tiles)
        self.indices: tuple[int, ...] | None = None if positions == tuple(range(len(tiles))) else positions
        #: whether the rules can refuse a deal (only then are the dealt hands shown to them as tiles)
        self.refuses = type(rules).acceptable_deal is not Rules.acceptable_deal


class Chance:
    """The seeded source of every chance outcome of one game.  ``seed`` is a whole number from 0 to
    :data:`MAX_SEED` (what a record keeps; a negative seed would deal as its opposite), or ``None`` for a random
    one; anything else is an :class:`~boneyard.errors.OptionError`."""

    def __init__(self, seed: int | None = None) -> None:
        seed = as_whole(seed)  # (a NumPy integer, as a seed drawn with NumPy is)
        if seed is not None and (wrong := seed_error(seed)) is not None:
            raise OptionError(wrong)
        # a seed a player could search for (2**31 takes a core half an hour) would give away every hand
        self.seed = seed if seed is not None else random.SystemRandom().randrange(MAX_SEED + 1)
        self.rng = random.Random(self.seed)
        self._set: _TileSet | None = None

    def state(self) -> object:
        """Where the generator stands (for :meth:`restore`): :meth:`Game.undo <boneyard.state.Game.undo>` of a deal
        sets it back, so that the next deal is the one taken back."""
        return self.rng.getstate()

    def restore(self, state: object) -> None:
        self.rng.setstate(state)  # type: ignore[arg-type]

    def _tiles(self, rules: Rules) -> _TileSet:
        known = self._set
        if known is None or known.rules is not rules:
            known = self._set = _TileSet(rules)
        return known

    def deal(self, game: Game) -> Deal:
        """Shuffle and deal the coming hand; pick a leader and roll dice where the rules need.

        The set's positions are shuffled as integers (``shuffle`` makes the same permutation whatever
        the items), so the outcome is the one a shuffle of the tiles themselves would give."""
        rules = game.rules
        known = self._tiles(rules)
        acceptable = None
        if known.refuses:
            def acceptable(hands: list[list[int]]) -> bool:
                return rules.acceptable_deal(self._as_tiles(known, hands))
        return deal_indices(self.rng, len(known.by_index), rules.deal_size(), rules.players, indices=known.indices,
                            acceptable=acceptable, leader_by_lot=rules.random_leader_needed(game),
                            dice=rules.uses_dice)

    @staticmethod
    def _as_tiles(known: _TileSet, hands: list[list[int]]) -> list[list[Tile]]:
        """Each hand as tiles, highest index first (the order a reference hand is held in)."""
        by_index = known.by_index
        return [[by_index[index] for index in sorted(hand, reverse=True)] for hand in hands]

    def hand_setup(self, rules: Rules, deal: Deal) -> HandSetup:
        """``deal`` as the reference engine takes it."""
        known = self._tiles(rules)
        by_index = known.by_index
        return HandSetup(self._as_tiles(known, deal.hands), [by_index[index] for index in deal.stock], deal.leader,
                         deal.dice)

    def setup(self, game: Game) -> HandSetup:
        """:meth:`deal` as a :class:`~boneyard.state.HandSetup` of tiles."""
        return self.hand_setup(game.rules, self.deal(game))


class HandChance(Chance):
    """Deals hand ``i`` of a game from ``game_seed(seed, i)``: the deals depend on the seed and the hand
    number only, so a game stopped and resumed (at the terminal or the web table) is dealt exactly as one
    played straight through."""

    def deal(self, game: Game) -> Deal:
        self.rng = random.Random(game_seed(self.seed, len(game.log)))
        return super().deal(game)
