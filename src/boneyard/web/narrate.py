"""The table in words for the browser: the hand's log, the All Fives count, the last tile.

What one seat may read of the hand in progress, written the way players talk ("Computer 1
played 6-4 on the 4: count 10, +10", "You drew 2 tiles", "Ann passed").  Everything here is
computed from the public history of a :class:`~boneyard.view.SeatView` (a spectator's
:class:`~boneyard.view.TableView`) and the layout: a give the seat did not see stays "a tile",
a draw never names its tile.  The numbers come from the rules (the count is
:meth:`AllFives.count`), never recomputed, so the page shows what the rules score.

>>> from boneyard import new_game
>>> game = new_game("all-fives", seed=2, names=["You", "Computer 1"])
>>> event = game.apply(game.legal_moves()[0])
>>> hand_log(game, 0)[0]["text"].startswith("You led ")
True
"""

from __future__ import annotations

from typing import Any

from boneyard.layout import Layout, Role
from boneyard.moves import Kind
from boneyard.rules.all_fives import AllFives
from boneyard.rules.pip import TOE_PLAYS
from boneyard.state import Event, Game, ScoreItem
from boneyard.tiles import A, D, R, S, half_text
from boneyard.view import PublicEvent, SeatView, TableView

#: What a PIP directional tile does once placed (RULES.md PIP-16), as the log says it.
LETTER_EFFECTS = {
    S: "the next player is skipped",
    R: "play changes direction",
    A: "{who} {go} again",
    D: "the next player draws",
}


def plural(count: int, word: str) -> str:
    """``1 tile``, ``2 tiles``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def signed(points: int) -> str:
    return f"{points:+d}".replace("-", "−")


def open_count(game: Game) -> int | None:
    """The sum of the open ends as All Fives scores it (None in other variants or before a lead)."""
    rules = game.rules
    if not isinstance(rules, AllFives) or not game.layout.tiles:
        return None
    return rules.count(game)


def _counts(game: Game) -> list[int | None]:
    """The All Fives count after each placement of the hand, in play order."""
    layout = game.layout
    if not isinstance(game.rules, AllFives):
        return [None] * len(layout)
    scratch = Game(game.rules, list(game.names))
    scratch.layout = layout.copy()
    counts: list[int | None] = []
    while scratch.layout.tiles:
        counts.append(open_count(scratch))
        scratch.layout.pop()
    counts.reverse()
    return counts


def _who(names: list[str], seat: int, viewer: int | None) -> str:
    return "You" if seat == viewer else names[seat]


def _items(scoring: list[ScoreItem]) -> str:
    return ", ".join(f"{item.name} {signed(item.points)}" for item in scoring)


def _placement(event: PublicEvent | Event, layout: Layout, number: int, who: str, count: int | None) -> str:
    move = event.move
    placed = layout.tiles[number - 1]
    if move.kind == Kind.LEAD:
        text = f"{who} led {move.tile}"
    else:
        face = layout.tiles[placed.parent - 1].faces[placed.parent_slot]
        text = f"{who} played {move.tile} on the {half_text(face.value)}"
    scored = [f"count {count}"] if count is not None else []
    others = [item for item in event.scoring if item.name != "count"]
    if len(others) == 1 and others[0].points == event.points:
        scored.append(f"{others[0].name} {signed(event.points)}")
    elif event.points or others:
        scored.append(signed(event.points) + (f" ({_items(others)})" if others else ""))
    notes = [", ".join(scored)] if scored else []
    letter = placed.tile.letter
    if letter is not None and letter in LETTER_EFFECTS:
        notes.append(LETTER_EFFECTS[letter].format(who=who, go="go" if who == "You" else "goes"))
    if placed.role == Role.TOES:
        notes.append(f"a double: the next {TOE_PLAYS} plays go on its toes")
    return text + (": " + "; ".join(notes) if notes else "")


def _event_text(event: PublicEvent | Event, who: str, layout: Layout, placed: int, count: int | None) -> str:
    """One move in words; ``placed`` is the number of the tile it put down, if it did."""
    move = event.move
    if move.is_placement:
        return _placement(event, layout, placed, who, count)
    if move.kind == Kind.DRAW:
        return f"{who} drew a tile"
    if move.kind == Kind.PASS:
        return f"{who} passed"
    given = "a tile" if move.tile is None else str(move.tile)
    return f"{who} gave {given} to the next player"


def latest_text(game: Game, event: Event) -> str:
    """The move just made in ``game`` (``event``), in words, as the replay viewer shows it."""
    return _event_text(event, game.names[event.seat], game.layout, len(game.layout), open_count(game))


def hand_log(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The current hand as ``seat`` (None: a spectator) saw it, one entry per thing that
    happened (a run of draws is one entry): ``{"seat", "text"}``, the hand's end last."""
    if not game.log:
        return []
    view = TableView(game) if seat is None else SeatView(game, seat)
    names = game.names
    layout = game.layout
    counts = _counts(game)
    entries: list[dict[str, Any]] = []
    placed = 0
    draws = 0
    history = view.history()
    for position, event in enumerate(history):
        who = _who(names, event.seat, seat)
        move = event.move
        if move.kind == Kind.DRAW:
            draws += 1
            following = history[position + 1] if position + 1 < len(history) else None
            if following is None or following.move.kind != Kind.DRAW or following.seat != event.seat:
                entries.append({"seat": event.seat, "text": f"{who} drew {plural(draws, 'tile')}"})
                draws = 0
            continue
        placed += move.is_placement
        text = _event_text(event, who, layout, placed, counts[placed - 1] if move.is_placement else None)
        entries.append({"seat": event.seat, "text": text})
    result = game.hand.result
    if result is not None:
        entries.append({"seat": None, "text": hand_end_text(game, seat)})
    return entries


def hand_end_text(game: Game, seat: int | None) -> str:
    """``Hand 2 over (blocked): Computer 1 wins the hand. You score 0, Computer 1 scores 12.``"""
    result = game.hand.result
    assert result is not None
    names = game.names
    winner = "nobody wins the hand" if result.winner is None else (
        "you win the hand" if result.winner == seat else f"{names[result.winner]} wins the hand")
    scores = ", ".join(f"{'You score' if index == seat else names[index] + ' scores'} {points}"
                       for index, points in enumerate(result.hand_points))
    return f"Hand {game.hand.number} over ({result.end}): {winner}. {scores}."


def table_fields(game: Game, seat: int | None) -> dict[str, Any]:
    """The fields of the web ``state`` message that describe the table in words and marks:
    ``count`` (All Fives), ``last_tile`` (the index of the tile placed last), ``log`` and
    ``owed`` (PIP doubles still owed plays, only while the hand is on)."""
    layout = game.layout
    in_hand = game.in_hand
    return {
        "count": open_count(game) if game.log else None,
        "last_tile": len(layout) if layout.tiles and game.log else None,
        "log": hand_log(game, seat),
        "owed": [{"tile": index, "plays": plays} for index, plays in game.pending] if in_hand else [],
    }


__all__ = ["hand_end_text", "hand_log", "latest_text", "open_count", "plural", "table_fields"]
