"""The compiled kernel's random playouts of the variants that score during the hand: Bergen, Flower &
Scorpion and Double Bergen.

The kernel holds none of their rules: it looks a play's points up in tables that Python fills from the
rule functions (``FastGame.kernel_tables``).  Every traced kernel playout is replayed on the Python
engine action by action, from positions whose scores sit where the approach cap, the score floor and an
immediate win act (and outside the kernel's adjustment table), and whole games finished hand by hand in
the kernel are the games the Python loop plays.  ``tests/test_sim_engines.py`` checks ``simulate``.
"""

from __future__ import annotations

import random
from array import array

import pytest

from boneyard.chance import SplitMix
from boneyard.fast import FastGame, engine
from tests.test_fast import next_hand_in_and_out_of_the_kernel, replay_kernel_playout

try:
    from boneyard.fast import _kernel as compiled
except ImportError:  # built without a C compiler
    compiled = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(compiled is None, reason="the compiled kernel is not built (no C compiler)")

CONFIGS: list[tuple[str, int, dict[str, object]]] = [
    ("bergen", 2, {}),
    ("bergen", 3, {"approach_cap": False, "block_rule": "german"}),
    ("bergen", 4, {"cover_lead_double_first": True, "lead_rule": "rotate_any_tile"}),
    ("bergen", 2, {"cover_lead_double_first": True, "win_check": "immediate", "target": 9}),
    ("bergen", 3, {"set": 9, "win_check": "immediate", "winner_bonus": 5}),
    ("flower-scorpion", 2, {}),
    ("flower-scorpion", 3, {"long_pairs": "all_pairs", "double_scorpion_blocks_dual": "only_when_tile_played"}),
    ("flower-scorpion", 4, {"score_floor": None, "win_check": "immediate", "target": 10}),
    ("flower-scorpion", 2, {"win_check": "immediate", "target": 8, "lead_tile": "heaviest_double_in_hand"}),
    ("double-bergen", 2, {"lone_double_scores": True}),
    ("double-bergen", 3, {"win_check": "immediate", "target": 20, "spinner_sides_first": True}),
    ("double-bergen", 4, {"set": 9, "boneyard_reserve": 2}),
    ("double-bergen", 5, {"set": 9, "deal_sizes": [7], "end_scoring": "tile_penalty", "lone_double_scores": True,
                          "win_check": "immediate", "target": 15}),
]
IDS = [f"{v}-{p}p-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}" for v, p, o in CONFIGS]


def some_score(rng: random.Random, target: int) -> int:
    """A score where the scoring rules act: near the target (cap, immediate win), near zero (floor),
    or far outside the kernel's adjustment table (asked of Python every time)."""
    kind = rng.randrange(4)
    if kind == 0:
        return target - rng.randrange(0, 6)
    if kind == 1:
        return rng.randrange(-4, 4)
    if kind == 2:
        return rng.choice((-700, 700, target + 600))
    return rng.randrange(0, target)


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS, ids=IDS)
def test_traced_kernel_playouts_replay_on_the_python_engine(variant: str, players: int,
                                                            options: dict[str, object]) -> None:
    """At each step the same number of legal actions and the random player's choice among them; at
    the end the same hands, stock, play scores (floors and caps included), end and streams
    (:func:`tests.test_fast.replay_kernel_playout`)."""
    rng = random.Random(f"scoring{variant}{players}{options}")
    ends = set()
    for seed in range(40):
        fast = FastGame(variant, players, options=options, seed=seed)
        if seed % 2:  # (the other half from the game's start)
            fast.scores = [some_score(rng, fast._target) for _ in range(players)]
        for _ in range(rng.randrange(0, 10)):  # from the middle of a hand too
            if not fast.in_hand:
                break
            fast.apply(rng.choice(fast.legal_actions()))
        if not fast.in_hand:
            continue
        assert fast.kernel_plays
        ends.add(replay_kernel_playout(fast, [SplitMix(rng.getrandbits(64)) for _ in range(players)], seed))
    assert {"domino", "blocked"} & ends
    if options.get("win_check") == "immediate":
        assert "unfinished" in ends  # a play reached the target: the game ended at once


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS, ids=IDS)
def test_whole_games_finished_in_the_kernel_are_the_python_games(variant: str, players: int,
                                                                 options: dict[str, object],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Hand after hand to the game's end: ``finish_as_random`` in the kernel and in Python (no kernel)
    leave the same hands, scores, results and streams, and the Python side takes the same actions."""
    kernel = engine._kernel
    for seed in range(4):
        games = [FastGame(variant, players, options=options, seed=seed, deal=False) for _ in range(2)]
        streams = [[SplitMix(seed * 97 + seat) for seat in range(players)] for _ in range(2)]
        hands = 0
        while not games[0].finished and hands < 80:
            next_hand_in_and_out_of_the_kernel(games, streams, kernel, monkeypatch)
            hands += 1
        assert games[0].finished or hands == 80


def test_the_kernel_keeps_what_the_rule_functions_give_and_reuses_the_tables() -> None:
    """Every entry the kernel filled is what the table's function gives for its key; a second game
    of the same rules gets the same (filled) tables, and Flower & Scorpion one play table per dice."""
    for variant in ("bergen", "flower-scorpion", "double-bergen"):
        game = FastGame(variant, 3, seed=11)
        game.finish_as_random([SplitMix(seat) for seat in range(3)])
        tables = game.kernel_tables()
        assert tables is not None
        play, play_fn, adjust, adjust_fn = tables
        assert isinstance(play, array) and callable(play_fn)
        filled = [key for key, points in enumerate(play) if points != engine._MISS]
        assert filled
        for key in filled:  # the keys as FastGame.kernel_tables documents them
            if variant == "double-bergen":
                assert play[key] == play_fn(key)
                continue
            top, tiles = game.t.top, len(game.t.tiles)
            ends, tile = divmod(key, tiles) if variant == "flower-scorpion" else (key, 0)
            ends, k1 = divmod(ends, 3)
            ends, v1 = divmod(ends, top + 1)
            v0, k0 = divmod(ends, 3)
            assert play[key] == play_fn(tile, v0, k0, v1, k1), (variant, key)
        if adjust is not None:
            assert isinstance(adjust, array) and callable(adjust_fn)
            for slot, points in enumerate(adjust):
                if points != engine._MISS:
                    raw, score = divmod(slot, 2 * engine._ADJ_SCORES)
                    assert points == adjust_fn(raw - engine._ADJ_POINTS, score - engine._ADJ_SCORES)
        again = FastGame(variant, 3, seed=12)
        other = again.kernel_tables()
        assert other is not None
        if variant == "flower-scorpion" and again._dice != game._dice:
            assert other[0] is not play
        else:
            assert other[0] is play


def test_a_table_function_that_raises_stops_the_playout_with_its_error() -> None:
    fast = FastGame("bergen", 2, seed=3)
    tables = fast.kernel_tables()
    assert tables is not None
    play, _, adjust, adjust_fn = tables

    def broken(*ends: int) -> int:
        raise RuntimeError(f"no points for {ends}")

    fresh = array("i", [engine._MISS]) * len(play)
    with pytest.raises(RuntimeError, match="no points for"):
        compiled.rollout(fast.kernel_config(), fast.kernel_state(), [1, 2], False, (fresh, broken, adjust, adjust_fn))
    with pytest.raises(TypeError, match="array"):
        compiled.rollout(fast.kernel_config(), fast.kernel_state(), [1, 2], False, (bytearray(8), broken, None, None))
    with pytest.raises(ValueError, match="tables"):
        compiled.rollout(fast.kernel_config(), fast.kernel_state(), [1, 2], False, None)
