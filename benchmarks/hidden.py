"""What the hidden tiles are worth: the expert shown the true deal, against a fair player.

A measuring instrument, not a player: it breaks the rule that a seat sees only what it may see.  The *seeing*
expert is today's expert whose search is handed the truth instead of sampled deals:

* ``--shows hands``: every other seat's hand, the stock's order still hidden (each searched deal shuffles
  the true stock).  Against a fair expert this is a ceiling for any reading of the hidden hands: what the
  best inference of the others' tiles could win at most.
* ``--shows all``: the hands and the stock's order (every draw known in advance).

Both search with the expert's own playouts and the same ``samples=`` budget, so the difference from the fair
expert against the same opponent is what the information is worth, and the gap between the fair expert and
the ``hands`` row is what is left to gain by inference.  Each deal is played twice, the seeing expert in seat 0
and then in seat 1 (two players); the table gives its games won, lost and tied and its win rate with the 95%
Wilson interval (as :mod:`benchmarks.duel`'s).

    python -m benchmarks.hidden --variants bergen --deals 100 --shows hands --against heuristic --samples 40
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from benchmarks import arguments
from benchmarks.duel import HEADER, deal_game, finish, outcome, row_line, tally
from boneyard.players.base import Player, make_player
from boneyard.players.expert.search import MAX_SAMPLES, ExpertPlayer, Search
from boneyard.state import Game
from boneyard.tiles import Tile
from boneyard.view import SeatView

Deal = tuple[list[list[Tile]], list[Tile]]


class SeeingSearch(Search):
    """The expert's search on the true deal (the stock reshuffled for every deal unless its order is shown; where
    nothing can be drawn, the one deal is searched once, as the fair search searches each consistent deal once)."""

    def __init__(self, view: SeatView, rng: random.Random, truth: Deal, stock_shown: bool) -> None:
        self.truth = truth
        self.stock_shown = stock_shown
        super().__init__(view, rng, read=False)

    def _enumerable(self) -> list[Deal] | None:
        """The true deal alone where nothing can be drawn (its stock's order cannot matter: searched once)."""
        return [self.truth] if self.nothing_to_draw() else None

    def sample(self) -> Deal:
        hands, stock = self.truth
        stock = list(stock)
        if not self.stock_shown:
            self.rng.shuffle(stock)
        return [list(hand) for hand in hands], stock


class SeeingExpert(ExpertPlayer):
    """Today's expert searching the true deal of ``game`` (``shows``: ``hands`` or ``all``)."""

    def __init__(self, game: Game, shows: str, seed: int, samples: int) -> None:
        super().__init__(seed=seed, samples=samples, read=0)
        self.game = game
        self.stock_shown = shows == "all"

    def search(self, view: SeatView, rng: random.Random) -> Search:
        game = self.game
        truth = ([list(hand) for hand in game.hands], list(game.stock[game.stock_pos:]))
        return SeeingSearch(view, rng, truth, self.stock_shown)


def play(variant: str, seed: int, index: int, seeing_seat: int, shows: str, samples: int, against: str) -> int:
    """One game of deal ``index``, the seeing expert in ``seeing_seat``: its outcome (1 won, -1 lost, 0 tied)."""
    game, number = deal_game(variant, seed, index)
    seats: list[Player] = [SeeingExpert(game, shows, number + 101 * seat, samples) if seat == seeing_seat
                           else make_player(against, seed=number + 101 * seat) for seat in range(2)]
    finish(game, seats)
    return outcome(game, {seeing_seat})


def run(variant: str, deals: int, shows: str, samples: int, against: str, seed: int,
        progress: bool = False) -> dict[str, object]:
    """``deals`` duplicate deals: the seeing expert's wins, losses and ties against ``against``."""
    row = tally(variant, deals,
                lambda index: [play(variant, seed, index, seat, shows, samples, against) for seat in (0, 1)], progress)
    return {"shows": shows, "against": against, **row}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hidden", description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=arguments.variants, default="bergen", help="comma-separated variants")
    parser.add_argument("--deals", type=arguments.positive, default=10,
                        help="duplicate deals per variant (two games each)")
    parser.add_argument("--shows", choices=("hands", "all"), default="hands",
                        help="what the seeing expert is shown: the others' hands, or the stock's order too")
    parser.add_argument("--samples", type=arguments.whole(1, MAX_SAMPLES), default=40,
                        help="deals (searches of the truth) per decision")
    parser.add_argument("--against", type=arguments.player, default="heuristic", help="the fair opponent's spec")
    parser.add_argument("--seed", type=arguments.seed, default=2025)
    parser.add_argument("--progress", action="store_true", help="print the running count after every deal")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    arguments.check_rules(parser, args.variants, 2)
    print(f"the expert shown {'the hands' if args.shows == 'hands' else 'the hands and the stock order'} "
          f"(samples={args.samples}) against {args.against}, 2 players, {args.deals} duplicate deals, seed {args.seed}")
    print(f"{HEADER}  {'time':>7}")
    for variant in args.variants:
        row = run(variant, args.deals, args.shows, args.samples, args.against, args.seed, args.progress)
        print(f"{row_line(row)}  {row['seconds']:6.0f}s", flush=True)


if __name__ == "__main__":
    main()
