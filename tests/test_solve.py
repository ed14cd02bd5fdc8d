"""The compiled exact solver (``boneyard.fast._solve``) against the expert's Python search.

Every value the solver gives for a closed two-player line hand must be the Python alpha-beta's
(:meth:`FastRoot._exact` with the solver switched off), on the sampled deals of real decisions,
under every option that changes how a hand ends or what it is worth."""

from __future__ import annotations

import random

import pytest

from boneyard.chance import Chance
from boneyard.players.base import make_player
from boneyard.players.expert import fastsearch
from boneyard.players.expert.sampling import fill_plan, sample_deal
from boneyard.players.expert.search import Search
from boneyard.rules.base import make_rules
from boneyard.state import Game
from boneyard.view import SeatView
from tests.helpers import play_players

pytestmark = pytest.mark.skipif(fastsearch._solve is None, reason="the compiled solver is not built")

CASES = [
    ("block", {}),
    ("block", {"tie_rule": "no_score", "target": 1}),
    ("block", {"blocked_score": "opponents_minus_own", "target": 20}),
    ("block", {"blocked_score": "sum_of_differences", "first_lead": "random_player_any_tile"}),
    ("block", {"blocked_score": "all_pips", "tie_rule": "no_score"}),
    ("block", {"set": 9}),
    ("draw", {}),
    ("draw", {"tie_rule": "no_score", "target": 30}),
]


def compare(variant: str, options: dict[str, object], seed: int, deals: int) -> int:
    """Play one seeded heuristic hand; at every decision with a choice whose search is exact, value
    every root move on ``deals`` sampled deals with the solver and in Python.  Returns the values compared."""
    game = Game(make_rules(variant, 2, options), chance=Chance(seed))
    game.next_hand()
    players = [make_player("heuristic", seed=seed + seat) for seat in range(2)]
    compared = 0
    while game.in_hand:
        view = SeatView(game, game.turn)
        search = Search(view, random.Random(seed))
        root = search.fast
        if root is not None and len(search.moves) > 1:
            assert root._compiled
            plan = fill_plan(search.info)
            rng = random.Random(seed)
            for _ in range(deals):
                root.load(*sample_deal(search.info, rng, plan))
                together = root.evaluate_all(range(len(search.moves)))  # one call for every root move
                for index in range(len(search.moves)):
                    root.game.apply(root.actions[index])
                    closed = root.game.in_hand and root._closed()
                    root.game.undo()
                    if not closed:
                        continue  # valued by playouts
                    root._compiled = True
                    solved = root.evaluate(index, random.Random(1))
                    exact = root.exact_ok
                    root._compiled = False
                    reference = root.evaluate(index, random.Random(1))
                    root._compiled = True
                    if exact and root.exact_ok:  # both searched exactly (neither ran past its limits)
                        assert solved == reference, (variant, options, seed, index, root.game.hands)
                        assert together is None or together[index] == reference
                        compared += 1 + (together is not None)
        game.apply(players[game.turn].choose(view))
    return compared


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_solver_values_equal_the_python_search(variant: str, options: dict[str, object]) -> None:
    seeds = 4 if variant == "block" else 24  # Draw's hands close (the stock drawn out) less often
    compared = sum(compare(variant, options, seed, deals=3) for seed in range(seeds))
    assert compared >= 20  # the positions reached the exact search


def mixed_value(root: fastsearch.FastRoot, deep: float, own: float, memo: dict[tuple[object, ...], float]) -> float:
    """The mixed value (:attr:`.FastRoot.mix`) of the root's position, worked out by brute force on the fast
    engine: a seat with several distinct plays is worth ``(1 - w)`` times its best (for the root's side the
    highest, else the lowest) plus ``w`` times their mean (``w``: ``own`` for the root's side, ``deep`` for the
    other seat); a forced move or pass is worth its one child."""
    game = root.game
    if not game.in_hand:
        return root.value()
    key = (tuple(game.hands), tuple(sorted(game.value[:2])), game.turn, game.passes, game.drawn)
    if key in memo:
        return memo[key]
    children: dict[tuple[object, ...], float] = {}
    for action in game.legal_actions():
        game.apply(action)
        try:
            # a tile laid on either of two equal ends makes one position: counted once
            children.setdefault((tuple(game.hands), tuple(sorted(game.value[:2])), game.turn),
                                mixed_value(root, deep, own, memo))
        finally:
            game.undo()
    values = list(children.values())
    ours = game.turn in root.side
    best = max(values) if ours else min(values)
    share = own if ours else deep
    memo[key] = value = (1 - share) * best + share * sum(values) / len(values)
    return value


@pytest.mark.parametrize(("deep", "own"), [(0.75, 0.0), (0.5, 0.5), (1.0, 0.25)])
def test_mixed_values_equal_a_brute_force(deep: float, own: float) -> None:
    """The solver's mixed choices (``deep``, ``own``) give, for every root move of real decisions' sampled deals
    (two-player Block from six tiles a hand down), the brute-force value of :func:`mixed_value`; and they differ
    from the plain search's values somewhere, so the option does something."""
    compared = differ = 0
    for seed in range(6):
        game = Game(make_rules("block", 2, {"tie_rule": "no_score", "target": 1}), chance=Chance(seed))
        game.next_hand()
        players = [make_player("heuristic", seed=seed + seat) for seat in range(2)]
        while game.in_hand:
            view = SeatView(game, game.turn)
            search = Search(view, random.Random(seed), deep=deep, own=own)
            root = search.fast
            if root is not None and len(search.moves) > 1 and len(view.hand) <= 6:
                assert root.mix == (deep, own)
                plan = fill_plan(search.info)
                rng = random.Random(seed)
                for _ in range(2):
                    root.load(*sample_deal(search.info, rng, plan))
                    mixed = root.evaluate_all(range(len(search.moves)))
                    assert mixed is not None
                    root.mix = (0.0, 0.0)
                    plain = root.evaluate_all(range(len(search.moves)))
                    root.mix = (deep, own)
                    memo: dict[tuple[object, ...], float] = {}
                    for index, value in enumerate(mixed):
                        root.game.apply(root.actions[index])
                        try:
                            assert value == pytest.approx(mixed_value(root, deep, own, memo), abs=1e-9)
                        finally:
                            root.game.undo()
                    compared += len(mixed)
                    assert plain is not None
                    differ += mixed != plain
            game.apply(players[game.turn].choose(view))
    assert compared >= 40
    assert differ > 0


def test_the_mixed_shares_are_checked_and_play_a_whole_game() -> None:
    from boneyard.errors import OptionError

    for name in ("deep", "own"):
        for bad in ("-0.1", "1.5", "x"):
            with pytest.raises(OptionError, match=name):
                make_player(f"expert:{name}={bad}")
    game = Game(make_rules("block", 2, {"target": 30}), chance=Chance(12))
    players = [make_player("expert:samples=8,deep=0.75,own=0.5", seed=1), make_player("heuristic", seed=2)]
    moves = play_players(game, players)
    last = players[0].last  # type: ignore[attr-defined]
    assert last is not None and last.fast is not None and last.fast.mix == (0.75, 0.5)
    assert game.winner in (0, 1) and moves > 10
