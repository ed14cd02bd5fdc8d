"""An independent referee for Bergen, Double Bergen and Flower & Scorpion records.

Written from the rulebook (RULES.md §1, §5-§7, §9, §9a) and the record format (RECORD.md) alone, without
the product's rules code: given a ``boneyard/1`` record it computes what ``boneyard replay --json`` prints
(each move's seat, points and scoring items, each hand's leader, end, winner, hand points and totals, the
game's end and winner).  It keeps its own table: tile ``k`` (1-based, as in the notation) and its free faces.
It checks the little legality that the numbers depend on (draws only above the reserve, a play's tile in the
mover's hand and an open face of that number on tile ``k``); the product's replay checks the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Tile = tuple[int, int]  # (high, low)

VARIANT_NAMES = {
    "bergen": "bergen",
    "double-bergen": "double-bergen", "double_bergen": "double-bergen", "doublebergen": "double-bergen",
    "flower-scorpion": "flower-scorpion", "flower-and-scorpion": "flower-scorpion",
    "flower_scorpion": "flower-scorpion", "flower-&-scorpion": "flower-scorpion",
}

DEFAULTS: dict[str, dict[str, Any]] = {
    "bergen": {"set": 6, "deal_sizes": None, "boneyard_reserve": 2, "lead_rule": "lowest_double",
               "cover_lead_double_first": False, "approach_cap": True, "block_rule": "simple",
               "winner_bonus": 2, "target": None, "win_check": "end_of_hand"},
    "double-bergen": {"set": 6, "deal_sizes": None, "boneyard_reserve": 0, "lone_double_scores": False,
                      "spinner_sides_first": False, "end_scoring": "winner_plus_1", "target": 100,
                      "win_check": "end_of_hand"},
    "flower-scorpion": {"deal_sizes": None, "winner_bonus": 2, "long_pairs": "cross", "lead_tile": "any",
                        "double_scorpion_blocks_dual": "always", "cancel_affects_block": False,
                        "lowest_double_mode": "smallest_double", "score_floor": 0, "target": 20,
                        "win_check": "end_of_hand"},
}


class RefereeError(Exception):
    """The record breaks a rule the referee checks."""


def tile(text: str) -> Tile:
    a, b = (int(part) for part in text.strip().split("-"))
    return (max(a, b), min(a, b))


def pips(hand: list[Tile]) -> int:
    return sum(a + b for a, b in hand)


def is_double(t: Tile) -> bool:
    return t[0] == t[1]


def truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.lower() in ("true", "1", "yes", "on")
    return bool(value)


@dataclass
class Placed:
    tile: Tile
    double: bool
    spinner: bool
    lead: bool
    faces: list[int]  # values of the free faces
    taken: int = 0  # faces of this tile taken by children (for a lead double: its sides)


@dataclass
class Table:
    placed: list[Placed] = field(default_factory=list)

    def lead(self, t: Tile, left: int, spinner: bool) -> None:
        faces = [t[0]] * (4 if spinner else 2) if is_double(t) else [left, t[0] + t[1] - left]
        self.placed.append(Placed(t, is_double(t), spinner, True, faces))

    def play(self, t: Tile, join: int, out: int, k: int) -> None:
        if not 1 <= k <= len(self.placed):
            raise RefereeError(f"no tile {k}")
        owner = self.placed[k - 1]
        if join not in owner.faces:
            raise RefereeError(f"tile {k} has no free {join}")
        owner.faces.remove(join)
        owner.taken += 1
        self.placed.append(Placed(t, is_double(t), False, False, [out] if not is_double(t) else [join]))

    def ends(self) -> list[tuple[int, int]]:
        """(value, exposed halves) of every free face, line games (C4)."""
        result = []
        for p in self.placed:
            for value in p.faces:
                if not p.double:
                    result.append((value, 1))
                elif p.lead and p.taken == 0:
                    result.append((value, 1))  # lone lead double: two ends of one half each
                else:
                    result.append((value, 2))
        return result

    def spinner_open(self) -> bool:
        return bool(self.placed and self.placed[0].spinner and self.placed[0].faces)

    def tips(self) -> list[tuple[int, int]]:
        """Double Bergen: (suit, halves) of each started arm's tip."""
        return [(value, 2 if p.double else 1) for p in self.placed[1:] for value in p.faces]


def options_of(variant: str, record: dict[str, Any]) -> dict[str, Any]:
    opts = dict(DEFAULTS[variant])
    for key, value in (record.get("options") or {}).items():
        if key not in opts:
            raise RefereeError(f"unknown option {key}")
        opts[key] = value
    for key in ("cover_lead_double_first", "approach_cap", "lone_double_scores", "spinner_sides_first",
                "cancel_affects_block"):
        if key in opts:
            opts[key] = truthy(opts[key])
    for key in ("set", "boneyard_reserve", "winner_bonus", "target"):
        if key in opts and opts[key] is not None and not isinstance(opts[key], int):
            opts[key] = None if str(opts[key]).lower() in ("none", "null") else int(opts[key])
    if opts.get("score_floor") in ("none", "None", "null"):
        opts["score_floor"] = None
    elif "score_floor" in opts and opts["score_floor"] is not None:
        opts["score_floor"] = int(opts["score_floor"])
    return opts


def target_of(variant: str, opts: dict[str, Any], n: int) -> int:
    if opts["target"] is not None:
        return int(opts["target"])
    return 15 if n == 2 else 10  # BRG-12


# ------------------------------------------------------------------ scoring per play

def bergen_items(ends: list[tuple[int, int]]) -> list[tuple[str, int]]:
    (v1, k1), (v2, k2) = ends
    if v1 != v2:
        return []
    if k1 == 1 and k2 == 1:
        return [("double-header", 2)]
    return [("triple-header", 3)]


def capped(points: int, score: int, target: int) -> int:
    need = target - score
    if need <= 2:
        return min(points, 1)
    if need == 3:
        return min(points, 2)
    return points


def fs_pairs(ends: list[tuple[int, int]], pair: tuple[int, int], all_pairs: bool) -> int:
    (v1, k1), (v2, k2) = ends
    a, b = pair
    if a != b:
        return k1 * k2 if {v1, v2} == {a, b} else 0
    if not all_pairs:
        return k1 * k2 if v1 == v2 == a else 0
    halves = (k1 if v1 == a else 0) + (k2 if v2 == a else 0)
    return halves * (halves - 1) // 2


def fs_items(ends: list[tuple[int, int]], played: Tile, flower: Tile, scorpion: Tile,
             opts: dict[str, Any]) -> list[tuple[str, int]]:
    (v1, k1), (v2, k2) = ends
    cancelled = flower == scorpion
    items: list[tuple[str, int]] = []
    if v1 == v2:
        suppressed = False
        if (not cancelled and is_double(scorpion) and v1 == scorpion[0]
                and (opts["double_scorpion_blocks_dual"] == "always" or played == scorpion)):
            suppressed = True
        if not suppressed:
            items.append(("dual", 2) if k1 == 1 and k2 == 1 else ("plural", 3))
    if not cancelled:
        all_pairs = opts["long_pairs"] == "all_pairs"
        if played == flower:
            items.append(("short-flower", 1))
        long_f = fs_pairs(ends, flower, all_pairs)
        if long_f:
            items.append(("long-flower", long_f))
        if played == scorpion:
            items.append(("short-scorpion", -1))
        long_s = fs_pairs(ends, scorpion, all_pairs)
        if long_s:
            items.append(("long-scorpion", -long_s))
    return items


def dbg_items(table: Table, lone_double_scores: bool) -> list[tuple[str, int]]:
    items: list[tuple[str, int]] = []
    if table.spinner_open():
        items.append(("spinner", 2))
    groups: dict[int, list[int]] = {}
    for suit, halves in table.tips():
        groups.setdefault(suit, []).append(halves)
    total = 0
    for halves in groups.values():
        if len(halves) >= 2:
            total += sum(halves)
        elif lone_double_scores and halves[0] == 2:
            total += 2
    if total:
        items.append(("pairs", total))
    return items


# ------------------------------------------------------------------ hand end

def bergen_block_winner(rule: str, hands: list[list[Tile]]) -> int | None:
    n = len(hands)
    totals = [pips(h) for h in hands]

    def unique_min(values: list[int], seats: list[int]) -> int | None:
        best = min(values[s] for s in seats)
        who = [s for s in seats if values[s] == best]
        return who[0] if len(who) == 1 else None

    seats = list(range(n))
    if rule == "simple":
        return unique_min(totals, seats)
    doubles = [[t for t in h if is_double(t)] for h in hands]
    if rule == "german":
        counts = [len(d) for d in doubles]
        fewest = min(counts)
        who = [s for s in seats if counts[s] == fewest]
        return unique_min(totals, who)
    free = [s for s in seats if not doubles[s]]
    if len(free) == 1:
        return free[0]
    if len(free) >= 2:
        return unique_min(totals, free)
    sizes = [len(h) for h in hands]
    fewest = min(sizes)
    who = [s for s in seats if sizes[s] == fewest]
    if len(who) == 1:
        return who[0]
    lowest = min(d[0] for s in seats for d in doubles[s])
    return next(s for s in seats if any(d[0] == lowest for d in doubles[s]))


def fs_block_winner(hands: list[list[Tile]], flower: Tile, scorpion: Tile, opts: dict[str, Any]) -> int | None:
    cancelled = flower == scorpion
    if not (cancelled and opts["cancel_affects_block"]):
        for wanted in (flower, scorpion):
            for seat, hand in enumerate(hands):
                if wanted in hand:
                    return seat
    holders = [s for s, h in enumerate(hands) if any(is_double(t) for t in h)]
    if not holders:
        return None
    if opts["lowest_double_mode"] == "smallest_double":
        lowest = min(t[0] for h in hands for t in h if is_double(t))
        return next(s for s, h in enumerate(hands) if (lowest, lowest) in h)
    best = min(pips(hands[s]) for s in holders)
    who = [s for s in holders if pips(hands[s]) == best]
    return who[0] if len(who) == 1 else None


def legal_moves(variant: str, opts: dict[str, Any], table: Table, hand: list[Tile], stock_left: int,
                reserve: int, lead_tiles: list[Tile] | None) -> set[str]:
    """The legal moves of the player on turn (C6-C8, BRG-5/6, DBG-5/6, FS-6/8), in canonical notation;
    a lead is written as its tile (high half first)."""
    if not table.placed:
        assert lead_tiles is not None
        return {f"{a}-{b}" for a, b in lead_tiles}
    targets = range(1, len(table.placed) + 1)
    first = table.placed[0]
    if variant == "double-bergen" and first.faces:
        targets = range(1, 2)  # DBG-5: the spinner's four faces first
    elif (variant == "bergen" and opts["cover_lead_double_first"] and first.double and first.faces):
        targets = range(1, 2)  # BRG-5 option: both sides of the lead double first
    moves = set()
    for k in targets:
        for value in set(table.placed[k - 1].faces):
            for a, b in hand:
                if a == value:
                    moves.add(f"{a}-{b}@{k}")
                if b == value:
                    moves.add(f"{b}-{a}@{k}")
    if moves:
        return moves
    return {"draw"} if stock_left > reserve else {"pass"}


def lead_choices(variant: str, opts: dict[str, Any], hand: list[Tile], drawn_double: Tile | None) -> list[Tile]:
    """Which tiles may lead (BRG-4, DBG-4, FS-6)."""
    doubles = [t for t in hand if is_double(t)]
    if variant == "bergen":
        if opts["lead_rule"] == "rotate_any_tile":
            return list(hand)
        return [min(doubles) if opts["lead_rule"] == "lowest_double" else max(doubles)]
    if variant == "double-bergen":
        return [drawn_double] if drawn_double is not None else doubles
    if opts["lead_tile"] == "heaviest_double_in_hand" and doubles:
        return [max(doubles)]
    return list(hand)


# ------------------------------------------------------------------ the referee

def referee(record: dict[str, Any], legal: list[list[set[str]]] | None = None) -> dict[str, Any]:
    """What ``boneyard replay --json`` should print for ``record`` (RULES.md, RECORD.md).

    With ``legal`` (a list) the referee appends, per hand, its set of legal moves before every move."""
    variant = VARIANT_NAMES[str(record["variant"]).lower()]
    opts = options_of(variant, record)
    players = list(record["players"])
    n = len(players)
    target = target_of(variant, opts, n)
    immediate = opts["win_check"] == "immediate"
    scores = [0] * n
    out_hands: list[dict[str, Any]] = []
    finished = False
    game_winner: int | None = None
    prev_leader: int | None = None
    floor = opts.get("score_floor", None) if variant == "flower-scorpion" else None

    for number, hand in enumerate(record["hands"], start=1):
        if finished:
            raise RefereeError(f"hand {number} after the game ended")
        hands = [[tile(t) for t in seat] for seat in hand["deal"]]
        stock = [tile(t) for t in hand.get("stock", [])]
        reserve = int(opts.get("boneyard_reserve", 0) or 0) if variant != "flower-scorpion" else 0
        ptr = 0
        given_leader = hand.get("leader")
        flower = scorpion = (0, 0)
        if variant == "flower-scorpion":
            d = hand["dice"]
            flower = (max(d["flower"]), min(d["flower"]))
            scorpion = (max(d["scorpion"]), min(d["scorpion"]))

        # who leads (BRG-4, DBG-4, FS-3)
        if variant == "bergen":
            if opts["lead_rule"] == "rotate_any_tile":
                leader = given_leader if prev_leader is None else (prev_leader + 1) % n
            else:
                held = [(t[0], s) for s, h in enumerate(hands) for t in h if is_double(t)]
                if not held:
                    raise RefereeError("no double dealt")
                leader = min(held)[1] if opts["lead_rule"] == "lowest_double" else max(held)[1]
            mover = leader
        elif variant == "flower-scorpion":
            leader = given_leader if prev_leader is None else (prev_leader + 1) % n
            mover = leader
        else:
            leader = given_leader if prev_leader is None else (prev_leader + 1) % n
            mover = None
            for step in range(n):
                seat = (leader + step) % n
                if any(is_double(t) for t in hands[seat]):
                    mover = seat
                    break
            seat = leader
            drawn_double: Tile | None = None
            while mover is None:
                if len(stock) - ptr <= reserve:
                    raise RefereeError("setter search ran out of tiles")
                drawn = stock[ptr]
                ptr += 1
                hands[seat].append(drawn)
                if is_double(drawn):
                    mover = seat
                    drawn_double = drawn
                else:
                    seat = (seat + 1) % n
        if leader is None:
            raise RefereeError("no leader")
        prev_leader = leader

        if variant != "double-bergen":
            drawn_double = None
        table = Table()
        events: list[dict[str, Any]] = []
        hand_legal: list[set[str]] = []
        if legal is not None:
            legal.append(hand_legal)
        passes = 0
        drew = False
        end = "unfinished"
        hand_winner: int | None = None
        hand_points = [0] * n
        for index, text in enumerate(hand["moves"], start=1):
            if end != "unfinished" or finished:
                raise RefereeError(f"hand {number}, move {index}: after the end")
            seat = mover
            if legal is not None:
                choices = lead_choices(variant, opts, hands[seat], drawn_double) if not table.placed else None
                hand_legal.append(legal_moves(variant, opts, table, hands[seat], len(stock) - ptr, reserve,
                                              choices))
            move = str(text).strip().lower()
            points = 0
            items: list[tuple[str, int]] = []
            if move.startswith("draw"):
                if len(stock) - ptr <= reserve:
                    raise RefereeError(f"hand {number}, move {index}: draw from the reserve")
                hands[seat].append(stock[ptr])
                ptr += 1
                drew = True
            elif move == "pass":
                passes = 0 if drew else passes + 1
                drew = False
                mover = (seat + 1) % n
                if passes == n:
                    end = "blocked"
            else:
                if "@" in move:
                    halves, k = move.split("@")
                    join, out = (int(x) for x in halves.split("-"))
                    played = (max(join, out), min(join, out))
                    if played not in hands[seat]:
                        raise RefereeError(f"hand {number}, move {index}: {played} not in hand")
                    table.play(played, join, out, int(k))
                else:
                    left, right = (int(x) for x in move.split("-"))
                    played = (max(left, right), min(left, right))
                    if table.placed or played not in hands[seat]:
                        raise RefereeError(f"hand {number}, move {index}: bad lead")
                    table.lead(played, left, spinner=variant == "double-bergen")
                hands[seat].remove(played)
                if variant == "bergen":
                    items = bergen_items(table.ends())
                    points = sum(p for _, p in items)
                    if points and opts["approach_cap"]:
                        points = capped(points, scores[seat], target)
                elif variant == "flower-scorpion":
                    items = fs_items(table.ends(), played, flower, scorpion, opts)
                    points = sum(p for _, p in items)
                    if floor is not None and scores[seat] + points < floor:
                        points = min(0, floor - scores[seat]) if points < 0 else points
                else:
                    items = dbg_items(table, opts["lone_double_scores"])
                    points = sum(p for _, p in items)
                scores[seat] += points
                passes = 0
                drew = False
                mover = (seat + 1) % n
                if not hands[seat]:  # C9(a): the domino ends the hand; its scoring, then the game check
                    end = "domino"
                    hand_winner = seat
                elif immediate and scores[seat] >= target:
                    finished = True
                    game_winner = seat
            events.append({"seat": seat, "move": str(text), "points": points,
                           "scoring": [{"name": name, "points": p} for name, p in items]})

        if end != "unfinished":
            if end == "blocked":
                if variant == "bergen":
                    hand_winner = bergen_block_winner(opts["block_rule"], hands)
                elif variant == "flower-scorpion":
                    hand_winner = fs_block_winner(hands, flower, scorpion, opts)
                else:
                    totals = [pips(h) for h in hands]
                    best = min(totals)
                    who = [s for s in range(n) if totals[s] == best]
                    hand_winner = who[0] if len(who) == 1 else None
            if variant == "double-bergen" and opts["end_scoring"] == "tile_penalty":
                hand_points = [-len(h) for h in hands]
            elif hand_winner is not None:
                bonus = int(opts["winner_bonus"]) if variant != "double-bergen" else 1
                if variant == "bergen" and bonus == 5 and end == "blocked":
                    bonus = 2
                hand_points[hand_winner] = bonus
            for s in range(n):
                scores[s] += hand_points[s]
            if immediate:
                over = [s for s in range(n) if scores[s] >= target]
                if over:
                    best = max(scores[s] for s in over)
                    top = [s for s in over if scores[s] == best]
                    finished = True
                    game_winner = top[0] if len(top) == 1 else None
            else:
                best = max(scores)
                if best >= target:
                    top = [s for s in range(n) if scores[s] == best]
                    if len(top) == 1:
                        finished = True
                        game_winner = top[0]
        out_hands.append({"leader": leader, "events": events, "end": end, "winner": hand_winner,
                          "hand_points": hand_points, "totals": list(scores)})
    return {"variant": variant, "players": players, "hands": out_hands, "finished": finished,
            "winner": game_winner, "totals": list(scores)}
