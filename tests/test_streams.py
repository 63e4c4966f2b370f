"""A table's event stream (issue 12) against real app servers (tests/servers.py): its rights, what
it sends, a reconnect, the fan-out across processes and servers, and many open streams beside writes.

The backend is the one each database gets by default (PostgreSQL: LISTEN/NOTIFY; SQLite: the
watcher), and Redis pub/sub where a Redis answers on 127.0.0.1:6379.
"""

from __future__ import annotations

import html
import http.client
import re
import socket
import threading
import time
import zlib
from urllib.parse import urlencode

import pytest
from django.conf import settings

from .servers import app_servers, http_call

pytestmark = pytest.mark.django_db(transaction=True)

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
REDIS_URL = "redis://127.0.0.1:6379/0"
WAIT = 5.0  # seconds an event may take, on a busy machine (a LAN phone hears in milliseconds)


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class Stream:
    """One phone's EventSource, read line by line over http.client."""

    def __init__(
        self,
        port: int,
        table_id: str,
        cookie: str | None,
        last_event_id: int | None = None,
        live=False,
        **more,  # more headers
    ):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        headers = {"Accept": "text/event-stream", **more}
        if cookie:
            headers["Cookie"] = cookie
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", f"/t/{table_id}/events/" + ("?live=1" if live else ""), headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def next_version(self) -> int:
        """The next "version" event's number (comment lines and the retry field skipped)."""
        event = None
        while True:
            line = self.response.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: ") and event == "version":
                return int(line.removeprefix("data: "))

    def next_event(self) -> tuple[str, list[str]]:
        """The next event's name and data lines (comment lines and the retry field skipped)."""
        event, data = None, []
        while True:
            line = self.response.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: "):
                data.append(line.removeprefix("data: "))
            elif not line and event is not None:
                return event, data

    def close(self):
        self.conn.close()


def stream_status(port: int, table_id: str, cookie: str | None) -> int:
    stream = Stream(port, table_id, cookie)
    stream.close()
    return stream.status


def new_table(port: int) -> dict:
    answer = http_call(port, "POST", "/api/v1/tables", {"game": "hang-four", "players": ["Ann", "Ben"]})
    assert answer.status == 201, answer.payload
    return answer.payload


def watch_cookie(port: int, table: dict) -> str:
    """The session cookie a phone gets from the table's watch link."""
    answer = http_call(port, "GET", table["view_url"])
    assert answer.status == 302, answer.status
    return answer.headers["Set-Cookie"].split(";", 1)[0]


def roll(port: int, table: dict, version: int, face: int = 3) -> None:
    body = {"action": {"type": "roll", "face": face}, "expected_version": version}
    answer = http_call(port, "POST", f"/api/v1/tables/{table['id']}/actions", body, table["token"])
    assert answer.status == 200, answer.payload


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), app_servers(["--workers", "1"]) as (one,):
        yield one


def test_the_stream_needs_the_rights_of_the_page_and_no_token(server):
    table = new_table(server.port)
    assert stream_status(server.port, table["id"], cookie=None) == 404  # no share link opened
    cookie = watch_cookie(server.port, table)
    assert stream_status(server.port, "no-such-table", cookie) == 404
    other = new_table(server.port)
    assert stream_status(server.port, other["id"], cookie) == 404  # a grant for another table only
    stream = Stream(server.port, table["id"], cookie)  # the watch link reads: it may listen
    assert stream.status == 200
    assert stream.response.getheader("Content-Type") == "text/event-stream"
    assert stream.response.getheader("Cache-Control") == "no-cache, no-transform"
    assert stream.response.getheader("X-Accel-Buffering") == "no"
    assert stream.response.getheader("Content-Encoding") is None  # never gzip: it holds events back
    assert stream.next_version() == 0
    stream.close()
    time.sleep(0.2)  # the access log lines are written
    log = server.output()
    assert f'GET /t/{table["id"]}/join/[token]/ HTTP/1.1" 302' in log  # the share link, redacted
    assert f'GET /t/{table["id"]}/events/ HTTP/1.1" 200' in log
    assert table["token"] not in log and table["view_token"] not in log


def test_an_entry_reaches_an_open_stream_and_a_reconnect_catches_up(server):
    table = new_table(server.port)
    cookie = watch_cookie(server.port, table)
    stream = Stream(server.port, table["id"], cookie)
    assert stream.next_version() == 0  # the version now, at once
    roll(server.port, table, 0)
    assert stream.next_version() == 1
    stream.close()
    # The phone's stream dropped; two entries are made meanwhile; the browser reconnects.
    roll(server.port, table, 1)
    roll(server.port, table, 2)
    again = Stream(server.port, table["id"], cookie, last_event_id=1)
    assert again.next_version() == 3
    roll(server.port, table, 3)
    assert again.next_version() == 4
    again.close()


def test_a_hundred_open_streams_do_not_hold_up_writes(server):
    table = new_table(server.port)
    cookie = watch_cookie(server.port, table)
    streams = [Stream(server.port, table["id"], cookie) for _ in range(100)]
    assert [stream.next_version() for stream in streams] == [0] * 100
    for version in range(10):
        roll(server.port, table, version)  # each answered 200 (roll asserts it) beside the streams
    heard = []

    def last_heard(stream: Stream):
        version = stream.next_version()
        while version < 10:
            version = stream.next_version()
        heard.append(version)

    readers = [threading.Thread(target=last_heard, args=(stream,)) for stream in streams]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(WAIT * 2)
    assert heard == [10] * 100
    for stream in streams:
        stream.close()


def fan_out_across_two_servers(env: dict | None = None) -> None:
    """An entry made through one app server reaches a phone whose stream is held by another."""
    with app_servers(["--workers", "1"], ["--workers", "1"], env=env) as (writer, holder):
        table = new_table(writer.port)
        cookie = watch_cookie(holder.port, table)
        stream = Stream(holder.port, table["id"], cookie)
        assert stream.next_version() == 0
        roll(writer.port, table, 0)
        assert stream.next_version() == 1  # within the stream's read timeout, WAIT
        roll(writer.port, table, 1)
        roll(writer.port, table, 2)
        assert stream.next_version() in (2, 3)  # two quick writes may arrive as the newest only
        stream.close()


def test_an_entry_reaches_a_phone_on_another_server_through_the_database(django_db_blocker):
    """PostgreSQL: LISTEN/NOTIFY from the trigger; SQLite: each process's watcher."""
    with django_db_blocker.unblock():
        fan_out_across_two_servers()


@pytest.mark.skipif(not redis_answers(), reason="no Redis on 127.0.0.1:6379")
def test_an_entry_reaches_a_phone_on_another_server_through_redis(django_db_blocker):
    with django_db_blocker.unblock():
        fan_out_across_two_servers({"REDIS_URL": REDIS_URL, "COMPANION_FANOUT": "redis"})


# --- The live region pushed (issue 33, companion/tables/live_push.py) -----------------------------

KEY = re.compile(r'name="idempotency_key" value="([^"]*)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


def fetched_region(port: int, table_id: str, cookie: str, shown: int) -> str:
    """The live region the page would fetch (its poll), for the phone of this cookie."""
    headers = {"Cookie": cookie, "HX-Request": "true", "Accept-Encoding": "identity"}
    answer = http_call(port, "GET", f"/t/{table_id}/poll/?v={shown}", headers=headers)
    assert answer.status == 200
    return answer.payload.decode()


def edit_cookie(port: int, table: dict) -> str:
    answer = http_call(port, "GET", table["url"])  # the play link
    assert answer.status == 302, answer.status
    return answer.headers["Set-Cookie"].split(";", 1)[0]


def test_a_table_page_s_stream_pushes_the_region_it_would_fetch(server):
    table = new_table(server.port)
    roll(server.port, table, 0)  # an entry made: no setup guide left to show
    ann, ben = edit_cookie(server.port, table), edit_cookie(server.port, table)
    streams = [Stream(server.port, table["id"], cookie, live=True) for cookie in (ann, ben)]
    assert [stream.next_event() for stream in streams] == [("version", ["1"])] * 2  # the page is fresh
    roll(server.port, table, 1, face=5)
    pushed = [stream.next_event() for stream in streams]
    assert [event for event, _data in pushed] == ["live", "live"]
    heads = [data[0].split(" ") for _event, data in pushed]
    regions = ["\n".join(data[1:]) for _event, data in pushed]
    fetched = fetched_region(server.port, table["id"], ann, 1)
    variant = fetched.split('data-variant="', 1)[1].split('"', 1)[0]
    assert heads == [["2", variant], ["2", variant]]  # the version and the page's own variant
    assert all('data-version="2"' in region for region in regions)
    # The same region as the fetched one, each with its own form key and a CSRF token.
    keys = [set(KEY.findall(region)) for region in (*regions, fetched)]
    assert all(len(found) == 1 for found in keys) and len(set.union(*keys)) == 3
    assert all(CSRF.search(region) for region in regions) and "live-cache" not in "".join(regions)
    bare = [CSRF.sub("", KEY.sub("", region)).strip() for region in (*regions, fetched)]
    assert bare[0] == bare[1] == bare[2]
    for stream in streams:
        stream.close()


def test_a_pushed_region_s_form_writes_with_its_key_and_token(server):
    table = new_table(server.port)
    roll(server.port, table, 0)
    play = edit_cookie(server.port, table)
    page = http_call(server.port, "GET", f"/t/{table['id']}/", headers={"Cookie": play})
    cookies = "; ".join([play, page.headers["Set-Cookie"].split(";", 1)[0]])  # the page set its CSRF cookie
    stream = Stream(server.port, table["id"], cookies, live=True)
    assert stream.next_event() == ("version", ["1"])
    roll(server.port, table, 1, face=5)
    _event, data = stream.next_event()
    region = "\n".join(data[1:])
    # The first of the region's forms that enters an action (a face of the die), as it stands.
    posted = region.split(f'action="/t/{table["id"]}/act/"', 1)[1].split("</form>", 1)[0]
    form = {
        name: html.unescape(value) for name, value in re.findall(r'name="([^"]+)" value="([^"]*)"', posted)
    }
    assert form["expected_version"] == "2" and form["idempotency_key"] == KEY.search(region).group(1)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
    body = urlencode(form)
    headers = {"Cookie": cookies, "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"}
    conn.request("POST", f"/t/{table['id']}/act/", body=body, headers=headers)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    assert answer.status == 200 and answer.getheader("Companion-Outcome") == "applied"
    assert stream.next_event()[0] == "live"  # the phone's own entry comes back to it too
    stream.close()


def test_a_region_that_is_the_phone_s_own_is_fetched_not_pushed(server):
    """Surf's Up! keeps each surfer's token notes on their own phone (hidden.py): never shared."""
    players = ["Ann", "Ben", "Cleo", "Dev"]
    body = {"game": "surfs-up", "players": players, "options": {"shared_goals": True}}
    made = http_call(server.port, "POST", "/api/v1/tables", body)
    assert made.status == 201, made.payload
    table = made.payload
    stream = Stream(server.port, table["id"], edit_cookie(server.port, table), live=True)
    assert stream.next_event() == ("version", ["0"])
    setup = {
        "type": "setup",
        "beach": [
            {"bonus": 2, "cost": 3, "kind": "surfboard", "suit": "orange"},
            {"cost": 2, "kind": "energy", "value": 6},
            {"bonus": 1, "cost": 1, "kind": "surfboard", "suit": "blue"},
        ],
        "goals": [
            {"name": "Three waves of one suit", "points": 4},
            {"name": "Two surfboards", "points": 3},
            {"name": "No bluebottle", "points": 2},
        ],
        "surf": [
            {"kind": "wave", "points": 3, "suit": "blue"},
            {"kind": "wave", "points": 7, "suit": "orange"},
            {"kind": "wave", "points": 5, "suit": "purple"},
        ],
    }
    answer = http_call(
        server.port,
        "POST",
        f"/api/v1/tables/{table['id']}/actions",
        {"action": setup, "expected_version": 0},
        table["token"],
    )
    assert answer.status == 200, answer.payload
    assert stream.next_event() == ("version", ["1"])  # the page fetches its own
    stream.close()


def test_a_phone_that_accepts_gzip_gets_each_event_gzipped_on_arrival(server):
    """Issue 45: a pushed region is 8-17 KB of HTML; gzipped with the stream's last bytes as its
    dictionary, the second one on a stream costs a few hundred bytes, decoded as it arrives."""
    table = new_table(server.port)
    roll(server.port, table, 0)
    stream = Stream(server.port, table["id"], edit_cookie(server.port, table), live=True, **GZIP)
    assert stream.response.getheader("Content-Encoding") == "gzip"
    assert "Accept-Encoding" in stream.response.getheader("Vary")
    decoder, sizes = zlib.decompressobj(16 + zlib.MAX_WBITS), []
    assert next_gzipped_event(stream, decoder, sizes).startswith(b"retry: 2000\nid: 1\nevent: version\n")
    for version in (1, 2):
        roll(server.port, table, version, face=3 + version)
        event = next_gzipped_event(stream, decoder, sizes)
        assert event.startswith(f"id: {version + 1}\nevent: live\ndata: {version + 1} ".encode())
        assert f'data-version="{version + 1}"'.encode() in event and len(event) > 8_000
    assert sizes[2] < sizes[1] / 3 and sizes[2] < 1_500, sizes  # the second region: what changed
    stream.close()


GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def next_gzipped_event(stream: Stream, decoder, sizes: list[int]) -> bytes:
    """The next whole event, decoded from the bytes that carry it as they arrive: the bytes of one
    event end it (a compressor holding part of it back would leave the read waiting)."""
    wire = decoded = b""
    while not decoded.endswith(b"\n\n"):
        more = stream.response.read1(1 << 20)
        assert more, "the stream ended"
        wire += more
        decoded += decoder.decompress(more)
    sizes.append(len(wire))
    assert decoded.count(b"\n\n") == 1, decoded[:200]
    return decoded
