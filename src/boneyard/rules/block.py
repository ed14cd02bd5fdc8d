"""Block dominoes (RULES.md §2), with the Latin American partnership game (C12).

No drawing: a player who cannot play passes.  The hand winner scores the pips left in the
opponents' hands (``blocked_score`` selects the other counts for blocked hands).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from boneyard.errors import OptionError
from boneyard.options import DealSizes, option, target_option
from boneyard.rules.base import (
    LeadCaller,
    Lightness,
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
    lowest_then_lightest,
    register,
    result,
    seat_lightness,
    sized_deal,
    standard_deal_size,
)
from boneyard.state import Game, HandResult, HandSetup, ScoreItem
from boneyard.tiles import Tile, double_set

FirstLead = Literal["call_highest_double", "random_player_any_tile"]
BlockedScore = Literal["opponents_total", "opponents_minus_own", "sum_of_differences", "all_pips"]
PartnershipBlock = Literal["side_total", "lowest_hand"]
#: what the winner of a blocked hand scores, said after "the lowest pip total wins" (the default says nothing more)
BLOCKED_COUNT: dict[str, str] = {
    "opponents_total": "",
    "opponents_minus_own": " and scores the others' pips less its own (at least 0)",
    "sum_of_differences": " and scores its difference to each other hand, added up",
    "all_pips": " and scores every hand's pips, its own too",
}


def partnership_blocked_side(pips: Sequence[int], rule: PartnershipBlock) -> int | None:
    """The side that wins a blocked partnership hand (C12): 0 for seats 0+2, 1 for seats 1+3, ``None`` for nobody.

    ``pips`` are the four hands' pip totals.  ``side_total``: the side whose two hands hold fewer pips,
    nobody on equal totals.  ``lowest_hand``: the side of the single player holding the fewest pips; a
    tie between players of both sides is nobody's, a tie between partners is their side's."""
    if rule == "side_total":
        even, odd = pips[0] + pips[2], pips[1] + pips[3]
        return None if even == odd else (0 if even < odd else 1)
    fewest = min(pips)
    sides = {seat % 2 for seat, total in enumerate(pips) if total == fewest}
    return sides.pop() if len(sides) == 1 else None


def block_hand_end(pips: Sequence[int], seat: int | None, lightest: Lightness, tie_rule: str,
                   blocked_score: str) -> tuple[int | None, int]:
    """The hand winner and what he scores (BLK-8 … BLK-10), from every hand's pip total.

    ``seat`` is the player who dominoed (``None``: a blocked hand, won by the lowest total, a tie
    going to the lightest tile or to nobody by ``tie_rule``)."""
    if seat is None:
        lowest = lowest_seats(pips)
        if len(lowest) == 1:
            seat = lowest[0]
        elif tie_rule == "lightest_tile":
            seat = min(lowest, key=lightest)
        else:
            return None, 0
    own = pips[seat]
    others = sum(pips) - own
    if blocked_score == "opponents_total":
        return seat, others
    if blocked_score == "opponents_minus_own":
        return seat, max(0, others - own)
    if blocked_score == "sum_of_differences":
        return seat, others - own * (len(pips) - 1)
    return seat, others + own  # all_pips


def partnership_hand_end(pips: Sequence[int], seat: int | None, lightest: Lightness,
                         rule: PartnershipBlock) -> tuple[int | None, int]:
    """The hand winner of partnership Block (C12) and what his side scores: the pips of all four hands.

    A blocked hand goes to the side :func:`partnership_blocked_side` names; of its two players the
    one with fewer pips (then the lighter tile) is the hand's winner and leads the next hand."""
    if seat is None:
        side = partnership_blocked_side(pips, rule)
        if side is None:
            return None, 0
        seat = lowest_then_lightest(pips, (side, side + 2), lightest)
    return seat, sum(pips)


def block_game_over(scores: Sequence[int], target: int, partnerships: bool) -> tuple[bool, int | None]:
    """BLK-11: the highest score at or over the target wins; partners share one score, so their
    equal totals are no tie."""
    finished, winner = highest_over(list(scores), target)
    if partnerships and not finished:
        best = max(scores)
        side = [seat for seat, score in enumerate(scores) if score == best]
        if best >= target and len(side) == 2 and side[1] - side[0] == 2:
            return True, side[0]
    return finished, winner


@dataclass(frozen=True, slots=True)
class BlockOptions:
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
    partnerships: bool = option(False, "4 players, seats 0+2 against 1+3, 7 tiles each (all 28 of a double-six set)")
    partnership_block: PartnershipBlock = option(
        "side_total", "blocked partnership hand: the side with fewer pips in its two hands wins, or the side of "
        "the single player with the fewest pips")


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
        if self.partnership_rule() != "side_total" and not opts.partnerships:
            raise OptionError("option 'partnership_block' applies only with partnerships=true")
        if opts.partnerships:  # (C12 scores a blocked partnership hand itself: partnership_block decides it)
            defaults = {fld.name: fld.default for fld in dataclasses.fields(opts)}
            for name in ("tie_rule", "blocked_score"):
                if getattr(opts, name) != defaults[name]:
                    raise OptionError(f"option {name!r} applies only without partnerships "
                                      "(partnership_block decides a blocked partnership hand)")
        self.top = opts.set
        self.target = 100 if opts.target is None else opts.target
        self.immediate_win = opts.win_check == "immediate"
        default = 7 if opts.partnerships else standard_deal_size(self.top, self.players, 5)
        self.hand_size = sized_deal(opts.deal_sizes, self.players, default, self.name)
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

    def score_seats(self, seat: int) -> tuple[int, ...]:
        return (seat, (seat + 2) % 4) if self.options.partnerships else (seat,)

    # ------------------------------------------------------------ hand end
    def end_hand(self, game: Game, end: str, seat: int | None) -> HandResult:
        opts = self.options
        pips = hand_pips(game)
        lightest = seat_lightness(game)
        receivers: tuple[int, ...]
        if opts.partnerships:
            winner, points = partnership_hand_end(pips, seat, lightest, self.partnership_rule())
            receivers = () if winner is None else (winner, (winner + 2) % 4)
        else:
            winner, points = block_hand_end(pips, seat, lightest, opts.tie_rule, opts.blocked_score)
            receivers = () if winner is None else (winner,)
        item = [ScoreItem(end_name(end), points)]
        return result(game, end, winner, dict.fromkeys(receivers, item))

    def blocked_rule(self) -> str:
        if self.options.partnerships:
            if self.partnership_rule() == "side_total":
                return ("the side whose two hands hold fewer pips wins and scores the pips of all four hands; equal "
                        "totals score nothing")
            return ("the side of the player holding the fewest pips wins and scores the pips of all four hands; a tie "
                    "between the sides scores nothing")
        lightest = self.options.tie_rule == "lightest_tile"
        tie = "a tie goes to the tied player holding the lightest single tile" if lightest else "a tie scores nothing"
        return f"the lowest pip total wins{BLOCKED_COUNT[self.options.blocked_score]}; {tie}"

    def pip_count(self, end: str) -> PipCount | None:
        # a domino and a partnership's block score every pip left, partners' too; a block, by blocked_score
        count = self.options.blocked_score
        if end == "domino" or self.options.partnerships or count == "all_pips":
            return "left"
        return "against" if count == "opponents_total" else None

    def partnership_rule(self) -> PartnershipBlock:
        """The blocked-hand rule of a partnership game (C12; Draw, which shares this class, has the option too)."""
        return self.options.partnership_block

    def game_over(self, game: Game, hand_ended: bool) -> tuple[bool, int | None]:
        return block_game_over(game.scores, self.target, self.options.partnerships)
