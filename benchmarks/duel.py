"""Two specs of today's players against each other on duplicate deals: what one option is worth.

Each deal is played twice, the first spec in seat 0 and then in seat 1 (two players), both in this process.
With ``samples=`` budgets the run is reproducible and does not depend on the machine's load, so it measures
an option of the expert's search itself (``defend``, ``read``, ...) rather than its speed.  The table gives
the first spec's win rate with its 95% Wilson interval, and how many deals one side won from both seats.

    python -m benchmarks.duel --variants draw --deals 100 --first expert:samples=40,defend=1 \\
        --second expert:samples=40,defend=0
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from boneyard.chance import Chance, game_seed
from boneyard.players.base import Player, make_player
from boneyard.rules.base import VARIANTS, make_rules
from boneyard.sim.simulate import wilson
from boneyard.state import Game
from boneyard.view import SeatView


def deal_game(variant: str, seed: int, index: int) -> tuple[Game, int]:
    """The two-player game of deal ``index`` of ``seed``, and the deal's number (seat ``s`` seeds its player with
    the number plus ``101 * s``)."""
    number = game_seed(seed, index)
    return Game(make_rules(variant, 2), chance=Chance(number)), number


def finish(game: Game, seats: Sequence[Player]) -> int | None:
    """Play ``game`` to its end, each seat choosing from its own view: the winner."""
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
            continue
        game.apply(seats[game.turn].choose(SeatView(game, game.turn)))
    return game.winner


def play(variant: str, seed: int, index: int, first_seat: int, first: str, second: str) -> bool:
    """One game of deal ``index`` with ``first`` in ``first_seat``: whether ``first`` won it."""
    game, number = deal_game(variant, seed, index)
    seats = [make_player(first if seat == first_seat else second, seed=number + 101 * seat) for seat in range(2)]
    return finish(game, seats) == first_seat


def duel(variant: str, deals: int, first: str, second: str, seed: int, progress: bool = False) -> dict[str, object]:
    """``deals`` duplicate deals of ``variant``: the first spec's wins, and the deals one side won twice."""
    wins = swept = 0
    started = time.perf_counter()
    for index in range(deals):
        won = [play(variant, seed, index, seat, first, second) for seat in (0, 1)]
        wins += sum(won)
        swept += won[0] == won[1]
        if progress:
            print(f"  {variant} deal {index + 1}/{deals}: {wins}/{2 * (index + 1)} "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
    low, high = wilson(wins, 2 * deals)
    return {"variant": variant, "first": first, "second": second, "games": 2 * deals, "wins": wins,
            "rate": wins / (2 * deals), "low": low, "high": high, "swept": swept,
            "seconds": time.perf_counter() - started}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.duel", description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="draw", help="comma-separated variants")
    parser.add_argument("--deals", type=int, default=10, help="duplicate deals per variant (two games each)")
    parser.add_argument("--first", default="expert:samples=40,defend=1", help="the spec whose win rate is shown")
    parser.add_argument("--second", default="expert:samples=40,defend=0", help="its opponent's spec")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--progress", action="store_true", help="print the running count after every deal")
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"--variants: unknown variant {unknown[0]!r} (one of {', '.join(sorted(VARIANTS))})")
    print(f"{args.first} against {args.second}, 2 players, {args.deals} duplicate deals, seed {args.seed}")
    print(f"{'variant':16} {'won':>9} {'rate':>7}  {'95% interval':>14}  {'deals won twice':>15}  {'time':>7}")
    for variant in variants:
        row = duel(variant, args.deals, args.first, args.second, args.seed, args.progress)
        print(f"{variant:16} {row['wins']:>4}/{row['games']:<4} {row['rate']:7.1%}  "
              f"[{row['low']:.2f}, {row['high']:.2f}]".ljust(50) + f"{row['swept']:>15}  {row['seconds']:6.0f}s",
              flush=True)


if __name__ == "__main__":
    main()
