"""The screens the second edition of the rulings changed, at 390 px in light and dark:
the Snag's target step (HF-9: an opponent who holds too few is greyed with the reason), the crab
step of 62 Summer Suns (SS-5 revised: the warning before a copy that leaves a slot dead), and Dogo
Dash's last round with catnip still offered (DD-9 revised)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion.tables import services
from companion.tables.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_table(page: Page, base_url: str, table: Table, query: str = "") -> None:
    page.goto(f"{base_url}/t/{table.id}/join/{table.token}/")
    if query:
        page.goto(f"{base_url}/t/{table.id}/?{query}")


def both_schemes(page: Page, shot, name: str) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.reload()
        shot(page, f"{name}-{scheme}")


def act(table: Table, *actions: dict) -> None:
    for action in actions:
        table.refresh_from_db()
        services.play_action(table.id, action, table.version)


def test_the_snag_greys_an_opponent_who_holds_too_few(live_server, phone, shot):
    table = services.create_table("hang-four", ["Ann", "Ben", "Cleo"], {})
    state = table.snapshot
    state["seats"][1]["dogs"] = [{"character": True, "nose": True, "tail": False}]
    state["seats"][2]["dogs"] = [
        {"character": True, "nose": True, "tail": False},
        {"character": False, "nose": True, "tail": True},
    ]
    state["surf_left"]["nose"] -= 3
    state["surf_left"]["tail"] -= 1
    state["surf_deck"] -= 4
    table.snapshot = state
    table.save()
    act(table, {"type": "roll", "face": "shack"}, {"type": "shack", "card": "snag"})
    open_table(phone, live_server.url, table, "f=2")
    expect(phone.get_by_text("Snag 2: from whom?")).to_be_visible()
    expect(phone.get_by_text("Cleo holds 2 or more, so the Snag takes 2 from Cleo (HF-9).")).to_be_visible()
    expect(phone.locator("button[disabled]", has_text="Ben · 1 loose board")).to_be_visible()
    expect(phone.locator("a.step-option", has_text="Cleo · 3 loose boards")).to_be_visible()
    both_schemes(phone, shot, "rulings-snag-target")


def test_the_crab_step_warns_before_a_copy_that_kills_a_slot(live_server, phone, shot):
    table = services.create_table("summer-suns", ["Ann"], {})
    act(table, {"type": "roll", "dice": [2, 6, 1]})
    open_table(phone, live_server.url, table, "slot=c2b&sd=0&wd=1")
    expect(phone.get_by_text("Crab in Cabin 2, bottom: copy the 6 next door?")).to_be_visible()
    warnings = phone.locator(".step-options .text-warning-emphasis")
    expect(warnings).to_have_count(1)
    expect(warnings).to_have_text("⚠ Koi 1, 3rd could never be filled after this")
    both_schemes(phone, shot, "rulings-crab-dead")


def test_the_last_round_still_offers_catnip(live_server, phone, shot):
    table = services.create_table("dogo-dash", ["Ann", "Ben", "Cleo"], {"catnip": True})
    state = table.snapshot
    state["discarded"] += state["deck"] - 2
    state["deck"] = 2
    table.snapshot = state
    table.save()
    act(table, {"type": "reveal", "cards": {"0": "cat", "2": "bear"}, "catnip": [1]})
    open_table(phone, live_server.url, table)
    expect(phone.get_by_text("Catnip is still allowed", exact=False)).to_be_visible()
    expect(phone.locator("label.catnip")).to_have_count(2)  # Ann and Cleo hold 4 cards
    both_schemes(phone, shot, "rulings-last-round-catnip")
