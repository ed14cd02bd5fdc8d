"""Load on the web table: N games at once, each between two scripted WebSocket clients.

One server (uvicorn, in a thread, 127.0.0.1, an ephemeral port, a throwaway SQLite file) and
two clients per game that claim their seats and play the first legal move whenever it is their
turn, dealing the next hand when one ends.  A move's latency is the time from sending it to
receiving the state that contains it; every move is committed to the database before that state
is sent, so this measures the whole path.  Loops are bounded: each game stops after ``--moves``
moves or when it is over, and the run stops after ``--seconds`` whatever happens.

    python -m benchmarks.web_load                      # 8 games of Draw, up to 150 moves each
    python -m benchmarks.web_load --games 32 --variant all-fives --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


def start_server(db_url: str) -> tuple[Any, threading.Thread, int]:
    import uvicorn

    from boneyard.web.app import create_app

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(db_url, ai_delay=0), log_level="warning", ws_max_size=65536))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    return server, thread, port


async def seat_client(url: str, seat: int, max_moves: int, latencies: list[float], stop_at: float) -> int:
    """Claim ``seat`` and play until the game is over, ``max_moves`` are made or time is up."""
    import websockets

    moves = 0
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "claim", "seat": seat}))
        sent_at: float | None = None
        waiting_for = -1
        while time.monotonic() < stop_at:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at - time.monotonic())))
            except TimeoutError:
                break
            if message["type"] != "state" or message["you"] != seat:
                continue
            if sent_at is not None and message["version"] >= waiting_for:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["finished"] or message["version"] >= max_moves:
                break
            if not message["in_hand"]:
                if seat == 0:
                    await ws.send(json.dumps({"type": "next_hand"}))
                continue
            if message["turn"] == seat and message["legal"] and sent_at is None:
                sent_at = time.perf_counter()
                waiting_for = message["version"] + 1
                await ws.send(json.dumps({"type": "move", "move": message["legal"][0]}))
                moves += 1
    return moves


async def run(games: int, variant: str, max_moves: int, seconds: float, port: int) -> dict[str, Any]:
    import httpx

    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        ids = []
        for index in range(games):
            response = await http.post("/api/games", json={
                "variant": variant, "seed": index,
                "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
            response.raise_for_status()
            ids.append(response.json()["id"])
    latencies: list[float] = []
    stop_at = time.monotonic() + seconds
    started = time.perf_counter()
    counts = await asyncio.gather(*(seat_client(f"ws://127.0.0.1:{port}/ws/{game_id}", seat, max_moves, latencies,
                                                stop_at)
                                    for game_id in ids for seat in (0, 1)))
    elapsed = time.perf_counter() - started
    total = sum(counts)
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else float("nan")
    return {"variant": variant, "games": games, "moves": total, "seconds": round(elapsed, 3),
            "moves_per_second": round(total / elapsed, 1) if elapsed else 0.0,
            "latency_ms_mean": round(1000 * statistics.fmean(ordered), 2) if ordered else None,
            "latency_ms_p95": round(1000 * p95, 2) if ordered else None}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games played at once")
    parser.add_argument("--variant", default="draw")
    parser.add_argument("--moves", type=int, default=150, help="stop each game after this many moves")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop the whole run after this long")
    parser.add_argument("--json", type=Path, help="also write the result to this file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        server, thread, port = start_server(f"sqlite:///{Path(folder) / 'load.sqlite3'}")
        try:
            result = asyncio.run(run(args.games, args.variant, args.moves, args.seconds, port))
        finally:
            server.should_exit = True
            thread.join(timeout=20)
    print(f"{result['games']} games of {result['variant']}: {result['moves']} moves in {result['seconds']} s "
          f"= {result['moves_per_second']} moves/s; latency mean {result['latency_ms_mean']} ms, "
          f"p95 {result['latency_ms_p95']} ms")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
