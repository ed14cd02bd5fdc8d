"""The ``heuristic`` level: one-move lookahead with a domino player's rules of thumb.

Every legal move is scored from what the seat may see:

* **points now** — whatever the variant scores for the play (counts in All Fives, headers in
  Bergen, pairs in Double Bergen, flowers and scorpions: a scorpion's minus is avoided), read
  from ``view.play_points``;
* **shedding** — the value of the tile under the variant (``view.tile_value``), weighed more
  when a block or a domino threatens (an opponent down to two tiles, nothing left to draw) and
  always for a lowest-score game such as PIP, where every point left in hand is a point against;
* **keeping suits alive** — the suits still in hand after the move, and open ends this seat can
  follow; a double is played while it still can be;
* **counting tiles** — an end whose suit has no unseen tile left is dead for the others;
* **playing into a void** — an end showing a suit an opponent is known to lack (he passed or
  drew on it, see :mod:`boneyard.players.expert.inference`) makes him pass or draw;
* **the partner** (partnership games) — an end the partner is known to lack is one he cannot
  follow, so it counts against the move; an end showing a suit the partner chose to leave open
  (he played the tile that showed it) is one he likely holds more of, so it counts for it;
* **PIP's directional tiles** — skip, play-again and draw are worth playing early: they are
  heavy in hand and cost the others a turn or a tile.

Decisions depend on the view only, so the same seed always gives the same move (the level uses
no randomness at all; ``seed`` is accepted for a uniform interface).
"""

from __future__ import annotations

from dataclasses import dataclass

from boneyard.moves import Kind, Move
from boneyard.players.base import legal_choices, level
from boneyard.players.expert.determinize import rules_of
from boneyard.players.expert.inference import Inference, infer
from boneyard.tiles import LETTERS, MAX_PIPS, A, D, S, Tile
from boneyard.view import SeatView

#: variants whose hand values do not score (only decide a blocked hand): shedding matters less there
_PIPS_DECIDE_TIES_ONLY = frozenset({"bergen", "double-bergen", "flower-scorpion"})


def lowest_score_wins(view: SeatView) -> bool:
    """Whether the lowest total wins this variant (PIP): points are then bad news."""
    return rules_of(view).lower_score_wins


def side_of(view: SeatView, seat: int) -> tuple[int, ...]:
    """The seats sharing ``seat``'s score (the seat alone, or both partners)."""
    return rules_of(view).score_seats(seat)


@dataclass(slots=True)
class Assessment:
    """A move's score and the parts it is made of (for the hint's reason)."""

    move: Move
    total: float
    points: int = 0
    shed: int = 0
    suits_kept: int = 0
    voids: tuple[tuple[int, int], ...] = ()  #: (seat, suit) pairs: an end an opponent cannot follow
    avoided_minus: bool = False


def assess(view: SeatView, info: Inference | None = None) -> list[Assessment]:
    """Score every legal move of ``view`` (highest first, ties in legal-move order)."""
    moves = view.legal_moves()
    if info is None:
        info = infer(view)
    lowest = lowest_score_wins(view)
    hand = list(view.hand)
    me = view.seat
    friends = set(side_of(view, me))
    opponents = [seat for seat in range(view.players) if seat not in friends]
    partners = [seat for seat in friends if seat != me]
    led_by_partner = _suits_opened_by(view, partners)
    sizes = view.hand_sizes
    threat = (view.stock_count == 0 or any(sizes[seat] <= 2 for seat in opponents))
    pip_weight = 1.0 if lowest else (0.15 if view.variant in _PIPS_DECIDE_TIES_ONLY else (0.5 if threat else 0.2))
    unseen_by_suit = _suit_counts(info.unseen)
    next_seat = (me + view.direction) % view.players
    results: list[Assessment] = []
    any_negative = False
    for move in moves:
        if move.kind == Kind.GIVE and move.tile is not None:  # hand over the heaviest tile
            value = view.tile_value(move.tile)
            results.append(Assessment(move, float(value), shed=value))
            continue
        if move.tile is None or not move.is_placement:
            results.append(Assessment(move, -1000.0))
            continue
        tile = move.tile
        points = view.play_points(move)[1]
        any_negative |= points < 0
        rest = list(hand)
        rest.remove(tile)
        value = view.tile_value(tile)
        suits = _suits(rest)
        total = (0.0 if lowest else float(points)) + pip_weight * value + 0.6 * len(suits)
        if tile.is_double and not tile.is_wild:
            total += 1.5
        letter = tile.letter
        if letter in (S, A, D):
            total += 4.0
        ends = _ends_after(view, move)
        voids: list[tuple[int, int]] = []
        for end in ends:
            if end > MAX_PIPS:
                continue
            if end in suits:
                total += 1.0
            if unseen_by_suit.get(end, 0) == 0:
                total += 1.0 if end in suits else 0.5
            for seat in opponents:
                if info.lacks(seat, end):
                    total += 2.5 if seat == next_seat else 1.0
                    voids.append((seat, end))
            for seat in partners:
                if info.lacks(seat, end):
                    total -= 1.5
                elif end in led_by_partner:
                    total += 0.5
        results.append(Assessment(move, total, points, value, len(suits), tuple(voids)))
    if any_negative:
        for item in results:
            item.avoided_minus = item.points >= 0
    order = sorted(range(len(results)), key=lambda i: (-results[i].total, i))
    return [results[i] for i in order]


def _suits(tiles: list[Tile]) -> set[int]:
    return {half for tile in tiles for half in tile.halves if half <= MAX_PIPS}


def _suit_counts(tiles: list[Tile]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for tile in tiles:
        for half in {tile.high, tile.low}:
            counts[half] = counts.get(half, 0) + 1
    return counts


def _suits_opened_by(view: SeatView, seats: list[int]) -> set[int]:
    """The suits that ``seats`` left showing at the outer end of a tile they placed (a partner's chosen suits)."""
    opened: set[int] = set()
    for event in view.history():
        move = event.move
        tile = move.tile
        if event.seat not in seats or tile is None or not move.is_placement:
            continue
        if move.kind == Kind.LEAD:
            opened.update(half for half in tile.halves if half <= MAX_PIPS)
        else:
            out = tile.high if tile.is_double else tile.other_half(move.half)
            if out <= MAX_PIPS:
                opened.add(out)
    return opened


def _ends_after(view: SeatView, move: Move) -> list[int]:
    """The numbers of the open ends once ``move`` is made, as the layout opens them (an All Fives spinner's two
    sides, a Double Bergen lead's four faces, PIP's toes); a letter faces out and is no end to follow."""
    return [value for value in view.ends_after(move) if value not in LETTERS]


class HeuristicPlayer:
    """Rules of thumb over one move (see the module docstring)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "heuristic"
        self.seed = seed

    def choose(self, view: SeatView) -> Move:
        moves = legal_choices(view)
        if len(moves) == 1:
            return moves[0]
        return assess(view)[0].move


level("heuristic")(HeuristicPlayer)
