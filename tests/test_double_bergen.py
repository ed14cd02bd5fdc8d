"""Double Bergen (RULES.md §6): the worked examples, every option, and whole seeded games."""

from __future__ import annotations

import random
from functools import partial

import pytest

from boneyard import Game, IllegalMoveError, Move, OptionError, make_rules, new_game
from boneyard.layout import FaceKind, Layout, Role
from boneyard.rules.base import SetupError
from tests.helpers import T, check_whole_game, filled, items, play, start_filled

start = partial(start_filled, "double-bergen", leader=0)


def scored(layout_moves: list[str], **options: object) -> tuple[dict[str, int], int]:
    """Score a layout built from notation (the first tile is the spinner), as after its last tile."""
    rules = make_rules("double-bergen", 2, options)
    game = Game(rules)
    game.start_hand(filled(rules, [layout_moves[0]], leader=0))
    layout = Layout(sides_first=game.layout.sides_first)
    lead = Move.parse(layout_moves[0])
    assert lead.tile is not None
    placed = layout.place_lead(lead.tile, lead.half, Role.SPINNER)
    for text in layout_moves[1:]:
        move = Move.parse(text)
        assert move.tile is not None
        placed = layout.place(move.tile, move.half, move.target, Role.CROSS if move.tile.is_double else Role.LINE)
    game.layout = layout
    found, points = game.rules.score_play(game, 0, placed)
    return {item.name: item.points for item in found}, points


EXAMPLE_HANDS = ["3-3 6-3 1-1", "5-3 3-0 6-1", "3-1 5-1"]
SPINNER_PHASE = ["3-3", "3-5@1", "3-1@1", "3-6@1", "3-0@1"]


# ---------------------------------------------------------------- worked examples
def test_dbg_example_1_spinner_phase() -> None:
    game = start(3, EXAMPLE_HANDS)
    events = play(game, *SPINNER_PHASE)
    assert [e.points for e in events] == [2, 2, 2, 2, 0]
    assert [items(e) for e in events[:4]] == [{"spinner": 2}] * 4
    assert events[4].scoring == ()
    assert [e.seat for e in events] == [0, 1, 2, 0, 1]


def test_dbg_example_2_arm_phase() -> None:
    game = start(3, EXAMPLE_HANDS)
    play(game, *SPINNER_PHASE)
    events = play(game, "5-1@2", "1-1@3", "6-1@4")
    assert [items(e) for e in events] == [{"pairs": 2}, {"pairs": 3}, {"pairs": 4}]
    assert game.scores == [2 + 2 + 3, 2 + 0 + 4, 2 + 2]


def test_dbg_example_3_two_suits_at_once() -> None:
    two_suits = ["3-3", "3-2@1", "3-5@1", "3-1@1", "3-0@1", "2-2@2", "5-5@3", "1-2@4", "0-5@5"]
    assert scored(two_suits) == ({"pairs": 6}, 6)
    four_threes = ["0-0", "0-3@1", "0-1@1", "0-2@1", "0-4@1", "3-3@2", "1-3@3", "2-3@4", "4-3@5"]
    assert scored(four_threes) == ({"pairs": 5}, 5)


@pytest.mark.parametrize(("flag", "one", "four"), [(False, 0, 0), (True, 2, 8)])
def test_dbg_example_4_lone_double_flag(flag: bool, one: int, four: int) -> None:
    lone_four = ["3-3", "3-4@1", "3-2@1", "3-5@1", "3-0@1", "4-4@2"]
    assert scored(lone_four, lone_double_scores=flag)[1] == one
    four_doubles = ["0-0", "0-1@1", "0-2@1", "0-3@1", "0-5@1", "1-1@2", "2-2@3", "3-3@4", "5-5@5"]
    assert scored(four_doubles, lone_double_scores=flag)[1] == four


def test_dbg_example_5_round_end() -> None:
    game = start(3, ["0-0"])
    game.hands = [[], [T("6-5"), T("4-4"), T("2-1")], [T("1-0")]]
    assert game.rules.end_hand(game, "domino", 0).hand_points == [1, 0, 0]
    penalty = start(3, ["0-0"], end_scoring="tile_penalty")
    penalty.hands = game.hands
    outcome = penalty.rules.end_hand(penalty, "domino", 0)
    assert outcome.hand_points == [0, -3, -1]
    assert outcome.winner == 0


# ---------------------------------------------------------------- setting the double (DBG-4)
def test_designated_leader_sets_a_double_of_his_choice() -> None:
    game = start(3, ["2-2 5-5", "6-6"], leader=0)
    assert (game.hand.leader, game.turn) == (0, 0)
    assert sorted(move.tile for move in game.legal_moves() if move.tile) == [T("2-2"), T("5-5")]


def test_the_duty_passes_to_the_first_player_holding_a_double() -> None:
    game = start(4, ["", "", "4-4", "1-1"], leader=0)
    assert game.hand.leader == 0  # the recorded leader stays the designated one
    assert game.turn == 2
    assert game.legal_moves() == [Move.lead(T("4-4"))]
    play(game, "4-4")
    assert game.turn == 3  # play continues left of the setter


def test_nobody_holds_a_double_so_players_draw_until_one_appears() -> None:
    game = start(3, [], stock="5-1 4-2 6-3 3-3 0-0", leader=1)
    assert game.hand.leader == 1
    assert game.turn == 1  # seat 1 drew 5-1, seat 2 4-2, seat 0 6-3, seat 1 3-3
    assert game.legal_moves() == [Move.lead(T("3-3"))]
    assert [len(hand) for hand in game.hands] == [7, 8, 7]  # the non-doubles drawn are kept
    assert game.stock_left == 10 - 4
    play(game, "3-3")
    assert game.turn == 2
    game.undo()
    game.undo()  # undoing the deal puts the stock back
    assert game.in_hand is False and not game.log


def test_round_one_leader_is_chance_and_later_rounds_move_left() -> None:
    rules = make_rules("double-bergen", 3, {"deal_sizes": 1})
    game = Game(rules)
    with pytest.raises(SetupError, match="needs a leader"):
        game.start_hand(filled(rules, ["1-1", "2-2", "3-3"], leader=None))
    game.start_hand(filled(rules, ["1-1", "2-2", "3-3"], leader=2))
    play(game, "3-3")  # his only tile: a domino
    with pytest.raises(SetupError, match="differs"):
        game.start_hand(filled(rules, ["1-1", "2-2", "3-3"], leader=2))
    game.start_hand(filled(rules, ["1-1", "2-2", "3-3"], leader=None))
    assert (game.hand.leader, game.turn) == (0, 0)


def test_all_four_spinner_faces_before_any_arm() -> None:
    game = start(3, EXAMPLE_HANDS)
    play(game, "3-3", "3-5@1", "3-1@1")
    assert all(move.target == 1 for move in game.legal_moves() if move.tile)
    play(game, "3-6@1")
    with pytest.raises(IllegalMoveError, match="four faces of the spinner"):
        game.apply(Move.parse("6-1@4"))  # B must cover the last face with 3-0 first
    assert game.layout[1].role == Role.SPINNER


def test_later_doubles_are_crosswise() -> None:
    game = start(3, EXAMPLE_HANDS)
    play(game, *SPINNER_PHASE, "5-1@2", "1-1@3")
    assert game.layout[7].tile == T("1-1") and game.layout[7].role == Role.CROSS


# ---------------------------------------------------------------- options
def test_option_spinner_sides_first() -> None:
    for sides_first, kinds in ((False, [FaceKind.SIDE, FaceKind.END, FaceKind.END]), (True, [FaceKind.SIDE])):
        game = start(3, EXAMPLE_HANDS, spinner_sides_first=sides_first)
        play(game, "3-3", "3-5@1")
        assert [face.kind for face in game.layout.open_ends() if face.owner == 1] == kinds
        play(game, "3-1@1")
        assert [face.kind for face in game.layout.open_ends() if face.owner == 1] == [FaceKind.END, FaceKind.END]


def test_option_boneyard_reserve() -> None:
    for reserve, left, expected in ((0, 1, Move.draw()), (0, 0, Move.passing()), (2, 2, Move.passing()),
                                    (2, 3, Move.draw())):
        game = start(2, ["0-0 6-6 6-5 6-4 6-3 6-2", "1-1 2-2 3-3 4-4 5-5 5-4"], boneyard_reserve=reserve)
        game.stock_pos = len(game.stock) - left
        play(game, "0-0")
        assert game.legal_moves() == [expected], (reserve, left)


def test_setter_search_draws_from_the_designated_leader_with_a_reserve() -> None:
    rules = make_rules("double-bergen", 4, {"boneyard_reserve": 2, "deal_sizes": 5})
    hands = ["1-0 2-0 2-1 3-0 3-1", "3-2 4-0 4-1 4-2 4-3", "5-0 5-1 5-2 5-3 5-4", "6-0 6-1 6-2 6-3 6-4"]
    setup = filled(rules, hands, stock="6-5", leader=0)  # then the seven doubles
    game = Game(rules)
    game.start_hand(setup)
    assert game.turn == 1 and game.lead_tiles == frozenset({T("0-0")})


def test_option_end_scoring_tie_gives_nothing() -> None:
    game = start(2, ["0-0"])
    game.hands = [[T("6-3")], [T("5-4")]]
    assert game.rules.end_hand(game, "blocked", None).hand_points == [0, 0]
    game.hands = [[T("6-3")], [T("5-3")]]
    assert game.rules.end_hand(game, "blocked", None).hand_points == [0, 1]


@pytest.mark.parametrize("check", ["end_of_hand", "immediate"])
def test_option_target_and_win_check(check: str) -> None:
    game = start(3, EXAMPLE_HANDS, target=30, win_check=check)
    game.scores[1] = 28
    play(game, "3-3", "3-5@1")
    assert game.finished is (check == "immediate")
    assert make_rules("double-bergen", 2).target == 100  # type: ignore[attr-defined]
    with pytest.raises(OptionError):
        make_rules("double-bergen", 2, {"target": 0})


def test_option_set_and_deal_sizes() -> None:
    twelve = make_rules("double-bergen", 10, {"set": 12})
    assert len(twelve.tile_set()) == 91 and twelve.deal_size() == 8
    assert [make_rules("double-bergen", n).deal_size() for n in (2, 3, 4)] == [6, 6, 5]
    assert make_rules("double-bergen", 2, {"deal_sizes": 7}).deal_size() == 7
    with pytest.raises(OptionError):
        make_rules("double-bergen", 2, {"end_scoring": "winner_plus_2"})


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games(players: int, seed: int) -> None:
    check_whole_game(new_game("double-bergen", players=players, seed=seed, options={"target": 40}), random.Random(seed))


@pytest.mark.parametrize("options", [{"end_scoring": "tile_penalty", "lone_double_scores": True},
                                     {"boneyard_reserve": 2, "spinner_sides_first": True, "win_check": "immediate"}])
def test_whole_games_with_options(options: dict[str, object]) -> None:
    for seed in range(2):
        check_whole_game(new_game("double-bergen", players=4, seed=seed, options={"target": 40, **options}),
                         random.Random(seed))


def test_whole_game_to_the_default_target() -> None:
    check_whole_game(new_game("double-bergen", players=2, seed=11), random.Random(11))
