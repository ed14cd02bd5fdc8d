"""The table as text: arms of tiles read from the lead outwards, for the terminal.

A pure function of the layout.  The main line runs left to right through the lead; every other
arm (a spinner's short ends, a hub's top and bottom, a PIP double's toes) is a line of its own
that names the tile it grows from.  Each tile is shown with its number (as in move notation).
"""

from __future__ import annotations

from rich.text import Text

from boneyard.layout import Face, Layout, Placed, Role
from boneyard.moves import Kind, Move
from boneyard.tiles import half_text


def tile_text(placed: Placed, reverse: bool = False) -> Text:
    """``[4|2]₃``: a placed tile, oriented along its arm, with its number."""
    tile = placed.tile
    if placed.is_double:
        body = f"[{half_text(tile.high)}‖{half_text(tile.low)}]"
        style = "bold magenta" if placed.role in (Role.SPINNER, Role.HUB) else "bold"
    else:
        inner, outer = half_text(placed.join), half_text(tile.other_half(placed.join))
        body = f"[{outer}|{inner}]" if reverse else f"[{inner}|{outer}]"
        style = "bold yellow" if tile.is_wild or tile.letter is not None else ""
    text = Text(body, style=style)
    text.append(_subscript(placed.index), style="dim")
    return text


def _subscript(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def _chain(layout: Layout, face: Face, branches: list[tuple[Face, list[Placed]]]) -> list[Placed]:
    """Follow an arm from ``face``; side arms found on the way are queued in ``branches``."""
    chain: list[Placed] = []
    while face.child:
        placed = layout.tiles[face.child - 1]
        chain.append(placed)
        faces = placed.faces
        if not faces:
            break
        for extra in faces[1:]:
            if extra.child:
                branches.append((extra, []))
        face = faces[0]
    return chain


def layout_lines(layout: Layout) -> list[Text]:
    """The layout as lines of text (empty table: one line saying so)."""
    if not layout.tiles:
        return [Text("(the table is empty)", style="dim")]
    lead = layout.tiles[0]
    branches: list[tuple[Face, list[Placed]]] = []
    faces = lead.faces
    left = _chain(layout, faces[0], branches) if faces else []
    right = _chain(layout, faces[1], branches) if len(faces) > 1 else []
    for extra in faces[2:]:
        if extra.child:
            branches.insert(0, (extra, []))
    line = Text()
    for placed in reversed(left):
        line.append_text(tile_text(placed, reverse=True))
        line.append(" ")
    line.append_text(tile_text(lead))
    for placed in right:
        line.append(" ")
        line.append_text(tile_text(placed))
    lines = [line]
    done = 0
    while done < len(branches):
        face, _ = branches[done]
        done += 1
        arm = _chain(layout, face, branches)
        text = Text(f"  from {_subscript(face.owner)} ", style="dim")
        for number, placed in enumerate(arm):
            if number:
                text.append(" ")
            text.append_text(tile_text(placed))
        lines.append(text)
    return lines


def describe_move(move: Move, layout: Layout) -> str:
    """A move in words: ``4-2 on tile 3 (its 4 end)``."""
    if move.kind == Kind.LEAD:
        return f"lead {move}"
    if move.kind == Kind.PLAY:
        assert move.tile is not None
        face = layout.face_for(move.target, move.half)
        target = layout.tiles[move.target - 1].tile if move.target <= len(layout) else None
        where = f"on tile {move.target} {target}" if target else f"on tile {move.target}"
        if face is not None:
            where += f" ({half_text(face.value)} end)"
        return f"{move.tile} {where}"
    if move.kind == Kind.DRAW:
        return "draw from the stock"
    if move.kind == Kind.PASS:
        return "pass"
    return f"give {move.tile} to the next player"
