"""The search for a starting tile (Double Bergen's DBG-4 draws, PIP's starter search, PIP-6) said in words.

The draws are not moves (RECORD.md), so nothing else told a player why a hand began with more tiles than were
dealt.  The game keeps them (``HandLog.setup_draws``); the terminal, the web table's log and the replay text say
them, each seat seeing only its own drawn tiles.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

import boneyard
from boneyard import record
from boneyard.moves import Move
from boneyard.state import Game
from boneyard.terminal import start_session
from boneyard.tiles import Tile
from boneyard.view import SeatView
from boneyard.web.narrate import Narrator, hand_log
from tests.helpers import play, start_filled

HEAD = "Nobody held a starting tile, so they drew in turn: "


def double_bergen_without_doubles() -> Game:
    """Two players dealt no double (the filler deals non-doubles first); seat 0 draws 3-1, seat 1 draws 2-2."""
    game = start_filled("double-bergen", 2, [], stock="3-1 2-2", leader=0)
    game.names = ["Ann", "Bob"]
    return game


def pip_with_a_search(players: int) -> Game:
    """The first PIP game (by seed) of ``players`` whose first round dealt neither 1-1 nor W-W (draws by several)."""
    return next(game for seed in range(1000)
                if len((game := boneyard.new_game("pip", players, seed=seed)).hand.setup_draws) > players)


def test_the_draws_are_kept_in_order_and_the_double_drawn_is_set_by_its_drawer() -> None:
    game = double_bergen_without_doubles()
    assert not any(tile.is_double for hand in game.hand.setup.deal for tile in hand)
    assert game.hand.setup_draws == [(0, Tile.parse("3-1")), (1, Tile.parse("2-2"))]
    assert game.turn == 1 and game.legal_moves() == [Move.lead(Tile.parse("2-2"))]
    assert [len(hand) for hand in game.hands] == [7, 7]


def test_each_seat_is_told_its_own_drawn_tiles_and_only_the_count_of_the_others() -> None:
    game = double_bergen_without_doubles()
    assert hand_log(game, 0) == [{"seat": None, "text": HEAD + "you 1 tile (3-1), Bob 1 tile."}]
    assert hand_log(game, 1) == [{"seat": None, "text": HEAD + "Ann 1 tile, you 1 tile (2-2)."}]
    assert hand_log(game, None) == [{"seat": None, "text": HEAD + "Ann 1 tile, Bob 1 tile."}]
    play(game, "2-2")
    texts = [entry["text"] for entry in hand_log(game, 0)]
    assert texts[0] == HEAD + "you 1 tile (3-1), Bob 1 tile." and texts[1].startswith("Bob ")


def test_a_hand_with_a_starting_tile_dealt_says_nothing_of_a_search() -> None:
    game = start_filled("double-bergen", 2, ["3-3"], leader=0)
    assert game.hand.setup_draws == []
    assert all(not entry["text"].startswith("Nobody held") for entry in hand_log(game, 0))


def test_the_table_message_log_equals_the_log_built_afresh_move_by_move() -> None:
    game = pip_with_a_search(3)
    narrator = Narrator()
    for _ in range(6):
        for seat in (0, 1, 2):
            view = SeatView(game, seat)
            text = narrator.log_text(game, seat, narrator.told(game, seat, view))
            assert json.loads(text) == hand_log(game, seat)
            assert json.loads(text)[0]["text"].startswith(HEAD)
        game.apply(game.legal_moves()[0])


def test_an_undone_deal_forgets_its_draws_and_a_replayed_record_draws_the_same() -> None:
    game = pip_with_a_search(2)
    drawn = list(game.hand.setup_draws)
    assert drawn
    game.apply(game.legal_moves()[0])
    again = record.replay(record.to_record(game))
    assert again.hand.setup_draws == drawn
    game.undo()
    assert game.hand.setup_draws == drawn  # the first move undone; the search stays
    game.undo()
    assert not game.log


def test_the_replay_text_lists_every_draw(tmp_path: Path) -> None:
    game = double_bergen_without_doubles()
    play(game, "2-2")
    text = record.replay_text(record.to_record(game))
    assert "  Drawn in turn for a starting tile: Ann 3-1, Bob 2-2" in text.splitlines()


def test_the_terminal_says_the_search_before_the_first_tile(tmp_path: Path) -> None:
    game = pip_with_a_search(2)
    mine = [str(tile) for seat, tile in game.hand.setup_draws if seat == 0]
    theirs = sum(seat == 1 for seat, _ in game.hand.setup_draws)
    console = Console(record=True, width=400, force_terminal=False)
    session = start_session(game, ["greedy"], 0, tmp_path / "g.boneyard.json", console, lambda prompt: "q")
    session.run()
    lines = console.export_text().splitlines()
    said = next(line for line in lines if line.startswith(HEAD))
    plural = "tile" if theirs == 1 else "tiles"
    assert said == HEAD + f"you {len(mine)} tiles ({', '.join(mine)}), Player 2 {theirs} {plural}."
    assert lines.index(said) < next(i for i, line in enumerate(lines) if "Round 1 of 9" in line)


def test_the_web_log_draws_a_wild_half_as_the_table_does() -> None:
    game = pip_with_a_search(2)
    seat, starter = game.hand.setup_draws[-1]
    assert starter == Tile.parse("W-W")  # the search ends with the tile that starts the round
    text = hand_log(game, seat)[0]["text"]
    assert "★-★" in text and "W" not in text.removeprefix(HEAD)
    assert "W-W" in record.replay_text(record.to_record(game))  # the notation in the replay text


def test_the_replay_viewer_opens_such_a_hand_with_every_drawn_tile() -> None:
    from boneyard.web.replayer import replay_steps

    game = double_bergen_without_doubles()
    play(game, "2-2")
    hands = replay_steps(record.to_record(game))["hands"]
    assert hands[0]["setup"] == HEAD + "Ann 1 tile (3-1), Bob 1 tile (2-2)."
    assert hands[0]["steps"][0]["hands"][1][-1] == "2-2"  # the double drawn is in Bob's hand before he sets it
    plain = start_filled("double-bergen", 2, ["3-3"], leader=0)
    play(plain, "3-3")
    assert replay_steps(record.to_record(plain))["hands"][0]["setup"] is None
