"""The expert's answers chosen alike across deals (``defuse=1``): its own next choice is not made with the deal known.

Perfect-information Monte Carlo values a move on each sampled deal as if the seat would know that deal later
(strategy fusion).  With ``defuse`` the compiled solver's deals give, per root move, the other seat's reply and the
exact value of every answer of this seat; the answer to a reply is then the one best over all the deals where
that reply was made, since the seat cannot tell those deals apart when it answers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from boneyard.chance import Chance
from boneyard.players.expert import fastsearch
from boneyard.players.expert.fastsearch import Answers, FastRoot
from boneyard.players.expert.sampling import fill_plan, sample_deal
from boneyard.players.expert.search import Search
from boneyard.rules.base import make_rules
from boneyard.state import Game
from boneyard.view import SeatView
from tests.helpers import heuristic_turns

pytestmark = pytest.mark.skipif(fastsearch._solve is None, reason="the compiled solver is not built")


def loaded_roots(seeds: range, deals: int) -> Iterator[tuple[int, FastRoot, list[int]]]:
    """At every decision with a choice of two-player Block games between heuristic players (one game per seed),
    ``deals`` deals drawn from the seat's inference, each loaded in turn: (seed, the decision's root, its moves)."""
    for seed in seeds:
        for view in heuristic_turns(make_rules("block", 2), seed):
            search = Search(view, random.Random(seed))
            root = search.fast
            if root is not None and len(search.moves) > 1:
                plan = fill_plan(search.info)
                rng = random.Random(seed)
                for _ in range(deals):
                    root.load(*sample_deal(search.info, rng, plan))
                    yield seed, root, list(range(len(search.moves)))


def two_move_search(monkeypatch: pytest.MonkeyPatch, stand_in: object, **options: Any) -> Search:
    """A search of a real two-player Block decision cut down to its first two root moves, whose deals and values
    come from ``stand_in`` (a stand-in for the fast engine's root)."""
    game = Game(make_rules("block", 2), chance=Chance(3))
    game.next_hand()
    view = SeatView(game, game.turn)
    while len(view.legal_moves()) < 2:
        game.apply(view.legal_moves()[0])
        view = SeatView(game, game.turn)
    search = Search(view, random.Random(0), race=False, **options)
    assert search.fast is not None and len(search.moves) >= 2
    monkeypatch.setattr(search, "fast", stand_in)
    monkeypatch.setattr(search, "sample", lambda: ([[]], []))
    search.moves = search.moves[:2]
    search.active = [0, 1]
    search.totals, search.counts = [0.0, 0.0], [0, 0]
    search.pair_sums = [[0.0, 0.0], [0.0, 0.0]]
    search.pair_squares = [[0.0, 0.0], [0.0, 0.0]]
    search.diff_sums, search.diff_squares = [0.0, 0.0], [0.0, 0.0]
    return search


def test_the_best_answer_to_the_chosen_reply_is_the_exact_value_of_the_root_move() -> None:
    """On every deal, the reply :meth:`FastRoot.evaluate_answers` picks leaves this seat's best answer worth exactly
    the root move's exact value (the other seat minimises what this seat's best answer gets), and every answer
    is a legal action after that reply."""
    checked = 0
    for seed, root, indices in loaded_roots(range(6), 3):
        exact = root.evaluate_all(indices)
        rows = root.evaluate_answers(indices)
        assert exact is not None and rows is not None
        for index, (value, row) in enumerate(zip(exact, rows, strict=True)):
            assert max(row.values) == pytest.approx(value), (seed, index)
            if row.reply >= 0 and row.keys != (-1,):
                root.game.apply(root.actions[index])
                assert row.reply in root.game.legal_actions()
                root.game.apply(row.reply)
                assert list(row.keys) == root.game.legal_actions()
                root.game.undo()
                root.game.undo()
            checked += 1
    assert checked > 50


class _Guess:
    """A stand-in root: move 0 wins 10 if the seat answers right, a guess the deal alone tells; move 1 wins 7."""

    def __init__(self) -> None:
        self.deal = 0
        self.deadline: float | None = None
        self.noisy = False

    def load(self, hands: object, stock: object) -> None:
        pass

    def evaluate_answers(self, indices: list[int]) -> list[Answers]:
        self.deal += 1
        right = self.deal % 2  # which of the two answers wins alternates with the deal
        rows = {0: Answers(5, (20, 21), (10.0, 0.0) if right else (0.0, 10.0)), 1: Answers(6, (30,), (7.0,))}
        return [rows[index] for index in indices]


def test_a_guess_the_seat_cannot_make_is_valued_at_its_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Move 0 needs an answer only the deal tells (right on half the deals, worth 10), move 1 gets 7 for sure.
    Valued deal by deal (the seat knowing every deal) move 0 is worth 10 and wins; with the answer chosen alike
    on every deal it is worth 5, and move 1 is played."""
    search = two_move_search(monkeypatch, _Guess(), defuse=True)
    for _ in range(20):
        search.add_sample()
    assert search.best() == search.moves[1]
    assert search.means() == pytest.approx([5.0, 7.0])
