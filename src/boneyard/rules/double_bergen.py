"""Double Bergen (RULES.md §6): Bergen around one spinner, scoring matching arm tips.

Each round a *designated leader* (chosen by lot in round 1, then moving left) must set a
double; without one the duty passes left to the first player holding a double, and if
nobody holds one the players draw in turn, from the designated leader, until a double turns
up (RECORD.md: this search is not written as moves; the replay repeats it from the stock).
That double is the round's only spinner: all four of its faces must be covered before any
arm grows.  After every play the spinner scores 2 while a face is free, and every suit
showing on two or more arm tips scores its exposed halves (DBG-7).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from boneyard.layout import Layout, Placed, Role
from boneyard.options import DealSizes, option, target_option
from boneyard.rules.base import (
    LeadCaller,
    Rules,
    SetupError,
    draw_in_turn,
    hand_pips,
    highest_over,
    named_result,
    register,
    unique_lowest,
)
from boneyard.rules.bergen import (
    WinCheck,
    configure_family,
    doubles_held,
    first_leader_by_lot,
    previous_leader,
    rotating_leader,
)
from boneyard.state import UNTIL_PLAYABLE, Game, HandResult, HandSetup, ScoreItem
from boneyard.tiles import Tile, double_set

SPINNER_PAIR = 2  #: what the spinner scores while one of its faces is free (DBG-7.1)


def double_setter(designated: int, holds_double: Sequence[bool]) -> int | None:
    """DBG-4: who sets the double, from whether each seat holds one: the designated leader or the first
    player to his left holding a double; ``None``: nobody does (they draw for one: :func:`double_drawer`)."""
    players = len(holds_double)
    for step in range(players):
        seat = (designated + step) % players
        if holds_double[seat]:
            return seat
    return None


def double_drawer(designated: int, players: int, drawn_doubles: Iterable[bool]) -> tuple[int, int] | None:
    """DBG-4 when nobody holds a double: from the designated leader, the players draw in turn until a double
    turns up, which its drawer sets.  ``drawn_doubles`` says of each tile the boneyard may give, in drawing
    order, whether it is a double.  The number of draws and the seat that drew the double; ``None``: the
    boneyard has none to give (no double can be set)."""
    return draw_in_turn(designated, players, drawn_doubles)


def tip_points(tips: Iterable[tuple[int, int]], lone_double_scores: bool) -> int:
    """Matching arm tips (DBG-7.2-3), from each started arm's tip (number, exposed halves): every
    suit on two or more tips scores its halves; a lone double scores 2 with ``lone_double_scores``."""
    tally: dict[int, int] = {}  # per suit: 16 x tips + halves
    for value, exposed in tips:
        tally[value] = tally.get(value, 0) + 16 + exposed
    points = 0
    for code in tally.values():
        if code >= 32:
            points += code & 15
        elif code == 18 and lone_double_scores:  # one tip, a double
            points += 2
    return points


def double_bergen_hand_end(end_scoring: str, seat: int | None, pips: Sequence[int],
                           sizes: Sequence[int]) -> tuple[int | None, list[int]]:
    """The round winner and every seat's points (DBG-9): the one who dominoed, else the one lowest
    pip total; ``winner_plus_1`` gives the winner 1, ``tile_penalty`` takes 1 per tile in hand."""
    winner = seat if seat is not None else unique_lowest(pips)
    if end_scoring == "tile_penalty":
        return winner, [-size for size in sizes]
    points = [0] * len(pips)
    if winner is not None:
        points[winner] = 1
    return winner, points


@dataclass(frozen=True, slots=True)
class DoubleBergenOptions:
    set: Literal[6, 9, 12] = option(6, "highest pip of the set: double-six, -nine or -twelve")
    deal_sizes: DealSizes | None = option(None, "tiles per hand: one number, or one per player count from 2")
    boneyard_reserve: Literal[0, 2] = option(0, "tiles left in the boneyard that may never be drawn")
    lone_double_scores: bool = option(False, "a double at an arm tip scores 2 even when no other tip shows its suit")
    spinner_sides_first: bool = option(False, "the spinner's two short ends open only after both long sides are taken")
    end_scoring: Literal["winner_plus_1", "tile_penalty"] = option(
        "winner_plus_1", "round end: the winner scores 1, or everyone loses 1 per tile left in hand (no bonus)")
    target: int = target_option(100, "points to win")
    win_check: WinCheck = option("end_of_hand", "when the target is checked: after the hand's scoring, or at once")


@register
class DoubleBergen(Rules):
    """Double Bergen: a four-way spinner, then matching arm tips."""

    name = "double-bergen"
    aliases = ("double_bergen", "doublebergen")
    title = "Double Bergen"
    Options = DoubleBergenOptions
    options: DoubleBergenOptions
    draw_mode = UNTIL_PLAYABLE

    def configure(self) -> None:
        (self.top, self.reserve, self.target, self.immediate_win, self.hand_size) = configure_family(
            self, self.options, self.options.target)

    def tile_set(self) -> tuple[Tile, ...]:
        return double_set(self.top)

    def deal_size(self) -> int:
        return self.hand_size

    def new_layout(self) -> Layout:
        return Layout(sides_first=self.options.spinner_sides_first)

    # ------------------------------------------------------------ setting the double (DBG-4)
    def leader_by_lot(self, number: int) -> bool:
        return first_leader_by_lot(number)

    def open_hand(self, game: Game, setup: HandSetup) -> tuple[int, int, frozenset[Tile] | None]:
        designated = rotating_leader(previous_leader(game), self.players)
        if designated is None:
            assert setup.leader is not None
            designated = setup.leader
        else:
            designated = self.check_leader(setup, designated)
        hands = game.hands
        seat = double_setter(designated, [any(tile.is_double for tile in tiles) for tiles in hands])
        if seat is not None:
            return designated, seat, frozenset(doubles_held(hands[seat]))
        drawable = game.stock[game.stock_pos:len(game.stock) - self.reserve]
        found = double_drawer(designated, self.players, [tile.is_double for tile in drawable])
        if found is not None:
            draws, seat = found
            tile = None
            for draw in range(draws):
                tile = game.setup_draw((designated + draw) % self.players)
            assert tile is not None
            return designated, seat, frozenset({tile})
        raise SetupError("nobody holds a double and the boneyard has none left to draw: no double can be set")

    def lead_caller(self, game: Game) -> LeadCaller | None:
        """Who sets the double, from the deal (DBG-4): the designated leader (``game``'s current hand's recorded
        leader), or the first seat to his left holding a double.  The setter's choice among his doubles is free,
        so the call names the first of them in the deal's order: a deal listed with the double really set first
        is read as agreeing with it.

        Where the stock is short of what the deal left (asked before the first tile is set), nobody was dealt a
        double and the setter drew the one he sets: every tile drawn before it was another.  Then no seat held
        a double besides the one set, so a deal with a second double calls no lead like this one."""
        designated = game.log[-1].leader
        undealt = len(self.tile_set()) - self.players * self.hand_size
        if len(game.stock) - game.stock_pos < undealt:

            def drawn(deal: Sequence[Sequence[Tile]]) -> tuple[int, Tile] | None:
                held = [(seat, tile) for seat, tiles in enumerate(deal) for tile in tiles if tile.is_double]
                return held[0] if len(held) == 1 else None

            return drawn

        def caller(deal: Sequence[Sequence[Tile]]) -> tuple[int, Tile] | None:
            seat = double_setter(designated, [any(tile.is_double for tile in tiles) for tiles in deal])
            return None if seat is None else (seat, doubles_held(deal[seat])[0])

        return caller

    # ------------------------------------------------------------ play (DBG-5, DBG-7)
    def double_role(self, game: Game, tile: Tile, is_lead: bool) -> Role:
        return Role.SPINNER if is_lead else Role.CROSS

    def play_target(self, game: Game) -> int:
        tiles = game.layout.tiles
        if tiles and any(not face.child for face in tiles[0].faces):
            return 1
        return 0

    def target_reason(self, game: Game, target: int) -> str:
        return "all four faces of the spinner (tile 1) must be covered before any arm grows"

    def score_play(self, game: Game, seat: int, placed: Placed) -> tuple[tuple[ScoreItem, ...], int]:
        layout = game.layout
        items: list[ScoreItem] = []
        if any(not face.child for face in layout.tiles[0].faces):
            items.append(ScoreItem("spinner", SPINNER_PAIR))
        tips = [(face.value, layout.exposed(face)) for face in layout.free_faces() if face.owner != 1]
        pairs = tip_points(tips, self.options.lone_double_scores)
        if pairs:
            items.append(ScoreItem("pairs", pairs))
        return tuple(items), sum(item.points for item in items)

    # ------------------------------------------------------------ round and game end (DBG-8 … DBG-10)
    def blocked_rule(self) -> str:
        tiles = self.options.end_scoring == "tile_penalty"
        penalty = "; each player loses a point per tile left in hand" if tiles else ""
        return f"the lowest pip total wins; a tie has no winner{penalty}"

    def end_hand(self, game: Game, end: str, seat: int | None) -> HandResult:
        winner, points = double_bergen_hand_end(self.options.end_scoring, seat, hand_pips(game),
                                                [len(tiles) for tiles in game.hands])
        name = "tiles" if self.options.end_scoring == "tile_penalty" else "winner"
        return named_result(game, end, winner, points, name)

    def game_over(self, game: Game, hand_ended: bool) -> tuple[bool, int | None]:
        return highest_over(game.scores, self.target)
