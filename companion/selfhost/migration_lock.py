"""One server migrates at a time (issue 41). Every app container runs `manage.py migrate_once` as it
starts (deploy/entrypoint.sh): Django's migrate takes no lock, and two servers starting together
on one PostgreSQL would both create the same tables, the second failing half-way. Under this
lock the second waits, then finds nothing left to apply. Every server migrating (rather than one
chosen service) keeps them alike: any one started alone, or a third added, brings the schema up
to its own code before it serves.

PostgreSQL: a session-level advisory lock, held by the connection that migrates (ended with it if
the process dies). SQLite: an exclusive flock on a file beside the database, as its writers take
one (companion/sqlite_writer).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator

from django.db.backends.base.base import BaseDatabaseWrapper

LOCK_KEY = int.from_bytes(b"tcmigrat", "big")  # PostgreSQL's advisory locks take a bigint


def _nothing() -> None:
    pass


@contextlib.contextmanager
def migration_lock(connection: BaseDatabaseWrapper, waiting: Callable[[], None] = _nothing) -> Iterator[None]:
    """Hold the lock while the block runs; `waiting` is called once if another holds it first."""
    if connection.vendor == "postgresql":
        with _advisory_lock(connection, waiting):
            yield
    elif connection.vendor == "sqlite" and not connection.is_in_memory_db():
        with _file_lock(f"{connection.settings_dict['NAME']}-migrate.lock", waiting):
            yield
    else:
        yield


@contextlib.contextmanager
def _advisory_lock(connection, waiting) -> Iterator[None]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [LOCK_KEY])
        if not cursor.fetchone()[0]:
            waiting()
            cursor.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])


@contextlib.contextmanager
def _file_lock(path: str, waiting) -> Iterator[None]:
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting()
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # and with it the lock
