"""Ctrl-C in long commands: one line, at once, no worker traceback; progress bars only on a terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from boneyard import record


def interrupted(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run the command on a (pseudo-)terminal, press Ctrl-C (SIGINT to its whole process group, as a terminal
    does) once its progress bar shows games being played; the finished process (standard error only) and the
    seconds it took to stop."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "boneyard", *args], stdout=follower, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, text=True, start_new_session=True,
                               env={**os.environ, "COLUMNS": "100"})
    os.close(follower)
    shown = b""
    started = time.perf_counter()
    try:
        while not re.search(rb"[1-9]\d*/\d+", shown):  # the bar counts finished games
            assert time.perf_counter() - started < 120, "no progress shown"
            assert process.poll() is None, "the command finished before it could be interrupted"
            if select.select([leader], [], [], 1)[0]:
                shown += os.read(leader, 4096)
        os.killpg(process.pid, signal.SIGINT)
        pressed = time.perf_counter()
        _, stderr = process.communicate(timeout=60)
        seconds = time.perf_counter() - pressed
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        os.close(leader)
    return subprocess.CompletedProcess(process.args, process.returncode, "", stderr), seconds


@pytest.mark.parametrize("command", [
    ["simulate", "all-fives", "--games", "100000", "--ai", "heuristic", "--workers", "2"],
    ["tournament", "--players", "heuristic,greedy", "--games", "100000", "--workers", "2"],
])
def test_ctrl_c_stops_at_once_with_one_line(command: list[str], tmp_path: Path) -> None:
    if command[0] == "tournament":
        command = [*command, "--out", str(tmp_path / "t")]
    done, seconds = interrupted(*command)
    assert done.returncode == 130, done.stderr
    assert seconds < 5
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "interrupted" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr


def on_a_terminal(*args: str) -> str:
    """What the command writes when its standard output is a terminal (a pseudo-terminal here)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "boneyard", *args], stdout=follower, stderr=follower,
                               stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "100"})
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_simulate_shows_a_progress_bar_on_a_terminal_only() -> None:
    args = ("simulate", "block", "--games", "300", "--ai", "random", "--workers", "1")
    shown = on_a_terminal(*args)
    assert "300/300" in shown
    plain = subprocess.run([sys.executable, "-m", "boneyard", *args], capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0 and "300/300" not in plain.stdout and "games/s" in plain.stdout
    quiet = on_a_terminal(*args, "--json")
    assert "300/300" not in quiet and quiet.lstrip().startswith("{")


def test_ctrl_c_while_a_computer_thinks_keeps_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from boneyard.cli import app
    from boneyard.terminal import TerminalSession

    def interrupted_search(self: TerminalSession, seat: int) -> object:
        raise KeyboardInterrupt  # Ctrl-C arrives while the computer searches

    monkeypatch.setattr(TerminalSession, "computer_move", interrupted_search)
    path = tmp_path / "g.json"
    result = CliRunner().invoke(app, ["play", "block", "--seed", "1", "--save", str(path)], input="1\n" * 5)
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines() == [
        f"boneyard: interrupted; saved to {path}; resume with: boneyard play --resume {path}"]
    assert len(record.load(path)["hands"]) == 1


def test_ctrl_c_at_the_prompt_is_said_and_kept_as_during_a_computer_s_move(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from boneyard.cli import app
    from boneyard.terminal import TerminalSession

    def interrupted(self: TerminalSession, prompt: str) -> str:
        raise KeyboardInterrupt  # Ctrl-C at "Your move:"

    path = tmp_path / "g.json"
    monkeypatch.setattr(TerminalSession, "__init__", _asking(TerminalSession.__init__, interrupted))
    result = CliRunner().invoke(app, ["play", "block", "--seed", "1", "--save", str(path)])
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines() == [
        f"boneyard: interrupted; saved to {path}; resume with: boneyard play --resume {path}"]
    assert record.replay(record.load(path)).in_hand


def _asking(init: Any, ask: Any) -> Any:
    """``TerminalSession.__init__`` with ``ask`` as the session's prompt."""
    def patched(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.ask = lambda prompt: ask(self, prompt)
    return patched


def test_ctrl_c_that_no_command_catches_is_one_line_too(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import typer

    from boneyard import cli

    starting = typer.Typer()

    @starting.command()
    def work() -> None:
        raise KeyboardInterrupt  # Ctrl-C while a command is still importing what it needs

    monkeypatch.setattr(cli, "app", starting)
    monkeypatch.setattr(sys, "argv", ["boneyard"])
    with pytest.raises(SystemExit) as done:
        cli.main()
    assert done.value.code == 130
    assert capsys.readouterr().err == "boneyard: interrupted\n"
