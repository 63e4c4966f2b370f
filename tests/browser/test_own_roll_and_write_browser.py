"""A group's own roll-and-write on a phone at 390 px (issue 44): "Climb", written from docs/sheets.md
alone (tests/sheets/test_own_rules_sheet.py), kept by a group, started from its sheets page and
played by taps: the three dice one by one, then exactly the marks the sheet allows, the others'
step, the next roll. Photographed light and dark (test-artifacts/browser/own-rw-*.png)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from companion.games import registry
from companion.groups import own_sheets
from companion.groups.models import Group
from companion.tables.models import Table
from tests.browser.test_table_loop import both_schemes
from tests.sheets.test_own_rules_sheet import CLIMB

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap_face(page, face: int) -> None:
    """One die's face on the roll's screen (a link to the next die; the last die's posts the roll)."""
    page.locator(".rw-faces .step-option").filter(has_text=re.compile(rf"^\s*{face}\s*$")).tap()


def test_a_groups_own_roll_and_write_is_played_by_taps(live_server, new_phone, shot):
    crew = Group.objects.create(name="Crew")
    own_sheets.keep(crew, json.dumps(CLIMB))
    ann = new_phone()
    ann.goto(f"{live_server.url}/g/{crew.pk}/join/{crew.token}/")
    ann.goto(f"{live_server.url}/g/{crew.pk}/sheets/")
    ann.get_by_role("link", name="Play Climb").tap()
    expect(ann.get_by_text("Your group's sheet: Climb, each mark checked by its own rules")).to_be_visible()
    # Its own seats: Climb is for two to four climbers (CL-1)
    expect(ann.locator("input[name^=player_]")).to_have_count(4)
    ann.get_by_label("Seat 1").fill("Ann")
    ann.get_by_label("Seat 2").fill("Ben")
    ann.get_by_role("button", name="Start the table").tap()
    expect(ann).to_have_url(re.compile(r"/t/[0-9a-f]+/$"))
    table = Table.objects.get()
    assert table.options["rules"]["id"] == "climb" and table.group == crew

    # Ann's roll: one tap a die, Amber, Blue, Coral (CL-2)
    expect(ann.locator(".prompt-title")).to_have_text("Ann's roll: Amber die (1 of 3)")
    both_schemes(ann, shot, "own-rw-roll")
    for face in (2, 3):
        tap_face(ann, face)
    expect(ann.locator(".prompt-title")).to_have_text("Ann's roll: Coral die (3 of 3)")
    tap_face(ann, 6)
    # Any two dice added (CL-3): 5, 8 or 9, in any of the six empty rungs: exactly what the rules allow
    expect(ann.locator(".prompt-title")).to_have_text("Ann: what do you mark?")
    offered = ann.locator(".rw-grid-row button")
    expect(offered).to_have_count(3 * 6)
    both_schemes(ann, shot, "own-rw-marks")
    offered.filter(has_text=re.compile(r"^\s*8\s*$")).nth(2).tap()  # 8 on the third rung
    # Then the others' step: Ben writes amber plus blue, 5, in any of his six empty rungs (CL-3)
    expect(ann.locator(".prompt-title")).to_have_text("Ben: what do you mark?")
    expect(ann.locator(".rw-grid-row button")).to_have_count(6)
    ann.locator(".rw-grid-row button").first.tap()
    expect(ann.locator(".prompt-title")).to_have_text("Ben's roll: Amber die (1 of 3)")
    state = Table.objects.get().snapshot
    assert state["seats"][0]["rows"]["ladder"] == [None, None, 8, None, None, None]
    assert state["seats"][1]["rows"]["ladder"] == [5, None, None, None, None, None]
    scores = registry.get("roll-and-write").scores(state)
    assert [score["total"] for score in scores] == [1, 1]  # one rung each: 1 point (CL-9)
    # The table's own sheet's rules, which its refusals cite, are on its page (on no rules page)
    ann.get_by_text("📖 The rules of Climb, as its sheet says them").tap()
    expect(ann.locator("#rule-CL-5")).to_have_text("CL-5 · where a mark goes")
    expect(ann.get_by_text("The ladder rises from left to right.")).to_be_visible()
    both_schemes(ann, shot, "own-rw-next-roll")
