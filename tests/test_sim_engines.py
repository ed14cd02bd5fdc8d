"""``simulate`` and ``tournament`` play the same games on the fast engine as on the reference engine.

Every variant and option set the fast engine plays is simulated from the same seeds with the engine
forced to ``reference`` and to ``fast``; the summaries (wins, points, hands, blocked hands, placements,
moves, per-level statistics) must be identical, for random and greedy players and for tables where a
heuristic seat decides from a reference view while the others choose on the fast engine.  All-random
tables of every line game play whole hands in the compiled kernel: the same summaries again,
and the same as the pure-Python fallback (no kernel).  What makes the games the same is checked too:
``Chance.deal`` deals what a shuffle of the tiles themselves deals, and the random player's stream.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from boneyard import chance
from boneyard.chance import Chance, SplitMix, shuffle
from boneyard.errors import OptionError
from boneyard.fast import FastGame, engine, unsupported
from boneyard.players.base import GreedyPlayer, RandomPlayer, fast_order, move_order
from boneyard.rules.base import VARIANTS, make_rules
from boneyard.sim.engines import _Between, engine_for, rules_for
from boneyard.sim.simulate import simulate
from boneyard.sim.tournament import make_settings, results_only, run_tournament
from boneyard.state import Game
from boneyard.view import SeatView

CONFIGS: list[tuple[str, int, dict[str, object]]] = [
    ("block", 2, {}),
    ("block", 4, {"partnerships": True}),
    ("block", 3, {"set": 9, "blocked_score": "sum_of_differences", "lead_rule": "rotate"}),
    ("block", 3, {"first_lead": "random_player_any_tile", "lead_rule": "random", "tie_rule": "no_score"}),
    ("draw", 3, {}),
    ("draw", 2, {"allow_voluntary_draw": True, "boneyard_reserve": 2}),
    ("all-fives", 2, {}),
    ("all-fives", 3, {"spinner_mode": "all_doubles", "tie_rule": "split_3p"}),
    ("all-fives", 4, {"spinner_mode": "none", "bonus_rounding": "per_opponent"}),
    ("bergen", 3, {"block_rule": "american"}),
    ("bergen", 2, {"lead_rule": "rotate_any_tile", "win_check": "immediate"}),
    ("flower-scorpion", 2, {}),
    ("flower-scorpion", 4, {"long_pairs": "all_pairs", "lead_tile": "heaviest_double_in_hand"}),
    ("double-bergen", 3, {}),
    ("pip", 3, {}),
]
TIMING = ("seconds", "games_per_second", "engine")


def fast_configs() -> list[tuple[str, int, dict[str, object]]]:
    """The configurations the fast engine plays now (Double Bergen and PIP join when it does)."""
    return [config for config in CONFIGS if not unsupported(make_rules(*config))]


def without_timing(summary: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in summary.items() if key not in TIMING}


@pytest.mark.parametrize(("variant", "players", "options"), fast_configs())
@pytest.mark.parametrize("ai", ["random", "greedy,random"])
def test_simulate_same_results_on_both_engines(variant: str, players: int, options: dict[str, object],
                                               ai: str) -> None:
    runs = {engine: simulate(variant, players, 2, seed=17, ai=ai, options=options, workers=1, engine=engine)
            for engine in ("reference", "fast")}
    assert runs["fast"]["engine"] == "fast"
    assert runs["reference"]["engine"] == "reference"
    assert without_timing(runs["fast"]) == without_timing(runs["reference"])
    assert runs["fast"]["placements"] > 0


def test_a_view_player_at_a_fast_table_sees_the_same_game() -> None:
    """The heuristic decides from a reference view that follows the fast game move for move."""
    runs = [simulate("all-fives", 3, 3, seed=2, ai="heuristic,greedy,random", workers=1, engine=engine,
                     options={"target": 80}) for engine in ("reference", "fast")]
    assert without_timing(runs[0]) == without_timing(runs[1])


def test_results_do_not_depend_on_workers_on_the_fast_engine() -> None:
    one = simulate("block", 2, 40, seed=9, ai="greedy,random", workers=1, duplicate=True)
    two = simulate("block", 2, 40, seed=9, ai="greedy,random", workers=2, duplicate=True)
    assert one["engine"] == two["engine"] == "fast"
    assert without_timing(one) == without_timing(two)


def test_progress_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    simulate("block", 2, 7, seed=1, workers=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (7, 7)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_engine_choice_and_errors() -> None:
    with pytest.raises(OptionError, match="unknown engine 'turbo'"):
        simulate("block", 2, 1, engine="turbo")
    with pytest.raises(OptionError, match="unknown backend 'cloud'"):
        simulate("block", 2, 1, backend="cloud")
    refused = [config for config in CONFIGS if unsupported(make_rules(*config))]
    for variant, players, options in refused:
        rules = make_rules(variant, players, options)
        assert engine_for(rules) == "reference"
        with pytest.raises(OptionError, match="the fast engine does not play"):
            simulate(variant, players, 1, options=options, engine="fast")
    assert engine_for(make_rules("block", 2)) == "fast"
    assert engine_for(make_rules("block", 2), "reference") == "reference"


def test_rules_are_built_once_per_series_and_deal_the_whole_set() -> None:
    rules = rules_for("block", 2, {"target": 50})
    assert rules_for("block", 2, {"target": 50}) is rules
    assert rules_for("block", 2, {"target": 60}) is not rules
    assert sorted(rules.tile_set()) == sorted(make_rules("block", 2).tile_set())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_and_greedy_choose_the_same_move_on_both_engines(variant: str) -> None:
    """Position by position along random games: the same seed gives the same choice."""
    rules = make_rules(variant, 2 if variant != "pip" else 3)
    if unsupported(rules):
        pytest.skip(f"the fast engine does not play {variant} yet")
    rng = random.Random(variant)
    for game_number in range(3):
        game = Game(rules, chance=Chance(game_number))
        game.next_hand()
        while game.in_hand:
            fast = FastGame.from_game(game)
            view = SeatView(game, game.turn)
            moves = sorted(view.legal_moves(), key=move_order)
            assert [fast.to_move(action) for action in fast_order(fast, fast.legal_actions())] == moves
            for make in (RandomPlayer, GreedyPlayer):
                seed = rng.randrange(1000)
                assert fast.to_move(make(seed).choose_action(fast)) == make(seed).choose(view)
            game.apply(rng.choice(moves))


def test_tournament_same_records_on_both_engines(tmp_path: Path) -> None:
    settings = make_settings("all-fives", ["random", "greedy", "heuristic"], games=2, seed=5,
                             options={"target": 60})
    fast = run_tournament(settings, workers=1, engine="fast")
    reference = run_tournament(settings, workers=1, engine="reference")
    assert results_only(fast.records) == results_only(reference.records)
    assert [r["moves"] for r in fast.records] == [r["moves"] for r in reference.records]
    with pytest.raises(OptionError, match="unknown engine"):
        run_tournament(settings, workers=1, engine="warp", out=tmp_path)


def test_the_commands_take_an_engine() -> None:
    from typer.testing import CliRunner

    from boneyard.cli import app

    runner = CliRunner()
    args = ["simulate", "block", "--games", "3", "--seed", "2", "--workers", "1", "--json"]
    fast = runner.invoke(app, [*args, "--engine", "fast"])
    reference = runner.invoke(app, [*args, "--engine", "reference"])
    assert fast.exit_code == reference.exit_code == 0, fast.output + reference.output
    one, two = json.loads(fast.stdout), json.loads(reference.stdout)
    assert (one["engine"], two["engine"]) == ("fast", "reference")
    assert without_timing(one) == without_timing(two)
    bad = runner.invoke(app, [*args, "--engine", "turbo"])
    assert bad.exit_code == 2
    assert "unknown engine 'turbo'" in bad.output
    assert "Traceback" not in bad.output


KERNEL_CONFIGS = CONFIGS  #: the kernel plays every variant (PIP by pip_rollout)


@pytest.mark.parametrize(("variant", "players", "options"), KERNEL_CONFIGS)
def test_all_random_tables_play_whole_hands_in_the_kernel_with_the_same_results(
        variant: str, players: int, options: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled hands, the pure-Python fallback and the reference engine: one summary."""
    if not engine.KERNEL:
        pytest.skip("the compiled kernel is not built")
    hands: list[int] = []
    finish = FastGame.finish_as_random

    def counted(game: FastGame, streams: list[SplitMix]) -> int:
        hands.append(game.kernel_plays)
        return finish(game, streams)

    monkeypatch.setattr(FastGame, "finish_as_random", counted)
    compiled = simulate(variant, players, 3, seed=23, ai="random", options=options, workers=1, engine="fast")
    assert hands and all(hands)
    monkeypatch.setattr(engine, "_kernel", None)
    python = simulate(variant, players, 3, seed=23, ai="random", options=options, workers=1, engine="fast")
    reference = simulate(variant, players, 3, seed=23, ai="random", options=options, workers=1,
                         engine="reference")
    assert without_timing(compiled) == without_timing(python) == without_timing(reference)
    assert compiled["hands"] == len(hands)


def test_all_random_results_do_not_depend_on_workers() -> None:
    one = simulate("block", 2, 60, seed=4, ai="random", workers=1)
    two = simulate("block", 2, 60, seed=4, ai="random", workers=2)
    assert without_timing(one) == without_timing(two)


def test_a_seat_of_another_level_keeps_the_move_by_move_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[object] = []
    monkeypatch.setattr(FastGame, "finish_as_random", lambda *args: called.append(args))
    simulate("block", 2, 2, seed=1, ai="random,greedy", workers=1, engine="fast")
    assert called == []


def test_the_deal_is_a_shuffle_of_the_tiles_themselves() -> None:
    """``Chance.deal`` shuffles integers; the hands, stock, leader and dice are those a shuffle of
    the tile objects gives (the deals of earlier versions), for every variant's set, PIP's included."""
    for variant, players, options in CONFIGS:
        rules = make_rules(variant, players, options)
        for seed in range(5):
            chance, tiles_chance = Chance(seed), Chance(seed)
            for hand in range(3):
                between = _Between(rules, hand)
                deal = chance.deal(between)  # type: ignore[arg-type]
                tiles = list(rules.tile_set())
                size = rules.deal_size()
                while True:
                    tiles_chance.rng.shuffle(tiles)
                    hands = [sorted(tiles[s * size:(s + 1) * size], reverse=True) for s in range(players)]
                    if rules.acceptable_deal(hands):
                        break
                setup = chance.hand_setup(rules, deal)
                assert setup.deal == hands and setup.stock == tiles[players * size:], (variant, seed, hand)
                assert [sorted(h) for h in deal.hands] == [sorted(t.index for t in h) for h in hands]
                leader = tiles_chance.rng.randrange(players) if rules.random_leader_needed(between) else None  # type: ignore[arg-type]
                assert deal.leader == leader
                if rules.uses_dice:
                    assert deal.dice is not None
                    assert list(deal.dice.flower + deal.dice.scorpion) == [tiles_chance.rng.randint(1, 6)
                                                                           for _ in range(4)]
                assert chance.rng.getstate() == tiles_chance.rng.getstate()


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "python"])
def test_shuffle_is_random_shuffle(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled and not engine.KERNEL:
        pytest.skip("the compiled kernel is not built")
    if not compiled:
        monkeypatch.setattr(chance, "_compiled", lambda: None)
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (0, 1, 2, 28, 55, 70, 91):
            items, same = list(range(size)), list(range(size))
            shuffle(ours, items)
            theirs.shuffle(same)
            assert items == same
        assert ours.getstate() == theirs.getstate()


def test_splitmix_is_the_published_generator() -> None:
    """splitmix64 from seed 0 (Vigna's reference implementation): 0xE220A8397B1DCDAF first."""
    stream = SplitMix(0)
    assert stream.next() == 0xE220A8397B1DCDAF
    assert stream.next() == 0x6E789E6AA1B965F4
    below = SplitMix(7)
    picks = [below.below(6) for _ in range(6000)]
    assert set(picks) == set(range(6)) and all(800 < picks.count(n) < 1200 for n in range(6))
    single = SplitMix(9)
    assert single.pick(["only"]) == "only" and single.state == 9  # one item: the stream does not move


@pytest.mark.parametrize(("variant", "players", "options"), [*KERNEL_CONFIGS, ("all-fives", 3, {"set": 9})])
def test_a_hand_finished_in_the_kernel_is_the_hand_python_finishes(
        variant: str, players: int, options: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """``finish_as_random`` from the start and from the middle of hands: the compiled kernel and the
    pure-Python fallback take the same actions (same hands, stock, scores, end, moves and streams)."""
    if not engine.KERNEL:
        pytest.skip("the compiled kernel is not built")
    compiled = engine._kernel
    rng = random.Random(f"{variant}{players}{options}")
    for seed in range(30):
        games = [FastGame(variant, players, options=options, seed=seed) for _ in range(2)]
        for _ in range(rng.randrange(0, 10)):
            action = rng.choice(games[0].legal_actions())
            for game in games:
                game.apply(action)
        if not games[0].in_hand:
            continue
        outcomes = []
        for kernel in (compiled, None):
            monkeypatch.setattr(engine, "_kernel", kernel)
            game = games[kernel is None]
            assert game.kernel_plays == (kernel is not None)
            streams = [SplitMix(seed * 31 + seat) for seat in range(players)]
            moves = game.finish_as_random(streams)
            outcomes.append((moves, game.hands, game.stock_pos, game.placed, game.scores, game.last_end,
                             game.last_winner, game.finished, [stream.state for stream in streams]))
        assert outcomes[0] == outcomes[1], (variant, seed)


ENDLESS = {"end_scoring": "each_subtracts_own", "deal_sizes": 2, "set": 9}  # the scores only ever sink


def test_the_hand_limit_follows_the_target() -> None:
    from boneyard.sim.engines import hand_limit

    assert hand_limit(rules_for("all-fives", 2)) == 25_000  # 100 hands a point of 250
    assert hand_limit(rules_for("bergen", 2)) == 10_000  # at least 10,000
    assert hand_limit(rules_for("pip", 3)) == 10_000  # nine rounds end it anyway


@pytest.mark.parametrize("engine_name", ["fast", "reference"])
def test_a_game_that_cannot_end_is_given_up_with_a_clear_error(engine_name: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Found in session 17: All Fives where each seat's own pips come off its score, with hands of two tiles,
    never reaches its target, and ``simulate`` ran for ever.  It now stops at the hand limit and says why."""
    from boneyard.errors import BoneyardError
    from boneyard.sim import engines

    monkeypatch.setattr(engines, "HANDS_PER_POINT", 1)  # a limit of 300 hands, so the reference engine is quick
    monkeypatch.setattr(engines, "MIN_HAND_LIMIT", 300)
    with pytest.raises(BoneyardError, match=r"all-fives game dealt from seed \d+ was still going after 300 hands "
                                            r"\(scores -?\d+, -?\d+, -?\d+; target 200\): with these options it may "
                                            "never end"):
        simulate("all-fives", 3, 1, ai="greedy", options=ENDLESS, engine=engine_name)


def test_simulate_of_an_endless_game_exits_2_with_the_reason() -> None:
    from typer.testing import CliRunner

    from boneyard.cli import app

    options = [part for key, value in ENDLESS.items() for part in ("--option", f"{key}={value}")]
    result = CliRunner().invoke(app, ["simulate", "all-fives", "--players", "3", "--games", "1", *options])
    assert result.exit_code == 2
    assert "was still going after 20,000 hands" in result.output
    assert "choose options that let a side reach the target" in result.output
