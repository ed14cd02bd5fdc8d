"""Chance, in one place: the deal, the stock order, leaders chosen by lot and dice.

A :class:`Chance` is a seeded generator.  The same seed gives the same hands, stock order,
leaders and dice, in the same order; nothing else in Boneyard draws random numbers for the
rules, so a record of the outcomes replays a game exactly.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from boneyard.state import Dice, HandSetup

if TYPE_CHECKING:
    from boneyard.state import Game


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a series (the same whatever the worker count)."""
    return (seed * 1_000_003 + index * 7_919) % (2**63)


class Chance:
    """The seeded source of every chance outcome of one game."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.rng = random.Random(self.seed)

    def setup(self, game: Game) -> HandSetup:
        """Shuffle and deal the coming hand; pick a leader and roll dice where the rules need."""
        rules = game.rules
        tiles = list(rules.tile_set())
        size = rules.deal_size()
        players = rules.players
        while True:
            self.rng.shuffle(tiles)
            deal = [sorted(tiles[seat * size:(seat + 1) * size], reverse=True) for seat in range(players)]
            if rules.acceptable_deal(deal):
                break
        stock = tiles[players * size:]
        leader = self.rng.randrange(players) if rules.random_leader_needed(game) else None
        dice = None
        if rules.uses_dice:
            roll = [self.rng.randint(1, 6) for _ in range(4)]
            dice = Dice((roll[0], roll[1]), (roll[2], roll[3]))
        return HandSetup(deal, stock, leader, dice)


class HandChance(Chance):
    """Deals hand ``i`` of a game from ``game_seed(seed, i)``: the deals depend on the seed and the hand
    number only, so a game stopped and resumed (at the terminal or the web table) is dealt exactly as one
    played straight through."""

    def setup(self, game: Game) -> HandSetup:
        self.rng = random.Random(game_seed(self.seed, len(game.log)))
        return super().setup(game)

