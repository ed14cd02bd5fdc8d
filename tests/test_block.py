"""Block dominoes (RULES.md §2): the worked examples, every option, partnerships and bad input.

Options Block shares with Draw (set, deal sizes, leads, target) are tested on both variants here.
"""

from __future__ import annotations

from functools import partial

import pytest

from boneyard import Game, HandSetup, IllegalMoveError, Move, OptionError, Tile, VariantError, make_rules
from boneyard.rules.base import SetupError
from boneyard.state import Event
from boneyard.tiles import double_set
from tests.helpers import T, filled, pips, play, start_exact, tiles

start = partial(start_exact, "block")


def snapshot(game: Game) -> object:
    return ([list(hand) for hand in game.hands], game.stock_pos, [p.tile for p in game.layout.tiles],
            [str(f) for f in game.layout.open_ends()], game.turn, list(game.scores), game.passes, game.drawn,
            [list(log.events) for log in game.log], game.in_hand, game.finished)


# ---------------------------------------------------------------- worked examples
BLK1 = dict(hands=["2-0 6-3 5-1 6-5 3-1", "6-6 4-3 3-0 4-4 3-3", "1-0 2-2 5-3 5-4 6-4"],
            stock="6-1 2-1 0-0 4-1 3-2 4-2 5-0 1-1 6-2 5-2 4-0 5-5 6-0",
            moves="6-3 3-0@1 6-4@1 0-2@2 4-4@3 4-5@5 5-1@6 pass 2-2@4 1-3@7 3-3@9 3-5@10 5-6@11")


def blk1(**options: object) -> Game:
    """Example 1's hand; A (seat 0) leads any tile, so the first lead is left to chance."""
    game = start(3, BLK1["hands"], BLK1["stock"], leader=0, first_lead="random_player_any_tile", **options)
    play(game, BLK1["moves"])
    return game


def test_blk_example_1_domino_scores_the_pips_left_in_every_opponents_hand() -> None:
    game = blk1()
    assert game.hands == [[], tiles("6-6 4-3"), tiles("1-0")]
    assert pips(game) == [0, 19, 1]
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("domino", 0, [20, 0, 0])
    assert game.scores == [20, 0, 0] and not game.finished
    assert game.stock_left == 13  # BLK-2: the undealt tiles are never used


BLK2 = dict(hands=["2-1 4-2 5-3 6-6 4-0 5-1 5-2", "5-5 4-3 2-0 6-1 6-4 6-0 0-0"],
            stock="1-1 3-1 6-2 3-2 1-0 4-1 3-3 3-0 4-4 5-0 6-3 6-5 2-2 5-4",
            moves="6-6 6-1@1 1-5@2 6-0@1 0-4@4 4-6@5 5-2@3 2-0@7 pass 0-0@8 pass pass")


@pytest.mark.parametrize(("options", "winner", "points"), [
    ({}, 0, [17, 0]),
    ({"blocked_score": "opponents_minus_own"}, 0, [0, 0]),
    ({"tie_rule": "no_score"}, None, [0, 0]),
], ids=["default", "opponents_minus_own", "tie_rule_no_score"])
def test_blk_example_2_tied_block_goes_to_the_lightest_tile(options: dict[str, object], winner: int | None,
                                                            points: list[int]) -> None:
    game = start(2, BLK2["hands"], BLK2["stock"], **options)
    play(game, BLK2["moves"])
    assert sorted(game.hands[0]) == sorted(tiles("1-2 2-4 3-5")) and sorted(game.hands[1]) == sorted(tiles("5-5 3-4"))
    assert pips(game) == [17, 17]
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("blocked", winner, points)
    assert game.scores == points


BLK3 = dict(hands=["4-1 6-6 4-4 0-0 4-2", "6-2 3-1 6-1 5-3 2-2", "2-0 5-4 5-0 5-1 6-0"],
            stock="4-3 6-3 6-4 6-5 3-2 3-0 5-5 3-3 1-0 4-0 2-1 5-2 1-1",
            moves="6-6 6-2@1 6-0@1 2-4@2 pass 0-2@3 4-1@4 1-6@6 pass pass 2-2@5 pass pass pass")


@pytest.mark.parametrize(("blocked_score", "points"), [
    ("opponents_total", 32), ("opponents_minus_own", 24), ("sum_of_differences", 16), ("all_pips", 40),
])
def test_blk_example_3_blocked_score_rules(blocked_score: str, points: int) -> None:
    game = start(3, BLK3["hands"], BLK3["stock"], blocked_score=blocked_score)
    play(game, BLK3["moves"])
    assert pips(game) == [8, 12, 20]
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("blocked", 0, [points, 0, 0])
    assert game.hand.events[-3:] == [Event(s, Move.passing()) for s in (2, 0, 1)]


BLK4 = dict(hands=["3-0 5-2 6-0 5-0 4-0 5-3 2-0", "2-1 4-2 2-2 5-4 6-3 0-0 6-2"],
            stock="5-1 6-4 3-2 6-1 6-6 4-1 1-1 4-4 5-5 3-3 3-1 1-0 4-3 6-5",
            moves="2-2 2-0@1 2-6@1 0-6@2 6-3@4 3-5@5 5-4@6 4-0@7 0-0@8 0-5@9 pass 5-2@10 2-4@11 pass pass")


def test_blk_example_4_tie_break_on_the_smaller_half_of_the_lightest_tiles() -> None:
    game = start(2, BLK4["hands"], BLK4["stock"])
    assert game.hand.leader == 1  # 6-6 … 3-3 are undealt: 2-2 is the first double called
    play(game, BLK4["moves"])
    assert game.hands == [tiles("3-0"), tiles("2-1")] and pips(game) == [3, 3]
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("blocked", 0, [3, 0])


# ---------------------------------------------------------------- set (C13) and deal sizes
@pytest.mark.parametrize("variant", ["block", "draw"])
@pytest.mark.parametrize(("top", "sizes", "most"), [
    (6, {2: 7, 3: 5, 4: 5}, 4),
    (9, {2: 7, 3: 7, 6: 7, 7: 6, 8: 6}, 8),
    (12, {2: 9, 8: 9, 9: 8, 10: 8}, 10),
])
def test_set_option_picks_the_tiles_the_deal_and_the_player_range(variant: str, top: int, sizes: dict[int, int],
                                                                  most: int) -> None:
    for players, size in sizes.items():
        rules = make_rules(variant, players, {"set": top})
        assert rules.tile_set() == double_set(top)
        assert rules.deal_size() == size
    with pytest.raises(VariantError, match=f"for 2 to {most} players, not {most + 1}"):
        make_rules(variant, most + 1, {"set": top})


@pytest.mark.parametrize("variant", ["block", "draw"])
@pytest.mark.parametrize("top", [9, 12])
def test_first_hand_call_starts_at_the_top_double_of_the_set(variant: str, top: int) -> None:
    game = Game(make_rules(variant, 2, {"set": top}))
    game.start_hand(filled(game.rules, ["", f"{top}-{top}"]))
    assert game.hand.leader == game.turn == 1
    assert game.legal_moves() == [Move.lead(Tile(top, top))]
    lower = Game(make_rules(variant, 2, {"set": top}))
    lower.start_hand(filled(lower.rules, [f"{top - 1}-{top - 1}"], stock=f"{top}-{top}"))
    assert lower.hand.leader == 0 and lower.legal_moves() == [Move.lead(Tile(top - 1, top - 1))]


def test_blk_3_without_any_double_the_heaviest_tile_leads() -> None:
    game = Game(make_rules("block", 2))
    game.start_hand(filled(game.rules, ["", "6-5"]))
    assert not any(tile.is_double for hand in game.hands for tile in hand)
    assert game.hand.leader == 1 and game.legal_moves() == [Move.lead(T("6-5"))]


@pytest.mark.parametrize("variant", ["block", "draw"])
def test_deal_sizes_one_size_or_one_per_player_count(variant: str) -> None:
    assert make_rules(variant, 2, {"deal_sizes": [6]}).deal_size() == 6
    assert make_rules(variant, 4, {"deal_sizes": 6}).deal_size() == 6
    assert make_rules(variant, 3, {"deal_sizes": [7, 6, 5]}).deal_size() == 6
    assert make_rules(variant, 3, {"deal_sizes": "7/7/6"}).deal_size() == 7
    game = Game(make_rules(variant, 2, {"deal_sizes": [6]}))
    game.start_hand(filled(game.rules, ["6-6"]))
    assert [len(hand) for hand in game.hands] == [6, 6] and game.stock_left == 16


@pytest.mark.parametrize("variant", ["block", "draw"])
def test_deal_sizes_that_do_not_fit_name_the_option(variant: str) -> None:
    with pytest.raises(OptionError, match="'deal_sizes' 7/6 gives no size for 4 players"):
        make_rules(variant, 4, {"deal_sizes": [7, 6]})
    with pytest.raises(OptionError, match="2 hands of 15 need more"):
        make_rules(variant, 2, {"deal_sizes": [15]})
    with pytest.raises(OptionError, match="option 'deal_sizes'"):
        make_rules(variant, 2, {"deal_sizes": [0]})


def test_a_deal_of_the_wrong_size_is_refused() -> None:
    game = Game(make_rules("block", 2))
    with pytest.raises(SetupError, match="seat 0 was dealt 6 tiles; block deals 7"):
        game.start_hand(HandSetup([tiles("6-6 6-5 6-4 6-3 6-2 6-1"), tiles("5-5 5-4 5-3 5-2 5-1 5-0 4-4")],
                                  [t for t in double_set(6) if t.high < 5 and t != T("4-4")] + [T("6-0")]))
    assert not game.log and not game.in_hand


# ---------------------------------------------------------------- leads
@pytest.mark.parametrize("variant", ["block", "draw"])
def test_first_lead_random_player_leads_any_tile(variant: str) -> None:
    game = Game(make_rules(variant, 3, {"first_lead": "random_player_any_tile"}))
    with pytest.raises(SetupError, match="needs a leader"):
        game.start_hand(filled(game.rules, ["6-6"]))
    game.start_hand(filled(game.rules, ["6-6"], leader=2))
    assert game.hand.leader == game.turn == 2
    assert game.legal_moves() == [Move.lead(tile) for tile in game.hands[2]]


def blk3_then(lead_rule: str, hands: list[str], leader: int | None = None, **options: object) -> Game:
    game = start(3, BLK3["hands"], BLK3["stock"], lead_rule=lead_rule, **options)
    play(game, BLK3["moves"])  # seat 0 led 6-6 and won the block
    game.start_hand(filled(game.rules, hands, leader=leader))
    return game


def test_lead_rule_winner_any_the_last_winner_leads_any_tile() -> None:
    game = blk3_then("winner_any", ["", "6-6"])
    assert game.hand.leader == game.turn == 0
    assert game.legal_moves() == [Move.lead(tile) for tile in game.hands[0]]


def test_lead_rule_rotate_passes_the_lead_to_the_left_of_the_last_leader() -> None:
    game = blk3_then("rotate", ["6-6"])
    assert game.hand.leader == game.turn == 1
    assert game.legal_moves() == [Move.lead(tile) for tile in game.hands[1]]


def test_lead_rule_random_leaves_later_leads_to_chance() -> None:
    with pytest.raises(SetupError, match="needs a leader"):
        blk3_then("random", ["6-6"])
    game = blk3_then("random", ["6-6"], leader=2)
    assert game.hand.leader == game.turn == 2
    assert len(game.legal_moves()) == 5


def test_a_given_leader_that_differs_from_the_rules_is_refused() -> None:
    with pytest.raises(SetupError, match="leader 2 differs from the rules' leader, seat 0"):
        blk3_then("winner_any", [""], leader=2)


def test_a_hand_without_a_winner_is_followed_by_a_called_lead() -> None:
    game = start(2, BLK2["hands"], BLK2["stock"], tie_rule="no_score")
    play(game, BLK2["moves"])
    assert game.hand.result is not None and game.hand.result.winner is None
    game.start_hand(filled(game.rules, ["", "5-5"], stock="6-6"))
    assert game.hand.leader == game.turn == 1
    assert game.legal_moves() == [Move.lead(T("5-5"))]


# ---------------------------------------------------------------- target and win_check
@pytest.mark.parametrize("win_check", ["end_of_hand", "immediate"])
def test_target_ends_the_game_when_a_score_reaches_it(win_check: str) -> None:
    game = blk1(target=20, win_check=win_check)
    assert game.finished and game.winner == 0
    assert game.hand.result is not None and game.hand.result.end == "domino"  # points only come at hand end
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.start_hand(filled(game.rules, ["6-6"]))
    assert not blk1(target=21).finished
    assert not blk1().finished  # default target 100


def test_win_check_immediate_stops_play_at_once_once_the_target_is_reached() -> None:
    # In Block only the end of a hand scores, so both settings end the game at the same point;
    # the immediate check runs after every play all the same (a score raised by hand, e.g. a
    # resumed game, stops play at the next tile with the hand marked unfinished).
    game = start(2, BLK2["hands"], BLK2["stock"], win_check="immediate")
    play(game, "6-6")
    game.scores[1] = 100
    play(game, "6-1@1")
    assert game.finished and game.winner == 1
    assert game.hand.result is not None and game.hand.result.end == "unfinished"
    later = start(2, BLK2["hands"], BLK2["stock"])
    play(later, "6-6")
    later.scores[1] = 100
    play(later, "6-1@1")
    assert not later.finished and later.in_hand


# ---------------------------------------------------------------- partnerships (C12)
PARTNER_DOMINO = dict(
    hands=["4-0 5-1 5-0 2-0 3-3 5-2 6-2", "6-3 6-1 6-6 5-4 3-0 6-0 3-1",
           "1-0 6-4 6-5 2-2 4-2 5-5 2-1", "4-3 4-1 5-3 0-0 1-1 4-4 3-2"],
    moves="6-6 6-4@1 4-3@2 3-3@3 3-6@4 6-5@1 5-3@6 6-2@5 3-1@7 1-2@9 2-3@8 2-0@10 0-6@12 pass pass pass "
          "3-0@11 0-1@14 1-4@15 4-0@16 6-1@13 pass 1-1@18 1-5@19 5-4@20")
PARTNER_BLOCK = dict(
    hands=["6-1 4-2 3-0 3-3 6-3 4-1 3-2", "0-0 6-5 2-2 5-2 1-0 5-1 6-0",
           "4-0 5-4 6-6 3-1 2-1 4-4 1-1", "2-0 4-3 5-3 5-5 6-4 6-2 5-0"],
    moves="6-6 6-2@1 2-4@2 6-0@1 4-4@3 4-6@5 6-3@6 0-0@4 3-1@7 0-5@8 1-6@9 5-6@10 pass pass pass pass")


def test_partnerships_deal_all_28_tiles_and_the_6_6_leads() -> None:
    rules = make_rules("block", 4, {"partnerships": True})
    assert rules.deal_size() == 7 and rules.score_seats(1) == (1, 3) and rules.score_seats(2) == (2, 0)
    game = start(4, PARTNER_BLOCK["hands"], partnerships=True)
    assert game.hand.leader == 2 and game.legal_moves() == [Move.lead(T("6-6"))]
    with pytest.raises(OptionError, match="'partnerships' needs 4 players, not 3"):
        make_rules("block", 3, {"partnerships": True})


@pytest.mark.parametrize(("options", "sleeping"), [({"set": 9}, 27), ({"set": 12}, 63), ({"deal_sizes": [6]}, 4)])
def test_partnerships_leave_the_rest_of_a_larger_set_undealt(options: dict[str, object], sleeping: int) -> None:
    # C12 deals 7 each, all of a double-six set; C13's larger sets (and a smaller deal) leave tiles asleep
    rules = make_rules("block", 4, {"partnerships": True, **options})
    game = Game(rules)
    top = rules.tile_set()[-1]
    game.start_hand(filled(rules, ["", "", f"{top}"]))
    assert game.stock_left == sleeping
    assert game.hand.leader == 2 and game.legal_moves() == [Move.lead(top)]
    game.apply(Move.lead(top))
    assert game.turn == 3 and game.scores == [0, 0, 0, 0]


def test_partnerships_domino_scores_all_four_hands_for_both_partners() -> None:
    game = start(4, PARTNER_DOMINO["hands"], partnerships=True)
    play(game, PARTNER_DOMINO["moves"])
    assert pips(game) == [12, 0, 20, 8]
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("domino", 1, [0, 40, 0, 40])
    assert game.scores == [0, 40, 0, 40]


def test_partnerships_block_the_side_with_fewer_pips_scores_all_four_hands() -> None:
    game = start(4, PARTNER_BLOCK["hands"], partnerships=True)
    play(game, PARTNER_BLOCK["moves"])
    assert pips(game) == [19, 18, 18, 27]  # sides: 37 against 45
    result = game.hand.result
    assert result is not None
    # the winning side's player with fewer pips wins the hand (and leads the next)
    assert (result.end, result.winner, result.hand_points) == ("blocked", 2, [82, 0, 82, 0])
    game.start_hand(filled(game.rules, ["6-6"]))
    assert game.hand.leader == 2


PARTNER_TIE = dict(
    hands=["6-6 4-2 6-3 4-3 1-0 3-2 5-1", "5-0 6-5 3-3 5-5 4-1 3-0 6-1",
           "1-1 2-1 6-4 6-2 5-3 5-4 6-0", "3-1 0-0 2-2 5-2 4-0 4-4 2-0"],
    moves="6-6 6-5@1 6-2@1 2-2@3 2-3@4 3-0@5 5-4@2 0-4@6 4-2@8 4-1@7 1-2@10 2-5@11 5-1@12 1-6@13 6-4@14 "
          "2-0@9 4-3@15 0-5@16 3-5@17 pass pass 5-5@18 pass pass pass pass")


def test_partnerships_block_with_equal_sides_scores_nothing_and_the_next_lead_is_called() -> None:
    game = start(4, PARTNER_TIE["hands"], partnerships=True)
    play(game, PARTNER_TIE["moves"])
    assert pips(game) == [10, 6, 8, 12]  # sides: 18 and 18
    result = game.hand.result
    assert result is not None
    assert (result.end, result.winner, result.hand_points) == ("blocked", None, [0, 0, 0, 0])
    game.start_hand(filled(game.rules, ["", "", "", "6-6"]))
    assert game.hand.leader == 3 and game.legal_moves() == [Move.lead(T("6-6"))]


def test_partnerships_game_ends_when_the_shared_score_reaches_the_target() -> None:
    game = start(4, PARTNER_DOMINO["hands"], partnerships=True, target=40)
    play(game, PARTNER_DOMINO["moves"])
    assert game.finished and game.winner == 1
    assert not start(4, PARTNER_DOMINO["hands"], partnerships=True, target=41).finished


# ---------------------------------------------------------------- illegal moves and bad input
@pytest.mark.parametrize(("moves", "move", "reason"), [
    ("", "4-1", "seat 0 must lead one of: 6-6"),
    ("", "5-5", "5-5 is not in seat 0's hand"),
    ("6-6", "7-6@1", "7-6 is not a tile of this game's set (its numbers go from 0 to 6)"),
    ("", "6-6@1", "nothing is on the table yet"),
    ("6-6", "3-1@1", "tile 1 has no open 3 end"),
    ("6-6", "6-2@2", "there is no tile 2 on the table"),
    ("6-6", "pass", "seat 1 may not pass while able to move"),
    ("6-6", "draw", "seat 1 can play (6-2@1, 6-1@1) and must play"),
    ("6-6", "2-2", "the lead is already on the table, and 2-2 fits no open end now"),
    ("6-6", "6-2", "the lead is already on the table; 6-2 joins it as 6-2@1"),
    ("6-6 6-2@1 6-0@1 2-4@2", "draw", "seat 1 may not draw now (stock 13, legal: pass)"),
    (BLK3["moves"], "pass", "the hand is over"),
])
def test_illegal_moves_name_the_move_and_the_reason_and_change_nothing(moves: str, move: str, reason: str) -> None:
    game = start(3, BLK3["hands"], BLK3["stock"])
    play(game, moves)
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(Move.parse(move))
    assert str(caught.value).startswith(f"{move}: ")
    assert reason in caught.value.reason
    assert snapshot(game) == before


def test_moves_after_the_game_is_over_are_refused() -> None:
    game = blk1(target=20)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.apply(Move.parse("pass"))


@pytest.mark.parametrize(("options", "message"), [
    ({"targett": 50}, "unknown option 'targett'"),
    ({"tie_rule": "coin"}, "option 'tie_rule': 'coin' is not allowed"),
    ({"blocked_score": "everything"}, "option 'blocked_score'"),
    ({"set": 8}, "option 'set': 8 is not allowed"),
    ({"target": -5}, "option 'target'"),
    ({"partnerships": "maybe"}, "option 'partnerships'"),
    ({"lead_rule": "loser"}, "option 'lead_rule'"),
    ({"first_lead": "any"}, "option 'first_lead'"),
    ({"win_check": "never"}, "option 'win_check'"),
    ({"allow_voluntary_draw": True}, "unknown option 'allow_voluntary_draw'"),  # Draw's option, not Block's
])
def test_bad_options_name_the_key(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_rules("block", 2, options)


def test_options_accept_text_as_given_on_a_command_line() -> None:
    rules = make_rules("block", 4, {"set": "9", "partnerships": "on", "target": "150",
                                    "partnership-block": "lowest_hand"})
    options = rules.options
    assert (options.set, options.partnerships, options.target, options.partnership_block) == (9, True, 150,
                                                                                               "lowest_hand")
    assert make_rules("block", 3, {"tie-rule": "no_score"}).options.tie_rule == "no_score"


@pytest.mark.parametrize("players", [0, 1, 5])
def test_bad_player_counts(players: int) -> None:
    with pytest.raises(VariantError, match="block is for 2 to 4 players"):
        make_rules("block", players)


@pytest.mark.parametrize("players", [True, "2", 2.0])
def test_a_player_count_that_is_no_whole_number_is_said_so(players: object) -> None:
    with pytest.raises(VariantError, match=f"the number of players must be a whole number, not {players!r}"):
        make_rules("block", players)  # type: ignore[arg-type]


def test_unknown_variant() -> None:
    with pytest.raises(VariantError, match="unknown variant 'blocks'"):
        make_rules("blocks", 2)


def test_too_many_players_for_the_set_points_to_a_larger_set() -> None:
    with pytest.raises(VariantError, match=r"^block is for 2 to 4 players, not 8 \(with option 'set' 9: 2 to 8\)$"):
        make_rules("block", 8, {})
    with pytest.raises(VariantError, match=r"^block is for 2 to 8 players, not 10 \(with option 'set' 12: 2 to 10\)$"):
        make_rules("block", 10, {"set": 9})
    with pytest.raises(VariantError, match=r"^block is for 2 to 4 players, not 12$"):  # no set seats 12
        make_rules("block", 12, {})
