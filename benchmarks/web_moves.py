"""The web server's CPU per move, in-process: what a move costs the event loop.

Rooms of two people are driven through :meth:`Room.handle` as the WebSocket clients would drive
them (the first legal move each turn, the next hand when one ends, whole games), every ``state``
message built as the JSON text the server sends, games stored in a throwaway SQLite file.  The
figure is the event-loop thread's CPU time (``time.thread_time``) in :meth:`Room.handle` per
move: apply, store, both seats' state messages and their JSON, without the sockets (and without
the clients reading the messages).  On a shared machine it is much
steadier than the moves/s of :mod:`benchmarks.web_load`.

    python -m benchmarks.web_moves                     # Draw, 6 games
    python -m benchmarks.web_moves --variant pip --games 4
    PYTHONPATH=/tmp/web_before/src python -m benchmarks.web_moves   # another checkout's code
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import arguments
from boneyard.state import Game
from boneyard.web.rooms import Connection, Room, Seat
from boneyard.web.store import Store


class Player(Connection):
    """A seated connection that keeps the last state it was sent, as the JSON text the server sends."""

    def __init__(self, seat: int) -> None:
        self.latest: str | None = None

        async def send(message: dict[str, Any]) -> None:  # as Starlette's send_json encodes it
            self.latest = json.dumps(message, separators=(",", ":"), ensure_ascii=False)

        async def send_text(text: str) -> None:
            self.latest = text

        super().__init__(send)
        self.send_text = send_text  # (set apart: older code's connections send objects only)
        self.seat = seat
        self.held.add(seat)

    def first_legal(self, game: Game) -> str:
        """The first legal move of the last state (read outside the measured time, as a client would)."""
        if self.latest is None:
            return str(game.legal_moves()[0])
        return str(json.loads(self.latest)["legal"][0])


async def cpu_per_move(variant: str, games: int, folder: Path) -> tuple[int, float]:
    """(moves, event-loop CPU seconds) over ``games`` whole games of two people: the CPU time of
    :meth:`Room.handle`, the room's whole answer to a message, and nothing of the clients'."""
    store = Store(f"sqlite:///{folder / 'moves.sqlite3'}")
    moves, cpu = 0, 0.0
    try:
        for number in range(games):
            room = Room.create(f"g{number}", variant, [Seat("Ann", "human"), Seat("Bob", "human")], None,
                               100 + number, store, 0)
            players = [Player(0), Player(1)]
            room.connections.extend(players)
            while not room.game.finished:
                game = room.game
                if not game.in_hand:
                    message = {"type": "next_hand"}
                    player = players[0]
                else:
                    player = players[game.turn]
                    message = {"type": "move", "move": player.first_legal(game)}
                    moves += 1
                start = time.thread_time()
                await room.handle(player, message)
                cpu += time.thread_time() - start
    finally:
        store.dispose()
    return moves, cpu


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_moves", description=__doc__.splitlines()[0])
    parser.add_argument("--variant", type=arguments.variant, default="draw", help="the variant played")
    parser.add_argument("--games", type=arguments.positive, default=6, help="whole games played")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        moves, cpu = asyncio.run(cpu_per_move(args.variant, args.games, Path(folder)))
    print(f"{args.variant}: {moves} moves in {args.games} games, {1000 * cpu / moves:.2f} ms of event-loop CPU "
          "per move")


if __name__ == "__main__":
    main()
