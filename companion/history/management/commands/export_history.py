"""Write the history as JSON (every table and its log) or the finished plays as CSV."""

import io
from pathlib import Path

from django.core.management.base import BaseCommand

from companion.groups.commands import add_group_argument, group_named
from companion.history import exchange
from companion.history.plays_csv import write_plays_csv


class Command(BaseCommand):
    help = "Export the history: JSON of every table and its log (default), or CSV of the finished plays."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=("json", "csv"), default="json")
        parser.add_argument("--output", metavar="PATH", help="the file to write (default: standard output)")
        add_group_argument(parser)

    def handle(self, *args, **options):
        group = group_named(options["group"])
        if options["format"] == "json":
            text = exchange.dumps(exchange.export_history(group))
        else:
            buffer = io.StringIO()
            write_plays_csv(buffer, group)
            text = buffer.getvalue()
        if options["output"]:
            # newline="": the CSV's own \r\n line ends are written as they are.
            with Path(options["output"]).open("w", encoding="utf-8", newline="") as file:
                file.write(text)
        else:
            self.stdout.write(text, ending="")
