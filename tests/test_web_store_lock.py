"""One server per store (``StoreLock``, docs/web.md "Running a server for a club"): a second server on a store
another one holds is refused before it takes up the first one's running games, the ``serve`` command says so in
words, and once the first server stops the store is free again.  On SQLite and on PostgreSQL.  ``boneyard prune``
holds the same lock while it removes a stopped server's abandoned games."""

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


# uvicorn ends a server whose start-up failed with SystemExit(3) in the thread that runs it: that is the refusal
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
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


def test_prune_lists_then_removes_abandoned_games_keeping_their_records(tmp_path: Path) -> None:
    """``boneyard prune --idle DAYS``: running games nobody moved in for DAYS are listed, then (``--yes``) written to
    ``--keep`` and removed; finished games and recent ones stay; a running server's store is refused."""
    import time

    import httpx2 as httpx
    from sqlalchemy import text

    import boneyard
    from boneyard import record

    game = boneyard.new_game("block", seed=3, options={"target": 1})
    while not game.finished:  # a short game played to its end
        if not game.in_hand:
            game.next_hand()
        else:
            game.apply(game.legal_moves()[0])

    db = tmp_path / "club.sqlite3"
    url = f"sqlite:///{db}"
    with LiveServer(url) as club:  # an abandoned game (made old below), a recent one, a finished one
        def create(body: dict[str, object]) -> str:
            response = httpx.post(f"{club.url}/api/games", json=body, timeout=20)
            assert response.status_code == 201, response.text
            return str(response.json()["id"])

        seats = [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}]
        abandoned, recent = create({"variant": "draw", "seats": seats}), create({"variant": "block", "seats": seats})
        finished = str(httpx.post(f"{club.url}/api/records", json={"record": record.to_record(game, seed=3)},
                                  timeout=20).json()["id"])
        busy = CliRunner().invoke(app, ["prune", "--db", str(db), "--idle", "0"])
        assert busy.exit_code == 2 and "another boneyard server is using the game store" in busy.output
    store = Store(url)
    try:
        with store.engine.begin() as connection:  # Ann's draw game: last moved 40 days ago
            connection.execute(text("UPDATE games SET updated = :when WHERE id = :id"),
                               {"when": time.time() - 40 * 86400, "id": abandoned})
        listed = CliRunner().invoke(app, ["prune", "--db", str(db), "--idle", "30"])
        assert listed.exit_code == 0, listed.output
        assert abandoned in listed.output and recent not in listed.output and "add --yes" in listed.output
        assert store.load(abandoned) is not None  # only listed
        kept = tmp_path / "kept"
        removed = CliRunner().invoke(app, ["prune", "--db", str(db), "--idle", "30", "--keep", str(kept), "--yes"])
        assert removed.exit_code == 0 and "Removed 1 abandoned game" in removed.output, removed.output
        assert store.load(abandoned) is None
        assert store.load(recent) is not None and store.load(finished) is not None
        saved = record.load(kept / f"{abandoned}.boneyard.json")
        assert record.replay(saved).rules.name == "draw"
    finally:
        store.dispose()
