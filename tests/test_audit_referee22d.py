"""PIP checked against an independent referee (tests/referee22d.py) written from RULES.md §1, §8, §9, §9a and
RECORD.md alone.

* Seeded games of the computer players (random and greedy, 2 to 7 players, the default rules and combinations of
  every PIP option) are written as records and replayed by the referee and by ``record.replay_json``: every event's
  seat and move, every hand's leader, end, winner, hand points and totals, the game's end and winner must agree.
  The same seeds are played on the fast engine, whose scores and winner must be the reference's.
* Random games built move by move (biased towards directional tiles, doubles and W-W) compare, at every step, the
  set of legal moves and the seat on turn of the referee, the reference ``Game`` and ``FastPip``.
* Hand-worked records: RULES.md §8 worked example 4 (the three-play rule), the starter search, D's give.
* Bugs it found, fixed: a shared PIP win (PIP-20) was counted as nobody's win by ``simulate`` (so by the
  tournament's ratings) and ``boneyard stats``, and the text replay called it "a draw"; a play written with the
  letter half joining (``S-W@1``) was refused with a misleading reason.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard import record
from boneyard.fast import FastGame
from boneyard.player_stats import Stats
from boneyard.players.base import make_player
from boneyard.sim.engines import play_game, reference_game, rules_for
from boneyard.sim.simulate import play_one, player_names, seat_specs
from tests.referee22d import Hand, Referee, RefereeError, canon, halves, pip_set, value

#: option sets: the defaults and combinations that together give every PIP option (§9 PIP-2 … PIP-7) both values
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"letter_end": "open_wild"},
    {"nested_double": "forbid"},
    {"draw_tile_skips": True},
    {"two_player_reverse_skips": True, "directional_value": 25},
    {"letter_end": "open_wild", "nested_double": "forbid", "draw_tile_skips": True},
    {"letter_end": "open_wild", "two_player_reverse_skips": True, "draw_tile_skips": True, "directional_value": 25},
    {"nested_double": "forbid", "two_player_reverse_skips": True},
]


def seeded_record(players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """The record of a whole game of random and greedy players on the reference engine (as ``simulate`` writes)."""
    levels = seat_specs("random,greedy" if seed % 2 else "random", players)
    seats = [make_player(level, seed=seed + 101 * s) for s, level in enumerate(levels)]
    game = reference_game(rules_for("pip", players, options), seed, seats, player_names(levels))
    return record.to_record(game, seed=seed)


def fast_result(players: int, options: dict[str, Any], seed: int) -> tuple[list[int], int | None]:
    levels = seat_specs("random,greedy" if seed % 2 else "random", players)
    seats = [make_player(level, seed=seed + 101 * s) for s, level in enumerate(levels)]
    played = play_game(rules_for("pip", players, options), seed, seats, "fast")
    assert played.engine == "fast"
    return list(played.scores), played.winner


@pytest.mark.parametrize("players", range(2, 8))
def test_seeded_games_agree_with_the_referee_and_the_fast_engine(players: int) -> None:
    """40 games per player count (240 in all): replay_json equals the referee's reading, move for move."""
    hands = blocked = 0
    for number, options in enumerate(OPTION_SETS):
        for k in range(5):
            seed = 1000 * players + 10 * number + k
            data = seeded_record(players, options, seed)
            mine = Referee(data).result()
            assert record.replay_json(data) == mine, (players, options, seed)
            assert mine["finished"] and len(mine["hands"]) == 9
            assert fast_result(players, options, seed) == (mine["totals"], mine["winner"]), (players, options, seed)
            hands += len(mine["hands"])
            blocked += sum(hand["end"] == "blocked" for hand in mine["hands"])
    assert hands == 40 * 9 and 0 < blocked < hands


WEIGHTS = {"letter": 8, "W-W": 6, "double": 4}


def _weight(move: str) -> int:
    if "@" not in move:
        return 1
    a, b = halves(move.split("@")[0])
    if b in "SRAD":
        return WEIGHTS["letter"]
    if a == b == "W":
        return WEIGHTS["W-W"]
    return WEIGHTS["double"] if a == b else 1


@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_move_by_move_three_ways(players: int) -> None:
    """Legal moves and the seat on turn of the referee, the reference Game and FastPip agree at every step."""
    for number in range(8):
        seed = 500 + 10 * players + number
        options = OPTION_SETS[number]
        rng = random.Random(seed)
        game = boneyard.new_game("pip", players=players, seed=seed, options=options)
        fast = FastGame("pip", players, options=options, seed=seed)
        referee = Referee({"players": [""] * players, "options": options})
        while not game.finished:
            if game.hand_over:
                game.next_hand()
                fast.next_hand()
            dealt = record.to_record(game)["hands"][-1]
            hand = Hand(referee, len(game.log), dealt["deal"], dealt["stock"])
            while not game.hand_over:
                theirs = {str(move) for move in game.legal_moves()}
                mine = hand.legal() if hand.table else {hand.starter}
                by_fast = {str(fast.to_move(action)): action for action in fast.legal_actions()}
                assert mine == theirs == set(by_fast), (seed, len(game.log))
                if hand.table:
                    assert hand.turn == game.turn == fast.turn, (seed, len(game.log))
                moves = sorted(theirs)
                move = rng.choices(moves, [_weight(m) for m in moves])[0]
                game.apply(move)
                hand.apply(move)
                fast.apply(by_fast[move])
            assert hand.end is not None and not fast.in_hand
            assert list(fast.scores) == game.scores
        assert record.replay_json(record.to_record(game)) == Referee(record.to_record(game)).result()
        assert (fast.finished, fast.winner) == (True, game.winner)


# ---------------------------------------------------------------- hand-worked records
def build(players: list[str], hands: list[str], stock: str, moves: str | list[str],
          options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A one-hand record: each seat holds the named tiles, the stock starts with ``stock``; the rest is filled with
    plain tiles without a 1 or a 5 first, the wild and letter tiles last (at the end of the stock)."""
    size = 15 if len(players) == 2 else 9
    named = {canon(*halves(t)) for t in (" ".join(hands) + " " + stock).split()}

    def risky(tile: str) -> tuple[bool, bool, bool]:
        a, b = halves(tile)
        return "W" in (a, b), "5" in (a, b) or "1" in (a, b), a == b

    spare = sorted((t for t in pip_set() if t not in named), key=risky)
    deal = []
    for held in hands + [""] * (len(players) - len(hands)):
        seat = held.split()
        while len(seat) < size:
            seat.append(spare.pop(0))
        deal.append(seat)
    listed = moves.split() if isinstance(moves, str) else moves
    return {"format": "boneyard/1", "variant": "pip", "options": options or {}, "players": players,
            "hands": [{"deal": deal, "stock": stock.split() + spare, "moves": listed}]}


def seats_and_ends(data: dict[str, Any]) -> tuple[list[int], str, int | None]:
    out = record.replay_json(data)
    assert out == Referee(data).result()
    hand = out["hands"][0]
    return [event["seat"] for event in hand["events"]], hand["end"], hand["winner"]


def test_worked_example_4_three_play_rule() -> None:
    """RULES.md §8 example 4 (round 1, so 1-1 starts): A plays 5-5 on an open 5; B covers toe 1; C cannot, draws,
    passes; D plays W-6 on toe 2; A's S on toe 3 completes the double and skips B; C plays anywhere."""
    data = build(["A", "B", "C", "D"], ["1-5 5-5 S-W", "1-6 5-2", "1-7", "1-1 1-8 W-6"], "9-8",
                 "1-1 1-5@1 1-6@1 1-7@1 1-8@1 5-5@2 5-2@6 draw pass W-6@6 W-S@6 7-3@4")
    seats, end, _ = seats_and_ends(data)
    assert seats == [3, 0, 1, 2, 3, 0, 1, 2, 2, 3, 0, 2]
    assert end == "unfinished"
    # while the double is owed, a play elsewhere is refused with the hand and move named
    data["hands"][0]["moves"][6] = "6-2@3"
    with pytest.raises(boneyard.RecordError, match=r'hand 1, move 7 "6-2@3"'):
        record.replay_json(data)
    with pytest.raises(RefereeError):
        Referee(data).result()


def test_starter_search_and_the_holder_of_w_w() -> None:
    """PIP-6: neither 1-1 nor W-W dealt: seat 0, then 1, ... draw; the one who draws W-W places it as 1-1."""
    data = build(["A", "B", "C"], ["1-6"], "9-8 8-7 W-W 1-1", "W-W 1-6@1")
    assert record.replay_json(data)["hands"][0]["leader"] == 2 == Referee(data).result()["hands"][0]["leader"]
    seats, _, _ = seats_and_ends(data)
    assert seats == [2, 0]


@pytest.mark.parametrize("skips", [False, True])
def test_d_with_an_empty_stock_makes_its_player_give(skips: bool) -> None:
    """PIP-6 and PIP-16 with 7 players: the search draws W-W (seat 5 places it as 1-1) and leaves 1-1, which seat 6
    must draw and play; seat 0 covers a toe with D, the stock is empty, so seat 0 gives a tile to seat 1, who is
    then on turn (``draw_tile_skips``: seat 2)."""
    players = [f"P{s}" for s in range(7)]
    data = build(players, ["D-W", "", "", "", "", "", "9-9 9-7 9-6 8-8 8-6 7-7 7-6 6-6 0-0"],
                 "9-8 8-7 6-4 6-3 4-3 W-W 1-1", ["W-W", "draw", "1-1@1", "W-D@2", "give 9-8"],
                 {"draw_tile_skips": True} if skips else {})
    seats, end, _ = seats_and_ends(data)
    assert seats == [5, 6, 6, 0, 0] and end == "unfinished"
    game = record.replay(data)
    (hand, _), = Referee(data).hands()
    assert game.turn == hand.turn == (2 if skips else 1)
    assert boneyard.Tile.parse("9-8") in game.hands[1] and "9-8" in hand.hands[1]
    assert game.pending == ((2, 2),) and hand.pending == [[1, 2]]  # tile 2 (1-1) owes two more plays


def test_a_letter_half_written_as_joining_is_explained() -> None:
    """PIP-13: the letter half never joins; the tile is written with its letter first (S-W), so a player naturally
    writes S-W@1.  The refusal should say that the wild half joins (W-S@1), not that tile 1 lacks an S end."""
    data = build(["A", "B", "C", "D"], ["1-5 5-5 S-W", "1-6 5-2", "1-7", "1-1 1-8 W-6"], "9-8", "1-1 S-W@1")
    with pytest.raises(RefereeError):
        Referee(data).result()
    with pytest.raises(boneyard.RecordError) as refusal:
        record.replay_json(data)
    assert 'hand 1, move 2 "S-W@1"' in str(refusal.value)
    assert "W-S@1" in str(refusal.value)


def test_tile_values_pip_18() -> None:
    """PIP-18 and the directional_value option, tile by tile, as both engines count a hand."""
    for options, letter in (({}, 45), ({"directional_value": 25}, 25)):
        game = FastGame("pip", 3, options=options, seed=1)
        for tile in pip_set():
            assert game._values[boneyard.Tile.parse(tile).index] == value(tile, letter), tile
    assert (value("9-9"), value("0-0"), value("W-3"), value("W-W"), value("D-W")) == (18, 0, 23, 50, 45)


# ---------------------------------------------------------------- a shared win (PIP-20)
#: game 0 of ``simulate pip -n 7 --seed 41 --ai random,greedy``: seats 3 and 4 end on 160, the lowest total
SHARED = ("pip", 7, {}, "random,greedy", 41)


def shared_game_record(folder: Path) -> dict[str, Any]:
    variant, players, options, ai, seed = SHARED
    play_one(variant, players, options, seat_specs(ai, players), seed, 0, records=str(folder))
    return json.loads(next(folder.glob("*.boneyard.json")).read_text())


def test_shared_win_is_no_single_winner(tmp_path: Path) -> None:
    data = shared_game_record(tmp_path)
    out = record.replay_json(data)
    assert out == Referee(data).result()
    assert out["finished"] and out["winner"] is None
    assert out["totals"] == [287, 202, 176, 160, 160, 182, 170]
    game = record.replay(data)
    assert game.rules.game_winners(game.winner, game.scores) == (3, 4)


def test_simulate_counts_the_seats_that_share_a_pip_win() -> None:
    variant, players, options, ai, seed = SHARED
    summary = play_one(variant, players, options, seat_specs(ai, players), seed, 0)
    assert summary.scores == [287, 202, 176, 160, 160, 182, 170]
    assert sorted(summary.winners) == [3, 4]


def test_stats_count_a_shared_pip_win(tmp_path: Path) -> None:
    data = shared_game_record(tmp_path)
    stats = Stats(player="greedy#3")
    assert stats.add(data, "game")
    assert (stats.variants["pip"].games, stats.variants["pip"].won) == (1, 1)


def test_replay_text_says_who_shares_the_win(tmp_path: Path) -> None:
    text = record.replay_text(shared_game_record(tmp_path))
    last = text.strip().splitlines()[-1]
    assert "a draw" not in last
    assert "greedy#3" in last.split("—")[0] and "greedy#4" in last.split("—")[0]


def test_the_web_tables_end_panel_names_the_seats_that_share_the_win(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from boneyard.web.app import create_app

    data = shared_game_record(tmp_path)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", ai_delay=0),
                    base_url="http://127.0.0.1") as client:
        loaded = client.post("/api/records", json={"record": data})
        assert loaded.status_code == 201, loaded.text
        with client.websocket_connect(f"ws://127.0.0.1/ws/{loaded.json()['id']}") as socket:
            state = socket.receive_json()
            while state["type"] != "state":
                state = socket.receive_json()
    summary = state["summary"]
    assert summary["game_over"] and summary["game_winner"] is None
    assert summary["game_winners"] == [3, 4]
