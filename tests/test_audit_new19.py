"""Audit of session 19's new features as users and attackers meet them: pass and play (a hot-seat table at one
screen), ``POST /api/stats``, the search for a starting tile said at the table, a web download's ``meta.ai`` and
``meta.human_seat``, and environment actions as whole numbers.  Four bugs it found are fixed and tested here: a
shared screen's log named tiles the last person drew, a shared screen drew the hand on turn face up while it sat
down, a new hand led by the last person at the screen was shown without asking, and ``/api/stats`` counted a table
as often as it was listed."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx2 as httpx
import numpy as np
import pytest

from boneyard import env as boneyard_env
from boneyard.env import SingleSeatEnv
from boneyard.errors import IllegalMoveError
from boneyard.web.limits import Limits
from tests.test_browser import Server, browser, play_one_turn, server, version, wait_past
from tests.web_live import LiveServer, Message, sit

__all__ = ["browser", "server"]  # the fixtures, shared with tests.test_browser
T = TypeVar("T")

ANN_BOB = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
#: Double Bergen dealt from seed 89 (a table with chosen deals) holds no double: Bob draws 6-2, Ann 4-1, Bob 0-0
#: and sets it, so Ann keeps 4-1 in her hand, hidden from Bob
SEARCH_SEED = 89

#: records every hand tile ever drawn face up in #hand, with the seat shown and the seat on turn at that moment
FACE_UP_SPY = """
window.__faceUp = [];
new MutationObserver(() => {
  const shown = [...document.querySelectorAll('#hand .hand-tile[data-tile]')].map((t) => t.dataset.tile);
  if (shown.length) window.__faceUp.push(shown.join(' '));
}).observe(document, { childList: true, subtree: true });
"""


def in_thread(work: Coroutine[Any, Any, T]) -> T:
    """``work`` run to its end on an event loop of its own (the browser tests' Playwright holds this thread's)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def post(url: str, path: str, body: Any) -> httpx.Response:
    return httpx.post(f"{url}{path}", json=body, timeout=30)


def search_table(url: str) -> dict[str, Any]:
    """A pass-and-play Double Bergen table (as the lobby makes it: hot seat and invited-only) with a search."""
    body = {"variant": "double-bergen", "seed": SEARCH_SEED, "hot_seat": True, "invite": True, "seats": ANN_BOB}
    answer = post(url, "/api/games", body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


async def hold_both(server: LiveServer, game: dict[str, Any], order: tuple[int, ...]) -> tuple[Any, dict[int, str]]:
    """One connection (a shared screen) claiming ``order``'s seats with the invitation; it and the tokens."""
    screen = await sit(server, game["id"])
    tokens = {}
    for seat in order:
        await screen.send({"type": "claim", "seat": seat, "invite": game["invite"]})
        claimed: Message = await screen.until(lambda m: m["type"] in ("claimed", "error"))
        assert claimed["type"] == "claimed", claimed
        tokens[seat] = str(claimed["token"])
    await screen.state(lambda m, last=order[-1]: m["you"] == last)
    return screen, tokens


# ------------------------------------------------------------------ pass and play: what the screen shows

def shared_screen(browser: Any, server: Server, game: dict[str, Any]) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(FACE_UP_SPY)
    page = context.new_page()
    page.goto(f"{server.url}/game/{game['id']}?invite={game['invite']}")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#pass-screen:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#table-players .player .who').length === 2")
    return page


@pytest.mark.browser
def test_the_shared_screen_between_turns_names_nobodys_drawn_tiles(server: Server, browser: Any) -> None:
    game = search_table(server.url)
    page = shared_screen(browser, server, game)
    room = server.app.state.rooms.get(game["id"])
    assert room.game.turn == 1 and "Bob's turn: pass the screen to Bob" in page.inner_text("#pass-text")
    assert page.locator("#hand .face-down").count() == 7  # Ann's hand face down: Bob is about to take the screen
    history = page.inner_text("#history")
    assert "drew in turn" in history
    assert "4-1" not in history  # Ann's drawn tile, still in her hand: Bob must not read it on the shared screen
    page.context.close()


@pytest.mark.browser
def test_a_shared_screen_never_draws_a_hand_face_up_before_its_owner_takes_it(server: Server,
                                                                             browser: Any) -> None:
    game = search_table(server.url)
    page = shared_screen(browser, server, game)
    assert page.locator("#hand .face-down").count() > 0
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#pass-screen:not([hidden])")
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__faceUp") == []  # nobody pressed "I am Bob": no hand was ever drawn
    page.context.close()


@pytest.mark.browser
def test_the_shared_screen_asks_before_it_shows_the_on_turn_hand_and_never_shows_another(server: Server,
                                                                                         browser: Any) -> None:
    """What the final screen shows is right: face down, the bar names Bob, and pressing it shows Bob's own hand."""
    game = search_table(server.url)
    page = shared_screen(browser, server, game)
    room = server.app.state.rooms.get(game["id"])
    assert page.locator("#hand .hand-tile[data-tile]").count() == 0
    assert page.inner_text("#take-turn") == "I am Bob: show my hand"
    page.click("#take-turn")
    page.wait_for_selector("#hand .hand-tile[data-tile]")
    shown = sorted(page.locator("#hand .hand-tile[data-tile]").evaluate_all("ts => ts.map(t => t.dataset.tile)"))
    assert shown == sorted(str(tile) for tile in room.game.hands[1])
    assert "you 2 tiles (6-2, 0-0)" in page.inner_text("#history")  # Bob's own search, on his own turn
    assert page.locator("#pass-screen").is_hidden()
    page.context.close()


@pytest.mark.browser
def test_the_next_hand_at_a_shared_screen_asks_before_it_shows_a_hand(server: Server, browser: Any) -> None:
    body = {"variant": "draw", "seed": 5, "hot_seat": True, "invite": True, "seats": ANN_BOB,
            "options": {"target": 500}}
    game = server.post("/api/games", body)
    page = shared_screen(browser, server, game)
    room = server.app.state.rooms.get(game["id"])
    for _ in range(200):
        if not room.game.in_hand:
            break
        if not page.locator("#pass-screen").is_hidden():
            page.click("#take-turn")
            page.wait_for_selector("#pass-screen", state="hidden")
            page.wait_for_selector("#hand .hand-tile[data-tile]")
        before = version(page)
        play_one_turn(page)
        wait_past(page, before)
    assert not room.game.in_hand
    page.wait_for_selector("#next-hand")
    held = page.evaluate("() => Number(document.querySelector('#table-players .player.you').dataset.seat)")
    page.click("#next-hand")
    page.wait_for_function("() => document.querySelector('#summary').hidden")
    page.wait_for_timeout(300)
    assert room.game.turn == held  # the hand's leader is the person who last held the screen
    # everyone looked at the hand's end together: the new hand stays face down until its leader takes the screen
    assert page.locator("#hand .hand-tile[data-tile]").count() == 0
    assert not page.locator("#pass-screen").is_hidden()
    page.context.close()


# ------------------------------------------------------------------ pass and play: what the server sends

def test_a_spectator_of_a_shared_screen_is_told_how_many_tiles_were_drawn_and_never_which(db: str) -> None:
    async def run(server: LiveServer) -> tuple[Message, Message]:
        game = search_table(server.url)
        screen, _ = await hold_both(server, game, (1, 0))
        watcher = await sit(server, game["id"])
        claim = {"type": "claim", "seat": 0, "invite": "wrong"}
        await watcher.send(claim)
        refused = await watcher.until(lambda m: m["type"] == "error")
        await screen.socket.close()
        await watcher.socket.close()
        return watcher.seen[0], refused

    with LiveServer(db) as server:
        welcome, refused = in_thread(run(server))
    assert welcome["you"] is None and welcome["hand"] == [] and welcome["hot_seat"] is True
    assert welcome["log"] == [{"seat": None, "text": "Nobody held a starting tile, so they drew in turn: "
                                                     "Bob 2 tiles, Ann 1 tile."}]
    assert refused["code"] == "seat_taken"  # every seat is the screen's


# ------------------------------------------------------------------ your statistics

def finished_table(server: LiveServer) -> tuple[str, str]:
    """A one-person Block table against greedy, played out from the page's seat; its id and seat token."""
    body = {"variant": "block", "seed": 2, "options": {"target": 10},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"}]}
    game_id = str(post(server.url, "/api/games", body).json()["id"])

    async def run() -> str:
        seat = await sit(server, game_id)
        await seat.send({"type": "claim", "seat": 0})
        claimed = await seat.until(lambda m: m["type"] == "claimed")
        room = server.app.state.rooms.get(game_id)
        while not room.game.finished:
            state = await seat.state(lambda m: m["finished"] or not m["in_hand"] or (m["turn"] == 0 and m["legal"]))
            if state["finished"]:
                break
            if not state["in_hand"]:
                await seat.send({"type": "next_hand", "hand": state["hand_number"]})
            else:
                await seat.send({"type": "move", "move": state["legal"][0]})
            await asyncio.sleep(0.06)
        await seat.socket.close()
        return str(claimed["token"])

    return game_id, in_thread(run())


def test_statistics_count_a_table_once_however_often_it_is_listed(db: str) -> None:
    with LiveServer(db, Limits(chosen_deals=True, stats_burst=10, stats_per_minute=60)) as server:
        game_id, token = finished_table(server)
        once = post(server.url, "/api/stats", {"seats": [{"game": game_id, "token": token}]}).json()
        thrice = post(server.url, "/api/stats", {"seats": [{"game": game_id, "token": token}] * 3}).json()
    assert once["records"] == 1 and once["variants"]["block"]["games"] == 1
    assert thrice == once


def test_statistics_of_a_running_game_are_totals_that_name_no_tile(db: str) -> None:
    async def run(server: LiveServer, game_id: str) -> tuple[str, list[str]]:
        seat = await sit(server, game_id)
        await seat.send({"type": "claim", "seat": 0})
        claimed = await seat.until(lambda m: m["type"] == "claimed")
        state = await seat.state(lambda m: m["you"] == 0)
        await seat.socket.close()
        return str(claimed["token"]), list(state["hand"])

    body = {"variant": "draw", "seats": [{"kind": "human"}, {"kind": "computer", "level": "random"}]}
    with LiveServer(db, Limits(chosen_deals=True, stats_burst=10, stats_per_minute=60)) as server:
        game_id = str(post(server.url, "/api/games", body).json()["id"])
        token, hand = in_thread(run(server, game_id))
        answer = post(server.url, "/api/stats", {"seats": [{"game": game_id, "token": token},
                                                           {"game": game_id, "token": "not-a-token"},
                                                           {"game": "../../etc", "token": token}]})
        room = server.app.state.rooms.get(game_id)
        others = [str(tile) for tile in room.game.hands[1]]
    assert answer.status_code == 200, answer.text
    stats = answer.json()
    assert stats["records"] == 1 and stats["variants"]["draw"]["unfinished"] == 1
    assert list(stats["against"]) == ["random"]
    text = answer.text
    assert not any(f'"{tile}"' in text or f" {tile}" in text for tile in hand + others)


# ------------------------------------------------------------------ a web download says who played

def test_a_web_download_names_the_computers_and_the_one_persons_seat(db: str) -> None:
    with LiveServer(db, Limits(chosen_deals=True, stats_burst=10, stats_per_minute=60)) as server:
        game_id, _ = finished_table(server)
        one = httpx.get(f"{server.url}/api/games/{game_id}/record", timeout=30).json()
        shared = search_table(server.url)
        two = httpx.get(f"{server.url}/api/games/{shared['id']}/record", timeout=30)
    assert one["meta"]["ai"] == {"1": "greedy"} and one["meta"]["human_seat"] == 0
    assert {"invite_hash", "token_hash", "seats", "web"}.isdisjoint(json_keys(one))  # the table's own keys stay
    assert two.status_code == 403 and "holds every hidden tile" in two.json()["detail"]  # two people, running


def json_keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {key for value in data.values() for key in json_keys(value)}
    if isinstance(data, list):
        return {key for value in data for key in json_keys(value)}
    return set()


# ------------------------------------------------------------------ environment actions

@pytest.mark.parametrize("action", [np.array([[0]]), np.int16(0), np.uint64(0)])
def test_an_integer_array_or_numpy_integer_is_an_action_in_both_environments(action: Any) -> None:
    """The same move as the plain int: both environments end up in the same position."""
    games = [boneyard_env.raw_env("draw", players=2, seed=1) for _ in range(2)]
    for game in games:
        game.reset()
    agent = games[0].agent_selection
    legal = int(np.flatnonzero(games[0].observe(agent)["action_mask"])[0])
    as_given = np.full(np.shape(action), legal, dtype=action.dtype) if np.ndim(action) else type(action)(legal)
    games[0].step(as_given)
    games[1].step(legal)
    after = [game.observe(game.agent_selection)["action_mask"] for game in games]
    assert games[0].agent_selection == games[1].agent_selection and np.array_equal(*after)
    singles = [SingleSeatEnv("draw", players=2, opponents="greedy", seat=0, seed=1) for _ in range(2)]
    masks = [single.reset()[1]["action_mask"] for single in singles]
    first = int(np.flatnonzero(masks[0])[0])
    given = np.full(np.shape(action), first, dtype=action.dtype) if np.ndim(action) else type(action)(first)
    results = [singles[0].step(given), singles[1].step(first)]
    assert [result[4].get("illegal", False) for result in results] == [False, False]
    assert np.array_equal(results[0][4]["action_mask"], results[1][4]["action_mask"])


@pytest.mark.parametrize("action", [3.0, True, "3", np.array([3, 4]), np.array(3.0), np.bool_(True), None])
def test_a_whole_number_only_even_where_illegal_actions_are_penalised(action: Any) -> None:
    single = SingleSeatEnv("draw", players=2, opponents="greedy", seat=0, seed=1)
    single.reset()
    with pytest.raises(IllegalMoveError, match="an action is a whole number"):
        single.step(action)
    game = boneyard_env.raw_env("draw", players=2, seed=1)
    game.reset()
    with pytest.raises(IllegalMoveError):
        game.step(action)


def test_a_negative_or_huge_action_is_outside_the_space_not_wrapped_round() -> None:
    for action in (-1, np.int8(-1), 2**70):
        single = SingleSeatEnv("draw", players=2, opponents="greedy", seat=0, seed=1)
        single.reset()
        _, reward, _, _, info = single.step(action)
        assert info["illegal"] is True and reward == -1.0
        game = boneyard_env.raw_env("draw", players=2, seed=1)
        game.reset()
        with pytest.raises(IllegalMoveError, match="outside the action space"):
            game.step(action)
