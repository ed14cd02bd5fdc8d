"""One server per store (``StoreLock``, docs/web.md "Running a server for a club"): a second server on a store
another one holds is refused before it takes up the first one's running games, the ``serve`` command says so in
words, and once the first server stops the store is free again.  On SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from typer.testing import CliRunner

from boneyard.cli import app
from boneyard.web.store import Store, StoreBusy, StoreLock
from tests.web_live import LiveServer


def test_a_store_held_by_one_lock_refuses_a_second_until_it_is_released(db_url: str) -> None:
    first, second = Store(db_url), Store(db_url)
    try:
        held = StoreLock(first)
        held.acquire()
        with pytest.raises(StoreBusy, match="another boneyard server is using the game store"):
            StoreLock(second).acquire()
        with pytest.raises(StoreBusy):
            StoreLock(second).check()
        held.release()
        again = StoreLock(second)
        again.acquire()  # free once the first is given back
        again.release()
    finally:
        first.dispose()
        second.dispose()


def test_a_second_server_on_a_running_servers_store_does_not_start(db_url: str) -> None:
    with LiveServer(db_url) as running:
        assert running.server.started
        second = LiveServer(db_url)
        with pytest.raises(RuntimeError, match="did not start"):
            second.__enter__()
        second.listener.close()
        second.app.state.store.dispose()
    with LiveServer(db_url) as after:  # the first one stopped: its lock went with it
        assert after.server.started


def test_serve_on_a_store_another_server_holds_is_refused_in_words(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    with LiveServer(f"sqlite:///{db}"):
        result = CliRunner().invoke(app, ["serve", "--db", str(db), "--port", "8799"])
    assert result.exit_code == 2, result.output
    assert f"another boneyard server is using the game store {db}" in result.output
    assert "Traceback" not in result.output


def test_play_web_on_the_store_of_a_running_server_is_refused_before_it_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boneyard.web.store import default_url

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("BROWSER", "true")
    with LiveServer(default_url()) as club:
        result = CliRunner().invoke(app, ["play", "block", "--web", "--port", "8798"])
        assert result.exit_code == 2, result.output
        assert "another boneyard server is using the game store" in result.output
        assert "start the game in that server's lobby" in result.output
        assert club.app.state.store.list(None, offset=0, limit=10) == []  # no game was written into its store
