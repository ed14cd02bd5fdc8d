"""Moves and their notation (RECORD.md): ``6-4``, ``4-2@1``, ``draw``, ``pass``, ``give 5-2``.

A ``draw`` or a ``give`` without its tile is the move as a seat that may not see the tile saw it
(:class:`~boneyard.view.SeatView`); its text is plain ``draw`` or ``give``.  ``draw`` is also a move
a player makes, but a player always names the tile it gives, so ``give`` alone is not input.

>>> Move.parse("4-2@1")
Move.parse('4-2@1')
>>> str(Move.parse("draw"))
'draw'
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from boneyard.errors import NotationError
from boneyard.tiles import Tile, half_text, is_ascii_number, parse_half, shown


class Kind(IntEnum):
    LEAD = 0
    PLAY = 1
    DRAW = 2
    PASS = 3
    GIVE = 4


class Move(NamedTuple):
    """One action.  ``half`` is the left half of a lead or the joining half of a play;
    ``target`` is the tile a play joins (1-based).  A ``draw`` may name the tile it expects."""

    kind: Kind
    tile: Tile | None = None
    half: int = 0
    target: int = 0

    @classmethod
    def lead(cls, tile: Tile, left: int | None = None) -> Move:
        return cls(Kind.LEAD, tile, tile.high if left is None else left, 0)

    @classmethod
    def play(cls, tile: Tile, join: int, target: int) -> Move:
        return cls(Kind.PLAY, tile, join, target)

    @classmethod
    def draw(cls, tile: Tile | None = None) -> Move:
        return cls(Kind.DRAW, tile)

    @classmethod
    def passing(cls) -> Move:
        return cls(Kind.PASS)

    @classmethod
    def give(cls, tile: Tile | None = None) -> Move:
        """A give of ``tile``; without one, a give whose tile this seat did not see."""
        return cls(Kind.GIVE, tile)

    @property
    def is_placement(self) -> bool:
        return self.kind <= Kind.PLAY

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse move notation; raises :class:`NotationError` naming the text."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be a string, got {shown(text)}")
        move = _PARSED.get(text)
        if move is None:
            move = cls._parse(text)
            if len(_PARSED) < _PARSED_MOST:  # (a record's moves repeat: each text is read once)
                _PARSED[text] = move
        return move

    @classmethod
    def _parse(cls, text: str) -> Move:
        cleaned = " ".join(text.strip().split()).lower()
        try:
            if cleaned == "draw":
                return cls.draw()
            if cleaned == "pass":
                return cls.passing()
            if cleaned.startswith("draw "):
                return cls.draw(Tile.parse(cleaned[5:]))
            if cleaned.startswith("give "):
                return cls.give(Tile.parse(cleaned[5:]))
            body, at, target = cleaned.partition("@")
            halves = body.split("-")
            if len(halves) != 2:
                raise NotationError("expected a tile like 6-4, a play like 4-2@1, draw, pass or give 5-2")
            first, second = parse_half(halves[0]), parse_half(halves[1])
            tile = Tile(first, second)
            if not at:
                return cls.lead(tile, first)
            if not is_ascii_number(target, 4) or int(target) < 1:
                raise NotationError(f"{shown(target)} is not a tile number (1 is the lead)")
            return cls.play(tile, first, int(target))
        except NotationError as error:
            raise NotationError(f"{shown(text)} is not a move: {error}") from None

    def __str__(self) -> str:
        if self.kind == Kind.DRAW:
            return "draw" if self.tile is None else f"draw {self.tile}"
        if self.kind == Kind.PASS:
            return "pass"
        if self.kind == Kind.GIVE:
            return "give" if self.tile is None else f"give {self.tile}"
        assert self.tile is not None
        other = half_text(self.tile.other_half(self.half))
        text = f"{half_text(self.half)}-{other}"
        return text if self.kind == Kind.LEAD else f"{text}@{self.target}"

    def __repr__(self) -> str:
        if self.kind == Kind.GIVE and self.tile is None:
            return "Move.give()"
        return f"Move.parse({str(self)!r})"


#: the move of each text read so far (``'4-2@1'``, ``'draw'``…), bounded whatever texts bad input brings
_PARSED: Final[dict[str, Move]] = {}
_PARSED_MOST: Final = 8192
