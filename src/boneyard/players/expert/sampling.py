"""Deals of the hidden tiles that agree with an :class:`~.inference.Inference`.

Each other seat's groups are filled from the unseen pool with tiles the group does not
exclude, most constrained group first, at random; what is left is the stock, shuffled (its
order is hidden, so any order is as likely as another).  A fill that runs dry is retried a
few times; if the constraints still cannot be met (they are sound, so this means a rare
over-tight combination), the exclusions of the tightest group are dropped one at a time so a
deal is always returned.

:func:`all_deals` lists every consistent deal instead, where there are few enough to search them all.
"""

from __future__ import annotations

import itertools
import math
import random

from boneyard.players.expert.inference import Group, Inference
from boneyard.tiles import Tile

ATTEMPTS = 24


#: the groups to fill as (seat, group), and the order they are filled in (indices into them)
Plan = tuple[list[tuple[int, Group]], list[int]]


def fill_plan(info: Inference) -> Plan:
    """The groups of ``info`` and their fill order, most constrained first: the same for every deal of
    ``info``, so a search that samples many works it out once (:func:`sample_deal`'s ``plan``)."""
    slots: list[tuple[int, Group]] = [(seat, group) for seat, groups in enumerate(info.groups) for group in groups]
    return slots, sorted(range(len(slots)), key=lambda i: (_room(info, slots[i][1]), i))


def sample_deal(info: Inference, rng: random.Random, plan: Plan | None = None) -> tuple[list[list[Tile]], list[Tile]]:
    """Every seat's hand (this seat's as it is) and a stock order, consistent with ``info`` (``plan``:
    :func:`fill_plan` of ``info``, worked out here if not given)."""
    slots, order = plan if plan is not None else fill_plan(info)
    relaxed: set[int] = set()
    for attempt in range(ATTEMPTS * 2):
        if attempt >= ATTEMPTS:
            relaxed.add(min((i for i in range(len(slots)) if i not in relaxed),
                            key=lambda i: _room(info, slots[i][1]), default=-1))
        deal = _try(info, slots, order, relaxed, rng)
        if deal is not None:
            return deal
    raise AssertionError("no deal found even without exclusions")  # pragma: no cover


def _room(info: Inference, group: Group) -> int:
    return sum(1 for tile in info.unseen if tile not in group.excluded) - group.count


def _try(info: Inference, slots: list[tuple[int, Group]], order: list[int], relaxed: set[int],
         rng: random.Random) -> tuple[list[list[Tile]], list[Tile]] | None:
    pool = list(info.unseen)
    rng.shuffle(pool)
    hands = [list(known) for known in info.known]
    for index in order:
        seat, group = slots[index]
        excluded = set() if index in relaxed else group.excluded
        chosen = [tile for tile in pool if tile not in excluded][:group.count]
        if len(chosen) < group.count:
            return None
        taken = set(chosen)
        pool = [tile for tile in pool if tile not in taken]
        hands[seat].extend(chosen)
    if len(pool) != info.stock_count:
        raise AssertionError(f"{len(pool)} tiles left for a stock of {info.stock_count}")
    return hands, pool


def all_deals(info: Inference, limit: int) -> list[tuple[list[list[Tile]], list[Tile]]] | None:
    """Every deal consistent with ``info`` (the stock in one order), or ``None`` if there are more than ``limit``.

    Meant for positions where the stock's order cannot matter (nothing can be drawn): each deal of the
    hidden hands is then equally likely, and searching them all replaces sampling by the exact expectation."""
    slots = [(seat, group) for seat, groups in enumerate(info.groups) for group in groups]
    bound = 1
    for _, group in slots:
        bound *= math.comb(sum(1 for tile in info.unseen if tile not in group.excluded), group.count)
        if bound > limit * 8:  # the exclusions may cut it down, but not by enough to be worth trying
            return None
    deals: list[tuple[list[list[Tile]], list[Tile]]] = []

    def fill(index: int, pool: list[Tile], hands: list[list[Tile]]) -> bool:
        if index == len(slots):
            if len(deals) >= limit:
                return False
            deals.append(([list(hand) for hand in hands], list(pool)))
            return True
        seat, group = slots[index]
        allowed = [tile for tile in pool if tile not in group.excluded]
        for chosen in itertools.combinations(allowed, group.count):
            taken = set(chosen)
            hands[seat].extend(chosen)
            more = fill(index + 1, [tile for tile in pool if tile not in taken], hands)
            del hands[seat][len(hands[seat]) - group.count:]
            if not more:
                return False
        return True

    complete = fill(0, list(info.unseen), [list(known) for known in info.known])
    return deals if complete and deals else None
