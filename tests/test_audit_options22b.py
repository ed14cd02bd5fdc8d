"""Audit 22b: the house rules (config keys) of Bergen, Double Bergen, Flower & Scorpion and PIP, by hand-worked records.

Every expected number below was worked out by hand from RULES.md (§5-§9a) and RECORD.md before the replay was run;
the comments carry the arithmetic.  A hand's stock is ``front``, then every other tile of the double-six set in
canonical order, then ``back`` (the last tiles: Bergen's reserve).  The three bugs it found (a float for a
whole-number choice, an option sent as null dropped by the web API, options shown as Python values) are fixed;
each has its test below.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from boneyard import Game, HandSetup, Move, Tile, make_rules, record
from boneyard.tiles import pip_set
from tests.helpers import replay_refusal
from tests.web_live import LiveServer

ALL6 = [f"{b}-{a}" for a in range(7) for b in range(a, 7)]


def norm(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def hand(deal: list[str], moves: str, front: str = "", back: str = "", **extra: Any) -> dict[str, Any]:
    seats = [d.split() for d in deal]
    first, last = front.split(), back.split()
    used = {norm(t) for t in [*itertools.chain.from_iterable(seats), *first, *last]}
    assert len(used) == sum(map(len, seats)) + len(first) + len(last)
    stock = first + [t for t in ALL6 if t not in used] + last
    return {"deal": seats, "stock": stock, **extra, "moves": moves.split()}


def rec(variant: str, players: list[str], hands: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {"format": "boneyard/1", "variant": variant, "options": options, "players": players, "hands": hands}


def cli_json(folder: Path, data: dict[str, Any]) -> dict[str, Any]:
    """``boneyard replay FILE --json`` as a user runs it (exit 0, the JSON on standard output)."""
    path = folder / "game.boneyard.json"
    path.write_text(json.dumps(data))
    done = subprocess.run([sys.executable, "-m", "boneyard", "replay", str(path), "--json"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def pts(out: dict[str, Any], h: int) -> dict[int, int]:
    """The non-zero event points of hand ``h`` (0-based), by 1-based move number."""
    return {i: e["points"] for i, e in enumerate(out["hands"][h]["events"], 1) if e["points"]}


def end(out: dict[str, Any], h: int) -> tuple[str, int | None, list[int], list[int]]:
    x = out["hands"][h]
    return x["end"], x["winner"], x["hand_points"], x["totals"]


# ----------------------------------------------------------------------------------------------------- Bergen
# 3 players, lowest double 0-0 led by A.  Line built: 0-2 2-1 1-0 [0-0] 0-3 3-5 5-4 4-0, ends 0 | 0; the only
# 0 tiles left (6-0, 5-0) are the reserve, so C draws the 8 drawable tiles, then four passes block the hand.
#   1 A 0-0 lone double: double header +2        4 A 2-0@3: ends 0 | [0-0]: triple header +3
#   8 B 4-0@7: ends 0 | 0: double header +2      (target 10: nobody is within 3, no cap)
# Left in hand: A 3-3 1-3 1-4 (15 pips, 3 tiles, one double); B 2-2 2-3 2-4 (15 pips, 3 tiles, one double);
# C 1-1 1-5 1-6 2-5 + 6-2 4-3 6-3 4-4 6-4 5-5 6-5 6-6 (12 tiles; doubles 1-1 4-4 5-5 6-6).
BERGEN_BLOCK = hand(["0-0 2-0 5-4 3-3 1-3 1-4", "0-1 0-3 4-0 2-2 2-3 2-4", "1-2 3-5 1-1 1-5 1-6 2-5"],
                    "0-0 0-1@1 1-2@2 2-0@3 0-3@1 3-5@5 5-4@6 4-0@7 " + "draw " * 8 + "pass pass pass pass",
                    back="6-0 5-0")


@pytest.mark.parametrize(("options", "winner", "totals"), [
    ({}, None, [5, 2, 0]),  # simple: A and B tie on 15 pips -> nobody
    ({"block_rule": "german"}, None, [5, 2, 0]),  # A and B hold the fewest doubles (1), tie on 15 pips
    # american: everyone holds a double; A and B tie on fewest tiles (3) -> lowest double of ALL: C's 1-1
    ({"block_rule": "american"}, 2, [5, 2, 2]),
    ({"block_rule": "american", "winner_bonus": 5}, 2, [5, 2, 2]),  # 5 is for a domino: a block scores 2
    ({"block_rule": "american", "winner_bonus": 1}, 2, [5, 2, 1]),
    ({"block_rule": "american", "approach_cap": False, "target": 5}, 2, [5, 2, 2]),  # A on 5 at end: wins
])
def test_bergen_three_players_blocked_hand_under_each_rule(tmp_path: Path, options: dict[str, Any],
                                                           winner: int | None, totals: list[int]) -> None:
    out = cli_json(tmp_path, rec("bergen", ["A", "B", "C"], [BERGEN_BLOCK], **options))
    assert pts(out, 0) == {1: 2, 4: 3, 8: 2}
    bonus = [0, 0, 0]
    if winner is not None:
        bonus[winner] = totals[winner] - [5, 2, 0][winner]
    assert end(out, 0) == ("blocked", winner, bonus, totals)
    assert out["finished"] == ("target" in options)
    assert out["winner"] == (0 if "target" in options else None)


def test_bergen_reserve_zero_makes_the_block_pass_illegal(tmp_path: Path) -> None:
    # with boneyard_reserve 0 the two last tiles (6-0, 5-0) may be drawn: C's 9th draw is owed, not a pass
    line = replay_refusal(tmp_path, rec("bergen", ["A", "B", "C"], [BERGEN_BLOCK], boneyard_reserve=0))
    assert 'hand 1, move 17 "pass"' in line and "draw" in line


def test_bergen_approach_cap_capped_items_keep_face_value() -> None:
    # target 4 with approach_cap: A leads 0-0 (needs 4: +2); A's triple header at move 4 needs 2 -> capped to 1
    out = record.replay_json(rec("bergen", ["A", "B", "C"], [BERGEN_BLOCK], target=4, block_rule="american"))
    ev = out["hands"][0]["events"]
    assert (ev[3]["points"], ev[3]["scoring"]) == (1, [{"name": "triple-header", "points": 3}])
    # B: needs 4 at move 8 -> +2 (no cap).  Block: C wins (+2).  Totals A 3, B 2, C 2: nobody reached 4
    assert end(out, 0) == ("blocked", 2, [0, 0, 2], [3, 2, 2])
    assert (out["finished"], out["winner"]) == (False, None)


# ----------------------------------------------------------------------------------------- Flower & Scorpion
# 2 players, A caravan master; Flower {3,5} -> 5-3, Scorpion {4,4} -> 4-4 (a double scorpion).
#   3 A 1-4@2: ends 4 | 4 singles: dual 2 (suppressed unless only_when_tile_played), long scorpion -1
#   4 B 4-4@3: ends [4-4] | 4: plural 3 suppressed (the 4-4 itself), short scorpion -1, long -2 (all_pairs: -3)
#   5 A 4-3@1: ends [4-4] | 3: nothing (all_pairs: the pair inside the exposed 4-4, -1)
#   6 B 4-5@4: ends 5 | 3: long flower +1;  7 A 3-5@5: ends 5 | 5: dual 2 + short flower 1 = +3
#   11 A 0-0@9: A's sixth tile -> domino, A wins
FS_HAND = hand(["6-4 1-4 4-3 3-5 5-0 0-0", "6-1 4-4 4-5 5-2 2-2 6-6"],
               "6-4 6-1@1 1-4@2 4-4@3 4-3@1 4-5@4 3-5@5 5-2@6 5-0@7 2-2@8 0-0@9", leader=0,
               dice={"flower": [3, 5], "scorpion": [4, 4]})


@pytest.mark.parametrize(("options", "moves", "bonus", "totals"), [
    ({}, {6: 1, 7: 3}, 2, [5, 1]),  # -1 and -3 stop at the floor 0
    ({"score_floor": None}, {3: -1, 4: -3, 6: 1, 7: 3}, 2, [4, -2]),
    ({"double_scorpion_blocks_dual": "only_when_tile_played"}, {3: 1, 6: 1, 7: 3}, 2, [6, 1]),
    ({"double_scorpion_blocks_dual": "only_when_tile_played", "score_floor": None, "winner_bonus": 1},
     {3: 1, 4: -3, 6: 1, 7: 3}, 1, [5, -2]),
    ({"long_pairs": "all_pairs", "score_floor": None}, {3: -1, 4: -4, 5: -1, 6: 1, 7: 3}, 2, [3, -3]),
    # all_pairs with the floor: A 0 -> 0 (move 3) -> 0 (move 5); B 0 -> 0 -> 1
    ({"long_pairs": "all_pairs"}, {6: 1, 7: 3}, 2, [5, 1]),
    # a target met at the round's end: A on 5 >= 5 wins; immediate: A reaches 3 at move 7, B 1: the round ends
    ({"target": 5}, {6: 1, 7: 3}, 2, [5, 1]),
])
def test_flower_scorpion_double_scorpion_floor_and_pairs(options: dict[str, Any], moves: dict[int, int],
                                                         bonus: int, totals: list[int]) -> None:
    out = record.replay_json(rec("flower-scorpion", ["A", "B"], [FS_HAND], **options))
    assert pts(out, 0) == moves
    assert end(out, 0) == ("domino", 0, [bonus, 0], totals)
    assert (out["finished"], out["winner"]) == ((True, 0) if "target" in options else (False, None))


def test_flower_scorpion_immediate_win_stops_the_round_at_the_play() -> None:
    # target 3, immediate: A's 3-5 at move 7 takes A from 0 to 3: the game ends there, the round is unfinished
    data = rec("flower-scorpion", ["A", "B"], [dict(FS_HAND, moves=FS_HAND["moves"][:7])], target=3,
               win_check="immediate")
    out = record.replay_json(data)
    assert end(out, 0) == ("unfinished", None, [0, 0], [3, 1])
    assert (out["finished"], out["winner"]) == (True, 0)
    with pytest.raises(record.RecordError, match=r'hand 1, move 8 "5-2@6": the game is over'):
        record.replay(rec("flower-scorpion", ["A", "B"], [FS_HAND], target=3, win_check="immediate"))


def test_flower_scorpion_heaviest_double_lead_and_caravan_rotation(tmp_path: Path) -> None:
    # lead_tile=heaviest_double_in_hand: A (caravan master) holds only 0-0 as a double -> must lead it
    line = replay_refusal(tmp_path, rec("flower-scorpion", ["A", "B"], [FS_HAND],
                                        lead_tile="heaviest_double_in_hand"))
    assert line.endswith('hand 1, move 1 "6-4": seat 0 must lead one of: 0-0')
    # round 2's caravan master is B (left of A): a record naming A is refused, naming the hand
    second = hand(["6-4 1-4 4-3 3-5 5-0 0-0", "6-1 4-4 4-5 5-5 3-3 6-6"], "6-6", leader=0,
                  dice={"flower": [1, 2], "scorpion": [6, 1]})
    line = replay_refusal(tmp_path, rec("flower-scorpion", ["A", "B"], [FS_HAND, second]))
    assert line.endswith("hand 2: leader 0 differs from the rules' leader, seat 1")
    # a first round with B as caravan master (by lot) holding 6-6, 5-5, 3-3: he must lead 6-6, a dual +2
    # (Flower 2-1, Scorpion 6-1 play no part)
    second["leader"] = 1
    out = record.replay_json(rec("flower-scorpion", ["A", "B"], [second], lead_tile="heaviest_double_in_hand",
                                 long_pairs="all_pairs"))
    assert out["hands"][0]["leader"] == 1 and pts(out, 0) == {1: 2} and out["totals"] == [0, 2]
    second["moves"] = ["5-5"]
    line = replay_refusal(tmp_path, rec("flower-scorpion", ["A", "B"], [second], lead_tile="heaviest_double_in_hand"))
    assert line.endswith('hand 1, move 1 "5-5": seat 1 must lead one of: 6-6')
    assert record.replay_json(rec("flower-scorpion", ["A", "B"], [second]))["totals"] == [0, 2]  # any tile: 5-5 dual


# ------------------------------------------------------------------------------------------- Double Bergen
# 2 players, A designated and sets 2-2.  Spinner phase: 2 per play while a face is free (moves 1-4), closed at 5.
#   6 B 0-1@2: tips 1 1 3 4 -> 2        7 A 1-1@3: tips 1 [1-1] 3 4 -> 3      8 B 3-5@4: tips 1 [1-1] 5 4 -> 3
#   9 A 4-5@5: 1 [1-1] 5 5 -> 3+2 = 5   10 B 5-6@8: 1 [1-1] 6 5 -> 3          11 A 5-0@9: 1 [1-1] 6 0 -> 3; A out
# A 2+2+0+3+5+3 = 15, B 2+2+2+3+3 = 12; B holds one tile (6-6).
DBG_HAND = hand(["2-2 2-1 2-4 1-1 5-4 5-0", "2-0 2-3 1-0 3-5 6-5 6-6"],
                "2-2 2-0@1 2-1@1 2-3@1 2-4@1 0-1@2 1-1@3 3-5@4 4-5@5 5-6@8 5-0@9", leader=0)


@pytest.mark.parametrize(("options", "hand_points", "finished"), [
    ({}, [1, 0], False),
    ({"end_scoring": "tile_penalty"}, [0, -1], False),
    ({"target": 16}, [1, 0], True),  # A 16 >= 16
    ({"target": 16, "end_scoring": "tile_penalty"}, [0, -1], False),  # A 15 < 16: the game goes on
    ({"target": 13, "end_scoring": "tile_penalty"}, [0, -1], True),
    ({"spinner_sides_first": True, "lone_double_scores": True}, [1, 0], False),  # no lone double at a tip here
    ({"boneyard_reserve": 2}, [1, 0], False),
])
def test_double_bergen_round_end_scoring_and_target(options: dict[str, Any], hand_points: list[int],
                                                    finished: bool) -> None:
    out = record.replay_json(rec("double-bergen", ["A", "B"], [DBG_HAND], **options))
    assert pts(out, 0) == {1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 7: 3, 8: 3, 9: 5, 10: 3, 11: 3}
    totals = [15 + hand_points[0], 12 + hand_points[1]]
    assert end(out, 0) == ("domino", 0, hand_points, totals)
    assert (out["finished"], out["winner"]) == (finished, 0 if finished else None)


def test_double_bergen_immediate_win_and_next_designated_leader(tmp_path: Path) -> None:
    # target 5, immediate: B reaches 6 at move 6 (A is on 4): the game is over there
    data = rec("double-bergen", ["A", "B"], [dict(DBG_HAND, moves=DBG_HAND["moves"][:6])], target=5,
               win_check="immediate")
    out = cli_json(tmp_path, data)
    assert end(out, 0) == ("unfinished", None, [0, 0], [4, 6])
    assert (out["finished"], out["winner"]) == (True, 1)
    # end_of_hand, tile_penalty: round 2 is designated to B (left of A), whoever set; naming A is refused
    second = hand(["2-2 2-1 2-4 1-1 5-4 5-0", "2-0 2-3 1-0 3-5 6-5 6-6"], "6-6", leader=0)
    line = replay_refusal(tmp_path, rec("double-bergen", ["A", "B"], [DBG_HAND, second], end_scoring="tile_penalty"))
    assert line.endswith("hand 2: leader 0 differs from the rules' leader, seat 1")


# ------------------------------------------------------------------------------------------------------- PIP
def pip_game(players: int, hands: list[str], **options: Any) -> Game:
    rules = make_rules("pip", players, options)
    dealt = [[Tile.parse(x) for x in h.split()] for h in hands]
    used = {t for h in dealt for t in h}
    spare = [t for t in pip_set() if t not in used]
    for tiles in dealt:  # fill up with plain number tiles that are no double
        while len(tiles) < rules.deal_size():
            tile = next(t for t in spare if not t.is_double and t.letter is None and t.high <= 9)
            spare.remove(tile)
            tiles.append(tile)
    game = Game(rules)
    game.start_hand(HandSetup(dealt, spare, None))
    return game


@pytest.mark.parametrize(("skips", "after_draw"), [(False, 1), (True, 0)])
def test_pip_reverse_then_draw_tile_in_three_players(skips: bool, after_draw: int) -> None:
    game = pip_game(3, ["1-1 R-W 1-2", "1-3 A-W 3-4", "S-W 1-5 5-6 D-W"], draw_tile_skips=skips)
    for move in ("1-1", "1-3@1", "1-5@1"):  # A places the hub, B and C cover its sides
        game.apply(move)
    game.apply("W-R@1")  # A reverses: play goes counter-clockwise, C is next
    assert (game.turn, game.direction) == (2, -1)
    game.apply("W-D@1")  # C's D: the next player counter-clockwise (B) must draw
    assert game.turn == 1 and game.legal_moves() == [Move.draw()]
    game.apply("draw")  # B then plays on (default) or loses the turn to A (the next counter-clockwise)
    assert game.turn == after_draw


def test_pip_letter_end_open_wild_takes_a_double_wild_whose_toes_are_wild() -> None:
    game = pip_game(3, ["1-1 R-W 1-2 7-7", "1-3 W-W 3-4 9-9", "S-W 1-5 5-6 7-2"], letter_end="open_wild",
                    nested_double="forbid")
    for move in ("1-1", "1-3@1", "W-S@1"):  # C's S skips A: B is next
        game.apply(move)
    game.apply("W-W@3")  # on the S tile's open-wild letter: a double, owed three plays on wild toes
    assert game.turn == 2 and game.pending == ((4, 3),)
    plays = {str(m) for m in game.legal_moves()}
    assert "7-2@4" in plays and "5-6@4" in plays and all(m.endswith("@4") for m in plays)


# ------------------------------------------------------------------------------------ options: refusals
@pytest.mark.parametrize(("variant", "key", "value"), [
    ("flower-scorpion", "set", 9), ("flower-scorpion", "boneyard_reserve", 2), ("bergen", "long_pairs", "cross"),
    ("double-bergen", "block_rule", "american"), ("pip", "winner_bonus", 1), ("bergen", "end_scoring", "tile_penalty"),
])
def test_an_option_the_variant_does_not_have_is_refused(tmp_path: Path, variant: str, key: str, value: Any) -> None:
    data = rec(variant, ["A", "B"], [], **{key: value})
    line = replay_refusal(tmp_path, data)
    assert line.startswith("boneyard: ") and f"options: unknown option '{key}'" in line


@pytest.mark.parametrize(("variant", "key", "value", "says"), [
    ("bergen", "winner_bonus", 3, "choose from 2, 1, 5"), ("bergen", "block_rule", "dutch", "simple, american, german"),
    ("flower-scorpion", "score_floor", 1, "choose from 0, none"), ("pip", "directional_value", 40, "45, 25"),
    ("pip", "open_wild_end", "declared_on_play", "is not supported"), ("double-bergen", "boneyard_reserve", 1, "0, 2"),
])
def test_a_bad_option_value_is_refused_naming_key_and_choices(tmp_path: Path, variant: str, key: str, value: Any,
                                                              says: str) -> None:
    line = replay_refusal(tmp_path, rec(variant, ["A", "B"], [], **{key: value}))
    assert f"options: option '{key}'" in line and says in line


def test_a_fractional_set_is_refused_in_words_not_a_traceback(tmp_path: Path) -> None:
    line = replay_refusal(tmp_path, rec("bergen", ["A", "B", "C"], [BERGEN_BLOCK], set=6.0))
    assert "options: option 'set'" in line


def test_a_fractional_winner_bonus_is_refused(tmp_path: Path) -> None:
    line = replay_refusal(tmp_path, rec("bergen", ["A", "B", "C"], [BERGEN_BLOCK], block_rule="american",
                                        winner_bonus=1.0))
    assert "options: option 'winner_bonus'" in line


def test_the_text_replay_names_options_as_they_are_typed() -> None:
    text = record.replay_text(rec("flower-scorpion", ["A", "B"], [FS_HAND], score_floor=None,
                                  cancel_affects_block=True))
    assert "score_floor=none" in text and "cancel_affects_block=true" in text


# ------------------------------------------------------------------------------------------ web: POST /api/games
def post(url: str, body: dict[str, Any]) -> tuple[int, Any]:
    origin = url.split("/api")[0]
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Origin": origin})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())


def computers_record(url: str, variant: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """A table of computers alone with ``options``, played to its end; its downloaded record."""
    seats = [{"kind": "computer", "level": "random", "name": f"C{i}"} for i in range(players)]
    status, game = post(f"{url}/api/games", {"variant": variant, "seats": seats, "options": options, "seed": 5})
    assert status == 201, game
    deadline = time.monotonic() + 60
    while not get_json(f"{url}/api/games/{game['id']}")["finished"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    data: dict[str, Any] = get_json(f"{url}/api/games/{game['id']}/record")
    return data


def test_web_new_game_takes_options_and_writes_them_into_the_record(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'web.db'}") as live:
        options = {"end_scoring": "tile_penalty", "lone_double_scores": True, "target": 12}
        assert computers_record(live.url, "double-bergen", 3, options)["options"] == options
        options = {"block_rule": "german", "winner_bonus": 5, "lead_rule": "rotate_any_tile", "target": 6}
        assert computers_record(live.url, "bergen", 4, options)["options"] == options
        status, answer = post(f"{live.url}/api/games", {"variant": "bergen", "players": 3,
                                                         "options": {"long_pairs": "cross"}})
        assert status == 400 and "unknown option 'long_pairs'" in answer


def test_the_web_takes_score_floor_null_as_none(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'web.db'}") as live:
        data = computers_record(live.url, "flower-scorpion", 2, {"score_floor": None, "target": 6})
        assert data["options"].get("score_floor", 0) is None


def test_the_web_refuses_a_fractional_set_clearly(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'web.db'}") as live:
        status, answer = post(f"{live.url}/api/games", {"variant": "bergen", "players": 3, "options": {"set": 9.0}})
        assert status in (400, 422) and "set" in answer
