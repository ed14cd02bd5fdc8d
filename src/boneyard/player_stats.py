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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from boneyard import record
from boneyard.errors import BoneyardError
from boneyard.sim.stats import wilson

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

    def as_json(self) -> dict[str, Any]:
        low, high = wilson(self.won, self.games)
        return {"games": self.games, "won": self.won, "win_rate": self.won / self.games if self.games else None,
                "ci95": [round(low, 4), round(high, 4)], "unfinished": self.unfinished, "hands": self.hands,
                "hands_won": self.hands_won, "dominoes": self.dominoes,
                "points_per_hand": round(self.points / self.hands, 2) if self.hands else None}


@dataclass(slots=True)
class Stats:
    """Everything counted so far; :meth:`add` one record at a time."""

    player: str | None = None  #: the name to count (None: each record's human seat)
    records: int = 0  #: records read and counted as yours
    not_yours: int = 0  #: records read without your seat in them
    skipped: list[str] = field(default_factory=list)  #: "FILE: why" for each file that could not be read
    variants: dict[str, Tally] = field(default_factory=dict)
    against: dict[str, Tally] = field(default_factory=dict)
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))

    def seat_in(self, data: dict[str, Any], players: list[str]) -> int | None:
        """Your seat in a record: the named player's, else the human seat it names (None: not yours)."""
        if self.player is not None:
            wanted = self.player.casefold()
            return next((seat for seat, name in enumerate(players) if name.casefold() == wanted), None)
        return record.human_seat(data, len(players))

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
        self.records += 1
        rules = game.rules
        side = set(rules.score_seats(seat))
        tallies = [self.variants.setdefault(rules.name, Tally()),
                   self.against.setdefault(opponents(data, side, game.rules.players), Tally())]
        for tally in tallies:
            if game.finished:
                tally.games += 1
                tally.won += bool(side & set(rules.game_winners(game.winner, game.scores)))
            else:
                tally.unfinished += 1
        for number, log in enumerate(game.log):
            result = log.result
            if result is None:  # the hand being played when the record was saved
                continue
            after = game.log[number + 1].start_scores if number + 1 < len(game.log) else game.scores
            for tally in tallies:
                tally.hands += 1
                tally.hands_won += result.winner is not None and result.winner in side
                tally.dominoes += result.end == "domino" and result.winner in side
                tally.points += after[seat] - log.start_scores[seat]
        for log, hand_notes in zip(game.log, notes, strict=False):  # the review's marks of your moves
            for event, note in zip(log.events, hand_notes, strict=False):
                mark = note.get("mark") if note is not None else None
                if event.seat == seat and mark in self.marks:
                    self.marks[mark] += 1
        return True

    def as_json(self) -> dict[str, Any]:
        reviewed = sum(self.marks.values())
        return {"player": self.player, "records": self.records, "not_yours": self.not_yours,
                "skipped": list(self.skipped),
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
            names.add(level.split(":")[0] if isinstance(level, str) and level else "people")
    return " and ".join(sorted(names)) or "nobody"


def record_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Every record named, each once however often it is named (a file, and a folder holding it): files as given,
    folders searched for ``*.boneyard.json`` (sorted); a path that does not exist, or more than :data:`MAX_FILES`
    files, is a :class:`BoneyardError`."""
    count = 0
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found: Iterable[Path] = sorted(path.rglob("*.boneyard.json"))
        elif path.exists():
            found = [path]
        else:
            raise BoneyardError(f"{path}: no such file or folder")
        for file in found:
            same = file.resolve()
            if same in seen:
                continue
            seen.add(same)
            count += 1
            if count > MAX_FILES:
                raise BoneyardError(f"more than {MAX_FILES:,} records: name fewer files or folders")
            yield file


def collect(paths: Iterable[Path], player: str | None = None) -> Stats:
    """The statistics of every record under ``paths`` (unreadable files are listed in ``skipped``)."""
    stats = Stats(player)
    for file in record_files(paths):
        try:
            data = record.load(file)
        except BoneyardError as error:
            stats.skipped.append(str(error))
            continue
        stats.add(data, str(file))
    return stats


__all__ = ["MARKS", "Stats", "Tally", "collect", "opponents", "record_files"]
