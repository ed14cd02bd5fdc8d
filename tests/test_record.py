"""Game records (RECORD.md): writing, reading, replaying, and the error contract."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard import record
from boneyard.errors import RecordError


def a5_example_record() -> dict[str, Any]:
    """RULES.md A5 worked example 1 as a record (3 players, random first lead to seat 0)."""
    return {
        "format": "boneyard/1",
        "variant": "muggins",  # an alias of all-fives
        "options": {"spinner_mode": "first_double", "first_lead": "random_player_any_tile"},
        "players": ["Ann", "Bob", "Cy"],
        "hands": [{
            "deal": [["6-4", "4-3", "2-2", "5-5", "1-1"],
                     ["4-4", "4-0", "3-3", "6-5", "5-2"],
                     ["4-1", "6-6", "0-0", "5-0", "3-2"]],
            "stock": ["6-3", "6-2", "6-1", "6-0", "5-4", "5-3", "5-1", "4-2", "3-1", "3-0", "2-1", "2-0", "1-0"],
            "leader": 0,
            "moves": ["6-4", "4-4@1", "4-1@2", "4-3@2", "4-0@2", "6-6@1"],
        }],
    }


def play_random(variant: str, players: int, seed: int, limit: int = 10_000) -> boneyard.Game:
    game = boneyard.new_game(variant, players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.finished and steps < limit:
        if game.hand_over:
            game.next_hand()
            continue
        game.apply(rng.choice(game.legal_moves()))
        steps += 1
    return game


def test_a5_example_1_replays_with_the_counts_of_the_rulebook() -> None:
    output = record.replay_json(a5_example_record())
    hand = output["hands"][0]
    assert [e["points"] for e in hand["events"]] == [10, 0, 0, 10, 10, 0]
    assert hand["events"][0] == {"seat": 0, "move": "6-4", "points": 10,
                                 "scoring": [{"name": "count", "points": 10}]}
    assert hand["end"] == "unfinished" and hand["winner"] is None
    assert output["totals"] == [20, 10, 0]
    assert output["variant"] == "all-fives"
    assert output["finished"] is False and output["winner"] is None


def test_replay_json_has_the_contract_keys() -> None:
    game = play_random("all-fives", 2, seed=5)
    output = record.replay_json(record.to_record(game))
    assert set(output) == {"variant", "players", "hands", "finished", "winner", "totals"}
    for hand in output["hands"]:
        assert set(hand) == {"leader", "events", "end", "winner", "hand_points", "totals"}
        assert hand["end"] in ("domino", "blocked", "unfinished")
        for event in hand["events"]:
            assert set(event) == {"seat", "move", "points", "scoring"}
            assert event["points"] == sum(item["points"] for item in event["scoring"]) or event["scoring"] == []
    assert output["finished"] is True
    assert output["totals"] == game.scores
    assert output["hands"][-1]["totals"] == game.scores


@pytest.mark.parametrize("variant,players", [("block", 2), ("block", 4), ("draw", 3), ("all-fives", 4)])
def test_replay_of_a_record_gives_the_same_events(variant: str, players: int) -> None:
    for seed in range(8):
        game = play_random(variant, players, seed)
        text = record.dumps(record.to_record(game))
        again = record.replay(json.loads(text))
        assert record.game_json(again) == record.game_json(game)
        assert [[str(e.move) for e in log.events] for log in again.log] == \
               [[str(e.move) for e in log.events] for log in game.log]


def test_an_unfinished_game_is_a_record_too() -> None:
    game = boneyard.new_game("draw", 2, seed=11)
    for _ in range(5):
        game.apply(game.legal_moves()[0])
    again = record.replay(record.to_record(game))
    assert again.in_hand and len(again.hand.events) == 5
    assert again.hands == game.hands and again.stock_pos == game.stock_pos


def test_only_non_default_options_are_written() -> None:
    game = boneyard.new_game("block", 2, seed=1, options={"target": 150, "tie_rule": "lightest_tile"})
    assert record.to_record(game)["options"] == {"target": 150}


def test_save_is_atomic_and_load_reads_it_back(tmp_path: Path) -> None:
    game = play_random("block", 3, seed=2)
    path = record.save(game, tmp_path / "sub" / "g.boneyard.json")
    assert record.load(path) == json.loads(path.read_text())
    assert [p.name for p in path.parent.iterdir()] == ["g.boneyard.json"]


def bad(mutator: Any) -> str:
    data = a5_example_record()
    mutator(data)
    with pytest.raises(RecordError) as caught:
        record.replay(data)
    return str(caught.value)


def test_illegal_move_names_hand_move_text_and_reason() -> None:
    def mutate(d: dict[str, Any]) -> None:
        d["hands"][0]["moves"][3] = "4-3@1"
    assert bad(mutate) == 'hand 1, move 4 "4-3@1": tile 1 has no open 4 end'


def test_tile_not_in_hand_is_named() -> None:
    def mutate(d: dict[str, Any]) -> None:
        d["hands"][0]["moves"][1] = "4-1@1"
    assert bad(mutate).startswith('hand 1, move 2 "4-1@1": 4-1 is not in seat 1\'s hand')


def test_unparseable_move() -> None:
    def mutate(d: dict[str, Any]) -> None:
        d["hands"][0]["moves"][2] = "4~1"
    assert bad(mutate).startswith('hand 1, move 3 "4~1": ')


def test_wrong_tile_set_in_deal() -> None:
    def mutate(d: dict[str, Any]) -> None:
        d["hands"][0]["stock"].remove("1-0")
    assert bad(mutate) == "hand 1: deal plus stock is not the variant's tile set: missing 1-0"


def test_missing_stock_with_undealt_tiles() -> None:
    def mutate(d: dict[str, Any]) -> None:
        del d["hands"][0]["stock"]
    assert bad(mutate) == "hand 1: missing key 'stock' (13 tiles were not dealt)"


def test_bad_tile_text_in_deal() -> None:
    def mutate(d: dict[str, Any]) -> None:
        d["hands"][0]["deal"][1][2] = "3-9x"
    assert bad(mutate).startswith("hand 1: deal: seat 1, tile 3: ")


@pytest.mark.parametrize("key,value,expected", [
    ("format", "boneyard/2", 'format: expected "boneyard/1", got "boneyard/2"'),
    ("variant", "chess", "variant: unknown variant 'chess'"),
    ("options", {"spinner": "x"}, "options: unknown option 'spinner'"),
    ("options", {"target": "lots"}, "options: option 'target': 'lots' is not a whole number"),
    ("players", ["Ann"], "players: all-fives is for 2 to 4 players, not 1"),
    ("hands", {}, "'hands' must be a list"),
])
def test_malformed_headers(key: str, value: Any, expected: str) -> None:
    def mutate(d: dict[str, Any]) -> None:
        d[key] = value
    assert bad(mutate).startswith(expected)


def test_missing_key() -> None:
    def mutate(d: dict[str, Any]) -> None:
        del d["players"]
    assert bad(mutate) == "missing key 'players'"


def test_leader_that_differs_from_the_rules_is_an_error() -> None:
    def mutate(d: dict[str, Any]) -> None:
        d["options"] = {}
        d["hands"][0]["leader"] = 0  # the rules call 6-6, held by seat 2
    assert bad(mutate) == "hand 1: leader 0 differs from the rules' leader, seat 2"


def test_chance_leader_is_required_when_the_rules_leave_it_to_chance() -> None:
    def mutate(d: dict[str, Any]) -> None:
        del d["hands"][0]["leader"]
    assert "needs a leader" in bad(mutate)


def test_moves_after_the_hand_ended() -> None:
    game = play_random("block", 2, seed=3)
    data = record.to_record(game)
    data["hands"][0]["moves"].append("pass")
    count = len(data["hands"][0]["moves"])
    with pytest.raises(RecordError, match=rf'^hand 1, move {count} "pass": the hand is over$'):
        record.replay(data)


def test_draw_naming_a_tile_is_checked_against_the_stock() -> None:
    game = boneyard.new_game("draw", 2, seed=4)
    data = record.to_record(game)
    rng = random.Random(0)
    while game.legal_moves()[0].kind != boneyard.Kind.DRAW:
        game.apply(rng.choice(game.legal_moves()))
    data = record.to_record(game)
    top = str(game.stock[game.stock_pos])
    wrong = next(str(t) for t in game.stock[game.stock_pos + 1:])
    good = copy.deepcopy(data)
    good["hands"][0]["moves"].append(f"draw {top}")
    assert record.replay(good).hand.events[-1].move == boneyard.Move.draw()
    data["hands"][0]["moves"].append(f"draw {wrong}")
    with pytest.raises(RecordError, match=f"the next tile in the stock is {top}, not {wrong}"):
        record.replay(data)


def test_load_reports_bad_json_with_its_position(tmp_path: Path) -> None:
    path = tmp_path / "broken.boneyard.json"
    path.write_text('{"format": "boneyard/1",\n  oops}')
    with pytest.raises(RecordError, match=r"broken.boneyard.json: not valid JSON \(line 2, column 3"):
        record.load(path)


def test_record_text_replay_names_every_move() -> None:
    text = record.replay_text(a5_example_record())
    assert "Ann" in text and "6-4@1" not in text and "4-4@1" in text and "count +10" in text


def test_record_text_replay_of_a_game_won_during_a_hand() -> None:
    data = a5_example_record()
    data["options"]["target"] = 10  # the lead's count of 10 wins at once (win_check immediate)
    data["hands"][0]["moves"] = ["6-4"]
    text = record.replay_text(data)
    assert "  the game was won during the hand, which stops there\n" in text
    assert "Game over: Ann wins — Ann 10" in text and "Hand 1 — Ann leads" in text
    data["players"][0] = "You"  # a terminal game's player: the verbs agree
    text = record.replay_text(data)
    assert "Hand 1 — You lead" in text and "Game over: You win — You 10" in text
    assert not any(line.rstrip() != line for line in text.splitlines())
    assert record.replay_json(data)["hands"][0]["end"] == "unfinished"
