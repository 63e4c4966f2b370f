"""Every page of a group's history runs the same number of queries whatever the size of the
group's history (and of the other groups'): the statistics are aggregates, the lists are pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from companion.groups.models import Group
from companion.tables.models import Player
from tests.history.factories import finished_play

pytestmark = pytest.mark.django_db
PEOPLE = ["Ann", "Ben", "Cleo", "Dev"]
GAMES = ["dogo-dash", "hang-four", "surfs-up", "summer-suns"]


def fill(group: Group, plays: int) -> None:
    start = timezone.now() - dt.timedelta(days=plays + 1)
    for n in range(plays):
        names = PEOPLE[n % 2 : n % 2 + 3]
        seats = [(name, 10 + (n * 7 + i * 3) % 20, i == n % 3) for i, name in enumerate(names)]
        finished_play(GAMES[n % 4], seats, start + dt.timedelta(days=n), group=group)


def pages(group: Group) -> dict[str, str]:
    ann = Player.objects.get(group=group, name="Ann").pk
    h = f"/g/{group.pk}/history"
    play = group.tables.order_by("-finished").first().id
    return {
        "group page": f"/g/{group.pk}/",
        "archive": f"{h}/",
        "archive of a player": f"{h}/?player={ann}",
        "abandoned": f"{h}/abandoned/",
        "play": f"{h}/plays/{play}/",
        "players": f"{h}/players/",
        "player": f"{h}/players/{ann}/",
        "game": f"{h}/games/dogo-dash/",
        "plays CSV": f"{h}/plays.csv",
    }


def queries(client: Client, url: str) -> int:
    assert client.get(url).status_code == 200, url  # warm: the ratings are computed once, then kept
    with CaptureQueriesContext(connection) as counted:
        assert client.get(url).status_code == 200, url
    return len(counted)


def member(group: Group) -> Client:
    client = Client()
    client.get(f"/g/{group.pk}/join/{group.token}/")
    return client


def test_a_groups_pages_cost_the_same_queries_for_4_plays_and_for_40():
    small, large, other = (Group.objects.create(name=name) for name in ("Small", "Large", "Other"))
    fill(small, 4)
    fill(large, 40)
    fill(other, 12)  # another group's history is never read
    counts = {}
    for group in (small, large):
        client = member(group)
        counts[group.name] = {name: queries(client, url) for name, url in pages(group).items()}
    assert counts["Small"] == counts["Large"]
    # Pinned, so a query added to a page is a decision (the group is one of them on every page).
    assert counts["Large"] == {
        "group page": 4,  # + the figures at a glance: the history's stamp (issue 29)
        # The history's stamp is two queries since issue 42 (its plays, and its players: a merge
        # changes the figures), read once per page and handed to everything kept under it.
        "archive": 9,
        "archive of a player": 10,
        "abandoned": 2,
        "play": 4,
        "players": 3,
        "player": 10,  # the figures of its games, opponents and charts kept under the stamp (issue 42)
        "game": 8,  # its figures kept under the stamp (issue 42)
        "plays CSV": 3,
    }
