"""The environment on the fast engine: legal moves as action numbers, and observations kept move by move.

A :class:`FastTracker` (:func:`tracker_for`: :class:`LineTracker` for the line games, :class:`PipTracker`
for PIP's :class:`~boneyard.fast.pip.FastPip`) follows a :class:`~boneyard.fast.FastGame` through the
environment's steps.  It gives the action numbers of :class:`~boneyard.env.encoding.ActionCodec` and the
observation vectors that :class:`~boneyard.env.encoding.Observer` reads off a reference
:class:`~boneyard.view.SeatView`, but it does not build a vector on every ``observe``: it keeps one
vector per seat (a plain ``array`` of float32, with a NumPy view of it) and writes into it only what the
move just applied changed — a tile leaving a hand, a tile on the table, a hand size, the stock, a score, a
number a seat showed it lacks, PIP's direction of play, the rows of the open ends that changed — so
``observe`` copies the seat's vector and, for the seat on turn, marks the ends a legal play may go to and
the phase of its moves in the copy.

The content is the reference's: ``tests/test_env.py`` plays random games of every variant on both engines
and compares every seat's observation and mask after every step.  How the fast state maps onto it:

* slots are the table indices with an open end, lowest first (the reference layout keeps its open ends
  ordered by tile): the owners of the line games' arms (every arm below ``narms`` shows a ``value``),
  PIP's ``open_mask``.  A placement usually changes two slots: the tile it covered (gone, or a face
  fewer) and the new tile (always the highest index, so the last slot);
* a slot's row is the halves its ends show, the halves they expose ÷ 2 (at most 1) and a 1 for "the slot
  is there"; rows are built once per distinct content and kept as bytes.  A line-game arm exposes
  ``weight`` halves; a PIP tile's open faces are its ``free`` count: the starter hub offers its two sides
  first (each exposing a half while both are free, the last one two), then its two short ends (none); a
  double's toes expose a half each; a line tile's end one;
* a PIP play ``(2 * tile + which) * TARGETS + k`` joins by ``tile.halves[which]``, which is already the
  codec's joining half (0: high, 1: low); a give is ``give_base + tile``.
"""

from __future__ import annotations

from array import array

import numpy as np

from boneyard.env.encoding import SCORE_BOUND, Observer
from boneyard.fast import FastGame, bits
from boneyard.fast.pip import TARGETS, FastPip
from boneyard.state import Dice
from boneyard.tiles import is_number

#: PIP's starter (table tile 1): its sides are its first two open faces
_HUB = 1
_HUB_SIDES = 2
_ONE = array("f", [1.0]).tobytes()
_ZERO = bytes(4)
#: _CELLS[b]: eight float32 cells, 1.0 where the byte b has a bit
_CELLS = [b"".join(_ONE if byte >> bit & 1 else _ZERO for bit in range(8)) for byte in range(256)]


def _scaled(score: int, scale: float) -> float:
    """A score as the observation shows it: ÷ ``scale``, clipped to ±``SCORE_BOUND`` (``min``/``max`` cost
    twice as much)."""
    value = score / scale
    return value if -SCORE_BOUND <= value <= SCORE_BOUND else SCORE_BOUND if value > 0 else -SCORE_BOUND


class FastTracker:
    """The action numbers and per-seat observation vectors of one fast game (a line game or PIP)."""

    __slots__ = (
        "_bytes", "_column", "_ends", "_ends_at", "_flags", "_halves", "_hand", "_hand_at", "_lacks_at",
        "_mask", "_mask_view", "_phase_at", "_position", "_public", "_relative", "_rows", "_runs", "_scale",
        "_scores", "_scores_at", "_seen", "_seen_at", "_sizes_at", "_slot_rows", "_stock_at", "_table_at",
        "_tails", "_tiles", "_values", "_views", "_width", "_writes", "_zeros", "buffers", "codec", "game",
        "lacks", "legal_now", "observer", "owners", "players",
    )

    def __init__(self, observer: Observer, game: FastGame) -> None:
        self.observer = observer
        codec = observer.codec
        self.codec = codec
        self.game = game
        self.players = players = observer.players
        #: the codec's index of each fast tile index (PIP's indices have gaps: -1 there)
        span = max(tile.index for tile in codec.tiles) + 1
        self._position = [-1] * span
        for number, tile in enumerate(codec.tiles):
            self._position[tile.index] = number
        #: runs of consecutive fast indices at consecutive codec indices: (first index, length, first position)
        self._runs: list[tuple[int, int, int]] = []
        for index, at in enumerate(self._position):
            if at < 0:
                continue
            if self._runs and self._runs[-1][0] + self._runs[-1][1] == index and \
                    self._runs[-1][2] + self._runs[-1][1] == at:
                first, length, start = self._runs[-1]
                self._runs[-1] = (first, length + 1, start)
            else:
                self._runs.append((index, 1, at))
        self._tiles = count = len(codec.tiles)
        offsets = observer.offsets
        self._hand_at, self._table_at, self._seen_at = offsets["hand"], offsets["table"], offsets["seen"]
        self._ends_at, self._scores_at, self._sizes_at = offsets["ends"], offsets["scores"], offsets["hand_sizes"]
        self._stock_at, self._lacks_at, self._phase_at = offsets["stock"], offsets["lacks"], offsets["phase"]
        self._hand = slice(4 * self._hand_at, 4 * (self._hand_at + count))
        self._seen = slice(4 * self._seen_at, 4 * (self._seen_at + count))
        self._ends = slice(4 * self._ends_at, 4 * (self._ends_at + observer.sizes["ends"]))
        if not self._scores_at + 2 * players == self._sizes_at + players == self._stock_at:
            raise ValueError("the scores, the hand sizes and the stock must lie side by side in the observation")
        self._public = slice(4 * self._scores_at, 4 * (self._stock_at + 1))
        self._width = observer.end_width
        #: "a legal play may go here", in slot 0's row of the ends part
        self._column = self._ends_at + len(observer.halves) + 1
        self._halves = observer.halves
        self._values = len(observer.halves)
        self._scale = observer.score_scale
        #: _relative[o][s]: where seat s sits in seat o's vector (0: o itself, 1: the next seat, ...)
        self._relative = [[(s - o) % players for s in range(players)] for o in range(players)]
        self._zeros = array("f", bytes(4 * observer.size))
        #: every seat's vector, its NumPy view (what ``observe`` copies) and its bytes
        self.buffers = [array("f", self._zeros) for _ in range(players)]
        self._views = [np.frombuffer(buffer, np.float32) for buffer in self.buffers]
        self._bytes = [memoryview(buffer).cast("B") for buffer in self.buffers]
        #: _writes[s]: every seat's vector, its bytes and where seat s's hand size is in it
        self._writes = [[(buffer, data, self._sizes_at + (s - other) % players)
                         for other, (buffer, data) in enumerate(zip(self.buffers, self._bytes, strict=True))]
                        for s in range(players)]
        #: one slot's row of the ends part as bytes, by the key :meth:`_row` makes (built when first needed)
        self._rows: dict[int, bytes] = {}
        #: _tails[n]: the bytes of the ends part after n slots (all zeros)
        self._tails = [bytes(4 * self._width * (codec.slots - n)) for n in range(codec.slots + 1)]
        self._mask = bytearray(codec.size)  #: all zeros between observations
        self._mask_view = np.frombuffer(self._mask, np.int8)
        self.lacks: list[set[int]] = []
        self.owners: list[int] = []  #: the table tiles with an open end, one per slot
        self._slot_rows: list[bytes] = []  #: the ends part's row of each slot
        self._scores: list[int] = []
        #: the legal moves of the position (:meth:`legal`), None until asked for
        self.legal_now: dict[int, int] | None = None
        self._flags: set[int] = set()  #: where the legal moves show in the observation of the seat on turn

    # ------------------------------------------------------------ hands
    def start_hand(self, dice: Dice | None) -> None:
        """Every seat's vector for the hand just dealt (nothing on the table yet)."""
        game = self.game
        hands = game.hands
        count = self._tiles
        scale = self._scale
        self._scores = list(game.scores)
        # scores, hand sizes and the stock lie side by side: seat 0's bytes, turned for the others
        values = [_scaled(score, scale) for score in self._scores]
        for held in hands:
            values.append(held.bit_count() / count)
        values.append(game.stock_left / count)
        cells = array("f", values).tobytes()
        width = 4 * self.players
        scores, sizes, stock = cells[:width], cells[width:2 * width], cells[2 * width:]
        zeros = self._zeros
        hand, seen, public = self._hand, self._seen, self._public
        direct = self._runs == [(0, count, 0)]  # the fast indices are the codec's (the line games)
        cell, size, cut = _CELLS.__getitem__, (count + 7) // 8, 4 * count
        for seat, (buffer, data) in enumerate(zip(self.buffers, self._bytes, strict=True)):
            buffer[:] = zeros
            positions = hands[seat] if direct else self._positions_of(hands[seat])
            data[hand] = data[seen] = b"".join(map(cell, positions.to_bytes(size, "little")))[:cut]
            at = 4 * seat
            data[public] = scores[at:] + scores[:at] + sizes[at:] + sizes[:at] + stock if seat else cells
        if self.lacks:
            for lacks in self.lacks:
                lacks.clear()
        else:
            self.lacks = [set() for _ in hands]
        if dice is not None:
            dice_at = self.observer.offsets["dice"]
            for die, pips in enumerate((*dice.flower, *dice.scorpion)):
                if 1 <= pips <= 6:
                    for buffer in self.buffers:
                        buffer[dice_at + die * 6 + pips - 1] = 1.0
        self.owners = []
        self._slot_rows = []
        self.legal_now = None

    def _positions_of(self, tiles: int) -> int:
        """The fast bit set ``tiles`` as a bit set of the codec's positions."""
        positions = 0
        for first, length, start in self._runs:
            positions |= (tiles >> first & ((1 << length) - 1)) << start
        return positions

    def _write_scores(self) -> None:
        """Write every score that changed into every vector (score ÷ the scale, clipped)."""
        scores = self.game.scores
        known = self._scores
        at = self._scores_at
        for seat, score in enumerate(scores):
            if score != known[seat]:
                known[seat] = score
                value = _scaled(score, self._scale)
                for other, buffer in enumerate(self.buffers):
                    buffer[at + self._relative[other][seat]] = value

    def _write_size(self, seat: int) -> None:
        size = self.game.hands[seat].bit_count() / self._tiles
        for buffer, _, size_at in self._writes[seat]:
            buffer[size_at] = size

    def _write_stock(self) -> None:
        stock = self.game.stock_left / self._tiles
        at = self._stock_at
        for buffer in self.buffers:
            buffer[at] = stock

    def _write_tile(self, seat: int, tile: int, in_hand: float) -> None:
        """Tile ``tile`` comes into (1.0) or leaves (0.0) ``seat``'s hand; it has seen the tile either way."""
        at = self._position[tile]
        buffer = self.buffers[seat]
        buffer[self._hand_at + at] = in_hand
        buffer[self._seen_at + at] = 1.0

    def _write_placed(self, seat: int, tile: int, ends: bytes | None) -> None:
        """``seat`` put ``tile`` on the table, for every seat to see, and the ends part became ``ends``
        (None: the caller writes it)."""
        at = self._position[tile]
        self.buffers[seat][self._hand_at + at] = 0.0
        table_at, seen_at = self._table_at + at, self._seen_at + at
        size = self.game.hands[seat].bit_count() / self._tiles
        where = self._ends
        for buffer, data, size_at in self._writes[seat]:
            buffer[table_at] = buffer[seen_at] = 1.0
            buffer[size_at] = size
            if ends is not None:
                data[where] = ends

    def _copy_ends(self) -> None:
        """Write the ends part (the slots' rows, then zeros) into every vector."""
        rows = self._slot_rows
        ends = b"".join(rows) + self._tails[len(rows)]
        where = self._ends
        for data in self._bytes:
            data[where] = ends

    def _row(self, values: int, exposed: float) -> bytes:
        """The row of a slot whose ends show the halves in the bit set ``values`` (by their index) and
        expose ``exposed`` × 2 halves (``exposed`` at most 1)."""
        key = values << 2 | int(2 * exposed)
        row = self._rows.get(key)
        if row is None:
            cells = array("f", bytes(4 * self._width))
            for index in bits(values):
                cells[index] = 1.0
            cells[self._values] = exposed
            cells[self._values + 2] = 1.0
            row = self._rows[key] = cells.tobytes()
        return row

    def _write_ends(self) -> None:
        """Rebuild :attr:`owners` and the slots' rows from the table and copy the ends part into every vector."""
        raise NotImplementedError

    # ------------------------------------------------------------ legal moves and observations
    def legal(self) -> dict[int, int]:
        """The legal moves of the seat on turn, action number → fast action (kept in :attr:`legal_now`),
        and where they show in its observation."""
        raise NotImplementedError

    def observe(self, seat: int, on_turn: bool) -> dict[str, np.ndarray]:
        """The observation of ``seat``; ``on_turn``: it is the live seat to move, so its legal moves show
        (marked in the copy of its vector, and in the shared mask, which is copied out and cleared again)."""
        if not on_turn:
            vector = self._views[seat].copy()
            self._off_turn(seat, vector)
            return {"observation": vector, "action_mask": self._mask_view.copy()}
        legal = self.legal_now if self.legal_now is not None else self.legal()
        buffer = self.buffers[seat]  # (the flags are 0 in every vector: set for the copy, then cleared)
        flags = self._flags
        for at in flags:
            buffer[at] = 1.0
        vector = self._views[seat].copy()
        for at in flags:
            buffer[at] = 0.0
        mask = self._mask
        for number in legal:
            mask[number] = 1
        action_mask = self._mask_view.copy()
        for number in legal:
            mask[number] = 0
        return {"observation": vector, "action_mask": action_mask}

    def _off_turn(self, seat: int, vector: np.ndarray) -> None:
        """What the observation of a seat that cannot act now shows beyond its vector (nothing)."""

    def mask(self, on_turn: bool) -> np.ndarray:
        """The action mask of the seat on turn (``on_turn``) or of a seat off turn (all zeros)."""
        if not on_turn:
            return self._mask_view.copy()
        mask = self._mask
        legal = self.legal_now if self.legal_now is not None else self.legal()
        for number in legal:
            mask[number] = 1
        action_mask = self._mask_view.copy()
        for number in legal:
            mask[number] = 0
        return action_mask

    # ------------------------------------------------------------ moves
    def apply(self, action: int) -> list[int] | None:
        """Apply the legal fast ``action`` of the seat on turn and bring every vector up to date; the
        scores before it, if it changed any (None: it changed none)."""
        raise NotImplementedError

    def _scored(self) -> list[int] | None:
        """After a move: the scores before it, if it changed any (and every vector brought up to date)."""
        self.legal_now = None
        if self.game.scores == self._scores:
            return None
        before = list(self._scores)
        self._write_scores()
        return before

    def _draw(self, seat: int, action: int, tells: bool) -> None:
        """A draw: ``tells`` whether it shows what the drawer lacks (it could not play)."""
        game = self.game
        if tells:
            self._lacks(seat)
        game.apply(action)
        self._write_tile(seat, game.stock[game.stock_pos - 1], 1.0)
        self._write_size(seat)
        self._write_stock()

    def _lacks(self, seat: int) -> None:
        """``seat`` passes, or draws for want of a play: it lacks the numbers on the ends it had to play on."""
        numbers = self._numbers_showing() - self.lacks[seat]
        if numbers:
            self.lacks[seat] |= numbers
            self._write_lacks(seat, numbers, 1.0)

    def _numbers_showing(self) -> set[int]:
        """The numbers on the open ends a play must join now."""
        raise NotImplementedError

    def _write_lacks(self, seat: int, numbers: set[int], mark: float) -> None:
        """Write ``mark`` for ``numbers`` in ``seat``'s row of every other seat's lacks part."""
        halves = self._halves
        values = self._values
        for other, buffer in enumerate(self.buffers):
            if other != seat:
                row = self._lacks_at + (self._relative[other][seat] - 1) * values
                for number in numbers:
                    buffer[row + halves[number]] = mark


class LineTracker(FastTracker):
    """:class:`FastTracker` of the line games (Block, Draw, All Fives, Bergen, Double Bergen, Flower & Scorpion)."""

    __slots__ = ("_line_base",)

    def __init__(self, observer: Observer, game: FastGame) -> None:
        super().__init__(observer, game)
        codec = self.codec
        if any(index != half for half, index in observer.halves.items()):
            raise ValueError("a line game's halves are its numbers 0 to top, each its own index")
        #: (codec tile * 2 + joining half) * slots of a tile joined to an end showing v: _line_base[tile][v]
        top = max(tile.high for tile in codec.tiles)
        self._line_base = [[0] * (top + 1) for _ in self._position]
        for number, tile in enumerate(codec.tiles):
            for value in tile.halves:
                self._line_base[tile.index][value] = (number * 2 + (0 if value == tile.high else 1)) * codec.slots

    def _write_ends(self) -> None:
        game = self.game
        value, weight, owner = game.value, game.weight, game.owner
        narms = game.narms
        owners = sorted(set(owner[:narms]))  # every arm below narms is open (shows a value)
        count = len(owners)
        numbers = [0] * count
        halves = [0] * count
        for arm in range(narms):
            slot = owners.index(owner[arm])
            numbers[slot] |= 1 << value[arm]  # a line game's number is its half's index
            halves[slot] += weight[arm]
        row = self._row
        self._slot_rows = [row(numbers[slot], 1.0 if halves[slot] > 1 else halves[slot] / 2) for slot in range(count)]
        self.owners = owners
        self._copy_ends()

    def legal(self) -> dict[int, int]:
        game = self.game
        out: dict[int, int] = {}
        flags: set[int] = set()  # (several plays may go to one slot)
        actions = game.legal_actions()
        arms = game.arms
        if not game.placed:
            position = self._position
            lead_base = self.codec.lead_base
            for action in actions:
                out[lead_base + position[action // arms]] = action
            if actions:
                flags.add(self._phase_at)
        else:
            draw = game.draw
            value = game.value
            owner = game.owner
            base = self._line_base
            column = self._column
            at = slot = number = -1
            for action in actions:
                if action < draw:
                    tile, arm = divmod(action, arms)
                    if arm != at:  # the engine lists the plays onto one arm together
                        at, number = arm, value[arm]
                        slot = self.owners.index(owner[arm])
                        flags.add(column + slot * self._width)
                    out[base[tile][number] + slot] = action
                elif action == draw:
                    out[self.codec.draw_action] = action
                    flags.add(self._phase_at + 4)
                else:
                    out[self.codec.pass_action] = action
        self._flags = flags
        self.legal_now = out
        return out

    def apply(self, action: int) -> list[int] | None:
        game = self.game
        seat = game.turn
        draw = game.draw
        if action >= draw:
            if action == draw:
                # a draw that may be voluntary tells nothing, whether or not the drawer could play
                legal = self.legal_now if self.legal_now is not None else self.legal()
                self._draw(seat, action, game.rules.draw_shows_lack() and len(legal) == 1)
            else:
                self._lacks(seat)
                game.apply(action)
            return self._scored()
        # a lead or a play.  Most plays cover the one open end of the tile at an arm's tip: that tile's slot
        # goes and the new tile's comes last (it has the highest table index); any other placement (the lead,
        # a side of the lead, a spinner's end, one that opens a spinner) rebuilds the ends
        tile, arm = divmod(action, game.arms)
        owner = game.owner
        covered = owner[arm]
        narms = game.narms
        game.apply(action)
        if game.placed > 1 and game.narms == narms and covered not in owner[:narms]:
            owners, rows = self.owners, self._slot_rows
            slot = owners.index(covered)
            del owners[slot]
            del rows[slot]
            owners.append(game.placed)
            weight = game.weight[arm]  # the new tile's one arm
            rows.append(self._rows.get((1 << game.value[arm]) << 2 | weight) or self._row(1 << game.value[arm],
                                                                                       weight / 2))
            self._write_placed(seat, tile, b"".join(rows) + self._tails[len(rows)])
        else:
            self._write_placed(seat, tile, None)
            self._write_ends()
        self.legal_now = None
        return None if game.scores == self._scores else self._scored()

    def _numbers_showing(self) -> set[int]:
        game = self.game
        target = game.play_target()
        value, owner = game.value, game.owner
        return {value[arm] for arm in range(game.narms) if value[arm] >= 0 and (not target or owner[arm] == target)}


class PipTracker(FastTracker):
    """:class:`FastTracker` of PIP (gives, forced draws and the direction of play included)."""

    __slots__ = ("_direction", "_double", "_pair_base", "_toes", "pip")

    def __init__(self, observer: Observer, game: FastPip) -> None:
        super().__init__(observer, game)
        self.pip = game
        #: whether each fast tile index is a double
        self._double = [False] * len(self._position)
        for tile in self.codec.tiles:
            self._double[tile.index] = tile.is_double
        self._toes = [False] * (TARGETS + 1)  #: whether table tile k is a double with toes
        self._direction = 1
        #: the number of a play of (2 * tile + which half) onto slot 0: (codec tile * 2 + which) * slots
        self._pair_base = [(self._position[pair >> 1] * 2 + (pair & 1)) * self.codec.slots
                           for pair in range(2 * len(self._position))]

    def start_hand(self, dice: Dice | None) -> None:
        super().start_hand(dice)
        self._write_direction()

    def _write_direction(self) -> None:
        """Whether the direction of play is reversed (public, in every vector)."""
        self._direction = direction = self.pip.direction
        reversed_play = 1.0 if direction < 0 else 0.0
        at = self._phase_at + 3
        for buffer in self.buffers:
            buffer[at] = reversed_play

    def _write_ends(self) -> None:
        self.owners = bits(self.pip.open_mask)
        self._slot_rows = [self._pip_row(k) for k in self.owners]
        self._copy_ends()

    def _pip_row(self, k: int) -> bytes:
        """The row of table tile ``k``'s slot."""
        game = self.pip
        free = game.free[k]
        if k == _HUB:
            exposed = 1.0 if free > _HUB_SIDES else 0.0  # its sides expose halves, its short ends none
        elif self._toes[k]:
            exposed = 1.0 if free > 1 else 0.5
        else:
            exposed = 0.5
        return self._row(1 << self._halves[game.shown[k]], exposed)

    def legal(self) -> dict[int, int]:
        game = self.pip
        codec = self.codec
        position = self._position
        out: dict[int, int] = {}
        flags: set[int] = set()  # (several plays may go to one slot)
        phase = self._phase_at
        draw = game.draw
        give_base = game.give_base
        slot_of = self.owners.index
        column = self._column
        width = self._width
        pair_base = self._pair_base
        placed = game.placed
        joined = slot = -1
        for action in game.legal_actions():
            if action < draw:
                pair, k = divmod(action, TARGETS)
                if not placed:
                    out[codec.lead_base + position[pair >> 1]] = action
                    flags.add(phase)
                    continue
                if k != joined:  # the engine lists the plays onto one tile together
                    joined, slot = k, slot_of(k)
                    flags.add(column + slot * width)
                out[pair_base[pair] + slot] = action
            elif action >= give_base:
                out[codec.give_base + position[action - give_base]] = action
                flags.add(phase + 1)
            elif action == draw:
                out[codec.draw_action] = action
                flags.add(phase + 4)
            else:
                out[codec.pass_action] = action
        if game.forced_draw:
            flags.add(phase + 2)
        self._flags = flags
        self.legal_now = out
        return out

    def _off_turn(self, seat: int, vector: np.ndarray) -> None:
        game = self.pip
        if game.forced_draw and seat == game.turn:  # the seat on turn owes a draw, but the episode is over
            vector[self._phase_at + 2] = 1.0

    def apply(self, action: int) -> list[int] | None:
        game = self.pip
        seat = game.turn
        draw = game.draw
        if action < draw:
            self._place(seat, action)
        elif action == draw:
            self._draw(seat, action, not game.forced_draw)  # PIP draws only for want of a play
        elif action >= game.give_base:
            self._give(seat, action - game.give_base)
        else:
            self._lacks(seat)
            game.apply(action)
        if game.direction != self._direction:
            self._write_direction()
        return self._scored()

    def _place(self, seat: int, action: int) -> None:
        """A lead or a play onto table tile ``k``: among the open ends only ``k`` (a face fewer, maybe none
        left) and the new tile (open unless it shows a closed letter) change."""
        game = self.pip
        pair, k = divmod(action, TARGETS)
        tile = pair >> 1
        game.apply(action)
        new = game.placed
        self._toes[new] = new > 1 and self._double[tile]
        self._write_placed(seat, tile, None)
        if new == 1:
            self._write_ends()
            return
        owners, rows = self.owners, self._slot_rows
        open_mask = game.open_mask
        slot = owners.index(k)
        if open_mask >> k & 1:
            rows[slot] = self._pip_row(k)
        else:
            del owners[slot]
            del rows[slot]
        if open_mask >> new & 1:
            owners.append(new)
            rows.append(self._pip_row(new))
        self._copy_ends()

    def _give(self, seat: int, tile: int) -> None:
        """A give (a ``D`` tile with an empty stock): both seats see the tile; the receiver no longer
        lacks its halves."""
        game = self.pip
        game.apply(game.give_base + tile)
        receiver = next(other for other in range(self.players) if game.hands[other] >> tile & 1)
        self._write_tile(seat, tile, 0.0)
        self._write_tile(receiver, tile, 1.0)
        self._write_size(seat)
        self._write_size(receiver)
        lacked = self.lacks[receiver] & set(self.codec.tiles[self._position[tile]].halves)
        if lacked:
            self.lacks[receiver] -= lacked
            self._write_lacks(receiver, lacked, 0.0)

    def _numbers_showing(self) -> set[int]:
        game = self.pip
        target = game.play_target()
        shown = game.shown
        return {shown[k] for k in ([target] if target else bits(game.open_mask)) if is_number(shown[k])}


def tracker_for(observer: Observer, game: FastGame) -> FastTracker:
    """The tracker of ``game``: :class:`PipTracker` for PIP, :class:`LineTracker` otherwise."""
    if isinstance(game, FastPip):
        return PipTracker(observer, game)
    return LineTracker(observer, game)
