"""Each variant's rules, as a player reads them: the pages of ``docs/variants`` (one per variant, the rules in full
and their options), shipped inside the package as ``boneyard/docs`` (in the source tree a link to that folder, so
the text is written once).  ``boneyard rules NAME`` prints a page, ``rules`` at the terminal's move prompt prints
the game's, and the web table serves them as ``/rules/NAME``.
"""

from __future__ import annotations

import re
from importlib import resources

from boneyard.errors import BoneyardError
from boneyard.rules.base import VARIANTS, find_variant

#: where the pages are in a source checkout, for the message when they are not installed
SOURCE = "docs/variants"


def page(variant: str) -> str:
    """The Markdown text of the rules of ``variant`` (a name or an alias).  An unknown name is a
    :class:`~boneyard.errors.VariantError`; a page not installed (a checkout whose file system has no links: the
    folder is then a file naming its target) is a :class:`~boneyard.errors.BoneyardError` that says where to read
    it."""
    name = find_variant(variant).name
    try:
        return (resources.files("boneyard") / "docs" / f"{name}.md").read_text(encoding="utf-8")
    except OSError:
        raise BoneyardError(f"the rules pages are not installed here: read {SOURCE}/{name}.md in Boneyard's "
                            "source") from None


def html(variant: str) -> str:
    """The rules of ``variant`` as an HTML fragment: a link to another variant's page goes to its ``/rules/``
    page, a link to another document of the project becomes its words (the web table serves no other document),
    and HTML written in the page is shown as text."""
    from markdown_it import MarkdownIt

    def linked(found: re.Match[str]) -> str:
        words, target = found.group(1), found.group(2)
        stem = target.removesuffix(".md")
        if stem in VARIANTS:
            return f"[{words}](/rules/{stem})"
        if target.startswith(("http://", "https://", "#")):
            return found.group(0)
        return words
    text = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", linked, page(variant))
    return str(MarkdownIt("commonmark", {"html": False}).enable("table").render(text))


__all__ = ["SOURCE", "html", "page"]
