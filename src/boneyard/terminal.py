"""Terminal play: one human against computer players, drawn with Rich.

The human's seat is a :class:`TerminalSession`; computer seats are any registered level.
Every move is saved to the record file as it happens, so an interrupted game can be resumed
with ``boneyard play --resume FILE`` and replayed with ``boneyard replay FILE``.

A resumed game goes on exactly as if it had never stopped.  Chance is per hand: hand ``i`` of a
game with seed ``s`` is dealt from ``game_seed(s, i)`` (:class:`~boneyard.chance.HandChance`, the web table deals
the same way), and a computer's decision is seeded from the game seed, the hand, the seat and the
move number.  So the next deals and the computers' choices depend only on the record, never on
how often the player quit and came back.  The record keeps the game's seed unchanged.
"""

from __future__ import annotations

import codecs
import glob
import io
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TextIO, cast

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from boneyard import record
from boneyard.chance import HandChance, game_seed
from boneyard.errors import BoneyardError, IllegalMoveError, NotationError, RecordError
from boneyard.moves import Kind, Move
from boneyard.options import non_defaults, value_text
from boneyard.players.base import make_player
from boneyard.render.text import (
    LEGEND,
    describe_move,
    game_result_says,
    layout_lines,
    scoring_parts,
    setup_draws_text,
    side_name,
    sides,
    verb,
)
from boneyard.state import Event, Game
from boneyard.tiles import MAX_PIPS, half_text, is_ascii_number
from boneyard.view import SeatView

if TYPE_CHECKING:
    from rich.markdown import Markdown

HELP = ("Enter the number of a move, or the move itself: 4-2@1, or just the tile (6-5) where it fits one place; "
        "Tab completes a move (twice: lists them) where the arrow keys edit the line.  "
        "Commands: h = hint, u = undo, s = save (s FILE saves to FILE from now on), q = save and quit, "
        "scores = the score sheet, hand by hand, rules = the rules of this game in full, ? = this help and the "
        "legend.")


class SaveError(BoneyardError):
    """A save path that cannot hold this game (a folder, a missing folder, another game's record)."""


# ---------------------------------------------------------------- a terminal that is not UTF-8
#: the table's signs in plain ASCII, for a terminal (or file) whose encoding cannot show them: one character for
#: one, so that the table's columns and the panel's border stay where Rich put them (a tile's number, ``₃``, is
#: written ``3``: ``[4|2]3``)
ASCII_SIGNS: dict[str, str] = {"▶": ">", "✚": "+", "‖": "#", "⋔": "Y", "«": "<", "»": ">", "★": "*", "→": ">",
                               "↻": ">", "↺": "<", "…": ".", "·": ".", "—": "-", "–": "-",
                               **dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789", strict=True))}
_ASCII_TABLE = str.maketrans(ASCII_SIGNS)


def ascii_text(text: str) -> str:
    """``text`` with the table's signs in ASCII, each one character: ``[4|2]₁₂`` reads ``[4|2]12``, ``▶`` ``>``."""
    return text.translate(_ASCII_TABLE)


class PlainOutput(io.TextIOBase):
    """An output that cannot encode the table's signs (a cp1252 or ASCII console, a file so encoded): they are
    written in ASCII (:func:`ascii_text`), and anything else it cannot show as ``?``, never a crash."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream = stream

    @property
    def encoding(self) -> str:  # type: ignore[override]  # (read-only here: the stream's own)
        return self._stream.encoding or "ascii"

    def write(self, text: str) -> int:
        plain = ascii_text(text).encode(self.encoding, errors="replace").decode(self.encoding)
        self._stream.write(plain)
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()


def shows_signs(encoding: str | None) -> bool:
    """Whether an output in ``encoding`` can show the table's signs (UTF-8 and the other Unicode encodings)."""
    try:
        return codecs.lookup(encoding or "ascii").name in ("utf-8", "utf-16", "utf-32", "utf-8-sig")
    except LookupError:
        return False


def terminal_console() -> Console:
    """The console of a game in the terminal: standard output, in ASCII signs where it cannot show others."""
    if shows_signs(getattr(sys.stdout, "encoding", None)):
        return Console()
    return Console(file=cast(TextIO, PlainOutput(sys.stdout)))


def rules_text(page: str) -> Markdown:
    """A rules page (:mod:`boneyard.rulebook`) for the console: its links as words with the target after them (a
    terminal may not open a link).  (Rich's Markdown, and the highlighter it loads, only when a page is shown.)"""
    from rich.markdown import Markdown

    return Markdown(page, hyperlinks=False)


# ---------------------------------------------------------------- reading a line
#: the first character of the code a cursor or function key sends (``ESC [ D`` for the left arrow)
ESCAPE = "\x1b"
#: how often a read at the terminal is woken to look for a Ctrl-C that came as the prompt appeared (seconds)
LINE_WAIT = 0.1
#: the signal that wakes it; its handler does nothing, the wake-up is what counts (``None``: no such signal)
WAKE: signal.Signals | None = getattr(signal, "SIGUSR2", None)


def at_a_terminal(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (standard input) is a POSIX terminal that reads by lines: a person at a keyboard (a pipe,
    a file, Windows' console or a terminal without line discipline are read as they are)."""
    stream = sys.stdin if stream is None else stream
    if os.name != "posix" or stream is None:
        return False
    try:
        if not stream.isatty():
            return False
        import termios  # POSIX only

        return bool(termios.tcgetattr(stream.fileno())[3] & termios.ICANON)
    except (OSError, ValueError, io.UnsupportedOperation):  # closed, detached, not a file
        return False


def line_editing() -> bool:
    """Turn on line editing for :func:`input` (the arrow keys, Home and End move in the line, Up and Down recall
    the lines typed before) by loading Python's ``readline`` (GNU readline, or libedit on macOS); whether it is
    there (Windows and some builds have none: the terminal's own Backspace and Ctrl-U edit the line then)."""
    try:
        import readline  # noqa: F401  (loading it is what makes input() edit the line)
    except ImportError:
        return False
    return True


def _woken(signum: int, frame: object) -> None:
    """The handler of :data:`WAKE`: nothing (Python runs a pending Ctrl-C's handler before it)."""


@contextmanager
def woken_while_reading(every: float = LINE_WAIT) -> Iterator[None]:
    """While the block reads a line, wake the main thread every ``every`` seconds with :data:`WAKE`.

    CPython looks for a signal before its blocking read of a line, not during it: a Ctrl-C that lands between that
    look and the read (the player pressing it just as the prompt appears, a loaded machine) was left pending until
    the next key, the program sitting at the prompt with the ``^C`` on the screen.  Each wake-up interrupts the
    read's wait (readline's ``select``, or the plain ``read``); Python then runs the pending Ctrl-C's handler,
    which raises :class:`KeyboardInterrupt`, and otherwise reads on where it was, keeping what was typed.  Outside
    the main thread, or without the signal, the block runs as it is."""
    if WAKE is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    wake = WAKE
    main = threading.get_ident()
    before = signal.signal(wake, _woken)
    done = threading.Event()

    def waker() -> None:
        while not done.wait(every):
            signal.pthread_kill(main, wake)

    thread = threading.Thread(target=waker, name="boneyard-line-wake", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        try:
            thread.join()
        finally:  # (signal.signal runs a wake-up still pending before it changes the handler)
            signal.signal(wake, before if before is not None else signal.SIG_DFL)


#: what Tab completes: the words that may replace the word typed (``text``) after the line's start (``line``)
Completions = Callable[[str, str], list[str]]


def move_completions(moves: list[Move]) -> Completions:
    """What Tab completes at the move prompt: a legal move as the list writes it (``6-4@1``, ``3-3``, ``draw``),
    or as the person began it, the tile either way round (``4-6@1``), or a command (``hint``, ``undo``…); after
    ``s`` (save to a file), a file's path.  Tab twice on an empty line lists the moves."""
    written = [str(move) for move in moves]
    turned = [_turned(move) for move in moves if move.is_placement]
    commands = ["hint", "help", "undo", "save", "quit", "rules", "scores"]
    words = list(dict.fromkeys(written + turned + commands))  # (in order, once each: a double reads the same turned)

    def complete(text: str, line: str) -> list[str]:
        if re.match(r"(s|save)\s", line, re.IGNORECASE):
            return paths_from(text)
        if not text:
            return written
        lower = text.lower()
        return [word for word in words if word.lower().startswith(lower)]
    return complete


def paths_from(text: str) -> list[str]:
    """The files and folders whose path starts with ``text`` (``~`` is the home folder), a folder's with ``/``."""
    typed = os.path.expanduser(text)
    found = sorted(glob.glob(glob.escape(typed) + "*"))
    return [path + os.sep if os.path.isdir(path) else path for path in found]


def _turned(move: Move) -> str:
    """A placement with its tile's halves the other way round: ``4-6@1`` for ``6-4@1`` (the notation takes both)."""
    high, low, *target = re.split(r"[-@]", str(move))
    return f"{low}-{high}" + "".join(f"@{part}" for part in target)


@contextmanager
def tab_completing(complete: Completions) -> Iterator[None]:
    """While the block reads with readline, Tab completes the word before the cursor from ``complete`` (a space
    ends a word, so ``6-4@1`` is one).  Afterwards Tab types a tab again, as Python has it (readline would
    otherwise complete file names)."""
    import readline

    editline = "libedit" in (readline.__doc__ or "")  # (macOS's readline, bound with its own words)
    before = readline.get_completer(), readline.get_completer_delims()
    found: list[str] = []

    def completer(text: str, state: int) -> str | None:
        if state == 0:
            found[:] = complete(text, readline.get_line_buffer()[:readline.get_begidx()])
        return found[state] if state < len(found) else None

    readline.set_completer(completer)
    readline.set_completer_delims(" ")
    readline.parse_and_bind("bind ^I rl_complete" if editline else "tab: complete")
    try:
        yield
    finally:
        readline.parse_and_bind("bind ^I ed-insert" if editline else "tab: self-insert")
        readline.set_completer(before[0])
        readline.set_completer_delims(before[1])


def typed_line(console: Console, prompt: str, complete: Completions | None = None) -> str:
    """What the person types at ``prompt`` on the console.

    At a terminal the line can be edited (:func:`line_editing`): readline then writes the prompt itself, so that it
    can draw the line again after a cursor key without overwriting the prompt, and Tab completes a word from
    ``complete`` (:func:`tab_completing`).  The read is woken (:func:`woken_while_reading`), so a Ctrl-C pressed as
    the prompt appears ends the game at once.  Elsewhere (a pipe, a test's console) the prompt is printed on the
    console and a line read."""
    if not at_a_terminal():
        return _printed_then_read(console, prompt)
    with woken_while_reading():
        if line_editing() and _encodes(prompt, sys.stdout):
            console.file.flush()
            if complete is None:
                return input(prompt)
            with tab_completing(complete):
                return input(prompt)
        return _printed_then_read(console, prompt)


def _printed_then_read(console: Console, prompt: str) -> str:
    console.print(prompt, end="")
    console.file.flush()
    return input()


def _encodes(text: str, stream: IO[str]) -> bool:
    """Whether ``text`` can be written to ``stream`` in its encoding as it is (``input`` writes a prompt so)."""
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


# ---------------------------------------------------------------- save files
def check_save_path(path: Path, *, force: bool = False, resuming: Path | None = None,
                    command_line: bool = True) -> None:
    """Refuse a save path that would fail or destroy something; ``resuming`` is the record the game came from
    (``command_line``: the refusal may suggest options of ``boneyard play``)."""
    if path.is_dir():
        raise SaveError(f"{path} is a folder; name a file, e.g. {path / 'game.boneyard.json'}")
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise SaveError(f"{path}: {folder} is not a folder")
    if not folder.is_dir():
        raise SaveError(f"{path}: the folder {folder} does not exist (create it first, or save elsewhere)")
    if path.exists() and not path.is_file():
        raise SaveError(f"{path} is not a regular file; name a file, e.g. game.boneyard.json")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise SaveError(f"{path}: the file cannot be written (permission denied)")
        same = resuming is not None and resuming.exists() and os.path.samefile(path, resuming)
        if not same and not force:
            held, game = _holds(path)
            if not command_line:
                advice = "choose another file"
            elif game is None:
                advice = "save elsewhere, or pass --force to overwrite it"
            elif game.finished:
                advice = f"replay it with `boneyard replay {path}`, save elsewhere, or pass --force to overwrite it"
            else:
                advice = f"resume it with `boneyard play --resume {path}`, or pass --force to overwrite it"
            raise SaveError(f"{path} {held}; {advice}")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise SaveError(f"{path}: cannot create a file in {folder} (permission denied)")


def _holds(path: Path) -> tuple[str, Game | None]:
    """What an existing file holds, in words (for the refusal to overwrite it), and its game if it is a record."""
    try:
        data = record.load(path)
        game = record.replay(data)
    except RecordError:
        return "exists and is not a game record", None
    state = "a finished" if game.finished else "an unfinished"
    hands = len(game.log)
    return (f"holds {state} game of {game.rules.title} ({', '.join(game.names)}; "
            f"{hands} hand{'s' if hands != 1 else ''})"), game


# ---------------------------------------------------------------- words
def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def stock_text(stock: int, out_of_play: int) -> str:
    """``stock 9``; ``14 out of play`` where nothing is drawn (Block); ``stock 5 (2 never drawn)`` with a reserve."""
    if stock and out_of_play == stock:
        return f"{stock} out of play"
    return f"stock {stock}" + (f" ({out_of_play} never drawn)" if out_of_play else "")


def result_line(game: Game) -> str:
    """The end of a game in words: ``You and Computer 2 win, 131 to 14``."""
    groups = sides(game)
    if game.winner is None:  # the best total shared (PIP: "they share the win")
        sharing = set(game.rules.game_winners(game.winner, game.scores))
        tied = [s for s in groups if sharing & set(s)]
        rest = ", ".join(f"{side_name(game, s)} {game.scores[s[0]]}" for s in groups if s not in tied)
        best = f" with {game.scores[tied[0][0]]}" if tied else ""
        return (f"{game_result_says(game)}{best}" + (f" ({rest})" if rest else ""))
    won = next(s for s in groups if game.winner in s)
    others = [s for s in groups if s != won]
    if len(others) == 1:
        return f"{verb(game, won, 'win')}, {game.scores[won[0]]} to {game.scores[others[0][0]]}"
    rest = ", ".join(f"{side_name(game, s)} {game.scores[s[0]]}" for s in others)
    return f"{verb(game, won, 'win')} with {game.scores[won[0]]} ({rest})"


def score_sheet(game: Game) -> Table:
    """Every hand of ``game`` as a row: how it ended and who won it, then each side's change to its score and its
    total after the hand (``+15 → 40``); the hand in play, if any, with its points so far."""
    groups = sides(game)
    sheet = Table(title="Score sheet", title_justify="left")
    sheet.add_column("round" if game.rules.hands_in_game else "hand", justify="right")  # (PIP plays rounds)
    sheet.add_column("ended")
    for side in groups:
        sheet.add_column(side_name(game, side), justify="right")
    for index, hand in enumerate(game.log):
        after = game.log[index + 1].start_scores if index + 1 < len(game.log) else game.scores
        if hand.result is None:
            ended = "in play"
        else:
            winner = "nobody" if hand.result.winner is None else game.names[hand.result.winner]
            ended = f"{hand.result.end}: {winner}"
        cells = [f"{after[side[0]] - hand.start_scores[side[0]]:+d} → {after[side[0]]}" for side in groups]
        sheet.add_row(str(hand.number), ended, *cells)
    return sheet


def hint(view: SeatView) -> tuple[Move, str]:
    """The strongest available level's move for this seat, with a reason in words."""
    from boneyard.players import base

    advisor = getattr(base, "hint_move", None)
    if callable(advisor):
        result = advisor(view)
        assert isinstance(result, tuple)
        return result
    move = make_player("greedy").choose(view)
    points = view.play_points(move)[1]
    if points:
        return move, f"scores {points}"
    if move.tile is not None and move.kind in (Kind.LEAD, Kind.PLAY):
        return move, f"sheds a heavy tile ({view.tile_value(move.tile)} points)"
    return move, "the only move"


def legend_grid() -> Table:
    """:data:`LEGEND` in two columns, the marks kept apart from what they mean however narrow the terminal (an
    explanation wraps within its own column)."""
    grid = Table.grid(padding=0)
    grid.add_column(min_width=9, no_wrap=True)
    grid.add_column()
    rows: list[list[str]] = []
    for line in LEGEND.splitlines():
        key, meaning = line[:9].rstrip(), line[9:]
        if key or not rows:
            rows.append([key, meaning])
        else:  # a continuation line: it goes on with the mark above
            rows[-1][1] += "\n" + meaning
    for key, meaning in rows:
        grid.add_row(Text(key), Text(meaning))
    return grid


class TerminalSession:
    """Plays one game at the terminal; seat ``human`` is the person.

    ``computers`` maps each computer seat to its level spec.  ``save_path`` ``None`` plays without
    saving (a run whose standard input is not a terminal, unless it asked for a file)."""

    def __init__(self, game: Game, computers: dict[int, str], human: int, save_path: Path | None,
                 console: Console | None = None, ask: Callable[[str], str] | None = None,
                 meta: dict[str, object] | None = None, source: dict[str, Any] | None = None) -> None:
        self.game = game
        #: the record the game was resumed from: its annotations are kept in every save (RECORD.md)
        self.source = source
        self.computers = computers
        self.human = human
        self.save_path = save_path
        self.console = console or terminal_console()
        self.ask = ask or (lambda prompt: typed_line(self.console, prompt, self.completing))
        #: what Tab completes at the prompt being read (None: Tab types a tab)
        self.completing: Completions | None = None
        self.meta = meta or {}
        self.view = SeatView(game, human)
        self.seed = game.chance.seed if game.chance is not None else 0
        #: the reason the last save failed (None: everything is saved)
        self.unsaved: str | None = None
        #: a set with directional tiles (PIP's R) can reverse the direction of play
        self.reversible = any(tile.letter is not None for tile in game.rules.tile_set())
        #: the table without its box (``boneyard play --plain``): a screen reader reads no border on every line
        self.plain = False

    def say(self, *objects: Any, **style: Any) -> None:
        """Print with Rich markup off: names, file names and what the player typed are shown as they are
        (``[draft]`` is no style tag, ``[/]`` no error), and without Rich's highlighting (which would set some
        numbers and quoted words in bold or colour, at random to a reader)."""
        self.console.print(*objects, **{**style, "markup": False, "highlight": False})

    def read(self, prompt: str, complete: Completions | None = None) -> str | None:
        """What the player typed at ``prompt`` (Tab completing from ``complete`` where the line can be edited),
        stripped; ``None`` (said) where it is not text in the terminal's encoding (a key the terminal sends in
        another encoding than the program reads, an ASCII console) or holds a cursor key's escape sequence (the
        terminal's own line editing has none: it shows ``^[[D`` and sends the code with the line, so what the line
        meant is unknown)."""
        self.completing = complete
        try:
            line = self.ask(prompt).strip()
        except (EOFError, KeyboardInterrupt):  # Ctrl-D, Ctrl-C: what is said next starts on a line of its own
            self.console.line()
            raise
        except UnicodeDecodeError as error:
            self.say(f"Could not read what you typed: it is not {error.encoding} text. Type it again.",
                     style="red")
            return None
        finally:
            self.completing = None
        if ESCAPE in line:
            self.say("The arrow keys (and other special keys) do not edit the line here: Backspace does, and "
                     "Ctrl-U clears it. Type it again.", style="red")
            return None
        return line

    # ------------------------------------------------------------ drawing
    def partners(self) -> tuple[int, ...]:
        return tuple(seat for seat in self.game.rules.score_seats(self.human) if seat != self.human)

    def table(self) -> Panel | Group:
        game = self.game
        names = game.names
        partners = self.partners()
        rows: list[list[Text | str]] = []
        widest = 0  # the widest name in the terminal's cells (a CJK character takes two)
        for seat, name in enumerate(names):
            marker = "▶ " if game.in_hand and game.turn == seat else "  "
            label = Text(marker + name + (", partner" if seat in partners else ""),
                         style="bold" if seat == self.human else "")
            widest = max(widest, label.cell_len)
            rows.append([label, plural(game.scores[seat], "pt"), plural(len(game.hands[seat]), "tile")])
        scores = Table.grid(padding=(0, 2))
        across = 2 if len(rows) > 4 and self.console.width >= 2 * (widest + 16) else 1
        half = -(-len(rows) // across)  # many players: two to a line, so the table stays on one screen
        for line in range(half):
            scores.add_row(*[cell for row in rows[line::half] for cell in row])
        rounds = game.rules.hands_in_game
        info = [f"Round {len(game.log)} of {rounds}" if rounds else f"Hand {len(game.log)}",
                stock_text(game.stock_left, game.rules.never_drawn(game.stock_left))]
        target = getattr(game.rules, "target", None)
        if isinstance(target, int):
            info.append(f"target {target}")
        if game.rules.lower_score_wins:
            info.append("lowest total wins")
        if game.dice is not None:
            flower, scorpion = game.dice.flower, game.dice.scorpion
            info.append(f"flower {flower[0]}+{flower[1]} (tile {max(flower)}-{min(flower)})")
            info.append(f"scorpion {scorpion[0]}+{scorpion[1]} (tile {max(scorpion)}-{min(scorpion)})")
            if sorted(flower) == sorted(scorpion):
                info.append("the pairs are equal and cancel")
        if game.players > 2 and game.direction < 0:
            info.append("direction: counter-clockwise ↺")
        elif game.players > 2 and self.reversible:
            info.append("direction: clockwise ↻")
        if game.pending:
            index, owed = game.pending[-1]
            info.append(f"double {game.layout[index].tile} (tile {index}) owes {plural(owed, 'more play')}")
        lines = layout_lines(game.layout, self.console.width - (0 if self.plain else 4))  # (inside the panel)
        if len(lines) < 4:  # a long layout keeps every line for the table itself
            lines.append(Text(""))
        groups = sides(game)
        if partners:
            mine = next(side for side in groups if self.human in side)
            against = " · ".join(side_name(game, side) for side in groups if side != mine)
            lines.append(Text(f"Sides: {side_name(game, mine)} against {against}", style="bold"))
        hand = Text("Your hand: ")
        for tile in game.hands[self.human]:
            hand.append(f"[{tile}] ", style="bold cyan")
        if self.plain:  # the title, then the table: no border to read
            return Group(Text(game.rules.title, style="bold"), *lines, scores, Text("  ·  ".join(info)), hand,
                         Text(""))
        body = Group(*lines, scores, Text("  ·  ".join(info), style="dim"), hand)
        return Panel(body, title=game.rules.title, border_style="green")

    def say_event(self, event: Event) -> None:
        game = self.game
        name = game.names[event.seat]
        move = event.move
        text = f"{name}: {describe_move(move, game.layout) if move.kind != Kind.PLAY else move}"
        if event.scoring:
            parts = scoring_parts(event, game.rules.points_limit, lambda name: name.replace("-", " "))
            text += f"  —  {', '.join(parts)} = {event.points:+d}"
        self.say(text, style="yellow" if event.scoring else "")
        effect = self.directional_effect(event)
        if effect:
            self.say(f"  {effect}", style="bold magenta")

    def say_hand_start(self) -> None:
        """What happened before the hand's first tile: the draws of a search for the starting tile."""
        game = self.game
        text = setup_draws_text(game.names, game.hand.setup_draws, self.human)
        if text is not None:
            self.say(text)

    def directional_effect(self, event: Event) -> str | None:
        """PIP's S, R, A and D tiles, said as they take effect."""
        game = self.game
        tile = event.move.tile
        if tile is None or tile.letter is None or not event.move.is_placement or not game.in_hand:
            return None
        names = game.names
        letter = str(tile).split("-")[0]
        following = names[game.next_seat(event.seat)] if game.players > 1 else ""
        def who(seat: int, word: str) -> str:
            return verb(game, (seat,), word)

        if letter == "S":
            return f"Skip: {who((event.seat + game.direction) % game.players, 'lose')} a turn"
        if letter == "R":
            if game.turn == event.seat:  # two players, two_player_reverse_skips: the other loses a turn
                return f"Reverse: {who(game.next_seat(event.seat), 'lose')} a turn, so {who(event.seat, 'play')} again"
            way = "clockwise" if game.direction > 0 else "counter-clockwise"
            return f"Reverse: play now goes {way}"
        if letter == "A":
            return f"Again: {who(event.seat, 'play')} again"
        if game.give_pending:
            return f"Draw: the stock is empty, so {who(event.seat, 'give')} {following} a tile"
        return f"Draw: {following} must draw a tile"

    def say_hand_end(self) -> None:
        """The final layout, every hand with its pips, and how the points were made."""
        game = self.game
        result = game.hand.result
        if result is None:
            return
        names = game.names
        for line in layout_lines(game.layout, self.console.width):
            self.say(line)
        if result.winner is not None:
            side = next(s for s in sides(game) if result.winner in s)
            who = verb(game, side, "win") + " the hand"
        else:
            who = "nobody wins the hand"
        hand = "Round" if game.rules.hands_in_game else "Hand"  # as the table counts them (PIP's rounds)
        if result.end == "unfinished":  # a target reached during the hand ends the game there
            self.say(Text(f"{hand} {len(game.log)} stopped: the game was won during it", style="bold"))
        else:
            self.say(Text(f"{hand} {len(game.log)} over ({result.end}): {who}", style="bold"))
        if result.end == "blocked":
            self.say(f"  A blocked hand: {game.rules.blocked_rule()}.", style="dim")
        pips = [game.hand_points_of(seat) for seat in range(game.players)]
        unit = "point" if game.rules.lower_score_wins else "pip"  # PIP's tiles count their own values
        for seat, tiles in enumerate(game.hands):
            shown = " ".join(str(t) for t in tiles) or "—"
            self.say(f"  {names[seat]}: {shown}  ({plural(pips[seat], unit)})")
        groups = sides(game)
        if any(len(side) > 1 for side in groups):
            self.say("  Sides: " + ", ".join(
                f"{side_name(game, side)} {plural(sum(pips[s] for s in side), 'pip')}" for side in groups))
        for side in groups:  # partners share their items: said once for the side
            own = sum(pips[s] for s in side)
            for item in next((result.scoring[s] for s in side if result.scoring[s]), []):
                why = ""  # the count shown where it is the rule's (else the blocked hand's sentence says how)
                count = game.rules.pip_count(result.end) if item.name in ("domino", "block") else None
                if count == "left":
                    why = f"{plural(sum(pips), 'pip')} left → "
                elif count == "against":
                    why = f"{plural(own, 'pip')} against {plural(sum(pips) - own, 'pip')} → "
                self.say(f"  {side_name(game, side)}: {item.name}: {why}{item.points:+d}")
        self.say("  Totals: " + ", ".join(f"{names[s]} {p}" for s, p in enumerate(game.scores)))

    def move_list(self, moves: list[Move], room: int | None = None) -> Table:
        """The numbered legal moves in as many columns as the terminal's width allows; when they would
        take more than ``room`` lines, in notation only (``12) 9-2@22 (+5)``), so the table stays in view."""
        game = self.game
        points = [game.play_points(move)[1] if move.is_placement else 0 for move in moves]
        extras = [f" (+{p})" if p > 0 else f" ({p})" if p < 0 else "" for p in points]
        pairs = list(enumerate(zip(moves, extras, strict=True), 1))
        entries = [f"{n:2}) {describe_move(m, game.layout)}{e}" for n, (m, e) in pairs]
        columns, rows = self._shape(entries, 3)
        if room is not None and rows > room:
            entries = [f"{n:2}) {m}{e}" for n, (m, e) in pairs]
            columns, rows = self._shape(entries, 8)
        grid = Table.grid(padding=(0, 2))
        for _ in range(columns):
            grid.add_column()
        for row in range(rows):
            grid.add_row(*[entries[row + rows * col] if row + rows * col < len(entries) else ""
                           for col in range(columns)])
        return grid

    def _shape(self, entries: list[str], most: int) -> tuple[int, int]:
        """Columns and rows for ``entries`` at this terminal's width (at most ``most`` columns)."""
        widest = max(len(entry) for entry in entries) + 2
        columns = max(1, min(most, self.console.width // widest, len(entries)))
        return columns, -(-len(entries) // columns)

    # ------------------------------------------------------------ saving
    def save(self, quiet: bool = False) -> bool:
        """Write the record; a failure is said once and retried after the next move (the game goes on)."""
        if self.save_path is None:
            return False
        try:
            record.save(self.game, self.save_path, meta=self.meta, kept_from=self.source)
        except OSError as error:
            reason = error.strerror or str(error)
            if error.filename and Path(error.filename).parent != self.save_path.parent:
                reason += f": {error.filename}"  # (the temporary file beside the record is not named)
            if self.unsaved is None and not quiet:
                self.say(f"Could not save to {self.save_path} ({reason}). The game goes on with every move "
                                   "kept; saving is tried again after each move, or type s FILE to save elsewhere.",
                                   style="bold red")
            self.unsaved = reason
            return False
        if self.unsaved is not None:
            self.say(f"Saved to {self.save_path} again.", style="cyan")
        self.unsaved = None
        return True

    def save_elsewhere(self, text: str) -> bool:
        """``s FILE``: save to FILE from now on; whether the game is now saved there."""
        path = Path(text).expanduser()
        try:  # (the file this game is saved to already may be named again)
            check_save_path(path, command_line=False, resuming=self.save_path)
        except SaveError as error:
            self.say(f"Not saved: {error}", style="red")
            return False
        previous, unsaved = self.save_path, self.unsaved
        self.save_path, self.unsaved = path, None
        if self.save(quiet=True):
            self.say(f"Saved to {path}; later moves are saved there too.")
            return True
        reason = self.unsaved
        self.save_path, self.unsaved = previous, unsaved
        where = ("the game is not saved anywhere" if previous is None
                 else f"the game is still saved to {previous}" if unsaved is None
                 else f"saving to {previous} failed too ({unsaved}) and is tried again after each move")
        self.say(f"Not saved to {path} ({reason}); {where}.", style="red")
        return False

    # ------------------------------------------------------------ loop
    def computer_move(self, seat: int) -> Move:
        """The computer's choice, seeded by the game seed, the hand, the seat and the move number."""
        game = self.game
        number = game_seed(game_seed(self.seed, 1_000_000 + 1000 * len(game.log) + seat), len(game.hand.events))
        return make_player(self.computers[seat], seed=number).choose(SeatView(game, seat))

    def run(self) -> int:
        game = self.game
        self.say(HELP, style="dim")
        house = non_defaults(game.rules.options)
        if house:  # the house rules this game is played by (the table shows only the target)
            self.say("House rules: " + ", ".join(f"{key}={value_text(value)}" for key, value in house.items()))
        if game.in_hand and not game.hand.events:
            self.say_hand_start()
        while not game.finished:
            if not game.in_hand:
                self.say_hand_end()
                if game.finished:
                    break
                game.next_hand()
                self.say_hand_start()
                self.save()
                continue
            seat = game.turn
            if seat in self.computers:
                self.say_event(game.apply(self.computer_move(seat)))
                self.save()
                continue
            if not self.human_turn():
                if self.save_path is not None and self.save(quiet=True):
                    self.say(f"Saved to {self.save_path} — resume with: "
                                       f"boneyard play --resume {self.save_path}")
                else:
                    self.say("Quit without saving" + (f" ({self.unsaved})." if self.unsaved else
                                       "; pass --save FILE to keep a game."), style="red")
                return 0
            self.save()
        self.say_hand_end()
        self.say(Text(f"Game over — {result_line(game)}.", style="bold green"))
        if self.save_path is not None and self.unsaved is not None:
            self.save_at_the_end()
        if self.save_path is not None and self.unsaved is None:
            self.say(f"Record: {self.save_path}  (boneyard replay {self.save_path}; your moves reviewed: "
                     f"boneyard review {self.save_path})")
        return 0

    def again(self) -> bool:
        """After a game over: whether the player wants another (``y``; Enter, ``n``, ``q`` or the end of the input:
        no)."""
        while True:
            try:
                answer = self.read("Another game with the same players and rules? (y/N) ")
            except EOFError:
                return False
            if answer is None:
                continue
            if answer.lower() in ("y", "yes"):
                return True
            if answer.lower() in ("", "n", "no", "q", "quit", "exit"):
                return False
            self.say("Type y for another game, or n (or Enter) to stop.", style="red")

    def next_game(self, save_path: Path | None) -> TerminalSession:
        """A session for a new game after this one: the same rules, names, seats and computer levels, a new seed
        (``HandChance(None)``), saved to ``save_path``; it answers as this session does."""
        old = self.game
        game = Game(old.rules, list(old.names), HandChance(None))
        game.next_hand()
        levels = [self.computers[seat] for seat in sorted(self.computers)]
        session = start_session(game, levels, self.human, save_path, self.console, self.ask)
        session.plain = self.plain
        return session

    def save_at_the_end(self, tries: int = 3) -> None:
        """The game is over but its last moves are not saved: say so, and ask for another file, ``tries`` times at
        most, until it is saved there or the player leaves it (an empty answer, ``q``, or the end of the input)."""
        for _ in range(tries):
            if self.save(quiet=True):
                return
            self.say(f"The finished game is not saved: {self.save_path} cannot be written ({self.unsaved}).",
                     style="bold red")
            try:
                answer = self.read("Save it to another file (Enter leaves it unsaved): ")
            except EOFError:
                answer = ""
            if answer is None:
                continue
            if answer.lower() in ("", "q", "quit", "exit"):
                break
            if self.save_elsewhere(answer.removeprefix("s ").strip() if answer.startswith("s ") else answer):
                return
        self.say("The finished game was not saved.", style="red")

    def human_turn(self) -> bool:
        """One decision of the human; ``False`` when they quit."""
        game = self.game
        table = self.table()
        self.say(table)
        moves = game.legal_moves()
        room = self.console.height - len(self.console.render_lines(table, pad=False)) - 2
        self.say(self.move_list(moves, room))
        quitting = False
        while True:
            try:
                answer = self.read("Your move: ", move_completions(moves))
            except EOFError:  # the end of the input: quit (saving); Ctrl-C goes up, as during a computer's move
                return False
            if answer is None:
                continue
            lower = answer.lower()
            if lower in ("q", "quit", "exit"):
                if quitting or self.save_path is None or self.save(quiet=True):
                    return False
                quitting = True
                self.say(f"Not saved ({self.unsaved}): type s FILE to save elsewhere, "
                                   "or q again to quit without saving.", style="red")
                continue
            if lower in ("?", "help"):
                self.say(HELP)
                self.say(legend_grid())
                continue
            if lower == "rules":
                self.say_rules()
                continue
            if lower == "scores":
                self.say_scores()
                continue
            if lower in ("h", "hint"):
                advice, reason = hint(self.view)
                self.say(f"Hint: {advice} — {reason}", style="cyan")
                continue
            if lower in ("u", "undo"):
                if self.undo():
                    return True
                continue
            if lower in ("s", "save"):
                if self.save_path is None:
                    self.say("Not saved: type s FILE to save the game to FILE.", style="red")
                elif self.unsaved is not None:
                    self.save()  # says "Saved to … again." or why not
                elif self.save():
                    self.say(f"Saved to {self.save_path}")
                continue
            if lower.startswith(("s ", "save ")):
                self.save_elsewhere(answer.split(None, 1)[1])
                continue
            chosen = self.parse_answer(answer, moves)
            if chosen is None:
                continue
            try:
                self.say_event(game.apply(chosen))
            except IllegalMoveError as error:
                self.say(f"Not allowed: {self.yours(str(error))}", style="red")
                continue
            return True

    def say_scores(self) -> None:
        """The score sheet (``scores`` at the move prompt): each hand's change to every side's score and the total
        after it, with how the hand ended and who won it; the hand in play so far on the last line."""
        self.say(score_sheet(self.game))

    def say_rules(self) -> None:
        """The rules of the game being played, in full (``rules`` at the move prompt)."""
        from boneyard import rulebook

        try:
            self.console.print(rules_text(rulebook.page(self.game.rules.name)))
        except BoneyardError as error:
            self.say(str(error), style="red")

    def yours(self, message: str) -> str:
        """An error about the human's own seat says "your hand", "you can play", "you may not pass"."""
        return re.sub(rf"\bseat {self.human}\b", "you", message.replace(f"seat {self.human}'s hand", "your hand"))

    def parse_answer(self, answer: str, moves: list[Move]) -> Move | None:
        """A move from what the person typed: a number, a move, or a tile where it fits one way (also as the
        list says it: ``lead 6-6``, ``draw from the stock``, ``4-2 @ 1``)."""
        if not answer:
            return None
        answer = re.sub(r"\s*@\s*", "@", answer)
        lower = answer.lower()
        if lower.startswith("lead "):
            answer = answer[5:].strip()
        elif lower in ("draw from the stock", "draw a tile"):
            answer = "draw"
        if re.fullmatch(r"[-+]?\d+", answer):  # a number from the list (a signed one is out of its range)
            number = int(answer) if is_ascii_number(answer, 4) else 0
            if 1 <= number <= len(moves):
                return moves[number - 1]
            self.say("Type 1: it is the only move." if len(moves) == 1 else f"Choose 1 to {len(moves)}.",
                               style="red")
            return None
        try:
            typed = Move.parse(answer)
        except NotationError as error:
            self.say(f"{self.halves_of_this_set(str(error))}. {HELP}", style="red")
            return None
        if typed.kind == Kind.DRAW and typed.tile is not None:
            # The stock lies face down: checking a named tile against it would tell the player the next one.
            self.say("The stock is face down: type draw (without a tile) to draw.", style="red")
            return None
        if typed in moves or typed.tile is None or typed.kind not in (Kind.LEAD, Kind.PLAY):
            return typed
        matches = matching_moves(typed, moves)
        if len(matches) == 1:
            return matches[0]
        if not matches:
            return typed  # the game says why it is not legal
        return self.which(matches)

    def halves_of_this_set(self, message: str) -> str:
        """The notation's list of every half (0-12, W, S, R, A or D) cut to the halves of this game's set."""
        halves = {half for tile in self.game.rules.tile_set() for half in (tile.high, tile.low)}
        numbers = [half for half in halves if half <= MAX_PIPS]
        named = [f"0-{max(numbers)}"] if numbers else []
        named += [half_text(half) for half in sorted(halves - set(numbers))]
        listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"
        return re.sub(r"\(0-\d+, W, S, R, A or D\)", f"({listed})", message)

    def which(self, matches: list[Move]) -> Move | None:
        """Ask which of several moves a typed tile meant."""
        game = self.game
        choices = "   ".join(f"{letter}) {describe_move(move, game.layout)}"
                               for letter, move in zip("abcdefghijklmnopqrstuvwxyz", matches, strict=False))
        self.say(f"{matches[0].tile} fits {len(matches)} ways: {choices}")
        count = min(26, len(matches))
        last = chr(ord("a") + count - 1)
        letters = "a or b" if count == 2 else f"a to {last}"
        try:
            typed = self.read(f"Which? ({letters}; Enter for none) ")
        except EOFError:
            return None
        if typed is None:
            return None
        answer = typed.lower()
        if len(answer) == 1 and "a" <= answer <= last:
            return matches[ord(answer) - ord("a")]
        for move in matches:
            if answer == str(move).lower():
                return move
        if answer:
            self.say(f"'{answer}' is not {letters} (nor one of the moves): no move chosen.", style="red")
        else:
            self.say("No move chosen.", style="red")
        return None

    def undo(self) -> bool:
        """Take back the human's last move and the computer moves after it (this hand only)."""
        game = self.game
        events = game.hand.events
        if not any(event.seat == self.human for event in events):
            self.say("Nothing of yours to undo in this hand.", style="red")
            return False
        while events:
            seat = events[-1].seat
            game.undo()
            if seat == self.human and game.turn == self.human and (
                    not events or events[-1].seat != self.human):
                break
        self.say("Undone.", style="cyan")
        return True


def matching_moves(typed: Move, moves: list[Move]) -> list[Move]:
    """The legal placements a typed tile may mean: ``6-5`` anywhere it fits, ``5-6@1`` either way round on tile 1."""
    same_tile = [move for move in moves if move.tile == typed.tile and move.is_placement]
    if typed.kind == Kind.PLAY:
        return [move for move in same_tile if move.target == typed.target]
    return same_tile


def level_of_seats(game: Game, ai: list[str], human: int) -> dict[int, str]:
    """Each computer seat's level: ``ai`` in seat order, its last entry repeated for the rest."""
    specs = ai or ["greedy"]
    others = [seat for seat in range(game.players) if seat != human]
    return {seat: specs[min(order, len(specs) - 1)] for order, seat in enumerate(others)}


def start_session(game: Game, ai: list[str], human: int, save_path: Path | None, console: Console | None = None,
                  ask: Callable[[str], str] | None = None, source: dict[str, Any] | None = None) -> TerminalSession:
    """A session for ``game`` (its first hand dealt, or resumed from the record ``source``, whose ``meta`` and
    annotations its saves keep); builds each computer once to check its spec."""
    computers = level_of_seats(game, ai, human)
    for spec in set(computers.values()):
        make_player(spec)
    kept = source.get("meta") if source is not None else None
    meta: dict[str, Any] = dict(kept) if isinstance(kept, dict) else {}
    meta |= {"human_seat": human, "ai": {str(seat): spec for seat, spec in computers.items()}}
    return TerminalSession(game, computers, human, save_path, console, ask, meta, source)


def resume_levels(data: dict[str, Any], game: Game) -> tuple[int, list[str]]:
    """The human's seat and the computer levels stored in a record's ``meta`` (defaults: seat 0, greedy)."""
    human, levels = record.seat_levels(data, game.players)
    return human, list(levels.values())


__all__ = ["SaveError", "TerminalSession", "check_save_path", "hint", "result_line",
           "start_session"]

