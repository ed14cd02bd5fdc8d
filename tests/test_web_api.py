"""The web table's REST API and WebSocket protocol (boneyard.web), through Starlette's TestClient."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import boneyard
from boneyard import record
from boneyard.rules.base import VARIANTS
from boneyard.web.app import create_app
from boneyard.web.limits import Limits
from boneyard.web.rooms import MAX_MESSAGE, Connection, ConnectionClosed, Room, SharedState

TILE = re.compile(r"(?<![\w@-])([0-9]{1,2}|[WSRAD])-([0-9]{1,2}|[WSRAD])(?![\w-])")
Message = dict[str, Any]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


class LocalClient(TestClient):
    """A TestClient that calls the server as localhost, the Host it accepts by default
    (TestClient's own, "testserver", is refused like any other unknown name)."""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, base_url="http://localhost", **kwargs)

    def websocket_connect(self, url: str, *args: Any, **kwargs: Any) -> WebSocketTestSession:
        return super().websocket_connect(urljoin("ws://localhost", url), *args, **kwargs)


#: A scripted client sends moves far faster than a person; the rate limits have tests of their own
#: (tests/test_web_limits.py), so here they must not drop a move on a fast machine.
SCRIPTED = Limits(messages_per_second=10_000, message_burst=10_000, hints_per_second=1_000, hint_burst=1_000,
                  chosen_deals=True)  # tables of two people dealt from a seed, the same every run


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with LocalClient(create_app(db, ai_delay=0, limits=SCRIPTED)) as test_client:
        yield test_client


def room_of(client: TestClient, game_id: str) -> Room:
    room = client.app.state.rooms.get(game_id)  # type: ignore[attr-defined]
    assert room is not None
    return room


def new_game(client: TestClient, variant: str = "draw", seats: list[Message] | None = None, **extra: Any) -> str:
    body = {"variant": variant, "seats": seats or [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            "seed": 11, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def receive_until(ws: WebSocketTestSession, predicate: Callable[[Message], bool], limit: int = 2000) -> Message:
    for _ in range(limit):
        message = ws.receive_json()
        if predicate(message):
            return message
        # an error the test did not wait for means the awaited message will never come: fail, not hang
        assert message["type"] != "error", f"unexpected error while waiting: {message}"
    raise AssertionError("the expected message never came")


def is_state(message: Message) -> bool:
    return message["type"] == "state"


def claim(ws: WebSocketTestSession, seat: int) -> tuple[str, Message]:
    receive_until(ws, is_state)  # the spectator's welcome state
    ws.send_json({"type": "claim", "seat": seat})
    claimed = receive_until(ws, lambda m: m["type"] == "claimed")
    state = receive_until(ws, lambda m: is_state(m) and m["you"] == seat)
    return str(claimed["token"]), state


def error(ws: WebSocketTestSession) -> Message:
    message = receive_until(ws, lambda m: m["type"] == "error")
    return message


# ---------------------------------------------------------------------------- REST
def test_variants_are_the_cli_variants_json(client: TestClient) -> None:
    rows = client.get("/api/variants").json()
    assert [row["name"] for row in rows] == list(VARIANTS)
    fives = next(row for row in rows if row["name"] == "all-fives")
    assert {"name": "spinner_mode", "default": "first_double"}.items() <= next(
        o for o in fives["options"] if o["name"] == "spinner_mode").items()


def test_meta_shares_pip_positions_and_levels(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert len(meta["pips"]["6"]) == 6 and "greedy" in meta["levels"] and meta["max_message"] == MAX_MESSAGE


def test_create_game_with_options_and_list_it(client: TestClient) -> None:
    game_id = new_game(client, "all-fives", [{"kind": "human", "name": "Ann"},
                                             {"kind": "computer", "level": "random"}], options={"target": 150})
    game = client.get(f"/api/games/{game_id}").json()
    assert game["variant"] == "all-fives" and game["players"][1]["kind"] == "computer"
    assert room_of(client, game_id).game.rules.options.target == 150
    listed = client.get("/api/games?status=running").json()
    assert [g["id"] for g in listed] == [game_id]
    assert client.get("/api/games?status=finished").json() == []


def test_players_shorthand_gives_you_against_computers(client: TestClient) -> None:
    response = client.post("/api/games", json={"variant": "block", "players": 3})
    kinds = [p["kind"] for p in response.json()["players"]]
    assert kinds == ["human", "computer", "computer"]


def test_seat_names_are_each_player_s_own(client: TestClient) -> None:
    # "You" is what the table calls each player itself, so no seat is named so; unnamed seats get a default
    game = client.post("/api/games", json={"variant": "block", "seats": [
        {"kind": "human", "name": "you"}, {"kind": "human", "name": "Ben"}, {"kind": "computer"}]}).json()
    assert [player["name"] for player in game["players"]] == ["Player 1", "Ben", "Computer 1"]
    response = client.post("/api/games", json={"variant": "block", "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "name": " ann "}]})
    assert response.status_code == 422
    assert response.json()["detail"] == ("seat 2: the name 'ann' is already seat 1's; give each player a name of "
                                         "their own")
    # a default name someone typed is skipped: the unnamed get the first one free
    game = client.post("/api/games", json={"variant": "block", "seats": [
        {"kind": "human", "name": "Player 1"}, {"kind": "human"}]}).json()
    assert [player["name"] for player in game["players"]] == ["Player 1", "Player 2"]
    # a terminal game's "You" gets a name of its own when its record comes to the table
    data = record.to_record(boneyard.new_game("draw", 2, seed=1, names=["You", "Computer 1 (greedy)"]))
    loaded = client.post("/api/records", json={"record": data}).json()
    assert [player["name"] for player in loaded["players"]] == ["Player 1", "Computer 1 (greedy)"]
    limit = client.get("/api/meta").json()["max_name"]
    too_long = client.post("/api/games", json={"variant": "block", "seats": [
        {"kind": "human", "name": "A" * (limit + 1)}, {"kind": "computer"}]})
    assert too_long.status_code == 422 and f"at most {limit} characters" in too_long.json()["detail"]


@pytest.mark.parametrize(("body", "words"), [
    ({"variant": "chess"}, "unknown variant"),
    ({"variant": "block", "seats": [{"kind": "robot"}, {"kind": "human"}]}, "kind must be human or computer"),
    ({"variant": "block", "seats": [{"kind": "human"}, {"kind": "computer", "level": "wizard"}]},
     "unknown player level"),
    ({"variant": "block", "seats": [{"kind": "human"}] * 9}, "block is for 2 to 4 players"),
    ({"variant": "block", "players": 2, "options": {"target": "lots"}}, "option 'target'"),
    ({"variant": "block", "players": 2, "options": {"target": 0}}, "option 'target': 0 is not a whole number from 1"),
    ({"variant": "all-fives", "players": 2, "options": {"target": 10**21}}, "not a whole number from 1 to 1,000,000"),
    ({"variant": "block", "players": 2, "options": {"colour": "red"}}, "unknown option"),
])
def test_bad_new_game_requests_say_what_is_wrong(client: TestClient, body: Message, words: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert words in response.json()["detail"]
    assert client.get("/api/games").json() == []


def test_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/api/games/nope").status_code == 404
    with client.websocket_connect("/ws/nope") as ws:
        assert ws.receive_json()["code"] == "no_game"


def test_record_download_waits_for_the_end_unless_you_play_alone(client: TestClient) -> None:
    two = new_game(client)
    assert client.get(f"/api/games/{two}/record").status_code == 403
    solo = new_game(client, seats=[{"kind": "human"}, {"kind": "computer"}])
    with client.websocket_connect(f"/ws/{solo}") as ws:
        token, _ = claim(ws, 0)
    assert client.get(f"/api/games/{solo}/record").status_code == 403
    response = client.get(f"/api/games/{solo}/record", params={"token": token})
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    assert record.replay(response.json()).rules.name == "draw"


def test_computers_alone_play_a_whole_game_then_replay_and_download(client: TestClient) -> None:
    game_id = new_game(client, "block", [{"kind": "computer", "level": "greedy"},
                                         {"kind": "computer", "level": "random"}])
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        final = receive_until(ws, lambda m: is_state(m) and m["finished"], limit=5000)
    assert final["you"] is None and final["summary"]["game_over"]
    assert client.get(f"/api/games/{game_id}").json()["status"] == "finished"
    downloaded = client.get(f"/api/games/{game_id}/record").json()
    game = record.replay(downloaded)
    assert game.finished and game.scores == [p["score"] for p in final["players"]]
    steps = client.get(f"/api/games/{game_id}/replay").json()
    assert len(steps["hands"]) == len(game.log)
    first = steps["hands"][0]
    assert len(first["steps"]) == len(game.log[0].events) + 1
    assert first["steps"][-1]["end"]["end"] in ("domino", "blocked")
    assert client.get("/api/games?status=finished").json()[0]["id"] == game_id


def test_replay_of_a_running_game_is_refused(client: TestClient) -> None:
    assert client.get(f"/api/games/{new_game(client)}/replay").status_code == 409


def test_replay_any_record_and_its_errors(client: TestClient) -> None:
    game = boneyard.new_game("all-fives", seed=3)
    while game.in_hand:
        game.apply(game.legal_moves()[0])
    data = record.to_record(game)
    steps = client.post("/api/replay", json={"record": data}).json()
    final = steps["hands"][0]["steps"][-1]
    assert final["scores"] == game.scores and final["placed"] == len(game.layout)
    data["hands"][0]["moves"][1] = "6-6@9"
    response = client.post("/api/replay", json={"record": json.dumps(data)})
    assert response.status_code == 400 and response.json()["detail"].startswith("hand 1, move 2")


def test_load_a_record_and_play_on(client: TestClient) -> None:
    game = boneyard.new_game("draw", seed=5, names=["Ann", "Bob"])
    for _ in range(3):
        game.apply(game.legal_moves()[0])
    response = client.post("/api/records", json={"record": record.dumps(record.to_record(game))})
    assert response.status_code == 201
    loaded = room_of(client, response.json()["id"])
    assert [s.kind for s in loaded.seats] == ["human", "computer"]
    moves = [str(event.move) for event in game.hand.events]
    assert [str(event.move) for event in loaded.game.log[0].events][:3] == moves  # the computer may go on
    bad = client.post("/api/records", json={"record": "{not json"})
    assert bad.status_code == 400 and "not valid JSON" in bad.json()["detail"]


def test_a_loaded_records_levels_are_read_as_the_terminal_wrote_them(client: TestClient) -> None:
    """The terminal stores ``--ai`` as typed: a level with settings is the table's own level of that name, and a
    name the table has no level of is greedy."""
    game = boneyard.new_game("block", 4, seed=2, names=["You", "Computer 1", "Computer 2", "Computer 3"])
    data = record.to_record(game)
    data["meta"] = {"human_seat": 0, "ai": {"1": "expert:time=2", "2": " Heuristic ", "3": "wizard"}}
    loaded = client.post("/api/records", json={"record": data})
    assert loaded.status_code == 201, loaded.text
    room = room_of(client, loaded.json()["id"])
    assert [seat.kind for seat in room.seats] == ["human", "computer", "computer", "computer"]
    assert [seat.level for seat in room.seats[1:]] == ["expert", "heuristic", "greedy"]


def test_table_svg_draws_the_table(client: TestClient) -> None:
    game_id = new_game(client)
    room = room_of(client, game_id)
    room.game.apply(room.game.legal_moves()[0])
    svg = client.get(f"/api/games/{game_id}/table.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml") and svg.text.count('class="tile"') == 1


def test_page_and_static_files_are_served(client: TestClient) -> None:
    assert "<script type=\"module\" src=\"/static/app.js\">" in client.get("/game/abc").text
    assert "drawTable" in client.get("/static/table.js").text


# ---------------------------------------------------------------------------- WebSocket
def test_claim_resume_and_seat_rules(client: TestClient) -> None:
    game_id = new_game(client, seats=[{"kind": "human"}, {"kind": "computer"}])
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        token, state = claim(ws, 0)
        assert state["hand"] and state["you"] == 0
        ws.send_json({"type": "claim", "seat": 1})
        assert error(ws)["code"] == "bad_seat"
        ws.send_json({"type": "claim", "seat": 7})
        assert error(ws)["code"] == "bad_seat"
    with client.websocket_connect(f"/ws/{game_id}") as other:
        receive_until(other, is_state)
        other.send_json({"type": "claim", "seat": 0})
        assert error(other)["code"] == "seat_taken"
        other.send_json({"type": "resume", "token": "guess"})
        assert error(other)["code"] == "bad_token"
        other.send_json({"type": "resume", "token": token})
        assert receive_until(other, lambda m: m["type"] == "claimed")["seat"] == 0
        assert receive_until(other, is_state)["hand"] == state["hand"]
        other.send_json({"type": "leave"})
        assert receive_until(other, is_state)["you"] is None


def test_moves_and_every_rejected_message_change_nothing(client: TestClient) -> None:
    game_id = new_game(client)
    room = room_of(client, game_id)
    with client.websocket_connect(f"/ws/{game_id}") as ann, client.websocket_connect(f"/ws/{game_id}") as bob, \
            client.websocket_connect(f"/ws/{game_id}") as watcher:
        _, state = claim(ann, 0)
        claim(bob, 1)
        receive_until(watcher, is_state)
        mover, waiter = (ann, bob) if state["turn"] == 0 else (bob, ann)
        record_before = json.dumps(record.to_record(room.game))
        rejected = [
            (mover, "[1, 2]", "malformed"),
            (mover, "not json", "malformed"),
            (mover, json.dumps({"kind": "move"}), "malformed"),
            (mover, json.dumps({"type": "dance"}), "unknown_type"),
            (mover, json.dumps({"type": "move", "move": "x" * (MAX_MESSAGE + 10)}), "oversized"),
            (mover, json.dumps({"type": "move", "move": "6-6-6"}), "bad_move"),
            (mover, json.dumps({"type": "move", "move": 42}), "bad_move"),
            (mover, json.dumps({"type": "move", "move": "6-5@9"}), "illegal"),
            (mover, json.dumps({"type": "move", "move": "pass"}), "illegal"),
            (waiter, json.dumps({"type": "move", "move": "draw"}), "not_your_turn"),
            (waiter, json.dumps({"type": "hint"}), "not_your_turn"),
            (watcher, json.dumps({"type": "move", "move": "draw"}), "spectator"),
            (mover, json.dumps({"type": "undo"}), "no_undo"),
            (mover, json.dumps({"type": "next_hand"}), "hand_in_progress"),
        ]
        for ws, text, code in rejected:
            ws.send_text(text)
            answer = error(ws)
            assert answer["code"] == code, (text, answer)
            assert answer["message"]
        assert json.dumps(record.to_record(room.game)) == record_before
        mover.send_json({"type": "ping"})
        assert receive_until(mover, lambda m: m["type"] == "pong")
        mover.send_json({"type": "hint"})
        hint = receive_until(mover, lambda m: m["type"] == "hint")
        assert hint["move"] and hint["reason"]
        mover.send_json({"type": "move", "move": hint["move"]})
        seen = [receive_until(ws, lambda m: is_state(m) and m["version"] == 1) for ws in (ann, bob, watcher)]
        assert all(s["last"]["move"] == hint["move"] for s in seen)
        assert len(seen[0]["table"]["tiles"]) == 1 and seen[2]["hand"] == [] and seen[2]["legal"] == []
    stored = client.app.state.store.load(game_id)  # type: ignore[attr-defined]
    assert stored is not None and stored.record["hands"][0]["moves"] == [hint["move"]]


def tiles_in(message: Message) -> set[str]:
    found = set()
    for match in TILE.finditer(json.dumps(message)):
        found.add(str(boneyard.Tile.parse(match.group(0))))
    return found


def test_no_message_to_a_seat_holds_another_seats_tiles_or_the_stock(client: TestClient) -> None:
    """Play whole hands of Draw (with draws from the stock) between two browsers and a
    spectator: while a hand is on, nobody is sent a tile that is hidden from them."""
    game_id = new_game(client, "draw")
    room = room_of(client, game_id)
    game = room.game
    with client.websocket_connect(f"/ws/{game_id}") as ann, client.websocket_connect(f"/ws/{game_id}") as bob, \
            client.websocket_connect(f"/ws/{game_id}") as watcher:
        receive_until(watcher, is_state)
        sockets = {0: ann, 1: bob}
        claim(ann, 0)
        claim(bob, 1)
        checked = 0
        for _ in range(200):
            if game.finished:
                break
            expected = (room.moves, len(game.log) + 1)
            if not game.in_hand:
                ann.send_json({"type": "next_hand"})
            else:
                expected = (room.moves + 1, len(game.log))
                sockets[game.turn].send_json({"type": "move", "move": str(game.legal_moves()[-1])})
            def arrived(m: Message, want: tuple[int, int] = expected) -> bool:
                return is_state(m) and (m["version"], m["hand_number"]) == want

            messages = [receive_until(ws, arrived) for ws in (ann, bob, watcher)]
            # the server has made the move: what is hidden now was hidden when the messages were built
            stock = {str(t) for t in game.stock[game.stock_pos:]}
            hidden_from = {seat: stock | {str(t) for s, hand in enumerate(game.hands) if s != seat for t in hand}
                           for seat in (0, 1, None)}
            for seat, message in zip((0, 1, None), messages, strict=True):
                checked += 1
                assert "seed" not in message and "stock_order" not in message
                if message["in_hand"]:
                    assert not tiles_in(message) & hidden_from[seat], (seat, tiles_in(message) & hidden_from[seat])
                    if seat is not None:
                        assert set(message["hand"]) == {str(t) for t in game.hands[seat]}
        assert checked > 100


def test_computer_seats_move_on_the_server_and_undo_takes_back_a_turn(client: TestClient) -> None:
    game_id = new_game(client, "all-fives", [{"kind": "human"}, {"kind": "computer", "level": "greedy"}])
    room = room_of(client, game_id)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        _, state = claim(ws, 0)
        state = receive_until(ws, lambda m: is_state(m) and m["turn"] == 0) if state["turn"] != 0 else state
        hand_before = state["hand"]
        version = state["version"]
        ws.send_json({"type": "move", "move": state["legal"][0]})
        back = receive_until(ws, lambda m: is_state(m) and (m["turn"] == 0 or not m["in_hand"])
                             and m["version"] > version + 1)
        assert back["history"][-1]["seat"] == 1  # the computer answered
        assert back["can_undo"]
        ws.send_json({"type": "undo"})
        undone = receive_until(ws, lambda m: is_state(m) and m["version"] == version)
        assert sorted(undone["hand"]) == sorted(hand_before) and undone["turn"] == 0
        assert room.moves == version


def test_undo_is_refused_when_another_person_plays(client: TestClient) -> None:
    game_id = new_game(client, "block")
    with client.websocket_connect(f"/ws/{game_id}") as ann, client.websocket_connect(f"/ws/{game_id}") as bob:
        _, state = claim(ann, 0)
        claim(bob, 1)
        mover = ann if state["turn"] == 0 else bob
        mover.send_json({"type": "move", "move": state["legal"][0] if mover is ann else "pass"})
        receive_until(mover, is_state)
        mover.send_json({"type": "undo"})
        assert error(mover)["code"] in ("no_undo", "illegal")


def test_end_of_hand_summary_and_next_hand(client: TestClient) -> None:
    game_id = new_game(client, "block", [{"kind": "human"}, {"kind": "computer", "level": "greedy"}])
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        _, state = claim(ws, 0)
        while state["in_hand"]:
            if state["turn"] == 0 and state["legal"]:
                ws.send_json({"type": "move", "move": state["legal"][0]})
            seen = state["version"]
            state = receive_until(ws, lambda m, seen=seen: is_state(m) and (m["turn"] == 0 or not m["in_hand"])
                                  and m["version"] > seen)
        summary = state["summary"]
        assert summary["end"] in ("domino", "blocked")
        assert len(summary["hands"]) == 2 and summary["totals"] == [p["score"] for p in state["players"]]
        assert sum(summary["hand_points"]) == sum(sum(i["points"] for i in items) for items in summary["scoring"])
        ws.send_json({"type": "move", "move": "pass"})
        assert error(ws)["code"] in ("hand_over", "game_over")
        if not state["finished"]:
            ws.send_json({"type": "next_hand"})
            fresh = receive_until(ws, lambda m: is_state(m) and m["hand_number"] == 2)
            assert fresh["in_hand"] and fresh["summary"] is None and fresh["table"]["tiles"] == []


def test_games_survive_a_restart_with_the_same_sqlite_file(db: str) -> None:
    with LocalClient(create_app(db, ai_delay=0, limits=SCRIPTED)) as first:
        game_id = new_game(first, "draw", [{"kind": "human"}, {"kind": "computer", "level": "greedy"}])
        with first.websocket_connect(f"/ws/{game_id}") as ws:
            token, state = claim(ws, 0)
            if state["turn"] != 0:
                state = receive_until(ws, lambda m: is_state(m) and m["turn"] == 0)
            ws.send_json({"type": "move", "move": state["legal"][0]})
            state = receive_until(ws, lambda m: is_state(m) and (m["turn"] == 0 or not m["in_hand"])
                                  and m["version"] > state["version"] + 1)
        before = room_of(first, game_id).game
        record_before = record.to_record(before)
    with LocalClient(create_app(db, ai_delay=0, limits=SCRIPTED)) as second:
        assert second.get(f"/api/games/{game_id}").json()["moves"] == state["version"]
        with second.websocket_connect(f"/ws/{game_id}") as ws:
            receive_until(ws, is_state)
            ws.send_json({"type": "resume", "token": token})
            resumed = receive_until(ws, lambda m: is_state(m) and m["you"] == 0)
            assert resumed["hand"] == state["hand"] and resumed["table"] == state["table"]
            assert record.to_record(room_of(second, game_id).game) == record_before
            if resumed["in_hand"]:
                ws.send_json({"type": "move", "move": resumed["legal"][0]})
                assert receive_until(ws, is_state)["version"] == resumed["version"] + 1


def test_serve_command_is_registered() -> None:
    from typer.testing import CliRunner

    from boneyard.cli import app

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0 and "--db" in result.output and "--port" in result.output


def test_a_draw_that_names_a_tile_tells_nothing_and_changes_nothing(client: TestClient) -> None:
    """Issue 13, defect 4: with voluntary draws, ``draw X-Y`` used to answer "the next tile in the
    stock is 5-0, not 0-0" and leave the player free to play instead."""
    game_id = new_game(client, "draw", options={"allow_voluntary_draw": True})
    room = room_of(client, game_id)
    game = room.game
    with client.websocket_connect(f"/ws/{game_id}") as ann, client.websocket_connect(f"/ws/{game_id}") as bob:
        claim(ann, 0)
        claim(bob, 1)
        leader = game.turn
        mover = (ann, bob)[1 - leader]
        (ann, bob)[leader].send_json({"type": "move", "move": str(game.legal_moves()[0])})
        state = receive_until(mover, lambda m: is_state(m) and m["version"] == 1)
        assert state["can_draw"] and len(state["legal"]) > 1  # a play, or a voluntary draw
        before = json.dumps(record.to_record(game))
        stock = [str(tile) for tile in game.stock[game.stock_pos:]]
        for named in (stock[-1], stock[0]):  # a wrong tile and the right one: the same answer
            mover.send_json({"type": "move", "move": f"draw {named}"})
            answer = error(mover)
            assert answer["code"] == "bad_move" and "send draw" in answer["message"]
            assert not tiles_in(answer) & set(stock)
        assert json.dumps(record.to_record(game)) == before and room.moves == 1
        mover.send_json({"type": "move", "move": "draw"})
        assert receive_until(mover, lambda m: is_state(m) and m["version"] == 2)["last"]["move"] == "draw"


def test_broadcast_forgets_only_closed_sockets(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                               caplog: pytest.LogCaptureFixture) -> None:
    """Issue 13, defect 1: any failure while sending a state used to drop that connection for good."""
    game_id = new_game(client)
    room = room_of(client, game_id)
    game = room.game

    async def closed(message: Message) -> None:
        raise ConnectionClosed

    gone = Connection(closed)
    build = Room.state_text
    failures = []

    def failing_once(self: Room, seat: int | None, shared: SharedState | None = None) -> str:
        if seat is None and not failures:
            failures.append(seat)
            raise RuntimeError("a bug in building one state")
        return build(self, seat, shared)

    with client.websocket_connect(f"/ws/{game_id}") as watcher, client.websocket_connect(f"/ws/{game_id}") as ann, \
            client.websocket_connect(f"/ws/{game_id}") as bob:
        receive_until(watcher, is_state)
        claim(ann, 0)
        claim(bob, 1)
        room.connections.append(gone)
        monkeypatch.setattr(Room, "state_text", failing_once)
        players = {0: ann, 1: bob}
        players[game.turn].send_json({"type": "move", "move": str(game.legal_moves()[0])})
        receive_until(ann, lambda m: is_state(m) and m["version"] == 1)  # sent after the watcher's failure
        receive_until(bob, lambda m: is_state(m) and m["version"] == 1)
        # the broadcast reaches the closed socket last, in the server's thread: give it a moment to finish
        deadline = time.monotonic() + 10
        while gone in room.connections and time.monotonic() < deadline:
            time.sleep(0.01)
        assert failures and gone not in room.connections and len(room.connections) == 3
        assert "could not be sent" in caplog.text
        players[game.turn].send_json({"type": "move", "move": str(game.legal_moves()[0])})
        assert receive_until(watcher, lambda m: is_state(m) and m["version"] >= 1)["version"] == 2
