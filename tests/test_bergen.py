"""Bergen (RULES.md §5): the worked examples, every option, and whole seeded games."""

from __future__ import annotations

import random
from functools import partial

import pytest

from boneyard import Game, HandSetup, IllegalMoveError, Move, OptionError, make_rules, new_game
from boneyard.rules.base import SetupError
from boneyard.state import Event
from tests.helpers import T, check_whole_game, filled, play, start_filled, tiles

start = partial(start_filled, "bergen")


def names(event: Event) -> list[str]:
    return [item.name for item in event.scoring]


def block_hands(game: Game, hands: list[str]) -> None:
    """Replace the hands of a hand in progress (to judge a blocked hand as the examples state it)."""
    game.hands = [tiles(hand) for hand in hands]


# ---------------------------------------------------------------- worked examples
def test_brg_example_1_double_and_triple_headers() -> None:
    game = start(3, ["6-6 4-2", "6-2 2-2", "6-4"], lead_rule="highest_double")
    events = play(game, "6-6", "6-2@1", "6-4@1", "4-2@3", "2-2@2")
    assert [e.points for e in events] == [2, 0, 0, 2, 3]
    assert [names(e) for e in events] == [["double-header"], [], [], ["double-header"], ["triple-header"]]
    assert game.scores == [4, 3, 0]


def approach_game() -> Game:
    # B makes a triple header with 6-4 against a crosswise 6-6: ends 6 | [6-6]
    return start(2, ["4-3 6-6", "3-6 4-6"], lead_rule="rotate_any_tile", leader=0)


@pytest.mark.parametrize(("before", "gain"), [(11, 3), (12, 2), (13, 1), (14, 1)])
def test_brg_example_2_approach_cap(before: int, gain: int) -> None:
    game = approach_game()
    play(game, "4-3", "3-6@1", "6-6@2")
    game.scores[1] = before
    event = play(game, "4-6@1")[0]
    assert names(event) == ["triple-header"]
    assert event.scoring[0].points == 3  # the item keeps its face value; the cap acts on the points
    assert event.points == gain
    assert game.scores[1] == before + gain


def test_brg_example_3_blocked_three_players() -> None:
    hands = ["0-0 1-2", "1-1", "2-2"]
    winners = {}
    for rule in ("simple", "german", "american"):
        game = start(3, ["0-0"], block_rule=rule)
        block_hands(game, hands)
        outcome = game.rules.end_hand(game, "blocked", None)
        winners[rule] = (outcome.winner, outcome.hand_points)
    assert winners["simple"] == (1, [0, 2, 0])
    assert winners["german"] == (1, [0, 2, 0])
    assert winners["american"] == (0, [2, 0, 0])


def test_brg_example_4_blocked_tie_scores_nothing() -> None:
    game = start(2, ["0-0"])
    block_hands(game, ["4-5", "6-3"])
    outcome = game.rules.end_hand(game, "blocked", None)
    assert outcome.winner is None
    assert outcome.hand_points == [0, 0]


# ---------------------------------------------------------------- rules that are not options
def test_lone_lead_double_is_a_double_header_for_the_leader() -> None:
    game = start(2, ["3-3", "5-5"])  # lowest double 3-3 leads
    assert game.turn == 0
    assert play(game, "3-3")[0].points == 2


def test_domino_scores_the_winner_bonus_and_ends_the_hand() -> None:
    game = start(2, ["1-1 1-2", "0-1 6-5"], deal_sizes=2)
    events = play(game, "1-1", "1-0@1", "1-2@1")
    assert [e.points for e in events] == [2, 0, 0]
    result = game.hand.result
    assert result is not None and result.end == "domino" and result.winner == 0
    assert result.hand_points == [2, 0]
    assert [item.name for item in result.scoring[0]] == ["winner"]
    assert game.scores == [4, 0]


# ---------------------------------------------------------------- options
def test_option_boneyard_reserve() -> None:
    hands = ["0-0 6-6 6-5 6-4 6-3 6-2", "1-1 2-2 3-3 4-4 5-5 5-4"]  # B holds no 0
    for reserve, left, expected in ((2, 2, Move.passing()), (2, 3, Move.draw()), (0, 2, Move.draw()),
                                    (0, 0, Move.passing())):
        game = start(2, hands, boneyard_reserve=reserve)
        game.stock_pos = len(game.stock) - left
        play(game, "0-0")
        assert game.legal_moves() == [expected], (reserve, left)


def test_option_lead_rule_lowest_double() -> None:
    game = start(3, ["6-6", "2-2 5-5", "4-4"])
    assert (game.hand.leader, game.turn) == (1, 1)
    assert game.legal_moves() == [Move.lead(T("2-2"))]
    with pytest.raises(IllegalMoveError, match="must lead"):
        game.apply(Move.parse("5-5"))


def test_option_lead_rule_highest_double() -> None:
    game = start(3, ["6-6", "2-2 5-5", "4-4"], lead_rule="highest_double")
    assert (game.hand.leader, game.turn) == (0, 0)
    assert game.legal_moves() == [Move.lead(T("6-6"))]


def test_option_lead_rule_rotate_any_tile() -> None:
    rules = make_rules("bergen", 3, {"lead_rule": "rotate_any_tile"})
    with pytest.raises(SetupError, match="needs a leader"):
        Game(rules).start_hand(filled(rules, ["6-6"]))
    game = start(3, ["6-6"], lead_rule="rotate_any_tile", leader=2)
    assert (game.hand.leader, game.turn) == (2, 2)
    assert len(game.legal_moves()) == 6  # any tile of the hand


def test_option_lead_rule_rotate_any_tile_moves_left_each_hand() -> None:
    rules = make_rules("bergen", 3, {"lead_rule": "rotate_any_tile", "deal_sizes": 1})
    game = Game(rules)
    game.start_hand(filled(rules, ["1-0", "2-0", "2-1"], leader=2))
    play(game, "2-1")  # his only tile: a domino
    with pytest.raises(SetupError, match="differs"):
        game.start_hand(filled(rules, ["1-0", "2-0", "2-1"], leader=2))
    game.start_hand(filled(rules, ["1-0", "2-0", "2-1"]))
    assert (game.hand.leader, game.turn) == (0, 0)


def test_no_double_dealt_redeals() -> None:
    rules = make_rules("bergen", 2)
    deal = [[T(t) for t in hand.split()] for hand in ("1-0 2-0 2-1 3-0 3-1 3-2", "4-0 4-1 4-2 4-3 5-0 5-1")]
    stock = [t for t in rules.tile_set() if t not in deal[0] + deal[1]]
    assert not rules.acceptable_deal(deal)
    with pytest.raises(SetupError, match="redeal"):
        Game(rules).start_hand(HandSetup(deal, stock))
    assert make_rules("bergen", 2, {"lead_rule": "rotate_any_tile"}).acceptable_deal(deal)
    for seed in range(30):  # chance redeals until somebody holds a double
        game = new_game("bergen", players=4, seed=seed)
        assert any(tile.is_double for hand in game.hands for tile in hand)


def test_option_cover_lead_double_first() -> None:
    hands = ["6-6 2-3", "6-2 6-4"]
    loose = start(2, hands, lead_rule="highest_double")
    play(loose, "6-6", "6-2@1")
    assert Move.parse("2-3@2") in loose.legal_moves()
    strict = start(2, hands, lead_rule="highest_double", cover_lead_double_first=True)
    play(strict, "6-6", "6-2@1")
    assert Move.parse("2-3@2") not in strict.legal_moves()
    assert strict.legal_moves() == [Move.draw()]  # A holds no 6 for the lead double's free side
    with pytest.raises(IllegalMoveError, match="lead double must be covered"):
        strict.apply(Move.parse("2-3@2"))


def test_option_approach_cap_off_and_not_on_the_bonus() -> None:
    game = start(2, ["4-3 6-6", "3-6 4-6"], lead_rule="rotate_any_tile", leader=0, approach_cap=False)
    play(game, "4-3", "3-6@1", "6-6@2")
    game.scores[1] = 12
    assert play(game, "4-6@1")[0].points == 3
    # the cap never touches the round bonus: 14 + 2 = 16
    game = start(2, ["0-0"])
    game.scores = [14, 0]
    block_hands(game, ["1-0", "6-5"])
    assert game.rules.end_hand(game, "blocked", None).hand_points == [2, 0]


def test_option_block_rule_american_gap_fills() -> None:
    game = start(3, ["0-0"], block_rule="american")
    block_hands(game, ["6-6", "5-4", "1-2"])  # two double-free hands: lowest pips among them
    assert game.rules.end_hand(game, "blocked", None).winner == 2
    block_hands(game, ["6-6 1-0", "5-4 6-1", "1-1"])  # one double-free hand wins outright
    assert game.rules.end_hand(game, "blocked", None).winner == 1
    block_hands(game, ["6-6", "5-5 1-0", "3-3"])  # all hold a double: fewest tiles, then lowest double
    assert game.rules.end_hand(game, "blocked", None).winner == 2
    block_hands(game, ["6-3", "5-4", "1-1"])  # tie among double-free hands: no winner
    assert game.rules.end_hand(game, "blocked", None).winner is None


def test_option_block_rule_german_fewest_doubles_then_pips() -> None:
    game = start(3, ["0-0"], block_rule="german")
    block_hands(game, ["1-1 1-0", "6-5", "5-5"])  # no double beats 11 pips
    assert game.rules.end_hand(game, "blocked", None).winner == 1
    block_hands(game, ["6-6 5-5", "6-5 1-1", "4-4 0-1"])  # one double each for B and C: 9 pips beat 13
    assert game.rules.end_hand(game, "blocked", None).winner == 2
    block_hands(game, ["6-3", "5-4", "1-1"])  # equal doubles and pips: no winner
    assert game.rules.end_hand(game, "blocked", None).winner is None


@pytest.mark.parametrize(("bonus", "domino", "blocked"), [(2, 2, 2), (1, 1, 1), (5, 5, 2)])
def test_option_winner_bonus(bonus: int, domino: int, blocked: int) -> None:
    game = start(2, ["0-0"], winner_bonus=bonus)
    block_hands(game, ["", "6-5"])
    assert game.rules.end_hand(game, "domino", 0).hand_points == [domino, 0]
    block_hands(game, ["1-0", "6-5"])
    assert game.rules.end_hand(game, "blocked", None).hand_points == [blocked, 0]


def test_option_target_defaults_by_player_count() -> None:
    assert make_rules("bergen", 2).target == 15  # type: ignore[attr-defined]
    assert make_rules("bergen", 3).target == 10  # type: ignore[attr-defined]
    assert make_rules("bergen", 4).target == 10  # type: ignore[attr-defined]
    assert make_rules("bergen", 2, {"target": 25}).target == 25  # type: ignore[attr-defined]
    with pytest.raises(OptionError):
        make_rules("bergen", 2, {"target": 0})


@pytest.mark.parametrize("check", ["end_of_hand", "immediate"])
def test_option_win_check(check: str) -> None:
    game = start(2, ["4-3 6-6", "3-6 4-6"], lead_rule="rotate_any_tile", leader=0, win_check=check,
                 approach_cap=False)
    play(game, "4-3", "3-6@1", "6-6@2")
    game.scores[1] = 13
    play(game, "4-6@1")
    assert game.scores[1] == 16
    if check == "immediate":
        assert game.finished and game.winner == 1
        assert game.hand.result is not None and game.hand.result.end == "unfinished"
    else:
        assert not game.finished and game.in_hand


def test_option_set_and_deal_sizes() -> None:
    nine = make_rules("bergen", 2, {"set": 9})
    assert len(nine.tile_set()) == 55 and nine.deal_size() == 7
    assert nine.player_range() == (2, 8)
    game = new_game("bergen", players=8, seed=3, options={"set": 9})
    assert all(len(hand) == 6 for hand in game.hands)
    assert make_rules("bergen", 3, {"deal_sizes": [7, 7, 6]}).deal_size() == 7
    assert make_rules("bergen", 4, {"deal_sizes": "7/7/6"}).deal_size() == 6
    assert [make_rules("bergen", n).deal_size() for n in (2, 3, 4)] == [6, 6, 5]
    with pytest.raises(OptionError):
        make_rules("bergen", 4, {"deal_sizes": 8})
    with pytest.raises(OptionError):
        make_rules("bergen", 2, {"block_rule": "french"})


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games(players: int, seed: int) -> None:
    check_whole_game(new_game("bergen", players=players, seed=seed), random.Random(seed))


@pytest.mark.parametrize("options", [{"block_rule": "american", "boneyard_reserve": 0},
                                     {"block_rule": "german", "lead_rule": "rotate_any_tile"},
                                     {"win_check": "immediate", "cover_lead_double_first": True, "winner_bonus": 5}])
def test_whole_games_with_options(options: dict[str, object]) -> None:
    for seed in range(3):
        check_whole_game(new_game("bergen", players=3, seed=seed, options=options), random.Random(seed))
