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

from dataclasses import dataclass
from typing import Literal

from boneyard.errors import OptionError
from boneyard.layout import Placed
from boneyard.options import DealSizes, option
from boneyard.rules.base import (
    Rules,
    SetupError,
    highest_over,
    lowest_holders,
    register,
    result,
)
from boneyard.rules.bergen import (
    WinCheck,
    check_deal_fits,
    coming_hand,
    doubles_held,
    family_deal_size,
    previous_leader,
)
from boneyard.state import UNTIL_PLAYABLE, Dice, Game, HandResult, HandSetup, ScoreItem
from boneyard.tiles import Tile, heaviness


@dataclass(frozen=True, slots=True)
class FlowerScorpionOptions:
    deal_sizes: DealSizes | None = option(None, "tiles per hand: one number, or one per player count from 2")
    winner_bonus: Literal[2, 1] = option(2, "what the round winner scores (FS-12)")
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
    target: int = option(20, "points to win")
    win_check: WinCheck = option("end_of_hand", "when the target is checked: after the round's scoring, or at once")


def dice_tile(pair: tuple[int, int]) -> Tile:
    """The domino bearing a pair of dice: 5 and 2 -> 5-2 (FS-4)."""
    return Tile(pair[0], pair[1])


def pairings(ends: list[tuple[int, int]], pair: Tile, mode: str) -> int:
    """How many pairings of exposed halves show ``pair`` (FS-9 d/f; AMB-FS-2)."""
    if len(ends) != 2:
        return 0
    (first, k1), (second, k2) = ends
    if mode == "cross":
        return k1 * k2 if Tile(first, second) is pair else 0
    halves = [first] * k1 + [second] * k2
    return sum(1 for i in range(len(halves)) for j in range(i + 1, len(halves))
               if Tile(halves[i], halves[j]) is pair)


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

    def configure(self) -> None:
        opts = self.options
        if opts.target < 1:
            raise OptionError(f"option 'target' must be at least 1, not {opts.target}")
        self.target = opts.target
        self.immediate_win = opts.win_check == "immediate"
        self.hand_size = family_deal_size(6, self.players, opts.deal_sizes, self.name)
        check_deal_fits(self.players, self.hand_size, len(self.tile_set()))

    def deal_size(self) -> int:
        return self.hand_size

    # ------------------------------------------------------------ set-up (FS-3, FS-4, FS-6)
    def random_leader_needed(self, game: Game) -> bool:
        return coming_hand(game) == 1

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
        before = previous_leader(game)
        if before is None:
            assert setup.leader is not None
            master = setup.leader
        else:
            master = self.check_leader(setup, (before + 1) % self.players)
        allowed = None
        if self.options.lead_tile == "heaviest_double_in_hand":
            doubles = doubles_held(game.hands[master])
            if doubles:
                allowed = frozenset({max(doubles, key=heaviness)})
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
        flower, scorpion = self.dice_tiles(game)
        cancelled = flower is scorpion
        ends = game.layout.end_values()
        opts = self.options
        items: list[ScoreItem] = []
        if len(ends) == 2 and ends[0][0] == ends[1][0]:
            common = ends[0][0]
            suppressed = (not cancelled and scorpion.is_double and scorpion.high == common
                          and (opts.double_scorpion_blocks_dual == "always" or placed.tile is scorpion))
            if not suppressed:
                plural = ends[0][1] + ends[1][1] > 2
                items.append(ScoreItem("plural", 3) if plural else ScoreItem("dual", 2))
        if cancelled:
            return items
        if placed.tile is flower:
            items.append(ScoreItem("short-flower", 1))
        long_flower = pairings(ends, flower, opts.long_pairs)
        if long_flower:
            items.append(ScoreItem("long-flower", long_flower))
        if placed.tile is scorpion:
            items.append(ScoreItem("short-scorpion", -1))
        long_scorpion = pairings(ends, scorpion, opts.long_pairs)
        if long_scorpion:
            items.append(ScoreItem("long-scorpion", -long_scorpion))
        return items

    def floored(self, game: Game, seat: int, points: int) -> int:
        """The change to ``seat``'s score, stopping at the floor (FS-9 j)."""
        floor = self.options.score_floor
        if floor is None or points >= 0:
            return points
        return max(points, min(0, floor - game.scores[seat]))

    def score_play(self, game: Game, seat: int, placed: Placed) -> tuple[tuple[ScoreItem, ...], int]:
        items = self.play_items(game, placed)
        if not items:
            return (), 0
        return tuple(items), self.floored(game, seat, sum(item.points for item in items))

    # ------------------------------------------------------------ round and game end (FS-10 … FS-13)
    def blocked_winner(self, game: Game) -> int | None:
        """FS-11 steps 2-5."""
        holder = {tile: seat for seat, tiles in enumerate(game.hands) for tile in tiles}
        flower, scorpion = self.dice_tiles(game)
        if not (flower is scorpion and self.options.cancel_affects_block):
            for tile in (flower, scorpion):
                if tile in holder:
                    return holder[tile]
        with_double = [seat for seat in range(game.players) if doubles_held(game.hands[seat])]
        if not with_double:
            return None
        if self.options.lowest_double_mode == "smallest_double":
            return min(with_double, key=lambda seat: min(tile.high for tile in doubles_held(game.hands[seat])))
        lowest = lowest_holders(game, with_double)
        return lowest[0] if len(lowest) == 1 else None

    def end_hand(self, game: Game, end: str, seat: int | None) -> HandResult:
        winner = seat if end == "domino" else self.blocked_winner(game)
        if winner is None:
            return result(game, end, None)
        return result(game, end, winner, {winner: [ScoreItem("winner", self.options.winner_bonus)]})

    def game_over(self, game: Game, hand_ended: bool) -> tuple[bool, int | None]:
        return highest_over(game.scores, self.target)
