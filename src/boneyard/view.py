"""What one seat may see: the observer every player decides from.

A :class:`SeatView` exposes the seat's own hand and the public state (layout, scores, stock
size, hand sizes, dice, the public history) and nothing else: no other hand, no stock order.
Players get a view, never the game, so hidden information cannot leak by accident.

A :class:`TableView` is what a spectator sees: the public state alone, no hand, no legal moves,
and every PIP ``give`` without its tile (only the giver and the receiver see that tile).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boneyard.moves import Kind, Move
from boneyard.state import Dice, HandResult, ScoreItem

if TYPE_CHECKING:
    from boneyard.layout import Layout
    from boneyard.state import Game
    from boneyard.tiles import Tile


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """A move as every seat saw it: a draw hides its tile, a give shows it only to the two seats."""

    seat: int
    move: Move
    points: int
    scoring: tuple[ScoreItem, ...]


class TableView:
    """The game as a spectator sees it: the public state, nobody's hand."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    @property
    def variant(self) -> str:
        return self._game.rules.name

    @property
    def options(self) -> object:
        return self._game.rules.options

    @property
    def players(self) -> int:
        return self._game.players

    @property
    def names(self) -> list[str]:
        return list(self._game.names)

    @property
    def layout(self) -> Layout:
        """The table (public).  Treat it as read-only."""
        return self._game.layout

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._game.scores)

    @property
    def stock_count(self) -> int:
        return self._game.stock_left

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(hand) for hand in self._game.hands)

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def direction(self) -> int:
        return self._game.direction

    @property
    def pending(self) -> tuple[tuple[int, int], ...]:
        return self._game.pending

    @property
    def dice(self) -> Dice | None:
        return self._game.dice

    @property
    def hand_number(self) -> int:
        return len(self._game.log)

    @property
    def previous_hand(self) -> tuple[int, HandResult | None] | None:
        """The previous hand's leader and result (who won it, the points it gave); ``None`` during the first hand.
        Public: everyone saw who led and who won, and some leads follow from it (Block's winner leads)."""
        log = self._game.log
        if len(log) < 2:
            return None
        previous = log[-2]
        return previous.leader, copy.deepcopy(previous.result)  # a copy: the view never hands out the game's own

    @property
    def hand_leader(self) -> int | None:
        """The current hand's leader as the rules named it when it opened (in Double Bergen the designated leader,
        who must set a double or see the duty pass to his left); ``None`` before the first hand.  Public: the
        table sees who is called to lead."""
        log = self._game.log
        return log[-1].leader if log else None

    @property
    def target(self) -> int | None:
        value = getattr(self._game.rules, "target", None)
        return value if isinstance(value, int) else None

    def history(self, start: int = 0) -> list[PublicEvent]:
        """The current hand's moves as this view saw them (from the ``start``-th on)."""
        game = self._game
        events = []
        for event in game.hand.events[start:]:
            move = event.move
            receiver = event.receiver if event.receiver is not None else (event.seat + game.direction) % game.players
            if move.kind == Kind.GIVE and not self.sees_give(event.seat, receiver):
                move = Move.give()
            events.append(PublicEvent(event.seat, move, event.points, event.scoring))
        return events

    def sees_give(self, giver: int, receiver: int) -> bool:
        """Whether the tile handed from ``giver`` to ``receiver`` is shown: to a spectator, never."""
        return False

    def tile_value(self, tile: Tile) -> int:
        """What ``tile`` counts when left in a hand, under this variant."""
        return self._game.rules.tile_value(tile)

    def play_points(self, move: Move) -> tuple[tuple[ScoreItem, ...], int]:
        """What a placement would score now (computed from the public layout only)."""
        return self._game.play_points(move)

    def ends_after(self, move: Move) -> list[int]:
        """The values of the open ends once the placement ``move`` is made (from the public layout only)."""
        return self._game.ends_after(move)


class SeatView(TableView):
    """The game as seen from ``seat``: the public state and that seat's own hand and moves."""

    __slots__ = ("seat",)

    def __init__(self, game: Game, seat: int) -> None:
        super().__init__(game)
        self.seat = seat

    @property
    def hand(self) -> tuple[Tile, ...]:
        return tuple(self._game.hands[self.seat])

    def sees_give(self, giver: int, receiver: int) -> bool:
        """A give's tile is shown to the two seats it passes between."""
        return self.seat in (giver, receiver)

    def legal_moves(self) -> list[Move]:
        """The seat's legal moves (empty when it is not this seat's turn)."""
        game = self._game
        return game.legal_moves() if game.turn == self.seat and game.in_hand else []
