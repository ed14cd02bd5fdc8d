"""Tiles, halves and tile sets.

A half is a small integer: ``0``…``12`` are pip numbers, :data:`W` is a wild half and
:data:`S`, :data:`R`, :data:`A`, :data:`D` are PIP's directional letters.  A :class:`Tile`
is interned (one object per pair of halves), immutable and stores its halves in canonical
order: letters first, then ``W``, then numbers from high to low (RECORD.md).

>>> Tile.parse("4-6")
Tile.parse('6-4')
>>> str(Tile.parse("w-s"))
'S-W'
"""

from __future__ import annotations

from typing import ClassVar, Final

from boneyard.errors import NotationError

MAX_PIPS: Final = 12
W: Final = 20  #: a wild half
D: Final = 21  #: PIP's draw letter
A: Final = 22  #: PIP's play-again letter
R: Final = 23  #: PIP's reverse letter
S: Final = 24  #: PIP's skip letter
LETTERS: Final = frozenset({S, R, A, D})

_HALF_TEXT: Final = {W: "W", D: "D", A: "A", R: "R", S: "S"}
_TEXT_HALF: Final = {text: half for half, text in _HALF_TEXT.items()}


def half_text(half: int) -> str:
    """The notation of one half: ``'5'``, ``'W'``, ``'S'``."""
    return _HALF_TEXT.get(half) or str(half)


def parse_half(text: str) -> int:
    """Parse one half (case-insensitive); raises :class:`NotationError`."""
    cleaned = text.strip().upper()
    if cleaned in _TEXT_HALF:
        return _TEXT_HALF[cleaned]
    if is_ascii_number(cleaned, 2) and int(cleaned) <= MAX_PIPS:
        return int(cleaned)
    raise NotationError(f"{shown(text)} is not a tile half (0-{MAX_PIPS}, W, S, R, A or D)")


def shown(text: object, most: int = 24) -> str:
    """``repr(text)`` for an error message, cut to about ``most`` characters: bad input may be any length."""
    quoted = repr(text)
    return quoted if len(quoted) <= most + 2 else f"{quoted[:most]}…"


def is_ascii_number(text: str, most_digits: int) -> bool:
    """Whether ``text`` is 1 to ``most_digits`` ASCII digits: what ``int`` may safely read from notation
    (``str.isdigit`` also accepts superscripts and other scripts' digits, some of which ``int`` refuses)."""
    return 0 < len(text) <= most_digits and text.isascii() and text.isdigit()


def is_number(half: int) -> bool:
    return half <= MAX_PIPS


class Tile:
    """One domino.  ``high`` is the canonical first half, ``low`` the second."""

    __slots__ = ("__weakref__", "_text", "high", "index", "is_double", "low", "pips")

    high: int
    low: int
    pips: int
    is_double: bool
    index: int
    _text: str

    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}

    def __new__(cls, first: int, second: int) -> Tile:
        high, low = (first, second) if first >= second else (second, first)
        tile = cls._interned.get((high, low))
        if tile is not None:
            return tile
        if low in LETTERS or (high in LETTERS and low != W) or not _valid_half(high) or not _valid_half(low):
            raise NotationError(f"{half_text(first)}-{half_text(second)} is not a domino")
        tile = object.__new__(cls)
        object.__setattr__(tile, "high", high)
        object.__setattr__(tile, "low", low)
        object.__setattr__(tile, "pips", (high if is_number(high) else 0) + (low if is_number(low) else 0))
        object.__setattr__(tile, "is_double", high == low)
        object.__setattr__(tile, "index", _tile_index(high, low))
        object.__setattr__(tile, "_text", f"{half_text(high)}-{half_text(low)}")
        cls._interned[(high, low)] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``'6-4'``, ``'4-6'``, ``'w-7'``…; raises :class:`NotationError`."""
        tile = _PARSED.get(text)
        if tile is not None:
            return tile
        parts = text.strip().split("-")
        if len(parts) != 2:
            raise NotationError(f"{shown(text)} is not a tile (expected two halves joined by '-', e.g. 6-4)")
        tile = cls(parse_half(parts[0]), parse_half(parts[1]))
        if len(_PARSED) < _PARSED_MOST:  # (a record names the same few dozen tiles thousands of times)
            _PARSED[text] = tile
        return tile

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile.parse({self._text!r})"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    @property
    def halves(self) -> tuple[int, int]:
        return (self.high, self.low)

    @property
    def is_wild(self) -> bool:
        return self.high == W or self.low == W

    @property
    def letter(self) -> int | None:
        """The directional letter of a PIP tile, or ``None``."""
        return self.high if self.high in LETTERS else None

    def other_half(self, half: int) -> int:
        """The half opposite ``half`` (which must be one of this tile's halves)."""
        if half == self.high:
            return self.low
        if half == self.low:
            return self.high
        raise ValueError(f"{half_text(half)} is not a half of {self}")

    def has(self, half: int) -> bool:
        return half == self.high or half == self.low


#: the tile of each text read so far (``'6-4'``, ``'4-6'``, ``'w-7'``…): a replay parses a record's tiles by the
#: thousand, each text once.  Bounded, whatever texts bad input brings.
_PARSED: Final[dict[str, Tile]] = {}
_PARSED_MOST: Final = 4096


def _valid_half(half: int) -> bool:
    return 0 <= half <= MAX_PIPS or half == W or half in LETTERS


def _tile_index(high: int, low: int) -> int:
    if is_number(high):
        return high * (high + 1) // 2 + low
    base = (MAX_PIPS + 1) * (MAX_PIPS + 2) // 2
    if high == W:
        return base + (low if is_number(low) else MAX_PIPS + 1)
    return base + MAX_PIPS + 2 + (high - D)


def heaviness(tile: Tile) -> tuple[int, int]:
    """Sort key for C2: heavier = more pips, then the higher larger half."""
    return (tile.pips, tile.high)


def lightness(tile: Tile) -> tuple[int, int]:
    """Sort key for C2's lightest tile: fewer pips, then the lower smaller half."""
    return (tile.pips, tile.low)


def double_set(top: int) -> tuple[Tile, ...]:
    """The double-``top`` set in canonical order (0-0, 1-0, 1-1, …)."""
    if not 0 <= top <= MAX_PIPS:
        raise ValueError(f"no double-{top} set")
    return tuple(Tile(a, b) for a in range(top + 1) for b in range(a + 1))


def pip_set() -> tuple[Tile, ...]:
    """PIP's 70 tiles: double-nine, ten W-n, W-W and the four directional tiles."""
    return (
        double_set(9)
        + tuple(Tile(W, n) for n in range(10))
        + (Tile(W, W),)
        + tuple(Tile(letter, W) for letter in (S, R, A, D))
    )


def parse_tiles(texts: object, where: str) -> list[Tile]:
    """Parse a JSON list of tile strings, naming ``where`` in any error."""
    if not isinstance(texts, list):
        raise NotationError(f"{where}: expected a list of tiles, got {type(texts).__name__}")
    tiles = []
    for position, text in enumerate(texts, 1):
        if not isinstance(text, str):
            raise NotationError(f"{where}, tile {position}: expected a string like \"6-4\", got {shown(text)}")
        try:
            tiles.append(Tile.parse(text))
        except NotationError as error:
            raise NotationError(f"{where}, tile {position}: {error}") from None
    return tiles
