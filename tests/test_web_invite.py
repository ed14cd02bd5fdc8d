"""Tables for invited people: a game created with ``"invite": true`` keeps its free seats for whoever has its
invitation (given once to its creator), on a live server.  Before, anyone who found the game in the public list
could take a seat at a table of friends."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.web_live import LiveServer, Message, Seat, sit

FRIENDS = {"variant": "draw", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
                                        {"kind": "computer", "level": "greedy"}]}


def create(server: LiveServer, **extra: Any) -> Message:
    response = httpx.post(f"{server.url}/api/games", json=FRIENDS | extra)
    assert response.status_code == 201, response.text
    answer: Message = response.json()
    return answer


async def error_of(seat: Seat, message: Message) -> Message:
    await seat.send(message)
    return await seat.until(lambda m: m["type"] in ("error", "claimed"))


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def test_only_the_invited_sit_down_and_anyone_may_watch(db: str) -> None:
    async def main(server: LiveServer, game_id: str, invite: str) -> dict[str, Any]:
        stranger = await sit(server, game_id)
        ann = await sit(server, game_id)
        bob = await sit(server, game_id)
        seen: dict[str, Any] = {"watching": stranger.seen[0]}
        seen["no_invite"] = await error_of(stranger, {"type": "claim", "seat": 0})
        wrong = invite[:-1] + ("y" if invite.endswith("x") else "x")  # always another invitation
        seen["wrong_invite"] = await error_of(stranger, {"type": "claim", "seat": 0, "invite": wrong})
        seen["not_text"] = await error_of(stranger, {"type": "claim", "seat": 0, "invite": 12})
        seen["ann"] = await error_of(ann, {"type": "claim", "seat": 0, "invite": invite})
        seen["bob"] = await error_of(bob, {"type": "claim", "seat": 1, "invite": invite})
        seen["bob_state"] = await bob.state(lambda m: m["you"] == 1)
        again = await sit(server, game_id)  # Ann's other tab, or Ann after a reload: her token, no invitation
        seen["resumed"] = await error_of(again, {"type": "resume", "token": seen["ann"]["token"]})
        return seen

    with LiveServer(db) as server:
        created = create(server, invite=True)
        invite = created["invite"]
        assert isinstance(invite, str) and len(invite) >= 20
        game_id = created["id"]
        shown = httpx.get(f"{server.url}/api/games/{game_id}").json()
        listed = next(game for game in httpx.get(f"{server.url}/api/games").json() if game["id"] == game_id)
        seen = asyncio.run(main(server, game_id, invite))
    assert created["invite_only"] is True
    assert shown["invite_only"] is True and "invite" not in shown  # given once, to the creator
    assert listed["invite_only"] is True and invite not in json.dumps(listed)
    assert seen["watching"]["type"] == "state" and seen["watching"]["invite_only"] is True
    for refused in ("no_invite", "wrong_invite", "not_text"):
        assert seen[refused]["type"] == "error" and seen[refused]["code"] == "invite_needed", seen[refused]
        assert "invitation link" in seen[refused]["message"]
    assert seen["ann"]["type"] == "claimed" and seen["ann"]["seat"] == 0
    assert seen["bob"]["type"] == "claimed" and seen["bob"]["seat"] == 1
    assert [player["claimed"] for player in seen["bob_state"]["players"][:2]] == [True, True]
    assert seen["resumed"]["type"] == "claimed" and seen["resumed"]["seat"] == 0


def test_a_table_without_invitations_seats_anyone_as_before(db: str) -> None:
    async def main(server: LiveServer, game_id: str) -> Message:
        anyone = await sit(server, game_id)
        return await error_of(anyone, {"type": "claim", "seat": 1})

    with LiveServer(db) as server:
        created = create(server)
        answer = asyncio.run(main(server, created["id"]))
    assert created["invite_only"] is False and "invite" not in created
    assert answer["type"] == "claimed" and answer["seat"] == 1


def test_the_invitation_holds_after_a_restart_and_stays_out_of_the_record(db: str) -> None:
    with LiveServer(db) as server:
        created = create(server, invite=True)
    game_id, invite = created["id"], created["invite"]

    async def main(server: LiveServer) -> tuple[Message, Message]:
        stranger = await sit(server, game_id)
        refused = await error_of(stranger, {"type": "claim", "seat": 1})
        friend = await sit(server, game_id)
        return refused, await error_of(friend, {"type": "claim", "seat": 1, "invite": invite})

    with LiveServer(db) as server:  # a new server process over the same database
        refused, claimed = asyncio.run(main(server))
        room = server.app.state.rooms.get(game_id)
        assert room is not None
        given = room.record()  # what a download of the finished game would hold
    assert refused["code"] == "invite_needed"
    assert claimed["type"] == "claimed"
    assert "invite_hash" not in given.get("meta", {}) and invite not in json.dumps(given)


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_invite_must_be_true_or_false(db: str, value: Any) -> None:
    with LiveServer(db) as server:
        response = httpx.post(f"{server.url}/api/games", json=FRIENDS | {"invite": value})
    assert response.status_code == 400
    assert "'invite' must be true" in response.text
