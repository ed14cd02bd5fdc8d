"""Shared test settings: Hypothesis profiles, and the databases the web store is tested on.

Choose one with ``HYPOTHESIS_PROFILE``:

* ``default`` — a few hundred random games in all (well under a minute on two cores);
* ``ci`` — about four times as many, derandomized so a CI run is repeatable;
* ``thorough`` — thousands of games, for a release or after changing the engine.

``db_url`` is a fresh, empty database for one test, once on a SQLite file and once on a real
PostgreSQL server: a throwaway cluster that the test session starts with Debian's
``postgresql`` binaries (``/usr/lib/postgresql/*/bin``) in a temporary directory, listening on a
unix socket there only, with trust authentication, and stops at the end (under pytest-xdist each
worker starts its own).  Where the binaries are missing the PostgreSQL cases are skipped and say
why.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

settings.register_profile("default", max_examples=10, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("ci", max_examples=40, derandomize=True, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("thorough", max_examples=400, **_COMMON)  # type: ignore[arg-type]
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def _as_user() -> list[str]:
    """initdb refuses to run as root: as root, run the server as ``postgres`` (or ``nobody``)."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        if runuser is not None:
            return [runuser, "-u", name, "--"]
    pytest.skip("PostgreSQL: the tests run as root and cannot drop to a postgres or nobody user (no runuser)")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for this test session (this xdist worker); yields its socket dir."""
    binaries = _postgres_bin()
    if binaries is None:
        pytest.skip("PostgreSQL is not installed (Debian's postgresql package: /usr/lib/postgresql/*/bin)")
    prefix = _as_user()
    folder = Path(tempfile.mkdtemp(prefix="boneyard-pg-"))
    data = folder / "data"
    if prefix:
        user = pwd.getpwnam(prefix[2])
        os.chown(folder, user.pw_uid, user.pw_gid)
    folder.chmod(0o700)

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=120, check=False)

    made = run(str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync",
               "-E", "UTF8", "--locale", "C")
    if made.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"PostgreSQL: initdb failed: {made.stderr.strip()[-300:]}")
    options = f"-k {folder} -c listen_addresses='' -F -c full_page_writes=off -c max_connections=50"
    started = run(str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "server.log"),
                  "-w", "-t", "60", "start")
    if started.returncode != 0:
        log = (folder / "server.log").read_text(errors="replace")[-300:] if (folder / "server.log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"PostgreSQL: the server did not start: {started.stderr.strip()[-200:]} {log}")
    try:
        yield str(folder)
    finally:
        run(str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


_databases = count(1)


def _new_postgres_database(socket_dir: str) -> str:
    psycopg = pytest.importorskip("psycopg", reason="PostgreSQL: the psycopg driver (the web extra) is missing")
    name = f"boneyard_{os.getpid()}_{next(_databases)}"
    with psycopg.connect(host=socket_dir, user="postgres", dbname="postgres", autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return f"postgresql+psycopg://postgres@/{name}?host={socket_dir}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database for one test: a SQLite file, then a database of the session's PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return _new_postgres_database(request.getfixturevalue("postgres_server"))
