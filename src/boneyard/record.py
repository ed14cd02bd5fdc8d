"""Game records, format ``boneyard/1`` (RECORD.md): write, read, replay.

A record holds the variant, its non-default options, the players, and per hand the deal, the
stock order, dice and chance leaders and the moves.  :func:`replay` rebuilds the :class:`Game`
move by move; the first illegal move is a :class:`RecordError` that names the hand, the move,
its text and the reason: ``hand 2, move 7 "5-3@4": tile 4 has no open 5 end``.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from boneyard import jsontext
from boneyard.errors import BoneyardError, IllegalMoveError, NotationError, RecordError
from boneyard.moves import Move
from boneyard.options import non_defaults, value_text
from boneyard.render.text import game_result_says, scoring_parts, winner_says
from boneyard.rules.base import make_rules
from boneyard.state import Dice, Game, HandLog, HandSetup, name_error
from boneyard.tiles import parse_tiles

FORMAT = "boneyard/1"


def to_record(game: Game, *, seed: int | None = None, meta: dict[str, Any] | None = None,
              annotations: list[list[Any]] | None = None) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready dict (finished or not).

    ``annotations`` (per hand, as :func:`annotations_of` reads them from the record being rewritten)
    are kept, cut to the moves each hand has."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "variant": game.rules.name,
        "options": non_defaults(game.rules.options),
        "players": list(game.names),
        "hands": [_hand_record(game, log) for log in game.log],
    }
    for hand, notes in zip(record["hands"], annotations or [], strict=False):
        kept = trimmed(notes[:len(hand["moves"])])
        if kept:
            hand["annotations"] = kept
    if seed is None and game.chance is not None:
        seed = game.chance.seed
    if seed is not None:
        record["seed"] = seed
    if meta:
        record["meta"] = meta
    return record


def _hand_record(game: Game, log: HandLog) -> dict[str, Any]:
    setup = log.setup
    hand: dict[str, Any] = {"deal": [[str(tile) for tile in tiles] for tiles in setup.deal]}
    if setup.stock:
        hand["stock"] = [str(tile) for tile in setup.stock]
    if setup.dice is not None:
        hand["dice"] = {"flower": list(setup.dice.flower), "scorpion": list(setup.dice.scorpion)}
    if setup.leader is not None:
        hand["leader"] = setup.leader
    hand["moves"] = [str(event.move) for event in log.events]
    return hand


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False) + "\n"


def save(game: Game, path: str | os.PathLike[str], *, kept_from: dict[str, Any] | None = None,
         **kwargs: Any) -> Path:
    """Write ``game``'s record atomically (a crash never leaves half a file).

    The annotations of ``kept_from`` (the record the game was resumed from), or else of the record already at
    ``path``, are kept for the moves the two records share (:func:`keep_annotations`)."""
    target = Path(path)
    data = to_record(game, **kwargs)
    if "annotations" not in kwargs:
        if kept_from is None and target.is_file():
            try:
                kept_from = load(target)
            except RecordError:
                kept_from = None
        if kept_from is not None:
            keep_annotations(kept_from, data)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(target, dumps(data))
    return target


def write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` through a temporary file beside it, flushed to the disk before it replaces
    the old one: a crash never leaves half a file.  A link is followed (the file it names is rewritten), and
    the file keeps its permissions (a new one gets the usual ones, as ``open`` would give it)."""
    target = Path(os.path.realpath(target))
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's file mode mask, read without setting it (``os.umask`` would, for every thread at once)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def keep_annotations(old: dict[str, Any], data: dict[str, Any]) -> None:
    """Copy into the record ``data`` the annotations of the record ``old``, hand by hand where the deal is the
    same, for the moves both records share from the start (tiles and moves compared as the game reads them, so
    ``2-6`` is ``6-2``).  An ``old`` whose annotations are malformed gives nothing."""
    try:
        notes = annotations_of(old)
    except RecordError:
        return
    for old_hand, hand, hand_notes in zip(old.get("hands", []), data["hands"], notes, strict=False):
        moves = old_hand.get("moves") if hand_notes else None  # (a hand with notes is an object)
        if not isinstance(moves, list) or _canonical_deal(old_hand.get("deal")) != hand["deal"]:
            continue
        shared = 0
        for before, now in zip(moves, hand["moves"], strict=False):
            if _canonical_move(before) != now:
                break
            shared += 1
        kept = trimmed(hand_notes[:shared])
        if kept:
            hand["annotations"] = kept


def _canonical_deal(deal: Any) -> Any:
    if not isinstance(deal, list):
        return None
    try:
        return [[str(tile) for tile in parse_tiles(seat, "deal")] for seat in deal]
    except (NotationError, TypeError):
        return None


def _canonical_move(text: Any) -> Any:
    try:
        return str(Move.parse(text))
    except NotationError:
        return None


def trimmed(notes: list[Any]) -> list[Any]:
    """Per-move annotations without the ``null`` ones at the end (the moves after them are not annotated)."""
    kept = list(notes)
    while kept and kept[-1] is None:
        kept.pop()
    return kept


#: the largest file read as a record (a long PIP game with annotations is well under a megabyte)
MAX_RECORD_BYTES = 64 * 1024 * 1024


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a record file; a missing file, a device or a file too large to be a record, or bad JSON is a
    :class:`RecordError`."""
    source = Path(path)
    try:
        if source.exists() and not source.is_file():
            raise RecordError(f"{path}: not a regular file, so not a record")
        with source.open("rb") as stream:
            data = stream.read(MAX_RECORD_BYTES + 1)
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(f"{path}: over {MAX_RECORD_BYTES // 2**20} MiB, too large to be a game record")
        text = data.decode("utf-8")
    except OSError as error:
        raise RecordError(f"{path}: cannot read the record ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: the record is not UTF-8 text") from None
    return loads(text, str(path))


def loads(text: str | bytes, where: str = "record") -> dict[str, Any]:
    try:
        record = jsontext.loads(text)
    except (jsontext.JSONDepthError, jsontext.JSONValueError) as error:
        raise RecordError(f"{where}: {error}") from None
    except json.JSONDecodeError as error:
        if not error.doc.strip():
            raise RecordError(f"{where}: empty, so not a record (a record is a JSON object, docs/record.md)") from None
        ended = error.pos >= len(error.doc.rstrip()) or error.msg.startswith("Unterminated string")
        cut = " — the text ends there: was the file cut short?" if ended else ""
        raise RecordError(f"{where}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}){cut}"
                          ) from None
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record is a JSON object, not {type(record).__name__}")
    return record


def _require(mapping: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in mapping:
        raise RecordError(f"{where}missing key {key!r}")
    value = mapping[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"{where}{key!r} must be {_article(names)}, got {json.dumps(value)[:40]}")
    return value


def _article(name: str) -> str:
    words = {"list": "a list", "dict": "an object", "str": "a string", "int": "an integer"}
    return " or ".join(words.get(part, part) for part in name.split(" or "))


def new_game_from(record: dict[str, Any]) -> Game:
    """The game a record describes, before any hand (checks header keys)."""
    if not isinstance(record, dict):
        raise RecordError("the record is not a JSON object")
    fmt = record.get("format")
    if fmt != FORMAT:
        raise RecordError(f"format: expected \"{FORMAT}\", got {json.dumps(fmt)}")
    variant = _require(record, "variant", str, "")
    options = _require(record, "options", dict, "")
    players = _require(record, "players", list, "")
    _require(record, "hands", list, "")
    for seat, name in enumerate(players):
        if (wrong := name_error(name)) is not None:
            raise RecordError(f"players, seat {seat}: {wrong}")
    try:
        rules = make_rules(variant, len(players), options)
    except BoneyardError as error:
        raise RecordError(f"{_where_header(error)}{error}") from None
    return Game(rules, players)


def _where_header(error: BoneyardError) -> str:
    text = str(error)
    if text.startswith(("unknown variant", "unknown option", "option ")):
        return "variant: " if text.startswith("unknown variant") else "options: "
    return "players: " if " players" in text else ""


def _setup(game: Game, hand: Any, number: int) -> HandSetup:
    where = f"hand {number}: "
    if not isinstance(hand, dict):
        raise RecordError(f"hand {number}: a hand is a JSON object")
    deal_text = _require(hand, "deal", list, where)
    try:
        deal = [parse_tiles(tiles, f"seat {seat}") for seat, tiles in enumerate(deal_text)]
        stock = parse_tiles(hand.get("stock", []), "stock")
    except NotationError as error:
        raise RecordError(f"{where}deal: {error}") from None
    _require(hand, "moves", list, where)
    if "stock" not in hand:
        undealt = len(game.rules.tile_set()) - sum(len(tiles) for tiles in deal)
        if undealt > 0:
            raise RecordError(f"{where}missing key 'stock' ({undealt} tiles were not dealt)")
    dice = None
    if "dice" in hand:
        dice = _dice(hand["dice"], where)
    elif game.rules.uses_dice:
        raise RecordError(f"{where}missing key 'dice' ({game.rules.name} rolls two pairs every hand)")
    leader = hand.get("leader")
    if leader is not None and (isinstance(leader, bool) or not isinstance(leader, int)):
        raise RecordError(f"{where}'leader' must be a seat number, got {json.dumps(leader)}")
    return HandSetup(deal, stock, leader, dice)


def _dice(value: Any, where: str) -> Dice:
    if not isinstance(value, dict) or set(value) != {"flower", "scorpion"}:
        raise RecordError(f"{where}'dice' must be {{\"flower\": [a, b], \"scorpion\": [c, d]}}")
    pairs = []
    for name in ("flower", "scorpion"):
        pair = value[name]
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in pair)):
            raise RecordError(f"{where}dice {name}: expected two die faces 1-6, got {json.dumps(pair)}")
        pairs.append((pair[0], pair[1]))
    return Dice(pairs[0], pairs[1])


def annotations_of(record: dict[str, Any]) -> list[list[dict[str, Any] | None]]:
    """Per hand, the record's optional per-move ``annotations`` (RECORD.md), checked: a list no longer
    than the hand's moves, each element ``null`` or an object.  Hands without them give ``[]``."""
    hands = record.get("hands")
    return [_hand_annotations(hand, number) for number, hand in enumerate(hands if isinstance(hands, list) else [], 1)]


def human_seat(record: dict[str, Any], players: int) -> int | None:
    """The seat a record's ``meta.human_seat`` names (the terminal writes it), where a game of ``players`` has that
    seat; None otherwise (``meta`` is information only: a seat the game does not have is no human's seat)."""
    meta = record.get("meta")
    seat = meta.get("human_seat") if isinstance(meta, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players else None


def seat_levels(record: dict[str, Any], players: int) -> tuple[int, dict[int, str]]:
    """The seat a record's person plays (``meta.human_seat``; seat 0 where it names none) and each other seat's
    computer level as ``meta.ai`` gives it (greedy where it gives none): what the terminal and the web table write."""
    named = human_seat(record, players)
    human = 0 if named is None else named
    meta = record.get("meta")
    stored = meta.get("ai") if isinstance(meta, dict) else None
    given = stored if isinstance(stored, dict) else {}
    return human, {seat: str(given.get(str(seat), "greedy")) for seat in range(players) if seat != human}


def _hand_annotations(hand: Any, number: int) -> list[dict[str, Any] | None]:
    notes = hand.get("annotations", []) if isinstance(hand, dict) else []
    moves = hand.get("moves") if isinstance(hand, dict) else None
    where = f"hand {number}: 'annotations'"
    if not isinstance(notes, list) or not all(note is None or isinstance(note, dict) for note in notes):
        raise RecordError(f"{where} must be a list of objects or nulls, one per move")
    if isinstance(moves, list) and len(notes) > len(moves):
        raise RecordError(f"{where} has {len(notes)} entries for {len(moves)} moves")
    return notes


def _quoted(text: Any) -> str:
    """A move of the record as an error names it: ``"5-3@4"``, cut short if it is long (bad input may be)."""
    shown = json.dumps(text)
    return shown if len(shown) <= 40 else f"{shown[:32]}…"


def replay(record: dict[str, Any]) -> Game:
    """Rebuild the game of ``record``; raises :class:`RecordError` at the first problem."""
    game = new_game_from(record)
    for number, hand in enumerate(record["hands"], 1):
        if game.finished:
            raise RecordError(f"hand {number}: the game was already over after hand {number - 1}")
        if game.in_hand:
            raise RecordError(f"hand {number}: hand {number - 1} is not over, so no new hand may start")
        setup = _setup(game, hand, number)
        _hand_annotations(hand, number)
        try:
            game.start_hand(setup)
        except BoneyardError as error:
            raise RecordError(f"hand {number}: {error}") from None
        for index, text in enumerate(hand["moves"], 1):
            if not isinstance(text, str):
                raise RecordError(f"{_move_at(number, index, text)}: a move must be a string")
            try:
                move = Move.parse(text)
            except NotationError as error:
                raise RecordError(f"{_move_at(number, index, text)}: {error}") from None
            if not game.in_hand:
                over = "game" if game.finished else "hand"
                raise RecordError(f"{_move_at(number, index, text)}: the {over} is over")
            try:
                game.apply(move)
            except IllegalMoveError as error:
                raise RecordError(f"{_move_at(number, index, text)}: {error.reason}") from None
    return game


def _move_at(hand: int, move: int, text: Any) -> str:
    """Where an error is, as RECORD.md names it: ``hand 2, move 7 "5-3@4"``."""
    return f"hand {hand}, move {move} {_quoted(text)}"


def replay_json(record: dict[str, Any]) -> dict[str, Any]:
    """The ``boneyard replay --json`` object of RECORD.md; an annotated move's event has an ``annotation``."""
    result = game_json(replay(record))
    for hand, notes in zip(result["hands"], annotations_of(record), strict=False):
        for event, note in zip(hand["events"], notes, strict=False):
            if note is not None:
                event["annotation"] = note
    return result


def game_json(game: Game) -> dict[str, Any]:
    hands = []
    for log in game.log:
        result = log.result
        scores = _scores_after(game, log)
        hands.append({
            "leader": log.leader,
            "events": [
                {"seat": e.seat, "move": str(e.move), "points": e.points,
                 "scoring": [{"name": item.name, "points": item.points} for item in e.scoring]}
                for e in log.events
            ],
            "end": result.end if result else "unfinished",
            "winner": result.winner if result else None,
            "hand_points": list(result.hand_points) if result else [0] * game.players,
            "totals": scores,
        })
    return {
        "variant": game.rules.name,
        "players": list(game.names),
        "hands": hands,
        "finished": game.finished,
        "winner": game.winner,
        "totals": list(game.scores),
    }


def _scores_after(game: Game, log: HandLog) -> list[int]:
    if log is game.log[-1]:
        return list(game.scores)
    return list(game.log[log.number].start_scores)


def replay_text(record: dict[str, Any]) -> str:
    """A replay for a person to read."""
    game = replay(record)
    notes = annotations_of(record)
    names = game.names
    lines = [f"{game.rules.title} — {', '.join(names)}"]
    options = non_defaults(game.rules.options)
    if options:
        lines.append("Options: " + ", ".join(f"{k}={value_text(v)}" for k, v in options.items()))
    width = min(24, max(12, *(len(name) for name in names)))  # the moves start in one column (names up to 24)
    for log in game.log:
        lines.append("")
        first = log.events[0].seat if log.events else log.leader
        if first == log.leader:
            lines.append(f"Hand {log.number} — {_says(names[log.leader], 'lead')}")
        else:  # the duty passed on (Double Bergen's double to set, PIP's starter search)
            lines.append(f"Hand {log.number} — {_says(names[first], 'place')} the first tile "
                         f"({names[log.leader]} was to lead)")
        if log.setup.dice is not None:
            dice = log.setup.dice
            lines.append(f"  Flower {dice.flower[0]}-{dice.flower[1]}, scorpion {dice.scorpion[0]}-{dice.scorpion[1]}")
        for seat, tiles in enumerate(log.setup.deal):
            lines.append(f"  {names[seat]}: {' '.join(str(t) for t in tiles)}")
        if log.setup_draws:  # nobody was dealt a starting tile (Double Bergen, PIP)
            lines.append("  Drawn in turn for a starting tile: "
                         + ", ".join(f"{names[seat]} {tile}" for seat, tile in log.setup_draws))
        for number, event in enumerate(log.events, 1):
            text = f"  {number:3}. {names[event.seat]:<{width}} {event.move}"
            if event.scoring:
                text += f"   {', '.join(scoring_parts(event, game.rules.points_limit))} = {event.points:+d}"
            lines.append(text)
            hand_notes = notes[log.number - 1] if log.number <= len(notes) else []
            note = hand_notes[number - 1] if number <= len(hand_notes) else None
            if note is not None:
                lines.append("         " + annotation_text(note, str(event.move)))
        result = log.result
        if result is None:
            lines.append("  (hand in progress)")
            continue
        who = winner_says(game, result.winner, "win") if result.winner is not None else "nobody wins"
        head = (f"  {result.end}: {who} the hand" if result.end != "unfinished"
                else "  the game was won during the hand, which stops there")
        gained = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(result.hand_points) if p)
        lines.append(head + (f"; {gained}" if gained else ""))
        totals = _scores_after(game, log)
        lines.append("  Totals: " + ", ".join(f"{names[s]} {score}" for s, score in enumerate(totals)))
    lines.append("")
    if game.finished:
        lines.append(f"Game over: {game_result_says(game)} — "
                     + ", ".join(f"{names[s]} {score}" for s, score in enumerate(game.scores)))
    else:
        lines.append("Game not finished: " + ", ".join(f"{names[s]} {score}" for s, score in enumerate(game.scores)))
    return "\n".join(lines)


def _says(name: str, verb: str) -> str:
    """``Ann leads``, ``You lead``: the verb agrees with the name (a terminal game's player is "You")."""
    return f"{name} {verb}" if name.casefold() == "you" else f"{name} {verb}s"


def _signed(number: float) -> str:
    """An annotation's number as ``+2.5``; one no game could reach (a record is free text) is not formatted."""
    return f"{number:+.1f}" if abs(number) < 1e15 else "(a number too large to show)"


def annotation_text(note: dict[str, Any], move: str = "") -> str:
    """One move's annotation in words, on one line: mark, value, the better move (unless it is ``move``),
    hindsight, comment.  Text from another tool has its line breaks folded into spaces, so it cannot pass for
    a move line; a number is an int or a float (never ``true``)."""
    parts = []
    if "mark" in note:
        parts.append(_one_line(note["mark"]))
    if _is_number(note.get("value")):
        parts.append(f"value {_signed(note['value'])}")
    if "best" in note and note["best"] != move:
        best = f"best {_one_line(note['best'])}"
        if _is_number(note.get("best_value")):
            best += f" {_signed(note['best_value'])}"
        interval = note.get("interval")
        if isinstance(interval, list) and len(interval) == 2 and all(_is_number(x) for x in interval):
            best += f" (difference {_signed(interval[0])} to {_signed(interval[1])})"
        parts.append(best)
    if _is_number(note.get("open_hands")):
        parts.append(f"open hands (hindsight) {_signed(note['open_hands'])}")
    if note.get("comment"):
        parts.append(_one_line(note["comment"]))
    return "» " + "; ".join(parts)


def _one_line(value: object) -> str:
    return " ".join(str(value).split())


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


__all__ = ["FORMAT", "annotation_text", "annotations_of", "dumps", "game_json", "human_seat", "keep_annotations",
           "load", "loads", "replay", "replay_json", "replay_text", "save", "to_record", "trimmed", "write_atomically"]
