"""Boneyard's expert against OpenSpiel's ISMCTS at ``python_block_dominoes``.

OpenSpiel's Python Block dominoes is two-player Block: seven tiles each, player 0 leads any
tile, a player who cannot play is skipped, the game is one hand and the lower hand wins the
other's pips.  Each OpenSpiel deal is mirrored into a Boneyard ``block`` game
(``first_lead=random_player_any_tile`` with seat 0 as leader, the 14 undealt tiles as the
never-drawn stock); a skipped OpenSpiel player is a ``pass`` in Boneyard.  The expert decides
from its :class:`~boneyard.view.SeatView` of the mirror, ISMCTS from OpenSpiel's state with a
resampler that deals the opponent only hands consistent with his passes.  Every deal is played
twice, the expert taking each seat once.

OpenSpiel's game is one hand, so the mirror's target is 1 point by default (``--target``): whoever wins
the hand wins the game, and the expert plays for that, as it plays for a game's end in any variant.
A blocked hand with equal pip totals is a tie in OpenSpiel, so the mirror's ``tie_rule`` is ``no_score``
(Block's default gives it to the lighter tile).
(``--target 100``, Block's default, is the mirror of earlier sessions: the expert then plays the hand
as the first of a game to 100, for its points.)

    python -m benchmarks.openspiel_adapter --deals 20 --sims 1000 --expert "expert:time=0.5"
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks import arguments
from benchmarks.paired import by_deal
from boneyard.moves import Kind, Move
from boneyard.players.base import make_player
from boneyard.rules.base import make_rules
from boneyard.sim.simulate import wilson
from boneyard.state import Game, HandSetup
from boneyard.tiles import Tile
from boneyard.view import SeatView

HAND = 7
BY_DEAL_FROM = 50  #: deals at least for the summary's interval counted by deal (benchmarks.paired.by_deal)


def open_spiel(benchmark: str = "benchmarks.openspiel_adapter") -> Any:
    """OpenSpiel's ``python_block_dominoes`` module (the ``bench`` extra), imported when a hand is played, so that
    ``--help`` and the argument checks work without it; where it is missing, ``benchmark`` exits with one line
    that says how to install it."""
    try:
        import pyspiel  # noqa: F401  (OpenSpiel's compiled core: its games' registry)
        from open_spiel.python.games import block_dominoes
    except ImportError as error:
        raise arguments.bench_extra_missing(error, benchmark, "OpenSpiel (open_spiel==2.0.2)") from None
    return block_dominoes


def to_tile(pair: tuple[float, float]) -> Tile:
    return Tile(int(pair[0]), int(pair[1]))


def to_pair(tile: Tile) -> tuple[float, float]:
    return (float(tile.low), float(tile.high))


def action_index(player: int, tile: Tile, edge: int | None) -> int:
    pair = to_pair(tile)
    for index, action in enumerate(open_spiel()._ACTIONS):
        if action.player == player and action.tile == pair and action.edge == (None if edge is None else float(edge)):
            return index
    raise ValueError(f"no OpenSpiel action for player {player}, tile {tile}, edge {edge}")


def boneyard_move(game: Game, action: Any) -> Move:
    """The Boneyard move for an OpenSpiel action (same tile, joining the same number)."""
    tile = to_tile(action.tile)
    for move in game.legal_moves():
        if move.tile is tile and (action.edge is None or move.half == int(action.edge)):
            return move
    raise ValueError(f"OpenSpiel's {action} has no legal Boneyard counterpart ({game.legal_moves()})")


def skipped_edges(history: Sequence[Any], to_move: int) -> list[tuple[int, list[float]]]:
    """(player, open edges) for every time OpenSpiel skipped a player who could not follow,
    including now, when ``to_move`` moves again after his own move."""
    edges: list[float] = []
    skips: list[tuple[int, list[float]]] = []
    for number, action in enumerate(history):
        if number and history[number - 1].player == action.player:
            skips.append((1 - action.player, list(edges)))
        if not edges:
            edges = list(action.tile)
        else:
            edges.remove(action.edge)
            edges.append(action.tile[0] if action.tile[0] != action.edge else action.tile[1])
    if history and history[-1].player == to_move:
        skips.append((1 - to_move, list(edges)))
    return skips


def make_resampler(rng: random.Random) -> Any:
    """ISMCTS's resampler: the opponent's hidden tiles dealt again, respecting every pass."""

    block_dominoes = open_spiel()

    def resample(state: Any, player: int) -> Any:
        history = list(state.actions_history)
        opponent = 1 - player
        played = {seat: [a.tile for a in history if a.player == seat] for seat in (0, 1)}
        mine = list(state.hands[player]) + played[player]
        used = set(mine) | set(played[opponent])
        unseen = [pair for pair in block_dominoes._DECK if pair not in used]
        skips = [edges for seat, edges in skipped_edges(history, player) if seat == opponent]
        need = HAND - len(played[opponent])
        # nothing is drawn in Block, so a tile still hidden now was held at every skip: it matched no edge then
        allowed = [pair for pair in unseen if not any(set(pair) & set(edges) for edges in skips)]
        hidden = rng.sample(allowed, need)
        hands = {player: mine, opponent: hidden + played[opponent]}
        fresh = state.get_game().new_initial_state()
        for pair in hands[0] + hands[1]:
            fresh.apply_action(block_dominoes._DECK.index(pair))
        for action in history:
            fresh.apply_action(action_index(action.player, to_tile(action.tile),
                                            None if action.edge is None else int(action.edge)))
        return fresh

    return resample


@dataclass(frozen=True)
class Turn:
    """One decision of a hand (:meth:`Hand.turns`): who moved, the move on the mirror and as OpenSpiel's action, and
    the seconds the choice took."""

    player: int
    move: Move
    action: int
    seconds: float
    by_expert: bool


class Hand:
    """One ``python_block_dominoes`` hand of deal ``deal_seed``: the expert in ``expert_seat`` (choosing from its
    view of a Boneyard ``block`` game that mirrors OpenSpiel's state) against ISMCTS with ``sims`` simulations."""

    def __init__(self, deal_seed: int, expert_seat: int, expert_spec: str, sims: int, target: int = 1) -> None:
        block_dominoes = open_spiel()
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        game = pyspiel.load_game("python_block_dominoes")
        self.state = game.new_initial_state()
        rng = random.Random(deal_seed)
        deck = list(block_dominoes._DECK)
        rng.shuffle(deck)
        for pair in deck[:2 * HAND]:
            self.state.apply_action(block_dominoes._DECK.index(pair))
        hands = [[to_tile(p) for p in self.state.hands[seat]] for seat in (0, 1)]
        self.mirror = Game(make_rules("block", 2, {"first_lead": "random_player_any_tile", "tie_rule": "no_score",
                                                   "target": target}))
        self.mirror.start_hand(HandSetup(hands, [to_tile(p) for p in deck[2 * HAND:]], leader=0))
        self.expert_seat = expert_seat
        self.expert = make_player(expert_spec, seed=deal_seed)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(deal_seed))
        self.bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(deal_seed))
        self.bot.set_resampler(make_resampler(random.Random(deal_seed + 1)))

    def turns(self) -> Iterator[Turn]:
        """Each decision in turn, yielded before it is applied (the mirror as the mover saw it), applied on resuming."""
        state, mirror = self.state, self.mirror
        while not state.is_terminal():
            player = state.current_player()
            while mirror.turn != player:  # OpenSpiel skipped a blocked player: he passes here
                mirror.apply(Move.passing())
            started = time.perf_counter()
            if player == self.expert_seat:
                move = self.expert.choose(SeatView(mirror, player))
                assert move.tile is not None
                action = action_index(player, move.tile, None if move.kind == Kind.LEAD else move.half)
            else:
                action = self.bot.step(state)
                move = boneyard_move(mirror, open_spiel()._ACTIONS[action])
            yield Turn(player, move, action, time.perf_counter() - started, player == self.expert_seat)
            mirror.apply(move)
            state.apply_action(action)

    def result(self) -> float:
        """The expert's return once the hand is over (positive: it won)."""
        return float(self.state.returns()[self.expert_seat])


def play_deal(deal_seed: int, expert_seat: int, expert_spec: str, sims: int,
              clock: dict[str, list[float]] | None = None, target: int = 1) -> float:
    """One game; the expert's return (positive: it won).  ``clock`` collects the seconds each
    side took per decision ("expert", "ismcts")."""
    clock = clock if clock is not None else {"expert": [], "ismcts": []}
    hand = Hand(deal_seed, expert_seat, expert_spec, sims, target)
    for turn in hand.turns():
        clock["expert" if turn.by_expert else "ismcts"].append(turn.seconds)
    return hand.result()


def print_clock(clock: dict[str, list[float]]) -> None:
    """One line per side of a match: its decisions, and the mean, 95th percentile and longest of their seconds."""
    for side, times in clock.items():
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0
        mean = sum(times) / len(times) if times else 0.0
        longest = ordered[-1] if ordered else 0.0
        print(f"  {side}: {len(times)} decisions, mean {mean:.3f} s, 95th percentile {p95:.3f} s per move, "
              f"longest {longest:.3f} s")


def match_parser(benchmark: str, description: str, expert: str, seed: int) -> argparse.ArgumentParser:
    """The arguments of a match of the expert (``expert``: the default spec) against ISMCTS: ``--deals``,
    ``--sims``, ``--expert``, ``--seed`` (this benchmark's and :mod:`benchmarks.replies`')."""
    parser = argparse.ArgumentParser(prog=f"python -m {benchmark}", description=description)
    parser.add_argument("--deals", type=arguments.positive, default=10, help="duplicate deals (two games each)")
    parser.add_argument("--sims", type=arguments.positive, default=1000, help="ISMCTS's simulations per move")
    parser.add_argument("--expert", type=arguments.player, default=expert, help="the expert's spec")
    parser.add_argument("--seed", type=arguments.seed, default=seed)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = match_parser("benchmarks.openspiel_adapter", __doc__.splitlines()[0], "expert:time=0.5", 7)
    parser.add_argument("--target", type=arguments.positive, default=1,
                        help="the mirror game's target (1: the one hand decides it, as in OpenSpiel)")
    parser.add_argument("--progress", action="store_true", help="print one line per game")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    open_spiel()
    wins = losses = ties = 0
    outcome_of: dict[tuple[int, int], int] = {}  #: (deal, the expert's seat) → 1 won, -1 lost, 0 tied
    clock: dict[str, list[float]] = {"expert": [], "ismcts": []}
    started = time.perf_counter()
    for deal in range(args.deals):
        for seat in (0, 1):
            result = play_deal(args.seed * 1000 + deal, seat, args.expert, args.sims, clock, args.target)
            wins += result > 0
            losses += result < 0
            ties += result == 0
            outcome_of[(deal, seat)] = (result > 0) - (result < 0)
            if args.progress:
                print(f"deal {deal} expert seat {seat}: {result:+.0f}  (so far {wins}-{losses}-{ties})", flush=True)
    games = wins + losses + ties
    low, high = wilson(wins, games)
    decided = wins + losses
    d_low, d_high = wilson(wins, decided) if decided else (0.0, 1.0)
    print(f"{args.expert} vs OpenSpiel ISMCTS ({args.sims} simulations), python_block_dominoes, "
          f"{args.deals} duplicate deals: {wins} wins, {losses} losses, {ties} ties of {games} "
          f"({wins / games:.1%}, 95% interval {low:.2f}-{high:.2f}; of the decided games "
          f"{wins / max(1, decided):.1%}, 95% interval {d_low:.2f}-{d_high:.2f}; "
          f"{time.perf_counter() - started:.0f} s)")
    if args.deals >= BY_DEAL_FROM:  # a normal approximation over the deals: for many deals only
        share, low, high, _ = by_deal([outcome_of])
        print(f"  of the decided games counted by deal (a deal's two games are not independent): {share:.1%}, "
              f"95% interval {low:.2f}-{high:.2f}")
    print_clock(clock)


if __name__ == "__main__":
    main()
