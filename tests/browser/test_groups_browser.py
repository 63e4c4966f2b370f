"""A group on a phone (issue 16): started in two taps and a name, shared by its QR code, a table
started from its page with the group's people, its history under its name. Each screen fits 390 px,
photographed light and dark (test-artifacts/browser/group-*.png)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.groups.models import Group
from companion.tables.models import Table
from tests.browser.test_table_loop import both_schemes
from tests.history.factories import finished_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_group_is_started_shared_and_plays_a_table(live_server, new_phone, shot):
    ann = new_phone()
    ann.goto(f"{live_server.url}/")
    ann.get_by_role("link", name="Start a group").tap()
    ann.get_by_label("The group's name").fill("Thursday club")
    both_schemes(ann, shot, "group-new")
    ann.get_by_role("button", name="Start the group").tap()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Thursday club")
    group = Group.objects.get(name="Thursday club")
    ann.get_by_text("Bring friends into the group").tap()
    expect(ann.get_by_label("Member link")).to_have_value(
        f"{live_server.url}/g/{group.pk}/join/{group.token}/"
    )
    both_schemes(ann, shot, "group-page")

    # A friend's phone opens the member link (what its QR code holds) and starts a table there.
    ben = new_phone()
    ben.goto(ann.get_by_label("Member link").input_value())
    expect(ben).to_have_url(f"{live_server.url}/g/{group.pk}/")
    ben.get_by_role("link", name=re.compile("^Dogo Dash")).tap()
    expect(ben.get_by_text("In Thursday club: its players are this group's.")).to_be_visible()
    ben.get_by_label("Seat 1").fill("Ann")
    ben.get_by_label("Seat 2").fill("Ben")
    both_schemes(ben, shot, "group-new-table")
    ben.get_by_role("button", name="Start the table").tap()
    expect(ben).to_have_url(re.compile(r"/t/[0-9a-f]+/$"))
    table = Table.objects.get()
    assert table.group == group
    assert sorted(seat.player.group.name for seat in table.seats.all()) == ["Thursday club"] * 2

    # Ann's phone finds it on the group's page and joins it with the group's rights.
    ann.goto(f"{live_server.url}/g/{group.pk}/")
    ann.get_by_role("link", name=re.compile("^Dogo Dash")).last.tap()
    expect(ann).to_have_url(f"{live_server.url}/t/{table.id}/")
    expect(ann.locator("nav .nav-history")).to_have_attribute("href", f"/g/{group.pk}/history/")

    home = ann.goto(f"{live_server.url}/")
    assert home.status == 200
    expect(ann.get_by_role("link", name=re.compile("Thursday club"))).to_be_visible()
    both_schemes(ann, shot, "group-home")


def test_a_groups_history_carries_its_name_and_a_watcher_sees_no_edit(live_server, new_phone, shot):
    group = Group.objects.create(name="Thursday club")
    finished_play("dogo-dash", [("Ann", 30, True), ("Ben", 20, False)], group=group)
    watcher = new_phone()
    watcher.goto(f"{live_server.url}/g/{group.pk}/join/{group.view_token}/")
    watcher.goto(f"{live_server.url}/g/{group.pk}/history/")
    expect(watcher.get_by_role("heading", level=1)).to_contain_text("Thursday club")
    expect(watcher.get_by_role("link", name="Import a history file")).to_have_count(0)
    both_schemes(watcher, shot, "group-history-watcher")
