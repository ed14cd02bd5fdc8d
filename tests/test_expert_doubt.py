"""The expert's reply of a seat that cannot see its hand (``doubt=D``).

Perfect-information Monte Carlo values each root move on a sampled deal as if the other seat, knowing that
deal, answered with the reply worst for this seat.  A real opponent does not see this seat's hand.  With
``doubt`` the compiled solver values each legal reply exactly and the root move is worth
``(1 - doubt) * worst + doubt * mean`` of them (:meth:`FastRoot.evaluate_doubting`)."""

from __future__ import annotations

import pytest

from boneyard.chance import Chance
from boneyard.errors import OptionError
from boneyard.players.base import make_player
from boneyard.players.expert import fastsearch
from boneyard.rules.base import make_rules
from boneyard.state import Game
from tests.helpers import play_players
from tests.test_expert_defuse import loaded_roots, two_move_search

pytestmark = pytest.mark.skipif(fastsearch._solve is None, reason="the compiled solver is not built")


def test_the_blend_runs_from_the_worst_reply_to_the_mean_of_the_replies() -> None:
    """On real deals of two-player Block: ``doubt=0`` is exactly the solved value of the root move (the worst
    reply), ``doubt=1`` is the mean over the legal replies, each worked out by hand here by applying the reply and
    solving, and values in between are the straight line between the two."""
    checked = spread = 0
    for _, root, indices in loaded_roots(range(5), 2):
        exact = root.evaluate_all(indices)
        worst = root.evaluate_doubting(indices, 0.0)
        mean = root.evaluate_doubting(indices, 1.0)
        third = root.evaluate_doubting(indices, 1 / 3)
        assert exact is not None and worst is not None and mean is not None and third is not None
        assert worst == pytest.approx(exact)
        for index in indices:
            replies = []
            root.game.apply(root.actions[index])
            if root.game.in_hand:
                for reply in root.game.legal_actions():
                    root.game.apply(reply)
                    replies.append(root._solved() if root.game.in_hand else root.value())
                    root.game.undo()
            else:
                replies.append(root.value())
            root.game.undo()
            assert min(replies) == pytest.approx(worst[index])
            assert sum(replies) / len(replies) == pytest.approx(mean[index])
            assert third[index] == pytest.approx(worst[index] * 2 / 3 + mean[index] / 3)
            spread += mean[index] > worst[index] + 1e-9
            checked += 1
    assert checked > 50
    assert spread > 10, "some replies differ in value, so the blend is not the worst reply again"


class _Doubting:
    """A stand-in root: move 0 loses 2 to the one reply that sees the hand and wins 10 against the other two;
    move 1 gets 1 whatever the reply."""

    def __init__(self) -> None:
        self.deadline: float | None = None
        self.noisy = False

    def load(self, hands: object, stock: object) -> None:
        pass

    def evaluate_doubting(self, indices: list[int], doubt: float) -> list[float]:
        values = {0: [-2.0, 10.0, 10.0], 1: [1.0]}
        return [(1 - doubt) * min(values[i]) + doubt * sum(values[i]) / len(values[i]) for i in indices]

    def evaluate_all(self, indices: list[int]) -> list[float]:
        return self.evaluate_doubting(indices, 0.0)


@pytest.mark.parametrize(("doubt", "chosen"), [(0.0, 1), (0.5, 0)])
def test_a_move_only_a_seeing_reply_refutes_is_played_when_the_reply_is_doubted(
        monkeypatch: pytest.MonkeyPatch, doubt: float, chosen: int) -> None:
    """Move 0 is worth -2 against the reply that sees the hand and 10 against the other two; move 1 is worth 1.
    Against a seeing opponent (``doubt=0``) move 1 is played (1 against -2); with ``doubt=0.5`` move 0 is worth
    0.5 * -2 + 0.5 * 18 / 3 = 2, and is played."""
    search = two_move_search(monkeypatch, _Doubting(), doubt=doubt)
    for _ in range(10):
        search.add_sample()
    assert search.best() == search.moves[chosen]


def test_the_option_is_checked_and_plays_a_whole_game() -> None:
    for bad in ("-0.1", "1.5", "x"):
        with pytest.raises(OptionError, match="doubt"):
            make_player(f"expert:doubt={bad}")
    with pytest.raises(OptionError, match="doubt and defuse"):
        make_player("expert:doubt=0.5,defuse=1")
    game = Game(make_rules("block", 2, {"target": 30}), chance=Chance(11))
    players = [make_player("expert:samples=8,doubt=0.5", seed=1), make_player("heuristic", seed=2)]
    moves = play_players(game, players)
    assert game.winner in (0, 1) and moves > 10
