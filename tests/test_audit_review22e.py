"""Audit 22e of the game review as players use it after real games (docs/review.md, RECORD.md "Annotations").

Reviews of simulated games in partnership Block, PIP and the other variants checked for consistent numbers and
annotations, the command's refusals, annotations from other tools kept or replaced, and what the words claim.

Found and fixed: the review said a partner "has shown not to hold" a suit it never passed or drew on (a void
known only by counting the tiles is now "cannot hold", and a suit nobody else can follow either is not blamed),
and `boneyard replay` printed another tool's multi-line comment as several lines (now folded onto the move's).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boneyard import record
from boneyard.cli import app
from boneyard.review.analysis import THRESHOLDS, Settings, facts, positions, review
from boneyard.review.report import review_json
from boneyard.view import SeatView
from tests.test_audit_review import refused, write
from tests.test_review import greedy_game

RUNNER = CliRunner()
KEYS = {"value", "best", "best_value", "interval", "mark", "open_hands", "comment", "by"}

#: Partnership Block (seats 0+2 against 1+3), a simulated game cut after hand 2's move 26: random#3 (seat 3, holding
#: 6-4 6-2 4-3) chooses between 6-4@21 and 6-2@21. Every 4 but its own two is on the table, so its partner random
#: cannot hold a 4 -- nor can anybody else; random never passed or drew on 4s.
PARTNER_COUNTED: dict[str, Any] = {
    "format": "boneyard/1", "variant": "block", "options": {"target": 30, "partnerships": True},
    "players": ["greedy", "random", "random#2", "random#3"], "hands": [
        {"deal": [["6-5", "6-3", "6-2", "6-1", "5-1", "3-3", "1-1"], ["6-6", "6-4", "6-0", "5-4", "5-3", "3-2", "2-1"],
                  ["5-2", "4-2", "4-0", "3-1", "3-0", "2-0", "0-0"], ["5-5", "5-0", "4-4", "4-3", "4-1", "2-2", "1-0"]],
         "moves": ["6-6", "pass", "pass", "6-5@1", "5-4@2", "4-2@3", "2-2@4", "6-3@1", "3-2@6", "2-5@7", "5-0@8",
                   "2-6@5", "0-6@9", "pass", "pass", "6-1@10", "6-4@11", "1-3@12", "3-4@14", "pass", "pass",
                   "4-0@13", "4-4@15", "pass", "pass", "0-3@16", "4-1@17", "1-5@19", "5-3@20", "pass", "pass",
                   "3-3@18", "pass", "pass", "pass", "pass"]},
        {"deal": [["5-3", "5-2", "4-4", "4-0", "3-3", "3-2", "0-0"], ["5-4", "4-2", "4-1", "3-1", "3-0", "1-1", "1-0"],
                  ["6-5", "6-3", "6-0", "5-5", "5-0", "2-2", "2-0"], ["6-6", "6-4", "6-2", "6-1", "5-1", "4-3", "2-1"]],
         "moves": ["6-0", "6-6@1", "0-4@1", "4-2@3", "2-2@4", "6-1@2", "2-5@5", "5-4@7", "pass", "1-2@6", "4-4@8",
                   "4-1@10", "2-0@9", "1-5@11", "5-3@13", "3-0@14", "0-5@12", "pass", "0-0@15", "0-1@17", "5-5@16",
                   "pass", "pass", "1-3@18", "3-6@20", "6-4@21"]}],
}


def check_report(report: dict[str, Any], data: dict[str, Any]) -> None:
    """The numbers of a review agree with each other, with the thresholds and with the record's moves."""
    thresholds = THRESHOLDS[report["variant"]]
    turns: Counter[int] = Counter(game.turn for game, _, _, _ in positions(data))
    for d in report["decisions"]:
        assert d["best_value"] - d["value"] == pytest.approx(d["loss"], abs=1e-9)
        low, high = d["interval"]
        assert low - 1e-9 <= d["loss"] <= high + 1e-9
        moves = {m["move"] for m in d["moves"]}
        assert len(moves) >= 2 and {d["played"], d["best"]} <= moves  # a forced move is never judged
        by_game = "of a game won" in d["comment"]
        if d["mark"] != "best" and not by_game:
            assert low > 0 and thresholds.mark(d["loss"]) == d["mark"], d
        if d["mark"] == "best" and d["played"] != d["best"] and not by_game:
            assert low <= 0 or thresholds.mark(d["loss"]) == "best", d
        assert (d["comment"] == "") == (d["played"] == d["best"])
        note = d["annotation"]
        assert set(note) <= KEYS and note["mark"] == d["mark"] and note["best"] == d["best"]
        assert note["value"] == round(d["value"], 2) and isinstance(note["interval"], list)
    for s in report["summaries"]:
        mine = [d for d in report["decisions"] if d["seat"] == s["seat"]]
        marks = Counter(d["mark"] for d in mine)
        assert s["decisions"] == len(mine) and s["decisions"] + s["forced"] == turns[s["seat"]]
        assert all(s["marks"][m] == marks.get(m, 0) for m in s["marks"])
        if mine:
            assert s["accuracy"] == pytest.approx(marks["best"] / len(mine))
        assert s["points_lost"] == pytest.approx(sum(max(0.0, d["loss"]) for d in mine if d["mark"] != "best"))
        assert len(s["costliest"]) == min(3, len(mine) - marks["best"])


@pytest.mark.parametrize(("variant", "seats", "options"), [
    ("block", 4, {"partnerships": True, "target": 20}),
    ("pip", 3, {}),
    ("all-fives", 2, {"target": 30}),
    ("flower-scorpion", 2, {"target": 4}),
])
def test_every_seat_s_numbers_add_up_and_the_written_record_replays_the_same(
        tmp_path: Path, variant: str, seats: int, options: dict[str, Any]) -> None:
    data = record.to_record(greedy_game(variant, 3, seats, **options))
    data["hands"] = data["hands"][:1]
    data["hands"][0]["moves"] = data["hands"][0]["moves"][:24]  # (a record cut short is reviewed up to its end)
    source, out = write(tmp_path / "g.boneyard.json", data), tmp_path / "out.boneyard.json"
    done = RUNNER.invoke(app, ["review", str(source), "--all", "--json", "--samples", "6", "--no-open-hands",
                               "--write", str(out)])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    check_report(report, data)
    written = json.loads(out.read_text(encoding="utf-8"))
    notes = [note for hand in written["hands"] for note in hand.get("annotations", [])]
    assert sum(note is not None for note in notes) == len(report["decisions"])
    assert len(written["hands"][0].get("annotations", [])) <= len(written["hands"][0]["moves"])
    assert {k: v for k, v in written.items() if k != "hands"} == {k: v for k, v in data.items() if k != "hands"}
    before = json.loads(RUNNER.invoke(app, ["replay", str(source), "--json"]).stdout)
    after = json.loads(RUNNER.invoke(app, ["replay", str(out), "--json"]).stdout)
    for hand in after["hands"]:
        for event in hand["events"]:
            event.pop("annotation", None)
    assert after == before


def test_a_second_review_replaces_its_own_notes_and_keeps_another_tool_s(tmp_path: Path) -> None:
    data = record.to_record(greedy_game("block", 3, 2, target=30))
    moves = data["hands"][0]["moves"]
    foreign = {"mark": "brilliant", "by": "other-tool 1.0", "engine_depth": 12, "value": "n/a"}
    data["hands"][0]["annotations"] = [foreign] * len(moves)  # one on every move, both seats'
    source = write(tmp_path / "g.boneyard.json", data)
    done = RUNNER.invoke(app, ["review", str(source), "--seat", "0", "--samples", "4", "--json",
                               "--no-open-hands", "--write", str(source), "--force"])
    assert done.exit_code == 0, done.output
    judged = {(d["hand"], d["move_number"]) for d in json.loads(done.stdout)["decisions"]}
    written = json.loads(source.read_text(encoding="utf-8"))
    assert written["hands"][0]["moves"] == moves  # the game is not lost
    for number, note in enumerate(written["hands"][0]["annotations"], 1):
        if (1, number) in judged:
            assert note["by"].startswith("boneyard ") and "engine_depth" not in note
        else:
            assert note == foreign
    assert RUNNER.invoke(app, ["replay", str(source)]).exit_code == 0


def test_an_illegal_move_is_one_line_naming_it_and_nothing_is_written(tmp_path: Path) -> None:
    data = record.to_record(greedy_game("draw", 3, 2, target=30))
    data["hands"][0]["moves"][3] = "6-6@1"
    out = tmp_path / "out.boneyard.json"
    line = refused(RUNNER.invoke(app, ["review", str(write(tmp_path / "g.boneyard.json", data)), "--samples",
                                       "2", "--write", str(out)]))
    assert 'hand 1, move 4 "6-6@1"' in line and "g.boneyard.json" in line
    assert not out.exists()


@pytest.mark.parametrize(("content", "said"), [
    ("hello", "not valid JSON"),
    ("[1, 2]", "a record is a JSON object"),
    ('{"format": "boneyard/1"}', "g.boneyard.json"),
])
def test_a_file_that_is_not_a_record_is_one_line(tmp_path: Path, content: str, said: str) -> None:
    source = tmp_path / "g.boneyard.json"
    source.write_text(content, encoding="utf-8")
    assert said in refused(RUNNER.invoke(app, ["review", str(source), "--samples", "2"]))


def test_a_folder_and_a_missing_file_are_one_line(tmp_path: Path) -> None:
    assert "not a regular file" in refused(RUNNER.invoke(app, ["review", str(tmp_path)]))
    assert "cannot read" in refused(RUNNER.invoke(app, ["review", str(tmp_path / "nope.json")]))


def test_partnership_seat_and_samples_refusals(tmp_path: Path) -> None:
    source = write(tmp_path / "g.boneyard.json", PARTNER_COUNTED)
    assert "--seat 4: the game has seats 0-3" in refused(RUNNER.invoke(app, ["review", str(source), "--seat", "4"]))
    assert "not both" in refused(RUNNER.invoke(app, ["review", str(source), "--seat", "1", "--all"]))
    assert "--samples 0" in refused(RUNNER.invoke(app, ["review", str(source), "--samples", "0"]))
    assert "--samples 100001" in refused(RUNNER.invoke(app, ["review", str(source), "--samples", "100001"]))


def test_a_partnership_review_values_the_side() -> None:
    result = review(PARTNER_COUNTED, [3], Settings(samples=6, open_hands=False), hands=[2])
    report = review_json(result)
    assert [d["move_number"] % 4 for d in report["decisions"]] == [2] * len(report["decisions"])  # seat 3's turns
    check_report({**report, "summaries": []}, PARTNER_COUNTED)


def _seat3_view() -> SeatView:
    for game, hand, number, _ in positions(PARTNER_COUNTED):
        if (hand, number) == (2, 26):
            return SeatView(game, game.turn)
    raise AssertionError("no such move")


def test_the_partner_is_not_said_to_have_shown_a_void_nobody_showed() -> None:
    view = _seat3_view()
    assert view.seat == 3 and sorted(str(m) for m in view.legal_moves()) == ["6-2@21", "6-4@21"]
    words = " ".join(fact.words for fact in facts(view, view.legal_moves()[1], view.legal_moves()[0]))
    words += " ".join(fact.words for fact in facts(view, view.legal_moves()[0], view.legal_moves()[1]))
    assert "shown not to hold" not in words, words


def test_the_review_comment_does_not_claim_a_shown_void() -> None:
    result = review(PARTNER_COUNTED, [3], Settings(samples=20, open_hands=False), hands=[2])
    comment = next(d.comment for d in result.decisions if d.number == 26)
    assert "shown not to hold" not in comment, comment


def test_replay_keeps_a_multi_line_comment_on_its_move(tmp_path: Path) -> None:
    data = record.to_record(greedy_game("block", 3, 2, target=30))
    first = data["hands"][0]["moves"][0]
    data["hands"][0]["annotations"] = [{"comment": "fine\n    2. Bob   6-6@1", "mark": "best"}]
    done = RUNNER.invoke(app, ["replay", str(write(tmp_path / "g.boneyard.json", data))])
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("1.") and line.rstrip().endswith(first))
    assert lines[at + 1].lstrip().startswith("»")
    assert not lines[at + 2].lstrip().startswith("2. Bob   6-6@1")  # the next line is the real move 2
