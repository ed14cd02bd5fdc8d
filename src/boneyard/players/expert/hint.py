"""The hint: the expert's move for a seat, with a one-line reason in words.

The reason names what most sets the chosen move apart, in the order a player would say it:
the points it scores ("scores 15"), a void it plays into ("B cannot hold a 4"), a scorpion it
avoids, the suits it keeps ("keeps three suits"), the weight it sheds, or what the search found
("wins the hand in most deals").
"""

from __future__ import annotations

import random

from boneyard.moves import Kind, Move
from boneyard.players import heuristic
from boneyard.players.expert.search import Search
from boneyard.view import SeatView

HINT_TIME = 0.5
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


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
    """Why ``move`` (chosen by ``search``) is the one, in a few words."""
    assessments = {item.move: item for item in heuristic.assess(view, search.info)}
    chosen = assessments.get(move)
    if chosen is None or move.kind == Kind.GIVE:
        if move.tile is not None and move.kind == Kind.GIVE:
            return f"hands over a heavy tile ({view.tile_value(move.tile)} points)"
        return "the search rates it best"
    others = [item for other, item in assessments.items() if other != move]
    best_other_points = max((item.points for item in others), default=0)
    lowest = heuristic.lowest_score_wins(view)
    if chosen.points > 0 and chosen.points >= best_other_points and not lowest:
        return f"scores {chosen.points}"
    if chosen.avoided_minus and any(item.points < 0 for item in others):
        return "avoids the scorpion"
    if chosen.voids:
        seat, suit = chosen.voids[0]
        return f"{view.names[seat]} cannot hold a {suit}"
    if lowest and chosen.shed >= max((item.shed for item in others), default=0) and chosen.shed > 0:
        return f"sheds {chosen.shed} points of hand value"
    if chosen.suits_kept >= max((item.suits_kept for item in others), default=0) and chosen.suits_kept > 1:
        return f"keeps {_WORDS.get(chosen.suits_kept, str(chosen.suits_kept))} suits"
    if chosen.shed >= max((item.shed for item in others), default=0) and chosen.shed > 0:
        return f"sheds a heavy tile ({chosen.shed} points)"
    index = search.moves.index(move)
    if index > 0 and search.samples:
        gain = search.diff_sums[index] / search.samples
        return f"does better in the sampled deals (+{gain:.1f} on average over {search.samples})"
    if search.samples > 1:
        return f"no other move does surely better over {search.samples} sampled deals"
    return "the search rates it best"
