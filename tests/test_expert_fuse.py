"""The expert's choices made alike over deals searched together (``fuse=M``, alpha-mu).

Perfect-information Monte Carlo values a move on each sampled deal as if the seat would know that deal at every later
choice (strategy fusion).  With ``fuse=M`` the compiled solver searches a batch of deals together: the seat's first M
choices (the root move the first) must be the same on every deal it cannot tell apart, the other seat still chooses
knowing the deal.  These tests check the compiled search against a plain Python one written from that definition
(every strategy vector kept, nothing pruned), and the properties the definition implies."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

import pytest

from boneyard.chance import Chance
from boneyard.errors import OptionError
from boneyard.players.base import make_player
from boneyard.players.expert import fastsearch
from boneyard.players.expert.fastsearch import FastRoot
from boneyard.players.expert.sampling import fill_plan, sample_deal
from boneyard.players.expert.search import ExpertPlayer, Search
from boneyard.rules.base import make_rules
from boneyard.state import Game
from boneyard.tiles import Tile
from tests.helpers import heuristic_turns, play_players

pytestmark = pytest.mark.skipif(fastsearch._solve is None, reason="the compiled solver is not built")

OPTIONS = {"tie_rule": "no_score", "target": 1, "first_lead": "random_player_any_tile"}
Deal = Sequence[Sequence[Tile]]


def decisions(seeds: range, options: dict[str, object] | None = None,
              tiles: int = 14) -> Iterator[tuple[int, Search, FastRoot]]:
    """Every decision with a choice of two-player Block games between heuristic players (one per seed), where the
    compiled solver values the deals and at most ``tiles`` are left in the hands: (seed, the decision's search,
    its fast root)."""
    for seed in seeds:
        for view in heuristic_turns(make_rules("block", 2, OPTIONS if options is None else options), seed):
            if sum(view.hand_sizes) > tiles:
                continue
            search = Search(view, random.Random(seed))
            root = search.fast
            if root is not None and len(search.moves) > 1 and root._compiled:
                yield seed, search, root


def deals_of(search: Search, count: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    plan = fill_plan(search.info)
    return [sample_deal(search.info, rng, plan)[0] for _ in range(count)]


def undominated(vectors: list[dict[int, float]]) -> list[dict[int, float]]:
    """The distinct vectors that no other one matches or beats on every deal (a strategy reaching a dominated vector
    is never the best one, whatever comes after: the others' choices take the lowest deal by deal)."""
    distinct = {tuple(sorted(vector.items())): vector for vector in vectors}
    return [vector for vector in distinct.values()
            if not any(other is not vector and all(other[deal] >= value for deal, value in vector.items())
                       for other in distinct.values())]


class Definition:
    """Alpha-mu from its definition on the fast engine: each deal's position reached by replaying the public path
    from the root, every vector of per-deal values kept."""

    def __init__(self, root: FastRoot, deals: Sequence[Deal]) -> None:
        self.root, self.deals = root, deals

    def _at(self, deal: int, path: Sequence[int]) -> tuple[bool, int, list[int], float | None]:
        """On deal ``deal`` after ``path``: (in hand, the seat to move, its legal actions, the exact value)."""
        root, game = self.root, self.root.game
        root.load(self.deals[deal], [])
        for action in path:
            game.apply(action)
        try:
            if not game.in_hand:
                return False, -1, [], root.value()
            return True, game.turn, game.legal_actions(), None
        finally:
            for _ in path:
                game.undo()

    def _solved(self, deal: int, path: Sequence[int]) -> float:
        root, game = self.root, self.root.game
        root.load(self.deals[deal], [])
        for action in path:
            game.apply(action)
        try:
            return root.value() if not game.in_hand else root._solved()
        finally:
            for _ in path:
                game.undo()

    def front(self, path: list[int], alive: list[int], fuse: int) -> list[dict[int, float]]:
        """The vectors (deal → value) this seat's strategies reach from ``path`` on the ``alive`` deals."""
        states = {deal: self._at(deal, path) for deal in alive}
        if not states[alive[0]][0]:  # the hand is over (alike on every deal: what ends it is public)
            return [{deal: value for deal, (_, _, _, value) in states.items() if value is not None}]
        turn = states[alive[0]][1]
        if turn == self.root.me:
            actions = states[alive[0]][2]  # the seat's own choices are the same on every deal
            if len(actions) == 1:
                return self.front(path + actions, alive, fuse)
            return undominated([vector for action in actions
                                for vector in self.front([*path, action], alive, fuse - 1)])
        if fuse <= 0:
            return [{deal: self._solved(deal, path) for deal in alive}]
        combined: list[dict[int, float]] = [{}]
        for action in sorted({a for _, _, legal, _ in states.values() for a in legal}):
            where = [deal for deal in alive if action in states[deal][2]]
            child = self.front([*path, action], where, fuse)
            combined = undominated([{deal: min(v for v in (old.get(deal), new.get(deal)) if v is not None)
                                     for deal in alive if deal in old or deal in new}
                                    for old in combined for new in child])
        return combined

    def value(self, action: int, fuse: int) -> float:
        alive = list(range(len(self.deals)))
        vectors = self.front([action], alive, fuse - 1) if fuse > 1 else [
            {deal: self._solved(deal, [action]) for deal in alive}]
        return max(sum(vector.values()) for vector in vectors) / len(self.deals)


def test_fuse_one_is_the_mean_of_the_deals_solved_one_by_one() -> None:
    checked = 0
    for seed, search, root in decisions(range(4)):
        deals = deals_of(search, 10, seed)
        indices = list(range(len(search.moves)))
        together = root.evaluate_worlds(indices, deals, 1)
        assert together is not None
        alone = []
        for deal in deals:
            root.load(deal, [])
            values = root.evaluate_all(indices)
            assert values is not None
            alone.append(values)
        for index in indices:
            assert together[index] == pytest.approx(sum(row[index] for row in alone) / len(deals))
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("fuse", [2, 3])
def test_the_compiled_search_is_alpha_mu_by_its_definition(fuse: int) -> None:
    """Small batches (a few deals, from the middle of the hand on, where the definition's search is affordable):
    every root move's value is the best mean over the deals that one strategy of the seat reaches."""
    checked = differ = 0
    for seed, search, root in decisions(range(8), tiles=9):
        deals = deals_of(search, 3, seed)
        indices = list(range(len(search.moves)))
        compiled = root.evaluate_worlds(indices, deals, fuse, 10_000)
        assert compiled is not None
        definition = Definition(root, deals)
        for index in indices:
            expected = definition.value(root.actions[index], fuse)
            assert compiled[index] == pytest.approx(expected), (seed, index, fuse)
            plain = definition.value(root.actions[index], 1)
            differ += expected != pytest.approx(plain)
            checked += 1
    assert checked > 20
    assert differ > 0  # some strategy the deals alone would pick is not one strategy for them all


def test_knowing_less_is_worth_no_more_and_one_deal_is_known() -> None:
    """Fusing more choices can only lower a move's value (the seat decides with less; every vector kept), and on a
    single deal nothing is hidden: every ``fuse`` gives the exact value."""
    checked = lowered = 0
    for seed, search, root in decisions(range(6), tiles=11):
        deals = deals_of(search, 8, seed)
        indices = list(range(len(search.moves)))
        rows = [root.evaluate_worlds(indices, deals, fuse, 10_000) for fuse in (1, 2, 3, 16)]
        for upper, lower in itertools.pairwise(rows):
            assert upper is not None and lower is not None
            assert all(b <= a + 1e-9 for a, b in zip(upper, lower, strict=True))
        assert rows[0] is not None and rows[-1] is not None
        lowered += any(b < a - 1e-9 for a, b in zip(rows[0], rows[-1], strict=True))
        single = root.evaluate_worlds(indices, deals[:1], 16)
        root.load(deals[0], [])
        assert single == pytest.approx(root.evaluate_all(indices))
        checked += 1
    assert checked > 20 and lowered > 0


def test_a_search_with_fuse_values_its_moves_by_batches() -> None:
    """``samples=N`` searches N deals in batches; the values are the batches' alpha-mu values weighted by size."""
    for seed, search, _ in decisions(range(2)):
        fused = Search(search.view, random.Random(seed), fuse=3, race=False)
        fused.run(1.0, 40)
        assert fused.samples == 40
        assert fused.counts[0] == 40
        assert len(fused._batches) == 2  # 32 + 8
        return
    raise AssertionError("no decision found")


def test_the_solver_refuses_what_it_cannot_search() -> None:
    seed, search, root = next(decisions(range(1)))
    deals = deals_of(search, 2, seed)
    short = [list(hand) for hand in deals[1]]
    short[1 - root.me] = short[1 - root.me][:-1]
    with pytest.raises(ValueError, match="worlds"):
        root.evaluate_worlds([0], [deals[0], short], 2)  # the other seat's hands of different sizes
    with pytest.raises(ValueError, match="worlds"):
        root.evaluate_worlds([0], [], 2)


@pytest.mark.parametrize(("spec", "error"), [
    ("expert:fuse=0", "fuse=0 is not a whole number from 1 to 16"),
    ("expert:fuse=17", "fuse=17 is not a whole number from 1 to 16"),
    ("expert:fuse=2,defuse=1", "fuse above 1 does not go with defuse"),
    ("expert:fuse=3,deep=0.5", "fuse above 1 does not go with"),
])
def test_fuse_option_errors(spec: str, error: str) -> None:
    with pytest.raises(OptionError, match=error):
        make_player(spec)


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("block", 2, OPTIONS),
    ("block", 2, {}),
    ("draw", 2, {"target": 30}),
    ("block", 4, {"partnerships": True}),  # no single seat maximises: deal by deal, as without fuse
])
def test_whole_games_with_fuse(variant: str, players: int, options: dict[str, object]) -> None:
    game = Game(make_rules(variant, players, options), chance=Chance(3))
    seats = [ExpertPlayer(seed=seat, samples=12, fuse=3) if seat % 2 == 0 else make_player("heuristic", seed=seat)
             for seat in range(players)]
    assert play_players(game, seats) > 0
    assert game.finished


def test_no_batch_where_the_solver_holds_mixed_values() -> None:
    """A root whose solver table holds mixed choices (``deep``/``own``) is not searched by alpha-mu, whose searches of
    each deal would read those values as the deal's best play."""
    seed, search, root = next(decisions(range(1)))
    deals = deals_of(search, 4, seed)
    assert root.fuses() and root.evaluate_worlds([0], deals, 2) is not None
    root.mix = (0.5, 0.0)
    assert not root.fuses() and root.evaluate_worlds([0], deals, 2) is None
