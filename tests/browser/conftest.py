"""Browser fixtures: Debian's chromium driven by Playwright against pytest-django's live server.

Playwright's own browser download does not work on our machines, so the tests launch the system
chromium. Locally a missing /usr/bin/chromium skips the browser tests; in CI (CI set) it fails them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
}


@pytest.fixture(autouse=True)
def plain_static_files(settings):
    """Serve static files to the live server's pages without the collectstatic manifest.

    pytest-django's live server wraps the app in staticfiles' StaticFilesHandler, which answers every
    /static/ URL itself from the finders (static/ and the apps), before WhiteNoise sees it. The
    finders know `css/app.css`, not the hashed `css/app.733e58a1159f.css` that the manifest storage
    writes into the pages, so every asset would be a 404. With the plain storage the pages ask for
    the unhashed names, which the finders serve (no collectstatic needed either).
    """
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests."
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
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

    def open_phone():
        context = browser.new_context(**PHONE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        number = len(contexts)

        def failed(response):
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
        width, scroll = page.evaluate("[window.innerWidth, document.documentElement.scrollWidth]")
        assert scroll <= width, f"{name}: the page is {scroll} px wide on a {width} px phone (see {path})"
        # scrollWidth misses a child that overflows a fieldset or a clipped box: ask every element.
        # Text cut with an ellipsis (.text-truncate) is clipped inside its box and does not count.
        sticking_out = page.evaluate(
            """() => [...document.querySelectorAll('main *')]
                .filter(e => !e.closest('.text-truncate'))
                .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
                .map(e => e.tagName + '.' + e.className)"""
        )
        assert sticking_out == [], f"{name}: wider than the phone: {sticking_out[:5]} (see {path})"
        return path

    return take
