"""The history on a 390 px phone: the archive and its filter, a play with its score chart, a
player's page with charts, a replay stepped with the buttons, and abandoning a table.

Screenshots land in test-artifacts/browser/history-*.png."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from companion.tables import replay, services
from companion.tables.models import Event, Player, Table
from tests.history.factories import play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PEOPLE = ["Ann", "Ben", "Cleo", "Dev"]
GAMES = ["dogo-dash", "summer-suns", "hang-four", "surfs-up"]


def spread_over_weeks(table: Table, weeks_ago: int, minutes: int) -> None:
    """Date a played-out table in the past, its entries spread over `minutes`."""
    start = timezone.now() - dt.timedelta(weeks=weeks_ago)
    events = list(table.events.order_by("seq"))
    for index, event in enumerate(events):
        at = start + dt.timedelta(minutes=minutes * index / max(1, len(events) - 1))
        Event.objects.filter(pk=event.pk).update(created=at)
    Table.objects.filter(pk=table.pk).update(created=start, finished=start + dt.timedelta(minutes=minutes))


@pytest.fixture
def history():
    """Twelve real games, three of each, Ann at every table, played with random legal actions."""
    tables = []
    for index in range(12):
        game = GAMES[index % 4]
        names = ["Ann"] + PEOPLE[1 + index % 3 : 1 + index % 3 + 2]
        table = play_out(game, names, seed=40 + index)
        spread_over_weeks(table, weeks_ago=12 - index, minutes=25 + 3 * index)
        tables.append(table)
    Table.objects.filter(pk=tables[-1].pk).update(place="Beach house")
    return tables


def test_the_archive_a_play_and_its_filter(live_server, phone: Page, shot, history):
    phone.goto(f"{live_server.url}/g/default/history/")
    expect(phone.get_by_text("12 plays", exact=True)).to_be_visible()
    tiles = phone.locator(".glance .stat-value")
    expect(tiles.nth(0)).to_have_text("12")  # plays
    expect(tiles.nth(1)).to_have_text("8")  # hours: 25 + 28 + ... + 58 minutes = 498
    shot(phone, "history-archive")
    phone.select_option("#id_game", "hang-four")
    phone.get_by_role("button", name="Show").click()
    expect(phone.get_by_text("3 plays match")).to_be_visible()
    assert phone.locator(".play-list a").count() == 3
    phone.locator(".play-list a").first.click()
    expect(phone.locator("figcaption", has_text="Score after each round")).to_be_visible()
    expect(phone.locator("figure.chart svg").first).to_be_visible()
    shot(phone, "history-play")


def test_a_player_page_with_its_charts(live_server, phone: Page, shot, history):
    ann = Player.objects.get(name="Ann")
    phone.goto(f"{live_server.url}/g/default/history/players/{ann.pk}/")
    expect(phone.locator(".stat-value").first).to_have_text("12")
    # Plays per month (at a glance), win rate by game, and a score line for each of her three most
    # played games (of four, three plays each): a page's charts are bounded (issue 42).
    assert phone.locator("figure.chart").count() == 5
    phone.locator("figure.chart summary").first.click()
    expect(phone.locator("figure.chart table").first).to_be_visible()
    shot(phone, "history-player")


def test_a_replay_stepped_with_the_buttons(live_server, phone: Page, shot, history):
    table = history[1]  # 62 Summer Suns
    last = len(replay.live_events(table))
    phone.goto(f"{live_server.url}/g/default/history/plays/{table.id}/")
    phone.get_by_role("link", name="▶ Replay entry by entry").click()
    expect(phone.get_by_text(f"Entry 0 of {last}")).to_be_visible()
    forward = phone.get_by_role("link", name="Forward one entry")
    forward.click()
    expect(phone.get_by_text(f"Entry 1 of {last}")).to_be_visible()
    forward.click()
    expect(phone.get_by_text(f"Entry 2 of {last}")).to_be_visible()
    expect(phone).to_have_url(re.compile(r"step=2"))
    phone.get_by_role("link", name="Back one entry").click()
    expect(phone.get_by_text(f"Entry 1 of {last}")).to_be_visible()
    phone.get_by_role("link", name="Last entry").click()
    expect(phone.get_by_text(f"Entry {last} of {last}")).to_be_visible()
    expect(phone.locator(".result")).to_be_visible()
    phone.get_by_role("link", name="Back one entry").click()
    expect(phone.get_by_text(f"Entry {last - 1} of {last}")).to_be_visible()
    # Another player's sheet at the same step.
    phone.locator(".seat-chip").nth(1).click()
    expect(phone.get_by_text(f"Entry {last - 1} of {last}")).to_be_visible()
    expect(phone.locator(".seat-chip.btn-secondary")).to_have_text(
        re.compile(history[1].seats.get(position=1).player.name)
    )
    shot(phone, "history-replay")


def test_abandon_and_resume_on_the_table_page(live_server, phone: Page, shot):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    phone.get_by_text("Stop this game without finishing").click()
    phone.get_by_role("button", name="Abandon this table").click()
    expect(phone.get_by_text("This table was abandoned")).to_be_visible()
    shot(phone, "history-abandoned-table")
    phone.goto(f"{live_server.url}/g/default/history/abandoned/")
    expect(phone.get_by_role("button", name="Resume this table")).to_be_visible()
    phone.goto(f"{live_server.url}/t/{table.id}/")
    phone.get_by_role("button", name="Resume the game").click()
    expect(phone.locator(".prompt")).to_be_visible()
    table.refresh_from_db()
    assert table.abandoned is None


def test_the_open_group_asks_for_its_member_link_before_an_import(live_server, phone: Page, shot):
    """Issue 28: a whole history comes into the open default group only through its member link."""
    from companion.groups.models import Group

    group = Group.default()
    phone.expected_errors = [r"/history/import/$"]  # the 403 that says why
    phone.goto(f"{live_server.url}/g/{group.pk}/history/import/")
    expect(phone.locator("main")).to_contain_text("comes in only through its member link")
    expect(phone.get_by_label("History file (.json)")).to_have_count(0)
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        shot(phone, f"history-import-needs-link-{scheme}")
    phone.goto(f"{live_server.url}/g/{group.pk}/join/{group.token}/")
    phone.goto(f"{live_server.url}/g/{group.pk}/history/import/")
    expect(phone.get_by_label("History file (.json)")).to_be_visible()
