"""Back up the whole server with its database's own tool, or one group's history as its history
file (companion/selfhost/backups.py; `restore` brings either back)."""

import shutil
import sys
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils import timezone

from companion.groups.commands import group_named
from companion.history import exchange
from companion.selfhost import backups

EXTENSIONS = {"postgresql": "pgdump", "sqlite": "sqlite3"}


class Command(BaseCommand):
    help = (
        "Back up the whole server (PostgreSQL: pg_dump's custom format; SQLite: a copy made with its "
        "backup API), or with --group a group's history file. Restore with `manage.py restore`."
    )

    def add_arguments(self, parser):
        parser.add_argument("--group", metavar="ID", help="only this group's history (the history file)")
        parser.add_argument(
            "--output",
            metavar="FILE",
            help="the file to write, - for standard output (default: a dated name here)",
        )

    def handle(self, *args, group=None, output=None, **options):
        stamp = timezone.now().strftime("%Y-%m-%dT%H%M%SZ")
        if group is not None:
            history = exchange.export_history(group_named(group))
            target = output or f"companion-{group}-{stamp}.json"
            self._write(target, lambda file: file.write(exchange.dumps(history).encode()))
            what = f"the history of group {group!r} ({len(history['tables'])} tables)"
        elif connection.vendor in EXTENSIONS:
            target = output or f"companion-{stamp}.{EXTENSIONS[connection.vendor]}"
            try:
                self._write(target, self._whole_server)
            except backups.BackupError as error:
                raise CommandError(str(error)) from error
            what = f"the whole server ({connection.vendor})"
        else:
            raise CommandError(f"No backup for a {connection.vendor} database: PostgreSQL and SQLite only.")
        # On standard output the backup itself goes there: the sentence goes to standard error.
        said = self.stderr if target == "-" else self.stdout
        said.write(f"Backed up {what} to {'standard output' if target == '-' else target}.")

    def _write(self, target: str, write) -> None:
        if target == "-":
            write(sys.stdout.buffer)
            sys.stdout.buffer.flush()
            return
        try:
            with Path(target).open("xb") as file:
                write(file)
        except FileExistsError as error:
            raise CommandError(f"{target} already exists: name a new file.") from error
        except BaseException:
            Path(target).unlink(missing_ok=True)  # no half-written backup left to be trusted later
            raise

    @staticmethod
    def _whole_server(file) -> None:
        database = connection.settings_dict
        if connection.vendor == "postgresql":
            backups.dump_postgresql(database, file)
            return
        # SQLite's backup API writes a database file: made aside, then copied into the output.
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "backup.sqlite3"
            backups.backup_sqlite(str(database["NAME"]), copy)
            with copy.open("rb") as made:
                shutil.copyfileobj(made, file)
