"""Replays for the viewer: a record turned into steps the browser can page through.

A record is public once it is handed over (a finished game, or a file the user loads), so the
steps show every hand.  A tile's place on the table depends only on the tiles before it, so each
hand carries its final geometry once and every step says how many of those tiles are down.
"""

from __future__ import annotations

from typing import Any

from boneyard import record
from boneyard.render.geometry import Geometry, layout_geometry, table_size
from boneyard.render.text import setup_draws_text, winner_says
from boneyard.review.analysis import MARKS
from boneyard.state import Game
from boneyard.web.narrate import latest_text, shown


def _step(game: Game, geometry: Geometry, event: dict[str, Any] | None) -> dict[str, Any]:
    placed = len(game.layout)
    shown = Geometry(geometry.tiles[:placed], geometry.width, geometry.height)
    result = game.hand.result
    return {
        "placed": placed,
        "view": list(shown.view()),
        "event": event,
        "hands": [[str(tile) for tile in hand] for hand in game.hands],
        "scores": list(game.scores),
        "stock": game.stock_left,
        "turn": game.turn if game.in_hand else None,
        "end": None if result is None else {"end": result.end, "winner": result.winner,
                                            "says": "nobody wins" if result.winner is None
                                            else winner_says(game, result.winner, "win"),
                                            "blocked_rule": game.rules.blocked_rule() if result.end == "blocked"
                                            else None,
                                            "hand_points": list(result.hand_points),
                                            "scoring": [[{"name": i.name, "points": i.points} for i in items]
                                                        for items in result.scoring]},
    }


def _annotation(note: dict[str, Any] | None, move: str) -> dict[str, Any] | None:
    """A move's annotation from the record, for the viewer: its words as ``boneyard replay`` prints them (one line,
    without the ``»``) and its mark where it is one of RECORD.md's four (another word is shown, uncoloured)."""
    if note is None:
        return None
    mark = note.get("mark")
    return {"text": record.annotation_text(note, move).removeprefix("» "), "mark": mark if mark in MARKS else None}


def replay_steps(data: dict[str, Any]) -> dict[str, Any]:
    """Every step of a record: ``{variant, title, players, hands: [{geometry, steps}], …}``; a move the record
    annotates (a review's judgement: RECORD.md "Annotations") has its ``annotation`` in its step's event.
    Raises :class:`~boneyard.errors.RecordError` for a record that does not replay."""
    finished = record.replay(data)  # checks the whole record first, with its error messages
    notes = record.annotations_of(data)
    game = record.new_game_from(data)
    width, height = table_size(len(game.rules.tile_set()))
    hands = []
    for log in finished.log:
        game.start_hand(log.setup)
        # the final layout of this hand gives every tile's place
        for event in log.events:
            game.apply(event.move)
        geometry = layout_geometry(game.layout, width=width, height=height)
        for _ in log.events:
            game.undo()
        steps = [_step(game, geometry, None)]
        hand_notes = notes[log.number - 1] if log.number <= len(notes) else []
        for number, event in enumerate(log.events, 1):
            game.apply(event.move)
            note = hand_notes[number - 1] if number <= len(hand_notes) else None
            steps.append(_step(game, geometry, {
                "number": number, "seat": event.seat, "name": game.names[event.seat], "move": str(event.move),
                "text": latest_text(game, event),
                "points": event.points,
                "scoring": [{"name": item.name, "points": item.points} for item in event.scoring],
                "annotation": _annotation(note, str(event.move)),
            }))
        dice = log.setup.dice
        setup = setup_draws_text(game.names, log.setup_draws, None, shown, open_hands=True)
        hands.append({"number": log.number, "leader": log.leader, "setup": setup,
                      "dice": None if dice is None else {"flower": list(dice.flower), "scorpion": list(dice.scorpion)},
                      "tiles": [tile.as_json() for tile in geometry.tiles], "steps": steps})
    return {"variant": finished.rules.name, "title": finished.rules.title, "players": list(finished.names),
            "hands": hands, "finished": finished.finished, "winner": finished.winner,
            "totals": list(finished.scores)}


__all__ = ["replay_steps"]
