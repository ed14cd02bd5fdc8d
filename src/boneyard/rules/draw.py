"""Draw dominoes (RULES.md §3): Block with a boneyard to draw from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from boneyard.layout import FaceKind
from boneyard.options import DealSizes, option, target_option
from boneyard.rules.base import register
from boneyard.rules.block import Block, BlockedScore, FirstLead, PartnershipBlock
from boneyard.state import UNTIL_PLAYABLE, Game


def dead_layout(ends: Sequence[int], on_table: Callable[[int], int], suit_size: int) -> bool:
    """DRW-8: whether every open end shows a suit all of whose ``suit_size`` tiles are on the table
    (``on_table(n)``: how many tiles carrying the number n are placed)."""
    return bool(ends) and all(on_table(number) == suit_size for number in ends)


@dataclass(frozen=True, slots=True)
class DrawOptions:
    set: Literal[6, 9, 12] = option(6, "highest pip of the set: double-six, -nine or -twelve")
    deal_sizes: DealSizes | None = option(None, "tiles per hand: one number, or one per player count from 2")
    first_lead: FirstLead = option(
        "call_highest_double", "first hand: call N-N down, or a random player leads any tile")
    lead_rule: Literal["winner_any", "rotate", "random"] = option(
        "winner_any", "later hands: the last winner leads any tile, the lead rotates left, or a random player")
    tie_rule: Literal["lightest_tile", "no_score"] = option(
        "lightest_tile", "tie for lowest pips in a block: lightest single tile wins, or nobody scores")
    blocked_score: BlockedScore = option("opponents_total", "what the winner of a blocked hand scores")
    target: int | None = target_option(None, "points to win (default 100)")
    win_check: Literal["end_of_hand", "immediate"] = option("end_of_hand", "when the target is checked")
    allow_voluntary_draw: bool = option(False, "a player may draw even when able to play")
    boneyard_reserve: Literal[0, 2] = option(0, "tiles left in the boneyard that may never be drawn")
    end_on_dead_layout: bool = option(False, "end the hand as blocked when both ends show exhausted suits")
    partnerships: bool = option(False, "4 players, seats 0+2 against 1+3")
    partnership_block: PartnershipBlock = option(
        "side_total", "blocked partnership hand: the side with fewer pips in its two hands wins, or the side of "
        "the single player with the fewest pips")


@register
class Draw(Block):
    """Draw: as Block, but a player who cannot play draws until he can."""

    name = "draw"
    title = "Draw dominoes"
    Options = DrawOptions  # type: ignore[assignment]
    options: DrawOptions  # type: ignore[assignment]
    draw_mode = UNTIL_PLAYABLE

    def configure(self) -> None:
        super().configure()
        self.reserve = self.options.boneyard_reserve
        self.voluntary_draw = self.options.allow_voluntary_draw

    def dead_layout(self, game: Game) -> bool:
        if not self.options.end_on_dead_layout:
            return False
        on_table: dict[int, int] = {}
        for placed in game.layout.tiles:
            for half in {placed.tile.high, placed.tile.low}:
                on_table[half] = on_table.get(half, 0) + 1
        ends = [face.value for face in game.layout.open_ends() if face.kind != FaceKind.END]
        return dead_layout(ends, lambda number: on_table.get(number, 0), self.top + 1)
