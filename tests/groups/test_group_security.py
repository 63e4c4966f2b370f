"""Who reaches a group (issue 16), in the healthchecks style: for every page of a group's history,
its exports, its import and every API call, a member of group A, a member of group B, a watcher of
A and a stranger, each with the answer they must get. A group's pages answer 404 without its link
(nobody learns that it exists), a watcher's write 403; the API answers 401 without a token."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client

from companion.groups.models import Group
from companion.history import exchange
from companion.tables import services
from companion.tables.models import Player, Table
from tests.history.factories import play_out

pytestmark = pytest.mark.django_db

MEMBER, WATCHER, OTHER_MEMBER, STRANGER = "member", "watcher", "other member", "stranger"


class World:
    def __init__(self):
        self.a = Group.objects.create(name="Thursday club")
        self.b = Group.objects.create(name="Sunday club")
        self.play = play_out("dogo-dash", ["Ann", "Ben"], group=self.a)
        self.ann = Player.objects.get(group=self.a, name="Ann")
        self.ben = Player.objects.get(group=self.a, name="Ben")
        self.dan = Player.objects.create(group=self.a, name="Dan")  # never at a table with Ann
        self.abandoned = services.create_table("dogo-dash", ["Ann", "Ben"], {}, self.a)
        services.abandon(self.abandoned.id, self.abandoned.version)
        self.playing = services.create_table("hang-four", ["Ann", "Ben"], {}, self.a)
        self.clients = {
            MEMBER: joined(self.a, self.a.token),
            WATCHER: joined(self.a, self.a.view_token),
            OTHER_MEMBER: joined(self.b, self.b.token),
            STRANGER: Client(),
        }


def joined(group: Group, token: str) -> Client:
    client = Client()
    assert client.get(f"/g/{group.pk}/join/{token}/").status_code == 302
    return client


@pytest.fixture
def world() -> World:
    return World()


def history_file(world: World) -> io.BytesIO:
    upload = io.BytesIO(exchange.dumps(exchange.export_history(world.a)).encode())
    upload.name = "history.json"
    return upload


# (what, method, path of group A's page, data): every route of a group's pages and its history.
def routes(w: World) -> list[tuple[str, str, str, dict | None]]:
    g, h = f"/g/{w.a.pk}", f"/g/{w.a.pk}/history"
    return [
        ("group page", "get", f"{g}/", None),
        ("watch QR", "get", f"{g}/qr/view.svg", None),
        ("member QR", "get", f"{g}/qr/edit.svg", None),
        ("open a table", "get", f"{g}/t/{w.playing.id}/", None),
        ("rename the group", "post", f"{g}/rename/", {"name": "Renamed"}),
        ("time zone", "post", f"{g}/zone/", {"time_zone": "Europe/Paris"}),
        ("archive", "get", f"{h}/", None),
        ("abandoned", "get", f"{h}/abandoned/", None),
        ("play", "get", f"{h}/plays/{w.play.id}/", None),
        ("play details", "post", f"{h}/plays/{w.play.id}/", {"place": "Kim's", "comments": ""}),
        ("replay", "get", f"{h}/plays/{w.play.id}/replay/", None),
        ("resume", "post", f"{h}/plays/{w.abandoned.id}/resume/", {}),
        ("nights", "get", f"{h}/nights/", None),
        ("night", "get", f"{h}/nights/2026-12-03/", None),
        ("night card", "get", f"{h}/nights/2026-12-03/card.png", None),
        ("players", "get", f"{h}/players/", None),
        ("player", "get", f"{h}/players/{w.ann.pk}/", None),
        ("rename", "post", f"{h}/players/{w.ben.pk}/rename/", {"name": "Benjamin"}),
        ("merge", "post", f"{h}/players/{w.ann.pk}/merge/", {"other": w.dan.pk}),
        ("games", "get", f"{h}/games/", None),
        ("game", "get", f"{h}/games/dogo-dash/", None),
        ("JSON export", "get", f"{h}/export.json", None),
        ("CSV export", "get", f"{h}/plays.csv", None),
        ("import page", "get", f"{h}/import/", None),
        ("import", "post", f"{h}/import/", "file"),
        ("new table in the group", "get", f"/new/dogo-dash/?group={w.a.pk}", None),
    ]


WRITES = {"rename the group", "time zone", "play details", "resume", "rename", "merge", "import"}
# A watcher may not share the member link, start a table or import.
EDIT_ONLY_READS = {"member QR", "new table in the group", "import page"}


def expected(who: str, what: str) -> set[int]:
    if who in (OTHER_MEMBER, STRANGER):
        return {404}
    if who == WATCHER and what in WRITES | EDIT_ONLY_READS:
        return {403} if what != "new table in the group" else {404}
    return {200, 302}


@pytest.mark.parametrize("who", [MEMBER, WATCHER, OTHER_MEMBER, STRANGER])
def test_every_page_of_a_group_answers_each_person_as_it_must(world, who):
    answers = {}
    for what, method, path, data in routes(world):
        client = world.clients[who]
        if data == "file":
            data = {"file": history_file(world)}
        response = getattr(client, method)(path, data) if data is not None else getattr(client, method)(path)
        answers[what] = response.status_code
    wrong = {what: code for what, code in answers.items() if code not in expected(who, what)}
    assert wrong == {}, f"{who}: {wrong}"
    assert len(answers) == 26  # every route above, the nights and the time zone (issue 32) included


def test_nothing_a_refused_write_sent_was_changed(world):
    for who in (WATCHER, OTHER_MEMBER, STRANGER):
        for what, method, path, data in routes(world):
            if what in WRITES:
                getattr(world.clients[who], method)(
                    path, {"file": history_file(world)} if data == "file" else data
                )
    assert sorted(Player.objects.filter(group=world.a).values_list("name", flat=True)) == [
        "Ann",
        "Ben",
        "Dan",
    ]
    world.play.refresh_from_db()
    world.abandoned.refresh_from_db()
    assert world.play.place == "" and world.abandoned.abandoned is not None
    assert Group.objects.get(pk=world.a.pk).name == "Thursday club"


def test_a_member_of_another_group_reaches_nothing_of_a_through_b(world):
    """Group B's own pages do not open A's plays or people by their ids."""
    b = world.clients[OTHER_MEMBER]
    h = f"/g/{world.b.pk}/history"
    assert b.get(f"{h}/").status_code == 200
    for path in (
        f"{h}/plays/{world.play.id}/",
        f"{h}/plays/{world.play.id}/replay/",
        f"{h}/players/{world.ann.pk}/",
        f"/g/{world.b.pk}/t/{world.playing.id}/",
    ):
        assert b.get(path).status_code == 404, path
    assert b.post(f"{h}/players/{world.ben.pk}/rename/", {"name": "X"}).status_code == 404
    assert b.post(f"{h}/plays/{world.abandoned.id}/resume/").status_code == 404
    # A's export holds none of B's, B's holds none of A's.
    assert "Ann" not in b.get(f"{h}/export.json").content.decode()
    assert b.get(f"{h}/plays.csv").content.decode().count("\n") == 1  # the header alone


def test_a_wrong_token_in_a_join_link_is_404_and_grants_nothing(world):
    client = Client()
    assert client.get(f"/g/{world.a.pk}/join/{world.b.token}/").status_code == 404
    assert client.get(f"/g/{world.a.pk}/join/nope/").status_code == 404
    assert client.get(f"/g/nosuchgroup/join/{world.a.token}/").status_code == 404
    assert client.get(f"/g/{world.a.pk}/history/").status_code == 404


def test_tokens_are_as_unguessable_as_a_tables(world):
    # token_urlsafe(18): 18 random bytes, 144 bits, in 24 characters.
    tokens = {group.token for group in Group.objects.all()} | {
        group.view_token for group in Group.objects.all()
    }
    assert len(tokens) == 4 and all(len(token) == 24 for token in tokens)


# --- The API ---------------------------------------------------------------------------------

READS = ["", "/players", "/plays", "/ratings?game=dogo-dash"]


def api_get(path: str, token: str | None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return Client().get(path, **headers)


@pytest.mark.parametrize("read", READS)
def test_every_group_read_of_the_api_needs_the_groups_token(world, read):
    path = f"/api/v1/groups/{world.a.pk}{read}"
    assert api_get(path, world.a.token).status_code == 200
    assert api_get(path, world.a.view_token).status_code == 200
    for token in (None, world.b.token, world.b.view_token, world.playing.token, "x" * 24):
        response = api_get(path, token)
        assert response.status_code == 401 and response.json()["error"]["code"] == "unauthorized", token
    unknown = api_get(f"/api/v1/groups/nosuchgroup{read}", world.a.token)
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"


def test_creating_a_table_in_a_group_needs_its_member_token(world):
    body = json.dumps({"game": "dogo-dash", "players": ["Ann", "Zoe"], "group": world.a.pk})

    def post(token):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        return Client().post("/api/v1/tables", body, content_type="application/json", **headers)

    before = Table.objects.count()
    assert post(None).status_code == 401
    assert post(world.b.token).status_code == 401
    refused = post(world.a.view_token)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "read_only"
    assert Table.objects.count() == before and not Player.objects.filter(name="Zoe").exists()
    made = post(world.a.token)
    assert made.status_code == 201
    table = Table.objects.get(pk=made.json()["id"])
    assert table.group == world.a
    # Ann is A's Ann (no second record); Zoe joins A.
    assert [seat.player_id for seat in table.seats.order_by("position")][0] == world.ann.pk
    assert Player.objects.get(name="Zoe").group == world.a
    missing = Client().post(
        "/api/v1/tables",
        json.dumps({"game": "dogo-dash", "players": ["Ann", "Zoe"], "group": "nosuchgroup"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {world.a.token}",
    )
    assert missing.status_code == 404
