"""Where every tile on the table goes: layout geometry in table units, for any renderer.

A pure function of a :class:`~boneyard.layout.Layout`.  A tile's short side is 1 unit and its
long side 2.  The lead sits at the origin; the main line runs left and right from it, a
spinner's or hub's short ends grow arms up and down, and a PIP double's three toes go straight
on and out to both sides.  Line tiles lie lengthwise along their arm, doubles crosswise.  An arm
that would leave the table (``width`` × ``height`` around the origin) or run into another tile
turns a corner, clockwise first, or bends across the tip of the tile it joins, so long games
stay on the table.  Of the places that touch the end, the first that leaves room for a few more
tiles from every end of the new tile wins (all three toes of a PIP double, each with its own way
out); when every touching place is taken, the tile goes to the nearest free place beyond the end,
leaving a gap.  Tiles never overlap.

Tiles are placed in the order they were played and a tile's place depends only on the tiles
before it, so a new tile never moves an old one (the browser can animate just the newcomer),
:func:`extend_geometry` places only the tiles an earlier geometry lacks (a move costs one tile),
and :func:`hotspots` shows exactly where a selected tile would land for each legal move.

Rotation convention, shared by :mod:`boneyard.render.svg` and the browser: unrotated, a tile
is 2 wide and 1 high with ``halves[0]`` on the left; it is turned ``rotation`` degrees
clockwise (screen coordinates, y grows downwards) about its centre ``(x, y)``.

>>> from boneyard import new_game
>>> game = new_game("block", seed=1)
>>> event = game.apply(game.legal_moves()[0])
>>> layout_geometry(game.layout).tiles[0].x
0.0
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from boneyard.layout import FaceKind, Layout, Placed, Role
from boneyard.moves import Kind, Move
from boneyard.tiles import Tile, half_text

Vec = tuple[float, float]
Box = tuple[float, float, float, float]  #: min x, min y, max x, max y
Placement = tuple[Tile, Role, int, int, int]  #: what fixes a placed tile's place: tile, role, join, parent, slot

TABLE_WIDTH: Final = 30.0
TABLE_HEIGHT: Final = 20.0
MIN_VIEW: Final = (12.0, 8.0)  #: the smallest area shown, so a lone lead is not drawn huge
PAD: Final = 1.0

EAST: Final[Vec] = (1.0, 0.0)
SOUTH: Final[Vec] = (0.0, 1.0)
WEST: Final[Vec] = (-1.0, 0.0)
NORTH: Final[Vec] = (0.0, -1.0)

#: Pip centres inside one half (a unit square, origin at its top-left), for 0-12 pips.
PIP_POSITIONS: Final[dict[int, tuple[Vec, ...]]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
    7: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.5, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
    8: ((0.25, 0.25), (0.5, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5),
        (0.25, 0.75), (0.5, 0.75), (0.75, 0.75)),
    9: tuple((x, y) for y in (0.25, 0.5, 0.75) for x in (0.25, 0.5, 0.75)),
    10: (*((x, y) for x in (0.22, 0.78) for y in (0.2, 0.4, 0.6, 0.8)), (0.5, 0.35), (0.5, 0.65)),
    11: (*((x, y) for x in (0.22, 0.78) for y in (0.2, 0.4, 0.6, 0.8)), (0.5, 0.25), (0.5, 0.5), (0.5, 0.75)),
    12: tuple((x, y) for x in (0.22, 0.5, 0.78) for y in (0.2, 0.4, 0.6, 0.8)),
}
PIP_RADIUS: Final = 0.085  #: in table units


def _add(a: Vec, b: Vec, k: float = 1.0) -> Vec:
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def clockwise(d: Vec) -> Vec:
    return (-d[1], d[0])


def counter_clockwise(d: Vec) -> Vec:
    return (d[1], -d[0])


def _angle(d: Vec) -> int:
    return {EAST: 0, SOUTH: 90, WEST: 180, NORTH: 270}[(float(d[0]) + 0.0, float(d[1]) + 0.0)]


@dataclass(frozen=True, slots=True)
class TileBox:
    """One placed tile: centre, rotation and what to draw on its two halves."""

    index: int  #: as in move notation (1 = the lead); 0 for a hotspot's ghost tile
    tile: str
    halves: tuple[str, str]  #: left and right half before rotation
    x: float
    y: float
    rotation: int  #: 0, 90, 180 or 270 degrees clockwise
    role: str  #: line, cross, spinner, hub or toes

    @property
    def horizontal(self) -> bool:
        return self.rotation % 180 == 0

    @property
    def box(self) -> Box:
        half_w, half_h = (1.0, 0.5) if self.horizontal else (0.5, 1.0)
        return (self.x - half_w, self.y - half_h, self.x + half_w, self.y + half_h)

    def as_json(self) -> dict[str, Any]:
        return {"index": self.index, "tile": self.tile, "halves": list(self.halves), "x": self.x, "y": self.y,
                "rotation": self.rotation, "role": self.role}


@dataclass(frozen=True, slots=True)
class End:
    """Where a child of a face goes: the point its near edge touches and its direction, and
    the corners an arm may turn there instead (clockwise first)."""

    anchor: Vec
    direction: Vec
    turns: tuple[tuple[Vec, Vec], ...] = ()

    @classmethod
    def of_line(cls, anchor: Vec, direction: Vec) -> End:
        """The outer end of a line tile: a turned tile sits beside its outer half."""
        outer = _add(anchor, direction, -0.5)
        return cls(anchor, direction, tuple((_add(outer, turn, 0.5), turn)
                                            for turn in (clockwise(direction), counter_clockwise(direction))))

    @classmethod
    def of_cross(cls, centre: Vec, direction: Vec) -> End:
        """The free side of a crosswise double in an arm: a turned tile leaves from its tip."""
        turns = (clockwise(direction), counter_clockwise(direction))
        return cls(_add(centre, direction, 0.5), direction, tuple((_add(centre, turn, 1.0), turn) for turn in turns))


@dataclass(frozen=True, slots=True)
class Hotspot:
    """An open end where ``tile`` fits: the ghost of the tile placed there, and the moves."""

    tile: str
    target: int  #: the tile joined (0 for a lead)
    slot: int  #: the face of ``target``
    value: str  #: the number the end shows
    ghost: TileBox
    moves: tuple[str, ...]  #: move notation; more than one when the tile can join either way

    def as_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "target": self.target, "slot": self.slot, "value": self.value,
                "x": self.ghost.x, "y": self.ghost.y, "rotation": self.ghost.rotation,
                "ghost": self.ghost.as_json(), "moves": list(self.moves)}


@dataclass(frozen=True, slots=True)
class Geometry:
    """The whole table: tiles in play order, their bounds and the area to show."""

    tiles: tuple[TileBox, ...]
    width: float
    height: float
    ends: dict[tuple[int, int], End] = field(default_factory=dict, compare=False, repr=False)
    #: what fixed each tile's place, for :func:`extend_geometry`
    placements: tuple[Placement, ...] = field(default=(), compare=False, repr=False)
    boxes: tuple[Box, ...] = field(default=(), compare=False, repr=False)  #: each tile's box (found when not given)
    #: what is derived from this geometry once and asked for again (its extent, its tiles' JSON,
    #: the ghosts of :func:`hotspots`): every web message of one move shares them
    _memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.boxes) != len(self.tiles):
            object.__setattr__(self, "boxes", tuple(tile.box for tile in self.tiles))

    @property
    def bounds(self) -> Box:
        if not self.tiles:
            return (0.0, 0.0, 0.0, 0.0)
        return self._extent()

    def _extent(self) -> Box:
        extent: Box | None = self._memo.get("extent")
        if extent is None:
            boxes = self.boxes
            extent = self._memo["extent"] = (min(b[0] for b in boxes), min(b[1] for b in boxes),
                                             max(b[2] for b in boxes), max(b[3] for b in boxes))
        return extent

    def view(self, extra: Iterable[TileBox] = ()) -> Box:
        """``(x, y, width, height)`` to show: the tiles (and ``extra`` ghosts) with a margin,
        never smaller than :data:`MIN_VIEW` (so a lone lead is not drawn huge)."""
        boxes = [tile.box for tile in extra]
        if self.tiles:
            boxes.append(self._extent())
        if not boxes:
            boxes.append((0.0, 0.0, 0.0, 0.0))
        low_x, low_y = min(b[0] for b in boxes) - PAD, min(b[1] for b in boxes) - PAD
        high_x, high_y = max(b[2] for b in boxes) + PAD, max(b[3] for b in boxes) + PAD
        width, height = max(high_x - low_x, MIN_VIEW[0]), max(high_y - low_y, MIN_VIEW[1])
        centre_x, centre_y = (low_x + high_x) / 2, (low_y + high_y) / 2
        return (centre_x - width / 2, centre_y - height / 2, width, height)

    def as_json(self, extra: Iterable[TileBox] = ()) -> dict[str, Any]:
        tiles: list[dict[str, Any]] | None = self._memo.get("tiles")
        if tiles is None:
            tiles = self._memo["tiles"] = [tile.as_json() for tile in self.tiles]
        return {"tiles": list(tiles), "table": [self.width, self.height], "view": list(self.view(extra))}

    def ghost(self, end: tuple[int, int], tile: Tile, halves: tuple[str, str], role: str) -> TileBox:
        """Where ``tile`` (shown as ``halves``) lands on the end ``(owner, slot)``, as a ghost (index
        0).  A ghost's place depends on the end and on whether the tile is a double, not on its
        numbers, so tiles of one kind on one end share one search."""
        shape, _ = self._child(0, tile, halves, end, tile.is_double, role)
        return shape

    def _child(self, index: int, tile: Tile, halves: tuple[str, str], end: tuple[int, int], double: bool,
               role: str) -> tuple[TileBox, Vec]:
        """:func:`_place_child` on this table, remembered by what decides the place: the end, whether
        the tile lies crosswise, its role (so a move's tile lands where its ghost was found)."""
        key = ("child", end, double, role)
        found: tuple[TileBox, Vec] | None = self._memo.get(key)
        if found is None:
            found = self._memo[key] = _place_child(index, tile, halves, self.ends[end], double, role,
                                                   list(self.boxes), self.width, self.height)
        shape, direction = found
        return TileBox(index, str(tile), halves, shape.x, shape.y, shape.rotation, role), direction


def _overlaps(box: Box, boxes: Iterable[Box]) -> bool:
    eps = 1e-6
    return any(box[0] < b[2] - eps and b[0] < box[2] - eps and box[1] < b[3] - eps and b[1] < box[3] - eps
               for b in boxes)


def _inside(box: Box, width: float, height: float) -> bool:
    return box[0] >= -width / 2 and box[2] <= width / 2 and box[1] >= -height / 2 and box[3] <= height / 2


def _shape(index: int, tile: Tile | str, halves: tuple[str, str], anchor: Vec, direction: Vec, double: bool,
           role: str) -> TileBox:
    if double:
        centre = _add(anchor, direction, 0.5)
        rotation = (_angle(direction) + 90) % 360
    else:
        centre = _add(anchor, direction, 1.0)
        rotation = _angle(direction)
    return TileBox(index, str(tile), halves, round(centre[0], 3) + 0.0, round(centre[1], 3) + 0.0, rotation, role)


def _free(box: Box, boxes: list[Box], width: float, height: float) -> tuple[bool, bool]:
    """(does not overlap, is inside the table)."""
    return not _overlaps(box, boxes), _inside(box, width, height)


def _options(end: End, double: bool) -> list[tuple[Vec, Vec]]:
    """Where a tile may join ``end``, touching it, in order of preference: straight on, round the
    corners (clockwise first), then (a line tile) bent across the tip, clockwise first."""
    options = [(end.anchor, end.direction), *end.turns]
    if not double:
        for turn in (clockwise(end.direction), counter_clockwise(end.direction)):
            options.append((_add(_add(end.anchor, end.direction, 0.5), turn, -0.5), turn))
    return options


LOOK_AHEAD: Final = 3  #: line tiles that must still fit after a tile for its place to count as open


def _follow_ends(shape: TileBox, direction: Vec) -> list[End]:
    """The ends a tile just placed offers to the tiles after it (all three toes of a PIP double)."""
    centre = (shape.x, shape.y)
    if shape.role == "line":
        return [End.of_line(_add(centre, direction), direction)]
    ends = [End.of_cross(centre, direction)]
    if shape.role == "toes":
        ends += [End.of_line(_add(centre, turn, 1.0), turn)
                 for turn in (counter_clockwise(direction), clockwise(direction))]
    return ends


def _room(shape: TileBox, direction: Vec, boxes: list[Box], width: float, height: float,
          depth: int = LOOK_AHEAD, on_table: bool = True) -> int:
    """How many line tiles (up to ``depth``) could still follow ``shape`` from each of its ends
    without overlapping, summed over the ends: a look-ahead, so arms and toes do not walk into
    dead ends when another way is open."""
    if depth == 0:
        return 0
    taken = [*boxes, shape.box]
    total = 0
    for end in _follow_ends(shape, direction):  # (a toe's way out must not be another toe's)
        best, way = 0, None
        for anchor, heading in _options(end, False):
            follower = _shape(0, "", ("", ""), anchor, heading, False, "line")
            clear, inside = _free(follower.box, taken, width, height)
            if clear and (inside or not on_table):
                reach = 1 + _room(follower, heading, taken, width, height, depth - 1, on_table)
                if reach > best:
                    best, way = reach, follower.box
                if best == depth:
                    break
        total += best
        if way is not None:
            taken.append(way)
    return total


def _overflow(box: Box, width: float, height: float) -> float:
    """How far ``box`` reaches past the table's edges (0 inside)."""
    return max(-width / 2 - box[0], box[2] - width / 2, -height / 2 - box[1], box[3] - height / 2, 0.0)


#: How far (in half units, each way) the last-resort search looks for a free place on the table
#: before it settles for the nearest free place off it.
SEARCH_RADIUS: Final = 40


def _place_child(index: int, tile: Tile, halves: tuple[str, str], end: End, double: bool, role: str,
                 boxes: list[Box], width: float, height: float) -> tuple[TileBox, Vec]:
    """The tile's box and the direction its arm goes on.

    Touching the end (:func:`_options`): the first free place on the table that leaves room for
    :data:`LOOK_AHEAD` more tiles from each of the tile's ends, else the free place that leaves
    the most room (then the least overflow, then the first).  When every touching place is
    taken, the tile goes to the nearest free place beyond the end: a gap rather than an overlap.
    """
    found: list[tuple[tuple[int, int, float, int], TileBox, Vec]] = []
    for rank, (anchor, direction) in enumerate(_options(end, double)):
        shape = _shape(index, tile, halves, anchor, direction, double, role)
        clear, inside = _free(shape.box, boxes, width, height)
        if not clear:
            continue
        full = LOOK_AHEAD * len(_follow_ends(shape, direction))
        room = _room(shape, direction, boxes, width, height) if inside else 0
        if room == full:
            return shape, direction
        room_off = _room(shape, direction, boxes, width, height, on_table=False)
        found.append(((-room_off, -room, _overflow(shape.box, width, height), rank), shape, direction))
    if found:
        _, shape, direction = min(found, key=lambda item: item[0])
        return shape, direction
    direction = end.direction
    straight = _shape(index, tile, halves, end.anchor, direction, double, role)
    outside: TileBox | None = None
    for ring in itertools.count(1):  # ends: the boxes are finite, so some ring is clear
        steps = [(dx, dy) for dx in range(-ring, ring + 1) for dy in range(-ring, ring + 1)
                 if max(abs(dx), abs(dy)) == ring]
        # nearest first; ties: further along the arm first, then clockwise of it
        steps.sort(key=lambda d: (d[0] ** 2 + d[1] ** 2, -(d[0] * direction[0] + d[1] * direction[1]),
                                  -(d[0] * -direction[1] + d[1] * direction[0])))
        for dx, dy in steps:
            shape = TileBox(index, straight.tile, halves, straight.x + dx / 2 + 0.0, straight.y + dy / 2 + 0.0,
                            straight.rotation, role)
            clear, inside = _free(shape.box, boxes, width, height)
            if clear and inside:
                return shape, direction
            if clear and outside is None:
                outside = shape
        if outside is not None and ring >= SEARCH_RADIUS:
            return outside, direction
    raise AssertionError("unreachable")  # pragma: no cover


def _ends_of(shape: TileBox, faces: list[tuple[int, FaceKind]], direction: Vec | None, role: Role,
             is_lead: bool) -> dict[int, End]:
    """The :class:`End` of each face (slot → End) of a tile just placed."""
    centre = (shape.x, shape.y)
    ends: dict[int, End] = {}
    if role == Role.LINE:
        if is_lead:
            ends[0] = End.of_line(_add(centre, WEST), WEST)
            ends[1] = End.of_line(_add(centre, EAST), EAST)
        else:
            assert direction is not None
            ends[0] = End.of_line(_add(centre, direction), direction)
        return ends
    if is_lead:
        sides = [WEST, EAST]
        tips = [NORTH, SOUTH]
    else:
        assert direction is not None
        sides = [direction]
        tips = [counter_clockwise(direction), clockwise(direction)]
    if role == Role.TOES:
        assert direction is not None
        toes = [direction, counter_clockwise(direction), clockwise(direction)]
        for slot, _ in faces:
            d = toes[slot]
            ends[slot] = End.of_cross(centre, d) if d == direction else End.of_line(_add(centre, d, 1.0), d)
        return ends
    side_count = 0
    tip_count = 0
    for slot, kind in faces:
        if kind == FaceKind.SIDE:
            d = sides[min(side_count, len(sides) - 1)]
            side_count += 1
            ends[slot] = End.of_cross(centre, d)
        else:
            d = tips[min(tip_count, 1)]
            tip_count += 1
            ends[slot] = End.of_line(_add(centre, d, 1.0), d)
    return ends


def table_size(tile_count: int) -> tuple[float, float]:
    """The table a set of ``tile_count`` tiles is laid out on: bigger sets get more room."""
    if tile_count <= 28:
        return (TABLE_WIDTH, TABLE_HEIGHT)
    if tile_count <= 70:
        return (40.0, 26.0)
    return (50.0, 32.0)


def _placement(placed: Placed) -> Placement:
    return (placed.tile, placed.role, placed.join, placed.parent, placed.parent_slot)


def layout_geometry(layout: Layout, *, width: float = TABLE_WIDTH, height: float = TABLE_HEIGHT) -> Geometry:
    """Every placed tile's centre, rotation and halves, in play order (a pure function)."""
    return extend_geometry(None, layout, width=width, height=height)


def extend_geometry(previous: Geometry | None, layout: Layout, *, width: float = TABLE_WIDTH,
                    height: float = TABLE_HEIGHT) -> Geometry:
    """:func:`layout_geometry` of ``layout``, reusing ``previous`` (the geometry of an earlier
    layout of the same hand, or None) for the tiles the two still share (a pure function).

    A tile's place depends only on the tiles before it, so the tiles of ``previous`` up to the
    first placement that differs (an undo, a new hand) keep their places and only the rest are
    placed: a move costs one tile, not the whole table.  The result equals
    ``layout_geometry(layout)``; ``previous`` is not changed.
    """
    placements = [_placement(placed) for placed in layout.tiles]
    kept = 0
    if previous is not None and (previous.width, previous.height) == (width, height):
        known = previous.placements
        limit = min(len(known), len(placements))
        while kept < limit and known[kept] == placements[kept]:
            kept += 1
    if kept == 0 or previous is None:
        tiles: list[TileBox] = []
        ends: dict[tuple[int, int], End] = {}
    else:
        tiles = list(previous.tiles[:kept])
        ends = previous.ends.copy() if kept == len(previous.tiles) else {
            key: end for key, end in previous.ends.items() if key[0] <= kept}
    boxes = [] if kept == 0 or previous is None else list(previous.boxes[:kept])
    extended = previous if previous is not None and kept == len(previous.tiles) else None
    for placed in layout.tiles[kept:]:
        tile = placed.tile
        role = Role(placed.role)
        if placed.is_double:
            halves = (half_text(tile.high), half_text(tile.low))
        else:
            halves = (half_text(placed.join), half_text(tile.other_half(placed.join)))
        faces = [(face.slot, face.kind) for face in placed.faces]
        if placed.parent == 0:
            rotation = 90 if placed.is_double else 0
            shape = TileBox(placed.index, str(tile), halves, 0.0, 0.0, rotation, role.name.lower())
            direction: Vec | None = None
        elif extended is not None:  # the first new tile: its place may have been found as a ghost
            shape, direction = extended._child(placed.index, tile, halves, (placed.parent, placed.parent_slot),
                                               placed.is_double, role.name.lower())
        else:
            end = ends[(placed.parent, placed.parent_slot)]
            shape, direction = _place_child(placed.index, tile, halves, end, placed.is_double,
                                            role.name.lower(), boxes, width, height)
        extended = None
        tiles.append(shape)
        boxes.append(shape.box)
        for slot, end_here in _ends_of(shape, faces, direction, role, placed.parent == 0).items():
            ends[(placed.index, slot)] = end_here
    return Geometry(tuple(tiles), width, height, ends, tuple(placements), tuple(boxes))


def hotspots(layout: Layout, moves: Iterable[Move], geometry: Geometry | None = None) -> list[Hotspot]:
    """For each tile and open end where a legal move puts it, the ghost of the placed tile.

    Moves of one tile onto one end are grouped (a tile that may join a wild end either way
    round has two moves there).  Draws, passes and gives have no hotspot.
    """
    if geometry is None:
        geometry = layout_geometry(layout)
    # the role a double takes after the lead: a PIP double (after its hub) has toes
    double_role = "toes" if layout.tiles and layout.tiles[0].role == Role.HUB else "cross"
    grouped: dict[tuple[str, int, int], tuple[str, TileBox, list[str]]] = {}
    for move in moves:
        tile = move.tile
        if tile is None or not move.is_placement:
            continue
        if move.kind == Kind.LEAD:
            halves = (half_text(move.half), half_text(tile.other_half(move.half)))
            ghost = TileBox(0, str(tile), halves, 0.0, 0.0, 90 if tile.is_double else 0,
                            "line" if not tile.is_double else "cross")
            key = (str(tile), 0, 0)
            grouped.setdefault(key, ("", ghost, []))[2].append(str(move))
            continue
        face = layout.face_for(move.target, move.half)
        if face is None:
            continue
        halves = (half_text(move.half), half_text(tile.other_half(move.half)))
        ghost = geometry.ghost((face.owner, face.slot), tile, halves, double_role if tile.is_double else "line")
        key = (str(tile), face.owner, face.slot)
        grouped.setdefault(key, (half_text(face.value), ghost, []))[2].append(str(move))
    return [Hotspot(key[0], key[1], key[2], value, ghost, tuple(texts))
            for key, (value, ghost, texts) in grouped.items()]


__all__ = ["PIP_POSITIONS", "PIP_RADIUS", "Geometry", "Hotspot", "TileBox", "extend_geometry", "hotspots",
           "layout_geometry", "table_size"]
