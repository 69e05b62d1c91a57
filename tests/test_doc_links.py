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
