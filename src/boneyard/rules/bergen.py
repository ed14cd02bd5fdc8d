"""Bergen (RULES.md §5): a line game that scores for matching ends.

After every play the two ends of the line are compared: equal single ends are a *double
header* (2), a crosswise double at one end matching the other end is a *triple header* (3);
a lone lead double is a double header.  A player close to the target has his headers capped
(the approach cap, BRG-8).  The hand winner (domino, or a blocked hand decided by
``block_rule``) scores ``winner_bonus``.

The module also holds the pieces Double Bergen and Flower & Scorpion share with it: the
family's deal sizes and the target check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from boneyard.errors import OptionError
from boneyard.layout import Placed
from boneyard.options import DealSizes, option, target_option
from boneyard.rules.base import (
    LeadCaller,
    Rules,
    SetupError,
    check_deal_fits,
    hand_pips,
    highest_over,
    lowest_seats,
    register,
    result,
    sized_deal,
    standard_deal_size,
    unique_lowest,
)
from boneyard.state import UNTIL_PLAYABLE, Game, HandResult, HandSetup, ScoreItem
from boneyard.tiles import Tile, double_set

LeadRule = Literal["lowest_double", "highest_double", "rotate_any_tile"]
BlockRule = Literal["simple", "american", "german"]
WinCheck = Literal["end_of_hand", "immediate"]


# ---------------------------------------------------------------- family helpers
def family_deal_size(top: int, players: int, deal_sizes: DealSizes | None, name: str) -> int:
    """Hand size of the Bergen family: 6 for 2-3 players, 5 for 4 (BRG-2, DBG-2, FS-2);
    larger sets follow C13; ``deal_sizes`` overrides."""
    default = (6 if players <= 3 else 5) if top == 6 else standard_deal_size(top, players, 5)
    return sized_deal(deal_sizes, players, default, name)


class FamilyOptions(Protocol):
    """The options Bergen and Double Bergen share."""

    @property
    def set(self) -> int: ...
    @property
    def boneyard_reserve(self) -> int: ...
    @property
    def win_check(self) -> str: ...
    @property
    def deal_sizes(self) -> DealSizes | None: ...


def configure_family(rules: Rules, opts: FamilyOptions, target: int) -> tuple[int, int, int, bool, int]:
    """What Bergen and Double Bergen derive alike: (top, reserve, target, immediate win, hand size)."""
    if target < 1:
        raise OptionError(f"option 'target' must be at least 1, not {target}")
    hand_size = family_deal_size(opts.set, rules.players, opts.deal_sizes, rules.name)
    check_deal_fits(rules.players, hand_size, len(double_set(opts.set)), opts.deal_sizes)
    return opts.set, opts.boneyard_reserve, target, opts.win_check == "immediate", hand_size


def previous_leader(game: Game) -> int | None:
    """The recorded leader of the hand before the one being opened (None in hand 1)."""
    return game.log[-2].leader if len(game.log) >= 2 else None


def doubles_held(tiles: Sequence[Tile]) -> list[Tile]:
    return [tile for tile in tiles if tile.is_double]


# ---------------------------------------------------------------- leads (BRG-4; FS-3 and DBG-4 rotate the same way)
# Who leads is decided here once, over plain numbers (the hand number, the previous leader, each seat's
# double numbers), for the reference rules' open_hand and the fast engine alike.
def first_leader_by_lot(number: int) -> bool:
    """Whether chance picks the leader of hand ``number`` where the lead then rotates: the first only."""
    return number == 1


def rotating_leader(previous: int | None, players: int) -> int | None:
    """The seat left of the previous hand's leader; ``None`` in the first hand (chance picked it)."""
    return None if previous is None else (previous + 1) % players


def double_must_lead(lead_rule: str) -> bool:
    """Whether a double leads every Bergen hand (BRG-4), so that a deal without one is redealt."""
    return lead_rule != "rotate_any_tile"


def bergen_leader_by_lot(lead_rule: str, number: int) -> bool:
    """Whether chance picks the leader of Bergen's hand ``number``: the first under ``rotate_any_tile``."""
    return not double_must_lead(lead_rule) and first_leader_by_lot(number)


def bergen_lead_double(lead_rule: str, doubles: Sequence[Sequence[int]]) -> tuple[int, int] | None:
    """BRG-4: the seat holding the highest double (``lowest_double``: the lowest) and its number, from
    each seat's double numbers; ``None``: nobody was dealt one (a deal the rules redeal)."""
    lowest = lead_rule == "lowest_double"
    best: tuple[int, int] | None = None
    for seat, numbers in enumerate(doubles):
        for number in numbers:
            if best is None or (number < best[1] if lowest else number > best[1]):
                best = (seat, number)
    return best


def bergen_called_lead(lead_rule: str, deal: Sequence[Sequence[Tile]]) -> tuple[int, Tile] | None:
    """BRG-4 on a deal of tiles: the seat that leads and its double (:func:`bergen_lead_double`); ``None``: redeal."""
    lead = bergen_lead_double(lead_rule, [[tile.high for tile in doubles_held(tiles)] for tiles in deal])
    if lead is None:
        return None
    seat, number = lead
    return seat, next(tile for tile in deal[seat] if tile.is_double and tile.high == number)


#: what a play scores for matching line ends (BRG-7; Flower & Scorpion's dual and plural, FS-9 a/b)
HEADER_NAMES = {2: "double-header", 3: "triple-header"}
NO_DOUBLE = 1 << 30  #: the lowest double number of a hand without a double
SeatCount = Callable[[int], int]  #: a number per seat, asked for only where a rule needs it


def header_points(v0: int, k0: int, v1: int, k1: int) -> int:
    """What the two line ends score (BRG-7), from their numbers and exposed halves (C4): 2 for a
    double header (both single), 3 for a triple header (one a crosswise double), else 0."""
    if v0 != v1:
        return 0
    return 2 if k0 + k1 == 2 else 3


def approach_capped(points: int, need: int) -> int:
    """The approach cap (BRG-8): a header is worth 1 when ``need`` (points to the target) is at
    most 2, 2 when it is exactly 3."""
    if need <= 2:
        return min(points, 1)
    if need == 3:
        return min(points, 2)
    return points


def bergen_blocked_winner(rule: str, pips: Sequence[int], doubles_of: SeatCount, size_of: SeatCount,
                          lowest_double_of: SeatCount) -> int | None:
    """The winner of a blocked Bergen hand (BRG-10) by ``block_rule``, from each seat's pip total and,
    asked only where the rule looks at them, a seat's number of doubles, number of tiles and lowest
    double number (:data:`NO_DOUBLE` for none)."""
    seats = range(len(pips))
    if rule == "simple":
        return unique_lowest(pips)
    doubles = [doubles_of(seat) for seat in seats]
    if rule == "german":
        fewest = min(doubles)
        return unique_lowest(pips, [seat for seat in seats if doubles[seat] == fewest])
    free = [seat for seat in seats if not doubles[seat]]
    if len(free) == 1:
        return free[0]
    if free:
        return unique_lowest(pips, free)
    fewest_tiles = lowest_seats([size_of(seat) for seat in seats])
    if len(fewest_tiles) == 1:
        return fewest_tiles[0]
    return min(seats, key=lowest_double_of)


def family_bonus(winner_bonus: int, end: str) -> int:
    """What the hand winner of Bergen (BRG-11) or Flower & Scorpion (FS-12) scores: the bonus, except
    that 5 is for a domino only (a blocked hand's winner then scores 2, as pinned in v1.1)."""
    return 2 if winner_bonus == 5 and end != "domino" else winner_bonus


def family_result(game: Game, end: str, winner: int | None, winner_bonus: int) -> HandResult:
    """The reference hand result of a Bergen-family hand: the winner's bonus, if there is a winner."""
    if winner is None:
        return result(game, end, None)
    return result(game, end, winner, {winner: [ScoreItem("winner", family_bonus(winner_bonus, end))]})


def lowest_double_number(tiles: list[Tile]) -> int:
    """The number of the lowest double among ``tiles`` (:data:`NO_DOUBLE` if none)."""
    return min((tile.high for tile in tiles if tile.is_double), default=NO_DOUBLE)


# ---------------------------------------------------------------- options
@dataclass(frozen=True, slots=True)
class BergenOptions:
    set: Literal[6, 9, 12] = option(6, "highest pip of the set: double-six, -nine or -twelve")
    deal_sizes: DealSizes | None = option(None, "tiles per hand: one number, or one per player count from 2")
    boneyard_reserve: Literal[2, 0] = option(2, "tiles left in the boneyard that may never be drawn")
    lead_rule: LeadRule = option(
        "lowest_double", "who leads each hand: the lowest double, the highest double (both: redeal when nobody "
        "holds a double), or any tile with the lead rotating left from a random first leader")
    cover_lead_double_first: bool = option(False, "both sides of a lead double must be covered before the line grows")
    approach_cap: bool = option(True, "a header scores 1 when 1-2 points short of the target, 2 when 3 short")
    block_rule: BlockRule = option("simple", "who wins a blocked hand: simple, american or german "
                                             "(docs/variants/bergen.md)")
    winner_bonus: Literal[2, 1, 5] = option(2, "what the hand winner scores; 5 is for a domino only (a blocked "
                                               "hand's winner then scores 2)")
    target: int | None = target_option(None, "points to win (default 15 for 2 players, 10 for 3-4)")
    win_check: WinCheck = option("end_of_hand", "when the target is checked: after the hand's scoring, or at once")


@register
class Bergen(Rules):
    """Bergen: double and triple headers on a single line."""

    name = "bergen"
    title = "Bergen"
    Options = BergenOptions
    options: BergenOptions
    draw_mode = UNTIL_PLAYABLE
    points_limit = "approach cap"

    def configure(self) -> None:
        target = self.options.target
        (self.top, self.reserve, self.target, self.immediate_win, self.hand_size) = configure_family(
            self, self.options, target if target is not None else (15 if self.players == 2 else 10))

    def tile_set(self) -> tuple[Tile, ...]:
        return double_set(self.top)

    def deal_size(self) -> int:
        return self.hand_size

    # ------------------------------------------------------------ lead (BRG-4)
    def acceptable_deal(self, deal: list[list[Tile]]) -> bool:
        if not double_must_lead(self.options.lead_rule):
            return True
        return any(tile.is_double for tiles in deal for tile in tiles)

    def redeal_reason(self) -> str:
        return f"nobody was dealt a double, so {self.options.lead_rule} cannot lead: Bergen redeals"

    def leader_by_lot(self, number: int) -> bool:
        return bergen_leader_by_lot(self.options.lead_rule, number)

    def open_hand(self, game: Game, setup: HandSetup) -> tuple[int, int, frozenset[Tile] | None]:
        rule = self.options.lead_rule
        if not double_must_lead(rule):
            seat = rotating_leader(previous_leader(game), self.players)
            if seat is None:
                assert setup.leader is not None
                return setup.leader, setup.leader, None
            seat = self.check_leader(setup, seat)
            return seat, seat, None
        lead = bergen_called_lead(rule, setup.deal)
        if lead is None:
            raise SetupError(self.redeal_reason())
        seat = self.check_leader(setup, lead[0])
        return seat, seat, frozenset({lead[1]})

    def lead_caller(self, game: Game) -> LeadCaller | None:
        rule = self.options.lead_rule
        return (lambda deal: bergen_called_lead(rule, deal)) if double_must_lead(rule) else None

    # ------------------------------------------------------------ play (BRG-5, BRG-7, BRG-8)
    def play_target(self, game: Game) -> int:
        if not self.options.cover_lead_double_first:
            return 0
        layout = game.layout
        if not layout.tiles or not layout.tiles[0].is_double:
            return 0
        lead = layout.tiles[0]
        return 1 if any(not face.child for face in lead.faces) else 0

    def target_reason(self, game: Game, target: int) -> str:
        return "both sides of the lead double must be covered first (cover_lead_double_first)"

    @staticmethod
    def header(game: Game) -> ScoreItem | None:
        """The double or triple header the line shows now, if any (BRG-7)."""
        ends = game.layout.end_values()
        if len(ends) != 2:
            return None
        points = header_points(*ends[0], *ends[1])
        return ScoreItem(HEADER_NAMES[points], points) if points else None

    def score_play(self, game: Game, seat: int, placed: Placed) -> tuple[tuple[ScoreItem, ...], int]:
        item = self.header(game)
        if item is None:
            return (), 0
        points = item.points
        if self.options.approach_cap:
            points = approach_capped(points, self.target - game.scores[seat])
        return (item,), points

    # ------------------------------------------------------------ hand and game end (BRG-9 … BRG-12)
    def blocked_rule(self) -> str:
        rule = self.options.block_rule
        if rule == "simple":
            return "the lowest pip total wins; a tie has no winner"
        if rule == "german":
            return ("the player holding the fewest doubles wins, then the lowest pip total among them; a tie has no "
                    "winner")
        return ("the only player holding no double wins; of several without a double, the lowest pip total (a tie has "
                "no winner); if everyone holds a double, the fewest tiles, then the lowest double")

    def end_hand(self, game: Game, end: str, seat: int | None) -> HandResult:
        hands = game.hands
        winner = seat if end == "domino" else bergen_blocked_winner(
            self.options.block_rule, hand_pips(game), lambda s: len(doubles_held(hands[s])),
            lambda s: len(hands[s]), lambda s: lowest_double_number(hands[s]))
        return family_result(game, end, winner, self.options.winner_bonus)

    def game_over(self, game: Game, hand_ended: bool) -> tuple[bool, int | None]:
        return highest_over(game.scores, self.target)
