"""PIP (RULES.md §8): worked examples, every option, directional tiles and whole seeded games."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boneyard
from boneyard.chance import Chance
from boneyard.errors import IllegalMoveError, OptionError, VariantError
from boneyard.layout import FaceKind, Role
from boneyard.moves import Kind, Move
from boneyard.rules.base import SetupError, make_rules
from boneyard.rules.pip import Pip, pip_value
from boneyard.state import Game, HandSetup
from boneyard.tiles import Tile, W, parse_half, pip_set

FULL_SET = Counter(pip_set())


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(part) for part in text.split()]


def new_pip(players: int = 3, options: Mapping[str, object] | None = None, seed: int = 1) -> Game:
    return Game(make_rules("pip", players, options), chance=Chance(seed))


def finish_hand(game: Game) -> None:
    """Play the current hand out with the first legal move each time."""
    while game.in_hand:
        game.apply(game.legal_moves()[0])


def game_at_round(number: int, players: int = 3, **options: object) -> Game:
    """A game whose earlier rounds have been played out, ready for round ``number`` to be set up."""
    game = new_pip(players, options)
    for _ in range(number - 1):
        game.next_hand()
        finish_hand(game)
    return game


def setup(players: int, fixed: Mapping[int, str], *, stock_front: str = "", avoid: Mapping[int, str] | None = None,
          keep_out: str = "", leader: int | None = None) -> HandSetup:
    """A deal with the named tiles in the named hands and the rest filled in deterministically.

    ``avoid`` names halves a seat's filler must not show; ``keep_out`` tiles stay in the stock
    (after ``stock_front``); filler takes plain number tiles first, so wild and directional
    tiles end up in the stock unless a hand names them.
    """
    size = 15 if players == 2 else 9
    named = {seat: tiles(text) for seat, text in fixed.items()}
    front = tiles(stock_front)
    reserved = {tile for hand in named.values() for tile in hand} | set(front) | set(tiles(keep_out))
    pool = sorted((tile for tile in pip_set() if tile not in reserved), key=lambda t: (t.is_wild, t.index))
    avoided = {seat: {parse_half(half) for half in text.split()} for seat, text in (avoid or {}).items()}
    deal: list[list[Tile]] = []
    for seat in range(players):
        hand = list(named.get(seat, []))
        for tile in list(pool):
            if len(hand) == size:
                break
            if not avoided.get(seat) or not (tile.is_wild or set(tile.halves) & avoided[seat]):
                hand.append(tile)
                pool.remove(tile)
        assert len(hand) == size
        deal.append(hand)
    return HandSetup(deal, front + pool + tiles(keep_out), leader)


def play(game: Game, *moves: str) -> None:
    for text in moves:
        game.apply(Move.parse(text))


def legal(game: Game) -> list[str]:
    return [str(move) for move in game.legal_moves()]


def arrange(game: Game, hands: Mapping[int, str], *, stock: str | None = None) -> None:
    """Put a position on the table by hand (tests of one rule; the tile count is not kept)."""
    for seat, text in hands.items():
        game.hands[seat] = tiles(text)
    if stock is not None:
        game.stock = tiles(stock)
        game.stock_pos = 0


def round_one(players: int = 3, leader_seat: int = 0, **options: object) -> Game:
    """Round 1 set up with 1-1 in ``leader_seat``'s hand, starter placed."""
    game = new_pip(players, options)
    game.start_hand(setup(players, {leader_seat: "1-1"}))
    play(game, "1-1")
    return game


# ---------------------------------------------------------------- worked examples (§8)
def test_pip_example_1_hand_values() -> None:
    game = round_one()
    arrange(game, {0: "6-2", 1: "8-7 W-3 D-W 6-1", 2: "W-W 0-0 9-9 7-1"})
    play(game, "1-6@1", "1-7@1", "6-2@2")  # A's last tile
    result = game.hand.result
    assert result is not None and result.end == "domino" and result.winner == 0
    assert result.hand_points == [0, 15 + 23 + 45, 50 + 0 + 18]
    assert result.hand_points[1:] == [83, 68]


def test_pip_example_2_winner_reduction_floored_at_zero() -> None:
    game = round_one()
    game.scores = [6, 40, 12]
    arrange(game, {0: "6-2", 1: "8-7 W-3 D-W 6-1", 2: "W-W 0-0 9-9 7-1"})
    play(game, "1-6@1", "1-7@1", "6-2@2")
    assert game.scores == [0, 123, 80]
    assert game.hand.result is not None and game.hand.result.hand_points[0] == -6


def test_pip_example_3_blocked_round_nobody_reduced() -> None:
    # An S-W in hand can always be placed (its wild half joins any open end, and a PIP table
    # always has at least four free faces), so this position cannot arise in play; the scoring
    # hook is checked on it directly, and test_blocked_round_is_a_full_cycle_of_passes blocks a
    # round through the moves.
    game = round_one()
    game.scores = [30, 30, 30]
    arrange(game, {0: "S-W", 1: "5-2", 2: "W-1"})
    result = game.rules.end_hand(game, "blocked", None)
    assert result.winner is None
    assert result.hand_points == [45, 7, 21]


def test_pip_example_4_three_play_rule() -> None:
    game = game_at_round(3, players=4)
    # A, B, C, D are seats 0-3; C holds the starter 3-3
    game.start_hand(setup(4, {0: "5-5 S-W", 1: "5-2 3-1", 2: "3-3 3-0", 3: "5-3 W-6"},
                          stock_front="8-1", avoid={2: "5"}))
    assert game.turn == 2
    play(game, "3-3", "3-5@1", "5-5@2")
    assert game.layout[3].role == Role.TOES and game.pending == ((3, 3),)
    with pytest.raises(IllegalMoveError, match=r"a double is owed: .*tile 3 \(5-5\)"):
        play(game, "3-1@1")
    play(game, "5-2@3")  # B: toe 1
    assert game.pending == ((3, 2),)
    assert legal(game) == ["draw"]  # C: no 5, no wild half
    play(game, "draw")
    assert legal(game) == ["pass"]
    play(game, "pass")
    play(game, "W-6@3")  # D: toe 2, open end 6
    assert game.pending == ((3, 1),)
    play(game, "W-S@3")  # A: toe 3 completes the double, S skips B
    assert game.pending == ()
    assert game.turn == 2
    assert "3-0@1" in legal(game)  # C may play on any open end again


def test_pip_example_5_double_wild_starter_counts_as_round_number() -> None:
    game = game_at_round(4)
    game.start_hand(setup(3, {0: "4-2", 1: "W-W 6-1", 2: "4-0 W-7 9-8"}, keep_out="4-4"))
    assert legal(game) == ["W-W"] and game.turn == 1
    play(game, "W-W")
    hub = game.layout[1]
    assert hub.role == Role.HUB and hub.value == 4 and game.pending == ()
    moves = game.legal_moves()
    assert {move.target for move in moves} == {1}
    assert {move.half for move in moves} <= {4, W}
    assert "4-0@1" in legal(game) and "9-8@1" not in legal(game)
    assert [face.kind for face in game.layout.open_ends()] == [FaceKind.SIDE, FaceKind.SIDE]
    play(game, "4-0@1")
    assert FaceKind.END not in {face.kind for face in game.layout.open_ends()}
    play(game, "4-2@1")  # seat 0 (next) fills the second side; the short ends open
    assert [face.kind for face in game.layout.open_ends() if face.owner == 1] == [FaceKind.END, FaceKind.END]


# ---------------------------------------------------------------- set, deal, starter
def test_set_and_deal_sizes() -> None:
    assert len(pip_set()) == 70
    assert Pip(2).deal_size() == 15
    assert all(Pip(players).deal_size() == 9 for players in range(3, 8))
    for players in (1, 8):
        with pytest.raises(VariantError, match="2 to 7 players"):
            Pip(players)


def test_starter_priority_round_double_over_double_wild() -> None:
    game = new_pip()
    game.start_hand(setup(3, {0: "W-W", 2: "1-1"}))
    assert game.turn == 2 and legal(game) == ["1-1"]
    assert game.layout.tiles == [] and game.hand.leader == 2  # who places the starter


def test_starter_search_scorekeeper_draws_first_and_keeps_tiles() -> None:
    game = new_pip()
    game.start_hand(setup(3, {}, stock_front="2-0 4-0 8-8 1-1", keep_out="W-W"))
    # seat 0 draws 2-0, seat 1 4-0, seat 2 8-8, seat 0 then draws the starter
    assert game.turn == 0 and legal(game) == ["1-1"]
    assert [len(hand) for hand in game.hands] == [11, 10, 10]
    assert Tile.parse("2-0") in game.hands[0] and Tile.parse("8-8") in game.hands[2]
    assert game.hand.events == []
    assert Counter(game.all_tiles()) == FULL_SET


def test_starter_search_can_turn_up_double_wild() -> None:
    game = new_pip()
    game.start_hand(setup(3, {}, stock_front="2-0 W-W", keep_out="1-1"))
    assert game.turn == 1 and legal(game) == ["W-W"]
    play(game, "W-W")
    assert game.layout[1].value == 1


def test_starter_is_a_hub_exempt_from_the_three_play_rule() -> None:
    game = round_one()
    assert game.layout[1].role == Role.HUB and game.pending == ()
    assert game.turn == 1  # clockwise from the starter


def test_double_wild_as_a_later_double_takes_the_end_value_and_owes_three() -> None:
    game = round_one()
    arrange(game, {1: "1-6 9-9", 2: "W-W 9-8", 0: "2-2 8-0"})
    play(game, "1-6@1", "W-W@2")
    placed = game.layout[3]
    assert placed.role == Role.TOES and placed.value == 6
    assert [face.value for face in placed.faces] == [6, 6, 6]
    assert game.pending == ((3, 3),)


# ---------------------------------------------------------------- options
def test_option_open_wild_end_matches_anything() -> None:
    game = round_one()
    arrange(game, {1: "W-1 9-8", 2: "9-2 8-3", 0: "7-7"})
    play(game, "1-W@1")  # the wild half faces out
    assert game.layout[2].value == W
    assert {"9-2@2", "2-9@2", "8-3@2", "3-8@2"} <= set(legal(game))


def test_option_open_wild_end_declared_on_play_is_refused() -> None:
    with pytest.raises(OptionError, match=r"'declared_on_play' is not supported.*J-O@k"):
        make_rules("pip", 3, {"open_wild_end": "declared_on_play"})


@pytest.mark.parametrize(("letter_end", "open_after"), [("closed", False), ("open_wild", True)])
def test_option_letter_end(letter_end: str, open_after: bool) -> None:
    game = round_one(letter_end=letter_end)
    arrange(game, {1: "W-S 9-8", 2: "9-2 8-3", 0: "7-7"})
    play(game, "W-S@1")  # S skips seat 2
    letter_face = game.layout[2].faces[0]
    assert (letter_face in game.layout.open_ends()) is open_after
    assert game.turn == 0
    arrange(game, {0: "8-3 7-7"})
    assert ("8-3@2" in legal(game)) is open_after


def owed_double(nested_double: str) -> Game:
    """Round 1; 6-6 owed (tile 3), seat 0 on turn holding W-W."""
    game = round_one(nested_double=nested_double)
    arrange(game, {1: "1-6 9-9", 2: "6-6 9-8", 0: "W-W 8-0"})
    play(game, "1-6@1", "6-6@2")
    assert game.pending == ((3, 3),)
    return game


def test_option_nested_double_stack() -> None:
    game = owed_double("stack")
    assert "W-W@3" in legal(game)
    play(game, "W-W@3")
    assert game.pending == ((3, 2), (4, 3))  # the newer double first
    arrange(game, {1: "W-2 W-4", 2: "W-5 W-7", 0: "W-8 W-9"})
    with pytest.raises(IllegalMoveError, match="tile 4"):
        play(game, "W-2@3")
    play(game, "W-2@4", "W-5@4", "W-8@4")
    assert game.pending == ((3, 2),)
    assert {move.target for move in game.legal_moves()} == {3}


def test_option_nested_double_forbid() -> None:
    game = owed_double("forbid")
    assert "W-W@3" not in legal(game)
    with pytest.raises(IllegalMoveError, match=r"W-W@3: a double may not be played on the toes of a pending double"):
        play(game, "W-W@3")


@pytest.mark.parametrize(("skips", "after_draw"), [(False, 2), (True, 0)])
def test_option_draw_tile_skips(skips: bool, after_draw: int) -> None:
    game = round_one(draw_tile_skips=skips)
    arrange(game, {1: "W-D 9-8", 2: "1-2 8-3", 0: "7-7"})
    play(game, "W-D@1")
    assert game.turn == 2 and game.forced_draw and legal(game) == ["draw"]
    with pytest.raises(IllegalMoveError, match="must first draw"):
        play(game, "1-2@1")
    with pytest.raises(IllegalMoveError, match="must first draw"):  # a tile it does not hold: the draw comes first
        play(game, "9-8@1")
    play(game, "draw")
    with pytest.raises(IllegalMoveError, match=r"10-1 is not a tile of this game's set \(its numbers go from 0 to 9\)"):
        play(game, "10-1@1")
    assert len(game.hands[2]) == 3 and not game.forced_draw
    assert game.turn == after_draw
    if not skips:
        assert "1-2@1" in legal(game)  # the victim then plays normally


@pytest.mark.parametrize(("skips", "next_seat"), [(False, 1), (True, 0)])
def test_option_two_player_reverse_skips(skips: bool, next_seat: int) -> None:
    game = round_one(2, leader_seat=1, two_player_reverse_skips=skips)
    arrange(game, {0: "W-R 7-6 8-5"})
    play(game, "W-R@1")
    assert game.turn == next_seat


def test_reverse_with_three_players_turns_play_around() -> None:
    game = round_one()
    arrange(game, {1: "W-R 9-8", 2: "1-2", 0: "1-3 8-8"})
    play(game, "W-R@1")
    assert game.direction == -1 and game.turn == 0
    play(game, "1-3@1")
    assert game.turn == 2


@pytest.mark.parametrize(("value", "expected"), [(45, 45), (25, 25)])
def test_option_directional_value(value: int, expected: int) -> None:
    rules = make_rules("pip", 3, {"directional_value": value})
    assert [rules.tile_value(tile) for tile in tiles("S-W R-W A-W D-W")] == [expected] * 4
    assert rules.tile_value(Tile.parse("W-W")) == 50 and rules.tile_value(Tile.parse("W-0")) == 20


def test_leader_is_the_seat_that_places_the_starter() -> None:
    game = new_pip()
    assert not game.rules.random_leader_needed(game)
    with pytest.raises(SetupError, match="leader 1 differs from the rules' leader, seat 2"):
        game.start_hand(setup(3, {2: "1-1"}, leader=1))
    game.start_hand(setup(3, {2: "1-1"}, leader=2))
    assert game.hand.leader == 2 and game.turn == 2


def test_starter_search_leader_is_the_drawer_of_the_starter() -> None:
    game = new_pip()
    game.start_hand(setup(3, {}, stock_front="2-0 1-1", keep_out="W-W"))
    assert game.hand.leader == 1 and game.turn == 1  # seat 0 drew 2-0, seat 1 the starter

def test_unknown_option_is_refused() -> None:
    with pytest.raises(OptionError, match="unknown option 'target'"):
        make_rules("pip", 3, {"target": 100})


# ---------------------------------------------------------------- turns, directional tiles
def test_skip_tile_skips_the_next_player() -> None:
    game = round_one(4)
    arrange(game, {1: "W-S 9-8"})
    play(game, "W-S@1")
    assert game.turn == 3


def test_again_tile_gives_another_full_turn() -> None:
    game = round_one()
    arrange(game, {1: "W-A 9-8"}, stock="7-7 6-5")
    play(game, "W-A@1")
    assert game.turn == 1 and legal(game) == ["draw"]  # PIP-15 applies to the extra turn
    play(game, "draw", "pass")
    assert game.turn == 2


def test_draw_tile_with_empty_stock_makes_its_player_give() -> None:
    game = round_one()
    arrange(game, {1: "W-D 5-2 9-8", 2: "1-3"}, stock="")
    play(game, "W-D@1")
    assert game.give_pending and game.turn == 1
    assert legal(game) == ["give 5-2", "give 9-8"]
    with pytest.raises(IllegalMoveError, match="must give a tile"):
        play(game, "pass")
    with pytest.raises(IllegalMoveError, match="must give a tile"):  # a play, even of a tile it does not hold
        play(game, "1-3@1")
    with pytest.raises(IllegalMoveError, match=r"3-1 is not in seat 1's hand"):
        play(game, "give 1-3")
    event = game.apply(Move.parse("give 5-2"))
    assert event.seat == 1 and event.move.kind == Kind.GIVE
    assert game.hands[1] == tiles("9-8") and Tile.parse("5-2") in game.hands[2]
    assert game.turn == 2 and not game.give_pending
    game.undo()
    assert game.give_pending and game.hands[1] == tiles("5-2 9-8")


def test_draw_tile_skips_also_applies_to_a_given_tile() -> None:
    game = round_one(draw_tile_skips=True)
    arrange(game, {1: "W-D 5-2 9-8", 2: "1-3"}, stock="")
    play(game, "W-D@1", "give 9-8")
    assert game.turn == 0


def test_giving_away_the_last_tile_wins_the_round() -> None:
    game = round_one()
    arrange(game, {1: "W-D 5-2", 2: "1-3"}, stock="")
    play(game, "W-D@1", "give 5-2")
    result = game.hand.result
    assert result is not None and result.end == "domino" and result.winner == 1
    game.undo()
    assert game.in_hand and game.give_pending


def test_last_tile_directional_ends_round_and_effect_is_ignored() -> None:
    game = round_one()
    arrange(game, {1: "W-D"}, stock="7-7 6-5")
    play(game, "W-D@1")
    assert not game.in_hand and not game.forced_draw and not game.give_pending
    assert game.hand.result is not None and game.hand.result.winner == 1


def test_one_then_pass_and_pass_after_a_draw_does_not_count_toward_a_block() -> None:
    game = round_one()
    arrange(game, {1: "9-8", 2: "7-6", 0: "5-4"}, stock="3-2 4-2")
    play(game, "draw", "pass")  # seat 1 drew 3-2: no 1 on it
    assert game.passes == 0
    play(game, "draw", "pass", "pass")  # seat 2 drew 4-2; seat 0 cannot draw from an empty stock
    assert game.in_hand and game.passes == 1


def test_blocked_round_is_a_full_cycle_of_passes() -> None:
    game = round_one()
    game.scores = [4, 4, 4]
    arrange(game, {1: "5-2", 2: "8-4", 0: "6-7"}, stock="")
    play(game, "pass", "pass")
    assert game.in_hand
    play(game, "pass")
    result = game.hand.result
    assert result is not None and result.end == "blocked" and result.winner is None
    assert result.hand_points == [13, 7, 12] and game.scores == [17, 11, 16]


def test_pending_double_blocks_the_round_when_nobody_can_cover() -> None:
    game = round_one()
    arrange(game, {1: "1-6 9-9", 2: "6-6 9-8", 0: "8-0 1-2"}, stock="")
    play(game, "1-6@1", "6-6@2")
    assert legal(game) == ["pass"]  # 1-2 would fit the hub, but 6-6 is owed
    play(game, "pass", "pass", "pass")
    assert game.hand.result is not None and game.hand.result.end == "blocked"


# ---------------------------------------------------------------- game end
def test_nine_rounds_then_lowest_total_wins() -> None:
    game = game_at_round(10, players=3)
    assert game.finished and len(game.log) == 9
    assert game.scores[game.winner if game.winner is not None else 0] == min(game.scores)
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.next_hand()


def test_equal_lowest_totals_share_the_win() -> None:
    game = game_at_round(10, players=3)
    game.scores = [50, 50, 70]
    assert game.rules.game_over(game, True) == (True, None)
    assert game.rules.game_winners(None, game.scores) == (0, 1)
    game.scores = [50, 40, 70]
    assert game.rules.game_over(game, True) == (True, 1)


def test_pip_value_of_each_kind() -> None:
    assert [pip_value(tile) for tile in tiles("9-9 0-0 8-7 W-3 W-W S-W")] == [18, 0, 15, 23, 50, 45]


# ---------------------------------------------------------------- whole games
def play_checked(game: Game, rng: random.Random) -> None:
    """Play ``game`` to its end with random legal moves, checking the invariants at every step."""
    while True:
        if not game.in_hand:
            check_hand_scores(game)
            if game.finished:
                break
            game.next_hand()
        assert Counter(game.all_tiles()) == FULL_SET
        assert sum(len(hand) for hand in game.hands) + len(game.layout) + game.stock_left == 70
        moves = game.legal_moves()
        assert moves
        event = game.apply(rng.choice(moves))
        assert event.points == 0 and event.scoring == ()
    assert Counter(game.all_tiles()) == FULL_SET
    assert len(game.log) == 9
    assert game.scores == [sum(log.result.hand_points[seat] for log in game.log if log.result)
                           for seat in range(game.players)]
    low = min(game.scores)
    lowest = [seat for seat, score in enumerate(game.scores) if score == low]
    assert game.winner == (lowest[0] if len(lowest) == 1 else None)


def check_hand_scores(game: Game) -> None:
    log = game.hand
    result = log.result
    assert result is not None and result.end in ("domino", "blocked")
    for seat in range(game.players):
        held = game.hand_points_of(seat)
        expected = held
        if seat == result.winner:
            expected -= min(10, log.start_scores[seat] + held)
        assert result.hand_points[seat] == expected
        assert game.scores[seat] >= 0
    assert (result.winner is None) == (result.end == "blocked")


@pytest.mark.parametrize("players", range(2, 8))
def test_seeded_whole_game_keeps_every_tile_and_sums_scores(players: int) -> None:
    game = boneyard.new_game("pip", players, seed=100 + players)
    play_checked(game, random.Random(players))


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 7),
    seed=st.integers(0, 10_000),
    letter_end=st.sampled_from(["closed", "open_wild"]),
    nested_double=st.sampled_from(["stack", "forbid"]),
    draw_tile_skips=st.booleans(),
    two_player_reverse_skips=st.booleans(),
    directional_value=st.sampled_from([45, 25]),
)
def test_random_games_with_random_options(players: int, seed: int, letter_end: str, nested_double: str,
                                          draw_tile_skips: bool, two_player_reverse_skips: bool,
                                          directional_value: int) -> None:
    options = {"letter_end": letter_end, "nested_double": nested_double, "draw_tile_skips": draw_tile_skips,
               "two_player_reverse_skips": two_player_reverse_skips, "directional_value": directional_value}
    game = boneyard.new_game("pip", players, seed=seed, options=options)
    play_checked(game, random.Random(seed))


def snapshot(game: Game) -> tuple[object, ...]:
    return (tuple(tuple(hand) for hand in game.hands), game.stock_pos, len(game.layout), game.turn,
            game.direction, game.pending, game.forced_draw, game.give_pending, tuple(game.scores),
            game.in_hand, len(game.hand.events))


def test_undo_restores_every_step_of_a_round() -> None:
    game = boneyard.new_game("pip", 4, seed=5)
    rng = random.Random(5)
    kinds: set[Kind] = set()
    while game.in_hand:
        before = snapshot(game)
        move = rng.choice(game.legal_moves())
        game.apply(move)
        game.undo()
        assert snapshot(game) == before
        game.apply(move)
        kinds.add(move.kind)
    assert {Kind.LEAD, Kind.PLAY, Kind.DRAW} <= kinds


def test_record_round_trip_replays_the_same_game() -> None:
    from boneyard import record

    game = boneyard.new_game("pip", 3, seed=11, options={"draw_tile_skips": True})
    play_checked(game, random.Random(11))
    again = record.replay(record.loads(record.dumps(record.to_record(game))))
    assert again.scores == game.scores and again.winner == game.winner
    assert [str(e.move) for e in again.log[4].events] == [str(e.move) for e in game.log[4].events]

