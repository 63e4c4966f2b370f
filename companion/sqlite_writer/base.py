"""Django's SQLite backend, with its writers queued on a lock file (issue 33).

SQLite lets one transaction write at a time. A second writer's BEGIN IMMEDIATE finds the database
locked and SQLite's busy handler sleeps before it tries again, 1, 2, 5, 10, 15, 20, 25... ms at a
time, so a writer often sleeps on long after the lock was let go: at 500 tables (50 entries/s, two
workers, a view and render threads each) an entry's write took 230 ms at p99 on SQLite against 97
on PostgreSQL. Here a connection takes an exclusive lock on a file beside the database before it
begins a transaction and lets it go once the transaction ends: the kernel wakes the next writer
(of any thread or process of the server) as soon as the lock is free.

Each connection opens the lock file itself: locks on separate opens of a file exclude each other,
threads of one process included. A database in memory has no file and no lock: as Django's own.
"""

from __future__ import annotations

import fcntl
import os

from django.db.backends.sqlite3 import base

from . import checkpoints


class DatabaseWrapper(base.DatabaseWrapper):
    _writer_lock: int | None = None  # the lock file, opened by this connection
    _writing = False

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        if checkpoints.running():  # a thread checkpoints: a commit does so only past the backstop
            connection.execute(f"PRAGMA wal_autocheckpoint={checkpoints.BACKSTOP_PAGES}")
        return connection

    def _start_transaction_under_autocommit(self):
        self._take_writer_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._let_writer_lock_go()
            raise

    def _commit(self):
        try:
            super()._commit()
        finally:
            self._let_writer_lock_go()

    def _rollback(self):
        try:
            super()._rollback()
        finally:
            self._let_writer_lock_go()

    def _close(self):
        try:
            super()._close()
        finally:
            self._let_writer_lock_go()
            if self._writer_lock is not None:
                os.close(self._writer_lock)
                self._writer_lock = None

    def _take_writer_lock(self) -> None:
        if self._writing or self.is_in_memory_db():
            return
        if self._writer_lock is None:
            path = f"{self.settings_dict['NAME']}-writer.lock"
            self._writer_lock = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._writer_lock, fcntl.LOCK_EX)
        self._writing = True

    def _let_writer_lock_go(self) -> None:
        if self._writing:
            self._writing = False
            fcntl.flock(self._writer_lock, fcntl.LOCK_UN)
