"""How well the expert's reading of the others' choices predicts their hidden hands.

The expert samples deals consistent with what is certain (:mod:`boneyard.players.expert.inference`: passes and
draws) and, in the variants it reads, weights them by how likely the others' earlier choices are under the play
model of :mod:`boneyard.players.expert.plays`.  This benchmark measures that model directly, without the noise
of whole games: at every decision of seat 0 where seat 1 has made a choice the model reads, ``--deals`` deals are
sampled, and each tile seat 0 cannot see gets the probability that seat 1 holds it, once with every consistent
deal alike (*certain only*) and once with the deals weighted by the model (*read*).  The score is the mean
log-loss of those probabilities per unseen tile against seat 1's true hand (lower is better; 0 would be knowing
the hand).  The model is applied in every variant asked for, also in those the expert does not read.

    python -m benchmarks.reading --variants bergen,block --games 30 --against heuristic
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence

from benchmarks import arguments
from benchmarks.duel import deal_game
from boneyard.players.base import make_player
from boneyard.players.expert.inference import infer
from boneyard.players.expert.plays import READ, PlayModel
from boneyard.players.expert.sampling import fill_plan, sample_deal
from boneyard.tiles import Tile
from boneyard.view import SeatView

CLIP = 1e-3  #: probabilities are kept within [CLIP, 1 - CLIP] (a tile ruled out by the samples alone)


def log_loss(hands: Sequence[Sequence[Tile]], weights: Sequence[float], unseen: Sequence[Tile],
             truth: set[Tile]) -> float:
    """The summed log-loss over ``unseen`` of the weighted share of ``hands`` holding each tile, against ``truth``."""
    total = sum(weights)
    share = dict.fromkeys(unseen, 0.0)
    for hand, weight in zip(hands, weights, strict=True):
        for tile in hand:
            share[tile] += weight / total
    loss = 0.0
    for tile in unseen:
        p = min(max(share[tile], CLIP), 1 - CLIP)
        loss -= math.log(p) if tile in truth else math.log(1 - p)
    return loss


def measure(variant: str, games: int, reader: str, against: str, deals: int, seed: int) -> dict[str, float]:
    """``games`` games of ``reader`` (seat 0) against ``against``: the mean log-loss per unseen tile, certain only and
    read, over every decision of seat 0 where the model has a choice of seat 1 to read."""
    variants = READ | {variant}
    certain = read = 0.0
    tiles = positions = 0
    started = time.perf_counter()
    for index in range(games):
        game, number = deal_game(variant, seed, index)
        seats = [make_player(reader, seed=number), make_player(against, seed=number + 101)]
        rng = random.Random(number)
        while not game.finished:
            if not game.in_hand:
                game.next_hand()
                continue
            view = SeatView(game, game.turn)
            if game.turn == 0:
                model = PlayModel(view, variants)
                if model.active:
                    info = infer(view)
                    plan = fill_plan(info)
                    sampled = [sample_deal(info, rng, plan)[0] for _ in range(deals)]
                    truth = set(game.hands[1])
                    others = [hands[1] for hands in sampled]
                    certain += log_loss(others, [1.0] * deals, info.unseen, truth)
                    read += log_loss(others, [model.weight(hands) for hands in sampled], info.unseen, truth)
                    tiles += len(info.unseen)
                    positions += 1
            game.apply(seats[game.turn].choose(view))
    return {"positions": positions, "certain": certain / max(1, tiles), "read": read / max(1, tiles),
            "seconds": time.perf_counter() - started}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reading", description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=arguments.variants, default="bergen,block", help="comma-separated variants")
    parser.add_argument("--games", type=arguments.positive, default=10, help="games per variant")
    parser.add_argument("--reader", type=arguments.player, default="expert:samples=20,read=0",
                        help="seat 0's spec (whose views are read)")
    parser.add_argument("--against", type=arguments.player, default="heuristic",
                        help="seat 1's spec (whose choices are read)")
    parser.add_argument("--deals", type=arguments.positive, default=300, help="sampled deals per position")
    parser.add_argument("--seed", type=arguments.seed, default=1)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    arguments.check_rules(parser, args.variants, 2)
    print(f"log-loss per unseen tile of seat 1's hand ({args.against}), seen by {args.reader}, "
          f"{args.games} games per variant, {args.deals} deals per position, seed {args.seed}")
    print(f"{'variant':<18} {'positions':>9} {'certain only':>13} {'read':>8} {'gain':>7} {'time':>7}")
    for variant in args.variants:
        row = measure(variant, args.games, args.reader, args.against, args.deals, args.seed)
        gain = 1 - row["read"] / row["certain"] if row["certain"] else 0.0
        print(f"{variant:<18} {row['positions']:>9.0f} {row['certain']:>13.4f} {row['read']:>8.4f} {gain:>7.1%} "
              f"{row['seconds']:>6.0f}s", flush=True)


if __name__ == "__main__":
    main()
