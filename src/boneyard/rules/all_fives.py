"""All Fives, also called Muggins or Five-Up (RULES.md §4).

After every play the open ends are counted (A5-7); a positive multiple of five scores at once.
``spinner_mode`` picks the reading: the first double is the spinner (All Fives, the default),
no spinner (Muggins) or every double a spinner (Five-Up).  The hand winner scores the pips left
in the other hands, rounded to five.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from boneyard.layout import Placed, Role
from boneyard.options import DealSizes, option, target_option
from boneyard.rules.base import (
    LeadCaller,
    PipCount,
    Rules,
    check_deal_fits,
    end_name,
    hand_pips,
    highest_over,
    line_chance_leads,
    line_lead,
    line_lead_caller,
    lowest_seats,
    register,
    result,
    round5,
    sized_deal,
    standard_deal_size,
)
from boneyard.rules.block import FirstLead
from boneyard.state import UNTIL_PLAYABLE, Game, HandResult, HandSetup, ScoreItem
from boneyard.tiles import Tile, double_set


@dataclass(frozen=True, slots=True)
class AllFivesOptions:
    spinner_mode: Literal["first_double", "none", "all_doubles"] = option(
        "first_double", "which doubles are spinners: the first (All Fives), none (Muggins), all (Five-Up)")
    set: Literal[6, 9, 12] = option(6, "highest pip of the set: double-six, -nine or -twelve")
    deal_sizes: DealSizes | None = option(None, "tiles per hand: one number, or one per player count from 2")
    first_lead: FirstLead = option(
        "call_highest_double", "first hand: call N-N down (random 1st hand: a random player leads any tile)")
    lead_rule: Literal["winner_any", "rotate"] = option(
        "winner_any", "later hands: the last winner leads any tile, or the lead rotates left (rotated start)")
    boneyard_reserve: Literal[0, 1, 2] = option(0, "tiles left in the boneyard that may never be drawn")
    allow_voluntary_draw: bool = option(False, "a player may draw even when able to play")
    score_unit: Literal["pips", "fives"] = option("pips", "score in pips, or in fives (count divided by 5)")
    tie_rule: Literal["no_score", "split_3p"] = option(
        "no_score", "tie for lowest in a block: nobody scores, or (3 players) the tied pair split the third's pips")
    bonus_rounding: Literal["total", "per_opponent"] = option(
        "total", "round the opponents' pips to five once in total, or for each opponent")
    blocked_score: Literal["opponents_total", "opponents_minus_own"] = option(
        "opponents_total", "what the winner of a blocked hand scores")
    end_scoring: Literal["winner_takes", "each_subtracts_own"] = option(
        "winner_takes", "the hand winner takes the others' pips, or everyone loses his own")
    target: int | None = target_option(None, "points to win (default 250 for 2 players, 200 for 3-4; 61 in fives)")
    win_check: Literal["immediate", "end_of_hand"] = option("immediate", "when the target is checked")


def count_points(count: int, unit: int) -> int:
    """What a count scores (A5-8): a positive multiple of five, in pips or fives; else 0."""
    return count // unit if count > 0 and count % 5 == 0 else 0


def fives_hand_end(opts: AllFivesOptions, unit: int, end: str, seat: int | None,
                   pips: Sequence[int]) -> tuple[int | None, list[int]]:
    """The hand winner and every seat's points (A5-10, A5-11), from every hand's pip total.

    ``seat`` is the player who dominoed (``None``: a blocked hand, won by the one lowest total)."""
    n = len(pips)
    points = [0] * n
    if seat is None:
        lowest = lowest_seats(pips)
        if len(lowest) == 1:
            seat = lowest[0]
        elif opts.end_scoring == "each_subtracts_own":
            return None, [-round5(p) // unit for p in pips]  # a tie changes nothing here
        elif opts.tie_rule == "split_3p" and n == 3 and len(lowest) == 2:
            third = next(s for s in range(3) if s not in lowest)
            share = (round5(pips[third]) // 2) // 5 * 5 // unit
            for tied in lowest:
                points[tied] = share
            return None, points
        else:
            return None, points
    if opts.end_scoring == "each_subtracts_own":
        return seat, [-round5(p) // unit for p in pips]
    others = sum(pips) - pips[seat]
    if opts.bonus_rounding == "total":
        bonus = round5(others)
        raw = round5(others - pips[seat])
    else:
        bonus = sum(round5(p) for s, p in enumerate(pips) if s != seat)
        raw = bonus - round5(pips[seat])
    if opts.blocked_score == "opponents_minus_own" and end == "blocked":
        bonus = max(0, raw)
    points[seat] = bonus // unit
    return seat, points


@register
class AllFives(Rules):
    """All Fives / Muggins / Five-Up."""

    name = "all-fives"
    aliases = ("muggins", "five-up", "fives", "all_fives", "allfives")
    title = "All Fives (Muggins, Five-Up)"
    Options = AllFivesOptions
    options: AllFivesOptions
    draw_mode = UNTIL_PLAYABLE

    def configure(self) -> None:
        opts = self.options
        self.top = opts.set
        self.unit = 5 if opts.score_unit == "fives" else 1
        if opts.target is not None:
            self.target = opts.target
        elif self.unit == 5:
            self.target = 61
        else:
            self.target = 250 if self.players == 2 else 200
        self.immediate_win = opts.win_check == "immediate"
        self.reserve = opts.boneyard_reserve
        self.voluntary_draw = opts.allow_voluntary_draw
        self.hand_size = sized_deal(opts.deal_sizes, self.players,
                                    standard_deal_size(self.top, self.players, 5), self.name)
        check_deal_fits(self.players, self.hand_size, len(self.tile_set()), opts.deal_sizes)

    def tile_set(self) -> tuple[Tile, ...]:
        return double_set(self.top)

    def deal_size(self) -> int:
        return self.hand_size

    def leader_by_lot(self, number: int) -> bool:
        return line_chance_leads(number, self.options.first_lead, self.options.lead_rule)

    def open_hand(self, game: Game, setup: HandSetup) -> tuple[int, int, frozenset[Tile] | None]:
        return line_lead(self, game, setup, self.options.first_lead, self.options.lead_rule, self.top)

    def lead_caller(self, game: Game) -> LeadCaller | None:
        return line_lead_caller(game, self.options.first_lead, self.options.lead_rule, self.top)

    def double_role(self, game: Game, tile: Tile, is_lead: bool) -> Role:
        mode = self.options.spinner_mode
        if mode == "all_doubles" or (mode == "first_double" and game.layout.spinners == 0):
            return Role.SPINNER
        return Role.CROSS

    @staticmethod
    def count(game: Game) -> int:
        """The sum of the open ends (A5-7)."""
        layout = game.layout
        return sum(face.value * layout.exposed(face) for face in layout.open_ends())

    def score_play(self, game: Game, seat: int, placed: Placed) -> tuple[tuple[ScoreItem, ...], int]:
        points = count_points(self.count(game), self.unit)
        return ((ScoreItem("count", points),), points) if points else ((), 0)

    def blocked_rule(self) -> str:
        split = self.options.tie_rule == "split_3p" and self.players == 3
        tie = ("two players tied for lowest split the third player's pips" if split
               else "a tie for lowest gets no bonus")
        opts = self.options
        if opts.end_scoring == "each_subtracts_own":
            return f"the lowest pip total wins; everyone loses his own pips, rounded to five; {tie}"
        minus = " and scores the others' pips less its own, rounded to five (at least 0)"
        return f"the lowest pip total wins{minus if opts.blocked_score == 'opponents_minus_own' else ''}; {tie}"

    def pip_count(self, end: str) -> PipCount | None:
        opts = self.options
        if opts.end_scoring != "winner_takes" or opts.bonus_rounding != "total":
            return None
        if end == "domino":
            return "left"
        return "against" if opts.blocked_score == "opponents_total" else None

    def end_hand(self, game: Game, end: str, seat: int | None) -> HandResult:
        opts = self.options
        pips = hand_pips(game)
        winner, points = fives_hand_end(opts, self.unit, end, seat, pips)
        if opts.end_scoring == "each_subtracts_own":
            seats, name = [s for s in range(game.players) if pips[s]], "own pips"
        elif winner is None:
            seats, name = [s for s in range(game.players) if points[s]], "split"
        else:
            seats, name = [winner], end_name(end)
        return result(game, end, winner, {s: [ScoreItem(name, points[s])] for s in seats})

    def game_over(self, game: Game, hand_ended: bool) -> tuple[bool, int | None]:
        return highest_over(game.scores, self.target)
