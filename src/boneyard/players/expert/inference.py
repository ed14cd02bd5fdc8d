"""What a seat can infer about the hidden tiles from everything public.

Tiles only leave a hand by being placed (public) or given (seen by giver and receiver), and
only arrive by being drawn or received.  So each other seat's hand is tracked as *groups* of
tiles that arrived together, each with the set of tiles it cannot contain:

* a seat that passed, or drew because it could not play, held no tile that was playable at
  that moment — every group it holds then excludes those tiles (the exact playable set is
  computed by the variant itself on the replayed table, so pending doubles, wild halves and
  play targets are all respected);
* where the rules call a hand's lead from the deal (the lowest double in Bergen, the highest double or heaviest
  tile of a called lead in Block, Draw and All Fives), the others were dealt nothing that would have called
  another lead: a Bergen lead of 3-3 says nobody was dealt 0-0, 1-1 or 2-2;
* a drawn or received tile starts a new group with no exclusions;
* a placed tile leaves the group it must have come from; when several groups could have held
  it they merge, keeping only the exclusions they share (never claiming more than is known).

A tile this seat gave away is known to be in the receiver's hand until it is placed.

:func:`infer` returns an :class:`Inference`: the unseen pool, the known holdings and the groups
of every other seat, plus :meth:`Inference.lacks` — "seat 1 cannot hold a 4".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boneyard.moves import Kind
from boneyard.players.expert.determinize import replay_public, rules_of
from boneyard.state import Game
from boneyard.tiles import Tile
from boneyard.view import PublicEvent, SeatView


@dataclass(slots=True)
class Group:
    """``count`` hidden tiles that arrived together; none of them is in ``excluded``.

    ``base`` marks the group holding the tiles dealt at the start (its count is then an offset
    from the unknown deal size, settled when the replay ends)."""

    count: int
    excluded: set[Tile] = field(default_factory=set)
    base: bool = False


@dataclass(slots=True)
class Inference:
    """The hidden-hand constraints of one seat's view."""

    seat: int
    tile_set: tuple[Tile, ...]
    unseen: list[Tile]  #: tiles in other hands or the stock, not known to be anywhere in particular
    known: list[list[Tile]]  #: per seat, tiles known to be in that hand (this seat's own hand included)
    groups: list[list[Group]]  #: per seat, the hidden groups (empty for this seat)
    stock_count: int
    public: Game  #: the public replay (hidden tiles are stand-ins)

    def excluded(self, seat: int) -> set[Tile]:
        """Tiles ``seat`` certainly does not hold (excluded by every one of its groups)."""
        groups = self.groups[seat]
        if not groups:
            return set(self.unseen)
        common = set(groups[0].excluded)
        for group in groups[1:]:
            common &= group.excluded
        return common

    def possible(self, seat: int) -> set[Tile]:
        """Unseen tiles that ``seat`` may hold, plus the ones it is known to hold."""
        return (set(self.unseen) - self.excluded(seat)) | set(self.known[seat])

    def lacks(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` certainly holds no tile showing ``suit`` (wild halves count as every suit)."""
        return not any(tile.has(suit) or tile.is_wild for tile in self.possible(seat))


class _Tracker:
    """The observer of the public replay that builds the groups."""

    def __init__(self, view: SeatView, tile_set: tuple[Tile, ...]) -> None:
        self.me = view.seat
        self.tile_set = tile_set
        self.groups: list[list[Group]] = [[Group(0, base=True)] if s != view.seat else [] for s in range(view.players)]
        self.known: list[list[Tile]] = [[] for _ in range(view.players)]
        self.draw_shows_lack = rules_of(view).draw_shows_lack()

    def __call__(self, game: Game, event: PublicEvent) -> None:
        seat, move = event.seat, event.move
        if move.kind == Kind.LEAD and move.tile is not None and not game.layout.tiles:
            self._read_lead(game, seat, move.tile)
        if seat == self.me:
            if move.kind == Kind.GIVE and move.tile is not None:
                self.known[game.next_seat(seat)].append(move.tile)
            return
        kind = move.kind
        if kind == Kind.PASS or (kind == Kind.DRAW and not game.forced_draw):
            on_table = {placed.tile for placed in game.layout.tiles}
            candidates = [tile for tile in self.tile_set if tile not in on_table]
            playable = {play.tile for play in game.plays(candidates) if play.tile is not None}
            if kind == Kind.DRAW and not self.draw_shows_lack:
                playable = set()  # drawing while able to play is allowed: the draw says nothing
            for group in self.groups[seat]:
                group.excluded |= playable
        if kind == Kind.DRAW:
            self.groups[seat].append(Group(1))
        elif kind <= Kind.PLAY and move.tile is not None:
            self._remove(seat, move.tile)
        elif kind == Kind.GIVE:
            receiver = game.next_seat(seat)
            if move.tile is not None:  # this seat received it and knows the tile
                self._remove(seat, move.tile)
            else:
                self._lose_unknown(seat)
                if receiver != self.me:
                    self.groups[receiver].append(Group(1))

    def _read_lead(self, game: Game, leader: int, lead: Tile) -> None:
        """A lead the rules called from the deal (:meth:`~boneyard.rules.base.Rules.lead_caller`): each other seat
        was dealt no tile with which the rules would have called another lead — asked of the rules on the deal
        where the leader holds the lead and that seat the tile (the calls are by the highest or lowest tile of a
        kind, so what the others held besides cannot change the answer)."""
        caller = game.rules.lead_caller(game)
        if caller is None:
            return
        for seat, groups in enumerate(self.groups):
            base = next((group for group in groups if group.base), None)
            if seat == self.me or base is None:
                continue
            for tile in self.tile_set:
                if tile == lead:
                    continue
                deal: list[list[Tile]] = [[] for _ in self.groups]
                deal[leader].append(lead)
                deal[seat].append(tile)
                if caller(deal) != (leader, lead):
                    base.excluded.add(tile)

    def _remove(self, seat: int, tile: Tile) -> None:
        if tile in self.known[seat]:
            self.known[seat].remove(tile)
            return
        groups = self.groups[seat]
        # a drawn or received group whose tiles have all been played holds nothing more: it cannot be the source
        holding = [group for group in groups if group.base or group.count > 0] or list(groups)
        eligible = [group for group in holding if tile not in group.excluded] or holding
        if len(eligible) > 1:
            merged = self._merge(eligible)
            groups = [group for group in groups if group not in eligible] + [merged]
            eligible = [merged]
        eligible[0].count -= 1
        self.groups[seat] = [group for group in groups if group.base or group.count > 0]

    def _lose_unknown(self, seat: int) -> None:
        """A seat gave a tile this seat did not see: it may have come from anything it held."""
        groups = self.groups[seat]
        merged = self._merge(groups) if groups else Group(0, base=True)
        merged.count += len(self.known[seat]) - 1
        self.known[seat] = []
        self.groups[seat] = [merged]

    @staticmethod
    def _merge(groups: list[Group]) -> Group:
        excluded = set(groups[0].excluded)
        for group in groups[1:]:
            excluded &= group.excluded
        return Group(sum(g.count for g in groups), excluded, any(g.base for g in groups))


def infer(view: SeatView) -> Inference:
    """The constraints on every hidden hand, from ``view`` alone."""
    rules = rules_of(view)
    tile_set = rules.tile_set()
    on_table = {placed.tile for placed in view.layout.tiles}
    mine = set(view.hand)
    candidates = [tile for tile in tile_set if tile not in on_table]
    tracker = _Tracker(view, tile_set)
    public = replay_public(view, tracker)
    sizes = view.hand_sizes
    known = tracker.known
    known[view.seat] = list(view.hand)
    held = {tile for hand in known for tile in hand}
    unseen = [tile for tile in candidates if tile not in mine and tile not in held]
    groups = tracker.groups
    for seat in range(view.players):
        if seat == view.seat:
            continue
        seat_groups = [group for group in groups[seat] if group.count or group.base]
        base = next((group for group in seat_groups if group.base), None)
        hidden = sizes[seat] - len(known[seat])
        if base is None:
            base = Group(0, base=True)
            seat_groups.append(base)
        base.count += hidden - sum(group.count for group in seat_groups)
        for group in seat_groups:
            group.excluded &= set(unseen)
        groups[seat] = [group for group in seat_groups if group.count > 0]
    return Inference(view.seat, tile_set, unseen, known, groups, view.stock_count, public)
