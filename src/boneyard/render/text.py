"""The table as text: arms of tiles read from the lead outwards, for the terminal.

A pure function of the layout.  The main line runs left to right through the lead; every other
arm (a spinner's short ends, a hub's top and bottom, a PIP double's toes) is a line of its own,
indented under the tile it grows from, so the arms of one tile stay together.  Each tile is shown
with its number (as in move notation), and the kinds of doubles look different:

* ``[6‖6]`` a crosswise double (two long sides);
* ``[6✚6]`` a spinner (two sides, then two short ends);
* ``«W✚W»`` PIP's hub, the starter (sides first, then top and bottom);
* ``[5⋔5]`` a PIP double with three toes.

:data:`LEGEND` says the same for a person at the table, and :func:`setup_draws_text` says in words
what happened before a hand's first tile, for the terminal and the web table alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from boneyard.layout import Face, Layout, Placed, Role
from boneyard.moves import Kind, Move
from boneyard.tiles import Tile, half_text

if TYPE_CHECKING:
    from boneyard.state import Event, Game

#: what each mark of :func:`layout_lines` and the move list means
LEGEND = """\
[4|2]₃   tile 3 on the table; its near half (4) is the one that joined
         (moves name tiles by number: 5-2@3 joins the 5 of 5-2 to tile 3 and leaves the 2 open)
[6‖6]    a double placed crosswise: tiles join its two long sides
[6✚6]    a spinner: its two sides first, then its two short ends
«W✚W»    PIP's hub, the starter: its two sides first, then top and bottom
[5⋔5]    a PIP double with three toes, each owed a play before play moves on
from ₃   an arm growing from tile 3 (a spinner's end, a toe), listed under it
W        a wild half: it joins any number, and any number joins it
S R A D  PIP letters: Skip the next player, Reverse, play Again, next Draws
(+10)    what a move scores now; (-2) what it costs"""

_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def tile_text(placed: Placed, reverse: bool = False) -> Text:
    """``[4|2]₃``: a placed tile, oriented along its arm, with its number."""
    tile = placed.tile
    high, low = half_text(tile.high), half_text(tile.low)
    if placed.role == Role.SPINNER:
        body, style = f"[{high}✚{low}]", "bold magenta"
    elif placed.role == Role.HUB:
        body, style = f"«{high}✚{low}»", "bold magenta"
    elif placed.role == Role.TOES:
        body, style = f"[{high}⋔{low}]", "bold blue"
    elif placed.is_double:
        body, style = f"[{high}‖{low}]", "bold"
    else:
        inner, outer = half_text(placed.join), half_text(tile.other_half(placed.join))
        body = f"[{outer}|{inner}]" if reverse else f"[{inner}|{outer}]"
        style = "bold yellow" if tile.is_wild or tile.letter is not None else ""
    text = Text(body, style=style)
    text.append(subscript(placed.index), style="dim")
    return text


def subscript(number: int) -> str:
    return str(number).translate(_SUBSCRIPT)


def _arm(layout: Layout, face: Face) -> list[Placed]:
    """The tiles of the arm that starts at ``face``, following each tile's first face outward."""
    chain: list[Placed] = []
    while face.child:
        placed = layout.tiles[face.child - 1]
        chain.append(placed)
        if not placed.faces:
            break
        face = placed.faces[0]
    return chain


def _side_faces(placed: Placed) -> list[Face]:
    """The faces of a tile that start arms of their own (not the one its arm continues through)."""
    first = 2 if placed.parent == 0 else 1  # the lead's first two faces are the main line
    return [face for face in placed.faces[first:] if face.child]


def _wrapped(prefix: Text, tiles: list[Text], width: int | None, lines: list[Text], indent: int | None = None) -> None:
    """One arm as lines of at most ``width`` cells (``None``: one line): ``prefix`` and the tiles, a space apart,
    each line after the first indented by ``indent`` (default: under the first tile), so a long arm reads as one
    block."""
    text = prefix.copy()
    indent = prefix.cell_len if indent is None else indent
    started = False
    for tile in tiles:
        if started and width is not None and text.cell_len + 1 + tile.cell_len > width:
            lines.append(text)
            text = Text(" " * indent)
            started = False
        if started:
            text.append(" ")
        text.append_text(tile)
        started = True
    lines.append(text)


def _branches(layout: Layout, tiles: list[Placed], depth: int, width: int | None, lines: list[Text]) -> None:
    for placed in tiles:
        for face in _side_faces(placed):
            arm = _arm(layout, face)
            prefix = Text("  " * depth + f"from {subscript(face.owner)} ", style="dim")
            _wrapped(prefix, [tile_text(item) for item in arm], width, lines)
            _branches(layout, arm, depth + 1, width, lines)


def layout_lines(layout: Layout, width: int | None = None) -> list[Text]:
    """The layout as lines of text (empty table: one line saying so), each at most ``width`` cells where given:
    a longer arm goes on over several lines, indented under its first tile (a terminal would wrap it to the
    margin, where it reads as an arm of its own)."""
    if not layout.tiles:
        return [Text("(the table is empty)", style="dim")]
    lead = layout.tiles[0]
    faces = lead.faces
    left = _arm(layout, faces[0]) if faces else []
    right = _arm(layout, faces[1]) if len(faces) > 1 else []
    main = [tile_text(placed, reverse=True) for placed in reversed(left)]
    main += [tile_text(lead)] + [tile_text(placed) for placed in right]
    lines: list[Text] = []
    _wrapped(Text(), main, width, lines, indent=2)  # (the main line goes on indented, as no arm starts)
    _branches(layout, [*reversed(left), lead, *right], 1, width, lines)
    return lines


def describe_move(move: Move, layout: Layout) -> str:
    """A move in words: ``6-4 on tile 3 (4-2), its 4 end; leaves 6``.

    Two different legal moves never read the same: a play names the half that joins first and
    the half it leaves open (PIP's ``W-0@9`` and ``0-W@9`` both join tile 9, with opposite halves)."""
    if move.kind == Kind.LEAD:
        return f"lead {move}"
    if move.kind == Kind.PLAY:
        assert move.tile is not None
        join, out = half_text(move.half), half_text(move.tile.other_half(move.half))
        where = f"tile {move.target}"
        if move.target <= len(layout):
            where += f" ({layout.tiles[move.target - 1].tile})"
            face = layout.face_for(move.target, move.half)
            if face is not None:
                where += f", its {half_text(face.value)} end"
        return f"{join}-{out} on {where}; leaves {out}"
    if move.kind == Kind.DRAW:
        return "draw from the stock"
    if move.kind == Kind.PASS:
        return "pass"
    return f"give {move.tile} to the next player"


def setup_draws_text(names: Sequence[str], draws: Sequence[tuple[int, Tile]], viewer: int | None,
                     show: Callable[[Tile], str] = str, *, open_hands: bool = False) -> str | None:
    """The search for a starting tile in words, as ``viewer`` saw it (None: a spectator), or None where the hand
    had none (:attr:`~boneyard.state.HandLog.setup_draws`): ``Nobody held a starting tile, so they drew in turn:
    Ann 2 tiles, you 1 (6-6).``  Only the viewer's own drawn tiles are named (each as ``show`` writes it); the
    others' stay face down, unless ``open_hands`` (a replay, which shows every hand).

    >>> from boneyard.tiles import Tile
    >>> setup_draws_text(["You", "Ann"], [(0, Tile(1, 5)), (1, Tile(2, 3)), (0, Tile(6, 6))], 0)
    'Nobody held a starting tile, so they drew in turn: you 2 tiles (5-1, 6-6), Ann 1 tile.'
    >>> setup_draws_text(["Bob", "Ann"], [(1, Tile(4, 4))], None)
    'Nobody held a starting tile, so they drew in turn: Ann 1 tile.'
    """
    if not draws:
        return None
    drawn: dict[int, list[Tile]] = {}
    for seat, tile in draws:
        drawn.setdefault(seat, []).append(tile)
    parts = []
    for seat, tiles in drawn.items():
        count = f"{len(tiles)} tile{'s' if len(tiles) != 1 else ''}"
        drawn_tiles = f" ({', '.join(show(tile) for tile in tiles)})" if seat == viewer or open_hands else ""
        parts.append(f"{'you' if seat == viewer else names[seat]} {count}{drawn_tiles}")
    return f"Nobody held a starting tile, so they drew in turn: {', '.join(parts)}."


# ------------------------------------------------------------------ the sides of a game, in words
def sides(game: Game) -> list[tuple[int, ...]]:
    """The scoring sides in seat order: one seat each, or the partnerships."""
    found: list[tuple[int, ...]] = []
    for seat in range(game.players):
        side = tuple(sorted(game.rules.score_seats(seat)))
        if side not in found:
            found.append(side)
    return found


def side_name(game: Game, side: tuple[int, ...]) -> str:
    """``Ann``, ``Ann and Cid``."""
    return " and ".join(game.names[seat] for seat in side)


def verb(game: Game, side: tuple[int, ...], word: str) -> str:
    """``You win``, ``You and Computer 2 win``, ``Computer 1 wins``: the verb agrees with the side."""
    plain = len(side) > 1 or game.names[side[0]].casefold() == "you"
    return f"{side_name(game, side)} {word if plain else word + 's'}"


def game_result_says(game: Game) -> str:
    """Who won the finished game: ``Ann wins``, ``Ann and Cid win``, ``Bob and Dee share the win`` (PIP's equal
    lowest totals, PIP-20), or ``a draw`` where nobody did."""
    won = game.rules.game_winners(game.winner, game.scores)
    if not won:
        return "a draw"
    if game.winner is None:
        return f"{' and '.join(game.names[seat] for seat in won)} share the win"
    return verb(game, won, "win")


def winner_says(game: Game, seat: int, word: str) -> str:
    """The side of ``seat`` doing ``word``: ``Ann wins``, or in partnerships ``Ann and Cid win``."""
    return verb(game, tuple(sorted(game.rules.score_seats(seat))), word)


def scoring_parts(event: Event, limit: str, name: Callable[[str], str] = str) -> list[str]:
    """A move's scoring items as ``["double-header +2", "approach cap -1"]``: each item at its face value, then
    what held the score back (``limit``: the rules' ``points_limit``, Bergen's approach cap or Flower &
    Scorpion's floor) where the move moved the score by less (or more) than its items, so the parts add up."""
    parts = [f"{name(item.name)} {item.points:+d}" for item in event.scoring]
    limited = event.points - sum(item.points for item in event.scoring)
    if limited:
        parts.append(f"{limit or 'limit'} {limited:+d}")
    return parts
