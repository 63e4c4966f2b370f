"""Names with HTML, scripts, very long words and odd Unicode: shown as typed, escaped, and the phone
layout holds (the `shot` fixture fails when anything is wider than the phone)."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "<script>alert('x')</script>",
    "W" * 40,  # the longest name allowed, one unbreakable word
    "محمد 🦊 Zoë",
    '"><img src=x onerror=alert(1)>',
]


def test_hostile_names_are_shown_escaped_and_keep_the_layout(phone, live_server, shot):
    dialogs = []
    phone.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    phone.goto(live_server.url + "/new/dogo-dash/")
    for i, name in enumerate(NAMES):
        phone.get_by_label(f"Seat {i + 1}").fill(name)
    phone.get_by_role("button", name="Start the table").click()
    phone.wait_for_url(re.compile(r"/t/[^/]+/$"))
    # Every name appears as text, exactly as typed, in the scoreboard and the reveal rows.
    rows = phone.locator(".scoreboard .list-group-item")
    for i, name in enumerate(NAMES):
        expect(rows.nth(i)).to_contain_text(name)
        expect(phone.locator(".reveal-name").nth(i)).to_have_text(name)
    assert phone.locator("img[src=x]").count() == 0
    assert phone.locator(".scoreboard script, .prompt script").count() == 0
    shot(phone, "hostile-names")
    # No element may stick out of the phone's width (a long name must wrap, not widen the page);
    # text cut with an ellipsis (.text-truncate) is clipped inside its box and does not count.
    sticking_out = phone.evaluate(
        """() => [...document.querySelectorAll('main *')]
            .filter(e => !e.closest('.text-truncate') && e.getBoundingClientRect().right > window.innerWidth)
            .map(e => e.tagName + '.' + e.className)"""
    )
    assert sticking_out == []
    phone.goto(live_server.url + "/")
    shot(phone, "hostile-names-home")
    assert dialogs == []
