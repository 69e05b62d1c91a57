"""Browser tests: Playwright (sync API) driving Debian's Chromium against the live server.

Never downloads a browser. Without /usr/bin/chromium the tests skip, except under CI=true, where
they fail.

Every page a test opens through the ``browser`` fixture runs under the site's
Content-Security-Policy and is watched for violations (the ``securitypolicyviolation`` event and
Chromium's console message): a test whose pages caused one fails when it ends, with the list.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
CSP_MARK = "CSP violation:"
# Runs in every page before its own scripts (an init script is not subject to the page's policy).
WATCH_CSP = (
    "document.addEventListener('securitypolicyviolation', e => console.error("
    f"'{CSP_MARK} ' + e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline') +"
    " ' in ' + e.sourceFile + ':' + e.lineNumber), true);"
)


class CspWatchedBrowser:
    """The session's Chromium, handing out contexts and pages that record CSP violations."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self.contexts: list[Any] = []
        self.violations: list[str] = []
        # Violations a test causes on purpose (a context opened with ``provoke=True``): kept apart,
        # so one reported after the test has looked (Chromium reports a blocked image when it
        # gets to it) cannot fail the test at its end.
        self.provoked: list[str] = []

    def new_context(self, *, live: bool = False, provoke: bool = False, **kw: Any) -> Any:
        """A context; ``live``: its game pages follow their games (static/js/live.js). Without
        it the event stream answers 204 (an EventSource then stops; static/js/live.js listens again
        a few times, minutes apart, and gets 204 again), so a page stays
        as it was loaded, as without JavaScript, and a test's own navigation never races the
        page's reload (tests/e2e/test_whole_game_walk_browser.py walks the live pages)."""
        ctx = self._browser.new_context(**kw)
        if not live:
            ctx.route(re.compile(r"/api/v1/stream/"), lambda route: route.fulfill(status=204))
        ctx.add_init_script(WATCH_CSP)
        ctx.on(
            "console", lambda msg: self._console(msg, self.provoked if provoke else self.violations)
        )
        self.contexts.append(ctx)
        return ctx

    def new_page(self, **kw: Any) -> Any:
        return self.new_context(**kw).new_page()

    @staticmethod
    def _console(msg: Any, into: list[str]) -> None:
        text = msg.text
        if text.startswith(CSP_MARK) or "Content Security Policy" in text:
            into.append(f"{msg.location.get('url', '?')}: {text}")

    def settle(self) -> None:
        """Let every open page deliver the events of the work it has done."""
        for ctx in self.contexts:
            for page in ctx.pages:
                # Waited for on Playwright's side: a page without JavaScript would never run a
                # timer of its own.
                with contextlib.suppress(Exception):
                    page.wait_for_timeout(50)

    def close(self) -> None:
        for ctx in self.contexts:
            with contextlib.suppress(Exception):
                ctx.close()


@pytest.fixture
def browser(chromium):
    watched = CspWatchedBrowser(chromium)
    yield watched
    watched.settle()
    violations = list(watched.violations)
    watched.close()
    assert violations == [], "Content-Security-Policy violations:\n" + "\n".join(violations)


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but Chromium is missing at {CHROMIUM}")
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but playwright is not installed")
        pytest.skip("playwright not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
