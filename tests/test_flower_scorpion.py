"""Flower & Scorpion (RULES.md §7): the worked examples, every option, and whole seeded games."""

from __future__ import annotations

import random

import pytest

from boneyard import Game, Move, OptionError, find_variant, make_rules, new_game
from boneyard.rules.base import SetupError
from boneyard.rules.flower_scorpion import pairings
from boneyard.state import Dice
from tests.helpers import T, check_whole_game, filled, items, play, start_filled, tiles

DICE = Dice((3, 5), (2, 6))  # Flower {3,5}, Scorpion {2,6}, as in the rulebook's examples


def start(hands: list[str], dice: Dice = DICE, players: int = 2, leader: int = 0, **options: object) -> Game:
    """A game dealt with the named tiles (filled up), seat 0 leading and the rulebook's dice unless told."""
    return start_filled("flower-scorpion", players, hands, leader=leader, dice=dice, **options)


def blocked(game: Game, hands: list[str]) -> tuple[int | None, list[int]]:
    """Judge a blocked round with the given hands left (as the rulebook states the example)."""
    game.hands = [tiles(hand) for hand in hands]
    outcome = game.rules.end_hand(game, "blocked", None)
    return outcome.winner, outcome.hand_points


# ---------------------------------------------------------------- worked examples
def test_fs_example_1_long_flower() -> None:
    game = start(["3-4 3-5", "4-5"])
    lead, event = play(game, "3-4", "4-5@1")
    assert lead.points == 0
    assert items(event) == {"long-flower": 1} and event.points == 1


def test_fs_example_2_dual_and_short_flower() -> None:
    game = start(["3-4 3-5", "4-5"])
    play(game, "3-4", "4-5@1")
    event = play(game, "3-5@1")[0]  # ends 5 | 5
    assert items(event) == {"dual": 2, "short-flower": 1} and event.points == 3


def test_fs_example_3_long_flower_with_a_double_end() -> None:
    game = start(["4-5 3-3", "4-3"])
    play(game, "4-5", "4-3@1")
    event = play(game, "3-3@2")[0]  # ends [3-3] | 5
    assert items(event) == {"long-flower": 2} and event.points == 2


def test_fs_example_4_dual_with_short_scorpion() -> None:
    game = start(["6-4 6-2", "4-2"])
    play(game, "6-4")
    assert items(play(game, "4-2@1")[0]) == {"long-scorpion": -1}  # ends 6 | 2
    event = play(game, "6-2@1")[0]  # ends 2 | 2
    assert items(event) == {"dual": 2, "short-scorpion": -1} and event.points == 1


def test_fs_example_5_double_flower() -> None:
    game = start(["4-1 0-4", "1-0 4-4"], Dice((4, 4), (2, 6)))
    play(game, "4-1", "1-0@1")
    first = play(game, "0-4@2")[0]  # ends 4 | 4
    assert items(first) == {"dual": 2, "long-flower": 1} and first.points == 3
    second = play(game, "4-4@1")[0]  # ends [4-4] | 4
    assert items(second) == {"plural": 3, "short-flower": 1, "long-flower": 2} and second.points == 6


def test_fs_example_6_double_scorpion() -> None:
    game = start(["6-1 2-6", "1-2 6-6"], Dice((3, 5), (6, 6)))
    play(game, "6-1", "1-2@1")
    suppressed = play(game, "2-6@2")[0]  # ends 6 | 6: no dual in the scorpion's number
    assert items(suppressed) == {"long-scorpion": -1}
    game.scores[1] = 5
    event = play(game, "6-6@1")[0]  # ends [6-6] | 6
    assert items(event) == {"short-scorpion": -1, "long-scorpion": -2} and event.points == -3
    assert game.scores[1] == 2


def test_fs_example_7_lead_doubles() -> None:
    flower = play(start(["2-2"], Dice((2, 2), (3, 5))), "2-2")[0]
    assert items(flower) == {"dual": 2, "short-flower": 1, "long-flower": 1} and flower.points == 4
    scorpion = play(start(["5-5"], Dice((3, 4), (5, 5)), score_floor=None), "5-5")[0]
    assert items(scorpion) == {"short-scorpion": -1, "long-scorpion": -1} and scorpion.points == -2


def test_fs_example_8_both_ends_doubles() -> None:
    game = start(["2-1 1-5", "2-2 5-5"], Dice((2, 5), (6, 4)))
    play(game, "2-1", "2-2@1")
    assert items(play(game, "1-5@1")[0]) == {"long-flower": 2}  # ends [2-2] | 5
    event = play(game, "5-5@3")[0]  # ends [2-2] | [5-5]
    assert items(event) == {"long-flower": 4} and event.points == 4


def test_fs_example_9_flower_and_scorpion_together() -> None:
    game = start(["1-4 3-3", "4-3"], Dice((1, 3), (3, 3)))
    play(game, "1-4", "4-3@1")
    event = play(game, "3-3@2")[0]  # ends 1 | [3-3]
    assert items(event) == {"long-flower": 2, "short-scorpion": -1} and event.points == 1


def test_fs_example_10_cancelled_dice() -> None:
    event = play(start(["1-4"], Dice((1, 4), (4, 1))), "1-4")[0]  # ends 1 | 4
    assert event.scoring == () and event.points == 0
    # duals and plurals still count in a cancelled round, even in a double scorpion's number
    double = play(start(["6-6"], Dice((6, 6), (6, 6))), "6-6")[0]
    assert items(double) == {"dual": 2}


def test_fs_example_11_score_floor() -> None:
    game = start(["2-1", "2-6"])
    event = play(game, "2-1", "2-6@1")[1]  # ends 6 | 1
    assert items(event) == {"short-scorpion": -1}
    assert event.points == 0 and game.scores[1] == 0


def test_fs_example_12_blocked_round() -> None:
    game = start(["3-5"], players=3)
    assert blocked(game, ["2-6 0-0", "1-1 4-4", "0-3"]) == (0, [2, 0, 0])  # the Scorpion tile
    assert blocked(game, ["6-5 0-0", "1-1 4-4", "0-3"]) == (0, [2, 0, 0])  # the lowest double
    assert blocked(game, ["6-5", "4-1", "0-3"]) == (None, [0, 0, 0])
    assert blocked(game, ["6-5 1-1", "5-3 0-0", "0-3"]) == (1, [0, 2, 0])  # the Flower tile comes first


# ---------------------------------------------------------------- set-up: caravan master and dice
def test_caravan_master_leads_and_rotates() -> None:
    rules = make_rules("flower-scorpion", 3, {"deal_sizes": 1})
    game = Game(rules)
    with pytest.raises(SetupError, match="needs a leader"):
        game.start_hand(filled(rules, ["1-0", "2-0", "2-1"], leader=None, dice=DICE))
    game.start_hand(filled(rules, ["1-0", "2-0", "2-1"], leader=1, dice=DICE))
    assert game.turn == 1 and game.lead_tiles is None
    play(game, "2-0")  # a domino
    with pytest.raises(SetupError, match="differs"):
        game.start_hand(filled(rules, ["1-0", "2-0", "2-1"], leader=1, dice=DICE))
    game.start_hand(filled(rules, ["1-0", "2-0", "2-1"], leader=None, dice=DICE))
    assert (game.hand.leader, game.turn) == (2, 2)


def test_dice_are_required_and_checked() -> None:
    rules = make_rules("flower-scorpion", 2)
    with pytest.raises(SetupError, match="needs dice"):
        Game(rules).start_hand(filled(rules, [], leader=0, dice=None))
    with pytest.raises(SetupError, match="flower"):
        Game(rules).start_hand(filled(rules, [], leader=0, dice=Dice((7, 1), (2, 3))))
    with pytest.raises(SetupError, match="scorpion"):
        Game(rules).start_hand(filled(rules, [], leader=0, dice=Dice((6, 1), (2,))))  # type: ignore[arg-type]
    game = new_game("flower-scorpion", players=3, seed=5)
    assert game.dice is not None and all(1 <= face <= 6 for face in game.dice.flower + game.dice.scorpion)
    assert find_variant("flower-and-scorpion") is type(game.rules)


# ---------------------------------------------------------------- options
@pytest.mark.parametrize("bonus", [2, 1])
def test_option_winner_bonus(bonus: int) -> None:
    game = start(["1-0"], deal_sizes=1, winner_bonus=bonus)
    play(game, "1-0")
    assert game.hand.result is not None and game.hand.result.hand_points == [bonus, 0]
    assert [item.name for item in game.hand.result.scoring[0]] == ["winner"]


def test_option_long_pairs() -> None:
    game = start(["4-1 0-4", "1-0 4-4"], Dice((4, 4), (2, 6)), long_pairs="all_pairs")
    play(game, "4-1", "1-0@1", "0-4@2")
    event = play(game, "4-4@1")[0]  # ends [4-4] | 4: three pairs of 4s
    assert items(event) == {"plural": 3, "short-flower": 1, "long-flower": 3}
    four_four = T("4-4").halves
    assert pairings(4, 2, 5, 1, four_four, False) == 0
    assert pairings(4, 2, 5, 1, four_four, True) == 1  # the pair inside the double
    assert pairings(4, 1, 4, 1, four_four, False) == pairings(4, 1, 4, 1, four_four, True) == 1
    assert pairings(2, 2, 5, 2, T("5-2").halves, True) == 4


def test_option_lead_tile() -> None:
    game = start(["2-2 5-5 6-1"], lead_tile="heaviest_double_in_hand")
    assert game.legal_moves() == [Move.lead(T("5-5"))]
    game = start(["6-1"], lead_tile="heaviest_double_in_hand")  # no double: any tile
    assert len(game.legal_moves()) == 6
    assert len(start(["2-2 5-5 6-1"]).legal_moves()) == 6


def test_option_double_scorpion_blocks_dual() -> None:
    game = start(["6-1 2-6", "1-2 6-6"], Dice((3, 5), (6, 6)), double_scorpion_blocks_dual="only_when_tile_played")
    play(game, "6-1", "1-2@1")
    assert items(play(game, "2-6@2")[0]) == {"dual": 2, "long-scorpion": -1}
    assert items(play(game, "6-6@1")[0]) == {"short-scorpion": -1, "long-scorpion": -2}


def test_option_cancel_affects_block() -> None:
    hands = ["5-3 6-6", "0-0"]
    assert blocked(start(["0-0"], Dice((3, 5), (5, 3))), hands)[0] == 0  # default: the Flower tile still wins
    assert blocked(start(["0-0"], Dice((3, 5), (5, 3)), cancel_affects_block=True), hands)[0] == 1
    assert blocked(start(["0-0"], cancel_affects_block=True), hands)[0] == 0  # dice not cancelled


def test_option_lowest_double_mode() -> None:
    hands = ["0-0 6-5", "3-3", "6-1"]
    assert blocked(start(["1-0"], players=3), hands)[0] == 0
    assert blocked(start(["1-0"], players=3, lowest_double_mode="lowest_total_with_double"), hands)[0] == 1
    tie = start(["1-0"], players=3, lowest_double_mode="lowest_total_with_double")
    assert blocked(tie, ["3-3", "2-2 1-1", "6-1"])[0] is None


def test_option_score_floor() -> None:
    game = start(["2-1", "2-6"], score_floor=None)
    event = play(game, "2-1", "2-6@1")[1]
    assert event.points == -1 and game.scores[1] == -1
    game = start(["2-1", "2-6"])
    game.scores[1] = 1
    play(game, "2-1", "2-6@1")
    assert game.scores[1] == 0
    with pytest.raises(OptionError):
        make_rules("flower-scorpion", 2, {"score_floor": 5})
    assert make_rules("flower-scorpion", 2, {"score_floor": "none"}).options.score_floor is None


@pytest.mark.parametrize("check", ["end_of_hand", "immediate"])
def test_option_target_and_win_check(check: str) -> None:
    game = start(["3-4 3-5", "4-5"], target=12, win_check=check)
    game.scores[1] = 11
    play(game, "3-4", "4-5@1")  # long flower: 12
    assert game.finished is (check == "immediate")
    assert make_rules("flower-scorpion", 2).target == 20  # type: ignore[attr-defined]


def test_option_deal_sizes_and_the_fixed_set() -> None:
    assert [make_rules("flower-scorpion", n).deal_size() for n in (2, 3, 4)] == [6, 6, 5]
    assert make_rules("flower-scorpion", 4, {"deal_sizes": "7/6/6"}).deal_size() == 6
    assert len(make_rules("flower-scorpion", 2).tile_set()) == 28
    with pytest.raises(OptionError, match="set"):
        make_rules("flower-scorpion", 2, {"set": 9})


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games(players: int, seed: int) -> None:
    check_whole_game(new_game("flower-scorpion", players=players, seed=seed), random.Random(seed),
                     target=20, scores_stay_non_negative=True)


@pytest.mark.parametrize("options", [{"long_pairs": "all_pairs", "lead_tile": "heaviest_double_in_hand"},
                                     {"win_check": "immediate", "winner_bonus": 1,
                                      "lowest_double_mode": "lowest_total_with_double"}])
def test_whole_games_with_options(options: dict[str, object]) -> None:
    for seed in range(3):
        check_whole_game(new_game("flower-scorpion", players=3, seed=seed, options=options), random.Random(seed),
                         target=20, scores_stay_non_negative=True)
