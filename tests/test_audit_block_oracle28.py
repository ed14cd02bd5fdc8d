"""Differential audit of Block and Draw against an independent oracle written from RULES.md (§1–§3, §9, §9a).

The oracle below re-implements, from the rulebook only, who leads each hand (BLK-3/BLK-4, DRW-3, C12, §9a), whose
turn every recorded move is (C3), which plays, draws and passes are legal (C6–C8, BLK-5/6, DRW-5), the deal sizes
(BLK-2, DRW-2, C12, C13), the end of a hand (C9, BLK-7, DRW-6, DRW-8) and its scoring (BLK-8…BLK-11, C12), the
running totals, the target and the game's winner (BLK-11, C11). It tracks the layout itself from the record's
``J-O@k`` moves (RECORD.md). It imports nothing from ``boneyard.rules``' rule code: the engine is only used to
play games (its own players) and to replay the records (``record.replay_json``, i.e. ``boneyard replay --json``).

Where RULES.md is silent the oracle follows the engine's documented decision (docs/variants/block.md, draw.md):
  * A1 partnership game winner: the winning side's lower seat;
  * A2 partnerships in Draw (C12 names Block only): Block's partnership scoring, 7 tiles each;
  * A3 ``tie_rule``/``blocked_score`` with ``partnerships``: refused as options (C12 fixes the scoring);
  * A4 lead after a hand with no winner under ``winner_any``: the call of BLK-3 again (§9a "the called lead"
    for partnerships, A5-4 "the call procedure" for All Fives; Block's own text is silent), also when the first
    hand was led by lot (``first_lead=random_player_any_tile``);
  * A5 ``lead_rule=rotate`` counts from the previous hand's actual leader;
  * A6 ``end_on_dead_layout``: checked after every play; the hand ends as ``blocked``, scored as any block;
  * A7 a partnership deal with ``set`` 9/12 is still 7 each (C12's "7 tiles each"), with a boneyard in Draw.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from boneyard import Game, OptionError, RecordError, make_rules, record
from boneyard.chance import Chance
from boneyard.players.base import make_player
from tests.helpers import play_players

Tile = tuple[int, int]  # (high half, low half)


# ----------------------------------------------------------------------------------------------- the oracle
def tile(text: str) -> Tile:
    a, b = (int(part) for part in text.strip().split("-"))
    return (max(a, b), min(a, b))


def pips(t: Tile) -> int:
    return t[0] + t[1]


def heavy_key(t: Tile) -> tuple[int, int]:
    """C2: more pips; equal pips → the higher larger half."""
    return (pips(t), t[0])


def light_key(t: Tile) -> tuple[int, int]:
    """C2: fewer pips; equal pips → the lower smaller half."""
    return (pips(t), t[1])


def full_set(top: int) -> set[Tile]:
    return {(a, b) for a in range(top + 1) for b in range(a + 1)}


@dataclass
class Config:
    variant: str
    players: int
    top: int = 6
    deal_sizes: Any = None
    first_lead: str = "call_highest_double"
    lead_rule: str = "winner_any"
    tie_rule: str = "lightest_tile"
    blocked_score: str = "opponents_total"
    target: int | None = None
    win_check: str = "end_of_hand"
    partnerships: bool = False
    partnership_block: str = "side_total"
    allow_voluntary_draw: bool = False
    boneyard_reserve: int = 0
    end_on_dead_layout: bool = False

    @classmethod
    def of(cls, rec: dict[str, Any]) -> Config:
        options = dict(rec["options"])
        top = int(options.pop("set", 6))
        return cls(rec["variant"], len(rec["players"]), top, **options)

    def deal_size(self) -> int:
        if self.deal_sizes is not None:
            sizes = self.deal_sizes
            if isinstance(sizes, str):
                sizes = [int(part) for part in sizes.replace(",", "/").split("/")]
            if isinstance(sizes, int):
                return sizes
            return int(sizes[0] if len(sizes) == 1 else sizes[self.players - 2])
        if self.partnerships:
            return 7  # C12
        if self.top == 6:
            return 7 if self.players == 2 else 5  # BLK-2, DRW-2
        if self.top == 9:
            return 7 if self.players <= 6 else 6  # C13
        return 9 if self.players <= 8 else 8  # C13, double-twelve

    def goal(self) -> int:
        return 100 if self.target is None else self.target  # BLK-11, DRW-7


@dataclass
class HandOutcome:
    leader: int
    seats: list[int] = field(default_factory=list)
    end: str = "unfinished"
    winner: int | None = None
    hand_points: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    pips_left: list[int] = field(default_factory=list)
    dead_layout: bool = False
    draws: int = 0
    voluntary: int = 0
    tie_break: bool = False
    no_double_call: bool = False
    legal: list[set[str]] = field(default_factory=list)  # the moves the rules allow before each recorded move


class RuleBreach(AssertionError):
    """A recorded move that RULES.md does not allow (the oracle's legality check)."""


def called_lead(deal: list[list[Tile]], top: int) -> tuple[int, Tile]:
    """BLK-3: N-N, then N-1 … 0-0; no double held → the heaviest tile held."""
    holder = {t: seat for seat, hand in enumerate(deal) for t in hand}
    for d in range(top, -1, -1):
        if (d, d) in holder:
            return holder[(d, d)], (d, d)
    heaviest = max(holder, key=heavy_key)
    return holder[heaviest], heaviest


def tie_broken(cfg: Config, hands: list[list[Tile]]) -> bool:
    """Whether a blocked hand's winner needed the lightest-tile tie-break (BLK-9, §9a for partners)."""
    p = [sum(pips(t) for t in hand) for hand in hands]
    if cfg.partnerships:
        return any(p[a] == p[a + 2] for a in (0, 1))
    return p.count(min(p)) > 1


def blocked_result(cfg: Config, hands: list[list[Tile]]) -> tuple[int | None, list[int]]:
    """BLK-8/9/10 (individual) or C12 (+ §9a) for partnerships: the winner seat and each seat's hand points."""
    n = cfg.players
    p = [sum(pips(t) for t in hand) for hand in hands]
    points = [0] * n
    if cfg.partnerships:
        if cfg.partnership_block == "side_total":
            sides = [p[0] + p[2], p[1] + p[3]]
            side = None if sides[0] == sides[1] else (0 if sides[0] < sides[1] else 1)
        else:  # lowest_hand
            low = min(p)
            holders = {seat % 2 for seat in range(n) if p[seat] == low}
            side = holders.pop() if len(holders) == 1 else None
        if side is None:
            return None, points
        a, b = side, side + 2
        if p[a] != p[b]:
            winner = a if p[a] < p[b] else b
        else:
            winner = min((a, b), key=lambda seat: min(light_key(t) for t in hands[seat]))
        points[a] = points[b] = sum(p)
        return winner, points
    low = min(p)
    tied = [seat for seat in range(n) if p[seat] == low]
    if len(tied) == 1:
        winner = tied[0]
    elif cfg.tie_rule == "no_score":
        return None, points
    else:
        winner = min(tied, key=lambda seat: min(light_key(t) for t in hands[seat]))
    opponents = sum(p) - p[winner]
    points[winner] = {
        "opponents_total": opponents,
        "opponents_minus_own": opponents - p[winner],
        "sum_of_differences": sum(p[s] - p[winner] for s in range(n) if s != winner),
        "all_pips": sum(p),
    }[cfg.blocked_score]
    return winner, points


def domino_points(cfg: Config, hands: list[list[Tile]], winner: int) -> list[int]:
    points = [0] * cfg.players
    left = sum(pips(t) for hand in hands for t in hand)  # the winner's own hand is empty
    if cfg.partnerships:
        points[winner] = points[(winner + 2) % 4] = left  # C12: the pips of all four hands
    else:
        points[winner] = left  # BLK-10: all opponents' pips
    return points


def oracle_hand(cfg: Config, hand: dict[str, Any], number: int, previous: HandOutcome | None) -> HandOutcome:
    n, top = cfg.players, cfg.top
    deal = [[tile(t) for t in seat] for seat in hand["deal"]]
    stock = [tile(t) for t in hand.get("stock", [])]
    everything = [t for seat in deal for t in seat] + stock
    if sorted(everything) != sorted(full_set(top)) or len(set(everything)) != len(everything):
        raise RuleBreach(f"hand {number}: deal + stock is not the double-{top} set")
    if any(len(seat) != cfg.deal_size() for seat in deal):
        raise RuleBreach(f"hand {number}: deal sizes {[len(s) for s in deal]}, expected {cfg.deal_size()} each")
    # ---- who leads (BLK-3, BLK-4, DRW-3, C12, §9a)
    lead_tile: Tile | None = None
    chance_lead = out_no_double = False
    if previous is None:
        if cfg.first_lead == "call_highest_double":
            leader, lead_tile = called_lead(deal, top)
            out_no_double = lead_tile[0] != lead_tile[1]
        else:
            chance_lead = True
    elif cfg.lead_rule == "winner_any" and previous.winner is None:
        leader, lead_tile = called_lead(deal, top)  # A4: "the called lead" (§9a), "the call procedure" (A5-4)
        out_no_double = lead_tile[0] != lead_tile[1]
    elif cfg.lead_rule == "winner_any":
        assert previous.winner is not None
        leader = previous.winner
    elif cfg.lead_rule == "rotate":
        leader = (previous.leader + 1) % n
    else:
        chance_lead = True
    if chance_lead:
        if not isinstance(hand.get("leader"), int):
            raise RuleBreach(f"hand {number}: a lead by lot needs the record's leader")
        leader = hand["leader"]
    elif "leader" in hand and hand["leader"] != leader:
        raise RuleBreach(f"hand {number}: record leader {hand['leader']}, the rules say {leader}")
    out = HandOutcome(leader, no_double_call=out_no_double)
    hands = [list(seat) for seat in deal]
    ends: list[tuple[int, int]] = []  # (value, number of the tile it belongs to)
    on_table: list[Tile] = []
    pos = 0
    drawing = cfg.variant == "draw"
    turn, passes, drew = leader, 0, False

    def can_draw() -> bool:
        return drawing and len(stock) - pos > cfg.boneyard_reserve

    def fits(t: Tile) -> bool:
        return any(value in t for value, _ in ends)

    def allowed(held: list[Tile]) -> set[str]:
        if not ends:
            return {f"{t[0]}-{t[1]}" for t in held if lead_tile is None or t == lead_tile}
        plays = {f"{value}-{pips(t) - value}@{k}" for t in held for value, k in ends if value in t}
        if plays:
            return plays | ({"draw"} if cfg.allow_voluntary_draw and can_draw() else set())
        return {"draw"} if can_draw() else {"pass"}

    for index, text in enumerate(hand["moves"], 1):
        where = f"hand {number}, move {index} {text!r}"
        if out.end != "unfinished":
            raise RuleBreach(f"{where}: the hand is over")
        out.seats.append(turn)
        held = hands[turn]
        playable = any(fits(t) for t in held)
        out.legal.append(allowed(held))
        if text == "draw":
            if not can_draw() or (playable and not cfg.allow_voluntary_draw) or not ends:
                raise RuleBreach(f"{where}: drawing is not allowed here")
            held.append(stock[pos])
            pos += 1
            drew = True
            out.draws += 1
            out.voluntary += playable
            continue
        if text == "pass":
            if playable or can_draw() or not ends:
                raise RuleBreach(f"{where}: a pass with a play or a draw available")
            passes = 0 if drew else passes + 1
            drew = False
            turn = (turn + 1) % n
            if passes == n:  # C9(b), §9a
                out.end = "blocked"
            continue
        if ("@" in text) == (not ends):
            raise RuleBreach(f"{where}: {'a lead' if ends else 'a play on a tile'} before {'' if ends else 'no '}lead")
        if not ends:  # the lead: "a-b", a on the left
            a, b = (int(part) for part in text.split("-"))
            t = (max(a, b), min(a, b))
            if t not in held or (lead_tile is not None and t != lead_tile):
                raise RuleBreach(f"{where}: not the lead the rules call for ({lead_tile})")
            ends = [(a, 1), (b, 1)]
        else:
            body, _, at = text.partition("@")
            j, o = (int(part) for part in body.split("-"))
            t, k = (max(j, o), min(j, o)), int(at)
            if t not in held:
                raise RuleBreach(f"{where}: the player does not hold {t}")
            spot = next((i for i, end in enumerate(ends) if end == (j, k)), None)
            if spot is None:
                raise RuleBreach(f"{where}: tile {k} has no open {j} end")
            ends[spot] = (o, len(on_table) + 1)
        held.remove(t)
        on_table.append(t)
        passes, drew = 0, False
        if not held:
            out.end, out.winner = "domino", turn
            break
        if drawing and cfg.end_on_dead_layout and all(
                sum(1 for x in on_table if value in x) == top + 1 for value, _ in ends):
            out.end, out.dead_layout = "blocked", True  # DRW-8
            break
        turn = (turn + 1) % n
    out.pips_left = [sum(pips(t) for t in seat) for seat in hands]
    if out.end == "domino":
        assert out.winner is not None
        out.hand_points = domino_points(cfg, hands, out.winner)
    elif out.end == "blocked":
        out.winner, out.hand_points = blocked_result(cfg, hands)
        out.tie_break = out.winner is not None and tie_broken(cfg, hands)
    else:
        out.hand_points = [0] * n
    if len(out.seats) != len(hand["moves"]):
        raise RuleBreach(f"hand {number}: moves after the end of the hand")
    return out


def oracle_game(rec: dict[str, Any]) -> dict[str, Any]:
    """The replay the rules call for, in the shape of ``boneyard replay --json`` (without scoring items)."""
    cfg = Config.of(rec)
    totals = [0] * cfg.players
    previous: HandOutcome | None = None
    hands_out = []
    finished, winner = False, None
    for number, hand in enumerate(rec["hands"], 1):
        if finished:
            raise RuleBreach(f"hand {number}: the game was already over")
        out = oracle_hand(cfg, hand, number, previous)
        totals = [a + b for a, b in zip(totals, out.hand_points, strict=True)]
        out.totals = list(totals)
        hands_out.append(out)
        if out.end != "unfinished":
            best = max(totals)
            if best >= cfg.goal():  # BLK-11, C11
                leaders = [seat for seat in range(cfg.players) if totals[seat] == best]
                sides = {seat % 2 for seat in leaders} if cfg.partnerships else set(leaders)
                if len(sides) == 1:
                    finished, winner = True, min(leaders)  # A1: a side's lower seat
        previous = out
    return {"hands": hands_out, "finished": finished, "winner": winner, "totals": totals}


def compare(rec: dict[str, Any], engine: dict[str, Any], offered: list[list[set[str]]] | None = None) -> list[str]:
    """Every difference between the oracle's reading of ``rec`` and the engine's replay JSON ``engine`` (and,
    if given, the moves the engine ``offered`` before each recorded move)."""
    try:
        mine = oracle_game(rec)
    except RuleBreach as breach:
        return [f"oracle refuses the record: {breach}"]
    problems: list[str] = []
    if len(engine["hands"]) != len(mine["hands"]):
        problems.append(f"{len(engine['hands'])} hands replayed, oracle {len(mine['hands'])}")
    for number, (theirs, ours) in enumerate(zip(engine["hands"], mine["hands"], strict=False), 1):
        seats = [event["seat"] for event in theirs["events"]]
        if theirs["leader"] != ours.leader:
            problems.append(f"hand {number}: leader {theirs['leader']} != oracle {ours.leader}")
        if seats != ours.seats:
            first = next((i for i, (a, b) in enumerate(zip(seats, ours.seats, strict=False)) if a != b), None)
            problems.append(f"hand {number}: seats differ from move {first} (engine {seats}, oracle {ours.seats})")
        if offered is not None and offered[number - 1] != ours.legal:
            at = next((i for i, (a, b) in enumerate(zip(offered[number - 1], ours.legal, strict=False), 1)
                       if a != b), None)
            if at is not None:
                problems.append(f"hand {number}, move {at}: engine offers {sorted(offered[number - 1][at - 1])}, "
                                f"the rules allow {sorted(ours.legal[at - 1])}")
        moved = [event["move"] for event in theirs["events"]]
        if moved != rec["hands"][number - 1]["moves"]:
            problems.append(f"hand {number}: replayed moves differ from the record")
        if any(event["points"] != 0 or event["scoring"] for event in theirs["events"]):
            problems.append(f"hand {number}: a move scored points (Block/Draw score at the end of a hand only)")
        for key, value in (("end", ours.end), ("winner", ours.winner), ("hand_points", ours.hand_points),
                           ("totals", ours.totals)):
            if theirs[key] != value:
                problems.append(f"hand {number}: {key} {theirs[key]} != oracle {value} (pips {ours.pips_left})")
    for key in ("finished", "winner", "totals"):
        if engine[key] != mine[key]:
            problems.append(f"game {key} {engine[key]} != oracle {mine[key]}")
    return problems


# ----------------------------------------------------------------------------------------------- generating games
LEVELS = ("random", "greedy")


def play_game(variant: str, players: int, options: dict[str, Any], seed: int,
              offered: list[list[set[str]]] | None = None) -> dict[str, Any]:
    """A whole game between the engine's own computer players; its record (through JSON text and back).
    ``offered`` collects, per hand, the engine's legal moves before each move."""
    game = Game(make_rules(variant, players, options), chance=Chance(seed))
    rng = random.Random(seed)
    seats = [make_player(rng.choice(LEVELS), seed=seed * 16 + s) for s in range(players)]
    texts: list[list[list[str]]] = []
    play_players(game, seats, offered=texts, limit=20_000)
    if offered is not None:
        offered.extend([set(legal) for legal in hand] for hand in texts)
    return record.loads(record.dumps(record.to_record(game)))


def random_options(rng: random.Random, variant: str) -> tuple[int, dict[str, Any]]:
    """A player count and a random combination of the options that affect leads, turns, deals and scoring."""
    top = rng.choice((6, 6, 6, 9, 12))
    partnerships = rng.random() < (0.25 if top == 6 else 0.1)
    players = 4 if partnerships else rng.randint(2, {6: 4, 9: 8, 12: 10}[top])
    options: dict[str, Any] = {}
    if top != 6:
        options["set"] = top
    if partnerships:
        options["partnerships"] = True
        options["partnership_block"] = rng.choice(("side_total", "lowest_hand"))
    else:
        options["tie_rule"] = rng.choice(("lightest_tile", "no_score"))
        options["blocked_score"] = rng.choice(
            ("opponents_total", "opponents_minus_own", "sum_of_differences", "all_pips"))
    options["first_lead"] = rng.choice(("call_highest_double", "call_highest_double", "random_player_any_tile"))
    options["lead_rule"] = rng.choice(("winner_any", "winner_any", "rotate", "random"))
    options["win_check"] = rng.choice(("end_of_hand", "immediate"))
    options["target"] = rng.choice((None, None, 61, 100, 150, 30))
    count = len(full_set(top))
    if rng.random() < 0.3:
        most = max(1, min(9, (count - (2 if variant == "draw" else 0)) // players))
        if rng.random() < 0.5:
            options["deal_sizes"] = rng.randint(1, most)
        else:  # one entry per player count from 2
            options["deal_sizes"] = [rng.randint(1, most) for _ in range(players - 1)]
    if variant == "draw":
        options["allow_voluntary_draw"] = rng.random() < 0.3
        options["boneyard_reserve"] = rng.choice((0, 0, 2))
        options["end_on_dead_layout"] = rng.random() < 0.3
    return players, options


@dataclass
class Tally:
    games: int = 0
    hands: int = 0
    moves: int = 0
    blocked: int = 0
    no_winner: int = 0
    dead: int = 0
    draws: int = 0
    voluntary: int = 0
    tie_break: int = 0
    no_double_call: int = 0


def run_batch(variant: str, games: int, seed: int) -> tuple[dict[str, Tally], list[str]]:
    rng = random.Random(seed)
    tallies: dict[str, Tally] = {}
    problems: list[str] = []
    for number in range(games):
        players, options = random_options(rng, variant)
        game_seed = rng.randrange(2**40)
        offered: list[list[set[str]]] = []
        try:
            rec = play_game(variant, players, options, game_seed, offered)
        except OptionError as error:
            problems.append(f"{variant} {players}p {options}: refused: {error}")
            continue
        found = compare(rec, record.replay_json(rec), offered)
        if found:
            problems.append(f"{variant} game {number} ({players}p, seed {game_seed}, {options}): {found[:3]}")
        mine = oracle_game(rec) if not found else {"hands": []}
        key = f"{variant} {players}p{' partners' if options.get('partnerships') else ''} set{options.get('set', 6)}"
        tally = tallies.setdefault(key, Tally())
        tally.games += 1
        tally.hands += len(rec["hands"])
        tally.moves += sum(len(hand["moves"]) for hand in rec["hands"])
        for out in mine["hands"]:
            tally.blocked += out.end == "blocked"
            tally.no_winner += out.end == "blocked" and out.winner is None
            tally.dead += out.dead_layout
            tally.draws += out.draws
            tally.voluntary += out.voluntary
            tally.tie_break += out.tie_break
            tally.no_double_call += out.no_double_call
    return tallies, problems


# ----------------------------------------------------------------------------------------------- tests
def test_the_oracle_scores_the_worked_examples_of_rules_md() -> None:
    def hands_of(*texts: str) -> list[list[Tile]]:
        return [[tile(t) for t in text.split()] for text in texts]

    def block(players: int, **options: Any) -> Config:
        return Config("block", players, **options)

    # BLK example 2: tie 17/17 → lightest tile 1-2 beats 3-4; A scores 17, 0 with minus_own, nobody with no_score
    example2 = hands_of("1-2 2-4 3-5", "5-5 3-4")
    assert blocked_result(block(2), example2) == (0, [17, 0])
    assert blocked_result(block(2, blocked_score="opponents_minus_own"), example2) == (0, [0, 0])
    assert blocked_result(block(2, tie_rule="no_score"), example2) == (None, [0, 0])
    # BLK example 3: 8 / 12 / 20 pips → 32, 24, 16, 40
    example3 = hands_of("6-2", "6-6", "6-6 4-4")  # pip totals only matter here
    for rule, points in (("opponents_total", 32), ("opponents_minus_own", 24), ("sum_of_differences", 16),
                         ("all_pips", 40)):
        assert blocked_result(block(3, blocked_score=rule), example3) == (0, [points, 0, 0])
    # BLK example 4: lightest tiles 0-3 vs 1-2 → the 0-3 wins
    assert blocked_result(block(2), hands_of("0-3 5-5", "1-2 6-4")) == (0, [13, 0])
    assert blocked_result(block(2), hands_of("1-2 6-4", "0-3 5-5")) == (1, [0, 13])
    # BLK example 1 (domino): 3 players, B holds 19, C holds 1 → A scores 20
    assert domino_points(block(3), hands_of("", "6-6 3-4", "1-0"), 0) == [20, 0, 0]
    # DRW example 3: 4 against 15 → 15, 11 with minus_own
    drw3 = hands_of("0-0 1-3", "6-5 2-2")
    assert blocked_result(Config("draw", 2), drw3) == (0, [15, 0])
    assert blocked_result(Config("draw", 2, blocked_score="opponents_minus_own"), drw3) == (0, [11, 0])
    # C12 / docs example: pips 23, 8, 5, 6 → side_total: seats 1+3 (seat 3 the lower), lowest_hand: 0+2 (seat 2)
    split = hands_of("6-6 6-5", "6-2", "5-0", "6-0")
    assert blocked_result(Config("block", 4, partnerships=True), split) == (3, [0, 42, 0, 42])
    assert blocked_result(Config("block", 4, partnerships=True, partnership_block="lowest_hand"), split) == \
        (2, [42, 0, 42, 0])
    level = hands_of("6-4", "5-5", "4-1", "3-2")  # 10, 10, 5, 5 → sides 15/15: nobody
    assert blocked_result(Config("block", 4, partnerships=True), level) == (None, [0, 0, 0, 0])
    # partners tie for fewest → their side; across sides → nobody (lowest_hand)
    partners = hands_of("2-1", "6-6", "3-0", "5-5")
    assert blocked_result(Config("block", 4, partnerships=True, partnership_block="lowest_hand"), partners) == \
        (2, [28, 0, 28, 0])  # 0-3 is lighter than 1-2 (C2)
    across = hands_of("2-1", "3-0", "6-6", "5-5")
    assert blocked_result(Config("block", 4, partnerships=True, partnership_block="lowest_hand"), across)[0] is None


def test_the_call_of_the_first_lead() -> None:
    assert called_lead([[tile("5-5"), tile("6-1")], [tile("6-6")]], 6) == (1, (6, 6))
    assert called_lead([[tile("5-5"), tile("6-1")], [tile("4-4")]], 6) == (0, (5, 5))
    assert called_lead([[tile("6-3"), tile("1-0")], [tile("5-4")]], 6) == (0, (6, 3))  # C2: 6-3 > 5-4
    assert called_lead([[tile("8-8")], [tile("9-0")]], 9) == (0, (8, 8))


@pytest.mark.parametrize("variant,games,seed", [("block", 800, 2801), ("draw", 800, 2802)])
def test_engine_agrees_with_the_oracle(variant: str, games: int, seed: int) -> None:
    tallies, problems = run_batch(variant, games, seed)
    assert not problems, "\n".join(problems[:10])
    total = Tally()
    for tally in tallies.values():
        for name in ("games", "hands", "moves", "blocked", "no_winner", "dead", "draws", "voluntary", "tie_break",
                     "no_double_call"):
            setattr(total, name, getattr(total, name) + getattr(tally, name))
    assert total.games == games
    assert total.blocked > 50 and total.no_winner > 5 and total.tie_break > 5 and total.no_double_call > 2
    if variant == "draw":
        assert total.dead > 0 and total.draws > 1000 and total.voluntary > 50


PLAYER_COUNTS = [("block", 2, {}), ("block", 3, {}), ("block", 4, {}), ("block", 4, {"partnerships": True}),
                 ("draw", 2, {}), ("draw", 3, {}), ("draw", 4, {}), ("draw", 4, {"partnerships": True}),
                 ("block", 8, {"set": 9}), ("block", 10, {"set": 12}), ("draw", 7, {"set": 9}),
                 ("draw", 9, {"set": 12})]


@pytest.mark.parametrize("variant,players,options", PLAYER_COUNTS)
def test_defaults_per_player_count(variant: str, players: int, options: dict[str, Any]) -> None:
    for seed in range(25):
        offered: list[list[set[str]]] = []
        rec = play_game(variant, players, options, 28_000 + seed, offered)
        assert compare(rec, record.replay_json(rec), offered) == []


def test_the_comparison_reports_wrong_numbers() -> None:
    rec = play_game("block", 3, {"tie_rule": "no_score"}, 2828)
    engine = record.replay_json(rec)
    assert compare(rec, engine) == []
    hand = engine["hands"][0]
    wrong = copy.deepcopy(engine)
    wrong["hands"][0]["hand_points"] = [p + 1 for p in hand["hand_points"]]
    wrong["hands"][0]["events"][1]["seat"] = (hand["events"][1]["seat"] + 1) % 3
    wrong["hands"][0]["leader"] = (hand["leader"] + 1) % 3
    wrong["hands"][0]["winner"] = 1 if hand["winner"] != 1 else 2
    wrong["hands"][-1]["totals"] = [t + 5 for t in engine["totals"]]
    wrong["winner"] = (engine["winner"] + 1) % 3
    wrong["finished"] = False
    found = "\n".join(compare(rec, wrong))
    for needle in ("hand_points", "seats differ from move 1", "leader", "winner", "totals", "game finished",
                   "game winner"):
        assert needle in found, (needle, found)
    # and a record whose moves break the rules is refused by the oracle
    broken = copy.deepcopy(rec)
    broken["hands"][0]["moves"].insert(1, "pass")
    assert compare(broken, engine)[0].startswith("oracle refuses the record")


def mutated(rec: dict[str, Any], hand_index: int, move_index: int, move: str) -> dict[str, Any]:
    """``rec`` cut after hand ``hand_index``'s move ``move_index`` (0-based), which is replaced by ``move``."""
    data = copy.deepcopy(rec)
    data["hands"] = data["hands"][:hand_index + 1]
    hand = data["hands"][-1]
    hand["moves"] = [*hand["moves"][:move_index], move]
    return data


@pytest.mark.parametrize("variant,seed", [("block", 2803), ("draw", 2804)])
def test_the_engine_refuses_exactly_what_the_rules_forbid(variant: str, seed: int) -> None:
    """Records with one move replaced: the engine's replay refuses them exactly when the oracle does."""
    rng = random.Random(seed)
    checked = refused = 0
    for _ in range(60):
        players, options = random_options(rng, variant)
        rec = play_game(variant, players, options, rng.randrange(2**40))
        mine = oracle_game(rec)
        for _ in range(4):
            h = rng.randrange(min(3, len(rec["hands"])))
            m = rng.randrange(len(rec["hands"][h]["moves"]))
            seat_hand = {tile(t) for t in rec["hands"][h]["deal"][mine["hands"][h].seats[m]]}
            some = rng.choice(sorted(seat_hand))
            k = rng.randint(1, max(1, m))
            candidates = [*sorted(mine["hands"][h].legal[m]), "pass", "draw", f"{some[0]}-{some[1]}@{k}",
                          f"{some[1]}-{some[0]}@{k}", f"{some[0]}-{some[1]}"]
            for move in candidates:
                data = mutated(rec, h, m, move)
                try:
                    oracle_game(data)
                    oracle_says = None
                except RuleBreach as breach:
                    oracle_says = str(breach)
                try:
                    engine = record.replay_json(data)
                    engine_says = None
                except RecordError as error:
                    engine_says = str(error)
                assert (oracle_says is None) == (engine_says is None), (data["hands"][-1]["moves"][-3:], oracle_says,
                                                                        engine_says)
                if engine_says is None:
                    assert compare(data, engine) == []
                checked += 1
                refused += engine_says is not None
    assert refused > 200 and checked - refused > 200


def test_a_wrong_leader_in_a_record_is_refused() -> None:
    """RECORD.md: a ``leader`` that differs from what the rules determine is an error (the oracle agrees)."""
    rec = play_game("block", 3, {}, 2805)
    called = oracle_game(rec)["hands"][0].leader
    data = copy.deepcopy(rec)
    data["hands"][0]["leader"] = (called + 1) % 3
    with pytest.raises(RecordError):
        record.replay_json(data)
    with pytest.raises(RuleBreach):
        oracle_game(data)
