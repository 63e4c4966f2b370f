"""A whole server's backup and its restore, with each database's own tools (issue 41): a group's
own backup is its history file (companion/history/exchange.py), which the commands use as it is.

- PostgreSQL: `pg_dump --format=custom`, and `pg_restore --clean --if-exists` in one transaction
  (a failed restore leaves the database as it was). The connection is settings.DATABASES', handed
  to them in libpq's environment: the password never appears on a command line.
- SQLite: SQLite's online backup API, a consistent copy while the servers write; the restore
  copies the file back through the same API, so the database's log (WAL) cannot replay stale
  pages over it.

A restore replaces everything: the app servers must be stopped first (each keeps tables in memory,
companion/tables/row_cache.py). It refuses while another process has the database open, as far as
that is cheap to see: other sessions on PostgreSQL; on SQLite, another connection's lock on the
log's shared memory (how SQLite itself knows it is not alone).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

PG_DUMP_MAGIC = b"PGDMP"
SQLITE_MAGIC = b"SQLite format 3\x00"
SHM_DMS_BYTE = 128  # SQLite's "dead man switch" in the -shm file: read-locked by every connection

# settings.DATABASES["default"]["OPTIONS"] that libpq also reads from its environment.
LIBPQ_OPTIONS = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "passfile": "PGPASSFILE",
    "service": "PGSERVICE",
    "connect_timeout": "PGCONNECT_TIMEOUT",
}


class BackupError(Exception):
    """A backup or restore that cannot go on: the sentence says why, and what to do."""


def kind_of(path: Path) -> str:
    """The backup's kind from its first bytes: postgresql, sqlite, or history (a group's file)."""
    with path.open("rb") as file:
        head = file.read(len(SQLITE_MAGIC))
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    if head == SQLITE_MAGIC:
        return "sqlite"
    return "history"


def libpq_environment(database: dict) -> dict[str, str]:
    env = {**os.environ}
    given = {
        "PGHOST": database.get("HOST"),
        "PGPORT": database.get("PORT"),
        "PGUSER": database.get("USER"),
        "PGPASSWORD": database.get("PASSWORD"),
        "PGDATABASE": database.get("NAME"),
    }
    options = database.get("OPTIONS") or {}
    given |= {variable: options.get(option) for option, variable in LIBPQ_OPTIONS.items()}
    env.update({variable: str(value) for variable, value in given.items() if value not in (None, "")})
    return env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed: apt-get install postgresql-client brings it.")
    return found


def _run(command: list[str], env: dict, stdout=None) -> None:
    finished = subprocess.run(command, env=env, stdout=stdout, stderr=subprocess.PIPE, check=False)
    if finished.returncode != 0:
        said = finished.stderr.decode(errors="replace").strip()
        raise BackupError(f"{Path(command[0]).name} failed (exit {finished.returncode}): {said}")


def dump_postgresql(database: dict, output) -> None:
    """The whole database, in pg_dump's custom format, written to the open binary file `output`."""
    _run([_tool("pg_dump"), "--format=custom"], libpq_environment(database), stdout=output)


def restore_postgresql(database: dict, path: Path) -> None:
    env = libpq_environment(database)
    _refuse_other_sessions(env)
    command = [
        _tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges",
        "--single-transaction", "--exit-on-error", f"--dbname={database['NAME']}", str(path),
    ]  # fmt: skip
    _run(command, env)


def _refuse_other_sessions(env: dict) -> None:
    # Clients only: an autovacuum worker may be on the database too, and it does not mind.
    query = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
    )
    finished = subprocess.run(
        [_tool("psql"), "--no-psqlrc", "--tuples-only", "--no-align", "--command", query],
        env=env,
        capture_output=True,
        check=False,
    )
    if finished.returncode != 0:
        raise BackupError(f"Cannot reach the database: {finished.stderr.decode(errors='replace').strip()}")
    others = int(finished.stdout.strip() or 0)
    if others:
        raise BackupError(
            f"The database has {others} other connection(s): stop the app servers first "
            "(docker compose stop app1 app2), then restore."
        )


def backup_sqlite(database_path: str, output: Path) -> None:
    """A consistent copy of the database into `output` (a new file), taken while servers may write."""
    if output.exists():
        raise BackupError(f"{output} already exists: name a new file.")
    source = sqlite3.connect(database_path)
    try:
        target = sqlite3.connect(output)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def restore_sqlite(backup: Path, database_path: str) -> None:
    """The backup's content into the database file, which no other process may have open."""
    if sqlite_in_use(database_path):
        raise BackupError(
            f"{database_path} is open in another process: stop the app servers first, then restore."
        )
    # Read as it is: no lock, and no log files left beside the backup.
    source = sqlite3.connect(f"{backup.resolve().as_uri()}?immutable=1", uri=True)
    try:
        tables = {row[0] for row in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "django_migrations" not in tables:
            raise BackupError(f"{backup} is an SQLite file but not a Table Companion database.")
        target = sqlite3.connect(database_path)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def sqlite_in_use(database_path: str) -> bool:
    """Whether another process has the database open. In WAL mode (the project's, settings.py),
    every connection read-locks one byte of the -shm file while it is open: a write lock on it is
    refused then. This process must hold no connection to it (POSIX locks are the process's: closing
    this descriptor drops them all)."""
    try:
        descriptor = os.open(f"{database_path}-shm", os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.lockf(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS_BYTE)
    except OSError:
        return True
    finally:
        os.close(descriptor)
    return False
