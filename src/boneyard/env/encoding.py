"""Fixed integer actions and flat observations for one variant and option set.

**Actions.**  A play in Boneyard is ``(tile, joining half, target tile k)``, and ``k`` grows
without bound, so the action space numbers *end slots* instead of tiles: slot ``j`` is the
``j``-th distinct tile that has an open end, in the layout's fixed order of open ends
(:meth:`~boneyard.layout.Layout.open_ends`).  A layout never has more free faces than
``4 + 2 × (doubles in the set)`` — the lead offers at most four, a non-double takes one face and
offers one, a double takes one and offers at most three — so that many slots always suffice.
With ``T`` tiles in the set (in :meth:`~boneyard.rules.base.Rules.tile_set` order) and ``E``
slots, the actions are::

    (t · 2 + h) · E + j   play tile t joined by its high (h=0) or low (h=1) half to slot j
    2·T·E + t             lead tile t
    2·T·E + T + t         give tile t to the next player (PIP's D tile with an empty stock)
    2·T·E + 2·T           draw
    2·T·E + 2·T + 1       pass

A double is always joined by its high half (``h=0``).  The observation shows what each slot
holds, so the agent can tell the slots apart.

**Observations.**  One ``float32`` vector built from a :class:`~boneyard.view.SeatView` (what the
seat may see) plus the public facts the environment tracks; seats are listed relative to the
observer (0 = itself, 1 = the next seat, …).  In order (``V`` = the halves of the set):

* ``hand[T]``, ``table[T]``, ``seen[T]`` (own hand, table, tiles it gave or was given);
* ``ends[E, V + 3]``: per slot, the values of its open faces (multi-hot), its exposed halves ÷ 2,
  whether a legal play may go there now, whether the slot exists;
* ``scores[P]`` ÷ the target (or 100), clipped to ±10; ``hand sizes[P]`` ÷ T; ``stock`` ÷ T;
* ``lacks[P - 1, V]``: numbers each other seat showed it lacked (it drew or passed while they
  were open; a later draw may have filled them);
* ``phase[5]``: lead now, give owed, forced draw, play direction reversed, may draw;
* ``dice[24]``: Flower & Scorpion's four dice, one-hot 1-6 each (zeros elsewhere).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boneyard.errors import IllegalMoveError
from boneyard.layout import Layout
from boneyard.moves import Kind, Move
from boneyard.rules.base import Rules
from boneyard.tiles import Tile, is_number
from boneyard.view import SeatView

PHASES = 5
SCORE_BOUND = 10.0  #: scores ÷ target are clipped to ±10 (a bound Gymnasium can check)
DICE = 24


def action_number(action: object, agent: str) -> int:
    """``action`` as the action number it is: an ``int``, a NumPy integer, or a NumPy integer array holding one
    number (``np.array(3)``, ``np.array([3])``: some training libraries hand actions over so).  Anything else is
    refused, not rounded: ``3.7``, ``True``, ``"3"``, an array of floats or of several numbers.

    >>> action_number(np.int64(3), "player_0")
    3
    >>> action_number(3.7, "player_0")
    Traceback (most recent call last):
    ...
    boneyard.errors.IllegalMoveError: action 3.7 for player_0: an action is a whole number (int), not a float
    """
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1 and np.issubdtype(action.dtype, np.integer):
        return int(action.reshape(()))
    kind = f"an array of shape {action.shape} and type {action.dtype}" if isinstance(action, np.ndarray) \
        else f"a {type(action).__name__}"
    raise IllegalMoveError(f"action {action!r} for {agent}: an action is a whole number (int), not {kind}")


def slot_owners(layout: Layout) -> list[int]:
    """The tiles with an open end, one per slot, in the layout's order."""
    owners: list[int] = []
    for face in layout.open_ends():
        if face.owner not in owners:
            owners.append(face.owner)
    return owners


class ActionCodec:
    """Numbers the moves of one variant and option set (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        self.tiles: tuple[Tile, ...] = tuple(rules.tile_set())
        self.position = {tile: index for index, tile in enumerate(self.tiles)}
        self.slots = 4 + 2 * sum(tile.is_double for tile in self.tiles)
        count = len(self.tiles)
        self.lead_base = 2 * count * self.slots
        self.give_base = self.lead_base + count
        self.draw_action = self.give_base + count
        self.pass_action = self.draw_action + 1
        self.size = self.pass_action + 1

    def encode(self, move: Move, owners: Sequence[int]) -> int:
        """The action number of a legal ``move`` (``owners`` from :func:`slot_owners`)."""
        if move.kind == Kind.DRAW:
            return self.draw_action
        if move.kind == Kind.PASS:
            return self.pass_action
        assert move.tile is not None
        tile = self.position[move.tile]
        if move.kind == Kind.LEAD:
            return self.lead_base + tile
        if move.kind == Kind.GIVE:
            return self.give_base + tile
        half = 0 if move.half == move.tile.high else 1
        return (tile * 2 + half) * self.slots + owners.index(move.target)

    def _check(self, action: int) -> None:
        if not 0 <= action < self.size:
            raise IllegalMoveError(f"action {action} is outside the action space (0-{self.size - 1})")

    def decode(self, action: int, owners: Sequence[int]) -> Move:
        """The move an action number stands for (it may still be illegal)."""
        self._check(action)
        if action == self.draw_action:
            return Move.draw()
        if action == self.pass_action:
            return Move.passing()
        if action >= self.give_base:
            return Move.give(self.tiles[action - self.give_base])
        if action >= self.lead_base:
            return Move.lead(self.tiles[action - self.lead_base])
        pair, slot = divmod(action, self.slots)
        index, half = divmod(pair, 2)
        tile = self.tiles[index]
        if slot >= len(owners):
            raise IllegalMoveError(f"action {action} ({tile} to end slot {slot}): only {len(owners)} slots are open")
        return Move.play(tile, tile.high if half == 0 else tile.low, owners[slot])

    def describe(self, action: int) -> str:
        """The action in words, independent of any position (``play 6-4 by 4 on slot 2``)."""
        self._check(action)
        if action == self.draw_action:
            return "draw"
        if action == self.pass_action:
            return "pass"
        if action >= self.give_base:
            return f"give {self.tiles[action - self.give_base]}"
        if action >= self.lead_base:
            return f"lead {self.tiles[action - self.lead_base]}"
        pair, slot = divmod(action, self.slots)
        index, half = divmod(pair, 2)
        tile = self.tiles[index]
        return f"play {tile} by its {'high' if half == 0 else 'low'} half on slot {slot}"

    def mask(self, moves: Sequence[Move], owners: Sequence[int]) -> np.ndarray:
        """A 0/1 ``int8`` vector with a 1 for every legal move."""
        mask = np.zeros(self.size, dtype=np.int8)
        for move in moves:
            mask[self.encode(move, owners)] = 1
        return mask


class Observer:
    """Builds the flat observation vector of one seat (see the module docstring)."""

    def __init__(self, rules: Rules, codec: ActionCodec) -> None:
        self.codec = codec
        self.players = rules.players
        halves = sorted({half for tile in codec.tiles for half in tile.halves})
        self.halves = {half: index for index, half in enumerate(halves)}
        count = len(codec.tiles)
        target = getattr(rules, "target", None)
        self.score_scale = float(target) if isinstance(target, int) and target > 0 else 100.0
        values = len(halves)
        self.end_width = values + 3
        self.sizes = {
            "hand": count, "table": count, "seen": count, "ends": codec.slots * self.end_width,
            "scores": self.players, "hand_sizes": self.players, "stock": 1,
            "lacks": (self.players - 1) * values, "phase": PHASES, "dice": DICE,
        }
        self.offsets: dict[str, int] = {}
        position = 0
        for name, size in self.sizes.items():
            self.offsets[name] = position
            position += size
        self.size = position
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.ones(self.size, dtype=np.float32)
        scores = slice(self.offsets["scores"], self.offsets["scores"] + self.players)
        self.low[scores] = -SCORE_BOUND
        self.high[scores] = SCORE_BOUND

    def part(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The named section of an observation vector (a view)."""
        if name not in self.offsets:
            raise KeyError(f"no observation part {name!r}; the parts are {', '.join(self.offsets)}")
        start = self.offsets[name]
        return vector[start:start + self.sizes[name]]

    def observe(self, view: SeatView, seen: set[Tile], lacks: Sequence[set[int]],
                moves: Sequence[Move], forced_draw: bool = False) -> np.ndarray:
        """The observation of ``view``'s seat; ``moves`` are its legal moves (empty off turn),
        ``forced_draw`` whether its draw is one a D tile forced on it (public)."""
        codec = self.codec
        vector = np.zeros(self.size, dtype=np.float32)
        layout = view.layout
        position = codec.position
        hand = self.part(vector, "hand")
        for tile in view.hand:
            hand[position[tile]] = 1
        table = self.part(vector, "table")
        for placed in layout.tiles:
            table[position[placed.tile]] = 1
        seen_part = self.part(vector, "seen")
        for tile in seen:
            seen_part[position[tile]] = 1
        seen_part[hand > 0] = 1
        seen_part[table > 0] = 1
        owners = slot_owners(layout)
        slot_of = {owner: slot for slot, owner in enumerate(owners)}
        ends = self.part(vector, "ends").reshape(codec.slots, self.end_width)
        values = len(self.halves)
        for face in layout.open_ends():
            row = ends[slot_of[face.owner]]
            row[self.halves[face.value]] = 1
            row[values] = min(1.0, row[values] + layout.exposed(face) / 2)
            row[values + 2] = 1
        for move in moves:
            if move.kind == Kind.PLAY:
                ends[slot_of[move.target], values + 1] = 1
        seat, players = view.seat, self.players
        scores = view.scores
        sizes = view.hand_sizes
        score_part = self.part(vector, "scores")
        size_part = self.part(vector, "hand_sizes")
        for offset in range(players):
            other = (seat + offset) % players
            score_part[offset] = min(SCORE_BOUND, max(-SCORE_BOUND, scores[other] / self.score_scale))
            size_part[offset] = sizes[other] / len(codec.tiles)
        self.part(vector, "stock")[0] = view.stock_count / len(codec.tiles)
        lack_part = self.part(vector, "lacks").reshape(max(0, players - 1), values)
        for offset in range(1, players):
            for value in lacks[(seat + offset) % players]:
                if value in self.halves:
                    lack_part[offset - 1, self.halves[value]] = 1
        phase = self.part(vector, "phase")
        kinds = {move.kind for move in moves}
        phase[0] = Kind.LEAD in kinds
        phase[1] = Kind.GIVE in kinds
        phase[2] = forced_draw
        phase[3] = view.direction < 0
        phase[4] = Kind.DRAW in kinds
        dice = view.dice
        if dice is not None:
            dice_part = self.part(vector, "dice")
            for die, pips in enumerate((*dice.flower, *dice.scorpion)):
                if 1 <= pips <= 6:
                    dice_part[die * 6 + pips - 1] = 1
        return vector


def number_values(values: Sequence[int]) -> set[int]:
    """The pip numbers among end values (a wild or letter end tells nothing about a hand)."""
    return {value for value in values if is_number(value)}
