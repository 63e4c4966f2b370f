"""Restore what `backup` wrote: a whole server's backup replaces the database (the app servers
stopped), a group's history file is imported into the group --group names."""

import shutil
import sys
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections

from companion.groups.commands import group_named
from companion.history import exchange
from companion.selfhost import backups


class Command(BaseCommand):
    help = (
        "Restore a backup: a whole server's (replaces everything in the database; stop the app servers "
        "first), or with --group a group's history file, imported into that group."
    )
    stealth_options = ("stdin",)  # tests hand in their own standard input

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file, or - for standard input")
        parser.add_argument("--group", metavar="ID", help="the group a group's history file goes into")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="replace the whole database without asking",
        )

    def handle(self, *args, path, group=None, interactive=True, **options):
        with tempfile.TemporaryDirectory() as folder:
            if path == "-":
                backup = Path(folder) / "backup"
                with backup.open("wb") as file:
                    stdin = options.get("stdin") or sys.stdin
                    shutil.copyfileobj(getattr(stdin, "buffer", stdin), file)
            else:
                backup = Path(path)
                if not backup.is_file():
                    raise CommandError(f"There is no file {path}.")
            kind = backups.kind_of(backup)
            if group is not None:
                self._into_group(backup, kind, group)
            else:
                self._whole_server(backup, kind, path, interactive)

    def _into_group(self, backup: Path, kind: str, group: str) -> None:
        if kind != "history":
            raise CommandError("This is a whole server's backup: restore it without --group.")
        try:
            summary = exchange.import_history(group_named(group), exchange.parse_json(backup.read_bytes()))
        except exchange.ImportRefused as refused:
            raise CommandError(refused.message) from refused
        self.stdout.write(summary.sentence())

    def _whole_server(self, backup: Path, kind: str, path: str, interactive: bool) -> None:
        if kind == "history":
            raise CommandError("This is a group's history file: restore it into a group with --group ID.")
        if kind != connection.vendor:
            raise CommandError(f"This is a {kind} backup, and this server's database is {connection.vendor}.")
        if interactive:
            if path == "-":
                raise CommandError(
                    "The backup comes on standard input: add --noinput to replace the database."
                )
            answer = input(f"This replaces everything in the database with {path}. Type 'yes' to go on: ")
            if answer.strip() != "yes":
                self.stdout.write("Nothing restored.")
                return
        database = connection.settings_dict
        connections.close_all()  # this process holds none of it while it is replaced
        try:
            if kind == "postgresql":
                backups.restore_postgresql(database, backup)
            else:
                backups.restore_sqlite(backup, str(database["NAME"]))
        except backups.BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored the whole server from {path}. Start the app servers again.")
