"""The fast engine against the reference: the same legal moves, scores and winners, move for move.

Every game — every variant and player count, with every rule option in some configuration — is played on a
reference :class:`~boneyard.state.Game` and a :class:`~boneyard.fast.FastGame` (a ``FastPip`` for PIP) side by
side with random moves; after each move both must agree on the legal move set, the turn, every hand, the
stock, the scores, whether the hand and game are over, the hand result and the game winner.  Undo is checked
by taking back whole hands and comparing again.

``BONEYARD_FAST_GAMES=N`` (or ``-m slow``) raises the number of games: ``tests/test_fast.py::
test_millions_of_random_moves`` plays until a million moves have been compared.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable

import pytest

import boneyard
from boneyard.chance import SplitMix
from boneyard.errors import IllegalMoveError, OptionError, VariantError
from boneyard.fast import FastGame, bits, engine, tables, unsupported
from boneyard.moves import Kind, Move
from boneyard.state import Game
from boneyard.tiles import D

try:
    from boneyard.fast import _kernel as compiled
except ImportError:  # built without a C compiler
    compiled = None  # type: ignore[assignment]

CONFIGS: list[tuple[str, int, dict[str, object]]] = [
    ("block", 2, {}),
    ("block", 3, {}),
    ("block", 4, {}),
    ("block", 4, {"partnerships": True}),
    ("block", 2, {"blocked_score": "opponents_minus_own", "tie_rule": "no_score"}),
    ("block", 3, {"blocked_score": "sum_of_differences", "lead_rule": "rotate"}),
    ("block", 3, {"blocked_score": "all_pips", "first_lead": "random_player_any_tile", "lead_rule": "random"}),
    ("block", 4, {"set": 9}),
    ("draw", 2, {}),
    ("draw", 4, {"boneyard_reserve": 2}),
    ("draw", 3, {"allow_voluntary_draw": True, "target": 50}),
    ("draw", 2, {"end_on_dead_layout": True}),
    ("draw", 4, {"end_on_dead_layout": True, "deal_sizes": [3]}),
    ("all-fives", 2, {}),
    ("all-fives", 3, {"tie_rule": "split_3p", "bonus_rounding": "per_opponent"}),
    ("all-fives", 4, {"spinner_mode": "none"}),
    ("all-fives", 2, {"spinner_mode": "all_doubles", "score_unit": "fives"}),
    ("all-fives", 2, {"blocked_score": "opponents_minus_own", "win_check": "end_of_hand"}),
    ("all-fives", 3, {"end_scoring": "each_subtracts_own", "allow_voluntary_draw": True}),
    ("all-fives", 2, {"set": 9, "spinner_mode": "all_doubles", "boneyard_reserve": 1}),
    ("bergen", 2, {}),
    ("bergen", 3, {"block_rule": "american", "winner_bonus": 5}),
    ("bergen", 4, {"block_rule": "german", "approach_cap": False, "lead_rule": "highest_double"}),
    ("bergen", 2, {"lead_rule": "rotate_any_tile", "boneyard_reserve": 0, "win_check": "immediate"}),
    ("bergen", 3, {"set": 9, "winner_bonus": 1, "target": 25}),
    ("bergen", 2, {"cover_lead_double_first": True}),
    ("bergen", 4, {"cover_lead_double_first": True, "lead_rule": "rotate_any_tile"}),
    ("double-bergen", 2, {}),
    ("double-bergen", 3, {}),
    ("double-bergen", 4, {}),
    ("double-bergen", 2, {"lone_double_scores": True, "spinner_sides_first": True, "target": 40}),
    ("double-bergen", 3, {"end_scoring": "tile_penalty", "boneyard_reserve": 2, "target": 30}),
    ("double-bergen", 4, {"set": 9, "win_check": "immediate", "target": 30}),
    ("double-bergen", 5, {"set": 9, "deal_sizes": [7], "target": 25}),
    ("flower-scorpion", 2, {}),
    ("flower-scorpion", 3, {"long_pairs": "all_pairs", "double_scorpion_blocks_dual": "only_when_tile_played",
                            "cancel_affects_block": True}),
    ("flower-scorpion", 4, {"lead_tile": "heaviest_double_in_hand", "lowest_double_mode": "lowest_total_with_double",
                            "score_floor": None, "winner_bonus": 1}),
    ("flower-scorpion", 2, {"win_check": "immediate", "target": 12}),
    ("block", 4, {"partnerships": True, "partnership_block": "lowest_hand"}),
    ("pip", 2, {}),
    ("pip", 3, {}),
    ("pip", 4, {}),
    ("pip", 5, {"letter_end": "open_wild"}),
    ("pip", 6, {"nested_double": "forbid", "draw_tile_skips": True}),
    ("pip", 7, {}),
    ("pip", 2, {"two_player_reverse_skips": True, "directional_value": 25, "letter_end": "open_wild"}),
    ("pip", 3, {"draw_tile_skips": True, "nested_double": "forbid"}),
]
#: the compiled kernel plays every line game (not PIP)
KERNEL_VARIANTS = ("block", "draw", "all-fives", "bergen", "flower-scorpion", "double-bergen")

GAMES = int(os.environ.get("BONEYARD_FAST_GAMES", "6"))


def legal_set(fast: FastGame) -> set[Move]:
    moves = [fast.to_move(action) for action in fast.legal_actions()]
    assert len(moves) == len(set(moves)), f"duplicate fast moves {moves}"
    return set(moves)


def check_same(game: Game, fast: FastGame, where: str) -> None:
    assert fast.scores == game.scores, where
    assert fast.in_hand == game.in_hand, where
    assert fast.finished == game.finished, where
    assert fast.winner == game.winner, where
    if game.in_hand:
        assert fast.turn == game.turn, where
        assert legal_set(fast) == set(game.legal_moves()), where
        for seat in range(game.players):
            assert sorted(fast.tiles_of(seat)) == sorted(game.hands[seat]), where
        assert fast.stock_left == game.stock_left, where
    else:
        result = game.hand.result
        assert result is not None
        assert fast.last_winner == result.winner, where
        assert fast.last_end == result.end, where


def play_both(variant: str, players: int, options: dict[str, object], seed: int, rng: random.Random,
              check_undo: bool = True, prefer: Callable[[Game, Move], int] | None = None) -> int:
    """One whole game on both engines; returns the number of moves compared.  With ``prefer``, a
    random one of the legal moves it ranks highest is taken."""
    game = boneyard.new_game(variant, players, seed=seed, options=options)
    fast = FastGame.from_game(game)
    moves = 0
    while True:
        where = f"{variant} {players}p {options} seed {seed}, hand {len(game.log)}, move {len(game.hand.events)}"
        check_same(game, fast, where)
        if game.finished:
            return moves
        if not game.in_hand:
            if check_undo:
                take_back_hand(game, fast, where)
            game.next_hand()
            setup = game.hand.setup
            dice = (setup.dice.flower, setup.dice.scorpion) if setup.dice is not None else None
            fast.start_hand([[t.index for t in hand] for hand in setup.deal], [t.index for t in setup.stock],
                            setup.leader, dice)
            continue
        legal = game.legal_moves()
        if prefer is not None:
            best = max(prefer(game, m) for m in legal)
            legal = [m for m in legal if prefer(game, m) == best]
        move = rng.choice(legal)
        event = game.apply(move)
        points = fast.apply(fast.from_move(move))
        assert points == event.points, where
        moves += 1


def take_back_hand(game: Game, fast: FastGame, where: str) -> None:
    """Undo the whole finished hand on both engines, comparing at every step, then replay it."""
    events = list(game.hand.events)
    for _ in events:
        game.undo()
        fast.undo()
        check_same(game, fast, where + " (undo)")
    for event in events:
        game.apply(event.move)
        fast.apply(fast.from_move(event.move))
    check_same(game, fast, where + " (redo)")


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS,
                         ids=[f"{v}-{p}p-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}"
                              for v, p, o in CONFIGS])
def test_fast_engine_matches_reference_move_for_move(variant: str, players: int, options: dict[str, object]) -> None:
    rng = random.Random(f"{variant}{players}{options}")
    total = 0
    for seed in range(GAMES):
        total += play_both(variant, players, options, seed, rng)
    assert total > 0


def test_pip_directional_tiles_gives_and_forced_draws_match() -> None:
    """PIP games whose players play S, R, A and D tiles whenever they can (so D tiles meet an empty
    stock and make their players give, and the stock runs dry early), on both engines."""
    gives = 0

    def letter(game: Game, move: Move) -> int:
        """D tiles are kept for an empty stock, the other letters played at once."""
        nonlocal gives
        gives += move.kind == Kind.GIVE
        if move.tile is None or move.tile.letter is None:
            return 1
        if move.tile.letter == D:
            return 3 if game.stock_left == 0 else 0
        return 2

    rng = random.Random(12)
    for seed in range(GAMES):
        for players, options in ((7, {}), (3, {"draw_tile_skips": True, "two_player_reverse_skips": True}),
                                 (2, {"two_player_reverse_skips": True, "letter_end": "open_wild"})):
            play_both("pip", players, options, seed, rng, prefer=letter)
    assert gives > 0


@pytest.mark.slow
def test_millions_of_random_moves() -> None:
    """A million compared moves over every configuration (about ten minutes of CPU)."""
    target = int(os.environ.get("BONEYARD_FAST_MOVES", "1000000"))
    rng = random.Random(2024)
    total = seed = 0
    while total < target:
        for variant, players, options in CONFIGS:
            total += play_both(variant, players, options, 1000 + seed, rng, check_undo=seed % 4 == 0)
        seed += 1


def test_undo_restores_every_action_of_a_hand() -> None:
    fast = FastGame("all-fives", 2, seed=11)
    before = (list(fast.hands), fast.turn, list(fast.scores))
    taken = fast.playout(random.Random(5))
    assert not fast.in_hand
    for _ in range(taken):
        fast.undo()
    assert (list(fast.hands), fast.turn, list(fast.scores)) == before
    assert fast.in_hand and fast.placed == 0
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        fast.undo()


def test_actions_are_integers_in_a_fixed_space() -> None:
    fast = FastGame("all-fives", 4, options={"spinner_mode": "all_doubles"}, seed=2)
    assert fast.arms == 2 + 2 * 7
    assert fast.draw == 28 * fast.arms and fast.passing == fast.draw + 1
    for _ in range(50):
        for action in fast.legal_actions():
            assert isinstance(action, int) and 0 <= action <= fast.passing
        if not fast.in_hand:
            break
        fast.apply(fast.legal_actions()[0])


def test_partnership_block_deals_every_tile_and_shares_the_score() -> None:
    fast = FastGame("block", 4, options={"partnerships": True}, seed=8)
    assert all(hand.bit_count() == 7 for hand in fast.hands) and fast.stock_left == 0
    assert fast.lead_tile == Move.lead(tables(6).tiles[27]).tile.index  # type: ignore[union-attr]
    fast.playout()
    winner = fast.last_winner
    if winner is not None:
        assert fast.scores[winner] == fast.scores[(winner + 2) % 4] > 0


def some_position(fast: FastGame, moves: int, rng: random.Random) -> FastGame | None:
    """``fast`` after up to ``moves`` random actions of its first hand, or ``None`` if that hand ended."""
    for _ in range(moves):
        if not fast.in_hand:
            break
        fast.apply(rng.choice(fast.legal_actions()))
    return fast if fast.in_hand else None


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "python"])
@pytest.mark.parametrize(("variant", "players"), [("block", 4), ("draw", 3), ("all-fives", 2)])
def test_determinize_keeps_sizes_own_hand_and_known_voids(variant: str, players: int, compiled: bool,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled and not engine.KERNEL:
        pytest.skip("the compiled kernel is not built")
    if not compiled:
        monkeypatch.setattr(engine, "_kernel", None)
    rng = random.Random(3)
    changed = 0
    for seed in range(40):
        fast = some_position(FastGame(variant, players, seed=seed), rng.randrange(4, 14), rng)
        if fast is None:
            continue
        seat = fast.turn
        own = fast.hands[seat]
        sizes = [hand.bit_count() for hand in fast.hands]
        unseen = sum(fast.hands) - own | sum(1 << t for t in fast.stock[fast.stock_pos:])
        voids = list(fast.void)
        before = list(fast.hands)
        fast.determinize(seat, rng)
        changed += fast.hands != before
        assert fast.hands[seat] == own
        assert [hand.bit_count() for hand in fast.hands] == sizes
        assert sum(fast.hands) - own | sum(1 << t for t in fast.stock[fast.stock_pos:]) == unseen
        for other in range(players):
            if other != seat:
                for tile in bits(fast.hands[other]):
                    t = fast.t
                    assert not (voids[other] >> t.high[tile] & 1 or voids[other] >> t.low[tile] & 1)
        fast.playout(rng)
    assert changed > 10


def test_every_variant_and_option_runs_fast_and_unknown_variants_are_refused() -> None:
    for name, cls in boneyard.VARIANTS.items():
        assert unsupported(cls(cls.min_players)) == [], name
    with pytest.raises(VariantError, match="unknown variant"):
        FastGame("dominoes", 2)
    with pytest.raises(OptionError, match="declared_on_play"):
        FastGame("pip", 2, options={"open_wild_end": "declared_on_play"})
    with pytest.raises(VariantError, match="kernel does not play"):
        FastGame("draw", 2, options={"end_on_dead_layout": True}).kernel_config()
    with pytest.raises(VariantError, match="kernel does not play"):
        FastGame("bergen", 2, options={"set": 12}, seed=1).kernel_config()


def test_own_deals_of_bergen_and_flower_scorpion() -> None:
    """The fast engine deals its own Bergen hands (a double always leads) and F&S rounds (dice rolled,
    the caravan master moving left), and plays whole games to a winner."""
    for variant in ("bergen", "flower-scorpion"):
        fast = FastGame(variant, 3, seed=5)
        masters = []
        while not fast.finished:
            if not fast.in_hand:
                fast.next_hand()
            masters.append(fast.leader)
            if variant == "bergen":
                assert fast.lead_tile >= 0 and fast.t.is_double[fast.lead_tile]
                assert all(not hand >> tile & 1 for hand in fast.hands for tile in range(fast.lead_tile)
                           if fast.t.is_double[tile])  # the lowest double dealt leads
            else:
                assert 0 <= fast.flower < 28 and 0 <= fast.scorpion < 28
                assert fast.t.high[fast.flower] <= 6 and fast.t.low[fast.flower] >= 1  # dice never show a blank
            fast.playout()
        assert fast.winner is not None and fast.scores[fast.winner] >= fast.rules.target  # type: ignore[attr-defined]
        if variant == "flower-scorpion":
            assert all((b - a) % 3 == 1 for a, b in itertools.pairwise(masters))


def test_from_move_rejects_a_move_with_no_open_end() -> None:
    game = boneyard.new_game("block", 2, seed=4)
    fast = FastGame.from_game(game)
    fast.apply(fast.legal_actions()[0])
    with pytest.raises(IllegalMoveError, match="no open"):
        fast.from_move(Move.parse("6-0@5"))


#: the kernel plays the line games up to double-nine
KERNEL_CONFIGS = [c for c in CONFIGS
                  if c[2].get("set", 6) != 12 and c[0] in KERNEL_VARIANTS and not c[2].get("end_on_dead_layout")]


@pytest.mark.skipif(not engine.KERNEL, reason="the compiled kernel is not built (no C compiler)")
@pytest.mark.parametrize(("variant", "players", "options"), KERNEL_CONFIGS,
                         ids=[f"{v}-{p}p-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}"
                              for v, p, o in KERNEL_CONFIGS])
def test_compiled_kernel_plays_by_the_python_engine(variant: str, players: int, options: dict[str, object]) -> None:
    """Every traced kernel playout replays on the Python engine: at each step the same number of
    legal actions, the kernel's choice among them (the one the seat's stream picks from the legal
    actions in choice order, as the random player does), and the same final hands, play scores, end
    and streams."""
    rng = random.Random(f"kernel{variant}{players}{options}")
    for seed in range(GAMES * 5):
        # start the kernel from the middle of a hand too
        fast = some_position(FastGame(variant, players, options=options, seed=seed), rng.randrange(0, 12), rng)
        if fast is None:
            continue
        replay_kernel_playout(fast, [SplitMix(rng.getrandbits(64)) for _ in range(players)], (variant, seed))


@pytest.mark.skipif(not engine.KERNEL, reason="the compiled kernel is not built (no C compiler)")
@pytest.mark.parametrize(("variant", "players", "options"), KERNEL_CONFIGS,
                         ids=[f"{v}-{p}p-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}"
                              for v, p, o in KERNEL_CONFIGS])
def test_compiled_greedy_playouts_follow_the_policy_and_the_rules(variant: str, players: int,
                                                                  options: dict[str, object]) -> None:
    """Every greedy kernel playout (the expert's policy, ``greedy_finishes``) replays on the Python engine: each
    action is legal and has the best key among the legal actions (the points it scores now where plays score,
    then the rank; a draw or pass only when nothing can be placed), the hands and the play scores end alike, and
    ``finish_outcome`` scores the end as the Python engine's own hand end does.  The position is left untouched."""
    rng = random.Random(f"greedy{variant}{players}{options}")
    ranks_seen = reshuffled = 0
    for seed in range(GAMES * 3):
        fast = some_position(FastGame(variant, players, options=options, seed=seed), rng.randrange(0, 12), rng)
        if fast is None:
            continue
        ranks = [rng.randrange(64) for _ in fast.t.tiles]
        before = (list(fast.hands), list(fast.stock), fast.stock_pos, list(fast.scores), fast.turn, fast.placed)
        defend = rng.randrange(1 << players) if seed % 2 else 0  # some seats' points less the next seat's reply
        results = fast.greedy_finishes(ranks, rng.getrandbits(64), 3, trace=True, defend=defend)
        assert results[0][4] is not None and results[0][4][1] == before[1]  # the first plays the stock as it is
        assert (fast.hands, fast.stock, fast.stock_pos, fast.scores, fast.turn, fast.placed) == (
            before[0], before[1], before[2], before[3], before[4], before[5])
        assert len(results) == 3
        for end, seat, hands, scores, trace in results:
            assert trace is not None
            actions, stock = trace
            assert sorted(stock[fast.stock_pos:]) == sorted(before[1][fast.stock_pos:])
            reshuffled += stock != before[1]
            fast.stock[fast.stock_pos:] = stock[fast.stock_pos:]
            for action in actions:
                legal = fast.legal_actions()
                assert action in legal, (variant, seed, fast.placed)
                if len(legal) > 1:
                    ranks_seen += 1
                    points = fast.placement_points(legal) if fast.scores_during_hand else [0] * len(legal)
                    if defend >> fast.turn & 1:
                        points = [p - best_reply(fast, a) if a < fast.draw else p
                                  for a, p in zip(legal, points, strict=True)]
                    keys = [p * 4096 + ranks[a // fast.arms] if a < fast.draw else -(1 << 40)
                            for a, p in zip(legal, points, strict=True)]
                    assert keys[legal.index(action)] == max(keys), (variant, seed, fast.placed)
                fast.apply(action)
            assert not fast.in_hand
            assert fast.hands == hands
            assert [a - b for a, b in zip(fast.scores, fast._hand_points, strict=True)] == scores
            assert ("domino", "blocked", "unfinished")[end] == fast.last_end
            assert fast.finish_outcome(end, seat, hands, scores) == (
                fast.scores, fast.finished, fast.winner, fast.last_winner)
            for _ in actions:
                fast.undo()
            fast.stock[:] = before[1]
            assert (fast.hands, fast.scores, fast.stock_pos) == (before[0], before[3], before[2])
    assert ranks_seen > 0
    assert reshuffled > 0 or not FastGame(variant, players, options=options, seed=0).stock_left


def best_reply(fast: FastGame, action: int) -> int:
    """The most the next seat can score with one placement after ``action``, its play's points only (0 if the hand
    ends or the turn stays; where plays do not score, 1 if it can place a tile)."""
    seat = fast.turn
    fast.apply(action)
    best = 0
    if fast.in_hand and fast.turn != seat:
        for reply in fast.legal_actions():
            if reply < fast.draw:  # where plays do not score, any placement counts 1
                best = max(best, *fast.placement_points([reply])) if fast.scores_during_hand else 1
    fast.undo()
    return best


def next_hand_in_and_out_of_the_kernel(games: list[FastGame], streams: list[list[SplitMix]], kernel: object,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal the next hand of both games (the same rules and seed) and finish it with ``finish_as_random``:
    ``games[0]`` in the compiled kernel, ``games[1]`` in Python.  Both must end alike: actions taken,
    hands, stock, scores, result and the seats' streams."""
    outcomes = []
    for side, game in enumerate(games):
        monkeypatch.setattr(engine, "_kernel", kernel if side == 0 else None)
        game.next_hand()
        assert game.kernel_plays == (side == 0)
        moves = game.finish_as_random(streams[side])
        outcomes.append((moves, game.hands, game.stock_pos, game.placed, game.scores, game.last_end,
                         game.last_winner, game.finished, game.winner, game.hand_number,
                         [stream.state for stream in streams[side]]))
    assert outcomes[0] == outcomes[1], (games[0].rules.name, games[0].hand_number)


def replay_kernel_playout(fast: FastGame, streams: list[SplitMix], where: object) -> str:
    """Play the rest of ``fast``'s hand in the kernel with a trace and replay the trace on ``fast`` (the
    Python engine): at each step the same number of legal actions and the seat's stream's pick among
    them in choice order; at the end the same hands, stock, play scores, end and streams.  The end."""
    end, seat, _turn, placed, stock_pos, hands, scores, moves, states, trace = compiled.rollout(
        fast.kernel_config(), fast.kernel_state(), [stream.state for stream in streams], True, fast.kernel_tables())
    assert trace is not None and len(trace) == moves
    for count, action in trace:
        legal = fast.legal_actions()
        assert count == len(legal) and action in legal, (where, fast.placed)
        assert action == streams[fast.turn].pick(fast.choice_order(legal)), (where, fast.placed)
        fast.apply(action)
    assert [stream.state for stream in streams] == states
    assert not fast.in_hand
    assert (fast.last_end, fast.last_winner if fast.last_end == "domino" else None) == (
        ("domino", "blocked", "unfinished")[end], seat)
    assert fast.hands == hands and fast.placed == placed and fast.stock_pos == stock_pos
    assert [a - b for a, b in zip(fast.scores, fast._hand_points, strict=True)] == scores
    return fast.last_end


@pytest.mark.parametrize("compiled_kernel", [True, False], ids=["kernel", "python"])
def test_finish_randomly_scores_the_hand_like_a_playout(compiled_kernel: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not compiled_kernel:
        monkeypatch.setattr(engine, "_kernel", None)
    for seed in range(20):
        fast = FastGame("block", 4, options={"partnerships": True}, seed=seed)
        taken = fast.finish_randomly(random.Random(seed))
        assert taken >= 4 * 4 and not fast.in_hand
        assert sum(fast.scores) == 2 * sum(fast.pips(s) for s in range(4)) or fast.last_winner is None
        with pytest.raises(IllegalMoveError):
            fast.undo()


def test_kernel_rejects_a_malformed_state() -> None:
    if compiled is None:
        pytest.skip("the compiled kernel is not built")
    fast = FastGame("block", 2, seed=1)
    with pytest.raises(ValueError, match="state needs 21 items"):
        compiled.rollout(fast.kernel_config(), (), [1, 2], False, None)


@pytest.mark.parametrize(("variant", "options"), [("double-bergen", {}), ("bergen", {"cover_lead_double_first": True}),
                                                  ("draw", {})])
def test_known_voids_never_contradict_the_hands(variant: str, options: dict[str, object]) -> None:
    """A pass tells that the passer holds none of the numbers he could have joined — only those: while
    every play must join the lead (Double Bergen's spinner, a Bergen lead double), the other tips say nothing."""
    rng = random.Random(variant)
    passes = 0
    for seed in range(30):
        fast = FastGame(variant, 3, options=options, seed=seed)
        while fast.in_hand:
            action = rng.choice(fast.legal_actions())
            passes += action == fast.passing
            fast.apply(action)
            for seat in range(3):
                for tile in bits(fast.hands[seat]):
                    assert not fast.void[seat] >> fast.t.high[tile] & 1, (seed, seat, fast.t.tiles[tile])
                    assert not fast.void[seat] >> fast.t.low[tile] & 1, (seed, seat, fast.t.tiles[tile])
    assert passes > 0


def test_a_pass_while_the_spinner_is_owed_says_nothing_of_the_other_tips() -> None:
    """Double Bergen, every tile dealt: seat 0 sets 3-3, seat 1 plays 3-5 on it, seat 0 holds no 3 and
    passes.  He may hold a 5 (the 5 tip could not be played on yet): only the 3 is known to be missing."""
    t = tables(6)
    index = {str(tile): tile.index for tile in t.tiles}
    threes = [str(tile) for tile in t.tiles if 3 in tile.halves and not tile.is_double]
    others = [str(tile) for tile in t.tiles if 3 not in tile.halves]
    deal = [["3-3", *others[:13]], threes + others[13:]]
    fast = FastGame("double-bergen", 2, options={"deal_sizes": [14]}, deal=False)
    fast.start_hand([[index[text] for text in hand] for hand in deal], [], leader=0)
    fast.apply(fast.from_move(Move.parse("3-3")))
    fast.apply(fast.from_move(Move.parse("3-5@1")))
    assert fast.legal_actions() == [fast.passing] and fast.hands[0] & t.suit[5]
    fast.apply(fast.passing)
    assert fast.void[0] == 1 << 3


@pytest.mark.parametrize("variant", sorted(boneyard.VARIANTS))
def test_from_game_copies_a_game_in_progress(variant: str) -> None:
    """A reference game a few hands in, stopped in the middle of a hand, copied to the fast engine and
    played on with the same moves to its end."""
    players = 3
    game = boneyard.new_game(variant, players, seed=5)
    rng = random.Random(variant)
    while len(game.log) < 3 or len(game.hand.events) < 6:
        if game.finished:
            pytest.fail("the game ended in its first hands")
        if not game.in_hand:
            game.next_hand()
            continue
        game.apply(rng.choice(game.legal_moves()))
    fast = FastGame.from_game(game)
    assert fast.hand_number == len(game.log) and fast.leader == game.hand.leader
    while game.in_hand:
        check_same(game, fast, f"{variant}, hand {len(game.log)}")
        move = rng.choice(game.legal_moves())
        assert fast.apply(fast.from_move(move)) == game.apply(move).points
    check_same(game, fast, f"{variant}, hand {len(game.log)} over")


@pytest.mark.parametrize("players", [2, 5])
def test_pip_determinize_keeps_sizes_and_the_seat_own_hand(players: int) -> None:
    rng = random.Random(players)
    fast = FastGame("pip", players, seed=3)
    for _ in range(25):
        fast.apply(rng.choice(fast.legal_actions()))
    seat = fast.turn
    own = fast.hands[seat]
    sizes = [hand.bit_count() for hand in fast.hands]
    unseen = sorted(tile for s in range(players) if s != seat for tile in bits(fast.hands[s]))
    unseen += fast.stock[fast.stock_pos:]
    before = list(fast.hands)
    fast.determinize(seat, rng)
    assert fast.hands[seat] == own and [hand.bit_count() for hand in fast.hands] == sizes
    after = sorted(tile for s in range(players) if s != seat for tile in bits(fast.hands[s]))
    assert sorted(after + fast.stock[fast.stock_pos:]) == sorted(unseen)
    assert fast.hands != before
    fast.finish_randomly(rng)
    assert not fast.in_hand


@pytest.mark.parametrize(("variant", "players"), [("double-bergen", 3), ("pip", 4)])
def test_finish_randomly_ends_and_scores_the_hand(variant: str, players: int) -> None:
    """Variants without a compiled playout finish in Python: the hand ends with a result, and its
    history is dropped (PIP scores only at the end, so its totals grow by exactly the hand's points)."""
    ends = set()
    for seed in range(10):
        fast = FastGame(variant, players, seed=seed)
        before = list(fast.scores)
        taken = fast.finish_randomly(random.Random(seed))
        assert taken > 0 and not fast.in_hand
        ends.add(fast.last_end)
        if variant == "pip":
            assert fast.scores == [b + p for b, p in zip(before, fast._hand_points, strict=True)]
        with pytest.raises(IllegalMoveError):
            fast.undo()
    assert ends <= {"domino", "blocked"} and "domino" in ends


LINE_CONFIGS = [c for c in CONFIGS if c[0] != "pip"]


@pytest.mark.parametrize(("variant", "players", "options"), LINE_CONFIGS,
                         ids=[f"{v}-{p}p-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}"
                              for v, p, o in LINE_CONFIGS])
def test_placement_points_are_what_apply_scores(variant: str, players: int, options: dict[str, object]) -> None:
    """``placement_points`` (greedy's look-ahead, the table left as it is) against ``apply`` then
    ``undo`` for every legal lead and play of random games."""
    rng = random.Random(f"points {variant}{players}{options}")
    scoring = 0
    for seed in range(GAMES):
        fast = FastGame(variant, players, options=options, seed=seed)
        while not fast.finished:
            if not fast.in_hand:
                fast.next_hand()
            legal = fast.legal_actions()
            expected = []
            for action in legal:
                expected.append(fast.apply(action) if action < fast.draw else 0)
                if action < fast.draw:
                    fast.undo()
            assert fast.placement_points(legal) == expected, (seed, [fast.to_move(action) for action in legal])
            scoring += any(expected)
            fast.apply(rng.choice(legal))
    assert scoring > 0 or variant in ("block", "draw")
