"""PIP on the fast engine: the 70-tile set with wild and directional halves, toes and the stack.

:class:`FastPip` is what ``FastGame("pip", ...)`` builds: the same API as the line games
(:meth:`~FastPip.legal_actions`, :meth:`~FastPip.apply`, :meth:`~FastPip.undo`, :meth:`~FastPip.to_move`,
:meth:`~FastPip.from_move`, ``from_game``, :meth:`~FastPip.determinize`, ``playout``,
:meth:`~FastPip.finish_randomly`) over its own representation:

* a tile is its :attr:`~boneyard.tiles.Tile.index` (0-54 for the double-nine tiles, then the wild and
  directional tiles above, with gaps), a hand a bit set of those indices;
* the table is what the rules look at: for each placed tile ``k`` (1-based, as in move notation) the
  half it shows (:attr:`FastPip.shown`: its number, ``W`` or a letter) and how many of its faces are
  free (:attr:`FastPip.free`: 4 for the starter hub, 3 toes for any other double, 1 for a line tile).
  All faces of a tile show the same half and the hub's sides-first order only decides which face a
  tile takes, so where exactly a tile lies is left to the reference layout (drawing, records);
* an action is ``(2 * tile + which) * TARGETS + k``: the tile, which of its halves joins (0: the
  first, 1: the second of :attr:`~boneyard.tiles.Tile.halves`) and the table tile it joins (0 for the
  starter), then :attr:`~FastPip.draw`, :attr:`~FastPip.passing` and ``give_base + tile``;
* owed doubles (PIP-11, PIP-12) are a stack of ``(k, plays owed)``, as :attr:`~boneyard.state.Game.pending`.

Hand values, the round winner's reduction and the end of the game are the functions of
:mod:`boneyard.rules.pip`; the reference :class:`~boneyard.state.Game` stays the definition of the
turn rules and ``tests/test_fast.py`` plays both side by side.  ``finish_as_random(streams)`` plays
a round as ``random`` players do, in the compiled kernel where it is built (``_kernel.pip_rollout``: the
move mechanics only, the owed doubles and directional effects by tables filled from those functions, see
:meth:`FastPip.pip_kernel_config`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from boneyard.chance import SplitMix, deal_indices, seed_error
from boneyard.errors import IllegalMoveError, OptionError, VariantError
from boneyard.fast import engine as fast_engine
from boneyard.fast.engine import FastGame, bits
from boneyard.moves import Kind, Move
from boneyard.rules.base import Rules, SetupError, make_rules
from boneyard.rules.pip import (
    SCOREKEEPER,
    TOE_PLAYS,
    Pip,
    directional_effect,
    pip_game_over,
    pip_hand_end,
    pip_value,
    round_starter,
    settle_doubles,
    starter_drawer,
    starter_holder,
)
from boneyard.tiles import LETTERS, MAX_PIPS, A, D, R, S, Tile, W, pip_set

PIP_TILES: Final = pip_set()
PIP_INDICES: Final = tuple(tile.index for tile in PIP_TILES)  #: the set's tiles in its order, as Chance deals them
SPAN: Final = max(tile.index for tile in PIP_TILES) + 1  #: tile indices run below this (with gaps)
TARGETS: Final = len(PIP_TILES) + 1  #: table positions an action can name: 0 (the lead) to 70
HUB_FACES: Final = 4
WILD_DOUBLE: Final = Tile(W, W).index

_TILE: list[Tile | None] = [None] * SPAN
for _each in PIP_TILES:
    _TILE[_each.index] = _each
HIGH: Final = tuple(tile.high if tile else -1 for tile in _TILE)
LOW: Final = tuple(tile.low if tile else -1 for tile in _TILE)
DOUBLES: Final = sum(1 << tile.index for tile in PIP_TILES if tile.is_double)
#: FIT[n]: the tiles that can join an end showing the number n (by an n half or a wild half)
FIT: Final = tuple(sum(1 << tile.index for tile in PIP_TILES if n in tile.halves or W in tile.halves)
                   for n in range(MAX_PIPS + 1))


_WORD: Final = (1 << 64) - 1  #: the compiled kernel holds a set of tile indices (below 128) as two words
_LETTER_ORDER: Final = (S, R, A, D)  #: the kernel's letter index of a directional tile
_STOCK_SPAN: Final = len(PIP_TILES) + 1  #: tiles left in the stock: 0 to 70
#: the kernel's config by rules (FastPip.pip_kernel_config), its tables filled once per rules
_KERNEL_CONFIGS: dict[tuple[object, ...], tuple[object, ...]] = {}


def action_tile(action: int) -> int:
    """The tile index of a lead or play action."""
    return action // (2 * TARGETS)


def listing_key(action: int) -> int:
    """An int that sorts lead and play actions of one position as :func:`boneyard.players.base.move_order`
    sorts their moves: by tile, then the table tile joined, then the half that joins (low before high)."""
    pair, k = divmod(action, TARGETS)
    return ((pair >> 1) * TARGETS + k) << 1 | (1 - (pair & 1))


class FastPip(FastGame):
    """PIP on bit sets with integer actions and undo (build it as ``FastGame("pip", players)``)."""

    __slots__ = (
        "_forbid_nested", "_letters_open", "_pendings", "_reverse_skips", "_skip_after_forced", "_values", "direction",
        "forced_draw", "free", "give_base", "give_pending", "open_mask", "pending", "shown",
    )

    def __init__(self, variant: str | Rules = "pip", players: int = 2, *,
                 options: Mapping[str, object] | None = None, seed: int | None = None, deal: bool = True) -> None:
        if seed is not None and (problem := seed_error(seed)) is not None:
            raise OptionError(problem)
        rules = variant if isinstance(variant, Rules) else make_rules(variant, players, options)
        assert isinstance(rules, Pip)
        self.rules = rules
        opts = rules.options
        self.players = rules.players
        self._mode = -1  # no line-game scoring mode (the compiled kernel plays PIP by pip_rollout)
        self.arms = 2  # no arms: the base's per-arm lists stay small and unused
        self.draw = 2 * SPAN * TARGETS
        self.passing = self.draw + 1
        self.give_base = self.passing + 1
        self.hand_size = rules.deal_size()
        self._values = [pip_value(tile, opts.directional_value) if tile else 0 for tile in _TILE]
        self._letters_open = opts.letter_end == "open_wild"
        self._forbid_nested = opts.nested_double == "forbid"
        self._skip_after_forced = opts.draw_tile_skips
        self._reverse_skips = opts.two_player_reverse_skips
        self._partners = False
        self._gains: list[int] = []
        #: the owed-doubles stack before each action of the hand (for undo)
        self._pendings: list[tuple[tuple[int, int], ...]] = []
        self._seed = seed
        self._rng = None
        self._undo: list[tuple[int, ...]] = []
        self._end_saved = None
        self.reset()
        if deal:
            self.next_hand()

    def _clear_hand(self) -> None:
        super()._clear_hand()  # hands, stock, turn, lead and counters as in the line games
        self.direction = 1
        self.forced_draw = False
        self.give_pending = False
        self.pending: tuple[tuple[int, int], ...] = ()
        self.shown = [0] * TARGETS
        self.free = [0] * TARGETS
        self.open_mask = 0

    @property
    def scores_during_hand(self) -> bool:
        return False

    def drop_history(self) -> None:
        super().drop_history()
        self._pendings.clear()

    # ------------------------------------------------------------------ hands
    def next_hand(self) -> None:
        """Deal the next round from this game's own generator (:func:`boneyard.chance.deal_indices`, as
        :class:`~boneyard.chance.Chance` deals), then open it."""
        deal = deal_indices(self.rng, len(PIP_INDICES), self.hand_size, self.players, indices=PIP_INDICES)
        self.start_hand(deal.hands, deal.stock)

    def start_hand(self, deal: Sequence[Sequence[int]], stock: Sequence[int], leader: int | None = None,
                   dice: tuple[Sequence[int], Sequence[int]] | None = None) -> None:
        """Open round ``hand_number + 1`` from a deal (tile indices per seat) and the stock order: the
        holder of r-r, else of W-W, places it; if neither was dealt the scorekeeper and then each
        player clockwise draw until one turns up (PIP-6; set-up draws, not moves)."""
        self._begin_hand(deal, stock)
        hands = self.hands
        starters = (round_starter(self.hand_number).index, WILD_DOUBLE)  # r-r before W-W
        held = starter_holder([[bool(hand >> tile & 1) for hand in hands] for tile in starters])
        if held is not None:
            seat, candidate = held
            self._open(seat, starters[candidate])
            return
        stock = self.stock
        found = starter_drawer(self.players, [tile in starters for tile in stock[self.stock_pos:]])
        if found is None:  # pragma: no cover - the set holds both
            self.hand_number -= 1
            raise SetupError("neither the round's double nor W-W is in the deal or the stock")
        draws, seat = found
        self._open(seat, self._setup_draws(SCOREKEEPER, draws))

    def _open(self, seat: int, tile: int) -> None:
        self.leader = self.turn = seat
        self.lead_mask = 1 << tile
        self.in_hand = True

    # ------------------------------------------------------------------ moves
    def legal_actions(self) -> list[int]:
        """The actions the player on turn may take (the same set as the reference's legal moves)."""
        if not self.in_hand:
            return []
        hand = self.hands[self.turn]
        if self.give_pending:
            return [self.give_base + tile for tile in bits(hand)]
        if self.forced_draw:
            return [self.draw]
        if not self.placed:
            return [(tile << 1) * TARGETS for tile in bits(hand & self.lead_mask)]
        pending = self.pending
        targets = 1 << pending[-1][0] if pending else self.open_mask
        if pending and self._forbid_nested:
            hand &= ~DOUBLES
        shown = self.shown
        out: list[int] = []
        while targets:
            low_bit = targets & -targets
            targets ^= low_bit
            k = low_bit.bit_length() - 1
            v = shown[k]
            number = v <= MAX_PIPS
            fits = hand & FIT[v] if number else hand
            while fits:
                bit = fits & -fits
                fits ^= bit
                tile = bit.bit_length() - 1
                base = (tile << 1) * TARGETS + k
                high = HIGH[tile]
                low = LOW[tile]
                if high not in LETTERS and (not number or high in (v, W)):
                    out.append(base)
                if high != low and (not number or low in (v, W)):
                    out.append(base + TARGETS)
        if out:
            return out
        return [self.draw] if self.drawn == 0 and self.stock_pos < len(self.stock) else [self.passing]

    def play_target(self) -> int:
        """The table tile every play must join now: the last owed double (0: any open end)."""
        return self.pending[-1][0] if self.pending else 0

    def _next(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.players

    def apply(self, action: int) -> int:
        """Take ``action`` for the player on turn (one of :meth:`legal_actions`); PIP scores only at
        the end of a round, so this returns 0."""
        seat = self.turn
        hands = self.hands
        self._undo.append((action, seat, self.turn, self.direction, self.passes, self.drawn, int(self.forced_draw),
                           int(self.give_pending), self.open_mask))
        self._pendings.append(self.pending)
        if action >= self.give_base:
            tile = action - self.give_base
            receiver = self._next(seat)
            hands[seat] ^= 1 << tile
            hands[receiver] |= 1 << tile
            self.give_pending = False
            self.passes = self.drawn = 0
            self.turn = self._next(receiver) if self._skip_after_forced else receiver
            if not hands[seat]:  # the giver handed over his last tile: he is out
                self._end_hand("domino", seat)
            return 0
        if action == self.draw:
            tile = self.stock[self.stock_pos]
            self.stock_pos += 1
            hands[seat] |= 1 << tile
            if self.forced_draw:
                self.forced_draw = False
                if self._skip_after_forced:
                    self.turn = self._next(seat)
            else:
                self.drawn += 1
            self.passes = 0
            return 0
        if action == self.passing:
            self.passes = self.passes + 1 if self.drawn == 0 else 0
            self.drawn = 0
            if self.passes >= self.players:
                self._end_hand("blocked", None)
            else:
                self.turn = self._next(seat)
            return 0
        pair, k = divmod(action, TARGETS)
        tile, which = pair >> 1, pair & 1
        hands[seat] ^= 1 << tile
        self.placed += 1
        new = self.placed
        high = HIGH[tile]
        shown = self.shown
        free = self.free
        if new == 1:  # the starter: a hub showing the round's number (W-W counts as r-r)
            shown[1] = self.hand_number
            free[1] = HUB_FACES
            self.open_mask = 1 << 1
        else:
            free[k] -= 1
            if not free[k]:
                self.open_mask ^= 1 << k
            if high == LOW[tile]:  # a double: three toes, showing its number (W-W: the end's number)
                parent = shown[k]
                shown[new] = parent if high == W and parent <= MAX_PIPS else high
                free[new] = TOE_PLAYS
            else:
                shown[new] = LOW[tile] if which == 0 else high
                free[new] = 1
            if shown[new] not in LETTERS or self._letters_open:
                self.open_mask |= 1 << new
        self.passes = self.drawn = 0
        if not hands[seat]:
            self._end_hand("domino", seat)
            return 0
        if new > 1:
            self.pending = settle_doubles(self.pending, k, new, high == LOW[tile])
        if high in LETTERS:
            self.turn, self.direction, self.forced_draw, self.give_pending = directional_effect(
                high, seat, self.players, self.direction, len(self.stock) - self.stock_pos, self._reverse_skips)
        else:
            self.turn = (seat + self.direction) % self.players
        return 0

    def undo(self) -> int:
        """Take back the last action of the round in progress (or the one that ended it); returns it."""
        if not self._undo:
            raise IllegalMoveError("there is nothing to undo in this hand")
        record = self._undo.pop()
        self.pending = self._pendings.pop()
        if self._end_saved is not None and not self.in_hand:
            self._restore_end()
        action, seat, self.turn, self.direction, self.passes, self.drawn, forced, give, self.open_mask = record
        self.forced_draw = bool(forced)
        self.give_pending = bool(give)
        hands = self.hands
        if action >= self.give_base:
            tile = action - self.give_base
            hands[self._next(seat)] ^= 1 << tile
            hands[seat] |= 1 << tile
        elif action == self.draw:
            self.stock_pos -= 1
            hands[seat] ^= 1 << self.stock[self.stock_pos]
        elif action != self.passing:
            pair, k = divmod(action, TARGETS)
            hands[seat] |= 1 << (pair >> 1)
            if self.placed > 1:
                self.free[k] += 1
            self.placed -= 1
        return action

    # ------------------------------------------------------------------ round end (PIP-17 … PIP-20)
    def _hand_end(self, end: str, seat: int | None) -> tuple[int | None, list[int]]:
        """The round's winner and every seat's points: what each hand holds counts against it, the winner's
        less its reduction (PIP-17 … PIP-19).  (:meth:`FastGame._end_hand` adds them up.)"""
        held = [self.pips(s) for s in range(self.players)]
        winner, reduction = pip_hand_end(end, seat, held, self.scores)
        if winner is not None:
            held[winner] -= reduction
        return winner, held

    def game_over_at(self, scores: Sequence[int]) -> tuple[bool, int | None]:
        """Whether the game is over with these ``scores`` at the end of this round (PIP-20), and its winner."""
        return pip_game_over(scores, self.hand_number, True)

    def pips(self, seat: int) -> int:
        """What ``seat``'s hand counts against it (PIP-18)."""
        values = self._values
        return sum(values[tile] for tile in bits(self.hands[seat]))

    # ------------------------------------------------------------------ search helpers
    def determinize(self, seat: int, rng: random.Random | None = None) -> None:
        """Redeal what ``seat`` cannot see — the other hands and the undrawn stock — at random, keeping
        every hand size (a wild tile fits anywhere, so a pass rules out no tile for certain)."""
        rng = rng or self.rng
        hands = self.hands
        others = [s for s in range(self.players) if s != seat]
        pool = [tile for s in others for tile in bits(hands[s])] + self.stock[self.stock_pos:]
        rng.shuffle(pool)
        position = 0
        for s in others:
            size = hands[s].bit_count()
            mask = 0
            for tile in pool[position:position + size]:
                mask |= 1 << tile
            hands[s] = mask
            position += size
        self.stock[self.stock_pos:] = pool[position:]

    def finish_randomly(self, rng: random.Random | None = None) -> int:
        """Play the rest of the round with uniformly random legal actions (``rng.choice``, in Python) and
        score it; the round's undo history is dropped.  Returns how many actions were taken.  (The compiled
        kernel plays rounds as ``random`` players do: :meth:`finish_as_random`.)"""
        if not self.in_hand:
            return 0
        taken = self.playout(rng or self.rng)
        self.drop_history()
        return taken

    # ------------------------------------------------------------------ the random player, compiled
    def choice_order(self, actions: list[int]) -> list[int]:
        """``actions`` in the order a player chooses from (``players.base.move_order``): placements by
        :func:`listing_key`; a draw, a pass or gives (by tile) come alone and in that order already."""
        if len(actions) < 2 or actions[0] >= self.draw:
            return actions
        return sorted(actions, key=listing_key)

    @property
    def kernel_plays(self) -> bool:
        """Whether :meth:`finish_as_random` runs in the compiled kernel (``pip_rollout``): it is built."""
        return fast_engine._kernel is not None

    def _kernel_finish(self, streams: Sequence[SplitMix]) -> int:
        kernel = fast_engine._kernel
        assert kernel is not None
        end, seat, scalars, hands, shown, free, open_words, pending, moves, states, _ = kernel.pip_rollout(
            self.pip_kernel_config(), self.kernel_state(), [stream.state for stream in streams], False)
        for stream, state in zip(streams, states, strict=True):
            stream.state = state
        self._adopt_round(scalars, hands, shown, free, open_words, pending)
        self._end_hand(fast_engine._ENDS[end], seat)
        self._end_saved = None
        return moves

    def greedy_finishes(self, ranks: Sequence[int], seed: int, count: int, trace: bool = False, defend: int = 0
                        ) -> list[tuple[int, int | None, list[int], list[int], tuple[list[int], list[int]] | None]]:
        """:meth:`FastGame.greedy_finishes` for PIP, in the compiled kernel (``pip_rollout`` with ``ranks``): the
        tile with the highest ``ranks[tile]`` placed or given, ties at random from ``seed``.  Nothing scores
        during a round, so there is no ``defend``; the scores come back as they are.  Each trace is the actions
        taken with the stock in the order that playout drew from."""
        kernel = fast_engine._kernel
        if kernel is None or defend:
            raise VariantError("the compiled kernel plays PIP's greedy playouts, without defend, where it is built")
        config = self.pip_kernel_config()
        mix = SplitMix(seed)
        state = self.kernel_state()
        stock = list(self.stock)
        results: list[tuple[int, int | None, list[int], list[int], tuple[list[int], list[int]] | None]] = []
        for number in range(count):
            if number:  # every playout after the first on a new order of the undrawn stock
                for i in range(len(stock) - 1, self.stock_pos, -1):
                    j = self.stock_pos + mix.below(i - self.stock_pos + 1)
                    stock[i], stock[j] = stock[j], stock[i]
                state = (state[0], list(stock), *state[2:])
            end, seat, _, words, *_, taken = kernel.pip_rollout(
                config, state, [mix.next() for _ in range(self.players)], trace, list(ranks))
            hands = [words[2 * s] | words[2 * s + 1] << 64 for s in range(self.players)]
            actions = [action for _, action in taken] if taken is not None else None
            results.append((end, seat, hands, list(self.scores), (actions, list(stock)) if actions is not None
                            else None))
        return results

    def _adopt_round(self, scalars: Sequence[int], hands: Sequence[int], shown: list[int], free: list[int],
                     open_words: Sequence[int], pending: Sequence[int]) -> None:
        """The position the kernel's round ended in (``pip_rollout``'s results), without undo history."""
        (self.turn, self.direction, self.passes, self.drawn, self.placed, self.stock_pos, forced,
         give) = scalars
        self.forced_draw = bool(forced)
        self.give_pending = bool(give)
        self.hands = [hands[2 * seat] | hands[2 * seat + 1] << 64 for seat in range(self.players)]
        self.shown = shown
        self.free = free
        self.open_mask = open_words[0] | open_words[1] << 64
        self.pending = tuple(zip(pending[::2], pending[1::2], strict=True))
        self.drop_history()

    def pip_kernel_config(self) -> tuple[object, ...]:
        """The rules as the compiled kernel's ``pip_rollout`` takes them (see ``_kernel.c``): the options,
        the set's halves, and two tables filled here from the rule functions, so the kernel holds no rule
        of PIP.  ``settle``, by ``(o * 2 + j) * 2 + d`` (the newest owed double's plays owed ``o``, 0: none;
        ``j``: the play joins it; ``d``: the play is a double), is :func:`~boneyard.rules.pip.settle_doubles`
        as ``kept << 4 | pushed`` (the plays that double is still owed, 0: settled; those the new double
        is owed, 0: none).  ``effect``, by ``((letter * players + seat) * 2 + (direction < 0)) * 71 +
        stock left``, is :func:`~boneyard.rules.pip.directional_effect` as ``turn << 4 | (direction + 1)
        << 2 | forced_draw << 1 | give``.  Kept per rules: a simulation fills them once."""
        opts = self.rules.options
        key = (self.players, opts)
        made = _KERNEL_CONFIGS.get(key)
        if made is None:
            effect = [0] * (len(_LETTER_ORDER) * self.players * 2 * _STOCK_SPAN)
            for letter_index, letter in enumerate(_LETTER_ORDER):
                for seat in range(self.players):
                    for backwards, direction in enumerate((1, -1)):
                        base = ((letter_index * self.players + seat) * 2 + backwards) * _STOCK_SPAN
                        for left in range(_STOCK_SPAN):
                            turn, after, forced, give = directional_effect(
                                letter, seat, self.players, direction, left, opts.two_player_reverse_skips)
                            effect[base + left] = turn << 4 | (after + 1) << 2 | int(forced) << 1 | int(give)
            letters = [_LETTER_ORDER.index(high) if high in LETTERS else -1 for high in HIGH]
            made = (self.players, int(self._letters_open), int(self._forbid_nested), int(self._skip_after_forced),
                    HUB_FACES, TOE_PLAYS, TARGETS, self.draw, self.passing, self.give_base, SPAN, W, MAX_PIPS,
                    _STOCK_SPAN, list(_LETTER_ORDER), list(HIGH), list(LOW), letters, _settle_table(), effect)
            _KERNEL_CONFIGS[key] = made
        return made

    def kernel_state(self) -> tuple[object, ...]:
        """The round in progress as the compiled kernel's ``pip_rollout`` takes it."""
        return ([word for hand in self.hands for word in (hand & _WORD, hand >> 64)], self.stock, self.stock_pos,
                self.turn, self.direction, self.passes, self.drawn, self.placed, int(self.forced_draw),
                int(self.give_pending), self.hand_number, self.lead_mask.bit_length() - 1, self.shown, self.free,
                self.open_mask & _WORD, self.open_mask >> 64, [number for owed in self.pending for number in owed])

    # ------------------------------------------------------------------ conversions
    def to_move(self, action: int) -> Move:
        """The reference :class:`~boneyard.moves.Move` of ``action`` in the current position."""
        if action == self.draw:
            return Move.draw()
        if action == self.passing:
            return Move.passing()
        if action >= self.give_base:
            return Move.give(tile_at(action - self.give_base))
        pair, k = divmod(action, TARGETS)
        tile = tile_at(pair >> 1)
        if not self.placed:
            return Move.lead(tile)
        return Move(Kind.PLAY, tile, tile.halves[pair & 1], k)

    def from_move(self, move: Move) -> int:
        """The action of a reference move in the current position; raises
        :class:`~boneyard.errors.IllegalMoveError` if no open end takes it."""
        kind = move.kind
        if kind == Kind.DRAW:
            return self.draw
        if kind == Kind.PASS:
            return self.passing
        tile = move.tile
        if tile is None or tile.index >= SPAN or _TILE[tile.index] is not tile:
            raise IllegalMoveError(f"{move}: the PIP set has no such tile", move)
        if kind == Kind.GIVE:
            return self.give_base + tile.index
        if kind == Kind.LEAD:
            return (tile.index << 1) * TARGETS
        which = 0 if move.half == tile.high else 1
        if move.half not in tile.halves or not 1 <= move.target <= self.placed or not self.free[move.target]:
            raise IllegalMoveError(f"{move}: tile {move.target} has no open end for it", move)
        return ((tile.index << 1) + which) * TARGETS + move.target

    def tiles_of(self, seat: int) -> list[Tile]:
        """The tiles in ``seat``'s hand."""
        return [tile_at(index) for index in bits(self.hands[seat])]


def _settle_table() -> list[int]:
    """:func:`~boneyard.rules.pip.settle_doubles` as the kernel's table (see :meth:`FastPip.pip_kernel_config`),
    asked with stand-in table positions under an owed double it must leave alone."""
    below, top, other, new = -1, -2, -3, -4  # no table position: none equals another
    table = [0] * 64
    for owed in range(16):
        for joins in (0, 1) if owed else (0,):
            for owes in (0, 1):
                start: tuple[tuple[int, int], ...] = ((below, 1), (top, owed)) if owed else ()
                after = settle_doubles(start, top if joins else other, new, bool(owes))
                kept = pushed = 0
                rest = after[1:] if owed else after
                if owed and after[:1] != ((below, 1),):
                    raise AssertionError("settle_doubles changed an older owed double")
                if rest and rest[0][0] == top:
                    kept, rest = rest[0][1], rest[1:]
                if rest and rest[0][0] == new:
                    pushed, rest = rest[0][1], rest[1:]
                if rest or not 0 <= kept < 16 or not 0 <= pushed < 16:
                    raise AssertionError(f"settle_doubles gives {after}: more than the kernel's table holds")
                table[(owed * 2 + joins) * 2 + owes] = kept << 4 | pushed
    return table


def tile_at(index: int) -> Tile:
    """The PIP tile with ``index``; raises :class:`~boneyard.errors.IllegalMoveError` for none."""
    tile = _TILE[index]
    if tile is None:
        raise IllegalMoveError(f"there is no PIP tile with index {index}")
    return tile
