"""Audit of ``boneyard play`` at a real terminal: whole games through a pseudo-terminal in every variant, player
count, partnerships, a larger set, house rules and the screens README names (60 columns, NO_COLOR, TERM=dumb, a
non-UTF-8 terminal, ``--plain``), each record replayed to the totals the table showed; every input form README
names typed as a person types it; Ctrl-C at the prompt and while the computer thinks, resumed and compared with an
uninterrupted game; typing that is not text in the terminal's encoding; undo back to the start of your turn.

tests/test_audit_terminal.py drives single commands and in-process sessions; these tests play games to their end.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

import boneyard
from boneyard import record
from boneyard.moves import Kind
from boneyard.state import Game
from boneyard.terminal import TerminalSession, start_session

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")
PROMPT = re.compile(r"(Your move: |Which\? \([^)]*\) |Save it to another file[^:]*: |"
                    r"Another game with the same players and rules\? \(y/N\) )\Z")
#: a move in the list: ``12) 6-4 on tile 3 (4-2), its 4 end; leaves 6 (+5)``, ``1) lead 6-6``, ``2) draw …``
LISTED = re.compile(r"(?:^|\s)(\d+)\) (lead (\w+)-(\w+)|(\w+)-(\w+) on tile (\d+)|[a-z][a-z ]*[a-z])")
#: the answers that send Ctrl-C and Ctrl-D instead of a line
CTRL_C, CTRL_D = "\x03", "\x04"


def _controlling_terminal() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Table:
    """``boneyard`` on a pseudo-terminal that is its controlling terminal; ``answer(prompt, screen)`` is called at
    each prompt with what was shown since the last one and returns the keys to type (a line, or :data:`CTRL_C`)."""

    def __init__(self, *args: str, tmp_path: Path, columns: int = 100, rows: int = 40,
                 env: dict[str, str] | None = None) -> None:
        self.leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        environ = {**os.environ, "TERM": "xterm", "COLUMNS": str(columns), "LINES": str(rows),
                   "XDG_DATA_HOME": str(tmp_path / "data"), **(env or {})}
        if "NO_COLOR" not in (env or {}):
            environ.pop("NO_COLOR", None)
        self.process = subprocess.Popen([sys.executable, "-m", "boneyard", *args], stdin=follower, stdout=follower,
                                        stderr=follower, preexec_fn=_controlling_terminal, env=environ)
        os.close(follower)
        self.raw = b""
        #: whether another game was offered at the game over (:meth:`play` answers no, with Enter)
        self.offered_another = False

    def read_some(self, wait: float) -> bytes | None:
        """What the command printed within ``wait`` seconds (added to :attr:`raw`; empty if nothing), or ``None``
        once its side of the terminal is closed."""
        if not select.select([self.leader], [], [], wait)[0]:
            return b""
        try:
            chunk = os.read(self.leader, 65536)
        except OSError:
            return None
        self.raw += chunk
        return chunk or None

    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def play(self, answer: Callable[[str, str], str | None], timeout: float = 60) -> int:
        """Answer every prompt until the command ends (``answer`` returning None stops answering: the command is
        ended); its exit status."""
        end = time.monotonic() + timeout
        mark = 0
        try:
            while time.monotonic() < end:
                got = self.read_some(0.2)
                if got is None:
                    break
                if not got:
                    if self.process.poll() is not None:
                        break
                    continue
                screen = ANSI.sub("", self.raw[mark:].decode("utf-8", "replace")).replace("\r", "")
                asked = PROMPT.search(screen)
                if asked is None:
                    continue
                mark = len(self.raw)
                if asked.group(1).startswith("Another game"):
                    self.offered_another = True
                    os.write(self.leader, b"\r")
                    continue
                keys = answer(asked.group(1), screen)
                if keys is None:
                    break
                enter = b"" if keys in (CTRL_C, CTRL_D) else b"\r"
                os.write(self.leader, keys.encode("utf-8", "surrogateescape") + enter)
            else:
                raise AssertionError(f"the game did not end in {timeout} s:\n{self.text()[-3000:]}")
            return self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            os.close(self.leader)


def listed_moves(screen: str) -> list[tuple[int, str]]:
    """The numbered moves of the last list on ``screen``, each with its notation (``6-4@3``, ``6-6``, ``draw``)."""
    listing = screen.split("╯")[-1].split("+---")[-1]  # (after the table's box, Unicode or ASCII)
    moves = []
    for found in LISTED.finditer(listing):
        number, words, led_high, led_low, join, out, target = found.groups()
        if led_high is not None:
            moves.append((int(number), f"{led_high}-{led_low}"))
        elif join is not None:
            moves.append((int(number), f"{join}-{out}@{target}"))
        else:
            moves.append((int(number), words.split()[0]))
    return moves


def totals_shown(text: str, names: list[str]) -> list[int]:
    """The last ``Totals:`` the terminal showed (a long line may be folded at the window's edge)."""
    last = " ".join(text.rsplit("Totals: ", 1)[1].split("Game over")[0].split())
    return [int(re.search(rf"{re.escape(name)} (-?\d+)", last)[1]) for name in names]  # type: ignore[index]


def replayed(path: Path) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "boneyard", "replay", str(path), "--json"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert isinstance(result, dict)
    return result


def a_person(seed: int) -> Callable[[str, str], str | None]:
    """Someone who plays every form README names: a number, the notation, the bare tile either way round, a letter
    where asked which, and now and then h, u, ? and s."""
    rng = random.Random(seed)
    count = [0]

    def answer(prompt: str, screen: str) -> str | None:
        count[0] += 1
        assert count[0] < 3000, "the game does not end"
        if prompt.startswith("Which"):
            return rng.choice(["a", "b", "B"])
        roll = rng.random()
        if roll < 0.04:
            return rng.choice(["h", "?", "s", "", "x"])
        if roll < 0.08:
            return "u"
        moves = listed_moves(screen)
        if not moves:
            return "1"
        number, notation = rng.choice(moves)
        if roll < 0.35:
            return str(number)
        if roll < 0.65 or "-" not in notation:
            return notation.replace("@", rng.choice(["@", " @ "]))
        high, low = notation.split("@")[0].split("-")
        return rng.choice([f"{high}-{low}", f"{low}-{high}"])  # the bare tile: asked which where it fits twice

    return answer


# ---------------------------------------------------------------- whole games, every variant
GAMES = [
    ("block", ["-n", "4", "-o", "partnerships=true", "-o", "target=40"], {"COLUMNS": "60"}, 60, False),
    ("draw", ["-n", "3", "-o", "set=9", "-o", "target=60", "-o", "blocked_score=all_pips"], {"NO_COLOR": "1"}, 80,
     False),
    ("all-fives", ["-n", "2", "-o", "target=100", "-o", "spinner_mode=all_doubles"],
     {"PYTHONIOENCODING": "cp1252"}, 60, False),
    ("bergen", ["-n", "4", "-o", "block_rule=german", "--ai", "heuristic,random"], {"TERM": "dumb"}, 80, True),
    ("double-bergen", ["-n", "3", "-o", "set=12", "-o", "target=40"], {"PYTHONIOENCODING": "ascii"}, 80, True),
    ("flower-scorpion", ["-n", "4", "-o", "score_floor=none"], {}, 60, False),
    ("pip", ["-n", "5", "-o", "two_player_reverse_skips=true", "-o", "letter_end=open_wild"], {"TERM": "dumb"}, 60,
     True),
]


@pytest.mark.parametrize("variant,args,env,columns,plain", GAMES, ids=[game[0] for game in GAMES])
def test_a_whole_game_at_a_real_terminal_replays_to_the_totals_it_showed(tmp_path: Path, variant: str,
                                                                        args: list[str], env: dict[str, str],
                                                                        columns: int, plain: bool) -> None:
    path = tmp_path / "game.boneyard.json"
    table = Table("play", variant, "--seed", "3", "--save", str(path), *args, *(["--plain"] if plain else []),
                  tmp_path=tmp_path, columns=columns, env=env)
    assert table.play(a_person(len(variant)), timeout=120) == 0
    assert table.offered_another  # (Enter: no more games)
    text = table.text()
    assert "Traceback" not in text and re.search(r"Game over [—-] ", text) and "House rules: " in text
    assert f"Record:{path}" in re.sub(r"\s+", "", text)  # (a long path is folded at the window's edge)
    too_wide = [line for line in text.split("\n") if len(line) > columns and not line.startswith("Your move")]
    assert not too_wide, too_wide[:3]
    if "PYTHONIOENCODING" in env:
        assert table.raw.isascii()  # the table's marks in ASCII, never a crash
    if "NO_COLOR" in env or env.get("TERM") == "dumb":
        assert not COLOUR.search(table.raw.decode("utf-8", "replace"))
    if plain:
        assert not re.search(r"^[│|╭╰+]", text, re.M)  # no box: nothing to read on every line
    assert ("Which? (a or b" in text) == ("fits 2 ways" in text)
    data = record.load(path)
    names = [str(name) for name in data["players"]]
    result = replayed(path)
    assert result["finished"] is True and result["totals"] == totals_shown(text, names)
    winner = result["winner"]
    assert winner is None or names[winner] in re.split(r"Game over [—-] ", text)[1]  # type: ignore[index]


# ---------------------------------------------------------------- typing the terminal cannot decode
@pytest.mark.parametrize("encoding,typed", [("ascii", "\u0663"), ("ascii", "caf\u00e9"),
                                            ("utf-8", "\udcff\udcfe")], ids=["ascii-digit", "ascii-word", "latin1"])
def test_what_the_terminal_cannot_decode_is_refused_and_the_game_goes_on(tmp_path: Path, encoding: str,
                                                                        typed: str) -> None:
    """Typing in another encoding than the program reads (an accented letter at an ASCII console, a Latin-1
    terminal under a UTF-8 locale) was a crash with a traceback; now it is said and the prompt asked again."""
    path = tmp_path / "game.boneyard.json"
    script = iter([typed, "1", typed, "q"])
    prompts: list[str] = []

    def answer(prompt: str, screen: str) -> str:
        prompts.append(prompt)
        return next(script) if not prompt.startswith("Which") else "a"

    table = Table("play", "all-fives", "--seed", "7", "--save", str(path), tmp_path=tmp_path,
                  env={"PYTHONIOENCODING": encoding})
    assert table.play(answer) == 0
    text = table.text()
    assert "Traceback" not in text and "UnicodeDecodeError" not in text
    assert text.count(f"Could not read what you typed: it is not {encoding} text. Type it again.") == 2
    assert f"Saved to {path}" in text and len(prompts) == 4
    game = record.replay(record.load(path))
    assert [event.seat for event in game.hand.events].count(0) == 1  # the one move, nothing lost or added


def test_what_cannot_be_decoded_at_which_or_at_the_end_asks_again(tmp_path: Path) -> None:
    game = _position_where_a_tile_fits_two_places()
    before = len(game.hand.events)
    answers = iter(["__bad__", "__bad__", "q"])

    def ask(prompt: str) -> str:
        answer = next(answers) if not prompt.startswith("Which") else "__bad__"
        if answer == "__bad__":
            raise UnicodeDecodeError("ascii", b"\xc3", 0, 1, "ordinal not in range(128)")
        return answer

    session, console = _session(game, ask)
    session.say(session.move_list(game.legal_moves()))
    tile = next(move.tile for move in game.legal_moves()
                if sum(1 for other in game.legal_moves() if other.tile == move.tile) > 1)
    assert session.parse_answer(str(tile), game.legal_moves()) is None  # asked which; not read: no move
    assert not session.human_turn()
    assert len(game.hand.events) == before
    assert console.export_text().count("it is not ascii text") == 3
    # at the end of a game that could not be saved: not read is not "Enter leaves it unsaved"
    answers = iter(["__bad__", str(tmp_path / "kept.boneyard.json")])
    (tmp_path / "drive").write_text("a file where the folder was")
    session.save_path = tmp_path / "drive" / "game.boneyard.json"
    session.save_at_the_end()
    assert console.export_text().count("it is not ascii text") == 1  # (the text since the last export)
    assert record.replay(record.load(tmp_path / "kept.boneyard.json")).hand.events == game.hand.events


# ---------------------------------------------------------------- Ctrl-C and Ctrl-D
@pytest.mark.parametrize("key,said,code", [(CTRL_C, "boneyard: interrupted; saved to ", 130),
                                           (CTRL_D, "Saved to ", 0)], ids=["ctrl-c", "ctrl-d"])
def test_ctrl_c_or_ctrl_d_at_the_prompt_says_so_on_a_line_of_its_own(tmp_path: Path, key: str, said: str,
                                                                     code: int) -> None:
    path = tmp_path / "game.boneyard.json"
    script = iter(["1", key])
    table = Table("play", "block", "--seed", "2", "--save", str(path), tmp_path=tmp_path)
    assert table.play(lambda prompt, screen: next(script, None)) == code
    text = table.text()
    assert re.search(rf"^{re.escape(said)}{re.escape(str(path))}", text, re.M), text[-500:]
    assert "Your move: boneyard" not in text and "Your move: Saved" not in text
    assert record.replay(record.load(path)).in_hand


def _moves(path: Path) -> list[list[str]]:
    return [list(hand["moves"]) for hand in record.load(path)["hands"]]


def test_ctrl_c_at_the_prompt_and_while_the_expert_thinks_resumes_exactly(tmp_path: Path) -> None:
    args = ["play", "all-fives", "--seed", "4", "-n", "3", "--ai", "greedy,expert:samples=20000"]
    straight, stopped = tmp_path / "straight.json", tmp_path / "stopped.json"
    first = iter(["1", "1", "q"])
    assert Table(*args, "--save", str(straight), tmp_path=tmp_path).play(
        lambda prompt, screen: next(first) if prompt == "Your move: " else "a", timeout=120) == 0
    # Ctrl-C at the prompt, before a single move
    assert Table(*args, "--save", str(stopped), tmp_path=tmp_path).play(lambda prompt, screen: CTRL_C) == 130
    # your move, then Ctrl-C once it is on the screen: the expert (seat 2) is searching, seat 1 may have moved
    table = Table("play", "--resume", str(stopped), tmp_path=tmp_path)
    assert _interrupt_while_thinking(table) == 130
    text = table.text()
    assert "boneyard: interrupted; saved to " in text and "Traceback" not in text, text[-3000:]
    thinking = record.replay(record.load(stopped))
    assert thinking.in_hand and thinking.turn in (1, 2)  # stopped while the computers were on: yours is kept
    rest = iter(["1", "q"])
    assert Table("play", "--resume", str(stopped), tmp_path=tmp_path).play(
        lambda prompt, screen: next(rest) if prompt == "Your move: " else "a", timeout=120) == 0
    whole, parts = _moves(straight), _moves(stopped)
    assert len(whole) == len(parts) == 1 and whole == parts  # the same deal, the same moves, the same choices
    assert sum(1 for move in whole[0]) >= 6


def _interrupt_while_thinking(table: Table) -> int:
    """Answer the first prompt with 1, then press Ctrl-C as soon as the move is shown (the computers are on)."""
    end = time.monotonic() + 60
    answered = False
    try:
        while time.monotonic() < end:
            got = table.read_some(0.2)
            if got is None:
                break
            if got:
                text = table.text()
                if not answered and PROMPT.search(text):
                    os.write(table.leader, b"1\r")
                    answered = True
                elif answered and re.search(r"\nYou: [^\n]*\n", text.split("Your move: ")[-1]):
                    os.write(table.leader, CTRL_C.encode())
                    while table.read_some(30):  # what it says as it stops
                        pass
                    return table.process.wait(timeout=30)
            elif table.process.poll() is not None:
                break
        raise AssertionError(table.text()[-2000:])
    finally:
        if table.process.poll() is None:
            os.killpg(table.process.pid, signal.SIGKILL)
            table.process.wait()
        os.close(table.leader)


# ---------------------------------------------------------------- every input form
def test_every_input_form_readme_names_plays_the_move_it_names(tmp_path: Path) -> None:
    """A number, the notation, ``4-2 @ 1``, the bare tile either way round, ``b`` where asked which, ``s FILE``,
    then ``q``: the record holds exactly the moves typed, in the file named last."""
    path, elsewhere = tmp_path / "game.boneyard.json", tmp_path / "elsewhere.boneyard.json"
    meant: list[str] = []
    forms: set[str] = set()
    shown: list[list[tuple[int, str]]] = [[]]
    rng = random.Random(5)

    def answer(prompt: str, screen: str) -> str:
        if prompt.startswith("Which"):
            forms.add("which")
            options = re.findall(r"([a-z])\) (\w+)-(\w+) on tile (\d+)", screen)
            _, join, out, target = options[1]
            meant.append(f"{join}-{out}@{target}")
            return "b"
        moves = listed_moves(screen) or shown[-1]  # (after s FILE, the list shown before)
        shown.append(moves)
        if len(meant) == 10 and "s FILE" not in forms:
            forms.add("s FILE")
            return f"s {elsewhere}"
        if len(meant) >= 14:
            return "q"
        tiles = [notation.split("@")[0] for _, notation in moves]
        twice = [m for m in moves if "@" in m[1]
                 and sum(sorted(t.split("-")) == sorted(m[1].split("@")[0].split("-")) for t in tiles) > 1]
        if twice and "which" not in forms:
            high, low = twice[0][1].split("@")[0].split("-")
            return f"{low}-{high}"  # the bare tile, the other way round; it fits twice: asked which
        assert moves, screen
        number, notation = rng.choice(moves)
        once = "@" in notation and sum(sorted(t.split("-")) == sorted(notation.split("@")[0].split("-"))
                                       for t in tiles) == 1
        form = "bare" if once and "bare" not in forms else rng.choice(["number", "notation", "spaced"])
        forms.add(form)
        meant.append(notation)
        if form == "number":
            return str(number)
        if form == "spaced":
            return notation.replace("@", " @ ")
        if form == "bare":
            high, low = notation.split("@")[0].split("-")
            return f"{low}-{high}"
        return notation

    table = Table("play", "all-fives", "--seed", "11", "-o", "target=500", "--save", str(path), tmp_path=tmp_path)
    assert table.play(answer) == 0
    assert forms >= {"number", "notation", "spaced", "bare", "which", "s FILE"}, forms
    text = " ".join(table.text().split())
    assert f"Saved to {elsewhere}; later moves are saved there too." in text
    assert f"Saved to {elsewhere} — resume with: boneyard play --resume {elsewhere}" in text
    def mine(file: Path) -> list[str]:
        game = record.replay(record.load(file))
        return [str(event.move) for hand in game.log for event in hand.events if event.seat == 0]

    assert mine(elsewhere) == meant and mine(path) == meant[:10]  # the first file is left as it was at s FILE


# ---------------------------------------------------------------- resume of a finished game
def test_resume_of_a_finished_game_touches_nothing_and_offers_its_replay(tmp_path: Path) -> None:
    path, other = tmp_path / "done.boneyard.json", tmp_path / "other.boneyard.json"
    table = Table("play", "block", "--seed", "2", "-o", "target=10", "--save", str(path), tmp_path=tmp_path)
    assert table.play(lambda prompt, screen: "1" if prompt == "Your move: " else "a") == 0
    kept = path.read_bytes()
    assert record.replay(record.load(path)).finished
    again = Table("play", "--resume", str(path), "--save", str(other), tmp_path=tmp_path)
    assert again.play(lambda prompt, screen: pytest.fail(f"asked {prompt!r} about a finished game")) == 0
    text = " ".join(again.text().split())
    assert f"{path} holds a finished game: " in text and f"Replay it with: boneyard replay {path}" in text
    assert path.read_bytes() == kept and not other.exists()


# ---------------------------------------------------------------- undo: back to the start of your turn
def _session(game: Game, ask: Callable[[str], str]) -> tuple[TerminalSession, Console]:
    console = Console(record=True, width=100, height=60, force_terminal=False, file=io.StringIO())
    return start_session(game, ["random"], 0, None, console, ask), console


def _position_where_a_tile_fits_two_places() -> Game:
    rng = random.Random(2)
    for seed in range(200):
        game = boneyard.new_game("all-fives", 2, seed=seed, names=["You", "Computer 1"])
        while game.in_hand:
            moves = game.legal_moves()
            tiles = [move.tile for move in moves if move.kind == Kind.PLAY]
            if game.turn == 0 and len(tiles) != len(set(tiles)):
                return game
            game.apply(rng.choice(moves))
    raise AssertionError("no tile fits two places in 200 deals")


def _state(game: Game) -> tuple[object, ...]:
    return (len(game.log), tuple(event.move for event in game.hand.events), tuple(map(tuple, game.hands)),
            tuple(game.scores), game.turn, game.direction, game.stock_left, tuple(game.pending))


def _play_undoing(variant: str, players: int, seed: int, undone_after: set[object]) -> None:
    """A whole game with ``u`` typed now and then; each undo must give back the state at the start of your last
    turn (``undone_after``: what your last move was, each time)."""
    game = boneyard.new_game(variant, players, seed=seed, names=["You", *[f"C{i}" for i in range(1, players)]])
    rng = random.Random(seed)
    seen: dict[tuple[int, int], tuple[object, ...]] = {}  # the state at each start of your turn
    expected: list[tuple[object, ...] | None] = [None]
    asked = [0]

    def ask(prompt: str) -> str:
        asked[0] += 1
        assert asked[0] < 3000, "the game does not end"
        if prompt.startswith("Which"):
            return "a"
        state = _state(game)
        if expected[0] is not None:
            assert state == expected[0]
            expected[0] = None
        events = game.hand.events
        if not events or events[-1].seat != 0:
            seen[len(game.log), len(events)] = state
        mine = [i for i, event in enumerate(events) if event.seat == 0]
        if mine and rng.random() < 0.25:
            start = mine[-1]
            while start and events[start - 1].seat == 0:
                start -= 1
            expected[0] = seen[len(game.log), start]
            last = events[mine[-1]].move
            undone_after.add(last.kind if last.tile is None or last.tile.letter is None
                             else str(last.tile).split("-")[0])
            return "u"
        return str(rng.randrange(1, len(game.legal_moves()) + 1))

    session, console = _session(game, ask)
    assert session.run() == 0
    assert game.finished and "Undone." in console.export_text()


@pytest.mark.parametrize("variant,players,games", [("pip", 2, 1), ("pip", 3, 2), ("pip", 4, 2), ("draw", 3, 4)])
def test_undo_goes_back_to_the_start_of_your_last_turn_whatever_happened_since(variant: str, players: int,
                                                                               games: int) -> None:
    """After a skip, a reverse, an again, a draw tile or a draw from the stock, and across the computers' moves,
    ``u`` puts the table back exactly as it was when your last turn began."""
    undone_after: set[object] = set()
    for seed in range(games):
        _play_undoing(variant, players, seed, undone_after)
    if variant == "pip":
        assert undone_after & {"S", "R", "A", "D"}, undone_after
    else:
        assert Kind.DRAW in undone_after
