"""Browser fixtures: Debian's chromium driven by Playwright against the app served as `make run`
serves it (gunicorn with uvicorn workers on the test database, tests/servers.py), so the event
streams, the static files and the headers are the real ones.

Playwright's own browser download does not work on our machines, so the tests launch the system
chromium. A missing /usr/bin/chromium fails them, with the command that installs it: they are never
skipped in silence (`make test` installs it where it can, issue 17).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.test.utils import override_settings

from tests.servers import app_servers

# Playwright's sync API runs an event loop in the test thread, from the session's first browser test
# to its end; Django would then refuse the ORM calls made there (pytest-django's flush after each
# transactional test, any later test's queries): "You cannot call this from an async context".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    # Bootstrap fades link colours for .15 s on a change of colour scheme; axe caught one mid-fade
    # (a contrast of 3.18 on the big screen, in the whole suite only). Reduced motion: no fades.
    "reduced_motion": "reduce",
}


class AppServer:
    """What the tests use of pytest-django's live_server: its url (and the settings hook its
    autouse helper calls, a no-op here: the server is another process)."""

    def __init__(self, url: str, port: int):
        self.url, self.port = url, port
        self._live_server_modified_settings = override_settings()


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker):
    """One app server for the whole session, on the test database (each test still gets a
    transactional database: pytest-django's helper asks for it on seeing this fixture's name)."""
    with django_db_blocker.unblock(), app_servers(["--workers", "2"]) as (server,):
        yield AppServer(server.url, server.port)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `sudo apt-get install chromium fonts-noto-color-emoji`.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_phone(browser):
    """A factory of phones: each call opens a new browser context (own cookies: another phone).

    Every phone records JavaScript errors and failed HTTP answers (a missing stylesheet, a 500);
    any of them fails the test at teardown.
    """
    contexts, problems = [], []

    def open_phone(**settings):
        context = browser.new_context(**{**PHONE, **settings})  # e.g. locale="fr-FR"
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        number = len(contexts)

        def failed(response):
            # A test that makes a server error on purpose lists its URLs in page.expected_errors.
            if any(re.search(pattern, response.url) for pattern in getattr(page, "expected_errors", ())):
                return
            if response.status >= 400:
                problems.append(f"phone {number}: HTTP {response.status} for {response.url}")

        page.on("pageerror", lambda error: problems.append(f"phone {number}: JavaScript error {error}"))
        # A script or style blocked by the Content-Security-Policy is a bug of the page, not noise.
        page.on(
            "console",
            lambda msg: (
                problems.append(f"phone {number}: {msg.text}")
                if msg.type == "error" and "Content Security Policy" in msg.text
                else None
            ),
        )
        page.on("response", failed)
        return page

    yield open_phone
    for context in contexts:
        context.close()
    if problems:
        pytest.fail("The pages had problems:\n" + "\n".join(problems))


@pytest.fixture
def phone(new_phone):
    """One phone, 390 x 844 CSS pixels at 2x, touch."""
    return new_phone()


@pytest.fixture
def shot():
    """Save a full-page screenshot as test-artifacts/browser/<name>.png (and check nothing overflows)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        # Bootstrap fades a button's colours for .15 s after a tap: photograph the settled page.
        # A function, not an expression: Playwright re-polls an expression through eval(), which
        # the app's Content-Security-Policy (script-src 'self') rightly forbids.
        page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
        # From the top: the sticky navbar would otherwise be drawn over the page where it was scrolled.
        page.evaluate("window.scrollTo(0, 0)")
        path = ARTIFACTS / f"{name}.png"
        # caret="initial": hiding the caret would inject a style element, which the CSP refuses.
        page.screenshot(path=str(path), full_page=True, caret="initial")
        # The phone's own width, not innerWidth: a mobile browser widens its layout viewport to a page
        # that overflows (zoomed out), and innerWidth then grows with the overflow (issue 44: a
        # Climb row of 18 buttons passed as 810 px "wide enough").
        width = page.viewport_size["width"]
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"{name}: the page is {scroll} px wide on a {width} px phone (see {path})"
        # scrollWidth misses a child that overflows a fieldset or a clipped box: ask every element.
        # Text cut with an ellipsis (.text-truncate) is clipped inside its box and does not count.
        sticking_out = page.evaluate(
            """(width) => [...document.querySelectorAll('main *')]
                .filter(e => !e.closest('.text-truncate'))
                .filter(e => e.getBoundingClientRect().right > width + 1)
                .map(e => e.tagName + '.' + e.className)""",
            width,
        )
        assert sticking_out == [], f"{name}: wider than the phone: {sticking_out[:5]} (see {path})"
        return path

    return take
