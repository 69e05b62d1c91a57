"""The README and docs/ point only at files that are in the repository (the README once sent
readers to shared/API.md and shared/DESIGN.md, which were not)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: A file of this repository named in backquotes: a path under one of its top folders with an
#: extension (`docs/API.md`; other projects' files, cited as examples, are not checked).
NAMED = re.compile(r"`((?:[\w.-]+/)+[\w.-]+\.(?:md|py|yaml|yml|toml|json|sh|cfg|txt|html|js|css))`")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_link_and_named_file_exists(doc):
    text = doc.read_text(encoding="utf-8")
    missing = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        path = target.split("#", 1)[0]
        if not path or "://" in path or path.startswith("mailto:"):
            continue
        if not (doc.parent / path).exists():
            missing.append(target)
    for name in NAMED.findall(text):
        if not (ROOT / name.split("/", 1)[0]).is_dir():
            continue
        if not (ROOT / name).exists() and not (doc.parent / name).exists():
            missing.append(name)
    assert missing == [], f"{doc.relative_to(ROOT)} names files that are not here: {missing}"


def test_the_api_contract_is_in_the_repository():
    assert (ROOT / "docs" / "API.md").is_file()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/API.md)" in readme
    assert "shared/" not in readme


def test_the_design_map_names_every_room():
    """docs/DESIGN.md's map names every module of the pages, the API and the emails, every card
    of the game page and every package of games/ (a newcomer found a third of them missing)."""
    from games.web.cards import CARDS

    design = (ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8")
    missing = [
        f"{folder}/{path.name}"
        for folder in ("games/web", "games/api", "games/notifications")
        for path in sorted((ROOT / folder).glob("*.py"))
        if path.name != "__init__.py" and not re.search(rf"\b{re.escape(path.name)}\b", design)
    ]
    missing += [
        f"games/{path.parent.name}/"
        for path in sorted((ROOT / "games").glob("*/__init__.py"))
        if path.parent.name != "migrations" and f"{path.parent.name}/" not in design
    ]
    cards = design[design.index("The cards, in the page's order:") :].split(". A new card")[0]
    missing += [f"card {card}" for card in CARDS if not re.search(rf"\b{card}\b", cards)]
    assert missing == [], f"docs/DESIGN.md's map does not name {missing}"


#: An API path the docs name: from ``/api/`` to its closing slash, placeholders included.
API_PATH = re.compile(r"(?<![\w/.])/api/[\w./{}<>-]*/")
#: Prefixes the prose names ("every path under /api/v1/"), no operation's URL.
API_PREFIXES = {"/api/", "/api/v1/"}
#: Paths served only when a setting turns them on (games/api/bench.py: BENCH_ENDPOINTS).
API_WHEN_ON = {"/api/bench/insert/"}


def _api_paths() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for path in API_PATH.findall(doc.read_text(encoding="utf-8")):
            if "..." not in path and path not in API_PREFIXES | API_WHEN_ON:
                found.append((doc.name, path))
    return found


def test_every_api_path_the_docs_name_is_served():
    """A path of the API that the docs name is one the server has (docs/API.md called
    ``/api/v1/schema/`` the published schema while only ``/api/schema/`` served it: a 404 for
    every client that followed the docs). Placeholders (``{id}``, ``<level>``) stand for 1."""
    from django.urls import Resolver404, resolve

    found = _api_paths()
    assert ("API.md", "/api/v1/schema/") in found, found
    assert len(found) > 50, found
    unknown = []
    for doc, path in found:
        try:
            resolve(re.sub(r"\{\w+\}|<\w+>", "1", path))
        except Resolver404:
            unknown.append(f"{doc}: {path}")
    assert unknown == [], f"the docs name API paths the server does not have: {unknown}"
