"""``python -m benchmarks.previous_expert`` with a spec the earlier commit's expert does not take says so at once.

The commit here is HEAD (a shallow clone holds no other): today's parser would refuse a spec HEAD refuses before any
child starts, so the check is called directly, as ``match`` calls it, with such a spec."""

from __future__ import annotations

import pytest
from benchmarks import previous_expert


def test_a_setting_the_commit_lacks_is_one_line_before_any_game() -> None:
    child = previous_expert.start_child("HEAD")
    with pytest.raises(SystemExit) as done:
        previous_expert.check_spec(child, "expert:samples=4,nope=3", "HEAD")
    said = str(done.value.code)
    assert said.startswith("previous_expert: --expert expert:samples=4,nope=3: the expert of commit HEAD "
                           "does not take it (")
    assert "nope" in said and "\n" not in said
    assert child.poll() is not None  # its process was ended


def test_a_spec_both_take_plays_its_games(capsys: pytest.CaptureFixture[str]) -> None:
    rows = previous_expert.match(["block"], 1, "expert:samples=4", 2, 2024, commit="HEAD")
    assert rows[0]["games"] == 2 and 0 <= rows[0]["wins"] <= 2  # type: ignore[operator]
    assert "vs expert:samples=4@HEAD" in capsys.readouterr().out
