"""A move's server cost: the web room's state messages built from what it remembers (the
previous geometry, each seat's history and log) are exactly the messages a full rebuild gives."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from boneyard.rules.base import VARIANTS
from boneyard.view import SeatView, TableView
from boneyard.web.narrate import event_json, hand_log
from boneyard.web.rooms import Room, Seat, deal_next
from boneyard.web.store import Store


def players_of(variant: str) -> list[int]:
    cls = VARIANTS[variant]
    return sorted({cls.min_players, cls.max_players})


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield opened
    opened.dispose()


def rebuilt(room: Room, seat: int | None) -> dict[str, Any]:
    """The state message built from nothing remembered: a twin room with a fresh narrator and
    no geometry, on the same game."""
    twin = Room(room.id, room.game, room.seats, room.seed, room.store, hot_seat=room.hot_seat)
    twin.connections, twin.last, twin.revision = room.connections, room.last, room.revision
    return twin.state(seat)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_state_messages_from_memos_equal_full_rebuilds_through_moves_undos_and_hands(
        variant: str, store: Store) -> None:
    """The room remembers geometry, history and log between messages; after every move, undo
    and deal each seat's message (and a spectator's) is exactly what a full rebuild gives, and
    the history and log equal the pure functions'."""
    rng = random.Random(f"messages/{variant}")
    undone = 0
    for players in players_of(variant):
        seats = [Seat(f"P{index}", "human") for index in range(players)]
        room = Room.create(f"{variant}-{players}", variant, seats, None, players, store, 0)
        game = room.game
        for _ in range(400):
            if game.finished:
                break
            for _ in range(rng.choice([1, 1, 2])):  # (sometimes an undo and a move between messages)
                if game.finished:
                    break
                if not game.in_hand:
                    deal_next(game, room.seed)
                elif rng.random() < 0.12 and len(game.hand.events) > 1:
                    game.undo()
                    undone += 1
                else:
                    game.apply(rng.choice(game.legal_moves()))
                room.revision += 1  # (as every change made by the room does)
            for seat in [None, *range(players)]:
                state = room.state(seat)
                assert state == rebuilt(room, seat)
                assert state["log"] == hand_log(game, seat)
                view = TableView(game) if seat is None else SeatView(game, seat)
                assert state["history"] == [event_json(event, game.names) for event in view.history()]
    assert undone > 0
