"""What the others' choices say about their hands: a likelihood of sampled deals in the line games.

:mod:`.inference` reads only what is certain — a seat that passed holds nothing that fitted.  A
seat's choices say more, softly: a player who could place several tiles tends to choose as a sound
player does, scoring what the play scores, shedding a heavy tile, playing a double while he can,
keeping many suits in hand and leaving open ends he can follow.  So a hand that would have made the
actual choice a poor one is less likely than a hand that makes it the natural one.

A sampled deal fixes every other seat's hand at each of its earlier decisions that no draw of his
followed: the tiles he holds now plus those he placed since.  (A decision before one of his draws is
not read: which of his tiles came with the draw is hidden.)  :class:`PlayModel` scores each placement
such a hand could have made with the rules of thumb above (the heuristic's own weights, see
:mod:`boneyard.players.heuristic`; a play's points in steps of :func:`point_step`) and gives the deal
the weight

    product over those decisions of  exp(BETA * (score of the move made - best score))

— the soft-max probability of the move made, relative to the most likely move's, so at most 1.  The
search keeps a sampled deal with that probability (rejection sampling: the deals it searches then
follow the posterior under this model, see :class:`~.search.Search`).  ``BETA`` is mild on purpose: a
choice one rule-of-thumb point worse than the best still keeps more than half its weight, so an
opponent who plays otherwise only blurs the inference, never rules his real hand out.

The placements each decision offered, and their points, come from the fast engine's replay of the
hand (:func:`~.fastsearch.replay_hand`: the variant's own legal moves and scoring, nothing rewritten
here).  Read are Block, Draw and All Fives (:data:`READ`, where the reading was measured).  Only
decisions with a choice count: leads count only where they are free (chance picked the leader), a called
lead is no choice.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from boneyard.fast import FastGame
from boneyard.moves import Kind
from boneyard.players.expert.determinize import rules_of
from boneyard.players.expert.fastsearch import replay_hand
from boneyard.rules.base import Rules, line_chance_leads
from boneyard.tiles import Tile
from boneyard.view import PublicEvent, SeatView

BETA = 0.7  #: how sharply the model prefers the best-scored move (0: every move alike, no inference)
W_PIPS = 0.2  #: per pip of the tile placed (the heuristic's shedding weight when no block threatens)
W_SUITS = 0.6  #: per suit still in hand afterwards
W_DOUBLE = 1.5  #: for placing a double while it can be
W_FOLLOW = 1.0  #: per open end afterwards that the hand can follow
W_POINTS = 1.0  #: per step of points the placement scores (:func:`point_step`)
#: the variants whose choices are read.  Not the Bergen family: against the previous expert (session 6,
#: docs/players.md) Bergen with the reading won 24 of 60 games, without it 33 of the same 60.  Session 8 measured
#: it again: the reading does predict a Bergen hand about as well as a Block hand (``benchmarks.reading``: 5.8%
#: less log-loss against the heuristic, 2.8% against the expert), but it won no games there — 125 of 200 against
#: the heuristic with it, 126 without (``samples=40``, the same deals), 52 of 108 against itself unread at
#: ``time=0.1``.  So Bergen, Flower & Scorpion and Double Bergen are not read; nor PIP, whose gives and
#: directional tiles the model does not describe
READ = frozenset({"block", "draw", "all-fives"})


def point_step(rules: Rules) -> int:
    """The points one rule-of-thumb step is worth: a count of five pips in All Fives (in its unit), else one point."""
    return max(1, 5 // int(getattr(rules, "unit", 1))) if rules.name == "all-fives" else 1


@dataclass(frozen=True, slots=True)
class Choice:
    """One earlier decision of another seat: the ends before it, the tile placed and the number it showed."""

    seat: int
    ends: tuple[int, ...]  #: the open ends before it (empty: a lead)
    tile: Tile
    joined: int  #: the number it was placed on (a lead: -1)
    later: tuple[Tile, ...]  #: the tiles the seat placed from this decision on (this one included)
    points: float = 0.0  #: what the move made scored, in steps (:func:`point_step`)
    #: per tile index, each placement the decision offered that tile: (the number joined, its points in steps)
    offered: Mapping[int, tuple[tuple[int, float], ...]] = field(default_factory=dict)
    #: the suit counts of :attr:`later` (:func:`suit_counts`) and its placements here (:meth:`options`)
    later_counts: tuple[int, ...] = (0,) * 16
    later_options: tuple[tuple[Tile, int, float], ...] = ()

    def options(self, hand: Sequence[Tile]) -> list[tuple[Tile, int, float]]:
        """Every placement a seat holding ``hand`` had here: (tile, number joined, points in steps)."""
        offered = self.offered
        return [(tile, joined, points) for tile in hand for joined, points in offered.get(tile.index, ())]


def score(hand: Sequence[Tile], tile: Tile, ends: Sequence[int], joined: int) -> float:
    """The rule-of-thumb score of placing ``tile`` from ``hand`` on the end showing ``joined`` (-1: leading it),
    its points aside."""
    return scores(hand, ends, [(tile, joined, 0.0)])[0]


def scores(hand: Sequence[Tile], ends: Sequence[int], placements: Sequence[tuple[Tile, int, float]]) -> list[float]:
    """The rule-of-thumb score of each placement (tile, number joined or -1 for a lead, points in steps) from
    ``hand`` on the open ``ends``, points included: the tile's pips, the suits still in hand after it, a double,
    and the open ends afterwards the rest of the hand can follow.  (Suits are bit sets: one count per suit.)"""
    return _scored(suit_counts(hand), ends, placements)


def suit_counts(hand: Sequence[Tile], counts: Sequence[int] = (0,) * 16) -> list[int]:
    """Per suit, how many tiles of ``hand`` show it (a double once), added to ``counts``."""
    out = list(counts)
    for other in hand:
        out[other.high] += 1
        if other.low != other.high:
            out[other.low] += 1
    return out


def _scored(counts: Sequence[int], ends: Sequence[int], placements: Sequence[tuple[Tile, int, float]]) -> list[float]:
    held = 0
    for suit, count in enumerate(counts):
        if count:
            held |= 1 << suit
    out = []
    for tile, joined, points in placements:
        high, low = tile.high, tile.low
        rest = held
        if counts[high] == 1:
            rest &= ~(1 << high)
        if low != high and counts[low] == 1:
            rest &= ~(1 << low)
        if joined < 0:
            follow = (rest >> high & 1) + (rest >> low & 1)
        else:
            after = list(ends)
            if joined in after:
                after.remove(joined)
            after.append(high if high == low else high + low - joined)
            follow = sum(rest >> end & 1 for end in after)
        out.append(W_PIPS * (high + low) + W_SUITS * rest.bit_count() + (W_DOUBLE if high == low else 0.0)
                   + W_FOLLOW * follow + W_POINTS * points)
    return out


class PlayModel:
    """The weight of a sampled deal under the others' earlier choices (see the module docstring)."""

    def __init__(self, view: SeatView, variants: frozenset[str] = READ) -> None:
        """The choices of the other seats in ``view``'s hand, where its variant is among ``variants`` (the ones the
        expert reads; ``benchmarks.reading`` measures the model in the others too)."""
        self.choices: list[Choice] = []
        rules = rules_of(view)
        if rules.name not in variants:
            return
        opts = rules.options
        free_lead = line_chance_leads(
            view.hand_number, getattr(opts, "first_lead", ""), getattr(opts, "lead_rule", ""))
        events = view.history()
        last_draw = {event.seat: number for number, event in enumerate(events) if event.move.kind == Kind.DRAW}
        step = point_step(rules)
        placed = 0  # the bit set of the tiles placed before the event visited
        read: list[tuple[int, PublicEvent, tuple[int, ...], float, dict[int, tuple[tuple[int, float], ...]]]] = []

        def visit(game: FastGame, number: int, event: PublicEvent) -> None:
            nonlocal placed
            move = event.move
            tile = move.tile
            if tile is None or move.kind not in (Kind.LEAD, Kind.PLAY):
                return
            seat = event.seat
            if (seat != view.seat and number > last_draw.get(seat, -1)
                    and (move.kind == Kind.PLAY or free_lead)):
                read.append((number, event, *_offered(game, seat, placed, game.from_move(move), step)))
            placed |= 1 << tile.index

        if replay_hand(view, visit) is None:  # pragma: no cover - the fast engine follows every history
            return
        for number, event, ends, points, offered in read:
            seat = event.seat
            tile = event.move.tile
            assert tile is not None
            later = tuple(e.move.tile for e in events[number:]
                          if e.seat == seat and e.move.tile is not None and e.move.kind in (Kind.LEAD, Kind.PLAY))
            joined = event.move.half if event.move.kind == Kind.PLAY else -1
            choice = Choice(seat, ends, tile, joined, later, points, offered)
            self.choices.append(replace(choice, later_counts=tuple(suit_counts(later)),
                                        later_options=tuple(choice.options(later))))

    @property
    def active(self) -> bool:
        """Whether any earlier choice can say something (else every deal weighs 1)."""
        return bool(self.choices)

    def weight(self, hands: Sequence[Sequence[Tile]]) -> float:
        """The deal's weight in (0, 1]: each earlier choice's soft-max probability relative to the likeliest move's."""
        log_weight = 0.0
        for choice in self.choices:
            own = hands[choice.seat]
            offered = choice.offered
            options = [(tile, joined, points) for tile in own if tile.index in offered
                       for joined, points in offered[tile.index]]
            options += choice.later_options
            if len(options) < 2:
                continue
            valued = _scored(suit_counts(own, choice.later_counts), choice.ends,
                             [(choice.tile, choice.joined, choice.points), *options])
            log_weight += BETA * (valued[0] - max(valued))
        return math.exp(log_weight)


def _offered(game: FastGame, seat: int, placed: int, made: int, step: int
             ) -> tuple[tuple[int, ...], float, dict[int, tuple[tuple[int, float], ...]]]:
    """At a decision of ``seat`` on the replayed ``game``: the open ends, the points of the action ``made`` in
    steps, and per tile every placement the rules offered it (any tile not yet placed, as if he held them all)."""
    saved = game.hands[seat]
    game.hands[seat] = game.t.all_tiles & ~placed
    try:
        actions = [action for action in game.legal_actions() if action < game.draw]
    finally:
        game.hands[seat] = saved
    if made not in actions:  # pragma: no cover - the move made is always among them
        actions.append(made)
    arms = game.arms
    scored = game.placement_points(actions)
    value = game.value
    offered: dict[int, list[tuple[int, float]]] = {}
    points = 0.0
    for action, gained in zip(actions, scored, strict=True):
        joined = value[action % arms] if game.placed else -1
        offered.setdefault(action // arms, []).append((joined, gained / step))
        if action == made:
            points = gained / step
    ends = tuple(v for v in value[:game.narms] if v >= 0) if game.placed else ()
    return ends, points, {tile: tuple(found) for tile, found in offered.items()}
