"""The keyboard audit's eyes (tests/e2e/test_keyboard_audit.py): what a page offers to the keyboard,
where Tab actually goes, what a screen reader calls each stop, and how each stop looks.

``expected_stops`` lists, in DOM order, every element the keyboard should reach: links, buttons,
fields, a details' summary, anything with ``tabindex >= 0``; not a disabled one, not one hidden
(``display: none``, ``visibility: hidden``, inside a closed ``<details>``), and of a group of
radio buttons only the one Tab lands on (the checked one, else the first). ``tab_walk`` then
presses Tab from the top of the page until focus leaves the page or comes back to its first stop,
and compares: the same stops in the same order, none twice (a trap), and for each stop its
accessible name (the browser's accessibility tree, through the DevTools protocol), its focus
indicator (an outline or a box shadow while it matches ``:focus-visible``) and its size (24 x 24
CSS px at least, WCAG 2.2's 2.5.8, unless it is a link inside a sentence: the "inline" exception).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Marks the stops with ``data-kb`` (their DOM order) and describes them.
EXPECTED = r"""() => {
  const sel = 'a[href], area[href], button, input:not([type=hidden]), select, textarea, iframe,'
    + ' summary, [tabindex], [contenteditable=""], [contenteditable=true]';
  const shown = e => e.checkVisibility({visibilityProperty: true})
    && e.getClientRects().length > 0;
  const groups = {};
  const out = [];
  document.querySelectorAll('[data-kb]').forEach(e => e.removeAttribute('data-kb'));
  for (const e of document.querySelectorAll(sel)) {
    if (e.matches(':disabled') || e.closest('[inert]')) continue;
    if (e.tagName === 'SUMMARY' && !(e.parentElement.tagName === 'DETAILS'
        && e.parentElement.querySelector(':scope > summary') === e)) continue;
    const t = e.getAttribute('tabindex');
    if (t !== null && parseInt(t, 10) < 0) continue;
    if (!shown(e)) continue;
    if (e.type === 'radio') {
      const key = (e.form ? 'f' + [...document.forms].indexOf(e.form) : 'doc') + ':' + e.name;
      const all = [...document.querySelectorAll('input[type=radio]')].filter(r =>
        r.name === e.name && r.form === e.form && !r.disabled && shown(r));
      const lands = all.find(r => r.checked) || all[0];
      if (lands !== e || groups[key]) continue;
      groups[key] = true;
    }
    e.setAttribute('data-kb', String(out.length));
    out.push(window.__kbDescribe(e));
  }
  return out;
}"""

#: Helpers the other scripts use, installed once per page.
INSTALL = r"""() => {
  window.__kbDescribe = e => {
    const text = (e.getAttribute('aria-label') || e.textContent || e.value || '').trim()
      .replace(/\s+/g, ' ').slice(0, 40);
    const cls = typeof e.className === 'string' && e.className ? '.' + e.className.trim()
      .split(/\s+/).join('.') : '';
    return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + cls
      + (e.name ? '[name=' + e.name + ']' : '') + (text ? ' "' + text + '"' : '');
  };
  // A link inside a sentence: laid out inline, in a block that holds text of its own.
  window.__kbInline = e => {
    if (e.tagName !== 'A' || getComputedStyle(e).display !== 'inline') return false;
    let block = e.parentElement;
    while (block && getComputedStyle(block).display.startsWith('inline')) {
      block = block.parentElement;
    }
    if (!block) return false;
    const own = block.textContent.replace(/\s+/g, '');
    let others = 0;
    block.querySelectorAll('a, button').forEach(x => {
      others += x.textContent.replace(/\s+/g, '').length;
    });
    return own.length - others >= 3;
  };
}"""

#: The focused element, as ``tab_walk`` checks it.
FOCUSED = r"""() => {
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return null;
  const r = e.getBoundingClientRect();
  const cs = getComputedStyle(e);
  return {
    kb: e.getAttribute('data-kb'), what: window.__kbDescribe(e),
    w: r.width, h: r.height,
    inView: r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth,
    focusVisible: e.matches(':focus-visible'),
    outline: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2,
    shadow: cs.boxShadow !== 'none',
    inline: window.__kbInline(e),
    segments: e.tagName === 'INPUT' && /^(date|time|datetime-local|month|week)$/.test(e.type),
  };
}"""

POSITIVE_TABINDEX = r"""() => [...document.querySelectorAll('[tabindex]')]
  .filter(e => parseInt(e.getAttribute('tabindex'), 10) > 0).map(e => e.outerHTML.slice(0, 80))"""

#: Target size (WCAG 2.2, 2.5.8 AA): 24 by 24 CSS px.
TARGET = 24


@dataclass
class Walk:
    """One page's Tab walk: the stops expected, those reached, and what was wrong."""

    url: str
    expected: list[str]
    reached: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _ax(cdp: Any) -> tuple[str, str]:
    """The focused element's role and accessible name, from Chromium's accessibility tree."""
    ref = cdp.send("Runtime.evaluate", {"expression": "document.activeElement"})
    object_id = ref["result"].get("objectId")
    if not object_id:
        return "", ""
    asked = {"objectId": object_id, "fetchRelatives": False}
    nodes = cdp.send("Accessibility.getPartialAXTree", asked)["nodes"]
    cdp.send("Runtime.releaseObject", {"objectId": object_id})
    node = next((n for n in nodes if not n.get("ignored")), nodes[0] if nodes else {})
    role = str(node.get("role", {}).get("value", ""))
    name = str(node.get("name", {}).get("value", "")).strip()
    return role, name


def _check_stop(walk: Walk, info: dict[str, Any], role: str, name: str) -> None:
    what = info["what"]
    if not name:
        walk.problems.append(f"no accessible name ({role}): {what}")
    if not info["focusVisible"] or not (info["outline"] or info["shadow"]):
        walk.problems.append(f"focus not visible (no outline or shadow on :focus-visible): {what}")
    if not info["inView"]:
        walk.problems.append(f"focused but out of sight: {what}")
    small = info["w"] < TARGET - 0.01 or info["h"] < TARGET - 0.01
    if small and not info["inline"]:
        walk.problems.append(f"target {info['w']:.0f}x{info['h']:.0f} px < 24x24: {what}")


def tab_walk(page: Any, url: str, prepare: str = "") -> Walk:
    """Open ``url`` (then run the script ``prepare`` in it) and Tab through it (see the module)."""
    page.goto(url)
    if prepare:
        page.evaluate(prepare)
    page.evaluate(INSTALL)
    walk = Walk(url, page.evaluate(EXPECTED))
    walk.problems += [f"positive tabindex: {h}" for h in page.evaluate(POSITIVE_TABINDEX)]
    cdp = page.context.new_cdp_session(page)
    order: list[int] = []
    for _press in range(len(walk.expected) * 2 + 10):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUSED)
        if info is None:  # focus left the page: the walk is over
            break
        index = int(info["kb"]) if info["kb"] is not None else None
        if order and index == order[-1] and info["segments"]:
            continue  # Tab moves between a date field's parts (day, month, year) first
        if order and index == order[0]:  # back at the first stop
            break
        if index is not None and index in order:
            walk.problems.append(f"focus trap: {info['what']} reached twice")
            break
        walk.reached.append(info["what"])
        if index is None:
            walk.problems.append(f"a stop the page does not list as focusable: {info['what']}")
        else:
            order.append(index)
        _check_stop(walk, info, *_ax(cdp))
    else:
        walk.problems.append("Tab never left the page nor came back to its first stop (a trap)")
    cdp.detach()
    if order != sorted(order):
        walk.problems.append(f"focus order is not the page's order: {order}")
    missed = [walk.expected[k] for k in range(len(walk.expected)) if k not in order]
    walk.problems += [f"never reached by Tab: {m}" for m in missed]
    return walk


#: The page wider than its window (WCAG 1.4.10 reflow): what sticks out, outside boxes that
#: scroll on purpose (the board, wide tables: two-dimensional content is exempt).
REFLOW = r"""() => { const W = document.documentElement.clientWidth; const out = [];
  document.querySelectorAll('body *').forEach(e => {
    const r = e.getBoundingClientRect();
    if (r.width && r.right > W + 1 && !e.closest('.board-scroll, .table-wrap'))
      out.push(window.__kbDescribe(e) + ' right=' + Math.round(r.right));
  });
  return {width: document.documentElement.scrollWidth, window: W, wider: out.slice(0, 6)}; }"""

#: Every element still animated or moving under ``prefers-reduced-motion: reduce``.
MOTION = r"""() => { const out = [];
  const secs = v => v.split(',').map(s => parseFloat(s) * (s.trim().endsWith('ms') ? 0.001 : 1));
  for (const e of [document.documentElement, ...document.querySelectorAll('body, body *')]) {
    for (const pseudo of [null, '::before', '::after']) {
      const cs = getComputedStyle(e, pseudo);
      const moving = secs(cs.transitionDuration).some(s => s > 0.01)
        || (cs.animationName !== 'none' && secs(cs.animationDuration).some(s => s > 0.01));
      if (moving) out.push(window.__kbDescribe(e) + (pseudo || ''));
    }
  }
  if (getComputedStyle(document.documentElement).scrollBehavior === 'smooth') {
    out.push('html: smooth scrolling');
  }
  return out.slice(0, 8); }"""
