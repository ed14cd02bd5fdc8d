"""Partnership Block's blocked-hand rule (RULES.md C12, ``partnership_block``) on both engines.

``side_total`` (the default): the side whose two hands hold fewer pips wins a blocked hand.
``lowest_hand``: the side of the single player holding the fewest pips; a tie between players of
both sides scores nothing, a tie between partners goes to their side.  Either way the winning
side scores the pips of all four hands.
"""

from __future__ import annotations

from functools import partial

import pytest

from boneyard import Game, OptionError, make_rules
from boneyard.fast import FastGame
from boneyard.record import replay, to_record
from boneyard.rules.block import partnership_blocked_side
from tests.helpers import pips, play, start_exact

start = partial(start_exact, "block")

#: blocked with pips 23, 8, 5, 6: seats 1+3 hold fewer together (14 against 28), seat 2 holds the fewest alone
SPLIT = (["5-5 5-4 5-2 4-0 3-1 2-0 1-0", "6-5 6-4 6-0 5-3 4-4 4-3 0-0",
          "6-3 6-1 5-1 5-0 4-2 4-1 3-2", "6-6 6-2 3-3 3-0 2-2 2-1 1-1"],
         "6-6 pass 6-5@1 5-1@2 6-2@1 1-3@3 3-4@5 4-2@6 2-1@4 1-0@8 0-0@9 2-3@7 3-0@11 0-2@12 0-6@10 "
         "6-1@14 2-2@13 2-5@16 5-3@17 3-6@18 1-1@15 pass 6-4@19 4-1@21 pass pass pass pass")
#: blocked with pips 19, 18, 18, 27: seats 0+2 hold fewer together (37 against 45), seats 1 and 2 tie alone
TIED = (["6-1 4-2 3-0 3-3 6-3 4-1 3-2", "0-0 6-5 2-2 5-2 1-0 5-1 6-0",
         "4-0 5-4 6-6 3-1 2-1 4-4 1-1", "2-0 4-3 5-3 5-5 6-4 6-2 5-0"],
        "6-6 6-2@1 2-4@2 6-0@1 4-4@3 4-6@5 6-3@6 0-0@4 3-1@7 0-5@8 1-6@9 5-6@10 pass pass pass pass")
Example = tuple[list[str], str]


@pytest.mark.parametrize(("pip_totals", "side_total", "lowest_hand"), [
    ((23, 8, 5, 6), 1, 0),      # the split example: two sides, two answers
    ((19, 18, 18, 27), 0, None),  # fewest held by seats of both sides: nobody under lowest_hand
    ((4, 9, 4, 2), 0, 1),       # seat 3 alone holds the fewest
    ((3, 10, 3, 5), 0, 0),      # the two partners tie for the fewest: their side
    ((10, 5, 5, 10), None, None),  # level sides, and a tie across the sides
])
def test_the_blocked_side_under_each_rule(pip_totals: tuple[int, ...], side_total: int | None,
                                          lowest_hand: int | None) -> None:
    assert partnership_blocked_side(pip_totals, "side_total") == side_total
    assert partnership_blocked_side(pip_totals, "lowest_hand") == lowest_hand


def reference(example: Example, rule: str) -> Game:
    hands, moves = example
    game = start(4, hands, partnerships=True, partnership_block=rule)
    play(game, moves)
    return game


@pytest.mark.parametrize(("example", "rule", "winner", "points"), [
    (SPLIT, "side_total", 3, [0, 42, 0, 42]),   # seat 3 (6 pips) is the lower of the winning partners
    (SPLIT, "lowest_hand", 2, [42, 0, 42, 0]),
    (TIED, "side_total", 2, [82, 0, 82, 0]),
    (TIED, "lowest_hand", None, [0, 0, 0, 0]),
], ids=["split-side_total", "split-lowest_hand", "tied-side_total", "tied-lowest_hand"])
def test_worked_examples_on_both_engines(example: Example, rule: str, winner: int | None,
                                         points: list[int]) -> None:
    game = reference(example, rule)
    result = game.hand.result
    assert result is not None and result.end == "blocked"
    assert (result.winner, result.hand_points, game.scores) == (winner, points, points)
    fast = FastGame.from_game(game)
    assert not fast.in_hand
    assert (fast.last_winner, fast.scores) == (winner, points)


def test_the_split_example_leaves_the_pips_it_claims() -> None:
    assert pips(reference(SPLIT, "side_total")) == [23, 8, 5, 6]
    assert pips(reference(TIED, "side_total")) == [19, 18, 18, 27]


def test_the_option_is_written_into_records_and_replays() -> None:
    game = reference(SPLIT, "lowest_hand")
    record = to_record(game)
    assert record["options"]["partnership_block"] == "lowest_hand"
    assert replay(record).scores == [42, 0, 42, 0]
    assert "partnership_block" not in to_record(reference(SPLIT, "side_total"))["options"]


@pytest.mark.parametrize(("example", "rule", "winner"), [
    (SPLIT, "side_total", 3), (SPLIT, "lowest_hand", 2), (TIED, "lowest_hand", None)])
def test_partnership_draw_takes_the_rule_too(example: Example, rule: str, winner: int | None) -> None:
    # with the double-six set all 28 tiles are dealt, so partnership Draw plays these hands as Block does
    hands, moves = example
    game = start_exact("draw", 4, hands, partnerships=True, partnership_block=rule)
    play(game, moves)
    assert game.hand.result is not None and game.hand.result.winner == winner
    assert game.scores == reference(example, rule).scores
    record = to_record(game)
    assert replay(record).scores == game.scores
    assert FastGame.from_game(game).scores == game.scores
    with pytest.raises(OptionError, match="'partnership_block' applies only with partnerships=true"):
        make_rules("draw", 4, {"partnership_block": rule if rule != "side_total" else "lowest_hand"})


def test_the_option_needs_partnerships_and_a_known_value() -> None:
    with pytest.raises(OptionError, match="'partnership_block' applies only with partnerships=true"):
        make_rules("block", 4, {"partnership_block": "lowest_hand"})
    with pytest.raises(OptionError, match="partnership_block"):
        make_rules("block", 4, {"partnerships": True, "partnership_block": "lowest"})


def test_fast_random_games_agree_with_the_rule() -> None:
    """Whole games on the fast engine: every blocked hand goes to the side the rule names."""
    blocked = 0
    for seed in range(30):
        fast = FastGame("block", 4, options={"partnerships": True, "partnership_block": "lowest_hand"}, seed=seed)
        before = list(fast.scores)
        fast.playout()
        if fast.last_end != "blocked":
            continue
        blocked += 1
        side = partnership_blocked_side([fast.pips(seat) for seat in range(4)], "lowest_hand")
        gained = [after - was for after, was in zip(fast.scores, before, strict=True)]
        if side is None:
            assert fast.last_winner is None and gained == [0, 0, 0, 0]
        else:
            assert fast.last_winner is not None and fast.last_winner % 2 == side
            assert gained[side] == gained[side + 2] == sum(fast.pips(seat) for seat in range(4)) > 0
    assert blocked > 0
