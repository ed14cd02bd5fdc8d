"""``boneyard simulate``: many computer-only games, spread over processes, reproducible.

Game ``i`` of a run is dealt from ``game_seed(seed, i)`` and its players are seeded from the
same number, so the results are the same whatever the number of workers.

With ``duplicate=True`` every deal is played once per distinct rotation of the seats (deal ``i``, the
levels shifted by 0, 1, … until the line-up repeats: ``greedy,random,greedy,random`` has two), so each
level plays every hand from every seat and the luck of the deal cancels out.  The summary then gives,
per level, the games it played, its wins and the win rate with a 95% Wilson interval (``ai_stats``).

Games run on the fast engine wherever it plays the rules (``engine="auto"``, see
:mod:`boneyard.sim.engines`), with the same results as on the reference engine
(``engine="reference"``).  ``backend="ray"`` plays the chunks of games as Ray tasks instead of on a
local process pool; the summary is the same.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from boneyard.chance import as_whole, game_seed, seed_error
from boneyard.errors import BoneyardError, OptionError
from boneyard.players.base import make_player, split_specs
from boneyard.rules.base import Rules, make_rules
from boneyard.sim.engines import engine_for, play_game, played_of, reference_game, rules_for
from boneyard.sim.pool import finished, stop, worker_pool
from boneyard.sim.stats import wilson


@dataclass(slots=True)
class GameSummary:
    index: int
    winner: int | None
    scores: list[int]
    hands: int
    blocked_hands: int
    placements: int
    moves: int
    rotate: int = 0
    winners: tuple[int, ...] = ()  #: the winning side (both partners in a partnership), empty when nobody won


def seat_specs(ai: str | Sequence[str] | None, players: int) -> list[str]:
    """One player spec per seat; a shorter list repeats its last entry, a longer one is refused (a level
    that would never play)."""
    specs = split_specs(ai) if isinstance(ai, str) else list(ai or ["random"])
    if not specs:
        specs = ["random"]
    if len(specs) > players:
        raise OptionError(f"ai names {len(specs)} levels ({', '.join(specs)}) but a {players}-player game has "
                          f"{players} seats to fill")
    return [specs[min(seat, len(specs) - 1)] for seat in range(players)]


def player_names(specs: Sequence[str]) -> list[str]:
    """Unique display names: the spec, with ``#2``, ``#3`` … for repeats."""
    names: list[str] = []
    for spec in specs:
        name, copy = spec, 2
        while name in names:
            name, copy = f"{spec}#{copy}", copy + 1
        names.append(name)
    return names


def record_path(records: str, index: int, rotate: int, rotated: bool) -> Path:
    """Where game ``index`` (its rotation ``rotate`` of a duplicate deal) is written: ``game-000001.boneyard.json``,
    ``game-000001-r2.boneyard.json``."""
    return Path(records) / (f"game-{index + 1:06d}" + (f"-r{rotate + 1}" if rotated else "") + ".boneyard.json")


def play_one(variant: str, players: int, options: Mapping[str, object] | None, specs: Sequence[str],
             seed: int, index: int, rotate: int = 0, engine: str = "auto", records: str | None = None,
             rotated: bool = False) -> GameSummary:
    """Play game ``index`` to the end; seat ``s`` is played by ``specs[(s + rotate) % n]``.  With ``records`` (a
    folder) the game is played on the reference engine, the same game, and its record written there."""
    number = game_seed(seed, index)
    levels = [specs[(s + rotate) % players] for s in range(players)]
    seats = [make_player(level, seed=number + 101 * s) for s, level in enumerate(levels)]
    rules = rules_for(variant, players, options)
    if records is None:
        played = play_game(rules, number, seats, engine)
    else:
        from boneyard import record  # (only here: a simulation without records starts without it)

        game = reference_game(rules, number, seats, player_names(levels))
        # ``ai``: every seat's level, by seat, as the terminal writes it (``boneyard stats`` names opponents by it)
        meta = {"simulate": {"seed": seed, "game": index, "rotation": rotate, "levels": levels},
                "ai": {str(s): level for s, level in enumerate(levels)}}
        record.save(game, record_path(records, index, rotate, rotated), seed=number, meta=meta)
        played = played_of(game)
    return GameSummary(index, played.winner, played.scores, played.hands, played.blocked_hands, played.placements,
                       played.moves, rotate, played.winners)


_R = TypeVar("_R")
Job = tuple[int, int]  #: (deal index, rotation)
#: (variant, players, options, levels, seed, jobs, engine, records folder, whether seats rotate)
Chunk = tuple[str, int, Mapping[str, object] | None, list[str], int, list[Job], str, str | None, bool]
Progress = Callable[[int, int], None]  #: called with (games done, games in all) as games finish


def _chunk(args: Chunk) -> list[GameSummary]:
    variant, players, options, specs, seed, jobs, engine, records, rotated = args
    return [play_one(variant, players, options, specs, seed, index, rotate, engine, records, rotated)
            for index, rotate in jobs]


def rotation_period(lineup: Sequence[object]) -> int:
    """How many distinct seatings the rotations of ``lineup`` give: the fewest steps that bring it back to itself
    (the number of seats, 2 for ``A, B, A, B``, 1 when one player holds every seat)."""
    count = len(lineup)
    return next(step for step in range(1, count + 1)
                if count % step == 0 and all(lineup[seat] == lineup[(seat + step) % count] for seat in range(count)))


def rotations(specs: Sequence[str], players: int) -> list[int]:
    """The seat rotations of a duplicate deal: enough for every level to sit in every seat once, and no more (a
    line-up such as ``greedy, random, greedy, random`` seats everyone the same way again after two rotations:
    a third would replay the first game, seeds and all, and count it twice)."""
    return list(range(rotation_period(specs[:players])))


BACKENDS = ("local", "ray")
#: the most games one run plays in all (a duplicate deal counts once per rotation, a tournament every game of every
#: match): days of play, and the list of jobs still fits in memory
MAX_GAMES = 10_000_000


def workers_error(workers: int | None) -> str | None:
    """Why ``workers`` is no number of worker processes (``None``: one per core), or ``None``."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        return f"--workers: the number of worker processes must be at least 1, not {workers!r}"
    return None


def backend_error(backend: str, address: str | None) -> str | None:
    """Why ``backend`` (with the Ray cluster ``address``) cannot run the games, or ``None``."""
    if backend not in BACKENDS:
        return f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})"
    if address is not None and backend != "ray":
        return f"a cluster address ({address}) is for the ray backend: add --backend ray"
    return None


def games_error(total: int, how: str) -> str | None:
    """Why ``total`` games (``how``: how they add up, for the message) are too many for one run, or ``None``."""
    if total > MAX_GAMES:
        return f"{how} make {total:,} games in all, more than the {MAX_GAMES:,} one run may play"
    return None


def simulate(variant: str, players: int, games: int, *, seed: int = 0, ai: str | Sequence[str] | None = None,
             options: Mapping[str, object] | None = None, workers: int | None = None,
             duplicate: bool = False, engine: str = "auto", backend: str = "local", address: str | None = None,
             progress: Progress | None = None, records: str | os.PathLike[str] | None = None,
             resume: bool = False) -> dict[str, object]:
    """Play ``games`` computer-only games and summarise them (the ``--json`` object).

    With ``duplicate`` each of the ``games`` deals is played once per seat rotation.  ``engine``
    is ``auto`` (the fast engine wherever it plays the rules), ``fast`` or ``reference``;
    ``backend`` is ``local`` (a process pool of ``workers``) or ``ray`` (Ray tasks, joining the
    cluster at ``address`` or starting a local Ray).  ``progress(done, total)`` is called as games
    finish; the results never depend on the backend, the workers or the order games finish in.  ``records``: a
    folder (new, or empty of records) to write every game's record into, ``game-000001.boneyard.json`` … (with
    ``-r1``, ``-r2`` … for the rotations of a duplicate deal); those games are played on the reference engine.
    ``resume``: the folder may already hold records of this same run (a run cut short, or one of fewer games):
    each is checked to be this run's game and counted from its record, and only the games without one are played
    (``resumed`` in the result counts them; the speed is that of the games played now).
    Everything is checked before any game is played: among others, ``ai`` names no more levels than there are
    seats, and the games in all (deals times rotations) are at most :data:`MAX_GAMES`."""
    rules = make_rules(variant, players, options)  # validate before forking
    used = engine_for(rules, engine)
    games, seed = as_whole(games), as_whole(seed)  # (a NumPy integer is a number of games and a seed too)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        shown = f"{games:,}" if isinstance(games, int) else repr(games)
        raise OptionError(f"--games: the number of games must be from 1 to {MAX_GAMES:,}, not {shown}")
    if (wrong := seed_error(seed)) is not None:
        raise OptionError(wrong)
    for wrong in (backend_error(backend, address), workers_error(workers)):
        if wrong is not None:
            raise OptionError(wrong)
    specs = seat_specs(ai, players)
    for spec in set(specs):
        make_player(spec)
    turns = rotations(specs, players) if duplicate else [0]
    if (wrong := games_error(games * len(turns), f"{games:,} deals, each played from {len(turns)} seat "
                                                 "rotations,")) is not None:
        raise OptionError(wrong)
    jobs = [(index, rotate) for index in range(games) for rotate in turns]
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    if resume and records is None:
        raise OptionError("--resume plays on the run whose records a folder holds: name it with --records")
    folder = None if records is None else records_folder(Path(records), backend, resume)
    recorded: dict[Job, GameSummary] = {}
    if folder is not None:
        used = "reference"  # (the same games: a record is written from the reference game)
        if resume:
            recorded = recorded_games(Path(folder), rules, specs, seed, jobs, len(turns) > 1)
            remove_partial_records(Path(folder))  # (a record half-written when the run was killed outright)
    playing = [job for job in jobs if job not in recorded]
    workers = min(workers, max(1, len(playing)))

    def tasks(chunks: list[list[Job]]) -> list[Chunk]:
        return [(variant, players, dict(options or {}), specs, seed, chunk, used, folder, len(turns) > 1)
                for chunk in chunks]

    started = time.perf_counter()
    try:
        if not playing:
            summaries = []
        elif backend == "ray":
            summaries = _run_ray(tasks(_chunks(playing, 50)), len(playing), address, progress)
        elif workers == 1:
            summaries = _run_here(tasks(_chunks(playing, 50)), len(playing), progress)
        else:
            # many small chunks keep both workers busy to the end (a few large ones leave one idle)
            size = max(1, min(50, len(playing) // (workers * 16)))
            summaries = _run_pool(tasks(_chunks(playing, size)), len(playing), workers, progress)
    except BaseException:
        if folder is not None:  # (Ctrl-C ends a worker mid-write: the finished records stay, its temporary goes)
            remove_partial_records(Path(folder))
        raise
    seconds = time.perf_counter() - started
    if recorded:  # every game in the run's own order, whichever were played now
        played_now = dict(zip(playing, summaries, strict=True))
        summaries = [recorded[job] if job in recorded else played_now[job] for job in jobs]
    sides = [tuple(sorted(rules.score_seats(seat))) for seat in range(players)]
    summary = summarise(rules.name, players, len(jobs), seed, specs, summaries, seconds, sides)
    summary["games_per_second"] = len(playing) / seconds if seconds > 0 else 0.0  # (the games played now)
    if len(turns) > 1:  # every level sat in every seat: a seat's row is no level's (``ai_stats`` has theirs)
        for row in cast(list[dict[str, object]], summary["seats"]):
            row["ai"] = None
    summary["duplicate"] = duplicate
    summary["deals"] = games
    summary["engine"] = used
    summary["backend"] = backend
    summary["records"] = folder
    summary["resumed"] = len(recorded)
    return summary


def records_folder(folder: Path, backend: str, resume: bool = False) -> str:
    """The folder records are written to, made if new; refused if it is a file or holds records already (two runs'
    games would mix; with ``resume`` it may: :func:`recorded_games` checks they are this run's), or with the ray
    backend (its workers may run on other machines)."""
    if backend != "local":
        raise OptionError("records are written by this machine's workers: use the local backend with --records")
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"--records {folder}: is a file, not a folder")
    if not resume and folder.is_dir() and any(folder.glob("*.boneyard.json")):
        raise OptionError(f"--records {folder}: already holds game records (name a new or empty folder, or add "
                          "--resume to play on the run that wrote them)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OptionError(f"--records {folder}: cannot make the folder ({error.strerror})") from None
    return str(folder)


def recorded_games(folder: Path, rules: Rules, specs: Sequence[str], seed: int, jobs: Sequence[Job],
                   rotated: bool) -> dict[Job, GameSummary]:
    """The games of this run that ``folder`` already holds records of, each counted from its replayed record.

    Every record in the folder must be one of the run's games (its file name one of ``jobs``', and its
    ``meta.simulate`` this run's seed, game, rotation and levels, its variant, options and players this run's, the
    game finished): anything else is refused, naming the file, before any game is played."""
    from boneyard import record
    from boneyard.options import non_defaults

    names = {record_path(str(folder), index, rotate, rotated).name: (index, rotate) for index, rotate in jobs}
    found: dict[Job, GameSummary] = {}
    for path in sorted(folder.glob("*.boneyard.json")):
        where = f"--resume: {path}"
        job = names.get(path.name)
        if job is None:
            raise OptionError(f"{where}: no game of this run ({len(jobs):,} games"
                              + (", each deal from its seat rotations" if rotated else "") + ")")
        index, rotate = job
        try:
            data = record.load(path)
        except BoneyardError as error:
            raise OptionError(f"--resume: {error}") from None  # (it names the file)
        levels = [specs[(seat + rotate) % rules.players] for seat in range(rules.players)]
        meta = data.get("meta")
        written = meta.get("simulate") if isinstance(meta, dict) else None
        wanted = {"seed": seed, "game": index, "rotation": rotate, "levels": levels}
        if written != wanted:
            raise OptionError(f"{where}: written by another run ({json.dumps(written)}; this run's game is "
                              f"{json.dumps(wanted)})")
        try:
            game = record.replay(data)
        except BoneyardError as error:
            raise OptionError(f"{where}: {error}") from None
        if (game.rules.name, game.players, non_defaults(game.rules.options)) != (
                rules.name, rules.players, non_defaults(rules.options)):
            raise OptionError(f"{where}: a game of {game.rules.name} with {game.players} players and options "
                              f"{json.dumps(non_defaults(game.rules.options), default=str)}, not this run's")
        if not game.finished:
            raise OptionError(f"{where}: the game is not finished")
        played = played_of(game)
        found[job] = GameSummary(index, played.winner, played.scores, played.hands, played.blocked_hands,
                                 played.placements, played.moves, rotate, played.winners)
    return found


def written_records(folder: str | os.PathLike[str]) -> int:
    """How many game records a run has written into ``folder`` (a new folder, or one empty of records)."""
    return sum(1 for _ in Path(folder).glob("game-*.boneyard.json"))


def remove_partial_records(folder: Path) -> None:
    """Remove the temporary files of records whose writing was cut off (a worker ended in the middle of
    :func:`boneyard.record.write_atomically`): every finished record is whole, and nothing else is left."""
    for partial in folder.glob(".game-*.boneyard.json.*.tmp"):
        partial.unlink(missing_ok=True)


def _chunks(jobs: list[Job], size: int) -> list[list[Job]]:
    return [jobs[start:start + size] for start in range(0, len(jobs), size)]


def _run_here(tasks: list[Chunk], total: int, progress: Progress | None) -> list[GameSummary]:
    summaries: list[GameSummary] = []
    for task in tasks:
        summaries += _chunk(task)
        if progress is not None:
            progress(len(summaries), total)
    return summaries


def _run_pool(tasks: list[Chunk], total: int, workers: int, progress: Progress | None) -> list[GameSummary]:
    """The chunks on a process pool; pending chunks are cancelled at once if interrupted."""
    parts: dict[int, list[GameSummary]] = {}
    done = 0
    pool = worker_pool(workers)
    try:
        futures = {pool.submit(_chunk, task): number for number, task in enumerate(tasks)}
        for future in finished(futures):
            parts[futures[future]] = future.result()
            done += len(parts[futures[future]])
            if progress is not None:
                progress(done, total)
    except KeyboardInterrupt:
        stop(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [summary for number in range(len(tasks)) for summary in parts[number]]


def _run_ray(tasks: list[Chunk], total: int, address: str | None, progress: Progress | None) -> list[GameSummary]:
    """The chunks as Ray tasks (joining the cluster at ``address``, or a local Ray)."""
    parts: dict[int, list[GameSummary]] = {}

    def collect(number: int, part: list[GameSummary]) -> None:
        parts[number] = part
        if progress is not None:
            progress(sum(map(len, parts.values())), total)

    ray_map(_chunk, [(task,) for task in tasks], collect, address)
    return [summary for number in range(len(tasks)) for summary in parts[number]]


def ray_map(function: Callable[..., _R], calls: Sequence[tuple[Any, ...]], on_done: Callable[[int, _R], None],
            address: str | None = None) -> None:
    """``function(*call)`` for every call as Ray tasks; ``on_done(index, result)`` as each finishes.

    Joins the Ray cluster at ``address``, or starts a local Ray (and stops it at the end); a Ray
    already initialised in this process is used and left running."""
    try:
        import ray
    except ImportError:
        raise OptionError("the ray backend needs Ray: pip install 'boneyard[ray]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(function)
        pending = [remote.remote(*call) for call in calls]
        number = {ref: index for index, ref in enumerate(pending)}
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                on_done(number[ref], ray.get(ref))
    finally:
        if started:
            ray.shutdown()


def ai_stats(specs: Sequence[str], players: int, summaries: Sequence[GameSummary],
             sides: Sequence[Sequence[int]] | None = None) -> list[dict[str, object]]:
    """Per level: the games it played a part in, the games its side won, the rate and its 95% interval.

    ``sides``: each seat's side (the seats sharing its score; default: every seat alone).  A level seated
    twice in one game counts that game once; a level on every side of a game (both partnerships, or every
    seat) cannot lose it to another level, so that game does not count for it; a game without a winner (a
    tie) counts as played, not won, and ``every_side`` counts the games a level sat on every side of."""
    teams = list(dict.fromkeys(tuple(side) for side in sides)) if sides else [(seat,) for seat in range(players)]
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    everywhere: dict[str, int] = {}
    for summary in summaries:
        def level(seat: int, turn: int = summary.rotate) -> str:
            return specs[(seat + turn) % players]

        seated = {level(seat) for seat in range(players)}
        winners = {level(seat) for seat in summary.winners}
        for spec in seated:
            if all(any(level(seat) == spec for seat in team) for team in teams):
                everywhere[spec] = everywhere.get(spec, 0) + 1
                continue
            played[spec] = played.get(spec, 0) + 1
            won[spec] = won.get(spec, 0) + (spec in winners)
    stats: list[dict[str, object]] = []
    for spec in dict.fromkeys(specs):
        games, wins = played.get(spec, 0), won.get(spec, 0)
        low, high = wilson(wins, games)
        stats.append({"ai": spec, "games": games, "wins": wins, "win_rate": wins / games if games else 0.0,
                      "ci95": [low, high], "every_side": everywhere.get(spec, 0)})
    return stats


def summarise(variant: str, players: int, games: int, seed: int, specs: Sequence[str],
              summaries: Sequence[GameSummary], seconds: float,
              sides: Sequence[Sequence[int]] | None = None) -> dict[str, object]:
    wins = [0] * players  #: per seat, the games its side won (both partners count a partnership's win)
    points = [0] * players
    for summary in summaries:
        for seat in summary.winners:
            wins[seat] += 1
        for seat, score in enumerate(summary.scores):
            points[seat] += score
    count = max(1, len(summaries))
    hands = sum(s.hands for s in summaries)
    return {
        "variant": variant,
        "players": players,
        "games": games,
        "seed": seed,
        "seats": [{"ai": specs[s], "wins": wins[s], "mean_points": points[s] / count} for s in range(players)],
        "ai_stats": ai_stats(specs, players, summaries, sides),
        "hands": hands,
        "mean_hands": hands / count,
        "blocked_hands": sum(s.blocked_hands for s in summaries),
        "placements": sum(s.placements for s in summaries),
        "moves": sum(s.moves for s in summaries),
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
    }
