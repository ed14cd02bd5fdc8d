"""A PIP give is shown to the two seats it passed between, also after a reverse changes who is "next"."""

from __future__ import annotations

import random

import boneyard
from boneyard.moves import Kind, Move
from boneyard.state import Game
from boneyard.view import SeatView, TableView


def letter_first(game: Game, rng: random.Random) -> Move:
    moves = game.legal_moves()
    letters = [m for m in moves if m.tile is not None and any(str(h) in "SRAD" for h in m.tile.halves)]
    return rng.choice(letters or moves)


def test_a_give_stays_with_its_giver_and_receiver_whatever_the_direction_now() -> None:
    # The view used to work out a give's receiver from the direction of play *now*: after a reverse it
    # showed the tile to the wrong neighbour and hid it from the seat that received it.
    rng = random.Random(3)
    for seed in range(200):
        game = boneyard.new_game("pip", 7, seed=seed)
        while game.in_hand:
            move = letter_first(game, rng)
            if move.kind != Kind.GIVE or move.tile is None:
                game.apply(move)
                continue
            giver = game.turn
            before = [len(hand) for hand in game.hands]
            game.apply(move)
            receiver = next(s for s in range(game.players) if len(game.hands[s]) > before[s])
            index = len(game.hand.events) - 1
            for direction in (1, -1):  # as it was, and as if an R tile had reversed play since
                game.direction = direction
                for seat in range(game.players):
                    shown = SeatView(game, seat).history()[index].move.tile
                    assert (shown == move.tile) == (seat in (giver, receiver)), (seed, direction, seat)
                assert TableView(game).history()[index].move.tile is None
            return
    raise AssertionError("no give in 200 deals")
