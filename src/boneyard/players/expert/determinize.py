"""Public replay and determinization: a full :class:`~boneyard.state.Game` built from a seat's view.

:func:`replay_public` rebuilds the current hand from public information only: a fresh game of
the same variant, options, hand number and start-of-hand scores, onto which the public history
is replayed.  Hidden tiles are stand-ins (:data:`UNKNOWN`) that are swapped for the tile a seat
is seen to place, so the variant's own machinery (pending doubles, direction, forced draws,
gives, passes) evolves exactly as on the real table, and observers can look at the table as it
stood before every move (that is how :mod:`.inference` learns which tiles a passing player
lacked).

:func:`determinize` then copies that public game and deals it a sampled set of hidden hands
and a sampled stock order: the result is a game that the searching seat cannot tell from the
real one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from boneyard.moves import Kind, Move
from boneyard.rules.base import Rules, make_rules
from boneyard.state import Game, HandLog, HandSetup
from boneyard.tiles import Tile
from boneyard.view import PublicEvent, SeatView

#: The stand-in for a tile this seat cannot see (any interned tile would do: it is never matched).
UNKNOWN = Tile(0, 0)

Observer = Callable[[Game, PublicEvent], None]


@lru_cache(maxsize=64)
def _rules(variant: str, players: int, options: object) -> Rules:
    return make_rules(variant, players, options)


def rules_of(view: SeatView) -> Rules:
    """The variant's rules, rebuilt from the public variant name, player count and options."""
    return _rules(view.variant, view.players, view.options)


def start_scores(view: SeatView, rules: Rules) -> list[int]:
    """The scores at the start of the current hand (the current ones minus this hand's play points)."""
    scores = list(view.scores)
    for event in view.history():
        if event.points:
            for seat in rules.score_seats(event.seat):
                scores[seat] -= event.points
    return scores


def replay_public(view: SeatView, observe: Observer | None = None) -> Game:
    """The current hand rebuilt from public information (hidden tiles are :data:`UNKNOWN`).

    ``observe(game, event)`` is called before each public event is replayed, with the game as
    it stood when that move was made.
    """
    rules = rules_of(view)
    history = view.history()
    # every seat starts with enough stand-ins never to run out before it really did; the replay
    # only needs the stock's length to be exact (it decides whether a seat may draw)
    sizes = list(view.hand_sizes)
    draws = 0
    for event in history:
        kind = event.move.kind
        if kind <= Kind.PLAY or kind == Kind.GIVE:
            sizes[event.seat] += 1
        elif kind == Kind.DRAW:
            draws += 1
    game = Game(rules, view.names)
    game.scores = start_scores(view, rules)
    number = max(1, view.hand_number)
    game.log = [HandLog(n, HandSetup([], []), 0) for n in range(1, number + 1)]
    previous = view.previous_hand  # who led and who won the previous hand (later leads may follow from it)
    if previous is not None:
        game.log[-2].leader, game.log[-2].result = previous
    game.log[-1].start_scores = list(game.scores)
    if view.hand_leader is not None:
        game.log[-1].leader = view.hand_leader  # (Double Bergen's designated leader: the set-up reads from it)
    game.hands = [[UNKNOWN] * size for size in sizes]
    game.stock = [UNKNOWN] * (view.stock_count + draws)
    game.layout = rules.new_layout()
    game.dice = view.dice
    game.in_hand = True
    game.turn = history[0].seat if history else view.turn
    if not history and view.turn == view.seat:
        leads = [move.tile for move in view.legal_moves() if move.kind == Kind.LEAD and move.tile is not None]
        game.lead_tiles = frozenset(leads) if leads else None
    for event in history:
        if observe is not None:
            observe(game, event)
        _replay(game, event)
    return game


def _replay(game: Game, event: PublicEvent) -> None:
    """Make one public event on the public game, swapping a stand-in for a revealed tile."""
    move = event.move
    game.turn = event.seat
    hand = game.hands[event.seat]
    if move.kind in (Kind.LEAD, Kind.PLAY, Kind.GIVE):
        tile = move.tile if move.tile is not None else UNKNOWN
        if tile not in hand:
            hand[hand.index(UNKNOWN)] = tile
        if move.tile is None:
            move = Move.give(UNKNOWN)
    game._apply(move)


def determinize(public: Game, hands: list[list[Tile]], stock: list[Tile]) -> Game:
    """A copy of the public game with ``hands`` (every seat's, in seat order) and ``stock`` (in draw order)."""
    game = Game(public.rules, public.names)
    game.scores = list(public.scores)
    current = public.log[-1]
    log = HandLog(current.number, current.setup, current.leader, list(current.events), None,
                  list(current.start_scores))
    game.log = [*public.log[:-1], log]
    game.hands = [list(hand) for hand in hands]
    game.stock = list(stock)
    game.stock_pos = 0
    game.layout = public.layout.copy()
    game.turn = public.turn
    game.direction = public.direction
    game.passes = public.passes
    game.drawn = public.drawn
    game.forced_draw = public.forced_draw
    game.give_pending = public.give_pending
    game.pending = public.pending
    game.lead_tiles = public.lead_tiles
    game.dice = public.dice
    game.in_hand = public.in_hand
    game.finished = public.finished
    game.winner = public.winner
    return game
