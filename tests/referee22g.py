"""An independent referee for Block, Draw and All Fives records, written from the rulebook alone.

Sources: RULES.md §1 (C1-C13), §2 Block (BLK-1 … BLK-11), §3 Draw (DRW-1 … DRW-8), §4 All Fives (A5-1 … A5-13),
the register §9 and the decisions §9a, and RECORD.md.  Given a ``boneyard/1`` record it works out, move by move,
which moves are legal, whose turn follows, every play's count and points (All Fives), each hand's end, winner,
hand points and totals, the next hand's leader, and the game's end and winner: what ``boneyard replay --json``
prints.  It shares no code with the product (plain Python, not even its tiles or its layout), so that a
disagreement points at a real difference of reading.

The table model: every placed tile ``k`` (1-based, as in the notation) keeps its free faces.  A non-double keeps
its outer half (a non-double lead both halves); a non-spinner double keeps its free long side(s) (a lone lead
double two, each one exposed half: C4; after a tile joins it, one, worth both halves); a spinner (A5-6) keeps a
count of free sides and free short ends, the ends opening once both sides are taken (C5).

Where RULES.md leaves a detail open and the variant docs settle it, the referee follows the docs, marked
"docs" below: ``opponents_minus_own`` floored at 0 and its rounding, ``each_subtracts_own`` (each player loses
round5 of his own pips, nobody gains), an immediate All Fives win ending the hand ``unfinished``, a called lead
after a hand with no winner, ``rotate`` counting from the previous leader, partnership winners (§9a).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Tile = tuple[int, int]   # (high, low)

VARIANTS = {"block": "block", "draw": "draw", "all-fives": "all-fives", "muggins": "all-fives",
            "five-up": "all-fives", "fives": "all-fives", "all_fives": "all-fives", "allfives": "all-fives"}

COMMON: dict[str, Any] = {"set": 6, "deal_sizes": None, "first_lead": "call_highest_double",
                          "lead_rule": "winner_any", "target": None}
DRAWING: dict[str, Any] = {"allow_voluntary_draw": False, "boneyard_reserve": 0}
DEFAULTS: dict[str, dict[str, Any]] = {
    "block": {**COMMON, "tie_rule": "lightest_tile", "blocked_score": "opponents_total",
              "win_check": "end_of_hand", "partnerships": False, "partnership_block": "side_total"},
    "draw": {**COMMON, **DRAWING, "tie_rule": "lightest_tile", "blocked_score": "opponents_total",
             "win_check": "end_of_hand", "partnerships": False, "partnership_block": "side_total",
             "end_on_dead_layout": False},
    "all-fives": {**COMMON, **DRAWING, "spinner_mode": "first_double", "score_unit": "pips", "tie_rule": "no_score",
                  "bonus_rounding": "total", "blocked_score": "opponents_total", "end_scoring": "winner_takes",
                  "win_check": "immediate"},
}
BOOLEANS = ("allow_voluntary_draw", "partnerships", "end_on_dead_layout")


class RefereeError(Exception):
    """A record the referee finds illegal: ``hand``, ``move`` (1-based) and the reason."""

    def __init__(self, hand: int, move: int, text: str, reason: str) -> None:
        super().__init__(f'hand {hand}, move {move} "{text}": {reason}')
        self.hand, self.move, self.reason = hand, move, reason


# ------------------------------------------------------------------ tiles (C1, C2, C10)

def tile(text: str) -> Tile:
    a, b = (int(part) for part in str(text).strip().split("-"))
    return (max(a, b), min(a, b))


def name(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def full_set(top: int) -> list[Tile]:
    """C1: every pair {a, b} with 0 <= b <= a <= N."""
    return [(a, b) for a in range(top + 1) for b in range(a + 1)]


def pips(hand: list[Tile]) -> int:
    return sum(a + b for a, b in hand)


def heavy_key(t: Tile) -> tuple[int, int]:
    """C2: heavier = more pips, then the higher larger half."""
    return (t[0] + t[1], t[0])


def light_key(t: Tile) -> tuple[int, int]:
    """C2: lighter = fewer pips, then the lower smaller half."""
    return (t[0] + t[1], t[1])


def round5(x: int) -> int:
    """C10: 5 * floor((x + 2) / 5)."""
    return 5 * ((x + 2) // 5)


def call_order(top: int) -> list[Tile]:
    """BLK-3 / A5-3: N-N down to 0-0, then the non-doubles from the heaviest down."""
    doubles = [(v, v) for v in range(top, -1, -1)]
    others = sorted((t for t in full_set(top) if t[0] != t[1]), key=heavy_key, reverse=True)
    return doubles + others


# ------------------------------------------------------------------ options

def options_of(variant: str, record: dict[str, Any]) -> dict[str, Any]:
    opts = dict(DEFAULTS[variant])
    for key, value in (record.get("options") or {}).items():
        if key not in opts:
            raise ValueError(f"unknown option {key}")
        opts[key] = value
    for key in BOOLEANS:
        if key not in opts:
            continue
        value = opts[key]
        opts[key] = value.lower() in ("true", "1", "yes", "on") if isinstance(value, str) else bool(value)
    for key in ("set", "boneyard_reserve", "target"):
        value = opts.get(key)
        if value is not None and not isinstance(value, int):
            opts[key] = None if str(value).lower() in ("none", "null") else int(value)
    sizes = opts["deal_sizes"]
    if isinstance(sizes, str):
        opts["deal_sizes"] = None if sizes.lower() in ("none", "null") else [int(x) for x in sizes.split("/")]
    elif isinstance(sizes, int):
        opts["deal_sizes"] = [sizes]
    return opts


def deal_size(variant: str, opts: dict[str, Any], n: int) -> int:
    """BLK-2, DRW-2, A5-2, C12 (7 each in partnerships), C13 (larger sets); ``deal_sizes`` overrides."""
    sizes = opts["deal_sizes"]
    if sizes:
        return sizes[0] if len(sizes) == 1 else sizes[n - 2]
    if opts.get("partnerships"):
        return 7
    top = opts["set"]
    if top == 9:
        return 7 if n <= 6 else 6
    if top == 12:
        return 9 if n <= 8 else 8
    return 7 if n == 2 else 5


def target_of(variant: str, opts: dict[str, Any], n: int) -> int:
    if opts["target"] is not None:
        return int(opts["target"])
    if variant != "all-fives":
        return 100                                      # BLK-11, DRW-7
    if opts["score_unit"] == "fives":
        return 61                                       # A5-8
    return 250 if n == 2 else 200                       # A5-12


# ------------------------------------------------------------------ the layout (C4, C5, A5-6, A5-7)

@dataclass
class Placed:
    tile: Tile
    double: bool
    spinner: bool
    lone: bool                  # the lead double while nothing joins it
    free: list[int]             # free faces of a non-spinner (values)
    sides: int = 0              # spinner: free long sides
    ends: int = 0               # spinner: free short ends

    def open_values(self) -> list[int]:
        """The values a tile may join now (a spinner's ends only after both sides: C5)."""
        if self.spinner:
            return [self.tile[0]] if self.sides or self.ends else []
        return list(self.free)

    def take(self, value: int) -> None:
        if self.spinner:
            if self.sides:
                self.sides -= 1
            else:
                self.ends -= 1
        else:
            self.free.remove(value)
        self.lone = False

    def count(self) -> int:
        """A5-7: what this tile's free faces add to the count."""
        if self.spinner:
            return 2 * self.tile[0] if self.sides > 0 else 0
        if self.double:
            return 2 * self.tile[0] if self.free else 0    # lone: 2 faces x 1 half; at a tip: 1 face x 2
        return sum(self.free)


class Table:
    def __init__(self, spinner_mode: str) -> None:
        self.mode = spinner_mode          # "none" for Block and Draw
        self.placed: list[Placed] = []

    def _spins(self, t: Tile) -> bool:
        if t[0] != t[1] or self.mode == "none":
            return False
        if self.mode == "all_doubles":
            return True
        return not any(p.spinner for p in self.placed)    # first_double

    def lead(self, left: int, right: int) -> None:
        t = (max(left, right), min(left, right))
        if self._spins(t):
            self.placed.append(Placed(t, True, True, True, [], sides=2, ends=2))
        else:
            self.placed.append(Placed(t, left == right, False, left == right, [left, right]))

    def play(self, t: Tile, join: int, out: int, k: int) -> None:
        self.placed[k - 1].take(join)
        if t[0] == t[1] and self._spins(t):
            self.placed.append(Placed(t, True, True, False, [], sides=1, ends=2))
        else:
            self.placed.append(Placed(t, t[0] == t[1], False, False, [out]))

    def plays(self, hand: list[Tile]) -> set[str]:
        """C6: every placement of every tile of ``hand``, in notation."""
        moves = set()
        for k, placed in enumerate(self.placed, 1):
            for value in set(placed.open_values()):
                for a, b in hand:
                    if a == value:
                        moves.add(f"{a}-{b}@{k}")
                    if b == value:
                        moves.add(f"{b}-{a}@{k}")
        return moves

    def count(self) -> int:
        return sum(p.count() for p in self.placed)

    def end_values(self) -> list[int]:
        return [v for p in self.placed for v in p.open_values()]

    def on_table(self) -> list[Tile]:
        return [p.tile for p in self.placed]


# ------------------------------------------------------------------ one hand

class Hand:
    """One hand in progress, driven by moves in notation."""

    def __init__(self, ref: Referee, number: int, deal: list[list[str]], stock: list[str],
                 leader: int, lead_tiles: list[Tile] | None) -> None:
        self.ref, self.number, self.n = ref, number, ref.n
        self.hands = [[tile(t) for t in seat] for seat in deal]
        self.stock = [tile(t) for t in stock]
        self.table = Table(ref.options.get("spinner_mode", "none") if ref.variant == "all-fives" else "none")
        self.leader = self.turn = leader
        self.lead_tiles = lead_tiles          # None: any tile
        self.drew = False
        self.passes = 0
        self.end: str | None = None
        self.winner: int | None = None
        self.stopped = False                  # an immediate win ended the game mid-hand

    @property
    def reserve(self) -> int:
        return 0 if self.ref.variant == "block" else int(self.ref.options["boneyard_reserve"] or 0)

    def can_draw(self) -> bool:
        return self.ref.variant != "block" and len(self.stock) > self.reserve

    def legal(self) -> set[str]:
        """The legal moves of the player on turn (BLK-3/5/6, DRW-5, A5-3/5, C7, C8)."""
        if self.end or self.stopped:
            return set()
        hand = self.hands[self.turn]
        if not self.table.placed:
            lead = self.lead_tiles if self.lead_tiles is not None else hand
            return {name(t) for t in lead}
        plays = self.table.plays(hand)
        moves = set(plays)
        if self.can_draw() and (not plays or self.ref.options["allow_voluntary_draw"]):
            moves.add("draw")
        if not moves:
            moves.add("pass")
        return moves

    def apply(self, text: str) -> tuple[str, int]:
        """Apply one move; returns (canonical text, points the mover scores).  ValueError if illegal."""
        if self.end or self.stopped:
            raise ValueError("the hand is over")
        move = str(text).strip().lower()
        seat = self.turn
        hand = self.hands[seat]
        if move.split()[0] == "draw":
            if "draw" not in self.legal():
                raise ValueError("drawing is not allowed now")
            parts = move.split()
            if len(parts) == 2 and tile(parts[1]) != self.stock[0]:
                raise ValueError("the drawn tile is not the first of the stock")
            hand.append(self.stock.pop(0))
            self.drew = True
            return "draw", 0
        if move == "pass":
            if "pass" not in self.legal():
                raise ValueError("passing is not allowed now")
            self.passes = 0 if self.drew else self.passes + 1     # §9a C9(b)
            self.drew = False
            self.turn = (seat + 1) % self.n
            if self.passes >= self.n:
                self._blocked()
            return "pass", 0
        if not self.table.placed:
            left, right = (int(x) for x in move.split("-"))
            t = (max(left, right), min(left, right))
            if name(t) not in self.legal():
                raise ValueError(f"{name(t)} may not lead")
            self.table.lead(left, right)
            canonical = f"{left}-{right}"
        else:
            body, _, k = move.partition("@")
            join, out = (int(x) for x in body.split("-"))
            t = (max(join, out), min(join, out))
            canonical = f"{join}-{out}@{int(k)}"
            if canonical not in self.legal():
                raise ValueError("not a legal play")
            self.table.play(t, join, out, int(k))
        hand.remove(t)
        self.drew = False
        self.passes = 0
        points = self.ref.play_points(self.table.count())
        self.ref.scores[seat] += points
        self.turn = (seat + 1) % self.n
        if not hand:                                           # C9(a)
            self.end, self.winner = "domino", seat
        elif self.ref.variant == "all-fives" and self.ref.immediate and points and \
                self.ref.scores[seat] >= self.ref.target:     # A5-12, docs: the hand stays unfinished
            self.stopped = True
            self.ref.finish(seat)
        elif self.ref.variant == "draw" and self.ref.options["end_on_dead_layout"] and self._dead():
            self._blocked()                                    # DRW-8
        return canonical, points

    def _dead(self) -> bool:
        top = self.ref.options["set"]
        laid = self.table.on_table()
        return all(sum(v in t for t in laid) == top + 1 for v in self.table.end_values())

    def _blocked(self) -> None:
        self.end = "blocked"
        self.winner = self.ref.blocked_winner(self.hands)


# ------------------------------------------------------------------ the game

class Referee:
    """A whole game: ``Referee(record).result()`` is what ``replay_json`` should print."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.variant = VARIANTS[str(record.get("variant", "block")).lower()]
        self.n = len(record["players"])
        self.options = options_of(self.variant, record)
        self.partners = bool(self.options.get("partnerships")) and self.n == 4
        self.target = target_of(self.variant, self.options, self.n)
        self.immediate = self.options["win_check"] == "immediate"
        self.scores = [0] * self.n
        self.finished = False
        self.game_winner: int | None = None
        self.prev_leader: int | None = None
        self.prev_winner: int | None = None

    # -- scoring helpers ------------------------------------------------------------------------
    def unit(self, points: int) -> int:
        return points // 5 if self.variant == "all-fives" and self.options["score_unit"] == "fives" else points

    def play_points(self, count: int) -> int:
        """A5-8: a positive multiple of five scores at once (divided by five in fives)."""
        if self.variant != "all-fives" or count <= 0 or count % 5:
            return 0
        return self.unit(count)

    def side(self, seat: int) -> list[int]:
        return [seat % 2, seat % 2 + 2] if self.partners else [seat]

    def lightest(self, seats: list[int], hands: list[list[Tile]]) -> int:
        """BLK-9 / §9a: the seat holding the lightest single tile (C2)."""
        return min(seats, key=lambda s: min(light_key(t) for t in hands[s]))

    def blocked_winner(self, hands: list[list[Tile]]) -> int | None:
        totals = [pips(h) for h in hands]
        if self.partners:
            if self.options["partnership_block"] == "side_total":
                a, b = totals[0] + totals[2], totals[1] + totals[3]
                if a == b:
                    return None
                side = 0 if a < b else 1
            else:                                              # lowest_hand
                low = min(totals)
                sides = {s % 2 for s in range(4) if totals[s] == low}
                if len(sides) > 1:
                    return None
                side = sides.pop()
            seats = [side, side + 2]
            low = min(totals[s] for s in seats)
            tied = [s for s in seats if totals[s] == low]
            return tied[0] if len(tied) == 1 else self.lightest(tied, hands)
        low = min(totals)
        tied = [s for s in range(self.n) if totals[s] == low]
        if len(tied) == 1:
            return tied[0]
        if self.variant != "all-fives" and self.options["tie_rule"] == "lightest_tile":
            return self.lightest(tied, hands)
        return None

    def hand_points(self, hand: Hand) -> list[int]:
        """BLK-10, C12, DRW-7, A5-10, A5-11."""
        n = self.n
        totals = [pips(h) for h in hand.hands]
        points = [0] * n
        winner = hand.winner
        if self.variant == "all-fives":
            o = self.options
            if o["end_scoring"] == "each_subtracts_own":       # docs: each loses round5(own), nobody gains
                return [-self.unit(round5(p)) for p in totals]
            if winner is None:
                low = min(totals)
                tied = [s for s in range(n) if totals[s] == low]
                if hand.end == "blocked" and o["tie_rule"] == "split_3p" and n == 3 and len(tied) == 2:
                    third = next(s for s in range(n) if s not in tied)
                    share = round5(totals[third]) // 2 // 5 * 5
                    for s in tied:
                        points[s] = self.unit(share)
                return points
            others = [totals[s] for s in range(n) if s != winner]
            own = totals[winner]
            minus = hand.end == "blocked" and o["blocked_score"] == "opponents_minus_own"
            if o["bonus_rounding"] == "total":
                bonus = round5(sum(others) - (own if minus else 0))
            else:
                bonus = sum(round5(x) for x in others) - (round5(own) if minus else 0)
            points[winner] = self.unit(max(0, bonus))
            return points
        if winner is None:
            return points
        if self.partners:
            for s in self.side(winner):
                points[s] = sum(totals)
            return points
        others = [totals[s] for s in range(n) if s != winner]
        own = totals[winner]
        rule = self.options["blocked_score"] if hand.end == "blocked" else "opponents_total"
        if rule == "opponents_total":
            points[winner] = sum(others)
        elif rule == "opponents_minus_own":
            points[winner] = max(0, sum(others) - own)
        elif rule == "sum_of_differences":
            points[winner] = sum(x - own for x in others)
        else:
            points[winner] = sum(totals)
        return points

    def finish(self, winner: int | None) -> None:
        self.finished = True
        self.game_winner = winner

    def check_game(self) -> None:
        """C11 / BLK-11 / A5-12 after a hand's scoring: the highest score at or over the target wins; a tie for
        highest plays on.  Partners share a score: the side's lower seat is named."""
        seats = [0, 1] if self.partners else list(range(self.n))
        best = max(self.scores[s] for s in seats)
        if best < self.target:
            return
        top = [s for s in seats if self.scores[s] == best]
        if len(top) == 1:
            self.finish(top[0])

    # -- leads -----------------------------------------------------------------------------------
    def called(self, hands: list[list[Tile]]) -> tuple[int, list[Tile]]:
        for t in call_order(self.options["set"]):
            for seat, held in enumerate(hands):
                if t in held:
                    return seat, [t]
        raise ValueError("nobody holds a tile")

    def lead_of(self, number: int, data: dict[str, Any]) -> tuple[int, list[Tile] | None]:
        hands = [[tile(t) for t in seat] for seat in data["deal"]]
        given = data.get("leader")
        o = self.options
        if number == 1:
            rule = "random" if o["first_lead"] == "random_player_any_tile" else "call"
        else:
            rule = {"winner_any": "winner", "rotate": "rotate", "random": "random"}[o["lead_rule"]]
            if rule == "winner" and self.prev_winner is None:
                rule = "call"                                  # A5-4, §9a C12, docs
        if rule == "random":
            if given is None:
                raise ValueError("the record must name the leader")
            return int(given), None
        if rule == "winner":
            seat, lead = self.prev_winner, None
        elif rule == "rotate":
            assert self.prev_leader is not None
            seat, lead = (self.prev_leader + 1) % self.n, None
        else:
            seat, called = self.called(hands)
            lead = called
        assert seat is not None
        if given is not None and int(given) != seat:
            raise ValueError(f"leader {given} is not {seat}")
        return seat, lead

    # -- replay ----------------------------------------------------------------------------------
    def start(self, number: int, data: dict[str, Any]) -> Hand:
        leader, lead = self.lead_of(number, data)
        hand = Hand(self, number, data["deal"], data.get("stock", []), leader, lead)
        size = deal_size(self.variant, self.options, self.n)
        dealt = sorted(t for seat in hand.hands for t in seat) + hand.stock
        if any(len(seat) != size for seat in hand.hands) or sorted(dealt) != sorted(full_set(self.options["set"])):
            raise ValueError("the deal is not the variant's")
        return hand

    def close(self, hand: Hand) -> list[int]:
        """A hand's end: its points, then the game check; records the lead for the next hand."""
        self.prev_leader = hand.leader
        self.prev_winner = hand.winner
        if not hand.end:
            return [0] * self.n
        points = self.hand_points(hand)
        for s in range(self.n):
            self.scores[s] += points[s]
        self.check_game()
        return points

    def result(self) -> dict[str, Any]:
        out = []
        for number, data in enumerate(self.record["hands"], 1):
            if self.finished:
                raise RefereeError(number, 0, "", "a hand after the game's end")
            try:
                hand = self.start(number, data)
            except (ValueError, AssertionError) as error:
                raise RefereeError(number, 0, "", str(error)) from None
            events = []
            for index, text in enumerate(data["moves"], 1):
                seat = hand.turn
                try:
                    canonical, points = hand.apply(text)
                except (ValueError, IndexError, KeyError) as error:
                    raise RefereeError(number, index, str(text), str(error)) from None
                scoring = [{"name": "count", "points": points}] if points else []
                events.append({"seat": seat, "move": canonical, "points": points, "scoring": scoring})
            points = self.close(hand)
            out.append({"leader": hand.leader, "events": events, "end": hand.end or "unfinished",
                        "winner": hand.winner if hand.end else None, "hand_points": points,
                        "totals": self.scores[:]})
        return {"variant": self.variant, "players": list(self.record["players"]), "hands": out,
                "finished": self.finished, "winner": self.game_winner, "totals": self.scores[:]}
