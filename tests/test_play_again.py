"""After a game over at the terminal: another game with the same players and rules, asked for with ``y``."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

import boneyard
from boneyard import record
from boneyard.terminal import TerminalSession, start_session


def _session(answers: list[str], **options: object) -> tuple[TerminalSession, Console]:
    game = boneyard.new_game("block", 3, seed=5, options=options or None)
    console = Console(record=True, width=100, file=io.StringIO())
    feed = iter(answers)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return start_session(game, ["expert:time=0.1", "greedy"], 0, None, console, ask), console


@pytest.mark.parametrize("answers,wanted", [(["y"], True), (["YES"], True), ([""], False), (["n"], False),
                                            (["q"], False), ([], False), (["maybe", "y"], True)],
                         ids=["y", "yes", "enter", "n", "q", "ctrl-d", "asked again"])
def test_another_game_is_played_only_when_asked_for(answers: list[str], wanted: bool) -> None:
    session, console = _session(answers)
    assert session.again() is wanted
    asked_again = "Type y for another game, or n (or Enter) to stop." in console.export_text()
    assert asked_again is (answers[:1] == ["maybe"])


def test_the_next_game_has_the_same_players_rules_and_levels_and_a_new_deal(tmp_path: Path) -> None:
    session, _ = _session([], target=50, blocked_score="all_pips")
    session.plain = True
    old = session.game
    deals = set()
    for number in range(3):
        following = session.next_game(tmp_path / f"{number}.boneyard.json")
        game = following.game
        assert game is not old and game.rules.options == old.rules.options and game.rules.name == "block"
        assert game.names == old.names and game.players == 3
        assert following.computers == {1: "expert:time=0.1", 2: "greedy"} and following.human == 0
        assert following.plain and following.save_path == tmp_path / f"{number}.boneyard.json"
        assert len(game.log) == 1 and not game.hand.events  # its first hand dealt, nothing played
        assert game.chance is not None and game.chance.seed != 5
        deals.add(tuple(tuple(hand) for hand in game.hands))
    assert len(deals) == 3  # a new seed each time


@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal is POSIX")
def test_at_a_terminal_y_after_the_game_over_starts_another_saved_to_a_new_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a pseudo-terminal: a short game of Block (target 10, saved with --save) played to its end with 1 at every
    prompt; y starts another, saved in the data folder; q leaves it, saved."""
    import re

    from tests.test_audit_terminal import Terminal

    first_file = tmp_path / "first.boneyard.json"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    terminal = Terminal("play", "block", "--seed", "3", "-o", "target=10", "--save", str(first_file))
    for _ in range(200):
        assert terminal.wait_for(r"Your move: |Another game with the same players and rules\? \(y/N\) ", 60), \
            terminal.text()
        if "Another game" in terminal.text()[-80:]:
            break
        terminal.send("1\r")
    assert re.search(r"Game over — .* win", terminal.text())
    terminal.send("y\r")
    assert terminal.wait_for(r"Hand 1 .*target 10", 30), terminal.text()
    assert terminal.wait_for(r"Your move: ", 30), terminal.text()
    terminal.send("q\r")
    assert terminal.finish() == 0, terminal.text()
    assert record.replay(record.load(first_file)).finished
    [second] = (tmp_path / "data" / "boneyard" / "games").glob("*-block.boneyard.json")
    data = record.load(second)
    assert data["options"] == {"target": 10} and not record.replay(data).finished
    assert data["seed"] != 3
    assert f"Savedto{second}" in "".join(terminal.text().split())  # (the path may wrap at the window's edge)
