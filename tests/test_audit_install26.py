"""What a user gets from ``pip install``: the sdist, the wheel built from it, and that wheel installed for real.

The rest of the suite runs against an editable install, where every extra is present and every file is read
straight from the source tree; a packaging mistake (a static file, ``py.typed``, a C header left out of the sdist)
would pass it all and still break whoever installs a release.  Here the sdist is built from a copy of the source
tree, a wheel from the unpacked sdist (as ``pip install boneyard-X.tar.gz`` does) and one more with the C compiler
failing (a user without one), both without network or build isolation (setuptools>=77, the ``test`` extra).  Each
wheel is installed into a new virtual environment without pip; its dependencies are this environment's own
packages, linked in one by one from the requirements the wheel declares (so a dependency that pyproject.toml does
not declare is missing there, as it would be for a user): the compiled wheel with the ``web``, ``stats`` and ``env``
extras, the pure one with no extra at all.  Commands run there as a user runs them, in subprocesses.
"""

from __future__ import annotations

import ast
import email.parser
import importlib.metadata
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import tarfile
import time
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from boneyard.cli import EXTRA_OF

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "boneyard"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
COMPILED = ("boneyard/fast/_kernel", "boneyard/fast/_solve")
BUILD_INPUTS = {".c", ".h"}  # in the sdist, compiled into the wheel
ARTIFACTS = {".so", ".pyd", ".pyc", ".pyo"}  # what a build or a run leaves in the tree: never shipped as such
TIMING = ("seconds", "games_per_second")  # the only parts of `simulate --json` that depend on the machine


def has_compiler() -> bool:
    """A C compiler and Python's headers: what setup.py's optional extensions need to build."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    return shutil.which(compiler.split()[0]) is not None and headers.exists()


COMPILER = has_compiler()


def need_compiler() -> None:
    if not COMPILER:
        if os.environ.get("BONEYARD_REQUIRE_COMPILED") == "1":
            pytest.fail("BONEYARD_REQUIRE_COMPILED=1 but there is no C compiler or no Python.h")
        pytest.skip("no C compiler or no Python.h: the wheel is pure Python here (the extensions are optional)")


def source_files() -> list[str]:
    """Every file of the package in the source tree, relative to src/ (what a build or a run left excluded), the
    linked folder of rules pages (``boneyard/docs``, docs/variants) included."""
    found = [Path(folder, name) for folder, _, names in os.walk(PACKAGE, followlinks=True) for name in names]
    return sorted(str(path.relative_to(PACKAGE.parent)) for path in found
                  if path.is_file() and "__pycache__" not in path.parts and path.suffix not in ARTIFACTS)


def run_checked(command: list[str], *, cwd: Path | None = None,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=cwd, env=env)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


# -- the requirements a wheel declares, resolved against what is installed here ----------------------------------


def declared(metadata: str, extras: Iterable[str]) -> list[Requirement]:
    """The wheel's Requires-Dist that apply with ``extras`` (none: the plain ``pip install boneyard``)."""
    chosen = ["", *extras]
    found = []
    for line in email.parser.Parser().parsestr(metadata).get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.marker is None or any(requirement.marker.evaluate({"extra": e}) for e in chosen):
            found.append(requirement)
    return found


def closure(requirements: Iterable[Requirement]) -> set[str]:
    """The distributions (names as installed here) that ``requirements`` pull in, transitively, on this platform."""
    wanted: dict[str, set[str]] = {}
    todo = list(requirements)
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        extras = set(requirement.extras)
        if name in wanted and extras <= wanted[name]:
            continue
        wanted.setdefault(name, set()).update(extras)
        for text in importlib.metadata.distribution(requirement.name).requires or []:
            sub = Requirement(text)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in {"", *extras}):
                todo.append(sub)
    return set(wanted)


def link_distributions(names: Iterable[str], folder: Path) -> None:
    """``folder`` gets a link to each top-level module and the metadata of each named installed distribution."""
    folder.mkdir(parents=True)
    for name in names:
        dist = importlib.metadata.distribution(name)
        tops = {file.parts[0] for file in dist.files or []}
        assert tops, f"{name}: installed without a RECORD, cannot tell its files"
        for top in tops - {"..", "__pycache__", "bin"}:
            if not top.endswith(".pth") and not (folder / top).exists():
                (folder / top).symlink_to(Path(str(dist.locate_file(top))))


# -- building once -------------------------------------------------------------------------------------------------


@dataclass
class Built:
    sdist: list[str]  # names in the sdist, without its top folder
    wheel: Path  # built from the unpacked sdist, with the compiler there is
    pure_wheel: Path  # built from the same sdist with the compiler failing
    metadata: str  # the wheel's METADATA
    tmp: Path


@dataclass
class Venv:
    root: Path
    run_dir: Path
    environ: dict[str, str]

    @property
    def python(self) -> str:
        return str(self.root / "bin" / "python")

    def boneyard(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.root / "bin" / "boneyard"), *args], capture_output=True, text=True,
                              input=stdin, timeout=300, env=self.environ, cwd=self.run_dir)

    def python_c(self, code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([self.python, "-c", code], capture_output=True, text=True, timeout=300,
                              env=self.environ, cwd=self.run_dir)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    import setuptools

    if Version(setuptools.__version__) < Version("77"):
        pytest.skip(f"setuptools {setuptools.__version__} cannot build pyproject.toml's SPDX license offline; the "
                    "test extra installs setuptools>=77 (pip install -e '.[dev]' again)")
    tmp = tmp_path_factory.mktemp("install")
    tree = tmp / "tree"  # the source tree as a checkout has it, with what a build or a run leaves behind
    tree.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(PACKAGE, tree / "src" / "boneyard",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.py[co]"))
    (tree / "src" / "boneyard" / "fast" / "_kernel.cpython-399-x86_64-linux-gnu.so").write_bytes(b"another Python's")
    (tree / "src" / "boneyard" / "__pycache__").mkdir()
    (tree / "src" / "boneyard" / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"bytecode")
    (tree / "tests").mkdir()  # as in the repository: a suite that runs from there only
    for name in ("__init__.py", "conftest.py", "helpers.py", "test_tiles.py"):
        (tree / "tests" / name).write_text("\n")

    hook = "import sys\nfrom setuptools import build_meta\nprint(build_meta.build_sdist(sys.argv[1]))"
    name = run_checked([sys.executable, "-c", hook, str(tmp / "sdist")], cwd=tree).stdout.strip().splitlines()[-1]
    sdist = tmp / "sdist" / name
    with tarfile.open(sdist) as archive:
        names = [member.name.partition("/")[2] for member in archive.getmembers() if member.isfile()]

    environ = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    wheels = {}
    for kind, extra_env in (("wheel", {}), ("pure", {"CC": "false"})):  # `false`: a compiler that always fails
        out = tmp / kind
        run_checked([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                     "-w", str(out), str(sdist)], env={**environ, **extra_env}, cwd=tmp)
        (wheels[kind],) = out.glob("boneyard-*.whl")
    with zipfile.ZipFile(wheels["wheel"]) as archive:
        (metadata_name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = archive.read(metadata_name).decode()
    return Built(names, wheels["wheel"], wheels["pure"], metadata, tmp)


def make_venv(built: Built, name: str, wheel: Path, extras: Iterable[str]) -> Venv:
    root = built.tmp / name
    run_checked([sys.executable, "-m", "venv", "--without-pip", str(root)])
    run_checked([sys.executable, "-m", "pip", "--python", str(root / "bin" / "python"), "install", "--no-deps",
                 "--no-index", "--disable-pip-version-check", str(wheel)])
    deps = built.tmp / f"{name}-deps"
    link_distributions(closure(declared(built.metadata, extras)), deps)
    site = Path(sysconfig.get_path("purelib", vars={"base": str(root), "platbase": str(root)}))
    (site / "zz_dependencies.pth").write_text(f"{deps}\n")  # after the venv's own site-packages
    home = built.tmp / f"{name}-home"
    run_dir = built.tmp / f"{name}-run"
    run_dir.mkdir()
    environ = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    environ.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
                   XDG_CACHE_HOME=str(home / "cache"), MPLCONFIGDIR=str(home / "mpl"), PYTHONNOUSERSITE="1",
                   BROWSER="true", COLUMNS="100", NO_COLOR="1", PATH=f"{root / 'bin'}{os.pathsep}{os.environ['PATH']}")
    return Venv(root, run_dir, environ)


@pytest.fixture(scope="module")
def full(built: Built) -> Venv:
    """The compiled wheel with the web, stats and env extras (what README's first command installs)."""
    return make_venv(built, "full", built.wheel, ("web", "stats", "env"))


@pytest.fixture(scope="module")
def bare(built: Built) -> Venv:
    """The wheel built without a compiler, with no extra: typer, rich, platformdirs and what they need."""
    return make_venv(built, "bare", built.pure_wheel, ())


# -- the sdist and the wheel -------------------------------------------------------------------------------------


def test_the_sdist_carries_the_sources_a_build_needs_and_no_half_test_suite(built: Built) -> None:
    names = set(built.sdist)
    for needed in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "PKG-INFO"):
        assert needed in names, f"the sdist lacks {needed}"
    missing = [name for name in source_files() if f"src/{name}" not in names]
    assert not missing, f"the sdist lacks package files (a wheel built from it would too): {missing}"
    for name in ("src/boneyard/fast/_ints.h", "src/boneyard/fast/_kernel.c", "src/boneyard/fast/_solve.c",
                 "src/boneyard/fast/_kernel.pyi", "src/boneyard/fast/_solve.pyi", "src/boneyard/py.typed"):
        assert name in names
    # setuptools adds tests/test*.py by default: without conftest.py and the helpers they import, a suite that
    # cannot even start; the suite runs from the repository (it needs docs/ and benchmarks/ too)
    assert not [name for name in names if name.startswith("tests/")]
    assert not [name for name in names if Path(name).suffix in ARTIFACTS or "__pycache__" in name]


def test_the_wheel_holds_every_file_the_package_reads_and_nothing_else(built: Built) -> None:
    with zipfile.ZipFile(built.wheel) as archive:
        names = set(archive.namelist())
    shipped = [name for name in source_files() if Path(name).suffix not in BUILD_INPUTS]
    missing = [name for name in shipped if name not in names]
    assert not missing, f"the wheel lacks files the installed package reads: {missing}"
    # the static page, its assets and the typing marker, by name: the web table and type checkers need them
    for name in ("boneyard/web/static/index.html", "boneyard/web/static/app.js", "boneyard/py.typed"):
        assert name in names
    dist_info = {name.partition("/")[0] for name in names} - {"boneyard"}
    assert len(dist_info) == 1 and dist_info.pop().endswith(".dist-info"), "files outside the package in the wheel"
    assert not [name for name in names if Path(name).suffix in BUILD_INPUTS], "C sources in the wheel"
    assert not [name for name in names if name.endswith(".pyc") or "__pycache__" in name]
    extensions = sorted(name for name in names if name.endswith((".so", ".pyd")))
    assert set(extensions) <= {f"{stem}{EXT_SUFFIX}" for stem in COMPILED}, f"foreign compiled files: {extensions}"
    entry_points = next(name for name in names if name.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(built.wheel) as archive:
        assert "boneyard = boneyard.cli:main" in archive.read(entry_points).decode()


def test_the_wheel_from_the_sdist_has_the_compiled_kernel_and_solver(built: Built) -> None:
    need_compiler()
    with zipfile.ZipFile(built.wheel) as archive:
        names = set(archive.namelist())
    assert {f"{stem}{EXT_SUFFIX}" for stem in COMPILED} <= names
    with zipfile.ZipFile(built.pure_wheel) as archive:
        assert not [name for name in archive.namelist() if name.endswith((".so", ".pyd"))]


# -- the installed wheel, every extra --------------------------------------------------------------------------


def test_the_installed_wheel_is_what_runs_and_plays_saves_and_replays(full: Venv) -> None:
    where = full.python_c("import boneyard, boneyard.fast.engine as e; print(boneyard.__file__); print(e.KERNEL)")
    assert where.returncode == 0, where.stderr
    path, kernel = where.stdout.split()
    assert Path(path).is_relative_to(full.root) and not Path(path).is_relative_to(ROOT)
    if COMPILER:
        assert kernel == "True"
    shown = full.boneyard("--help")
    assert shown.returncode == 0
    for command in ("play", "replay", "stats", "variants", "rules", "simulate", "serve", "prune", "tournament",
                    "review"):
        assert re.search(rf"^\W*{command}\s", shown.stdout, re.MULTILINE), f"boneyard --help lacks {command}"
    rules = full.boneyard("rules", "pip")  # the page, from the package (docs/variants, linked into it)
    assert rules.returncode == 0 and "Rules as implemented" in rules.stdout, rules.stderr
    module = subprocess.run([full.python, "-m", "boneyard", "--help"], capture_output=True, text=True,
                            env=full.environ, cwd=full.run_dir, timeout=300)
    assert module.returncode == 0 and "Usage:" in module.stdout
    game = full.boneyard("play", "all-fives", "--seed", "7", "--save", "game.boneyard.json", stdin="1\nq\n")
    assert game.returncode == 0, game.stderr
    assert "Saved to game.boneyard.json" in game.stdout and "Traceback" not in game.stderr
    replayed = full.boneyard("replay", "game.boneyard.json")
    assert replayed.returncode == 0 and "All Fives" in replayed.stdout
    as_json = json.loads(full.boneyard("replay", "game.boneyard.json", "--json").stdout)
    assert as_json["variant"] == "all-fives" and as_json["hands"][0]["events"][0]["move"] == "6-6"
    variants = full.boneyard("variants", "--json")
    assert variants.returncode == 0
    assert {"block", "draw", "all-fives", "bergen", "double-bergen", "flower-scorpion", "pip"} <= {
        row["name"] for row in json.loads(variants.stdout)}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    log: Path

    def address(self) -> str:
        """The address the server printed once it is ready (``http://127.0.0.1:PORT/...``)."""
        deadline = time.monotonic() + 120  # a bound on the wait, not a measurement
        while time.monotonic() < deadline:
            found = re.search(r"http://127\.0\.0\.1:\d+/\S*", self.log.read_text(encoding="utf-8"))
            if found:
                base = found.group().split("/", 3)[:3]
                try:
                    urllib.request.urlopen("/".join(base) + "/api/meta", timeout=10).close()
                    return found.group()
                except OSError:
                    pass
            assert self.process.poll() is None, f"the server stopped: {self.log.read_text(encoding='utf-8')}"
            time.sleep(0.2)
        raise AssertionError(f"the server did not start: {self.log.read_text(encoding='utf-8')}")


@pytest.fixture
def server(full: Venv, request: pytest.FixtureRequest) -> Iterator[Server]:
    log = full.run_dir / f"server-{request.node.name}.log"
    args = [str(free_port()) if arg == "PORT" else arg for arg in request.param]
    with log.open("wb") as out:
        process = subprocess.Popen([str(full.root / "bin" / "boneyard"), *args], stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=subprocess.STDOUT, env=full.environ, cwd=full.run_dir)
    try:
        yield Server(process, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def fetch(url: str, data: bytes | None = None, origin: str | None = None) -> tuple[int, str, bytes]:
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if origin:
        headers["Origin"] = origin
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=30) as answer:
        return answer.status, answer.headers.get("Content-Type", ""), answer.read()


def assets(page: str, base: str) -> set[str]:
    """The /static/ files the page loads, and those its scripts import, transitively (read from the server)."""
    found = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', page))
    todo = list(found)
    while todo:
        path = todo.pop()
        if path.endswith(".js"):
            text = fetch(base + path)[2].decode()
            for target in re.findall(r'^\s*import\b[^"\']*["\']([^"\']+)["\']', text, re.MULTILINE):
                resolved = target if target.startswith("/") else path.rsplit("/", 1)[0] + "/" + target.lstrip("./")
                if resolved not in found:
                    found.add(resolved)
                    todo.append(resolved)
    return found


@pytest.mark.parametrize("server", [["serve", "--port", "PORT", "--db", "sqlite:///served.sqlite3"]],
                         indirect=True)
def test_the_installed_server_serves_the_page_every_asset_and_a_game(server: Server) -> None:
    base = server.address().rstrip("/")
    status, kind, page = fetch(base + "/")
    assert status == 200 and kind.startswith("text/html") and b"<html" in page.lower()
    wanted = assets(page.decode(), base)
    assert {"/static/app.js", "/static/style.css", "/static/table.js"} <= wanted
    types = {".js": "javascript", ".css": "text/css", ".html": "text/html"}
    for path in sorted(wanted):
        status, kind, body = fetch(base + path)
        assert status == 200 and types[Path(path).suffix] in kind, (path, status, kind)
        assert body == (PACKAGE / "web" / path.removeprefix("/")).read_bytes(), f"{path} differs from the source"
    created = json.loads(fetch(base + "/api/games", json.dumps({"variant": "all-fives", "players": 2, "seed": 7})
                               .encode(), origin=base)[2])
    status, kind, _ = fetch(f"{base}/api/games/{created['id']}/table.svg")
    assert status == 200 and kind.startswith("image/svg+xml")
    # the game's WebSocket: uvicorn speaks it through the web extra's websockets
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + f"/ws/{created['id']}", origin=base, open_timeout=30) as ws:
        assert json.loads(ws.recv(timeout=30))["type"] == "state"


@pytest.mark.parametrize("server", [["play", "all-fives", "--web", "--port", "PORT"]], indirect=True)
def test_the_installed_play_web_opens_its_table(server: Server) -> None:
    table = server.address()
    assert "/game/" in table
    status, kind, page = fetch(table)
    assert status == 200 and kind.startswith("text/html") and b"/static/app.js" in page


def test_the_installed_extras_run_a_tournament_and_an_environment(full: Venv) -> None:
    done = full.boneyard("tournament", "--players", "random,greedy", "--variant", "block", "--games", "2", "--seed",
                         "1", "--out", "cup")
    assert done.returncode == 0, done.stderr
    assert {"ratings.png", "ratings.svg", "results.json"} <= {p.name for p in (full.run_dir / "cup").iterdir()}
    checked = full.python_c("from boneyard.env import env\nfrom pettingzoo.test import api_test\n"
                            "api_test(env('all-fives', players=3, seed=1), num_cycles=20)\nprint('passed')")
    assert checked.returncode == 0 and "passed" in checked.stdout, checked.stderr


def test_the_installed_package_is_typed(full: Venv, tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api", reason="mypy (the dev extra) is not installed")
    user = tmp_path / "user_code.py"
    user.write_text("import boneyard\nfrom boneyard.fast import _kernel\n\n"
                    "game = boneyard.new_game('all-fives', players=2, seed=7)\nmoves: int = len(game.legal_moves())\n"
                    "dealt = _kernel.deal\n")
    out, err, status = api.run(["--strict", "--no-incremental", "--cache-dir", os.devnull, "--python-executable",
                                full.python, str(user)])
    assert status == 0, out + err  # without py.typed: "module is installed, but missing library stubs or py.typed"


# -- without a compiler, without the extras ----------------------------------------------------------------------


def simulate(venv: Venv, *args: str) -> dict[str, object]:
    done = venv.boneyard("simulate", *args, "--json")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return {key: value for key, value in result.items() if key not in TIMING}


def test_without_the_compiled_kernel_the_same_games_are_played(full: Venv, bare: Venv) -> None:
    engines = bare.python_c("import boneyard.fast.engine as e, boneyard.players.expert.fastsearch as f\n"
                            "print(e.KERNEL, f._solve is None)")
    assert engines.returncode == 0 and engines.stdout.split() == ["False", "True"] and engines.stderr == ""
    assert simulate(bare, "block", "--games", "20", "--seed", "3") == simulate(full, "block", "--games", "20",
                                                                                "--seed", "3")
    expert = ("block", "--games", "2", "--seed", "5", "--ai", "greedy,expert:samples=10", "--workers", "1")
    assert simulate(bare, *expert) == simulate(full, *expert)
    records = []
    for venv in (full, bare):
        game = venv.boneyard("play", "all-fives", "--seed", "7", "--ai", "expert:samples=30", "--save",
                             "expert.boneyard.json", stdin="1\nq\n")
        assert game.returncode == 0 and "Traceback" not in game.stderr, game.stderr
        records.append(json.loads(venv.boneyard("replay", "expert.boneyard.json", "--json").stdout))
    assert records[0] == records[1] and len(records[0]["hands"][0]["events"]) >= 2


def test_without_extras_the_terminal_game_and_the_core_commands_work(bare: Venv) -> None:
    assert bare.python_c("import fastapi").returncode != 0  # the environment really lacks the extras
    assert bare.python_c("import numpy").returncode != 0
    game = bare.boneyard("play", "all-fives", "--seed", "7", "--save", "plain.boneyard.json", stdin="1\nq\n")
    assert game.returncode == 0 and "Saved to plain.boneyard.json" in game.stdout, game.stderr
    for args in (["replay", "plain.boneyard.json"], ["stats", "plain.boneyard.json"], ["variants", "pip"],
                 ["review", "plain.boneyard.json", "--seat", "0", "--samples", "5"],
                 ["simulate", "draw", "--games", "3", "--seed", "1"]):
        done = bare.boneyard(*args)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stderr)


@pytest.mark.parametrize("args,extra", [
    (["play", "all-fives", "--web", "--port", "1"], "web"),
    (["serve", "--port", "1"], "web"),
    (["prune", "--idle", "30"], "web"),
    (["tournament", "--players", "random,greedy", "--variant", "block", "--games", "2", "--out", "t"], "stats"),
    (["simulate", "block", "--games", "2", "--backend", "ray"], "ray"),
])
def test_without_its_extra_a_command_says_which_to_install_in_one_line(bare: Venv, args: list[str],
                                                                      extra: str) -> None:
    done = bare.boneyard(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"pip install 'boneyard[{extra}]'" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and not (bare.run_dir / "t").exists()


def test_without_the_env_extra_importing_the_environments_names_the_extra(bare: Venv) -> None:
    done = bare.python_c("import boneyard.env")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: the environments need the env extra") and \
        "pip install 'boneyard[env]'" in last, done.stderr


# -- what pyproject.toml declares ------------------------------------------------------------------------------


def third_party_imports() -> dict[str, set[str]]:
    """Top-level modules imported anywhere in src/boneyard that are neither the standard library nor Boneyard."""
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.partition(".")[0]
                if top not in sys.stdlib_module_names and top != "boneyard":
                    found.setdefault(top, set()).add(str(path.relative_to(PACKAGE)))
    return found


def project_requirements(extra: str | None) -> list[Requirement]:
    texts = PYPROJECT["project"]["dependencies"] if extra is None else \
        PYPROJECT["project"]["optional-dependencies"][extra]
    return [Requirement(text) for text in texts]


#: direct requirements of an extra that no module imports: what each is for
NOT_IMPORTED = {"websockets": "uvicorn's WebSocket protocol (the game's /ws)",
                "psycopg": "SQLAlchemy's driver for postgresql:// stores",
                "uvloop": "uvicorn's event loop (loop='auto')"}


def test_every_import_is_declared_and_every_extra_is_used() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    providers = importlib.metadata.packages_distributions()
    imports = third_party_imports()
    runtime = ("web", "stats", "env", "ray")
    reach = {extra: closure(project_requirements(None) + project_requirements(extra)) for extra in runtime}
    core = closure(project_requirements(None))
    for module, files in imports.items():
        dists = {canonicalize_name(d) for d in providers.get(module, [])}
        assert dists, f"{module} (imported in {sorted(files)}) is not installed here"
        assert any(dists & reach[extra] for extra in runtime), f"{module}: no extra declares it ({sorted(files)})"
        if module in EXTRA_OF:  # the CLI names this extra when the module is missing: it must install it
            assert dists & reach[EXTRA_OF[module]], f"boneyard.cli.EXTRA_OF: [{EXTRA_OF[module]}] lacks {module}"
        else:
            assert dists & core, f"{module} is imported ({sorted(files)}) but not a core dependency nor in EXTRA_OF"
    imported = {canonicalize_name(d) for module in imports for d in providers.get(module, [])}
    for extra in runtime:
        for requirement in project_requirements(extra):
            name = canonicalize_name(requirement.name)
            assert name in imported or name in NOT_IMPORTED, f"[{extra}] installs {name}, which nothing imports"
    for extra in ("all", "dev"):  # extras made of extras name only ones that exist
        for requirement in project_requirements(extra):
            if canonicalize_name(requirement.name) == "boneyard":
                assert requirement.extras <= set(extras), f"[{extra}] names {requirement.extras - set(extras)}"


def test_every_extra_the_docs_and_messages_name_exists() -> None:
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted(PACKAGE.rglob("*.py"))]
    named = {}
    for path in texts:
        for found in re.findall(r"(?:boneyard|\.)\[([a-z,]+)\]", path.read_text(encoding="utf-8")):
            for extra in found.split(","):
                named.setdefault(extra, path.name)
    assert named, "no extra named anywhere: the pattern is wrong"
    assert {extra: where for extra, where in named.items() if extra not in extras} == {}
    assert set(EXTRA_OF.values()) <= extras
