"""The fast engine for the line games: Block, Draw, All Fives (all spinner modes), partnership Block,
Bergen, Double Bergen and Flower & Scorpion (PIP is :mod:`boneyard.fast.pip`, built by the same call).

:class:`FastGame` plays the same games as :class:`~boneyard.state.Game` with the same rules,
but keeps its state in machine-friendly form:

* a tile is its index in the set (``Tile.index``: 0-0 is 0, 1-0 is 1, 1-1 is 2, ...);
* a hand is a bit set of tile indices (an ``int``), a suit is the bit set of the tiles that
  carry its number, so "the tiles of this hand that fit a 5 end" is ``hand & SUIT[5]``;
* the table is a handful of *arms*: an arm is one place the line can grow (the two tips of a
  line, a spinner's two short ends), stored as parallel lists of the number showing there,
  the halves it exposes (C4) and the table index of its tip tile;
* an action is an integer: ``tile * arms + arm`` for a lead or a play, then :attr:`~FastGame.draw`
  and :attr:`~FastGame.passing` (a fixed action space, as in OpenSpiel);
* :meth:`~FastGame.apply` pushes a small undo record and :meth:`~FastGame.undo` pops it: a search
  never copies a state.

What a play scores and who wins a hand are not written here: the engine reads the numbers a rule
is about off its arms and bit sets (the two line ends, Double Bergen's arm tips, pip totals, tile
counts, lowest doubles) and calls the variant's own functions in :mod:`boneyard.rules`, the same
ones the reference :class:`~boneyard.state.Game` calls (docs/architecture.md).

The reference stays the oracle: ``tests/test_fast.py`` plays many random games on both, move for
move, and checks the legal move sets, hands, stock, scores and results.  :meth:`FastGame.from_game`
and :meth:`FastGame.to_move` / :meth:`FastGame.from_move` convert between the two.  Options the fast
engine does not implement raise :class:`~boneyard.errors.OptionError` (see :func:`unsupported`).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from boneyard.chance import SplitMix, deal_indices, seed_error
from boneyard.errors import IllegalMoveError, OptionError, VariantError
from boneyard.moves import Kind, Move
from boneyard.rules.all_fives import count_points, fives_hand_end
from boneyard.rules.base import (
    Rules,
    SetupError,
    called_leader,
    find_variant,
    line_leader,
    make_rules,
)
from boneyard.rules.bergen import (
    NO_DOUBLE,
    approach_capped,
    bergen_blocked_winner,
    bergen_lead_double,
    double_must_lead,
    family_bonus,
    header_points,
    rotating_leader,
)
from boneyard.rules.block import Block, block_game_over, block_hand_end, partnership_hand_end
from boneyard.rules.double_bergen import SPINNER_PAIR, double_bergen_hand_end, double_drawer, double_setter, tip_points
from boneyard.rules.draw import dead_layout
from boneyard.rules.flower_scorpion import blocked_winner, floored, master_lead_double, play_scores
from boneyard.tiles import Tile, double_set

if TYPE_CHECKING:
    from boneyard.state import Game

try:  # the optional compiled kernel (setup.py builds it when a C compiler is present)
    from boneyard.fast import _kernel as _kernel  # (re-exported: FastPip reads it too)
except ImportError:  # pragma: no cover - depends on the build
    _kernel = None  # type: ignore[assignment]

#: whether the compiled kernel is built and importable
KERNEL = _kernel is not None

#: the variants (by registry name) the fast engine plays
FAST_VARIANTS = ("block", "draw", "all-fives", "bergen", "double-bergen", "flower-scorpion", "pip")
#: how a variant scores during the hand (BERGEN and above: the Bergen family)
PLAIN, FIVES, BERGEN, FLOWER, DOUBLE = 0, 1, 2, 3, 4
_MODES = {"all-fives": FIVES, "bergen": BERGEN, "flower-scorpion": FLOWER, "double-bergen": DOUBLE}
#: Double Bergen: the lead spinner and its four faces come before any arm grows (DBG-5)
_SPINNER_COVERED = 5
#: Bergen's ``cover_lead_double_first``: the lead double and a tile on each of its sides come first
_LEAD_DOUBLE_COVERED = 3
#: the compiled kernel plays every scoring mode (Bergen's family by tables, see :meth:`FastGame.kernel_tables`)
_KERNEL_MODES = (PLAIN, FIVES, BERGEN, FLOWER, DOUBLE)
#: the kernel's score adjustment table: points -32..31 by scores -512..511 (``ADJ_POINTS``, ``ADJ_SCORES``)
_ADJ_POINTS, _ADJ_SCORES = 32, 512
_MISS = -(1 << 31)  #: a kernel table entry not filled yet
#: the kernel's points tables, filled as playouts reach their entries: by rules (and dice), see kernel_tables
_KERNEL_TABLES: dict[tuple[object, ...], array[int]] = {}

_SPINNER_MODES = {"none": 0, "first_double": 1, "all_doubles": 2}
_ENDS = ("domino", "blocked", "unfinished")


@dataclass(frozen=True, slots=True)
class TileTables:
    """Precomputed facts about the tiles of a double-``top`` set, indexed by tile index."""

    top: int
    tiles: tuple[Tile, ...]
    high: tuple[int, ...]
    low: tuple[int, ...]
    pips: tuple[int, ...]
    is_double: tuple[bool, ...]
    suit: tuple[int, ...]  #: suit[v]: bit set of the tiles that carry the number v
    lightness: tuple[tuple[int, int], ...]
    all_tiles: int  #: the bit set of the whole set
    halves: tuple[tuple[int, int], ...]  #: (high, low) of every tile


@cache
def tables(top: int) -> TileTables:
    """The :class:`TileTables` of the double-``top`` set (cached)."""
    tiles = double_set(top)
    assert all(tile.index == position for position, tile in enumerate(tiles))
    suit = [0] * (top + 1)
    for tile in tiles:
        suit[tile.high] |= 1 << tile.index
        suit[tile.low] |= 1 << tile.index
    return TileTables(
        top, tiles, tuple(t.high for t in tiles), tuple(t.low for t in tiles), tuple(t.pips for t in tiles),
        tuple(t.is_double for t in tiles), tuple(suit), tuple((t.pips, t.low) for t in tiles),
        (1 << len(tiles)) - 1, tuple(t.halves for t in tiles),
    )


def bits(mask: int) -> list[int]:
    """The tile indices in a bit set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def unsupported(rules: Rules) -> list[str]:
    """The options of ``rules`` that the fast engine does not implement (empty: it plays them all).

    Every variant and every option the reference plays is implemented today, so only a variant the
    fast engine does not know is listed; an option added to a variant without a fast implementation
    belongs here, so that ``FastGame`` refuses it rather than play it differently."""
    if rules.name not in FAST_VARIANTS:
        return [f"variant {rules.name!r}"]
    return []


#: Double Bergen: :func:`~boneyard.rules.double_bergen.tip_points` of each multiset of arm tips seen, by
#: ``lone_double_scores`` (look a key up here first: :func:`tips_points` computes and keeps a missing one)
TIP_POINTS: tuple[dict[int, int], dict[int, int]] = ({}, {})
_TIP_BIT = [1 << 3 * code for code in range(3 * 32)]  #: a tip's part of a key, by ``3 * v + h`` (see below)


def tips_points(key: int, lone_double_scores: bool) -> int:
    """:func:`~boneyard.rules.double_bergen.tip_points` of the arm tips in ``key``, remembered: a tip
    (number v, h exposed halves) adds ``1 << 3 * (3 * v + h)`` to the key (the tips are a multiset, at
    most four, so a digit never overflows), which the engine keeps up to date arm by arm."""
    memo = TIP_POINTS[lone_double_scores]
    points = memo.get(key)
    if points is None:
        tips: list[tuple[int, int]] = []
        code = 0
        digits = key
        while digits:
            tips += [divmod(code, 3)] * (digits & 7)
            digits >>= 3
            code += 1
        points = memo[key] = tip_points(tips, lone_double_scores)
    return points


def pair_index(a: int, b: int) -> int:
    """The tile index of the tile with halves ``a`` and ``b`` (either order)."""
    high, low = (a, b) if a >= b else (b, a)
    return high * (high + 1) // 2 + low


class FastGame:
    """A game of any variant on bit sets, with integer actions and undo (PIP: a :class:`~boneyard.fast.pip.FastPip`).

    Build one with ``FastGame("block", players=4, options={"partnerships": True}, seed=1)`` (the first
    hand is dealt from its own seeded generator) or ``FastGame.from_game(game)`` (a copy of a reference
    game's current state, hand in progress included).
    """

    __slots__ = (
        "_can_draw_mode", "_count_points", "_cover", "_dead", "_dice", "_doubles", "_end_saved", "_gains",
        "_hand_points", "_immediate", "_kernel_args", "_mode", "_partners", "_reserve", "_rng", "_scoring", "_seed",
        "_target", "_undo", "_unit", "_voluntary", "arms", "count", "draw", "drawn", "finished", "flower",
        "hand_number", "hand_size", "hands", "in_hand", "last_end", "last_leader", "last_winner", "lead_double",
        "lead_mask", "lead_sides", "lead_spinner", "lead_tile", "leader", "narms", "owner", "passes", "passing",
        "placed", "players", "rules", "scores", "scorpion", "spin", "spinner_mode", "spinners", "stock", "stock_pos",
        "t", "turn", "value", "void", "weight", "winner",
    )

    def __new__(cls, variant: str | Rules = "block", *args: object, **kwargs: object) -> FastGame:
        """``FastGame("pip", ...)`` is a :class:`~boneyard.fast.pip.FastPip` (same API, its own table)."""
        name = variant.name if isinstance(variant, Rules) else find_variant(variant).name
        if cls is FastGame and name == "pip":
            from boneyard.fast.pip import FastPip  # here: pip.py builds on this module

            return object.__new__(FastPip)
        return object.__new__(cls)

    def __init__(self, variant: str | Rules = "block", players: int = 2, *,
                 options: Mapping[str, object] | None = None, seed: int | None = None, deal: bool = True) -> None:
        if seed is not None and (problem := seed_error(seed)) is not None:
            raise OptionError(problem)
        rules = variant if isinstance(variant, Rules) else make_rules(variant, players, options)
        problems = unsupported(rules)
        if problems:
            if rules.name not in FAST_VARIANTS:
                raise VariantError(f"the fast engine plays {', '.join(FAST_VARIANTS)}, not {rules.name}")
            raise OptionError(f"the fast engine does not implement {', '.join(problems)} ({rules.name})")
        self.rules = rules
        opts = rules.options
        self.players = rules.players
        top: int = getattr(rules, "top", 6)
        self.t = tables(top)
        self._mode = _MODES.get(rules.name, PLAIN)
        # Double Bergen's set double is the first double, and the only spinner
        mode = 1 if self._mode == DOUBLE else _SPINNER_MODES[getattr(opts, "spinner_mode", "none")]
        self.spinner_mode = mode
        #: arm slots: the two tips, plus a pair of short ends per possible spinner
        self.arms = 2 if mode == 0 else (4 if mode == 1 else 2 + 2 * (top + 1))
        ntiles = len(self.t.tiles)
        self.draw = ntiles * self.arms
        self.passing = self.draw + 1
        self.hand_size = rules.deal_size()
        self._can_draw_mode = rules.draw_mode != "none"
        self._reserve = rules.reserve
        self._voluntary = rules.voluntary_draw
        self._immediate = rules.immediate_win
        self._dead = bool(getattr(opts, "end_on_dead_layout", False))
        self._scoring = self._mode == FIVES  # the compiled kernel's All Fives flag
        self._unit: int = getattr(rules, "unit", 1)
        #: All Fives: what each possible count scores (A5-8), tabled once from the rule
        self._count_points = [count_points(count, self._unit) for count in range(2 * top * self.arms + 1)]
        self._doubles = sum(1 << index for index, double in enumerate(self.t.is_double) if double)
        #: Bergen and Flower & Scorpion: the score change of every placement of the hand (for undo)
        self._gains: list[int] = []
        #: Flower & Scorpion: the round's Flower and Scorpion tiles (tile indices)
        self.flower = self.scorpion = -1
        self._dice = ((0, 0), (0, 0))  #: the Flower and Scorpion tiles' halves
        self._partners = bool(getattr(opts, "partnerships", False))
        self._target: int = rules.target  # type: ignore[attr-defined]
        self._seed = seed
        self._rng: random.Random | None = None  # made on first use: seeding costs as much as a hand
        self._undo: list[tuple[int, ...]] = []
        self._end_saved: object = None
        #: the kernel's config and tables, made on first use (F&S: remade when the dice change)
        self._kernel_args: tuple[object, tuple[int, ...], tuple[object, object, object, object] | None] | None = None
        self.reset()
        if deal:
            self.next_hand()

    @property
    def rng(self) -> random.Random:
        """This game's own generator (:meth:`next_hand`'s deals, playouts), seeded with the ``seed`` it
        was built with on first use."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng

    def _clear_hand(self) -> None:
        self.hands = [0] * self.players
        self.void = [0] * self.players
        self.stock: list[int] = []
        self.stock_pos = 0
        self.turn = 0
        self.passes = 0
        self.drawn = 0
        self.lead_tile = -1
        self.lead_mask = 0  #: the tiles that may lead (when ``lead_tile`` is -1; 0: any)
        self._cover = 0  #: placements before which every play joins the lead (cover_lead_double_first, DBG-5)
        self.leader = 0
        self.placed = 0
        self.value = [-1] * self.arms
        self.weight = [0] * self.arms
        self.owner = [0] * self.arms
        self.spin = [0] * self.arms
        self.narms = 0
        self.count = 0
        self.lead_sides = 0
        self.lead_spinner = False
        self.lead_double = False
        self.spinners = 0
        self._end_saved = None

    # ------------------------------------------------------------------ hands
    def reset(self) -> None:
        """Start the game over: scores to zero, the next deal is hand 1 (with its called lead)."""
        self.scores = [0] * self.players
        self.finished = False
        self.winner: int | None = None
        self.hand_number = 0
        self.last_leader = 0
        self.last_winner: int | None = None
        self.last_end = ""
        self._hand_points = [0] * self.players
        self.in_hand = False
        self.drop_history()
        self._clear_hand()

    def next_hand(self) -> None:
        """Deal the next hand from this game's own generator (:func:`boneyard.chance.deal_indices`, as
        :class:`~boneyard.chance.Chance` deals), then open it."""
        rules = self.rules
        acceptable = None
        if self._mode == BERGEN and double_must_lead(rules.options.lead_rule):
            acceptable = self._dealt_double
        deal = deal_indices(self.rng, len(self.t.tiles), self.hand_size, self.players, acceptable=acceptable,
                            leader_by_lot=rules.leader_by_lot(self.hand_number + 1), dice=rules.uses_dice)
        dice = deal.dice
        self.start_hand(deal.hands, deal.stock, deal.leader, None if dice is None else (dice.flower, dice.scorpion))

    def _dealt_double(self, hands: list[list[int]]) -> bool:
        """Whether a deal gives BRG-4 a double to lead (Bergen redeals one that does not): the rules' own
        :func:`~boneyard.rules.bergen.bergen_lead_double`, as the reference's opening asks it."""
        numbers = [self._double_numbers(_mask(hand)) for hand in hands]
        return bergen_lead_double(self.rules.options.lead_rule, numbers) is not None

    def start_hand(self, deal: Sequence[Sequence[int]], stock: Sequence[int], leader: int | None = None,
                   dice: tuple[Sequence[int], Sequence[int]] | None = None) -> None:
        """Open a hand from a deal (tile indices per seat), the stock order and, where the rules
        leave the lead to chance, the leader; Flower & Scorpion also takes the round's ``dice``
        (the Flower pair, then the Scorpion pair).  Leads follow BLK-3/4, A5-3/4, BRG-4 and FS-3/FS-6."""
        if self._mode == FLOWER and dice is None:
            raise IllegalMoveError("flower-scorpion: the hand needs its dice")
        self._begin_hand(deal, stock)
        if self._mode >= BERGEN:
            self._open_family_hand(leader, dice)
            return
        rule = getattr(self.rules.options, "lead_rule", "winner_any")
        number = self.hand_number
        lead_tile = -1
        if self.rules.leader_by_lot(number):
            seat = self._given(leader)
        else:
            chosen = line_leader(number, rule, self.players, self.last_leader, self.last_winner)
            if chosen is None:
                seat, lead_tile = self._call_lead()
            else:
                seat = chosen
        self.leader = self.turn = seat
        self.lead_tile = lead_tile
        self.in_hand = True

    def _begin_hand(self, deal: Sequence[Sequence[int]], stock: Sequence[int]) -> None:
        """Clear the table and put the deal and the stock in place as hand ``hand_number + 1``."""
        if self.finished:
            raise IllegalMoveError("the game is over")
        if self.in_hand:
            raise IllegalMoveError("the current hand is not over")
        self._clear_hand()
        self.drop_history()
        for seat, tiles in enumerate(deal):
            self.hands[seat] = _mask(tiles)
        self.stock = list(stock)
        self.hand_number += 1

    def _open_family_hand(self, leader: int | None, dice: tuple[Sequence[int], Sequence[int]] | None) -> None:
        """The lead of a Bergen or Flower & Scorpion hand (BRG-4; FS-3, FS-6) and F&S's dice tiles."""
        opts = self.rules.options
        rotated = rotating_leader(self.last_leader if self.hand_number > 1 else None, self.players)
        lead_tile = -1
        if self._mode == DOUBLE:
            self._set_double(self._given(leader) if rotated is None else rotated)
            return
        if self._mode == FLOWER:
            assert dice is not None
            self.flower, self.scorpion = pair_index(*dice[0]), pair_index(*dice[1])
            self._dice = (self.t.halves[self.flower], self.t.halves[self.scorpion])
            seat = self._given(leader) if rotated is None else rotated
            number = master_lead_double(opts.lead_tile, self._double_numbers(self.hands[seat]))
            if number is not None:
                lead_tile = pair_index(number, number)
        elif not double_must_lead(opts.lead_rule):
            seat = self._given(leader) if rotated is None else rotated
        else:
            lead = bergen_lead_double(opts.lead_rule, [self._double_numbers(hand) for hand in self.hands])
            if lead is None:  # only in a deal the reference would redeal
                seat = leader if leader is not None else 0
            else:
                seat, number = lead
                lead_tile = pair_index(number, number)
        self.leader = self.turn = seat
        self.lead_tile = lead_tile
        self.in_hand = True

    def _double_numbers(self, hand: int) -> list[int]:
        """The numbers of the doubles in a hand (bit set)."""
        high = self.t.high
        return [high[tile] for tile in bits(hand & self._doubles)]

    def _set_double(self, designated: int) -> None:
        """DBG-4 (:func:`~boneyard.rules.double_bergen.double_setter`, then
        :func:`~boneyard.rules.double_bergen.double_drawer`): the set-up draws are not moves."""
        hands = self.hands
        doubles = self._doubles
        self.leader = designated
        seat = double_setter(designated, [bool(hand & doubles) for hand in hands])
        if seat is not None:
            self.turn = seat
            self.lead_mask = hands[seat] & doubles
            self.in_hand = True
            return
        stock = self.stock
        is_double = self.t.is_double
        found = double_drawer(designated, self.players,
                              [is_double[tile] for tile in stock[self.stock_pos:len(stock) - self._reserve]])
        if found is None:
            self.hand_number -= 1
            raise SetupError("nobody holds a double and the boneyard has none left to draw: no double can be set")
        draws, seat = found
        tile = self._setup_draws(designated, draws)
        self.turn = seat
        self.lead_mask = 1 << tile
        self.in_hand = True

    def _setup_draws(self, first: int, draws: int) -> int:
        """``draws`` set-up draws (not moves) in turn from seat ``first``; the last tile drawn."""
        stock = self.stock
        hands = self.hands
        tile = -1
        for draw in range(draws):
            tile = stock[self.stock_pos]
            self.stock_pos += 1
            hands[(first + draw) % self.players] |= 1 << tile
        return tile

    @staticmethod
    def _given(leader: int | None) -> int:
        if leader is None:
            raise IllegalMoveError("the rules leave this lead to chance: the hand needs a leader")
        return leader

    @property
    def scores_during_hand(self) -> bool:
        """Whether plays score (All Fives, Bergen, Flower & Scorpion), not only the hand's end."""
        return self._mode != PLAIN

    def drop_history(self) -> None:
        """Forget how the hand in progress came about: it can no longer be undone from here."""
        self._undo.clear()
        self._gains.clear()
        self._end_saved = None

    def _call_lead(self) -> tuple[int, int]:
        """The called lead (:func:`~boneyard.rules.base.called_leader`): the seat and its tile."""
        t = self.t
        hands = self.hands
        doubles = self._doubles
        highest = [t.high[(hand & doubles).bit_length() - 1] if hand & doubles else -1 for hand in hands]
        seat = called_leader(highest, lambda seat: max(((t.pips[i], t.high[i]) for i in bits(hands[seat])),
                                                       default=(-1, -1)))
        number = highest[seat]
        if number >= 0:
            return seat, pair_index(number, number)
        # (an empty deal, as the expert's replay starts: seat 0 and tile 0, which the replay overrides)
        return seat, max(bits(hands[seat]), key=lambda i: (t.pips[i], t.high[i]), default=0)

    # ------------------------------------------------------------------ moves
    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    def legal_actions(self) -> list[int]:
        """The actions the player on turn may take (the same set as the reference's legal moves)."""
        if not self.in_hand:
            return []
        hand = self.hands[self.turn]
        arms = self.arms
        out: list[int] = []
        if not self.placed:
            if self.lead_tile >= 0:
                return [self.lead_tile * arms]
            if self.lead_mask:
                hand &= self.lead_mask
            while hand:
                low = hand & -hand
                out.append((low.bit_length() - 1) * arms)
                hand ^= low
            return out
        suit = self.t.suit
        value = self.value
        owner = self.owner
        if self.narms == 2 and self.placed >= self._cover:  # the two tips of a line: most positions
            v = value[0]
            fits = hand & suit[v]
            while fits:
                low = fits & -fits
                out.append((low.bit_length() - 1) * arms)
                fits ^= low
            if value[1] != v or owner[1] != owner[0]:  # (the lead double's two sides take a tile once)
                fits = hand & suit[value[1]]
                while fits:
                    low = fits & -fits
                    out.append((low.bit_length() - 1) * arms + 1)
                    fits ^= low
        else:
            previous = -1
            cover = self.placed < self._cover
            for arm in range(self.narms):
                v = value[arm]
                if v < 0 or (cover and owner[arm] != 1):
                    previous = -1
                    continue
                if owner[arm] == previous and value[arm - 1] == v:
                    continue  # the second face of the same double: the reference lists the tile once
                previous = owner[arm]
                fits = hand & suit[v]
                while fits:
                    low = fits & -fits
                    out.append((low.bit_length() - 1) * arms + arm)
                    fits ^= low
        if out:
            if self._voluntary and self._can_draw():
                out.append(self.draw)
            return out
        return [self.draw] if self._can_draw() else [self.passing]

    def play_target(self) -> int:
        """The table tile every play must join now (0: any open end), as :meth:`legal_actions` applies
        it: the lead until it is covered (Bergen's ``cover_lead_double_first``, Double Bergen's spinner)."""
        return 1 if self.placed < self._cover else 0

    def _can_draw(self) -> bool:
        return self._can_draw_mode and len(self.stock) - self.stock_pos > self._reserve

    def choice_order(self, actions: list[int]) -> list[int]:
        """``actions`` in the order a player chooses from (``players.base.move_order``, the reference
        engine's order), without building moves: a placement by its tile, then the tip tile it joins and
        the number there; draw and pass after every placement.  Leads come by tile index already."""
        if len(actions) < 2 or not self.placed:
            return actions
        arms = self.arms
        owner = self.owner
        value = self.value
        draw = self.draw
        # tile, tip tile and number packed above the action itself, so a plain sort of ints orders them
        keys = [(((action // arms) << 16 | owner[action % arms] << 5 | value[action % arms]) << 20 | action)
                if action < draw else (1 << 60 | action) for action in actions]
        keys.sort()
        return [key & 0xFFFFF for key in keys]

    def apply(self, action: int) -> int:
        """Take ``action`` for the player on turn; returns the points it scored.  The action must
        be one of :meth:`legal_actions`, unchecked (speed); :meth:`apply_checked` refuses any other."""
        seat = self.turn
        if action >= self.draw:
            self._undo.append((action, seat, self.passes, self.drawn, self.void[seat], self.turn))
            if action == self.draw:
                tile = self.stock[self.stock_pos]
                self.stock_pos += 1
                self.hands[seat] |= 1 << tile
                self.drawn += 1
                self.passes = 0
                self.void[seat] = 0
                return 0
            mask = 0  # the numbers the passer could have joined: he holds none of them
            value = self.value
            if self.placed < self._cover:  # only the lead's faces took tiles
                owner = self.owner
                for arm in range(self.narms):
                    if value[arm] >= 0 and owner[arm] == 1:
                        mask |= 1 << value[arm]
            else:
                for arm in range(self.narms):
                    if value[arm] >= 0:
                        mask |= 1 << value[arm]
            self.void[seat] |= mask
            self.passes = self.passes + 1 if self.drawn == 0 else 0
            self.drawn = 0
            if self.passes >= self.players:
                self._end_hand("blocked", None)
            else:
                self.turn = (seat + 1) % self.players
            return 0
        arms = self.arms
        tile, arm = divmod(action, arms)
        t = self.t
        value = self.value
        weight = self.weight
        owner = self.owner
        spin = self.spin
        self.placed += 1
        number = self.placed
        self.hands[seat] ^= 1 << tile
        double = t.is_double[tile]
        if number == 1:
            self._undo.append((action, seat, self.passes, self.drawn, self.lead_tile, self.narms, self.spinners,
                               self.count, self.turn))
            if double:
                v = t.high[tile]
                value[0] = value[1] = v
                weight[0] = weight[1] = 1
                self.lead_spinner = self.spinner_mode != 0
                self.spinners += self.lead_spinner
            else:
                value[0], value[1] = t.high[tile], t.low[tile]
                weight[0] = weight[1] = 1
                self.lead_spinner = False
            self.lead_double = double
            if self._mode == DOUBLE:
                self._cover = _SPINNER_COVERED
            elif double and self._mode == BERGEN and self.rules.options.cover_lead_double_first:
                self._cover = _LEAD_DOUBLE_COVERED  # the lead and a tile on each of its sides
            else:
                self._cover = 0
            owner[0] = owner[1] = 1
            spin[0] = spin[1] = 0
            self.narms = 2
            self.lead_sides = 0
            self.lead_tile = -1
        else:
            v = value[arm]
            self._undo.append((action, seat, self.passes, self.drawn, v, weight[arm], owner[arm], spin[arm],
                               self.narms, self.spinners, self.count, self.lead_sides, self.turn,
                               weight[arm ^ 1] if arm < 2 else 0))
            if double:
                weight[arm] = 2
                if self.spinner_mode == 2 or (self.spinner_mode == 1 and self.spinners == 0):
                    self.spinners += 1
                    new_spin = number
                else:
                    new_spin = 0
            else:
                value[arm] = t.high[tile] + t.low[tile] - v
                weight[arm] = 1
                new_spin = 0
            old_owner = owner[arm]
            owner[arm] = number
            if old_owner == 1 and arm < 2 and self.lead_double:
                # a side of the lead double: the other side, if still free, now shows both halves
                self.lead_sides += 1
                if owner[arm ^ 1] == 1:
                    weight[arm ^ 1] = 2
                elif self.lead_spinner:
                    self._open_ends(1, v)
            elif spin[arm]:
                self._open_ends(spin[arm], v)
            spin[arm] = new_spin
        self.passes = self.drawn = 0
        points = 0
        if self._mode >= BERGEN:
            points = self._family_points(seat, tile)
            self._gains.append(points)
            self.scores[seat] += points
        elif self._scoring:
            total = 0  # the count: value x exposed halves over the open ends (A5-7)
            for i in range(self.narms):
                if value[i] >= 0:
                    total += value[i] * weight[i]
            self.count = total
            points = self._count_points[total]
            if points:
                self.scores[seat] += points
        if not self.hands[seat]:
            self._end_hand("domino", seat)
        elif points and self._immediate and self._game_over()[0]:
            self._end_hand("unfinished", None)
        elif self._dead and self._dead_layout():
            self._end_hand("blocked", None)
        else:
            self.turn = (seat + 1) % self.players
        return points

    def _dead_layout(self) -> bool:
        """Draw's ``end_on_dead_layout`` (DRW-8), by the rule's own function."""
        unseen = 0
        for hand in self.hands:
            unseen |= hand
        for tile in self.stock[self.stock_pos:]:
            unseen |= 1 << tile
        table = self.t.all_tiles & ~unseen
        suit = self.t.suit
        ends = [v for v in self.value[:self.narms] if v >= 0]
        return dead_layout(ends, lambda number: (table & suit[number]).bit_count(), self.t.top + 1)

    def _family_points(self, seat: int, tile: int) -> int:
        """What a play scores in the Bergen family, by the rules' own functions: Bergen's headers
        (BRG-7, BRG-8) and Flower & Scorpion's items (FS-9) from the two line ends (numbers and
        exposed halves, 2 for a crosswise double), Double Bergen's spinner and tips (DBG-7)."""
        value = self.value
        weight = self.weight
        if self._mode == DOUBLE:
            owner = self.owner
            key = 0
            for arm in range(self.narms):
                if owner[arm] != 1:
                    key += _TIP_BIT[3 * value[arm] + weight[arm]]
            lone = self.rules.options.lone_double_scores
            points = TIP_POINTS[lone].get(key)
            if points is None:
                points = tips_points(key, lone)
            return points + SPINNER_PAIR if self.placed < _SPINNER_COVERED else points
        return self._ends_points(seat, tile, value[0], weight[0], value[1], weight[1])

    def _ends_points(self, seat: int, tile: int, v0: int, k0: int, v1: int, k1: int) -> int:
        """Bergen's or Flower & Scorpion's points for ``seat``'s play of ``tile`` leaving the line ends
        ``v0``/``v1`` with ``k0``/``k1`` exposed halves: :meth:`_play_points`, then :meth:`_adjusted`."""
        if self._mode == BERGEN and v0 != v1:
            return 0  # most plays: unequal ends never make a header, no call needed
        return self._adjusted(self._play_points(tile, v0, k0, v1, k1), self.scores[seat])

    def _play_points(self, tile: int, v0: int, k0: int, v1: int, k1: int) -> int:
        """What a play scores by the line ends it leaves (and, in Flower & Scorpion, the tile and the
        round's dice): Bergen's header (BRG-7), Flower & Scorpion's items (FS-9 a-i)."""
        if self._mode == BERGEN:
            return header_points(v0, k0, v1, k1)
        return sum(play_scores(v0, k0, v1, k1, self.t.halves[tile], self._dice[0], self._dice[1],
                               self.rules.options))

    def adjusted_points(self, points: int, score: int) -> int:
        """What a play's ``points`` add to a score of ``score`` under the variant's rules that depend on the
        score (Bergen's approach cap, Flower & Scorpion's floor); elsewhere the points as they are."""
        return self._adjusted(points, score) if self._mode in (BERGEN, FLOWER) else points

    def _adjusted(self, points: int, score: int) -> int:
        """A play's ``points`` as they change a score of ``score``: Bergen's approach cap (BRG-8),
        Flower & Scorpion's floor (FS-9 j)."""
        opts = self.rules.options
        if self._mode == BERGEN:
            return approach_capped(points, self._target - score) if points and opts.approach_cap else points
        return floored(points, score, opts.score_floor) if points < 0 else points

    def placement_points(self, actions: Sequence[int]) -> list[int]:
        """What :meth:`apply` would return for each of ``actions`` (some of :meth:`legal_actions`; a
        draw or a pass scores nothing), worked out from the arms as each placement would leave them,
        without changing anything: a greedy choice's look-ahead (``tests/test_fast.py`` compares it
        with ``apply`` for every legal placement of random games)."""
        mode = self._mode
        if mode == PLAIN:
            return [0] * len(actions)
        t = self.t
        arms = self.arms
        draw = self.draw
        seat = self.turn
        if not self.placed:  # leads: one exposed half at each tip
            if mode == FIVES:
                return [self._count_points[t.pips[action // arms]] for action in actions]
            if mode == DOUBLE:  # the spinner alone: no arm tips yet
                return [SPINNER_PAIR] * len(actions)
            return [self._ends_points(seat, action // arms, t.high[action // arms], 1, t.low[action // arms], 1)
                    for action in actions]
        value = self.value
        weight = self.weight
        owner = self.owner
        high = t.high
        low = t.low
        is_double = t.is_double
        if mode == DOUBLE:  # the spinner's faces (owner 1), new ones included, are no arm tips
            tips = 0
            for arm in range(self.narms):
                if owner[arm] != 1:
                    tips += _TIP_BIT[3 * value[arm] + weight[arm]]
            lone = self.rules.options.lone_double_scores
            memo = TIP_POINTS[lone]
            spinner = SPINNER_PAIR if self.placed + 1 < _SPINNER_COVERED else 0
            found: list[int] = []
            for action in actions:  # the greedy playouts' hot loop
                if action >= draw:
                    found.append(0)
                    continue
                tile, arm = divmod(action, arms)
                v = value[arm]
                key = tips + _TIP_BIT[3 * v + 2 if is_double[tile] else 3 * (high[tile] + low[tile] - v) + 1]
                if owner[arm] != 1:
                    key -= _TIP_BIT[3 * v + weight[arm]]
                points = memo.get(key)
                found.append((tips_points(key, lone) if points is None else points) + spinner)
            return found
        lead_double = self.lead_double
        out: list[int] = []
        for action in actions:
            if action >= draw:
                out.append(0)
                continue
            tile, arm = divmod(action, arms)
            v = value[arm]
            if is_double[tile]:
                after, exposed = v, 2
            else:
                after, exposed = high[tile] + low[tile] - v, 1
            twin = arm ^ 1
            # a side of the lead double taken while the other is free: that one then shows both halves
            twin_exposed = 2 if arm < 2 and owner[arm] == 1 and lead_double and owner[twin] == 1 else weight[twin]
            if mode == FIVES:  # the count changes at this arm and its twin (new short ends expose nothing yet)
                count = self.count + after * exposed - v * weight[arm]
                if arm < 2:
                    count += value[twin] * (twin_exposed - weight[twin])
                out.append(self._count_points[count])
            elif arm == 0:
                out.append(self._ends_points(seat, tile, after, exposed, value[1], twin_exposed))
            else:
                out.append(self._ends_points(seat, tile, value[0], twin_exposed, after, exposed))
        return out

    def _open_ends(self, spinner: int, v: int) -> None:
        n = self.narms
        self.value[n] = self.value[n + 1] = v
        self.weight[n] = self.weight[n + 1] = 0
        self.owner[n] = self.owner[n + 1] = spinner
        self.spin[n] = self.spin[n + 1] = 0
        self.narms = n + 2

    def apply_checked(self, action: int) -> int:
        """:meth:`apply`, after checking that ``action`` is legal: an illegal one raises
        :class:`~boneyard.errors.IllegalMoveError` and changes nothing."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMoveError(f"an action is a whole number, not {action!r}")
        legal = self.legal_actions()
        if action not in legal:
            shown = ", ".join(str(self.to_move(a)) for a in legal)
            raise IllegalMoveError(f"action {action} is not legal for seat {self.turn} now; the legal ones are "
                                   f"{', '.join(map(str, legal))} ({shown})")
        return self.apply(action)

    def undo(self) -> int:
        """Take back the last action of the hand in progress (or the one that ended it); returns it."""
        if not self._undo:
            raise IllegalMoveError("there is nothing to undo in this hand")
        record = self._undo.pop()
        action = record[0]
        seat = record[1]
        assert isinstance(action, int) and isinstance(seat, int)
        if self._end_saved is not None and not self.in_hand:
            self._restore_end()
        if action >= self.draw:
            _, _, self.passes, self.drawn, self.void[seat], self.turn = record
            if action == self.draw:
                self.stock_pos -= 1
                self.hands[seat] ^= 1 << self.stock[self.stock_pos]
            return action
        tile, arm = divmod(action, self.arms)
        self.hands[seat] |= 1 << tile
        after = self.count  # the count the placement left, which is what it scored (All Fives)
        if self.placed == 1:
            (_, _, self.passes, self.drawn, self.lead_tile, narms, self.spinners, self.count,
             self.turn) = record
            self.value[0] = self.value[1] = -1
            self.narms = 0
            # what the lead set about the lead (as _clear_hand leaves a hand before it)
            self._cover = self.lead_sides = 0
            self.lead_spinner = self.lead_double = False
        else:
            (_, _, self.passes, self.drawn, v, w, o, s, narms, self.spinners, self.count, self.lead_sides,
             self.turn, twin) = record
            for extra in range(narms, self.narms):
                self.value[extra] = -1
            self.narms = narms
            self.value[arm] = v
            self.weight[arm] = w
            self.owner[arm] = o
            self.spin[arm] = s
            if arm < 2:
                self.weight[arm ^ 1] = twin
        self.placed -= 1
        if self._mode >= BERGEN:
            self.scores[seat] -= self._gains.pop()
        elif self._scoring and after > 0 and after % 5 == 0:
            self.scores[seat] -= after // self._unit
        return action

    # ------------------------------------------------------------------ hand end
    def _end_hand(self, end: str, seat: int | None) -> None:
        self._end_saved = (list(self.scores), self.finished, self.winner, self.last_winner, self.last_leader,
                           self.last_end, list(self._hand_points))
        self.in_hand = False
        if end == "unfinished":
            winner, points = None, [0] * self.players
        else:
            winner, points = self._hand_end(end, seat)
        for receiver in range(self.players):
            self.scores[receiver] += points[receiver]
        self._hand_points = points
        self.last_end = end
        self.last_winner = winner
        self.last_leader = self.leader
        finished, game_winner = self._game_over()
        if finished:
            self.finished = True
            self.winner = game_winner

    def _restore_end(self) -> None:
        saved = self._end_saved
        assert isinstance(saved, tuple)
        (scores, self.finished, self.winner, self.last_winner, self.last_leader, self.last_end,
         hand_points) = saved
        self.scores[:] = scores
        self._hand_points = hand_points
        self._end_saved = None
        self.in_hand = True

    def pips(self, seat: int) -> int:
        """The pips left in ``seat``'s hand."""
        pips = self.t.pips
        hand = self.hands[seat]
        total = 0
        while hand:
            low = hand & -hand
            total += pips[low.bit_length() - 1]
            hand ^= low
        return total

    def _lightness(self, seat: int) -> tuple[int, int]:
        light = self.t.lightness
        return min((light[tile] for tile in bits(self.hands[seat])), default=(0, 0))

    def _lowest_double(self, seat: int) -> int:
        doubles = self.hands[seat] & self._doubles
        return self.t.high[(doubles & -doubles).bit_length() - 1] if doubles else NO_DOUBLE

    def _holder(self, tile: int) -> int | None:
        for seat, hand in enumerate(self.hands):
            if hand >> tile & 1:
                return seat
        return None

    def _hand_end(self, end: str, seat: int | None) -> tuple[int | None, list[int]]:
        """The hand's winner and every seat's points, decided by the variant's own functions
        (boneyard.rules) from pip totals, tile counts and the like."""
        n = self.players
        mode = self._mode
        opts = self.rules.options
        points = [0] * n
        if mode in (BERGEN, FLOWER):
            winner = seat
            if end != "domino" and mode == BERGEN:
                winner = bergen_blocked_winner(opts.block_rule, [self.pips(s) for s in range(n)], self._doubles_of,
                                               self._size_of, self._lowest_double)
            elif end != "domino":
                winner = blocked_winner(opts, n, self._holder(self.flower), self._holder(self.scorpion),
                                        self.flower == self.scorpion, self.pips, self._lowest_double)
            if winner is not None:
                points[winner] = family_bonus(opts.winner_bonus, end)
            return winner, points
        pips = [self.pips(s) for s in range(n)]
        if mode == DOUBLE:
            return double_bergen_hand_end(opts.end_scoring, seat, pips, [h.bit_count() for h in self.hands])
        return self.hand_result(end, seat, pips, self._lightness)

    def hand_result(self, end: str, seat: int | None, pips: Sequence[int],
                    lightest: Callable[[int], tuple[int, int]]) -> tuple[int | None, list[int]]:
        """The winner and every seat's points of a hand that ended (``end``, ``seat`` who dominoed) with
        these pip totals, ``lightest`` breaking a tie (C2) — Block, Draw and All Fives, whose hand ends
        look at nothing else (the compiled exact solver's leaf values come from here)."""
        n = self.players
        opts = self.rules.options
        points = [0] * n
        if self._mode == FIVES:
            return fives_hand_end(opts, self._unit, end, seat, pips)
        if self._partners:
            assert isinstance(self.rules, Block)  # only Block and Draw play partnerships
            winner, total = partnership_hand_end(pips, seat, lightest, self.rules.partnership_rule())
            if winner is not None:
                points[winner] = points[(winner + 2) % 4] = total
            return winner, points
        winner, total = block_hand_end(pips, seat, lightest, opts.tie_rule, opts.blocked_score)
        if winner is not None:
            points[winner] = total
        return winner, points

    def _doubles_of(self, seat: int) -> int:
        return (self.hands[seat] & self._doubles).bit_count()

    def _size_of(self, seat: int) -> int:
        return self.hands[seat].bit_count()

    def _game_over(self) -> tuple[bool, int | None]:
        return self.game_over_at(self.scores)

    def game_over_at(self, scores: Sequence[int]) -> tuple[bool, int | None]:
        """Whether the game is over with these ``scores`` (at a hand's end), and its winner."""
        return block_game_over(scores, self._target, self._partners)

    # ------------------------------------------------------------------ search helpers
    def playout(self, rng: random.Random | None = None) -> int:
        """Play uniformly random legal actions to the end of the hand; returns how many were taken."""
        choose = (rng or self.rng).choice
        legal = self.legal_actions
        apply = self.apply
        taken = 0
        while self.in_hand:
            apply(choose(legal()))
            taken += 1
        return taken

    def determinize(self, seat: int, rng: random.Random | None = None) -> None:
        """Redeal what ``seat`` cannot see — the other hands and the undrawn stock — at random,
        keeping every hand size and every suit a seat is known to lack (it passed, or could not
        play, with those numbers showing).  The state must be at the point being searched from:
        undo below it is not supported after a redeal.  One ``rng.getrandbits(64)`` seeds it: the same
        redeal with or without the compiled kernel."""
        rng = rng or self.rng
        hands = self.hands
        stock = self.stock
        suit = self.t.suit
        others = [s for s in range(self.players) if s != seat]
        unseen = 0
        for s in others:
            unseen |= hands[s]
        pool = bits(unseen) + stock[self.stock_pos:]
        sizes = [hands[s].bit_count() for s in others]
        banned = []
        for s in others:
            mask = 0
            void = self.void[s]
            while void:
                low = void & -void
                mask |= suit[low.bit_length() - 1]
                void ^= low
            banned.append(mask)
        seed = rng.getrandbits(64)
        if _kernel is not None and self.t.top <= 9:
            redeal = _kernel.deal(pool, sizes, banned, seed)
            if redeal is not None:
                for s, mask in zip(others, redeal[0], strict=True):
                    hands[s] = mask
                stock[self.stock_pos:] = redeal[1]
            return
        # the kernel's deal, number for number (a seed redeals alike with or without it): up to 20 shuffles of the
        # pool by one splitmix64 stream; the most constrained seats choose first, each the first tiles it may hold
        mix = SplitMix(seed)
        order = sorted(range(len(others)), key=lambda i: -banned[i].bit_count())
        for _attempt in range(20):
            mix.shuffle(pool)
            used = [False] * len(pool)
            dealt = [0] * len(others)
            for i in order:
                need = sizes[i]
                for place, tile in enumerate(pool):
                    if not need:
                        break
                    if not used[place] and not banned[i] >> tile & 1:
                        used[place] = True
                        dealt[i] |= 1 << tile
                        need -= 1
                if need:
                    break
            else:
                for s, mask in zip(others, dealt, strict=True):
                    hands[s] = mask
                stock[self.stock_pos:] = [tile for place, tile in enumerate(pool) if not used[place]]
                return
        # no consistent redeal found by sampling: the true deal is consistent, keep it

    @property
    def kernel_plays(self) -> bool:
        """Whether :meth:`finish_as_random` runs in the compiled kernel here: it is built, and plays
        the variant (every line game here; PIP's :class:`~boneyard.fast.pip.FastPip` has its own), the
        options (all but Draw's ``end_on_dead_layout``) and the set (up to double-nine)."""
        return (_kernel is not None and type(self) is FastGame and self.t.top <= 9 and self._mode in _KERNEL_MODES
                and not self._dead)

    def finish_randomly(self, rng: random.Random | None = None) -> int:
        """Play the rest of the hand with random legal actions and score it: :meth:`finish_as_random`
        with every seat's stream seeded from ``rng``.  Returns how many actions were taken."""
        source = rng or self.rng
        return self.finish_as_random([SplitMix(source.getrandbits(64)) for _ in range(self.players)])

    def finish_as_random(self, streams: Sequence[SplitMix]) -> int:
        """Play the rest of the hand as ``random`` players do, and score it: the seat on turn takes
        ``streams[seat].pick`` of its legal actions in :meth:`choice_order`.  Where :attr:`kernel_plays`
        the compiled kernel plays it, else Python: the same hand either way, and the streams are left
        where the hand took them.  The hand's undo history is dropped and the table is left as it was;
        hands, stock, scores and the result are final.  Returns how many actions were taken.  (PIP's
        :class:`~boneyard.fast.pip.FastPip` too, with its own actions, choice order and kernel.)"""
        if not self.in_hand:
            return 0
        if not self.kernel_plays:
            taken = 0
            while self.in_hand:
                self.apply(streams[self.turn].pick(self.choice_order(self.legal_actions())))
                taken += 1
            self.drop_history()
            return taken
        return self._kernel_finish(streams)

    def _kernel_finish(self, streams: Sequence[SplitMix]) -> int:
        """The rest of the hand in the compiled kernel (:meth:`finish_as_random` where it plays)."""
        made = self._kernel_made()
        end, seat, turn, placed, stock_pos, hands, scores, moves, states, _ = _kernel.rollout(
            made[1], self.kernel_state(), [stream.state for stream in streams], False, made[2])
        for stream, state in zip(streams, states, strict=True):
            stream.state = state
        self._adopt(hands, scores, turn, placed, stock_pos)
        self._end_hand(_ENDS[end], seat)
        self._end_saved = None
        return moves

    def greedy_finishes(self, ranks: Sequence[int], seed: int, count: int, trace: bool = False, defend: int = 0
                        ) -> list[tuple[int, int | None, list[int], list[int], tuple[list[int], list[int]] | None]]:
        """``count`` greedy playouts of the rest of the hand in the compiled kernel (where :attr:`kernel_plays`),
        the position left as it is: the placement that scores most now (where plays score; for a seat whose bit is
        set in ``defend``, less the most the next seat could score with one placement right after it, or where plays
        do not score, a placement that leaves the next seat none first), then the highest
        ``ranks[tile]``, ties at random from ``seed``; every playout after the first on a new order of the
        undrawn stock.  Each result: the end (an index of ``("domino", "blocked", "unfinished")``), the seat
        who dominoed or ``None``, every hand and score when the hand stopped, and (``trace``) the actions taken
        with the stock in the order that playout drew from.
        :meth:`finish_outcome` scores the hand's end."""
        if type(self) is not FastGame or not self.kernel_plays:  # (FastPip has its own)
            raise VariantError(f"the compiled kernel plays no greedy playouts of {self.rules.name} here")
        made = self._kernel_made()
        return _kernel.greedy(made[1], self.kernel_state(), made[2], list(ranks), self.scores_during_hand,
                              seed & 0xFFFFFFFFFFFFFFFF, count, trace, defend)

    def finish_outcome(self, end: int, seat: int | None, hands: list[int], scores: Sequence[int]
                       ) -> tuple[list[int], bool, int | None, int | None]:
        """The hand's end scored as :meth:`_end_hand` scores it, for a hand the kernel finished (``end``, ``seat``,
        final ``hands`` and ``scores`` as :meth:`greedy_finishes` gives them), without touching this position:
        the scores after it, whether the game is over, the game's winner and the hand's winner."""
        saved = self.hands, self.scores
        # the variant's hand end reads the hands left (pips, holders, doubles) and, in PIP, the scores
        self.hands, self.scores = hands, list(scores)
        try:
            winner, points = (None, [0] * self.players) if end == 2 else self._hand_end(_ENDS[end], seat)
        finally:
            self.hands, self.scores = saved
        final = [score + gained for score, gained in zip(scores, points, strict=True)]
        finished, game_winner = self.game_over_at(final)
        return final, finished, game_winner, winner

    def _kernel_made(self) -> tuple[object, tuple[int, ...], tuple[object, object, object, object] | None]:
        """The kernel's config and tables for these rules (and Flower & Scorpion's dice), made once and kept."""
        made = self._kernel_args
        if made is None or made[0] != self._dice:
            made = self._kernel_args = (self._dice, self.kernel_config(), self.kernel_tables())
        return made

    def _adopt(self, hands: list[int], scores: list[int], turn: int, placed: int, stock_pos: int) -> None:
        self.hands = hands
        self.scores = scores
        self.turn = turn
        self.placed = placed
        self.stock_pos = stock_pos
        self._undo.clear()
        self._gains.clear()

    def kernel_config(self) -> tuple[int, ...]:
        """The rules as the compiled kernel takes them (every line game on sets up to double-nine,
        without Draw's ``end_on_dead_layout``)."""
        if self._mode not in _KERNEL_MODES or self._dead or self.t.top > 9:
            raise VariantError(f"the compiled kernel does not play {self.rules.name} with these options")
        cover_double = (_LEAD_DOUBLE_COVERED if self._mode == BERGEN and self.rules.options.cover_lead_double_first
                        else 0)
        return (self.players, self.arms, self.spinner_mode, int(self._can_draw_mode), self._reserve,
                int(self._voluntary), int(self._scoring), self._unit, int(self._immediate), int(self._partners),
                self._target, self.t.top, self._mode, _SPINNER_COVERED if self._mode == DOUBLE else 0, cover_double,
                _SPINNER_COVERED, SPINNER_PAIR)

    def kernel_state(self) -> tuple[object, ...]:
        """The hand in progress as the compiled kernel takes it."""
        return (self.hands, self.stock, self.stock_pos, self.turn, self.passes, self.drawn, self.placed,
                self.lead_tile, self.narms, self.lead_sides, int(self.lead_spinner), int(self.lead_double),
                self.spinners, self.count, self.value, self.weight, self.owner, self.spin, self.scores, self._cover,
                self.lead_mask)

    def kernel_tables(self) -> tuple[object, object, object, object] | None:
        """The points tables the compiled kernel scores the Bergen family by (None for the other variants):
        ``(play, play_fn, adjust, adjust_fn)``.  The kernel writes no rule: an entry it needs and ``play``
        lacks it asks of ``play_fn``, which calls the rule functions this engine calls, and keeps:
        ``play_fn(tile, v0, k0, v1, k1)`` is :meth:`_play_points` (Bergen's table leaves the tile out of its
        key: a header does not depend on it), Double Bergen's ``play_fn(key)`` decodes the arm tips for
        :func:`tips_points`; ``adjust_fn(points, score)`` is :meth:`_adjusted`.  The tables are kept per
        rules (and Flower & Scorpion's dice), so a simulation asks each entry once.  Keys (as ``_kernel.c``
        builds them): Bergen, ``((v0 * 3 + k0) * (top + 1) + v1) * 3 + k1`` over the line ends; Flower &
        Scorpion, that times the number of tiles plus the tile played; Double Bergen, the arm tips' codes
        ``3 * v + k`` ascending, padded with ``3 * (top + 1)``, as digits in base ``3 * (top + 1) + 1``; the
        adjustment, ``(points + 32) * 1024 + score + 512``."""
        mode = self._mode
        if mode < BERGEN:
            return None
        top = self.t.top
        opts = self.rules.options
        play_fn: Callable[..., int] = self._play_points
        if mode == DOUBLE:
            base = 3 * (top + 1) + 1
            size = base ** 4
            lone = bool(opts.lone_double_scores)

            def tips_fn(key: int) -> int:
                tips = 0
                for _ in range(4):
                    key, code = divmod(key, base)
                    if code < base - 1:
                        tips += _TIP_BIT[code]
                return tips_points(tips, lone)

            play_fn = tips_fn
        else:
            size = 3 * (top + 1) * 3 * (top + 1) * (len(self.t.tiles) if mode == FLOWER else 1)
        where = (self.rules.name, opts, self.players, self._target)
        play = _kernel_table((*where, self._dice if mode == FLOWER else None), size)
        if mode == DOUBLE:
            return play, play_fn, None, None
        return play, play_fn, _kernel_table(where, 4 * _ADJ_POINTS * _ADJ_SCORES), self._adjusted

    # ------------------------------------------------------------------ conversions
    @classmethod
    def from_game(cls, game: Game) -> FastGame:
        """A fast copy of a reference game: its scores and history, and the hand in progress
        replayed move by move from the hand's deal."""
        fast = cls(game.rules, deal=False)
        if not game.log:
            return fast
        fast.hand_number = len(game.log) - 1
        if len(game.log) > 1:
            previous = game.log[-2]
            fast.last_leader = previous.leader
            fast.last_winner = previous.result.winner if previous.result else None
        log = game.hand
        fast.scores = list(log.start_scores)
        dice = log.setup.dice
        fast.start_hand([[tile.index for tile in tiles] for tiles in log.setup.deal],
                        [tile.index for tile in log.setup.stock], log.setup.leader,
                        (dice.flower, dice.scorpion) if dice is not None else None)
        for event in log.events:
            fast.apply(fast.from_move(event.move))
        return fast

    def to_move(self, action: int) -> Move:
        """The reference :class:`~boneyard.moves.Move` of ``action`` in the current position."""
        if action == self.draw:
            return Move.draw()
        if action == self.passing:
            return Move.passing()
        tile_index, arm = divmod(action, self.arms)
        tile = self.t.tiles[tile_index]
        if not self.placed:
            return Move.lead(tile)
        v = self.value[arm]
        return Move(Kind.PLAY, tile, v if v >= 0 else tile.high, self.owner[arm])

    def from_move(self, move: Move) -> int:
        """The action of a reference move in the current position; raises
        :class:`~boneyard.errors.IllegalMoveError` if no open end takes it."""
        if move.kind == Kind.DRAW:
            return self.draw
        if move.kind == Kind.PASS:
            return self.passing
        tile = move.tile
        if tile is None or move.kind not in (Kind.LEAD, Kind.PLAY) or tile.high > self.t.top:
            raise IllegalMoveError(f"{move}: the fast engine has no such move", move)
        if move.kind == Kind.LEAD:
            return tile.index * self.arms
        for arm in range(self.narms):
            if self.owner[arm] == move.target and self.value[arm] == move.half:
                return tile.index * self.arms + arm
        raise IllegalMoveError(f"{move}: tile {move.target} has no open {move.half} end", move)

    def tiles_of(self, seat: int) -> list[Tile]:
        """The tiles in ``seat``'s hand."""
        return [self.t.tiles[index] for index in bits(self.hands[seat])]


def _kernel_table(key: tuple[object, ...], size: int) -> array[int]:
    """The kernel's points table kept under ``key``: a new one has every entry unfilled."""
    table = _KERNEL_TABLES.get(key)
    if table is None:
        if len(_KERNEL_TABLES) >= 1024:  # (Flower & Scorpion: 441 dice pairs per rules)
            _KERNEL_TABLES.clear()
        table = _KERNEL_TABLES[key] = array("i", [_MISS]) * size
    return table


def _mask(tiles: Sequence[int]) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << tile
    return mask
