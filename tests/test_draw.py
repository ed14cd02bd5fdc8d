"""Draw dominoes (RULES.md §3): the worked examples, Draw's own options and its drawing rules.

The options Draw shares with Block (set, deal sizes, leads, blocked score, target) are tested
for both variants in ``test_block.py``.
"""

from __future__ import annotations

from functools import partial

import pytest

from boneyard import Game, IllegalMoveError, Move, OptionError, make_rules, new_game
from tests.helpers import T, filled, pips, play, start_exact, start_filled, tiles

start = partial(start_exact, "draw")
dealt = partial(start_filled, "draw", 2)


# ---------------------------------------------------------------- worked examples
def drw1(**options: object) -> Game:
    game = dealt(["6-6 0-0 1-0 1-1 2-0 2-1 3-0", "6-4"], stock="2-2 5-1 6-3", **options)
    play(game, "6-6 6-4@1")  # open ends 6 (the double's free side) and 4
    return game


def test_drw_example_1_draw_until_a_playable_tile_then_play_it_at_once() -> None:
    game = drw1()
    assert [str(face) for face in game.layout.open_ends()] == ["6 on tile 1", "4 on tile 2"]
    assert game.turn == 0 and game.legal_moves() == [Move.draw()]
    play(game, "draw")
    assert game.hands[0][-1] == T("2-2") and game.legal_moves() == [Move.draw()]
    play(game, "draw")
    assert game.hands[0][-1] == T("5-1") and game.legal_moves() == [Move.draw()]
    play(game, "draw")
    assert game.legal_moves() == [Move.parse("6-3@1")]  # the drawn tile must be played
    play(game, "6-3@1")
    assert len(game.hands[0]) == 8 and T("2-2") in game.hands[0] and T("5-1") in game.hands[0]
    assert game.turn == 1 and game.stock_left == 14 - 3
    assert [e.move for e in game.hand.events[2:]] == [Move.draw()] * 3 + [Move.parse("6-3@1")]


DRW2 = dict(hands=["3-0 6-5 4-1 5-0 3-3 6-1 1-1", "4-3 2-2 5-3 5-1 5-5 6-2 6-3"],
            stock="5-4 3-1 4-4 1-0 6-6 5-2 6-4 6-0 2-0 0-0 2-1 4-0 4-2 3-2",
            moves="5-5 5-0@1 5-3@1 3-0@3 draw draw draw draw 0-1@2 1-6@5 6-2@6 draw draw 2-5@7 5-4@8 4-1@9 1-5@10 "
                  "5-6@11 6-3@12 3-3@13 3-4@14 draw 4-6@15 draw 0-6@4 6-6@16 draw draw draw draw pass")


def test_drw_example_2_the_reserve_is_never_drawn_and_all_passing_blocks() -> None:
    game = start(2, DRW2["hands"], DRW2["stock"], boneyard_reserve=2)
    play(game, DRW2["moves"])  # seat 1 drew down to the reserve, could not play and passed
    assert game.stock_left == 2 and not game.can_draw
    assert game.turn == 0 and game.legal_moves() == [Move.passing()]
    play(game, "pass")
    assert game.in_hand and game.legal_moves() == [Move.passing()]
    play(game, "pass")
    result = game.hand.result
    assert result is not None and result.end == "blocked"
    assert game.stock[game.stock_pos:] == tiles("4-2 3-2")
    assert pips(game) == [2, 25] and result.hand_points == [25, 0]


def test_drw_example_2_without_a_reserve_the_same_player_draws_on() -> None:
    game = start(2, DRW2["hands"], DRW2["stock"])
    play(game, DRW2["moves"].removesuffix(" pass"))
    assert game.stock_left == 2 and game.legal_moves() == [Move.draw()]


DRW3 = dict(hands=["0-0 3-1 6-4 4-2 6-0 5-1 4-0", "6-5 2-2 5-0 4-3 6-2 5-2 6-6"],
            stock="5-4 3-2 2-1 1-1 3-0 5-5 6-3 2-0 4-4 1-0 3-3 4-1 6-1 5-3",
            moves="6-0 6-6@1 6-4@2 4-3@3 0-4@1 draw 4-5@5 5-1@6 draw 3-2@4 2-4@8 draw 1-2@7 draw draw draw draw draw "
                  "2-0@10 0-5@11 5-5@12 5-2@13 draw 4-4@9 2-6@14 6-3@16 draw draw 3-3@17 3-0@18 0-1@19 1-1@20 draw "
                  "1-4@21 pass pass")


@pytest.mark.parametrize(("blocked_score", "points"), [("opponents_total", 15), ("opponents_minus_own", 11)])
def test_drw_example_3_blocked_two_player_hand(blocked_score: str, points: int) -> None:
    # With every tile drawn, two hands of [0-0][1-3] and [6-5][2-2] cannot be blocked (the
    # table would need a line whose pip counts have the wrong parity), so this hand keeps the
    # last two tiles in reserve; A leads 6-0 as in a later hand (here: a random first lead).
    game = start(2, DRW3["hands"], DRW3["stock"], leader=0, boneyard_reserve=2,
                 first_lead="random_player_any_tile", blocked_score=blocked_score)
    play(game, DRW3["moves"])
    assert sorted(game.hands[0]) == tiles("0-0 3-1") and sorted(game.hands[1]) == tiles("2-2 6-5")
    assert pips(game) == [4, 15]
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("blocked", 0, [points, 0])


# ---------------------------------------------------------------- drawing rules and options
def test_a_player_who_can_play_may_not_draw_by_default() -> None:
    game = dealt(["6-6", "6-4"])
    play(game, "6-6")
    assert game.legal_moves() == [Move.parse("6-4@1")]
    with pytest.raises(IllegalMoveError, match=r"seat 1 can play \(6-4@1\) and must play"):
        game.apply(Move.draw())


def test_allow_voluntary_draw_lets_a_player_draw_instead_of_playing() -> None:
    game = dealt(["6-6", "6-4"], allow_voluntary_draw=True)
    play(game, "6-6")
    assert game.legal_moves() == [Move.parse("6-4@1"), Move.draw()]
    play(game, "draw draw")
    assert game.turn == 1 and len(game.hands[1]) == 9
    play(game, "6-4@1")
    assert game.turn == 0


def test_voluntary_draws_stop_at_the_reserve() -> None:
    game = dealt(["6-6", "6-4"], allow_voluntary_draw=True, boneyard_reserve=2)
    play(game, "6-6" + " draw" * 12)
    assert game.stock_left == 2 and Move.draw() not in game.legal_moves()


def test_a_player_may_not_pass_while_the_stock_can_be_drawn() -> None:
    game = drw1()
    with pytest.raises(IllegalMoveError, match="seat 0 may not pass while able to move"):
        game.apply(Move.passing())


def test_a_draw_naming_its_tile_is_checked_against_the_stock() -> None:
    game = drw1()
    with pytest.raises(IllegalMoveError, match="the next tile in the stock is 2-2, not 6-3"):
        game.apply(Move.parse("draw 6-3"))
    assert game.stock_left == 14
    game.apply(Move.parse("draw 2-2"))
    assert game.stock_left == 13


@pytest.mark.parametrize("reserve", [0, 2])
def test_a_player_passes_only_when_nothing_can_be_played_or_drawn(reserve: int) -> None:
    for seed in range(8):
        game = new_game("draw", players=2 + seed % 3, seed=seed, options={"boneyard_reserve": reserve})
        while game.in_hand:
            legal = game.legal_moves()
            if legal == [Move.passing()]:
                assert game.stock_left == reserve
            assert game.stock_left >= reserve
            game.apply(legal[seed % len(legal)])


DEAD = "6-6 6-5@1 5-4@2 4-6@3 6-3@4 3-2@5 2-6@6 6-1@7 1-0@8 0-6@9"


def test_end_on_dead_layout_ends_the_hand_when_both_ends_show_exhausted_suits() -> None:
    hands = ["6-6 5-4 6-3 6-2 1-0", "6-5 6-4 3-2 6-1 6-0"]
    game = dealt(hands, end_on_dead_layout=True)
    play(game, DEAD.rsplit(" ", 1)[0])
    assert game.in_hand
    play(game, "0-6@9")  # both ends show 6 and all seven sixes are on the table
    result = game.hand.result
    assert result is not None and result.end == "blocked"
    assert game.stock_left == 14  # nobody had to draw the stock out
    assert result.winner == min(range(2), key=lambda seat: game.hand_points_of(seat))
    plain = dealt(hands)
    play(plain, DEAD)
    assert plain.in_hand and plain.turn == 0 and plain.legal_moves() == [Move.draw()]


def test_draw_partnerships_may_keep_a_stock_with_a_larger_set() -> None:
    rules = make_rules("draw", 4, {"partnerships": True, "set": 9})
    assert rules.deal_size() == 7 and rules.score_seats(3) == (3, 1)
    game = Game(rules)
    game.start_hand(filled(game.rules, ["9-9"]))
    assert game.stock_left == 55 - 28


@pytest.mark.parametrize(("options", "message"), [
    ({"boneyard_reserve": 1}, "option 'boneyard_reserve': 1 is not allowed"),
    ({"allow_voluntary_draw": "sometimes"}, "option 'allow_voluntary_draw'"),
    ({"end_on_dead_layout": 3}, "option 'end_on_dead_layout'"),
    ({"spinner_mode": "none"}, "unknown option 'spinner_mode'"),
])
def test_bad_draw_options_name_the_key(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_rules("draw", 2, options)
