"""Audit of playing in the terminal (``boneyard play`` without ``--web``), as README's "A game in the terminal"
section and the ``?`` help describe it: every input form, undo, hints, saving and resuming, Ctrl-C and Ctrl-D on
a real (pseudo-)terminal, narrow windows, the scoring said as it happens and explained at the end of a hand.

Games are driven in two ways: in-process sessions whose prompt answers from a script (as tests/test_terminal.py
does), and the real command on a pseudo-terminal that is its controlling terminal, so Ctrl-C is a real SIGINT.
"""

from __future__ import annotations

import errno
import fcntl
import io
import json
import os
import pty
import random
import re
import resource
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest
from rich.console import Console

import boneyard
from boneyard import record
from boneyard.moves import Kind
from boneyard.state import Game
from boneyard.terminal import TerminalSession, start_session
from tests.helpers import ambiguous_choices, two_places

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
PROMPT = "Your move: "


# ---------------------------------------------------------------- helpers
def session_for(game: Game, answers: list[str] | Callable[[str], str], path: Path | None, *, width: int = 100,
                height: int = 60, levels: list[str] | None = None) -> tuple[TerminalSession, Console]:
    """A session on ``game`` whose prompt answers from ``answers`` (then ``q``), or asks ``answers(prompt)``."""
    console = Console(record=True, width=width, height=height, force_terminal=False, file=io.StringIO())
    if callable(answers):
        ask = answers
    else:
        feed = iter([*answers, *["q"] * 5])

        def ask(prompt: str) -> str:
            return next(feed)
    return start_session(game, levels or ["greedy"], 0, path, console, ask), console


def flat(console: Console) -> str:
    """The console's text with runs of white space made one space (Rich wraps long lines)."""
    return " ".join(console.export_text().split())


def names(players: int) -> list[str]:
    return ["You", *[f"Computer {i}" for i in range(1, players)]]


def first_position(variant: str, players: int, wanted: Callable[[Game], bool], seeds: int = 300,
                   **options: object) -> Game:
    """The first position of a seeded game played at random where seat 0 is on turn and ``wanted`` holds."""
    rng = random.Random(1)
    for seed in range(seeds):
        game = boneyard.new_game(variant, players, seed=seed, options=options or None, names=names(players))
        while game.in_hand:
            if game.turn == 0 and wanted(game):
                return game
            game.apply(rng.choice(game.legal_moves()))
    raise AssertionError(f"no such position in {seeds} deals")


def cli(*args: str, stdin: str = "", columns: int = 100,
        preexec: Callable[[], None] | None = None) -> subprocess.CompletedProcess[str]:
    """The real command, standard input a pipe (a script), as a user runs it."""
    return subprocess.run([sys.executable, "-m", "boneyard", *args], input=stdin, capture_output=True, text=True,
                          timeout=180, preexec_fn=preexec, env={**os.environ, "COLUMNS": str(columns)})


def _controlling_terminal() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """``boneyard`` on a pseudo-terminal that is its controlling terminal (Ctrl-C sends SIGINT, Ctrl-D ends input)."""

    def __init__(self, *args: str, columns: int = 100, rows: int = 40) -> None:
        self.leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**os.environ, "TERM": "xterm", "COLUMNS": str(columns), "LINES": str(rows)}
        self.process = subprocess.Popen([sys.executable, "-m", "boneyard", *args], stdin=follower, stdout=follower,
                                        stderr=follower, preexec_fn=_controlling_terminal, env=env)
        os.close(follower)
        self.raw = b""
        self.seen = 0

    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def wait_for(self, pattern: str, timeout: float) -> bool:
        """Read until ``pattern`` shows in what came since the last call (True), the time is up or the command
        ended (False)."""
        end = time.monotonic() + timeout
        while True:
            fresh = self.text()[self.seen:]
            found = re.search(pattern, fresh)
            if found:
                self.seen += found.end()
                return True
            left = end - time.monotonic()
            if left <= 0:
                return False
            if select.select([self.leader], [], [], min(left, 0.2))[0]:
                try:
                    chunk = os.read(self.leader, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    return False
                self.raw += chunk
            elif self.process.poll() is not None:
                return False

    def send(self, keys: str) -> None:
        os.write(self.leader, keys.encode())

    def finish(self, timeout: float = 30) -> int:
        """Read what is left until the command ends; its exit status."""
        self.wait_for(r"\Z(?!x)x", timeout)  # (a pattern that never matches: read to the end)
        try:
            return self.process.wait(timeout=timeout)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
            os.close(self.leader)


def comparable(data: dict[str, object]) -> list[object]:
    """A record's hands (deals and moves) to compare two runs of the same game."""
    hands = data["hands"]
    assert isinstance(hands, list)
    return hands


# ---------------------------------------------------------------- a real terminal
def test_every_command_and_bad_input_at_a_real_terminal_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "real.boneyard.json"
    term = Terminal("play", "all-fives", "--seed", "7", "--save", str(path), columns=60, rows=40)
    answers = ["", "   ", "xyz", "99999999999999999999", "\u0663", "0", "?", "h", "s", "1", "1", "u", "1"]
    for answer in answers:
        assert term.wait_for(re.escape(PROMPT), 30), term.text()[-2000:]
        term.send(answer + "\n")
    assert term.wait_for(re.escape(PROMPT), 30)
    term.send("\x04")  # Ctrl-D at the prompt: saved, with how to resume
    assert term.finish() == 0
    text = term.text()
    assert "Traceback" not in text
    assert len(re.findall(r"Choose 1 to \d+\.|Type 1: it is the only move\.", text)) == 3  # 9…9, ٣ and 0
    assert "'xyz' is not a move" in text
    assert "✚" in text and "a spinner" in text  # ? shows the legend
    assert "Hint: " in text
    assert "Undone." in text
    squeezed = re.sub(r"\s+", "", text)  # (a long path is folded at the window's edge)
    assert f"Savedto{path}" in squeezed and f"resumewith:boneyardplay--resume{path}" in squeezed
    panel = [line for line in text.split("\n") if line.startswith(("│", "╭", "╰"))]
    assert panel and max(len(line) for line in panel) <= 60
    game = record.replay(record.load(path))
    assert game.in_hand and sum(1 for event in game.hand.events if event.seat == 0) >= 2


def test_ctrl_c_while_the_expert_thinks_on_a_real_terminal_stops_at_once_and_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "thinking.boneyard.json"
    term = Terminal("play", "all-fives", "--seed", "4", "--ai", "expert:time=60", "--save", str(path))
    thinking = False
    for _ in range(30):
        if not term.wait_for(re.escape(PROMPT), 4):  # no prompt for 4 s: the expert is searching
            thinking = True
            break
        term.send("1\n")
    assert thinking, term.text()[-2000:]
    term.send("\x03")
    pressed = time.monotonic()
    code = term.finish()
    assert time.monotonic() - pressed < 10
    assert code == 130
    text = term.text()
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert f"boneyard: interrupted; saved to {path}; resume with: boneyard play --resume {path}" in text
    game = record.replay(record.load(path))
    assert game.in_hand and game.turn == 1  # every move of yours kept; the computer was still to move


# ---------------------------------------------------------------- every variant, every level, bad input
GARBAGE = ["", "  ", "xyz", "0", "-1", "9" * 30, "\u0663", "\u00b2", "6\u20135", "6-5@", "@1", "6-5@0", "lead",
           "draw 6-6", "give", "\U0001f063", "6-5@1@2", "W-W", "S-W@1", "1,2", "1.0", "+1", "?", "s"]


@pytest.mark.parametrize("variant,players,level", [
    ("block", 4, "heuristic"), ("draw", 3, "random"), ("all-fives", 2, "greedy"), ("bergen", 4, "random"),
    ("double-bergen", 3, "heuristic"), ("flower-scorpion", 2, "heuristic"), ("pip", 4, "greedy"),
])
def test_a_whole_game_with_random_input_never_breaks_and_its_record_replays(tmp_path: Path, variant: str,
                                                                              players: int, level: str) -> None:
    rng = random.Random(players)
    game = boneyard.new_game(variant, players, seed=11, names=names(players))
    asked = [0]

    def ask(prompt: str) -> str:
        asked[0] += 1
        assert asked[0] < 4000, "the game does not end"
        if prompt.startswith("Which"):
            return rng.choice(["a", "b", "z", "", "B"])
        moves = game.legal_moves()
        move = rng.choice(moves)
        roll = rng.random()
        if roll < 0.12:
            return rng.choice(GARBAGE)
        if roll < 0.16:
            return "u"
        if roll < 0.45 and move.tile is not None and move.is_placement:
            high, low = str(move.tile).split("-")
            return rng.choice([f"{high}-{low}", f"{low}-{high}"])  # the bare tile, either way round
        if roll < 0.65:
            return str(move).replace("@", rng.choice(["@", " @ "]))
        return str(rng.randrange(1, len(moves) + 1))

    path = tmp_path / "fuzz.boneyard.json"
    session, console = session_for(game, ask, path, levels=[level])
    assert session.run() == 0
    assert game.finished
    text = console.export_text()
    assert "Game over — " in text and f"Record: {path}" in text
    assert f"your moves reviewed: boneyard review {path})" in " ".join(text.split())  # what to do with it next
    replayed = record.replay(record.load(path))
    assert replayed.finished and (replayed.scores, replayed.winner) == (game.scores, game.winner)


def test_an_ambiguous_tile_asks_which_and_a_bad_or_missing_answer_chooses_nothing() -> None:
    game = first_position("all-fives", 2, two_places)
    tile, choices = ambiguous_choices(game)
    before = len(game.hand.events)
    low_first = "-".join(reversed(str(tile).split("-")))
    session, console = session_for(game, [str(tile), "z", low_first, "", low_first, str(choices[-1]).upper()], None)
    assert session.human_turn()
    text = flat(console)
    assert text.count(f"{tile} fits {len(choices)} ways") == 3 and text.count("no move chosen.") == 1
    assert "'z' is not a or b" in text and text.count("No move chosen.") == 1  # (a wrong letter, then none)
    assert len(game.hand.events) == before + 1 and game.hand.events[before].move == choices[-1]


# ---------------------------------------------------------------- resume: identical, whatever was typed
@pytest.mark.parametrize("variant,args", [
    ("block", ["-n", "4", "-o", "partnerships=true", "--ai", "expert:samples=10,random,heuristic"]),
    ("pip", ["-n", "3", "--ai", "expert:samples=10,heuristic"]),
])
def test_quitting_resuming_hints_and_undos_change_nothing_with_the_expert(tmp_path: Path, variant: str,
                                                                          args: list[str]) -> None:
    straight, stopped = tmp_path / "straight.json", tmp_path / "stopped.json"
    done = cli("play", variant, "--seed", "5", "--save", str(straight), *args, stdin="1\n" * 150 + "q\n")
    assert done.returncode == 0, done.stderr
    done = cli("play", variant, "--seed", "5", "--save", str(stopped), *args, stdin="1\nq\n")
    assert done.returncode == 0, done.stderr
    rng = random.Random(3)
    for _ in range(4):  # an undo is followed by the same answer, so the moves are those of the straight game
        script = "".join(rng.choice(["1\n", "h\n1\n", "1\nu\n1\n"]) for _ in range(8)) + "q\n"
        resumed = cli("play", "--resume", str(stopped), stdin=script)
        assert resumed.returncode == 0, resumed.stderr
    whole, parts = comparable(record.load(straight)), comparable(record.load(stopped))
    assert len(parts) >= 1 and sum(len(hand["moves"]) for hand in parts) >= 20
    for one, other in zip(whole, parts, strict=False):
        shared = min(len(one["moves"]), len(other["moves"]))
        assert one["moves"][:shared] == other["moves"][:shared]
        assert {k: v for k, v in one.items() if k != "moves"} == {k: v for k, v in other.items() if k != "moves"}


@pytest.mark.parametrize(("content", "said"), [
    ("", "empty, so not a record"),
    ("{", "not valid JSON (line 1, column 2: Expecting property name enclosed in double quotes) — the text ends "
          "there: was the file cut short?"),
    ('{"format": "boneyard/1", "variant": "all-fives", "players": 2, ', "was the file cut short?"),
])
def test_resuming_a_truncated_record_is_one_line_and_leaves_it_alone(tmp_path: Path, content: str, said: str) -> None:
    path = tmp_path / "cut.boneyard.json"
    path.write_text(content)
    done = cli("play", "--resume", str(path), stdin="1\nq\n")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and said in lines[0]
    assert path.read_text() == content


def test_resume_with_save_onto_another_game_is_refused_unless_forced(tmp_path: Path) -> None:
    mine, other = tmp_path / "mine.json", tmp_path / "other.json"
    assert cli("play", "all-fives", "--seed", "1", "--save", str(mine), stdin="1\nq\n").returncode == 0
    assert cli("play", "block", "--seed", "2", "--save", str(other), stdin="1\nq\n").returncode == 0
    kept_mine, kept_other = mine.read_bytes(), other.read_bytes()
    refused = cli("play", "--resume", str(mine), "--save", str(other), stdin="1\nq\n")
    assert refused.returncode == 2
    assert f"{other} holds an unfinished game of Block dominoes" in refused.stderr and "--force" in refused.stderr
    assert (mine.read_bytes(), other.read_bytes()) == (kept_mine, kept_other)
    forced = cli("play", "--resume", str(mine), "--save", str(other), "--force", stdin="1\nq\n")
    assert forced.returncode == 0, forced.stderr
    assert mine.read_bytes() == kept_mine  # the game goes on in the new file; the old one is left as it was
    moved_on = record.load(other)
    assert moved_on["variant"] == "all-fives"
    assert len(moved_on["hands"][0]["moves"]) > len(record.load(mine)["hands"][0]["moves"])


# ---------------------------------------------------------------- undo
def test_undo_in_pip_after_a_give_takes_back_the_whole_turn_and_nothing_before_it() -> None:
    game = first_position("pip", 4, lambda g: any(m.kind == Kind.GIVE for m in g.legal_moves()))
    turn_start = len(game.hand.events)
    while turn_start and game.hand.events[turn_start - 1].seat == 0:
        turn_start -= 1  # the D tile (and a draw before it) belong to this turn
    earlier = [event.move for event in game.hand.events[:turn_start]]
    session, console = session_for(game, ["1"], None)
    assert session.human_turn()
    assert game.hand.events[-1].move.kind == Kind.GIVE
    while game.in_hand and game.turn != 0:
        session.say_event(game.apply(session.computer_move(game.turn)))
    if not game.in_hand:  # pragma: no cover - the position is chosen so that the hand goes on
        pytest.skip("the hand ended before your next turn")
    session.ask = lambda prompt: "u"
    assert session.human_turn()
    assert "Undone." in console.export_text()
    assert [event.move for event in game.hand.events] == earlier and game.turn == 0


def test_undo_after_a_draw_puts_the_tile_back_and_at_the_start_of_a_hand_says_there_is_nothing() -> None:
    game = first_position("draw", 2, lambda g: bool(g.hand.events)
                          and [m.kind for m in g.legal_moves()] == [Kind.DRAW])
    hand, stock = list(game.hands[0]), game.stock_left
    session, console = session_for(game, ["1", "u"], None)
    assert session.human_turn() and len(game.hands[0]) == len(hand) + 1
    assert session.human_turn()
    assert "Undone." in console.export_text()
    assert list(game.hands[0]) == hand and game.stock_left == stock and game.turn == 0
    fresh = boneyard.new_game("draw", 2, seed=3, names=names(2))
    while fresh.turn != 0:
        fresh.apply(fresh.legal_moves()[0])
    assert not any(event.seat == 0 for event in fresh.hand.events)
    events = len(fresh.hand.events)
    session, console = session_for(fresh, ["u", "q"], None)
    assert not session.human_turn()
    assert "Nothing of yours to undo in this hand." in console.export_text() and len(fresh.hand.events) == events


# ---------------------------------------------------------------- saving fails during the game
def _initial_record_size(tmp_path: Path, args: list[str]) -> int:
    probe = tmp_path / "probe.boneyard.json"
    assert cli("play", *args, "--save", str(probe), stdin="q\n").returncode == 0
    return probe.stat().st_size


def test_a_full_disk_during_the_game_is_said_once_and_play_goes_on(tmp_path: Path) -> None:
    args = ["block", "--seed", "5", "-o", "target=10"]
    room = _initial_record_size(tmp_path, args) + 40  # a few moves fit, then every write fails (EFBIG)

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (room, room))

    path = tmp_path / "full.boneyard.json"
    done = cli("play", *args, "--save", str(path), stdin="1\n" * 200, preexec=small_disk)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert text.count(f"Could not save to {path}") == 1 and "The game goes on with every move kept" in text
    assert "Game over — " in text and "Traceback" not in done.stderr
    assert record.replay(record.load(path)).in_hand  # the last save that fitted, a whole record


def test_a_game_over_that_could_not_be_saved_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "drive"
    folder.mkdir()
    path = folder / "g.boneyard.json"
    game = boneyard.new_game("block", 2, seed=5, options={"target": 20}, names=names(2))
    asked = [0]

    elsewhere = tmp_path / "elsewhere.boneyard.json"
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Save it to another file"):  # asked at the game's end: another drive
            return str(elsewhere) if len([p for p in prompts if p.startswith("Save it")]) > 1 else str(folder / "x")
        asked[0] += 1
        if asked[0] == 2:  # the drive goes away: every later save fails
            for file in folder.iterdir():
                file.unlink()
            folder.rmdir()
            folder.write_text("a file now")
        return "1"

    session, console = session_for(game, ask, path)
    assert session.save()
    session.run()
    assert game.finished
    after = flat(console).split("Game over — ")[1].lower()
    assert str(path).lower() in after and "not saved" in after
    assert len([p for p in prompts if p.startswith("Save it")]) == 2  # a file that cannot be written: asked again
    assert record.replay(record.load(elsewhere)).finished  # the finished game, kept where the player said
    assert session.save_path == elsewhere and f"record: {elsewhere}".lower() in after


def test_a_game_over_left_unsaved_when_the_player_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "drive"
    folder.mkdir()
    game = boneyard.new_game("block", 2, seed=5, options={"target": 20}, names=names(2))

    def ask(prompt: str) -> str:
        if prompt.startswith("Save it to another file"):
            return ""  # Enter: leave it
        if folder.is_dir():  # the drive goes away after the first move
            for file in folder.iterdir():
                file.unlink()
            folder.rmdir()
            folder.write_text("a file now")
        return "1"

    session, console = session_for(game, ask, folder / "g.boneyard.json")
    assert session.save()
    session.run()
    assert game.finished and session.unsaved is not None
    assert "The finished game was not saved." in flat(console)


# ---------------------------------------------------------------- s FILE
def test_s_naming_the_file_the_game_is_saved_to_saves_it(tmp_path: Path) -> None:
    path = tmp_path / "mine.boneyard.json"
    game = boneyard.new_game("all-fives", 2, seed=3, names=names(2))
    session, console = session_for(game, ["1", f"s {path}"], path)
    assert session.save()
    session.run()
    text = flat(console)
    assert "Not saved" not in text and f"Saved to {path}" in text


def test_a_failed_s_file_says_the_game_is_still_saved_where_it_was(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = tmp_path / "old.boneyard.json", tmp_path / "new.boneyard.json"
    real_save = record.save

    def full_disk_for_new(game: Game, path: Path, **kwargs: object) -> Path:
        if Path(path) == new:
            raise OSError(errno.ENOSPC, "No space left on device", str(new))
        return real_save(game, path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(record, "save", full_disk_for_new)
    game = boneyard.new_game("all-fives", 2, seed=3, names=names(2))
    session, console = session_for(game, [f"s {new}", "1"], old)
    assert session.save()
    session.run()
    text = flat(console)
    assert "No space left on device" in text
    assert f"Saved to {old} again" not in text and "saving is tried again after each move" not in text
    assert session.save_path == old and record.load(old)["hands"] == record.to_record(game)["hands"]


# ---------------------------------------------------------------- text that Rich would read as markup
def test_typing_square_brackets_at_the_prompt_is_just_not_a_move() -> None:
    game = boneyard.new_game("block", 2, seed=2, names=names(2))
    while game.turn != 0:
        game.apply(game.legal_moves()[0])
    session, console = session_for(game, ["[/]", "[red]x", "q"], None)
    assert not session.human_turn()
    text = flat(console)
    assert "'[/]' is not a move" in text and "'[red]x' is not a move" in text


def test_a_save_file_with_brackets_in_its_name_is_named_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "notes [draft].boneyard.json"
    done = cli("play", "block", "--seed", "2", "--save", str(path), stdin="1\nq\n", columns=400)
    assert done.returncode == 0, done.stderr
    assert path.is_file()
    assert f"resume with: boneyard play --resume {path}" in " ".join(done.stdout.split())


def test_a_player_name_with_square_brackets_is_shown_as_typed(tmp_path: Path) -> None:
    game = boneyard.new_game("block", 2, seed=2, names=["[/]Ann [home]", "Computer 1"])
    session, console = session_for(game, ["1", "1", "q"], None)
    session.run()
    assert "[/]Ann [home]: " in console.export_text()


# ---------------------------------------------------------------- scoring said as it happens
def _said(text: str, who: str) -> list[tuple[list[int], int]]:
    """Every ``who: MOVE  —  item +a, item +b = +t`` line: the items' points and the total."""
    found = []
    for line in text.split("\n"):
        if line.startswith(f"{who}: ") and "  —  " in line:
            parts, total = line.split("  —  ")[1].rsplit(" = ", 1)
            found.append(([int(item.rsplit(" ", 1)[1]) for item in parts.split(", ")], int(total)))
    return found


@pytest.mark.parametrize("variant", ["bergen", "flower-scorpion"])
def test_the_named_scoring_items_add_up_to_the_points_scored(variant: str) -> None:
    if variant == "bergen":  # You lead a lone double (a double header, 2) needing 2 points to reach 15 (BRG-8)
        game = first_position("bergen", 2, lambda g: not g.layout.tiles)
        game.scores[0] = 13
        move = game.legal_moves()[0]
    else:  # You on 0 play a tile whose items lose points: the score stays at 0 (FS-9 j)
        game = first_position("flower-scorpion", 2, lambda g: g.scores[0] == 0 and any(
            g.play_points(m)[1] == 0 and any(item.points < 0 for item in g.play_points(m)[0])
            for m in g.legal_moves()))
        move = next(m for m in game.legal_moves() if game.play_points(m)[1] == 0 and game.play_points(m)[0])
    before = game.scores[0]
    session, console = session_for(game, [str(move)], None)
    assert session.human_turn()
    said = _said(console.export_text(), "You")
    assert said, console.export_text()
    items, total = said[-1]
    assert total == game.scores[0] - before
    assert sum(items) == total


def answer_at_random(game: Game, rng: random.Random) -> Callable[[str], str]:
    """A prompt that answers the number of a random legal move."""
    return lambda prompt: str(rng.randrange(1, len(game.legal_moves()) + 1))


def test_every_scoring_play_is_named_and_its_items_add_up_in_all_fives_and_double_bergen() -> None:
    for variant in ("all-fives", "double-bergen"):
        game = boneyard.new_game(variant, 3, seed=2, names=names(3))
        session, console = session_for(game, answer_at_random(game, random.Random(2)), None)
        session.run()
        text = console.export_text()
        scored = [e for hand in game.log for e in hand.events if e.points]
        said = [entry for who in names(3) for entry in _said(text, who)]
        assert len(said) == len(scored) > 10
        assert all(sum(items) == total for items, total in said)


# ---------------------------------------------------------------- the end of a hand, checked against RULES.md
def round5(value: int) -> int:
    return 5 * ((value + 2) // 5)  # RULES.md C10


def pip_value(tile: str) -> int:
    """RULES.md PIP-18, from the tile's notation alone."""
    high, low = tile.split("-")
    if high in "SRAD" or low in "SRAD":
        return 45
    if high == low == "W":
        return 50
    if "W" in (high, low):
        return 20 + int(low if high == "W" else high)
    return int(high) + int(low)


def played_out(variant: str, players: int, seed: int, **options: object) -> tuple[Game, str]:
    """One hand played at random to its end, and what the terminal says about it."""
    game = boneyard.new_game(variant, players, seed=seed, options=options or None, names=names(players))
    rng = random.Random(seed)
    while game.in_hand:
        game.apply(rng.choice(game.legal_moves()))
    session, console = session_for(game, [], None)
    session.say_hand_end()
    return game, console.export_text()


def test_the_end_of_hand_explanations_follow_the_rules() -> None:
    dominoes = 0
    for seed in range(12):  # All Fives, 2 players: the winner scores round5 of the loser's pips (A5-11)
        game, text = played_out("all-fives", 2, seed)
        result = game.hand.result
        assert result is not None
        if result.end == "domino":
            loser = 1 - result.winner
            left = sum(tile.pips for tile in game.hands[loser])
            winner = "You" if result.winner == 0 else "Computer 1"
            assert f"{winner}: domino: {left} pip{'s' if left != 1 else ''} left → +{round5(left)}" in text
            dominoes += 1
    assert dominoes >= 3
    for seed in range(4):  # PIP: each hand's value is added to its holder's total (PIP-18, PIP-19)
        game, text = played_out("pip", 3, seed)
        for seat, who in enumerate(names(3)):
            value = sum(pip_value(str(tile)) for tile in game.hands[seat])
            shown = " ".join(str(tile) for tile in game.hands[seat]) or "—"
            assert f"{who}: {shown}  ({value} point{'s' if value != 1 else ''})" in text
            if value:
                assert f"{who}: hand: +{value}" in text
    sides = 0
    for seed in range(10):  # Block partnerships: the side scores the pips of all four hands (C12)
        game, text = played_out("block", 4, seed, partnerships=True)
        result = game.hand.result
        assert result is not None and "Sides: You and Computer 2 " in text
        if result.winner is not None:
            side = "You and Computer 2" if result.winner in (0, 2) else "Computer 1 and Computer 3"
            every = sum(tile.pips for hand in game.hands for tile in hand)
            assert re.search(rf"{side}: {result.end.removesuffix('ed')}: .*→ \+{every}\b", text), text
            sides += 1
    assert sides >= 5


# ---------------------------------------------------------------- words
def test_pip_effects_on_you_are_said_in_good_english() -> None:
    game = first_position("pip", 3, lambda g: len(g.hands[0]) > 1 and any(
        m.tile is not None and str(m.tile).startswith("A") and m.is_placement for m in g.legal_moves()))
    number = next(i for i, m in enumerate(game.legal_moves(), 1) if m.tile is not None and str(m.tile).startswith("A"))
    session, console = session_for(game, [str(number)], None)
    assert session.human_turn()
    text = console.export_text()
    assert "Again: You plays again" not in text
    assert re.search(r"Again: you play again", text, re.IGNORECASE)


def test_a_long_layout_in_a_40_column_window_goes_on_under_its_tiles_and_shows_each_once() -> None:
    game = first_position("pip", 3, lambda g: len(g.layout) >= 25)
    session, console = session_for(game, ["q"], None, width=40, height=60)
    assert not session.human_turn()
    lines = console.export_text().split("\n")
    top = next(i for i, line in enumerate(lines) if line.startswith("╭"))
    layout = []
    for line in lines[top + 1:]:
        inside = line[2:-2].rstrip()  # (the panel's border and padding)
        if not re.match(r" *(from [₀-₉]+ )?[\[«]", inside):  # the scores follow the layout
            break
        layout.append(inside)
    assert max(len(line) for line in lines) <= 40
    for line in layout:  # each line a run of whole tiles: the main line, an arm, or either going on under it
        assert re.fullmatch(r"( *from [₀-₉]+ | *)([\[«][^\]»]*[\]»][₀-₉]+ ?)+", line), layout
    numbers = [int(n.translate(str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")))
               for line in layout for n in re.findall(r"[\]»]([₀-₉]+)", line)]
    assert sorted(numbers) == list(range(1, len(game.layout) + 1))


# ---------------------------------------------------------------- the default save file
def test_a_new_game_never_overwrites_the_default_file_of_another(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from boneyard import cli as command

    class OneSecond(datetime):
        @classmethod
        def now(cls, tz: object = None) -> OneSecond:  # type: ignore[override]
            return cls(2030, 1, 1, 12, 0, 0)

    class Keyboard(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(command, "datetime", OneSecond)
    monkeypatch.setattr(command.sys, "stdin", Keyboard())
    first = command._new_session("block", 2, 1, [], None, False, "greedy", "You")
    assert first.save_path is not None and first.save_path.is_file()
    kept = first.save_path.read_bytes()
    second = command._new_session("block", 2, 2, [], None, False, "greedy", "You")
    assert second.save_path != first.save_path
    assert first.save_path.read_bytes() == kept and json.loads(kept)["seed"] == 1


def test_a_two_player_reverse_that_skips_says_who_loses_the_turn() -> None:
    """PIP with two players and ``two_player_reverse_skips``: R gives its player another turn (PIP-16)."""
    def reverse(g: Game) -> bool:
        return len(g.hands[0]) > 1 and any(m.is_placement and m.tile is not None and m.tile.letter is not None
                                           and str(m.tile).startswith("R") for m in g.legal_moves())

    game = first_position("pip", 2, reverse, two_player_reverse_skips=True)
    number = next(i for i, m in enumerate(game.legal_moves(), 1)
                  if m.is_placement and m.tile is not None and str(m.tile).startswith("R"))
    session, console = session_for(game, [str(number)], None)
    assert session.human_turn()
    assert game.turn == 0  # the rule: the same player goes again
    assert "Reverse: Computer 1 loses a turn, so You play again" in console.export_text()


def test_pip_says_round_at_the_end_of_a_round_as_its_table_counts_them() -> None:
    assert "Round 1 over (" in (pip := played_out("pip", 2, 3)[1]) and "Hand 1 over" not in pip
    assert "Hand 1 over (" in played_out("block", 2, 3)[1]


@pytest.mark.parametrize("variant,players,halves", [
    ("block", 2, "(0-6)"), ("all-fives", 3, "(0-6)"), ("pip", 3, "(0-9, W, D, A, R or S)")])
def test_a_signed_number_is_a_choice_out_of_range_and_a_bad_half_names_this_sets_halves(
        variant: str, players: int, halves: str) -> None:
    """Session 17 left it: ``-1`` was read as a move and answered with every half of the notation (0-12, W, S,
    R, A or D), PIP's letters included, in a game of Block."""
    game = first_position(variant, players, lambda game: len(game.legal_moves()) > 1)
    before = len(game.hand.events)
    count = len(game.legal_moves())
    session, console = session_for(game, ["-1", "+0", "9-x", "1"], None)
    assert session.human_turn()
    text = flat(console)
    assert text.count(f"Choose 1 to {count}.") == 2
    assert f"'x' is not a tile half {halves}" in text
    assert "S, R, A or D" not in text or variant == "pip"
    assert len(game.hand.events) == before + 1  # the 1 that followed was played
