"""The table: placed tiles, their faces and the open ends.

The layout is a tree.  Tile ``k`` (1-based, the lead is 1) has *faces*, the places where a
tile can join it, in a fixed order.  What a double offers depends on its :class:`Role`,
which the variant chooses when the double is placed:

* ``CROSS``: a crosswise double, two long sides (one taken by its parent unless it leads);
* ``SPINNER``: two sides, then two short ends (the ends open once both sides are taken when
  the layout is *sides first*);
* ``HUB``: PIP's starter, a spinner that is always sides first;
* ``TOES``: a PIP double, three toes.

The layout knows nothing of scoring.  It does say how many halves an open end exposes
(RULES.md C4): one for a line tip, two for a double at an arm tip, one for each long side of
a lone double, none for a spinner's short end before an arm grows there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from boneyard.errors import IllegalMoveError
from boneyard.tiles import LETTERS, Tile, W, half_text, is_number


class Role(IntEnum):
    LINE = 0
    CROSS = 1
    SPINNER = 2
    HUB = 3
    TOES = 4


class FaceKind(IntEnum):
    LEFT = 0
    RIGHT = 1
    OUT = 2
    SIDE = 3
    END = 4
    TOE = 5


@dataclass(slots=True)
class Face:
    """A place on tile ``owner`` where another tile can join.  ``child`` is 0 while free."""

    owner: int
    slot: int
    kind: FaceKind
    value: int
    child: int = 0

    def __str__(self) -> str:
        return f"{half_text(self.value)} on tile {self.owner}"


@dataclass(slots=True)
class Placed:
    """One tile on the table."""

    index: int
    tile: Tile
    role: Role
    join: int  #: the half that joined the parent (for the lead: the left half)
    value: int  #: the number this tile shows: its outer half, or a double's number
    parent: int  #: index of the tile it joined, 0 for the lead
    parent_slot: int
    faces: list[Face] = field(default_factory=list)

    @property
    def is_double(self) -> bool:
        return self.role != Role.LINE

    def occupied_sides(self) -> int:
        taken = 1 if self.parent else 0
        for face in self.faces:  # a plain loop: this runs for every open-end query
            if face.child and face.kind == FaceKind.SIDE:
                taken += 1
        return taken


_DOUBLE_FACES = {
    Role.CROSS: (FaceKind.SIDE, FaceKind.SIDE),
    Role.SPINNER: (FaceKind.SIDE, FaceKind.SIDE, FaceKind.END, FaceKind.END),
    Role.HUB: (FaceKind.SIDE, FaceKind.SIDE, FaceKind.END, FaceKind.END),
    Role.TOES: (FaceKind.TOE, FaceKind.TOE, FaceKind.TOE),
}


class Layout:
    """The tiles on the table, with undo by :meth:`pop`."""

    __slots__ = ("_free", "letter_ends_open", "sides_first", "spinners", "tiles")

    def __init__(self, *, sides_first: bool = True, letter_ends_open: bool = False) -> None:
        self.tiles: list[Placed] = []
        self._free: list[Face] = []
        self.sides_first = sides_first
        self.letter_ends_open = letter_ends_open
        self.spinners = 0

    def __len__(self) -> int:
        return len(self.tiles)

    def __getitem__(self, index: int) -> Placed:
        """Tile ``index`` (1-based, as in move notation)."""
        if not 1 <= index <= len(self.tiles):
            raise IndexError(f"there is no tile {index} on the table ({len(self.tiles)} placed)")
        return self.tiles[index - 1]

    def copy(self) -> Layout:
        twin = Layout(sides_first=self.sides_first, letter_ends_open=self.letter_ends_open)
        for placed in self.tiles:
            faces = [Face(f.owner, f.slot, f.kind, f.value, f.child) for f in placed.faces]
            twin.tiles.append(
                Placed(placed.index, placed.tile, placed.role, placed.join, placed.value,
                       placed.parent, placed.parent_slot, faces)
            )
        twin._free = [twin.tiles[f.owner - 1].faces[f.slot] for f in self._free]
        twin.spinners = self.spinners
        return twin

    # ----------------------------------------------------------------- queries
    def is_open(self, face: Face) -> bool:
        """Whether ``face`` (a free face) may take a tile now."""
        if face.value in LETTERS and not self.letter_ends_open:
            return False
        if face.kind == FaceKind.END:
            owner = self.tiles[face.owner - 1]
            if (self.sides_first or owner.role == Role.HUB) and owner.occupied_sides() < 2:
                return False
        return True

    def open_ends(self) -> list[Face]:
        """Free faces that may take a tile now, in the layout's fixed order."""
        return [face for face in self._free if self.is_open(face)]

    def free_faces(self) -> list[Face]:
        """Every free face, open or not yet open, in fixed order."""
        return list(self._free)

    @staticmethod
    def accepts(value: int, half: int) -> bool:
        """Whether ``half`` may join an end showing ``value`` (letters never join)."""
        if half in LETTERS:
            return False
        if half == W or value == W or value in LETTERS:
            return True
        return half == value

    def face_for(self, index: int, half: int) -> Face | None:
        """The first open face of tile ``index`` that ``half`` may join."""
        for face in self.tiles[index - 1].faces:
            if not face.child and self.accepts(face.value, half) and self.is_open(face):
                return face
        return None

    def exposed(self, face: Face) -> int:
        """How many halves an open end exposes for counting (RULES.md C4, A5-7)."""
        owner = self.tiles[face.owner - 1]
        if face.kind in (FaceKind.OUT, FaceKind.LEFT, FaceKind.RIGHT, FaceKind.TOE):
            return 1
        if face.kind == FaceKind.END:
            return 0
        return 1 if owner.occupied_sides() == 0 else 2

    def end_values(self) -> list[tuple[int, int]]:
        """``(value, exposed halves)`` for each open end."""
        return [(face.value, self.exposed(face)) for face in self.open_ends()]

    # ----------------------------------------------------------------- changes
    def place_lead(self, tile: Tile, left: int, role: Role, value: int | None = None) -> Placed:
        """Put the first tile down.  ``left`` is the half on the left for a non-double."""
        if self.tiles:
            raise IllegalMoveError(f"the lead is already on the table ({self.tiles[0].tile})")
        if tile.is_double:
            number = tile.high if value is None else value
            placed = Placed(1, tile, role, number, number, 0, 0)
            placed.faces = [Face(1, slot, kind, number) for slot, kind in enumerate(_DOUBLE_FACES[role])]
        else:
            right = tile.other_half(left)
            placed = Placed(1, tile, Role.LINE, left, right, 0, 0)
            placed.faces = [Face(1, 0, FaceKind.LEFT, left), Face(1, 1, FaceKind.RIGHT, right)]
        self.tiles.append(placed)
        self._free = list(placed.faces)
        self.spinners += role in (Role.SPINNER, Role.HUB)
        return placed

    def place(self, tile: Tile, join: int, index: int, role: Role) -> Placed:
        """Join ``tile`` by its ``join`` half to tile ``index``; returns the new tile."""
        if not 1 <= index <= len(self.tiles):
            raise IllegalMoveError(f"there is no tile {index} on the table")
        face = self.face_for(index, join)
        if face is None:
            raise IllegalMoveError(f"tile {index} has no open {half_text(join)} end")
        new_index = len(self.tiles) + 1
        if tile.is_double:
            number = face.value if join == W and is_number(face.value) else tile.high
            placed = Placed(new_index, tile, role, join, number, index, face.slot)
            kinds = _DOUBLE_FACES[role]
            if role != Role.TOES:
                kinds = kinds[1:]  # the parent takes one long side
            placed.faces = [Face(new_index, slot, kind, number) for slot, kind in enumerate(kinds)]
        else:
            out = tile.other_half(join)
            placed = Placed(new_index, tile, Role.LINE, join, out, index, face.slot)
            placed.faces = [Face(new_index, 0, FaceKind.OUT, out)]
        face.child = new_index
        self.tiles.append(placed)
        position = self._free.index(face)
        self._free[position:position + 1] = []
        self._free.extend(placed.faces)
        self.spinners += role in (Role.SPINNER, Role.HUB)
        return placed

    def pop(self) -> Placed:
        """Take the last tile back off the table (undo)."""
        placed = self.tiles.pop()
        self.spinners -= placed.role in (Role.SPINNER, Role.HUB)
        del self._free[len(self._free) - len(placed.faces):]
        if placed.parent:
            face = self.tiles[placed.parent - 1].faces[placed.parent_slot]
            face.child = 0
            key = (face.owner, face.slot)
            position = 0
            while position < len(self._free) and (self._free[position].owner, self._free[position].slot) < key:
                position += 1
            self._free.insert(position, face)
        else:
            self._free = []
        return placed
