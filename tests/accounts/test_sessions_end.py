"""Sessions that end (issue 41): a signed-in cookie counts while its login is on record. Logging
out, a password change, "sign out everywhere" (the account's, or the operator's), a lost phone
signed out from another one, a login past its lifetime or idle too long: a copy of the cookie kept
from before opens no page, no API call and no table afterwards. A table's phone without an
account keeps its links as before. (An open stream: tests/test_revocation.py, on real servers.)"""

from __future__ import annotations

import datetime as dt
import hashlib
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from companion.accounts.models import Login
from companion.groups.models import Group
from companion.tables import services

pytestmark = pytest.mark.django_db
PASSWORD = "a long enough passphrase"


@pytest.fixture(autouse=True)
def private(settings):
    settings.LOGIN_REQUIRED = True
    # A fast hasher: these tests log in dozens of times (PBKDF2's cost is not what they test).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ann(db):
    return User.objects.create_user("ann", password=PASSWORD)


def phone(user_agent: str = "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36") -> Client:
    return Client(HTTP_USER_AGENT=user_agent)


def logged_in(user_agent: str | None = None) -> Client:
    client = phone(user_agent) if user_agent else phone()
    response = client.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"
    return client


def kept_copy(client: Client) -> Client:
    """Another client holding a copy of `client`'s cookies, as a thief or a forgotten tab would."""
    copy = Client()
    for key, morsel in client.cookies.items():
        copy.cookies[key] = morsel.value
    return copy


def group_with_table(user) -> tuple[Group, str]:
    group = Group.objects.create(name="Thursday club", owner=user)
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {}, group)
    return group, table.id


def opens_everything(client: Client, group: Group, table_id: str) -> bool:
    """The home page, the group's page and history export, the group API and the table page."""
    answers = [
        client.get("/").status_code,
        client.get(f"/g/{group.pk}/").status_code,
        client.get(f"/g/{group.pk}/history/export.json").status_code,
        client.get(f"/api/v1/groups/{group.pk}", HTTP_AUTHORIZATION=f"Bearer {group.view_token}").status_code,
        client.get(f"/t/{table_id}/").status_code,
    ]
    return answers == [200, 200, 200, 200, 200]


def shut_out(client: Client, group: Group, table_id: str) -> None:
    """A signed-out cookie: the login page for pages, 401 for the API, 404 for the table it held."""
    assert client.get("/")["Location"] == "/accounts/login/?next=/"
    assert client.get(f"/g/{group.pk}/")["Location"] == f"/accounts/login/?next=/g/{group.pk}/"
    export = client.get(f"/g/{group.pk}/history/export.json")
    assert export.status_code == 302 and export["Location"].startswith("/accounts/login/")
    api = client.get(f"/api/v1/groups/{group.pk}", HTTP_AUTHORIZATION=f"Bearer {group.view_token}")
    assert api.status_code == 401 and api.json()["error"]["code"] == "login_required"
    assert client.get(f"/t/{table_id}/").status_code == 404  # the grant went with the session
    assert client.get(f"/t/{table_id}/poll/?v=0").status_code == 404


def member_of_group(client: Client, group: Group, table_id: str) -> None:
    client.get(f"/g/{group.pk}/join/{group.token}/")
    assert client.get(f"/g/{group.pk}/t/{table_id}/")["Location"] == f"/t/{table_id}/"


def test_a_login_makes_its_record_and_logging_out_ends_it_for_a_kept_copy_of_the_cookie(ann):
    group, table_id = group_with_table(ann)
    first = logged_in()
    member_of_group(first, group, table_id)
    login = Login.objects.get()
    assert (login.user, login.device) == (ann, "Chrome · Android")
    stolen = kept_copy(first)
    assert opens_everything(stolen, group, table_id)
    assert first.post("/accounts/logout/").status_code == 302
    assert Login.objects.count() == 0
    shut_out(stolen, group, table_id)
    shut_out(first, group, table_id)
    # The dead cookie is replaced by an empty session's: not signed in, no grants.
    assert "_auth_user_id" not in stolen.session.keys() and "tables" not in stolen.session.keys()


def test_a_session_from_before_logins_were_kept_is_signed_out_once(ann):
    group, table_id = group_with_table(ann)
    client = logged_in()
    session = client.session
    session.pop("_login")
    session.save()
    client.cookies["sessionid"] = session.session_key
    shut_out(client, group, table_id)


def test_sign_out_everywhere_ends_every_login_of_the_account_and_no_one_elses(ann):
    User.objects.create_user("ben", password=PASSWORD)
    group, table_id = group_with_table(ann)
    laptop, tablet = (
        logged_in("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"),
        logged_in(),
    )
    member_of_group(laptop, group, table_id)
    ben = phone()
    ben.post("/accounts/login/", {"username": "ben", "password": PASSWORD})
    page = tablet.get("/accounts/").content.decode()
    assert "This phone" in page and "Firefox · Linux" in page and "Sign out everywhere" in page
    out = tablet.post("/accounts/sign-out-everywhere/")
    assert out.status_code == 302 and out["Location"] == "/accounts/login/"
    assert out["Clear-Site-Data"] == '"cache", "storage"'
    shut_out(laptop, group, table_id)
    assert tablet.get("/")["Location"] == "/accounts/login/?next=/"
    assert list(Login.objects.values_list("user__username", flat=True)) == ["ben"]
    assert ben.get("/").status_code == 200


def test_a_lost_phone_is_signed_out_in_one_tap_from_another(ann):
    group, table_id = group_with_table(ann)
    lost, here = (
        logged_in(),
        logged_in("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Version/17.5 Safari/605.1.15"),
    )
    member_of_group(lost, group, table_id)
    lost_login = Login.objects.get(device="Chrome · Android")
    handle = hashlib.sha256(lost_login.key.encode()).hexdigest()[:16]
    assert f'action="/accounts/sign-out/{handle}/"' in here.get("/accounts/").content.decode()
    done = here.post(f"/accounts/sign-out/{handle}/", follow=True)
    assert "That phone is signed out." in done.content.decode()
    shut_out(lost, group, table_id)
    assert here.get("/").status_code == 200
    assert here.post("/accounts/sign-out/0123456789abcdef/").status_code == 404  # nobody's
    assert Login.objects.get().device == "Safari · macOS"


def test_nobody_signs_out_another_accounts_phone(ann):
    User.objects.create_user("ben", password=PASSWORD)
    ann_phone = logged_in()
    ben = phone()
    ben.post("/accounts/login/", {"username": "ben", "password": PASSWORD})
    ann_login = Login.objects.get(user=ann)
    handle = hashlib.sha256(ann_login.key.encode()).hexdigest()[:16]
    assert ben.post(f"/accounts/sign-out/{handle}/").status_code == 404
    assert ann_phone.get("/").status_code == 200


def test_a_password_change_ends_the_other_logins_and_keeps_this_one(ann):
    group, table_id = group_with_table(ann)
    other, here = logged_in(), logged_in()
    member_of_group(other, group, table_id)
    changed = here.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another passphrase",
            "new_password2": "another passphrase",
        },
    )
    assert changed.status_code == 302 and changed["Location"] == "/accounts/password_change/done/"
    assert Login.objects.count() == 1
    shut_out(other, group, table_id)
    assert here.get("/").status_code == 200


def test_changepassword_by_the_operator_signs_out_every_phone(ann):
    group, table_id = group_with_table(ann)
    client = logged_in()
    member_of_group(client, group, table_id)
    ann.set_password("set by the operator")
    ann.save()
    shut_out(client, group, table_id)
    assert Login.objects.count() == 0  # the record of a login its password no longer opens


@pytest.mark.parametrize(
    ("field", "days", "still_in"), [("last_seen", 29, True), ("last_seen", 31, False), ("created", 91, False)]
)
def test_a_login_ends_when_idle_too_long_or_past_its_lifetime(ann, field, days, still_in):
    group, table_id = group_with_table(ann)
    client = logged_in()
    member_of_group(client, group, table_id)
    Login.objects.update(**{field: timezone.now() - dt.timedelta(days=days)})
    if still_in:
        assert opens_everything(client, group, table_id)
        seen = Login.objects.get().last_seen
        assert timezone.now() - seen < dt.timedelta(minutes=1)  # the visit moved it on
    else:
        shut_out(client, group, table_id)


def test_the_lifetime_and_idle_limit_are_settings(ann, settings):
    settings.COMPANION_SESSION_DAYS, settings.COMPANION_SESSION_IDLE_DAYS = 7, 1
    group, table_id = group_with_table(ann)
    client = logged_in()
    Login.objects.update(last_seen=timezone.now() - dt.timedelta(hours=25))
    assert client.get("/")["Location"] == "/accounts/login/?next=/"
    client = logged_in()
    Login.objects.update(created=timezone.now() - dt.timedelta(days=8))
    assert client.get("/")["Location"] == "/accounts/login/?next=/"


def test_clearsessions_deletes_the_records_of_ended_logins(ann):
    logged_in(), logged_in(), logged_in()
    old, idle, fresh = Login.objects.order_by("created")
    Login.objects.filter(pk=old.pk).update(created=timezone.now() - dt.timedelta(days=100))
    Login.objects.filter(pk=idle.pk).update(last_seen=timezone.now() - dt.timedelta(days=40))
    call_command("clearsessions")
    assert list(Login.objects.values_list("pk", flat=True)) == [fresh.pk]


def test_the_operator_signs_out_accounts_or_everyone(ann):
    User.objects.create_user("ben", password=PASSWORD)
    ann_phone = logged_in()
    ben = phone()
    ben.post("/accounts/login/", {"username": "ben", "password": PASSWORD})
    out = StringIO()
    call_command("signout", "ann", stdout=out)
    assert out.getvalue() == "ann: 1 logins ended.\n"
    assert ann_phone.get("/")["Location"] == "/accounts/login/?next=/"
    assert ben.get("/").status_code == 200
    with pytest.raises(CommandError, match="No account named zed: nobody was signed out."):
        call_command("signout", "ben", "zed")
    with pytest.raises(CommandError, match="Name the accounts to sign out, or say --everyone."):
        call_command("signout")
    call_command("signout", "--everyone", stdout=StringIO())
    assert ben.get("/")["Location"] == "/accounts/login/?next=/"


def test_a_tables_phone_without_an_account_keeps_its_link_through_every_logout(ann):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    guest = phone()
    guest.get(f"/t/{table.id}/join/{table.token}/")
    client = logged_in()
    client.post("/accounts/sign-out-everywhere/")
    call_command("signout", "--everyone", stdout=StringIO())
    assert guest.get(f"/t/{table.id}/").status_code == 200
    assert guest.get(f"/t/{table.id}/poll/?v=0").status_code == 204  # version 0 is the one shown


def test_a_phone_reads_no_login_record_a_signed_in_one_reads_one(ann, django_assert_num_queries):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    guest = phone()
    guest.get(f"/t/{table.id}/join/{table.view_token}/")
    with django_assert_num_queries(1):  # the table's version: the session is the cookie alone
        assert guest.get(f"/t/{table.id}/poll/?v=0").status_code in (200, 204)
    with django_assert_num_queries(1):
        assert guest.get(f"/t/{table.id}/poll/?v=0").status_code == 204
    member = logged_in()
    member.get(f"/t/{table.id}/join/{table.view_token}/")
    with django_assert_num_queries(2):  # the login, then the version (the account is not read)
        assert member.get(f"/t/{table.id}/poll/?v=0").status_code == 204


@pytest.mark.ratelimit
def test_the_old_password_cannot_be_guessed_without_end(ann, settings):
    from django.core.cache import cache

    settings.RATELIMIT_PASSWORDS = "3/h"
    cache.clear()
    client = logged_in()
    guesses = [
        client.post(
            "/accounts/password_change/",
            {
                "old_password": f"guess {n}",
                "new_password1": "x passphrase y",
                "new_password2": "x passphrase y",
            },
        ).status_code
        for n in range(4)
    ]
    assert guesses == [200, 200, 200, 429]
    cache.clear()


def test_an_account_turned_off_is_signed_out_on_every_phone(ann):
    group, table_id = group_with_table(ann)
    client = logged_in()
    member_of_group(client, group, table_id)
    ann.is_active = False
    ann.save()
    shut_out(client, group, table_id)
    assert Login.objects.count() == 0


def test_a_new_password_must_be_12_characters_and_no_common_one(ann):
    client = logged_in()
    for new, said in (("short1pass", "at least 12 characters"), ("password1234", "too common")):
        refused = client.post(
            "/accounts/password_change/",
            {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        )
        assert refused.status_code == 200 and said in refused.content.decode()
    assert Login.objects.count() == 1  # nothing changed: the login stands


def test_logging_in_again_ends_the_phones_login_before(ann):
    User.objects.create_user("ben", password=PASSWORD)
    group, table_id = group_with_table(ann)
    client = logged_in()
    member_of_group(client, group, table_id)
    before = kept_copy(client)
    client.post("/accounts/login/", {"username": "ann", "password": PASSWORD})  # again, as ann
    assert Login.objects.count() == 1
    shut_out(before, group, table_id)
    as_ann = kept_copy(client)
    client.post("/accounts/login/", {"username": "ben", "password": PASSWORD})  # as another account
    assert list(Login.objects.values_list("user__username", flat=True)) == ["ben"]
    shut_out(as_ann, group, table_id)
    assert client.get("/").status_code == 200


def test_the_account_page_lists_only_the_logins_that_still_count(ann):
    here = logged_in()
    logged_in()  # another phone, left unused for 40 days
    Login.objects.exclude(pk=here.session["_login"]).update(last_seen=timezone.now() - dt.timedelta(days=40))
    assert here.get("/accounts/").content.decode().count("Sign out</button>") == 1
