"""Fan-out: a committed write reaches every phone watching its table, in every worker process of
every app server.

Each worker process has one Hub on its event loop. A phone's event stream (stream.py) watches one
table through it; the hub hears of new versions from one of three backends, chosen by
COMPANION_FANOUT (default "auto": redis when REDIS_URL is set, else postgres on PostgreSQL, else
watch):

- redis: a write PUBLISHes "<table id> <version>" after it commits; each process SUBSCRIBEs once.
- postgres: the database NOTIFYs on every change of a table's version (a trigger, migrations 0006
  and 0019, so the write path pays nothing); each process LISTENs on one connection.
- watch (SQLite): each process asks the database every COMPANION_WATCH_INTERVAL seconds for the
  versions of all the tables its phones watch: one query per process, never one per phone.

Whatever the backend, a write also tells its own process's hub at once. Versions only grow, so a
version heard twice (from the process and from the backend) is sent to the phones once.

Renewing a table's links (issue 41) moves its version on too, and says the links' new generation
with it ("<table id> <version> <links>"; the watch backend reads it with the versions): each stream
is told the generation (a Renewed item), and one opened with the old links ends (stream.py).

A write never waits on the backend: Redis is published to from a thread of its own (a hung Redis
held every write 2 s, issue 28). When a hub loses its backend (an error, or a Redis that stops
answering its pings), it tells its streams "down", and the phones poll until it is back and says
"up"; then it reads what changed meanwhile (catch_up).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection

from .db_reads import closed_if_broken

log = logging.getLogger(__name__)

CHANNEL = "companion_tables"
RETRY_SECONDS = (0.25, 0.5, 1, 2)  # a lost backend connection is tried again after these
PING_SECONDS = 0.5  # a hub pings Redis (asks PostgreSQL) this often while it listens
SILENT_SECONDS = 2.0  # a backend that answered nothing for this long is down (a hung Redis)
DOWN, UP = "down", "up"  # what a stream's queue gets beside versions when its hub's backend goes or comes


class Renewed(int):
    """A stream's queue item beside versions: the table's links are of this generation now."""


def backend_name() -> str:
    chosen = getattr(settings, "COMPANION_FANOUT", "auto")
    if chosen != "auto":
        return chosen
    if os.getenv("REDIS_URL"):
        return "redis"
    return "postgres" if connection.vendor == "postgresql" else "watch"


class Hub:
    """The tables this process's streams watch, their last known versions, and one queue per stream."""

    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: dict[str, set[asyncio.Queue]] = {}
        self.versions: dict[str, int] = {}
        self.links: dict[str, int] = {}  # each watched table's links' generation, as last heard
        self.listener: asyncio.Task | None = None
        self.live = True  # the backend answers (or has not failed yet): the streams say so
        # One thread, one database connection, for every read the hub makes.
        self.reader = ThreadPoolExecutor(1, thread_name_prefix="fanout-reader")

    # --- On the event loop --------------------------------------------------------------------

    async def read_versions(self, table_ids: list[str]) -> dict[str, int]:
        return await asyncio.get_running_loop().run_in_executor(self.reader, read_versions, table_ids)

    async def read_marks(self, table_ids: list[str]) -> dict[str, tuple[int, int]]:
        """The tables' versions and links' generations."""
        return await asyncio.get_running_loop().run_in_executor(self.reader, read_marks, table_ids)

    def watch(self, table_id: str, version: int, links: int = 0) -> asyncio.Queue:
        """A new stream's queue; it receives each later version of the table, and a Renewed item
        when its links are renewed."""
        self.loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        self.queues.setdefault(table_id, set()).add(queue)
        self.versions[table_id] = max(version, self.versions.get(table_id, version))
        if self.links.get(table_id, links) > links:  # renewed since the stream read its marks
            queue.put_nowait(Renewed(self.links[table_id]))
        self.links[table_id] = max(links, self.links.get(table_id, links))
        if self.listener is None or self.listener.done():
            self.listener = self.loop.create_task(LISTENERS[backend_name()](self))
        return queue

    def unwatch(self, table_id: str, queue: asyncio.Queue) -> None:
        queues = self.queues.get(table_id, set())
        queues.discard(queue)
        if not queues:
            self.queues.pop(table_id, None)
            self.versions.pop(table_id, None)
            self.links.pop(table_id, None)

    def publish(self, table_id: str, version: int, links: int | None = None) -> None:
        """A version of the table, and its links' generation when the message carries one."""
        if table_id not in self.queues:
            return
        if links is not None and links > self.links.get(table_id, 0):
            self.links[table_id] = links
            for queue in self.queues[table_id]:
                queue.put_nowait(Renewed(links))
        if version <= self.versions.get(table_id, -1):
            return
        self.versions[table_id] = version
        for queue in self.queues[table_id]:
            queue.put_nowait(version)

    async def catch_up(self) -> None:
        """After (re)connecting to a backend: what changed while nobody listened."""
        if self.queues:
            for table_id, (version, links) in (await self.read_marks(list(self.queues))).items():
                self.publish(table_id, version, links)

    def set_live(self, live: bool) -> None:
        """Tell every stream when the backend goes or comes back (only a change is told)."""
        if live == self.live:
            return
        self.live = live
        for queues in self.queues.values():
            for queue in queues:
                queue.put_nowait(UP if live else DOWN)

    # --- From any thread ----------------------------------------------------------------------

    def publish_threadsafe(self, table_id: str, version: int, links: int | None = None) -> None:
        if self.loop is not None and table_id in self.queues:
            self.loop.call_soon_threadsafe(self.publish, table_id, version, links)


hub = Hub()


class RedisPublisher:
    """PUBLISHes the writes' versions from a thread of its own, so that no write waits on Redis.

    Versions wait in a dict by table (the newest only, with the newest links' generation heard: a
    backlog holds one entry a table). While Redis does not answer they wait, tried again every
    RETRY_SECONDS[-1]; the hubs that miss them meanwhile are down too (the same Redis), so their
    phones poll and catch up on their own."""

    def __init__(self):
        self.pending: dict[str, tuple[int, int | None]] = {}
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.thread: threading.Thread | None = None
        self.failing = False

    def publish(self, table_id: str, version: int, links: int | None = None) -> None:
        with self.lock:
            self._merge(table_id, version, links)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="fanout-publisher", daemon=True)
                self.thread.start()
        self.wake.set()

    def run(self) -> None:
        import redis

        timeout = float(getattr(settings, "REDIS_TIMEOUT", 0.25))
        client = redis.Redis.from_url(
            os.environ["REDIS_URL"], socket_timeout=timeout, socket_connect_timeout=timeout
        )
        while True:
            self.wake.wait()
            self.wake.clear()
            with self.lock:
                batch, self.pending = self.pending, {}
            if not batch:
                continue
            try:
                pipe = client.pipeline(transaction=False)
                for table_id, (version, links) in batch.items():
                    pipe.publish(
                        CHANNEL, f"{table_id} {version}" + (f" {links}" if links is not None else "")
                    )
                pipe.execute()
            except redis.RedisError as error:
                self.requeue(batch, error)
                time.sleep(RETRY_SECONDS[-1])
                self.wake.set()
                continue
            if self.failing:
                self.failing = False
                log.warning("fan-out: Redis answers again; the versions kept meanwhile are published")

    def _merge(self, table_id: str, version: int, links: int | None) -> None:
        """Under the lock: the newest version and the newest links' generation of the table."""
        kept_version, kept_links = self.pending.get(table_id, (-1, None))
        if kept_links is None or (links is not None and links > kept_links):
            kept_links = links
        self.pending[table_id] = (max(version, kept_version), kept_links)

    def requeue(self, batch: dict[str, tuple[int, int | None]], error: Exception) -> None:
        with self.lock:
            for table_id, (version, links) in batch.items():
                self._merge(table_id, version, links)
        if not self.failing:
            self.failing = True
            log.warning("fan-out: could not publish to Redis (%s); the entries are saved, phones poll", error)


publisher = RedisPublisher()


def announce(table_id: str, version: int, links: int | None = None) -> None:
    """Called by a write once it has committed (services.announce): returns at once. `links`, the
    links' new generation, from a renewal of the table's links."""
    hub.publish_threadsafe(table_id, version, links)
    if backend_name() == "redis":
        publisher.publish(table_id, version, links)


def read_versions(table_ids: list[str]) -> dict[str, int]:
    return {table_id: version for table_id, (version, _links) in read_marks(table_ids).items()}


def read_marks(table_ids: list[str]) -> dict[str, tuple[int, int]]:
    """The tables' versions and links' generations, asked again once on a new connection when the
    first one died (a PostgreSQL restart, an ended backend): a phone opening its stream then gets
    no 500."""
    from .models import Table

    # Written out: the ORM's query for 500 ids cost 4.3 ms of CPU, this one 0.9 (issue 33: the
    # SQLite watcher asks 20 times a second in each worker).
    marks = ", ".join(["%s"] * len(table_ids))
    sql = f"SELECT id, version, links FROM {Table._meta.db_table} WHERE id IN ({marks})"

    def ask() -> dict[str, tuple[int, int]]:
        with closed_if_broken(), connection.cursor() as cursor:
            cursor.execute(sql, table_ids)
            return {table_id: (version, links) for table_id, version, links in cursor.fetchall()}

    if not table_ids:
        return {}
    try:
        return ask()
    except Exception:
        return ask()


def commits_seen() -> int | None:
    """SQLite's count of the commits other connections made (PRAGMA data_version, which changes
    when one does): the watcher asks for the versions only when it moved. None elsewhere."""
    if connection.vendor != "sqlite":
        return None
    with closed_if_broken(), connection.cursor() as cursor:
        cursor.execute("PRAGMA data_version")
        return cursor.fetchone()[0]


def parse(message: str) -> tuple | None:
    """(table id, version), or (table id, version, links) from a renewal's message."""
    parts = message.split(" ")
    if len(parts) not in (2, 3) or not all(part.isdigit() for part in parts[1:]):
        return None
    return (parts[0], *map(int, parts[1:]))


async def _forever(hub: Hub, connect_and_listen) -> None:
    """Run a backend's listener while streams watch, reconnecting after a failure with backoff.
    A listener calls hub.set_live(True) once it listens and has caught up; a failure makes the
    hub tell its streams that it is down."""
    failures = 0
    while hub.queues:
        try:
            await connect_and_listen()
            failures = 0
        except asyncio.CancelledError:
            raise
        except Exception as error:
            hub.set_live(False)
            wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
            failures += 1
            if failures == 1 or failures % 20 == 0:
                log.warning("fan-out: %s lost (%s), trying again in %s s", backend_name(), error, wait)
            await asyncio.sleep(wait)


async def listen_postgres(hub: Hub) -> None:
    import psycopg

    async def listen():
        connect = psycopg.AsyncConnection.connect(conninfo(), autocommit=True, connect_timeout=2)
        async with await asyncio.wait_for(connect, SILENT_SECONDS * 2) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            await hub.catch_up()
            hub.set_live(True)
            while hub.queues:  # a process without streams stops listening
                async for notice in conn.notifies(timeout=PING_SECONDS * 4):
                    if (parsed := parse(notice.payload)) is not None:
                        hub.publish(*parsed)
                # A quiet connection may be a dead one: ask, and give up on no answer.
                await asyncio.wait_for(conn.execute("SELECT 1"), SILENT_SECONDS)

    await _forever(hub, listen)


async def listen_redis(hub: Hub) -> None:
    import redis.asyncio

    async def listen():
        client = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=SILENT_SECONDS)
        try:
            async with client.pubsub() as pubsub:
                await asyncio.wait_for(pubsub.subscribe(CHANNEL), SILENT_SECONDS)
                await hub.catch_up()
                hub.set_live(True)
                heard = pinged = time.monotonic()
                while hub.queues:
                    # A hung Redis (SIGSTOP) keeps the connection open and says nothing: ping it,
                    # and give up when nothing came back for SILENT_SECONDS.
                    if time.monotonic() - pinged >= PING_SECONDS:
                        await pubsub.ping()
                        pinged = time.monotonic()
                    message = await pubsub.get_message(timeout=PING_SECONDS)
                    if message is not None:
                        heard = time.monotonic()
                    elif time.monotonic() - heard > SILENT_SECONDS:
                        raise TimeoutError(f"Redis answered nothing for {SILENT_SECONDS} s")
                    if message and message["type"] == "message":
                        if (parsed := parse(message["data"].decode())) is not None:
                            hub.publish(*parsed)
        finally:
            await client.aclose()

    await _forever(hub, listen)


async def watch_database(hub: Hub) -> None:
    interval = float(getattr(settings, "COMPANION_WATCH_INTERVAL", 0.05))

    async def listen():
        seen = None
        while hub.queues:
            commits = await asyncio.get_running_loop().run_in_executor(hub.reader, commits_seen)
            if commits is None or commits != seen:  # a new stream reads its own version
                await hub.catch_up()
                seen = commits
            hub.set_live(True)
            await asyncio.sleep(interval)

    await _forever(hub, listen)


LISTENERS = {"postgres": listen_postgres, "redis": listen_redis, "watch": watch_database}


def conninfo() -> str:
    """The PostgreSQL connection string of Django's default database."""
    from psycopg.conninfo import make_conninfo

    db = settings.DATABASES["default"]
    options = {key: value for key, value in db.get("OPTIONS", {}).items() if isinstance(value, (str, int))}
    parts = {"dbname": db["NAME"], "user": db.get("USER"), "password": db.get("PASSWORD")}
    parts |= {"host": db.get("HOST"), "port": db.get("PORT")}
    return make_conninfo(**{key: value for key, value in parts.items() if value}, **options)
