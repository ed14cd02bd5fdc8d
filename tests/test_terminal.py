"""The terminal table for the variants with something special to show (dice, PIP's effects)."""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console

import boneyard
from boneyard import record
from boneyard.moves import Kind
from boneyard.state import Game
from boneyard.terminal import TerminalSession, start_session
from tests.helpers import ambiguous_choices, two_places


def scripted(answers: list[str]) -> Iterator[str]:
    yield from answers
    while True:
        yield "q"


def run_session(variant: str, players: int, seed: int, answers: list[str], tmp_path: Path) -> str:
    game = boneyard.new_game(variant, players, seed=seed)
    console = Console(record=True, width=120, force_terminal=False)
    feed = scripted(answers)
    session = start_session(game, ["greedy"], 0, tmp_path / "g.boneyard.json", console, lambda prompt: next(feed))
    session.run()
    return console.export_text()


def test_flower_scorpion_table_shows_both_dice_pairs_and_their_tiles(tmp_path: Path) -> None:
    game = boneyard.new_game("flower-scorpion", 3, seed=4)
    assert game.dice is not None
    flower, scorpion = game.dice.flower, game.dice.scorpion
    text = run_session("flower-scorpion", 3, 4, ["1"], tmp_path)
    assert f"flower {flower[0]}+{flower[1]} (tile {max(flower)}-{min(flower)})" in text
    assert f"scorpion {scorpion[0]}+{scorpion[1]} (tile {max(scorpion)}-{min(scorpion)})" in text


def test_the_house_rules_in_force_are_said_when_the_game_starts(tmp_path: Path) -> None:
    game = boneyard.new_game("flower-scorpion", 2, seed=4, options={"score_floor": None, "long_pairs": "all_pairs"})
    console = Console(record=True, width=120, force_terminal=False)
    start_session(game, ["greedy"], 0, tmp_path / "g.boneyard.json", console, lambda prompt: "q").run()
    assert "House rules: long_pairs=all_pairs, score_floor=none" in console.export_text()
    plain = run_session("flower-scorpion", 2, 4, [], tmp_path)  # the default rules: nothing to say
    assert "House rules" not in plain


def test_pip_table_shows_direction_and_directional_effects(tmp_path: Path) -> None:
    seen = ""
    for seed in range(12):
        seen += run_session("pip", 3, seed, ["1"] * 60, tmp_path)
        if all(word in seen for word in ("Skip:", "Reverse:", "Again:", "Draw:")):
            break
    assert "direction: clockwise" in seen
    for word in ("Skip:", "Reverse:", "Again:", "Draw:"):
        assert word in seen
    assert re.search(r"double (\w)-\1 \(tile \d+\) owes \d more plays?", seen)  # a pending double


def test_a_double_owed_plays_is_named_by_its_tile_and_its_number_on_the_table() -> None:
    """"double 8-8 (tile 9) owes 2 more plays": the double and where it lies (not "double 9", which reads as 9-9)."""
    named = 0
    for game in random_pip_positions(3, 8):
        if not game.pending:
            continue
        index, owed = game.pending[-1]
        double = game.layout[index].tile
        console = Console(record=True, width=120, force_terminal=False)
        session = start_session(game, ["greedy"], game.turn, None, console, lambda prompt: "q")
        session.plain = True  # (no box: a line that wraps reads on)
        console.print(session.table())
        text = " ".join(console.export_text().split())
        assert f"double {double} (tile {index}) owes {owed} more play{'s' if owed != 1 else ''}" in text
        assert double.is_double
        named += 1
    assert named > 10


# ---------------------------------------------------------------- issue 14
def session_for(game: Game, answers: list[str], path: Path | None, *, width: int = 100,
                height: int = 40, hook: Callable[[int], None] | None = None) -> tuple[TerminalSession, Console]:
    """A session on ``game`` that answers from ``answers`` (then ``q``); ``hook(n)`` runs before answer ``n``."""
    console = Console(record=True, width=width, height=height, force_terminal=False)
    feed = scripted(answers)
    asked = [0]

    def ask(prompt: str) -> str:
        asked[0] += 1
        if hook is not None:
            hook(asked[0])
        return next(feed)

    return start_session(game, ["greedy"], 0, path, console, ask), console


def test_a_failed_save_keeps_playing_keeps_every_move_and_saves_once_it_can(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "g.boneyard.json"

    def breaks_and_mends(answer: int) -> None:
        if answer == 2:  # the folder goes away (a removed disk, say): saving fails
            shutil.rmtree(folder)
            folder.write_text("now a file")
        if answer == 5:
            folder.unlink()
            folder.mkdir()

    game = boneyard.new_game("all-fives", 2, seed=3)
    session, console = session_for(game, ["1"] * 6, path, hook=breaks_and_mends)
    assert session.save()
    session.run()
    text = " ".join(console.export_text().split())
    assert text.count("Could not save to") == 1  # said once, retried quietly after every move
    assert "s FILE to save elsewhere" in text
    assert "again" in text
    saved = record.load(path)
    assert saved["hands"] == record.to_record(game)["hands"]
    assert sum(1 for log in game.log for event in log.events if event.seat == 0) >= 5


def test_quit_while_saving_fails_asks_and_s_file_saves_elsewhere(tmp_path: Path) -> None:
    bad = tmp_path / "plain"
    bad.write_text("")
    elsewhere = tmp_path / "elsewhere.json"
    game = boneyard.new_game("all-fives", 2, seed=3)
    taken = tmp_path / "taken.json"
    record.save(boneyard.new_game("block", 2, seed=1), taken)
    session, console = session_for(game, ["1", "q", f"s {taken}", f"s {elsewhere}", "1", "q"], None)
    session.save_path = bad / "g.json"
    session.run()
    text = " ".join(console.export_text().split())
    assert "q again to quit without saving" in text
    assert f"Not saved: {taken} holds an unfinished game of Block dominoes" in text and "choose another file" in text
    assert "--force" not in text
    assert f"Saved to {elsewhere}" in text
    assert record.load(elsewhere)["hands"] == record.to_record(game)["hands"]


def test_a_run_without_a_terminal_leaves_no_files_unless_asked(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-m", "boneyard", "play", "block", "--seed", "1"], input="1\nq\n",
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert "pass --save FILE" in done.stdout
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def first_hand_where(variant: str, players: int, wanted: Callable[[Game], bool], **options: object) -> Game:
    """The first position of a seeded hand, played at random, where seat 0 is on turn and ``wanted`` holds."""
    rng = random.Random(1)
    for seed in range(100):
        game = boneyard.new_game(variant, players, seed=seed, options=options or None)
        while game.in_hand:
            if game.turn == 0 and wanted(game):
                return game
            game.apply(rng.choice(game.legal_moves()))
    raise AssertionError("no such position in 100 deals")


def test_a_tile_with_one_legal_place_may_be_typed_alone_either_way_round(tmp_path: Path) -> None:
    def one_place(game: Game) -> bool:
        plays = [m for m in game.legal_moves() if m.kind == Kind.PLAY and m.tile is not None]
        tiles = [m.tile for m in plays]
        return any(tiles.count(t) == 1 and not t.is_double for t in tiles)

    game = first_hand_where("block", 2, one_place)
    plays = [m for m in game.legal_moves() if m.kind == Kind.PLAY]
    move = next(m for m in plays if [p.tile for p in plays].count(m.tile) == 1 and m.tile and not m.tile.is_double)
    assert move.tile is not None
    for typed in (f"{move.tile.high}-{move.tile.low}", f"{move.tile.low}-{move.tile.high}",
                  f"{move.tile.other_half(move.half)}-{move.half}@{move.target}"):
        session, _ = session_for(game, [], None)
        assert session.parse_answer(typed, game.legal_moves()) == move


def test_an_ambiguous_tile_gets_a_short_question(tmp_path: Path) -> None:
    game = first_hand_where("block", 2, two_places)
    legal = game.legal_moves()
    tile, choices = ambiguous_choices(game)
    session, console = session_for(game, ["b"], None)
    assert session.parse_answer(str(tile), legal) == choices[1]
    assert f"{tile} fits {len(choices)} ways: a) " in " ".join(console.export_text().split())


def test_errors_about_the_players_own_hand_say_your_hand(tmp_path: Path) -> None:
    game = first_hand_where("block", 2, lambda g: bool(g.layout.tiles))
    missing = next(t for t in game.rules.tile_set() if t not in game.hands[0])
    session, console = session_for(game, [f"{missing}@1"], None)
    session.human_turn()
    assert f"{missing} is not in your hand" in console.export_text()


def test_help_shows_the_legend() -> None:
    game = boneyard.new_game("block", 2, seed=1)
    session, console = session_for(game, ["?"], None)
    session.human_turn()
    text = console.export_text()
    for mark in ("‖", "✚", "«W✚W»", "⋔", "from ₃", "S R A D"):
        assert mark in text


def test_spinner_hub_toes_and_crosswise_doubles_look_different() -> None:
    from boneyard.layout import Placed, Role
    from boneyard.render.text import tile_text
    from boneyard.tiles import Tile

    looks = {tile_text(Placed(1, Tile(6, 6), role, 6, 6, 0, 0)).plain for role in
             (Role.CROSS, Role.SPINNER, Role.HUB, Role.TOES)}
    assert len(looks) == 4


def test_two_different_legal_moves_never_read_the_same() -> None:
    from boneyard.render.text import describe_move

    checked = 0
    for game in random_pip_positions(4, 6):
        moves = game.legal_moves()
        words = [describe_move(move, game.layout) for move in moves]
        assert len(set(words)) == len(words), list(zip(moves, words, strict=True))
        checked += len(moves) > 1
    assert checked > 50


def random_pip_positions(players: int, deals: int) -> Iterator[Game]:
    """Every position of ``deals`` first hands of PIP played at random (the same game object, moved on)."""
    rng = random.Random(5)
    for seed in range(deals):
        game = boneyard.new_game("pip", players, seed=seed)
        while game.in_hand:
            yield game
            game.apply(rng.choice(game.legal_moves()))


def test_on_80_by_24_the_table_and_a_long_move_list_stay_on_screen() -> None:
    game = first_hand_where("pip", 2, lambda g: len(g.legal_moves()) >= 24)
    session, console = session_for(game, ["q"], None, width=80, height=24)
    session.human_turn()
    lines = console.export_text().rstrip("\n").split("\n")
    assert len(lines) <= 24
    assert max(len(line) for line in lines) <= 80
    assert f"{len(game.legal_moves())})" in lines[-2] or any(f"{len(game.legal_moves())})" in x for x in lines)


def test_the_hand_summary_explains_the_points() -> None:
    game = boneyard.new_game("all-fives", 2, seed=4)
    session, console = session_for(game, [], None)
    while game.in_hand:
        game.apply(game.legal_moves()[0])
    session.say_hand_end()
    text = console.export_text()
    result = game.hand.result
    assert result is not None
    left = sum(game.hand_points_of(s) for s in range(2))
    for seat in range(2):
        count = game.hand_points_of(seat)
        assert f"({count} pip{'s' if count != 1 else ''})" in text
    if result.end == "domino":
        assert f"domino: {left} pips left → " in text
    assert "[" in text.split("Hand 1 over")[0]  # the final layout is shown first


def test_pip_branches_are_listed_under_the_tile_they_grow_from() -> None:
    from boneyard.render.text import layout_lines

    branches = 0
    for game in random_pip_positions(3, 4):
        if not game.layout.tiles:
            continue
        lines = [line.plain.translate(DIGITS) for line in layout_lines(game.layout)]
        tiles = [re.sub(r"^\s*from \d+ ", "", line) for line in lines]
        shown = [int(number) for line in tiles for number in re.findall(r"[\]»](\d+)", line)]
        assert sorted(shown) == list(range(1, len(game.layout) + 1))  # every tile once
        for at, line in enumerate(lines[1:], 1):
            found = re.match(r"(\s*)from (\d+) ", line)
            assert found is not None
            holder = next(i for i, text in enumerate(tiles) if re.search(rf"[\]»]{found.group(2)}(?!\d)", text))
            depth = len(lines[holder]) - len(lines[holder].lstrip())
            assert holder < at and len(found.group(1)) == depth + 2
            branches += 1
    assert branches > 20


DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def test_long_arms_go_on_under_their_first_tile_within_the_width() -> None:
    from boneyard.render.text import layout_lines

    wrapped_any = 0
    for game in random_pip_positions(3, 4):
        if not game.layout.tiles:
            continue
        whole = [line.plain for line in layout_lines(game.layout)]
        for width in (30, 44, 60):
            lines = [line.plain for line in layout_lines(game.layout, width)]
            assert all(len(line) <= width for line in lines), width
            joined: list[str] = []
            for line in lines:
                first_tile = re.search(r"[\[«]", line)
                assert first_tile is not None
                if joined and not line.lstrip().startswith("from ") and line[0] == " ":  # a continuation
                    start = re.search(r"[\[«]", joined[-1])
                    under = 2 if len(joined) == 1 else start.start() if start else -1  # the main line: 2 spaces in
                    assert first_tile.start() == under  # else under the arm's first tile
                    joined[-1] += " " + line.lstrip()
                    wrapped_any += 1
                else:
                    joined.append(line)
            assert joined == whole
    assert wrapped_any > 20


def test_a_blocked_hand_shows_both_pip_totals() -> None:
    rng = random.Random(2)
    for seed in range(200):
        game = boneyard.new_game("block", 2, seed=seed, names=["You", "Computer 1"])
        while game.in_hand:
            game.apply(rng.choice(game.legal_moves()))
        result = game.hand.result
        if result is not None and result.end == "blocked" and result.winner is not None:
            break
    else:
        raise AssertionError("no blocked hand with a winner in 200 deals")
    session, console = session_for(game, [], None)
    session.say_hand_end()
    text = " ".join(console.export_text().split())
    winner = result.winner
    own, other = game.hand_points_of(winner), game.hand_points_of(1 - winner)
    name = game.names[winner]
    assert f"{name}: block: {own} pip{'s' if own != 1 else ''} against {other} pips → +{result.hand_points[winner]}" \
        in text
    assert ("You win the hand" if winner == 0 else "Computer 1 wins the hand") in text


def test_seven_players_fit_on_80_by_24_with_twenty_tiles_down() -> None:
    names = ["You", *[f"Computer {i} (greedy)" for i in range(1, 7)]]
    for seed in range(3):
        game = boneyard.new_game("pip", 7, seed=seed, names=names)
        rng = random.Random(seed)
        while game.in_hand and (game.turn != 0 or len(game.layout) < 20):
            game.apply(rng.choice(game.legal_moves()))
        session, console = session_for(game, ["q"], None, width=80, height=24)
        session.human_turn()
        lines = console.export_text().rstrip("\n").split("\n")
        assert len(lines) <= 22 and max(map(len, lines)) <= 80, "\n".join(lines)  # and a line to answer on


def test_draw_naming_a_tile_tells_nothing_about_the_stock_and_changes_nothing() -> None:
    # Issue 13 defect 4 at the terminal: with allow_voluntary_draw, "draw X-Y" used to answer
    # "the next tile in the stock is 5-0, not 0-0" and let the player play instead.
    game = first_hand_where("draw", 2, lambda g: any(m.kind == Kind.DRAW for m in g.legal_moves())
                            and any(m.kind == Kind.PLAY for m in g.legal_moves()), allow_voluntary_draw=True)
    top = game.stock[game.stock_pos]
    wrong = next(t for t in game.rules.tile_set() if t is not top)
    before = (list(game.hands[0]), game.stock_pos, game.turn)
    for typed in (f"draw {wrong}", f"draw {top}"):
        session, console = session_for(game, [], None)
        assert session.parse_answer(typed, game.legal_moves()) is None
        shown = console.export_text()
        assert "face down" in shown
        assert str(top) not in shown.replace(typed, "")
    assert (list(game.hands[0]), game.stock_pos, game.turn) == before


def test_what_the_list_says_may_be_typed_back_and_errors_speak_to_you() -> None:
    game = first_hand_where("all-fives", 2, lambda g: not g.layout.tiles)
    lead = next(move for move in game.legal_moves())
    session, console = session_for(game, ["", f"lead {lead}"], None)
    assert session.human_turn()
    assert game.hand.events[-1].move == lead and "is not a move" not in console.export_text()
    game = first_hand_where("all-fives", 2, lambda g: bool(g.layout.tiles) and len(g.legal_moves()) > 1
                            and all(move.is_placement for move in g.legal_moves()))
    play = game.legal_moves()[0]
    session, console = session_for(game, ["pass", str(play).replace("@", " @ ")], None)
    assert session.human_turn()
    text = console.export_text()
    assert "you may not pass while able to move" in text and "seat 0" not in text
    assert game.hand.events[-1].move == play


def test_a_shared_win_is_said_so() -> None:
    from boneyard.terminal import result_line

    game = boneyard.new_game("pip", 3, seed=1)
    game.finished, game.winner, game.scores = True, None, [143, 162, 143]
    assert result_line(game) == "Player 1 and Player 3 share the win with 143 (Player 2 162)"


def test_a_save_onto_a_device_is_refused_without_reading_it(tmp_path: Path) -> None:
    from boneyard.terminal import SaveError, check_save_path

    if not Path("/dev/zero").exists():  # pragma: no cover - every Linux has it
        return
    try:
        check_save_path(Path("/dev/zero"))
    except SaveError as error:
        assert "is not a regular file" in str(error)
    else:
        raise AssertionError("a device was accepted as a save file")
    assert record_error_of("/dev/zero").endswith("not a regular file, so not a record")


def record_error_of(path: str) -> str:
    try:
        record.load(path)
    except boneyard.errors.RecordError as error:
        return str(error)
    return ""


def test_the_stock_says_which_tiles_nobody_will_draw(tmp_path: Path) -> None:
    # Block's undealt tiles stay face down all hand (BLK-2), Bergen keeps two back (BRG-3), Draw draws them all
    assert "14 out of play" in run_session("block", 2, 3, ["q"], tmp_path)
    drawn = run_session("draw", 2, 3, ["q"], tmp_path)
    assert "stock 14" in drawn and "out of play" not in drawn and "never drawn" not in drawn
    assert re.search(r"stock \d+ \(2 never drawn\)", run_session("bergen", 2, 3, ["q"], tmp_path))


def test_messages_are_not_highlighted_by_rich(tmp_path: Path) -> None:
    """Rich's highlighter used to set some numbers of the messages in bold cyan (``Choose 1 to 7.``, the totals),
    at random to a reader: every message is printed in its own style only."""
    game = boneyard.new_game("all-fives", 2, seed=5)
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=True, color_system="standard")
    feed = scripted(["99", "'x'", "1"])
    start_session(game, ["greedy"], 0, tmp_path / "g.boneyard.json", console, lambda prompt: next(feed)).run()
    raw = out.getvalue()
    assert "\x1b[" in raw  # styles are on: the check below could fail
    said = [line for line in raw.splitlines() if "Choose 1 to" in line or "is not" in line]
    assert said, raw
    for line in said:
        # no style change inside a message: its text has no escape between its first and its last character
        text = line[line.index("m", line.index("\x1b[")) + 1:line.rindex("\x1b[")]
        assert "\x1b[" not in text, repr(line)


def test_a_long_name_in_wide_characters_keeps_the_scores_one_to_a_line() -> None:
    """The scores go two to a line only where two fit: a CJK character takes two cells of the terminal, and the
    check used to count it as one, so a long CJK name was broken over two lines of the table."""
    from rich.cells import cell_len

    name = "山田太郎" * 5  # 20 characters, 40 cells
    game = boneyard.new_game("pip", 6, seed=3, names=[name] + [f"Computer {i}" for i in range(1, 6)])
    console = Console(record=True, width=80, height=60, force_terminal=False, file=io.StringIO())
    session = start_session(game, ["greedy"], 0, None, console, lambda prompt: "q")
    console.print(session.table())
    lines = console.export_text().splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    assert sum(name in line for line in lines) == 1
    assert all(sum(f"Computer {i}" in line for line in lines) == 1 for i in range(1, 6))
    narrow = boneyard.new_game("pip", 6, seed=3, names=["Ann"] + [f"Computer {i}" for i in range(1, 6)])
    console = Console(record=True, width=80, height=60, force_terminal=False, file=io.StringIO())
    console.print(start_session(narrow, ["greedy"], 0, None, console, lambda prompt: "q").table())
    paired = [line for line in console.export_text().splitlines() if line.count(" pts") == 2]
    assert len(paired) == 3  # short names: two to a line still


def test_a_line_with_an_arrow_key_is_asked_again_and_changes_nothing(tmp_path: Path) -> None:
    """An arrow key at the prompt (no line editing: the terminal shows ^[[D and sends its code with the line) is
    named and the line asked again, at the move prompt and at the choice of a place; the game is as before."""
    text = run_session("all-fives", 2, 7, ["\x1b[D1", "\x1b[A", "1"], tmp_path)
    assert text.count("The arrow keys (and other special keys) do not edit the line here") == 2
    assert "is not a move" not in text
    first = re.search(r" 1\) (\d)-(\d) on tile (\d+) \(.*?\), its (\d) end", text)
    assert first is not None
    tile, target, joined = first.group(1, 2), first.group(3), first.group(4)
    played = f"{joined}-{tile[1] if tile[0] == joined else tile[0]}@{target}"
    after = text.split("Type it again.")[-1]
    assert after.lstrip().startswith(f"Player 1: {played}")  # the "1" typed next is the first move listed
    game = first_hand_where("block", 2, two_places)
    tile, _ = ambiguous_choices(game)
    session, console = session_for(game, ["\x1b[B"], None)
    assert session.parse_answer(str(tile), game.legal_moves()) is None  # no place chosen, the turn asked again
    assert "do not edit the line here" in console.export_text()


def test_tab_completes_the_legal_moves_at_the_move_prompt_and_nothing_at_the_question() -> None:
    """The session gives the move prompt's read the legal moves to complete (Tab, where the line can be edited:
    tests/test_terminal_line.py types it), and the question of which place none."""
    game = first_hand_where("block", 2, two_places)
    tile, choices = ambiguous_choices(game)
    completing: list[list[str] | None] = []

    def hook(n: int) -> None:
        completing.append(None if session.completing is None else session.completing("", ""))

    legal = [str(move) for move in game.legal_moves()]
    session, _ = session_for(game, [str(tile), "a"], None, hook=hook)
    assert session.human_turn()
    assert completing == [legal, None]  # the moves as listed; then the question of which place
    assert game.hand.events[-1].move == choices[0]  # ("a": the tile was played where the question's a) said)
    assert session.completing is None  # (after the turn: no read is going on)


def test_scores_at_the_move_prompt_shows_every_hand_s_change_and_total() -> None:
    game = boneyard.new_game("all-fives", 3, seed=2)
    rng = random.Random(1)
    while not (len(game.log) >= 3 and game.in_hand and game.turn == 0):
        if not game.in_hand:
            game.next_hand()
        game.apply(rng.choice(game.legal_moves()))
    session, console = session_for(game, ["scores"], None, width=120)
    assert session.human_turn() is False  # (then q)
    rows = [line for line in console.export_text().splitlines() if re.match(r"│\s+\d+ │", line)]
    assert len(rows) == len(game.log)
    totals = [0, 0, 0]
    for hand, row in zip(game.log, rows, strict=True):
        cells = [cell.strip() for cell in row.strip("│").split("│")]
        assert cells[0] == str(hand.number)
        ended = "in play" if hand.result is None else \
            f"{hand.result.end}: {'nobody' if hand.result.winner is None else game.names[hand.result.winner]}"
        assert cells[1] == ended
        for seat in range(3):  # the moves' points and the hand's end points (no floor or cap in All Fives)
            change = sum(event.points for event in hand.events if event.seat == seat)
            change += hand.result.hand_points[seat] if hand.result is not None else 0
            totals[seat] += change
            assert cells[2 + seat] == f"{change:+d} → {totals[seat]}"
    assert totals == game.scores
    assert rows[-1].split("│")[2].strip() == "in play"
    assert "scores = the score sheet, hand by hand" in " ".join(boneyard.terminal.HELP.split())
