"""``benchmarks.dominoes_bots``: the ``dominoes`` package's partnership Block mirrored move for move into Boneyard's
(its runs need the ``bench`` extra; without it a run says how to install it)."""

from __future__ import annotations

import sys

import pytest
from benchmarks import dominoes_bots


def test_without_the_bench_extra_a_run_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "dominoes", None)
    with pytest.raises(SystemExit) as done:
        dominoes_bots.main(["--deals", "1", "--expert", "expert:samples=2"])
    message = str(done.value.code)
    assert len(message.splitlines()) == 1 and "needs the dominoes package" in message
    assert "pip install 'boneyard[bench]'" in message and capsys.readouterr().out == ""


def test_the_deal_gives_every_tile_once_seven_to_a_seat() -> None:
    hands = dominoes_bots.deal(5)
    tiles = [tile for hand in hands for tile in hand]
    assert [len(hand) for hand in hands] == [7, 7, 7, 7] and len(set(tiles)) == 28
    assert dominoes_bots.deal(5) == hands and dominoes_bots.deal(6) != hands


@pytest.mark.parametrize("seed", range(6))
def test_the_mirror_ends_the_hand_as_the_package_scores_it(seed: int) -> None:
    """Whole hands, greedy in the expert's seats and the package's heaviest-first player in the others: every move
    goes both ways between the two games, and the mirror's hand ends as the package's does, for the same side."""
    dominoes = pytest.importorskip("dominoes", reason="the bench extra (dominoes) is not installed")
    for side in (0, 1):
        points, mirror = dominoes_bots.play_hand(seed, side, "greedy", dominoes.players.bota_gorda)
        result = mirror.log[-1].result
        assert result is not None and not mirror.in_hand
        winners = set() if result.winner is None else set(mirror.rules.score_seats(result.winner))
        expert_seats = {side, side + 2}
        assert (points > 0) == (winners == expert_seats) and (points < 0) == (winners == {0, 1, 2, 3} - expert_seats)
        assert (points == 0) == (result.winner is None)


def test_a_small_run_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("dominoes", reason="the bench extra (dominoes) is not installed")
    dominoes_bots.main(["--deals", "1", "--expert", "expert:samples=2", "--samples", "2", "--search-from", "16",
                        "--progress"])
    out = capsys.readouterr().out
    assert out.count("\ndeal 0 expert seats") + out.startswith("deal 0 expert seats") == 2
    summary = out.splitlines()[2]
    won, lost, tied = (int(n) for n in summary.split("duplicate deals: ")[1].split(",")[0].split("-"))
    assert won + lost + tied == 2
