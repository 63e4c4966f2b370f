"""A table's event stream (issue 12) against real app servers (tests/servers.py): its rights, what
it sends, a reconnect, the fan-out across processes and servers, and many open streams beside writes.

The backend is the one each database gets by default (PostgreSQL: LISTEN/NOTIFY; SQLite: the
watcher), and Redis pub/sub where a Redis answers on 127.0.0.1:6379.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time

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

    def __init__(self, port: int, table_id: str, cookie: str | None, last_event_id: int | None = None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        headers = {"Accept": "text/event-stream"}
        if cookie:
            headers["Cookie"] = cookie
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", f"/t/{table_id}/events/", headers=headers)
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
