"""What each connection at a web table is sent when a PIP ``give`` hides its tile from some of them
(issue 13, defects 1 and 5), on a real server: every seat and spectator keeps receiving states, the
tile shows only to the giver and the receiver, and the ``last`` move is each receiver's own view."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import httpx2 as httpx

import boneyard
from boneyard import record
from boneyard.moves import Kind
from boneyard.view import SeatView, TableView
from tests.web_live import LiveServer, Message, Seat, sit


def record_before_a_give(players: int, among_computers: bool) -> tuple[dict[str, Any], int, int]:
    """A PIP record (every seat playing its first legal move) that stops where the seat on turn must
    give a tile; with ``among_computers``, seat 0 neither gives nor receives.  Also the two seats."""
    for seed in range(1000):
        game = boneyard.new_game("pip", players=players, seed=seed)
        while game.in_hand:
            legal = game.legal_moves()
            if legal[0].kind == Kind.GIVE:
                giver, receiver = game.turn, (game.turn + game.direction) % players
                if not among_computers or 0 not in (giver, receiver):
                    return record.to_record(game), giver, receiver
                break
            game.apply(legal[0])
    raise AssertionError("no seed below 1000 leads to such a give")


def load(server: LiveServer, data: dict[str, Any], seats: list[Message]) -> str:
    response = httpx.post(f"{server.url}/api/records", json={"record": data, "seats": seats})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def test_a_hidden_give_reads_as_give_and_every_view_builds() -> None:
    data, giver, receiver = record_before_a_give(3, among_computers=False)
    game = record.replay(data)
    give = game.legal_moves()[0]
    game.apply(give)
    third = ({0, 1, 2} - {giver, receiver}).pop()
    assert str(SeatView(game, giver).history()[-1].move) == str(give)
    assert str(SeatView(game, receiver).history()[-1].move) == str(give)
    assert str(SeatView(game, third).history()[-1].move) == "give"
    assert str(TableView(game).history()[-1].move) == "give"
    assert not hasattr(TableView(game), "hand") and not hasattr(TableView(game), "legal_moves")


def test_three_seats_and_a_spectator_all_go_on_after_a_give(tmp_path: Path) -> None:
    """Defects 1 and 5: the third seat and the spectator see a give without its tile (the spectator
    never sees what seat 0 sees), in the history and in ``last``, and keep receiving states."""
    data, giver, receiver = record_before_a_give(3, among_computers=False)
    tile = str(record.replay(data).legal_moves()[0].tile)

    async def play(server: LiveServer, game_id: str) -> None:
        seats = [await sit(server, game_id) for _ in range(3)]
        state = [await seat.claim(index) for index, seat in enumerate(seats)][giver]
        watcher = await sit(server, game_id)
        everyone: list[tuple[int | None, Seat]] = [*enumerate(seats), (None, watcher)]
        version = state["version"]
        assert state["turn"] == giver
        assert state["gives"] and state["legal"][0] == f"give {tile}"
        await seats[giver].send({"type": "move", "move": state["legal"][0]})
        after = {who: await seat.state(lambda m: m["version"] == version + 1) for who, seat in everyone}
        for who, message in after.items():
            shown = f"give {tile}" if who in (giver, receiver) else "give"
            assert message["history"][-1] == {**message["history"][-1], "seat": giver, "move": shown}, who
            assert message["last"]["move"] == shown, who
        assert after[None]["hand"] == [] and after[None]["legal"] == []
        mover = after[giver]["turn"]
        await seats[mover].send({"type": "move", "move": after[mover]["legal"][0]})
        for who, seat in everyone:  # nobody was dropped: the next move reaches every connection
            assert (await seat.state(lambda m: m["version"] == version + 2))["version"] == version + 2, who

    with LiveServer(f"sqlite:///{tmp_path / 'games.sqlite3'}") as server:
        asyncio.run(play(server, load(server, data, [{"kind": "human"}] * 3)))


def test_a_person_at_a_table_of_computers_goes_on_after_two_computers_exchange_a_give(tmp_path: Path) -> None:
    """Defect 1: the human, who is neither giver nor receiver, gets the state of the give (its tile
    hidden) and the table carries on to the human's next turn."""
    data, giver, _ = record_before_a_give(3, among_computers=True)
    seats = [{"kind": "human", "name": "You"}] + [{"kind": "computer", "level": "greedy"}] * 2

    async def play(server: LiveServer, game_id: str) -> None:
        you = await sit(server, game_id)
        await you.claim(0)
        gave = await you.state(lambda m: any(e["move"].startswith("give") for e in m["history"]))
        shown = next(e for e in gave["history"] if e["move"].startswith("give"))
        assert shown["move"] == "give" and shown["seat"] == giver
        back = await you.state(lambda m: m["turn"] == 0 or not m["in_hand"])
        assert back["version"] > gave["version"]
        assert back["legal"] or not back["in_hand"]

    # The computers start when the record is loaded, each pausing ai_delay before its move.  The person
    # must be seated before the give: seated after it, the states the test waits for have already gone by
    # and the wait times out.  0.2 s can be too short for a loaded machine to connect and claim a seat; the
    # pause is that step's deadline, so it is a generous one.
    with LiveServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", ai_delay=1.5) as server:
        asyncio.run(play(server, load(server, data, seats)))
