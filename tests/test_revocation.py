"""Links that can be revoked and sessions that end, across real app servers (issue 41): a table's
renewed links are refused on the other server and end a stream opened before the renewal; a
signed-in phone's open stream ends soon after its login ends on another server, and a kept copy
of its cookie opens nothing afterwards. With the fan-out each database gets by default (PostgreSQL:
LISTEN/NOTIFY; SQLite: the watcher), and through Redis where one answers."""

from __future__ import annotations

import http.client
import re
import time
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User

from .servers import app_servers, http_call
from .test_streams import REDIS_URL, WAIT, new_table, redis_answers, watch_cookie

pytestmark = pytest.mark.django_db(transaction=True)

BACKENDS = [
    pytest.param({}, id="database"),
    pytest.param(
        {"REDIS_URL": REDIS_URL, "COMPANION_FANOUT": "redis"},
        id="redis",
        marks=pytest.mark.skipif(not redis_answers(), reason="no Redis on 127.0.0.1:6379"),
    ),
]
RECHECK = 0.3  # seconds between the servers' checks of the signed-in streams' logins


class OpenStream:
    """A phone's EventSource, read as events until the server ends it."""

    def __init__(self, port: int, table_id: str, cookie: str, live: bool = False):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        path = f"/t/{table_id}/events/" + ("?live=1" if live else "")
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", "Cookie": cookie})
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def events(self) -> list[tuple[str, str]]:
        """Every (event, first data line) until the stream ends (within WAIT of the last one)."""
        seen, event, data = [], None, None
        while line := self.response.readline():
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: ") and data is None:
                data = line.removeprefix("data: ")
            elif not line and event is not None:
                seen.append((event, data))
                event, data = None, None
        return seen

    def close(self):
        self.conn.close()


def get(port: int, path: str, cookie: str | None = None, **headers):
    return http_call(port, "GET", path, headers={**({"Cookie": cookie} if cookie else {}), **headers})


@pytest.mark.parametrize("backend", BACKENDS)
def test_renewed_links_are_refused_on_the_other_server_and_end_a_stream_opened_before(
    django_db_blocker, backend
):
    with (
        django_db_blocker.unblock(),
        app_servers(["--workers", "1"], ["--workers", "1"], env=backend) as (
            one,
            two,
        ),
    ):
        table = new_table(one.port)
        watcher = watch_cookie(one.port, table)  # a phone that opened the watch link on server one
        plain, pushed = (
            OpenStream(two.port, table["id"], watcher),
            OpenStream(two.port, table["id"], watcher, True),
        )
        assert plain.status == pushed.status == 200
        assert get(two.port, f"/t/{table['id']}/", watcher).status == 200

        renewed = http_call(one.port, "POST", f"/api/v1/tables/{table['id']}/links", token=table["token"])
        assert renewed.status == 200
        fresh = renewed.payload
        assert fresh["version"] == 1 and {fresh["token"], fresh["view_token"]}.isdisjoint(
            {table["token"], table["view_token"]}
        )
        # Both streams opened before the renewal, on the other server, end with "renewed".
        started = time.monotonic()
        assert plain.events() == [("version", "0"), ("renewed", "links")]
        assert pushed.events() == [("version", "0"), ("renewed", "links")]
        assert time.monotonic() - started < WAIT
        # On the other server: the phone's page says so (410), its stream and poll too; the old
        # links open nothing and the old tokens are refused; the new ones work.
        page = get(two.port, f"/t/{table['id']}/", watcher)
        assert page.status == 410 and b"This table's links were renewed" in page.payload
        assert get(two.port, f"/t/{table['id']}/poll/?v=0", watcher).status == 410
        assert OpenStream(two.port, table["id"], watcher).status == 410
        assert get(two.port, table["view_url"]).status == 404 and get(two.port, table["url"]).status == 404
        old = http_call(two.port, "GET", f"/api/v1/tables/{table['id']}", token=table["token"])
        assert old.status == 401 and old.payload["error"]["code"] == "unauthorized"
        assert (
            http_call(two.port, "GET", f"/api/v1/tables/{table['id']}", token=fresh["view_token"]).status
            == 200
        )
        rejoined = watch_cookie(two.port, {"view_url": fresh["view_url"]})
        assert get(two.port, f"/t/{table['id']}/", rejoined).status == 200


def login(port: int, username: str, password: str) -> dict[str, str]:
    """A phone's cookies after logging in through the page, CSRF token and all."""
    cookies: dict[str, str] = {}
    page = get(port, "/accounts/login/")
    keep(cookies, page)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.payload)[1].decode()
    answer = post_form(port, "/accounts/login/", {"username": username, "password": password}, cookies, token)
    assert answer.status == 302, answer.payload
    keep(cookies, answer)
    return cookies


def post_form(port: int, path: str, form: dict, cookies: dict, csrf: str | None = None):
    csrf = csrf or cookies["csrftoken"]
    body = urlencode({**form, "csrfmiddlewaretoken": csrf})
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Cookie": as_header(cookies), "Content-Type": "application/x-www-form-urlencoded"}
        headers["Referer"] = f"http://127.0.0.1:{port}/"
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        response.payload = response.read()
        response.status_code = response.status
        return response
    finally:
        conn.close()


def keep(cookies: dict, answer) -> None:
    for header in answer.headers.get_all("Set-Cookie") or []:
        name, _, rest = header.partition("=")
        cookies[name] = rest.split(";", 1)[0]


def as_header(cookies: dict) -> str:
    return "; ".join(f"{name}={value}" for name, value in cookies.items() if value)


def follow_link(port: int, path: str, cookies: dict) -> None:
    answer = get(port, path, as_header(cookies))
    assert answer.status == 302, (path, answer.status)
    keep(cookies, answer)


@pytest.mark.parametrize("ending", ["logout", "sign out everywhere"])
def test_a_signed_in_phones_stream_ends_with_its_login_and_a_kept_cookie_opens_nothing(
    django_db_blocker, ending
):
    env = {"COMPANION_LOGIN_REQUIRED": "true", "COMPANION_SESSION_RECHECK": str(RECHECK)}
    with django_db_blocker.unblock():
        User.objects.create_user("ann", password="a long enough passphrase")
    with (
        django_db_blocker.unblock(),
        app_servers(["--workers", "1"], ["--workers", "1"], env=env) as (one, two),
    ):
        cookies = login(one.port, "ann", "a long enough passphrase")
        made = post_form(one.port, "/groups/new/", {"name": "Thursday club"}, cookies)
        assert made.status == 302
        group_path = made.getheader("Location")
        body = {"game": "hang-four", "players": ["Ann", "Ben"]}
        table = http_call(
            one.port, "POST", "/api/v1/tables", body, headers={"Cookie": as_header(cookies)}
        ).payload
        follow_link(one.port, table["view_url"], cookies)
        kept = as_header(cookies)  # a copy of the cookie, taken before the phone signs out
        stream = OpenStream(two.port, table["id"], kept)
        assert stream.status == 200
        assert get(two.port, group_path, kept).status == 200

        path = "/accounts/logout/" if ending == "logout" else "/accounts/sign-out-everywhere/"
        assert post_form(one.port, path, {}, cookies).status == 302
        started = time.monotonic()
        assert stream.events() == [("version", "0"), ("renewed", "signed-out")]
        assert time.monotonic() - started < RECHECK + WAIT
        # The kept cookie, on the other server: the login page, the API's 401, no table, no stream.
        assert get(two.port, "/", kept).headers["Location"] == "/accounts/login/?next=/"
        assert get(two.port, group_path, kept).status == 302
        group_api = http_call(two.port, "GET", f"/api/v1/groups{group_path.removeprefix('/g')}".rstrip("/"),
                              headers={"Cookie": kept})  # fmt: skip
        assert group_api.status == 401 and group_api.payload["error"]["code"] == "login_required"
        assert get(two.port, f"/t/{table['id']}/", kept).status == 404
        assert OpenStream(two.port, table["id"], kept).status == 404
