"""What the others' choices say about their hands: a likelihood of sampled deals in Block.

:mod:`.inference` reads only what is certain — a seat that passed holds nothing that fitted.  A
seat's choices say more, softly: a player who could place several tiles tends to choose as a sound
player does, shedding a heavy tile, playing a double while he can, keeping many suits in hand and
leaving open ends he can follow.  So a hand that would have made the actual choice a poor one is less
likely than a hand that makes it the natural one.

In Block nothing is drawn, so a sampled deal fixes every other seat's hand at each of its earlier
decisions: the tiles it holds now plus those it placed since.  :class:`PlayModel` scores each move
such a hand could have made with the rules of thumb above (the heuristic's own weights, see
:mod:`boneyard.players.heuristic`) and gives the deal the weight

    product over those decisions of  exp(BETA * (score of the move made - best score))

— the soft-max probability of the move made, relative to the most likely move's, so at most 1.  The
search keeps a sampled deal with that probability (rejection sampling: the deals it searches then
follow the posterior under this model, see :class:`~.search.Search`).  ``BETA`` is mild on purpose: a
choice one rule-of-thumb point worse than the best still keeps more than half its weight, so an
opponent who plays otherwise only blurs the inference, never rules his real hand out.

Only Block (no draws: the hands at earlier decisions are known from the deal) and only decisions with
a choice: leads called by the rules are not choices and are left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from boneyard.moves import Kind
from boneyard.players.expert.determinize import rules_of
from boneyard.rules.base import line_chance_leads
from boneyard.tiles import Tile
from boneyard.view import SeatView

BETA = 0.7  #: how sharply the model prefers the best-scored move (0: every move alike, no inference)
W_PIPS = 0.2  #: per pip of the tile placed (the heuristic's shedding weight when no block threatens)
W_SUITS = 0.6  #: per suit still in hand afterwards
W_DOUBLE = 1.5  #: for placing a double while it can be
W_FOLLOW = 1.0  #: per open end afterwards that the hand can follow


@dataclass(frozen=True, slots=True)
class Choice:
    """One earlier decision of another seat: the ends before it, the tile placed and the number it showed."""

    seat: int
    ends: tuple[int, ...]  #: the open ends before it (empty: a lead)
    tile: Tile
    joined: int  #: the number it was placed on (a lead: -1)
    later: tuple[Tile, ...]  #: the tiles the seat placed from this decision on (this one included)


def score(hand: Sequence[Tile], tile: Tile, ends: Sequence[int], joined: int) -> float:
    """The rule-of-thumb score of placing ``tile`` from ``hand`` on the end showing ``joined`` (-1: leading it)."""
    rest = [other for other in hand if other is not tile]
    suits = {half for other in rest for half in other.halves}
    if joined < 0:
        after = [tile.high, tile.low]
    else:
        after = list(ends)
        after.remove(joined)
        after.append(tile.high if tile.is_double else tile.other_half(joined))
    return (W_PIPS * tile.pips + W_SUITS * len(suits) + (W_DOUBLE if tile.is_double else 0.0)
            + W_FOLLOW * sum(1 for end in after if end in suits))


def choices(hand: Sequence[Tile], ends: Sequence[int]) -> list[tuple[Tile, int]]:
    """Every (tile, number joined) a seat holding ``hand`` could place on ``ends`` (no ends: any lead)."""
    if not ends:
        return [(tile, -1) for tile in hand]
    found = []
    for tile in hand:
        for end in sorted(set(ends)):
            if end in tile.halves:
                found.append((tile, end))
    return found


class PlayModel:
    """The weight of a sampled deal under the others' earlier choices (see the module docstring)."""

    def __init__(self, view: SeatView) -> None:
        self.choices: list[Choice] = []
        rules = rules_of(view)
        if rules.name != "block":
            return
        opts = rules.options
        free_lead = line_chance_leads(view.hand_number, getattr(opts, "first_lead", ""), getattr(opts, "lead_rule", ""))
        events = view.history()
        ends: list[int] = []
        pending: list[tuple[int, tuple[int, ...], Tile, int, int]] = []  # seat, ends, tile, joined, event number
        for number, event in enumerate(events):
            move = event.move
            tile = move.tile
            if tile is None or move.kind not in (Kind.LEAD, Kind.PLAY):
                continue
            if move.kind == Kind.LEAD:
                if event.seat != view.seat and free_lead:
                    pending.append((event.seat, (), tile, -1, number))
                ends = [tile.high, tile.low]
                continue
            if event.seat != view.seat:
                pending.append((event.seat, tuple(ends), tile, move.half, number))
            ends.remove(move.half)
            ends.append(tile.high if tile.is_double else tile.other_half(move.half))
        for seat, before, tile, joined, number in pending:
            later = tuple(e.move.tile for e in events[number:]
                          if e.seat == seat and e.move.tile is not None and e.move.kind in (Kind.LEAD, Kind.PLAY))
            self.choices.append(Choice(seat, before, tile, joined, later))

    @property
    def active(self) -> bool:
        """Whether any earlier choice can say something (else every deal weighs 1)."""
        return bool(self.choices)

    def weight(self, hands: Sequence[Sequence[Tile]]) -> float:
        """The deal's weight in (0, 1]: each earlier choice's soft-max probability relative to the likeliest move's."""
        log_weight = 0.0
        for choice in self.choices:
            hand = [*hands[choice.seat], *choice.later]
            options = choices(hand, choice.ends)
            if len(options) < 2:
                continue
            made = score(hand, choice.tile, choice.ends, choice.joined)
            best = max(score(hand, tile, choice.ends, joined) for tile, joined in options)
            log_weight += BETA * (made - best)
        return math.exp(log_weight)
