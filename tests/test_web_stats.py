"""A web player's statistics (``POST /api/stats``): the tables a browser sat at, each counted for the seat its
token opens, as ``boneyard stats --json`` counts saved records; wrong tokens and unknown games left out, a table
several people shared on one screen counted apart, bad requests refused with what and where."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

import boneyard
from boneyard import record
from boneyard.player_stats import Stats
from boneyard.web.limits import Limits
from tests.web_live import LiveServer, Message, sit


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def finished_block(seed: int) -> dict[str, Any]:
    """A whole two-player Block game (first legal moves), Ann against Bob."""
    game = boneyard.new_game("block", 2, seed=seed, names=["Ann", "Bob"], options={"target": 30})
    while not game.finished:
        if game.in_hand:
            game.apply(game.legal_moves()[0])
        else:
            game.next_hand()
    return record.to_record(game, seed=seed)


def post(server: LiveServer, path: str, body: Any) -> httpx.Response:
    return httpx.post(f"{server.url}{path}", json=body, timeout=30)


async def token_of(server: LiveServer, game_id: str, *seats: int) -> list[str]:
    """Sit at ``game_id`` and claim ``seats`` on one connection; their tokens."""
    table = await sit(server, game_id)
    tokens = []
    for seat in seats:
        await table.send({"type": "claim", "seat": seat})
        claimed: Message = await table.until(lambda m: m["type"] in ("claimed", "error"))
        assert claimed["type"] == "claimed", claimed
        tokens.append(str(claimed["token"]))
    await table.socket.close()
    return tokens


def test_each_table_counts_for_the_seat_its_token_opens(db: str) -> None:
    data = finished_block(3)
    seats = [{"kind": "human"}, {"kind": "computer", "level": "greedy"}]
    with LiveServer(db) as server:
        game_id = post(server, "/api/records", {"record": data, "seats": seats}).json()["id"]
        (token,) = asyncio.run(token_of(server, game_id, 0))
        answer = post(server, "/api/stats", {"seats": [{"game": game_id, "token": token},
                                                       {"game": game_id, "token": token[:-1] + "?"},
                                                       {"game": "no-such-game", "token": token}]})
    assert answer.status_code == 200, answer.text
    stats = answer.json()
    expected = Stats()  # the same record counted as `boneyard stats` counts a terminal game of seat 0 against greedy
    expected.add({**data, "meta": {"human_seat": 0, "ai": {"1": "greedy"}}}, "the record")
    assert stats == {**expected.as_json(), "shared": 0}
    assert stats["records"] == 1 and stats["variants"]["block"]["games"] == 1 and list(stats["against"]) == ["greedy"]


def test_a_table_shared_on_one_screen_is_nobodys_own(db: str) -> None:
    body = {"variant": "block", "hot_seat": True, "seats": [{"kind": "human", "name": "Ann"},
                                                            {"kind": "human", "name": "Bob"}]}
    with LiveServer(db) as server:
        game_id = post(server, "/api/games", body).json()["id"]
        tokens = asyncio.run(token_of(server, game_id, 0, 1))
        stats = post(server, "/api/stats", {"seats": [{"game": game_id, "token": tokens[0]}]}).json()
    assert stats["shared"] == 1 and stats["records"] == 0 and stats["variants"] == {}


@pytest.mark.parametrize("body,status,words", [
    ({}, 400, "'seats' must be a list of {game, token}"),
    ({"seats": "abc"}, 400, "'seats' must be a list"),
    ({"seats": [{"game": "x"}]}, 400, "seats[0] must be {game, token}"),
    ({"seats": [{"game": "x", "token": "t"}, {"game": 3, "token": "t"}]}, 400, "seats[1] must be"),
    ({"seats": [{"game": "x", "token": "t" * 101}]}, 400, "seats[0] must be"),
    ({"seats": [{"game": "x", "token": "t"}] * 501}, 422, "at most 500 are counted at once"),
])
def test_a_bad_request_says_what_is_wrong(db: str, body: Any, status: int, words: str) -> None:
    with LiveServer(db) as server:
        answer = post(server, "/api/stats", body)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["detail"]


def test_statistics_requests_are_rationed_per_address(db: str) -> None:
    with LiveServer(db, Limits(chosen_deals=True, stats_per_minute=1.0, stats_burst=2)) as server:
        answers = [post(server, "/api/stats", {"seats": []}) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert "too many statistics requests from your address: at most 2 at once" in answers[2].json()["detail"]
