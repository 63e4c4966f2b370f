"""A secret entry moves every phone on (issue 43, item 4): Ann notes her bluebottle token on her
phone; Ben's phone stopped asking for it only at the next entry or a reload. Now the note moves the
table's version, so Ben's phone follows within a second, as for any entry. At 390 px, light and
dark: secret-note-*.png."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.test_bring_history_browser import both_schemes
from tests.web.test_hidden_tokens import stung_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_other_phones_move_on_when_a_token_is_noted(live_server, new_phone, shot):
    table = stung_table(Client())
    ann, ben = new_phone(), new_phone()
    for phone in (ann, ben):
        phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
        expect(phone.locator("#connection")).to_have_attribute("data-state", "live")
    expect(ben.locator("#live")).to_contain_text("Ann: look at your token 1 in secret")
    ann.get_by_role("button", name="Ann's token 1: -3").tap()
    expect(ann.locator("#live")).to_contain_text("Noted in secret: Ann.")
    # Ben's phone, untouched: the prompt moves on by itself.
    expect(ben.locator("#live")).to_contain_text("Noted in secret: Ann.", timeout=3000)
    expect(ben.locator("#live")).not_to_contain_text("look at your token")
    expect(ben.get_by_role("button", name="Ann's token 1: -3")).to_have_count(0)
    both_schemes(ben, shot, "secret-note-01-other-phone")
