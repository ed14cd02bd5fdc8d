"""Audit: the documentation tells the truth.

README.md and docs/ are read as a new user reads them, and what they state is checked against the product:
every relative link resolves, every path they name exists, every ``boneyard`` command they show names a real
subcommand, real options, real variants, rule options and player levels, every variant page's option table
agrees with ``boneyard variants --json``, the Python snippets run, and the numbers, names and formats they quote
(action spaces, observation parts, error codes, routes, limits, JSON keys, scoring items) are the program's.
The audit's findings (stale hint reasons, the hint limit, an observation part's name, the protocol's missing code
and route, the Gymnasium environment's game, the deal-size refusal, the player counts of the larger sets, rule
numbers in what users read, the layer map) were fixed in session 17; their tests now hold the docs to the product.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

import boneyard
from boneyard import OptionError, make_rules, record
from boneyard.cli import app
from boneyard.players.base import make_player, split_specs
from boneyard.rules.base import VARIANTS, find_variant

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]
VARIANT_PAGES = sorted((DOCS / "variants").glob("*.md"))
COMMAND: Any = typer.main.get_command(app)


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def variants_json() -> list[dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "boneyard", "variants", "--json"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


VARIANT_ROWS = {row["name"]: row for row in variants_json()}


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def code_blocks(page: Path) -> list[tuple[str, str]]:
    """(language, body) of every fenced code block of ``page``."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text(page), re.M | re.S)


def shown_commands(page: Path) -> list[str]:
    """Every ``boneyard ...`` command line in ``page``'s code blocks (continuations joined, comments cut)."""
    commands = []
    for _, body in code_blocks(page):
        body = body.replace("\\\n", " ")
        for line in body.splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("boneyard "):
                commands.append(line.split("  #")[0].split(" # ")[0].strip())
    return commands


def section(page_text: str, heading: str) -> str:
    """The text of the section under ``heading`` (up to the next heading of any level)."""
    return page_text.split(heading, 1)[1].split("\n#", 1)[0]


# ---------------------------------------------------------------------------------------------------------------
# Links and paths


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_resolves(page: Path) -> None:
    for target in re.findall(r"\]\(([^)\s]+)\)", text(page)):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, fragment = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.exists(), f"{page.name} links to {target}, which does not exist"
        if fragment and resolved.suffix == ".md":
            headings = [anchor(h) for h in re.findall(r"^#+\s+(.*)$", text(resolved), re.M)]
            assert fragment in headings, f"{page.name} links to #{fragment}, no such heading in {resolved.name}"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_repository_path_named_exists(page: Path) -> None:
    body = text(page)
    for name in re.findall(r"`((?:docs|tests|src|benchmarks|examples)/[\w./-]+?)(?:::\w+)?`", body):
        assert (ROOT / name).exists(), f"{page.name} names {name}, which is not in the repository"
    for name, test in re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", body):
        assert f"def {test}(" in text(ROOT / name), f"{page.name} names {name}::{test}, which does not exist"


def test_the_variant_pages_are_the_variants() -> None:
    assert {page.stem for page in VARIANT_PAGES} == set(VARIANTS)


# ---------------------------------------------------------------------------------------------------------------
# Commands shown


def check_command(line: str) -> None:
    words = []
    for raw in shlex.split(line):
        raw = raw.strip("[]|")
        words += raw.split("/") if raw.startswith("--") and "/--" in raw else [raw] if raw else []
    assert words[0] == "boneyard"
    sub = COMMAND.commands.get(words[1])
    assert sub is not None, f"{line!r}: boneyard has no command {words[1]!r}"
    flags = {opt for param in sub.params for opt in (*param.opts, *param.secondary_opts)}
    takes_value = {opt for param in sub.params if param.param_type_name == "option" and not param.is_flag
                   for opt in param.opts}
    positional: list[str] = []
    variant = None
    index = 2
    options: list[str] = []
    while index < len(words):
        word = words[index]
        if word.startswith("-"):
            name = word.split("=", 1)[0]
            assert name in flags, f"{line!r}: boneyard {words[1]} has no option {name}"
            if name in takes_value and "=" not in word:
                index += 1
                value = words[index]
                if name in ("--option", "-o"):
                    options.append(value)
                if name in ("--variant",):
                    variant = value
                if name == "--ai" or (name == "--players" and not value.isdigit()):
                    for spec in split_specs(value):
                        if ":" in spec and "=" not in spec.split(":", 1)[1]:
                            continue  # module:function
                        make_player(spec)
        else:
            positional.append(word)
        index += 1
    if words[1] in ("play", "simulate", "variants") and positional and positional[0].isupper() is False:
        variant = positional[0]
    if variant is not None and variant.upper() != variant:
        rules_class = find_variant(variant)
        for item in options:
            key = item.split("=", 1)[0]
            names = {o["name"] for o in VARIANT_ROWS[rules_class.name]["options"]}
            assert key in names, f"{line!r}: {rules_class.name} has no option {key!r}"


@pytest.mark.parametrize("page", [p for p in PAGES if shown_commands(p)],
                         ids=[str(p.relative_to(ROOT)) for p in PAGES if shown_commands(p)])
def test_every_command_shown_names_real_commands_options_variants_and_levels(page: Path) -> None:
    for line in shown_commands(page):
        check_command(line)


def test_the_readme_shows_a_command_of_every_subcommand() -> None:
    shown = {shlex.split(line)[1] for line in shown_commands(README)}
    assert shown == set(COMMAND.commands)


# ---------------------------------------------------------------------------------------------------------------
# Python snippets


def python_blocks(page: Path) -> list[str]:
    return [body for language, body in code_blocks(page) if language == "python"]


def test_the_readme_python_game_loop_runs_to_the_end() -> None:
    snippet = next(body for body in python_blocks(README) if "new_game" in body)
    scope: dict[str, Any] = {}
    exec(compile(snippet.replace("print(", "_ = ("), "README.md", "exec"), scope)
    game = scope["game"]
    assert game.finished and max(game.scores) >= game.rules.target


def test_the_readme_environment_snippet_and_the_pip_page_snippet_run() -> None:
    for page, marker in ((README, "from boneyard.env import env"), (DOCS / "variants" / "pip.md", "new_game")):
        snippet = next(body for body in python_blocks(page) if marker in body)
        exec(compile(snippet, page.name, "exec"), {})


def test_the_env_page_aec_loop_runs() -> None:
    snippet = python_blocks(DOCS / "env.md")[0]
    scope: dict[str, Any] = {}
    exec(compile(snippet, "env.md", "exec"), scope)
    assert not scope["game"].agents  # the loop ran the whole game


# ---------------------------------------------------------------------------------------------------------------
# Variant pages against the options


def option_rows(page: Path) -> dict[str, list[str]]:
    options = section(text(page), "## Options")
    rows = {}
    for line in options.splitlines():
        match = re.match(r"\|\s*`(\w+)`\s*\|(.*)\|\s*$", line)
        if match:
            rows[match.group(1)] = [cell.strip() for cell in match.group(2).split("|")]
    return rows


INHERITED = {"draw": set(option_rows(DOCS / "variants" / "block.md"))}


@pytest.mark.parametrize("page", VARIANT_PAGES, ids=[p.stem for p in VARIANT_PAGES])
def test_a_variant_page_lists_every_option_with_its_default_and_values(page: Path) -> None:
    options = {o["name"]: o for o in VARIANT_ROWS[page.stem]["options"]}
    rows = option_rows(page)
    assert set(rows) | INHERITED.get(page.stem, set()) == set(options), page.name
    for name, cells in rows.items():
        spec = options[name]
        default, allowed = (cells[0], cells[1]) if page.stem == "pip" else (cells[1], cells[2])
        written = re.match(r"`?([\w.]+)`?", default)
        assert written is not None, f"{page.name} {name}: no default"
        expected = "null" if spec["default"] is None else str(spec["default"]).lower()
        assert written.group(1) == expected, f"{page.name} {name}: default {default}, really {spec['default']}"
        if spec["allowed"]:
            listed = set(re.findall(r"`?(\w+)`?", allowed)) - {"refused", "see", "below"}
            real = {str(value).lower() for value in spec["allowed"]} | ({"none"} if spec["nullable"] else set())
            if page.stem == "pip":
                real.discard(expected)
                listed &= real | {"declared_on_play"}
            assert real <= listed, f"{page.name} {name}: lists {sorted(listed)}, really {sorted(real)}"
        elif spec["type"] == "int":
            bounds = re.search(r"([\d,]+) to ([\d,]+)", allowed)
            assert bounds is not None, f"{page.name} {name}: no range in {allowed!r}"
            assert (int(bounds.group(1).replace(",", "")), int(bounds.group(2).replace(",", ""))) == \
                (spec["min"], spec["max"]), f"{page.name} {name}: {allowed!r}"


@pytest.mark.parametrize("page", VARIANT_PAGES, ids=[p.stem for p in VARIANT_PAGES])
def test_a_variant_page_names_its_module_its_tests_and_real_aliases(page: Path) -> None:
    head = text(page).split("\n## ", 1)[0]
    rules_class = VARIANTS[page.stem]
    assert f"`{page.stem}`" in head
    module = rules_class.__module__
    assert f"`{module}`" in head or f"`src/{module.replace('.', '/')}.py`" in head, page.name
    assert re.search(r"`tests/test_\w+\.py`", head), page.name
    for alias in re.findall(r"alias(?:es)? ([`\w\-, ]+)", head):
        for name in re.findall(r"`([\w&-]+)`", alias):
            assert find_variant(name) is rules_class, f"{page.name}: {name} is not an alias of {page.stem}"


def item_names(variant: str, players: int, options: dict[str, object], seeds: int = 3) -> set[str]:
    names: set[str] = set()
    for seed in range(seeds):
        game = boneyard.new_game(variant, players=players, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.finished:
                break
            if game.hand_over:
                names.update(item.name for seat in game.hand.result.scoring for item in seat)
                game.next_hand()
                continue
            names.update(item.name for item in game.apply(rng.choice(game.legal_moves())).scoring)
        if game.hand.result is not None:
            names.update(item.name for seat in game.hand.result.scoring for item in seat)
    return names


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("block", 3, {}), ("draw", 2, {}), ("all-fives", 2, {}), ("all-fives", 3, {"end_scoring": "each_subtracts_own"}),
    ("bergen", 2, {}), ("double-bergen", 2, {}), ("double-bergen", 2, {"end_scoring": "tile_penalty"}),
    ("flower-scorpion", 2, {}), ("pip", 3, {}),
])
def test_every_scoring_item_a_game_produces_is_named_on_its_page(variant: str, players: int,
                                                                 options: dict[str, object]) -> None:
    page = text(DOCS / "variants" / f"{variant}.md")
    if variant == "draw":  # Draw's page defers to Block's for what it shares
        page += text(DOCS / "variants" / "block.md")
    for name in item_names(variant, players, options):
        assert f"`{name}`" in page, f"{variant}.md never names the scoring item {name!r}"


def test_the_deal_sizes_and_player_ranges_on_the_variant_pages() -> None:
    standard = {"block": (7, 5, 5), "draw": (7, 5, 5), "all-fives": (7, 5, 5), "bergen": (6, 6, 5),
                "double-bergen": (6, 6, 5), "flower-scorpion": (6, 6, 5)}
    for variant, sizes in standard.items():
        assert tuple(make_rules(variant, n, {}).deal_size() for n in (2, 3, 4)) == sizes, variant
        with pytest.raises(boneyard.VariantError):
            make_rules(variant, 5, {})
        if variant != "flower-scorpion":  # the larger sets: 2-8 / 2-10 players (double-nine 7 then 6; -twelve 9 then 8)
            assert [make_rules(variant, n, {"set": 9}).deal_size() for n in (6, 7, 8)] == [7, 6, 6]
            assert [make_rules(variant, n, {"set": 12}).deal_size() for n in (8, 9, 10)] == [9, 8, 8]
            with pytest.raises(boneyard.VariantError):
                make_rules(variant, 9, {"set": 9})
    assert [make_rules("pip", n, {}).deal_size() for n in (2, 3, 7)] == [15, 9, 9]
    with pytest.raises(boneyard.VariantError):
        make_rules("pip", 8, {})


def test_the_partnership_examples_on_the_block_page() -> None:
    from boneyard.rules.block import partnership_blocked_side

    assert partnership_blocked_side([23, 8, 5, 6], "side_total") == 1
    assert partnership_blocked_side([23, 8, 5, 6], "lowest_hand") == 0
    assert partnership_blocked_side([19, 18, 18, 27], "side_total") == 0
    assert partnership_blocked_side([19, 18, 18, 27], "lowest_hand") is None


def test_the_aliases_are_names_only() -> None:
    for alias in ("muggins", "five-up", "fives"):
        assert make_rules(alias, 2, {}).options.spinner_mode == "first_double"


def test_a_deal_too_big_for_the_set_names_the_option() -> None:
    # block.md: "... or hands that need more tiles than the set holds raise `OptionError` naming the option"
    for variant in ("block", "bergen"):
        with pytest.raises(OptionError, match="deal_sizes"):
            make_rules(variant, 2, {"deal_sizes": 20})


def test_the_variants_listing_gives_the_player_range_of_the_larger_sets() -> None:
    done = subprocess.run([sys.executable, "-m", "boneyard", "variants", "block"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    make_rules("block", 8, {"set": 9})  # the engine takes it
    assert re.search(r"2.8", done.stdout) and re.search(r"2.10", done.stdout), done.stdout.splitlines()[0]


def test_option_help_and_errors_cite_nothing_outside_the_repository() -> None:
    outside = re.compile(r"\b([A-Z]{2,3}-\d+|RULES\.md|RECORD\.md)\b")
    cited = [f"{row['name']}.{o['name']}: {o['help']}" for row in VARIANT_ROWS.values() for o in row["options"]
             if outside.search(o["help"])]
    with pytest.raises(OptionError) as refused:
        make_rules("pip", 2, {"open_wild_end": "declared_on_play"})
    if outside.search(str(refused.value)):
        cited.append(str(refused.value))
    assert not cited, cited


# ---------------------------------------------------------------------------------------------------------------
# Records, replay, review: the formats quoted


def small_record(tmp_path: Path) -> Path:
    done = subprocess.run([sys.executable, "-m", "boneyard", "simulate", "all-fives", "--games", "1", "--ai",
                           "greedy,random", "--seed", "3", "--workers", "1", "--json", "--records",
                           str(tmp_path / "records")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return tmp_path / "records" / "game-000001.boneyard.json"


def test_the_replay_json_has_the_keys_record_md_shows(tmp_path: Path) -> None:
    example = json.loads(re.search(r"```json\n(.*?)```", text(DOCS / "record.md"), re.S).group(1))  # type: ignore[union-attr]
    replay = record.replay_json(json.loads(small_record(tmp_path).read_text()))
    assert set(replay) == set(example)
    assert set(replay["hands"][0]) == set(example["hands"][0])
    assert set(replay["hands"][0]["events"][0]) == set(example["hands"][0]["events"][0])
    assert {item for event in replay["hands"][0]["events"] for entry in event["scoring"] for item in entry} <= \
        {"name", "points"}


def test_an_illegal_move_is_named_as_record_md_says(tmp_path: Path) -> None:
    data = json.loads(small_record(tmp_path).read_text())
    data["hands"][0]["moves"][2] = "6-6@9"
    bad = tmp_path / "bad.boneyard.json"
    bad.write_text(json.dumps(data))
    done = subprocess.run([sys.executable, "-m", "boneyard", "replay", str(bad)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert re.search(r'hand 1, move 3 "6-6@9": \S', done.stderr), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_review_json_has_the_keys_review_md_lists(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "boneyard", "review", str(small_record(tmp_path)), "--samples", "2",
                           "--json", "--no-open-hands"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    review = json.loads(done.stdout)
    page = text(DOCS / "review.md")
    json_part = section(page, "## JSON")
    top = set(re.findall(r'"(\w+)"', json_part.split("A summary has")[0]))
    assert set(review) == top
    summary = set(re.findall(r"`(\w+)`", json_part.split("A summary has")[1].split("A decision has")[0]))
    assert set(review["summaries"][0]) == summary
    decision = set(re.findall(r"`(\w+)`", json_part.split("A decision has")[1]))
    assert set(review["decisions"][0]) == decision
    assert set(review["decisions"][0]["moves"][0]) == {"move", "value", "win"}
    assert review["by"].startswith("boneyard ") and "review expert:samples=2 seed=0" in review["by"]


def test_the_review_refusals_review_md_lists(tmp_path: Path) -> None:
    path = str(small_record(tmp_path))
    for extra in (["--seat", "5"], ["--time", "0.1", "--samples", "4"], ["--samples", "1"], ["--write", path]):
        done = subprocess.run([sys.executable, "-m", "boneyard", "review", path, *extra], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, (extra, done.stderr)


# ---------------------------------------------------------------------------------------------------------------
# Environments


def test_the_action_space_table_of_env_md() -> None:
    from boneyard.env import raw_env

    table = section(text(DOCS / "env.md"), "## Actions")
    rows = dict(re.findall(r"\| (double-six|double-nine|double-twelve|PIP \(70 tiles\)) \| \d+ \| \d+ \| (\d+) \|",
                           table))
    made = {"double-six": ("block", {}), "double-nine": ("block", {"set": 9}),
            "double-twelve": ("draw", {"set": 12}), "PIP (70 tiles)": ("pip", {})}
    assert set(rows) == set(made)
    for name, (variant, options) in made.items():
        assert raw_env(variant, players=2, options=options).action_space("seat_0").n == int(rows[name]), name


def test_every_observation_part_env_md_names_can_be_read() -> None:
    from boneyard.env import raw_env

    table = section(text(DOCS / "env.md"), "## Observations")
    parts = [p for p in re.findall(r"^\| ([a-z][a-z ]*) \|", table, re.M) if p != "part"]
    assert "hand" in parts and "dice" in parts
    game = raw_env("block", players=2, seed=1)
    game.reset()
    vector = game.observe("seat_0")["observation"]
    for part in parts:
        game.observer.part(vector, part)


def test_every_environment_gives_its_game_as_unwrapped_game() -> None:
    from boneyard.env import SingleSeatEnv, env
    from boneyard.state import Game

    table = env("block", players=2, seed=1)
    table.reset()
    assert isinstance(table.unwrapped.game, Game)
    single = SingleSeatEnv("block", players=2, seed=1)
    single.reset()
    assert isinstance(single.unwrapped.game, Game)  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------------------------------
# Players and hints


HINT_FORMS = [r"scores \d+", r"avoids the scorpion", r"keeps your \w+", r"blocks the \w+", r".+ has no \w+",
              r"sheds \d+ points", r"gets rid of a heavy tile \(\d+ points\)", r"sheds a heavy tile \(\d+ points\)",
              r"comes out ahead of the other moves however the unseen tiles lie",
              r"no other move does better; it is as good as any", r"the only move", r"nothing fits: draw",
              r"nothing fits and nothing to draw: pass", r"hands over a heavy tile \(\d+ points\)"]


def test_the_hint_gives_reasons_of_the_documented_forms() -> None:
    from boneyard.players.expert.hint import hint_move
    from boneyard.view import SeatView

    for variant in ("all-fives", "block", "flower-scorpion"):
        game = boneyard.new_game(variant, players=2, seed=4)
        rng = random.Random(4)
        for _ in range(12):
            if game.finished or game.hand_over:
                break
            _, reason = hint_move(SeatView(game, game.turn), samples=4)
            for part in reason.split("; "):
                assert any(re.fullmatch(form, part) for form in HINT_FORMS), reason
            game.apply(rng.choice(game.legal_moves()))


def test_the_hint_reasons_the_docs_quote_are_ones_the_hint_gives() -> None:
    quoted = re.findall(r"`([^`]+)`", section(text(DOCS / "players.md"), "## hints").split("says\nwhy", 1)[-1])
    quoted = [q for q in quoted if not q.startswith(("boneyard.", "h"))]
    readme = section(text(README), "### Computer opponents and hints")
    quoted += re.findall(r'\("([^"]+)", "([^"]+)"\)', readme)[0]
    wrong = [q for q in quoted if not any(re.fullmatch(form, q) for form in HINT_FORMS)]
    assert not wrong, wrong


def test_the_player_specs_players_md_names() -> None:
    for spec in ("heuristic", "expert:time=0.5", "expert:samples=200", "expert:fuse=16", "expert:doubt=0.5"):
        make_player(spec, seed=7)
    for bad in ("heuristic:depth=2", "expert:time=-1", "expert:samples=0", "expert:race=2", "nosuch"):
        with pytest.raises(OptionError):
            make_player(bad)
    assert make_player("expert").time == 0.5  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------------------------------
# The web table


def test_the_limits_table_of_web_md_is_the_defaults() -> None:
    from boneyard.web.limits import Limits

    limits = Limits()
    table = section(text(DOCS / "web.md"), "## Limits and security")
    expected = {"max_message": "4096 bytes", "max_body": "64 KiB", "max_record_body": "1 MiB", "max_depth": "32",
                "max_name": "40 characters", "max_connections_per_client": "32", "max_connections": "1000"}
    for name, shown in expected.items():
        assert re.search(rf"\| `{name}` \| {re.escape(shown)} \|", table), name
    assert (limits.max_message, limits.max_body, limits.max_record_body, limits.max_depth, limits.max_name,
            limits.max_connections_per_client, limits.max_connections) == (4096, 65536, 1 << 20, 32, 40, 32, 1000)
    assert (limits.messages_per_second, limits.message_burst) == (20, 40)
    assert (1 / limits.hints_per_second, limits.hint_burst) == (2, 5)  # "one per 2 s, 5 in a row"
    assert "| `hints_per_second`, `hint_burst` | one per 2 s, 5 in a row |" in table


def test_every_statement_of_the_hint_limit_in_web_md_agrees() -> None:
    from boneyard.web.limits import Limits

    limits = Limits()
    page = text(DOCS / "web.md")
    assert not re.search(r"hint\s+limit \(\d+ at once", page)  # the wording the page had when it was wrong
    stated = re.findall(r"hint\s+limit \((\d+) in a row, then one every (\d+) s\)", page)
    assert stated
    for burst, every in stated:
        assert (int(burst), float(every)) == (limits.hint_burst, 1 / limits.hints_per_second)


def web_error_codes() -> set[str]:
    codes = set()
    for path in (ROOT / "src" / "boneyard" / "web").glob("*.py"):
        codes |= set(re.findall(r'(?:ProtocolError\(|refuse\(|"code": )"([a-z_]+)"', text(path)))
    return codes


def test_the_error_codes_are_found() -> None:
    assert {"malformed", "illegal", "rate_limited", "too_many_connections", "hint_stale"} <= web_error_codes()


def test_web_md_names_every_error_code_and_every_api_route() -> None:
    from boneyard.web.app import create_app

    page = text(DOCS / "web.md")
    missing = [code for code in sorted(web_error_codes()) if f"`{code}`" not in page]
    app_routes = create_app("sqlite://").routes
    for route in app_routes:
        path = re.sub(r"\{\w+\}", "{id}", getattr(route, "path", ""))  # the page writes every id as {id}
        for method in sorted(getattr(route, "methods", None) or ()):
            if path.startswith("/api/") and method in ("GET", "POST") and f"{method} {path}" not in page:
                missing.append(f"{method} {path}")
    assert not missing, missing


# ---------------------------------------------------------------------------------------------------------------
# Architecture


def test_the_layer_map_names_real_modules() -> None:
    block = code_blocks(DOCS / "architecture.md")[0][1]
    src = ROOT / "src" / "boneyard"
    for name in re.findall(r"^([\w/]+(?:\.py|/))", block, re.M):
        assert (src / name).exists(), name


def test_the_layer_map_covers_every_module() -> None:
    block = code_blocks(DOCS / "architecture.md")[0][1]
    src = ROOT / "src" / "boneyard"
    named = set(re.findall(r"^([\w/]+(?:\.py|/))", block, re.M)) | set(re.findall(r"\b(\w+\.py) is", block))
    present = {p.name + ("/" if p.is_dir() else "") for p in src.iterdir()
               if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))
               and p.name not in ("__init__.py", "__main__.py")}
    assert present <= named, sorted(present - named)


def test_the_rules_hooks_and_errors_architecture_md_names() -> None:
    from boneyard.rules.base import Rules
    from boneyard.state import Game

    page = text(DOCS / "architecture.md")
    hooks = re.findall(r"\| `(\w+)`(?:, `(\w+)`)?(?:, `(\w+)`)? \|", section(page, "## The game state"))
    for row in hooks:
        for hook in filter(None, row):
            assert hasattr(Rules, hook) or hasattr(Game, hook), hook
    for error in re.findall(r"`(\w+Error)`", section(page, "## Errors")):
        assert hasattr(boneyard, error), error


def test_the_tournament_json_gives_the_plots_and_files_tournaments_md_names(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "boneyard", "tournament", "--players", "random,greedy", "--games",
                           "2", "--workers", "1", "--out", str(tmp_path / "t"), "--json"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert len(report["plots"]) == 4
    names = {Path(p).name for p in report["files"].values()}
    assert names == {"games.jsonl", "results.json", "table.csv", "ratings.csv", "ratings.png", "ratings.svg",
                     "scores.png", "scores.svg"}
    table = report["table"][0]
    assert {"games", "wins", "draws", "losses", "win_rate", "mean_score", "seat_win_rates"} <= set(table)
    assert "values" not in next(iter(report["scores"].values()))  # "without the per-game score lists"


def test_limits_is_a_frozen_dataclass() -> None:
    from boneyard.web.limits import Limits

    assert dataclasses.is_dataclass(Limits)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Limits().max_name = 3  # type: ignore[misc]
