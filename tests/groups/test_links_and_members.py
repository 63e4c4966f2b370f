"""Links that can be revoked (issue 41): a member renews a table's or a group's play/member and watch
links, and the phones that opened the old ones hold nothing (a 410 page that says so) while the
renewing phone keeps its rights; a group's owner removes a member, whose pages then answer 404.
The same through the API, in its error shape on refusal. (Across servers and on open streams:
tests/test_revocation.py.)"""

from __future__ import annotations

import json
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.groups.models import DEFAULT_GROUP_ID, Group, Membership
from companion.tables import services
from companion.tables.models import Table
from tests.history.factories import play_out

pytestmark = pytest.mark.django_db
PASSWORD = "a long enough passphrase"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def opened(link: str) -> Client:
    client = Client()
    assert client.get(link).status_code == 302
    return client


def bearer(token: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


# --- A table's links ----------------------------------------------------------------------------


def test_renewing_a_tables_links_leaves_the_old_ones_and_their_phones_with_nothing():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    old_play, old_watch = f"/t/{table.id}/join/{table.token}/", f"/t/{table.id}/join/{table.view_token}/"
    renewer, player, watcher = opened(old_play), opened(old_play), opened(old_watch)
    page = renewer.get(f"/t/{table.id}/").content.decode()
    assert f'action="/t/{table.id}/renew/"' in page and "Renew both links now" in page
    assert f'action="/t/{table.id}/renew/"' not in watcher.get(f"/t/{table.id}/").content.decode()
    assert watcher.post(f"/t/{table.id}/renew/").status_code == 403  # a watcher cannot

    done = renewer.post(f"/t/{table.id}/renew/", follow=True)
    assert "New links made: the old ones open nothing now." in unescape(done.content.decode())
    renewed = Table.objects.get()
    assert (renewed.links, renewed.version) == (1, 1)
    assert {renewed.token, renewed.view_token}.isdisjoint({table.token, table.view_token})
    # The renewing phone plays on, with the new links on its page.
    assert renewer.session["tables"][table.id] == "edit@1"
    page = renewer.get(f"/t/{table.id}/").content.decode()
    assert f"/t/{table.id}/join/{renewed.token}/" in page and table.token not in page
    # The others: a page that says what happened, for every view of the table; the old links are gone.
    for phone in (player, watcher):
        refused = phone.get(f"/t/{table.id}/")
        assert refused.status_code == 410 and "This table's links were renewed" in refused.content.decode()
        assert phone.get(f"/t/{table.id}/poll/?v=0").status_code == 410
        assert phone.get(f"/t/{table.id}/display/").status_code == 410
        assert phone.post(f"/t/{table.id}/act/", {"expected_version": 1}).status_code == 410
        assert table.id not in phone.get("/").content.decode()  # no longer among its tables
    assert Client().get(old_play).status_code == 404 and Client().get(old_watch).status_code == 404
    assert Client().get(f"/t/{table.id}/").status_code == 404  # a phone that never had it: as before
    again = opened(f"/t/{table.id}/join/{renewed.view_token}/")
    assert again.get(f"/t/{table.id}/").status_code == 200


def test_a_grant_kept_before_renewals_existed_counts_until_the_first_renewal():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    phone = opened(f"/t/{table.id}/join/{table.token}/")
    assert phone.session["tables"][table.id] == "edit"  # generation 0: the grant as it always was
    assert phone.get(f"/t/{table.id}/").status_code == 200
    services.renew_links(table.id)
    assert phone.get(f"/t/{table.id}/").status_code == 410


def test_the_api_renews_a_tables_links_with_its_play_token_only():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    client = Client()
    path = f"/api/v1/tables/{table.id}/links"
    watch = client.post(path, **bearer(table.view_token))
    assert watch.status_code == 403 and watch.json()["error"]["code"] == "read_only"
    assert client.post(path).status_code == 401
    assert client.post("/api/v1/tables/nosuchtable/links", **bearer(table.token)).status_code == 404
    answer = client.post(path, **bearer(table.token))
    assert answer.status_code == 200
    renewed = Table.objects.get()
    assert answer.json() == {
        "id": table.id,
        "version": 1,
        "token": renewed.token,
        "view_token": renewed.view_token,
        "url": f"/t/{table.id}/join/{renewed.token}/",
        "view_url": f"/t/{table.id}/join/{renewed.view_token}/",
    }
    old = client.get(f"/api/v1/tables/{table.id}", **bearer(table.token))
    assert old.status_code == 401 and old.json()["error"]["code"] == "unauthorized"
    stale = client.post(
        f"/api/v1/tables/{table.id}/actions",
        json.dumps({"action": {"type": "reveal", "cards": {}}, "expected_version": 0}),
        content_type="application/json",
        **bearer(table.token),
    )
    assert stale.status_code == 401  # the old play token writes nothing either


# --- A group's links ----------------------------------------------------------------------------


def test_renewing_a_groups_links_leaves_the_phones_of_the_old_ones_with_nothing():
    group = Group.objects.create(name="Thursday club")
    member = opened(f"/g/{group.pk}/join/{group.token}/")
    other, watcher = (
        opened(f"/g/{group.pk}/join/{group.token}/"),
        opened(f"/g/{group.pk}/join/{group.view_token}/"),
    )
    page = member.get(f"/g/{group.pk}/").content.decode()
    assert f'action="/g/{group.pk}/renew/"' in page
    assert watcher.post(f"/g/{group.pk}/renew/").status_code == 403
    done = member.post(f"/g/{group.pk}/renew/", follow=True)
    assert "New links made: the old ones open nothing now." in unescape(done.content.decode())
    group.refresh_from_db()
    assert group.links == 1
    assert member.get(f"/g/{group.pk}/history/").status_code == 200
    for phone in (other, watcher):
        refused = phone.get(f"/g/{group.pk}/history/")
        assert refused.status_code == 410 and "This group's links were renewed" in refused.content.decode()
        assert "Thursday club" not in phone.get("/").content.decode()  # gone from its groups
        assert phone.get(f"/new/dogo-dash/?group={group.pk}").status_code == 404
    assert Client().get(f"/g/{group.pk}/").status_code == 404


def test_the_open_default_group_has_no_links_to_renew():
    group = Group.default()
    client = Client()
    assert client.post(f"/g/{DEFAULT_GROUP_ID}/renew/").status_code == 403
    answer = client.post(f"/api/v1/groups/{DEFAULT_GROUP_ID}/links")
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "open_group"
    group.refresh_from_db()
    assert group.links == 0


def test_the_api_renews_a_groups_links_with_its_member_token():
    group = Group.objects.create(name="Thursday club")
    client = Client()
    path = f"/api/v1/groups/{group.pk}/links"
    assert client.post(path, **bearer(group.view_token)).json()["error"]["code"] == "read_only"
    answer = client.post(path, **bearer(group.token))
    renewed = Group.objects.get()
    assert answer.status_code == 200 and answer.json() == {
        "id": group.pk,
        "name": "Thursday club",
        "token": renewed.token,
        "view_token": renewed.view_token,
        "url": f"/g/{group.pk}/join/{renewed.token}/",
        "view_url": f"/g/{group.pk}/join/{renewed.view_token}/",
    }
    assert client.get(f"/api/v1/groups/{group.pk}", **bearer(group.token)).status_code == 401


# --- Members --------------------------------------------------------------------------------------


@pytest.fixture
def club(settings):
    """A private deployment's group: Ann started it, Ben and Cleo joined with the member link, Dan
    with the watch link; a table is in play."""
    settings.LOGIN_REQUIRED = True
    users = {
        name: User.objects.create_user(name, password=PASSWORD) for name in ("ann", "ben", "cleo", "dan")
    }
    phones = {name: Client() for name in users}
    for name, phone in phones.items():
        phone.login(username=name, password=PASSWORD)
    made = phones["ann"].post("/groups/new/", {"name": "Thursday club"})
    group = Group.objects.get()
    assert made.status_code == 302 and group.owner == users["ann"]
    for name in ("ben", "cleo"):
        phones[name].get(f"/g/{group.pk}/join/{group.token}/")
    phones["dan"].get(f"/g/{group.pk}/join/{group.view_token}/")
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {}, group)
    phones["ben"].get(f"/g/{group.pk}/t/{table.id}/")  # Ben opened the table from the group's page
    return {"group": group, "users": users, "phones": phones, "table": table}


def test_the_owner_sees_the_members_and_removes_one_whose_pages_then_answer_404(club):
    group, users, phones, table = club["group"], club["users"], club["phones"], club["table"]
    page = phones["ann"].get(f"/g/{group.pk}/").content.decode()
    assert "4 members with an account" in page and "started the group" in page
    for name in ("ben", "cleo", "dan"):
        assert f'action="/g/{group.pk}/members/{users[name].pk}/remove/"' in page
    assert f"/members/{users['ann'].pk}/remove/" not in page  # the owner stays
    assert "Also renew the links of the group's tables (1 in play)" in page
    assert "/remove/" not in phones["cleo"].get(f"/g/{group.pk}/").content.decode()  # only the owner

    assert phones["cleo"].post(f"/g/{group.pk}/members/{users['ben'].pk}/remove/").status_code == 403
    done = phones["ann"].post(f"/g/{group.pk}/members/{users['ben'].pk}/remove/", follow=True)
    assert "ben is no longer a member, and the group's links are new." in unescape(done.content.decode())
    assert sorted(Membership.objects.values_list("user__username", flat=True)) == ["ann", "cleo", "dan"]
    for path in (f"/g/{group.pk}/", f"/g/{group.pk}/history/", f"/g/{group.pk}/history/export.json"):
        assert phones["ben"].get(path).status_code == 404, path
    assert "Thursday club" not in phones["ben"].get("/").content.decode()
    old_link = f"/g/{group.pk}/join/{group.token}/"
    assert phones["ben"].get(old_link).status_code == 404  # the links he kept are renewed
    # The others stay members, their accounts unchanged by the renewal.
    assert phones["cleo"].get(f"/g/{group.pk}/history/").status_code == 200
    assert phones["dan"].get(f"/g/{group.pk}/history/").status_code == 200
    # The table in play keeps its own links: Ben, who opened it, still plays it, as the page said.
    assert phones["ben"].get(f"/t/{table.id}/").status_code == 200


def test_removing_a_member_may_renew_the_links_of_every_table_a_link_could_still_write_to(club):
    group, users, phones, table = club["group"], club["users"], club["phones"], club["table"]
    ben = phones["ben"]
    # Ben also holds a finished table (whose "Play again" starts a table in the group), an
    # abandoned one (a play link resumes it), and a finished one whose next game exists.
    finished = play_out("dogo-dash", ["Ann", "Ben"], group=group)
    abandoned = services.create_table("dogo-dash", ["Ann", "Ben"], {}, group)
    services.abandon(abandoned.id, 0)
    followed = play_out("dogo-dash", ["Ann", "Ben"], group=group)
    next_game = services.play_again(followed.id)
    for held in (finished, abandoned, followed, next_game):
        ben.get(f"/g/{group.pk}/t/{held.id}/")
    done = phones["ann"].post(
        f"/g/{group.pk}/members/{users['ben'].pk}/remove/", {"renew_tables": "on"}, follow=True
    )
    assert "the group's links and those of its tables are new" in unescape(done.content.decode())
    links = dict(Table.objects.values_list("pk", "links"))
    assert [links[t.id] for t in (table, finished, abandoned, next_game, followed)] == [1, 1, 1, 1, 0]
    for held in (table, finished, abandoned, next_game):
        assert ben.get(f"/t/{held.id}/").status_code == 410
    assert ben.post(f"/t/{finished.id}/again/").status_code == 410
    # The finished table whose next game exists keeps its links (it starts nothing new), but its
    # "Play again" no longer leads into the renewed next game.
    assert ben.get(f"/t/{followed.id}/").status_code == 200
    assert ben.post(f"/t/{followed.id}/again/").status_code == 410
    assert Table.objects.filter(group=group).count() == 5  # Ben started nothing


def test_play_again_does_not_lead_into_a_next_game_whose_links_were_renewed():
    first = play_out("dogo-dash", ["Ann", "Ben"])
    player, watcher = (
        opened(f"/t/{first.id}/join/{first.token}/"),
        opened(f"/t/{first.id}/join/{first.view_token}/"),
    )
    assert player.post(f"/t/{first.id}/again/").status_code == 302
    next_game = Table.objects.get(pk=first.pk).rematch
    services.renew_links(next_game.id)
    for phone in (player, watcher):
        assert phone.post(f"/t/{first.id}/again/").status_code == 410
        assert phone.get(f"/t/{next_game.id}/").status_code in (404, 410)


def test_nobody_removes_the_owner_nor_themselves_and_a_stranger_nobody(club):
    group, users, phones = club["group"], club["users"], club["phones"]
    assert phones["ann"].post(f"/g/{group.pk}/members/{users['ann'].pk}/remove/").status_code == 403
    for nobody in (999999, 2**31, 2**63, 10**30):  # no account, and past any id column
        assert phones["ann"].post(f"/g/{group.pk}/members/{nobody}/remove/").status_code == 404
        gone = phones["ann"].delete(f"/api/v1/groups/{group.pk}/members/{nobody}", **bearer(group.token))
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_a_member"
    assert Client().post(f"/g/{group.pk}/members/{users['ben'].pk}/remove/").status_code == 302  # log in
    assert Membership.objects.count() == 4


def test_a_group_without_an_owner_lets_a_member_remove_a_member(club):
    group, users, phones = club["group"], club["users"], club["phones"]
    Group.objects.filter(pk=group.pk).update(owner=None)  # started by a phone without an account
    assert (
        phones["dan"].post(f"/g/{group.pk}/members/{users['ben'].pk}/remove/").status_code == 403
    )  # watches
    assert phones["cleo"].post(f"/g/{group.pk}/members/{users['ben'].pk}/remove/").status_code == 302
    assert not Membership.objects.filter(user=users["ben"]).exists()


def test_the_api_lists_the_members_and_removes_one_for_the_owner(club):
    group, users, phones = club["group"], club["users"], club["phones"]
    listed = phones["cleo"].get(f"/api/v1/groups/{group.pk}/members", **bearer(group.view_token))
    assert listed.status_code == 200 and listed.json() == [
        {"id": users["ann"].pk, "username": "ann", "rights": "edit", "owner": True},
        {"id": users["ben"].pk, "username": "ben", "rights": "edit", "owner": False},
        {"id": users["cleo"].pk, "username": "cleo", "rights": "edit", "owner": False},
        {"id": users["dan"].pk, "username": "dan", "rights": "view", "owner": False},
    ]
    path = f"/api/v1/groups/{group.pk}/members/{users['ben'].pk}"
    refused = phones["cleo"].delete(path, **bearer(group.token))
    assert refused.status_code == 403 and refused.json()["error"] == {
        "code": "not_owner",
        "message": "Only the group's owner, signed in, can remove its members.",
        "rule": None,
    }
    owner = phones["ann"]
    assert owner.delete(path, **bearer(group.view_token)).json()["error"]["code"] == "read_only"
    assert owner.delete(path, **bearer(group.token)).status_code == 204
    renewed = Group.objects.get()  # the group's links renewed with it: the old token opens nothing
    assert renewed.links == 1 and renewed.token != group.token
    old = owner.get(f"/api/v1/groups/{group.pk}", **bearer(group.token))
    assert old.status_code == 401 and old.json()["error"]["code"] == "unauthorized"
    group = renewed
    gone = owner.delete(path, **bearer(group.token))
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_a_member"
    itself = owner.delete(f"/api/v1/groups/{group.pk}/members/{users['ann'].pk}", **bearer(group.token))
    assert itself.status_code == 403 and itself.json()["error"]["code"] == "stays_member"
    assert sorted(Membership.objects.values_list("user__username", flat=True)) == ["ann", "cleo", "dan"]


def test_a_phone_that_joined_before_logging_in_is_a_member_once_signed_in(settings):
    group = Group.objects.create(name="Thursday club")
    User.objects.create_user("eve", password=PASSWORD)
    phone = opened(f"/g/{group.pk}/join/{group.token}/")
    phone.post("/accounts/login/", {"username": "eve", "password": PASSWORD})
    assert Membership.objects.get().rights == "edit"
    assert phone.get(f"/g/{group.pk}/history/").status_code == 200


def test_the_open_default_group_lists_no_members_and_removes_none(settings):
    group = Group.default()
    ann = User.objects.create_user("ann", password=PASSWORD)
    Membership.keep(ann, group, "edit")
    listed = Client().get(f"/api/v1/groups/{DEFAULT_GROUP_ID}/members")
    assert listed.status_code == 403 and listed.json()["error"]["code"] == "open_group"
    phone = Client()
    phone.login(username="ann", password=PASSWORD)
    removed = phone.delete(f"/api/v1/groups/{DEFAULT_GROUP_ID}/members/{ann.pk}")
    assert removed.status_code == 403 and removed.json()["error"]["code"] == "open_group"
    assert phone.post(f"/g/{DEFAULT_GROUP_ID}/members/{ann.pk}/remove/").status_code == 403
    group.refresh_from_db()
    assert group.links == 0 and Membership.objects.count() == 1


def test_a_renewal_that_lost_the_race_to_another_one_renews_nothing_more():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    first = services.renew_links(table.id, seen_links=0)
    assert first.links == 1
    assert services.renew_links(table.id, seen_links=0) is None  # the old link's holder, too late
    assert Table.objects.get().links == 1 and Table.objects.get().token == first.token


def test_an_entry_whose_page_was_read_before_a_renewal_is_not_written(monkeypatch):
    """The renewal lands between the page's check of the grant and the entry's write (the one
    interleaving a race could give): the write checks the grant again on the row it writes."""
    from companion.tables import views

    table = services.create_table("hang-four", ["Ann", "Ben"], {})
    phone = opened(f"/t/{table.id}/join/{table.token}/")
    real = services.play_action

    def renewed_meanwhile(table_id, *args, **kwargs):
        services.renew_links(table_id)
        return real(table_id, *args, **kwargs)

    monkeypatch.setattr(views.services, "play_action", renewed_meanwhile)
    # The version after the renewal, as a phone that knows a renewal adds one would send.
    roll = {"action": json.dumps({"type": "roll", "face": 3}), "expected_version": 1}
    assert phone.post(f"/t/{table.id}/act/", roll).status_code == 410
    assert Table.objects.get().last_seq == 0  # nothing entered
    monkeypatch.setattr(views.services, "play_action", real)
    player = opened(f"/t/{table.id}/join/{Table.objects.get().token}/")  # the new link writes
    assert player.post(f"/t/{table.id}/act/", roll).status_code == 302 and Table.objects.get().last_seq == 1
