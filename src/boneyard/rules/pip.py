"""PIP (RULES.md §8): the 70-tile double-nine special set with wild and directional tiles.

Nine rounds; round *r* is started with the double *r-r* (the double-wild ``W-W`` stands in for
it when *r-r* was not dealt).  The starter is a four-way hub whose long sides fill first; every
other double, ``W-W`` included, opens three toes that the next three plays in the game must
cover (``Game.pending`` keeps the owed doubles as a stack, newest last).  Wild halves match any
number; the directional tiles skip (``S``), reverse (``R``), give another turn (``A``) or make
the next player draw (``D``).  A player who cannot play draws one tile and passes if it does not
fit.  Tiles left in hand count against their holder (pips; 20 + n for ``W-n``; 50 for ``W-W``;
45 or 25 for a directional tile); the round winner takes 10 off, never going below 0, and the
lowest total after nine rounds wins.

The scorekeeper is seat 0 (who sits there is the players' choice).  It matters only when neither
starter was dealt: the scorekeeper, then each player clockwise, draws from the stock until one
appears.  That search is part of setting the hand up, not a move (RECORD.md); the hand's first
move is the starter itself, and the hand's ``leader`` is the seat that places it — determined
by the deal and the stock, never by chance.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from boneyard.layout import Face, Layout, Placed, Role
from boneyard.options import option
from boneyard.rules.base import Rules, SetupError, draw_in_turn, hand_pips, lowest_seats, register, result
from boneyard.state import ONE_THEN_PASS, Game, HandResult, HandSetup, ScoreItem
from boneyard.tiles import A, R, S, Tile, W, pip_set

ROUNDS: Final = 9
TOE_PLAYS: Final = 3  #: plays a PIP double is owed (PIP-11)
WINNER_REDUCTION: Final = 10  #: taken off the round winner's total (PIP-19)
SINGLE_WILD_BASE: Final = 20  #: a W half counts 20 in hand (PIP-18)
DOUBLE_WILD_VALUE: Final = 50


@dataclass(frozen=True, slots=True)
class PipOptions:
    open_wild_end: Literal["matches_anything", "declared_on_play"] = option(
        "matches_anything",
        "an outward W half takes any tile; declared_on_play (the player names its number) is not "
        "supported: move notation has no place for the declaration",
        withheld={"declared_on_play": "is not supported; a play is written J-O@k (docs/record.md) and has no place to "
                                      "name the number a wild half stands for, so such a game could not be "
                                      "recorded or replayed (use 'matches_anything')"})
    letter_end: Literal["closed", "open_wild"] = option(
        "closed", "the outward letter half of a directional tile takes no tile, or acts as an open wild end")
    nested_double: Literal["stack", "forbid"] = option(
        "stack", "a double played on a pending double's toe: finish the newer double first, or not allowed")
    draw_tile_skips: bool = option(
        False, "the player a D tile makes draw (or who is handed a tile) also loses that turn")
    two_player_reverse_skips: bool = option(
        False, "with 2 players an R tile lets its player go again (otherwise R changes nothing)")
    directional_value: Literal[45, 25] = option(
        45, "what a directional tile left in hand counts: 25 for the letter + 20 for the wild half, or 25")


SCOREKEEPER: Final = 0  #: the seat that starts the starter search (PIP-3)


def pip_value(tile: Tile, directional: int = 45) -> int:
    """What ``tile`` counts when left in hand (PIP-18)."""
    if tile.letter is not None:
        return directional
    if tile.high == W:
        return DOUBLE_WILD_VALUE if tile.low == W else SINGLE_WILD_BASE + tile.low
    return tile.pips


def pip_hand_end(end: str, seat: int | None, held: Sequence[int], scores: Sequence[int]) -> tuple[int | None, int]:
    """The round winner (the one who went out; a blocked round has none, PIP-17) and the reduction
    taken off his total (PIP-19: 10, never below 0).  Every seat adds ``held``, its hand's value."""
    if end != "domino" or seat is None:
        return None, 0
    return seat, min(WINNER_REDUCTION, scores[seat] + held[seat])


def pip_game_over(scores: Sequence[int], round_number: int, hand_ended: bool) -> tuple[bool, int | None]:
    """After round nine the lowest total wins; equal lowest totals share the win (no single winner)."""
    if not hand_ended or round_number < ROUNDS:
        return False, None
    winners = lowest_seats(scores)
    return True, winners[0] if len(winners) == 1 else None


Owed = tuple[tuple[int, int], ...]  #: owed doubles, oldest first: (table tile, plays still owed)


def settle_doubles(pending: Owed, parent: int, placed: int, owes: bool) -> Owed:
    """The owed doubles after tile ``placed`` joined tile ``parent`` (PIP-11, PIP-12): a play on the
    newest owed double's toes counts against it, and a new double (``owes``) is owed three plays."""
    if pending and parent == pending[-1][0]:
        index, owed = pending[-1]
        pending = pending[:-1] + (((index, owed - 1),) if owed > 1 else ())
    if owes:
        pending += ((placed, TOE_PLAYS),)
    return pending


def directional_effect(letter: int, seat: int, players: int, direction: int, stock_left: int,
                       two_player_reverse_skips: bool) -> tuple[int, int, bool, bool]:
    """What a directional tile does once placed (PIP-16): the seat on turn next, the direction of play,
    whether that seat must first draw (D with stock left) and whether the player must give (D on an
    empty stock)."""
    following = (seat + direction) % players
    if letter == S:
        return (seat + 2 * direction) % players, direction, False, False
    if letter == R:
        if players == 2 and two_player_reverse_skips:
            return seat, -direction, False, False
        return (seat - direction) % players, -direction, False, False
    if letter == A:
        return seat, direction, False, False
    if stock_left > 0:  # D
        return following, direction, True, False
    return seat, direction, False, True


def round_starter(number: int) -> Tile:
    """The double that starts round ``number`` (1-9)."""
    return Tile(number, number)


def starter_holder(holds: Sequence[Sequence[bool]]) -> tuple[int, int] | None:
    """PIP-6: who places the starter, from ``holds[c][seat]`` (whether ``seat`` was dealt candidate
    ``c``: 0 the round's double r-r, 1 W-W): the holder of r-r, else the holder of W-W, as
    ``(seat, c)``; ``None``: neither was dealt (they draw for one: :func:`starter_drawer`)."""
    for candidate, held in enumerate(holds):
        for seat, has in enumerate(held):
            if has:
                return seat, candidate
    return None


def starter_drawer(players: int, drawn_starters: Iterable[bool]) -> tuple[int, int] | None:
    """PIP-6 when neither r-r nor W-W was dealt: the scorekeeper and then each player clockwise draw
    until one turns up, which its drawer places.  ``drawn_starters`` says of each stock tile, in drawing
    order, whether it is r-r or W-W.  The number of draws and the seat that drew the starter;
    ``None``: the stock holds neither."""
    return draw_in_turn(SCOREKEEPER, players, drawn_starters)


@register
class Pip(Rules):
    """PIP: nine rounds with the 70-tile set; lowest total wins."""

    name = "pip"
    aliases = ("pip-dominoes",)
    title = "PIP (double-nine with wild and directional tiles)"
    Options = PipOptions
    options: PipOptions
    min_players = 2
    max_players = 7
    draw_mode = ONE_THEN_PASS
    lower_score_wins = True
    hands_in_game = ROUNDS

    def configure(self) -> None:
        opts = self.options
        directional = opts.directional_value
        self.tile_value = lambda tile: pip_value(tile, directional)
        self.forced_draw_ends_turn = opts.draw_tile_skips
        self.allows_play = self._no_nested_double if opts.nested_double == "forbid" else None

    def tile_set(self) -> tuple[Tile, ...]:
        return pip_set()

    def deal_size(self) -> int:
        return 15 if self.players == 2 else 9

    def new_layout(self) -> Layout:
        return Layout(sides_first=True, letter_ends_open=self.options.letter_end == "open_wild")

    # ------------------------------------------------------------ setting the starter (PIP-3..7)
    def open_hand(self, game: Game, setup: HandSetup) -> tuple[int, int, frozenset[Tile] | None]:
        starters = (round_starter(game.hand.number), Tile(W, W))  # r-r has priority over W-W (PIP-6)
        held = starter_holder([[starter in tiles for tiles in game.hands] for starter in starters])
        if held is not None:
            seat, candidate = held
            self.check_leader(setup, seat)
            return seat, seat, frozenset({starters[candidate]})
        found = starter_drawer(self.players, [tile in starters for tile in game.stock[game.stock_pos:]])
        if found is None:  # pragma: no cover - the set holds both
            raise SetupError(f"neither {starters[0]} nor {starters[1]} is in the deal or the stock")
        draws, seat = found
        tile = None
        for draw in range(draws):
            tile = game.setup_draw((SCOREKEEPER + draw) % self.players)
        assert tile is not None
        self.check_leader(setup, seat)
        return seat, seat, frozenset({tile})

    # ------------------------------------------------------------ play
    def lead_value(self, game: Game, tile: Tile) -> int | None:
        return game.hand.number if tile.high == W else None

    def double_role(self, game: Game, tile: Tile, is_lead: bool) -> Role:
        return Role.HUB if is_lead else Role.TOES

    def play_target(self, game: Game) -> int:
        return game.pending[-1][0] if game.pending else 0

    def target_reason(self, game: Game, target: int) -> str:
        owed = game.pending[-1][1]
        double = game.layout[target].tile
        plays = "play" if owed == 1 else f"{owed} plays"
        return (f"a double is owed: the next {plays} must go on the toes of tile {target} ({double}), "
                "with its number or a wild half")

    def _no_nested_double(self, game: Game, tile: Tile, half: int, face: Face) -> bool:
        """``nested_double="forbid"``: no double on the toes of a pending double."""
        return not (tile.is_double and game.pending)

    def refusal_reason(self, game: Game, tile: Tile, half: int, target: int) -> str | None:
        if self.allows_play is not None and tile.is_double and game.pending:
            return (f"a double may not be played on the toes of a pending double (tile {target}, "
                    f"{game.layout[target].tile}) under nested_double=forbid")
        return None

    def advance(self, game: Game, seat: int, placed: Placed) -> None:
        game.pending = settle_doubles(game.pending, placed.parent, placed.index, placed.role == Role.TOES)
        letter = placed.tile.letter
        if letter is None:
            game.turn = game.next_seat(seat)
            return
        game.turn, game.direction, game.forced_draw, game.give_pending = directional_effect(
            letter, seat, game.players, game.direction, game.stock_left, self.options.two_player_reverse_skips)

    # ------------------------------------------------------------ end of round and game (PIP-17..20)
    def blocked_rule(self) -> str:
        return "nobody wins the round; every hand's value is added to its holder's total"

    def end_hand(self, game: Game, end: str, seat: int | None) -> HandResult:
        held = hand_pips(game)
        winner, reduction = pip_hand_end(end, seat, held, game.scores)
        points: dict[int, list[ScoreItem]] = {player: [ScoreItem("hand", value)] if value else []
                                              for player, value in enumerate(held)}
        if winner is not None and reduction:
            points[winner].append(ScoreItem("winner", -reduction))
        return result(game, end, winner, points)

    def game_over(self, game: Game, hand_ended: bool) -> tuple[bool, int | None]:
        return pip_game_over(game.scores, game.hand.number, hand_ended)

    def game_winners(self, winner: int | None, scores: Sequence[int]) -> tuple[int, ...]:
        """The seats with the lowest total (PIP-20: equal lowest totals share the win; ``Game.winner`` is None)."""
        return (winner,) if winner is not None else tuple(lowest_seats(scores))
