"""An independent PIP referee written from the rulebook alone (RULES.md §1, §8, §9, §9a and RECORD.md).

It reads a ``boneyard/1`` record of a PIP game and works out, move by move, which moves are legal, whose
turn follows (direction, skips, reverses, play again, draw victims, gives, doubles owing plays), each hand's
end, winner, hand points and totals, and the game's end and winner: the numbers ``boneyard replay --json``
prints.  It shares no code with the product (not even its tiles or layout), so that a disagreement points at
a real difference of reading.

The table model: every placed tile ``k`` (1-based) keeps its free faces, each with a value: a number
``"0"``…``"9"`` or ``"W"`` (an open wild end that takes any half).  The starter is a hub of value r whose two
sides are free first and whose two ends open when both sides hold a tile (PIP-9); a later double opens three
toes of its value (PIP-11; ``W-W`` takes the value of the face it joins, wild on a wild face); any other tile
opens its outer half (PIP-10), a letter half being closed unless ``letter_end = open_wild`` (PIP-13).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LETTERS = "SRAD"
NUMBERS = "0123456789"
DEFAULTS: dict[str, Any] = {
    "open_wild_end": "matches_anything", "letter_end": "closed", "nested_double": "stack",
    "draw_tile_skips": False, "two_player_reverse_skips": False, "directional_value": 45,
}


class RefereeError(Exception):
    """A record the referee finds illegal: ``hand``, ``move`` (1-based) and the reason."""

    def __init__(self, hand: int, move: int, text: str, reason: str) -> None:
        super().__init__(f'hand {hand}, move {move} "{text}": {reason}')
        self.hand, self.move, self.reason = hand, move, reason


def _rank(half: str) -> tuple[int, int]:
    if half in LETTERS:
        return (0, LETTERS.index(half))
    if half == "W":
        return (1, 0)
    return (2, -int(half))


def canon(a: str, b: str) -> str:
    """A tile's canonical text: letters first, then W, then numbers from high to low (RECORD.md)."""
    first, second = sorted((a.upper(), b.upper()), key=_rank)
    return f"{first}-{second}"


def halves(tile: str) -> tuple[str, str]:
    a, b = tile.upper().split("-")
    return a, b


def pip_set() -> list[str]:
    """PIP-1: 55 double-nine tiles, W-0 … W-9, W-W and the four letter tiles."""
    tiles = [canon(str(a), str(b)) for a in range(10) for b in range(a, 10)]
    tiles += [canon("W", str(n)) for n in range(10)] + ["W-W"] + [f"{x}-W" for x in LETTERS]
    return tiles


def value(tile: str, directional: int = 45) -> int:
    """PIP-18: what a tile left in hand counts."""
    a, b = halves(tile)
    if a in LETTERS or b in LETTERS:
        return directional
    if a == b == "W":
        return 50
    if "W" in (a, b):
        return 20 + int(b if a == "W" else a)
    return int(a) + int(b)


@dataclass
class Placed:
    """One tile on the table: its free faces (values), and for the hub its locked ends."""

    tile: str
    faces: list[str]
    hub_ends: list[str] = field(default_factory=list)
    sides_left: int = 0


class Hand:
    """One hand (round) of PIP in progress, driven by moves in notation."""

    def __init__(self, ref: Referee, number: int, deal: list[list[str]], stock: list[str]) -> None:
        self.ref, self.number, self.n = ref, number, ref.n
        self.hands = [[canon(*halves(t)) for t in seat] for seat in deal]
        self.stock = [canon(*halves(t)) for t in stock]
        self.table: list[Placed] = []
        self.pending: list[list[int]] = []   # [tile index (0-based), plays owed], newest last
        self.direction = 1
        self.turn = -1
        self.forced_draw = False     # the turn's player must first take the D tile's draw
        self.give_due = False        # the turn's player (who played D) must give a tile
        self.drawn: str | None = None   # the tile drawn under PIP-15 this turn
        self.passes = 0
        self.end: str | None = None
        self.winner: int | None = None
        self.leader, self.starter = self._find_starter()

    # -- setup --------------------------------------------------------------------------------------
    def _find_starter(self) -> tuple[int, str]:
        """PIP-6: r-r, else W-W, else seat 0 and then each clockwise draw until one turns up."""
        rr = canon(str(self.number), str(self.number))
        for tile in (rr, "W-W"):
            for seat, hand in enumerate(self.hands):
                if tile in hand:
                    return seat, tile
        seat = 0
        while self.stock:
            tile = self.stock.pop(0)
            self.hands[seat].append(tile)
            if tile in (rr, "W-W"):
                return seat, tile
            seat = (seat + 1) % self.n
        raise ValueError("no starter in the set")

    # -- the table ----------------------------------------------------------------------------------
    def _free(self, k: int) -> list[str]:
        placed = self.table[k]
        if k == 0 and placed.sides_left == 0:
            return placed.faces + placed.hub_ends
        return placed.faces

    @staticmethod
    def _fits(join: str, face: str) -> bool:
        return join not in LETTERS and (join == "W" or face == "W" or join == face)

    def _targets(self) -> list[int]:
        if self.pending:
            return [self.pending[-1][0]]
        return list(range(len(self.table)))

    def plays_of(self, tile: str) -> list[str]:
        """Every legal placement of ``tile`` now, in notation (one per target tile and orientation)."""
        a, b = halves(tile)
        double = a == b
        if double and self.pending and self.ref.options["nested_double"] == "forbid":
            return []
        out = []
        orientations = {(a, b), (b, a)}
        for k in self._targets():
            faces = self._free(k)
            for join, outer in sorted(orientations):
                if join in LETTERS:
                    continue
                if any(self._fits(join, face) for face in faces):
                    out.append(f"{join}-{outer}@{k + 1}")
        return out

    def can_play(self, seat: int) -> bool:
        return any(self.plays_of(t) for t in self.hands[seat])

    def legal(self) -> set[str]:
        """The legal moves of the player on turn, in notation (``give X`` for every tile held)."""
        if self.end:
            return set()
        seat = self.turn
        if self.give_due:
            return {f"give {t}" for t in self.hands[seat]}
        if self.forced_draw:
            return {"draw"}
        if self.drawn is not None:
            plays = set(self.plays_of(self.drawn))
            return plays or {"pass"}
        plays = {p for t in self.hands[seat] for p in self.plays_of(t)}
        if plays:
            return plays
        return {"draw"} if self.stock else {"pass"}

    def _place(self, tile: str, join: str, outer: str, k: int) -> None:
        face_list = self._free(k)
        face = next(f for f in face_list if self._fits(join, f))
        placed = self.table[k]
        if k == 0 and placed.sides_left > 0:
            placed.faces.remove(face)
            placed.sides_left -= 1
        elif k == 0 and face in placed.faces:
            placed.faces.remove(face)
        elif k == 0:
            placed.hub_ends.remove(face)
        else:
            placed.faces.remove(face)
        if self.pending:
            self.pending[-1][1] -= 1
            if self.pending[-1][1] == 0:
                self.pending.pop()
        if join == outer:   # a double: three toes of its value (PIP-11)
            toe = join if join != "W" else face
            self.table.append(Placed(tile, [toe] * 3))
            self.pending.append([len(self.table) - 1, 3])
        elif outer in LETTERS:
            self.table.append(Placed(tile, ["W"] if self.ref.options["letter_end"] == "open_wild" else []))
        else:
            self.table.append(Placed(tile, [outer]))

    def _next(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.n

    def _finish(self, end: str, winner: int | None) -> None:
        self.end, self.winner = end, winner

    # -- moves --------------------------------------------------------------------------------------
    def apply(self, text: str) -> str:
        """Apply one move; returns the canonical move text.  Raises ValueError with a reason if illegal."""
        if self.end:
            raise ValueError("the hand is over")
        move = text.strip()
        low = move.lower()
        if not self.table:
            a, b = halves(move)
            if canon(a, b) != self.starter:
                raise ValueError(f"the hand must start with {self.starter}")
            self.hands[self.leader].remove(self.starter)
            r = str(self.number)
            self.table.append(Placed(self.starter, [r, r], [r, r], 2))
            self.turn = (self.leader + 1) % self.n
            return self.starter
        seat = self.turn
        hand = self.hands[seat]
        if self.give_due:
            if not low.startswith("give "):
                raise ValueError("the D tile's player must give a tile")
            tile = canon(*halves(move[5:]))
            if tile not in hand:
                raise ValueError("not in hand")
            hand.remove(tile)
            victim = self._next(seat)
            self.hands[victim].append(tile)
            self.give_due = False
            if not hand:
                self._finish("domino", seat)
            else:
                self.turn = self._next(victim) if self.ref.options["draw_tile_skips"] else victim
            return f"give {tile}"
        if self.forced_draw:
            if low.split()[0] != "draw":
                raise ValueError("the D tile's victim must draw first")
            self._check_drawn(move)
            hand.append(self.stock.pop(0))
            self.forced_draw = False
            if self.ref.options["draw_tile_skips"]:
                self.turn = self._next(seat)
            return "draw"
        if low.split()[0] == "draw":
            if self.drawn is not None or not self.stock or self.can_play(seat):
                raise ValueError("drawing is not allowed now")
            self._check_drawn(move)
            self.drawn = self.stock.pop(0)
            hand.append(self.drawn)
            return "draw"
        if low == "pass":
            if self.can_play(seat) or (self.drawn is None and self.stock):
                raise ValueError("passing is not allowed now")
            self.passes = 0 if self.drawn is not None else self.passes + 1
            self.drawn = None
            if self.passes >= self.n:
                self._finish("blocked", None)
            else:
                self.turn = self._next(seat)
            return "pass"
        tile_text, _, target = move.partition("@")
        join, outer = halves(tile_text)
        tile = canon(join, outer)
        if tile not in hand:
            raise ValueError(f"{tile} is not in the hand of seat {seat}")
        if self.drawn is not None and tile != self.drawn:
            raise ValueError("after a draw only the drawn tile may be played")
        canonical = f"{join}-{outer}@{int(target)}"
        if canonical not in self.plays_of(tile):
            raise ValueError("not a legal placement")
        self._place(tile, join, outer, int(target) - 1)
        hand.remove(tile)
        self.drawn = None
        self.passes = 0
        if not hand:
            self._finish("domino", seat)
            return canonical
        letter = outer if outer in LETTERS else ""
        two = self.n == 2
        if letter == "S":
            self.turn = self._next(seat, 2)
        elif letter == "R":
            self.direction = -self.direction
            self.turn = seat if two and self.ref.options["two_player_reverse_skips"] else self._next(seat)
        elif letter == "A":
            self.turn = seat
        elif letter == "D":
            if self.stock:
                self.turn = self._next(seat)
                self.forced_draw = True
            else:
                self.give_due = True
        else:
            self.turn = self._next(seat)
        return canonical

    def _check_drawn(self, move: str) -> None:
        parts = move.split()
        if len(parts) == 2 and canon(*halves(parts[1])) != self.stock[0]:
            raise ValueError("the drawn tile is not the first of the stock")


class Referee:
    """A whole PIP game: ``Referee(record).result()`` is what ``replay_json`` should print."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.n = len(record["players"])
        self.options = {**DEFAULTS, **record.get("options", {})}

    def hands(self) -> list[tuple[Hand, list[dict[str, Any]]]]:
        out = []
        for number, data in enumerate(self.record["hands"], 1):
            hand = Hand(self, number, data["deal"], data.get("stock", []))
            if data.get("leader") is not None and data["leader"] != hand.leader:
                raise RefereeError(number, 0, "", f"leader {data['leader']} is not {hand.leader}")
            events = []
            for i, text in enumerate(data["moves"], 1):
                seat = hand.turn if hand.table else hand.leader
                try:
                    canonical = hand.apply(text)
                except (ValueError, IndexError, KeyError) as error:
                    raise RefereeError(number, i, text, str(error)) from None
                events.append({"seat": seat, "move": canonical, "points": 0, "scoring": []})
            out.append((hand, events))
        return out

    def result(self) -> dict[str, Any]:
        totals = [0] * self.n
        hands_json = []
        played = self.hands()
        for hand, events in played:
            entry: dict[str, Any] = {"leader": hand.leader, "events": events, "end": hand.end or "unfinished",
                                     "winner": hand.winner}
            if hand.end:
                before = totals[:]
                for seat in range(self.n):
                    totals[seat] += sum(value(t, self.options["directional_value"]) for t in hand.hands[seat])
                if hand.winner is not None:
                    totals[hand.winner] = max(0, totals[hand.winner] - 10)
                entry["hand_points"] = [after - old for after, old in zip(totals, before, strict=True)]
            else:
                entry["hand_points"] = [0] * self.n
            entry["totals"] = totals[:]
            hands_json.append(entry)
        finished = len(played) == 9 and played[-1][0].end is not None
        winner = None
        if finished:
            low = min(totals)
            winner = totals.index(low) if totals.count(low) == 1 else None
        return {"variant": "pip", "players": list(self.record["players"]), "hands": hands_json,
                "finished": finished, "winner": winner, "totals": totals}
