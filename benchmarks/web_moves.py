"""The web server's CPU per move, in-process: what a move costs the event loop.

Rooms of two people are driven through :meth:`Room.handle` as the WebSocket clients would drive
them (the first legal move each turn, the next hand when one ends, whole games), every ``state``
message JSON-encoded as the server sends it, games stored in a throwaway SQLite file.  The
figure is the event-loop thread's CPU time (``time.thread_time``) per move: apply, store, both
seats' state messages and their JSON, without the sockets.  On a shared machine it is much
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

from boneyard.web.rooms import Connection, Room, Seat
from boneyard.web.store import Store


class Player(Connection):
    """A seated connection that keeps the last state it was sent (encoded as Starlette does)."""

    def __init__(self, seat: int) -> None:
        self.latest: dict[str, Any] | None = None

        async def send(message: dict[str, Any]) -> None:
            json.dumps(message, separators=(",", ":"), ensure_ascii=False)
            self.latest = message

        super().__init__(send)
        self.seat = seat
        self.held.add(seat)


async def cpu_per_move(variant: str, games: int, folder: Path) -> tuple[int, float]:
    """(moves, event-loop CPU seconds) over ``games`` whole games of two people."""
    store = Store(f"sqlite:///{folder / 'moves.sqlite3'}")
    moves, cpu = 0, 0.0
    try:
        for number in range(games):
            room = Room.create(f"g{number}", variant, [Seat("Ann", "human"), Seat("Bob", "human")], None,
                               100 + number, store, 0)
            players = [Player(0), Player(1)]
            room.connections.extend(players)
            start = time.thread_time()
            while not room.game.finished:
                game = room.game
                if not game.in_hand:
                    await room.handle(players[0], {"type": "next_hand"})
                    continue
                player = players[game.turn]
                legal = player.latest["legal"] if player.latest else [str(m) for m in game.legal_moves()]
                await room.handle(player, {"type": "move", "move": legal[0]})
                moves += 1
            cpu += time.thread_time() - start
    finally:
        store.dispose()
    return moves, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="draw", help="the variant played")
    parser.add_argument("--games", type=int, default=6, help="whole games played")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        moves, cpu = asyncio.run(cpu_per_move(args.variant, args.games, Path(folder)))
    print(f"{args.variant}: {moves} moves in {args.games} games, {1000 * cpu / moves:.2f} ms of event-loop CPU "
          "per move")


if __name__ == "__main__":
    main()
