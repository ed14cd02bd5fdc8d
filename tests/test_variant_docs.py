"""The variant pages stand on their own: every document they cite is in the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boneyard.rules.base import VARIANTS

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted((DOCS / "variants").glob("*.md"))


def test_every_variant_has_a_page() -> None:
    assert {page.stem for page in PAGES} >= set(VARIANTS)


@pytest.mark.parametrize("page", PAGES, ids=[page.stem for page in PAGES])
def test_a_variant_page_cites_only_documents_in_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for name in re.findall(r"[\w./-]+\.md\b", text):
        target = (page.parent / name).resolve() if "/" in name or name in {p.name for p in PAGES} else DOCS / name
        assert target.exists(), f"{page.name} cites {name}, which is not in the repository"
    for target in re.findall(r"\]\(([^)#]+)", text):
        if not target.startswith("http"):
            assert (page.parent / target).resolve().exists(), f"{page.name} links to {target}"
    # the numbered rules of an outside rulebook (C12, BLK-3, A5-4 …) are stated in words instead
    assert not re.search(r"\b(C1[0-3]|C[1-9]|[A-Z]{2,3}-\d+|AMB-[A-Z]+-\d+)\b", text), page.name
