"""Flower & Scorpion (RULES.md §7): Bergen with two pairs of dice.

At the start of each round the caravan master (chosen by lot in round 1, then moving left)
rolls the *Flower* and the *Scorpion* dice; each pair names a tile.  After every play the two
line ends score as in Bergen (dual 2, plural 3), playing the Flower tile scores +1 (short
flower), ends that together show the Flower pair score +1 per pairing of exposed halves (long
flower); the Scorpion does the same with minus signs.  Equal pairs cancel the dice for play.
A score never drops below zero.  The round winner (a domino, else the holder of the Flower
tile, the Scorpion tile, the lowest double) scores ``winner_bonus``; 20 points win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from boneyard.layout import Placed
from boneyard.options import DealSizes, option, target_option
from boneyard.rules.base import (
    Rules,
    SetupError,
    check_deal_fits,
    highest_over,
    register,
    unique_lowest,
)
from boneyard.rules.bergen import (
    NO_DOUBLE,
    SeatCount,
    WinCheck,
    doubles_held,
    family_deal_size,
    family_result,
    first_leader_by_lot,
    header_points,
    lowest_double_number,
    previous_leader,
    rotating_leader,
)
from boneyard.state import UNTIL_PLAYABLE, Dice, Game, HandResult, HandSetup, ScoreItem
from boneyard.tiles import Tile


def master_lead_double(lead_tile: str, doubles: Sequence[int]) -> int | None:
    """FS-6: the number of the double the caravan master must lead, from the numbers of his doubles (his
    heaviest under ``heaviest_double_in_hand``); ``None``: he leads any tile."""
    if lead_tile != "heaviest_double_in_hand" or not doubles:
        return None
    return max(doubles)


@dataclass(frozen=True, slots=True)
class FlowerScorpionOptions:
    deal_sizes: DealSizes | None = option(None, "tiles per hand: one number, or one per player count from 2")
    winner_bonus: Literal[2, 1] = option(2, "what the round winner scores")
    long_pairs: Literal["cross", "all_pairs"] = option(
        "cross", "long flower/scorpion: pairings of one exposed half from each end (1/2/4), or every pairing of "
                 "exposed halves, including the two halves of a double at an end")
    lead_tile: Literal["any", "heaviest_double_in_hand"] = option(
        "any", "what the caravan master leads: any tile, or his heaviest double (any tile if he holds none)")
    double_scorpion_blocks_dual: Literal["always", "only_when_tile_played"] = option(
        "always", "with a double scorpion s-s, a dual or plural in s is never scored, or only when s-s was just played")
    cancel_affects_block: bool = option(
        False, "cancelled dice (Flower = Scorpion) also stop the Flower and Scorpion tiles deciding a blocked round")
    lowest_double_mode: Literal["smallest_double", "lowest_total_with_double"] = option(
        "smallest_double", "blocked round, step 4: the holder of the smallest double, or the lowest pip total among "
                           "players holding a double (a tie: no winner)")
    score_floor: Literal[0] | None = option(0, "the lowest a score can go (none: scores may go negative)")
    target: int = target_option(20, "points to win")
    win_check: WinCheck = option("end_of_hand", "when the target is checked: after the round's scoring, or at once")


def dice_tile(pair: tuple[int, int]) -> Tile:
    """The domino bearing a pair of dice: 5 and 2 -> 5-2 (FS-4)."""
    return Tile(pair[0], pair[1])


def pairings(v0: int, k0: int, v1: int, k1: int, pair: tuple[int, int], all_pairs: bool) -> int:
    """How many pairings of exposed halves of the two ends show the tile ``pair`` (high, low)
    (FS-9 d/f; AMB-FS-2): one half from each end (k0 x k1), and with ``all_pairs`` also the two
    halves of a double at an end."""
    high, low = pair
    count = k0 * k1 if (v0 == high and v1 == low) or (v0 == low and v1 == high) else 0
    if all_pairs and high == low:
        count += (k0 == 2 and v0 == high) + (k1 == 2 and v1 == high)
    return count


#: the scoring items of a play (FS-9), in the order :func:`play_scores` returns them
PLAY_ITEMS = ("header", "short-flower", "long-flower", "short-scorpion", "long-scorpion")


def play_scores(v0: int, k0: int, v1: int, k1: int, played: tuple[int, int], flower: tuple[int, int],
                scorpion: tuple[int, int], opts: FlowerScorpionOptions) -> tuple[int, int, int, int, int]:
    """What a play scores (FS-9 a-i), item by item (:data:`PLAY_ITEMS`), from the line ends after it
    (numbers and exposed halves), the tile played and the round's Flower and Scorpion tiles (as
    (high, low) halves).  The header is Bergen's dual (2) or plural (3), 0 when none or suppressed."""
    header = header_points(v0, k0, v1, k1) if v0 == v1 else 0  # (unequal ends never make a header)
    if flower == scorpion:  # the dice cancel (FS-5)
        return header, 0, 0, 0, 0
    if header and scorpion[0] == scorpion[1] == v0 and (
            opts.double_scorpion_blocks_dual == "always" or played == scorpion):
        header = 0  # a double scorpion suppresses the dual or plural in its number (FS-9 h)
    # a pairing needs an end showing one of the pair's numbers: most plays skip the count
    long_flower = long_scorpion = 0
    if v0 in flower or v1 in flower:
        long_flower = pairings(v0, k0, v1, k1, flower, opts.long_pairs == "all_pairs")
    if v0 in scorpion or v1 in scorpion:
        long_scorpion = pairings(v0, k0, v1, k1, scorpion, opts.long_pairs == "all_pairs")
    return header, 1 if played == flower else 0, long_flower, -1 if played == scorpion else 0, -long_scorpion


def floored(points: int, score: int, floor: int | None) -> int:
    """The change to a score of ``score``, stopping at the floor (FS-9 j)."""
    if floor is None or points >= 0:
        return points
    return max(points, min(0, floor - score))


def blocked_winner(opts: FlowerScorpionOptions, players: int, flower_holder: int | None,
                   scorpion_holder: int | None, cancelled: bool, pips_of: SeatCount,
                   lowest_double_of: SeatCount) -> int | None:
    """The winner of a blocked round (FS-11 steps 2-5), from who holds the Flower and Scorpion tiles,
    whether the dice cancelled and, asked only when step 4 is reached, a seat's pip total and lowest
    double number (:data:`NO_DOUBLE` for none)."""
    if not (cancelled and opts.cancel_affects_block):
        for holder in (flower_holder, scorpion_holder):
            if holder is not None:
                return holder
    lowest_double = [lowest_double_of(seat) for seat in range(players)]
    with_double = [seat for seat, number in enumerate(lowest_double) if number != NO_DOUBLE]
    if not with_double:
        return None
    if opts.lowest_double_mode == "smallest_double":
        return min(with_double, key=lowest_double.__getitem__)
    return unique_lowest([pips_of(seat) for seat in range(players)], with_double)


@register
class FlowerScorpion(Rules):
    """Flower & Scorpion: Bergen scoring plus the dice tiles."""

    name = "flower-scorpion"
    aliases = ("flower-and-scorpion", "flower_scorpion", "flower-&-scorpion")
    title = "Flower & Scorpion"
    Options = FlowerScorpionOptions
    options: FlowerScorpionOptions
    uses_dice = True
    draw_mode = UNTIL_PLAYABLE
    points_limit = "score floor"

    def configure(self) -> None:
        opts = self.options
        self.target = opts.target
        self.immediate_win = opts.win_check == "immediate"
        self.hand_size = family_deal_size(6, self.players, opts.deal_sizes, self.name)
        check_deal_fits(self.players, self.hand_size, len(self.tile_set()), opts.deal_sizes)

    def deal_size(self) -> int:
        return self.hand_size

    # ------------------------------------------------------------ set-up (FS-3, FS-4, FS-6)
    def leader_by_lot(self, number: int) -> bool:
        return first_leader_by_lot(number)

    def check_setup(self, game: Game, setup: HandSetup) -> None:
        super().check_setup(game, setup)
        dice = setup.dice
        if dice is None:
            raise SetupError("flower-scorpion needs dice: {\"flower\": [a, b], \"scorpion\": [c, d]}")
        for name, pair in (("flower", dice.flower), ("scorpion", dice.scorpion)):
            if (not isinstance(pair, (tuple, list)) or len(pair) != 2
                    or not all(isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6
                               for face in pair)):
                raise SetupError(f"dice {name} {pair!r}: expected two die faces 1-6")

    def open_hand(self, game: Game, setup: HandSetup) -> tuple[int, int, frozenset[Tile] | None]:
        master = rotating_leader(previous_leader(game), self.players)
        if master is None:
            assert setup.leader is not None
            master = setup.leader
        else:
            master = self.check_leader(setup, master)
        doubles = doubles_held(game.hands[master])
        number = master_lead_double(self.options.lead_tile, [tile.high for tile in doubles])
        allowed = None
        if number is not None:
            allowed = frozenset(tile for tile in doubles if tile.high == number)
        return master, master, allowed

    @staticmethod
    def dice_tiles(game: Game) -> tuple[Tile, Tile]:
        """The Flower tile and the Scorpion tile of the round."""
        dice = game.dice
        assert isinstance(dice, Dice)
        return dice_tile(dice.flower), dice_tile(dice.scorpion)

    # ------------------------------------------------------------ scoring (FS-9)
    def play_items(self, game: Game, placed: Placed) -> list[ScoreItem]:
        """The scoring items of the line as it stands after ``placed`` was played."""
        ends = game.layout.end_values()
        if len(ends) != 2:
            return []
        flower, scorpion = self.dice_tiles(game)
        scores = play_scores(*ends[0], *ends[1], placed.tile.halves, flower.halves, scorpion.halves, self.options)
        items = []
        if scores[0]:
            items.append(ScoreItem("plural" if scores[0] == 3 else "dual", scores[0]))
        items += [ScoreItem(name, points) for name, points in zip(PLAY_ITEMS[1:], scores[1:], strict=True) if points]
        return items

    def score_play(self, game: Game, seat: int, placed: Placed) -> tuple[tuple[ScoreItem, ...], int]:
        items = self.play_items(game, placed)
        if not items:
            return (), 0
        points = floored(sum(item.points for item in items), game.scores[seat], self.options.score_floor)
        return tuple(items), points

    # ------------------------------------------------------------ round and game end (FS-10 … FS-13)
    def blocked_rule(self) -> str:
        opts = self.options
        tiles = "the holder of the Flower tile wins, else the holder of the Scorpion tile" + (
            " (unless the dice cancel)" if opts.cancel_affects_block else "")
        doubles = ("the holder of the smallest double" if opts.lowest_double_mode == "smallest_double"
                   else "the lowest pip total among players holding a double (a tie: no winner)")
        return f"{tiles}, else {doubles}; with no double held, nobody wins"

    def end_hand(self, game: Game, end: str, seat: int | None) -> HandResult:
        winner = seat
        if end != "domino":
            holder = {tile: seat for seat, tiles in enumerate(game.hands) for tile in tiles}
            flower, scorpion = self.dice_tiles(game)
            winner = blocked_winner(self.options, game.players, holder.get(flower), holder.get(scorpion),
                                    flower is scorpion, game.hand_points_of,
                                    lambda s: lowest_double_number(game.hands[s]))
        return family_result(game, end, winner, self.options.winner_bonus)

    def game_over(self, game: Game, hand_ended: bool) -> tuple[bool, int | None]:
        return highest_over(game.scores, self.target)
