"""The terminal's menu of games: ``boneyard play`` with no variant, at a terminal, asks which game to play (or
which unfinished saved game to resume) instead of refusing.

Nothing here knows a rule: the variants, their titles and player counts come from the registry, and a saved game
is read and replayed by :mod:`boneyard.record`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from boneyard import record
from boneyard.errors import BoneyardError
from boneyard.rules.base import VARIANTS, Rules, assigned_options, find_variant, make_rules
from boneyard.state import Game
from boneyard.terminal import typed_line

#: the game Enter chooses (the README's first game)
DEFAULT_VARIANT = "all-fives"
#: how many of the newest records in the folder are read for unfinished games, and how many of those are offered
LOOKED_AT, OFFERED = 20, 3


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game in the saved-games folder, offered to resume."""

    path: Path
    game: Game
    #: when the file was last written (seconds since the epoch)
    saved: float

    def text(self, now: float) -> str:
        """``Block dominoes, hand 3: You 45, Computer 1 (greedy) 62 — 5 minutes ago (20261130-004731-block)``."""
        game = self.game
        scores = ", ".join(f"{name} {score}" for name, score in zip(game.names, game.scores, strict=True))
        name = self.path.name.removesuffix(".boneyard.json")
        return f"{game.rules.title}, hand {len(game.log)}: {scores} — {age_text(now - self.saved)} ({name})"


def age_text(seconds: float) -> str:
    """How long ago, in the largest whole unit: ``just now``, ``5 minutes ago``, ``1 day ago``."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        count = int(seconds // size)
        if count >= 1:
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"


def unfinished_games(folder: Path, most: int = OFFERED, looked_at: int = LOOKED_AT) -> list[SavedGame]:
    """The newest unfinished games saved in ``folder``, newest first: at most ``most``, found among its
    ``looked_at`` newest records (a file that is not a record that replays, or a finished game, is passed over)."""
    dated: list[tuple[float, Path]] = []
    try:
        for path in folder.glob("*.boneyard.json"):
            try:
                dated.append((path.stat().st_mtime, path))
            except OSError:  # gone meanwhile, a broken link
                continue
    except OSError:  # no folder, not readable
        return []
    found: list[SavedGame] = []
    for saved, path in sorted(dated, reverse=True)[:looked_at]:
        try:
            game = record.replay(record.load(path))
        except (BoneyardError, OSError):
            continue
        if not game.finished:
            found.append(SavedGame(path, game, saved))
            if len(found) == most:
                break
    return found


@dataclass(frozen=True)
class Choice:
    """What the menu chose: a variant and its number of players, or a saved game to resume (``resume``)."""

    variant: str | None = None
    players: int | None = None
    resume: Path | None = None


class Menu:
    """Asks at the terminal which game to play.  ``ask`` reads a line after a prompt (a test's answers; by
    default :func:`~boneyard.terminal.typed_line`, Tab completing the variants' names)."""

    def __init__(self, console: Console, saved: list[SavedGame], *, players: int | None = None,
                 options: list[str] | None = None, ask: Callable[[str], str] | None = None) -> None:
        self.console = console
        self.saved = saved
        #: the number of players given on the command line (the menu then does not ask it)
        self.players = players
        #: the rule options given on the command line (``set=9``: more players)
        self.options = options or []
        self.variants: list[type[Rules]] = list(VARIANTS.values())
        self.ask = ask or (lambda prompt: typed_line(console, prompt, self.names))

    def names(self, text: str, line: str) -> list[str]:
        """What Tab completes at the menu: the variants' names that start with what was typed."""
        return [cls.name for cls in self.variants if cls.name.startswith(text.lower())]

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, markup=False, highlight=False, style=style)

    def choose(self, now: float | None = None) -> Choice | None:
        """The game chosen; ``None`` when the person quits (``q``, or the end of the input)."""
        self.say("Which game? (next time you can name it: boneyard play all-fives; a game's rules: boneyard rules "
                 "all-fives, or rules during the game)")
        width = max(len(cls.name) for cls in self.variants)
        for number, cls in enumerate(self.variants, 1):
            low, high = cls(cls.min_players).player_range()
            self.say(f"  {number}) {cls.name:<{width}}  {cls.title}, {low}-{high} players")
        if self.saved:
            moment = time.time() if now is None else now
            self.say("Or resume an unfinished game you saved:")
            for number, saved in enumerate(self.saved, 1):
                self.say(f"  r{number}) {saved.text(moment)}")
        resume = f", {self.resumes()} to resume" if self.saved else ""
        prompt = f"Your choice (a number or a name{resume}; Enter: {DEFAULT_VARIANT}; q: quit): "
        while True:
            try:
                answer = self.ask(prompt).strip()
            except EOFError:
                return None
            if answer.lower() in ("q", "quit", "exit"):
                return None
            chosen = self.answer(answer)
            if chosen is None:
                continue
            if chosen.variant is None:
                return chosen
            players = self.players if self.players is not None else self.how_many(find_variant(chosen.variant))
            return None if players is None else Choice(chosen.variant, players)

    def resumes(self) -> str:
        """What resumes a saved game: ``r1``, ``r1 or r2``, ``r1 to r3``."""
        count = len(self.saved)
        return "r1" if count == 1 else "r1 or r2" if count == 2 else f"r1 to r{count}"

    def answer(self, answer: str) -> Choice | None:
        """What a typed answer chooses, or ``None`` (said why) where it chooses nothing."""
        if not answer:
            return Choice(DEFAULT_VARIANT)
        saved = f", {self.resumes()}" if self.saved else ""
        choices = f"Type a number from 1 to {len(self.variants)}, a name{saved}, or q."
        if re.fullmatch(r"\d+", answer, re.ASCII):
            if 1 <= _number(answer) <= len(self.variants):
                return Choice(self.variants[_number(answer) - 1].name)
            self.say(f"There is no game {answer}. {choices}", style="red")
            return None
        if found := re.fullmatch(r"r(\d+)", answer, re.IGNORECASE | re.ASCII):
            if 1 <= _number(found.group(1)) <= len(self.saved):
                return Choice(resume=self.saved[_number(found.group(1)) - 1].path)
            self.say(f"There is no saved game {answer}. {choices}", style="red")
            return None
        try:
            return Choice(find_variant(answer).name)
        except BoneyardError as error:
            self.say(f"{error}. {choices}", style="red")
            return None

    def player_range(self, cls: type[Rules]) -> tuple[int, int]:
        """The variant's player counts with the options given (where they are its options: else its defaults)."""
        try:
            return make_rules(cls.name, cls.min_players, assigned_options(cls.name, self.options)).player_range()
        except BoneyardError:  # (refused, naming the option, when the game is made)
            return cls(cls.min_players).player_range()

    def how_many(self, cls: type[Rules]) -> int | None:
        """The number of players, asked where the variant takes more than two; ``None`` when the person quits."""
        low, high = self.player_range(cls)
        if high == low:
            return low
        while True:
            try:
                answer = self.ask(f"Players ({low} to {high}; Enter: {low}): ").strip()
            except EOFError:
                return None
            if answer.lower() in ("q", "quit", "exit"):
                return None
            if not answer:
                return low
            if re.fullmatch(r"\d+", answer, re.ASCII) and low <= _number(answer) <= high:
                return _number(answer)
            self.say(f"{cls.title} takes {low} to {high} players: type a number from {low} to {high}, or q.",
                     style="red")


def _number(digits: str) -> int:
    """The number ASCII ``digits`` write; 0 where there are too many to be any choice's."""
    return int(digits) if len(digits) <= 6 else 0


__all__ = ["Choice", "Menu", "SavedGame", "age_text", "unfinished_games"]
