"""The figures at a glance resume where they got to (issue 42, resumable.py): a play that ends
later is counted on its own, and the figures equal those counted from the first play; a change
before where they got to (an older play brought in, an undo, an edited length, another zone)
counts them again from the first play."""

from __future__ import annotations

import datetime as dt
import html
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.groups.models import Group
from companion.history import glance
from companion.tables.models import Player, Table

from .factories import finished_play

pytestmark = pytest.mark.django_db
UTC = dt.UTC
TODAY = dt.date(2026, 3, 10)


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.fixture
def club() -> Group:
    group = Group.objects.create(name="Thursday club", time_zone="Europe/Berlin")
    at = dt.datetime(2026, 1, 5, 19, 0, tzinfo=UTC)
    finished_play("dogo-dash", [("Ann", 9, True), ("Ben", 3, False)], at, minutes=30, group=group)
    finished_play("dogo-dash", [("Ben", 7, True), ("Ann", 4, False)], at + dt.timedelta(days=1), group=group)
    finished_play(
        "hang-four", [("Ann", 5, True), ("Cleo", 2, False)], at + dt.timedelta(days=30), group=group
    )
    return group


def seen(group: Group, player: Player | None = None) -> dict:
    """What the pages show of the figures (the chart's bars as their values)."""
    figures = glance.figures(group, player, TODAY)
    bars = [int(bar["value"]) for bar in figures["months_chart"]["bars"]] if figures["months_chart"] else []
    kept = {
        key: figures[key]
        for key in ("plays", "hours", "minutes", "this_year", "years", "most_played", "coop")
    }
    return kept | {"months": bars[-3:]}


def from_the_first_play(group: Group, player: Player | None = None) -> dict:
    cache.clear()  # neither the figures nor where their counts got to
    return seen(group, player)


def read_from(queries: CaptureQueriesContext) -> bool:
    """Whether the plays were read only after a kept play (resumed), not from the first."""
    return any('"tables_table"."finished" >' in q["sql"] for q in queries.captured_queries)


def test_a_play_that_ends_later_is_counted_on_its_own(club):
    ann = Player.objects.get(group=club, name="Ann")
    assert seen(club)["plays"] == 3 and seen(club, ann)["plays"] == 3
    later = dt.datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
    finished_play("any-game", [("Ann", 12, True), ("Cleo", 8, False)], later, minutes=90, group=club,
                  options={"game_name": "Azul"})  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        group_figures, ann_figures = seen(club), seen(club, ann)
    assert read_from(queries)
    assert group_figures == from_the_first_play(club)
    assert ann_figures == from_the_first_play(club, ann)
    assert group_figures == {
        "plays": 4,
        "hours": 3,  # 30 + 30 + 30 + 90 minutes
        "minutes": 180,
        "this_year": 4,
        "years": [{"year": 2026, "plays": 4, "hours": 3, "minutes": 180}],
        "most_played": [
            {"key": "dogo-dash", "name": "Dogo Dash", "plays": 2},
            {"key": "any-game:azul", "name": "Azul", "plays": 1},
            {"key": "hang-four", "name": "Hang Four", "plays": 1},
        ],
        "coop": [],
        "months": [2, 1, 1],  # January, February, March in Berlin
    }


@pytest.mark.parametrize("change", ["older play", "undo", "length", "zone"])
def test_a_change_before_where_the_counts_got_to_counts_from_the_first_play(club, change):
    before = seen(club)
    member = Client()
    member.get(f"/g/{club.pk}/join/{club.token}/")
    first = Table.objects.filter(group=club).earliest("finished")
    if change == "older play":  # brought in from a file: it ended before the others
        # Began 23:25 on New Year's Eve in Berlin, ended at 00:30 on New Year's Day.
        old = dt.datetime(2025, 12, 31, 23, 30, tzinfo=UTC)
        finished_play("dogo-dash", [("Ann", 1, False), ("Ben", 2, True)], old, minutes=60, group=club)
    elif change == "undo":
        Table.objects.filter(pk=first.pk).update(status=Table.Status.IN_PROGRESS, finished=None)
    elif change == "length":  # the play's page: its length written by hand
        answer = member.post(f"/g/{club.pk}/history/plays/{first.pk}/", {"duration_minutes": "150"})
        assert answer.status_code == 302
    else:  # the last play began at 23:30 on 28 February in Berlin: 07:30 on 1 March in Tokyo
        last = Table.objects.filter(group=club).latest("finished")
        Table.objects.filter(pk=last.pk).update(created=dt.datetime(2026, 2, 28, 22, 30, tzinfo=UTC))
        cache.clear()
        before = seen(club)
        Group.objects.filter(pk=club.pk).update(time_zone="Asia/Tokyo")
        club.refresh_from_db()
    after = seen(club)
    assert after != before and after == from_the_first_play(club)
    expected = {
        "older play": {  # it counts in the year it began
            "plays": 4,
            "this_year": 3,
            "years": [
                {"year": 2026, "plays": 3, "hours": 2, "minutes": 90},
                {"year": 2025, "plays": 1, "hours": 1, "minutes": 60},
            ],
        },
        "undo": {"plays": 2, "years": [{"year": 2026, "plays": 2, "hours": 1, "minutes": 60}]},
        "length": {"plays": 3, "years": [{"year": 2026, "plays": 3, "hours": 4, "minutes": 210}]},
        "zone": {
            "plays": 3,
            "years": [{"year": 2026, "plays": 3, "hours": 2, "minutes": 90}],
            "months": [2, 0, 1],
        },  # was 2, 1, 0
    }[change]
    assert {key: after[key] for key in expected} == expected


def test_a_night_of_short_games_says_its_minutes_not_zero_hours():
    group = Group.objects.create(name="Lunch club")
    at = dt.datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    finished_play("dogo-dash", [("Ann", 9, True), ("Ben", 3, False)], at, minutes=10, group=group)
    later = at + dt.timedelta(minutes=20)
    finished_play("dogo-dash", [("Ben", 9, True), ("Ann", 3, False)], later, minutes=15, group=group)
    member = Client()
    member.get(f"/g/{group.pk}/join/{group.token}/")

    def said(page: str) -> str:
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", member.get(page).content.decode())).split())

    for page in (f"/g/{group.pk}/history/", f"/g/{group.pk}/"):
        assert "25 minutes played" in said(page) and "hours played" not in said(page), page
    history = said(f"/g/{group.pk}/history/")
    assert "2 plays · 25 min" in history and "0 hours" not in history
