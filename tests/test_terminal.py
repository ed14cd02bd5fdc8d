"""The terminal table for the variants with something special to show (dice, PIP's effects)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from rich.console import Console

import boneyard
from boneyard.terminal import start_session


def scripted(answers: list[str]) -> Iterator[str]:
    yield from answers
    while True:
        yield "q"


def run_session(variant: str, players: int, seed: int, answers: list[str], tmp_path: Path) -> str:
    game = boneyard.new_game(variant, players, seed=seed)
    console = Console(record=True, width=120, force_terminal=False)
    feed = scripted(answers)
    session = start_session(game, ["greedy"], 0, tmp_path / "g.boneyard.json", console, lambda prompt: next(feed))
    session.run()
    return console.export_text()


def test_flower_scorpion_table_shows_both_dice_pairs_and_their_tiles(tmp_path: Path) -> None:
    game = boneyard.new_game("flower-scorpion", 3, seed=4)
    assert game.dice is not None
    flower, scorpion = game.dice.flower, game.dice.scorpion
    text = run_session("flower-scorpion", 3, 4, ["1"], tmp_path)
    assert f"flower {flower[0]}+{flower[1]} (tile {max(flower)}-{min(flower)})" in text
    assert f"scorpion {scorpion[0]}+{scorpion[1]} (tile {max(scorpion)}-{min(scorpion)})" in text


def test_pip_table_shows_direction_and_directional_effects(tmp_path: Path) -> None:
    seen = ""
    for seed in range(12):
        seen += run_session("pip", 3, seed, ["1"] * 60, tmp_path)
        if all(word in seen for word in ("Skip:", "Reverse:", "Again:", "Draw:")):
            break
    assert "direction: clockwise" in seen
    for word in ("Skip:", "Reverse:", "Again:", "Draw:"):
        assert word in seen
    assert "owes" in seen  # a pending double and the plays it still owes
