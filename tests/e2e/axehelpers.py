"""axe-core in the browser tests: the WCAG 2.2 A and AA rules run on a page as it is shown.

axe.min.js comes from the pinned dev dependency ``axe-playwright-python`` (the file it ships);
it is evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
govern, so the page runs under its real policy."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

#: The rule sets of WCAG 2.0, 2.1 and 2.2, levels A and AA.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@cache
def axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def axe_violations(page: Any) -> list[str]:
    """axe's WCAG 2.2 A/AA violations on the page now, one line each (rule: where, why)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    result = page.evaluate(
        "tags => axe.run(document, "
        "{runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        TAGS,
    )
    lines = []
    for v in result["violations"]:
        for node in v["nodes"][:5]:
            lines.append(
                f"{v['id']} ({v['impact']}): {node['target']} {node['failureSummary'][:200]}"
            )
    return lines


def axe_version(page: Any) -> str:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    return str(page.evaluate("() => axe.version"))
