"""How far a player's replies are from those of a player who sees every hand: what ``doubt`` stands for.

The expert's search values the other seat's reply as the one worst for the expert on each sampled deal, as if
that seat saw the expert's hand.  ``expert:doubt=D`` values it as ``(1 - D) * worst + D * mean`` over the
legal replies instead (docs/players.md, step 12).  This benchmark measures, for a real opponent, which ``D``
describes its replies: two-player Block hands (OpenSpiel's ``python_block_dominoes``, as
:mod:`benchmarks.openspiel_adapter` plays them), and at every decision of the measured player with a choice
every legal move is solved exactly with all hands known (the fast engine's solver, from the mover's side):
``best``, ``mean`` over the legal moves, and ``chosen``.  Then

    D = sum(best - chosen) / sum(best - mean)

over the decisions (0: it always finds what a seeing player would play; 1: no better than a random legal
move).  The table gives D for OpenSpiel's ISMCTS (1000 simulations) and for the expert that plays it, with
how often each chose a move as good as the best.

``--alternatives K`` also asks how much ISMCTS's choices say about its hand: after each of its measured
decisions, K hands are drawn for it from what the expert has seen (the expert's own inference, the tile just
played put back), and its move is solved again as if it had held each.  If its move is as good as the best
much more often with its true hand than with the drawn ones, a reader of its choices learns its hand; if about
as often, its choices say little beyond the passes (the row "ISMCTS, drawn hands").

    python -m benchmarks.replies --deals 30 --seed 5 --expert expert:time=0.4 --alternatives 6
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from collections.abc import Sequence

from benchmarks import arguments
from benchmarks.openspiel_adapter import Hand, match_parser, open_spiel
from boneyard.moves import Move
from boneyard.players.expert.inference import infer
from boneyard.players.expert.sampling import fill_plan, sample_deal
from boneyard.players.expert.search import Search
from boneyard.state import Game
from boneyard.view import SeatView


def solved_values(game: Game, moves: Sequence[Move]) -> list[float] | None:
    """The exact value of each of ``moves`` for the seat to move, every hand known (``None``: not solvable)."""
    view = SeatView(game, game.turn)
    search = Search(view, random.Random(0))
    root = search.fast
    if root is None or sorted(map(str, search.moves)) != sorted(map(str, moves)):
        return None
    root.load(game.hands, game.stock[game.stock_pos:])
    values = root.evaluate_all(list(range(len(search.moves))))
    if values is None:
        return None
    by_move = dict(zip(map(str, search.moves), values, strict=True))
    return [by_move[str(move)] for move in moves]


def drawn_hands(before: Game, move: Move, watcher: int, count: int, rng: random.Random,
                tally: list[tuple[float, float, float]]) -> None:
    """``count`` hands for the seat that made ``move`` in ``before``, drawn from what ``watcher`` saw once it was
    made, the tile put back; each such position's (best, mean, chosen) goes into ``tally``."""
    mover = before.turn
    assert move.tile is not None
    after = copy.deepcopy(before)
    after.apply(move)
    info = infer(SeatView(after, watcher))
    plan = fill_plan(info)
    unseen = before.hands[mover] + before.stock[before.stock_pos:]
    for _ in range(count):
        hands, _ = sample_deal(info, rng, plan)
        alternative = copy.deepcopy(before)
        alternative.hands[mover] = [*hands[mover], move.tile]
        alternative.stock = alternative.stock[:alternative.stock_pos] + [
            tile for tile in unseen if tile not in alternative.hands[mover]]
        legal = SeatView(alternative, mover).legal_moves()
        values = solved_values(alternative, legal) if len(legal) > 1 else None
        if values is not None:
            tally.append((max(values), sum(values) / len(values), values[[str(m) for m in legal].index(str(move))]))


def play(deal_seed: int, expert_seat: int, expert_spec: str, sims: int,
         tally: dict[str, list[tuple[float, float, float]]], alternatives: int = 0) -> None:
    """One hand; each side's decisions with a choice go into ``tally`` as (best, mean, chosen), and with
    ``alternatives`` ISMCTS's decisions again on hands drawn for it (``tally["drawn"]``, :func:`drawn_hands`)."""
    hand = Hand(deal_seed, expert_seat, expert_spec, sims)
    rng = random.Random(deal_seed)
    for turn in hand.turns():
        mirror = hand.mirror
        legal = SeatView(mirror, turn.player).legal_moves()
        if len(legal) < 2 or not mirror.layout.tiles:
            continue
        values = solved_values(mirror, legal)
        if values is not None:
            chosen = values[[str(m) for m in legal].index(str(turn.move))]
            tally["expert" if turn.by_expert else "ismcts"].append((max(values), sum(values) / len(values), chosen))
        if alternatives and not turn.by_expert:
            drawn_hands(mirror, turn.move, expert_seat, alternatives, rng, tally["drawn"])


def build_parser() -> argparse.ArgumentParser:
    parser = match_parser("benchmarks.replies", __doc__.splitlines()[0], "expert:time=0.4", 5)
    parser.add_argument("--alternatives", type=arguments.count, default=0,
                        help="hands drawn for ISMCTS after each of its measured decisions (0: none)")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    open_spiel("benchmarks.replies")
    tally: dict[str, list[tuple[float, float, float]]] = {"ismcts": [], "drawn": [], "expert": []}
    started = time.perf_counter()
    for deal in range(args.deals):
        for seat in (0, 1):
            play(args.seed * 1000 + deal, seat, args.expert, args.sims, tally, args.alternatives)
    print(f"{args.deals} duplicate deals of python_block_dominoes, seed {args.seed}, {args.expert} against ISMCTS "
          f"({args.sims} simulations), {time.perf_counter() - started:.0f} s")
    print("| player | decisions with a choice | as good as the best | D = sum(best - chosen) / sum(best - mean) |")
    print("|---|---|---|---|")
    names = {"ismcts": f"ISMCTS ({args.sims})", "drawn": "ISMCTS, drawn hands", "expert": args.expert}
    for side, rows in tally.items():
        if side == "drawn" and not args.alternatives:
            continue
        lost = sum(best - chosen for best, _, chosen in rows)
        spread = sum(best - mean for best, mean, _ in rows)
        top = sum(chosen >= best - 1e-9 for best, _, chosen in rows)
        name = names[side]
        share = f"{top / len(rows):.1%}" if rows else "-"
        print(f"| {name} | {len(rows)} | {share} | {lost / spread if spread else float('nan'):.3f} |")


if __name__ == "__main__":
    main()
