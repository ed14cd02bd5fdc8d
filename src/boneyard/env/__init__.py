"""Reinforcement-learning environments for every Boneyard variant and option set.

>>> from boneyard import env as boneyard_env
>>> game = boneyard_env.env("all-fives", players=3, seed=1)
>>> game.reset()
>>> observation, reward, terminated, truncated, info = game.last()
>>> sorted(observation)
['action_mask', 'observation']

* :func:`env` — a PettingZoo AEC environment (:class:`~boneyard.env.aec.DominoEnv` behind
  PettingZoo's order-enforcing wrapper); :func:`raw_env` without the wrapper.
* :class:`~boneyard.env.single.SingleSeatEnv` — a Gymnasium environment: one seat against
  built-in opponents given by level specs.
* :mod:`boneyard.env.encoding` — the fixed action space (tile × joining half × end slot, lead,
  give, draw, pass) and the observation vector; its docstring is the reference.
* :mod:`boneyard.env.fast` — the same action numbers and observations on the fast engine, kept up to
  date move by move (what the environments step on by default).

docs/env.md describes spaces, rewards and seeding.  Needs the ``env`` extra
(``pip install 'boneyard[env]'``: PettingZoo, Gymnasium, NumPy).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

try:
    from boneyard.env.aec import DominoEnv, RewardMode
    from boneyard.env.encoding import ActionCodec, Observer, slot_owners
    from boneyard.env.single import SingleSeatEnv
except ModuleNotFoundError as missing:  # the extra is not installed: say which, not only the module's name
    if missing.name is None or missing.name.partition(".")[0] not in ("numpy", "gymnasium", "pettingzoo"):
        raise
    raise ModuleNotFoundError(f"the environments need the env extra (No module named {missing.name!r}): "
                              "pip install 'boneyard[env]'", name=missing.name) from missing


def raw_env(variant: str = "all-fives", players: int = 2, *, options: Mapping[str, object] | None = None,
            seed: int | None = None, reward: RewardMode = "score", max_moves: int | None = None,
            render_mode: str | None = None, engine: str = "auto") -> DominoEnv:
    """The environment without PettingZoo's wrappers (``engine``: ``auto``, ``fast`` or ``reference``)."""
    return DominoEnv(variant, players, options=options, seed=seed, reward=reward, max_moves=max_moves,
                     render_mode=render_mode, engine=engine)


def env(variant: str = "all-fives", players: int = 2, *, options: Mapping[str, object] | None = None,
        seed: int | None = None, reward: RewardMode = "score", max_moves: int | None = None,
        render_mode: str | None = None, engine: str = "auto") -> Any:
    """A PettingZoo AEC environment of ``variant`` for ``players`` seats (wrapped to enforce call order)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(variant, players, options=options, seed=seed, reward=reward,
                                                  max_moves=max_moves, render_mode=render_mode, engine=engine))


__all__ = ["ActionCodec", "DominoEnv", "Observer", "SingleSeatEnv", "env", "raw_env", "slot_owners"]
