"""All Fives / Muggins / Five-Up (RULES.md §4): the worked examples, every option and bad input."""

from __future__ import annotations

from functools import partial

import pytest

from boneyard import Game, IllegalMoveError, Move, OptionError, Tile, VariantError, make_rules, new_game
from boneyard.layout import FaceKind, Role
from boneyard.rules.all_fives import AllFives
from boneyard.rules.base import SetupError
from boneyard.state import ScoreItem
from boneyard.tiles import double_set
from tests.helpers import T, filled, pips, play, start_exact, start_filled, tiles

start = partial(start_exact, "all-fives")
dealt = partial(start_filled, "all-fives")


def counts(game: Game, moves: str) -> list[int]:
    """The count (A5-7) after each of ``moves``."""
    result = []
    for text in moves.split():
        game.apply(Move.parse(text))
        result.append(AllFives.count(game))
    return result


# ---------------------------------------------------------------- worked examples
EX1 = "6-4 4-4@1 4-1@2 4-3@2 4-0@2 6-6@1"


def example_1(**options: object) -> Game:
    """A leads 6-4 (a lead of the hand's leader's choice: here left to chance, seat 0)."""
    return dealt(3, ["6-4 4-3", "4-4 4-0", "4-1 6-6"], leader=0, first_lead="random_player_any_tile", **options)


def test_a5_example_1_non_double_lead_spinner_later() -> None:
    game = example_1()
    assert counts(game, EX1) == [10, 14, 7, 10, 10, 16]
    events = game.hand.events
    assert [e.points for e in events] == [10, 0, 0, 10, 10, 0]
    assert [e.scoring for e in events[:1]] == [(ScoreItem("count", 10),)]
    assert game.scores == [20, 10, 0]
    spinner, double = game.layout[2], game.layout[6]
    assert spinner.role == Role.SPINNER and double.role == Role.CROSS
    assert [f.kind for f in spinner.faces] == [FaceKind.SIDE, FaceKind.END, FaceKind.END]


def test_a5_example_1_the_spinner_ends_open_only_after_both_sides() -> None:
    game = example_1()
    play(game, "6-4 4-4@1")
    assert [str(face) for face in game.layout.open_ends()] == ["6 on tile 1", "4 on tile 2"]
    play(game, "4-1@2")
    assert [str(face) for face in game.layout.open_ends()] == ["6 on tile 1", "4 on tile 2", "4 on tile 2",
                                                               "1 on tile 3"]


def test_a5_example_2_double_lead() -> None:
    game = dealt(3, ["5-5", "5-0", "5-3"], stock="6-6")
    assert game.hand.leader == 0 and game.legal_moves() == [Move.lead(T("5-5"))]  # 6-6 undealt: 5-5 called
    assert counts(game, "5-5 5-0@1 5-3@1") == [10, 10, 3]
    assert [e.points for e in game.hand.events] == [10, 10, 0]
    assert game.scores == [10, 10, 0]


def test_a5_example_3_maximum_count_with_a_spinner_is_35() -> None:
    game = dealt(2, ["0-0 0-5 0-3 5-5 5-3", "0-6 0-4 6-6 4-4"], leader=0, first_lead="random_player_any_tile")
    moves = "0-0 0-6@1 0-5@1 0-4@1 0-3@1 6-6@2 5-5@3 4-4@4 3-5@5"
    assert counts(game, moves) == [0, 6, 11, 15, 18, 24, 29, 33, 35]
    assert game.hand.events[-1].points == 35 and game.scores == [35, 15]
    assert sorted(game.layout.end_values()) == [(4, 2), (5, 1), (5, 2), (6, 2)]


def test_a5_example_3_maximum_count_in_muggins_is_20() -> None:
    game = dealt(2, ["6-6 4-4", "6-4"], spinner_mode="none")
    assert counts(game, "6-6 6-4@1 4-4@2") == [12, 16, 20]
    assert game.scores == [20, 0] and game.layout.spinners == 0


EX4_LOSER_3 = dict(hands=["0-0 4-0 6-4 4-2 5-1 6-2 2-2", "2-1 2-0 5-2 4-1 1-1 3-0 5-4"],
                   stock="6-3 5-5 3-2 6-6 5-3 3-1 3-3 6-5 1-0 6-0 6-1 4-4 5-0 4-3",
                   moves="2-2 2-5@1 5-1@2 1-1@3 2-4@1 2-0@1 4-0@5 0-3@6 0-0@7 1-4@4 2-6@1 4-5@10 6-4@11")
EX4_LOSER_2 = dict(hands=["3-3 3-0 5-3 3-1 4-0 6-3 3-2", "1-1 4-2 2-0 6-6 5-4 5-0 1-0"],
                   stock="6-4 6-0 4-3 5-5 5-1 5-2 0-0 2-2 6-1 2-1 6-5 4-4 6-2 4-1",
                   moves="6-6 6-3@1 draw 6-4@1 3-0@2 0-2@4 4-0@3 2-4@5 draw 6-0@1 0-5@8 5-3@9 4-5@7 3-3@10 0-1@6 "
                         "1-3@13 draw 3-4@14 3-2@12")
EX4_THREE = dict(hands=["2-2 1-0 5-2 4-0 5-5", "4-1 4-3 2-1 3-1 4-4", "5-1 6-5 5-4 0-0 6-4"],
                 stock="5-0 3-2 6-2 6-1 2-0 6-0 3-3 4-2 3-0 6-6 1-1 6-3 5-3",
                 moves="5-5 draw 5-0@1 5-1@1 0-4@2 4-3@4 5-6@1 1-0@3 3-1@5 0-0@7 5-2@1 1-2@8 6-4@6 2-2@11")


@pytest.mark.parametrize(("example", "loser", "bonus"), [(EX4_LOSER_3, "2-1", 5), (EX4_LOSER_2, "1-1", 0)],
                         ids=["loser_holds_3", "loser_holds_2"])
def test_a5_example_4_bonus_rounds_the_losers_pips_to_five(example: dict[str, str], loser: str, bonus: int) -> None:
    game = start(2, [example["hands"][0], example["hands"][1]], example["stock"])
    before = list(game.scores)
    play(game, example["moves"])
    assert game.hands == [[], tiles(loser)]
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("domino", 0, [bonus, 0])
    assert result.scoring[0] == [ScoreItem("domino", bonus)]
    assert before == [0, 0]


@pytest.mark.parametrize(("options", "points"), [
    ({}, [20, 0, 0]),
    ({"bonus_rounding": "per_opponent"}, [25, 0, 0]),
    ({"end_scoring": "each_subtracts_own"}, [0, -15, -10]),
    ({"score_unit": "fives"}, [4, 0, 0]),
], ids=["total", "per_opponent", "each_subtracts_own", "fives"])
def test_a5_example_4_three_players_bonus_rounding(options: dict[str, object], points: list[int]) -> None:
    game = start(3, EX4_THREE["hands"], EX4_THREE["stock"], **options)
    play(game, EX4_THREE["moves"])
    assert pips(game) == [0, 13, 9]
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("domino", 0, points)


EX5 = dict(hands=["3-1 5-5 6-2 3-2 6-5", "1-1 4-3 1-0 2-1 4-2", "4-1 3-3 5-3 5-0 6-3"],
           stock="6-0 6-4 6-1 4-0 5-1 2-0 2-2 5-4 4-4 3-0 6-6 0-0 5-2",
           moves="5-5 draw draw draw draw draw 5-1@1 5-0@1 5-6@1 1-2@2 6-3@4 2-6@5 0-6@3 3-5@6 draw draw draw 5-4@9 "
                 "4-2@10 draw draw draw 6-6@7 2-3@11 6-1@8 3-0@13 0-2@15 1-0@14 draw 0-0@17 2-2@16 6-4@12 4-4@20 "
                 "draw 5-2@1 4-0@21 pass pass pass")


@pytest.mark.parametrize(("options", "points"), [
    ({}, [20, 0, 0]),
    ({"blocked_score": "opponents_minus_own"}, [15, 0, 0]),
], ids=["opponents_total", "opponents_minus_own"])
def test_a5_example_5_blocked_hand_lowest_pips_wins(options: dict[str, object], points: list[int]) -> None:
    game = start(3, EX5["hands"], EX5["stock"], **options)
    play(game, EX5["moves"])
    assert game.stock_left == 0 and pips(game) == [4, 9, 11]
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("blocked", 0, points)


EX5_TIE = dict(hands=["1-0 4-4 6-4 6-1 6-3", "3-0 4-2 5-4 4-0 5-5", "3-2 3-3 2-2 5-2 4-3"],
               stock="2-1 2-0 5-1 0-0 6-5 5-0 3-1 6-0 6-2 6-6 5-3 1-1 4-1",
               moves="5-5 5-2@1 draw 2-1@2 5-4@1 4-3@4 3-6@5 draw draw 1-5@3 draw draw 6-5@6 draw 5-0@1 0-2@9 "
                     "2-2@10 draw draw draw 2-6@11 draw 6-6@12 draw 5-3@7 3-1@14 pass pass 6-0@13 0-4@16 pass 4-6@17 "
                     "pass pass 1-6@15 pass pass pass")


@pytest.mark.parametrize(("options", "winner", "points"), [
    ({}, None, [0, 0, 0]),
    ({"tie_rule": "split_3p"}, None, [5, 5, 0]),
    ({"tie_rule": "split_3p", "score_unit": "fives"}, None, [1, 1, 0]),
    ({"end_scoring": "each_subtracts_own"}, None, [-10, -10, -10]),
], ids=["no_score", "split_3p", "split_3p_in_fives", "each_subtracts_own"])
def test_a5_example_5_tied_block(options: dict[str, object], winner: int | None, points: list[int]) -> None:
    # Two tied low hands with a reachable block need the last two tiles kept in reserve.
    game = start(3, EX5_TIE["hands"], EX5_TIE["stock"], boneyard_reserve=2, **options)
    play(game, EX5_TIE["moves"])
    assert pips(game) == [9, 9, 11] and game.stock_left == 2
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("blocked", winner, points)


def test_a5_4_a_hand_without_a_winner_is_followed_by_a_called_lead() -> None:
    game = start(3, EX5_TIE["hands"], EX5_TIE["stock"], boneyard_reserve=2)
    play(game, EX5_TIE["moves"])
    game.start_hand(filled(game.rules, ["", "", "6-6"]))
    assert game.hand.leader == 2 and game.legal_moves() == [Move.lead(T("6-6"))]


# ---------------------------------------------------------------- spinner_mode
@pytest.mark.parametrize(("mode", "roles", "ends_after_side"), [
    ("first_double", [Role.SPINNER, Role.CROSS], 4),
    ("none", [Role.CROSS, Role.CROSS], 2),
    ("all_doubles", [Role.SPINNER, Role.SPINNER], 4),
])
def test_spinner_mode_decides_which_doubles_spin(mode: str, roles: list[Role], ends_after_side: int) -> None:
    game = example_1(spinner_mode=mode)
    play(game, "6-4 4-4@1")
    assert AllFives.count(game) == 14  # a spinner with a free side and a crosswise double both count 8
    play(game, "4-1@2")
    assert len(game.layout.open_ends()) == ends_after_side
    if mode == "none":
        assert AllFives.count(game) == 7 and game.layout.spinners == 0
        return
    play(game, "4-3@2 4-0@2 6-6@1")
    assert [game.layout[2].role, game.layout[6].role] == roles
    assert AllFives.count(game) == 16
    sixes = [face.kind for face in game.layout[6].faces]
    assert sixes == ([FaceKind.SIDE] if mode == "first_double" else [FaceKind.SIDE, FaceKind.END, FaceKind.END])


# ---------------------------------------------------------------- other options
@pytest.mark.parametrize(("top", "sizes"), [(9, {2: 7, 6: 7, 7: 6, 8: 6}), (12, {2: 9, 8: 9, 10: 8})])
def test_set_9_and_12_deal_and_call_from_the_top_double(top: int, sizes: dict[int, int]) -> None:
    for players, size in sizes.items():
        assert make_rules("all-fives", players, {"set": top}).deal_size() == size
    assert make_rules("all-fives", 2, {"set": top}).tile_set() == double_set(top)
    game = dealt(2, ["", f"{top}-{top}"], set=top)
    assert game.hand.leader == 1 and game.legal_moves() == [Move.lead(Tile(top, top))]
    with pytest.raises(VariantError):
        make_rules("all-fives", max(sizes) + 1, {"set": top})


def test_deal_sizes_of_pagats_main_rule() -> None:
    assert [make_rules("all-fives", n, {"deal_sizes": "9/7/5"}).deal_size() for n in (2, 3, 4)] == [9, 7, 5]
    assert [make_rules("all-fives", n).deal_size() for n in (2, 3, 4)] == [7, 5, 5]


def test_first_lead_random_player_any_tile() -> None:
    game = Game(make_rules("all-fives", 2, {"first_lead": "random_player_any_tile"}))
    with pytest.raises(SetupError, match="needs a leader"):
        game.start_hand(filled(game.rules, ["6-6"]))
    game.start_hand(filled(game.rules, ["6-6"], leader=1))
    assert game.turn == 1 and len(game.legal_moves()) == 7


@pytest.mark.parametrize(("lead_rule", "leader", "any_tile"), [("winner_any", 0, True), ("rotate", 1, True)])
def test_lead_rule_for_later_hands(lead_rule: str, leader: int, any_tile: bool) -> None:
    game = start(3, EX5["hands"], EX5["stock"], lead_rule=lead_rule)
    play(game, EX5["moves"])  # seat 0 led 5-5 and won
    game.start_hand(filled(game.rules, ["", "", "6-6"]))
    assert game.hand.leader == game.turn == leader
    assert game.legal_moves() == [Move.lead(tile) for tile in game.hands[leader]]


@pytest.mark.parametrize("reserve", [0, 1, 2])
def test_boneyard_reserve_tiles_are_never_drawn(reserve: int) -> None:
    for seed in range(6):
        game = new_game("all-fives", players=2 + seed % 3, seed=seed, options={"boneyard_reserve": reserve})
        while game.in_hand:
            legal = game.legal_moves()
            assert game.stock_left >= reserve
            if legal == [Move.passing()]:
                assert game.stock_left == reserve
            game.apply(legal[seed % len(legal)])


def test_allow_voluntary_draw() -> None:
    assert example_1().legal_moves() == [Move.lead(t) for t in example_1().hands[0]]
    game = example_1()
    play(game, "6-4")
    assert Move.draw() not in game.legal_moves()
    free = example_1(allow_voluntary_draw=True)
    play(free, "6-4")
    assert free.legal_moves()[-1] == Move.draw()
    play(free, "draw")
    assert free.turn == 1 and len(free.hands[1]) == 6


def test_score_unit_fives_divides_every_score_and_targets_61() -> None:
    game = example_1(score_unit="fives")
    play(game, EX1)
    assert [e.points for e in game.hand.events] == [2, 0, 0, 2, 2, 0]
    assert game.scores == [4, 2, 0]
    assert make_rules("all-fives", 2, {"score_unit": "fives"}).target == 61  # type: ignore[attr-defined]


def test_default_targets() -> None:
    assert [make_rules("all-fives", n).target for n in (2, 3, 4)] == [250, 200, 200]  # type: ignore[attr-defined]
    assert make_rules("all-fives", 2, {"target": 150}).target == 150  # type: ignore[attr-defined]


def test_target_with_immediate_win_check_stops_play_at_once() -> None:
    game = example_1(target=20)
    play(game, "6-4 4-4@1 4-1@2")
    assert not game.finished
    play(game, "4-3@2")  # seat 0 reaches 20 in the middle of the hand
    assert game.finished and game.winner == 0 and game.scores == [20, 0, 0]
    result = game.hand.result
    assert result is not None and (result.end, result.winner, result.hand_points) == ("unfinished", None, [0, 0, 0])
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.apply(Move.parse("4-0@2"))


def test_win_check_end_of_hand_plays_the_hand_out() -> None:
    game = example_1(target=20, win_check="end_of_hand")
    play(game, "6-4 4-4@1 4-1@2 4-3@2")
    assert game.scores == [20, 0, 0] and game.in_hand and not game.finished
    play(game, "4-0@2 6-6@1")
    assert game.in_hand


def test_win_check_end_of_hand_plays_on_after_a_tie_for_the_lead() -> None:
    game = dealt(3, ["5-5", "5-0", "5-3"], stock="6-6", target=10, win_check="end_of_hand")
    play(game, "5-5 5-0@1")  # seats 0 and 1 both have 10
    assert game.scores[:2] == [10, 10] and game.in_hand and not game.finished


# ---------------------------------------------------------------- illegal moves and bad input
def test_illegal_moves_name_the_move_and_the_reason_and_change_nothing() -> None:
    game = dealt(3, ["5-5", "5-0", "5-3"], stock="6-6")
    before = (list(map(list, game.hands)), game.turn, list(game.scores), len(game.layout))
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(Move.parse("1-0"))
    assert str(caught.value) == "1-0: seat 0 must lead one of: 5-5"
    play(game, "5-5")
    with pytest.raises(IllegalMoveError, match=r"^5-3@1: 5-3 is not in seat 1's hand"):
        game.apply(Move.parse("5-3@1"))
    with pytest.raises(IllegalMoveError, match=r"^0-5@1: tile 1 has no open 0 end"):
        game.apply(Move.parse("0-5@1"))
    game.undo()
    assert (list(map(list, game.hands)), game.turn, list(game.scores), len(game.layout)) == before


@pytest.mark.parametrize(("options", "message"), [
    ({"spinner_mode": "two"}, "option 'spinner_mode'"),
    ({"score_unit": "tens"}, "option 'score_unit'"),
    ({"tie_rule": "lightest_tile"}, "option 'tie_rule': 'lightest_tile' is not allowed"),
    ({"bonus_rounding": "none"}, "option 'bonus_rounding'"),
    ({"end_scoring": "loser_pays"}, "option 'end_scoring'"),
    ({"boneyard_reserve": 3}, "option 'boneyard_reserve'"),
    ({"lead_rule": "random"}, "option 'lead_rule'"),
    ({"target": "lots"}, "option 'target'"),
    ({"partnerships": True}, "unknown option 'partnerships'"),
])
def test_bad_options_name_the_key(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_rules("all-fives", 2, options)


@pytest.mark.parametrize("name", ["all-fives", "muggins", "five-up", "fives", "All Fives", "ALL_FIVES"])
def test_aliases(name: str) -> None:
    assert type(make_rules(name, 2)) is AllFives


@pytest.mark.parametrize("players", [1, 5])
def test_bad_player_counts(players: int) -> None:
    with pytest.raises(VariantError, match=f"all-fives is for 2 to 4 players, not {players}"):
        make_rules("all-fives", players)
