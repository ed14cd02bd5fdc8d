"""The computer levels: legal moves everywhere, reproducible seeds, parameters, inference and strength."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import boneyard
from boneyard import record
from boneyard.chance import Chance
from boneyard.errors import IllegalMoveError, OptionError
from boneyard.fast import FastGame
from boneyard.moves import Kind, Move
from boneyard.players.base import LEVELS, GreedyPlayer, Player, hint_move, make_player
from boneyard.players.expert import ExpertPlayer, search
from boneyard.players.expert.determinize import determinize
from boneyard.players.expert.inference import infer
from boneyard.players.expert.objective import WIN_VALUE
from boneyard.players.expert.sampling import sample_deal
from boneyard.players.expert.search import Objective, Search
from boneyard.players.heuristic import HeuristicPlayer, assess
from boneyard.rules.base import VARIANTS, make_rules
from boneyard.sim.simulate import simulate, wilson
from boneyard.state import Game, HandSetup
from boneyard.tiles import D, Tile
from boneyard.view import SeatView

LEVEL_SPECS = ["random", "greedy", "heuristic", "expert:samples=1"]


def counts(variant: str) -> list[int]:
    low, high = make_rules(variant, 2).player_range() if variant != "pip" else (2, 7)
    return list(range(max(2, low), min(4, high) + 1))


CASES = [(variant, players) for variant in sorted(VARIANTS) for players in counts(variant)]


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(part) for part in text.split()]


def play_hand(game: Game, seats: list[Player]) -> int:
    """Play the current hand out; every move is checked legal by ``apply``. Returns the number of moves."""
    moves = 0
    while game.in_hand:
        seat = game.turn
        move = seats[seat].choose(SeatView(game, seat))
        assert move in game.legal_moves() or move.kind == Kind.LEAD
        game.apply(move)
        moves += 1
    return moves


# ---------------------------------------------------------------- every level, every variant
def test_every_level_is_registered() -> None:
    make_player("expert")  # an unknown level loads the optional ones
    assert {"random", "greedy", "heuristic", "expert"} <= set(LEVELS)


def test_a_random_or_greedy_player_imports_no_search() -> None:
    """``simulate`` with random or greedy players starts without the heuristic and expert modules."""
    import subprocess
    import sys

    code = ("import sys; from boneyard.players.base import make_player; make_player('random'); "
            "make_player('greedy'); print(any(m.startswith('boneyard.players.expert') for m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_every_level_plays_a_legal_hand(variant: str, players: int) -> None:
    for number, spec in enumerate(LEVEL_SPECS):
        game = boneyard.new_game(variant, players, seed=11 + number)
        seats = [make_player(spec, seed=seat) if seat == number % players else make_player("greedy")
                 for seat in range(players)]
        assert play_hand(game, seats) > 0
        assert game.hand.result is not None


def test_expert_plays_a_whole_game_of_every_variant() -> None:
    for variant in sorted(VARIANTS):
        options: dict[str, object] = {"target": 5} if "target" in make_rules(variant, 2).Options.__dataclass_fields__ \
            else {}
        game = Game(make_rules(variant, 2, options), chance=Chance(3))
        seats = [make_player("expert:samples=1", seed=1), make_player("heuristic")]
        while not game.finished:
            if not game.in_hand:
                game.next_hand()
            play_hand(game, seats)
        assert game.finished


# ---------------------------------------------------------------- reproducibility
@pytest.mark.parametrize("spec", ["heuristic", "expert:samples=4", "random"])
def test_seeded_levels_reproduce_their_decisions(spec: str) -> None:
    def decisions() -> list[Move]:
        game = boneyard.new_game("all-fives", 2, seed=5)
        seats = [make_player(spec, seed=9), make_player("greedy")]
        made = []
        while game.in_hand:
            move = seats[game.turn].choose(SeatView(game, game.turn))
            if game.turn == 0:
                made.append(move)
            game.apply(move)
        return made

    assert decisions() == decisions()


def test_expert_seed_changes_the_samples_not_the_legality() -> None:
    game = boneyard.new_game("draw", 3, seed=2)
    view = SeatView(game, game.turn)
    for seed in range(3):
        assert ExpertPlayer(seed=seed, samples=2).choose(view) in view.legal_moves()


# ---------------------------------------------------------------- make_player
def test_make_player_parses_parameters() -> None:
    player = make_player("expert:time=0.25,samples=3", seed=4)
    assert isinstance(player, ExpertPlayer)
    assert player.time == 0.25 and player.samples == 3
    assert isinstance(make_player(" Heuristic "), HeuristicPlayer)
    assert make_player("expert").time == 0.5  # type: ignore[attr-defined]


@pytest.mark.parametrize(("spec", "message"), [
    ("expert:time=-1", "time=-1"),
    ("expert:time=fast", "time='fast'"),
    ("expert:samples=0", "samples=0"),
    ("expert:samples=2.5", "samples=2.5"),
    ("expert:speed=3", "speed"),
    ("expert:time", "not key=value"),
    ("heuristic:depth=2", "depth"),
    ("wizard", "unknown player level 'wizard'"),
])
def test_make_player_rejects_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(".", r"\.")):
        make_player(spec)


# ---------------------------------------------------------------- inference and determinization
def random_positions(variant: str, players: int, seed: int, hands: int = 1):  # type: ignore[no-untyped-def]
    """Every position of the first ``hands`` hands of a random game."""
    game = boneyard.new_game(variant, players, seed=seed)
    rng = random.Random(seed)
    for number in range(hands):
        if number:
            if game.finished:
                return
            game.next_hand()
        while game.in_hand:
            yield game
            game.apply(rng.choice(game.legal_moves()))


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_inference_is_sound_and_the_replay_matches_the_table(variant: str, players: int) -> None:
    for seed in range(3):
        for game in random_positions(variant, players, seed, hands=2):  # the second: leads that follow the first
            seat = game.turn
            info = infer(SeatView(game, seat))
            public = info.public
            for name in ("turn", "direction", "passes", "drawn", "forced_draw", "give_pending", "pending",
                         "stock_left", "scores"):
                assert getattr(public, name) == getattr(game, name), name
            assert [p.tile for p in public.layout.tiles] == [p.tile for p in game.layout.tiles]
            for other in range(players):
                if other == seat:
                    continue
                assert set(game.hands[other]) <= info.possible(other)  # never rules out a real tile
                assert sum(g.count for g in info.groups[other]) + len(info.known[other]) == len(game.hands[other])
            hands, stock = sample_deal(info, random.Random(seed))
            assert hands[seat] == game.hands[seat]
            assert sorted(t for h in hands for t in h) + sorted(stock) != [] and \
                sorted([*(t for h in hands for t in h), *stock]) == sorted(
                    [*(t for h in game.hands for t in h), *game.stock[game.stock_pos:]])
            twin = determinize(public, hands, stock)
            assert twin.legal_moves() == game.legal_moves()


def test_a_pass_shows_the_suits_a_player_lacks() -> None:
    # Block, 2 players: seat 0 leads 6-6; seat 1 holds no 6 and passes.
    deal = [tiles("6-6 6-5 6-4 6-3 6-2 6-1 6-0"), tiles("5-5 5-4 5-3 5-2 5-1 5-0 4-4")]
    used = {t for hand in deal for t in hand}
    stock = [t for t in make_rules("block", 2).tile_set() if t not in used]
    game = Game(make_rules("block", 2))
    game.start_hand(HandSetup(deal, stock))
    game.apply(Move.parse("6-6"))
    game.apply(Move.passing())
    info = infer(SeatView(game, 0))
    assert info.lacks(1, 6)
    assert not info.lacks(1, 5)
    assert not any(tile.has(6) for tile in info.possible(1))
    # and the heuristic plays into the void, naming it
    best = assess(SeatView(game, 0), info)[0]
    assert (1, 6) in best.voids


def start(variant: str, hands: str, options: dict[str, object] | None = None, leader: int | None = None) -> Game:
    """A two-player game of ``variant`` dealt ``hands`` ("seat 0's tiles / seat 1's tiles"), the rest the stock
    (``leader``: where chance picks him)."""
    rules = make_rules(variant, 2, options or {})
    deal = [tiles(hand) for hand in hands.split("/")]
    used = {t for hand in deal for t in hand}
    game = Game(rules)
    game.start_hand(HandSetup(deal, [t for t in rules.tile_set() if t not in used], leader=leader))
    return game


def test_a_called_lead_shows_what_the_others_were_not_dealt() -> None:
    # Bergen leads the lowest double: seat 1 led 3-3, so neither seat was dealt 0-0, 1-1 or 2-2 (seat 0 holds 1-1
    # itself here, so it is not seat 0's view that rules it out).
    game = start("bergen", "4-4 6-5 6-1 5-0 4-1 2-0 / 3-3 6-6 5-3 4-2 2-1 6-0")
    assert game.turn == 1
    game.apply(Move.parse("3-3"))
    possible = infer(SeatView(game, 0)).possible(1)
    assert not possible & set(tiles("0-0 1-1 2-2"))
    assert set(tiles("6-6 5-5 5-3")) <= possible  # higher doubles and the rest stay possible
    # the same deal under `highest_double`: seat 1 led 6-6, which says nothing (there is no higher double)
    game = start("bergen", "4-4 6-5 6-1 5-0 4-1 2-0 / 3-3 6-6 5-3 4-2 2-1 6-0", {"lead_rule": "highest_double"})
    game.apply(Move.parse("6-6"))
    assert set(tiles("0-0 1-1 2-2 5-5")) <= infer(SeatView(game, 0)).possible(1)
    # seat 0 led 4-4 as the lowest double: seat 1 was dealt none of 0-0 .. 3-3
    game = start("bergen", "4-4 6-5 6-1 5-0 4-1 2-0 / 6-6 5-3 4-2 2-1 6-0 5-5")
    game.apply(Move.parse("4-4"))
    assert not infer(SeatView(game, 1)).possible(0) & set(tiles("0-0 1-1 2-2 3-3"))


def test_a_called_block_lead_shows_the_higher_doubles_are_in_the_boneyard() -> None:
    # Block's first hand is called (the highest double leads): seat 0 led 5-5, so nobody was dealt 6-6.
    game = start("block", "5-5 6-5 6-1 5-0 4-1 2-0 3-1 / 3-3 5-3 4-2 2-1 6-0 4-4 1-1")
    game.apply(Move.parse("5-5"))
    six, blank = tiles("6-6 0-0")
    possible = infer(SeatView(game, 1)).possible(0)
    assert six not in possible and blank in possible
    # with the first lead left to chance, the lead says nothing
    game = start("block", "5-5 6-5 6-1 5-0 4-1 2-0 3-1 / 3-3 5-3 4-2 2-1 6-0 4-4 1-1",
                 {"first_lead": "random_player_any_tile"}, leader=0)
    game.apply(Move.parse("5-5"))
    assert six in infer(SeatView(game, 1)).possible(0)


def test_double_bergen_s_set_up_shows_who_held_no_double() -> None:
    # three players, seat 0 the designated leader: he holds no double, so the duty passes to seat 1, who sets
    # 5-5 (his choice of two). Seat 2 learns that seat 0 was dealt no double, and nothing of seat 1's others.
    rules = make_rules("double-bergen", 3)
    deal = [tiles("6-5 6-4 6-3 5-4 5-3 4-3"), tiles("2-2 5-5 2-1 6-0 1-0 3-2"), tiles("6-6 4-4 3-1 4-1 5-1 2-0")]
    used = {t for hand in deal for t in hand}
    game = Game(rules)
    game.start_hand(HandSetup(deal, [t for t in rules.tile_set() if t not in used], leader=0))
    assert game.turn == 1 and SeatView(game, 2).hand_leader == 0
    game.apply(Move.parse("5-5"))
    doubles = set(tiles("0-0 1-1 2-2 3-3"))
    view = SeatView(game, 2)
    assert not infer(view).possible(0) & doubles
    assert doubles <= infer(view).possible(1)  # the setter's choice among his doubles says nothing
    assert doubles <= infer(SeatView(game, 0)).possible(2)  # seat 2 comes after the setter: nothing known
    # nobody dealt a double: seat 0 draws 4-1, seat 1 draws 5-5 and sets it; seat 0 held none, nor drew one
    deal = [tiles("6-5 6-4 6-3 5-4 5-3 4-3"), tiles("2-1 6-0 1-0 3-2 6-1 5-2")]
    used = {t for hand in deal for t in hand} | set(tiles("4-1 5-5"))
    game = Game(make_rules("double-bergen", 2))
    game.start_hand(HandSetup(deal, [*tiles("4-1 5-5"), *(t for t in game.rules.tile_set() if t not in used)],
                              leader=0))
    assert game.turn == 1 and len(game.hands[0]) == 7
    game.apply(Move.parse("5-5"))
    info = infer(SeatView(game, 1))
    assert set(game.hands[0]) <= info.possible(0)
    assert not info.possible(0) & set(tiles("0-0 1-1 2-2 3-3 4-4 6-6"))
    # three players, nobody dealt a double: seats 0 and 1 draw 4-1 and 6-2, seat 2 draws 5-5 and sets it. Seat 0
    # learns that seat 1 holds no double, and that seat 2 (the setter, after his draw) holds no other either.
    deal = [tiles("6-5 6-4 6-3 5-4 5-3 4-3"), tiles("2-1 6-0 1-0 3-2 6-1 5-2"), tiles("3-1 2-0 5-1 4-0 4-2 5-0")]
    drawn = tiles("4-1 6-2 5-5")
    used = {t for hand in deal for t in hand} | set(drawn)
    game = Game(make_rules("double-bergen", 3))
    game.start_hand(HandSetup(deal, [*drawn, *(t for t in game.rules.tile_set() if t not in used)], leader=0))
    assert game.turn == 2 and [len(hand) for hand in game.hands] == [7, 7, 7]
    game.apply(Move.parse("5-5"))
    info = infer(SeatView(game, 0))
    others = set(tiles("0-0 1-1 2-2 3-3 4-4 6-6"))
    assert set(game.hands[1]) <= info.possible(1) and set(game.hands[2]) <= info.possible(2)
    assert not info.possible(1) & others and not info.possible(2) & others
    # the same set-up seen by seat 1, who drew before the setter: seat 0 and the setter hold no double
    info = infer(SeatView(game, 1))
    assert not info.possible(0) & others and not info.possible(2) & others


def test_draws_then_a_play_keep_what_the_draws_showed() -> None:
    # Draw, seat 1 cannot follow the 6s, draws until it can: the tiles it held before stay free of 6s.
    game = boneyard.new_game("draw", 2, seed=0)
    rng = random.Random(0)
    found = False
    for seed in range(40):
        game = boneyard.new_game("draw", 2, seed=seed)
        while game.in_hand:
            events = game.hand.events
            if len(events) >= 2 and events[-1].move.kind == Kind.PLAY and events[-2].move.kind == Kind.DRAW:
                seat = (events[-1].seat + 1) % 2
                info = infer(SeatView(game, seat))
                assert set(game.hands[events[-1].seat]) <= info.possible(events[-1].seat)
                assert info.excluded(events[-1].seat)  # the draw told something
                found = True
                break
            game.apply(rng.choice(game.legal_moves()))
        if found:
            break
    assert found


def test_objective_counts_score_difference_and_lowest_for_pip() -> None:
    game = boneyard.new_game("pip", 2, seed=1)
    view = SeatView(game, game.turn)
    objective = Objective(view)
    assert objective.lowest
    twin = determinize(infer(view).public, [list(h) for h in game.hands], game.stock[game.stock_pos:])
    twin.scores[view.seat] += 10  # ten points more for the searching seat is worse in PIP
    assert objective.value(twin) == -10
    fives = boneyard.new_game("all-fives", 2, seed=1)
    fives_view = SeatView(fives, fives.turn)
    assert not Objective(fives_view).lowest


def test_objective_counts_a_shared_pip_win_for_each_sharer() -> None:
    """PIP-20: equal lowest totals share the win (``Game.winner`` is None). The expert's objective gives each seat
    that shares it the win's value and a seat beaten by the sharers the loss's, as tournaments count it."""
    game = boneyard.new_game("pip", 3, seed=1)
    start = list(game.scores)
    values = []
    for seat in range(3):
        objective = Objective(SeatView(game, seat))
        values.append(objective.outcome([start[0] + 40, start[1] + 40, start[2] + 90], True, None))
    # seats 0 and 1 share the win (+1000 and 50 points better than seat 2), seat 2 lost by 50 (-1000 - 50)
    assert values == [WIN_VALUE + 0.0, WIN_VALUE + 0.0, -WIN_VALUE - 50.0]
    unshared = Objective(SeatView(game, 2)).outcome([start[0] + 40, start[1] + 60, start[2] + 90], True, 0)
    assert unshared == -WIN_VALUE - 50.0


def test_bergen_endgame_is_solved_once_the_stock_is_down_to_the_reserve() -> None:
    """Bergen never draws its last two tiles: a hand with only the reserve left is closed, so the
    search solves its small endgames exactly instead of playing them out."""
    rng = random.Random(3)
    for seed in range(40):
        game = boneyard.new_game("bergen", 2, seed=seed)
        while game.in_hand and (game.stock_left > game.rules.reserve or sum(map(len, game.hands)) > 6):
            game.apply(rng.choice(game.legal_moves()))
        if game.in_hand:
            break
    assert game.in_hand and game.stock_left == game.rules.reserve == 2
    assert not game.can_draw
    assert search.small_endgame(game)
    objective = Objective(SeatView(game, game.turn))
    exact = search.Endgame(objective).search(game, -float("inf"), float("inf"))
    assert exact is not None  # a handful of tiles: well within the node limit


def test_the_search_overrules_the_heuristic_only_beyond_the_noise() -> None:
    game = boneyard.new_game("all-fives", 2, seed=4)
    rng = random.Random(4)
    while len(game.legal_moves()) < 3:
        game.apply(rng.choice(game.legal_moves()))
    found = search.Search(SeatView(game, game.turn), random.Random(0))
    heuristic_choice, other = found.moves[0], found.moves[1]
    found.noisy = True  # the values came from playouts
    assert found.best() == heuristic_choice  # no deal searched: nothing is known

    def observe(gains: list[float]) -> None:  # paired gains of the second move over the first, deal by deal
        found.samples = len(gains)
        found.diff_sums = [0.0, sum(gains)] + [-1e9] * (len(found.moves) - 2)
        found.diff_squares = [0.0, sum(g * g for g in gains)] + [1e18] * (len(found.moves) - 2)

    observe([1.0, 1.2, 0.8, 1.0])  # better on every deal
    assert found.best() == other
    observe([9.0, -8.0, 7.0, -7.0])  # better on average (+0.25), but well within the noise
    assert found.lower_bounds()[1] < 0 and found.best() == heuristic_choice
    observe([3.0])  # one deal shows no spread: not enough to overrule
    assert found.best() == heuristic_choice
    # exact values (alpha-beta to the end of every deal) carry no playout noise: the best mean wins
    found.noisy = False
    found.totals = [0.0, 3.0] + [-1e9] * (len(found.moves) - 2)
    found.counts = [1] * len(found.moves)
    assert found.best() == other


# ---------------------------------------------------------------- hints
def test_hint_gives_a_legal_move_and_a_reason_in_every_variant() -> None:
    for variant in sorted(VARIANTS):
        for game in random_positions(variant, 2, 4):
            view = SeatView(game, game.turn)
            if len(view.legal_moves()) > 2 and game.layout.tiles:
                move, reason = hint_move(view)
                assert move in view.legal_moves()
                assert reason and "\n" not in reason
                break


def test_hint_names_the_points_a_scoring_play_makes() -> None:
    # All Fives: the 5-5 lead is down, seat 1 holds 5-0 (count 5+0+... ) and 5-4
    for seed in range(60):
        for game in random_positions("all-fives", 2, seed):
            view = SeatView(game, game.turn)
            moves = view.legal_moves()
            points = [view.play_points(m)[1] for m in moves]
            if len(moves) >= 2 and max(points) >= 10 and points.count(max(points)) == 1:
                from boneyard.players.expert.hint import hint_move as expert_hint

                move, reason = expert_hint(view, samples=8)
                if view.play_points(move)[1] == max(points):
                    assert reason == f"scores {max(points)}"
                    return
    pytest.fail("no scoring position found")


def test_hint_for_a_forced_move() -> None:
    game = boneyard.new_game("block", 2, seed=1)
    assert hint_move(SeatView(game, game.turn))[1] == "the only move"  # the called double


def test_terminal_hint_uses_the_expert() -> None:
    from boneyard.terminal import hint

    game = boneyard.new_game("all-fives", 2, seed=8)
    game.apply(game.legal_moves()[0])
    view = SeatView(game, game.turn)
    move, reason = hint(view)
    assert move in view.legal_moves() and reason


# ---------------------------------------------------------------- simulate --duplicate
def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_duplicate_mode_rotates_every_deal() -> None:
    result = simulate("block", 2, 3, seed=1, ai="greedy,random", workers=1, duplicate=True,
                      options={"target": 20})
    assert result["games"] == 6 and result["deals"] == 3 and result["duplicate"] is True
    stats = {row["ai"]: row for row in result["ai_stats"]}  # type: ignore[attr-defined]
    assert stats["greedy"]["games"] == stats["random"]["games"] == 6
    assert stats["greedy"]["wins"] + stats["random"]["wins"] <= 6
    low, high = stats["greedy"]["ci95"]
    assert 0 <= low <= stats["greedy"]["win_rate"] <= high <= 1
    # every level sat in every seat: a seat's row is nobody's, its wins are whoever sat there
    assert [row["ai"] for row in result["seats"]] == [None, None]  # type: ignore[attr-defined]
    assert sum(row["wins"] for row in result["seats"]) == stats["greedy"]["wins"] + stats["random"]["wins"]  # type: ignore[attr-defined]
    plain = simulate("block", 2, 3, seed=1, ai="greedy,random", workers=1, options={"target": 20})
    assert plain["games"] == 3 and plain["duplicate"] is False
    assert [row["ai"] for row in plain["seats"]] == ["greedy", "random"]  # type: ignore[attr-defined]


def test_one_level_in_every_seat_needs_no_rotation() -> None:
    result = simulate("block", 2, 2, seed=3, ai="greedy", workers=1, duplicate=True, options={"target": 1})
    assert result["games"] == 2 and [row["ai"] for row in result["seats"]] == ["greedy", "greedy"]  # type: ignore[attr-defined]
    # greedy sits on every side: it cannot lose to another level, so no game counts for it
    assert result["ai_stats"] == [{"ai": "greedy", "games": 0, "wins": 0, "win_rate": 0.0, "ci95": [0.0, 1.0],
                                   "every_side": 2}]


def test_a_partnership_s_win_counts_for_both_partners_and_a_level_on_both_sides_for_neither() -> None:
    result = simulate("draw", 4, 12, seed=1, ai="greedy,random", workers=1, options={"partnerships": True})
    seats = result["seats"]
    assert isinstance(seats, list)
    wins = [row["wins"] for row in seats]
    assert wins[0] == wins[2] and wins[1] == wins[3] and 0 < wins[0] + wins[1] <= 12
    stats = {row["ai"]: row for row in result["ai_stats"]}  # type: ignore[attr-defined]
    assert stats["greedy"]["games"] == 12 and stats["greedy"]["wins"] == wins[0]
    assert stats["random"]["games"] == 0 and stats["random"]["every_side"] == 12  # seats 1, 2 and 3: both sides
    assert stats["greedy"]["every_side"] == 0
    with pytest.raises(OptionError, match="the number of games must be from 1 to 10,000,000"):
        simulate("block", 2, 10**8)
    with pytest.raises(OptionError, match="the seed must be a whole number from 0 to 2\\^63 - 1"):
        simulate("block", 2, 1, seed=-5)


def test_cli_simulate_duplicate_json() -> None:
    out = subprocess.run([sys.executable, "-m", "boneyard", "simulate", "block", "--games", "2", "--duplicate",
                          "--ai", "heuristic,random", "--workers", "1", "--json", "-o", "target=10"],
                         capture_output=True, text=True, check=True)
    import json

    result = json.loads(out.stdout)
    assert result["games"] == 4 and [row["ai"] for row in result["ai_stats"]] == ["heuristic", "random"]


# ---------------------------------------------------------------- strength (small, seeded)
def test_heuristic_beats_random() -> None:
    result = simulate("block", 2, 12, seed=7, ai="heuristic,random", workers=1, duplicate=True,
                      options={"target": 30})
    heuristic_row = result["ai_stats"][0]  # type: ignore[index]
    assert heuristic_row["win_rate"] > 0.6


def test_expert_beats_greedy() -> None:
    # 8 duplicate deals of Block to 30 (16 games); samples, not seconds, so the result is the same anywhere
    result = simulate("block", 2, 8, seed=7, ai="expert:samples=24,greedy", workers=1, duplicate=True,
                      options={"target": 30})
    expert_row = result["ai_stats"][0]  # type: ignore[index]
    assert expert_row["games"] == 16
    assert expert_row["win_rate"] > 0.6


#: rules whose greedy choices hinge on something particular: a voluntary draw beside plays, spinners on every
#: double, scorpions taking points with no floor, a lone double at an arm tip, the approach cap, PIP's gives
GREEDY_CONFIGS = [
    ("block", 4, {"partnerships": True}),
    ("draw", 3, {"allow_voluntary_draw": True}),
    ("all-fives", 2, {"spinner_mode": "all_doubles"}),
    ("all-fives", 3, {"score_unit": "fives"}),
    ("bergen", 2, {"target": 15}),
    ("bergen", 3, {"cover_lead_double_first": True}),
    ("double-bergen", 3, {"lone_double_scores": True}),
    ("flower-scorpion", 2, {"score_floor": None, "long_pairs": "all_pairs"}),
    ("flower-scorpion", 3, {"double_scorpion_blocks_dual": "only_when_tile_played"}),
    ("pip", 7, {}),
    ("pip", 3, {"directional_value": 25}),
]


@pytest.mark.parametrize(("variant", "players", "options"), GREEDY_CONFIGS,
                         ids=[f"{v}-{p}p-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}"
                              for v, p, o in GREEDY_CONFIGS])
def test_greedy_chooses_alike_on_both_engines(variant: str, players: int, options: dict[str, object]) -> None:
    """Greedy on the fast engine (actions, points without applying) makes the reference's choice
    (moves, points from the view) at every position of whole random games."""
    rng = random.Random(f"greedy {variant} {players} {options}")
    greedy = GreedyPlayer()
    compared = gives = 0
    for seed in range(2 if players < 7 else 6):
        game = boneyard.new_game(variant, players, seed=seed, options=options)
        fast = FastGame.from_game(game)
        while not game.finished:
            if not game.in_hand:
                game.next_hand()
                fast = FastGame.from_game(game)  # the new hand as dealt, with the scores so far
                continue
            chosen = greedy.choose(SeatView(game, game.turn))
            assert fast.to_move(greedy.choose_action(fast)) == chosen, (seed, len(game.log), len(game.hand.events))
            legal = game.legal_moves()
            compared += len(legal) > 1
            gives += len(legal) > 1 and legal[0].kind == Kind.GIVE
            # greedy's move half the time, so scores build up; D tiles kept for an empty stock, so players give
            draws = [move for move in legal if move.tile is not None and move.tile.letter == D]
            others = [move for move in [chosen, *legal] if move not in draws] or draws
            move = draws[0] if draws and game.stock_left == 0 else rng.choice(others)
            game.apply(move)
            fast.apply(fast.from_move(move))
    assert compared > 20
    assert gives > 0 or players < 7  # seven PIP players empty the stock


def test_a_search_with_no_move_to_make_says_so() -> None:
    game = boneyard.new_game("block", 2, seed=1)
    waiting = SeatView(game, 1 - game.turn)
    with pytest.raises(ValueError, match=f"seat {waiting.seat} has no legal move"):
        Search(waiting, random.Random(0))
    rng = random.Random(0)
    while game.in_hand:
        game.apply(rng.choice(game.legal_moves()))
    with pytest.raises(ValueError, match="the hand is over"):
        Search(SeatView(game, 0), random.Random(0))


def test_simulate_writes_every_game_s_record_which_replays_to_the_same_result(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    options = {"target": 30}
    plain = simulate("all-fives", 2, 3, seed=4, ai="greedy,random", workers=1, duplicate=True, options=options)
    saved = simulate("all-fives", 2, 3, seed=4, ai="greedy,random", workers=2, duplicate=True, options=options,
                     records=folder)
    assert saved["records"] == str(folder) and saved["engine"] == "reference"
    assert saved["seats"] == plain["seats"] and saved["ai_stats"] == plain["ai_stats"]  # the same games
    files = sorted(path.name for path in folder.iterdir())
    assert files == [f"game-00000{i}-r{r}.boneyard.json" for i in (1, 2, 3) for r in (1, 2)]
    data = record.load(folder / "game-000002-r2.boneyard.json")
    game = record.replay(data)
    assert game.finished and data["players"] == ["random", "greedy"]  # the second rotation: levels shifted
    assert data["meta"]["simulate"] == {"seed": 4, "game": 1, "rotation": 1, "levels": ["random", "greedy"]}
    wins = sum(record.replay(record.load(path)).winner == 0 for path in folder.iterdir())
    assert wins == saved["seats"][0]["wins"]  # type: ignore[index]
    with pytest.raises(OptionError, match="already holds game records"):
        simulate("all-fives", 2, 1, ai="greedy", options=options, records=folder)
    with pytest.raises(OptionError, match="is a file, not a folder"):
        simulate("all-fives", 2, 1, ai="greedy", options=options, records=folder / "game-000001-r1.boneyard.json")
    with pytest.raises(OptionError, match="use the local backend"):
        simulate("all-fives", 2, 1, ai="greedy", options=options, records=tmp_path / "other", backend="ray")


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", "expert:samples=4"])
def test_a_player_asked_to_choose_without_a_move_says_so(spec: str) -> None:
    game = boneyard.new_game("block", 2, seed=1)
    message = r"nothing to choose: seat \d has no legal move here"
    with pytest.raises(IllegalMoveError, match=message):  # another seat is on turn
        make_player(spec).choose(SeatView(game, 1 - game.turn))
    rng = random.Random(1)
    while game.in_hand:
        game.apply(rng.choice(game.legal_moves()))
    with pytest.raises(IllegalMoveError, match=message):  # the hand is over
        make_player(spec).choose(SeatView(game, 0))
