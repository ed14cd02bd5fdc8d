"""Audit of the game review (``boneyard review``, ``src/boneyard/review/``, docs/review.md, RECORD.md annotations).

Hand-made and recorded positions where the answer is known, the values against a brute-force minimax, the
fairness claim on more variants, the command's edge cases, ``--write`` and ``boneyard replay`` of what it wrote.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boneyard import Game, record
from boneyard.cli import app
from boneyard.players.expert.determinize import determinize
from boneyard.review.analysis import (
    GAME,
    MARKS,
    THRESHOLDS,
    Settings,
    _banked,
    _ReviewObjective,
    _split,
    estimate,
    open_hands,
    positions,
    review,
)
from boneyard.review.report import review_json
from boneyard.tiles import Tile
from boneyard.view import SeatView
from tests.test_review import block_endgame, fair_part, greedy_game, hidden_swaps

RUNNER = CliRunner()

#: All Fives, three players, one hand (a simulated game): random#2's last move 4-1@10 dominoes, and so would
#: 4-1@7 (both ends show a 4): the two moves are worth exactly the same.
FIVES_TIE: dict[str, Any] = {
    "format": "boneyard/1", "variant": "all-fives", "options": {}, "players": ["greedy", "random", "random#2"],
    "hands": [{
        "deal": [["6-1", "5-2", "5-0", "3-0", "1-1"], ["3-3", "3-2", "3-1", "2-0", "0-0"],
                 ["6-5", "6-4", "5-5", "4-2", "4-1"]],
        "stock": ["1-0", "5-4", "4-3", "2-1", "5-3", "4-4", "6-2", "6-3", "2-2", "6-6", "4-0", "6-0", "5-1"],
        "moves": ["5-5", "5-0@1", "0-2@2", "5-6@1", "5-2@1", "2-3@5", "6-4@4", "3-0@6", "0-0@8", "2-4@3", "draw",
                  "0-1@9", "1-3@11", "4-1@10"],
    }],
}

#: Bergen, three players (a simulated game's second hand): random#2 leads 1-1, the lowest double, so nobody was
#: dealt 0-0; greedy draws one tile (6-1) and plays it at once, and never draws again. At move 32 (random to
#: play) greedy cannot hold 0-0: it is in the stock.
BERGEN_LEAD: dict[str, Any] = {
    "format": "boneyard/1", "variant": "bergen", "options": {}, "players": ["greedy", "random", "random#2"],
    "hands": [{
        "deal": [["6-5", "5-3", "4-3", "3-3", "3-0", "2-2"], ["6-0", "5-4", "4-4", "4-1", "2-1", "1-0"],
                 ["6-4", "6-3", "6-2", "5-5", "5-1", "1-1"]],
        "stock": ["6-1", "5-0", "2-0", "6-6", "4-2", "5-2", "4-0", "3-1", "0-0", "3-2"],
        "moves": ["1-1", "draw", "1-6@1", "1-0@1", "6-3@2", "0-3@3", "draw", "draw", "draw", "draw", "draw", "draw",
                  "draw", "3-1@5", "1-5@6", "3-5@4", "5-2@8", "2-6@9", "5-6@7", "6-0@10", "6-4@11", "4-3@13",
                  "0-2@12", "pass", "3-3@14", "2-1@15", "pass", "pass", "1-4@17", "pass", "pass", "4-2@18", "pass",
                  "2-2@19"],
    }],
}


def write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(record.dumps(data), encoding="utf-8")
    return path


def refused(result: Any) -> str:
    """A refusal's one line on standard error (exit status 2, no traceback, nothing on standard output)."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boneyard: "), result.stderr
    assert "Traceback" not in result.stderr
    return str(lines[0])


# ---------------------------------------------------------------------------- known answers
def test_a_move_that_ties_the_best_is_the_best() -> None:
    """4-1@7 is listed first and is worth exactly what 4-1@10 is; 4-1@10 is then best (docs: the move played is
    the best), not the other move 'within the noise' of an interval [0, 0]."""
    decision = next(d for d in review(FIVES_TIE, [2], Settings(samples=6, seed=0, open_hands=False)).decisions
                    if d.number == 14)
    assert decision.loss == 0.0 and decision.interval == (0.0, 0.0)
    assert decision.mark == "best"


def test_a_move_that_ties_the_best_is_named_best_with_no_comment() -> None:
    decision = next(d for d in review(FIVES_TIE, [2], Settings(samples=6, seed=0, open_hands=False)).decisions
                    if d.number == 14)
    assert str(decision.played) == "4-1@10"
    assert decision.best == decision.played
    assert decision.comment == ""


def test_the_bergen_record_replays_and_its_lead_rules_out_0_0_for_greedy() -> None:
    game = record.replay(BERGEN_LEAD)
    first = game.log[0].events[0]
    assert (first.seat, str(first.move)) == (2, "1-1")  # the lowest double dealt, so 0-0 was not dealt
    for game, _hand, number, _move in positions(BERGEN_LEAD):
        if number == 32:
            assert [str(t) for t in game.hands[0]] == ["2-2"]
            assert Tile.parse("0-0") in game.stock[game.stock_pos:]


def test_the_review_never_samples_a_deal_the_called_lead_rules_out() -> None:
    for game, _hand, number, _move in positions(BERGEN_LEAD):
        if number == 32:
            view = SeatView(game, 1)
            est = estimate(view, random.Random("0/1/32"), samples=20)
            held = [[str(t) for t in hands[0]] for hands, _stock in est.deals]
            assert all("0-0" not in hand for hand in held), held  # greedy was dealt no 0-0 and drew only 6-1
            break
    else:
        pytest.fail("no move 32")


def test_a_block_blunder_is_marked_and_the_better_move_named_from_the_command(tmp_path: Path) -> None:
    source = write(tmp_path / "g.boneyard.json", block_endgame("0-2@6"))
    done = RUNNER.invoke(app, ["review", str(source), "--seat", "1", "--samples", "10", "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    last = report["decisions"][-1]
    assert (last["played"], last["best"]) == ("0-2@6", "5-4@8")
    assert last["mark"] in ("mistake", "blunder") and last["interval"][0] > 0
    assert last["loss"] >= THRESHOLDS["block"].mistake
    assert last["comment"].startswith("0-2@6 cost ") and "5-4@8" in last["comment"]
    costliest = report["summaries"][0]["costliest"]
    assert [c["comment"] for c in costliest if c["move_number"] == 10] == [last["comment"]]
    right = RUNNER.invoke(app, ["review", str(write(tmp_path / "r.boneyard.json", block_endgame("5-4@8"))),
                                "--seat", "1", "--samples", "10", "--json"])
    best = json.loads(right.stdout)["decisions"][-1]
    assert (best["mark"], best["best"], best["comment"]) == ("best", "5-4@8", "")


# ---------------------------------------------------------------------------- values against a brute force
def minimax(game: Game, objective: _ReviewObjective, budget: list[int]) -> float:
    budget[0] -= 1
    assert budget[0] >= 0, "the brute force ran too long"
    if not game.in_hand or game.finished:
        return objective.value(game)
    values = []
    for move in game.legal_moves():
        game.apply(move)
        values.append(minimax(game, objective, budget))
        game.undo()
    return max(values) if game.turn in objective.side else min(values)


@pytest.mark.parametrize(("variant", "seats", "options"), [
    ("block", 3, {}), ("block", 4, {"partnerships": True, "partnership_block": "lowest_hand"}),
    ("bergen", 3, {}), ("flower-scorpion", 2, {}), ("pip", 3, {})])
def test_exact_values_and_open_hands_match_a_brute_force(variant: str, seats: int, options: dict[str, Any]) -> None:
    """Small endgames: every exactly solved deal value of every move, and the open-hands value, equal a paranoid
    minimax of the review's own objective on the reference game."""
    checked = 0
    for seed in range(6):
        data = record.to_record(greedy_game(variant, seed, seats, **options))
        for game, _hand, _number, move in positions(data):
            view = SeatView(game, game.turn)
            if len(view.legal_moves()) < 2 or sum(len(hand) for hand in game.hands) > 6:
                continue
            est = estimate(view, random.Random(1), samples=2)
            if not est.exact:
                continue
            objective = _ReviewObjective(view)
            for deal, (hands, stock) in enumerate(est.deals):
                for index, candidate in enumerate(est.moves):
                    position = determinize(est.public, hands, stock)
                    position.apply(candidate)
                    points, result = _split(minimax(position, objective, [100_000]))
                    assert est.points[index][deal] == pytest.approx(points)
                    assert est.results[index][deal] == pytest.approx(result)
            solved = open_hands(game, view, move)
            if solved is not None:
                position = determinize(est.public, [list(hand) for hand in game.hands],
                                       list(game.stock[game.stock_pos:]))
                position.apply(move)
                exact = minimax(position, objective, [100_000])
                assert solved == pytest.approx(_banked(view, objective) + exact - round(exact / GAME) * GAME)
            checked += 1
            break
        if checked >= 2:
            break
    assert checked >= 2


# ---------------------------------------------------------------------------- fairness, marks, summary
@pytest.mark.parametrize(("variant", "seats", "options"), [
    ("pip", 3, {}), ("bergen", 3, {}), ("block", 4, {"partnerships": True, "partnership_block": "lowest_hand"})])
def test_fair_in_more_variants(variant: str, seats: int, options: dict[str, Any]) -> None:
    settings = Settings(samples=4, seed=3, open_hands=False)
    for seed in range(10):
        data = record.to_record(greedy_game(variant, seed, seats, **options))
        first = {**data, "hands": data["hands"][:1]}
        swapped = hidden_swaps(first, seat=1)
        if swapped:
            break
    assert swapped
    base = [fair_part(d) for d in review(first, [1], settings).decisions]
    assert base
    for copy in swapped[:2]:
        assert [fair_part(d) for d in review(copy, [1], settings).decisions] == base


@pytest.mark.parametrize(("variant", "seats"), [("draw", 3), ("all-fives", 4), ("double-bergen", 2), ("pip", 2)])
def test_marks_follow_the_thresholds_and_the_noise_rule(variant: str, seats: int) -> None:
    data = record.to_record(greedy_game(variant, 2, seats))
    data = {**data, "hands": data["hands"][:1]}
    result = review(data, None, Settings(samples=6, seed=0, open_hands=False))
    thresholds = THRESHOLDS[variant]
    for d in result.decisions:
        assert d.loss == pytest.approx(d.best_value - d.value)
        if d.by_game:
            continue
        if d.interval[0] <= 0 or d.played == d.best:
            assert d.mark == "best"
        else:
            assert d.mark == thresholds.mark(d.loss)
        if d.mark != "best":
            assert d.comment.startswith(f"{d.played} cost ")
    for summary in result.summaries:
        mine = [d for d in result.decisions if d.seat == summary.seat]
        assert summary.decisions == len(mine)
        assert summary.marks == {mark: sum(d.mark == mark for d in mine) for mark in MARKS}
        assert summary.points_lost == pytest.approx(sum(max(0.0, d.loss) for d in mine if d.mark != "best"))
        assert summary.accuracy == pytest.approx(summary.marks["best"] / summary.decisions)
        assert [d.mark for d in summary.costliest] == sorted((d.mark for d in summary.costliest),
                                                             key=MARKS.index, reverse=True)


def test_the_json_has_the_documented_fields(tmp_path: Path) -> None:
    source = write(tmp_path / "g.boneyard.json", block_endgame("0-2@6"))
    done = RUNNER.invoke(app, ["review", str(source), "--all", "--samples", "4", "--json"])
    report = json.loads(done.stdout)
    assert set(report) == {"variant", "players", "seats", "by", "seconds", "open_hands_note", "summaries",
                           "decisions"}
    assert report["seats"] == [0, 1] and report["by"] == "boneyard 0.1.0 review expert:samples=4 seed=0"
    for summary in report["summaries"]:
        assert set(summary) == {"seat", "name", "decisions", "forced", "accuracy", "points_lost", "marks",
                                "costliest"}
    for decision in report["decisions"]:
        assert set(decision) == {"hand", "move_number", "seat", "played", "best", "mark", "value", "best_value",
                                 "loss", "interval", "win", "best_win", "samples", "exact", "open_hands", "comment",
                                 "moves", "annotation"}
        assert decision["samples"] == 4 and decision["win"] is None
        assert set(decision["annotation"]) <= {"value", "best", "best_value", "interval", "mark", "open_hands",
                                               "comment", "by"}


def test_samples_and_seed_give_the_same_output_twice(tmp_path: Path) -> None:
    data = record.to_record(greedy_game("pip", 4, 3))
    source = write(tmp_path / "g.boneyard.json", {**data, "hands": data["hands"][:1]})
    runs = [json.loads(RUNNER.invoke(app, ["review", str(source), "--all", "--samples", "3", "--seed", "9",
                                           "--json"]).stdout) for _ in range(2)]
    for run in runs:
        run.pop("seconds")
    assert runs[0] == runs[1] and runs[0]["decisions"]


# ---------------------------------------------------------------------------- --write and replay
def test_write_keeps_other_annotations_and_replay_shows_the_review(tmp_path: Path) -> None:
    data = record.to_record(greedy_game("block", 3, 4, partnerships=True, partnership_block="lowest_hand"))
    data = {**data, "hands": data["hands"][:2]}
    moves = len(data["hands"][1]["moves"])
    data["hands"][1]["annotations"] = [{"comment": "kept"}] + [None] * (moves - 1)
    seat = record.replay(data).log[1].events[0].seat
    other = (seat + 1) % 4  # reviews a seat that did not make the annotated first move of hand 2
    source = write(tmp_path / "g.boneyard.json", data)
    out = tmp_path / "out.boneyard.json"
    done = RUNNER.invoke(app, ["review", str(source), "--seat", str(other), "--samples", "3", "--json",
                               "--write", str(out)])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    written = record.load(out)
    notes = record.annotations_of(written)
    assert notes[1][0] == {"comment": "kept"}
    for decision in report["decisions"]:
        assert notes[decision["hand"] - 1][decision["move_number"] - 1] == decision["annotation"]
    count = sum(note is not None for hand in notes for note in hand)
    assert count == len(report["decisions"]) + 1
    text = RUNNER.invoke(app, ["replay", str(out)])
    assert text.exit_code == 0 and text.stdout.count("» ") == count
    as_json = RUNNER.invoke(app, ["replay", str(out), "--json"])
    assert as_json.exit_code == 0
    events = [event for hand in json.loads(as_json.stdout)["hands"] for event in hand["events"]]
    assert sum("annotation" in event for event in events) == count


def test_write_refusals_and_force_onto_the_input(tmp_path: Path) -> None:
    source = write(tmp_path / "g.boneyard.json", block_endgame("0-2@6"))
    before = source.read_bytes()
    line = refused(RUNNER.invoke(app, ["review", str(source), "--samples", "2", "--write", str(source)]))
    assert "the reviewed record itself" in line and "--force" in line and source.read_bytes() == before
    missing = tmp_path / "nope" / "out.json"
    line = refused(RUNNER.invoke(app, ["review", str(source), "--samples", "2", "--write", str(missing)]))
    assert "no folder" in line and not missing.parent.exists()
    forced = RUNNER.invoke(app, ["review", str(source), "--seat", "1", "--samples", "2", "--write", str(source),
                                 "--force"])
    assert forced.exit_code == 0, forced.output
    assert record.annotations_of(record.load(source))[0][9]["best"] == "5-4@8"
    assert RUNNER.invoke(app, ["replay", str(source), "--json"]).exit_code == 0


# ---------------------------------------------------------------------------- the command's edge cases
@pytest.mark.parametrize(("args", "said"), [
    (["--seat", "2"], "--seat 2: the game has seats 0-1"),
    (["--seat", "-1"], "--seat -1"),
    (["--seat", "0", "--all"], "not both"),
    (["--time", "0.1", "--samples", "4"], "not both"),
    (["--samples", "1"], "--samples 1"),
    (["--time", "nan"], "--time nan"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], said: str) -> None:
    source = write(tmp_path / "g.boneyard.json", block_endgame("0-2@6"))
    assert said in refused(RUNNER.invoke(app, ["review", str(source), *args]))


def test_a_record_cut_short_is_reviewed_up_to_its_last_move(tmp_path: Path) -> None:
    data = block_endgame("0-2@6")
    data["hands"][0]["moves"] = data["hands"][0]["moves"][:6]
    done = RUNNER.invoke(app, ["review", str(write(tmp_path / "g.boneyard.json", data)), "--all", "--samples",
                               "3", "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert all(d["move_number"] <= 6 for d in report["decisions"])
    assert sum(s["decisions"] + s["forced"] for s in report["summaries"]) == 6


def test_a_human_seat_the_game_lacks_falls_back_to_seat_0(tmp_path: Path) -> None:
    data = {**block_endgame("0-2@6"), "meta": {"human_seat": 3}}  # meta is free-form (RECORD.md)
    done = RUNNER.invoke(app, ["review", str(write(tmp_path / "g.boneyard.json", data)), "--samples", "2",
                               "--json"])
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["seats"] == [0]


    data["hands"][0]["moves"] = []
    source = write(tmp_path / "empty.boneyard.json", data)
    line = refused(RUNNER.invoke(app, ["review", str(source), "--samples", "2"]))
    assert str(source) in line


def test_a_seat_with_only_forced_moves_in_the_json(tmp_path: Path) -> None:
    game = greedy_game("block", 10, 2, target=1)  # one hand; Bob's every move is forced
    result = review(record.to_record(game), [1], Settings(samples=2, open_hands=False))
    assert result.decisions == [] and result.summaries[0].forced > 0
    assert review_json(result)["summaries"][0]["decisions"] == 0


def test_the_browser_gives_no_accuracy_to_a_seat_without_decisions(tmp_path: Path) -> None:
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("/usr/bin/chromium is not installed")
    pytest.importorskip("fastapi")
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.test_browser import ARGS, Server, open_page

    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        room = server.post("/api/records", {"record": record.to_record(greedy_game("block", 10, 2, target=1))})
        with sync_api.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            try:
                page = open_page(browser, f"{server.url}/replay/{room['id']}#review-1")
                page.wait_for_function("() => { const box = document.querySelector('#review-panel');"
                                       " return box && box.innerText.startsWith('Bob'); }", timeout=60_000)
                text = page.inner_text("#review-panel")
            finally:
                browser.close()
    finally:
        server.stop()
    assert "0 forced" not in text and "4 forced moves skipped" in text  # Bob's own summary
    assert "accuracy 100%" not in text
