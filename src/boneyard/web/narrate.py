"""The table in words for the browser: the hand's log, the All Fives count, the last tile.

What one seat may read of the hand in progress, written the way players talk ("Computer 1
played 6-4 on the 4: count 10, +10", "You drew 2 tiles", "Ann passed").  Everything here is
computed from the public history of a :class:`~boneyard.view.SeatView` (a spectator's
:class:`~boneyard.view.TableView`) and the layout: a give the seat did not see stays "a tile",
a draw never names its tile.  The numbers come from the rules (the count is
:meth:`AllFives.count`), never recomputed, so the page shows what the rules score.
A :class:`Narrator` remembers what each seat was told, so a web room tells only the new moves.

>>> from boneyard import new_game
>>> game = new_game("all-fives", seed=2, names=["You", "Computer 1"])
>>> event = game.apply(game.legal_moves()[0])
>>> hand_log(game, 0)[0]["text"].startswith("You led ")
True
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Iterator
from typing import Any, NamedTuple

from boneyard.layout import Layout, Role
from boneyard.moves import Kind
from boneyard.render.text import setup_draws_text
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
#: PIP's D on an empty stock: its player gives the next one a tile instead (PIP-16)
D_GIVES = "{who} {give} a tile to the next player"


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


def _counts(game: Game, first: int = 0) -> list[int | None]:
    """The All Fives count after each placement of the hand after the first ``first``, in play order."""
    layout = game.layout
    if not isinstance(game.rules, AllFives):
        return [None] * (len(layout) - first)
    if len(layout) - first == 1:  # (after a move: the table as it is now)
        return [open_count(game)]
    scratch = Game(game.rules, list(game.names))
    scratch.layout = layout.copy()
    counts: list[int | None] = []
    while len(scratch.layout) > first:
        counts.append(open_count(scratch))
        scratch.layout.pop()
    counts.reverse()
    return counts


def shown(tile: object) -> str:
    """A tile as the table draws it: a wild half (``W`` in the notation) is a star."""
    return str(tile).replace("W", "★")


def _who(names: list[str], seat: int, viewer: int | None) -> str:
    return "You" if seat == viewer else names[seat]


def _items(scoring: list[ScoreItem]) -> str:
    return ", ".join(f"{item.name} {signed(item.points)}" for item in scoring)


def _placement(event: PublicEvent | Event, layout: Layout, number: int, who: str, count: int | None,
               ended: bool, gives: bool, limit: str) -> str:
    """``ended``: the placement ended the hand, so what a PIP tile would do next (a directional tile's turn, a double's
    toes) is not said; ``gives``: its player gives a tile next (PIP's D on an empty stock); ``limit``: what may hold
    a move's points back (the rules' ``points_limit``), said where it did, so the parts add up."""
    move = event.move
    placed = layout.tiles[number - 1]
    if move.kind == Kind.LEAD:
        text = f"{who} led {shown(move.tile)}"
    else:
        face = layout.tiles[placed.parent - 1].faces[placed.parent_slot]
        text = f"{who} played {shown(move.tile)} on the {shown(half_text(face.value))}"
    scored = [f"count {count}"] if count is not None else []
    others = [item for item in event.scoring if item.name != "count"]
    limited = event.points - sum(item.points for item in event.scoring)  # an approach cap's or a floor's part
    parts = [_items(others)] if others else []
    if limited:
        parts.append(f"{limit or 'limit'} {signed(limited)}")
    if len(others) == 1 and others[0].points == event.points:
        scored.append(f"{others[0].name} {signed(event.points)}")
    elif event.points or parts:
        scored.append(signed(event.points) + (f" ({', '.join(parts)})" if parts else ""))
    notes = [", ".join(scored)] if scored else []
    letter = placed.tile.letter
    if not ended and letter is not None and letter in LETTER_EFFECTS:
        effect = D_GIVES if letter == D and gives else LETTER_EFFECTS[letter]
        you = who == "You"
        notes.append(effect.format(who=who, go="go" if you else "goes", give="give" if you else "gives"))
    elif not ended and placed.role == Role.TOES:
        notes.append(f"a double: the next {TOE_PLAYS} plays go on its toes")
    return text + (": " + "; ".join(notes) if notes else "")


def _event_text(event: PublicEvent | Event, who: str, layout: Layout, placed: int, count: int | None,
                ended: bool, gives: bool = False, limit: str = "") -> str:
    """One move in words; ``placed`` is the number of the tile it put down, if it did; ``ended``: the move ended the
    hand; ``gives``: its player gives a tile next; ``limit``: the rules' ``points_limit``."""
    move = event.move
    if move.is_placement:
        return _placement(event, layout, placed, who, count, ended, gives, limit)
    if move.kind == Kind.DRAW:
        return f"{who} drew a tile"
    if move.kind == Kind.PASS:
        return f"{who} passed"
    given = "a tile" if move.tile is None else shown(move.tile)
    return f"{who} gave {given} to the next player"


def latest_text(game: Game, event: Event) -> str:
    """The move just made in ``game`` (``event``), in words, as the replay viewer shows it."""
    events = game.hand.events
    ended = game.hand.result is not None and bool(events) and events[-1] is event
    return _event_text(event, game.names[event.seat], game.layout, len(game.layout), open_count(game), ended,
                       game.give_pending, game.rules.points_limit)


def event_json(event: PublicEvent | Event, names: list[str]) -> dict[str, Any]:
    """One move of the ``history`` of a web ``state`` message."""
    return {"seat": event.seat, "name": names[event.seat], "move": str(event.move), "points": event.points,
            "scoring": [{"name": item.name, "points": item.points} for item in event.scoring]}


def _unencodable(value: object) -> Any:
    raise TypeError(f"a {type(value).__name__} cannot be sent as JSON")


#: CPython's C encoder, made once (``JSONEncoder.encode`` makes one per call, which costs more
#: than encoding a small value): the same text, compact and not ASCII-escaped.
_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_encoder = None if _make_encoder is None else _make_encoder(
    None, _unencodable, json.encoder.encode_basestring, None, ":", ",", False, False, True)
_fallback = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def json_text(value: Any) -> str:
    """``value`` as the JSON text the server sends: what Starlette's ``send_json`` sends
    (``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``), a state message's parts too."""
    if _encoder is None:  # (a Python without the C accelerator)
        return _fallback(value)
    return "".join(_encoder(value, 0))


class Told(NamedTuple):
    """One move as one seat was told it."""

    event: Event  #: the game's own event (kept for its identity)
    entry: dict[str, Any]  #: its ``history`` entry (:func:`event_json`)
    entry_text: str  #: ... as JSON text
    text: str | None  #: its log text (None for a draw: a run of draws is one log entry)
    placed: int  #: the tiles placed by then


def _tell(game: Game, seat: int | None, history: list[PublicEvent], told: list[Told]) -> None:
    """Extend ``told`` (the first moves of the hand, as ``seat`` saw them) to the whole hand;
    ``history`` is the rest of the hand, the moves after those, as ``seat`` sees them."""
    events = game.hand.events
    names = game.names
    layout = game.layout
    placed = told[-1].placed if told else 0
    counts = _counts(game, placed)
    first = placed
    known = len(told)
    for position in range(known, len(events)):
        event = history[position - known]
        move = event.move
        text = None
        if move.kind != Kind.DRAW:
            placed += move.is_placement
            count = counts[placed - first - 1] if move.is_placement else None
            ended = position == len(events) - 1 and game.hand.result is not None
            following = history[position - known + 1] if position + 1 < len(events) else None
            gives = (game.give_pending if following is None  # the move just made: the game says what is due
                     else following.move.kind == Kind.GIVE and following.seat == event.seat)
            text = _event_text(event, _who(names, event.seat, seat), layout, placed, count, ended, gives,
                               game.rules.points_limit)
        entry = event_json(event, names)
        told.append(Told(events[position], entry, json_text(entry), text, placed))


def _entries(names: list[str], seat: int | None, told: list[Told], start: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """The log entries of ``told[start:]`` (``start`` begins an entry), each with the position
    after its last move; a run of draws is one entry."""
    draws = 0
    for position in range(start, len(told)):
        event, text = told[position].event, told[position].text
        if text is None:
            draws += 1
            following = told[position + 1].event if position + 1 < len(told) else None
            if following is None or following.move.kind != Kind.DRAW or following.seat != event.seat:
                who = _who(names, event.seat, seat)
                yield position + 1, {"seat": event.seat, "text": f"{who} drew {plural(draws, 'tile')}"}
                draws = 0
            continue
        yield position + 1, {"seat": event.seat, "text": text}


def _setup_entries(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The log's first entry where the hand began with a search for its starting tile."""
    text = setup_draws_text(game.names, game.hand.setup_draws, seat, shown)
    return [] if text is None else [{"seat": None, "text": text}]


def _log(game: Game, seat: int | None, told: list[Told]) -> list[dict[str, Any]]:
    entries = _setup_entries(game, seat) + [entry for _, entry in _entries(game.names, seat, told, 0)]
    if game.hand.result is not None:
        entries.append({"seat": None, "text": hand_end_text(game, seat)})
    return entries


def hand_log(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The current hand as ``seat`` (None: a spectator) saw it, one entry per thing that
    happened (a run of draws is one entry): ``{"seat", "text"}``, the hand's end last."""
    if not game.log:
        return []
    view = TableView(game) if seat is None else SeatView(game, seat)
    told: list[Told] = []
    _tell(game, seat, view.history(), told)
    return _log(game, seat, told)


def hand_end_text(game: Game, seat: int | None) -> str:
    """``Hand 2 over (blocked): Computer 1 wins the hand. At the hand's end you score 0, Computer 1 scores 12.``
    (a hand the game's end stopped: ``Hand 3 stopped: Ann won the game during it.``)"""
    result = game.hand.result
    assert result is not None
    names = game.names
    winner = "nobody wins the hand" if result.winner is None else (
        "You win the hand" if result.winner == seat else f"{names[result.winner]} wins the hand")
    scores = "At the hand's end " + ", ".join(  # (what the plays scored is in their own lines)
        f"{'you score' if index == seat else names[index] + ' scores'} {points}"
        for index, points in enumerate(result.hand_points))
    if result.end == "unfinished":  # the game was won during the hand (a target reached at once)
        who = "the game ended" if game.winner is None else (
            "You won the game" if game.winner == seat else f"{names[game.winner]} won the game")
        return f"Hand {game.hand.number} stopped: {who} during it."
    return f"Hand {game.hand.number} over ({result.end}): {winner}. {scores}."


def table_fields(game: Game, seat: int | None) -> dict[str, Any]:
    """The fields of the web ``state`` message that describe the table in words and marks:
    ``count`` (All Fives), ``last_tile`` (the index of the tile placed last), ``log`` and
    ``owed`` (PIP doubles still owed plays, only while the hand is on) and ``ends`` (the open ends' numbers)."""
    marks = table_marks(game)
    return {"count": marks["count"], "last_tile": marks["last_tile"], "log": hand_log(game, seat),
            "owed": marks["owed"], "ends": marks["ends"]}


def table_marks(game: Game) -> dict[str, Any]:
    """The fields of :func:`table_fields` that every seat is told alike: ``count``, ``last_tile``, ``owed`` and
    ``ends`` (the numbers the open ends show, in the layout's order, as a screen reader hears the table)."""
    layout = game.layout
    return {
        "count": open_count(game) if game.log else None,
        "last_tile": len(layout) if layout.tiles and game.log else None,
        "owed": [{"tile": index, "plays": plays} for index, plays in game.pending] if game.in_hand else [],
        "ends": [half_text(face.value) for face in layout.open_ends()] if game.log else [],
    }


class Narrator:
    """What each seat has been told of the hand in progress, remembered from one ``state``
    message to the next, so that a move costs its own history entry and log line, not the whole
    hand's again (their JSON text too).  What is remembered is keyed by the game's own
    :class:`~boneyard.state.Event` objects (held, so compared by identity): an undo or a new hand
    brings new events, and what they replaced is told afresh.  The answers equal
    :func:`event_json` and :func:`hand_log` built from scratch (a test plays games and compares)."""

    __slots__ = ("_logged", "_told")

    def __init__(self) -> None:
        self._told: dict[int | None, list[Told]] = {}  #: by seat: what was told
        #: by seat: the log entries of its first ``told`` moves as JSON text (a run of draws that
        #: may go on is not among them)
        self._logged: dict[int | None, tuple[int, list[str]]] = {}

    def told(self, game: Game, seat: int | None, view: TableView) -> list[Told]:
        """The hand so far as ``seat`` was told it; ``view`` is that seat's view of ``game``."""
        events = game.hand.events if game.log else []
        told = self._told.setdefault(seat, [])
        kept = 0
        limit = min(len(told), len(events))
        while kept < limit and told[kept].event is events[kept]:
            kept += 1
        if kept < len(told):  # an undo or a new hand
            del told[kept:]
            self._logged.pop(seat, None)
        if kept < len(events):
            _tell(game, seat, view.history(kept), told)
        return told

    @staticmethod
    def history_text(told: list[Told]) -> str:
        """The ``history`` of the ``state`` message (one :func:`event_json` per move) as JSON text."""
        return "[" + ",".join(item.entry_text for item in told) + "]"

    def log_text(self, game: Game, seat: int | None, told: list[Told]) -> str:
        """:func:`hand_log` as JSON text, from what ``seat`` was told (:meth:`told`, just called)."""
        if not game.log:
            return "[]"
        done, texts = self._logged.get(seat, (0, []))
        ongoing: list[str] = []
        for after, entry in _entries(game.names, seat, told, done):
            if after == len(told) and told[-1].text is None:  # a run of draws that may go on
                ongoing.append(json_text(entry))
            else:
                texts.append(json_text(entry))
                done = after
        self._logged[seat] = (done, texts)
        if game.hand.result is not None:
            ongoing.append(json_text({"seat": None, "text": hand_end_text(game, seat)}))
        setup = [json_text(entry) for entry in _setup_entries(game, seat)]
        return "[" + ",".join(setup + texts + ongoing) + "]"


__all__ = ["Narrator", "Told", "event_json", "hand_end_text", "hand_log", "json_text", "latest_text", "open_count",
           "plural", "table_fields", "table_marks"]
