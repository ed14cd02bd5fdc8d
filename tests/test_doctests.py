"""The examples in the modules' docstrings (``>>>``) run as written: documentation that cannot go stale."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import boneyard

SOURCE = Path(boneyard.__file__).parent
MODULES = sorted(".".join(("boneyard", *path.relative_to(SOURCE).with_suffix("").parts)).removesuffix(".__init__")
                 for path in SOURCE.rglob("*.py") if ">>>" in path.read_text(encoding="utf-8"))


def test_the_examples_are_found() -> None:
    assert "boneyard.player_stats" in MODULES and "boneyard.web.outbox" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_a_modules_examples_run_as_written(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
