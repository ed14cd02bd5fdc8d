"""Players: the interface and the computer levels."""

from boneyard.players.base import LEVELS, GreedyPlayer, Player, RandomPlayer, make_player, split_specs

__all__ = ["LEVELS", "GreedyPlayer", "Player", "RandomPlayer", "make_player", "split_specs"]
