"""The compiled parts are built where the build promises them.

``setup.py`` marks the C extensions optional, so a machine without a C compiler still installs Boneyard
(the pure-Python engines play the same games, slower).  The price is that a C error only skips the build:
without a check, a broken ``_kernel.c`` would pass CI silently on the slow path.  ``.ci/run`` sets
``BONEYARD_REQUIRE_COMPILED=1`` (it installs on a machine with a compiler), and then both extensions must
import and play."""

from __future__ import annotations

import os
import random

import pytest

from boneyard.fast import FastGame, engine
from boneyard.players.expert import fastsearch

REQUIRED = os.environ.get("BONEYARD_REQUIRE_COMPILED") == "1"


@pytest.mark.skipif(not REQUIRED, reason="BONEYARD_REQUIRE_COMPILED is not set (the C extensions are optional)")
def test_the_compiled_kernel_and_solver_are_built_and_play() -> None:
    assert engine.KERNEL, "boneyard.fast._kernel did not build or import: check setup.py's output for a C error"
    assert fastsearch._solve is not None, "boneyard.fast._solve did not build or import"
    game = FastGame("draw", 2, seed=7)
    assert game.in_hand and game.kernel_plays
    taken = game.finish_randomly(random.Random(7))  # the rest of the hand, played by the kernel
    assert taken > 0 and not game.in_hand
