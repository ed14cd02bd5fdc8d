"""The review's words (docs/review.md, "The summary"): why the best move beat the one played, in one sentence,
read off the decision's own sampled deals — on positions built by hand where the reason is known.

Most positions deal every tile (``deal_sizes=14`` for two players, or four partners' hands of 7): nothing lies
in the boneyard, so what the reviewed seat cannot see is exactly what the others hold between them.  With two
players every sampled deal is then the real one and the shares in the words are 0% or 100%.
"""

from __future__ import annotations

import random

import pytest

from boneyard import Game, Move, make_rules, record
from boneyard.chance import Chance
from boneyard.players.base import make_player
from boneyard.review import analysis
from boneyard.review.analysis import Decision, Estimate, Settings, estimate, judge, positions, reason
from boneyard.tiles import MAX_PIPS
from boneyard.view import SeatView
from tests.helpers import play, start_exact, tiles

#: two-player Block or All Fives with every tile dealt and any tile led
EVERY_TILE = {"deal_sizes": 14, "first_lead": "random_player_any_tile"}
SETTINGS = Settings(samples=20, seed=1, open_hands=False)


def two_player(variant: str, deal: list[str], leader: int, moves: str) -> Game:
    """``variant`` for You and Bob with every tile dealt, ``moves`` made."""
    game = start_exact(variant, 2, deal, leader=leader, **EVERY_TILE)
    game.names = ["You", "Bob"]
    play(game, moves)
    return game


def decision(game: Game, played: str, settings: Settings = SETTINGS) -> Decision:
    """The review of ``played`` by the seat on turn in ``game``."""
    view = SeatView(game, game.turn)
    return judge(view, 1, len(game.hand.events) + 1, Move.parse(played), settings)


def ends_after(game: Game, move: str) -> list[int]:
    """The numbers on the open ends once ``move`` is made (on the real game: the test checks the words' facts)."""
    game.apply(Move.parse(move))
    try:
        return sorted(face.value for face in game.layout.open_ends())
    finally:
        game.undo()


def holds(game: Game, seat: int, numbers: list[int]) -> bool:
    return any(tile.has(n) for tile in game.hands[seat] for n in numbers)


def test_an_end_the_next_seat_surely_holds_against_ends_he_surely_lacks() -> None:
    """Block, two players: the ends are 0 and 4; every 4 is in your hand or on the table, and Bob holds 3-0 and
    5-0.  4-4 on the 4 leaves him a 0 to follow; 0-4 on the 0 leaves 4 at both ends, and he must pass."""
    game = two_player("block", ["6-4 6-3 6-2 5-4 5-2 4-4 4-1 4-0 3-2 2-1 2-0 1-1 1-0 0-0",
                                "6-6 6-5 6-1 6-0 5-5 5-3 5-1 5-0 4-3 4-2 3-3 3-1 3-0 2-2"], 1,
                      "6-6 6-4@1 6-5@1 4-5@2 5-5@3 5-2@4 5-3@5 3-6@7 6-1@8 2-6@6 6-0@10 1-4@9 4-3@12 3-2@13 2-4@14")
    assert sorted(game.hands[1]) == tiles("2-2 3-0 3-1 3-3 5-0 5-1")
    assert ends_after(game, "4-4@15") == [0, 4] and holds(game, 1, [0])
    assert ends_after(game, "0-4@11") == [4, 4] and not holds(game, 1, [4])
    review = decision(game, "4-4@15")
    assert (str(review.best), review.mark) == ("0-4@11", "blunder")
    assert review.comment == ("4-4@15 cost 30.0 points: after 4-4@15 (ends 0 and 4) Bob can follow in 100% of the "
                              "deals, after 0-4@11 (4 and 4) in 0% (Bob cannot hold a 4)")


def test_a_blocked_table_and_the_pass_that_shows_it() -> None:
    """Block, two players: Bob passed when 4 and 1 showed.  2-4 on the 2 leaves 4 at both ends, and nobody
    holds a 4: the table is blocked, with you holding the fewer pips; 4-2 on the 4 leaves Bob two 2 ends."""
    game = two_player("block", ["6-6 6-4 6-3 6-2 6-1 4-4 4-3 4-2 4-0 3-3 3-0 2-2 2-0 1-0",
                                "6-5 6-0 5-5 5-4 5-3 5-2 5-1 5-0 4-1 3-2 3-1 2-1 1-1 0-0"], 1,
                      "6-5 6-6@1 5-5@1 6-4@2 5-4@3 4-4@4 4-1@5 1-6@7 6-0@8 4-3@6 3-5@10 0-4@9 5-2@11 2-6@13 pass "
                      "6-3@14 3-2@15")
    assert ends_after(game, "2-4@16") == [4, 4]
    assert [tile for hand in game.hands for tile in hand if tile.has(4)] == tiles("4-2")  # the 4 you play
    assert game.hand_points_of(0) - 6 < game.hand_points_of(1)  # 16 pips against 20 once 4-2 is down
    review = decision(game, "4-2@12")
    assert (str(review.best), review.mark) == ("2-4@16", "blunder")
    assert review.comment == (
        "4-2@12 cost 26.0 points: 2-4@16 blocks the table in 100% of the deals (you win 100% of those blocks), "
        "4-2@12 in 0%; after 4-2@12 (ends 2 and 2) Bob can follow in 100% of the deals, after 2-4@16 (4 and 4) "
        "in 0% (Bob passed on 4s)")


def test_a_play_that_leaves_you_no_number_for_your_next_turn() -> None:
    """Block, two players: you hold 0-0, 1-0 and 2-0; the ends are 0 and 1.  0-1 on the 0 leaves two 1 ends and
    you no 1; 1-0 on the 1 leaves two 0 ends, and you hold two more 0s."""
    game = two_player("block", ["6-6 6-5 5-4 5-3 5-2 5-1 5-0 4-4 4-3 4-2 4-0 2-0 1-0 0-0",
                                "6-4 6-3 6-2 6-1 6-0 5-5 4-1 3-3 3-2 3-1 3-0 2-2 2-1 1-1"], 0,
                      "6-6 6-4@1 6-5@1 5-5@3 4-5@2 pass 5-3@4 3-6@6 5-2@5 6-2@7 2-4@8 4-1@10 1-5@11 2-3@9 3-4@13 "
                      "pass 4-4@14 pass 5-0@12 0-6@16 4-0@15 6-1@17")
    assert sorted(game.hands[0]) == tiles("0-0 1-0 2-0")
    review = decision(game, "0-1@18")
    assert str(review.best) == "1-0@19" and review.mark in ("mistake", "blunder")
    assert review.comment == ("0-1@18 cost 9.0 points: 0-1@18 leaves you no 1 for your next turn, while after "
                              "1-0@19 you can still play")


def test_a_number_your_partner_passed_on_left_open() -> None:
    """Partnership Block: your partner Zoë passed when 3 and 1 showed, and they still do.  3-3 on the 3 leaves
    the 1 open, and she can play on neither end; 1-0 on the 1 opens a 0 she may well hold (she does: 0-0)."""
    game = start_exact("block", 4, ["6-3 5-5 3-3 3-2 3-1 3-0 1-0", "6-1 6-0 5-3 4-3 4-1 2-0 1-1",
                                    "6-6 6-4 5-4 5-0 2-2 2-1 0-0", "6-5 6-2 5-2 5-1 4-4 4-2 4-0"],
                       leader=2, partnerships=True)
    game.names = ["You", "Bob", "Zoë", "Dan"]
    passed_on = []
    moves = ("6-6 6-5@1 5-5@2 5-3@3 6-4@1 4-4@5 3-6@4 6-1@7 4-5@6 5-2@9 2-3@10 3-4@11 1-2@8 2-6@13 pass "
             "6-0@14 0-5@15 5-1@16 1-3@17 4-1@12 pass pass")
    for move in moves.split():
        if move == "pass" and game.turn == 2:
            passed_on.append(sorted(face.value for face in game.layout.open_ends()))
        play(game, move)
    assert passed_on == [[1, 3]] and game.turn == 0
    assert ends_after(game, "3-3@18") == [1, 3] and not holds(game, 2, [1, 3])
    review = decision(game, "3-3@18")
    assert str(review.best) == "1-0@19" and review.mark in ("mistake", "blunder")
    assert review.comment.startswith("3-3@18 cost ")
    assert "after 1-0@19 (ends 0 and 3) your partner Zoë has a tile to play in " in review.comment
    assert review.comment.endswith("of the deals, after 3-3@18 (1 and 3) in 0% (Zoë passed on 1s)")
    assert review.comment.count("your partner") == 1  # her void is said once, not again in the old words


def test_a_play_that_lets_the_opponent_score_in_reply() -> None:
    """All Fives, two players, every tile dealt: you hold 1-1, 2-0 and 4-0, Bob 1-0 and 3-0; the ends count
    4 + 1 + 2 + 3, and none of your plays scores.  4-0 on the 4 lets Bob's 1-0 make ten; 1-1 on the 1 leaves
    him nothing that counts."""
    game = two_player("all-fives", ["6-4 6-2 6-0 5-4 5-3 5-2 4-4 4-0 3-1 2-2 2-1 2-0 1-1 0-0",
                                    "6-6 6-5 6-3 6-1 5-5 5-1 5-0 4-3 4-2 4-1 3-3 3-2 3-0 1-0"], 1,
                      "5-5 5-4@1 5-6@1 4-6@2 6-6@3 5-2@1 5-0@1 0-0@7 6-1@4 6-2@5 1-5@9 0-6@8 6-3@12 5-3@11 3-4@13 "
                      "4-4@15 2-4@6 3-1@14 4-1@16 2-2@10 2-3@20 1-2@18 3-3@21")
    view = SeatView(game, 0)
    assert {view.play_points(move)[1] for move in view.legal_moves()} == {0}
    replies = {}
    for move in ("4-0@17", "1-1@19"):
        game.apply(Move.parse(move))
        replies[move] = max(game.play_points(reply)[1] for reply in game.legal_moves())
        game.undo()
    assert replies == {"4-0@17": 10, "1-1@19": 0}
    review = decision(game, "4-0@17")
    assert (str(review.best), review.mark) == ("1-1@19", "blunder")
    assert review.comment == ("4-0@17 cost 15.0 points: after 4-0@17 Bob can score in reply in 100% of the deals "
                              "(10.0 points on average), after 1-1@19 in 0% (0.0)")


def test_where_the_game_is_at_stake_the_words_say_why_too() -> None:
    """All Fives to 60, two players, every tile dealt: you lead 40 to 30 and none of your plays scores; 4-2 on the
    4 lets Bob answer for 20, and the game is lost; 4-4 on it leaves him nothing that counts, and the game is won."""
    game = start_exact("all-fives", 2, ["6-6 6-5 5-4 5-3 5-2 5-1 5-0 4-4 4-3 4-2 4-0 2-0 1-0 0-0",
                                        "6-4 6-3 6-2 6-1 6-0 5-5 4-1 3-3 3-2 3-1 3-0 2-2 2-1 1-1"],
                       leader=0, target=60, **EVERY_TILE)
    game.names = ["You", "Bob"]
    play(game, "5-0 5-5@1 0-0@1 0-6@3 6-5@4 pass 5-4@2 4-6@6 6-6@7 6-3@8 3-5@9 pass 5-2@2 2-6@11 5-1@2 1-4@13")
    view = SeatView(game, 0)
    assert game.scores == [40, 30] and {view.play_points(move)[1] for move in view.legal_moves()} == {0}
    review = decision(game, "4-2@14")
    assert (str(review.best), review.mark, review.by_game) == ("4-4@14", "blunder", True)
    assert review.comment == ("4-2@14 cost 50% of a game won: 4-4@14 wins the game in 100% of the deals, 4-2@14 in "
                              "0%; after 4-2@14 Bob can score in reply in 100% of the deals (20.0 points on "
                              "average), after 4-4@14 in 0% (0.0)")


def test_the_words_read_only_the_kept_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a move leaves is read off the first deals of the estimate (at most ``KEPT_DEALS``), the same deals
    its values come from; an estimate whose deals were not kept has the public facts only."""
    game = two_player("block", ["6-4 6-3 6-2 5-4 5-2 4-4 4-1 4-0 3-2 2-1 2-0 1-1 1-0 0-0",
                                "6-6 6-5 6-1 6-0 5-5 5-3 5-1 5-0 4-3 4-2 3-3 3-1 3-0 2-2"], 1,
                      "6-6 6-4@1 6-5@1 4-5@2 5-5@3 5-2@4 5-3@5 3-6@7 6-1@8 2-6@6 6-0@10 1-4@9 4-3@12 3-2@13 2-4@14")
    view = SeatView(game, 0)
    monkeypatch.setattr(analysis, "KEPT_DEALS", 3)
    est = estimate(view, random.Random(0), samples=8)
    played, best = Move.parse("4-4@15"), Move.parse("0-4@11")
    after = est.after(est.moves.index(played))
    assert est.samples == 8 and len(est.deals) == 3
    assert after is not None and after.follows == [True] * 3 and after.ends == (0, 4) and after.next_seat == 1
    assert "Bob can follow in 100% of the deals" in reason(view, best, played, est, 30.0)
    bare = Estimate(est.moves, est.banked, est.points, est.results)
    assert bare.after(0) is None
    assert "can follow" not in reason(view, best, played, bare, 30.0)


def test_pip_words_stay_generic_where_the_table_has_many_ends() -> None:
    """PIP (wild tiles, a hub, lowest score wins): every pair of moves at every decision of a hand gets words or
    nothing, and no ends are listed where the table shows more than four."""
    game = Game(make_rules("pip", 3, {}), None, Chance(11))
    greedy = [make_player("greedy", seed=seat) for seat in range(3)]
    game.next_hand()
    while game.in_hand:
        game.apply(greedy[game.turn].choose(SeatView(game, game.turn)))
    said = []
    for position, _hand, number, _move in positions(record.to_record(game)):
        view = SeatView(position, position.turn)
        if len(view.legal_moves()) < 2:
            continue
        est = estimate(view, random.Random(number), samples=3)
        best = est.best()
        for index, move in enumerate(est.moves):
            if index == best:
                continue
            words = reason(view, est.moves[best], move, est, est.paired(best, index, points=True)[0])
            after = est.after(index)
            assert after is not None and all(end <= MAX_PIPS for end in after.ends)
            if len(after.ends) > 4:
                assert f"after {move} (" not in words
            said.append(words)
    assert any("of the deals" in words for words in said)  # the sampled facts are said in PIP too
    assert not any("scores" in words or "in reply" in words for words in said)  # lowest wins: points are no gift
