"""Load on the web table: issue 13's three targets, measured side by side in one run.

One real server (uvicorn in its own process on 127.0.0.1, with the settings of ``boneyard
serve``, games in a throwaway SQLite file on disk) and scripted WebSocket clients in this process
that claim their seats and play the first legal move whenever it is their turn, dealing the next
hand when one ends.  A move's latency is the time from sending it to receiving the state that
contains it; the server stores every move before it sends that state, so this measures the whole
path.  Every client waits for the state that holds its move before it moves again.

1. **Throughput**: ``--rooms`` rooms (20) × 2 humans for ``--seconds``: moves/s and the p95 of
   move → state (targets ≥ 400 moves/s, p95 ≤ 50 ms), with the CPU time the server process
   and the clients spent per move (they share the machine's cores).
2. **Hint burst**: one seated player asks for ``--hints`` hints (50), each as soon as the last is
   answered (one may be pending per connection), while two people play in another room: that
   room's move → state p95 and ping p95 (target ≤ 50 ms).  Every hint is a search of the
   strongest level in the server's worker processes; the point is that they keep other rooms
   responsive.  The server's per-connection hint limit (3 at once, then one every 5 s) would
   refuse such a burst, so the benchmark's server runs with :data:`LOAD_LIMITS`, which let it
   through (and let one client address open every connection).
3. **Memory**: the load of 1. for ``--duration`` seconds (a finished game is replaced by a new
   one, so rooms come and go); the server's RSS after the first minute (or half the run if
   shorter) against its RSS at the end (target: within 10 %).  Finished rooms leave the server's
   memory after ``--idle`` seconds without connections.

    python -m benchmarks.web_load                            # about 3 minutes
    python -m benchmarks.web_load --seconds 20 --duration 30 # about a minute and a half
    python -m benchmarks.web_load --duration 600 --json out.json   # the issue's 10 minutes
    python -m benchmarks.web_load --src /tmp/web_before/src  # the server from another checkout

The clients are lean, so that they take as little of the shared CPU as they can: one HTTP client
for every new game, uvloop's event loop where it is installed, and a state message is decoded
whole only by the seat on turn (the other reads its version and turn from the text).  Every loop
is bounded by its phase's time.  ``--serve`` is how the benchmark starts the server (in a child
process, with ``--src`` first on its path).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from benchmarks import arguments

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")


# ---------------------------------------------------------------- the server (child process)
def load_limits() -> Any:
    """The server's limits under load: :class:`~boneyard.web.limits.Limits` with room for one
    client address opening every connection and asking for every hint of the burst (the default
    per-connection limits would refuse the burst after 3 hints; docs/web.md)."""
    from boneyard.web.limits import Limits

    return Limits(max_connections_per_client=10_000, max_connections=10_000, messages_per_second=10_000.0,
                  message_burst=10_000, hints_per_second=10_000.0, hint_burst=10_000)


def serve(db_url: str, port: int, idle: float) -> None:
    """Run the web table on 127.0.0.1:``port`` with :func:`load_limits`."""
    import uvicorn

    from boneyard.web.app import create_app

    try:
        limits = load_limits()
    except ImportError:  # older code: no limits to widen
        app = create_app(db_url, ai_delay=0)
    else:
        app = create_app(db_url, ai_delay=0, limits=limits)
    rooms = app.state.rooms
    if hasattr(rooms, "idle_seconds"):
        rooms.idle_seconds = idle
    try:
        from boneyard.web.limits import server_config
    except ImportError:  # older code: uvicorn's defaults
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536)
    else:  # the settings `boneyard serve` uses
        with contextlib.suppress(KeyboardInterrupt):  # the benchmark stops its server with SIGINT
            uvicorn.Server(server_config(app, app.state.limits, host="127.0.0.1", port=port)).run()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(db_url: str, idle: float, src: Path | None) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = dict(os.environ)
    paths = [str(src)] if src is not None else []
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(ROOT), env.get("PYTHONPATH", "")])
    server = subprocess.Popen([sys.executable, "-m", "benchmarks.web_load", "--serve", db_url, str(port), str(idle)],
                              cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=2):
                return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start in 60 s")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` and its threads, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu_seconds(pid: int) -> float:
    """:func:`cpu_seconds` of the main thread of process ``pid`` alone (the server's event loop)."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# ---------------------------------------------------------------- the clients
@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    games: int = 0

    def p(self, fraction: float) -> float | None:
        if not self.latencies:
            return None
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


HUMANS = [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]
#: The fields a seat not on turn reads from a state's text (the server's ``state`` messages have
#: them at the top level only, and a string cannot hold them unescaped).
VERSION = re.compile(r'"version":(\d+)')
TURN = re.compile(r'"turn":(\d+|null)')


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on uvloop's event loop where it is installed (cheaper for the clients)."""
    try:
        import uvloop
    except ImportError:
        factory = None
    else:
        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(coroutine)


@contextlib.asynccontextmanager
async def until(stop_at: float) -> AsyncIterator[None]:
    """Run the block until ``stop_at`` (``time.monotonic``), then stop it quietly."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout_at(loop.time() + max(0.0, stop_at - time.monotonic())):
            yield


class Lobby:
    """Creates games over one HTTP connection pool (a client per game costs a TLS context each)."""

    def __init__(self, port: int) -> None:
        import httpx2 as httpx

        self.port = port
        self.http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30)

    async def new_game(self, seed: int, seats: list[dict[str, str]] = HUMANS) -> str:
        response = await self.http.post("/api/games", json={"variant": "draw", "seed": seed, "seats": seats})
        response.raise_for_status()
        return str(response.json()["id"])

    def connect(self, game_id: str) -> Any:
        import websockets

        return websockets.connect(f"ws://127.0.0.1:{self.port}/ws/{game_id}", max_size=2**22, compression=None)

    async def close(self) -> None:
        await self.http.aclose()


async def seat_client(lobby: Lobby, game_id: str, seat: int, tally: Tally, stop_at: float) -> None:
    """Claim ``seat`` and play until the game is over or time is up."""
    async with lobby.connect(game_id) as ws, until(stop_at):
        await ws.send(json.dumps({"type": "claim", "seat": seat}))
        sent_at: float | None = None
        waiting_for = -1
        you = f'"you":{seat},'
        while True:
            text = await ws.recv()
            if not text.startswith('{"type":"state"') or you not in text:
                continue
            version = VERSION.search(text)
            turn = TURN.search(text)
            if version is None or turn is None:
                raise RuntimeError(f"a state message without version or turn: {text[:200]}")
            if sent_at is not None and int(version[1]) >= waiting_for:
                tally.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if turn[1] != str(seat) and turn[1] != "null":  # another seat moves next
                continue
            message = json.loads(text)
            if message["finished"]:
                break
            if not message["in_hand"]:
                if seat == 0:
                    await ws.send(json.dumps({"type": "next_hand"}))
                continue
            if message["legal"] and sent_at is None:
                sent_at = time.perf_counter()
                waiting_for = message["version"] + 1
                await ws.send(json.dumps({"type": "move", "move": message["legal"][0]}))
                tally.moves += 1


async def table(lobby: Lobby, seed: int, tally: Tally, stop_at: float) -> None:
    """One table, kept busy: when its game ends a new one starts, until time is up."""
    while time.monotonic() < stop_at:
        game_id = await lobby.new_game(seed)
        await asyncio.gather(*(seat_client(lobby, game_id, seat, tally, stop_at) for seat in (0, 1)))
        tally.games += 1
        seed += 100_000


async def load(port: int, rooms: int, seconds: float, first_seed: int) -> tuple[Tally, float]:
    tally = Tally()
    lobby = Lobby(port)
    started = time.perf_counter()
    try:
        await asyncio.gather(*(table(lobby, first_seed + index, tally, time.monotonic() + seconds)
                               for index in range(rooms)))
    finally:
        await lobby.close()
    return tally, time.perf_counter() - started


async def hinter(lobby: Lobby, hints: int, stop_at: float) -> tuple[int, float]:
    """Against a computer, play on until there is a choice to make, then ask for ``hints`` hints
    about it, each as soon as the last is answered (the expert searches every one)."""
    game_id = await lobby.new_game(7, [HUMANS[0], {"kind": "computer", "level": "random"}])
    answered = 0
    started = time.perf_counter()
    async with lobby.connect(game_id) as ws, until(stop_at):
        await ws.send(json.dumps({"type": "claim", "seat": 0}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] != "state" or message["you"] != 0:
                continue
            if not message["in_hand"]:
                await ws.send(json.dumps({"type": "next_hand"}))
            elif message["turn"] == 0 and len(message["legal"]) >= 2:
                break
            elif message["turn"] == 0:
                await ws.send(json.dumps({"type": "move", "move": message["legal"][0]}))
        started = time.perf_counter()
        await ws.send(json.dumps({"type": "hint"}))
        while answered < hints:
            message = json.loads(await ws.recv())
            if message["type"] == "error" and message.get("code") == "rate_limited":
                raise RuntimeError(f"the server refused the burst: {message['message']}")
            if message["type"] in ("hint", "error"):
                answered += message["type"] == "hint"
                if answered < hints:
                    await ws.send(json.dumps({"type": "hint"}))
    return answered, time.perf_counter() - started


async def pinger(lobby: Lobby, stop_at: float, latencies: list[float]) -> None:
    game_id = await lobby.new_game(11)
    async with lobby.connect(game_id) as ws:
        while time.monotonic() < stop_at:
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping"}))
            while '"type":"pong"' not in await ws.recv():
                pass
            latencies.append(time.perf_counter() - sent)
            await asyncio.sleep(0.1)


async def hint_burst(port: int, hints: int, limit: float) -> dict[str, Any]:
    stop_at = time.monotonic() + limit
    lobby = Lobby(port)
    try:
        hinting = asyncio.create_task(hinter(lobby, hints, stop_at))
        await asyncio.sleep(0.2)
        other = Tally()
        pings: list[float] = []
        playing = asyncio.create_task(table(lobby, 3, other, stop_at))
        pinging = asyncio.create_task(pinger(lobby, stop_at, pings))
        answered, took = await hinting
        for task in (playing, pinging):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    finally:
        await lobby.close()
    ordered = sorted(pings)
    return {"hints": answered, "hint_seconds": round(took, 1), "other_moves": other.moves,
            "other_p95_ms": other.p(0.95), "ping_p95_ms": 1000 * ordered[int(0.95 * (len(ordered) - 1))]
            if ordered else None}


async def memory(port: int, pid: int, rooms: int, duration: float, idle: float) -> dict[str, Any]:
    mark = min(60.0, duration / 2)
    samples: list[tuple[float, float]] = []

    async def sample() -> None:
        started = time.monotonic()
        while True:
            samples.append((time.monotonic() - started, rss_mb(pid)))
            await asyncio.sleep(1.0)

    sampler = asyncio.create_task(sample())
    tally, elapsed = await load(port, rooms, duration, 1000)
    end = rss_mb(pid)
    await asyncio.sleep(idle * 2 + 1)  # finished rooms leave memory
    settled = rss_mb(pid)
    sampler.cancel()
    at_mark = next((mb for at, mb in samples if at >= mark), samples[-1][1])
    return {"seconds": round(elapsed), "games": tally.games, "moves": tally.moves, "mark_s": round(mark),
            "rss_mark_mb": round(at_mark, 1), "rss_end_mb": round(end, 1), "rss_settled_mb": round(settled, 1),
            "rss_peak_mb": round(max(mb for _, mb in samples), 1), "growth": round(end / at_mark - 1, 3)}


def verdict(value: float | None, target: float, higher: bool) -> str:
    if value is None:
        return "no data"
    return "met" if (value >= target if higher else value <= target) else "missed"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_load", description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=arguments.positive, default=20, help="rooms of two scripted humans")
    parser.add_argument("--seconds", type=arguments.seconds, default=30.0, help="length of the throughput phase")
    parser.add_argument("--hints", type=arguments.positive, default=50, help="hints asked for in the burst")
    parser.add_argument("--duration", type=arguments.seconds, default=120.0, help="length of the memory phase")
    parser.add_argument("--idle", type=arguments.seconds, default=5.0,
                        help="the server's idle time before a room leaves memory")
    parser.add_argument("--src", type=source_folder,
                        help="run the server from this source folder (another checkout's src)")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument("--serve", nargs=3, metavar=("DB_URL", "PORT", "IDLE"), help=argparse.SUPPRESS)
    return parser


def source_folder(text: str) -> Path:
    """A folder holding a ``boneyard`` package (another checkout's ``src``)."""
    path = Path(text)
    if not (path / "boneyard" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"{text}: no boneyard package in it (give another checkout's src folder)")
    return path


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), float(args.serve[2]))
        return
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(f"sqlite:///{Path(folder) / 'load.sqlite3'}", args.idle, args.src)
        try:
            cpu, loop_cpu, client_cpu = cpu_seconds(server.pid), thread_cpu_seconds(server.pid), time.process_time()
            tally, elapsed = run(load(port, args.rooms, args.seconds, 0))
            cpu, loop_cpu = cpu_seconds(server.pid) - cpu, thread_cpu_seconds(server.pid) - loop_cpu
            client_cpu = time.process_time() - client_cpu
            moves = max(1, tally.moves)
            throughput = {"moves": tally.moves, "seconds": round(elapsed, 1),
                          "server_cpu": round(cpu / elapsed, 2), "client_cpu": round(client_cpu / elapsed, 2),
                          "server_ms_per_move": round(1000 * cpu / moves, 2),
                          "server_loop_ms_per_move": round(1000 * loop_cpu / moves, 2),
                          "client_ms_per_move": round(1000 * client_cpu / moves, 2),
                          "moves_per_second": round(tally.moves / elapsed, 1), "p50_ms": tally.p(0.5),
                          "p95_ms": tally.p(0.95)}
            burst = run(hint_burst(port, args.hints, max(60.0, args.hints * 2.0)))
            mem = run(memory(port, server.pid, args.rooms, args.duration, args.idle))
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
    results = {"server_src": str(args.src or ROOT / "src"), "rooms": args.rooms, "throughput": throughput,
               "hint_burst": burst, "memory": mem}
    rows = [
        (f"{args.rooms} rooms x 2 humans: moves/s", throughput["moves_per_second"], ">= 400",
         verdict(throughput["moves_per_second"], 400, True)),
        ("  move -> state p95 (ms)", throughput["p95_ms"], "<= 50", verdict(throughput["p95_ms"], 50, False)),
        ("  server CPU per move (ms; its event loop)",
         f"{throughput['server_ms_per_move']:.2f} ({throughput['server_loop_ms_per_move']:.2f})", "", ""),
        ("  clients' CPU per move (ms)", f"{throughput['client_ms_per_move']:.2f}", "", ""),
        (f"{burst['hints']} hints in one room: other room's p95 (ms)", burst["other_p95_ms"], "<= 50",
         verdict(burst["other_p95_ms"], 50, False)),
        ("  other room's ping p95 (ms)", burst["ping_p95_ms"], "", ""),
        (f"RSS after {mem['mark_s']} s -> end of {mem['seconds']} s (MB)",
         f"{mem['rss_mark_mb']} -> {mem['rss_end_mb']} ({100 * mem['growth']:+.1f}%)", "within 10%",
         verdict(abs(mem["growth"]), 0.10, False)),
        (f"  RSS {2 * args.idle + 1:.0f} s after the load; peak (MB)",
         f"{mem['rss_settled_mb']}; {mem['rss_peak_mb']}", "", ""),
    ]
    print(f"server code: {results['server_src']}; SQLite on disk; {os.cpu_count()} CPUs (shared: figures are noisy)")
    width = max(len(row[0]) for row in rows)
    for name, value, target, met in rows:
        shown = f"{value:.1f}" if isinstance(value, float) else str(value)
        print(f"{name:<{width}}  {shown:>22}  {target:>10}  {met}")
    print(f"(throughput: {throughput['moves']} moves in {throughput['seconds']} s, p50 {throughput['p50_ms']:.1f} ms, "
          f"server {throughput['server_cpu']} CPU-s/s, clients {throughput['client_cpu']} CPU-s/s; "
          f"burst: {burst['hints']} hints in {burst['hint_seconds']} s, {burst['other_moves']} moves in the other "
          f"room; memory phase: {mem['games']} games, {mem['moves']} moves)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
