"""SQLite's checkpoints off the writers' path (issue 33, companion/sqlite_writer/checkpoints.py):
a thread copies the log into the database, and while it runs a commit checkpoints only past the
backstop."""

from __future__ import annotations

import sqlite3
import time

import pytest
from django.db import connection

from companion.sqlite_writer import checkpoints

ROWS, ROW_BYTES = 100, 4_000


@pytest.fixture
def checkpointing():
    yield checkpoints.start
    checkpoints.stop()


def test_the_thread_copies_the_log_into_the_database(tmp_path, checkpointing):
    path = tmp_path / "db.sqlite3"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")  # no commit copies anything back
    writer.execute("CREATE TABLE rows (data BLOB)")
    for _ in range(ROWS):
        writer.execute("INSERT INTO rows VALUES (?)", (b"x" * ROW_BYTES,))
    assert path.stat().st_size <= 4096  # one page: every row is in the log only
    checkpointing(str(path))
    deadline = time.monotonic() + 10 * checkpoints.CHECKPOINT_SECONDS
    while path.stat().st_size < ROWS * ROW_BYTES and time.monotonic() < deadline:
        time.sleep(0.05)
    assert path.stat().st_size >= ROWS * ROW_BYTES
    assert writer.execute("SELECT count(*) FROM rows").fetchone() == (ROWS,)
    writer.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's own backend")
def test_while_it_runs_a_commit_checkpoints_only_past_the_backstop(checkpointing):
    def autocheckpoint() -> int:
        connection.close()  # the setting is a new connection's
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint")
            return cursor.fetchone()[0]

    assert autocheckpoint() == 1000  # SQLite's own, where no thread checkpoints
    checkpointing(connection.settings_dict["NAME"])
    assert autocheckpoint() == checkpoints.BACKSTOP_PAGES == 10_000
    checkpoints.stop()
    assert autocheckpoint() == 1000
