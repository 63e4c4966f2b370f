"""Bring your history on a 390 px phone (issue 29): a BG Stats export chosen, its preview (the
plays, the games, who is who, one name changed with a tap), brought in; English and French, light
and dark. Screenshots land in test-artifacts/browser/bring-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from companion.groups.models import Group
from companion.tables.models import Player, Table
from tests.history.import_files import bgstats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def both_schemes(page: Page, shot, name: str) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
        shot(page, f"{name}-{scheme}")


def choose_the_file(phone: Page, base: str, group: Group, tmp_path) -> None:
    phone.goto(f"{base}/g/{group.pk}/join/{group.token}/")
    phone.goto(f"{base}/g/{group.pk}/history/bring/")
    upload = tmp_path / "BGStatsExport.json"
    upload.write_bytes(bgstats())
    phone.locator("input[type=file]").set_input_files(str(upload))


def test_a_bg_stats_export_is_previewed_on_a_phone_and_brought_in(live_server, phone, shot, tmp_path):
    group = Group.objects.create(name="Thursday club")
    Player.objects.create(group=group, name="Benjamin")
    choose_the_file(phone, live_server.url, group, tmp_path)
    both_schemes(phone, shot, "bring-01-choose")
    phone.get_by_role("button", name="See what comes in").tap()
    expect(phone.get_by_role("heading", name="Before it comes in")).to_be_visible()
    expect(phone.locator(".bring-counts li").first).to_have_text(re.compile(r"New plays\s*5"))
    ben = phone.get_by_role("combobox", name="Ben · 4 plays")  # a row says how often they played (issue 42)
    expect(ben).to_have_value("Ben")  # a new player, as in the file
    ben.select_option("Benjamin")  # one tap: he is Benjamin here
    both_schemes(phone, shot, "bring-02-preview")
    assert not Table.objects.exists()  # nothing before the member says so
    phone.get_by_role("button", name="Bring 5 plays in").tap()
    expect(phone.locator(".alert").first).to_contain_text(
        "Brought in 5 plays and 3 new players. 1 guest is in their plays, never ranked."
    )
    expect(phone.locator(".play-list")).to_contain_text("Codenames")
    expect(phone.locator(".glance")).to_contain_text("Co-op games: won together")
    both_schemes(phone, shot, "bring-03-history")
    assert Table.objects.filter(group=group, source="bgstats").count() == 5
    assert {seat.player.name for table in Table.objects.all() for seat in table.seats.all()} >= {"Benjamin"}


def test_the_preview_reads_french(new_phone, live_server, shot, tmp_path):
    phone = new_phone(locale="fr-FR")
    group = Group.objects.create(name="Club du jeudi")
    choose_the_file(phone, live_server.url, group, tmp_path)
    phone.get_by_role("button", name="Voir ce qui entre").tap()
    expect(phone.get_by_role("heading", name="Avant que ça entre")).to_be_visible()
    expect(phone.locator(".alert-warning").first).to_contain_text("compte comme un nombre entier")
    both_schemes(phone, shot, "bring-04-preview-fr")
