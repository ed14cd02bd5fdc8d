"""The table in words (boneyard.web.narrate) and the fields it adds to the web ``state`` message:
the hand's log, the All Fives count, the last tile and the owed PIP doubles; letters drawn upright."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from boneyard import record
from boneyard.state import Dice
from boneyard.web.narrate import hand_log, latest_text, plural, table_fields
from boneyard.web.replayer import replay_steps
from tests.helpers import play, start_filled
from tests.test_audit_referee22c import hand_record
from tests.test_pip import arrange, game_at_round, round_one, setup
from tests.test_pip import play as play_pip

dealt = partial(start_filled, "all-fives")


def texts(game: object, seat: int | None) -> list[str]:
    return [entry["text"] for entry in hand_log(game, seat)]  # type: ignore[arg-type]


def test_a5_example_1_log_gives_the_count_after_every_play_and_what_it_scored() -> None:
    game = dealt(3, ["6-4 4-3", "4-4 4-0", "4-1 6-6"], leader=0, first_lead="random_player_any_tile")
    game.names = ["You", "Computer 1", "Computer 2"]
    play(game, "6-4 4-4@1 4-1@2 4-3@2")
    assert texts(game, 0) == [
        "You led 6-4: count 10, +10",
        "Computer 1 played 4-4 on the 4: count 14",
        "Computer 2 played 4-1 on the 4: count 7",
        "You played 4-3 on the 4: count 10, +10",
    ]
    fields = table_fields(game, 0)
    assert fields["count"] == 10 and fields["last_tile"] == 4
    # the open ends a screen reader is told: the lead's 6, the spinner's free short end (4, counting nothing),
    # the 1 and the 3 of the tiles on the spinner
    assert fields["ends"] == ["6", "4", "1", "3"]
    play(game, "4-0@2 6-6@1")
    assert table_fields(game, 1)["count"] == 16
    assert texts(game, 1)[-2:] == ["You played 4-0 on the 4: count 10, +10",
                                   "Computer 2 played 6-6 on the 6: count 16"]


def test_count_is_only_for_all_fives() -> None:
    game = start_filled("block", 2, ["6-4"], leader=0)
    assert table_fields(game, 0)["count"] is None and table_fields(game, 0)["ends"] == []
    play(game, "6-4")
    fields = table_fields(game, 0)
    assert fields["count"] is None and fields["last_tile"] == 1 and fields["ends"] == ["6", "4"]


def test_draws_are_grouped_and_never_name_the_tile_passes_and_the_end_of_the_hand() -> None:
    game = start_filled("draw", 2, ["6-6 1-1", "2-3 0-0"], stock="2-2 5-1 3-0", leader=0)
    game.names = ["Ann", "Bob"]
    play(game, "6-6 draw draw draw")
    log = texts(game, 0)
    assert log == ["You led 6-6", "Bob drew 3 tiles"]
    assert "3-0" not in " ".join(log) and "2-2" not in " ".join(log)
    assert texts(game, 1)[1] == "You drew 3 tiles"
    assert plural(1, "tile") == "1 tile" and plural(0, "tile") == "0 tiles"


def test_the_end_of_the_hand_says_who_won_and_what_each_seat_scored() -> None:
    game = start_filled("block", 2, [])
    seat = game.turn
    lead = game.legal_moves()[0]
    game.hands[seat] = [lead.tile]  # (a position set by hand) its last tile: the lead ends the hand
    game.apply(lead)
    other = 1 - seat
    mine, theirs = texts(game, seat)[-1], texts(game, other)[-1]
    assert mine.startswith("Hand 1 over (domino): You win the hand. At the hand's end ")
    assert theirs.startswith(f"Hand 1 over (domino): Player {seat + 1} wins the hand. ")
    assert "you score 0" in theirs and f"Player {other + 1} scores 0" in mine


def test_a_game_won_during_a_hand_is_told_so() -> None:
    # the lead's count of 10 reaches a target of 10 at once: the hand stops there, unfinished
    game = dealt(3, ["6-4 4-3", "4-4 4-0", "4-1 6-6"], leader=0, first_lead="random_player_any_tile", target=10)
    play(game, "6-4")
    assert game.finished and game.winner == 0
    assert texts(game, 1)[-1] == "Hand 1 stopped: Player 1 won the game during it."
    assert texts(game, 0)[-1] == "Hand 1 stopped: You won the game during it."


def test_pip_letter_effects_and_a_double_owing_three_plays_are_logged() -> None:
    game = round_one(4)
    arrange(game, {1: "W-S 9-8"})
    play(game, "W-S@1")
    assert texts(game, 1)[-1] == "You played S-★ on the 1: the next player is skipped"  # W drawn as a star
    assert texts(game, 0)[-1] == "Player 2 played S-★ on the 1: the next player is skipped"


def test_pip_example_4_the_owed_double_is_marked_then_cleared_at_the_end_of_the_hand() -> None:
    game = game_at_round(3, players=4)
    game.start_hand(setup(4, {0: "5-5 S-W", 1: "5-2 3-1", 2: "3-3 3-0", 3: "5-3 W-6"},
                          stock_front="8-1", avoid={2: "5"}))
    play(game, "3-3", "3-5@1", "5-5@2")
    assert table_fields(game, 0)["owed"] == [{"tile": 3, "plays": 3}]
    assert texts(game, 0)[-1] == "You played 5-5 on the 5: a double: the next 3 plays go on its toes"
    play(game, "5-2@3")
    assert table_fields(game, 0)["owed"] == [{"tile": 3, "plays": 2}]
    while game.in_hand:
        game.apply(game.legal_moves()[0])
    fields = table_fields(game, 0)
    assert fields["owed"] == []
    assert fields["log"][-1]["text"].startswith("Hand 3 over")


def test_a_give_the_seat_did_not_see_stays_a_tile() -> None:
    game = round_one(4)
    arrange(game, {1: "W-D 5-2 9-8", 2: "1-3"}, stock="")
    play_pip(game, "W-D@1", "give 5-2")
    assert texts(game, 1)[-1] == "You gave 5-2 to the next player"
    assert texts(game, 2)[-1] == "Player 2 gave 5-2 to the next player"
    assert texts(game, 3)[-1] == "Player 2 gave a tile to the next player"
    assert texts(game, None)[-1] == "Player 2 gave a tile to the next player"


def test_the_state_message_carries_the_fields(tmp_path: Path) -> None:
    pytest.importorskip("sqlalchemy")
    from boneyard.web.rooms import Room, Seat
    from boneyard.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    room = Room.create("g1", "all-fives", [Seat("Ann", "human"), Seat("Bob", "computer")], None, 5, store, 0)
    game = room.game
    game.apply(game.legal_moves()[0])
    state = room.state(0)
    assert state["last_tile"] == 1
    assert state["count"] == table_fields(game, 0)["count"] is not None
    assert [entry["text"] for entry in state["log"]] == texts(game, 0)
    assert state["log"][0]["text"].startswith(("You led", "Bob led"))
    assert state["owed"] == [] and state["pending"] == []


def test_svg_letters_are_turned_back_upright() -> None:
    from boneyard.render.geometry import TileBox
    from boneyard.render.svg import tile_group

    standing = tile_group(TileBox(1, "S-W", ("S", "W"), 0.0, 0.0, 90, "line"))
    assert standing.count('transform="rotate(-90 ') == 2  # the S and the star
    lying = tile_group(TileBox(1, "S-W", ("S", "W"), 0.0, 0.0, 0, "line"))
    assert "rotate(-" not in lying and ">S</text>" in lying


@pytest.mark.parametrize(("last", "said"), [("W-S", "S-★ on the 1"), ("W-W", "★-★ on the 1")])
def test_a_pip_tile_that_ends_the_hand_is_not_said_to_act_after_it(last: str, said: str) -> None:
    # what a directional tile or a double would do next is not said when it was the hand's last tile
    game = round_one(4)
    arrange(game, {1: last})
    play(game, f"{last}@1")
    assert game.hand.result is not None and game.hand.result.end == "domino"
    log = texts(game, 1)
    assert log[-2] == f"You played {said}"
    assert log[-1].startswith("Hand 1 over (domino): You win the hand.")
    assert latest_text(game, game.hand.events[-1]) == f"Player 2 played {said}"  # the replay viewer's words



@pytest.mark.parametrize(("variant", "hands", "moves", "options", "said"), [
    ("bergen", ["0-0 6-5"], "0-0", {"target": 2}, "P0 led 0-0: +1 (double-header +2, approach cap −1)"),
    ("flower-scorpion", ["5-5"], "5-5", {"leader": 0, "dice": Dice((1, 3), (5, 5))},
     "P0 led 5-5: +0 (short-scorpion −1, long-scorpion −1, score floor +2)"),
])
def test_the_log_says_what_held_a_moves_points_back(variant: str, hands: list[str], moves: str,
                                                     options: dict[str, Any], said: str) -> None:
    """The web log's line adds up as the terminal's and the text replay's do: Bergen's approach cap (BRG-8) and
    Flower & Scorpion's score floor are named where they held the move's points back (the table's log and the
    replay viewer say the same)."""
    data = hand_record(variant, 2, hands, moves, **options)
    assert texts(record.replay(data), None) == [said]
    assert replay_steps(data)["hands"][0]["steps"][1]["event"]["text"] == said
