"""The rules interface every variant implements, the registry, and helpers several share.

A variant is one module with one :class:`Rules` subclass: class attributes for its name,
aliases, player counts and options type, and a few hooks the :class:`~boneyard.state.Game`
calls.  ``register`` puts it in :data:`VARIANTS`; :func:`find_variant` looks names up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal

from boneyard.errors import BoneyardError, OptionError, VariantError, did_you_mean
from boneyard.layout import Face, Layout, Placed, Role
from boneyard.options import non_defaults, parse_assignments, parse_options, specs
from boneyard.state import NONE, Game, HandResult, HandSetup, ScoreItem
from boneyard.tiles import Tile, double_set, heaviness, lightness

VARIANTS: dict[str, type[Rules]] = {}
_ALIASES: dict[str, str] = {}


class SetupError(BoneyardError, ValueError):
    """A deal, stock, leader or dice that the variant's rules do not allow."""


def register(cls: type[Rules]) -> type[Rules]:
    VARIANTS[cls.name] = cls
    for alias in (cls.name, *cls.aliases):
        _ALIASES[alias] = cls.name
    return cls


def find_variant(name: str) -> type[Rules]:
    """The rules class registered under ``name`` or an alias (case-insensitive)."""
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    if key in _ALIASES:
        return VARIANTS[_ALIASES[key]]
    known = ", ".join(sorted(VARIANTS))
    raise VariantError(f"unknown variant {name!r} ({did_you_mean(key, _ALIASES)}known: {known}, and their aliases)")


def assigned_options(variant: str, assignments: Iterable[str]) -> dict[str, object]:
    """The rule options that ``KEY=VALUE`` ``assignments`` (the command line's ``-o``) give ``variant``, as a record
    keeps them: those that differ from its defaults.  A bad name or value is an :class:`OptionError`."""
    return non_defaults(parse_assignments(find_variant(variant).Options, list(assignments)))


def make_rules(variant: str, players: int, options: Mapping[str, object] | object | None = None) -> Rules:
    cls = find_variant(variant)
    return cls(players, options)


class Rules:
    """Base class of the variants.  Hooks have the defaults of a plain line game."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str]
    Options: ClassVar[type[Any]]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    uses_dice: ClassVar[bool] = False

    draw_mode: str = NONE
    reserve: int = 0
    voluntary_draw: bool = False
    immediate_win: bool = False
    #: the lowest total wins the game (PIP): score additions are bad news for their seat
    lower_score_wins: ClassVar[bool] = False
    #: the number of hands a game always lasts (PIP's nine rounds), ``None`` where a target ends it
    hands_in_game: ClassVar[int | None] = None
    #: the player a forced draw (PIP's D tile) or a given tile reaches loses the rest of that turn
    forced_draw_ends_turn: bool = False
    #: the rule that may make a play score less than its scoring items (Bergen's approach cap), named where the items
    #: and the points are shown together; "" where a play scores exactly its items
    points_limit: ClassVar[str] = ""
    allows_play: Callable[[Game, Tile, int, Face], bool] | None = None
    tile_value: Callable[[Tile], int] = staticmethod(lambda tile: tile.pips)

    def draw_shows_lack(self) -> bool:
        """Whether the others learn from a seat's draw (not one a PIP D tile forces) that it could not play: not
        where a player may draw while able to play (``allow_voluntary_draw``), since nobody else can tell which
        draw it was; a pass always shows it.  The expert's inference and the environments' ``lacks`` read this."""
        return not self.voluntary_draw

    def never_drawn(self, stock: int) -> int:
        """How many of the ``stock`` tiles left stay out of play this hand: all of them where nothing is drawn
        (Block, BLK-2), else those the reserve keeps back (Bergen's last two, BRG-3)."""
        return stock if self.draw_mode == NONE else min(stock, self.reserve)

    def __init__(self, players: int, options: Mapping[str, object] | object | None = None) -> None:
        self.options = parse_options(self.Options, options)
        low, high = self.player_range()
        from boneyard.chance import as_whole  # (chance reads the rules: imported here, not at the top)

        players = as_whole(players)  # (a NumPy integer, as a count drawn with NumPy is)
        if isinstance(players, bool) or not isinstance(players, int):
            raise VariantError(f"the number of players must be a whole number, not {players!r}")
        if not low <= players <= high:
            top = getattr(self.options, "set", None)  # a larger set may seat them: say which
            bigger = next((other for other in (9, 12) if top is not None and other > top and players > high
                           and set_player_range(other, self.max_players)[1] >= players), None)
            more = ""
            if bigger is not None:
                least, most = set_player_range(bigger, self.max_players, low)
                more = f" (with option 'set' {bigger}: {least} to {most})"
            raise VariantError(f"{self.name} is for {low} to {high} players, not {players}{more}")
        self.players = players
        sizes = getattr(self.options, "deal_sizes", None)
        if sizes is not None and len(sizes) > max(1, high - 1):
            raise OptionError(f"option 'deal_sizes' {'/'.join(map(str, sizes))} lists {len(sizes)} sizes, but "
                              f"{self.name} seats {low} to {high} players (one size, or one per count from 2)")
        self.configure()

    # ------------------------------------------------------------ set-up
    def player_range(self) -> tuple[int, int]:
        """Players allowed; a variant with a ``set`` option seats more with a larger set (C13)."""
        return set_player_range(getattr(self.options, "set", 6), self.max_players, self.min_players)

    def configure(self) -> None:
        """Derive per-game settings from the options (override)."""

    def tile_set(self) -> tuple[Tile, ...]:
        return double_set(6)

    def deal_size(self) -> int:
        raise NotImplementedError

    def new_layout(self) -> Layout:
        return Layout()

    def acceptable_deal(self, deal: list[list[Tile]]) -> bool:
        """Whether a shuffled deal stands (``False`` makes chance redeal)."""
        return True

    def random_leader_needed(self, game: Game) -> bool:
        """Whether chance picks the coming hand's leader (recorded as ``leader``); chance asks before the
        hand is logged, the setup check after."""
        return self.leader_by_lot(len(game.log) + (0 if game.in_hand else 1))

    def leader_by_lot(self, number: int) -> bool:
        """Whether chance picks the leader of hand ``number`` (the rule both engines ask; override)."""
        return False

    def check_setup(self, game: Game, setup: HandSetup) -> None:
        """Reject a deal and stock that are not this variant's set, dealt as the rules say."""
        deal = setup.deal
        if len(deal) != self.players:
            raise SetupError(f"the deal has {len(deal)} hands for {self.players} players")
        size = self.deal_size()
        for seat, tiles in enumerate(deal):
            if len(tiles) != size:
                raise SetupError(f"seat {seat} was dealt {len(tiles)} tiles; {self.name} deals {size}")
        given = [tile for tiles in deal for tile in tiles] + list(setup.stock)
        expected = self.tile_set()
        seen: set[Tile] = set()
        for tile in given:
            if tile in seen:
                raise SetupError(f"{tile} appears twice in the deal and stock")
            seen.add(tile)
        missing = [str(tile) for tile in expected if tile not in seen]
        in_set = set(expected)
        extra = [str(tile) for tile in given if tile not in in_set]
        if missing or extra:
            parts = []
            if missing:
                parts.append("missing " + " ".join(missing))
            if extra:
                parts.append("not in the set " + " ".join(extra))
            raise SetupError("deal plus stock is not the variant's tile set: " + "; ".join(parts))
        if not self.acceptable_deal(deal):
            raise SetupError(self.redeal_reason())
        if setup.dice is not None and not self.uses_dice:
            raise SetupError(f"{self.name} uses no dice")
        if self.random_leader_needed(game) and setup.leader is None:
            raise SetupError("the rules leave this lead to chance: the hand needs a leader")
        if setup.leader is not None and not (isinstance(setup.leader, int) and 0 <= setup.leader < self.players):
            raise SetupError(f"leader {setup.leader!r} is not a seat (0-{self.players - 1})")

    def redeal_reason(self) -> str:
        return "the rules call for a redeal of this deal"

    def open_hand(self, game: Game, setup: HandSetup) -> tuple[int, int, frozenset[Tile] | None]:
        """Who leads (as recorded), who moves first and which tiles may lead (None: any)."""
        raise NotImplementedError

    def lead_caller(self, game: Game) -> LeadCaller | None:
        """Where the lead of ``game``'s current hand is called from the tiles dealt (not picked by chance, rotation
        or the previous hand): the rule :meth:`open_hand` calls it by, from a deal to the seat and the tile that lead
        (``None`` for a deal the rules would redeal); where the rules leave the leader a choice among his tiles,
        the first of them in the deal's order.  ``None`` where the lead is not called so.  The expert's inference
        asks it which tiles the others cannot have been dealt (a lowest double led: nobody held a lower one)."""
        return None

    @staticmethod
    def check_leader(setup: HandSetup, leader: int) -> int:
        if setup.leader is not None and setup.leader != leader:
            raise SetupError(f"leader {setup.leader} differs from the rules' leader, seat {leader}")
        return leader

    # ------------------------------------------------------------ play
    def lead_value(self, game: Game, tile: Tile) -> int | None:
        """The number a lead double stands for (PIP's W-W starter); None: its own."""
        return None

    def double_role(self, game: Game, tile: Tile, is_lead: bool) -> Role:
        return Role.CROSS

    def play_target(self, game: Game) -> int:
        """A tile every play must join now (0: any open end)."""
        return 0

    def target_reason(self, game: Game, target: int) -> str:
        return f"every play must join tile {target} now"

    def refusal_reason(self, game: Game, tile: Tile, half: int, target: int) -> str | None:
        """Why ``allows_play`` refuses joining ``tile`` by ``half`` to tile ``target`` (None: no reason)."""
        return None

    def score_play(self, game: Game, seat: int, placed: Placed) -> tuple[tuple[ScoreItem, ...], int]:
        """The scoring items of a placement and the change to the player's score."""
        return (), 0

    def dead_layout(self, game: Game) -> bool:
        """Whether the hand ends as blocked right after this play."""
        return False

    def advance(self, game: Game, seat: int, placed: Placed) -> None:
        """Whose turn it is after ``seat`` placed a tile (and any effects)."""
        game.turn = game.next_seat(seat)

    def score_seats(self, seat: int) -> tuple[int, ...]:
        """The seats whose score a seat's points go to (both partners in a partnership)."""
        return (seat,)

    def game_winners(self, winner: int | None, scores: Sequence[int]) -> tuple[int, ...]:
        """The seats that won a finished game whose ``winner`` (``Game.winner``) and totals are these: the winner's
        side (both partners in a partnership), empty where nobody won.  PIP's equal lowest totals share the win."""
        return tuple(sorted(self.score_seats(winner))) if winner is not None else ()

    # ------------------------------------------------------------ ends
    def end_hand(self, game: Game, end: str, seat: int | None) -> HandResult:
        raise NotImplementedError

    def blocked_rule(self) -> str:
        """Who wins a blocked hand under the options in force, in one sentence for the players (the hand's
        summary says it beside the hands, so that a tie-break or a rule other than the lowest total is seen)."""
        raise NotImplementedError

    def pip_count(self, end: str) -> PipCount | None:
        """What the winner of a hand that ended so (``domino``, ``blocked``) scores, where it is a count of pips
        (rounded as the variant rounds), so that a summary may show it: ``"left"``, every pip left in the hands
        ("68 pips left -> +68"); ``"against"``, the pips of the other hands ("18 pips against 52 -> +52"); None
        where the options in force count otherwise (the sentence of :meth:`blocked_rule` says how)."""
        return None

    def game_over(self, game: Game, hand_ended: bool) -> tuple[bool, int | None]:
        raise NotImplementedError

    def describe(self) -> str:
        return self.title


# ---------------------------------------------------------------- shared helpers
def call_lead(hands: Iterable[Sequence[Tile]], top: int) -> tuple[int, Tile]:
    """The call procedure (BLK-3, A5-3) on a deal of tiles: the seat that leads and its lead tile."""
    dealt = [list(tiles) for tiles in hands]
    highest = [max((tile.high for tile in tiles if tile.is_double and tile.high <= top), default=-1)
               for tiles in dealt]
    seat = called_leader(highest, lambda seat: max(map(heaviness, dealt[seat]), default=(-1, -1)))
    number = highest[seat]
    if number >= 0:
        return seat, next(tile for tile in dealt[seat] if tile.is_double and tile.high == number)
    return seat, max(dealt[seat], key=heaviness)


#: a hand's count that a summary may show (:meth:`Rules.pip_count`)
PipCount = Literal["left", "against"]

#: a rule that calls a hand's lead from the deal: the seat and the tile that lead (``None``: the deal is redealt)
LeadCaller = Callable[[Sequence[Sequence[Tile]]], "tuple[int, Tile] | None"]
SeatKey = Callable[[int], tuple[int, int]]  #: a key per seat, asked for only where a rule needs it


def called_leader(highest_doubles: Sequence[int], heaviest: SeatKey) -> int:
    """Who leads a called hand (BLK-3, A5-3): the holder of the highest double (``highest_doubles``: each
    seat's highest double number, -1 for none), N-N first; nobody holding one, the seat whose heaviest
    tile (``heaviest(seat)``: its C2 key, pips then the higher half) is heaviest.  That seat leads the
    double, or its heaviest tile."""
    best = max(highest_doubles)
    if best >= 0:
        return highest_doubles.index(best)
    return max(range(len(highest_doubles)), key=heaviest)


# ---------------------------------------------------------------- hand-end decisions
# The rules of who wins a hand and what it scores are pure functions of small values (pip totals per
# seat, tile counts, scores), written once here and in the variant modules, and called by both the
# reference Game (through the Rules hooks) and the fast engine (boneyard.fast), whatever their tiles
# look like.  A seat's *lightness* is the C2 key of its lightest tile, asked for only to break a tie.
Lightness = Callable[[int], tuple[int, int]]


def lowest_seats(values: Sequence[int], seats: Iterable[int] | None = None) -> list[int]:
    """Of ``seats`` (default: all), those whose value is lowest (all of them when tied)."""
    candidates = range(len(values)) if seats is None else seats
    low = min(values[seat] for seat in candidates)
    return [seat for seat in candidates if values[seat] == low]


def unique_lowest(values: Sequence[int], seats: Iterable[int] | None = None) -> int | None:
    """The one seat of ``seats`` with the lowest value; ``None`` on a tie."""
    lowest = lowest_seats(values, seats)
    return lowest[0] if len(lowest) == 1 else None


def lowest_then_lightest(values: Sequence[int], seats: Iterable[int], lightest: Lightness) -> int:
    """The seat with the lowest value; a tie goes to the lightest single tile (C2)."""
    lowest = lowest_seats(values, seats)
    return lowest[0] if len(lowest) == 1 else min(lowest, key=lightest)


def lightest_key(tiles: Iterable[Tile]) -> tuple[int, int]:
    """The C2 key of the lightest tile of a hand ((0, 0) for an empty hand)."""
    return min((lightness(tile) for tile in tiles), default=(0, 0))


def hand_pips(game: Game) -> list[int]:
    """Every seat's hand value (the variant's ``tile_value``), seat by seat."""
    return [game.hand_points_of(seat) for seat in range(game.players)]


def seat_lightness(game: Game) -> Lightness:
    """The reference game's :data:`Lightness`: the key of the seat's lightest tile in hand."""
    return lambda seat: lightest_key(game.hands[seat])


def highest_over(scores: list[int], target: int) -> tuple[bool, int | None]:
    """End-of-hand check: the highest score at or over the target wins; a tie plays on."""
    best = max(scores)
    if best < target:
        return False, None
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    return (True, leaders[0]) if len(leaders) == 1 else (False, None)


def round5(value: int) -> int:
    """Round to the nearest multiple of five (C10: 1-2 down, 3-4 up)."""
    return 5 * ((value + 2) // 5)


def result(game: Game, end: str, winner: int | None,
           points: Mapping[int, list[ScoreItem]] | None = None) -> HandResult:
    """A hand result from per-seat scoring items."""
    scoring: list[list[ScoreItem]] = [list((points or {}).get(seat, [])) for seat in range(game.players)]
    return HandResult(end, winner, [sum(item.points for item in items) for items in scoring], scoring)


def named_result(game: Game, end: str, winner: int | None, points: Sequence[int], name: str) -> HandResult:
    """A hand result where every seat's non-zero points are one item called ``name``."""
    return result(game, end, winner, {seat: [ScoreItem(name, value)] for seat, value in enumerate(points) if value})


def end_name(end: str) -> str:
    """The scoring item of a hand winner's bonus: ``domino`` or ``block``."""
    return "domino" if end == "domino" else "block"


def line_lead(rules: Rules, game: Game, setup: HandSetup, first_lead: str, lead_rule: str,
              top: int) -> tuple[int, int, frozenset[Tile] | None]:
    """Leads of Block, Draw and All Fives (BLK-3/4, A5-3/4).

    The first hand is called (N-N down, then the heaviest tile) unless ``first_lead`` leaves it
    to chance.  Later hands follow ``lead_rule``; a previous hand without a winner is called
    again under ``winner_any`` (A5-4).
    """
    seat = line_hand_leader(game, first_lead, lead_rule)
    if seat == BY_CHANCE:
        assert setup.leader is not None
        return setup.leader, setup.leader, None
    if seat is not None:
        rules.check_leader(setup, seat)
        return seat, seat, None
    seat, tile = call_lead(setup.deal, top)
    rules.check_leader(setup, seat)
    return seat, seat, frozenset({tile})


BY_CHANCE = -1  #: :func:`line_hand_leader`: chance picks the leader


def line_hand_leader(game: Game, first_lead: str, lead_rule: str) -> int | None:
    """Who leads the current hand of Block, Draw or All Fives: :data:`BY_CHANCE`, the seat that rotation or the
    previous hand's winner makes the leader, or ``None`` where the lead is called from the deal (:func:`call_lead`)."""
    number = game.hand.number
    if line_chance_leads(number, first_lead, lead_rule):
        return BY_CHANCE
    previous = game.log[-2] if number > 1 else None
    return line_leader(number, lead_rule, game.players, previous.leader if previous else 0,
                       previous.result.winner if previous is not None and previous.result else None)


def line_lead_caller(game: Game, first_lead: str, lead_rule: str, top: int) -> LeadCaller | None:
    """:meth:`Rules.lead_caller` of Block, Draw and All Fives: :func:`call_lead` where the current hand's lead is
    called from the deal."""
    if line_hand_leader(game, first_lead, lead_rule) is not None:
        return None
    return lambda deal: call_lead(deal, top)


def line_chance_leads(number: int, first_lead: str, lead_rule: str) -> bool:
    """Whether chance picks the leader of hand ``number`` of Block, Draw or All Fives (any tile)."""
    return (number == 1 and first_lead == "random_player_any_tile") or (number > 1 and lead_rule == "random")


def line_leader(number: int, lead_rule: str, players: int, previous_leader: int,
                previous_winner: int | None) -> int | None:
    """Who leads hand ``number`` of Block, Draw or All Fives with any tile when chance does not pick
    (BLK-4, A5-4): the seat left of the previous leader (``rotate``) or the previous hand's winner;
    ``None``: the lead is called (the first hand, or a hand after one without a winner: :func:`call_lead`)."""
    if number > 1 and lead_rule == "rotate":
        return (previous_leader + 1) % players
    if number > 1 and previous_winner is not None:
        return previous_winner
    return None


def sized_deal(deal_sizes: tuple[int, ...] | None, players: int, default: int, name: str) -> int:
    """The hand size from a ``deal_sizes`` option (one size, or one per count from 2 players)."""
    if deal_sizes is None:
        return default
    if len(deal_sizes) == 1:
        return deal_sizes[0]
    if players - 2 >= len(deal_sizes):
        raise OptionError(f"option 'deal_sizes' {'/'.join(map(str, deal_sizes))} gives no size for "
                          f"{players} players in {name} (list one size per count from 2 players)")
    return deal_sizes[players - 2]


def check_deal_fits(players: int, hand_size: int, tiles: int, deal_sizes: tuple[int, ...] | None) -> None:
    """Refuse hands that need more tiles than the set holds (only a ``deal_sizes`` option can ask for them)."""
    if hand_size * players > tiles:
        given = f"option 'deal_sizes' {'/'.join(map(str, deal_sizes))}: " if deal_sizes is not None else ""
        raise OptionError(f"{given}{players} hands of {hand_size} need more than the {tiles} tiles of the set")


def standard_deal_size(top: int, players: int, small: int) -> int:
    """Deal sizes of C13 for larger sets; ``small`` is the double-six size for 3-4 players."""
    if top == 9:
        return 7 if players <= 6 else 6
    if top == 12:
        return 9 if players <= 8 else 8
    return 7 if players == 2 else small


def set_player_range(top: int, high: int = 4, low: int = 2) -> tuple[int, int]:
    """Player counts with a double-``top`` set: the variant's own for double-six, else C13's."""
    return (low, {9: 8, 12: 10}.get(top, high))


def variant_row(cls: type[Rules]) -> dict[str, Any]:
    """A variant as ``boneyard variants --json`` and the web lobby list it: its names, its player counts with
    its default options (and, where it takes a ``set`` option, with each set: ``players_by_set``, e.g.
    ``{"9": [2, 8]}``) and its options."""
    low, high = cls(cls.min_players).player_range()
    options = [spec.as_json() for spec in specs(cls.Options)]
    row: dict[str, Any] = {"name": cls.name, "title": cls.title, "aliases": list(cls.aliases), "min_players": low,
                           "max_players": high, "options": options}
    sets = [top for spec in specs(cls.Options) if spec.name == "set" for top in spec.choices if isinstance(top, int)]
    if sets:
        row["players_by_set"] = {str(top): list(set_player_range(top, cls.max_players, cls.min_players))
                                 for top in sets}
    return row


def draw_in_turn(first: int, players: int, wanted: Iterable[bool]) -> tuple[int, int] | None:
    """Players draw in turn from seat ``first`` until a wanted tile turns up (DBG-4's double, PIP-6's
    starter).  ``wanted`` says of each tile the stock may give, in drawing order, whether it is one.  The
    number of draws and the seat that drew it; ``None``: the stock gives none."""
    seat = first
    for draws, hit in enumerate(wanted, 1):
        if hit:
            return draws, seat
        seat = (seat + 1) % players
    return None
