"""Every link in README.md and docs/ that points inside the repository leads somewhere: the file
exists, and a ``#anchor`` names a heading of that page (GitHub's heading anchors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"```.*?```", re.DOTALL)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings."""
    found: set[str] = set()
    for line in CODE.sub("", page.read_text(encoding="utf-8")).splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip().lower()
            text = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
            found.add(text)
    return found


def links(page: Path) -> list[str]:
    return LINK.findall(CODE.sub("", page.read_text(encoding="utf-8")))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_links_inside_the_repository_resolve(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading with that anchor")
    assert broken == []


def test_the_readme_is_short_and_every_docs_page_is_linked() -> None:
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
    linked = {(page.parent / t.partition("#")[0]).resolve() for page in PAGES for t in links(page)
              if not re.match(r"[a-z]+:", t) and t.partition("#")[0]}
    orphans = [str(p.relative_to(REPO)) for p in PAGES[1:] if p.resolve() not in linked]
    assert orphans == []
