"""One computer-only game on either engine: what ``simulate`` and ``tournament`` play.

:func:`play_game` plays a whole game from a seed with one player per seat.  On the fast engine
(:class:`~boneyard.fast.FastGame`, chosen whenever :func:`boneyard.fast.unsupported` finds nothing
missing) the players that can choose on it directly (``random`` and ``greedy``: their
``choose_action(game)``, :func:`~boneyard.players.base.fast_chooser`) do so; any other player (heuristic, expert,
a ``module:function``, a subclass of random or greedy) gets a
:class:`~boneyard.view.SeatView` of a reference :class:`~boneyard.state.Game` that follows the fast
game move for move.  Either way the game is dealt by the same :class:`~boneyard.chance.Chance`, so a
seed plays the same game, with the same result, on both engines (``tests/test_sim_engines.py``).
When every seat is ``random`` and the compiled kernel plays the rules (every line game on sets up to
double-nine, and PIP), each hand is played whole in the kernel (``FastGame.finish_as_random`` with the
players' own streams: the same hand the Python loop plays); Python only deals the hand and scores its end,
the Bergen family's plays score by tables Python fills from the rule functions, and PIP's owed doubles and
directional tiles act by such tables too.

``engine="reference"`` forces the reference engine (for comparisons and benchmarks);
``engine="fast"`` refuses a variant or option the fast engine does not play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, cast

from boneyard.chance import Chance, Deal
from boneyard.errors import BoneyardError, OptionError
from boneyard.fast import FastGame, unsupported
from boneyard.moves import Kind, Move
from boneyard.players.base import Player, RandomPlayer, fast_chooser
from boneyard.rules.base import Rules, make_rules
from boneyard.state import Event, Game, HandSetup
from boneyard.view import SeatView

ENGINES: tuple[str, ...] = ("auto", "fast", "reference")


@dataclass(slots=True)
class Played:
    """What one finished game came to."""

    winner: int | None
    scores: list[int]
    winners: tuple[int, ...]  #: who won (Rules.game_winners): a side, PIP's shared lowest totals, or nobody
    hands: int
    blocked_hands: int
    placements: int
    moves: int
    engine: str  #: "fast" or "reference": the engine that played it


_RULES: dict[str, Rules] = {}


def rules_for(variant: str, players: int, options: Mapping[str, object] | None = None) -> Rules:
    """The rules of a series of games, built once per process (parsing options takes about a
    millisecond, as long as a whole 2-player Block game on the fast engine)."""
    key = repr((variant, players, sorted((options or {}).items())))
    rules = _RULES.get(key)
    if rules is None:
        rules = make_rules(variant, players, options)
        # a set is a tuple of interned tiles: build it once, not on every deal (a third of a deal's time)
        tiles = rules.tile_set()
        setattr(rules, "tile_set", lambda: tiles)  # noqa: B010
        _RULES[key] = rules
    return rules


def check_engine(engine: str) -> None:
    """Refuse an unknown engine name with a one-line error."""
    if engine not in ENGINES:
        raise OptionError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")


def engine_for(rules: Rules, engine: str = "auto") -> str:
    """The engine that plays ``rules``: ``fast`` where it plays every option, else ``reference``.
    ``engine="fast"`` raises :class:`~boneyard.errors.OptionError` where the fast engine cannot."""
    check_engine(engine)
    if engine == "reference":
        return "reference"
    missing = unsupported(rules)
    if not missing:
        return "fast"
    if engine == "fast":
        raise OptionError(f"the fast engine does not play {', '.join(missing)} ({rules.name}); "
                          "use --engine auto or reference")
    return "reference"


#: hands a game may take per point of its target (and at least :data:`MIN_HAND_LIMIT`) before it is given up
HANDS_PER_POINT: Final = 100
MIN_HAND_LIMIT: Final = 10_000


def hand_limit(rules: Rules) -> int:
    """The hands after which a simulated game is given up as one that never ends.  The rules set no such limit,
    but some options can make a game endless (All Fives where each hand's end takes each seat's own pips off its
    score, with hands of two tiles: the scores never climb to the target), and a simulation must not run forever.
    A game plays far fewer hands than its target's points (a hand scores some points or a block), so the limit
    is 100 hands a point: 25,000 for All Fives to 250."""
    target = getattr(rules, "target", None)
    points = target if isinstance(target, int) and not isinstance(target, bool) else 0
    return max(MIN_HAND_LIMIT, HANDS_PER_POINT * points, (rules.hands_in_game or 0) + 1)


def endless(rules: Rules, seed: int, hands: int, scores: Sequence[int]) -> BoneyardError:
    """The error of a game that reached :func:`hand_limit` without ending."""
    target = getattr(rules, "target", None)
    return BoneyardError(f"the {rules.name} game dealt from seed {seed} was still going after {hands:,} hands "
                         f"(scores {', '.join(map(str, scores))}; target {target}): with these options it may "
                         "never end, so it was given up; choose options that let a side reach the target")


def play_game(rules: Rules, seed: int, players: Sequence[Player], engine: str = "auto") -> Played:
    """Play a whole game dealt from ``Chance(seed)``; seat ``s`` is played by ``players[s]``."""
    if engine_for(rules, engine) == "fast":
        return _play_fast(rules, seed, players)
    return _play_reference(rules, seed, players)


def reference_game(rules: Rules, seed: int, players: Sequence[Player], names: Sequence[str] | None = None) -> Game:
    """A whole game dealt from ``Chance(seed)`` on the reference engine, played to its end (for its record)."""
    game = Game(rules, list(names) if names else None, chance=Chance(seed))
    views = [SeatView(game, seat) for seat in range(rules.players)]
    limit = hand_limit(rules)
    while not game.finished:
        if not game.in_hand:
            if len(game.log) >= limit:
                raise endless(rules, seed, len(game.log), game.scores)
            game.next_hand()
            continue
        seat = game.turn
        play_choice(game, players[seat].choose(views[seat]), seed)
    return game


def play_choice(game: Game, move: object, seed: int) -> Event:
    """Apply the move a player chose for the seat on turn, refusing one the rules do not allow (a player of one's
    own, ``module:function``, may return anything) with an error that says which game, which seat and why."""
    seat = game.turn
    try:
        if not isinstance(move, (Move, str)):
            raise BoneyardError(f"{move!r} is no move (a player's choose(view) returns a Move from "
                                "view.legal_moves())")
        return game.apply(move)
    except BoneyardError as error:
        raise BoneyardError(f"the {game.rules.name} game dealt from seed {seed}, hand {len(game.log)}: the player "
                            f"in seat {seat} chose a move the rules refuse: {error}") from None


def played_of(game: Game) -> Played:
    """What a finished reference game came to."""
    events = [event for log in game.log for event in log.events]
    blocked = sum(log.result is not None and log.result.end == "blocked" for log in game.log)
    winners = game.rules.game_winners(game.winner, game.scores)
    return Played(game.winner, list(game.scores), winners, len(game.log), blocked,
                  sum(event.move.kind <= Kind.PLAY for event in events), len(events), "reference")


def _play_reference(rules: Rules, seed: int, players: Sequence[Player]) -> Played:
    return played_of(reference_game(rules, seed, players))


class _Between:
    """What :meth:`Chance.deal` reads of a game between hands: its rules and how many hands were dealt."""

    __slots__ = ("in_hand", "log", "rules")

    def __init__(self, rules: Rules, hands: int) -> None:
        self.rules = rules
        self.log = range(hands)
        self.in_hand = False


def deal_hand(game: FastGame, chance: Chance) -> Deal:
    """Deal ``game``'s next hand from ``chance`` exactly as the reference game would (tile indices)."""
    deal = chance.deal(cast(Game, _Between(game.rules, game.hand_number)))
    game.start_hand(deal.hands, deal.stock, deal.leader, deal.dice)
    return deal


def deal_next(game: FastGame, chance: Chance) -> HandSetup:
    """Deal ``game``'s next hand from ``chance`` exactly as the reference game would; the setup."""
    return chance.hand_setup(game.rules, deal_hand(game, chance))


#: a fast game per rules object, idle between games (building one costs as much as a hand)
_IDLE: dict[int, tuple[Rules, FastGame]] = {}


def _fast_game(rules: Rules) -> FastGame:
    """A fast game of ``rules`` at its start: an idle one reset, or a new one.  A game in use is out
    of :data:`_IDLE`, so a game played inside another (or in another thread) gets its own."""
    idle = _IDLE.pop(id(rules), None)
    if idle is None or idle[0] is not rules:
        return FastGame(rules, deal=False)
    idle[1].reset()
    return idle[1]


def _play_fast(rules: Rules, seed: int, players: Sequence[Player]) -> Played:
    game = _fast_game(rules)
    try:
        return _play_fast_game(game, rules, seed, players)
    finally:
        if len(_IDLE) >= 8:  # a caller that builds new rules for every game keeps no more than a few
            _IDLE.clear()
        _IDLE[id(rules)] = (rules, game)


def _play_fast_game(game: FastGame, rules: Rules, seed: int, players: Sequence[Player]) -> Played:
    chance = Chance(seed)
    choosers = [fast_chooser(player) for player in players]
    # every seat random: whole hands in the compiled kernel, from the players' own streams
    streams = [player.stream for player in players if type(player) is RandomPlayer]
    whole_hands = len(streams) == rules.players and game.kernel_plays
    # seats that decide from a view follow the game on a reference copy, move for move
    shadow = Game(rules) if None in choosers else None
    views = [SeatView(shadow, seat) for seat in range(rules.players)] if shadow is not None else []
    placements = moves = blocked = 0
    apply = game.apply
    limit = hand_limit(rules)
    while not game.finished:
        if game.hand_number >= limit:
            raise endless(rules, seed, game.hand_number, game.scores)
        deal = deal_hand(game, chance)
        if whole_hands:
            moves += game.finish_as_random(streams)
        if shadow is not None:
            shadow.start_hand(chance.hand_setup(rules, deal))
        while game.in_hand:
            seat = game.turn
            choose = choosers[seat]
            if choose is not None:
                action = choose(game)
                if shadow is not None:
                    shadow.apply(game.to_move(action))
            else:
                assert shadow is not None
                # the reference game checks the move before the fast game, which trusts its actions, takes it
                action = game.from_move(play_choice(shadow, players[seat].choose(views[seat]), seed).move)
            apply(action)
            moves += 1
        placements += game.placed
        blocked += game.last_end == "blocked"
    winners = rules.game_winners(game.winner, game.scores)
    return Played(game.winner, list(game.scores), winners, game.hand_number, blocked, placements, moves,
                  "fast")

