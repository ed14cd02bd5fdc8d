"""The table as SVG: real domino tiles with pips, drawn from :mod:`boneyard.render.geometry`.

Pure functions with keyword-only options returning an SVG string, like ``chess.svg``.  The
browser table draws the same geometry JSON with the same pip positions, colours and rotation
convention, so a screenshot and :func:`table_svg` agree.

>>> from boneyard import new_game
>>> from boneyard.render.geometry import layout_geometry
>>> game = new_game("draw", seed=3)
>>> event = game.apply(game.legal_moves()[0])
>>> table_svg(layout_geometry(game.layout)).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final
from xml.sax.saxutils import escape

from boneyard.render.geometry import PIP_POSITIONS, PIP_RADIUS, Geometry, Hotspot, TileBox
from boneyard.tiles import Tile, half_text

FELT: Final = "#17563a"
FACE: Final = "#fbf7ea"
EDGE: Final = "#1d1d1d"
PIP: Final = "#141414"
SPECIAL: Final = "#9b1c1c"  #: W and letter halves
HOTSPOT: Final = "#ffd54a"


def _num(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def half_svg(text: str, left: float, rotation: int = 0) -> str:
    """One half (a unit square whose left edge is at ``left``, top at -0.5) of a tile turned
    ``rotation`` degrees: a letter or wild half is turned back so it reads upright."""
    if text.isdigit():
        return "".join(f'<circle cx="{_num(left + x)}" cy="{_num(y - 0.5)}" r="{PIP_RADIUS}" fill="{PIP}"/>'
                       for x, y in PIP_POSITIONS[int(text)])
    label = "★" if text == "W" else escape(text)
    centre = _num(left + 0.5)
    upright = f' transform="rotate({-rotation} {centre} 0)"' if rotation % 360 else ""
    return (f'<text x="{centre}" y="0.02" font-size="0.62" font-family="sans-serif" font-weight="700" '
            f'text-anchor="middle" dominant-baseline="middle" fill="{SPECIAL}"{upright}>{label}</text>')


def tile_group(box: TileBox, *, css_class: str = "tile", opacity: float | None = None) -> str:
    """One tile as an SVG ``<g>`` placed and rotated as ``box`` says."""
    extra = f' opacity="{opacity}"' if opacity is not None else ""
    return (f'<g class="{css_class}" data-index="{box.index}" data-tile="{escape(box.tile)}"'
            f' transform="translate({_num(box.x)} {_num(box.y)}) rotate({box.rotation})"{extra}>'
            f'<rect x="-0.97" y="-0.47" width="1.94" height="0.94" rx="0.12" fill="{FACE}" stroke="{EDGE}" '
            f'stroke-width="0.05"/>'
            f'<line x1="0" y1="-0.36" x2="0" y2="0.36" stroke="{EDGE}" stroke-width="0.04"/>'
            f"{half_svg(box.halves[0], -0.97, box.rotation)}{half_svg(box.halves[1], -0.03, box.rotation)}</g>")


def table_svg(geometry: Geometry, *, hotspots: Iterable[Hotspot] = (), scale: float = 32.0,
              title: str | None = None) -> str:
    """The whole table; ``hotspots`` are drawn as highlighted ghosts of the tile to play."""
    spots = list(hotspots)
    x, y, width, height = geometry.view(spot.ghost for spot in spots)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_num(x)} {_num(y)} {_num(width)} {_num(height)}" '
             f'width="{_num(width * scale)}" height="{_num(height * scale)}" role="img">']
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" fill="{FELT}"/>')
    parts.extend(tile_group(box) for box in geometry.tiles)
    for spot in spots:
        ghost = spot.ghost
        w, h = (2, 1) if ghost.horizontal else (1, 2)
        parts.append(f'<rect class="hotspot" data-moves="{escape(" ".join(spot.moves))}" '
                     f'x="{_num(ghost.x - w / 2)}" y="{_num(ghost.y - h / 2)}" width="{w}" height="{h}" rx="0.15" '
                     f'fill="{HOTSPOT}" fill-opacity="0.35" stroke="{HOTSPOT}" stroke-width="0.08"/>')
    parts.append("</svg>")
    return "".join(parts)


def tile_svg(tile: Tile, *, scale: float = 32.0, vertical: bool = False) -> str:
    """A single tile (for a hand), horizontal by default."""
    box = TileBox(0, str(tile), (half_text(tile.high), half_text(tile.low)), 0.0, 0.0, 90 if vertical else 0, "line")
    w, h = (1.0, 2.0) if vertical else (2.0, 1.0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_num(-w / 2)} {_num(-h / 2)} {_num(w)} {_num(h)}" '
            f'width="{_num(w * scale)}" height="{_num(h * scale)}">{tile_group(box)}</svg>')


__all__ = ["table_svg", "tile_group", "tile_svg"]
