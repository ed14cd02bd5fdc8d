"""Two specs of today's players against each other on duplicate deals: what one option is worth.

Each deal is played twice, the first spec in seat 0 and then in seat 1 (two players), both in this process.
With ``samples=`` budgets the run is reproducible and does not depend on the machine's load, so it measures
an option of the expert's search itself (``defend``, ``read``, ...) rather than its speed.  The table gives
the first spec's games won, lost and tied (a game nobody won, or PIP's equal lowest totals, which share the
win), its win rate (ties count as played, not won, as in ``boneyard simulate``) with its 95% Wilson interval,
and how many deals one side won from both seats.

    python -m benchmarks.duel --variants draw --deals 100 --first expert:samples=40,defend=1 \\
        --second expert:samples=40,defend=0
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Collection, Sequence

from benchmarks import arguments
from boneyard.chance import Chance, game_seed
from boneyard.players.base import Player, make_player
from boneyard.rules.base import make_rules
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


def outcome(game: Game, seats: Collection[int]) -> int:
    """The finished ``game`` for the side holding ``seats``: 1 won, -1 lost, 0 tied (nobody won, or the win is
    shared with another side: PIP's equal lowest totals)."""
    winners = game.rules.game_winners(game.winner, game.scores)
    return int(any(seat in seats for seat in winners)) - int(any(seat not in seats for seat in winners))


def play(variant: str, seed: int, index: int, first_seat: int, first: str, second: str) -> int:
    """One game of deal ``index`` with ``first`` in ``first_seat``: its :func:`outcome` for ``first``."""
    game, number = deal_game(variant, seed, index)
    seats = [make_player(first if seat == first_seat else second, seed=number + 101 * seat) for seat in range(2)]
    finish(game, seats)
    return outcome(game, {first_seat})


def tally(variant: str, deals: int, play_deal: Callable[[int], Sequence[int]], progress: bool) -> dict[str, object]:
    """``deals`` duplicate deals, ``play_deal(index)`` giving the outcomes of deal ``index``'s games for the measured
    side: its wins, losses and ties, the win rate with its 95% Wilson interval, and the deals one side won twice."""
    wins = losses = ties = swept = 0
    started = time.perf_counter()
    for index in range(deals):
        results = list(play_deal(index))
        wins += results.count(1)
        losses += results.count(-1)
        ties += results.count(0)
        swept += results[0] != 0 and all(result == results[0] for result in results)
        if progress:
            print(f"  {variant} deal {index + 1}/{deals}: {wins}-{losses}-{ties} "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
    games = wins + losses + ties
    low, high = wilson(wins, games)
    return {"variant": variant, "games": games, "wins": wins, "losses": losses, "ties": ties,
            "rate": wins / games if games else 0.0, "low": low, "high": high, "swept": swept,
            "seconds": time.perf_counter() - started}


def duel(variant: str, deals: int, first: str, second: str, seed: int, progress: bool = False) -> dict[str, object]:
    """``deals`` duplicate deals of ``variant``: the first spec's wins, losses and ties, and the deals one side won
    twice (:func:`tally`)."""
    row = tally(variant, deals, lambda index: [play(variant, seed, index, seat, first, second) for seat in (0, 1)],
                progress)
    return {"first": first, "second": second, **row}


HEADER = f"{'variant':16} {'won-lost-tied':>14} {'rate':>7}  {'95% interval':^15}"


def row_line(row: dict[str, object]) -> str:
    """A row of :func:`tally`'s table (after :data:`HEADER`)."""
    counts = f"{row['wins']}-{row['losses']}-{row['ties']}"
    return f"{row['variant']:16} {counts:>14} {row['rate']:7.1%}  {row['low']:6.1%} – {row['high']:<6.1%}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.duel", description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=arguments.variants, default="draw", help="comma-separated variants")
    parser.add_argument("--deals", type=arguments.positive, default=10,
                        help="duplicate deals per variant (two games each)")
    parser.add_argument("--first", type=arguments.player, default="expert:samples=40,defend=1",
                        help="the spec whose win rate is shown")
    parser.add_argument("--second", type=arguments.player, default="expert:samples=40,defend=0",
                        help="its opponent's spec")
    parser.add_argument("--seed", type=arguments.seed, default=7)
    parser.add_argument("--progress", action="store_true", help="print the running count after every deal")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    arguments.check_rules(parser, args.variants, 2)
    print(f"{args.first} against {args.second}, 2 players, {args.deals} duplicate deals, seed {args.seed}")
    print(f"{HEADER}  {'deals won twice':>15}  {'time':>7}")
    for variant in args.variants:
        row = duel(variant, args.deals, args.first, args.second, args.seed, args.progress)
        print(f"{row_line(row)}  {row['swept']:>15}  {row['seconds']:6.0f}s", flush=True)


if __name__ == "__main__":
    main()
