"""Import a history JSON file (as written by export_history); a refused file imports nothing."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from companion.groups.commands import add_group_argument, group_named
from companion.history import exchange


class Command(BaseCommand):
    help = "Import a history JSON file (or - for standard input): all of it, or nothing when refused."
    stealth_options = ("stdin",)  # tests hand in their own standard input

    def add_arguments(self, parser):
        parser.add_argument("path", help="the history file, or - for standard input")
        add_group_argument(parser)

    def handle(self, *args, path, **options):
        group = group_named(options["group"])
        try:
            raw = self._read(path, options.get("stdin") or sys.stdin)
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror or error}") from error
        try:
            summary = exchange.import_history(group, exchange.parse_json(raw))
        except exchange.ImportRefused as refused:
            raise CommandError(refused.message) from refused
        self.stdout.write(summary.sentence())

    @staticmethod
    def _read(path: str, stdin) -> bytes:
        if path != "-":
            return Path(path).read_bytes()
        raw = getattr(stdin, "buffer", stdin).read()
        return raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
