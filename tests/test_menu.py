"""``boneyard play`` without a variant, at a terminal: a menu of the games, and of the unfinished games saved."""

from __future__ import annotations

import io
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import boneyard
from boneyard import record
from boneyard.cli import app
from boneyard.menu import Choice, Menu, SavedGame, age_text, unfinished_games
from boneyard.rules.base import VARIANTS
from boneyard.state import Game


def _menu(answers: list[str], saved: list[SavedGame] | None = None, **given: object) -> tuple[Menu, Console, list[str]]:
    """A menu answering from ``answers`` (then the end of the input); the prompts it asked are listed."""
    console = Console(record=True, width=120, file=io.StringIO())
    feed: Iterator[str] = iter(answers)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return Menu(console, saved or [], ask=ask, **given), console, asked  # type: ignore[arg-type]


def _game(variant: str = "block", *, finished: bool = False, seed: int = 1) -> Game:
    game = boneyard.new_game(variant, 2, seed=seed, options={"target": 10} if finished else None)
    rng = random.Random(seed)
    moves = 0
    while not game.finished and (finished or moves < 3):
        if not game.in_hand:
            game.next_hand()
        game.apply(rng.choice(game.legal_moves()))
        moves += 1
    return game


def test_the_menu_lists_every_variant_and_a_number_a_name_or_an_alias_chooses_it() -> None:
    names = list(VARIANTS)
    menu, console, asked = _menu(["2"], players=2)
    assert menu.choose() == Choice(names[1], 2)
    listed = console.export_text()
    for number, cls in enumerate(VARIANTS.values(), 1):
        assert f"{number}) {cls.name}" in listed and cls.title in listed
    assert "resume" not in listed  # (no saved game to offer)
    assert "a game's rules: boneyard rules all-fives, or rules during the game" in " ".join(listed.split())
    assert asked == ["Your choice (a number or a name; Enter: all-fives; q: quit): "]
    assert _menu(["PIP"], players=3)[0].choose() == Choice("pip", 3)
    assert _menu(["muggins"], players=2)[0].choose() == Choice("all-fives", 2)
    assert menu.names("d", "") == ["double-bergen", "draw"] and menu.names("FL", "") == ["flower-scorpion"]  # (Tab)


def test_enter_chooses_all_fives_and_the_number_of_players_is_asked_where_there_is_a_choice() -> None:
    menu, _, asked = _menu(["", ""])
    assert menu.choose() == Choice("all-fives", 2)  # Enter twice: the default game, two players
    assert asked[1] == "Players (2 to 4; Enter: 2): "
    menu, console, asked = _menu(["draw", "7", "four", "4"])
    assert menu.choose() == Choice("draw", 4)
    assert console.export_text().count("Draw dominoes takes 2 to 4 players: type a number from 2 to 4, or q.") == 2
    menu, _, asked = _menu(["block", "8"], options=["set=9"])  # a double-nine set seats more
    assert menu.choose() == Choice("block", 8) and asked[1] == "Players (2 to 8; Enter: 2): "
    menu, _, asked = _menu(["block", "3"], players=3)
    assert menu.choose() == Choice("block", 3) and len(asked) == 1  # given on the command line: not asked


def test_a_misspelt_name_is_named_and_asked_again_and_q_or_the_end_of_input_quits() -> None:
    menu, console, asked = _menu(["blok", "9", "q"])
    assert menu.choose() is None
    said = console.export_text()
    assert "unknown variant 'blok' (did you mean 'block'?" in said
    assert f"There is no game 9. Type a number from 1 to {len(VARIANTS)}, a name, or q." in said
    for odd in ("9" * 5000, "\u0661"):  # more digits than Python turns into a number; an Arabic-Indic one
        assert _menu([odd])[0].choose() is None
    assert len(asked) == 3
    assert _menu([])[0].choose() is None  # Ctrl-D
    assert _menu(["block", "q"])[0].choose() is None  # quit at the number of players


def test_a_saved_unfinished_game_is_offered_and_r_and_its_number_resume_it(tmp_path: Path) -> None:
    first, second = tmp_path / "a.boneyard.json", tmp_path / "b.boneyard.json"
    saved = [SavedGame(first, _game("block"), 1000.0), SavedGame(second, _game("pip"), 1000.0 - 7200)]
    menu, console, asked = _menu(["r3", "R2"], saved)
    assert menu.choose(now=1000.0 + 300) == Choice(resume=second)
    said = console.export_text()
    assert "r1) Block dominoes, hand 1: Player 1 0, Player 2 0 — 5 minutes ago (a)" in said
    assert "r2) PIP (double-nine with wild and directional tiles), hand 1:" in said and "— 2 hours ago (b)" in said
    assert f"There is no saved game r3. Type a number from 1 to {len(VARIANTS)}, a name, r1 or r2, or q." in said
    assert asked[0] == "Your choice (a number or a name, r1 or r2 to resume; Enter: all-fives; q: quit): "
    menu, _, asked = _menu(["r1"], saved[:1])
    assert menu.choose() == Choice(resume=first)
    assert asked[0] == "Your choice (a number or a name, r1 to resume; Enter: all-fives; q: quit): "


@pytest.mark.parametrize("seconds,said", [(0, "just now"), (59, "just now"), (60, "1 minute ago"),
                                          (7199, "1 hour ago"), (86400 * 3 + 5, "3 days ago")])
def test_how_long_ago_is_said_in_the_largest_whole_unit(seconds: float, said: str) -> None:
    assert age_text(seconds) == said


def test_unfinished_games_are_the_newest_that_replay_and_are_not_over(tmp_path: Path) -> None:
    def saved(name: str, game: Game | None, when: int, text: str = "") -> Path:
        path = tmp_path / f"{name}.boneyard.json"
        if game is not None:
            record.save(game, path)
        else:
            path.write_text(text)
        os.utime(path, (when, when))
        return path

    oldest = saved("oldest", _game(seed=1), 100)
    saved("over", _game(finished=True, seed=2), 600)
    saved("damaged", None, 500, "{")
    saved("empty", None, 400)
    newer = saved("newer", _game("all-fives", seed=3), 300)
    newest = saved("newest", _game("draw", seed=4), 700)
    (tmp_path / "notes.txt").write_text("not a record")
    found = unfinished_games(tmp_path)
    assert [game.path for game in found] == [newest, newer, oldest]
    assert [game.saved for game in found] == [700, 300, 100]
    assert found[0].game.rules.name == "draw" and not found[0].game.finished
    assert [game.path for game in unfinished_games(tmp_path, most=2)] == [newest, newer]
    assert [game.path for game in unfinished_games(tmp_path, looked_at=4)] == [newest]  # the 4 newest files
    assert unfinished_games(tmp_path / "none") == []  # no folder yet: nothing to offer


def test_without_a_terminal_play_still_asks_for_a_variant() -> None:
    result = CliRunner().invoke(app, ["play"], input="1\n")
    assert result.exit_code != 0
    assert "name a variant to play (see `boneyard variants`) or give --resume FILE" in result.output


@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal is POSIX")
def test_at_a_terminal_play_asks_which_game_then_offers_to_resume_it(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """On a pseudo-terminal: ``boneyard play`` lists the games, Block for three is chosen, played into and quit
    (saved in the data folder); run again, it offers that game, and ``r1`` resumes it where it was."""
    from tests.test_audit_terminal import Terminal

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first = Terminal("play")
    assert first.wait_for(r"1\) block\s+Block dominoes, 2-4 players", 60), first.text()
    assert first.wait_for(r"Your choice \(a number or a name; Enter: all-fives; q: quit\): ", 10), first.text()
    first.send("1\r")
    assert first.wait_for(r"Players \(2 to 4; Enter: 2\): ", 10), first.text()
    first.send("3\r")
    assert first.wait_for(r"Computer 2 \(greedy\)", 30), first.text()
    assert first.wait_for(r"Your move: ", 30), first.text()
    first.send("q\r")
    assert first.finish() == 0, first.text()
    files = list((tmp_path / "boneyard" / "games").glob("*-block.boneyard.json"))
    assert len(files) == 1
    kept = record.load(files[0])
    assert len(kept["players"]) == 3
    again = Terminal("play")
    assert again.wait_for(r"Or resume an unfinished game you saved:\s+r1\) Block dominoes, hand 1: You 0, "
                          r"Computer 1 \(greedy\) 0, Computer 2 \(greedy\) 0 — (just now|\d+ minutes? ago)", 60), \
        again.text()
    again.send("r1\r")
    assert again.wait_for(r"Your move: ", 30), again.text()
    again.send("q\r")
    assert again.finish() == 0, again.text()
    assert record.load(files[0])["hands"][0]["moves"][:len(kept["hands"][0]["moves"])] == \
        kept["hands"][0]["moves"]  # the same game, where it was
    assert list((tmp_path / "boneyard" / "games").glob("*.boneyard.json")) == files


@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal is POSIX")
def test_ctrl_c_at_the_menu_ends_quietly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_audit_terminal import Terminal

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    terminal = Terminal("play")
    assert terminal.wait_for(r"Your choice \(", 60), terminal.text()
    terminal.send("\x03")
    assert terminal.finish() == 130
    assert "Traceback" not in terminal.text() and not (tmp_path / "boneyard" / "games").exists()
