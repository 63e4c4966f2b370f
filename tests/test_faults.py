"""Faults against the real services (issue 28): app servers as production runs them, writing clients,
and a Redis of the tests' own that is stopped or frozen (SIGSTOP), a PostgreSQL backend ended
mid-write (pg_terminate_backend), a worker killed under load.

What must hold through each: nothing lost, nothing doubled, no 500, every write answered within a
second, and phones told when their page is not live.
"""

from __future__ import annotations

import http.client
import os
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field

import pytest
from django.conf import settings
from django.db import connection

from .redis_server import own_redis
from .servers import app_servers, http_call
from .test_streams import WAIT, Stream, new_table, roll, watch_cookie

pytestmark = pytest.mark.django_db(transaction=True)

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
# Seconds: writes answered within this (99 in 100), whatever the fault, and none past SLOWEST. A
# shared 2-CPU machine stalls a request for half a second now and then with no fault at all; the
# faults as they were before issue 28 held every write 2 to 5 s, which both bounds catch.
WITHIN, SLOWEST = 1.0, 2.5
# Rate limits on, high enough that the writers never meet them: what is tested is that a cache
# that does not answer lets them through instead of failing the request.
LIMITS_ON = {"RATELIMIT_ENABLE": "true", "RATELIMIT_WRITES": "100000/m", "RATELIMIT_TABLES": "10000/m"}


@dataclass
class Writer:
    """One phone's worth of writes on its own table, counting what the server acknowledged."""

    port: int
    table: dict
    version: int = 0
    acknowledged: int = 0
    answers: list = field(default_factory=list)  # (status, seconds)

    def write(self, retries_on_reset: int = 0) -> None:
        """One roll, sent again with the same idempotency key when the connection breaks (what
        the phone's outbox does), so that a reset never leaves the outcome unknown."""
        key = uuid.uuid4().hex
        body = {"action": {"type": "roll", "face": 1 + self.version % 5}, "expected_version": self.version}
        body["idempotency_key"] = key
        path = f"/api/v1/tables/{self.table['id']}/actions"
        started = time.monotonic()  # the phone's wait: from its tap to the answer, retries included
        for attempt in range(retries_on_reset + 1):
            try:
                answer = http_call(self.port, "POST", path, body, self.table["token"])
            except (ConnectionError, http.client.HTTPException, TimeoutError):
                if attempt == retries_on_reset:
                    raise
                time.sleep(0.05)
                continue
            self.answers.append((answer.status, time.monotonic() - started))
            if answer.status == 200:
                self.version = answer.payload["version"]
                self.acknowledged += 1
            return


def write_until(writers: list[Writer], stop: threading.Event, retries_on_reset: int = 0):
    failures: list[BaseException] = []

    def run(writer: Writer):
        try:
            while not stop.is_set():
                writer.write(retries_on_reset)
        except BaseException as error:  # reported by the test's thread
            failures.append(error)

    threads = [threading.Thread(target=run, args=(writer,)) for writer in writers]
    for thread in threads:
        thread.start()
    return threads, failures


def run_writers_through(writers: list[Writer], fault, recover, before=1.0, during=2.5, after=1.5, **kw):
    """Writers write before, during and after a fault; returns every answer."""
    stop = threading.Event()
    threads, failures = write_until(writers, stop, **kw)
    time.sleep(before)
    fault()
    time.sleep(during)
    recover()
    time.sleep(after)
    stop.set()
    for thread in threads:
        thread.join(30)
    assert not failures, failures


def assert_each_write_kept_once(writers: list[Writer]) -> None:
    """Every acknowledged write is in its table's log, once, in order, and nothing else is."""
    from companion.tables.models import Event, Table

    for writer in writers:
        table = Table.objects.get(pk=writer.table["id"])
        log = Event.objects.filter(table=table, undone=False).order_by("seq")
        live = list(log.values_list("seq", flat=True))
        assert table.version == writer.version == writer.acknowledged, writer.table["id"]
        assert live == list(range(1, writer.acknowledged + 1)), writer.table["id"]


def summary(writers: list[Writer]) -> dict:
    answers = [answer for writer in writers for answer in writer.answers]
    statuses = {}
    for status, _seconds in answers:
        statuses[status] = statuses.get(status, 0) + 1
    times = sorted(seconds for _status, seconds in answers)
    p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
    return {"writes": len(answers), "statuses": statuses, "p50": p50, "p99": p99, "slowest": times[-1]}


def writers_on(servers, count: int) -> list[Writer]:
    return [Writer(server.port, new_table(server.port)) for server in servers for _ in range(count)]


# --- Redis: the rate limits' cache and the fan-out ---------------------------------------------


@pytest.mark.parametrize("fault", ["stopped", "frozen"])
def test_writes_go_on_through_a_redis_outage_with_rate_limits_on(django_db_blocker, fault):
    with django_db_blocker.unblock(), own_redis() as redis:
        env = {**LIMITS_ON, "REDIS_URL": redis.url}
        with app_servers(["--workers", "2"], ["--workers", "2"], env=env) as servers:
            writers = writers_on(servers, 3)
            during: dict = {}

            def break_redis():
                redis.stop() if fault == "stopped" else redis.freeze()
                time.sleep(0.3)
                # Starting a table and logging in count against the limits too.
                started = time.monotonic()
                during["table"] = http_call(servers[0].port, "POST", "/api/v1/tables", TABLE).status
                during["login"] = login_attempt(servers[1].port)
                during["seconds"] = time.monotonic() - started

            def mend_redis():
                redis.start() if fault == "stopped" else redis.thaw()

            run_writers_through(writers, break_redis, mend_redis, after=3.0)  # a breaker waits 2 s
            seen = summary(writers)
            print(f"\nRedis {fault} under writes with rate limits on: {seen}, during: {during}")
            assert set(seen["statuses"]) == {200}, seen
            assert seen["p99"] < WITHIN and seen["slowest"] < SLOWEST, seen
            assert during["table"] == 201 and during["login"] == 200 and during["seconds"] < SLOWEST
            log = "".join(server.output(last=None) for server in servers)
            # Said once per worker and outage that the limits are open, and that they count again.
            cache = f"The cache at {redis.url}"
            assert 1 <= log.count(f"{cache} does not answer") <= 4  # 4 workers: once each at most
            assert log.count(f"{cache} answers again") == log.count(f"{cache} does not answer")
        assert_each_write_kept_once(writers)


TABLE = {"game": "hang-four", "players": ["Ann", "Ben"]}


def login_attempt(port: int) -> int:
    """A wrong password posted to the login page, with the CSRF cookie and token it hands out."""
    page = http_call(port, "GET", "/accounts/login/")
    cookie = page.headers["Set-Cookie"].split(";", 1)[0]
    token = page.payload.decode().split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        form = f"csrfmiddlewaretoken={token}&username=ann&password=not-it"
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
        headers["Referer"] = f"http://127.0.0.1:{port}/accounts/login/"
        conn.request("POST", "/accounts/login/", body=form, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


class Events:
    """A phone's stream, read in a thread: every version and fan-out state it hears, with when."""

    def __init__(self, port: int, table: dict, cookie: str):
        self.stream = Stream(port, table["id"], cookie)
        self.stream.conn.sock.settimeout(30)
        self.heard: list[tuple[str, str, float]] = []
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        event = None
        try:
            while True:
                line = self.stream.response.readline().decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    self.heard.append((event, line.removeprefix("data: "), time.monotonic()))
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return  # the stream was closed under the reader

    def wait_for(self, event: str, data: str, timeout: float) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for heard_event, heard_data, at in self.heard:
                if (heard_event, heard_data) == (event, data):
                    return at
            time.sleep(0.02)
        raise AssertionError(f"no {event} {data} within {timeout} s; heard {self.heard}")

    def close(self):
        self.stream.close()


@pytest.mark.parametrize("fault", ["stopped", "frozen"])
def test_phones_are_told_their_page_is_not_live_while_the_fanout_is_down(django_db_blocker, fault):
    """Two servers fanned out by Redis: while Redis is down, a phone on the other server would miss
    the entries, so its stream says "fanout: down" (the page polls, marked not live) and "up" when
    Redis is back, and the entries made meanwhile reach it then."""
    with django_db_blocker.unblock(), own_redis() as redis:
        env = {"REDIS_URL": redis.url, "COMPANION_FANOUT": "redis"}
        with app_servers(["--workers", "1"], ["--workers", "1"], env=env) as (writer, holder):
            table = new_table(writer.port)
            phone = Events(holder.port, table, watch_cookie(holder.port, table))
            phone.wait_for("version", "0", WAIT)
            roll(writer.port, table, 0)
            phone.wait_for("version", "1", WAIT)
            broken = time.monotonic()
            redis.stop() if fault == "stopped" else redis.freeze()
            told = phone.wait_for("fanout", "down", 5.0) - broken
            roll(writer.port, table, 1)  # made while the fan-out is down: it is saved at once
            # What the page then does: it polls, and the poll shows the entry.
            mended = time.monotonic()
            redis.start() if fault == "stopped" else redis.thaw()
            back = phone.wait_for("fanout", "up", 10.0) - mended
            phone.wait_for("version", "2", WAIT)
            roll(writer.port, table, 2)
            phone.wait_for("version", "3", WAIT)
            phone.close()
            print(f"\nRedis {fault}: the phone was told 'down' after {told:.2f} s, 'up' {back:.2f} s after")
            assert told < 3.5


# --- PostgreSQL and the workers -----------------------------------------------------------------


def end_app_backends(keep_pid: int) -> int:
    """pg_terminate_backend on every connection to the test database but this one: the app
    servers', each mid-write or between two."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> %s AND pid <> pg_backend_pid()",
            [keep_pid],
        )
        return cursor.fetchone()[0]


@pytest.mark.skipif(not ON_POSTGRES, reason="PostgreSQL's backends (pg_terminate_backend)")
def test_writes_go_on_when_their_postgresql_connections_are_ended_mid_write(django_db_blocker):
    with django_db_blocker.unblock(), app_servers(["--workers", "2"], ["--workers", "2"]) as servers:
        writers = writers_on(servers, 3)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            own = cursor.fetchone()[0]
        ended = []
        stop = threading.Event()

        def keep_ending():
            try:
                while not stop.is_set():
                    ended.append(end_app_backends(own))
                    time.sleep(0.15)
            finally:
                connection.close()  # this thread's own

        killer = threading.Thread(target=keep_ending)
        run_writers_through(writers, killer.start, stop.set, before=0.5, during=3.0, after=1.0)
        killer.join(10)
        seen = summary(writers)
        print(f"\nPostgreSQL backends ended {sum(ended)} times under writes: {seen}")
        assert sum(ended) >= 10
        assert set(seen["statuses"]) == {200}, seen
        assert seen["p99"] < WITHIN and seen["slowest"] < SLOWEST, seen
        assert_each_write_kept_once(writers)


def worker_pids(master: int) -> list[int]:
    with open(f"/proc/{master}/task/{master}/children") as children:
        return [int(pid) for pid in children.read().split()]


def test_a_worker_killed_under_load_loses_and_doubles_nothing(django_db_blocker):
    """A phone whose request dies with its worker sends it again with the same idempotency key
    (the outbox): the write is applied once, whether or not the dead worker had applied it."""
    with django_db_blocker.unblock(), app_servers(["--workers", "2"]) as (server,):
        writers = writers_on([server], 6)
        killed = []

        def kill_a_worker():
            victim = worker_pids(server.proc.pid)[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

        run_writers_through(writers, kill_a_worker, lambda: None, retries_on_reset=5)
        seen = summary(writers)
        print(f"\nA worker killed under writes: {seen}")
        assert killed and killed[0] not in worker_pids(server.proc.pid)
        assert set(seen["statuses"]) == {200}, seen
        assert seen["p99"] < WITHIN and seen["slowest"] < SLOWEST, seen
        assert_each_write_kept_once(writers)
