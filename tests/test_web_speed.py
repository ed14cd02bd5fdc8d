"""A move's server cost: the web room's state messages, built from what it remembers (the
previous geometry, each seat's history and log, their JSON text) and from the part every
connection shares encoded once, are exactly the messages a whole rebuild gives."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from boneyard.moves import Kind
from boneyard.options import non_defaults
from boneyard.render.geometry import hotspots, layout_geometry
from boneyard.rules.base import VARIANTS
from boneyard.view import SeatView, TableView
from boneyard.web.narrate import event_json, hand_log, json_text, table_fields
from boneyard.web.rooms import Connection, Room, Seat, deal_next
from boneyard.web.store import Store


def players_of(variant: str) -> list[int]:
    cls = VARIANTS[variant]
    return sorted({cls.min_players, cls.max_players})


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield opened
    opened.dispose()


def whole_state(room: Room, seat: int | None) -> dict[str, Any]:
    """The ``state`` message built whole, from nothing remembered, as the room built it before
    it encoded the shared part once (a fresh geometry, the seat's view, the pure narration)."""
    game = room.game
    view = TableView(game) if seat is None else SeatView(game, seat)
    names = view.names
    geometry = layout_geometry(game.layout, width=room.table[0], height=room.table[1])
    own_hand = list(view.hand) if isinstance(view, SeatView) else []
    legal = view.legal_moves() if isinstance(view, SeatView) else []
    history = view.history()
    spots = hotspots(view.layout, legal, geometry) if legal else []
    dice = view.dice
    in_hand = game.in_hand
    return {
        "type": "state",
        "game": room.id,
        "variant": view.variant,
        "title": game.rules.title,
        "version": room.moves,
        "hand_number": view.hand_number,
        "you": seat,
        "players": [
            {"name": names[index], "kind": info.kind, "level": info.level if info.kind == "computer" else None,
             "claimed": info.token_hash is not None, "score": view.scores[index], "tiles": size,
             "connected": any(c.seat is not None and (index in c.held if room.hot_seat else c.seat == index)
                              for c in room.connections),
             "side": sorted(game.rules.score_seats(index))}
            for index, (info, size) in enumerate(zip(room.seats, view.hand_sizes, strict=True))
        ],
        "hand": [str(tile) for tile in own_hand],
        "legal": [str(move) for move in legal],
        "can_draw": any(move.kind == Kind.DRAW for move in legal),
        "can_pass": any(move.kind == Kind.PASS for move in legal),
        "gives": [str(move.tile) for move in legal if move.kind == Kind.GIVE],
        "turn": view.turn if in_hand else None,
        "direction": view.direction,
        "stock": view.stock_count,
        "out_of_play": game.rules.never_drawn(view.stock_count),
        "target": view.target,
        "hands_in_game": game.rules.hands_in_game,
        "lowest_wins": game.rules.lower_score_wins,
        "options": non_defaults(game.rules.options),
        "dice": None if dice is None or (not in_hand and not game.log) else
        {"flower": list(dice.flower), "scorpion": list(dice.scorpion)},
        "pending": [list(pair) for pair in view.pending] if in_hand else [],
        "in_hand": in_hand,
        "finished": game.finished,
        "winner": game.winner,
        "invite_only": room.invite_hash is not None,
        "hot_seat": room.hot_seat,
        "rematch": room.rematch,
        "table": geometry.as_json(spot.ghost for spot in spots),
        "hotspots": [spot.as_json() for spot in spots],
        "history": [event_json(event, names) for event in history],
        "last": None if room.last is None or not history else {**event_json(history[-1], names), **room.last},
        "can_undo": room.can_undo(seat),
        "summary": None if in_hand else room.summary(),
        **table_fields(game, seat),  # count, last_tile, log, owed
        "public_log": hand_log(game, None) if room.shared_screen else None,
    }


async def ignore(message: dict[str, Any]) -> None:
    pass


def test_json_text_is_what_starlette_sends() -> None:
    for value in [None, True, 3, -0.5, "Ann \"the\" ★ \u2028", ["4-2@1", "draw"], {"seat": None, "text": "é"}]:
        assert json_text(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_state_texts_equal_whole_rebuilds_through_moves_undos_and_hands(variant: str, store: Store) -> None:
    """The room remembers geometry, history and log between messages and encodes what every
    connection shares once; after every move, undo and deal, each seat's message (and a
    spectator's) is, character for character, the JSON of the message built whole."""
    rng = random.Random(f"messages/{variant}")
    undone = hands = 0
    for players in players_of(variant):
        seats = [Seat(f"P{index}", "human") for index in range(players)]
        room = Room.create(f"{variant}-{players}", variant, seats, None, players, store, 0)
        seated = Connection(ignore)
        seated.seat = 0  # (seat 0 shows as connected)
        room.connections.append(seated)
        room.last = None
        game = room.game
        for _ in range(300):
            if game.finished:
                break
            for _ in range(rng.choice([1, 1, 2])):  # (sometimes an undo and a move between messages)
                if game.finished:
                    break
                if not game.in_hand:
                    deal_next(game, room.seed)
                    room.last = None
                    hands += 1
                elif rng.random() < 0.12 and len(game.hand.events) > 1:
                    game.undo()
                    room.last = None
                    undone += 1
                else:
                    game.apply(rng.choice(game.legal_moves()))
                    room.last = {"hand": len(game.log), "hand_over": not game.in_hand}
                room.revision += 1  # (as every change made by the room does)
            shared = room.shared_state()
            for seat in [None, *range(players)]:
                expected = json.dumps(whole_state(room, seat), separators=(",", ":"), ensure_ascii=False)
                assert room.state_text(seat, shared) == expected, (variant, players, seat)
    assert undone > 0 and hands > 0
