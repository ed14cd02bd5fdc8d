"""Each variant's rules where a player plays: ``boneyard rules NAME``, ``rules`` at the move prompt, and the web
table's ``/rules/NAME`` (linked from the lobby and the table).  The text is docs/variants' pages, written once."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import boneyard
from boneyard import rulebook
from boneyard.errors import BoneyardError, VariantError
from boneyard.rules.base import VARIANTS
from boneyard.terminal import start_session

DOCS = Path(__file__).resolve().parent.parent / "docs" / "variants"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_s_page_is_its_docs_page(name: str) -> None:
    text = rulebook.page(name)
    assert text == (DOCS / f"{name}.md").read_text(encoding="utf-8")  # the same text, not a copy to keep
    heading = text.split("\n", 1)[0]  # "# Block" for Block dominoes, "# All Fives (Muggins, Five-Up)"
    assert heading.startswith("# ") and VARIANTS[name].title.startswith(heading[2:].split(" (")[0])
    assert "\n## Options\n" in text


def test_a_page_is_found_by_alias_and_an_unknown_name_is_refused_with_a_guess() -> None:
    assert rulebook.page("muggins") == rulebook.page("all-fives")
    with pytest.raises(VariantError, match=r"unknown variant 'blok' \(did you mean 'block'\?"):
        rulebook.page("blok")


def test_pages_not_installed_say_where_to_read_them(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A checkout on a file system without links has a file where the folder of pages should be."""
    (tmp_path / "docs").write_text("../../docs/variants")
    monkeypatch.setattr(rulebook.resources, "files", lambda package: tmp_path)
    with pytest.raises(BoneyardError, match=r"the rules pages are not installed here: read docs/variants/pip\.md"):
        rulebook.page("PIP")


def test_the_html_links_the_variants_pages_and_shows_written_html_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    html = rulebook.html("draw")
    assert html.startswith("<h1>Draw</h1>")
    assert '<a href="/rules/block">Block</a>' in html  # "As [Block](block.md)": the site's page of Block
    assert "<table>" in rulebook.html("all-fives")  # its options table
    written = "# T\n\n<script>alert(1)</script> see [the record format](../record.md), [Block](block.md), " \
              "[a site](https://example.org/x) and [below](#t)"
    monkeypatch.setattr(rulebook, "page", lambda variant: written)
    html = rulebook.html("block")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "see the record format, " in html  # a document the site does not serve: its words
    assert '<a href="/rules/block">Block</a>' in html
    assert '<a href="https://example.org/x">a site</a>' in html and '<a href="#t">below</a>' in html


def test_boneyard_rules_prints_the_page_and_variants_points_to_it() -> None:
    from typer.testing import CliRunner

    from boneyard.cli import app

    runner = CliRunner()
    shown = runner.invoke(app, ["rules", "flower-scorpion"], env={"COLUMNS": "100"})
    assert shown.exit_code == 0, shown.output
    flat = " ".join(shown.output.split())
    assert "Flower & Scorpion" in flat and "The game in short" in flat
    assert "the Flower tile 5-2" in flat and "#" not in shown.output.split("\n")[0]  # rendered, not the Markdown
    wrong = runner.invoke(app, ["rules", "chess"])
    assert wrong.exit_code != 0 and "unknown variant 'chess'" in wrong.output and "Traceback" not in wrong.output
    assert "its rules: boneyard rules block" in runner.invoke(app, ["variants", "block"]).output


def test_rules_at_the_move_prompt_prints_the_game_s_rules() -> None:
    game = boneyard.new_game("bergen", 2, seed=3)
    console = Console(record=True, width=100, file=io.StringIO())
    answers = iter(["rules", "q"])
    session = start_session(game, ["greedy"], 0, None, console, lambda prompt: next(answers))
    while game.turn != 0:
        game.apply(game.legal_moves()[0])
    played = len(game.hand.events)
    assert session.human_turn() is False  # (q)
    text = " ".join(console.export_text().split())
    assert "The game in short" in text and "double header" in text
    assert len(game.hand.events) == played  # asking played nothing
    assert "Commands: h = hint, u = undo" in boneyard.terminal.HELP and "rules = the rules" in boneyard.terminal.HELP


def test_the_web_table_serves_every_page_and_refuses_an_unknown_name(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from boneyard.web.app import create_app
    from tests.test_web_api import LocalClient

    with LocalClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")) as client:
        for name, cls in VARIANTS.items():
            page = client.get(f"/rules/{name}")
            assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
            assert f"<title>{cls.title.replace('&', '&amp;')}: the rules — Boneyard</title>" in page.text
            assert rulebook.html(name) in page.text
        assert client.get("/rules/muggins").text == client.get("/rules/all-fives").text
        missing = client.get("/rules/chess")
        assert missing.status_code == 404 and "unknown variant 'chess'" in missing.json()["detail"]


@pytest.mark.browser
def test_the_lobby_and_the_table_link_the_variant_s_rules(tmp_path: Path) -> None:
    from tests.test_browser import ARGS, CHROMIUM, Server, open_page, playwright_api  # (skips without Chromium)

    running = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        with playwright_api.sync_playwright() as driver:
            chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = open_page(chromium, running.url + "/")
            page.select_option("#variant", "draw")
            link: Any = page.locator("#variant-rules")
            assert link.get_attribute("href") == "/rules/draw" and link.get_attribute("target") == "_blank"
            page.select_option("#variant", "flower-scorpion")
            assert link.get_attribute("href") == "/rules/flower-scorpion"
            page.click("#create")
            page.wait_for_selector("#rules-link:not([hidden])")
            assert page.get_attribute("#rules-link", "href") == "/rules/flower-scorpion"
            rules = chromium.new_page()
            rules.goto(running.url + "/rules/flower-scorpion")
            assert rules.inner_text("h1") == "Flower & Scorpion"
            assert re.search(r"The game in short", rules.inner_text("main"))
            rules.click("a.brand")
            rules.wait_for_selector("body[data-ready]")  # the header leads back to the lobby
            phone = chromium.new_page(viewport={"width": 390, "height": 844})
            for name in VARIANTS:  # a phone reads every page without scrolling sideways (long code words wrap)
                phone.goto(f"{running.url}/rules/{name}")
                width, scrolled = phone.evaluate("() => [innerWidth, document.documentElement.scrollWidth]")
                assert scrolled <= width, f"/rules/{name} is {scrolled} px wide on a {width} px phone"
            chromium.close()
    finally:
        running.stop()
