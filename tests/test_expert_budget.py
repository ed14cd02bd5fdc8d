"""Where the expert spends its budget: racing drops clearly worse moves, every deal is searched
where few are consistent, forced moves cost nothing, and the options that switch each off."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

import boneyard
from boneyard.errors import OptionError
from boneyard.players.base import make_player
from boneyard.players.expert import search
from boneyard.players.expert.inference import infer
from boneyard.players.expert.sampling import all_deals
from boneyard.state import Game
from boneyard.view import SeatView


def block_positions(placed: int) -> Iterator[Game]:
    """Two-player Block hands with at least ``placed`` tiles down and a choice to make (random play)."""
    for seed in itertools.count():
        game = boneyard.new_game("block", 2, seed=seed)
        rng = random.Random(seed)
        while game.in_hand and (len(game.layout.tiles) < placed or len(game.legal_moves()) < 2):
            game.apply(rng.choice(game.legal_moves()))
        if game.in_hand:
            yield game


def test_all_deals_lists_exactly_the_consistent_deals() -> None:
    for game in itertools.islice(block_positions(8), 6):
        view = SeatView(game, game.turn)
        info = infer(view)
        other = 1 - game.turn
        deals = all_deals(info, 10_000)
        assert deals is not None
        lacks = info.excluded(other)
        size = len(game.hands[other])
        expected = {frozenset(hand) for hand in itertools.combinations(info.unseen, size) if not lacks & set(hand)}
        found = [frozenset(hands[other]) for hands, _stock in deals]
        assert len(found) == len(set(found)) == len(expected) and set(found) == expected
        assert frozenset(game.hands[other]) in expected  # the real deal is among them
        for hands, stock in deals:
            assert hands[game.turn] == list(game.hands[game.turn]) and len(stock) == info.stock_count


def test_all_deals_gives_up_beyond_its_limit() -> None:
    game = next(block_positions(1))
    info = infer(SeatView(game, game.turn))
    assert all_deals(info, 48) is None  # seven hidden tiles among twenty: thousands of deals


def test_few_consistent_deals_are_each_searched_once_then_the_search_stops() -> None:
    for game in itertools.islice(block_positions(9), 10):
        view = SeatView(game, game.turn)
        found = search.Search(view, random.Random(0), race=False, read=False)
        if found.deals is None or len(found.moves) < 2:
            continue
        found.run(5.0, 1000)
        assert found.samples == len(found.deals) <= search.ENUMERATE
        assert found.counts == [len(found.deals)] * len(found.moves)
        return
    pytest.fail("no position with few consistent deals")


def test_reading_the_others_choices_keeps_each_deal_by_its_weight_and_the_likeliest_always() -> None:
    """With the others' choices read (:mod:`.plays`), each consistent deal is searched at most once, the
    likeliest always, and the search still stops when the list is done."""
    for game in itertools.islice(block_positions(9), 10):
        view = SeatView(game, game.turn)
        found = search.Search(view, random.Random(0), race=False)
        if found.deals is None or len(found.moves) < 2 or found.plays is None:
            continue
        weights = [found.plays.weight(hands) for hands, _ in found.deals]
        if len(set(weights)) < 2:
            continue  # every deal alike: nothing to show
        found.run(5.0, 1000)
        assert found._next_deal == len(found.deals)
        assert 1 <= found.samples <= len(found.deals)
        assert found.counts == [found.samples] * len(found.moves)
        assert max(weights) <= 1.0 and min(weights) > 0.0
        return
    pytest.fail("no position with few consistent deals and a choice to read")


def test_racing_drops_a_clearly_worse_move_and_stops_when_one_is_left() -> None:
    dropped = 0
    for seed, game in enumerate(itertools.islice(block_positions(3), 12)):
        view = SeatView(game, game.turn)
        racing = search.Search(view, random.Random(seed), read=False)  # every consistent deal comes
        if len(racing.moves) < 3:
            continue
        move = racing.run(5.0, 60)
        everything = search.Search(view, random.Random(seed), race=False, read=False)
        assert everything.run(5.0, 60) in everything.moves and everything.samples == 60
        assert everything.counts == [60] * len(everything.moves)  # without racing every move sees every deal
        assert move in racing.moves and racing.active[0] in range(len(racing.moves))
        if len(racing.active) < len(racing.moves):
            dropped += 1
            gone = [i for i in range(len(racing.moves)) if i not in racing.active]
            assert all(racing.counts[i] <= racing.samples for i in gone)
            dropped_early = any(racing.counts[i] < racing.samples for i in gone)
            assert dropped_early or racing.samples == 60
        if len(racing.active) == 1:
            assert racing.samples < 60  # one move left: the search stopped early
    assert dropped >= 2


def test_a_forced_move_costs_no_search() -> None:
    game = boneyard.new_game("block", 2, seed=3)
    rng = random.Random(3)
    while len(game.legal_moves()) != 1:
        game.apply(rng.choice(game.legal_moves()))
    player = make_player("expert:samples=50", seed=0)
    assert player.choose(SeatView(game, game.turn)) == game.legal_moves()[0]
    assert player.last is None  # type: ignore[attr-defined]


@pytest.mark.parametrize(("spec", "message"), [
    ("expert:race=2", "race=2 is not 0 or 1"),
    ("expert:read=2", "read=2 is not 0 or 1"),
    ("expert:bank=3", "bank=3 is not 0 or 1"),
    ("expert:defend=2", "defend=2 is not 0 or 1"),
    ("expert:equity=2", "equity=2 is not 0 or 1"),
    ("expert:defuse=2", "defuse=2 is not 0 or 1"),
    ("expert:playouts=random", "playouts='random' is not 'doubles' or 'greedy'"),
])
def test_bad_budget_options_are_refused(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_player(spec)


class FakeClock:
    """``time.perf_counter`` that moves only by ``step`` per reading: a search's budget in readings, not seconds."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def all_fives_position() -> SeatView:
    game = boneyard.new_game("all-fives", 2, seed=5)
    rng = random.Random(5)
    while game.in_hand and (len(game.layout.tiles) < 3 or len(game.legal_moves()) < 3):
        game.apply(rng.choice(game.legal_moves()))
    assert game.in_hand
    return SeatView(game, game.turn)


def test_banked_time_goes_to_a_decision_whose_top_moves_are_still_close(monkeypatch: pytest.MonkeyPatch) -> None:
    view = all_fives_position()
    counts = []
    for extra in (0.0, 0.05):
        monkeypatch.setattr(search.time, "perf_counter", FakeClock(0.0005))
        found = search.Search(view, random.Random(1), race=False, read=False)  # every move stays: always close
        found.run(0.05, None, extra)
        assert found.extended == extra
        counts.append(found.samples)
    assert counts[1] > counts[0] >= 1


def test_no_banked_time_where_one_move_is_left_or_every_deal_was_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search.time, "perf_counter", FakeClock(0.0005))
    for game in itertools.islice(block_positions(9), 10):
        found = search.Search(SeatView(game, game.turn), random.Random(0), race=False, read=False)
        if found.deals is None or len(found.moves) < 2:
            continue
        found.run(1000.0, None, 1000.0)
        assert found.exhausted() and found.extended == 0.0
        break
    else:
        pytest.fail("no position with few consistent deals")
    for seed, game in enumerate(itertools.islice(block_positions(3), 20)):
        found = search.Search(SeatView(game, game.turn), random.Random(seed), read=False)
        found.run(1000.0, None, 1000.0)
        if len(found.active) == 1:  # racing settled it: the budget's end found one move, nothing banked went in
            assert found.extended == 0.0
            return
    pytest.fail("racing settled no decision")


def test_the_bank_fills_with_unspent_time_up_to_its_cap_and_pays_for_extensions(monkeypatch: pytest.MonkeyPatch
                                                                                 ) -> None:
    game = boneyard.new_game("block", 2, seed=3)
    rng = random.Random(3)
    while len(game.legal_moves()) != 1:
        game.apply(rng.choice(game.legal_moves()))
    forced = SeatView(game, game.turn)
    clock = FakeClock(0.0)  # a forced move takes no time: its whole budget is banked
    monkeypatch.setattr(search.time, "perf_counter", clock)
    player = search.ExpertPlayer(seed=0, time=0.1, race=0)  # no racing: every decision stays close
    for _ in range(3):
        player.choose(forced)
    assert player.bank == pytest.approx(0.3)
    for _ in range(20):
        player.choose(forced)
    assert player.bank == pytest.approx(search.BANK_CAP * 0.1)
    clock.step = 0.0005
    player.choose(all_fives_position())  # a close decision: it spends up to (BANK_SPEND - 1) budgets more
    assert player.last is not None and player.last.extended == pytest.approx((search.BANK_SPEND - 1) * 0.1)
    assert player.bank < search.BANK_CAP * 0.1 - (search.BANK_SPEND - 1) * 0.1 + 1e-9
    assert not search.ExpertPlayer(time=0.1, bank=0).banking and not search.ExpertPlayer(samples=5).banking
