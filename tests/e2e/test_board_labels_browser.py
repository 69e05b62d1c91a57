"""The board's city names measured by Chromium itself (its fonts, its widths): no two overlap and
none covers another city's disc, on every map in English and Japanese. Screenshots go to
test-artifacts/screenshots/board-<map>-<lang>.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.web.board_svg import render_board

pytestmark = pytest.mark.e2e

CSS = (Path(__file__).resolve().parents[2] / "static" / "css" / "site.css").read_text()
MEASURE = """() => {
  const ctm = document.querySelector('svg.board').getScreenCTM();
  const box = e => { const r = e.getBoundingClientRect();
    return {city: e.closest('[data-city]').dataset.city,
            x0: r.left, x1: r.right, y0: r.top, y1: r.bottom}; };
  // Horizontal extent from the browser; vertical from the baseline and the font size (the line
  // box a browser reports is much taller than the ink).
  const names = Array.from(document.querySelectorAll('svg.board .city text.name')).map(e => {
    const b = box(e); const y = e.y.baseVal[0].value * ctm.d + ctm.f;
    return {...b, y0: y - 8.8 * ctm.d, y1: y + 2.2 * ctm.d}; });
  const discs = Array.from(document.querySelectorAll('svg.board .city .disc')).map(box);
  return {names, discs};
}"""


def _hit(a, b, pad=0.5):
    return (
        a["x0"] < b["x1"] - pad
        and b["x0"] < a["x1"] - pad
        and a["y0"] < b["y1"] - pad
        and b["y0"] < a["y1"] - pad
    )


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("slug", ["germany", "usa", "italy", "france"])
def test_board_names_do_not_overlap_in_the_browser(browser, shots, slug, lang):
    svg = render_board(map_slug=slug, areas=None, lang=lang)
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    try:
        page.set_content(
            f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f"<style>{CSS}</style></head><body><main><section class='card board-card'>"
            f"{svg}</section></main></body></html>"
        )
        page.locator("svg.board").screenshot(path=str(shots / f"board-{slug}-{lang}.png"))
        m = page.evaluate(MEASURE)
    finally:
        page.close()
    names, discs = m["names"], m["discs"]
    assert len(names) == len(discs) > 30
    clashes = [
        (a["city"], b["city"]) for i, a in enumerate(names) for b in names[i + 1 :] if _hit(a, b)
    ]
    assert clashes == []
    covered = [
        (a["city"], d["city"])
        for a in names
        for d in discs
        if a["city"] != d["city"] and _hit(a, d, 1.5)
    ]
    assert covered == []
