"""Boneyard's expert side against the ``dominoes`` package's searching bot, in partnership Block.

The ``dominoes`` package (6.1.0, the ``bench`` extra) plays one game: four players in two partnerships (seats 0
and 2 against 1 and 3), the 28 tiles of a double-six set dealt seven each, 6-6 led by its holder, a player who
cannot follow is skipped, and the hand ends when a player empties his hand (his side wins) or nobody can play
(the side with fewer pips in its two hands wins; equal totals: nobody).  Its strongest player that does not look
at the hidden hands is ``probabilistic_alphabeta``: for each sampled deal of the unseen tiles that agrees with
every pass, it solves the hand by alpha-beta and plays the move that is optimal most often (perfect-information
Monte Carlo, in pure Python).  From the start of a hand that takes it minutes a move, so the bot here is the
package's own composition: ``bota_gorda`` (the heaviest tile first) for the first ``--search-from`` moves of
the hand, then ``probabilistic_alphabeta`` with ``--samples`` deals a decision, its alpha-beta ordering its moves
heaviest first.

Each deal is played in the package's ``Game`` (the authority) and mirrored into a Boneyard ``block`` game with
``partnerships=true`` (``partnership_block=side_total``, the package's blocked rule) and ``target=1``, so the
expert plays the one hand for its side's win as the package scores it; a skipped player is a ``pass`` in the
mirror.  The expert's two seats decide from their own views of the mirror; the bot's two seats from the package's
game (which tells a player its own hand, the table and the passes).  Every deal is played twice, the expert's side
taking each partnership once.

    python -m benchmarks.dominoes_bots --deals 25 --seed 1 --expert expert --progress
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks import arguments
from benchmarks.openspiel_adapter import print_clock
from boneyard.moves import Kind, Move
from boneyard.players.base import make_player
from boneyard.rules.base import make_rules
from boneyard.sim.simulate import wilson
from boneyard.state import Game, HandSetup
from boneyard.tiles import Tile
from boneyard.view import SeatView

SEATS = 4
HAND = 7


def dominoes_package(benchmark: str = "benchmarks.dominoes_bots") -> Any:
    """The ``dominoes`` package (the ``bench`` extra), imported when a hand is played."""
    try:
        import dominoes
    except ImportError as error:
        raise arguments.bench_extra_missing(error, benchmark, "the dominoes package (dominoes==6.1.0)") from None
    return dominoes


def make_bot(samples: int, search_from: int) -> Callable[[Any], None]:
    """The package's searching bot: heaviest first before move ``search_from`` of the hand, then
    ``probabilistic_alphabeta`` over ``samples`` sampled deals (a player reorders ``game.valid_moves``, best
    first)."""
    players = dominoes_package().players
    search = players.probabilistic_alphabeta(start_move=search_from, sample_size=samples,
                                             player=players.bota_gorda)

    def bot(game: Any) -> None:
        players.bota_gorda(game)
        search(game)

    return bot


def deal(seed: int) -> list[list[Tile]]:
    """Seven tiles each for the four seats, shuffled from ``seed``."""
    tiles = [Tile(low, high) for high in range(7) for low in range(high + 1)]
    random.Random(seed).shuffle(tiles)
    return [tiles[HAND * seat:HAND * (seat + 1)] for seat in range(SEATS)]


def package_game(hands: list[list[Tile]]) -> Any:
    """The package's game of ``hands``, its 6-6 led by whoever holds it (as ``Game.new(starting_domino=...)`` does
    with hands of its own shuffling)."""
    dominoes = dominoes_package()
    six = dominoes.Domino(6, 6)
    held = [dominoes.Hand([dominoes.Domino(tile.low, tile.high) for tile in hand]) for hand in hands]
    leader = next(seat for seat, hand in enumerate(held) if six in hand)
    game = dominoes.Game(dominoes.Board(), held, [], leader, ((six, True),), leader, None)
    game.make_move(six, True)
    return game


def mirror_game(hands: list[list[Tile]]) -> Game:
    """Boneyard's partnership Block hand of the same deal, played for that one hand (``target=1``)."""
    mirror = Game(make_rules("block", SEATS, {"partnerships": True, "partnership_block": "side_total",
                                              "target": 1}))
    mirror.start_hand(HandSetup([list(hand) for hand in hands], []))
    return mirror


def ends(game: Any) -> tuple[int, int]:
    return game.board.left_end(), game.board.right_end()


def to_package(game: Any, move: Move) -> tuple[Any, bool]:
    """The package's ``(domino, left)`` for a Boneyard play: the end it joins, told by its number (where both ends
    show one number either is the same play)."""
    assert move.tile is not None and move.kind == Kind.PLAY
    left, _ = ends(game)
    return dominoes_package().Domino(move.tile.low, move.tile.high), move.half == left


def to_boneyard(mirror: Game, game: Any, domino: Any, left: bool) -> Move:
    """The Boneyard play of the package's ``(domino, left)``: the same tile joining the number that end shows."""
    number = ends(game)[0 if left else 1]
    tile = Tile(min(domino.first, domino.second), max(domino.first, domino.second))
    for move in mirror.legal_moves():
        if move.tile == tile and move.half == number:
            return move
    raise ValueError(f"the package's {domino} on the {number} end has no legal Boneyard counterpart "
                     f"({mirror.legal_moves()})")


def play_deal(seed: int, expert_side: int, expert_spec: str, bot: Callable[[Any], None],
              clock: dict[str, list[float]] | None = None) -> int:
    """One hand of deal ``seed`` with the expert in seats ``expert_side`` and ``expert_side + 2``: the package's
    result for the expert's side (positive: its points as the package scores them, negative: the other side's,
    0: nobody won)."""
    return play_hand(seed, expert_side, expert_spec, bot, clock)[0]


def play_hand(seed: int, expert_side: int, expert_spec: str, bot: Callable[[Any], None],
              clock: dict[str, list[float]] | None = None) -> tuple[int, Game]:
    """:func:`play_deal`'s result, and the mirror as the hand left it."""
    clock = clock if clock is not None else {"expert": [], "bot": []}
    hands = deal(seed)
    game, mirror = package_game(hands), mirror_game(hands)
    experts = {seat: make_player(expert_spec, seed=seed * 10 + seat) for seat in (expert_side, expert_side + 2)}
    mirror.apply(mirror.legal_moves()[0])  # 6-6, led by its holder in both
    while game.result is None:
        while mirror.turn != game.turn:  # the package skipped a player who could not follow: he passes here
            mirror.apply(Move.passing())
        seat = game.turn
        started = time.perf_counter()
        if seat in experts:
            move = experts[seat].choose(SeatView(mirror, seat))
            domino, left = to_package(game, move)
        else:
            bot(game)
            domino, left = game.valid_moves[0]
            move = to_boneyard(mirror, game, domino, left)
        clock["expert" if seat in experts else "bot"].append(time.perf_counter() - started)
        mirror.apply(move)
        game.make_move(domino, left)
    while mirror.in_hand:  # the package ends a blocked hand at once; Boneyard's after everyone has passed
        mirror.apply(Move.passing())
    points = int(game.result.points)  # positive: seats 0 and 2 won
    return (points if expert_side == 0 else -points), mirror


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.dominoes_bots", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=arguments.positive, default=10, help="duplicate deals (two games each)")
    parser.add_argument("--expert", type=arguments.player, default="expert", help="the spec of the expert's seats")
    parser.add_argument("--samples", type=arguments.positive, default=8,
                        help="deals the package's probabilistic_alphabeta solves per decision")
    parser.add_argument("--search-from", type=arguments.count, default=4,
                        help="the move of the hand from which the bot searches (before it: heaviest tile first)")
    parser.add_argument("--seed", type=arguments.seed, default=1)
    parser.add_argument("--progress", action="store_true", help="print one line per game")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    dominoes_package()
    random.seed(args.seed)  # the package's sampled deals come from the random module
    bot = make_bot(args.samples, args.search_from)
    wins = losses = ties = 0
    clock: dict[str, list[float]] = {"expert": [], "bot": []}
    started = time.perf_counter()
    for index in range(args.deals):
        for side in (0, 1):
            result = play_deal(args.seed * 1000 + index, side, args.expert, bot, clock)
            wins += result > 0
            losses += result < 0
            ties += result == 0
            if args.progress:
                print(f"deal {index} expert seats {side}+{side + 2}: {result:+d}  (so far {wins}-{losses}-{ties})",
                      flush=True)
    decided = wins + losses
    low, high = wilson(wins, decided)
    print(f"{args.expert} (two seats) vs dominoes 6.1.0 probabilistic_alphabeta (samples={args.samples}, from move "
          f"{args.search_from}; heaviest first before), partnership Block, {args.deals} duplicate deals: "
          f"{wins}-{losses}-{ties}, {wins / decided if decided else 0:.1%} of the decided games "
          f"({low:.1%} – {high:.1%}); {time.perf_counter() - started:.0f} s")
    print_clock(clock)


if __name__ == "__main__":
    main()
