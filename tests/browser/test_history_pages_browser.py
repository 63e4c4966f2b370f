"""A group's history after years brought in (issue 42), on a 390 px phone, light and dark: the games
list, a game's page with its ratings (a rating below 0 shown as its number, with the words on why),
a player's page (no guest among the opponents), a team play's result and a play without a time of
day. Screenshots land in test-artifacts/browser/history42-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.groups.models import Group
from companion.history.importers import bgg_file, bgstats_file, writer
from companion.tables.models import Player, Table
from tests.browser.test_bring_history_browser import both_schemes
from tests.history.test_pages_read_as_played import CLEO, DAN, PEOPLE
from tests.history.test_people_and_plays_once import (
    ALEX,
    BEA,
    bgg_file_of,
    bgg_play,
    bgg_player,
    bgstats_file_of,
    bgstats_play,
    score,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def years_brought_in() -> Group:
    group = Group.objects.create(name="Thursday club", time_zone="Europe/Berlin")
    plays = [
        bgstats_play(f"c{n}", f"2024-0{1 + n}-0{1 + n} 20:00:00", score(ALEX, "9", True), score(BEA, "4"))
        for n in range(6)
    ]
    plays.append(
        bgstats_play(
            "teams",
            "2024-10-04 21:15:00",
            score(ALEX, "5", True, team="Red"),
            score(BEA, "5", True, team="Red"),
            score(CLEO, "3", team="Blue"),
            score(DAN, "3", team="Blue"),
        )
    )
    writer.import_file(group, bgstats_file.read(bgstats_file_of(*plays, players=PEOPLE)))
    bgg = bgg_file_of(
        bgg_play(
            81,
            "2025-03-02",
            bgg_player("Bea", "", True),
            bgg_player("Alex", "3"),
            bgg_player("Anonymous player", "1"),
            game="Azul",
            objectid=230802,
        )
    )
    writer.import_file(group, bgg_file.read(bgg))
    return group


def test_the_history_of_a_group_that_brought_years_in(live_server, phone, shot):
    group = years_brought_in()
    base = f"{live_server.url}/g/{group.pk}"
    phone.goto(f"{base}/join/{group.token}/")

    phone.goto(f"{base}/history/games/")
    expect(phone.locator(".games-list a").first).to_contain_text("Catan")
    expect(phone.locator(".games-list")).to_contain_text("7 plays")
    both_schemes(phone, shot, "history42-01-games")

    phone.locator(".games-list a").first.tap()
    expect(phone.get_by_role("heading", name="Catan", exact=True)).to_be_visible()
    bea = phone.locator(".ratings-table tr", has_text="Bea")
    expect(bea).to_contain_text("-")  # her rating below 0, as a number (5 plays: no longer new)
    expect(phone.locator(".ratings-table")).not_to_contain_text("Guest")
    both_schemes(phone, shot, "history42-02-game")

    alex = Player.objects.get(group=group, name="Alex")
    phone.goto(f"{base}/history/players/{alex.pk}/")
    expect(phone.locator(".rating-words")).to_contain_text("a rating below 0 is usual early on")
    expect(phone.get_by_role("region", name="Opponents")).to_contain_text("Bea")
    expect(phone.get_by_role("region", name="Opponents")).not_to_contain_text("Guest")  # sat with Alex once
    both_schemes(phone, shot, "history42-03-player")

    teams = Table.objects.get(group=group, origin_id="teams")
    phone.goto(f"{base}/history/plays/{teams.pk}/")
    expect(phone.locator(".display-6")).to_have_text("🏆 Alex and Bea win with 5 points together")
    both_schemes(phone, shot, "history42-04-team-play")

    untimed = Table.objects.get(group=group, origin_id="81")
    phone.goto(f"{base}/history/plays/{untimed.pk}/")
    expect(phone.locator(".play-facts")).to_contain_text("Sun 2 Mar 2025 · 60 min · from BoardGameGeek")
    expect(phone.locator(".display-6")).to_have_text("🏆 Bea wins")
    expect(phone.locator("main")).to_contain_text("Guest")  # the guest is in the play
    both_schemes(phone, shot, "history42-05-untimed-play")
