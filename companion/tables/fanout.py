"""Fan-out: a committed write reaches every phone watching its table, in every worker process of
every app server.

Each worker process has one Hub on its event loop. A phone's event stream (stream.py) watches one
table through it; the hub hears of new versions from one of three backends, chosen by
COMPANION_FANOUT (default "auto": redis when REDIS_URL is set, else postgres on PostgreSQL, else
watch):

- redis: a write PUBLISHes "<table id> <version>" after it commits; each process SUBSCRIBEs once.
- postgres: the database NOTIFYs on every change of a table's version (a trigger, migration 0006,
  so the write path pays nothing); each process LISTENs on one connection.
- watch (SQLite): each process asks the database every COMPANION_WATCH_INTERVAL seconds for the
  versions of all the tables its phones watch: one query per process, never one per phone.

Whatever the backend, a write also tells its own process's hub at once. Versions only grow, so a
version heard twice (from the process and from the backend) is sent to the phones once.
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

CHANNEL = "companion_tables"
RETRY_SECONDS = (0.5, 1, 2, 5, 10)  # a lost backend connection is tried again after these


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
        self.listener: asyncio.Task | None = None
        # One thread, one database connection, for every read the hub makes.
        self.reader = ThreadPoolExecutor(1, thread_name_prefix="fanout-reader")

    # --- On the event loop --------------------------------------------------------------------

    async def read_versions(self, table_ids: list[str]) -> dict[str, int]:
        return await asyncio.get_running_loop().run_in_executor(self.reader, read_versions, table_ids)

    def watch(self, table_id: str, version: int) -> asyncio.Queue:
        """A new stream's queue; it receives each later version of the table."""
        self.loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        self.queues.setdefault(table_id, set()).add(queue)
        self.versions[table_id] = max(version, self.versions.get(table_id, version))
        if self.listener is None or self.listener.done():
            self.listener = self.loop.create_task(LISTENERS[backend_name()](self))
        return queue

    def unwatch(self, table_id: str, queue: asyncio.Queue) -> None:
        queues = self.queues.get(table_id, set())
        queues.discard(queue)
        if not queues:
            self.queues.pop(table_id, None)
            self.versions.pop(table_id, None)

    def publish(self, table_id: str, version: int) -> None:
        if table_id not in self.queues or version <= self.versions.get(table_id, -1):
            return
        self.versions[table_id] = version
        for queue in self.queues[table_id]:
            queue.put_nowait(version)

    async def catch_up(self) -> None:
        """After (re)connecting to a backend: what changed while nobody listened."""
        if self.queues:
            for table_id, version in (await self.read_versions(list(self.queues))).items():
                self.publish(table_id, version)

    # --- From any thread ----------------------------------------------------------------------

    def publish_threadsafe(self, table_id: str, version: int) -> None:
        if self.loop is not None and table_id in self.queues:
            self.loop.call_soon_threadsafe(self.publish, table_id, version)


hub = Hub()
_redis = None


def announce(table_id: str, version: int) -> None:
    """Called by a write once it has committed (services.announce)."""
    hub.publish_threadsafe(table_id, version)
    if backend_name() == "redis":
        global _redis
        try:
            if _redis is None:
                import redis

                _redis = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=2)
            _redis.publish(CHANNEL, f"{table_id} {version}")
        except Exception:  # the entry is saved: the phones will see it at their next look
            log.warning("fan-out: could not publish table %s version %s to Redis", table_id, version)


def read_versions(table_ids: list[str]) -> dict[str, int]:
    from .models import Table

    try:
        return dict(Table.objects.filter(pk__in=table_ids).values_list("id", "version"))
    except Exception:
        connection.close()  # a broken connection is opened afresh at the next read
        raise


def parse(message: str) -> tuple[str, int] | None:
    table_id, _, version = message.partition(" ")
    return (table_id, int(version)) if version.isdigit() else None


async def _forever(hub: Hub, connect_and_listen) -> None:
    """Run a backend's listener while streams watch, reconnecting after a failure with backoff."""
    failures = 0
    while hub.queues:
        try:
            await connect_and_listen()
            failures = 0
        except asyncio.CancelledError:
            raise
        except Exception as error:
            wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
            failures += 1
            log.warning("fan-out: %s lost (%s), trying again in %s s", backend_name(), error, wait)
            await asyncio.sleep(wait)


async def listen_postgres(hub: Hub) -> None:
    import psycopg

    async def listen():
        async with await psycopg.AsyncConnection.connect(conninfo(), autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            await hub.catch_up()
            while hub.queues:  # notifies() returns every 30 s: a process without streams stops
                async for notice in conn.notifies(timeout=30):
                    if (parsed := parse(notice.payload)) is not None:
                        hub.publish(*parsed)

    await _forever(hub, listen)


async def listen_redis(hub: Hub) -> None:
    import redis.asyncio

    async def listen():
        client = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"])
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(CHANNEL)
                await hub.catch_up()
                while hub.queues:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=30)
                    if message and (parsed := parse(message["data"].decode())) is not None:
                        hub.publish(*parsed)
        finally:
            await client.aclose()

    await _forever(hub, listen)


async def watch_database(hub: Hub) -> None:
    interval = float(getattr(settings, "COMPANION_WATCH_INTERVAL", 0.05))

    async def listen():
        while hub.queues:
            await hub.catch_up()
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
