"""Tournaments between computer players: schedules, seat rotation, duplicate deals, resume, reports.

A tournament is a set of *matches*.  Under ``round-robin`` every group of ``seats`` distinct
players meets (every pair when ``seats`` is 2); under ``gauntlet`` the first player meets each
other player, who fills every remaining seat.  A match is ``games`` games; game ``g`` of a match
rotates the line-up by ``g mod seats`` so every player sits in every seat equally often.

With *duplicate deals* (the default) games come in sets of ``seats``: the set shares one deal seed,
so each player of the match plays each seat's hand once, and every match plays the same deals
(the number of games is rounded up to a whole number of sets).  The seed of a game depends only
on the tournament seed, the match and the game number, never on the worker count or the order
in which games finish, so the same seed gives the same results locally, on more cores or on Ray.

Each finished game is one line appended to ``games.jsonl`` in the output folder (after a header
line with the settings), so an interrupted tournament run again with the same settings skips the
games it already has.  :func:`report` turns the games into a table of win rates with Wilson 95 %
intervals, head-to-head scores, ratings (Bradley–Terry or Elo, with bootstrap intervals) and score
distributions; :func:`write_outputs` saves JSON, CSV and matplotlib plots (PNG and SVG).

A player is a level spec (``greedy``, ``expert:time=0.2``) or ``module:function``, a callable
that returns a :class:`~boneyard.players.base.Player` (called with ``seed=`` when it takes one).
"""

from __future__ import annotations

import csv
import hashlib
import importlib
import inspect
import itertools
import json
import math
import os
import statistics
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from boneyard.chance import as_whole, seed_error
from boneyard.errors import BoneyardError, OptionError, VariantError
from boneyard.options import non_defaults
from boneyard.players.base import LEVELS, Player, load_levels, make_player, split_specs
from boneyard.rules.base import find_variant, make_rules, set_player_range
from boneyard.sim import engines
from boneyard.sim.pool import finished, stop, worker_pool
from boneyard.sim.simulate import (
    MAX_GAMES,
    backend_error,
    games_error,
    player_names,
    ray_map,
    rotation_period,
    workers_error,
)
from boneyard.sim.stats import RATING_METHODS, Pair, bootstrap, wilson

Format = Literal["round-robin", "gauntlet"]
FORMATS: tuple[str, ...] = ("round-robin", "gauntlet")
GAMES_FILE = "games.jsonl"
#: how the header line of ``games.jsonl`` starts: a first line cut short is one only if it starts so
HEADER_START = b'{"boneyard_tournament": 1, "settings": {'
#: the files :func:`write_outputs` writes beside ``games.jsonl`` (and over those of an earlier run)
OUTPUT_FILES = ("results.json", "table.csv", "ratings.csv", "ratings.png", "ratings.svg", "scores.png",
                "scores.svg")
CHUNK = 4  #: games per task handed to a worker


class TournamentError(BoneyardError, ValueError):
    """Settings that make no tournament, or an output folder that holds a different one."""


# ---------------------------------------------------------------- players
def _is_callable_spec(spec: str) -> bool:
    head, colon, tail = spec.partition(":")
    return bool(colon) and head.strip().lower() not in LEVELS and "=" not in tail and tail.strip().isidentifier()


def import_player_module(name: str) -> Any:
    """The module of a ``module:function`` player: from the import path, else from the current folder (where
    ``python -m boneyard`` would find it; the ``boneyard`` command starts without it on the path).  The folder is
    then kept on the path, so worker processes find the module too."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        here = os.getcwd()
        if error.name != name.partition(".")[0] or here in sys.path or "" in sys.path:
            raise
        sys.path.insert(0, here)
        return importlib.import_module(name)


def build_player(spec: str, seed: int | None = None) -> Player:
    """A player from a level spec or from ``module:function``."""
    if spec.partition(":")[0].strip().lower() not in LEVELS:
        load_levels()  # the optional level modules, so a level is never taken for a module
    if not _is_callable_spec(spec):
        return make_player(spec, seed=seed)
    module_name, _, function_name = spec.partition(":")
    try:
        module = import_player_module(module_name.strip())
    except ImportError as error:
        raise OptionError(f"player {spec!r}: cannot import module {module_name!r} ({error})") from None
    except Exception as error:  # (the module's own code failed: a syntax error, an exception while importing)
        raise OptionError(f"player {spec!r}: importing module {module_name!r} failed: {_failure(error)}") from None
    factory = getattr(module, function_name.strip(), None)
    if not callable(factory):
        raise OptionError(f"player {spec!r}: module {module_name!r} has no callable {function_name!r}")
    try:
        takes_seed = "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        takes_seed = False
    try:
        player = factory(seed=seed) if takes_seed else factory()
    except Exception as error:
        raise OptionError(f"player {spec!r}: {function_name.strip()}() failed: {_failure(error)}") from None
    if not callable(getattr(player, "choose", None)):
        raise OptionError(f"player {spec!r}: {function_name}() returned {player!r}, which has no choose(view)")
    return player  # type: ignore[no-any-return]


def _failure(error: Exception) -> str:
    """An exception raised by a player's own code, in one line with the place it was raised (file and line)."""
    import traceback

    if isinstance(error, SyntaxError):
        return f"{type(error).__name__}: {error.msg} ({error.filename}, line {error.lineno})"
    frames = traceback.extract_tb(error.__traceback__)
    where = f" ({frames[-1].filename}, line {frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"


# ---------------------------------------------------------------- settings and schedule
@dataclass(frozen=True, slots=True)
class Settings:
    """What defines a tournament (stored in the header of ``games.jsonl``)."""

    variant: str
    players: tuple[str, ...]
    games: int = 100
    seed: int = 0
    format: str = "round-robin"
    seats: int = 2
    duplicate: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)

    def identity(self) -> dict[str, object]:
        """The settings a resumed run must share (everything but the number of games).  ``deal_set`` is there only
        where a set of duplicate deals is smaller than the seats (a partnership gauntlet): such a tournament's
        earlier results files played each seating of a deal twice, and must not be resumed as if they had not."""
        data = asdict(self)
        data.pop("games")
        data["players"] = list(self.players)
        data["options"] = dict(self.options)
        if self.duplicate and (size := deal_set(self)) != self.seats:
            data["deal_set"] = size
        return data


@dataclass(frozen=True, slots=True)
class Task:
    """One game: ``lineup[s]`` is the player index of base seat ``s``; the game rotates it."""

    match: str
    lineup: tuple[int, ...]
    game: int


def make_settings(variant: str, players: Sequence[str] | str, *, games: int = 100, seed: int = 0,
                  format: str = "round-robin", seats: int | None = None, duplicate: bool = True,
                  options: Mapping[str, object] | None = None) -> Settings:
    """Check and normalise tournament settings (raises :class:`BoneyardError` subclasses)."""
    specs = split_specs(players) if isinstance(players, str) else [str(p).strip() for p in players]
    specs = [spec for spec in specs if spec]
    if len(specs) < 2:
        raise TournamentError(f"a tournament needs at least two players, got {len(specs)} ({', '.join(specs)})")
    if format not in FORMATS:
        raise TournamentError(f"unknown format {format!r} (choose from {', '.join(FORMATS)})")
    games, seed = as_whole(games), as_whole(seed)  # (a NumPy integer is a number of games and a seed too)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise TournamentError(f"games must be a whole number from 1 to {MAX_GAMES:,}, not {games!r}")
    if (wrong := seed_error(seed)) is not None:
        raise TournamentError(wrong)
    rules = make_rules(variant, fewest_seats(variant, options) if seats is None else seats, options)
    seat_count = rules.players
    if format == "round-robin" and seat_count > len(specs):
        raise TournamentError(f"a round robin at {seat_count} seats needs {seat_count} players, got {len(specs)} "
                              "(use --format gauntlet, or fewer --seats)")
    settings = Settings(rules.name, tuple(specs), games, seed, format, seat_count, duplicate,
                        non_defaults(rules.options))
    count, per_match = match_count(settings), games_per_match(settings)
    if (wrong := games_error(count * per_match, f"{count:,} {'match' if count == 1 else 'matches'} of "
                                                f"{per_match:,} games")) is not None:
        raise TournamentError(f"{wrong} (fewer --games or players)")
    for spec in dict.fromkeys(specs):
        build_player(spec, seed=0)
    return settings


def fewest_seats(variant: str, options: Mapping[str, object] | None = None) -> int:
    """The fewest players ``variant`` is played by with ``options``: from the variant's minimum upward, the first
    count :func:`make_rules` takes (4 for Block with ``partnerships``).  Options no count takes are refused with
    the reason they give at the variant's minimum."""
    refused: BoneyardError | None = None
    cls = find_variant(variant)
    most = set_player_range(12, cls.max_players, cls.min_players)[1]  # the most any set seats (double-twelve: 10)
    for count in range(cls.min_players, most + 1):
        try:
            return make_rules(variant, count, options).players
        except VariantError as error:  # past the most players the variant seats: no count takes the options
            raise refused or error from None
        except BoneyardError as error:  # (an unknown option is refused at every count: its reason is kept)
            refused = refused or error
    assert refused is not None
    raise refused


def games_per_match(settings: Settings) -> int:
    """Games in each match: ``games``, rounded up to whole sets of deals when duplicating."""
    size = deal_set(settings) if settings.duplicate else 1
    return -(-settings.games // size) * size


def deal_set(settings: Settings) -> int:
    """Games in a set of duplicate deals: one for each distinct seating the rotations of a match's line-up give.
    That is the number of seats, except in a partnership gauntlet, where the first player holds both seats of its
    side: rotating by two seats everyone as in the first game, so the set is two games (a third would replay the
    first, and count one game's result twice)."""
    return rotation_period(_lineup(settings, 1))


def _lineup(settings: Settings, other: int) -> tuple[int, ...]:
    """The line-up of a match against player ``other`` (a gauntlet), or of the first match (a round robin)."""
    if settings.format == "gauntlet":
        side = engines.rules_for(settings.variant, settings.seats, settings.options).score_seats(0)
        return tuple(0 if seat in side else other for seat in range(settings.seats))
    return tuple(range(settings.seats))


def match_count(settings: Settings) -> int:
    """How many matches :func:`matches` lists (counted, not built)."""
    count = len(settings.players)
    return count - 1 if settings.format == "gauntlet" else math.comb(count, settings.seats)


def matches(settings: Settings) -> list[tuple[int, ...]]:
    """The line-ups of the matches, in schedule order.  In a gauntlet the first player takes its partners' seats
    too (a partnership game), so each match is that player's side against the other player's."""
    count = len(settings.players)
    if settings.format == "gauntlet":
        return [_lineup(settings, other) for other in range(1, count)]
    return list(itertools.combinations(range(count), settings.seats))


def match_key(settings: Settings, lineup: Sequence[int]) -> str:
    names = player_names(settings.players)
    return " | ".join(names[index] for index in lineup)


def schedule(settings: Settings) -> list[Task]:
    """Every game of the tournament, in a fixed order."""
    per_match = games_per_match(settings)
    return [Task(match_key(settings, lineup), lineup, game)
            for lineup in matches(settings) for game in range(per_match)]


def _hash_seed(*parts: object) -> int:
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_seed(settings: Settings, task: Task) -> int:
    """The seed of a game's chance: shared by a set of duplicate deals (across every match)."""
    if settings.duplicate:
        return _hash_seed("deal", settings.seed, task.game // deal_set(settings))
    return _hash_seed("game", settings.seed, task.match, task.game)


# ---------------------------------------------------------------- playing
def play_game(settings: Settings, task: Task, engine: str = "auto") -> dict[str, Any]:
    """Play one scheduled game to the end (on the fast engine wherever it plays the rules, see
    :mod:`boneyard.sim.engines`); the JSON-ready record of its result, the same on either engine."""
    seats = settings.seats
    rotation = task.game % seats
    seat_players = [task.lineup[(seat + rotation) % seats] for seat in range(seats)]
    number = deal_seed(settings, task)
    players = [build_player(settings.players[index], seed=_hash_seed("player", number, task.match, task.game, seat))
               for seat, index in enumerate(seat_players)]
    played = engines.play_game(engines.rules_for(settings.variant, seats, settings.options), number, players,
                               engine)
    return {"match": task.match, "game": task.game, "seats": seat_players, "scores": played.scores,
            "winners": sorted(played.winners), "hands": played.hands, "moves": played.moves}


def play_chunk(settings: Settings, tasks: Sequence[Task], engine: str = "auto") -> list[dict[str, Any]]:
    return [play_game(settings, task, engine) for task in tasks]


def chunks(tasks: Sequence[Task], size: int = CHUNK) -> list[list[Task]]:
    return [list(tasks[start:start + size]) for start in range(0, len(tasks), size)]


OnResult = Callable[[dict[str, Any]], None]


def run_local(settings: Settings, tasks: Sequence[Task], on_result: OnResult, workers: int | None = None,
              engine: str = "auto") -> None:
    """Play ``tasks`` on a pool of processes (in this process when ``workers`` is 1)."""
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            on_result(play_game(settings, task, engine))
        return
    parts = chunks(tasks)
    pool = worker_pool(min(workers, len(parts)))
    try:
        waiting: set[Future[list[dict[str, Any]]]] = {pool.submit(play_chunk, settings, part, engine) for part in parts}
        for future in finished(waiting):
            for record in future.result():
                on_result(record)
    except KeyboardInterrupt:
        stop(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_ray(settings: Settings, tasks: Sequence[Task], on_result: OnResult, address: str | None = None,
            engine: str = "auto") -> None:
    """Play ``tasks`` as Ray tasks (joining the cluster at ``address``, or a local Ray)."""
    def collect(_: int, records: list[dict[str, Any]]) -> None:
        for record in records:
            on_result(record)

    ray_map(play_chunk, [(settings, part, engine) for part in chunks(tasks)], collect, address)


# ---------------------------------------------------------------- the results file
class Store:
    """``games.jsonl`` in an output folder: a header line with the settings, then one game per line.

    A last line cut short (by an interruption) is dropped.  So is a header cut short when nothing follows it: the
    file held no game yet, so the header is written again; a damaged line with anything after it is refused."""

    def __init__(self, folder: Path, settings: Settings) -> None:
        self.folder = folder
        self.path = folder / GAMES_FILE
        self.settings = settings
        self.records: dict[tuple[str, int], dict[str, Any]] = {}
        folder.mkdir(parents=True, exist_ok=True)
        if self.path.exists() and self.path.stat().st_size:
            self._load()
        else:
            self._write_header()

    def _write_header(self) -> None:
        header = {"boneyard_tournament": 1, "settings": self.settings.identity()}
        self.path.write_text(json.dumps(header) + "\n", encoding="utf-8")

    def _cut_header(self, raw: bytes) -> bool:
        """Whether ``raw``, a first line that is not JSON, is a header cut short (the start of one as
        :meth:`_write_header` writes it), not a line of some other file that must not be written over."""
        line = raw.strip()
        return line.startswith(HEADER_START) or HEADER_START.startswith(line)

    def _load(self) -> None:
        good = 0
        header = False
        with self.path.open("rb") as handle:
            lines = handle.read().split(b"\n")
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                good += len(raw) + 1
                continue
            try:
                data = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):  # (bytes that are not UTF-8 are no JSON either)
                if number < len(lines) - 1:
                    raise TournamentError(f"{self.path}, line {number}: not JSON; "
                                          "the results file is damaged") from None
                if not header and not self._cut_header(raw):
                    raise TournamentError(f"{self.path} is not a tournament's results file (its first line is not "
                                          "JSON); use another --out folder") from None
                break  # a line cut short by an interruption: drop it
            if not header:
                self._check_header(data)
                header = True
            elif (wrong := result_error(data, self.settings)) is not None:
                raise TournamentError(f"{self.path}, line {number}: {wrong}; the results file is damaged")
            else:
                self.records[(data["match"], data["game"])] = data
            good += len(raw) + 1
        if not header:  # nothing but a header cut short: no game is lost by writing it again
            self._write_header()
            return
        with self.path.open("r+b") as handle:  # cut off a partial last line so appends stay whole
            handle.truncate(min(good, self.path.stat().st_size))
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            if size:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    handle.write(b"\n")

    def _check_header(self, data: object) -> None:
        """Refuse a header whose settings are not these, naming those that differ."""
        if not isinstance(data, dict) or "boneyard_tournament" not in data:
            raise TournamentError(f"{self.path} is not a tournament's results file (its first line is "
                                  f"{json.dumps(data)[:40]}, not the header with the settings); use another "
                                  "--out folder")
        stored = data.get("settings")
        wanted = self.settings.identity()
        if stored != wanted:
            differ = [f"{key} {json.dumps(stored.get(key))} there, {json.dumps(value)} now"
                      for key, value in wanted.items() if stored.get(key) != value] \
                if isinstance(stored, dict) else []
            what = "; ".join(differ) if differ else json.dumps(stored)
            raise TournamentError(f"{self.path} holds a different tournament ({what}); "
                                  "use another --out folder or the same settings")

    def add(self, record: dict[str, Any]) -> None:
        self.records[(str(record["match"]), int(record["game"]))] = record
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
            handle.flush()


def result_error(data: object, settings: Settings) -> str | None:
    """Why ``data`` (a line of ``games.jsonl``) is not the result of a game of ``settings``, or ``None``: a match,
    a game number, the player in each seat, each seat's score and the winning seats, as :func:`play_game` writes
    them and :func:`report` reads them."""
    if not isinstance(data, dict):
        return f"expected a game's result (a JSON object), got {json.dumps(data)[:40]}"
    seats, players = settings.seats, len(settings.players)

    def numbers(value: object, below: int | None = None, length: int | None = None) -> bool:
        """A list of whole numbers (from 0 to ``below`` - 1 where given; ``length`` of them where given)."""
        return isinstance(value, list) and (length is None or len(value) == length) and all(
            isinstance(item, int) and not isinstance(item, bool) and (below is None or 0 <= item < below)
            for item in value)

    wanted: tuple[tuple[str, bool, str], ...] = (
        ("match", isinstance(data.get("match"), str), "a string"),
        ("game", numbers([data.get("game")], MAX_GAMES), "a game number"),
        ("seats", numbers(data.get("seats"), players, seats), f"a list of {seats} player numbers below {players}"),
        ("scores", numbers(data.get("scores"), None, seats), f"a list of {seats} whole numbers"),
        ("winners", numbers(data.get("winners"), seats), f"a list of seat numbers below {seats}"),
    )
    for key, fits, what in wanted:
        if key not in data:
            return f"missing key {key!r}"
        if not fits:
            return f"{key!r} must be {what}, got {json.dumps(data[key])[:40]}"
    return None


# ---------------------------------------------------------------- running
@dataclass(slots=True)
class Outcome:
    """A finished (or resumed) tournament: its settings and every game's record, in schedule order."""

    settings: Settings
    records: list[dict[str, Any]]
    played: int  #: games played by this run (the rest came from the results file)


def run_tournament(settings: Settings, *, out: Path | None = None, workers: int | None = None,
                   backend: str = "local", address: str | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   on_result: OnResult | None = None, engine: str = "auto") -> Outcome:
    """Play every game not yet in ``out`` and return all of them in schedule order.  ``engine``
    (``auto``, ``fast`` or ``reference``) changes the speed, never the results."""
    for wrong in (backend_error(backend, address), workers_error(workers)):
        if wrong is not None:
            raise TournamentError(wrong)
    engines.engine_for(engines.rules_for(settings.variant, settings.seats, settings.options), engine)
    tasks = schedule(settings)
    store = Store(out, settings) if out is not None else None
    results: dict[tuple[str, int], dict[str, Any]] = dict(store.records) if store else {}
    todo = [task for task in tasks if (task.match, task.game) not in results]
    done_before = len(tasks) - len(todo)
    if progress:
        progress(done_before, len(tasks))

    def collect(record: dict[str, Any]) -> None:
        results[(str(record["match"]), int(record["game"]))] = record
        if store:
            store.add(record)
        if on_result:
            on_result(record)
        if progress:
            progress(len(results), len(tasks))

    if backend == "ray":
        run_ray(settings, todo, collect, address, engine)
    else:
        run_local(settings, todo, collect, workers, engine)
    ordered = [results[(task.match, task.game)] for task in tasks]
    return Outcome(settings, ordered, len(todo))


# ---------------------------------------------------------------- analysis
def game_pairs(record: Mapping[str, Any]) -> list[Pair]:
    """Pairwise outcomes of one game between distinct players: the winner beats each loser,
    a game without a winner is a tie for every pair, two losers (or partners) are not compared."""
    seats: list[int] = record["seats"]
    winning = {seats[seat] for seat in record["winners"]}
    present = sorted(set(seats))
    pairs = []
    for a, b in itertools.combinations(present, 2):
        if not winning:
            pairs.append(Pair(a, b, 0.5))
        elif (a in winning) != (b in winning):
            pairs.append(Pair(a, b, 1.0 if a in winning else 0.0))
    return pairs


def _summary(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": math.nan, "sd": math.nan, "min": math.nan, "median": math.nan, "max": math.nan}
    return {"mean": statistics.fmean(values), "sd": statistics.pstdev(values), "min": float(min(values)),
            "median": float(statistics.median(values)), "max": float(max(values))}


def check_rating(rating: str) -> None:
    """Refuse an unknown rating method (before any game is played)."""
    if rating not in RATING_METHODS:
        raise TournamentError(f"unknown rating method {rating!r} (choose from {', '.join(RATING_METHODS)})")


def report(outcome: Outcome, *, rating: str = "bradley-terry", bootstrap_samples: int = 200) -> dict[str, Any]:
    """The tournament's table, head-to-head scores, ratings and score distributions (JSON-ready)."""
    settings = outcome.settings
    check_rating(rating)
    names = player_names(settings.players)
    count = len(names)
    played = [0] * count
    wins = [0] * count
    draws = [0] * count
    seat_games = [[0] * settings.seats for _ in range(count)]
    seat_wins = [[0] * settings.seats for _ in range(count)]
    scores: list[list[int]] = [[] for _ in range(count)]
    games: list[list[Pair]] = []
    for record in outcome.records:
        seats: list[int] = record["seats"]
        winning = {seats[seat] for seat in record["winners"]}
        for player in set(seats):
            played[player] += 1
            wins[player] += player in winning
            draws[player] += not winning
        for seat, player in enumerate(seats):
            scores[player].append(int(record["scores"][seat]))
            seat_games[player][seat] += 1
            seat_wins[player][seat] += seat in record["winners"]
        games.append(game_pairs(record))
    method = RATING_METHODS[rating]
    ratings = method(count, games)
    intervals = bootstrap(method, count, games, samples=bootstrap_samples, seed=settings.seed)
    table = []
    for player in range(count):
        low, high = wilson(wins[player], played[player])
        table.append({
            "player": names[player], "spec": settings.players[player], "games": played[player],
            "wins": wins[player], "draws": draws[player], "losses": played[player] - wins[player] - draws[player],
            "win_rate": wins[player] / played[player] if played[player] else math.nan,
            "win_rate_low": low, "win_rate_high": high,
            "mean_score": _summary(scores[player])["mean"],
            "seat_win_rates": [seat_wins[player][s] / seat_games[player][s] if seat_games[player][s] else None
                               for s in range(settings.seats)],
        })
    h2h_wins = [[0.0] * count for _ in range(count)]
    h2h_meetings = [[0] * count for _ in range(count)]
    for game in games:
        for a, b, score in game:
            h2h_wins[a][b] += score
            h2h_wins[b][a] += 1 - score
            h2h_meetings[a][b] += 1
            h2h_meetings[b][a] += 1
    head_to_head = [{"player": names[a], "against": names[b], "score": h2h_wins[a][b] / h2h_meetings[a][b],
                     "games": h2h_meetings[a][b]}
                    for a in range(count) for b in range(count) if a != b and h2h_meetings[a][b]]
    order = sorted(range(count), key=lambda p: -ratings[p])
    return {
        "settings": {**settings.identity(), "games": settings.games, "games_per_match": games_per_match(settings)},
        "games_played": len(outcome.records),
        "table": table,
        "ratings": [{"rank": rank, "player": names[p], "rating": ratings[p], "low": intervals[p].low,
                     "high": intervals[p].high} for rank, p in enumerate(order, 1)],
        "rating_method": rating,
        "head_to_head": head_to_head,
        "scores": {names[p]: {**_summary(scores[p]), "values": scores[p]} for p in range(count)},
    }


# ---------------------------------------------------------------- output files
def write_outputs(result: dict[str, Any], out: Path, *, plots: bool = True) -> dict[str, str]:
    """Write ``results.json``, ``table.csv``, ``ratings.csv`` and the plots into ``out``; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"games": str(out / GAMES_FILE), "json": str(out / "results.json"), "table_csv": str(out / "table.csv"),
             "ratings_csv": str(out / "ratings.csv")}
    with (out / "table.csv").open("w", newline="", encoding="utf-8") as handle:
        columns = ["player", "spec", "games", "wins", "draws", "losses", "win_rate", "win_rate_low",
                   "win_rate_high", "mean_score"]
        writer = csv.DictWriter(handle, columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(result["table"])
    with (out / "ratings.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, ["rank", "player", "rating", "low", "high"])
        writer.writeheader()
        writer.writerows(result["ratings"])
    if plots:
        paths.update(plot(result, out))
    result["files"] = paths
    (out / "results.json").write_text(json.dumps(finite(result), indent=1), encoding="utf-8")
    return paths


def finite(value: Any) -> Any:
    """NaN and infinities become null (JSON has no NaN)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [finite(item) for item in value]
    return value


def plot(result: Mapping[str, Any], out: Path) -> dict[str, str]:
    """Ratings with error bars and score histograms, as PNG and SVG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    settings = result["settings"]
    title = (f"{settings['variant']}, {settings['seats']} seats, {result['games_played']} games, "
             f"seed {settings['seed']}")
    rows = list(reversed(result["ratings"]))
    figure, axes = plt.subplots(figsize=(7, 1.2 + 0.5 * len(rows)))
    values = [row["rating"] for row in rows]
    low = [max(0.0, row["rating"] - row["low"]) if math.isfinite(row["low"]) else 0.0 for row in rows]
    high = [max(0.0, row["high"] - row["rating"]) if math.isfinite(row["high"]) else 0.0 for row in rows]
    axes.errorbar(values, range(len(rows)), xerr=[low, high], fmt="o", capsize=4, color="#1f5f8b")
    axes.set_yticks(range(len(rows)), [row["player"] for row in rows])
    axes.axvline(0, color="#999999", linewidth=0.8)
    axes.set_xlabel(f"rating ({result['rating_method']}, Elo scale) with 95% bootstrap interval")
    axes.set_ylabel("player")
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    paths = {}
    for suffix in ("png", "svg"):
        path = out / f"ratings.{suffix}"
        figure.savefig(path, dpi=120)
        paths[f"ratings_{suffix}"] = str(path)
    plt.close(figure)
    figure, axes = plt.subplots(figsize=(7, 4))
    everything = [v for data in result["scores"].values() for v in data["values"]]
    if everything:
        bins = min(30, max(5, len(set(everything))))
        edges = _edges(min(everything), max(everything), bins)
        for name, data in result["scores"].items():
            axes.hist(data["values"], bins=edges, histtype="step", linewidth=1.6, label=name)
        axes.legend(fontsize=8)
    lower_wins = find_variant(settings["variant"]).lower_score_wins
    axes.set_xlabel("final score (penalty points: the lowest wins)" if lower_wins else "final score")
    # a player who holds several seats of a game (a gauntlet of three or more seats, a partnership) has a score
    # for each: the bars then count seats, and the axis says so
    games = {row["player"]: row["games"] for row in result["table"]}
    per_seat = any(len(data["values"]) > games.get(name, 0) for name, data in result["scores"].items())
    axes.set_ylabel("seats held (a score per seat of each game)" if per_seat else "games")
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    for suffix in ("png", "svg"):
        path = out / f"scores.{suffix}"
        figure.savefig(path, dpi=120)
        paths[f"scores_{suffix}"] = str(path)
    plt.close(figure)
    return paths


def _edges(low: float, high: float, bins: int) -> list[float]:
    if high <= low:
        return [low - 0.5, low + 0.5]
    step = (high - low) / bins
    return [low + step * i for i in range(bins + 1)]


def check_extras(plots: bool = True) -> None:
    """Refuse, before any game is played, a tournament whose report could not be made: the ratings need NumPy and
    the plots matplotlib (the ``stats`` extra)."""
    missing = []
    for module in ("numpy", "matplotlib") if plots else ("numpy",):
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        raise TournamentError(f"a tournament's ratings and plots need {' and '.join(missing)}, which {verb} not "
                              "installed: pip install 'boneyard[stats]'")


def check_out(folder: Path) -> None:
    """Refuse an output folder that holds no tournament (no ``games.jsonl``, or an empty one) but files this one
    would write over (a ``table.csv`` of the user's own, in a folder named by mistake)."""
    if not folder.is_dir():
        return
    games = folder / GAMES_FILE
    if games.exists() and (not games.is_file() or games.stat().st_size):
        return  # an earlier run's folder (what is in it is checked as it is read)
    clash = [name for name in OUTPUT_FILES if (folder / name).exists()]
    if clash:
        raise TournamentError(f"--out {folder}: holds {', '.join(clash)} but no tournament's {GAMES_FILE}; a "
                              "tournament would write over them: use a new folder")


def default_out(settings: Settings) -> Path:
    """``tournaments/<variant>-<hash of the settings>``: the same settings resume in the same place."""
    key = hashlib.sha256(json.dumps(settings.identity(), sort_keys=True).encode()).hexdigest()[:10]
    return Path("tournaments") / f"{settings.variant}-{key}"


def tournament(variant: str, players: Sequence[str] | str, *, games: int = 100, seed: int = 0,
               format: str = "round-robin", seats: int | None = None, duplicate: bool = True,
               options: Mapping[str, object] | None = None, workers: int | None = None, backend: str = "local",
               address: str | None = None, out: Path | None = None, rating: str = "bradley-terry",
               plots: bool = True, progress: Callable[[int, int], None] | None = None,
               engine: str = "auto") -> dict[str, Any]:
    """Run (or resume) a tournament, write its files into ``out`` and return the report.  Every setting is
    checked before any game is played or any folder made."""
    check_rating(rating)
    settings = make_settings(variant, players, games=games, seed=seed, format=format, seats=seats,
                             duplicate=duplicate, options=options)
    check_extras(plots)
    folder = out if out is not None else default_out(settings)
    check_out(folder)
    outcome = run_tournament(settings, out=folder, workers=workers, backend=backend, address=address,
                             progress=progress, engine=engine)
    result = report(outcome, rating=rating)
    result["played_now"] = outcome.played
    write_outputs(result, folder, plots=plots)
    return result


def results_only(records: Iterable[Mapping[str, Any]]) -> list[tuple[str, int, list[int], list[int]]]:
    """The parts of game records that must match between runs (for comparisons and tests)."""
    return [(str(r["match"]), int(r["game"]), list(r["seats"]), list(r["scores"])) for r in records]
