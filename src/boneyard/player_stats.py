"""A player's statistics over saved game records (``boneyard stats``).

Every record is replayed (:func:`boneyard.record.replay`), so what is counted is what the rules make of
the moves, never what a file claims.  "You" in a record is the seat named with ``--player`` (by its name
in ``players``) or else the human seat the terminal wrote (``meta.human_seat``); a record with neither —
a game of computers, or a web download without ``--player`` — is not yours and is only counted as such.
With partners, a game or hand won by your side counts as yours.

Per variant: games finished, won and the win rate with its 95% Wilson interval, unfinished games,
hands played, hands your side won, hands ended by you or your partner playing out (domino) and your
points per hand (penalty points in PIP, where the lowest score wins).  Per opponent (the computers'
levels from ``meta.ai``, else "people"): games and wins.  Where a record carries a review
(annotations with a ``mark``, ``boneyard review --write``), your reviewed decisions: how many were
marked best, and the inaccuracies, mistakes and blunders.

A game is counted once however many records hold it: a copy, the reviewed copy ``boneyard review --write``
makes, or the earlier part of a game saved on under another name (``s FILE`` at the terminal, ``play --resume
A --save B``) is the same deal with the same moves, or the first of them; the longest record is counted, with
the review's marks of every copy, each decision once (:attr:`Stats.duplicates` says how many were left out).

>>> from boneyard import record
>>> import boneyard
>>> game = boneyard.new_game("block", 2, seed=1, names=["Ann", "Computer 1 (greedy)"])
>>> while not game.finished:
...     _ = game.apply(game.legal_moves()[0]) if game.in_hand else game.next_hand()
>>> data = record.to_record(game, meta={"human_seat": 0, "ai": {"1": "greedy"}})
>>> stats = Stats()
>>> stats.add(data, "ann.boneyard.json")
True
>>> stats.variants["block"].games, stats.against["greedy"].games
(1, 1)
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final

from boneyard import record
from boneyard.errors import BoneyardError
from boneyard.options import non_defaults
from boneyard.sim.stats import wilson
from boneyard.state import Game

#: the review's marks, best first (docs/review.md)
MARKS: Final = ("best", "inaccuracy", "mistake", "blunder")
#: the most record files one run reads (a folder of a million files is a mistake, not a history)
MAX_FILES: Final = 100_000


@dataclass(slots=True)
class Tally:
    """Counts over the games of one variant or one opponent."""

    games: int = 0  #: finished games
    won: int = 0
    unfinished: int = 0
    hands: int = 0  #: hands over (played out, blocked, or cut short by the game's end)
    hands_won: int = 0
    dominoes: int = 0  #: hands your side ended by playing its last tile
    points: int = 0  #: your points (or penalty points) over those hands

    def add(self, other: Tally, sign: int = 1) -> None:
        """Add (``sign`` -1: take away) the counts of ``other``."""
        for name in TALLY_FIELDS:
            setattr(self, name, getattr(self, name) + sign * getattr(other, name))

    def __bool__(self) -> bool:
        return bool(self.games or self.unfinished or self.hands)

    def as_json(self) -> dict[str, Any]:
        low, high = wilson(self.won, self.games)
        return {"games": self.games, "won": self.won, "win_rate": self.won / self.games if self.games else None,
                "ci95": [round(low, 4), round(high, 4)], "unfinished": self.unfinished, "hands": self.hands,
                "hands_won": self.hands_won, "dominoes": self.dominoes,
                "points_per_hand": round(self.points / self.hands, 2) if self.hands else None}


TALLY_FIELDS: Final = tuple(spec.name for spec in fields(Tally))

#: what separates the hands, and the moves, of a game's line (:func:`game_line`): no JSON text holds them unescaped
_HAND, _MOVE = "\x1d", "\x1f"


def game_line(game: Game, seat: int) -> tuple[bytes, str]:
    """What identifies a replayed game counted for ``seat``: a key shared by every record of it (the variant, its
    options, the players, the seat and the first hand's deal) and its whole line as text (each hand's deal, stock,
    dice and leader, then its moves, as the game reads them: a record of its earlier part is the start of it)."""
    rules = game.rules
    header = json.dumps([rules.name, non_defaults(rules.options), list(game.names), seat], sort_keys=True,
                        default=str)
    parts = [header]
    for log in game.log:
        setup = log.setup
        dice = None if setup.dice is None else [list(setup.dice.flower), list(setup.dice.scorpion)]
        parts.append(_HAND + json.dumps([sorted(str(tile) for tile in hand) for hand in setup.deal],
                                        default=str) + json.dumps([[str(tile) for tile in setup.stock], dice,
                                                                   log.leader], default=str))
        parts.extend(_MOVE + str(event.move) for event in log.events)
    key = hashlib.blake2b("".join(parts[:2]).encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return key, "".join(parts)


def starts(line: str, part: str) -> bool:
    """Whether the game ``part`` is ``line`` or its start (cut between two moves or two hands)."""
    return line.startswith(part) and (len(line) == len(part) or line[len(part)] in (_HAND, _MOVE))


@dataclass(slots=True)
class Counted:
    """One game as counted: its share of the tallies, kept so that a longer record of the same game replaces it."""

    line: bytes  #: :func:`game_line`'s text, compressed
    variant: str
    against: str
    tally: Tally
    marks: dict[tuple[int, int], str]  #: the review's mark of each of your decisions, by (hand, move)

    def text(self) -> str:
        return zlib.decompress(self.line).decode("utf-8", "surrogatepass")


@dataclass(slots=True)
class Stats:
    """Everything counted so far; :meth:`add` one record at a time."""

    player: str | None = None  #: the name to count (None: each record's human seat)
    records: int = 0  #: games counted as yours (each once, however many records hold it)
    not_yours: int = 0  #: records read without your seat in them
    duplicates: int = 0  #: records of a game already counted (a copy, or its earlier part), not counted again
    skipped: list[str] = field(default_factory=list)  #: "FILE: why" for each file that could not be read
    variants: dict[str, Tally] = field(default_factory=dict)
    against: dict[str, Tally] = field(default_factory=dict)
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))
    games: dict[bytes, list[Counted]] = field(default_factory=dict, repr=False)  #: the games counted, by key

    def seat_in(self, data: dict[str, Any], players: list[str]) -> int | None:
        """Your seat in a record: the named player's, else the human seat it names (None: not yours).  Where
        several seats bear the name, the human seat is yours if it is one of them, and otherwise none is."""
        human = record.human_seat(data, len(players))
        if self.player is not None:
            wanted = self.player.casefold()
            named = [seat for seat, name in enumerate(players) if name.casefold() == wanted]
            return named[0] if len(named) == 1 else human if human in named else None
        return human

    def add(self, data: dict[str, Any], where: str) -> bool:
        """Count one record; False (and the reason kept in :attr:`skipped`) where it cannot be replayed."""
        try:
            game = record.replay(data)
            notes = record.annotations_of(data)
        except BoneyardError as error:
            self.skipped.append(f"{where}: {error}")
            return False
        seat = self.seat_in(data, list(game.names))
        if seat is None:
            self.not_yours += 1
            return True
        rules = game.rules
        side = set(rules.score_seats(seat))
        tally = Tally()
        if game.finished:
            tally.games = 1
            tally.won = int(bool(side & set(rules.game_winners(game.winner, game.scores))))
        else:
            tally.unfinished = 1
        for number, log in enumerate(game.log):
            result = log.result
            if result is None:  # the hand being played when the record was saved
                continue
            after = game.log[number + 1].start_scores if number + 1 < len(game.log) else game.scores
            tally.hands += 1
            tally.hands_won += result.winner is not None and result.winner in side
            tally.dominoes += result.end == "domino" and result.winner in side
            tally.points += after[seat] - log.start_scores[seat]
        marks: dict[tuple[int, int], str] = {}
        for number, (log, hand_notes) in enumerate(zip(game.log, notes, strict=False)):  # the marks of your moves
            for index, (event, note) in enumerate(zip(log.events, hand_notes, strict=False)):
                mark = note.get("mark") if note is not None else None
                if event.seat == seat and isinstance(mark, str) and mark in self.marks:
                    marks[(number, index)] = mark
        key, line = game_line(game, seat)
        same = self.games.setdefault(key, []) if game.log else []  # (a game not dealt yet is like no other)
        for kept in same:
            if starts(kept.text(), line):  # a copy of a game counted, or its earlier part: its marks only
                self._count(kept, -1)
                kept.marks = marks | kept.marks
                self._count(kept, 1)
                self.duplicates += 1
                return True
        counted = Counted(zlib.compress(line.encode("utf-8", "surrogatepass")), rules.name,
                          opponents(data, side, rules.players), tally, marks)
        for kept in same:
            if starts(line, kept.text()):  # this record goes on from a game counted: it replaces it
                self._count(kept, -1)
                same.remove(kept)
                counted.marks = kept.marks | marks
                self.duplicates += 1
                break
        same.append(counted)
        self._count(counted, 1)
        return True

    def _count(self, game: Counted, sign: int) -> None:
        """Add one game to the tallies (``sign`` -1: take it away again)."""
        self.records += sign
        for tallies, name in ((self.variants, game.variant), (self.against, game.against)):
            tally = tallies.setdefault(name, Tally())
            tally.add(game.tally, sign)
            if not tally:
                del tallies[name]
        for mark in game.marks.values():
            self.marks[mark] += sign

    def as_json(self) -> dict[str, Any]:
        reviewed = sum(self.marks.values())
        return {"player": self.player, "records": self.records, "not_yours": self.not_yours,
                "duplicates": self.duplicates, "skipped": list(self.skipped),
                "variants": {name: tally.as_json() for name, tally in sorted(self.variants.items())},
                "against": {name: tally.as_json() for name, tally in sorted(self.against.items())},
                "review": {"decisions": reviewed, **self.marks,
                           "accuracy": round(self.marks["best"] / reviewed, 4) if reviewed else None}}


def opponents(data: dict[str, Any], side: set[int], players: int) -> str:
    """Who the other side was: the computers' levels (``meta.ai``, by seat), "people" for seats without one."""
    meta = data.get("meta")
    levels = meta.get("ai") if isinstance(meta, dict) else None
    levels = levels if isinstance(levels, dict) else {}
    names = set()
    for seat in range(players):
        if seat not in side:
            level = levels.get(str(seat))
            name = level.partition(":")[0].strip().lower() if isinstance(level, str) else ""
            names.add(name or "people")  # a level as make_player reads it: "Greedy" and "expert:time=1" are levels
    return " and ".join(sorted(names)) or "nobody"


def record_files(paths: Iterable[Path], notes: list[str] | None = None) -> Iterator[Path]:
    """Every record named, each once however often it is named (a file, and a folder holding it): files as given,
    folders searched for ``*.boneyard.json`` (sorted); a path that does not exist, or more than :data:`MAX_FILES`
    files, is a :class:`BoneyardError`.  A folder inside that cannot be read, or a link to a folder (not followed,
    so that no loop of links is walked for ever), is said in ``notes`` as ``"FOLDER: why"``."""
    count = 0
    seen: set[str] = set()
    for path in paths:
        if path.is_dir():
            found: Iterable[Path] = _records_under(path, notes if notes is not None else [])
        elif path.exists() or path.is_symlink():
            found = [path]  # (a link to nowhere, or a loop of links, is named when it cannot be read)
        else:
            raise BoneyardError(f"{path}: no such file or folder")
        for file in found:
            same = os.path.realpath(file)  # (never an error: a loop of links resolves to itself)
            if same in seen:
                continue
            seen.add(same)
            count += 1
            if count > MAX_FILES:
                raise BoneyardError(f"more than {MAX_FILES:,} records: name fewer files or folders")
            yield file


def _records_under(folder: Path, notes: list[str]) -> list[Path]:
    """The ``*.boneyard.json`` files under ``folder``, sorted; what could not be searched said in ``notes``."""
    def unreadable(error: OSError) -> None:
        notes.append(f"{error.filename}: cannot read the folder ({error.strerror or error})")

    found: list[Path] = []
    for top, folders, files in os.walk(folder, onerror=unreadable):
        for name in sorted(folders):
            if os.path.islink(os.path.join(top, name)):
                notes.append(f"{os.path.join(top, name)}: a link to a folder, not followed (name it to count it)")
        # (a folder so named is named too, as no record: it is searched like any other)
        found.extend(Path(top, name) for name in folders + files if name.endswith(".boneyard.json"))
        if len(found) > MAX_FILES:
            break
    return sorted(found)


def collect(paths: Iterable[Path], player: str | None = None) -> Stats:
    """The statistics of every record under ``paths`` (unreadable files are listed in ``skipped``)."""
    stats = Stats(player)
    for file in record_files(paths, stats.skipped):
        try:
            data = record.load(file)
        except BoneyardError as error:
            stats.skipped.append(str(error))
            continue
        stats.add(data, str(file))
    return stats


__all__ = ["MARKS", "Counted", "Stats", "Tally", "collect", "game_line", "opponents", "record_files"]
