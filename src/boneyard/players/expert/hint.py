"""The hint: the expert's move for a seat, with a one-line reason in words.

The reason says what sets the chosen move apart in a player's words: the points it scores
("scores 15", which speaks for itself); else up to three of a scorpion it avoids, the suit it
keeps open for you ("keeps your 5s"), a suit it shuts off for the others ("blocks the 4s"), an
opponent known to be out of a suit it leaves open ("Computer 1 has no 3s"); else the weight it
sheds; else what the search found, said without its statistics ("comes out ahead of the other
moves however the unseen tiles lie").
"""

from __future__ import annotations

import random

from boneyard.moves import Kind, Move
from boneyard.players import heuristic
from boneyard.players.expert.inference import Inference, infer
from boneyard.players.expert.search import Search
from boneyard.tiles import MAX_PIPS, Tile
from boneyard.view import SeatView

HINT_TIME = 0.5


def hint_move(view: SeatView, *, seconds: float = HINT_TIME, samples: int | None = None,
              seed: int = 0) -> tuple[Move, str]:
    """The expert's move for ``view`` and why, in words."""
    moves = view.legal_moves()
    if not moves:
        raise ValueError(f"seat {view.seat} has no move to hint: it is not its turn")
    if len(moves) == 1:
        return moves[0], _only(moves[0])
    search = Search(view, random.Random(seed))
    move = search.run(seconds, samples)
    return move, reason(view, search, move)


def _only(move: Move) -> str:
    if move.kind == Kind.DRAW:
        return "nothing fits: draw"
    if move.kind == Kind.PASS:
        return "nothing fits and nothing to draw: pass"
    return "the only move"


def reason(view: SeatView, search: Search, move: Move) -> str:
    """Why ``move`` (chosen by ``search``) is the one, in a few plain words."""
    words = explain(view, move, search.info)
    if words:
        return words
    index = search.moves.index(move)
    if index > 0 and search.samples:
        return "comes out ahead of the other moves however the unseen tiles lie"
    return "no other move does better; it is as good as any"


def suit_name(suit: int) -> str:
    """``5s``; the 0s are blanks."""
    return "blanks" if suit == 0 else f"{suit}s"


def explain(view: SeatView, move: Move, info: Inference | None = None) -> str | None:
    """What sets ``move`` apart in words a player uses ("scores 10", "keeps your 5s;
    Computer 1 has no 3s", "blocks the 4s"), or None when nothing stands out.  Pure: it
    reads the seat's view (and the inference drawn from it) only."""
    if move.kind == Kind.GIVE and move.tile is not None:
        return f"hands over a heavy tile ({view.tile_value(move.tile)} points)"
    if info is None:
        info = infer(view)
    assessments = {item.move: item for item in heuristic.assess(view, info)}
    chosen = assessments.get(move)
    if chosen is None or move.tile is None or not move.is_placement:
        return None
    others = [item for other, item in assessments.items() if other != move and other.is_placement]
    lowest = heuristic.lowest_score_wins(view)
    first: list[str] = []
    if chosen.points > 0 and chosen.points >= max((item.points for item in others), default=0) and not lowest:
        return f"scores {chosen.points}"  # the points speak for themselves
    if chosen.avoided_minus and any(item.points < 0 for item in others):
        first.append("avoids the scorpion")
    rest = list(view.hand)
    rest.remove(move.tile)
    ends = heuristic._ends_after(view, move)  # (the heuristic's own reading of the table)
    held = {suit: sum(1 for tile in rest if tile.has(suit)) for suit in set(ends) if suit <= MAX_PIPS}
    kept = [suit for suit, count in held.items() if count]
    if kept:
        first.append(f"keeps your {suit_name(max(kept, key=lambda suit: (held[suit], suit)))}")
    blocked = _blocked_suit(view, move, ends, rest, info)
    if blocked is not None:
        first.append(f"blocks the {suit_name(blocked)}")
    for seat, suit in chosen.voids[:1]:
        first.append(f"{view.names[seat]} has no {suit_name(suit)}")
    if not first:
        heaviest = max((item.shed for item in others), default=0)
        if chosen.shed > 0 and chosen.shed >= heaviest:
            first.append(f"sheds {chosen.shed} points" if lowest else
                         f"gets rid of a heavy tile ({chosen.shed} points)")
    return "; ".join(first[:3]) or None


def _blocked_suit(view: SeatView, move: Move, ends: list[int], rest: list[Tile], info: Inference) -> int | None:
    """The number a play covers when it was the last open end of it, this seat holds no more
    of it and some are still out: the others lose a suit they could follow."""
    if move.kind != Kind.PLAY:
        return None
    face = view.layout.face_for(move.target, move.half)
    if face is None or face.value > MAX_PIPS or face.value in ends or any(t.has(face.value) for t in rest):
        return None
    out = any(tile.has(face.value) for tile in info.unseen)
    return face.value if out else None
