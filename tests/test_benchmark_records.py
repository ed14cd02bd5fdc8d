"""``python -m benchmarks.records`` reads one folder of records with today's code and a commit's, and says so."""

from __future__ import annotations

import re

import pytest
from benchmarks import records


def test_a_small_run_prints_both_codes_with_their_rates(capsys: pytest.CaptureFixture[str]) -> None:
    records.main(["--games", "2", "--repeats", "1", "--variants", "block,pip", "--commit", "HEAD"])
    out = capsys.readouterr().out
    assert out.startswith("Reading 4 records (")
    assert "block (2), pip (3)" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if re.match(r"(today|[0-9a-f]{7,}) ", line)}
    assert set(rows) - {"today"} and "today" in rows  # HEAD is named by its hash
    commit = next(name for name in rows if name != "today")
    assert float(rows["today"][1].replace(",", "")) > 0 and float(rows[commit][1].replace(",", "")) > 0
    assert re.fullmatch(r"\d+\.\d\d", rows[commit][-2])  # the ratio's median, then its range


def test_a_commit_git_does_not_know_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        records.main(["--commit", "no-such-commit-here"])
    assert done.value.code == 2
    assert "--commit no-such-commit-here: git knows no such commit here" in capsys.readouterr().err
