"""A mistaken undo taken back (issue 43, item 6): Ann's phone undoes the round Ben's phone was
about to check; "↷ Redo" beside "Undone: ..." on her phone only enters it again, for every phone.
The offer goes after 10 seconds. At 390 px, light and dark: redo-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.tables import services
from tests.browser.test_bring_history_browser import both_schemes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENTRY = "Ann revealed a dog, Ben a cat and Cleo a cat. Ann takes the pot of 3."


def test_the_phone_that_undid_an_entry_can_redo_it_for_a_few_seconds(live_server, new_phone, shot):
    table = services.create_table("dogo-dash", ["Ann", "Ben", "Cleo"], {})
    ann, ben = new_phone(), new_phone()
    for phone in (ann, ben):
        phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
        expect(phone.locator("#connection")).to_have_attribute("data-state", "live")
    for seat, kind in enumerate(["dog", "cat", "cat"]):  # the last card sends the reveal
        ann.locator(f'label[for="card-{seat}-{kind}"]').tap()
    expect(ben.locator("#last-entry-text")).to_contain_text(ENTRY, timeout=3000)

    ann.get_by_role("button", name="↶ Undo").tap()
    notice = ann.locator(".done-notice")
    expect(notice).to_contain_text(f"Undone: {ENTRY}")
    expect(ben.locator("#live")).to_contain_text("Nothing entered yet.", timeout=3000)
    ann.wait_for_timeout(1000)  # the refresh its undo rang for has come and gone: the offer stays
    expect(notice.get_by_role("button", name="↷ Redo")).to_be_visible()
    expect(ben.get_by_role("button", name="↷ Redo")).to_have_count(0)  # not another phone's
    both_schemes(ann, shot, "redo-01-offered")

    notice.get_by_role("button", name="↷ Redo").tap()
    expect(ann.locator(".done-notice")).to_contain_text(f"Entered again: {ENTRY}")
    expect(ben.locator("#last-entry-text")).to_contain_text(ENTRY, timeout=3000)
    table.refresh_from_db()
    assert [seat["pile"] for seat in table.snapshot["seats"]] == [3, 0, 0]
    assert list(table.events.values_list("seq", "undone")) == [(1, True), (2, False)]

    ann.get_by_role("button", name="↶ Undo").tap()
    expect(ann.get_by_role("button", name="↷ Redo")).to_be_visible()
    expect(ann.get_by_role("button", name="↷ Redo")).to_have_count(0, timeout=12_000)  # 10 s, then gone
    expect(ann.locator(".done-notice")).to_contain_text(f"Undone: {ENTRY}")  # the words stay
    both_schemes(ann, shot, "redo-02-expired")
