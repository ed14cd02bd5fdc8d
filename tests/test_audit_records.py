"""Audit of game records as users and attackers meet them: replay of malformed files, save and resume,
review --write, and the web table's record endpoints (RECORD.md, docs/record.md, docs/review.md).

Only behaviour that is correct today is asserted here; each test names the contract it holds to.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard import jsontext, record
from boneyard.errors import NotationError, RecordError
from boneyard.moves import Move

Record = dict[str, Any]


def run(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real command in a subprocess, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "boneyard", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "100"},
    )


def one_line_error(done: subprocess.CompletedProcess[str], *parts: str) -> None:
    """Exit status 2, nothing on standard output, one line on standard error naming ``parts``."""
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    for part in parts:
        assert part in lines[0], (part, lines[0])


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An unfinished All Fives game saved by ``boneyard play`` (seed 3, the human played three moves)."""
    path = tmp_path_factory.mktemp("audit") / "game.boneyard.json"
    done = run("play", "all-fives", "--seed", "3", "--save", str(path), stdin="1\n1\n1\nq\n")
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture
def base(game_file: Path) -> Record:
    data = json.loads(game_file.read_text())
    assert isinstance(data, dict)
    return data


def _set(path: tuple[Any, ...], value: Any) -> Callable[[Record], None]:
    def change(data: Record) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _drop(*path: Any) -> Callable[[Record], None]:
    def change(data: Record) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


HAND = ("hands", 0)

# (name, change of the good record, words the error line must hold besides the file name)
MALFORMED: list[tuple[str, Callable[[Record], None], tuple[str, ...]]] = [
    ("wrong format", _set(("format",), "boneyard/2"), ("format", "boneyard/2")),
    ("no format", _drop("format"), ("format",)),
    ("unknown variant", _set(("variant",), "chess"), ("variant", "chess")),
    ("variant not a string", _set(("variant",), 5), ("'variant'",)),
    ("unknown option", _set(("options",), {"bogus": 1}), ("options", "bogus")),
    ("bad option value", _set(("options",), {"target": "abc"}), ("options", "target")),
    ("option out of range", _set(("options",), {"target": -5}), ("options", "target")),
    ("options not an object", _set(("options",), []), ("'options'",)),
    ("one player", _set(("players",), ["A"]), ("players",)),
    ("nine players", _set(("players",), list("ABCDEFGHI")), ("players",)),
    ("a name not a string", _set(("players", 1), 3), ("players, seat 1",)),
    ("hands not a list", _set(("hands",), {}), ("'hands'",)),
    ("a hand not an object", _set(("hands",), ["x"]), ("hand 1",)),
    ("deal of three seats", lambda r: r["hands"][0]["deal"].append([]), ("hand 1", "deal")),
    ("a short deal", lambda r: r["hands"][0]["deal"][0].pop(), ("hand 1", "seat 0")),
    ("duplicate tile", _set((*HAND, "deal", 0, 0), "6-6"), ("hand 1", "6-6", "twice")),
    ("duplicate in stock", _set((*HAND, "stock", 0), "6-6"), ("hand 1", "6-6", "twice")),
    ("bad tile text", _set((*HAND, "deal", 0, 0), "6-x"), ("hand 1", "seat 0, tile 1")),
    ("tile outside the set", _set((*HAND, "deal", 0, 0), "7-6"), ("hand 1", "7-6")),
    ("tile not a string", _set((*HAND, "deal", 0, 0), 62), ("hand 1", "seat 0, tile 1")),
    ("stock missing", _drop(*HAND, "stock"), ("hand 1", "'stock'")),
    ("stock short", lambda r: r["hands"][0]["stock"].pop(), ("hand 1", "tile set")),
    ("moves missing", _drop(*HAND, "moves"), ("hand 1", "'moves'")),
    ("move not a string", _set((*HAND, "moves", 1), 5), ("hand 1, move 2",)),
    ("illegal move", _set((*HAND, "moves", 1), "6-2@9"), ('hand 1, move 2 "6-2@9"',)),
    ("leader not a seat", _set((*HAND, "leader"), 5), ("hand 1", "leader")),
    ("leader not a number", _set((*HAND, "leader"), "0"), ("hand 1", "'leader'")),
    ("dice in a game without", _set((*HAND, "dice"), {"flower": [1, 2], "scorpion": [3, 4]}), ("hand 1", "dice")),
    ("annotations not a list", _set((*HAND, "annotations"), "x"), ("hand 1", "'annotations'")),
    ("annotation not an object", _set((*HAND, "annotations"), [1]), ("hand 1", "'annotations'")),
    ("more annotations than moves", _set((*HAND, "annotations"), [None] * 8), ("hand 1", "8 entries")),
    ("a hand after an unfinished one", lambda r: r["hands"].append(copy.deepcopy(r["hands"][0])), ("hand 2",)),
]


@pytest.mark.parametrize(("name", "change", "words"), MALFORMED, ids=[case[0] for case in MALFORMED])
def test_replay_of_a_malformed_record_is_one_line_and_exit_2(
    tmp_path: Path, base: Record, name: str, change: Callable[[Record], None], words: tuple[str, ...]
) -> None:
    data = copy.deepcopy(base)
    change(data)
    path = tmp_path / "bad.boneyard.json"
    path.write_text(json.dumps(data))
    for extra in ([], ["--json"]):
        one_line_error(run("replay", str(path), *extra), str(path), *words)


RAW: list[tuple[str, bytes, str]] = [
    ("not JSON", b"{not json", "not valid JSON"),
    ("empty", b"", "empty, so not a record"),
    ("blank", b" \n", "empty, so not a record"),
    ("cut short", b'{"format": "boneyard/1", "variant": "blo', "the text ends there: was the file cut short?"),
    ("a list", b"[1, 2]", "JSON object"),
    ("deeply nested", b"[" * 100_000 + b"]" * 100_000, "nested deeper"),
    ("not UTF-8", b'{"format": "boneyard/1", "variant": "\xff"}', "not UTF-8"),
    ("UTF-16", json.dumps({"format": "boneyard/1"}).encode("utf-16"), "not UTF-8"),
]


@pytest.mark.parametrize(("name", "raw", "words"), RAW, ids=[case[0] for case in RAW])
def test_replay_of_a_file_that_is_no_record(tmp_path: Path, name: str, raw: bytes, words: str) -> None:
    path = tmp_path / "bad.boneyard.json"
    path.write_bytes(raw)
    one_line_error(run("replay", str(path)), str(path), words)


def test_replay_of_what_is_not_a_file(tmp_path: Path) -> None:
    one_line_error(run("replay", str(tmp_path)), str(tmp_path), "not a regular file")
    one_line_error(run("replay", str(tmp_path / "missing.json")), "missing.json", "No such file")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    one_line_error(run("replay", str(fifo)), str(fifo), "not a regular file")


def test_replay_of_a_file_over_the_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.boneyard.json"
    path.write_text(" " * 2048 + "{}")
    monkeypatch.setattr(record, "MAX_RECORD_BYTES", 1024)
    with pytest.raises(RecordError, match="too large"):
        record.load(path)


def test_resume_keeps_annotations_of_the_moves_kept_and_never_changes_the_moves(tmp_path: Path, base: Record) -> None:
    data = copy.deepcopy(base)
    notes = [{"comment": "the lead"}, None, {"mark": "best", "custom": [1, 2]}]
    data["hands"][0]["annotations"] = notes
    path = tmp_path / "annotated.boneyard.json"
    path.write_text(json.dumps(data))
    done = run("play", "--resume", str(path), stdin="1\nq\n")
    assert done.returncode == 0, done.stderr
    after = json.loads(path.read_text())
    moves = after["hands"][0]["moves"]
    assert moves[: len(base["hands"][0]["moves"])] == base["hands"][0]["moves"]
    assert len(moves) > len(base["hands"][0]["moves"])
    assert after["hands"][0]["annotations"] == notes
    assert run("replay", str(path)).returncode == 0


def test_resuming_a_finished_game_leaves_its_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "done.boneyard.json"
    assert run("play", "block", "--seed", "5", "--save", str(path), stdin="1\n" * 3000).returncode == 0
    before = path.read_bytes()
    assert json.loads(run("replay", str(path), "--json").stdout)["finished"] is True
    done = run("play", "--resume", str(path), stdin="1\n")
    assert done.returncode == 0
    assert "finished game" in done.stdout
    assert path.read_bytes() == before


def test_a_corrupted_save_file_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "cut.boneyard.json"
    path.write_text('{"format": "boneyard/1", "varia')
    before = path.read_bytes()
    one_line_error(run("play", "--resume", str(path), stdin="q\n"), str(path), "not valid JSON")
    one_line_error(run("play", "block", "--save", str(path), stdin="q\n"), str(path), "--force")
    assert path.read_bytes() == before


def test_resume_with_a_variant_or_an_illegal_record_changes_nothing(tmp_path: Path, base: Record) -> None:
    path = tmp_path / "game.boneyard.json"
    path.write_text(json.dumps(base))
    before = path.read_bytes()
    one_line_error(run("play", "block", "--resume", str(path), stdin="q\n"), "--resume", "variant")
    bad = copy.deepcopy(base)
    bad["hands"][0]["moves"][1] = "6-2@9"
    path.write_text(json.dumps(bad))
    before = path.read_bytes()
    other = tmp_path / "other.boneyard.json"
    one_line_error(run("play", "--resume", str(path), "--save", str(other), stdin="q\n"), str(path), "move 2")
    assert path.read_bytes() == before
    assert not other.exists()


def test_a_failed_atomic_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "kept.boneyard.json"
    path.write_text("old")

    def refuse(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        record.write_atomically(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.boneyard.json"]  # no temporary file left behind


def test_review_write_needs_force_and_keeps_other_annotations(tmp_path: Path, base: Record) -> None:
    data = copy.deepcopy(base)
    data["hands"][0]["annotations"] = [{"comment": "a computer's lead"}]  # seat 1's move: not reviewed for seat 0
    source = tmp_path / "game.boneyard.json"
    source.write_text(json.dumps(data))
    out = tmp_path / "reviewed.boneyard.json"
    review = ["review", "--samples", "2", "--no-open-hands", "--seat", "0"]
    assert run(*review, str(source), "--write", str(out)).returncode == 0
    written = json.loads(out.read_text())
    assert written["hands"][0]["moves"] == base["hands"][0]["moves"]
    notes = written["hands"][0]["annotations"]
    assert notes[0] == {"comment": "a computer's lead"}
    assert any(isinstance(note, dict) and "mark" in note for note in notes[1:])
    replayed = json.loads(run("replay", str(out), "--json").stdout)
    assert replayed["hands"][0]["events"][0]["annotation"] == {"comment": "a computer's lead"}
    before = out.read_bytes()
    one_line_error(run(*review, str(source), "--write", str(out)), "--force")
    one_line_error(run(*review, str(out), "--write", str(out)), "reviewed record itself", "--force")
    assert out.read_bytes() == before
    assert run(*review, str(out), "--write", str(out), "--force").returncode == 0
    assert json.loads(out.read_text())["hands"][0]["annotations"][0] == {"comment": "a computer's lead"}


@pytest.fixture
def web_client(tmp_path: Path) -> Iterator[Any]:
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    from fastapi.testclient import TestClient

    from boneyard.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay=0)
    with TestClient(app, base_url="http://localhost", raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize(("name", "change", "words"), MALFORMED, ids=[case[0] for case in MALFORMED])
def test_web_refuses_a_malformed_record_with_a_4xx_and_stores_nothing(
    web_client: Any, base: Record, name: str, change: Callable[[Record], None], words: tuple[str, ...]
) -> None:
    data = copy.deepcopy(base)
    change(data)
    for body in ({"record": data}, {"record": json.dumps(data)}):
        for url in ("/api/replay", "/api/records"):
            response = web_client.post(url, json=body)
            assert 400 <= response.status_code < 500, (url, response.status_code, response.text[:300])
            assert response.json()["detail"]
    assert web_client.get("/api/games").json() == []


def test_web_refuses_bodies_that_are_no_json(web_client: Any) -> None:
    for raw in (b"{not json", b"[" * 10_000 + b"]" * 10_000, b'{"record": "\xff"}', b"[1]"):
        response = web_client.post("/api/records", content=raw, headers={"content-type": "application/json"})
        assert response.status_code == 400, response.text[:300]
    assert web_client.post("/api/records", json={"record": "{not json"}).status_code == 400
    assert web_client.get("/api/games").json() == []


# ---------------------------------------------------------------- what the audit found, fixed
def finished_block(seed: int = 4) -> Record:
    """A finished two-player Block game, played by random choices."""
    game = boneyard.new_game("block", 2, seed=seed, names=["Ann", "Bob"])
    rng = random.Random(seed)
    while not game.finished:
        if game.hand_over:
            game.next_hand()
        else:
            game.apply(rng.choice(game.legal_moves()))
    return record.to_record(game)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"players": ["Ann", "\\ud800"]}', "players[1]: a lone surrogate"),
        ('{"hands": [{"annotations": [null, {"comment": "\\udc00"}]}]}', "hands[0].annotations[1].comment"),
        ('{"meta": {"\\ud800": 1}}', "meta: a key holds a lone surrogate"),
        ('{"seed": NaN}', "NaN is not a JSON number"),
        ('{"seed": -Infinity}', "-Infinity is not a JSON number"),
        ('{"hands": [{"annotations": [{"value": 1e400}]}]}', "hands[0].annotations[0].value: a number too large"),
        ('{"seed": ' + "9" * 5000 + "}", "a number of more than"),
    ],
)
def test_json_that_is_no_sound_text_is_refused_naming_where(text: str, words: str) -> None:
    with pytest.raises(jsontext.JSONValueError, match=re.escape(words)):
        jsontext.loads(text)
    with pytest.raises(RecordError, match=re.escape(words)):
        record.loads(text, "game.json")
    assert jsontext.loads('{"name": "\\ud83d\\ude00 \\u00e9"}') == {"name": "\U0001f600 é"}  # a pair is text


def test_replay_refuses_a_lone_surrogate_in_a_name_in_one_line(tmp_path: Path, base: Record) -> None:
    path = tmp_path / "odd.boneyard.json"
    path.write_text(json.dumps(base).replace('"You"', '"\\ud800"', 1))
    assert "\\ud800" in path.read_text()
    for extra in ((), ("--json",)):
        one_line_error(run("replay", str(path), *extra), str(path), "players[0]", "lone surrogate")


@pytest.mark.parametrize(
    "text", ["\u00b2-6", "6-\u00b2@1", "6-2@\u0661", "\u0666-2", "6-" + "9" * 5000, "6-2@" + "9" * 5000]
)
def test_digits_of_other_scripts_and_endless_numbers_are_no_notation(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        Move.parse(text)
    assert len(str(caught.value)) < 150  # the input is named, cut short
    bad = {**a_record(), "hands": [{**a_record()["hands"][0], "moves": [text]}]}
    with pytest.raises(RecordError, match=r"^hand 1, move 1 "):
        record.replay(bad)


def a_record() -> Record:
    return record.to_record(boneyard.new_game("block", 2, seed=1, names=["Ann", "Bob"]))


def test_the_text_replay_shows_an_annotation_whatever_its_numbers(tmp_path: Path) -> None:
    data = a_record()
    first = data["hands"][0]
    lead = str(record.replay(data).legal_moves()[0])
    first["moves"] = [lead]
    first["annotations"] = [
        {
            "value": 10**400,
            "best": "pass",
            "best_value": -(10**400),
            "interval": [1, 10**400],
            "open_hands": 2.5,
            "comment": "checked",
        }
    ]
    path = tmp_path / "big.boneyard.json"
    path.write_text(json.dumps(data))
    done = run("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert "too large to show" in done.stdout and "open hands (hindsight) +2.5" in done.stdout
    assert "checked" in done.stdout


def test_tiles_and_moves_written_another_way_keep_their_annotations() -> None:
    game = boneyard.new_game("draw", 2, seed=8, names=["Ann", "Bob"])
    for _ in range(4):
        game.apply(game.legal_moves()[0])
    data = record.to_record(game)
    hand = data["hands"][0]
    written = copy.deepcopy(data)
    written["hands"][0]["deal"] = [
        [f"{tile.split('-')[1]}-{tile.split('-')[0]}" for tile in seat] for seat in hand["deal"]
    ]  # 6-2 written 2-6: the same tile
    written["hands"][0]["moves"] = [move.upper() for move in hand["moves"]]
    notes = [{"comment": f"move {number}"} for number in range(1, 5)]
    written["hands"][0]["annotations"] = notes
    again = record.to_record(record.replay(written))
    record.keep_annotations(written, again)
    assert again["hands"][0]["annotations"] == notes
    changed = copy.deepcopy(written)
    changed["hands"][0]["moves"][2] = "pass"  # the moves part after move 2: only two annotations still hold
    record.keep_annotations(changed, cut := record.to_record(record.replay(written)))
    assert cut["hands"][0]["annotations"] == notes[:2]


def test_resume_saved_elsewhere_keeps_the_annotations_and_the_meta(tmp_path: Path, base: Record) -> None:
    data = copy.deepcopy(base)
    data["meta"] = {**data.get("meta", {}), "event": "club night", "date": "2026-11-27"}
    notes = [{"comment": "the lead"}, None, {"mark": "best"}]
    data["hands"][0]["annotations"] = notes
    source = tmp_path / "annotated.boneyard.json"
    source.write_text(json.dumps(data))
    other = tmp_path / "other.boneyard.json"
    done = run("play", "--resume", str(source), "--save", str(other), stdin="1\nq\n")
    assert done.returncode == 0, done.stderr
    after = json.loads(other.read_text())
    assert after["hands"][0]["annotations"] == notes
    assert after["meta"]["event"] == "club night" and after["meta"]["date"] == "2026-11-27"
    assert after["meta"]["human_seat"] == 0 and after["meta"]["ai"]
    assert json.loads(source.read_text()) == data  # the source is left as it was


def test_a_bad_computer_level_in_the_meta_says_where_it_comes_from(tmp_path: Path, base: Record) -> None:
    data = copy.deepcopy(base)
    data["meta"] = {"human_seat": 0, "ai": {"1": "grandmaster"}}
    path = tmp_path / "level.boneyard.json"
    path.write_text(json.dumps(data))
    one_line_error(run("play", "--resume", str(path), stdin="q\n"), str(path), "meta.ai", "'grandmaster'")


@pytest.mark.skipif(os.name != "posix", reason="file modes and links")
def test_saving_keeps_the_files_mode_and_writes_through_a_link(tmp_path: Path) -> None:
    path = tmp_path / "mode.boneyard.json"
    path.write_text("old")
    path.chmod(0o640)
    record.write_atomically(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.boneyard.json"
    record.write_atomically(fresh, "{}")
    mask = os.umask(0o022)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask
    link = tmp_path / "link.boneyard.json"
    link.symlink_to(path)
    record.write_atomically(link, "through")
    assert link.is_symlink() and path.read_text() == "through"


def test_review_write_into_a_missing_folder_is_refused_before_the_review(tmp_path: Path, base: Record) -> None:
    source = tmp_path / "game.boneyard.json"
    source.write_text(json.dumps(base))
    one_line_error(
        run("review", str(source), "--samples", "100000", "--write", str(tmp_path / "no" / "x.json")),
        "--write",
        "no folder",
    )
    bad = copy.deepcopy(base)
    bad["hands"][0]["annotations"] = [None] * (len(bad["hands"][0]["moves"]) + 1)
    source.write_text(json.dumps(bad))
    one_line_error(run("review", str(source), "--samples", "2"), str(source), "'annotations' has")


def test_web_keeps_an_uploaded_records_annotations_and_meta(web_client: Any) -> None:
    data = finished_block()
    data["meta"] = {"event": "club night"}
    data["hands"][0]["annotations"] = [{"comment": "a fine lead"}]
    made = web_client.post(
        "/api/records",
        json={
            "record": data,
            "seats": [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "computer", "level": "greedy"}],
        },
    )
    assert made.status_code == 201, made.text[:300]
    down = web_client.get(f"/api/games/{made.json()['id']}/record")
    assert down.status_code == 200, down.text[:300]
    back = json.loads(down.text)
    # the uploaded meta is kept; the table adds who played (the one person's seat, the computers' levels)
    assert back["hands"] == data["hands"] and back["meta"] == {"event": "club night", "human_seat": 0,
                                                               "ai": {"1": "greedy"}}


def test_web_refuses_a_lone_surrogate_and_keeps_its_list_of_games(web_client: Any, base: Record) -> None:
    text = json.dumps({"record": base}).replace('"You"', '"\\ud800"', 1)
    for url in ("/api/records", "/api/replay"):
        response = web_client.post(url, content=text.encode(), headers={"content-type": "application/json"})
        assert response.status_code == 400 and "lone surrogate" in response.json()["detail"]
    response = web_client.post("/api/records", json={"record": json.dumps({"record": 1}).replace("1", '"\\ud800"')})
    assert response.status_code == 400
    assert web_client.get("/api/games").status_code == 200 and web_client.get("/api/games").json() == []


@pytest.mark.parametrize(("length", "status"), [("\u00b2".encode("latin-1"), 400), (b"9" * 5000, 413), (b"12x", 400)])
def test_web_reads_a_content_length_of_digits_only(web_client: Any, length: bytes, status: int) -> None:
    response = web_client.post(
        "/api/replay", content=b"{}", headers={"content-type": "application/json", "content-length": length}
    )
    assert response.status_code == status, response.text[:300]


def test_the_terminal_takes_odd_digits_as_a_wrong_answer_not_a_crash(tmp_path: Path, base: Record) -> None:
    path = tmp_path / "game.boneyard.json"
    path.write_text(json.dumps(base))
    moves = len(base["hands"][0]["moves"])
    done = run("play", "--resume", str(path), stdin="\u00b2\n6-\u00b2@1\n" + "9" * 5000 + "\n1\nq\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Choose 1 to" in done.stdout
    assert len(json.loads(path.read_text())["hands"][0]["moves"]) > moves  # the answer 1 was played and saved
