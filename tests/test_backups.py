"""`manage.py backup` and `manage.py restore` (issue 41) on the test database: a whole server with
its database's own tools (SQLite's backup API; PostgreSQL's pg_dump and pg_restore, also into a
scratch database), and a group's history file restored into a new group."""

from __future__ import annotations

import io
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing

import psycopg
import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection

from companion.groups.models import Group
from companion.history import exchange
from companion.selfhost.backups import libpq_environment
from companion.tables import services
from companion.tables.models import Player, Table
from tests.history.factories import play_out

from .servers import ROOT, server_environment

pytestmark = pytest.mark.django_db(transaction=True)

postgres_only = pytest.mark.skipif(
    "connection.vendor != 'postgresql'", reason="the suite runs on SQLite here"
)
sqlite_only = pytest.mark.skipif("connection.vendor != 'sqlite'", reason="the suite runs on PostgreSQL here")


@pytest.fixture(autouse=True)
def no_app_server_connected():
    """A whole server is restored with its app servers stopped (the command refuses otherwise).
    In the suite, the app server is this process: the threads earlier tests started (the pages'
    pool, the fan-out's reader, the push renderers) keep their connections open. They are ended
    here, as stopping the servers would; each thread opens a new one when it next reads."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


def a_club() -> Group:
    """Two groups' plays, an unfinished table, an undone entry and an account: a server in use."""
    club = Group.objects.create(name="Thursday club")
    play_out("hang-four", ["Ann", "Ben"], seed=3, undo_every=7, group=club)
    play_out("dogo-dash", ["Ann", "Cleo", "Ben"], seed=4, group=club)
    play_out("dogo-dash", ["Dora", "Eve", "Fay"], seed=5)  # the default group's
    services.create_table("hang-four", ["Ann", "Cleo"], {}, club)  # still in play
    User.objects.create_superuser("ann", password="correct horse battery")
    return club


def server_state() -> dict[str, list[tuple]]:
    """Every row of every table of the app's models, in key order: what a restore must give back."""
    state = {}
    with connection.cursor() as cursor:
        for model in apps.get_models():
            table, key = model._meta.db_table, model._meta.pk.column
            cursor.execute(f'SELECT * FROM "{table}" ORDER BY "{key}"')  # noqa: S608 - the models' own names
            state[table] = cursor.fetchall()
    return state


def change_everything(club: Group) -> None:
    Table.objects.filter(group=club, status=Table.Status.FINISHED).first().delete()
    play_out("hang-four", ["Gus", "Hal"], seed=8, group=club)
    Player.objects.filter(group=club, name="Ann").update(name="Annie")
    User.objects.create_user("intruder", password="x" * 20)


def test_a_whole_server_comes_back_exactly(tmp_path):
    """On the suite's database (SQLite, or PostgreSQL under DATABASE_URL): back up, change tables,
    plays, players and accounts, restore: every row of every table is as it was."""
    club = a_club()
    before = server_state()
    backup = tmp_path / "server.backup"
    out = io.StringIO()
    call_command("backup", output=str(backup), stdout=out)
    assert out.getvalue() == f"Backed up the whole server ({connection.vendor}) to {backup}.\n"
    change_everything(club)
    assert server_state() != before
    if connection.vendor == "sqlite":
        # The suite's own app server (the browser tests') may have the file open, and a restore
        # rightly refuses then: the server changed as above is restored from a copy of its file,
        # by another process, as on a stopped server.
        restored = tmp_path / "stopped-server.sqlite3"
        with closing(sqlite3.connect(connection.settings_dict["NAME"])) as live:
            with closing(sqlite3.connect(restored)) as copy:  # closed: a restore refuses a file in use
                live.backup(copy)
        assert sqlite_rows(restored) != sqlite_rows(backup)
        done = subprocess.run(
            [sys.executable, "manage.py", "restore", str(backup), "--noinput"],
            cwd=ROOT,
            env={**server_environment(), "DATABASE_URL": f"sqlite:///{restored}"},
            capture_output=True,
            timeout=120,
        )
        assert (done.returncode, done.stderr) == (0, b"")
        assert (
            done.stdout.decode() == f"Restored the whole server from {backup}. Start the app servers again.\n"
        )
        assert sqlite_rows(restored) == sqlite_rows(backup) != {}
        return
    out = io.StringIO()
    call_command("restore", str(backup), interactive=False, stdout=out)
    assert out.getvalue() == f"Restored the whole server from {backup}. Start the app servers again.\n"
    assert server_state() == before
    assert Table.objects.filter(group=club, status=Table.Status.FINISHED).count() == 2


def sqlite_rows(path) -> dict[str, list[tuple]]:
    """Every row of every table of the app's models in an SQLite file, in key order."""
    with closing(sqlite3.connect(path)) as database:
        return {
            model._meta.db_table: database.execute(
                f'SELECT * FROM "{model._meta.db_table}" ORDER BY "{model._meta.pk.column}"'  # noqa: S608
            ).fetchall()
            for model in apps.get_models()
        }


def test_a_groups_backup_is_its_history_file_and_comes_back_in_a_new_group(tmp_path):
    club = a_club()
    backup = tmp_path / "club.json"
    call_command("backup", group=club.pk, output=str(backup), stdout=io.StringIO())
    history = exchange.export_history(club)
    assert backup.read_text() == exchange.dumps(history)  # the history's own export, as it is
    new = Group.objects.create(name="Thursday club, again")
    out = io.StringIO()
    call_command("restore", str(backup), group=new.pk, stdout=out)
    assert out.getvalue() == "Imported 3 tables and 3 new players.\n"
    restored = exchange.export_history(new)
    assert restored["players"] == history["players"]
    # The same tables, logs and results; each under a new id, as club keeps the old ones.
    assert [{**t, "id": None} for t in restored["tables"]] == [{**t, "id": None} for t in history["tables"]]
    assert not {t["id"] for t in restored["tables"]} & {t["id"] for t in history["tables"]}


def test_a_backup_on_standard_output_and_a_restore_from_standard_input(tmp_path, capfdbinary):
    club = a_club()
    call_command("backup", group=club.pk, output="-", stderr=io.StringIO())
    written = capfdbinary.readouterr().out
    assert written == exchange.dumps(exchange.export_history(club)).encode()
    new = Group.objects.create(name="Another")
    out = io.StringIO()
    call_command("restore", "-", group=new.pk, stdin=io.BytesIO(written), stdout=out)
    assert out.getvalue() == "Imported 3 tables and 3 new players.\n"


def test_restore_refuses_the_wrong_kind_of_backup(tmp_path):
    club = a_club()
    history = tmp_path / "club.json"
    call_command("backup", group=club.pk, output=str(history), stdout=io.StringIO())
    with pytest.raises(
        CommandError, match=r"^This is a group's history file: restore it into a group with --group ID\.$"
    ):
        call_command("restore", str(history), interactive=False)
    server = tmp_path / "server.backup"
    call_command("backup", output=str(server), stdout=io.StringIO())
    with pytest.raises(
        CommandError, match=r"^This is a whole server's backup: restore it without --group\.$"
    ):
        call_command("restore", str(server), group=club.pk)
    other = tmp_path / "other.backup"
    if connection.vendor == "sqlite":
        other.write_bytes(b"PGDMP\x01\x0f\x00" + bytes(100))
        refusal = "This is a postgresql backup, and this server's database is sqlite."
    else:
        sqlite3.connect(other).execute("CREATE TABLE django_migrations (id integer)").connection.close()
        refusal = "This is a sqlite backup, and this server's database is postgresql."
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(other), interactive=False)
    assert str(refused.value) == refusal
    with pytest.raises(CommandError, match="add --noinput to replace the database"):
        call_command("restore", "-", stdin=io.BytesIO(server.read_bytes()))


def test_a_backup_never_overwrites_a_file(tmp_path):
    kept = tmp_path / "kept.backup"
    kept.write_bytes(b"an older backup")
    with pytest.raises(CommandError, match="already exists: name a new file"):
        call_command("backup", output=str(kept))
    assert kept.read_bytes() == b"an older backup"


@sqlite_only
def test_sqlite_restore_refuses_while_another_process_has_the_database_open(tmp_path):
    a_club()
    before = server_state()
    backup = tmp_path / "server.sqlite3"
    call_command("backup", output=str(backup), stdout=io.StringIO())
    User.objects.create_user("later", password="y" * 20)
    name = connection.settings_dict["NAME"]
    script = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT 1 FROM django_migrations')"
    )
    holder = subprocess.Popen([sys.executable, "-c", script + "; print('open', flush=True); input()", name],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    try:
        assert holder.stdout.readline() == b"open\n"
        with pytest.raises(CommandError, match=r"is open in another process: stop the app servers first"):
            call_command("restore", str(backup), interactive=False)
        assert User.objects.filter(username="later").exists()  # nothing restored
    finally:
        holder.communicate(b"\n", timeout=30)
    assert server_state() != before  # (a restore once no process has it open: the test above)


@postgres_only
def test_postgresql_restore_refuses_while_another_session_is_connected(tmp_path):
    a_club()
    backup = tmp_path / "server.pgdump"
    call_command("backup", output=str(backup), stdout=io.StringIO())
    with psycopg.connect(**psycopg_arguments(connection.settings_dict)):
        with pytest.raises(
            CommandError, match=r"The database has 1 other connection\(s\): stop the app servers"
        ):
            call_command("restore", str(backup), interactive=False)


def psycopg_arguments(database: dict) -> dict:
    return {
        "dbname": database["NAME"],
        "user": database["USER"],
        "password": database["PASSWORD"] or None,
        "host": database["HOST"] or "127.0.0.1",
        "port": database["PORT"] or 5432,
    }


def data_of(database: dict) -> list[str]:
    """Every row of every table of a PostgreSQL database, as pg_dump writes them out."""
    plain = subprocess.run(
        [shutil.which("pg_dump"), "--data-only", "--format=plain"],
        env=libpq_environment(database),
        capture_output=True,
        check=True,
    ).stdout.decode()
    # \restrict and \unrestrict carry a random key of each run (pg_dump since 15.14).
    return [line for line in plain.splitlines() if not line.startswith(("\\restrict", "\\unrestrict"))]


@postgres_only
def test_a_postgresql_backup_restores_into_a_fresh_database(tmp_path):
    """pg_dump's file, restored by `manage.py restore` on a server whose DATABASE_URL is a new,
    empty database (a new machine, or a rollback to a fresh volume): the same rows."""
    a_club()
    backup = tmp_path / "server.pgdump"
    call_command("backup", output=str(backup), stdout=io.StringIO())
    assert backup.read_bytes().startswith(b"PGDMP")
    source = connection.settings_dict
    scratch = {**source, "NAME": f"{source['NAME']}_restored"}
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{scratch["NAME"]}"')
        cursor.execute(f'CREATE DATABASE "{scratch["NAME"]}"')
    try:
        url = server_environment()["DATABASE_URL"].rsplit("/", 1)[0] + "/" + scratch["NAME"]
        restore = subprocess.run(
            [sys.executable, "manage.py", "restore", str(backup), "--noinput"],
            cwd=ROOT,
            env={**server_environment(), "DATABASE_URL": url},
            capture_output=True,
            timeout=120,
        )
        assert (restore.returncode, restore.stderr) == (0, b"")
        assert data_of(scratch) == data_of(source)
        assert any(line.startswith("COPY public.tables_event ") for line in data_of(scratch))
    finally:
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{scratch["NAME"]}"')
