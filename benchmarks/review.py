"""``python -m benchmarks.review``: how long ``boneyard review`` takes on one seat of a whole All Fives game.

A game to 250 between two greedy players is dealt from ``--seed`` and recorded; one seat is then
reviewed at the default budget (the expert's 0.5 s per decision, open hands included), or with
``--samples N`` for a reproducible run.  The target (issue 15): under a minute on a 2-core machine.
The CPU time is printed too: on a busy machine the clock budget buys fewer deals, and the two deals
every decision takes at least cost more wall time than on an idle one.

    python -m benchmarks.review                     # seat 0, default budget
    python -m benchmarks.review --samples 200 --json
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from benchmarks import arguments
from boneyard import Game, make_rules, record
from boneyard.chance import Chance
from boneyard.players.base import make_player
from boneyard.players.expert.search import DEFAULT_TIME, MAX_SAMPLES
from boneyard.review.analysis import MIN_SAMPLES, Settings, review
from boneyard.view import SeatView


def game_record(seed: int) -> dict[str, Any]:
    """A whole two-player All Fives game to 250 between greedy players, as a record."""
    game = Game(make_rules("all-fives", 2, {}), ["Ann", "Bob"], Chance(seed))
    players = [make_player("greedy", seed=seed + seat) for seat in range(2)]
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
            continue
        game.apply(players[game.turn].choose(SeatView(game, game.turn)))
    return record.to_record(game)


def measure(seed: int, seat: int, settings: Settings) -> dict[str, Any]:
    data = game_record(seed)
    started, cpu = time.perf_counter(), time.process_time()
    result = review(data, [seat], settings)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    summary = result.summaries[0]
    return {
        "variant": "all-fives", "seed": seed, "seat": seat, "by": result.by, "hands": len(data["hands"]),
        "decisions": summary.decisions, "forced": summary.forced, "seconds": seconds, "cpu_seconds": cpu,
        "seconds_per_decision": seconds / max(1, summary.decisions),
        "open_hands_solved": sum(1 for d in result.decisions if d.open_hands is not None),
        "accuracy": summary.accuracy, "points_lost": summary.points_lost,
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.review", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=arguments.seed, default=1, help="seed of the reviewed game")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=0, help="the seat reviewed (a two-player game)")
    # (the limits of ``boneyard review``)
    parser.add_argument("--time", type=arguments.duration(600), default=DEFAULT_TIME, help="seconds per decision")
    parser.add_argument("--samples", type=arguments.whole(MIN_SAMPLES, MAX_SAMPLES), default=None,
                        help="deals per decision (instead of --time)")
    parser.add_argument("--no-open-hands", action="store_true", help="leave out the hindsight solution")
    parser.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    settings = Settings(seconds=args.time, samples=args.samples, open_hands=not args.no_open_hands)
    result = measure(args.seed, args.seat, settings)
    if args.json:
        print(json.dumps(result))
        return
    print(f"All Fives to 250, seed {result['seed']}, seat {result['seat']}: {result['hands']} hands, "
          f"{result['decisions']} decisions ({result['forced']} forced moves skipped), {result['by']}")
    print(f"reviewed in {result['seconds']:.1f} s ({result['cpu_seconds']:.1f} s of CPU): "
          f"{result['seconds_per_decision']:.2f} s per decision; "
          f"open hands solved for {result['open_hands_solved']} of {result['decisions']}")


if __name__ == "__main__":
    main()
