"""The compiled kernel's random playouts of PIP (``_kernel.pip_rollout``, ``FastPip.finish_as_random``).

The kernel holds only the move mechanics: the owed doubles and the directional tiles' effects come from
tables filled from :mod:`boneyard.rules.pip`'s functions (``FastPip.pip_kernel_config``), and hand values,
the round winner and the game's end are Python's after the kernel returns.  Every traced kernel round is
replayed on the Python ``FastPip`` action by action, from the start and the middle of rounds one to nine;
whole games finished round by round in the kernel are the games the Python loop plays.
``tests/test_sim_engines.py`` checks all-random ``simulate pip``.
"""

from __future__ import annotations

import random

import pytest

from boneyard.chance import SplitMix
from boneyard.fast import FastGame, engine
from boneyard.fast.pip import SPAN, FastPip, _settle_table, action_tile
from boneyard.players.base import fast_order
from boneyard.rules.pip import TOE_PLAYS, directional_effect, settle_doubles
from boneyard.tiles import LETTERS
from tests.test_fast import next_hand_in_and_out_of_the_kernel

try:
    from boneyard.fast import _kernel as compiled
except ImportError:  # built without a C compiler
    compiled = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(compiled is None, reason="the compiled kernel is not built (no C compiler)")

CONFIGS: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (2, {"two_player_reverse_skips": True, "draw_tile_skips": True, "directional_value": 25}),
    (3, {"letter_end": "open_wild"}),
    (4, {"nested_double": "forbid", "two_player_reverse_skips": True}),
    (5, {"nested_double": "forbid", "directional_value": 25}),
    (7, {"draw_tile_skips": True, "letter_end": "open_wild"}),
]
IDS = [f"{p}p-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}" for p, o in CONFIGS]


def some_position(players: int, options: dict[str, object], seed: int, rng: random.Random) -> FastPip:
    """A round in progress: round one to nine (earlier rounds played at random), some actions in, and
    for a third of the seeds the stock dealt out to the hands."""
    fast = FastGame("pip", players, options=options, seed=seed)
    assert isinstance(fast, FastPip)
    for _ in range(rng.randrange(0, 9)):
        fast.playout(rng)
        if fast.finished:
            break
        fast.next_hand()
    for _ in range(rng.randrange(0, 40)):
        if not fast.in_hand:
            break
        fast.apply(rng.choice(fast.legal_actions()))
    if seed % 3 == 0 and fast.placed and not fast.forced_draw:  # the stock handed out: a D tile makes its player give
        for position in range(fast.stock_pos, len(fast.stock)):
            fast.hands[position % players] |= 1 << fast.stock[position]
        fast.stock_pos = len(fast.stock)
        fast.drop_history()
    return fast


def replay_pip_playout(fast: FastPip, streams: list[SplitMix], where: object) -> set[str]:
    """Play the rest of ``fast``'s round in the kernel with a trace and replay it on ``fast``: at each
    step the same legal actions in the random player's order (``players.base.fast_order``) and the seat's
    stream's pick; at the end the same position, owed doubles and streams.  What the round went through."""
    end, seat, scalars, hands, shown, free, open_words, pending, moves, states, trace = compiled.pip_rollout(
        fast.pip_kernel_config(), fast.kernel_state(), [stream.state for stream in streams], True)
    assert trace is not None and len(trace) == moves
    seen = set()
    for count, action in trace:
        legal = fast.legal_actions()
        order = fast.choice_order(legal)
        assert count == len(legal) and order == fast_order(fast, legal), (where, fast.placed)
        assert action == streams[fast.turn].pick(order), (where, fast.placed)
        if action >= fast.give_base:
            seen.add("give")
        elif fast.forced_draw:
            seen.add("forced draw")
        elif len(fast.pending) > 1:
            seen.add("owed doubles stacked")
        elif fast.direction < 0:
            seen.add("reversed")
        fast.apply(action)
    assert [stream.state for stream in streams] == states
    assert not fast.in_hand
    assert fast.last_end == ("domino", "blocked")[end]
    assert fast.last_winner == seat
    assert fast.hands == [hands[2 * s] | hands[2 * s + 1] << 64 for s in range(fast.players)]
    assert (fast.turn, fast.direction, fast.passes, fast.drawn, fast.placed, fast.stock_pos, int(fast.forced_draw),
            int(fast.give_pending)) == scalars
    assert (fast.shown, fast.free, fast.open_mask) == (shown, free, open_words[0] | open_words[1] << 64)
    assert fast.pending == tuple(zip(pending[::2], pending[1::2], strict=True))
    return seen | {fast.last_end}


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=IDS)
def test_traced_kernel_rounds_replay_on_the_python_engine(players: int, options: dict[str, object]) -> None:
    rng = random.Random(f"pip{players}{options}")
    seen: set[str] = set()
    rounds = set()
    for seed in range(40):
        fast = some_position(players, options, seed, rng)
        if not fast.in_hand:
            continue
        rounds.add(fast.hand_number)
        seen |= replay_pip_playout(fast, [SplitMix(rng.getrandbits(64)) for _ in range(players)], seed)
    assert {"domino", "forced draw", "give", "reversed"} <= seen, seen
    assert len(rounds) >= 5
    if options.get("nested_double") != "forbid":
        assert "owed doubles stacked" in seen


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=IDS)
def test_greedy_kernel_rounds_follow_the_policy_on_the_python_engine(players: int, options: dict[str, object]) -> None:
    """The expert's greedy playouts of PIP in the kernel (``FastPip.greedy_finishes``): replayed on the Python
    engine, every action is legal and places or gives a tile of the highest rank (a draw or pass only where
    nothing else is legal); the hands end alike and ``finish_outcome`` scores the end as the engine's own round
    end does.  The position is left untouched."""
    rng = random.Random(f"greedy-pip{players}{options}")
    choices = 0
    for seed in range(24):
        fast = some_position(players, options, seed, rng)
        if not fast.in_hand:
            continue
        ranks = [rng.randrange(40) for _ in range(SPAN)]
        before = (list(fast.hands), list(fast.stock), fast.stock_pos, list(fast.scores), fast.turn, fast.placed)
        results = fast.greedy_finishes(ranks, rng.getrandbits(64), 2, trace=True)
        assert (fast.hands, fast.stock, fast.stock_pos, fast.scores, fast.turn, fast.placed) == before
        for end, seat, hands, scores, trace in results:
            assert trace is not None and scores == before[3]
            actions, stock = trace
            assert sorted(stock[fast.stock_pos:]) == sorted(before[1][fast.stock_pos:])
            fast.stock[:] = stock
            for action in actions:
                legal = fast.legal_actions()
                assert action in legal, (seed, fast.placed)
                if len(legal) > 1:
                    choices += 1
                    keys = [ranks[action_tile(a)] if a < fast.draw
                            else ranks[a - fast.give_base] if a >= fast.give_base else -1 for a in legal]
                    assert keys[legal.index(action)] == max(keys), (seed, fast.placed)
                fast.apply(action)
            assert not fast.in_hand and fast.hands == hands
            assert fast.last_end == ("domino", "blocked")[end] and fast.last_winner == seat
            assert fast.finish_outcome(end, seat, hands, scores) == (
                fast.scores, fast.finished, fast.winner, fast.last_winner)
            for _ in actions:
                fast.undo()
            fast.stock[:] = before[1]
            assert (fast.hands, fast.scores, fast.stock_pos, fast.turn) == (before[0], before[3], before[2], before[4])
    assert choices > 20


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=IDS)
def test_whole_games_finished_in_the_kernel_are_the_python_games(players: int, options: dict[str, object],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Round after round to the game's end: ``finish_as_random`` in the kernel and in Python (no kernel)
    leave the same hands, stock, scores, results and streams."""
    kernel = engine._kernel
    for seed in range(3):
        games = [FastGame("pip", players, options=options, seed=seed, deal=False) for _ in range(2)]
        streams = [[SplitMix(seed * 131 + seat) for seat in range(players)] for _ in range(2)]
        while not games[0].finished:
            next_hand_in_and_out_of_the_kernel(games, streams, kernel, monkeypatch)
        assert games[1].finished and games[0].hand_number == 9


def test_the_kernel_tables_are_what_the_rule_functions_give() -> None:
    fast = FastGame("pip", 3, options={"two_player_reverse_skips": True}, seed=2)
    assert isinstance(fast, FastPip)
    config = fast.pip_kernel_config()
    letters, high, letter_of, effect = config[14], config[15], config[17], config[19]
    assert isinstance(letters, list) and isinstance(high, list) and isinstance(letter_of, list)
    assert isinstance(effect, list) and len(effect) == 4 * 3 * 2 * 71
    assert sorted(letters) == sorted(LETTERS)
    assert all(letter_of[t] == (letters.index(h) if h in LETTERS else -1) for t, h in enumerate(high))
    for key, packed in enumerate(effect):
        rest, left = divmod(key, 71)
        rest, backwards = divmod(rest, 2)
        letter, seat = divmod(rest, 3)
        turn, direction, forced, give = directional_effect(letters[letter], seat, 3, -1 if backwards else 1, left, True)
        assert packed == turn << 4 | (direction + 1) << 2 | forced << 1 | give
    table = _settle_table()
    stacks = [(), ((5, 2),), ((5, 1),), ((3, 1), (5, TOE_PLAYS)), ((4, 3), (5, 1))]
    for pending in stacks:
        for parent in (5, 6):
            for owes in (False, True):
                owed = pending[-1][1] if pending else 0
                packed = table[(owed * 2 + (bool(pending) and parent == 5)) * 2 + owes]
                kept, pushed = packed >> 4, packed & 15
                expected = pending[:-1] + (((5, kept),) if kept else ()) if pending else ()
                expected += ((9, pushed),) if pushed else ()
                assert settle_doubles(pending, parent, 9, owes) == expected, (pending, parent, owes)


def test_the_kernel_refuses_a_malformed_round() -> None:
    fast = FastGame("pip", 2, seed=1)
    assert isinstance(fast, FastPip)
    config = fast.pip_kernel_config()
    with pytest.raises(ValueError, match="config needs 20 items"):
        compiled.pip_rollout(config[:5], fast.kernel_state(), [1, 2], False)
    with pytest.raises(ValueError, match="streams: one per seat"):
        compiled.pip_rollout(config, fast.kernel_state(), [1], False)
    state = list(fast.kernel_state())
    state[3] = 5  # the seat on turn
    with pytest.raises(ValueError, match="inconsistent state"):
        compiled.pip_rollout(config, tuple(state), [1, 2], False)
