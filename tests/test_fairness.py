"""The computer levels never read hidden state: a proof by changing it.

For positions of every variant, the hidden tiles (other hands and the undrawn stock) are
changed in ways the seat's view cannot tell apart, and the heuristic and expert levels (same
seed, a fixed number of samples so no clock is involved) must make the same decision:

* *consistent* alternatives: two hidden tiles swap places in the hand's deal and stock, and the
  whole hand is replayed from that setup with every move checked legal — so the alternative is
  a table that really could have produced the same public history (the same passes, draws and
  plays), i.e. it respects every public constraint;
* *arbitrary* alternatives: the hidden tiles are shuffled among the other hands and the stock,
  sizes kept, whether or not the history could have happened that way.

Only alternatives whose view is unchanged (own hand, table, history, hand sizes, stock count,
scores, legal moves) are used, and each is checked to differ in its hidden tiles, so the tests
vary hidden state and nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import boneyard
from boneyard.errors import BoneyardError
from boneyard.moves import Kind, Move
from boneyard.players.base import make_player
from boneyard.players.expert import ExpertPlayer
from boneyard.rules.base import VARIANTS
from boneyard.state import Game, HandSetup
from boneyard.tiles import Tile
from boneyard.view import SeatView

LEVELS = ["heuristic", "expert:samples=3"]


def public_projection(view: SeatView) -> tuple[object, ...]:
    return (view.hand, [(p.tile, p.join, p.parent) for p in view.layout.tiles], view.history(), view.hand_sizes,
            view.stock_count, view.scores, view.turn, view.direction, view.pending, view.dice,
            view.legal_moves(), view.hand_number)


def positions(variant: str, players: int, seed: int, every: int = 3,
              options: dict[str, object] | None = None) -> Iterator[tuple[Game, list[Move]]]:
    """Positions of the first hand (with the moves that led there), played by greedy-ish random play."""
    game = boneyard.new_game(variant, players, seed=seed, options=options)
    rng = random.Random(seed)
    made: list[Move] = []
    step = 0
    while game.in_hand:
        if len(game.legal_moves()) > 1 and step % every == 0:
            yield game, list(made)
        move = rng.choice(game.legal_moves())
        event = game.apply(move)
        made.append(event.move if event.move.kind != Kind.DRAW else Move.draw())
        step += 1


def hidden_places(game: Game, seat: int) -> list[tuple[str, int, int]]:
    """Where the tiles ``seat`` cannot see lie now: ("hand", other, index) or ("stock", 0, index)."""
    places = [("hand", other, i) for other in range(game.players) if other != seat
              for i in range(len(game.hands[other]))]
    places += [("stock", 0, i) for i in range(game.stock_pos, len(game.stock))]
    return places


def hidden_state(game: Game, seat: int) -> list[list[Tile]]:
    """Each other hand and the undrawn stock, as sorted lists."""
    return [sorted(hand) for other, hand in enumerate(game.hands) if other != seat] + [
        sorted(game.stock[game.stock_pos:])]


def tile_at(game: Game, place: tuple[str, int, int]) -> Tile:
    kind, owner, index = place
    return game.hands[owner][index] if kind == "hand" else game.stock[index]


def replay_with_swap(game: Game, made: list[Move], first: Tile, second: Tile) -> Game | None:
    """The first hand replayed from its setup with two tiles exchanged, or None if the history breaks."""
    setup = game.hand.setup

    def swap(tiles: list[Tile]) -> list[Tile]:
        return [second if t is first else first if t is second else t for t in tiles]

    alternative = Game(game.rules, game.names)
    try:
        alternative.start_hand(HandSetup([swap(list(hand)) for hand in setup.deal], swap(list(setup.stock)),
                                         setup.leader, setup.dice))
        for move in made:
            alternative.apply(move)
    except BoneyardError:
        return None
    return alternative


def decisions(view: SeatView) -> list[Move]:
    return [make_player(spec, seed=17).choose(view) for spec in LEVELS]


CASES = [(variant, players) for variant in sorted(VARIANTS) for players in (2, 3)]


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_consistent_hidden_changes_never_change_a_decision(variant: str, players: int) -> None:
    checked = 0
    for seed in range(4):
        for game, made in positions(variant, players, seed):
            seat = game.turn
            view = SeatView(game, seat)
            before = decisions(view)
            projection = public_projection(view)
            rng = random.Random(seed * 1000 + len(made))
            places = hidden_places(game, seat)
            for _ in range(6):
                if len(places) < 2:
                    break
                a, b = rng.sample(places, 2)
                if a[:2] == b[:2]:
                    continue
                alternative = replay_with_swap(game, made, tile_at(game, a), tile_at(game, b))
                if alternative is None:
                    continue
                other = SeatView(alternative, seat)
                if public_projection(other) != projection:
                    continue  # e.g. someone else would have led: the seat could tell this one apart
                assert hidden_state(alternative, seat) != hidden_state(game, seat)
                assert decisions(other) == before, (variant, players, seed, len(made))
                checked += 1
            if checked >= 12:
                return
    assert checked >= 5


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_arbitrary_hidden_shuffles_never_change_a_decision(variant: str, players: int) -> None:
    checked = 0
    for seed in range(3):
        for game, _made in positions(variant, players, seed, every=4):
            seat = game.turn
            view = SeatView(game, seat)
            before = decisions(view)
            projection = public_projection(view)
            places = hidden_places(game, seat)
            original = [tile_at(game, place) for place in places]
            saved_hands = [list(hand) for hand in game.hands]
            saved_stock = list(game.stock)
            shuffled = list(original)
            random.Random(seed).shuffle(shuffled)
            for place, tile in zip(places, shuffled, strict=True):
                kind, owner, index = place
                if kind == "hand":
                    game.hands[owner][index] = tile
                else:
                    game.stock[index] = tile
            try:
                assert public_projection(view) == projection
                assert decisions(view) == before
                checked += 1
            finally:
                game.hands = saved_hands
                game.stock = saved_stock
    assert checked >= 3


PARTNERSHIPS = [{"partnerships": True}, {"partnerships": True, "partnership_block": "lowest_hand"}]


@pytest.mark.parametrize("options", PARTNERSHIPS, ids=["side_total", "lowest_hand"])
def test_the_partners_hand_is_hidden_too(options: dict[str, object]) -> None:
    """Partnership Block: a tile of the partner's hand swapped with an opponent's, the hand replayed
    (so every pass still happens), changes no decision — the expert plays for its side without
    seeing its partner's tiles."""
    checked = 0
    for seed in range(6):
        for game, made in positions("block", 4, seed, every=2, options=options):
            seat = game.turn
            partner = (seat + 2) % 4
            view = SeatView(game, seat)
            before = decisions(view)
            projection = public_projection(view)
            rng = random.Random(seed * 1000 + len(made))
            for _ in range(8):
                opponent = rng.choice([(seat + 1) % 4, (seat + 3) % 4])
                if not game.hands[partner] or not game.hands[opponent]:
                    break
                mine, theirs = rng.choice(game.hands[partner]), rng.choice(game.hands[opponent])
                alternative = replay_with_swap(game, made, mine, theirs)
                if alternative is None or public_projection(SeatView(alternative, seat)) != projection:
                    continue
                assert sorted(alternative.hands[partner]) != sorted(game.hands[partner])
                assert decisions(SeatView(alternative, seat)) == before, (options, seed, len(made))
                checked += 1
                break
            if checked >= 8:
                return
    assert checked >= 4


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_expert_decisions_above_search_on_the_fast_engine(variant: str) -> None:
    """The proofs above cover the search the expert plays with: in every variant (Double Bergen and PIP
    included) its decisions at these positions value the deals on the fast engine."""
    searched = 0
    for game, _made in (position for seed in range(3) for position in positions(variant, 2, seed)):
        expert = make_player("expert:samples=1", seed=0)
        assert isinstance(expert, ExpertPlayer)
        expert.choose(SeatView(game, game.turn))
        if expert.last is not None:
            assert expert.last.fast is not None
            searched += 1
    assert searched >= 3
