"""Links renewed and sessions ended, on phones (issue 41): a player renews the table's links in two
taps from the share panel; the other phone, its page open and live, reloads into a page that says
its link was renewed, and the renewing phone plays on. A signed-in phone's account page lists where
it is signed in and signs a lost phone out in one tap. Screenshots at 390 px, light and dark."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from companion.groups.models import Group
from companion.tables.models import Table

from .test_hang_four_browser import start_table
from .test_table_loop import both_schemes, live_mark

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long enough passphrase"


def test_a_player_renews_the_links_and_the_other_phone_is_told(live_server, new_phone, shot):
    ann, ben = new_phone(), new_phone()
    start_table(ann, live_server.url)
    table = Table.objects.get()
    ben.goto(f"{live_server.url}/t/{table.id}/join/{table.view_token}/")
    live_mark(ben)
    ben.expected_errors = [rf"/t/{table.id}/$"]  # the 410 of the page it reloads: its answer, not a fault

    ann.locator("summary.share-summary").tap()
    ann.get_by_text("Renew the links…").tap()
    expect(ann.get_by_role("button", name="Renew both links now")).to_be_visible()
    both_schemes(ann, shot, "renew-links-confirm")
    ann.get_by_role("button", name="Renew both links now").tap()
    expect(ann.get_by_text("New links made: the old ones open nothing now.")).to_be_visible()
    renewed = Table.objects.get()
    assert renewed.links == 1 and renewed.token != table.token
    expect(ann.locator(".prompt-title")).to_have_text("Ann's turn: tap what the die showed, or buy")
    both_schemes(ann, shot, "renew-links-done")

    # Ben's page reloads by itself (its stream heard of the renewal) and says what happened.
    expect(ben.get_by_role("heading", name="This table's links were renewed")).to_be_visible()
    both_schemes(ben, shot, "links-renewed")
    ben.get_by_role("link", name="Back to the tables").tap()
    expect(ben.locator(f'a[href="/t/{table.id}/"]')).to_have_count(0)  # no longer among its tables


def log_in(page, base_url: str, username: str) -> None:
    page.goto(base_url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(base_url + "/")


def test_the_account_page_signs_a_lost_phone_out_in_one_tap(live_server, new_phone, shot):
    User.objects.create_user("ann", password=PASSWORD)
    User.objects.create_user("ben", password=PASSWORD)
    laptop = new_phone(user_agent="Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")
    here = new_phone(user_agent="Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile")
    ben = new_phone()
    log_in(laptop, live_server.url, "ann")
    log_in(here, live_server.url, "ann")
    log_in(ben, live_server.url, "ben")
    # Ann starts a group; Ben joins it: the group's page lists its members.
    here.goto(live_server.url + "/groups/new/")
    here.get_by_label("The group's name").fill("Thursday club")
    here.get_by_role("button", name="Start the group").click()
    here.wait_for_url(re.compile(r"/g/[0-9a-f]+/$"))
    group = Group.objects.get(name="Thursday club")
    ben.goto(f"{live_server.url}/g/{group.pk}/join/{group.token}/")
    here.reload()
    here.get_by_text("2 members with an account").tap()
    here.get_by_text("Remove…").tap()
    expect(here.get_by_role("button", name="Remove ben")).to_be_visible()
    both_schemes(here, shot, "group-members")

    here.get_by_role("link", name="ann").tap()
    expect(here.get_by_role("heading", name="ann")).to_be_visible()
    rows = here.locator(".account-logins li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("This phone")
    expect(rows.nth(0)).to_contain_text("Chrome · Android")
    expect(rows.nth(1)).to_contain_text("Firefox · Linux")
    both_schemes(here, shot, "account")
    rows.nth(1).get_by_role("button", name="Sign out").tap()
    expect(here.get_by_text("That phone is signed out.")).to_be_visible()
    expect(here.locator(".account-logins li")).to_have_count(1)
    laptop.reload()  # signed out there: the home page, without "Signed in as ann"
    expect(laptop.get_by_role("heading", name="What are you playing?")).to_be_visible()
    expect(laptop.get_by_text("Signed in as")).to_have_count(0)
    ben.reload()
    expect(ben.get_by_role("link", name="ben")).to_be_visible()  # another account: still signed in
