"""The game review (``boneyard review``): fair to the seat, right where the answer is known, kept in records."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boneyard import Game, Move, make_rules, record
from boneyard.chance import Chance
from boneyard.cli import app
from boneyard.players.base import make_player
from boneyard.review.analysis import (
    GAME,
    THRESHOLDS,
    Decision,
    Estimate,
    Settings,
    _game_words,
    estimate,
    open_hands,
    paired_interval,
    positions,
    reason,
    review,
)
from boneyard.review.report import WINS_GAME, annotate, review_json, review_text
from boneyard.view import SeatView
from tests.helpers import filled

FAST = Settings(samples=12, seed=3, open_hands=False)


def greedy_game(variant: str, seed: int, seats: int = 2, **options: object) -> Game:
    """A whole game between greedy players (deterministic for a seed)."""
    game = Game(make_rules(variant, seats, options), ["Ann", "Bob", "Cyd", "Dee"][:seats], Chance(seed))
    players = [make_player("greedy", seed=seat) for seat in range(seats)]
    while not game.finished:
        if not game.in_hand:
            game.next_hand()
            continue
        game.apply(players[game.turn].choose(SeatView(game, game.turn)))
    return game


def fair_part(decision: Decision) -> tuple[object, ...]:
    """Everything of a decision judged from the seat's view (open hands is hindsight, left out)."""
    return (decision.hand, decision.number, decision.played, decision.best, decision.mark, decision.loss,
            decision.interval, [(item.move, item.value, item.win) for item in decision.values], decision.comment)


def hidden_swaps(data: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Copies of ``data`` whose first hand differs only where ``seat`` cannot see: a tile another seat never
    plays in that hand swapped with a stock tile nobody draws in it, or with such a tile of a third seat
    (legal replays only)."""
    hand = data["hands"][0]
    played = {move.split("@")[0] for move in hand["moves"] if move[0].isdigit()}
    played |= {"-".join(reversed(tile.split("-"))) for tile in played}
    draws = sum(1 for move in hand["moves"] if move.startswith("draw"))
    kept = [(other, tile) for other in range(len(hand["deal"])) if other != seat
            for tile in hand["deal"][other] if tile not in played]
    stock = range(draws, len(hand.get("stock", [])))
    untouched: list[tuple[int | None, Any]] = [(None, position) for position in stock]
    result = []
    for other, tile in kept:
        for place, where in untouched + [(third, their) for third, their in kept if third > other]:
            copy = json.loads(json.dumps(data))
            copied = copy["hands"][0]
            there = copied["stock"] if place is None else copied["deal"][place]
            index = where if place is None else there.index(where)
            mine = copied["deal"][other]
            mine[mine.index(tile)], there[index] = there[index], tile
            copy["hands"] = [copied]  # later hands would see the changed score of this one
            try:
                record.replay(copy)
            except record.RecordError:
                continue
            result.append(copy)
            if len(result) == 3:
                return result
    return result


def every_reason(data: dict[str, Any], seat: int, settings: Settings = FAST) -> list[str]:
    """The words the review has at every decision of ``seat``: why its best move beat each other legal move,
    marked or not (so the words are checked where a mark of ``best`` would leave them unsaid)."""
    words = []
    for game, hand, number, _ in positions(data):
        view = SeatView(game, seat)
        if game.turn != seat or len(view.legal_moves()) < 2:
            continue
        est = estimate(view, random.Random(f"{settings.seed}/{hand}/{number}"), samples=settings.samples)
        best = est.best()
        words += [reason(view, est.moves[best], move, est, est.paired(best, index, points=True)[0])
                  for index, move in enumerate(est.moves) if index != best]
    return words


@pytest.mark.parametrize(("variant", "seats", "options"), [
    ("all-fives", 2, {}), ("draw", 2, {}), ("block", 4, {"partnerships": True})])
def test_review_of_a_seat_never_depends_on_hidden_tiles(variant: str, seats: int, options: dict[str, Any]) -> None:
    for seed in range(20):  # the first game whose first hand leaves another seat a tile to swap
        data = record.to_record(greedy_game(variant, seed, seats, **options))
        first = {**data, "hands": data["hands"][:1]}
        swapped = hidden_swaps(first, seat=0)
        if swapped:
            break
    assert swapped, "no hidden swap keeps the record legal"
    base = review(first, [0], FAST)
    assert base.decisions
    words = every_reason(first, 0)
    assert any("of the deals" in said for said in words), words  # words read off the sampled deals are among them
    for copy in swapped:
        assert copy["hands"][0]["deal"] != first["hands"][0]["deal"]
        other = review(copy, [0], FAST)
        assert [fair_part(d) for d in other.decisions] == [fair_part(d) for d in base.decisions]
        assert every_reason(copy, 0) == words


def block_endgame(last: str) -> dict[str, Any]:
    """Block, two players: Bob to move with 2-0, 1-1, 5-4; the ends are 0 (tile 6) and 5 (tile 8); Ann holds
    6-3, 2-1, 5-1.  0-2@6 opens a line in which the table blocks and Bob loses the hand; 5-4@8 keeps a 4
    end that only Bob can follow, and he dominoes."""
    return {
        "format": "boneyard/1", "variant": "block", "options": {}, "players": ["Ann", "Bob"],
        "hands": [{
            "deal": [["5-3", "6-3", "6-5", "2-1", "5-1", "4-4", "3-0"],
                     ["4-0", "6-4", "2-0", "3-3", "1-1", "5-4", "5-0"]],
            "stock": ["3-1", "5-5", "6-0", "6-6", "4-3", "5-2", "6-2", "4-2", "4-1", "0-0", "3-2", "1-0", "2-2", "6-1"],
            "moves": ["4-4", "4-0@1", "0-3@2", "3-3@3", "3-5@4", "5-0@5", "pass", "4-6@1", "6-5@7", last],
        }],
    }


def solved(game: Game, me: int) -> tuple[int, str, int | None]:
    """Brute-force minimax of the rest of the hand on the reference engine: (me minus the other, end, winner)."""
    if not game.in_hand:
        result = game.hand.result
        assert result is not None
        return game.scores[me] - game.scores[1 - me], result.end, result.winner
    lines = []
    for move in game.legal_moves():
        game.apply(move)
        lines.append(solved(game, me))
        game.undo()
    return (max if game.turn == me else min)(lines, key=lambda line: line[0])


def test_the_only_move_that_avoids_a_block_loss_is_best_and_the_other_a_mistake() -> None:
    truth = {}
    for last in ("0-2@6", "5-4@8"):
        game = record.replay(block_endgame(last))
        truth[last] = solved(game, 1)
    assert truth["0-2@6"][1:] == ("blocked", 0) and truth["5-4@8"][1:] == ("domino", 1)
    settings = Settings(samples=20, seed=1, open_hands=True)
    decision = review(block_endgame("0-2@6"), [1], settings).decisions[-1]
    assert (decision.number, str(decision.played), str(decision.best)) == (10, "0-2@6", "5-4@8")
    assert decision.mark in ("mistake", "blunder")
    assert decision.loss >= THRESHOLDS["block"].mistake and decision.interval[0] > 0
    assert decision.exact  # two-player Block is solved to the end of the hand on every deal
    assert decision.open_hands == truth["0-2@6"][0]  # hindsight: exactly the hand as it would go
    right = review(block_endgame("5-4@8"), [1], settings).decisions[-1]
    assert (right.mark, right.best, right.comment) == ("best", right.played, "")
    assert right.open_hands == truth["5-4@8"][0]


def fives_position(move: str, **extra: object) -> dict[str, Any]:
    """All Fives: Bob leads 6-3 (9, nothing); Ann holds 6-6 (on the 6: 12 + 3 = 15) and 3-2 (6 + 2, nothing)."""
    options = {"first_lead": "random_player_any_tile", **extra}  # Bob's lead, whoever holds the heaviest double
    rules = make_rules("all-fives", 2, options)
    setup = filled(rules, ["6-6 3-2 1-0 2-0 1-1 2-1 3-0", "6-3"], leader=1)
    return {
        "format": "boneyard/1", "variant": "all-fives", "options": options, "players": ["Ann", "Bob"],
        "hands": [{"deal": [[str(t) for t in hand] for hand in setup.deal], "stock": [str(t) for t in setup.stock],
                   "leader": 1, "moves": ["6-3", move]}],
    }


def test_a_move_scoring_15_against_one_scoring_nothing() -> None:
    settings = Settings(samples=30, seed=2, open_hands=False)
    game = record.replay({**fives_position("6-6@1"), "hands": [{**fives_position("6-6@1")["hands"][0],
                                                                  "moves": ["6-3"]}]})
    view = SeatView(game, 0)
    moves = [str(m) for m in view.legal_moves()]
    assert "6-6@1" in moves and "2-3@1" not in moves and any(m.startswith("3-2@1") for m in moves)
    missed = review(fives_position("3-2@1"), [0], settings).decisions[0]
    assert str(missed.best) == "6-6@1"
    assert missed.mark in ("mistake", "blunder")
    assert missed.loss >= THRESHOLDS["all-fives"].mistake
    assert "scores 15" in missed.comment
    scored = review(fives_position("6-6@1"), [0], settings).decisions[0]
    assert scored.mark == "best" and scored.played == scored.best


def test_where_the_game_ends_moves_are_compared_by_the_game() -> None:
    """To 15, played at once: 6-6@1 wins the game on the spot; 3-2@1 leaves it open."""
    settings = Settings(samples=20, seed=2, open_hands=False)
    missed = review(fives_position("3-2@1", target=15), [0], settings).decisions[0]
    assert str(missed.best) == "6-6@1" and missed.best_win == 1.0
    assert missed.win is not None and missed.win < 1.0
    assert missed.by_game and missed.mark in ("inaccuracy", "mistake", "blunder")
    assert "6-6@1 wins the game in 100% of the deals" in missed.comment
    assert missed.comment.startswith("3-2@1 cost ") and "% of a game won: " in missed.comment  # not in points
    won = review(fives_position("6-6@1", target=15), [0], settings).decisions[0]
    assert (won.mark, won.win) == ("best", 1.0)


def test_the_text_review_says_what_its_win_share_is_and_only_where_the_game_may_end() -> None:
    """"win 0%" on the first hand of a game read as "you cannot win": the share is of the deals in which the move
    wins the game during this hand, and the review says so."""
    settings = Settings(samples=20, seed=2, open_hands=False)
    near = review_text(review(fives_position("3-2@1", target=15), [0], settings))
    assert f"wins game: {WINS_GAME}" in near.splitlines()
    assert re.search(r"3-2@1 .* wins game \d+%", near)
    far = review_text(review(fives_position("3-2@1"), [0], settings))  # to 250: no deal ends the game
    assert "wins game" not in far and " win " not in far


def test_a_game_result_within_the_noise_leaves_the_choice_to_the_points() -> None:
    keep, open_ = Move.parse("6-6"), Move.parse("6-0")
    # 200 deals: 6-0 wins the game on one deal more, and loses 4 points a deal more than 6-6
    points = [[-2.0] * 200, [-6.0] * 200]
    results = [[0.0] * 200, [1.0] + [0.0] * 199]
    est = Estimate([keep, open_], 0.0, points, results)
    assert est.game_may_end and est.best() == 0
    results[1] = [1.0] * 40 + [0.0] * 160  # a fifth of the deals won: beyond the noise, the game decides
    assert est.best() == 1


def test_the_game_s_words_name_the_losses_where_the_better_move_wins_less_often() -> None:
    safe, bold = Move.parse("6-6@4"), Move.parse("4-3@5")
    # over 50 deals: the safe move never wins and loses 5; the bold one wins 1 and loses 20
    results = [[0.0] * 45 + [-1.0] * 5, [1.0] + [0.0] * 29 + [-1.0] * 20]
    est = Estimate([safe, bold], 0.0, [[0.0] * 50, [0.0] * 50], results)
    assert est.best() == 0
    assert _game_words(est, safe, bold) == ("6-6@4 wins the game in 0% of the deals and loses it in 10%; "
                                            "4-3@5 wins in 2% and loses in 40%")
    results[0] = [1.0] * 10 + [0.0] * 35 + [-1.0] * 5  # it wins more and loses less: both, so the cost adds up
    assert _game_words(est, safe, bold) == ("6-6@4 wins the game in 20% of the deals and loses it in 10%; "
                                            "4-3@5 wins in 2% and loses in 40%")
    results[1] = [1.0] + [0.0] * 44 + [-1.0] * 5  # the same losses: the wins say it
    assert _game_words(est, safe, bold) == "6-6@4 wins the game in 20% of the deals, 4-3@5 in 2%"


def test_forced_moves_are_skipped_and_counted() -> None:
    result = review(block_endgame("0-2@6"), [0], FAST)
    summary = result.summaries[0]
    assert summary.forced >= 1  # Ann's pass
    assert all(decision.seat == 0 for decision in result.decisions)
    assert summary.decisions == len(result.decisions)
    assert {str(d.played) for d in result.decisions}.isdisjoint({"pass"})


def test_samples_make_the_review_reproducible() -> None:
    data = record.to_record(greedy_game("all-fives", 5))
    data = {**data, "hands": data["hands"][:1]}
    first, second = review(data, [1], FAST), review(data, [1], FAST)
    assert [fair_part(d) for d in first.decisions] == [fair_part(d) for d in second.decisions]


def test_paired_interval() -> None:
    mean, low, high = paired_interval([1.0, 3.0, 2.0, 2.0])
    assert mean == 2.0 and low < 2.0 < high
    assert paired_interval([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)


def test_estimate_values_every_legal_move() -> None:
    game = record.replay({**fives_position("6-6@1"), "hands": [{**fives_position("6-6@1")["hands"][0],
                                                                  "moves": ["6-3"]}]})
    view = SeatView(game, 0)
    result = estimate(view, random.Random(0), samples=5)
    assert result.moves == view.legal_moves()
    assert result.samples == 5 and all(len(row) == 5 for row in result.points)


def test_annotations_round_trip_through_a_record_and_replay(tmp_path: Path) -> None:
    data = block_endgame("0-2@6")
    result = review(data, [1], Settings(samples=6, seed=0))
    annotated = annotate(data, result)
    notes = annotated["hands"][0]["annotations"]
    assert len(notes) == 10 and notes[:9].count(None) >= 5
    assert notes[9]["mark"] == result.decisions[-1].mark != "best"
    assert notes[9]["best"] == "5-4@8" and notes[9]["by"].startswith("boneyard")
    assert set(notes[9]) <= {"value", "best", "best_value", "interval", "mark", "open_hands", "comment", "by"}
    path = tmp_path / "review.boneyard.json"
    path.write_text(record.dumps(annotated), encoding="utf-8")
    loaded = record.load(path)
    assert record.annotations_of(loaded) == [notes]
    events = record.replay_json(loaded)["hands"][0]["events"]
    assert events[9]["annotation"] == notes[9]
    assert all("annotation" not in event for event, note in zip(events, notes, strict=True) if note is None)
    assert record.replay_json(data) == record.game_json(record.replay(data))  # unannotated: as before
    text = record.replay_text(loaded)
    assert f"» {notes[9]['mark']}" in text and "best 5-4@8" in text
    # a writer rewriting the game keeps them
    rewritten = record.to_record(record.replay(loaded), annotations=record.annotations_of(loaded))
    assert rewritten["hands"][0]["annotations"] == notes


def test_bad_annotations_are_refused_with_where() -> None:
    data = block_endgame("0-2@6")
    data["hands"][0]["annotations"] = [None] * 11
    with pytest.raises(record.RecordError, match=r"hand 1: 'annotations' has 11 entries for 10 moves"):
        record.replay(data)
    data["hands"][0]["annotations"] = ["great move"]
    with pytest.raises(record.RecordError, match=r"hand 1: 'annotations' must be a list of objects or nulls"):
        record.replay(data)


def test_review_command(tmp_path: Path) -> None:
    source = tmp_path / "game.boneyard.json"
    source.write_text(record.dumps(block_endgame("0-2@6")), encoding="utf-8")
    out = tmp_path / "reviewed.boneyard.json"
    runner = CliRunner()
    result = runner.invoke(app, ["review", str(source), "--seat", "1", "--samples", "6", "--json",
                                 "--write", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    mark = report["decisions"][-1]["mark"]
    assert report["summaries"][0]["seat"] == 1 and mark in ("mistake", "blunder")
    assert report == review_json(review(block_endgame("0-2@6"), [1], Settings(samples=6, seed=0))) | {
        "seconds": report["seconds"]}
    assert record.annotations_of(record.load(out))[0][9]["mark"] == mark
    assert "annotations" not in json.loads(source.read_text(encoding="utf-8"))["hands"][0]
    replayed = runner.invoke(app, ["replay", str(out)])
    assert f"» {mark}" in replayed.stdout
    again = runner.invoke(app, ["review", str(source), "--samples", "6", "--write", str(out)])
    assert again.exit_code == 2 and "pass --force" in again.stderr
    both = runner.invoke(app, ["review", str(source), "--samples", "6", "--time", "1"])
    assert both.exit_code == 2 and "not both" in both.stderr
    seat = runner.invoke(app, ["review", str(source), "--seat", "5"])
    assert seat.exit_code == 2 and "--seat 5" in seat.stderr
    folder = runner.invoke(app, ["review", str(source), "--samples", "6", "--write", str(tmp_path), "--force"])
    assert folder.exit_code == 2 and "that is a folder; name a file" in folder.stderr
    huge = runner.invoke(app, ["review", str(source), "--samples", str(10**20)])
    assert huge.exit_code == 2 and "to 100,000" in huge.stderr


def test_the_web_review_runs_in_a_worker_and_draws_the_better_move(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from boneyard.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    with TestClient(app, base_url="http://localhost") as client:
        answer = client.post("/api/review", json={"record": block_endgame("0-2@6"), "seat": 1, "samples": 6})
        assert answer.status_code == 200, answer.text
        decision = answer.json()["decisions"][-1]
        assert (decision["played"], decision["best"]) == ("0-2@6", "5-4@8") and decision["mark"] != "best"
        assert decision["ghost"]["tile"] == "5-4" and decision["ghost"]["index"] == 9  # move 7 was a pass
        assert all(d["ghost"] is None for d in answer.json()["decisions"] if d["mark"] == "best")
        bad_seat = client.post("/api/review", json={"record": block_endgame("0-2@6"), "seat": 2})
        assert bad_seat.status_code == 400 and "'seat'" in bad_seat.json()["detail"]
        bad_samples = client.post("/api/review", json={"record": block_endgame("0-2@6"), "samples": 10**6})
        assert bad_samples.status_code == 400 and "'samples'" in bad_samples.json()["detail"]
        assert client.post("/api/review", json={"game_id": "nope"}).status_code == 404


@pytest.mark.parametrize(("variant", "players"), [
    ("block", 2), ("draw", 3), ("all-fives", 2), ("bergen", 2), ("double-bergen", 2), ("flower-scorpion", 2),
    ("pip", 3)])
def test_every_variant_reviews_a_hand_consistently(variant: str, players: int) -> None:
    game = Game(make_rules(variant, players, {}), None, Chance(11))
    greedy = [make_player("greedy", seed=seat) for seat in range(players)]
    game.next_hand()
    while game.in_hand:
        game.apply(greedy[game.turn].choose(SeatView(game, game.turn)))
    result = review(record.to_record(game), [0], Settings(samples=3, seed=0))
    summary = result.summaries[0]
    assert summary.decisions == len(result.decisions) > 0
    assert summary.decisions + summary.forced == sum(1 for e in game.hand.events if e.seat == 0)
    assert sum(summary.marks.values()) == summary.decisions
    for decision in result.decisions:
        moves = [item.move for item in decision.values]
        assert len(moves) > 1 and decision.played in moves and decision.best in moves
        assert decision.mark in ("best", "inaccuracy", "mistake", "blunder")
        if decision.win is None:  # compared by points: nothing beats the best in the mean
            assert max(item.value for item in decision.values) == pytest.approx(decision.best_value)
        if decision.mark != "best" and not decision.by_game:  # never a mistake within the noise
            assert decision.interval[0] > 0


def test_open_hands_solves_through_the_draws_exactly() -> None:
    """All Fives with tiles still in the stock: in hindsight the stock's order is known, so the open-hands
    value is the exact minimax through the draws; checked against a brute force on the reference engine."""
    def minimax(game: Game, me: int, start: list[int]) -> float:
        if not game.in_hand:
            result = GAME if game.winner == me else -GAME if game.finished and game.winner is not None else 0.0
            return (game.scores[me] - start[me]) - (game.scores[1 - me] - start[1 - me]) + result
        values = []
        for move in game.legal_moves():
            game.apply(move)
            values.append(minimax(game, me, start))
            game.undo()
        return max(values) if game.turn == me else min(values)

    checked = 0
    for seed in range(30):
        data = record.to_record(greedy_game("all-fives", seed))
        for game, _hand, _number, move in positions(data):
            seat = game.turn
            view = SeatView(game, seat)
            left = sum(len(hand) for hand in game.hands) + game.stock_left
            if len(view.legal_moves()) < 2 or not game.stock_left or left > 9:
                continue
            banked = view.scores[seat] - view.scores[1 - seat]
            start_of_hand = game.hand.start_scores
            banked -= start_of_hand[seat] - start_of_hand[1 - seat]
            now = list(game.scores)
            game.apply(move)
            exact = minimax(game, seat, now)
            game.undo()
            points = exact - round(exact / GAME) * GAME
            assert open_hands(game, view, move) == pytest.approx(banked + points)
            checked += 1
        if checked >= 3:
            break
    assert checked >= 3


#: the two ways the words name a suit the partner lacks: (the partner's name, the suit)
PARTNER_VOIDS = (re.compile(r"left an? (?P<suit>blank|\d+) open, and your partner (?P<name>.+?) "
                            r"(?:has shown not to|cannot) hold"),
                 re.compile(r"your partner (?P<name>.+?) has a tile to play in .*\((?P=name) (?:passed|drew) on "
                            r"(?P<suit>blanks|\d+s)\)"))


def test_a_partner_void_in_the_reason_is_true() -> None:
    """Partnership Block: where the review says the move played left open a suit the partner had shown not to
    hold or cannot hold (or had passed on), the partner really held none, and the suit really was open after the
    move."""
    for seed in range(10, 40):  # the first greedy hand with such a decision
        game = Game(make_rules("block", 4, {"partnerships": True}), None, Chance(seed))
        greedy = [make_player("greedy", seed=seat) for seat in range(4)]
        game.next_hand()
        while game.in_hand:
            game.apply(greedy[game.turn].choose(SeatView(game, game.turn)))
        data = record.to_record(game)
        result = review(data, None, Settings(samples=6, open_hands=False))
        said = [(d, found) for d in result.decisions for pattern in PARTNER_VOIDS
                if (found := pattern.search(d.comment))]
        if said:
            break
    assert said, "no partner void named in 30 hands"
    for decision, found in said:
        suit = 0 if found["suit"] in ("blank", "blanks") else int(found["suit"].rstrip("s"))
        partner = game.names.index(found["name"])
        assert partner == (decision.seat + 2) % 4
        for position, hand, number, move in positions(data):
            if (hand, number) == (decision.hand, decision.number):
                assert not any(tile.has(suit) for tile in position.hands[partner])
                position.apply(move)
                assert suit in [face.value for face in position.layout.open_ends()]
                break
        else:
            pytest.fail(f"hand {decision.hand} move {decision.number} is not in the record")


def test_saving_a_game_again_keeps_the_annotations_of_its_moves(tmp_path: Path) -> None:
    data = block_endgame("0-2@6")
    annotated = annotate(data, review(data, [1], FAST))
    notes = annotated["hands"][0]["annotations"]
    path = tmp_path / "game.boneyard.json"
    path.write_text(record.dumps(annotated), encoding="utf-8")
    game = record.replay(record.load(path))
    game.apply(game.legal_moves()[0])  # play on, as a resumed game does, saving after the move
    record.save(game, path)
    assert record.annotations_of(record.load(path)) == [notes]
    game.undo()
    game.undo()  # Bob takes back his reviewed move and plays the better one: its annotation goes
    game.apply(Move.parse("5-4@8"))
    record.save(game, path)
    assert record.annotations_of(record.load(path)) == [record.trimmed(notes[:9])]
    other = tmp_path / "other.boneyard.json"
    record.save(game, other)  # a new file has none
    assert record.annotations_of(record.load(other)) == [[]]


def test_a_seat_with_only_forced_moves_gets_no_accuracy(tmp_path: Path) -> None:
    # the called lead (the highest double) is seat 0's only move: nothing to judge, so no "accuracy 100%"
    for seed in range(100):
        game = Game(make_rules("all-fives", 2), ["Ann", "Bob"], Chance(seed))
        game.next_hand()
        if game.turn == 0 and len(game.legal_moves()) == 1:
            break
    game.apply(game.legal_moves()[0])
    path = tmp_path / "forced.boneyard.json"
    record.save(game, path)
    done = CliRunner().invoke(app, ["review", str(path), "--samples", "2", "--seat", "0"])
    assert done.exit_code == 0, done.output
    assert "0 decisions (1 forced move skipped)" in done.output
    assert "no decision with a choice to judge, so no accuracy" in done.output and "accuracy 100%" not in done.output


@pytest.mark.parametrize(("budget", "said"), [
    ({"samples": 0}, "samples=0: from 2 deals per decision"),
    ({"samples": 1}, "samples=1: from 2 deals per decision"),
    ({"samples": 100_001}, "samples=100001"),
    ({"samples": 2.5}, "samples=2.5"),
    ({"samples": True}, "samples=True"),
    ({"seconds": -1}, "time=-1: the seconds per decision must be above 0 and at most 600"),
    ({"seconds": 0}, "time=0"),
    ({"seconds": float("nan")}, "time=nan"),
    ({"seconds": 601}, "time=601"),
])
def test_a_review_budget_no_search_can_spend_is_refused_by_the_settings(budget: dict[str, Any], said: str) -> None:
    """The budget is checked where it is made, so the library's callers get the command's refusal too (before, a
    review with ``samples=0`` divided by zero, one with ``seconds=-1`` ran and labelled itself ``time=-1``)."""
    from boneyard.errors import OptionError
    from boneyard.review.analysis import Settings

    with pytest.raises(OptionError, match=re.escape(said)):
        Settings(**budget)
    assert Settings(samples=2).samples == 2 and Settings(seconds=600).seconds == 600
