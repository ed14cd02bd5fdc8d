"""Audit (session 20) of *Play again* (``rematch``) and *Play on another device* (``/game/ID#seat=TOKEN``), as the
friends who use them and as an attacker would: a whole table playing again (one of them away and coming back
to the old link, after a server restart too), chains of games, a spectator, a stranger, a loaded record, two
devices on one seat, malformed and hostile input.  The flows go through the WebSocket API
(``tests.web_live``); the seat link's handling lives in the page, so those tests drive Chromium.

Bugs found, each now fixed and held by a test asserting the right behaviour:

1. ``rematch`` is not counted against the client's new-game limit (``Limits.games_per_minute``/``game_burst``,
   ``admit_game``): from one ``POST /api/games``, two sockets of one address make a new stored game each time a
   short game ends (five in well under a second here), however far over its limit the address is.
2. A seat link whose token opens no seat (a mistyped or hostile ``#seat=``) costs the browser the seat it
   already held at that table: the page overwrites its own token with the brought one, the server answers
   ``bad_token``, the page forgets every token of the table and claims the next free seat, someone else's.
3. A seat link with a token longer than a WebSocket message (``#seat=`` and 5,000 characters) leaves the page
   stuck for good: its ``resume`` is refused ``oversized`` (not ``bad_token``), the token stays in storage, and
   every later visit to the table, by the plain link too, is refused the same way and never sits down.
4. A store that refuses the next game's write (disk full, database gone) makes ``rematch`` crash the socket's
   handler: uvicorn logs a traceback and the socket is dropped without a close frame, where every other write
   that fails is answered ``not_stored``.
5. Play again at a table loaded from a record with seats given without names (``POST /api/records
   {record, seats}``) renames its people: the table called them by the record's names ("Ann", "Bob"), the next
   game calls them "Player 1" and "Computer 1".
6. When someone else plays again, a spectator's screen reader is told to press "Go to the next game", but a
   spectator's panel offers *Watch the next game*.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import random
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2 as httpx
import pytest

pytest.importorskip("fastapi")

from boneyard.web.limits import Limits
from tests.test_audit_rooms20 import create, db, people
from tests.test_browser import Server, browser, open_page, server
from tests.test_browser_fit import finished_game, seat_table
from tests.web_live import LiveServer, Message, Seat, sit

__all__ = ["browser", "db", "server"]  # the fixtures, shared with tests.test_browser and test_audit_rooms20
SHORT_BLOCK: dict[str, Any] = {"variant": "block", "options": {"target": 1}}  # one hand is (nearly always) a game



def latest(seat: Seat) -> Message:
    return next(m for m in reversed(seat.seen) if m["type"] == "state")


def token_of(seat: Seat) -> str:
    return str(next(m for m in seat.seen if m["type"] == "claimed")["token"])


async def answer(seat: Seat, message: Message, timeout: float = 10.0) -> Message:
    """The sender's answer to ``message`` (an ``error``, or the state that carries a rematch)."""
    await seat.send(message)
    return await seat.until(lambda m: m["type"] == "error" or (m["type"] == "state" and m["rematch"] is not None),
                            timeout)


async def finish(seats: Sequence[Seat], seed: int = 1) -> Message:
    """Play the game out by random legal moves of whichever seat is on turn (each seat one person); the last state."""
    rng = random.Random(seed)
    for _ in range(2000):
        states = [latest(seat) for seat in seats]
        now = max(states, key=lambda m: (m["version"], m["hand_number"]))
        if now["finished"]:
            return now
        if not now["in_hand"]:
            await seats[0].send({"type": "next_hand", "hand": now["hand_number"]})
        else:
            mover = next(index for index, state in enumerate(states) if state["you"] == now["turn"])
            await seats[mover].send({"type": "move", "move": rng.choice(states[mover]["legal"])})
        for seat in seats:
            await seat.state(lambda m, now=now: m["version"] > now["version"]
                             or m["hand_number"] != now["hand_number"] or m["finished"])
    raise AssertionError("the game did not end")


async def two_friends(server: LiveServer, body: dict[str, Any] | None = None) -> tuple[str, Seat, Seat]:
    """A short game of Ann and Bob, each on their own socket, played to its end."""
    created = create(server.url, {**SHORT_BLOCK, "seats": people("Ann", "Bob"), **(body or {})})
    game_id = str(created["id"])
    ann, bob = await sit(server, game_id), await sit(server, game_id)
    for seat, number in ((ann, 0), (bob, 1)):
        await seat.send({"type": "claim", "seat": number, "invite": created.get("invite")})
        await seat.until(lambda m: m["type"] == "claimed")
        await seat.state(lambda m, number=number: m["you"] == number)
    await finish([ann, bob])
    return game_id, ann, bob


async def resume(server: LiveServer, game_id: str, token: str) -> tuple[Seat, Message]:
    """A new socket at ``game_id`` that resumes the seat of ``token``; its seated state."""
    seat = await sit(server, game_id)
    await seat.send({"type": "resume", "token": token})
    claimed = await seat.until(lambda m: m["type"] in ("claimed", "error"))
    assert claimed["type"] == "claimed", claimed
    return seat, await seat.state(lambda m: m["you"] == claimed["seat"])


# ---------------------------------------------------------------- who may play again, and what anyone learns
def test_only_a_seated_person_plays_again_and_nobody_learns_a_token_on_the_way(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            game_id, ann, bob = await two_friends(server, {"invite": True})
            watcher = await sit(server, game_id)
            assert (await answer(watcher, {"type": "rematch"}))["code"] == "spectator"
            # a stranger cannot sit down at the finished table to ask for it: every seat is someone's
            claim = await answer(watcher, {"type": "claim", "seat": 1})
            assert claim["code"] in ("seat_taken", "invite_needed")
            assert (await answer(watcher, {"type": "rematch"}))["code"] == "spectator"
            assert len(httpx.get(f"{server.url}/api/games").json()) == 1

            told = await answer(ann, {"type": "rematch"})
            new_id = told["rematch"]
            seen = await watcher.state(lambda m: m["rematch"] is not None)
            assert seen["rematch"] == new_id and seen["you"] is None and seen["hand"] == []
            tokens = [token_of(ann), token_of(bob)]
            hashes = [hashlib.sha256(token.encode()).hexdigest() for token in tokens]
            # nothing a spectator or a stranger can read carries a seat's token or its hash
            readable = [json.dumps(m) for m in watcher.seen]
            for path in ("/api/games", f"/api/games/{game_id}", f"/api/games/{new_id}",
                         f"/api/games/{game_id}/record", f"/api/games/{game_id}/replay"):
                response = httpx.get(server.url + path, timeout=30)
                assert response.status_code == 200, (path, response.text)
                readable.append(response.text)
            for text in readable:
                assert not any(secret in text for secret in tokens + hashes)
            downloaded = httpx.get(f"{server.url}/api/games/{game_id}/record", timeout=30).json()
            assert "rematch" not in downloaded["meta"] and "invite_hash" not in downloaded["meta"]
            # the stranger finds the next game's seats taken too, and the invited table still invited-only
            stranger = await sit(server, new_id)
            assert latest(stranger)["invite_only"] is True
            refused = await answer(stranger, {"type": "claim", "seat": 0})
            assert refused["code"] in ("seat_taken", "invite_needed")

    asyncio.run(main())


def test_malformed_or_early_rematch_messages_are_refused_and_the_socket_lives(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            game_id = str(create(server.url, {**SHORT_BLOCK, "seats": people("Ann", "Bob")})["id"])
            ann = await sit(server, game_id)
            await ann.claim(0)
            for message in ({"type": "rematch"}, {"type": "rematch", "game": {"id": [1] * 50}},
                            {"type": "rematch", "seat": -1, "variant": "pip"}):
                refused = await answer(ann, message)
                assert refused["code"] == "game_running" and "not over" in refused["message"], refused
            assert (await answer(ann, {"type": "REMATCH"}))["code"] == "unknown_type"
            assert (await answer(ann, {"type": ["rematch"]}))["code"] == "malformed"
            await ann.send({"type": "ping"})
            await ann.until(lambda m: m["type"] == "pong")
            assert len(httpx.get(f"{server.url}/api/games").json()) == 1

    asyncio.run(main())


def test_two_people_asking_at_once_make_one_next_game(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            _, ann, bob = await two_friends(server)
            await asyncio.gather(ann.send({"type": "rematch"}), bob.send({"type": "rematch"}),
                                 ann.send({"type": "rematch"}))
            first = await ann.state(lambda m: m["rematch"] is not None)
            second = await bob.state(lambda m: m["rematch"] is not None)
            assert first["rematch"] == second["rematch"]
            await asyncio.sleep(0.2)
            assert len(httpx.get(f"{server.url}/api/games").json()) == 2

    asyncio.run(main())


def test_playing_again_counts_against_the_clients_new_game_limit(db: str) -> None:
    async def main() -> None:
        limits = Limits(chosen_deals=True, game_burst=1, games_per_minute=0.001)
        with LiveServer(db, limits) as server:
            _, ann, _ = await two_friends(server)
            over = httpx.post(f"{server.url}/api/games", json={**SHORT_BLOCK, "seats": people("Ann", "Bob")},
                              timeout=30)
            assert over.status_code == 429  # this address made its one game
            reply = await answer(ann, {"type": "rematch"})
            listed = httpx.get(f"{server.url}/api/games").json()
            assert reply["type"] == "error" and len(listed) == 1, (reply, len(listed))

    asyncio.run(main())


def test_a_next_game_that_cannot_be_stored_is_refused_as_not_stored(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            _, ann, _ = await two_friends(server)

            def broken(*writes: Any) -> None:
                raise OSError("disk full")

            server.app.state.store.save = broken
            reply = await answer(ann, {"type": "rematch"})
            assert reply["type"] == "error" and reply["code"] == "not_stored", reply
            await ann.send({"type": "ping"})
            await ann.until(lambda m: m["type"] == "pong")

    asyncio.run(main())


# ---------------------------------------------------------------- friends away, chains, restarts
def test_a_friend_away_finds_the_next_game_after_a_restart_and_sits_with_the_old_token(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            game_id, ann, bob = await two_friends(server)
            tokens = [token_of(ann), token_of(bob)]
            await bob.socket.close()  # Bob has gone home
            new_id = (await answer(ann, {"type": "rematch"}))["rematch"]
            await ann.socket.close()
        with LiveServer(db) as server:  # restarted on the same database
            back = await sit(server, game_id)  # Bob opens the old link the next day
            assert latest(back)["rematch"] == new_id and latest(back)["finished"]
            _, state = await resume(server, new_id, tokens[1])
            assert state["you"] == 1 and not state["finished"] and state["players"][1]["name"] == "Bob"
            assert len(state["hand"]) > 0

    asyncio.run(main())


def test_a_chain_of_games_keeps_everyone_in_their_seat_and_each_game_names_the_next(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            game_id, ann, bob = await two_friends(server, {"invite": True})
            tokens = [token_of(ann), token_of(bob)]
            chain = [game_id]
            for round_ in range(3):
                asker = (ann, bob)[round_ % 2]
                chain.append((await answer(asker, {"type": "rematch"}))["rematch"])
                await ann.socket.close()
                await bob.socket.close()
                (ann, _), (bob, _) = [await resume(server, chain[-1], token) for token in tokens]
                await finish([ann, bob], seed=round_)
            assert len(set(chain)) == 4
            for before, after in itertools.pairwise(chain):
                stored = server.app.state.store.load(before)
                assert stored is not None and stored.record["meta"]["rematch"] == after
                assert stored.record["meta"]["invite_hash"] == server.app.state.store.load(after).record[
                    "meta"]["invite_hash"]
            assert server.app.state.store.load(chain[-1]).record["meta"].get("rematch") is None

    asyncio.run(main())


def test_a_loaded_record_cannot_plant_the_tables_own_keys(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            other = str(create(server.url, {**SHORT_BLOCK, "seats": people("Ann", "Bob")})["id"])
            data = finished_game("draw", 2)
            data["meta"] = {"rematch": other, "invite_hash": hashlib.sha256(b"known").hexdigest(),
                            "hot_seat": True, "seats": [{"kind": "computer"}] * 2, "note": "kept"}
            loaded = httpx.post(f"{server.url}/api/records", json={"record": data}, timeout=30)
            assert loaded.status_code == 201, loaded.text
            game_id = loaded.json()["id"]
            watcher = await sit(server, game_id)
            state = latest(watcher)
            assert state["rematch"] is None and state["invite_only"] is False and state["hot_seat"] is False
            # the loader's seat: a claim with no invitation sits down (the planted hash is not the table's)
            await watcher.send({"type": "claim", "seat": 0})
            claimed = await watcher.until(lambda m: m["type"] in ("claimed", "error"))
            assert claimed["type"] == "claimed", claimed
            stored = server.app.state.store.load(game_id)
            assert stored is not None and stored.record["meta"].get("note") == "kept"
            assert "rematch" not in stored.record["meta"] and "invite_hash" not in stored.record["meta"]

    asyncio.run(main())


def test_play_again_after_a_loaded_record_keeps_its_variant_options_and_people(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            import boneyard
            from boneyard import record

            game = boneyard.new_game("all-fives", players=3, seed=2, names=["Ann", "Bob", "Cy"],
                                     options={"target": 61, "spinner_mode": "none"})
            rng = random.Random(2)
            while not game.finished:
                if not game.in_hand:
                    game.next_hand()
                game.apply(rng.choice(game.legal_moves()))
            loaded = httpx.post(f"{server.url}/api/records", json={"record": record.to_record(game, seed=2)},
                                timeout=30)  # as the lobby sends it: seat 1 the loader, the rest computers
            assert loaded.status_code == 201, loaded.text
            ann = await sit(server, loaded.json()["id"])
            await ann.claim(0)
            new_id = (await answer(ann, {"type": "rematch"}))["rematch"]
            new = server.app.state.rooms.rooms[new_id]
            assert new.game.rules.name == "all-fives" and new.game.rules.options.target == 61
            assert new.game.rules.options.spinner_mode == "none"
            assert [(s.name, s.kind) for s in new.seats] == [("Ann", "human"), ("Bob", "computer"),
                                                             ("Cy", "computer")]
            _, state = await resume(server, new_id, token_of(ann))
            assert state["you"] == 0 and [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cy"]

    asyncio.run(main())


def test_play_again_keeps_the_names_the_table_showed(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            data = finished_game("draw", 2)
            data["players"] = ["Ann", "Bob"]
            loaded = httpx.post(f"{server.url}/api/records", timeout=30, json={
                "record": data, "seats": [{"kind": "human"}, {"kind": "computer", "level": "random"}]})
            assert loaded.status_code == 201, loaded.text
            ann = await sit(server, loaded.json()["id"])
            shown = [p["name"] for p in (await ann.claim(0))["players"]]
            assert shown == ["Ann", "Bob"]
            new_id = (await answer(ann, {"type": "rematch"}))["rematch"]
            watcher = await sit(server, new_id)
            assert [p["name"] for p in latest(watcher)["players"]] == shown

    asyncio.run(main())


def test_pass_and_play_plays_again_on_the_same_screen(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            created = create(server.url, {**SHORT_BLOCK, "seats": people("Ann", "Bob"), "hot_seat": True,
                                          "invite": True})
            screen = await sit(server, created["id"])
            tokens = []
            for seat in (0, 1):
                await screen.send({"type": "claim", "seat": seat, "invite": created["invite"]})
                tokens.append(str((await screen.until(lambda m: m["type"] == "claimed"))["token"]))
            rng = random.Random(4)
            while not (state := await screen.state())["finished"]:
                if not state["in_hand"]:
                    await screen.send({"type": "next_hand", "hand": state["hand_number"]})
                    continue
                if state["you"] != state["turn"]:
                    await screen.send({"type": "resume", "token": tokens[state["turn"]]})
                    continue
                await screen.send({"type": "move", "move": rng.choice(state["legal"])})
            new_id = (await answer(screen, {"type": "rematch"}))["rematch"]
            again = await sit(server, new_id)
            for token in tokens:  # one screen takes both seats again
                await again.send({"type": "resume", "token": token})
                assert (await again.until(lambda m: m["type"] in ("claimed", "error")))["type"] == "claimed"
            state = await again.state()
            assert state["hot_seat"] and state["invite_only"] and all(p["connected"] for p in state["players"])

    asyncio.run(main())


# ---------------------------------------------------------------- one seat on two devices
def test_a_seat_on_two_devices_plays_from_either_and_stays_online_while_one_is_open(db: str) -> None:
    async def main() -> None:
        with LiveServer(db) as server:
            game_id = str(create(server.url, {"variant": "draw", "seed": 4, "seats": people("Ann", "Bob")})["id"])
            laptop, bob = await sit(server, game_id), await sit(server, game_id)
            await laptop.claim(0)
            await bob.claim(1)
            phone, state = await resume(server, game_id, token_of(laptop))  # the "Play on another device" link
            assert state["you"] == 0 and state["hand"] == latest(laptop)["hand"]
            while latest(phone)["turn"] != 0:  # Bob plays until it is Ann's turn
                version = latest(bob)["version"]
                await bob.send({"type": "move", "move": latest(bob)["legal"][0]})
                await phone.state(lambda m, version=version: m["version"] > version)
            version = latest(phone)["version"]
            await phone.send({"type": "move", "move": latest(phone)["legal"][0]})  # Ann moves on her phone
            on_phone = await phone.state(lambda m: m["version"] > version)
            seen = await laptop.state(lambda m: m["version"] > version)
            assert (seen["version"], seen["hand"], seen["history"]) == (on_phone["version"], on_phone["hand"],
                                                                        on_phone["history"])
            if seen["in_hand"] and seen["turn"] == 1:  # the laptop cannot make the same turn again
                refused = await answer(laptop, {"type": "move", "move": "draw"})
                assert refused["code"] == "not_your_turn" and "Bob" in refused["message"]
            await laptop.socket.close()
            await asyncio.sleep(0.3)
            await bob.send({"type": "ping"})
            await bob.until(lambda m: m["type"] == "pong")
            assert latest(bob)["players"][0]["connected"] is True  # the phone still holds Ann's seat

    asyncio.run(main())


# ---------------------------------------------------------------- the seat link in the page
@pytest.mark.browser
def test_a_wrong_seat_link_does_not_cost_the_browser_its_own_seat(server: Server, browser: Any) -> None:
    game_id = server.post("/api/games", {"variant": "draw", "seed": 4, "seats": people("Ann", "Bob")})["id"]
    page = open_page(browser, f"{server.url}/game/{game_id}")
    try:
        page.wait_for_selector('#table-players .player.you[data-seat="0"]')
        other = page.context.new_page()  # a mistyped (or hostile) seat link, opened in the same browser
        other.goto(f"{server.url}/game/{game_id}#seat=not-a-token")
        other.wait_for_selector("#status >> text=/watching|no seat|seated|turn|thinking/i")
        other.wait_for_timeout(500)
        other.close()
        page.reload()
        page.wait_for_selector("body[data-ready]")
        page.wait_for_selector("#table-players .player.you")
        assert page.locator("#table-players .player.you").get_attribute("data-seat") == "0"
        assert server.get(f"/api/games/{game_id}")["players"][1]["claimed"] is False  # Bob's seat still free
    finally:
        page.context.close()


@pytest.mark.browser
def test_an_oversized_seat_link_does_not_leave_the_page_stuck(server: Server, browser: Any) -> None:
    game_id = server.post("/api/games", {"variant": "draw", "seed": 4, "seats": people("Ann", "Bob")})["id"]
    page = open_page(browser, f"{server.url}/game/{game_id}#seat={'a' * 5000}")
    try:
        page.wait_for_selector("#status >> text=/./")
        page.wait_for_timeout(800)
        page.goto(f"{server.url}/game/{game_id}")  # the plain link, as a friend sent it
        page.wait_for_selector("body[data-ready]")
        page.wait_for_selector("#table-players .player.you", timeout=5000)
    finally:
        page.context.close()


@pytest.mark.browser
def test_a_hostile_seat_link_injects_nothing_and_leaves_the_address_bar(server: Server, browser: Any) -> None:
    game_id = server.post("/api/games", {"variant": "draw", "seed": 4, "seats": people("Ann", "Bob")})["id"]
    hostile = "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E%22%3E%3Cscript%3Ealert(2)%3C%2Fscript%3E"
    context = browser.new_context()
    dialogs: list[str] = []
    page = context.new_page()
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        page.goto(f"{server.url}/game/{game_id}#seat={hostile}")
        page.wait_for_selector("body[data-ready]")
        page.wait_for_selector("#status >> text=/no seat|seated|turn|thinking|watching/i")
        page.wait_for_timeout(500)
        assert dialogs == [] and page.locator("img[src='x'], script:has-text('alert')").count() == 0
        assert "#seat=" not in page.url and "alert" not in page.url
    finally:
        context.close()


@pytest.mark.browser
def test_a_spectator_is_told_the_name_of_the_button_it_has(server: Server, browser: Any) -> None:
    game_id = seat_table(server, finished_game("block", 2))
    player = open_page(browser, f"{server.url}/game/{game_id}")
    watcher = open_page(browser, f"{server.url}/game/{game_id}?watch")
    try:
        player.wait_for_selector("#summary-title >> text=Game over")
        watcher.wait_for_selector("#summary-title >> text=Game over")
        player.click("#play-again")
        watcher.locator("#play-again >> text=Watch the next game").wait_for()
        said = watcher.locator("#live").text_content() or ""
        assert re.search(r"next game", said) and "Go to the next game" not in said, said
    finally:
        player.context.close()
        watcher.context.close()


@pytest.mark.browser
def test_a_friend_away_finds_the_next_game_open_in_the_lobby_and_sits_in_it(db: str, browser: Any) -> None:
    """Bob went home before Ann played again at their invited-only table: back in the lobby, his browser (which
    holds his seat at the old game) is offered the next game to *Open*, not to *Watch*, and opening it seats him."""
    with LiveServer(db) as server:
        async def play_and_play_again() -> tuple[str, str, str, str]:
            created = create(server.url, {**SHORT_BLOCK, "seats": people("Ann", "Bob"), "invite": True})
            game_id = str(created["id"])
            ann, bob = await sit(server, game_id), await sit(server, game_id)
            for seat, number in ((ann, 0), (bob, 1)):
                await seat.send({"type": "claim", "seat": number, "invite": created["invite"]})
                await seat.until(lambda m: m["type"] == "claimed")
                await seat.state(lambda m, number=number: m["you"] == number)
            await finish([ann, bob])
            await bob.socket.close()  # Bob has gone home
            next_id = (await answer(ann, {"type": "rematch"}))["rematch"]
            await ann.socket.close()
            return game_id, str(next_id), token_of(bob), str(created["invite"])

        with ThreadPoolExecutor(1) as other_thread:  # (the browser's driver holds this thread's event loop)
            game_id, next_id, token, invite = other_thread.submit(asyncio.run, play_and_play_again()).result()
        page = open_page(browser, server.url + "/")
        try:
            page.evaluate("([game, token, invite]) => { localStorage.setItem(`boneyard-token-${game}`, token);"
                          " localStorage.setItem(`boneyard-invite-${game}`, invite); }", [game_id, token, invite])
            page.reload()
            page.wait_for_selector(f'#games a[href^="/game/{next_id}"]')
            link = page.locator(f'#games a[href^="/game/{next_id}"]')
            assert link.inner_text() == "Open" and link.get_attribute("href") == f"/game/{next_id}"
            link.click()
            page.wait_for_selector('#table-players .player.you[data-seat="1"]')
            assert "Bob (you)" in page.locator("#table-players .player.you").inner_text()
        finally:
            page.context.close()
