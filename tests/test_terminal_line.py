"""Reading a line at the terminal: the line can be edited with the cursor keys, and a Ctrl-C that lands as the
prompt appears ends the game at once.

CPython looks for a signal before its blocking read of a line, not during it, so a Ctrl-C that arrived between the
look and the read was left pending until the next key (seen as a terminal test that timed out on a loaded machine).
``_thread.interrupt_main`` makes exactly that state on purpose: the Ctrl-C is pending, and no system call is
interrupted.  Each test runs a child on a pseudo-terminal that is its standard input, as a person's terminal is.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal is POSIX")

#: the child: the terminal's own line reading, with a Ctrl-C made pending 0.3 s after the read has begun waiting
CHILD = textwrap.dedent("""
    import _thread, sys, threading
    from rich.console import Console
    from boneyard.terminal import typed_line
    console = Console()
    threading.Timer(0.3, _thread.interrupt_main).start()
    try:
        typed = typed_line(console, "Your move: ")
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(7)
    except EOFError:
        print("end of input", flush=True)
        sys.exit(8)
    print(f"read {typed!r}", flush=True)
    """)


def _run(child: str, keys: bytes = b"", wait: float = 20.0) -> tuple[int | None, str]:
    """The child's exit status (``None`` if it was still waiting after ``wait`` seconds) and what it printed."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", child], stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    out = b""
    end = time.monotonic() + wait
    try:
        if keys:
            while b"Your move: " not in out and time.monotonic() < end:
                if select.select([leader], [], [], 0.2)[0]:
                    out += os.read(leader, 4096)
            os.write(leader, keys)
        while time.monotonic() < end:  # everything it prints, until its side of the terminal closes
            if not select.select([leader], [], [], 0.2)[0]:
                continue
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # (closed: it has ended)
                break
            out += chunk
        try:
            code: int | None = process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        return code, out.decode("utf-8", "replace").replace("\r", "")
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        os.close(leader)


def test_a_ctrl_c_pending_when_the_read_began_interrupts_it() -> None:
    code, said = _run(CHILD)
    assert code == 7, f"the read went on waiting with a Ctrl-C pending (status {code}): {said!r}"
    assert said.startswith("Your move: ") and "interrupted" in said


def test_a_plain_read_would_have_waited_for_the_next_key() -> None:
    """The same child reading with Rich's own ``Console.input`` stays in its read: the state the test above makes
    is the one the wait is for (if a later Python looked for signals during the read, this would say so)."""
    plain = CHILD.replace("typed_line(console, \"Your move: \")", "console.input(\"Your move: \")")
    assert plain != CHILD
    code, said = _run(plain, wait=3.0)
    assert code is None, f"Python now interrupts a plain read at once ({code}, {said!r}); the wait may go"


@pytest.mark.parametrize("keys,code,said", [(b"6-4@1\r", 0, "read '6-4@1'"), (b"\x04", 8, "end of input")],
                         ids=["a line", "ctrl-d"])
def test_a_line_or_the_end_of_input_is_read_as_before(keys: bytes, code: int, said: str) -> None:
    child = CHILD.replace("threading.Timer(0.3, _thread.interrupt_main).start()", "")
    got, printed = _run(child, keys)
    assert got == code and said in printed, printed


#: the child for editing: two lines read one after the other, then the handler of the signal that woke the reads
EDITING = textwrap.dedent("""
    import signal, sys
    from rich.console import Console
    from boneyard.terminal import typed_line
    console = Console()
    for _ in range(2):
        print(f"read {typed_line(console, 'Your move: ')!r}", flush=True)
    print(f"wake handler {signal.getsignal(signal.SIGUSR2) is signal.SIG_DFL}", flush=True)
    """)

LEFT, UP = b"\x1b[D", b"\x1b[A"


def _typed(keys: list[bytes], pause: float = 0.0, child: str = EDITING) -> tuple[int | None, str]:
    """Run ``child`` (:data:`EDITING`) on a pseudo-terminal; each of ``keys`` is typed at a prompt of its own, a
    ``|`` in it splitting it into bursts typed ``pause`` seconds apart.  The child's exit status and what it
    printed."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", child], stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    out = b""
    end = time.monotonic() + 20
    try:
        for line in keys:
            prompts = out.count(b"Your move: ")
            while out.count(b"Your move: ") == prompts and time.monotonic() < end:
                if select.select([leader], [], [], 0.2)[0]:
                    out += _chunk(leader)
            for burst in line.split(b"|"):
                os.write(leader, burst)
                time.sleep(pause)
        while b"wake handler" not in out and time.monotonic() < end:
            if select.select([leader], [], [], 0.2)[0]:
                chunk = _chunk(leader)
                if not chunk:
                    break
                out += chunk
        return process.wait(timeout=5), out.decode("utf-8", "replace").replace("\r", "")
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        os.close(leader)


def _chunk(leader: int) -> bytes:
    """What the child wrote next; nothing once its side of the terminal has closed."""
    try:
        return os.read(leader, 4096)
    except OSError:
        return b""


def test_the_cursor_keys_edit_the_line_and_up_recalls_the_last_one() -> None:
    pytest.importorskip("readline")
    code, said = _typed([b"4@1" + LEFT * 3 + b"6-\r", UP + b"\r"])
    assert code == 0, said
    assert said.count("read '6-4@1'") == 2, said  # moved left to put 6- in front; Up brought the line back
    assert "wake handler True" in said  # the waking signal is put back as it was


def test_a_slow_typist_loses_no_key_to_the_wake_ups() -> None:
    """Keys typed over several wake-ups (0.1 s apart) make one line, as typed."""
    code, said = _typed([b"6|-|4|@|1|\r", b"q|\r"], pause=0.25)
    assert code == 0, said
    assert "read '6-4@1'" in said and "read 'q'" in said


def test_ctrl_c_in_the_middle_of_a_line_ends_the_read_and_gives_the_terminal_back() -> None:
    """Ctrl-C typed on a terminal that is the child's own (its controlling terminal, so the key sends SIGINT), after
    part of a line: the read ends with KeyboardInterrupt, and the terminal reads by lines and echoes again."""
    import fcntl
    import termios

    def own_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    child = CHILD.replace("threading.Timer(0.3, _thread.interrupt_main).start()", "")
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", child], stdin=follower, stdout=follower, stderr=follower,
                               preexec_fn=own_terminal)
    out = b""
    try:
        end = time.monotonic() + 20
        while b"Your move: " not in out and time.monotonic() < end:
            if select.select([leader], [], [], 0.2)[0]:
                out += _chunk(leader)
        os.write(leader, b"12")
        time.sleep(0.3)
        os.write(leader, b"\x03")
        assert process.wait(timeout=10) == 7
        while select.select([leader], [], [], 0.2)[0]:
            chunk = _chunk(leader)
            if not chunk:
                break
            out += chunk
        modes = termios.tcgetattr(follower)[3]
        assert modes & termios.ICANON and modes & termios.ECHO
        assert b"interrupted" in out
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        os.close(follower)
        os.close(leader)


def test_tab_completes_a_legal_move_as_written_or_turned_round_and_the_commands() -> None:
    from boneyard.moves import Move
    from boneyard.terminal import move_completions

    moves = [Move.parse(text) for text in ("6-4@1", "6-6@2", "5-2@1", "draw")]
    complete = move_completions(moves)
    assert complete("", "") == ["6-4@1", "6-6@2", "5-2@1", "draw"]  # Tab twice on an empty line: the moves
    assert complete("6", "") == ["6-4@1", "6-6@2"]
    assert complete("4", "") == ["4-6@1"]  # the tile as the player began it
    assert complete("2-5", "") == ["2-5@1"]
    assert complete("D", "") == ["draw"]
    assert complete("h", "") == ["hint", "help"]
    assert complete("3", "") == [] and complete("6-4@2", "") == []


def test_tab_after_s_completes_a_file_s_path(tmp_path: Path) -> None:
    from boneyard.moves import Move
    from boneyard.terminal import move_completions

    (tmp_path / "games").mkdir()
    (tmp_path / "game.boneyard.json").write_text("{}")
    (tmp_path / "6-4.txt").write_text("")
    complete = move_completions([Move.parse("6-4@1")])
    start = f"{tmp_path}/ga"
    assert complete(start, "s ") == [f"{tmp_path}/game.boneyard.json", f"{tmp_path}/games/"]
    assert complete(start, "SAVE ") == complete(start, "s ")
    assert complete(f"{tmp_path}/6", "s ") == [f"{tmp_path}/6-4.txt"]  # a file's name, not the move
    assert complete(f"{tmp_path}/x", "s ") == []
    assert complete("6", "") == ["6-4@1"]  # without the s, a move


#: the child for Tab: two lines read with the moves to complete, then one without, in a folder holding a file that
#: readline's own completion (of file names) would complete
COMPLETING = textwrap.dedent("""
    import os, tempfile
    from rich.console import Console
    from boneyard.moves import Move
    from boneyard.terminal import move_completions, typed_line
    os.chdir(tempfile.mkdtemp())
    open("apple.txt", "w").close()
    console = Console()
    moves = [Move.parse(text) for text in ("6-4@1", "5-2@1", "draw")]
    for _ in range(2):
        print(f"read {typed_line(console, 'Your move: ', move_completions(moves))!r}", flush=True)
    print(f"read {typed_line(console, 'Your move: ')!r}", flush=True)
    print("wake handler", flush=True)
    """)


def test_tab_completes_the_move_at_the_prompt_and_types_a_tab_elsewhere() -> None:
    pytest.importorskip("readline")
    code, said = _typed([b"4\t\r", b"s ap\t\r", b"ap\t\r"], child=COMPLETING)
    assert code == 0, said
    assert "read '4-6@1'" in said, said  # the only move with a 4, as begun
    assert "read 's apple.txt'" in said, said  # after s (save to a file), a file's name
    assert "read 'ap\\t'" in said, said  # not apple.txt: Tab is a tab again once the move is read
