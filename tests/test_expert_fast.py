"""The expert's fast path (every variant on the fast engine) against the reference search."""

from __future__ import annotations

import random
import time

import pytest

import boneyard
from boneyard.fast import FastGame, FastPip
from boneyard.players.base import make_player
from boneyard.players.expert import fastsearch
from boneyard.players.expert import search as reference
from boneyard.players.expert.determinize import determinize
from boneyard.players.expert.sampling import fill_plan, sample_deal
from boneyard.players.expert.search import Endgame, Search
from boneyard.tiles import LETTERS
from boneyard.view import SeatView

LINE_GAMES: list[tuple[str, int, dict[str, object]]] = [
    ("block", 2, {}),
    ("block", 3, {}),
    ("block", 4, {"partnerships": True}),
    ("draw", 2, {}),
    ("draw", 4, {"boneyard_reserve": 2}),
    ("all-fives", 2, {}),
    ("all-fives", 3, {}),
    ("all-fives", 2, {"spinner_mode": "all_doubles"}),
    ("bergen", 2, {}),
    ("bergen", 3, {"block_rule": "american"}),
    ("flower-scorpion", 2, {}),
    ("flower-scorpion", 3, {"long_pairs": "all_pairs"}),
    ("double-bergen", 2, {}),
    ("double-bergen", 3, {"boneyard_reserve": 2}),
]
PIP_GAMES: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (4, {}),
    (3, {"letter_end": "open_wild", "draw_tile_skips": False}),
]


@pytest.mark.parametrize(("variant", "players", "options"), LINE_GAMES)
def test_fast_exact_values_match_the_reference_endgame(variant: str, players: int, options: dict[str, object],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reference, "ENDGAME_NODES", 10**7)
    monkeypatch.setattr(fastsearch, "HAND_WIN", 0.0)  # the reference has no hand bonus
    compared = 0
    for seed in range(12):  # four hands at least; more until a closed, short position was compared
        if seed >= 4 and compared:
            break
        game = boneyard.new_game(variant, players, seed=seed, options=options)
        greedy = make_player("greedy", seed=seed)
        rng = random.Random(seed)
        while game.in_hand:
            view = SeatView(game, game.turn)
            if len(view.legal_moves()) > 1:
                search = Search(view, random.Random(seed))
                fast = search.fast
                assert fast is not None
                hands, stock = sample_deal(search.info, rng)
                fast.load(hands, stock)
                before = _position(fast.game)
                for index, move in enumerate(search.moves):
                    value = fast.evaluate(index, random.Random(1))
                    ref = determinize(search.info.public, hands, stock)
                    ref.apply(move)
                    closed = ref.rules.draw_mode == "none" or ref.stock_left <= ref.rules.reserve
                    if ref.in_hand and closed and sum(len(h) for h in ref.hands) <= 7:
                        assert value == Endgame(search.objective).search(ref, -float("inf"), float("inf"))
                        compared += 1
                assert _position(fast.game) == before  # every evaluation is taken back
            game.apply(greedy.choose(view))
    # with a stock the hand seldom gets closed and short
    assert compared > 0 or variant not in ("block", "bergen", "double-bergen")


def _position(game: FastGame) -> tuple[object, ...]:
    """What an evaluation must leave as it found it (PIP's table included: shown halves and free faces
    of the placed tiles, the owed doubles, direction, pending give or draw)."""
    shown = getattr(game, "shown", [])[:game.placed + 1]
    free = getattr(game, "free", [])[:game.placed + 1]
    return (list(game.hands), game.stock_pos, game.turn, list(game.scores), game.placed, game.in_hand,
            game.passes, game.drawn, getattr(game, "pending", None), getattr(game, "direction", None),
            getattr(game, "give_pending", None), getattr(game, "forced_draw", None), shown, free,
            getattr(game, "open_mask", None), game.narms, list(game.value), game.finished)


@pytest.mark.parametrize(("players", "options"), PIP_GAMES)
def test_pip_fast_exact_values_match_the_reference_endgame(players: int, options: dict[str, object],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """PIP's stock seldom runs dry, so late positions are closed by hand: a sampled deal with the stock
    emptied and every other hand cut to two tiles, the same on both engines.  Every root move's fast
    value (exact: lowest score wins, gives, direction, owed doubles) equals the reference endgame's; the
    fast searches make gives (the others keep their D tiles)."""
    monkeypatch.setattr(reference, "ENDGAME_NODES", 10**7)
    gives: list[int] = []
    apply = FastPip.apply

    def counting(game: FastPip, action: int) -> int:
        gives.extend([action] if action >= game.give_base else [])
        return apply(game, action)

    monkeypatch.setattr(FastPip, "apply", counting)
    compared = 0
    for seed in range(8):
        if compared >= 40 and (gives or players == 2):
            break
        game = boneyard.new_game("pip", players, seed=seed, options=options)
        player = make_player("heuristic")
        rng = random.Random(seed)
        while game.in_hand:
            view = SeatView(game, game.turn)
            if len(view.legal_moves()) > 1 and len(view.hand) <= 4:
                search = Search(view, random.Random(seed))
                fast = search.fast
                assert fast is not None
                hands, _ = sample_deal(search.info, rng)
                # the others keep their directional tiles first: a D on the empty stock makes a give
                hands = [hand if seat == view.seat else sorted(hand, key=lambda tile: tile.high not in LETTERS)[:2]
                         for seat, hand in enumerate(hands)]
                fast.load(hands, [])
                before = _position(fast.game)
                for index, move in enumerate(search.moves):
                    value = fast.evaluate(index, random.Random(1))
                    ref = determinize(search.info.public, hands, [])
                    ref.apply(move)
                    expected = (Endgame(search.objective).search(ref, -float("inf"), float("inf")) if ref.in_hand
                                else search.objective.value(ref))
                    assert value == expected, (seed, move)
                    compared += 1
                assert not fast.noisy  # every value was exact
                assert _position(fast.game) == before  # every evaluation is taken back
            game.apply(player.choose(view))
    assert compared > 20
    assert gives or players == 2  # a D tile on the emptied stock: the give is searched too


@pytest.mark.parametrize(("variant", "players"), [("double-bergen", 2), ("double-bergen", 4), ("pip", 2),
                                                  ("pip", 4), ("pip", 7)])
def test_double_bergen_and_pip_search_on_the_fast_engine(variant: str, players: int) -> None:
    """Every decision of a hand (the lead included) is rebuilt on the fast engine, and the expert's move is legal."""
    game = boneyard.new_game(variant, players, seed=3)
    expert = make_player("expert:samples=2", seed=1)
    decisions = 0
    while game.in_hand:
        view = SeatView(game, game.turn)
        legal = view.legal_moves()
        if len(legal) > 1:
            search = Search(view, random.Random(0))
            assert search.fast is not None, (variant, len(game.hand.events))
            assert search.fast.game.rules.name == variant
            decisions += 1
        move = expert.choose(view)
        assert move in legal
        game.apply(move)
    assert decisions > 3


def test_pip_needs_an_objective_on_the_fast_engine() -> None:
    """A caller that values positions itself (no objective given) keeps the reference search for PIP only."""
    for variant, fast in (("pip", False), ("double-bergen", True)):
        game = boneyard.new_game(variant, 2, seed=1)
        view = SeatView(game, game.turn)
        while len(view.legal_moves()) < 2:
            game.apply(view.legal_moves()[0])
            view = SeatView(game, game.turn)
        root = fastsearch.FastRoot.build(view, view.legal_moves()[:2], [view.seat])
        assert (root is not None) == fast


def test_fast_path_is_reproducible_with_samples() -> None:
    game = boneyard.new_game("block", 2, seed=5)
    view = SeatView(game, game.turn)
    first = make_player("expert:samples=6", seed=3).choose(view)
    assert make_player("expert:samples=6", seed=3).choose(view) == first


def test_an_exact_search_past_the_deadline_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a time budget an exact search still running at the deadline stops: playouts value the move."""
    monkeypatch.setattr(fastsearch, "_CLOCK_MASK", 0)  # look at the clock at every node
    for deadline in (None, time.perf_counter() - 1):
        game = boneyard.new_game("double-bergen", 2, seed=3)  # its stock runs dry before a choice
        view = SeatView(game, game.turn)
        while not (len(view.legal_moves()) > 1 and view.stock_count == 0):
            game.apply(make_player("greedy").choose(view))
            view = SeatView(game, game.turn)
        search = Search(view, random.Random(0))
        fast = search.fast
        assert fast is not None
        fast.deadline = deadline
        hands, stock = sample_deal(search.info, random.Random(1))
        fast.load(hands, stock)
        fast.evaluate(0, random.Random(2))
        assert fast.exact_ok == (deadline is None)
        assert fast.noisy == (deadline is not None)


@pytest.mark.parametrize(("variant", "seed", "gives_up"), [("double-bergen", 3, True), ("block", 5, False)])
def test_one_deal_may_take_only_a_share_of_the_budget_where_plays_score(
        variant: str, seed: int, gives_up: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where plays score (no transposition table) one deal's exact search may use a quarter of the budget,
    then playouts value the move; Block's table-backed search is held only to the decision's deadline."""
    monkeypatch.setattr(fastsearch, "_CLOCK_MASK", 0)
    game = boneyard.new_game(variant, 2, seed=seed)
    view = SeatView(game, game.turn)
    while not (len(view.legal_moves()) > 1 and (view.stock_count == 0 or variant == "block")):  # Block never draws
        game.apply(make_player("greedy").choose(view))
        view = SeatView(game, game.turn)
    search = Search(view, random.Random(0))
    fast = search.fast
    assert fast is not None
    fast.deadline = time.perf_counter() + 60
    fast.budget = 1e-9  # a quarter of it is gone before the first node
    hands, stock = sample_deal(search.info, random.Random(1))
    fast.load(hands, stock)
    fast.evaluate(0, random.Random(2))
    assert fast.exact_ok != gives_up
    assert fast.noisy == gives_up


@pytest.mark.parametrize(("variant", "players"), [("double-bergen", 4), ("draw", 3)])
def test_a_search_s_fill_plan_gives_the_deals_sampled_without_one(variant: str, players: int) -> None:
    game = boneyard.new_game(variant, players, seed=5)
    greedy = make_player("greedy", seed=5)
    for _ in range(players + 2):  # a few moves in: some seats have drawn or passed
        game.apply(greedy.choose(SeatView(game, game.turn)))
    info = Search(SeatView(game, game.turn), random.Random(0)).info
    plan = fill_plan(info)
    for seed in range(5):
        assert sample_deal(info, random.Random(seed), plan) == sample_deal(info, random.Random(seed))


@pytest.mark.skipif(not fastsearch.FastGame("block", 2).kernel_plays, reason="the compiled kernel is not built")
@pytest.mark.parametrize(("variant", "defend"), [("draw", False), ("draw", True), ("all-fives", False),
                                                 ("all-fives", True), ("bergen", True), ("flower-scorpion", False),
                                                 ("double-bergen", True), ("pip", False)])
def test_playouts_in_the_kernel_value_a_deal_as_the_python_playouts_do(variant: str, defend: bool,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The greedy playouts run in the compiled kernel where it is built (not for a root that values positions
    itself); on one deal, the mean value of each root move over many playouts agrees with the Python playouts'
    mean (the same policy; ties are broken by different random streams) within the playouts' noise."""
    from boneyard.fast import engine
    game = boneyard.new_game(variant, 2, seed=11)
    view = SeatView(game, game.turn)
    while len(view.legal_moves()) < 2 or not game.hand.events:
        game.apply(make_player("greedy", seed=1).choose(view))
        view = SeatView(game, game.turn)
    moves = view.legal_moves()
    search = Search(view, random.Random(0))
    info = search.info
    hands, stock = sample_deal(info, random.Random(4))
    means = []
    for compiled in (True, False):
        if not compiled:
            monkeypatch.setattr(engine, "_kernel", None)
        root = fastsearch.FastRoot.build(view, moves, [view.seat], search.objective)
        assert root is not None and root._kernel == compiled
        root.defend = defend
        rng = random.Random(7)
        values: list[list[float]] = [[] for _ in moves]
        for _ in range(100 if variant in ("pip", "double-bergen") else 300):  # (long hands: fewer)
            # the deal's hands, its stock in a new order each time (the order is hidden)
            root.load(hands, rng.sample(stock, len(stock)))
            for index, found in enumerate(values):
                found.append(root.evaluate(index, rng))
        means.append([(sum(v) / len(v), (sum((x - sum(v) / len(v)) ** 2 for x in v) / len(v) / len(v)) ** 0.5)
                      for v in values])
    for (kernel, k_error), (python, p_error) in zip(*means, strict=True):
        assert abs(kernel - python) <= 4.5 * (k_error ** 2 + p_error ** 2) ** 0.5 + 1e-9, (variant, kernel, python)
