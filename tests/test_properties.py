"""Invariants checked on seeded random games of every registered variant (STYLE.md, point 8).

For every variant in :data:`boneyard.VARIANTS` and every player count it allows (up to 4; PIP
up to 7), Hypothesis picks seeds; each seed deals a game and plays random legal moves.  After
every step:

* every tile is in exactly one place (hands + table + stock is the variant's tile set);
* each score equals the points of the events credited to that seat plus its hand points;
* undo restores the exact previous state, and the move then replays to the same state;
* every legal move is accepted, and moves that are not legal are refused without a trace;

and at the end the game record replays to the same events and scores.  The number of games
comes from the Hypothesis profile (``tests/conftest.py``): ``HYPOTHESIS_PROFILE=thorough``
plays thousands.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boneyard import VARIANTS, Game, IllegalMoveError, Kind, Move, Tile, new_game, record
from boneyard.state import HandLog

MAX_HANDS = 4  #: hands played per game (a whole game can run to dozens)
MAX_MOVES = 2_000  #: a guard against a hand that never ends


def _cases() -> list[tuple[str, int]]:
    cases = []
    for name, cls in sorted(VARIANTS.items()):
        low, high = cls(cls.min_players if cls.min_players > 1 else 2).player_range()
        top = 7 if name == "pip" else 4
        cases += [(name, players) for players in range(low, min(high, top) + 1)]
    return cases


CASES = _cases()


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a move may change, as plain values (earlier hands are over and stay as they are)."""
    layout = [(p.tile, p.role, p.join, p.value, p.parent, p.parent_slot,
               [(f.kind, f.value, f.child) for f in p.faces]) for p in game.layout.tiles]
    ends = [(f.owner, f.slot) for f in game.layout.open_ends()]
    hand = game.log[-1] if game.log else None
    events = [(e.seat, e.move, e.points, e.scoring) for e in hand.events] if hand else []
    result = hand.result if hand else None
    return ([list(tiles) for tiles in game.hands], game.stock_pos, list(game.stock), layout, ends, game.turn,
            game.direction, game.passes, game.drawn, game.forced_draw, game.give_pending, game.pending,
            game.lead_tiles, list(game.scores), len(game.log), events, result, game.in_hand, game.finished,
            game.winner)


def check_tiles(game: Game, tile_set: frozenset[Tile]) -> None:
    tiles = game.all_tiles()
    assert len(tiles) == len(set(tiles)), "a tile is in two places"
    assert set(tiles) == tile_set, "a tile is missing or foreign"


def check_scores(game: Game, hands: list[HandLog] | None = None) -> None:
    """Scores = the points of the events credited to each seat + hand points (of ``hands``,
    by default the hand in progress, counted from the scores it started with)."""
    if hands is None:
        hands = game.log[-1:]
        expected = list(hands[0].start_scores)
    else:
        expected = [0] * game.players
    for log in hands:
        for event in log.events:
            for seat in game.rules.score_seats(event.seat):
                expected[seat] += event.points
        if log.result is not None:
            for seat, points in enumerate(log.result.hand_points):
                expected[seat] += points
    assert game.scores == expected


def not_legal(game: Game, legal: list[Move], rng: random.Random) -> list[Move]:
    """A few well-formed moves that are not in ``legal`` (the lead's other orientation, and a
    draw naming the next tile, are the same moves as legal ones and are left out)."""
    same = set(legal) | {Move.lead(m.tile) for m in legal if m.kind == Kind.LEAD and m.tile is not None}
    hand = game.hands[game.turn]
    candidates: list[Move] = [Move.passing(), Move.draw()]
    targets = range(1, len(game.layout) + 2)
    for tile in rng.sample(hand, min(3, len(hand))):
        candidates.append(Move.lead(tile))
        candidates.append(Move.give(tile))
        for half in {tile.high, tile.low}:
            candidates.append(Move.play(tile, half, rng.choice(targets)))
    outsider = rng.choice([t for t in game.rules.tile_set() if t not in hand])
    candidates.append(Move.play(outsider, outsider.high, 1))
    return [move for move in candidates if move not in same]


def play_game(variant: str, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = new_game(variant, players=players, seed=seed)
    tile_set = frozenset(game.rules.tile_set())
    check_tiles(game, tile_set)
    moves = 0
    while not game.finished:
        if not game.in_hand:
            if len(game.log) >= MAX_HANDS:
                break
            before = snapshot(game)
            game.next_hand()
            check_tiles(game, tile_set)
            dealt = snapshot(game)
            assert game.undo() is None and snapshot(game) == before, "undoing a deal"
            game.next_hand()  # the generator was set back with the deal: the same hand comes again
            assert snapshot(game) == dealt, "the same deal dealt again"
            continue
        legal = game.legal_moves()
        assert legal, "a player in a hand always has a move"
        assert len(set(legal)) == len(legal), "legal moves are listed once"
        before = snapshot(game)
        for move in not_legal(game, legal, rng):
            with pytest.raises(IllegalMoveError):
                game.apply(move)
            assert snapshot(game) == before, f"refusing {move} changed the game"
        move = rng.choice(legal)
        game.apply(move)
        after = snapshot(game)
        check_tiles(game, tile_set)
        check_scores(game)
        assert game.undo() == move
        assert snapshot(game) == before, f"undoing {move} did not restore the game"
        game.apply(move)
        assert snapshot(game) == after, f"{move} did not replay the same way"
        moves += 1
        assert moves < MAX_MOVES, "the game does not end"
    check_scores(game, game.log)
    return game


@pytest.mark.parametrize(("variant", "players"), CASES)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_every_invariant(variant: str, players: int, seed: int) -> None:
    game = play_game(variant, players, seed)
    data = record.to_record(game)
    assert record.replay_json(data) == record.game_json(game)
    again = record.replay(data)
    assert again.scores == game.scores and again.finished == game.finished and again.winner == game.winner


def test_every_registered_variant_is_covered() -> None:
    assert {name for name, _ in CASES} == set(VARIANTS)
    assert ("pip", 7) in CASES or "pip" not in VARIANTS


def test_undoing_the_first_deal_and_dealing_again_deals_the_same_hand() -> None:
    game = new_game("all-fives", players=2, seed=7)
    dealt = snapshot(game)
    assert game.undo() is None and not game.in_hand and game.log == []
    game.next_hand()
    assert snapshot(game) == dealt
