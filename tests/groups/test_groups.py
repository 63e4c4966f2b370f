"""Groups (issue 16): each circle of friends has its own people, tables, history and ratings; a
default group keeps a LAN game night one step; a hosted server can turn it off."""

from __future__ import annotations

import datetime as dt
import json
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from companion.groups.models import DEFAULT_GROUP_ID, Group, Membership
from companion.history import ratings, stats
from companion.tables import services
from companion.tables.models import Player, Table
from tests.history.factories import finished_play, home, play_out

pytestmark = pytest.mark.django_db
DAY = dt.timedelta(days=1)


def start_group(client: Client, name: str) -> Group:
    response = client.post("/groups/new/", {"name": name})
    group = Group.objects.order_by("-created").first()
    assert response.status_code == 302 and response["Location"] == f"/g/{group.pk}/"
    return group


def test_starting_a_group_takes_a_name_and_the_phone_becomes_a_member(client):
    group = start_group(client, "  Thursday   club ")
    assert group.name == "Thursday club"
    page = client.get(f"/g/{group.pk}/").content.decode()
    assert "Thursday club" in page
    assert f"/g/{group.pk}/join/{group.token}/" in page  # the member link, to share
    assert f"/g/{group.pk}/join/{group.view_token}/" in page  # the watch link
    home_page = client.get("/").content.decode()
    assert f'href="/g/{group.pk}/"' in home_page and "Thursday club" in home_page


def test_a_group_needs_a_name(client):
    response = client.post("/groups/new/", {"name": "   "})
    assert response.status_code == 400 and Group.objects.count() == 0
    assert "This field is required." in response.content.decode()


def test_a_table_started_from_a_group_belongs_to_it_and_its_people_are_the_groups(client):
    group = start_group(client, "Thursday club")
    response = client.post(f"/new/dogo-dash/?group={group.pk}", {"player_0": "Ann", "player_1": "Ben"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/t/{table.id}/"
    assert table.group == group
    assert {p.name: p.group for p in Player.objects.all()} == {"Ann": group, "Ben": group}
    # The table's page links the nav's History to its group.
    assert f'href="/g/{group.pk}/history/"' in client.get(f"/t/{table.id}/").content.decode()


def test_play_again_keeps_the_group():
    group = Group.objects.create(name="Thursday club")
    again = services.play_again(play_out("dogo-dash", ["Ann", "Ben"], group=group).id)
    assert again.group == group
    assert list(again.seats.values_list("player__group", flat=True)) == [group.pk, group.pk]


def test_the_same_name_in_two_groups_is_two_people_with_two_records():
    a, b = Group.objects.create(name="A"), Group.objects.create(name="B")
    now = timezone.now()
    finished_play("dogo-dash", [("Ann", 9, True), ("Ben", 4, False)], now - 2 * DAY, group=a)
    finished_play("dogo-dash", [("ann", 1, False), ("Ben", 7, True)], now - DAY, group=b)
    anns = Player.objects.filter(name__iexact="ann").order_by("group__name")
    assert [(p.name, p.group.name) for p in anns] == [("Ann", "A"), ("ann", "B")]
    assert [(p.name, p.plays, p.wins) for p in stats.players_overview(a)] == [("Ann", 1, 1), ("Ben", 1, 0)]
    assert [(p.name, p.plays, p.wins) for p in stats.players_overview(b)] == [("Ben", 1, 1), ("ann", 1, 0)]
    assert stats.archive(a).count() == 1 and stats.archive(b).count() == 1
    assert stats.game_summary(a, "dogo-dash")["highest"] == 9
    assert stats.game_summary(b, "dogo-dash")["highest"] == 7
    # One play each: Plackett-Luce from 25 and 25/3, the winner 27.635, the loser 22.365.
    assert [(r.player.name, round(r.mu, 3)) for r in ratings.game_ratings(a, "dogo-dash")] == [
        ("Ann", 27.635),
        ("Ben", 22.365),
    ]
    assert [(r.player.name, round(r.mu, 3)) for r in ratings.game_ratings(b, "dogo-dash")] == [
        ("Ben", 27.635),
        ("ann", 22.365),
    ]


def test_a_rename_may_take_a_name_another_group_uses_and_merge_stays_in_a_group(client):
    from companion.history import people

    a, b = Group.objects.create(name="A"), Group.objects.create(name="B")
    ann_a = Player.objects.create(group=a, name="Ann")
    bob_b = Player.objects.create(group=b, name="Bob")
    people.rename(bob_b, "Ann")  # another group's Ann is somebody else
    assert Player.objects.get(pk=bob_b.pk).name == "Ann"
    with pytest.raises(people.PeopleError, match="same group"):
        people.merge(ann_a, bob_b)


def test_the_default_group_is_open_and_every_table_without_a_group_joins_it(client):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    assert table.group_id == DEFAULT_GROUP_ID and table.group.name == "Game night"
    stranger = Client()
    assert stranger.get(f"/g/{DEFAULT_GROUP_ID}/history/").status_code == 200
    assert stranger.get("/").content.decode().count(f'href="/g/{DEFAULT_GROUP_ID}/"') == 1
    # A link from before groups opens the same page of the default group's history.
    old = stranger.get("/history/players/?x=1")
    assert old.status_code == 302 and old["Location"] == f"/g/{DEFAULT_GROUP_ID}/history/players/?x=1"


@pytest.fixture
def hosted(settings):
    settings.DEFAULT_GROUP = False


@pytest.mark.usefixtures("hosted")
def test_a_hosted_server_without_a_default_group_starts_tables_in_groups_only(client, api):
    refused = api.call("post", "/api/v1/tables", {"game": "dogo-dash", "players": ["Ann", "Ben"]})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "group_needed"
    assert refused.json()["error"]["message"] == (
        "This server keeps no shared history: start the table from your group's page."
    )
    page = client.get("/new/dogo-dash/")
    assert page.status_code == 302 and page["Location"] == "/#groups"
    assert "Start a group" in client.get("/").content.decode()
    assert Table.objects.count() == 0 and Player.objects.count() == 0
    assert client.get(f"/g/{DEFAULT_GROUP_ID}/history/").status_code == 404
    assert api.call("get", f"/api/v1/groups/{DEFAULT_GROUP_ID}").status_code == 404


@pytest.mark.usefixtures("hosted")
def test_an_existing_default_group_is_reached_by_its_links_once_it_is_turned_off(client):
    group = home()
    assert client.get(f"/g/{DEFAULT_GROUP_ID}/").status_code == 404
    client.get(f"/g/{DEFAULT_GROUP_ID}/join/{group.view_token}/")
    assert client.get(f"/g/{DEFAULT_GROUP_ID}/history/").status_code == 200


def test_an_account_keeps_the_groups_it_joined_on_every_phone(settings):
    settings.LOGIN_REQUIRED = True
    group = Group.objects.create(name="Thursday club")
    User.objects.create_user("ann", password="pw-for-tests")
    first = Client()
    first.login(username="ann", password="pw-for-tests")
    first.get(f"/g/{group.pk}/join/{group.token}/")
    assert Membership.objects.get().rights == "edit"
    second = Client()  # another phone, the same account
    second.login(username="ann", password="pw-for-tests")
    assert second.get(f"/g/{group.pk}/history/").status_code == 200
    assert "Thursday club" in second.get("/").content.decode()
    nobody = Client()  # logged out: the login page first, as every page of a private deployment
    assert nobody.get(f"/g/{group.pk}/").status_code == 302


def test_a_member_opens_a_table_of_the_group_from_its_page_and_a_watcher_watches(client):
    group = Group.objects.create(name="Thursday club")
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {}, group)
    member, watcher = Client(), Client()
    member.get(f"/g/{group.pk}/join/{group.token}/")
    watcher.get(f"/g/{group.pk}/join/{group.view_token}/")
    assert f"/g/{group.pk}/t/{table.id}/" in member.get(f"/g/{group.pk}/").content.decode()
    assert member.get(f"/g/{group.pk}/t/{table.id}/")["Location"] == f"/t/{table.id}/"
    assert watcher.get(f"/g/{group.pk}/t/{table.id}/")["Location"] == f"/t/{table.id}/"
    assert member.session["tables"][table.id] == "edit"
    assert watcher.session["tables"][table.id] == "view"
    assert 'name="expected_version"' in member.get(f"/t/{table.id}/").content.decode()
    assert 'name="expected_version"' not in watcher.get(f"/t/{table.id}/").content.decode()


# --- The API (API.md, "Groups") ----------------------------------------------------------------


def test_the_api_creates_a_group_and_reads_its_players_plays_and_ratings(api):
    made = api.call("post", "/api/v1/groups", {"name": "Thursday club"})
    assert made.status_code == 201
    body = made.json()
    group = Group.objects.get()
    assert body == {
        "id": group.pk,
        "name": "Thursday club",
        "token": group.token,
        "view_token": group.view_token,
        "url": f"/g/{group.pk}/join/{group.token}/",
        "view_url": f"/g/{group.pk}/join/{group.view_token}/",
    }
    start = timezone.now() - 10 * DAY
    first = finished_play(
        "dogo-dash", [("Ann", 30, True), ("Ben", 20, False), ("Cleo", 10, False)], start, group=group
    )
    second = finished_play(
        "dogo-dash", [("Ann", 25, True), ("Ben", 25, True), ("Cleo", 5, False)], start + DAY, group=group
    )
    third = finished_play("dogo-dash", [("Cleo", 30, False), ("Ann", 40, True)], start + 2 * DAY, group=group)
    finished_play("dogo-dash", [("Zed", 1, True), ("Yan", 0, False)], start, group=home())  # not theirs
    token = body["view_token"]  # reads need only the view token
    assert api.call("get", f"/api/v1/groups/{group.pk}", token=token).json() == {
        "id": group.pk,
        "name": "Thursday club",
        "players": 3,
        "plays": 3,
    }
    people = {p.name: p.pk for p in Player.objects.filter(group=group)}
    assert api.call("get", f"/api/v1/groups/{group.pk}/players", token=token).json() == [
        {"id": people["Ann"], "name": "Ann", "plays": 3, "wins": 3},
        {"id": people["Ben"], "name": "Ben", "plays": 2, "wins": 1},
        {"id": people["Cleo"], "name": "Cleo", "plays": 3, "wins": 0},
    ]
    plays = api.call("get", f"/api/v1/groups/{group.pk}/plays", token=token).json()
    assert [play["table"] for play in plays] == [third.id, second.id, first.id]  # newest first
    assert plays[0] == {
        "table": third.id,
        "game": "dogo-dash",
        "game_name": "Dogo Dash",
        "finished": third.finished.isoformat(),
        "seats": [
            {"seat": 0, "name": "Cleo", "score": 30, "won": False},
            {"seat": 1, "name": "Ann", "score": 40, "won": True},
        ],
        "source": "",  # kept here, not imported (issue 29)
    }
    rated = api.call("get", f"/api/v1/groups/{group.pk}/ratings?game=dogo-dash", token=token).json()
    # The figures of tests/history/test_ratings.py's small history (the same three plays).
    assert [(r["name"], round(r["mu"], 3), round(r["sigma"], 3), r["plays"], r["wins"]) for r in rated] == [
        ("Ann", 30.097, 7.833, 3, 3),
        ("Ben", 26.359, 7.937, 2, 1),
        ("Cleo", 18.609, 7.733, 3, 0),
    ]
    assert all(r["rating"] == pytest.approx(r["mu"] - 3 * r["sigma"]) for r in rated)
    assert rated[0]["player"] == people["Ann"]
    unknown = api.call("get", f"/api/v1/groups/{group.pk}/ratings?game=chess", token=token)
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_game"


@pytest.mark.parametrize("key", ["\x00", "dogo\x00dash", "any-game:\x00"])
def test_a_game_key_no_database_stores_is_a_game_nobody_played(api, key):
    """A 404 like any unknown game, not a 500: PostgreSQL refuses to compare text holding NUL
    (found by the API fuzz test, GET .../ratings?game=%00...)."""
    group = Group.objects.create(name="Club")
    answer = api.call("get", f"/api/v1/groups/{group.pk}/ratings?game={quote(key)}", token=group.view_token)
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_game"
    assert stats.played(group, key) is None


@pytest.mark.parametrize("name", ["", "   ", "x" * 61, "bell\x07"])
def test_the_api_refuses_a_group_without_a_proper_name(api, name):
    response = api.call("post", "/api/v1/groups", {"name": name})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_group_name"
    assert Group.objects.count() == 0


def test_the_open_default_group_reads_through_the_api_without_a_token(api):
    services.create_table("dogo-dash", ["Ann", "Ben"], {})
    answer = api.call("get", f"/api/v1/groups/{DEFAULT_GROUP_ID}")
    assert answer.status_code == 200 and answer.json() == {
        "id": DEFAULT_GROUP_ID,
        "name": "Game night",
        "players": 2,
        "plays": 0,
    }


def test_the_api_creates_a_table_in_a_group_with_its_member_token(api):
    group = json.loads(api.call("post", "/api/v1/groups", {"name": "Club"}).content)
    body = {"game": "dogo-dash", "players": ["Ann", "Ben"], "group": group["id"]}
    made = api.call("post", "/api/v1/tables", body, token=group["token"])
    assert made.status_code == 201 and Table.objects.get(pk=made.json()["id"]).group_id == group["id"]
    assert made.json()["token"] == Table.objects.get().token  # the table's own token, as before


def test_the_operator_prints_a_groups_links():
    from io import StringIO

    from django.core.management import call_command

    group = home()
    out = StringIO()
    call_command("group_links", "default", "--base", "https://companion.example.org/", stdout=out)
    assert out.getvalue().splitlines() == [
        "Game night (default)",
        f"member link: https://companion.example.org/g/default/join/{group.token}/",
        f"watch link:  https://companion.example.org/g/default/join/{group.view_token}/",
    ]


def test_a_finished_table_links_its_play_in_the_history_only_for_phones_of_its_group():
    group = Group.objects.create(name="Thursday club")
    table = play_out("dogo-dash", ["Ann", "Ben"], group=group)
    link = f'href="/g/{group.pk}/history/plays/{table.id}/"'
    member = Client()
    member.get(f"/g/{group.pk}/join/{group.token}/")
    member.get(f"/g/{group.pk}/t/{table.id}/")
    assert link in member.get(f"/t/{table.id}/").content.decode()
    guest = Client()  # only the table's own link: the group's history stays closed to it
    guest.get(f"/t/{table.id}/join/{table.view_token}/")
    page = guest.get(f"/t/{table.id}/").content.decode()
    assert link not in page and f"/g/{group.pk}/" not in page


def test_a_member_renames_the_group_and_its_links_stay_the_same():
    group = Group.objects.create(name="Thursday club")
    member, watcher = Client(), Client()
    member.get(f"/g/{group.pk}/join/{group.token}/")
    watcher.get(f"/g/{group.pk}/join/{group.view_token}/")
    assert watcher.post(f"/g/{group.pk}/rename/", {"name": "Nope"}).status_code == 403
    assert Client().post(f"/g/{group.pk}/rename/", {"name": "Nope"}).status_code == 404
    refused = member.post(f"/g/{group.pk}/rename/", {"name": "  "}, follow=True)
    assert "This field is required." in refused.content.decode()
    done = member.post(f"/g/{group.pk}/rename/", {"name": " Friday   club"}, follow=True)
    assert "Thursday club is now called Friday club." in done.content.decode()
    renamed = Group.objects.get()
    assert (renamed.name, renamed.token, renamed.view_token) == ("Friday club", group.token, group.view_token)
    assert "Rename the group" not in watcher.get(f"/g/{group.pk}/").content.decode()


def test_the_open_default_group_lists_no_table_and_opens_none_a_table_keeps_to_its_links():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    stranger = Client()
    answer = stranger.get(f"/g/{DEFAULT_GROUP_ID}/")
    page = answer.content.decode()
    # Issue 46: this failed once in a whole run and never since; say what it saw if it fails again.
    tables = list(Table.objects.values_list("pk", "group_id"))
    seen = f"{answer.status_code}, DEFAULT_GROUP={settings.DEFAULT_GROUP}, tables={tables}"
    assert "Playing now" not in page and table.id not in page, seen
    inside = stranger.get(f"/g/{DEFAULT_GROUP_ID}/t/{table.id}/")
    assert inside.status_code == 404, (inside.status_code, inside.get("Location"), seen)
    alone = stranger.get(f"/t/{table.id}/")
    assert alone.status_code == 404, (alone.status_code, alone.get("Location"), seen)  # as before groups
