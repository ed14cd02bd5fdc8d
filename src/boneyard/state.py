"""A game in progress: hands, stock, layout, turn, scores, history; legal moves, apply, undo.

:class:`Game` is the one mutable object (like a chess board with ``push``/``pop``).  It runs
the turn machine every variant shares — leads, plays, draws, passes, gives, blocked and
dominoed hands, hand and game ends — and asks its :class:`~boneyard.rules.base.Rules` for
everything that differs: who leads, what a double becomes, where a tile may go, what a play
scores, who wins a hand and the game.

Chance enters only through :meth:`Game.start_hand` (a :class:`HandSetup`: the deal, the stock
order, a leader chosen by lot, dice).  Everything after that is deterministic, so a game record
replays exactly.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from boneyard.errors import BoneyardError, IllegalMoveError, OptionError
from boneyard.layout import Layout, Placed, Role
from boneyard.moves import Kind, Move
from boneyard.tiles import LETTERS, MAX_PIPS, Tile, half_text

if TYPE_CHECKING:
    from boneyard.chance import Chance
    from boneyard.rules.base import Rules

NONE, UNTIL_PLAYABLE, ONE_THEN_PASS = "none", "until_playable", "one_then_pass"


class ScoreItem(NamedTuple):
    """A named scoring item: ``ScoreItem("count", 15)``."""

    name: str
    points: int


class Dice(NamedTuple):
    """Flower & Scorpion's two pairs of dice (faces 1-6)."""

    flower: tuple[int, int]
    scorpion: tuple[int, int]


@dataclass(slots=True)
class Event:
    """One move as it happened: who made it and what it scored."""

    seat: int
    move: Move
    points: int = 0
    scoring: tuple[ScoreItem, ...] = ()
    receiver: int | None = None  #: a give's receiver, fixed when it happened (a later reverse changes "next")


@dataclass(slots=True)
class HandSetup:
    """The chance outcome of one hand."""

    deal: list[list[Tile]]
    stock: list[Tile]
    leader: int | None = None
    dice: Dice | None = None


@dataclass(slots=True)
class HandResult:
    end: str  #: "domino", "blocked" or "unfinished"
    winner: int | None
    hand_points: list[int]
    scoring: list[list[ScoreItem]]  #: per seat, how hand_points was made up


@dataclass(slots=True)
class HandLog:
    number: int
    setup: HandSetup
    leader: int
    events: list[Event] = field(default_factory=list)
    result: HandResult | None = None
    start_scores: list[int] = field(default_factory=list)
    #: the draws made while looking for the starting tile (Double Bergen, PIP), in order: (seat, tile)
    setup_draws: list[tuple[int, Tile]] = field(default_factory=list)


class _Turn(NamedTuple):
    """The scalar state a move may change, kept for undo."""

    turn: int
    direction: int
    passes: int
    drawn: int
    forced_draw: bool
    give_pending: bool
    pending: tuple[tuple[int, int], ...]
    lead_tiles: frozenset[Tile] | None
    scores: tuple[int, ...]
    finished: bool
    winner: int | None
    in_hand: bool
    result: HandResult | None


class _Table(NamedTuple):
    """A hand's whole position, kept when the next hand is dealt (so a deal can be undone)."""

    hands: list[list[Tile]]
    stock: list[Tile]
    stock_pos: int
    layout: Layout
    turn: int
    direction: int
    passes: int
    drawn: int
    forced_draw: bool
    give_pending: bool
    pending: tuple[tuple[int, int], ...]
    lead_tiles: frozenset[Tile] | None
    dice: Dice | None


class _Undo(NamedTuple):
    kind: str  #: "hand", "place", "draw", "pass" or "give"
    turn: _Turn | None = None
    seat: int = 0
    position: int = 0
    receiver: int = 0
    table: _Table | None = None
    chance: object = None  #: a deal's: the chance generator's state before it (:meth:`Chance.state`)


def name_error(name: object) -> str | None:
    """Why ``name`` is no player's name (a string with more than white space), or ``None`` where it is one: what a
    :class:`Game` takes is what its record (RECORD.md) keeps."""
    if not isinstance(name, str) or not name.strip():
        return f"a player name must be a non-empty string, not {repr(name)[:40]}"
    return None


class Game:
    """A whole game of one variant: hand after hand until the rules say it is over."""

    def __init__(self, rules: Rules, names: list[str] | None = None, chance: Chance | None = None) -> None:
        self.rules = rules
        self.players = rules.players
        self.names = list(names) if names else [f"Player {seat + 1}" for seat in range(rules.players)]
        if len(self.names) != self.players:
            raise OptionError(f"{len(self.names)} names for {self.players} players")
        for seat, name in enumerate(self.names):
            if (wrong := name_error(name)) is not None:
                raise OptionError(f"names, seat {seat}: {wrong}")
        self.chance = chance
        self.scores = [0] * self.players
        self.log: list[HandLog] = []
        self.finished = False
        self.winner: int | None = None
        # the hand in progress
        self.hands: list[list[Tile]] = [[] for _ in range(self.players)]
        self.stock: list[Tile] = []
        self.stock_pos = 0
        self.layout = rules.new_layout()
        self.turn = 0
        self.direction = 1
        self.passes = 0
        self.drawn = 0
        self.forced_draw = False
        self.give_pending = False
        self.pending: tuple[tuple[int, int], ...] = ()
        self.lead_tiles: frozenset[Tile] | None = None
        self.dice: Dice | None = None
        self.in_hand = False
        self._undo: list[_Undo] = []

    # ------------------------------------------------------------ properties
    @property
    def hand(self) -> HandLog:
        """The current (or last) hand's log; :class:`~boneyard.errors.BoneyardError` before the first deal."""
        if not self.log:
            raise BoneyardError("no hand has been dealt yet: call next_hand() (or start_hand) first")
        return self.log[-1]

    @property
    def hand_over(self) -> bool:
        return not self.in_hand

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    @property
    def can_draw(self) -> bool:
        mode = self.rules.draw_mode
        if mode == NONE or self.stock_left <= self.rules.reserve:
            return False
        return mode == UNTIL_PLAYABLE or self.drawn == 0

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.players

    def hand_points_of(self, seat: int) -> int:
        value = self.rules.tile_value
        return sum(value(tile) for tile in self.hands[seat])

    # ------------------------------------------------------------ hands
    def next_hand(self) -> HandLog:
        """Deal the next hand from this game's :class:`~boneyard.chance.Chance`."""
        chance = self.chance
        if chance is None:
            raise ValueError("this game has no chance generator; call start_hand with a HandSetup")
        before = chance.state()
        try:
            log = self.start_hand(chance.setup(self))
        except Exception:
            chance.restore(before)
            raise
        # an undo of this deal sets the generator back, so that dealing again deals this hand again
        self._undo[-1] = self._undo[-1]._replace(chance=before)
        return log

    def start_hand(self, setup: HandSetup) -> HandLog:
        """Begin a hand from a chance outcome (checked against the rules)."""
        if self.finished:
            raise IllegalMoveError("the game is over")
        if self.in_hand:
            raise IllegalMoveError("the current hand is not over")
        self.rules.check_setup(self, setup)
        previous = _Table(self.hands, self.stock, self.stock_pos, self.layout, self.turn, self.direction,
                          self.passes, self.drawn, self.forced_draw, self.give_pending, self.pending,
                          self.lead_tiles, self.dice)
        self.hands = [list(tiles) for tiles in setup.deal]
        self.stock = list(setup.stock)
        self.stock_pos = 0
        self.layout = self.rules.new_layout()
        self.direction = 1
        self.passes = self.drawn = 0
        self.forced_draw = self.give_pending = False
        self.pending = ()
        self.dice = setup.dice
        self.in_hand = True
        log = HandLog(len(self.log) + 1, setup, 0, start_scores=list(self.scores))
        self.log.append(log)
        try:
            leader, first, lead_tiles = self.rules.open_hand(self, setup)
        except Exception:
            self.log.pop()
            self._restore(previous)
            raise
        log.leader = leader
        self.turn = first
        self.lead_tiles = lead_tiles
        self._undo.append(_Undo("hand", table=previous))
        return log

    def _restore(self, previous: _Table) -> None:
        (self.hands, self.stock, self.stock_pos, self.layout, self.turn, self.direction,
         self.passes, self.drawn, self.forced_draw, self.give_pending, self.pending,
         self.lead_tiles, self.dice) = previous
        self.in_hand = False

    def setup_draw(self, seat: int) -> Tile | None:
        """A draw made while looking for a starting tile (not a move; see RECORD.md)."""
        if self.stock_pos >= len(self.stock):
            return None
        tile = self.stock[self.stock_pos]
        self.stock_pos += 1
        self.hands[seat].append(tile)
        self.log[-1].setup_draws.append((seat, tile))
        return tile

    # ------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        """Every move the player on turn may make, in a fixed order."""
        if not self.in_hand or self.finished:
            return []
        hand = self.hands[self.turn]
        if self.give_pending:
            return [Move.give(tile) for tile in hand]
        if self.forced_draw:
            return [Move.draw()]
        if not self.layout.tiles:
            allowed = self.lead_tiles
            return [Move.lead(tile) for tile in hand if allowed is None or tile in allowed]
        moves = self.plays(hand)
        if moves:
            if self.rules.voluntary_draw and self.can_draw:
                moves.append(Move.draw())
            return moves
        return [Move.draw()] if self.can_draw else [Move.passing()]

    def plays(self, hand: list[Tile]) -> list[Move]:
        """The placements of tiles from ``hand`` on the current layout."""
        layout = self.layout
        target = self.rules.play_target(self)
        ends = layout.open_ends()
        if target:
            ends = [face for face in ends if face.owner == target]
        accepts = layout.accepts
        allows = self.rules.allows_play
        moves: list[Move] = []
        for tile in hand:
            halves = (tile.high,) if tile.is_double else (tile.high, tile.low)
            for half in halves:
                last = 0
                for face in ends:
                    value = face.value
                    if value <= MAX_PIPS and half <= MAX_PIPS:
                        if value != half:  # two numbers join only when equal: the hot path skips accepts()
                            continue
                    elif not accepts(value, half):
                        continue
                    if face.owner != last and (allows is None or allows(self, tile, half, face)):
                        last = face.owner
                        moves.append(Move(Kind.PLAY, tile, half, face.owner))
        return moves

    def apply(self, move: Move | str) -> Event:
        """Make ``move`` (a :class:`Move` or its notation, ``"4-2@1"``) for the player on turn; raises
        :class:`IllegalMoveError` (or :class:`NotationError` for bad notation) and changes nothing if it is not
        legal."""
        if isinstance(move, str):
            move = Move.parse(move)
        elif not isinstance(move, Move):
            raise TypeError(f"apply takes a Move or its notation (a string such as \"4-2@1\"), not "
                            f"{type(move).__name__} {move!r}; legal_moves() lists the moves")
        if (move.kind == Kind.PLAY and move.tile is not None and self.in_hand and not self.finished
                and not self.give_pending and not self.forced_draw and self.layout.tiles
                and move.tile in self.hands[self.turn]):
            legal = self.plays([move.tile])  # (legal_moves' placements of this tile: a replay's hot path)
        else:
            legal = self.legal_moves()
        check = move
        if move.kind == Kind.LEAD and move.tile is not None:
            check = Move.lead(move.tile)
        elif move.kind == Kind.DRAW and move.tile is not None:
            check = Move.draw()
        if check not in legal:
            reason = self.explain_illegal(move, self.legal_moves())
            raise IllegalMoveError(f"{move}: {reason}", move, reason)
        if move.kind == Kind.DRAW and move.tile is not None and self.stock[self.stock_pos] is not move.tile:
            reason = f"the next tile in the stock is {self.stock[self.stock_pos]}, not {move.tile}"
            raise IllegalMoveError(f"{move}: {reason}", move, reason)
        return self._apply(move)

    def _snapshot(self) -> _Turn:
        return _Turn(self.turn, self.direction, self.passes, self.drawn, self.forced_draw, self.give_pending,
                     self.pending, self.lead_tiles, tuple(self.scores), self.finished, self.winner,
                     self.in_hand, self.log[-1].result)

    def _apply(self, move: Move) -> Event:
        seat = self.turn
        hand = self.hands[seat]
        snapshot = self._snapshot()
        kind = move.kind
        if kind <= Kind.PLAY:
            tile = move.tile
            assert tile is not None
            position = hand.index(tile)
            del hand[position]
            rules = self.rules
            if kind == Kind.LEAD:
                role = rules.double_role(self, tile, True) if tile.is_double else Role.LINE
                placed = self.layout.place_lead(tile, move.half, role, rules.lead_value(self, tile))
            else:
                role = rules.double_role(self, tile, False) if tile.is_double else Role.LINE
                placed = self.layout.place(tile, move.half, move.target, role)
            self.passes = self.drawn = 0
            self.lead_tiles = None
            items, points = rules.score_play(self, seat, placed)
            self._add_points(seat, points)
            event = Event(seat, move, points, items)
            self._undo.append(_Undo("place", snapshot, seat, position))
            self.hand.events.append(event)
            if not hand:
                self._end_hand("domino", seat)
            elif rules.immediate_win and self._check_game(False):
                self._end_hand("unfinished", None)
            elif rules.dead_layout(self):
                self._end_hand("blocked", None)
            else:
                rules.advance(self, seat, placed)
            return event
        if kind == Kind.DRAW:
            tile = self.stock[self.stock_pos]
            self.stock_pos += 1
            hand.append(tile)
            if self.forced_draw:
                self.forced_draw = False
                if self.rules.forced_draw_ends_turn:
                    self.turn = self.next_seat(seat)
            else:
                self.drawn += 1
            self.passes = 0
            event = Event(seat, Move.draw())
            self._undo.append(_Undo("draw", snapshot, seat))
        elif kind == Kind.PASS:
            self.passes = self.passes + 1 if self.drawn == 0 else 0
            self.drawn = 0
            event = Event(seat, move)
            self._undo.append(_Undo("pass", snapshot, seat))
            if self.passes >= self.players:
                self.hand.events.append(event)
                self._end_hand("blocked", None)
                return event
            self.turn = self.next_seat(seat)
        else:  # GIVE
            tile = move.tile
            assert tile is not None
            position = hand.index(tile)
            del hand[position]
            receiver = self.next_seat(seat)
            self.hands[receiver].append(tile)
            self.give_pending = False
            self.passes = self.drawn = 0
            self.turn = self.next_seat(receiver) if self.rules.forced_draw_ends_turn else receiver
            event = Event(seat, move, receiver=receiver)
            self._undo.append(_Undo("give", snapshot, seat, position, receiver))
            if not hand:  # the giver handed over his last tile: he is out, as if he had played it
                self.hand.events.append(event)
                self._end_hand("domino", seat)
                return event
        self.hand.events.append(event)
        return event

    def _add_points(self, seat: int, points: int) -> None:
        if points:
            for receiver in self.rules.score_seats(seat):
                self.scores[receiver] += points

    def _end_hand(self, end: str, seat: int | None) -> None:
        self.in_hand = False
        if end == "unfinished":
            result = HandResult(end, None, [0] * self.players, [[] for _ in range(self.players)])
        else:
            result = self.rules.end_hand(self, end, seat)
            for receiver, points in enumerate(result.hand_points):
                self.scores[receiver] += points
        self.hand.result = result
        if not self.finished:
            self._check_game(True)

    def _check_game(self, hand_ended: bool) -> bool:
        finished, winner = self.rules.game_over(self, hand_ended)
        if finished:
            self.finished = True
            self.winner = winner
            self.in_hand = False
        return finished

    def undo(self) -> Move | None:
        """Take back the last move and return it (or the last deal, returning ``None``)."""
        if not self._undo:
            raise IllegalMoveError("there is nothing to undo")
        entry = self._undo.pop()
        if entry.kind == "hand":
            self.log.pop()
            assert entry.table is not None
            self._restore(entry.table)
            if entry.chance is not None and self.chance is not None:
                self.chance.restore(entry.chance)
            return None
        assert entry.turn is not None
        (self.turn, self.direction, self.passes, self.drawn, self.forced_draw, self.give_pending,
         self.pending, self.lead_tiles, scores, self.finished, self.winner, self.in_hand,
         self.log[-1].result) = entry.turn
        self.scores = list(scores)
        seat = entry.seat
        event = self.hand.events.pop()
        if entry.kind == "place":
            placed = self.layout.pop()
            self.hands[seat].insert(entry.position, placed.tile)
        elif entry.kind == "draw":
            self.hands[seat].pop()
            self.stock_pos -= 1
        elif entry.kind == "give":
            tile = self.hands[entry.receiver].pop()
            self.hands[seat].insert(entry.position, tile)
        return event.move

    # ------------------------------------------------------------ explanations
    def explain_illegal(self, move: Move, legal: list[Move] | None = None) -> str:
        """Why ``move`` is not legal now, in words (the reason part of an error)."""
        if legal is None:
            legal = self.legal_moves()
        if self.finished:
            return "the game is over"
        if not self.in_hand:
            return "the hand is over"
        seat = self.turn
        hand = self.hands[seat]
        options = ", ".join(str(m) for m in legal[:8]) + (" …" if len(legal) > 8 else "")
        if self.forced_draw:
            return f"seat {seat} must first draw the tile the D tile forces on them"
        if self.give_pending and move.kind != Kind.GIVE:
            return f"seat {seat} must give a tile to the next player (give TILE)"
        if move.tile is not None and move.kind in (Kind.LEAD, Kind.PLAY, Kind.GIVE):
            if move.tile not in self.rules.tile_set():
                top = max(tile.low for tile in self.rules.tile_set() if tile.low <= MAX_PIPS)
                return f"{move.tile} is not a tile of this game's set (its numbers go from 0 to {top})"
            if move.tile not in hand:
                shown = " ".join(str(t) for t in hand)
                return f"{move.tile} is not in seat {seat}'s hand ({shown})"
        if self.give_pending:
            return f"seat {seat} must give a tile to the next player (give TILE)"
        if move.kind == Kind.LEAD:
            if self.layout.tiles:
                fits = [str(m) for m in legal if m.tile is move.tile]
                if fits:
                    return f"the lead is already on the table; {move.tile} joins it as {', '.join(fits)}"
                return f"the lead is already on the table, and {move.tile} fits no open end now"
            return f"seat {seat} must lead one of: {options}"
        if move.kind == Kind.PLAY:
            if not self.layout.tiles:
                return f"nothing is on the table yet; lead a tile (e.g. {options})"
            if move.target > len(self.layout):
                return f"there is no tile {move.target} on the table ({len(self.layout)} placed)"
            face = self.layout.face_for(move.target, move.half)
            if face is None and move.half in LETTERS and move.tile is not None:  # (PIP-13: S-W written letter first)
                joins = half_text(move.tile.other_half(move.half))
                return (f"a letter half never joins the layout: the {joins} half joins and the letter faces out, "
                        f"{joins}-{half_text(move.half)}@{move.target}")
            if face is None:
                return f"tile {move.target} has no open {half_text(move.half)} end"
            target = self.rules.play_target(self)
            if target and target != move.target:
                return f"{self.rules.target_reason(self, target)}"
            assert move.tile is not None
            refusal = self.rules.refusal_reason(self, move.tile, move.half, move.target)
            return refusal or f"not allowed here (legal: {options})"
        if move.kind == Kind.DRAW:
            if legal and legal[0].kind == Kind.PLAY:
                return f"seat {seat} can play ({options}) and must play"
            return f"seat {seat} may not draw now (stock {self.stock_left}, legal: {options})"
        if move.kind == Kind.PASS:
            return f"seat {seat} may not pass while able to move (legal: {options})"
        return f"no give is owed now (legal: {options})"

    # ------------------------------------------------------------ accounting
    def all_tiles(self) -> list[Tile]:
        """Every tile of the hand: hands, table and stock (for conservation checks)."""
        tiles = [tile for hand in self.hands for tile in hand]
        tiles += [placed.tile for placed in self.layout.tiles]
        tiles += self.stock[self.stock_pos:]
        return tiles

    def winner_of_hand(self) -> int | None:
        result = self.hand.result
        return None if result is None else result.winner

    def play_points(self, move: Move) -> tuple[tuple[ScoreItem, ...], int]:
        """What a placement would score for the player on turn, from public state only."""
        if move.tile is None or not move.is_placement:
            return (), 0
        with self._tried(move) as placed:
            return self.rules.score_play(self, self.turn, placed)

    def ends_after(self, move: Move) -> list[int]:
        """The values of the open ends once the placement ``move`` is made, as the layout opens them (a spinner's
        sides, a double's toes, a hub's faces), from public state only; the layout is left as it was."""
        with self._tried(move):
            return [face.value for face in self.layout.open_ends()]

    @contextmanager
    def _tried(self, move: Move) -> Iterator[Placed]:
        """The placement ``move`` put on the layout for a look, and taken off again."""
        tile = move.tile
        assert tile is not None
        rules = self.rules
        if move.kind == Kind.LEAD:
            role = rules.double_role(self, tile, True) if tile.is_double else Role.LINE
            placed: Placed = self.layout.place_lead(tile, move.half, role, rules.lead_value(self, tile))
        else:
            role = rules.double_role(self, tile, False) if tile.is_double else Role.LINE
            placed = self.layout.place(tile, move.half, move.target, role)
        try:
            yield placed
        finally:
            self.layout.pop()
