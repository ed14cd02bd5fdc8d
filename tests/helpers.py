"""Helpers shared by the per-variant rule tests: deals written in notation, moves, scoring items, whole games.

Tiles and moves are written as in RULES.md: ``"6-4"`` is a tile, ``"6-4@1"`` joins it to tile 1, and
several moves may share one string separated by spaces (``"6-6 6-4@1 draw pass"``).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from boneyard import Game, HandSetup, Move, Tile, make_rules, record
from boneyard.moves import Kind
from boneyard.players.base import Player
from boneyard.rules.base import Rules
from boneyard.state import Dice, Event
from boneyard.view import SeatView

T = Tile.parse
"""One tile from its notation: ``T("6-4")``."""


def tiles(text: str) -> list[Tile]:
    """The tiles named in ``text``, separated by spaces, in order (``""`` gives none)."""
    return [T(part) for part in text.split()]


def filled(rules: Rules, hands: list[str], stock: str = "", leader: int | None = None,
           dice: Dice | None = None) -> HandSetup:
    """A deal giving each seat the named tiles, then filled up to the deal size with the spare tiles.

    Seats not named get only spare tiles.  Spare tiles are handed out non-doubles first, then doubles,
    each in canonical order (lowest first, so the heaviest of each kind come last), seat by seat.
    The stock starts with ``stock`` and holds the rest of the spare tiles in that same order.
    """
    wanted = [tiles(hand) for hand in hands + [""] * (rules.players - len(hands))]
    front = tiles(stock)
    used = {tile for hand in wanted for tile in hand} | set(front)
    spare = sorted((t for t in rules.tile_set() if t not in used), key=lambda t: (t.is_double, t.index))
    for hand in wanted:
        while len(hand) < rules.deal_size():
            hand.append(spare.pop(0))
    return HandSetup(wanted, front + spare, leader, dice)


def start_exact(variant: str, players: int, hands: list[str], stock: str = "", leader: int | None = None,
                **options: object) -> Game:
    """A game of ``variant`` whose first hand is dealt exactly as given: these hands, this stock, nothing more."""
    game = Game(make_rules(variant, players, options))
    game.start_hand(HandSetup([tiles(hand) for hand in hands], tiles(stock), leader))
    return game


def start_filled(variant: str, players: int, hands: list[str], stock: str = "", leader: int | None = None,
                 dice: Dice | None = None, **options: object) -> Game:
    """A game of ``variant`` whose first hand gives each seat the named tiles, filled up as :func:`filled` does."""
    rules = make_rules(variant, players, options)
    game = Game(rules)
    game.start_hand(filled(rules, hands, stock, leader, dice))
    return game


def play(game: Game, *moves: str) -> list[Event]:
    """Apply ``moves`` in order (each argument may hold several, separated by spaces); their events."""
    return [game.apply(Move.parse(text)) for group in moves for text in group.split()]


def pips(game: Game) -> list[int]:
    """The points left in each seat's hand."""
    return [game.hand_points_of(seat) for seat in range(game.players)]


def items(event: Event) -> dict[str, int]:
    """The scoring items of one move, by name."""
    return {item.name: item.points for item in event.scoring}


def check_whole_game(game: Game, rng: random.Random, *, target: int | None = None,
                     scores_stay_non_negative: bool = False) -> None:
    """Play ``game`` to its end with random legal moves, checking the invariants of a whole game.

    After every move no tile is lost or duplicated (and, if ``scores_stay_non_negative``, no score is
    below 0); at the end every seat's score is its move points plus its hand points, the game's record
    replays to the same scores and winner, and the winner has reached ``target`` (default: the rules'
    own ``target``).
    """
    full = sorted(game.rules.tile_set())
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
        game.apply(rng.choice(game.legal_moves()))
        assert sorted(game.all_tiles()) == full
        if scores_stay_non_negative:
            assert min(game.scores) >= 0
    for seat in range(game.players):
        events = sum(e.points for hand in game.log for e in hand.events if e.seat == seat)
        hands = sum(hand.result.hand_points[seat] for hand in game.log if hand.result)
        assert game.scores[seat] == events + hands
    replayed = record.replay(record.loads(record.dumps(record.to_record(game))))
    assert (replayed.scores, replayed.winner) == (game.scores, game.winner)
    goal = game.rules.target if target is None else target  # type: ignore[attr-defined]
    assert game.winner is not None and game.scores[game.winner] >= goal


def play_players(game: Game, players: Sequence[Player], *, offered: list[list[list[str]]] | None = None,
                 limit: int | None = None) -> int:
    """Play ``game`` to its end (or ``limit`` moves), each seat's ``players`` entry choosing from its view, every
    move checked legal; the number of moves made.  ``offered`` gets, for each hand played here, the legal moves
    (as text) before each move."""
    moves = 0
    if offered is not None and game.in_hand:
        offered.append([])
    while not game.finished and (limit is None or moves < limit):
        if not game.in_hand:
            game.next_hand()
            if offered is not None:
                offered.append([])
            continue
        view = SeatView(game, game.turn)
        legal = view.legal_moves()
        if offered is not None:
            offered[-1].append([str(move) for move in legal])
        move = players[game.turn].choose(view)
        assert move in legal
        game.apply(move)
        moves += 1
    return moves


def heuristic_turns(rules: Rules, seed: int) -> Iterator[SeatView]:
    """Every turn of one hand of ``rules`` between heuristic players (seeded by ``seed``): the view of the seat on
    turn, yielded before it moves (the game is the view's, so a test may look at it and leave it as it found it)."""
    from boneyard.chance import Chance
    from boneyard.players.base import make_player

    game = Game(rules, chance=Chance(seed))
    game.next_hand()
    players = [make_player("heuristic", seed=seed + seat) for seat in range(game.players)]
    while game.in_hand:
        view = SeatView(game, game.turn)
        yield view
        game.apply(players[game.turn].choose(view))


def replay_refusal(folder: Path, data: Any) -> str:
    """``boneyard replay --json`` of the record ``data``, run as a user runs it: it must exit with status 2,
    print nothing on standard output and one line on standard error, which is returned."""
    path = folder / "refused.boneyard.json"
    path.write_text(json.dumps(data))
    done = subprocess.run([sys.executable, "-m", "boneyard", "replay", str(path), "--json"], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, ""), (done.returncode, done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    return lines[0]


def two_places(game: Game) -> bool:
    """Whether the player on turn holds a tile that fits more than one place."""
    placed = [move.tile for move in game.legal_moves() if move.kind == Kind.PLAY]
    return any(placed.count(tile) > 1 for tile in placed)


def ambiguous_choices(game: Game) -> tuple[Tile, list[Move]]:
    """A tile of the player on turn that fits several places, and its moves (a position :func:`two_places` found)."""
    legal = game.legal_moves()
    placed = [move.tile for move in legal if move.kind == Kind.PLAY]
    tile = next(tile for tile in placed if tile is not None and placed.count(tile) > 1)
    return tile, [move for move in legal if move.tile == tile]
