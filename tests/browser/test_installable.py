"""The app on the home screen (issue 17): a valid, installable web manifest, a service worker that
keeps the static files under a versioned cache, and a table page that opens again with no network,
saying it is the copy this phone last saw."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from companion.tables import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACTIVATED = """() => navigator.serviceWorker.getRegistration()
    .then(r => !!r && !!r.active && r.active.state === "activated")"""
CACHES = "() => caches.keys()"


def until(page: Page, predicate: str, seconds: float = 10) -> None:
    """Wait for an async predicate (wait_for_function would take its promise for a true value)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(predicate):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {predicate}"
        page.wait_for_timeout(100)


def worker_ready(page: Page) -> None:
    until(page, ACTIVATED)


def open_table(page: Page, base_url: str):
    table = services.create_table("hang-four", ["Ann", "Ben"], {})
    services.play_action(table.id, {"type": "roll", "face": 4}, table.version)
    page.goto(f"{base_url}/t/{table.id}/join/{table.token}/")
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))
    return table


def test_the_manifest_is_valid_and_the_app_installable(live_server, phone):
    open_table(phone, live_server.url)
    worker_ready(phone)
    cdp = phone.context.new_cdp_session(phone)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest["errors"] == []
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's browser contexts are incognito, where Chromium never installs an app.
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []
    data = phone.evaluate("() => fetch('/manifest.webmanifest').then(r => r.json())")
    assert data["display"] == "standalone" and data["start_url"] == "/"
    assert [(icon["sizes"], icon.get("purpose", "any")) for icon in data["icons"]] == [
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    ]
    for icon in data["icons"]:  # the app's own icons, served
        assert phone.evaluate(f"() => fetch('{icon['src']}').then(r => r.status)") == 200


def test_a_table_opened_once_opens_again_offline_as_last_seen(live_server, phone, shot):
    table = open_table(phone, live_server.url)
    worker_ready(phone)  # the page was loaded before the worker: it keeps the page on taking over
    until(phone, "() => caches.keys().then(names => names.includes('tables'))")
    version = phone.evaluate("() => fetch('/sw.js').then(r => r.text())")
    static_cache = "static-" + re.search(r'const VERSION = "(\w+)"', version).group(1)
    assert sorted(phone.evaluate(CACHES)) == [static_cache, "tables"]

    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("body")).to_have_attribute("data-offline-copy", re.compile(r"GMT$"))
    expect(phone.locator("#connection")).to_contain_text("Offline: the table as this phone last saw it")
    expect(phone.locator(".log li").first).to_contain_text("Ann rolled a 4")
    expect(phone.locator(".prompt-title")).to_have_text("Ben's turn: tap what the die showed, or buy")
    shot(phone, "pwa-01-table-offline")

    # A tap on the kept copy waits in the outbox (the table loop's), and is sent once back online.
    phone.locator(".prompt .hf-faces .step-option", has_text="5").tap()
    outbox = phone.locator("#outbox .outbox-text")
    expect(outbox).to_contain_text("Not sent yet: no connection. Your entry “Ben rolled a 5”")
    phone.context.set_offline(False)
    expect(outbox).to_have_text("Sent: “Ben rolled a 5”.", timeout=15_000)
    expect(phone.locator(".log li").first).to_contain_text("Ben rolled a 5 and collects 5 sand dollars.")
    expect(phone.locator("#connection")).to_contain_text(re.compile(r"^ ?Live"), timeout=15_000)
    table.refresh_from_db()
    assert table.version == 2 and [seat["dollars"] for seat in table.snapshot["seats"]] == [7, 8]


def test_a_step_opened_offline_shows_the_copy_then_loads_the_step_once_online(live_server, phone):
    """The worker keeps the table's own page; a step's address opened without a network shows that
    copy (a CI run once got it for a network hiccup), and the step itself as soon as the server answers."""
    open_table(phone, live_server.url)
    worker_ready(phone)
    until(phone, "() => caches.open('tables').then(c => c.keys()).then(keys => keys.length > 0)")
    phone.locator(".prompt .step-option", has_text="Buy").first.tap()
    expect(phone.locator(".prompt-title")).to_have_text("Card 1 of 1: what did you draw?")
    step = phone.url
    assert "?do=buy" in step

    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("body")).to_have_attribute("data-offline-copy", re.compile(r"GMT$"))
    expect(phone.locator(".prompt-title")).to_have_text("Ben's turn: tap what the die showed, or buy")
    assert phone.url == step
    phone.context.set_offline(False)
    expect(phone.locator(".prompt-title")).to_have_text("Card 1 of 1: what did you draw?", timeout=15_000)
    expect(phone.locator("body")).not_to_have_attribute("data-offline-copy", re.compile(".*"))
    assert phone.url == step


def test_a_new_worker_drops_the_caches_of_an_older_deployment(live_server, phone):
    open_table(phone, live_server.url)
    worker_ready(phone)
    # An older deployment's cache, then a worker installed anew (as a deployment's new /sw.js is).
    phone.evaluate(
        """async () => {
            const old = await caches.open("static-0ld0ld0ld0ld");
            await old.put("/static/js/table.0ld.js", new Response("old"));
            const registration = await navigator.serviceWorker.getRegistration();
            await registration.unregister();
        }"""
    )
    phone.reload()
    worker_ready(phone)
    until(phone, "() => caches.keys().then(names => !names.includes('static-0ld0ld0ld0ld'))")
    names = phone.evaluate(CACHES)
    assert [name for name in names if name.startswith("static-")] and "static-0ld0ld0ld0ld" not in names
    cached = phone.evaluate(
        """async () => {
            const names = (await caches.keys()).filter(n => n.startsWith("static-"));
            const cache = await caches.open(names[0]);
            return (await cache.keys()).map(r => new URL(r.url).pathname);
        }"""
    )
    assert any(re.fullmatch(r"/static/js/table\.[0-9a-f]{12}\.js", path) for path in cached), cached


def test_logging_out_leaves_no_copy_of_a_table_on_the_phone(live_server, phone, django_user_model):
    """Issue 28: the worker's copy of a table page holds its play link; after a logout, with no
    network, the table no longer opens from the phone, and the outbox is gone."""
    django_user_model.objects.create_user("ann", password="a long enough passphrase")
    phone.goto(live_server.url + "/accounts/login/")
    phone.get_by_label("Username").fill("ann")
    phone.get_by_label("Password").fill("a long enough passphrase")
    phone.get_by_role("button", name="Log in").tap()
    expect(phone.get_by_role("button", name="Log out")).to_be_visible()
    worker_ready(phone)
    table = open_table(phone, live_server.url)
    kept = "() => caches.open('tables').then(c => c.keys()).then(keys => keys.map(k => k.url))"
    until(phone, kept.replace("keys.map(k => k.url)", "keys.some(k => k.url.includes('/t/'))"))
    phone.evaluate("() => localStorage.setItem('table-outbox:x', '[1]')")
    phone.get_by_role("button", name="Log out").tap()
    phone.wait_for_url(re.compile(r"/accounts/login/$"))
    worker_ready(phone)  # the login page registers a fresh worker: it holds no table
    assert [url for url in phone.evaluate(kept) if "/t/" in url] == []
    assert phone.evaluate("() => localStorage.getItem('table-outbox:x')") is None
    phone.context.set_offline(True)
    with pytest.raises(PlaywrightError, match="ERR_FAILED|ERR_INTERNET_DISCONNECTED"):  # no copy
        phone.goto(f"{live_server.url}/t/{table.id}/")
