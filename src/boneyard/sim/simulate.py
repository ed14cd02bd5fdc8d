"""``boneyard simulate``: many computer-only games, spread over processes, reproducible.

Game ``i`` of a run is dealt from ``game_seed(seed, i)`` and its players are seeded from the
same number, so the results are the same whatever the number of workers.

With ``duplicate=True`` every deal is played once per rotation of the seats (deal ``i``, the
levels shifted by 0, 1, … seats), so each level plays every hand from every seat and the luck
of the deal cancels out.  The summary then gives, per level, the games it played, its wins and
the win rate with a 95% Wilson interval (``ai_stats``).
"""

from __future__ import annotations

import math
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
    rotate: int = 0
    winners: tuple[int, ...] = ()  #: the winning side (both partners in a partnership), empty when nobody won


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
    winners = game.rules.score_seats(game.winner) if game.winner is not None else ()
    return GameSummary(index, game.winner, list(game.scores), len(game.log), blocked, placements, moves,
                       rotate, tuple(winners))


Job = tuple[int, int]  #: (deal index, rotation)


def _chunk(args: tuple[str, int, Mapping[str, object] | None, list[str], int, list[Job]]) -> list[GameSummary]:
    variant, players, options, specs, seed, jobs = args
    return [play_one(variant, players, options, specs, seed, index, rotate) for index, rotate in jobs]


def rotations(specs: Sequence[str], players: int) -> list[int]:
    """The seat rotations of a duplicate deal: enough for every level to sit in every seat once."""
    distinct = len(set(specs))
    return list(range(players)) if distinct > 1 else [0]


def simulate(variant: str, players: int, games: int, *, seed: int = 0, ai: str | Sequence[str] | None = None,
             options: Mapping[str, object] | None = None, workers: int | None = None,
             duplicate: bool = False) -> dict[str, object]:
    """Play ``games`` computer-only games and summarise them (the ``--json`` object).

    With ``duplicate`` each of the ``games`` deals is played once per seat rotation."""
    rules = make_rules(variant, players, options)  # validate before forking
    specs = seat_specs(ai, players)
    for spec in set(specs):
        make_player(spec)
    turns = rotations(specs, players) if duplicate else [0]
    jobs = [(index, rotate) for index in range(games) for rotate in turns]
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    workers = min(workers, max(1, len(jobs)))
    started = time.perf_counter()
    if workers == 1:
        summaries = [play_one(variant, players, options, specs, seed, i, r) for i, r in jobs]
    else:
        # many small chunks keep both workers busy to the end (a few large ones leave one idle)
        size = max(1, min(50, len(jobs) // (workers * 16)))
        chunks = [jobs[start:start + size] for start in range(0, len(jobs), size)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = pool.map(_chunk, [(variant, players, dict(options or {}), specs, seed, c) for c in chunks])
            summaries = [summary for part in parts for summary in part]
    seconds = time.perf_counter() - started
    summary = summarise(rules.name, players, len(jobs), seed, specs, summaries, seconds)
    summary["duplicate"] = duplicate
    summary["deals"] = games
    return summary


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); (0, 1) when nothing was played."""
    if games <= 0:
        return (0.0, 1.0)
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return (max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator))


def ai_stats(specs: Sequence[str], players: int, summaries: Sequence[GameSummary]) -> list[dict[str, object]]:
    """Per level: the games it played a part in, the games its side won, the rate and its 95% interval.

    A level seated twice in one game (or on both sides of a partnership) counts that game once;
    a game without a winner (a tie) counts as played, not won."""
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    for summary in summaries:
        seated = {specs[(seat + summary.rotate) % players] for seat in range(players)}
        winners = {specs[(seat + summary.rotate) % players] for seat in summary.winners}
        for spec in seated:
            played[spec] = played.get(spec, 0) + 1
            won[spec] = won.get(spec, 0) + (spec in winners)
    stats: list[dict[str, object]] = []
    for spec in dict.fromkeys(specs):
        games, wins = played.get(spec, 0), won.get(spec, 0)
        low, high = wilson(wins, games)
        stats.append({"ai": spec, "games": games, "wins": wins, "win_rate": wins / games if games else 0.0,
                      "ci95": [low, high]})
    return stats


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
        "ai_stats": ai_stats(specs, players, summaries),
        "hands": hands,
        "mean_hands": hands / count,
        "blocked_hands": sum(s.blocked_hands for s in summaries),
        "placements": sum(s.placements for s in summaries),
        "moves": sum(s.moves for s in summaries),
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
    }
