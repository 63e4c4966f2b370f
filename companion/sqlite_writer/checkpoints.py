"""SQLite's checkpoints, off the writers' path (issue 33).

In WAL mode a commit appends to the log, and the commit that finds the log past 1,000 pages
copies it back into the database and syncs it (a checkpoint) before it returns, holding the
writers' lock (base.py) meanwhile: at 500 tables (~750 pages a second) every second or two a
write waited 50-150 ms and all writers behind it. Measured, 500 tables, the write's p99: 130 ms
with the writers' checkpoints, 42 ms without.

In a server's worker (gunicorn.conf.py) a thread checkpoints every CHECKPOINT_SECONDS instead, in
SQLite's passive mode (it waits for no reader or writer; the writers go on appending meanwhile),
and that process's connections checkpoint themselves only past BACKSTOP_PAGES (should the thread
stall). A commit is as durable as before: the log is synced at each commit either way.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

log = logging.getLogger(__name__)

CHECKPOINT_SECONDS = 0.5
BACKSTOP_PAGES = 10_000  # ~40 MB of log

_stop: threading.Event | None = None


def running() -> bool:
    return _stop is not None


def start(path: str) -> None:
    """Checkpoint the database at `path` from a thread of this process, until stop()."""
    global _stop
    if _stop is not None:
        return
    _stop = threading.Event()
    thread = threading.Thread(target=_checkpoint_every, args=(path, _stop), name="sqlite-checkpoints")
    thread.daemon = True  # a worker's exit does not wait for it
    thread.start()


def start_for_default_database() -> None:
    """start() for the app's database, when it is an SQLite file (gunicorn.conf.py)."""
    from django.db import connection

    if connection.vendor == "sqlite" and not connection.is_in_memory_db():
        start(str(connection.settings_dict["NAME"]))


def stop() -> None:
    global _stop
    if _stop is not None:
        _stop.set()
        _stop = None


def _checkpoint_every(path: str, stopped: threading.Event) -> None:
    connection = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    try:
        while not stopped.wait(CHECKPOINT_SECONDS):
            try:
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.Error as error:  # another process's checkpoint under way: the next turn
                log.debug("checkpoint skipped: %s", error)
    finally:
        connection.close()
