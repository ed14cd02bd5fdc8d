"""Block dominoes (RULES.md §2), with the Latin American partnership game (C12).

No drawing: a player who cannot play passes.  The hand winner scores the pips left in the
opponents' hands (``blocked_score`` selects the other counts for blocked hands).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from boneyard.errors import OptionError
from boneyard.options import DealSizes, option
from boneyard.rules.base import (
    Rules,
    SetupError,
    highest_over,
    lightest_tile_holder,
    line_lead,
    line_random_leader,
    lowest_holders,
    register,
    result,
    sized_deal,
    standard_deal_size,
)
from boneyard.state import Game, HandResult, HandSetup, ScoreItem
from boneyard.tiles import Tile, double_set

FirstLead = Literal["call_highest_double", "random_player_any_tile"]
BlockedScore = Literal["opponents_total", "opponents_minus_own", "sum_of_differences", "all_pips"]


@dataclass(frozen=True, slots=True)
class BlockOptions:
    set: Literal[6, 9, 12] = option(6, "highest pip of the set: double-six, -nine or -twelve (C13)")
    deal_sizes: DealSizes | None = option(None, "tiles per hand: one number, or one per player count from 2")
    first_lead: FirstLead = option(
        "call_highest_double", "first hand: call N-N down, or a random player leads any tile")
    lead_rule: Literal["winner_any", "rotate", "random"] = option(
        "winner_any", "later hands: the last winner leads any tile, the lead rotates left, or a random player")
    tie_rule: Literal["lightest_tile", "no_score"] = option(
        "lightest_tile", "tie for lowest pips in a block: lightest single tile wins, or nobody scores")
    blocked_score: BlockedScore = option("opponents_total", "what the winner of a blocked hand scores")
    target: int | None = option(None, "points to win (default 100)")
    win_check: Literal["end_of_hand", "immediate"] = option("end_of_hand", "when the target is checked")
    partnerships: bool = option(False, "4 players, seats 0+2 against 1+3, all 28 tiles dealt (C12)")


@register
class Block(Rules):
    """Block: 2-4 players, no drawing."""

    name = "block"
    title = "Block dominoes"
    Options = BlockOptions
    options: BlockOptions

    def configure(self) -> None:
        opts = self.options
        if opts.partnerships and self.players != 4:
            raise OptionError(f"option 'partnerships' needs 4 players, not {self.players}")
        self.top = opts.set
        self.target = 100 if opts.target is None else opts.target
        self.immediate_win = opts.win_check == "immediate"
        default = 7 if opts.partnerships else standard_deal_size(self.top, self.players, 5)
        self.hand_size = sized_deal(opts.deal_sizes, self.players, default, self.name)
        tiles = len(self.tile_set())
        if self.hand_size * self.players > tiles:
            raise OptionError(f"{self.players} hands of {self.hand_size} need more than the {tiles} tiles of the set")

    def tile_set(self) -> tuple[Tile, ...]:
        return double_set(self.top)

    def deal_size(self) -> int:
        return self.hand_size

    def random_leader_needed(self, game: Game) -> bool:
        return line_random_leader(game, self.options.first_lead, self.options.lead_rule)

    def open_hand(self, game: Game, setup: HandSetup) -> tuple[int, int, frozenset[Tile] | None]:
        return line_lead(self, game, setup, self.options.first_lead, self.options.lead_rule, self.top)

    def score_seats(self, seat: int) -> tuple[int, ...]:
        return (seat, (seat + 2) % 4) if self.options.partnerships else (seat,)

    # ------------------------------------------------------------ hand end
    def end_hand(self, game: Game, end: str, seat: int | None) -> HandResult:
        if self.options.partnerships:
            return self._partnership_end(game, end, seat)
        pips = [game.hand_points_of(s) for s in range(game.players)]
        if seat is None:
            lowest = lowest_holders(game)
            if len(lowest) == 1:
                seat = lowest[0]
            elif self.options.tie_rule == "lightest_tile":
                seat = lightest_tile_holder(game, lowest)
            else:
                return result(game, end, None)
        own = pips[seat]
        others = [p for s, p in enumerate(pips) if s != seat]
        rule = self.options.blocked_score
        if rule == "opponents_total":
            points = sum(others)
        elif rule == "opponents_minus_own":
            points = max(0, sum(others) - own)
        elif rule == "sum_of_differences":
            points = sum(p - own for p in others)
        else:
            points = sum(pips)
        name = "domino" if end == "domino" else "block"
        return result(game, end, seat, {seat: [ScoreItem(name, points)]})

    def _partnership_end(self, game: Game, end: str, seat: int | None) -> HandResult:
        pips = [game.hand_points_of(s) for s in range(4)]
        everything = sum(pips)
        if seat is None:
            sides = (pips[0] + pips[2], pips[1] + pips[3])
            if sides[0] == sides[1]:
                return result(game, end, None)
            side = 0 if sides[0] < sides[1] else 1
            # the side's player with fewer pips (then the lighter tile) wins the hand and leads next
            members = lowest_holders(game, (side, side + 2))
            seat = members[0] if len(members) == 1 else lightest_tile_holder(game, members)
        name = "domino" if end == "domino" else "block"
        item = [ScoreItem(name, everything)]
        return result(game, end, seat, {seat: item, (seat + 2) % 4: item})

    def game_over(self, game: Game, hand_ended: bool) -> tuple[bool, int | None]:
        finished, winner = highest_over(game.scores, self.target)
        if self.options.partnerships and not finished and max(game.scores) >= self.target:
            # partners share one score, so the tie between them is no tie
            best = max(game.scores)
            side = [s for s in range(4) if game.scores[s] == best]
            if len(side) == 2 and side[1] - side[0] == 2:
                return True, side[0]
        return finished, winner

    def check_setup(self, game: Game, setup: HandSetup) -> None:
        super().check_setup(game, setup)
        if self.options.partnerships and setup.stock:
            raise SetupError("partnership Block deals every tile; the stock must be empty")
