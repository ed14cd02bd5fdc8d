"""Game records replay identically on the reference and the fast engine.

A record (RECORD.md) is replayed by :func:`boneyard.record.replay` on the reference :class:`~boneyard.state.Game`
and, hand by hand from the same deals, stocks, leaders and dice, on a :class:`~boneyard.fast.FastGame`: every move
must be legal on both and score the same, and every hand must end with the same result and scores.  The records
are the hand-written ones of the test suite and the written records of random games of every configuration that
``tests/test_fast.py`` plays.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard import record
from boneyard.fast import FastGame
from boneyard.state import Game
from tests.test_fast import CONFIGS
from tests.test_record import a5_example_record


def replay_both(data: dict[str, Any]) -> tuple[Game, FastGame]:
    """The record replayed on both engines, compared move by move and hand by hand."""
    game = record.replay(data)
    fast = FastGame(game.rules, deal=False)
    for number, log in enumerate(game.log, 1):
        setup = log.setup
        dice = (setup.dice.flower, setup.dice.scorpion) if setup.dice is not None else None
        fast.start_hand([[tile.index for tile in tiles] for tiles in setup.deal],
                        [tile.index for tile in setup.stock], setup.leader, dice)
        assert (fast.leader, fast.scores) == (log.leader, log.start_scores), f"hand {number}"
        for index, event in enumerate(log.events, 1):
            where = f"hand {number}, move {index} {event.move}"
            assert fast.turn == event.seat, where
            action = fast.from_move(event.move)
            assert action in fast.legal_actions(), where
            assert fast.apply(action) == event.points, where
        result = log.result
        if result is None:
            assert fast.in_hand, f"hand {number}"
            continue
        assert not fast.in_hand, f"hand {number}"
        assert (fast.last_end, fast.last_winner) == (result.end, result.winner), f"hand {number}"
        assert fast._hand_points == result.hand_points, f"hand {number}"
    assert (fast.scores, fast.finished, fast.winner) == (game.scores, game.finished, game.winner)
    return game, fast


def written(game: Game) -> dict[str, Any]:
    loaded = record.loads(record.dumps(record.to_record(game)))
    assert isinstance(loaded, dict)
    return loaded


def test_the_hand_written_records_replay_on_both_engines() -> None:
    game, fast = replay_both(a5_example_record())
    assert fast.in_hand and game.scores == fast.scores == [20, 10, 0]  # A5 worked example 1: A 10 + 10, B 10


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS,
                         ids=[f"{v}-{p}p-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}"
                              for v, p, o in CONFIGS])
def test_written_records_of_random_games_replay_on_both_engines(variant: str, players: int,
                                                                options: dict[str, object]) -> None:
    rng = random.Random(f"records {variant}{players}{options}")
    game = boneyard.new_game(variant, players, seed=rng.randrange(1 << 30), options=options)
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
        game.apply(rng.choice(game.legal_moves()))
    replayed, fast = replay_both(written(game))
    assert fast.finished and (fast.scores, fast.winner) == (game.scores, game.winner)
    assert len(replayed.log) == fast.hand_number == len(game.log)
