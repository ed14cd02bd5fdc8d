"""The expert's reading of the others' choices (:mod:`boneyard.players.expert.plays`)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import boneyard
from boneyard.players.expert.plays import BETA, PlayModel, choices, score
from boneyard.tiles import Tile
from boneyard.view import SeatView

T = Tile.parse


def test_a_double_it_could_have_placed_makes_a_hand_less_likely() -> None:
    ends = [6, 3]
    with_double = [T("6-6"), T("6-1"), T("2-0")]
    options = choices(with_double, ends)
    assert set(options) == {(T("6-6"), 6), (T("6-1"), 6)}
    # the double scores more (shed 12 pips, a double, the 6s still followed by nothing): placing 6-1 instead was
    # the poorer choice for this hand
    assert score(with_double, T("6-6"), ends, 6) > score(with_double, T("6-1"), ends, 6)


def test_a_lead_may_be_any_tile_and_a_tile_fitting_both_ends_is_two_choices() -> None:
    hand = [T("5-2"), T("4-4")]
    assert choices(hand, []) == [(T("5-2"), -1), (T("4-4"), -1)]
    assert set(choices(hand, [5, 2])) == {(T("5-2"), 2), (T("5-2"), 5)}
    assert choices(hand, [3, 3]) == []


def play_until(game: boneyard.Game, rng: random.Random, placed: int) -> None:
    while game.in_hand and len(game.layout.tiles) < placed:
        game.apply(rng.choice(game.legal_moves()))


def positions(seeds: int, placed: int, options: dict[str, object] | None = None
              ) -> Iterator[tuple[boneyard.Game, SeatView, PlayModel]]:
    """Two-player Block hands of random play with ``placed`` tiles down: the game, the view of the seat on
    turn and its :class:`PlayModel`."""
    for seed in range(seeds):
        game = boneyard.new_game("block", 2, seed=seed, options=options)
        play_until(game, random.Random(seed), placed)
        if game.in_hand:
            view = SeatView(game, game.turn)
            yield game, view, PlayModel(view)


def test_the_model_reads_the_other_seats_placements_with_the_tiles_it_placed_since() -> None:
    for game, view, model in positions(40, 6):
        other = 1 - view.seat
        placed_by_other = [e.move.tile for e in view.history() if e.seat == other and e.move.tile is not None]
        # every choice is the other seat's (the lead is called in Block's first hand: not a choice)
        assert model.choices and all(choice.seat == other for choice in model.choices)
        for choice in model.choices:
            assert choice.tile == choice.later[0] and set(choice.later) <= set(placed_by_other)
        true_weight = model.weight([list(hand) for hand in game.hands])
        assert 0.0 < true_weight <= 1.0
        return
    raise AssertionError("no position reached")


def test_a_deal_weighs_less_the_poorer_the_choice_it_implies() -> None:
    """Hand-made: the other seat placed 6-1 on a 6 when the deal says it also held 6-6."""
    for game, view, model in positions(200, 4, {"first_lead": "random_player_any_tile"}):
        other = 1 - view.seat
        for choice in model.choices:
            hand = [*game.hands[other], *choice.later]
            options = choices(hand, choice.ends)
            if len(options) < 2:
                continue
            made = score(hand, choice.tile, choice.ends, choice.joined)
            best = max(score(hand, tile, choice.ends, joined) for tile, joined in options)
            if made < best:  # the real hand made this choice a poorer one: the true deal weighs less than 1
                assert model.weight([list(h) for h in game.hands]) <= pow(2.718281828, BETA * (made - best)) + 1e-9
                return
    raise AssertionError("no poorer choice found")


def test_only_block_is_read() -> None:
    game = boneyard.new_game("draw", 2, seed=1)
    rng = random.Random(1)
    play_until(game, rng, 5)
    assert not PlayModel(SeatView(game, game.turn)).active
