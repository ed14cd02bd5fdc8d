"""``boneyard simulate``: many computer-only games, spread over processes, reproducible.

Game ``i`` of a run is dealt from ``game_seed(seed, i)`` and its players are seeded from the
same number, so the results are the same whatever the number of workers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from boneyard.chance import Chance, game_seed
from boneyard.moves import Kind
from boneyard.players.base import make_player, split_specs
from boneyard.rules.base import make_rules
from boneyard.state import Game
from boneyard.view import SeatView


@dataclass(slots=True)
class GameSummary:
    index: int
    winner: int | None
    scores: list[int]
    hands: int
    blocked_hands: int
    placements: int
    moves: int


def seat_specs(ai: str | Sequence[str] | None, players: int) -> list[str]:
    """One player spec per seat; a shorter list repeats its last entry."""
    specs = split_specs(ai) if isinstance(ai, str) else list(ai or ["random"])
    if not specs:
        specs = ["random"]
    return [specs[min(seat, len(specs) - 1)] for seat in range(players)]


def play_one(variant: str, players: int, options: Mapping[str, object] | None, specs: Sequence[str],
             seed: int, index: int, rotate: int = 0) -> GameSummary:
    """Play game ``index`` to the end; seat ``s`` is played by ``specs[(s + rotate) % n]``."""
    number = game_seed(seed, index)
    game = Game(make_rules(variant, players, options), chance=Chance(number))
    seats = [make_player(specs[(s + rotate) % players], seed=number + 101 * s) for s in range(players)]
    views = [SeatView(game, s) for s in range(players)]
    placements = moves = blocked = 0
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
            continue
        seat = game.turn
        move = seats[seat].choose(views[seat])
        game.apply(move)
        moves += 1
        if move.kind <= Kind.PLAY:
            placements += 1
        if not game.in_hand:
            result = game.hand.result
            blocked += result is not None and result.end == "blocked"
    return GameSummary(index, game.winner, list(game.scores), len(game.log), blocked, placements, moves)


def _chunk(args: tuple[str, int, Mapping[str, object] | None, list[str], int, list[int]]) -> list[GameSummary]:
    variant, players, options, specs, seed, indices = args
    return [play_one(variant, players, options, specs, seed, index) for index in indices]


def simulate(variant: str, players: int, games: int, *, seed: int = 0, ai: str | Sequence[str] | None = None,
             options: Mapping[str, object] | None = None, workers: int | None = None) -> dict[str, object]:
    """Play ``games`` computer-only games and summarise them (the ``--json`` object)."""
    rules = make_rules(variant, players, options)  # validate before forking
    specs = seat_specs(ai, players)
    for spec in set(specs):
        make_player(spec)
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    workers = min(workers, max(1, games))
    started = time.perf_counter()
    if workers == 1:
        summaries = [play_one(variant, players, options, specs, seed, i) for i in range(games)]
    else:
        size = max(1, min(200, games // (workers * 4) or 1))
        chunks = [list(range(start, min(games, start + size))) for start in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = pool.map(_chunk, [(variant, players, dict(options or {}), specs, seed, c) for c in chunks])
            summaries = [summary for part in parts for summary in part]
    seconds = time.perf_counter() - started
    return summarise(rules.name, players, games, seed, specs, summaries, seconds)


def summarise(variant: str, players: int, games: int, seed: int, specs: Sequence[str],
              summaries: Sequence[GameSummary], seconds: float) -> dict[str, object]:
    wins = [0] * players
    points = [0] * players
    for summary in summaries:
        if summary.winner is not None:
            wins[summary.winner] += 1
        for seat, score in enumerate(summary.scores):
            points[seat] += score
    count = max(1, len(summaries))
    hands = sum(s.hands for s in summaries)
    return {
        "variant": variant,
        "players": players,
        "games": games,
        "seed": seed,
        "seats": [{"ai": specs[s], "wins": wins[s], "mean_points": points[s] / count} for s in range(players)],
        "hands": hands,
        "mean_hands": hands / count,
        "blocked_hands": sum(s.blocked_hands for s in summaries),
        "placements": sum(s.placements for s in summaries),
        "moves": sum(s.moves for s in summaries),
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
    }
