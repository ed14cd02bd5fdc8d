"""The expert plays for its side in partnership Block (RULES.md C12), under the rule in force.

Positions late in a hand where the seat can list every deal of the hidden tiles consistent with
what it has seen; the expert then searches all of them (exactly), so its choice does not depend
on sampling luck, and the tests hold for any seed.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

from boneyard import Game, Move
from boneyard.players.base import make_player
from boneyard.players.expert.search import Search
from boneyard.view import SeatView
from tests.helpers import play, start_exact

start = partial(start_exact, "block")

#: seat 0 to play on ends 3 and 2, holding 5-4 5-3 4-3; its partner (seat 2) is down to one tile.
#: 3-4 keeps seat 0's own suits (the heuristic's choice, and the best move for seat 0 alone), but
#: 3-5 forces seat 1 to play his 5-1, and the 1 it opens is the partner's last tile (1-0): the side
#: dominoes.  Every deal seat 0 cannot tell apart agrees.
FEED_THE_PARTNER = (["6-5 5-4 5-3 4-3 4-1 3-3 0-0", "6-2 5-5 5-1 4-4 4-0 2-1 1-1",
                     "6-6 6-4 6-3 6-0 5-0 2-0 1-0", "6-1 5-2 4-2 3-2 3-1 3-0 2-2"],
                    "6-6 6-1@1 6-5@1 5-5@3 5-0@4 1-3@2 3-3@6 0-4@5 4-6@8 3-2@7 pass 6-2@9 2-0@10 2-2@11 "
                    "0-0@12 2-1@13 0-6@14 pass 1-4@15 4-4@17 6-3@16 4-2@18")


def position(example: tuple[list[str], str], rule: str) -> Game:
    hands, moves = example
    game = start(4, hands, partnerships=True, partnership_block=rule)
    play(game, moves)
    return game


@pytest.mark.parametrize("rule", ["side_total", "lowest_hand"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_expert_opens_the_way_for_its_partners_last_tile(rule: str, seed: int) -> None:
    game = position(FEED_THE_PARTNER, rule)
    view = SeatView(game, 0)
    assert game.hands[2] == [Move.parse("1-0").tile]
    assert make_player("heuristic").choose(view) == Move.parse("3-4@19")
    assert make_player("expert:samples=40", seed=seed).choose(view) == Move.parse("3-5@19")
    search = Search(view, random.Random(seed))
    assert search.deals is not None and len(search.deals) >= 2  # more than one deal: it infers, not peeks
