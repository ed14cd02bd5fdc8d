"""The expert's reading of the others' choices (:mod:`boneyard.players.expert.plays`)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import boneyard
from boneyard.moves import Kind
from boneyard.players.expert.plays import BETA, READ, W_POINTS, PlayModel, point_step, score
from boneyard.rules.base import make_rules
from boneyard.tiles import Tile
from boneyard.view import SeatView

T = Tile.parse


def test_a_double_it_could_have_placed_makes_a_hand_less_likely() -> None:
    ends = [6, 3]
    with_double = [T("6-6"), T("6-1"), T("2-0")]
    # the double scores more (shed 12 pips, a double, the 6s still followed by nothing): placing 6-1 instead was
    # the poorer choice for this hand
    assert score(with_double, T("6-6"), ends, 6) > score(with_double, T("6-1"), ends, 6)


def test_a_point_step_is_five_pips_in_all_fives_and_one_point_elsewhere() -> None:
    assert point_step(make_rules("all-fives", 2)) == 5
    assert point_step(make_rules("all-fives", 2, {"score_unit": "fives"})) == 1
    assert point_step(make_rules("block", 2)) == 1


def play_until(game: boneyard.Game, rng: random.Random, placed: int) -> None:
    while game.in_hand and len(game.layout.tiles) < placed:
        game.apply(rng.choice(game.legal_moves()))


def positions(seeds: int, placed: int, options: dict[str, object] | None = None, variant: str = "block"
              ) -> Iterator[tuple[boneyard.Game, SeatView, PlayModel]]:
    """Two-player hands of random play with ``placed`` tiles down: the game, the view of the seat on turn
    and its :class:`PlayModel`."""
    for seed in range(seeds):
        game = boneyard.new_game(variant, 2, seed=seed, options=options)
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


def poorer_choice_bound(game: boneyard.Game, model: PlayModel, seat: int) -> float | None:
    """The bound on the true deal's weight from one choice of ``seat`` that its real hand made a poorer one."""
    for choice in model.choices:
        hand = [*game.hands[seat], *choice.later]
        options = choice.options(hand)
        if len(options) < 2:
            continue
        made = score(hand, choice.tile, choice.ends, choice.joined) + W_POINTS * choice.points
        best = max(score(hand, tile, choice.ends, joined) + W_POINTS * points for tile, joined, points in options)
        if made < best:
            return float(pow(2.718281828, BETA * (made - best)))
    return None


def test_a_deal_weighs_less_the_poorer_the_choice_it_implies() -> None:
    """The other seat placed a tile when the deal says it held a better one (Block: 6-1 on a 6 beside 6-6)."""
    for game, view, model in positions(200, 4, {"first_lead": "random_player_any_tile"}):
        bound = poorer_choice_bound(game, model, 1 - view.seat)
        if bound is not None:  # the real hand made this choice a poorer one: the true deal weighs less than 1
            assert model.weight([list(h) for h in game.hands]) <= bound + 1e-9
            return
    raise AssertionError("no poorer choice found")


def test_a_count_left_unscored_makes_a_hand_less_likely_in_all_fives() -> None:
    """All Fives: a hand that could have scored and did not (or scored less) weighs less."""
    for game, _view, model in positions(200, 6, variant="all-fives"):
        for choice in model.choices:
            hand = [*game.hands[choice.seat], *choice.later]
            options = choice.options(hand)
            if max(points for _, _, points in options) >= choice.points + 2:  # ten pips or more left unscored
                bound = poorer_choice_bound(game, model, choice.seat)
                assert bound is not None and bound < 1.0
                assert model.weight([list(h) for h in game.hands]) <= bound + 1e-9
                return
    raise AssertionError("no unscored count found")


@pytest.mark.parametrize("variant", sorted(READ))
def test_the_placements_read_are_the_rules_own(variant: str) -> None:
    """Each choice offers exactly what the reference game offered a seat holding that hand then, points included;
    and no choice comes before a draw of its seat (which tile the draw brought is hidden)."""
    checked = 0
    for seed in range(12):
        game = boneyard.new_game(variant, 2, seed=seed)
        rng = random.Random(seed)
        offered: dict[Tile, set[tuple[Tile, int, int]]] = {}  # per tile placed in the first hand: the moves then
        model: PlayModel | None = None
        while game.in_hand and len(game.layout.tiles) < 9:
            moves = game.legal_moves()
            placements = {(m.tile, m.half if m.kind == Kind.PLAY else -1, game.play_points(m)[1])
                          for m in moves if m.tile is not None and m.is_placement}
            move = rng.choice(moves)
            if move.tile is not None and move.is_placement:
                offered[move.tile] = placements
            game.apply(move)
        if not game.in_hand:
            continue
        view = SeatView(game, game.turn)
        model = PlayModel(view)
        step = point_step(game.rules)
        history = view.history()
        for choice in model.choices:
            assert choice.seat != view.seat
            hand = [*game.hands[choice.seat], *choice.later]
            got = {(tile, joined, round(points * step)) for tile, joined, points in choice.options(hand)}
            assert got == offered[choice.tile], (variant, seed, choice.tile)
            placed_at = next(i for i, e in enumerate(history) if e.move.tile == choice.tile and e.move.is_placement)
            assert not any(e.seat == choice.seat and e.move.kind == Kind.DRAW for e in history[placed_at:])
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("variant", ["bergen", "flower-scorpion", "double-bergen", "pip"])
def test_the_bergen_family_and_pip_are_not_read(variant: str) -> None:
    game = boneyard.new_game(variant, 2, seed=1)
    play_until(game, random.Random(1), 5)
    assert not PlayModel(SeatView(game, game.turn)).active
