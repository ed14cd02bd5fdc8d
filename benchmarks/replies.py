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

import numpy as np

from benchmarks.openspiel_adapter import HAND, action_index, boneyard_move, make_resampler, to_tile
from boneyard.moves import Kind, Move
from boneyard.players.base import make_player
from boneyard.players.expert.inference import infer
from boneyard.players.expert.sampling import fill_plan, sample_deal
from boneyard.players.expert.search import Search
from boneyard.rules.base import make_rules
from boneyard.state import Game, HandSetup
from boneyard.view import SeatView

try:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.games import block_dominoes
except ImportError as error:  # pragma: no cover - the bench extra
    raise SystemExit(f"{error}: pip install -e '.[bench]'") from None


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


def drawn_hands(before: Game, after: Game, move: Move, watcher: int, count: int, rng: random.Random,
                tally: list[tuple[float, float, float]]) -> None:
    """``count`` hands for the seat that made ``move`` in ``before``, drawn from what ``watcher`` saw once it was
    made (``after``), the tile put back; each such position's (best, mean, chosen) goes into ``tally``."""
    mover = before.turn
    assert move.tile is not None
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
    game = pyspiel.load_game("python_block_dominoes")
    state = game.new_initial_state()
    rng = random.Random(deal_seed)
    deck = list(block_dominoes._DECK)
    rng.shuffle(deck)
    for pair in deck[:2 * HAND]:
        state.apply_action(block_dominoes._DECK.index(pair))
    hands = [[to_tile(p) for p in state.hands[seat]] for seat in (0, 1)]
    mirror = Game(make_rules("block", 2, {"first_lead": "random_player_any_tile", "tie_rule": "no_score",
                                            "target": 1}))
    mirror.start_hand(HandSetup(hands, [to_tile(p) for p in deck[2 * HAND:]], leader=0))
    expert = make_player(expert_spec, seed=deal_seed)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(deal_seed))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(deal_seed))
    bot.set_resampler(make_resampler(random.Random(deal_seed + 1)))
    while not state.is_terminal():
        player = state.current_player()
        while mirror.turn != player:
            mirror.apply(Move.passing())
        legal = SeatView(mirror, player).legal_moves()
        if player == expert_seat:
            move = expert.choose(SeatView(mirror, player))
            assert move.tile is not None
            action = action_index(player, move.tile, None if move.kind == Kind.LEAD else move.half)
        else:
            action = bot.step(state)
            move = boneyard_move(mirror, block_dominoes._ACTIONS[action])
        measured = len(legal) > 1 and bool(mirror.layout.tiles)
        before = copy.deepcopy(mirror) if measured and alternatives and player != expert_seat else None
        if measured:
            values = solved_values(mirror, legal)
            if values is not None:
                chosen = values[[str(m) for m in legal].index(str(move))]
                tally["expert" if player == expert_seat else "ismcts"].append(
                    (max(values), sum(values) / len(values), chosen))
        mirror.apply(move)
        state.apply_action(action)
        if before is not None:
            drawn_hands(before, mirror, move, expert_seat, alternatives, rng, tally["drawn"])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.replies")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--expert", default="expert:time=0.4")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--alternatives", type=int, default=0,
                        help="hands drawn for ISMCTS after each of its measured decisions (0: none)")
    args = parser.parse_args(argv)
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
