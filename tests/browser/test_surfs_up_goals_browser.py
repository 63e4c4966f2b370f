"""Surf's Up! shared goals at the end (issue 43, item 1), on a 390 px phone, light and dark: an
unticked goal shows an empty box on an outline, a ticked one a checked box on a filled button (they
looked ticked before anyone ticked them), each tick says its state to a screen reader, and the
surfer's total with the ticked goals shows at once. Screenshots: surfs-goals-*.png."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from companion.games import registry
from companion.tables import services
from companion.tables.models import Table
from tests.browser.test_bring_history_browser import both_schemes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def at_the_end(seed: int = 4) -> Table:
    """A three-surfer table with shared goals, played with seeded legal entries up to its end."""
    engine, rng = registry.get("surfs-up"), random.Random(seed)
    table = services.create_table("surfs-up", ["Ann", "Ben", "Cleo"], {"shared_goals": True})
    while table.snapshot["phase"] != "final":
        services.play_action(table.id, engine.sample_action(table.snapshot, rng), table.version)
        table.refresh_from_db()
    return table


def test_a_goal_tick_says_its_state_and_the_total_it_makes(live_server, phone, shot):
    table = at_the_end()
    goals = table.snapshot["goals"]
    base = services.table_json(table, ["Ann", "Ben", "Cleo"])["scores"][0]["total"]
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    first = phone.get_by_role("checkbox", name=f"{goals[0]['name']} (+{goals[0]['points']})").first
    expect(first).not_to_be_checked()
    label = phone.locator('label[for="goal-0-0"]')
    expect(label.locator(".tick-off")).to_be_visible()
    expect(label.locator(".tick-on")).to_be_hidden()
    expect(phone.locator("#preview-0")).to_have_text(str(base))
    both_schemes(phone, shot, "surfs-goals-01-unticked")

    label.tap()
    expect(first).to_be_checked()
    expect(label.locator(".tick-on")).to_be_visible()
    expect(label.locator(".tick-off")).to_be_hidden()
    expect(phone.locator("#preview-0")).to_have_text(str(base + goals[0]["points"]))
    phone.locator('label[for="goal-0-1"]').tap()
    expect(phone.locator("#preview-0")).to_have_text(str(base + goals[0]["points"] + goals[1]["points"]))
    expect(phone.locator("#preview-1")).to_have_text(
        str(services.table_json(table, ["Ann", "Ben", "Cleo"])["scores"][1]["total"])
    )
    label.tap()  # untick: the total goes back
    expect(phone.locator("#preview-0")).to_have_text(str(base + goals[1]["points"]))
    both_schemes(phone, shot, "surfs-goals-02-one-ticked")
