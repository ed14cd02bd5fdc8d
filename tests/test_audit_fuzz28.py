"""Audit 28: fuzzed game records against every consumer of a record.

Valid records of every variant (finished and unfinished, a few option sets, random and greedy players) are
mutated — structurally (a key deleted, a value of another type, moves duplicated, dropped or swapped, a tile
changed, the header changed) and as bytes (cut short, not UTF-8, not JSON, not an object, nested deep) — and
handed to each consumer: the Python API (``record.loads``/``load``/``replay``/``replay_json``/``replay_text``,
the web replayer, statistics, the review request check, ``record.save`` over a damaged file), the command line
in process (``replay``, ``replay --json``, ``play --resume``, ``review``, ``stats``) and as a subprocess, and
the web server's record paths (``POST /api/replay``, ``/api/records``, ``/api/review``, then the stored game
reopened).  Each must either succeed (the mutation stayed valid) or fail with the project's own error, one line
that says where; never another exception, a traceback, a 500, or a changed save file.

The loops are seeded (the same records every run); ``SEEN`` counts the mutated records each consumer saw
(printed by the last test, with ``-s``).
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard import record
from boneyard.errors import BoneyardError
from boneyard.players.base import make_player
from boneyard.view import SeatView

Record = dict[str, Any]

#: mutated records (or files) each consumer was given
SEEN: Counter[str] = Counter()

# ---------------------------------------------------------------- valid records

#: (variant, players, options): every variant, a few option sets; small targets so that games finish quickly
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 2, {"target": 30}),
    ("block", 4, {"partnerships": True, "target": 40}),
    ("block", 3, {"set": 9, "target": 50, "first_lead": "random_player_any_tile"}),
    ("draw", 2, {"target": 40}),
    ("draw", 3, {"allow_voluntary_draw": True, "boneyard_reserve": 2, "target": 30}),
    ("all-fives", 2, {"target": 40}),
    ("all-fives", 3, {"spinner_mode": "all_doubles", "score_unit": "fives", "target": 10}),
    ("bergen", 2, {"target": 5}),
    ("bergen", 3, {"block_rule": "german", "lead_rule": "rotate_any_tile", "target": 5}),
    ("double-bergen", 2, {"target": 10}),
    ("double-bergen", 4, {"boneyard_reserve": 2, "target": 10}),
    ("flower-scorpion", 2, {"target": 5}),
    ("flower-scorpion", 3, {"long_pairs": "all_pairs", "target": 5}),
    ("pip", 2, {}),
    ("pip", 4, {"letter_end": "open_wild", "directional_value": 25}),
]


def play_game(variant: str, players: int, options: dict[str, Any], seed: int, *, max_moves: int | None = None,
              greedy: bool = False) -> boneyard.Game:
    """A game dealt from ``seed``, played by random (or greedy) computers to its end or ``max_moves`` moves."""
    game = boneyard.new_game(variant, players, seed=seed, options=options)
    rng = random.Random(seed)
    bots = [make_player("greedy", seed=seed + seat) for seat in range(players)] if greedy else None
    moves = 0
    while not game.finished and moves < 4000:
        if not game.in_hand:
            game.next_hand()
            continue
        if max_moves is not None and moves >= max_moves:
            break
        move = bots[game.turn].choose(SeatView(game, game.turn)) if bots else rng.choice(game.legal_moves())
        game.apply(move)
        moves += 1
    return game


def _annotated(data: Record) -> Record:
    hand = data["hands"][-1]
    if hand["moves"]:
        first = {"value": 1.5, "best": hand["moves"][0], "best_value": 2.0, "interval": [-0.5, 1],
                 "mark": "inaccuracy", "comment": "a note", "by": "audit"}
        hand["annotations"] = [first, None, {"mark": "best"}] if len(hand["moves"]) > 2 else [first]
    return data


def _build_bases() -> list[tuple[str, Record]]:
    bases = []
    for index, (variant, players, options) in enumerate(CONFIGS):
        finished = play_game(variant, players, options, index, greedy=index % 2 == 1)
        assert finished.finished, (variant, players, options)
        bases.append((f"{variant}/{players} finished", record.to_record(finished, meta={"human_seat": 0})))
        meta = {"human_seat": 0, "ai": {str(seat): "greedy" for seat in range(1, players)}}
        short = play_game(variant, players, options, 100 + index, max_moves=7)
        bases.append((f"{variant}/{players} 7 moves", _annotated(record.to_record(short, meta=meta))))
        later = play_game(variant, players, options, 200 + index, max_moves=45)
        if not later.finished:
            bases.append((f"{variant}/{players} 45 moves", record.to_record(later, meta=meta)))
    return bases


BASES = _build_bases()
SMALL = [(name, data) for name, data in BASES if "7 moves" in name]  #: quick to replay, resume and review


def test_the_valid_records_replay_and_cover_every_variant() -> None:
    variants = {data["variant"] for _, data in BASES}
    assert variants == set(boneyard.VARIANTS)
    for name, data in BASES:
        again = record.loads(record.dumps(data))
        game = record.replay(again)
        assert game.finished == name.endswith("finished"), name
        assert record.replay_json(again)["totals"] == game.scores


# ---------------------------------------------------------------- mutations

WEIRD: list[Any] = [
    None, [], {}, True, False, 0, -1, 1.5, -2.5, 10**30, -(10**30), 2**63, 2**64, 1e308, -0.0, "", "NaN", "Infinity",
    "-0", "x" * 5000, "a\x00b", "\u202e\n\t\r", "\x1b[2J", "\u2028", "é", "６-４", "٣-٣", "6-4", "W-W", "S-D", "draw",
    "pass", "give 5-2", "6-4@99999", "6-4@0", "6-4@1", "1" * 30, [1, 2], {"a": 1}, [[[]]], 7, 6, 100, "7", ["6-6"],
    ["6-6"] * 30, [[]] * 3, {"flower": [1, 2], "scorpion": [3, 4]}, {"flower": [0, 7], "scorpion": [3, 4]},
    {"flower": [1.0, 2], "scorpion": [3, 4]},
]
#: texts that cannot travel inside a Python str written as UTF-8: sent as JSON escapes
SURROGATES = ["\ud800", "\udfff", "a\udc80b"]
TILE_TEXTS = ["6-6", "0-0", "9-9", "12-12", "13-0", "W-W", "S-S", "D-6", "6-6@1", "6-5@2", "5-6@3", "draw 0-0",
              "give 6-6", "x", "6_4", "6-4-3", "-", "", " 6 - 4 ", "6-4@", "6-4@-1", "6-4@1.5", "W-7@1", "6-4@00001",
              "6-4@１"]
OPTION_KEYS = ["set", "target", "deal_sizes", "first_lead", "spinner_mode", "partnerships", "boneyard_reserve",
               "lead_rule", "letter_end", "score_floor", "win_check", "bogus", "deal-sizes", "SET", ""]
OPTION_VALUES: list[Any] = [6, 9, 12, 0, 1, -5, 10**30, None, True, "none", "7/5/5", [7], [1], [100], [0],
                            [7] * 10, "x", 1.0, "12", [10**20], 1_000_000, 1_000_001, "1e3", [], {}]
VARIANT_NAMES = ["block", "draw", "all-fives", "muggins", "fives", "five-up", "bergen", "double-bergen",
                 "flower-scorpion", "flower-and-scorpion", "pip", "chess", "", "PIP", "Block", " pip ", "pip\n"]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*prefix, index))


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def _weird(rng: random.Random) -> Any:
    if rng.random() < 0.05:
        return rng.choice(SURROGATES)
    return copy.deepcopy(rng.choice(WEIRD))


def _short(value: Any) -> str:
    return json.dumps(value)[:60]


def mutate(data: Record, rng: random.Random) -> tuple[Record, str]:
    """One structural mutation of a copy of ``data``, and what it did."""
    data = copy.deepcopy(data)
    try:
        return data, _mutate(data, rng)
    except (KeyError, IndexError, TypeError, AttributeError, ValueError):  # an earlier mutation left no such place
        return data, "nothing"


def _mutate(data: Record, rng: random.Random) -> str:
    places = [path for path in _paths(data) if path]
    kind = rng.choice(["delete", "replace", "replace", "insert", "wrap", "moves", "moves", "tile", "tile", "header"])
    if kind == "delete":
        path = rng.choice(places)
        del _at(data, path[:-1])[path[-1]]
        return f"delete {list(path)}"
    if kind == "replace":
        path = rng.choice(places)
        value = _weird(rng)
        _at(data, path[:-1])[path[-1]] = value
        return f"set {list(path)} = {_short(value)}"
    if kind == "insert":
        path = rng.choice([p for p in _paths(data) if isinstance(_at(data, p), (list, dict))])
        inner, value = _at(data, path), _weird(rng)
        if isinstance(inner, list):
            index = rng.randrange(len(inner) + 1)
            inner.insert(index, value)
            return f"insert {list(path)}[{index}] = {_short(value)}"
        key = rng.choice(["leader", "stock", "dice", "annotations", "meta", "seed", "extra", "moves", "deal",
                          "human_seat", "ai", "set", "target", "mark", "value", "comment", "best", "interval"])
        inner[key] = value
        return f"set {list(path)}.{key} = {_short(value)}"
    if kind == "wrap":
        path = rng.choice(places)
        _at(data, path[:-1])[path[-1]] = [_at(data, path)]
        return f"wrap {list(path)} in a list"
    hands = data["hands"]
    if kind == "moves":
        number = rng.randrange(len(hands))
        moves = hands[number]["moves"]
        how = rng.choice(["duplicate", "drop", "swap", "cut", "extend", "drop hands after"])
        index = rng.randrange(len(moves))
        if how == "duplicate":
            moves.insert(index, moves[index])
        elif how == "drop":
            del moves[index]
        elif how == "swap":
            other = rng.randrange(len(moves))
            moves[index], moves[other] = moves[other], moves[index]
        elif how == "cut":
            del moves[index:]
        elif how == "extend":
            moves.extend(rng.choice([["draw"], ["pass"], ["draw", "pass"], ["6-6@1"], ["give 1-0"], ["draw 6-6"]]))
        else:
            del hands[number + 1:]
            del moves[index:]
        return f"{how} move {index + 1} of hand {number + 1}"
    if kind == "tile":
        number = rng.randrange(len(hands))
        hand = hands[number]
        spots = [("deal", seat, i) for seat in range(len(hand["deal"])) for i in range(len(hand["deal"][seat]))]
        spots += [("stock", None, i) for i in range(len(hand.get("stock", [])))]
        spots += [("moves", None, i) for i in range(len(hand["moves"]))]
        where, seat, index = rng.choice(spots)
        text = rng.choice([*TILE_TEXTS, f"{rng.randrange(13)}-{rng.randrange(13)}",
                           f"{rng.randrange(10)}-{rng.randrange(10)}@{rng.randrange(1, 30)}"])
        (hand["deal"][seat] if where == "deal" else hand[where])[index] = text
        return f"hand {number + 1} {where} {seat} {index} = {text!r}"
    part = rng.choice(["variant", "options", "options", "players", "format", "seed", "meta"])
    if part == "variant":
        data["variant"] = rng.choice(VARIANT_NAMES)
        return f"variant = {data['variant']!r}"
    if part == "options":
        key, value = rng.choice(OPTION_KEYS), copy.deepcopy(rng.choice(OPTION_VALUES))
        data["options"] = dict(data["options"]) if isinstance(data.get("options"), dict) else {}
        data["options"][key] = value
        return f"options[{key!r}] = {_short(value)}"
    if part == "players":
        players = data["players"]
        how = rng.choice(["add", "drop", "weird", "same", "one", "many"])
        if how == "add":
            players.append("Zed")
        elif how == "drop":
            players.pop()
        elif how == "weird":
            players[rng.randrange(len(players))] = _weird(rng)
        elif how == "same":
            players[:] = [players[0]] * len(players)
        elif how == "one":
            players[:] = players[:1]
        else:
            players[:] = [f"P{i}" for i in range(rng.choice([5, 8, 11, 13, 100]))]
        return f"players: {how}"
    if part == "format":
        data["format"] = rng.choice(["boneyard/2", "boneyard/1 ", "BONEYARD/1", _weird(rng)])
        return f"format = {_short(data['format'])}"
    if part == "seed":
        data["seed"] = _weird(rng)
        return f"seed = {_short(data['seed'])}"
    data["meta"] = rng.choice([_weird(rng), {"human_seat": _weird(rng)}, {"ai": {"1": _weird(rng)}},
                               {"ai": _weird(rng)}, {"human_seat": 1, "ai": {"0": "random"}},
                               {"human_seat": 5, "ai": {"1": "nobody:x=1"}}])
    return f"meta = {_short(data['meta'])}"


def encoded(data: Any) -> bytes:
    """``data`` as a file holds it (a lone surrogate written as its JSON escape, as another tool could)."""
    return json.dumps(data).encode("ascii")


def mutate_bytes(raw: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One mutation of a record file's bytes, and what it did."""
    how = rng.choice(["cut", "cut", "flip", "not utf-8", "top level", "deep", "garbage", "bom", "nan", "digits",
                      "utf-16", "latin-1", "duplicate key", "trailing"])
    if how == "cut":
        at = rng.randrange(len(raw))
        return raw[:at], f"cut to {at} bytes"
    if how == "flip":
        changed = bytearray(raw)
        at = rng.randrange(len(changed))
        changed[at] = rng.randrange(256)
        return bytes(changed), f"byte {at} = {changed[at]}"
    if how == "not utf-8":
        at = rng.randrange(len(raw))
        return raw[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"]) + raw[at:], f"bad byte at {at}"
    if how == "top level":
        top = rng.choice([b"[]", b"null", b"1", b'"x"', b"true", b"[" + raw + b"]", b"", b" \n", b"1e999", b"NaN",
                          b"-Infinity", b"{}", b'{"format": "boneyard/1"}'])
        return top, f"the whole file is {top[:30]!r}"
    if how == "deep":
        depth = rng.choice([33, 100, 5000, 100_000])
        inner = rng.choice([b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth, b"[" * depth])
        return raw.replace(b'"players"', b'"deep": ' + inner + b', "players"', 1) if rng.random() < 0.5 else inner, \
            f"nested {depth} deep"
    if how == "garbage":
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))), "random bytes"
    if how == "bom":
        return b"\xef\xbb\xbf" + raw, "a byte order mark first"
    if how == "nan":
        return raw.replace(b'"players"', b'"x": NaN, "players"', 1), "NaN inside"
    if how == "digits":
        return raw.replace(b'"players"', b'"x": ' + b"9" * rng.choice([4301, 100_000]) + b', "players"', 1), \
            "a number of too many digits"
    if how == "utf-16":
        return raw.decode("ascii").encode("utf-16"), "UTF-16"
    if how == "latin-1":
        return raw.replace(b'"players": ["', b'"players": ["\xe9', 1), "a Latin-1 name"
    if how == "duplicate key":
        return raw.replace(b'"format"', b'"format": "boneyard/0", "format"', 1), "format twice"
    return raw + rng.choice([b" x", b"}", b"\x00", b"\n\n"]), "something after the object"


def mutated_records(seed: int, count: int, bases: list[tuple[str, Record]] = BASES) -> Iterator[tuple[Record, str]]:
    """``count`` records from the bases, each changed by one to three mutations."""
    rng = random.Random(seed)
    for _ in range(count):
        name, data = rng.choice(bases)
        said = [name]
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            data, what = mutate(data, rng)
            said.append(what)
        yield data, "; ".join(said)


def mutated_files(seed: int, count: int, bases: list[tuple[str, Record]] = BASES) -> Iterator[tuple[bytes, str]]:
    """``count`` record files: structural mutations, and a byte mutation for one in four."""
    rng = random.Random(seed)
    for data, said in mutated_records(seed, count, bases):
        raw = encoded(data)
        if rng.random() < 0.25:
            raw, what = mutate_bytes(raw, rng)
            said += f"; {what}"
        yield raw, said


# ---------------------------------------------------------------- checking an outcome

def _where(error: BaseException) -> str:
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if "/boneyard/" in frame.filename]
    frame = (frames or traceback.extract_tb(error.__traceback__))[-1]
    return f"{frame.filename.rsplit('/src/', 1)[-1]}:{frame.lineno}"


#: what names the place of a record's fault (RECORD.md: the hand, the move, the key), as every refusal begins
WHERE = re.compile(r"hand \d+|^record: |^format: |^variant: |^options: |^players|option|'[a-z_]+'")


def problem_of(consumer: str, work: Callable[[], Any], said: str, *,
               where: re.Pattern[str] | None = None) -> str | None:
    """Run ``work``: None where it succeeds or fails with a one-line BoneyardError (naming a place that ``where``
    finds, where given), else what went wrong."""
    SEEN[consumer] += 1
    try:
        work()
    except BoneyardError as error:
        text = str(error)
        if not text.strip() or len(text.splitlines()) != 1:
            return f"{consumer}: the message is not one line: {text[:300]!r} [{said}]"
        if where is not None and not where.search(text):
            return f"{consumer}: the message does not say where: {text[:300]!r} [{said}]"
    except Exception as error:  # the point: any other exception is a crash
        return f"{consumer}: {type(error).__name__} at {_where(error)}: {str(error)[:200]!r} [{said}]"
    return None


def no_problems(found: list[str | None]) -> None:
    problems = [item for item in found if item is not None]
    assert not problems, f"{len(problems)} crashes, first ones:\n" + "\n".join(problems[:10])


# ---------------------------------------------------------------- the Python API

def _api_consumers(text: str) -> list[tuple[str, Callable[[], Any]]]:
    from boneyard import player_stats
    from boneyard.review.worker import checked_request
    from boneyard.web.replayer import replay_steps

    def loaded() -> Record:
        return record.loads(text)

    def stats(player: str | None) -> None:
        counted = player_stats.Stats(player)
        counted.add(loaded(), "fuzz")
        counted.add(loaded(), "fuzz again")  # the same game twice: counted once
        json.dumps(counted.as_json())

    def seats() -> None:
        data = loaded()
        players = data.get("players")
        record.seat_levels(data, len(players) if isinstance(players, list) else 0)

    return [
        ("record.loads+replay", lambda: record.replay(loaded())),
        ("record.replay_json", lambda: json.dumps(record.replay_json(loaded()))),
        ("record.replay_text", lambda: record.replay_text(loaded())),
        ("record.annotations_of", lambda: record.annotations_of(loaded())),
        ("record.seat_levels", seats),
        ("web replay_steps", lambda: json.dumps(replay_steps(loaded()))),
        ("player_stats.Stats.add", lambda: stats(None)),
        ("player_stats.Stats.add --player", lambda: stats("Player 1")),
        ("review checked_request", lambda: checked_request(loaded(), None, None)),
    ]


def test_api_consumers_fail_cleanly_on_mutated_records() -> None:
    found = []
    for raw, said in mutated_files(seed=2801, count=700):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:  # a file that is not UTF-8: record.load's to read (the next test)
            continue
        for consumer, work in _api_consumers(text):
            found.append(problem_of(consumer, work, said, where=WHERE if consumer == "record.loads+replay" else None))
    no_problems(found)


def test_record_load_fails_cleanly_on_mutated_files(tmp_path: Path) -> None:
    found = []
    for number, (raw, said) in enumerate(mutated_files(seed=2802, count=300)):
        path = tmp_path / f"game-{number}.boneyard.json"
        path.write_bytes(raw)
        found.append(problem_of("record.load", lambda path=path: record.replay(record.load(path)), said,
                                where=re.compile(f"^{re.escape(str(path))}: |{WHERE.pattern}")))
    no_problems(found)


def test_checked_review_request_with_odd_seats_and_samples() -> None:
    from boneyard.review.worker import checked_request

    rng = random.Random(2803)
    found = []
    for data, said in mutated_records(seed=2803, count=150, bases=SMALL):
        seat, samples = _weird(rng), rng.choice([None, 2, 1, 0, -3, 10**30, 2.5, True, "3", [2]])
        found.append(problem_of("review checked_request (seat, samples)",
                                lambda d=data, s=seat, n=samples: checked_request(d, s, n),
                                f"{said}; seat {seat!r:.40}, samples {samples!r}"))
    no_problems(found)


def test_saving_over_a_damaged_record_keeps_going(tmp_path: Path) -> None:
    """``record.save`` reads the record already at the path (to keep its annotations): a damaged one must not
    stop the save, and what is written is the game's sound record."""
    found = []
    games = {name: record.replay(data) for name, data in SMALL}
    for number, (raw, said) in enumerate(mutated_files(seed=2804, count=120, bases=SMALL)):
        path = tmp_path / f"save-{number}.boneyard.json"
        path.write_bytes(raw)
        name = said.split(";")[0]
        found.append(problem_of("record.save over a damaged file",
                                lambda n=name, p=path: record.save(games[n], p), said))
        if found[-1] is None:
            assert record.replay(record.load(path)).scores == games[name].scores, said
        try:
            old = record.loads(raw.decode("utf-8"))
        except (ValueError, BoneyardError):
            continue
        fresh = record.to_record(games[name])
        found.append(problem_of("record.keep_annotations", lambda o=old, f=fresh: record.keep_annotations(o, f), said))
    no_problems(found)


@pytest.mark.parametrize("raw", [
    b"", b"\xff\xfe", b"[" * 100_000, b'{"a":' * 50_000, b"[]", b"null", b'"boneyard/1"', b"1e999", b"NaN",
    b'{"format": "boneyard/1", "variant": "block", "options": {}, "players": ["\\ud800", "B"], "hands": []}',
    b'{"format": "boneyard/1", "variant": "block", "options": {"target": 1e400}, "players": ["A", "B"], "hands": []}',
    b'{"format": "boneyard/1", "variant": "block", "options": {}, "players": ["A", "B"], "hands": [], "s": '
    + b"1" * 5000 + b"}",
    "\ufeff{}".encode(), "{}".encode("utf-16"), "{}".encode("utf-32"),
], ids=lambda raw: repr(raw[:24]))
def test_record_files_that_are_no_json_object(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "odd.boneyard.json"
    path.write_bytes(raw)
    no_problems([problem_of("record.load", lambda: record.replay(record.load(path)), repr(raw[:40]))])


# ---------------------------------------------------------------- the command line, in process

def _cli_problems(name: str, result: Any, said: str, *, lines_each: bool = False) -> list[str]:
    """What is wrong with a command's outcome; ``lines_each``: several lines on standard error, each its own
    ``boneyard: `` message (``stats`` says each file it skipped, then why it counts nothing)."""
    problems = []
    if result.exit_code not in (0, 2):
        problems.append(f"exit status {result.exit_code}")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        problems.append(f"{type(result.exception).__name__} at {_where(result.exception)}: "
                        f"{str(result.exception)[:200]!r}")
    if "Traceback" in result.stderr or "Traceback" in result.stdout:
        problems.append("a traceback")
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()  # (a refused resume does not note the record's unusable seed)
        if (len(lines) != 1 and not lines_each) or not lines or not all(line.startswith("boneyard: ")
                                                                          for line in lines):
            problems.append(f"standard error is not one 'boneyard: ' line: {result.stderr[-300:]!r}")
    return [f"{name}: {problem} [{said}]" for problem in problems]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    from typer.testing import CliRunner

    from boneyard.cli import app

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "100")
    runner = CliRunner()

    def invoke(*args: str, stdin: str | None = None) -> Any:
        SEEN[" ".join(arg for arg in args if arg == args[0] or arg.startswith("--"))] += 1
        return runner.invoke(app, list(args), input=stdin)

    return invoke


def test_cli_replay_and_resume_fail_cleanly_and_keep_a_refused_file(tmp_path: Path, cli: Callable[..., Any]) -> None:
    found: list[str] = []
    folder = tmp_path / "records"
    folder.mkdir()
    for number, (raw, said) in enumerate(mutated_files(seed=2805, count=110)):
        path = folder / f"game-{number:03}.boneyard.json"
        path.write_bytes(raw)
        for args in (["replay", str(path)], ["replay", str(path), "--json"]):
            result = cli(*args)
            found += _cli_problems(" ".join(args[::2]), result, said)
            if result.exit_code == 2:
                assert result.stdout == "", (args, said)
            elif result.exit_code == 0 and "--json" in args:
                json.loads(result.stdout)
        result = cli("play", "--resume", str(path), stdin="q\n")
        found += _cli_problems("play --resume", result, said)
        if result.exit_code != 0 and path.read_bytes() != raw:
            found.append(f"play --resume: the refused record was changed [{said}]")
        path.write_bytes(raw)  # (an accepted one is saved again as the game goes on: the next check reads the fuzz)
    for args in (["stats", str(folder)], ["stats", str(folder), "--json"],
                 ["stats", str(folder), "--json", "--player", "Player 1"], ["stats", str(folder), "--player", "you"]):
        found += _cli_problems(" ".join(args[:1] + args[2:]), cli(*args), "the folder of mutated records",
                               lines_each=True)
    assert not found, f"{len(found)} problems, first ones:\n" + "\n".join(found[:10])


def test_cli_review_fails_cleanly(tmp_path: Path, cli: Callable[..., Any]) -> None:
    found: list[str] = []
    for number, (raw, said) in enumerate(mutated_files(seed=2806, count=40, bases=SMALL)):
        path = tmp_path / f"review-{number}.boneyard.json"
        path.write_bytes(raw)
        found += _cli_problems("review", cli("review", str(path), "--samples", "2", "--no-open-hands"), said)
        if number % 4 == 0:
            written = tmp_path / f"written-{number}.boneyard.json"
            result = cli("review", str(path), "--samples", "2", "--no-open-hands", "--write", str(written), "--json")
            found += _cli_problems("review --write", result, said)
            if result.exit_code == 2:
                assert not written.exists(), said
            else:
                record.replay(record.load(written))
    assert not found, f"{len(found)} problems, first ones:\n" + "\n".join(found[:10])


def test_resume_of_a_refused_record_leaves_the_file_as_it_was(tmp_path: Path, cli: Callable[..., Any]) -> None:
    """Every refusal of ``play --resume``, including with --save naming another file that exists."""
    other = tmp_path / "other.boneyard.json"
    kept = record.dumps(SMALL[0][1]).encode()
    found: list[str] = []
    for number, (raw, said) in enumerate(mutated_files(seed=2807, count=60)):
        path = tmp_path / f"resume-{number}.boneyard.json"
        path.write_bytes(raw)
        other.write_bytes(kept)
        result = cli("play", "--resume", str(path), "--save", str(other), stdin="q\n")
        found += _cli_problems("play --resume --save", result, said)
        if result.exit_code == 2 and (path.read_bytes(), other.read_bytes()) != (raw, kept):
            found.append(f"play --resume --save: a refused resume changed a file [{said}]")
    assert not found, f"{len(found)} problems, first ones:\n" + "\n".join(found[:10])


# ---------------------------------------------------------------- the command line, as a user runs it

def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "boneyard", *args], capture_output=True, text=True, input=stdin,
                          timeout=120, env=env)


SUBPROCESS_FILES: list[tuple[str, bytes]] = [
    ("cut short", encoded(SMALL[0][1])[:150]),
    ("not UTF-8", encoded(SMALL[1][1]).replace(b'"players": ["', b'"players": ["\xff', 1)),
    ("nested deep", b"[" * 200_000),
    ("an illegal move", encoded({**SMALL[2][1], "hands": [{**SMALL[2][1]["hands"][0], "moves": ["6-6@7"]}]})),
    ("a lone surrogate", encoded({**SMALL[3][1], "players": ["\ud800", "B"]})),
]


@pytest.mark.parametrize(("name", "raw"), SUBPROCESS_FILES, ids=[name for name, _ in SUBPROCESS_FILES])
def test_subprocess_refuses_in_one_line_and_keeps_the_file(tmp_path: Path, name: str, raw: bytes) -> None:
    path = tmp_path / "bad.boneyard.json"
    path.write_bytes(raw)
    for args in (("replay", str(path)), ("replay", str(path), "--json"), ("play", "--resume", str(path))):
        SEEN["subprocess " + " ".join(arg for arg in args if arg == args[0] or arg.startswith("--"))] += 1
        done = _run(*args, stdin="q\n")
        assert (done.returncode, done.stdout) == (2, ""), (args, done.returncode, done.stdout[-300:], done.stderr)
        assert "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert path.read_bytes() == raw, args


# ---------------------------------------------------------------- the web server

@pytest.fixture
def web(tmp_path: Path) -> Callable[[], Any]:
    """A factory of test clients of one server's store (one at a time: a store takes one server)."""
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    from fastapi.testclient import TestClient

    from boneyard.web.app import create_app
    from boneyard.web.limits import Limits

    limits = Limits(games_per_minute=1e6, game_burst=10**6, max_computer_tables=10**6)
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    def client() -> Any:
        return TestClient(create_app(url, ai_delay=0, limits=limits), base_url="http://localhost",
                          raise_server_exceptions=False)

    return client


def _web_problem(what: str, response: Any, said: str) -> str | None:
    SEEN[what] += 1
    if response.status_code < 400:
        return None
    if response.status_code >= 500:
        return f"{what}: status {response.status_code}: {response.text[:300]} [{said}]"
    try:
        detail = response.json().get("detail")
    except ValueError:
        return f"{what}: {response.status_code} without a JSON detail: {response.text[:200]!r} [{said}]"
    if not isinstance(detail, str) or not detail.strip():
        return f"{what}: {response.status_code} without a message: {response.text[:200]!r} [{said}]"
    if len(detail.splitlines()) != 1:
        return f"{what}: the message is not one line: {detail[:300]!r} [{said}]"
    return None


def test_web_record_paths_answer_4xx_never_500(web: Callable[[], Any]) -> None:
    with web() as client:
        found, loaded = _post_mutated_records(client)
    with web() as again:  # every game stored is read back and replayed by a new server
        for game_id in loaded:
            for tail in ("", "/replay"):
                found.append(_web_problem("GET /api/games/ID after a restart", again.get(f"/api/games/{game_id}{tail}"),
                                          f"game {game_id}"))
        found.append(_web_problem("GET /api/games after a restart", again.get("/api/games?limit=1000"), "all"))
    no_problems(found)


def _post_mutated_records(client: Any) -> tuple[list[str | None], list[str]]:
    from boneyard.review.worker import checked_request

    found: list[str | None] = []
    loaded: list[str] = []
    headers = {"content-type": "application/json"}
    for raw, said in mutated_files(seed=2808, count=120):
        try:
            as_text = raw.decode("utf-8")
        except UnicodeDecodeError:
            as_text = None
        bodies = [(b'{"record": ' + raw + b"}", "record object"), (raw, "record as the body")]
        if as_text is not None:
            bodies.append((json.dumps({"record": as_text}).encode(), "record as JSON text"))
        for body, how in bodies:
            for url in ("/api/replay", "/api/records"):
                if url == "/api/records" and how == "record as the body":
                    continue
                response = client.post(url, content=body, headers=headers)
                found.append(_web_problem(f"POST {url}", response, f"{said}; {how}"))
                if url == "/api/records" and response.status_code == 201:
                    loaded.append(response.json()["id"])
                    for tail in ("", "/replay", "/table.svg"):
                        found.append(_web_problem(f"GET /api/games/ID{tail}",
                                                  client.get(f"/api/games/{loaded[-1]}{tail}"), said))
        try:  # a review is only asked for where the check refuses it (an accepted one starts a worker process)
            checked_request(record.loads(raw.decode("utf-8")), None, None)
        except BoneyardError:
            response = client.post("/api/review", content=b'{"record": ' + raw + b"}", headers=headers)
            found.append(_web_problem("POST /api/review", response, said))
        except Exception:  # not a JSON object at all (the API test says what checked_request does)
            pass
    found.append(_web_problem("GET /api/games", client.get("/api/games?limit=1000"), "every game loaded"))
    return found, loaded


# ---------------------------------------------------------------- what the audit found

def test_web_seed_refusal_is_one_line(web: Callable[[], Any]) -> None:
    data = copy.deepcopy(SMALL[0][1])
    data["seed"] = "1\n2\u202e"
    with web() as client:
        response = client.post("/api/records", json={"record": data})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert len(detail.splitlines()) == 1 and "\u202e" not in detail, detail
    assert detail == "the record's seed must be a whole number from 0 to 2^63 - 1, not \"1\\n2\\u202e\"", detail


def test_a_resume_refused_says_only_why_and_one_that_goes_on_notes_the_unusable_seed(
        tmp_path: Path, cli: Callable[..., Any]) -> None:
    """A record whose seed is no seed is played on from a new seed (RECORD.md: the seed is information only), with
    a note; where the resume is refused (``--save`` names another existing file), the refusal is the only line."""
    data = copy.deepcopy(SMALL[0][1])
    data["seed"] = "x"
    path, other = tmp_path / "game.boneyard.json", tmp_path / "other.boneyard.json"
    path.write_text(json.dumps(data))
    other.write_text("{}")
    refused = cli("play", "--resume", str(path), "--save", str(other), stdin="q\n")
    assert refused.exit_code == 2 and "note:" not in refused.stderr, refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and other.read_text() == "{}"
    played = cli("play", "--resume", str(path), stdin="q\n")
    assert played.exit_code == 0, played.stderr
    assert played.stderr.startswith(f"note: {path}'s seed \"x\" is not a whole number from 0 to 2^63 - 1"), \
        played.stderr


def test_record_loads_of_bytes_that_are_not_utf8_is_a_record_error() -> None:
    assert record.loads(b'{"format": "boneyard/1"}')["format"] == "boneyard/1"
    with pytest.raises(BoneyardError, match=r"not UTF-8 text \(byte 1 is b'\\xff'\)"):
        record.loads(b"\xff")


def test_how_many_mutated_records_each_consumer_saw() -> None:
    """Printed with ``-s``; run last in the file."""
    print("\nmutated records (or files) per consumer:")
    for consumer, count in sorted(SEEN.items()):
        print(f"  {count:5}  {consumer}")
