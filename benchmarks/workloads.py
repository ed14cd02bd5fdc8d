"""The measured workloads: each runs for a time budget and reports games, moves and placements.

A *game* of an anchor comparison is one deal played to its end (that is all a game is in the
``dominoes`` package and in OpenSpiel's ``python_block_dominoes``); Boneyard plays the same deal
rules through its public API (``boneyard.fast.FastGame``, hand 1 each time, so the lead is called
as in the anchors).  A *game* of the throughput rows is a whole Boneyard game to its target.
Moves are the decisions the players make (Boneyard counts passes and draws, the anchors have
none); placements are tiles put on the table, the unit every engine shares.
"""

from __future__ import annotations

import contextlib
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import boneyard
from boneyard.fast import FastGame
from boneyard.moves import Kind


@dataclass(slots=True)
class Count:
    """What one timed run did."""

    games: int = 0
    moves: int = 0
    placements: int = 0
    seconds: float = 0.0

    def rate(self, what: str) -> float:
        value: int = getattr(self, what)
        return value / self.seconds if self.seconds else 0.0


Workload = Callable[[float, int], Count]


def timed(step: Callable[[Count], None], budget: float) -> Count:
    """Call ``step`` (one game) until ``budget`` seconds have passed."""
    count = Count()
    clock = time.perf_counter
    start = clock()
    while True:
        step(count)
        elapsed = clock() - start
        if elapsed >= budget:
            count.seconds = elapsed
            return count


# ---------------------------------------------------------------- anchors
def dominoes_partnership(budget: float, seed: int) -> Count:
    """``dominoes`` 6.1.0: one 4-player partnership game, 6-6 leads, random valid moves."""
    import dominoes

    random.seed(seed)
    choice = random.choice
    start = dominoes.Domino(6, 6)

    def step(count: Count) -> None:
        game = dominoes.Game.new(starting_domino=start)
        placed = 1  # Game.new plays the 6-6
        while game.result is None:
            game.make_move(*choice(game.valid_moves))
            placed += 1
        count.games += 1
        count.moves += placed
        count.placements += placed

    return timed(step, budget)


def openspiel_block(budget: float, seed: int) -> Count:
    """OpenSpiel 2.0.2 ``python_block_dominoes``: deal by chance outcomes, random legal actions.
    A few games are played before the clock starts, so first-call costs (imports, caches inside
    pyspiel) are not charged to it (measured: a 0.25 s budget gives the same rate as 3 s)."""
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(seed)
    choice = rng.choice

    def step(count: Count) -> None:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                moves += 1
        count.games += 1
        count.moves += moves
        count.placements += moves

    warm = Count()
    for _ in range(20):
        step(warm)
    return timed(step, budget)


# ---------------------------------------------------------------- Boneyard, one deal per game
def fast_deals(variant: str, players: int, options: dict[str, Any], kernel: bool) -> Workload:
    """Boneyard's fast engine: deal hand 1 and play it out with random moves, again and again.
    ``kernel``: the compiled playout (``finish_randomly``); otherwise a Python loop of
    ``legal_actions()`` / ``apply()``."""

    def run(budget: float, seed: int) -> Count:
        fast = FastGame(variant, players, options=options, seed=seed, deal=False)
        rng = random.Random(seed)
        choice = rng.choice

        def step(count: Count) -> None:
            fast.reset()
            fast.next_hand()
            if kernel:
                count.moves += fast.finish_randomly(rng)
            else:
                while fast.in_hand:
                    action = choice(fast.legal_actions())
                    fast.apply(action)
                    count.moves += 1
            count.games += 1
            count.placements += fast.placed

        return timed(step, budget)

    return run


# ---------------------------------------------------------------- Boneyard, whole games
def reference_games(variant: str, players: int, options: dict[str, Any]) -> Workload:
    """The reference engine (``boneyard.Game``): whole games, random legal moves."""

    def run(budget: float, seed: int) -> Count:
        rng = random.Random(seed)
        number = [seed * 100_000]

        def step(count: Count) -> None:
            number[0] += 1
            game = boneyard.new_game(variant, players, seed=number[0], options=options)
            while not game.finished:
                if not game.in_hand:
                    game.next_hand()
                    continue
                move = rng.choice(game.legal_moves())
                game.apply(move)
                count.moves += 1
                count.placements += move.kind <= Kind.PLAY
            count.games += 1

        return timed(step, budget)

    return run


def fast_games(variant: str, players: int, options: dict[str, Any], kernel: bool) -> Workload:
    """The fast engine: whole games to the target, random moves (compiled playouts or Python loop)."""

    def run(budget: float, seed: int) -> Count:
        fast = FastGame(variant, players, options=options, seed=seed, deal=False)
        rng = random.Random(seed)
        choice = rng.choice

        def step(count: Count) -> None:
            fast.reset()
            while not fast.finished:
                fast.next_hand()
                if kernel:
                    count.moves += fast.finish_randomly(rng)
                else:
                    while fast.in_hand:
                        fast.apply(choice(fast.legal_actions()))
                        count.moves += 1
                count.placements += fast.placed
            count.games += 1

        return timed(step, budget)

    return run


# ---------------------------------------------------------------- simulate scaling
def simulate_rate(workers: int, games: int) -> float:
    """``boneyard simulate``'s games/s for 2-player Block with random players."""
    from boneyard.sim.simulate import simulate

    summary = simulate("block", 2, games, seed=7, ai="random", workers=workers)
    rate = summary["games_per_second"]
    assert isinstance(rate, float)
    return rate


# ---------------------------------------------------------------- search primitives
def primitives(budget: float, seed: int) -> dict[str, float]:
    """Microseconds per call on mid-hand positions of 4-player partnership Block (fast engine)
    and, for contrast, of the reference engine."""
    rng = random.Random(seed)
    positions: list[FastGame] = []
    references = []
    while len(positions) < 50:
        game = boneyard.new_game("block", 4, seed=rng.randrange(10**9), options={"partnerships": True})
        for _ in range(rng.randrange(3, 12)):
            if not game.in_hand:
                break
            game.apply(rng.choice(game.legal_moves()))
        if game.in_hand and game.legal_moves():
            positions.append(FastGame.from_game(game))
            references.append(game)
    out: dict[str, float] = {}

    def per_call(label: str, body: Callable[[], int]) -> None:
        calls = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            calls += body()
        out[label] = (time.perf_counter() - start) / calls * 1e6

    def apply_undo() -> int:
        calls = 0
        for fast in positions:
            for action in fast.legal_actions():
                fast.apply(action)
                fast.undo()
                calls += 1
        return calls

    def legal() -> int:
        for fast in positions:
            fast.legal_actions()
        return len(positions)

    def determinize() -> int:
        for fast in positions:
            fast.determinize(fast.turn, rng)
        return len(positions)

    def reference_apply_undo() -> int:
        calls = 0
        for game in references:
            for move in game.legal_moves():
                game.apply(move)
                game.undo()
                calls += 1
        return calls

    def reference_legal() -> int:
        for game in references:
            game.legal_moves()
        return len(references)

    per_call("fast apply+undo", apply_undo)
    per_call("fast legal_actions", legal)
    per_call("fast determinize", determinize)
    per_call("reference apply+undo", reference_apply_undo)
    per_call("reference legal_moves", reference_legal)
    return out


def summary(values: list[float]) -> tuple[float, float, float]:
    """Median, min and max."""
    return statistics.median(values), min(values), max(values)


# ---------------------------------------------------------------- the commands (issue 12's targets)
def command_simulate(args: list[str]) -> Count:
    """``boneyard simulate ARGS --json`` run as a user runs it (a fresh process); the count is
    from its JSON summary and the time is the whole command's wall clock, start-up included."""
    import json
    import subprocess
    import sys

    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "boneyard", "simulate", *args, "--json"], capture_output=True,
                         text=True, check=True)
    seconds = time.perf_counter() - start
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return Count(games=data["games"], moves=data["moves"], placements=data["placements"], seconds=seconds)


def simulate_games(variant: str, players: int, games: int, ai: str, engine: str,
                   seed: int) -> tuple[Count, dict[str, Any]]:
    """``simulate(...)`` in this process with one worker; the count and the summary without its timing,
    so two engines' summaries can be compared.  The time is the process's CPU time for the call: a run
    lasts tens of milliseconds, where time lost to other jobs on a loaded machine would decide the ratio
    (on an idle machine CPU time and wall-clock time agree)."""
    from boneyard.sim.simulate import simulate

    started = time.process_time()
    result = simulate(variant, players, games, seed=seed, ai=ai, workers=1, engine=engine)
    seconds = time.process_time() - started
    count = Count(games=games, moves=int(str(result["moves"])), placements=int(str(result["placements"])),
                  seconds=seconds)
    same = {key: value for key, value in result.items() if key not in ("seconds", "games_per_second", "engine")}
    return count, same


@contextlib.contextmanager
def kernel_off() -> Iterator[None]:
    """The fast engine without its compiled kernel (its pure-Python loop, the fallback) while inside."""
    from boneyard.fast import engine

    names = vars(engine)  # (the module's own names: what the tests monkeypatch)
    saved = names["_kernel"]
    names["_kernel"] = None
    try:
        yield
    finally:
        names["_kernel"] = saved


def kernel_tables_emptied() -> None:
    """Forget the points the compiled kernel has looked up (the Bergen family's tables) and PIP's rule tables,
    as in a new process: the tables kept by rules, and the idle games of ``simulate`` that hold theirs."""
    from boneyard.fast import engine, pip
    from boneyard.sim import engines

    engine._KERNEL_TABLES.clear()
    pip._KERNEL_CONFIGS.clear()
    engines._IDLE.clear()


def env_steps(variant: str, players: int, engine: str | None,
              options: dict[str, object] | None = None) -> Workload:
    """The PettingZoo environment: ``observe`` (what ``last()`` returns) and ``step`` with a uniformly
    random legal action from the mask, whole games one after another.  ``engine=None`` leaves the
    environment's engine argument out (the code of commit 0ddea28 had none: ``benchmarks.env_anchor``).
    The legal actions are the nonzero places of the 0/1 ``int8`` mask read as booleans, as a list, in
    increasing order, and ``rng.choice`` picks one: the same pick as ``rng.choice(np.flatnonzero(mask))``
    for 40% of its instructions (about 12,900 against 31,000 on a thousand actions with a few legal)."""

    def run(budget: float, seed: int) -> Count:
        from boneyard.env import raw_env

        game = (raw_env(variant, players, options=options, seed=seed) if engine is None
                else raw_env(variant, players, options=options, seed=seed, engine=engine))
        game.reset(seed=seed)
        rng = random.Random(seed)

        def step(count: Count) -> None:  # 100 steps, so the budget is kept
            for _ in range(100):
                agent = game.agent_selection
                if game.terminations[agent] or game.truncations[agent]:
                    game.reset()
                    count.games += 1
                    continue
                legal: list[int] = game.observe(agent)["action_mask"].view(bool).nonzero()[0].tolist()
                game.step(rng.choice(legal))
                count.moves += 1

        return timed(step, budget)

    return run
