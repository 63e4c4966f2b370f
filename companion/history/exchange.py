"""The whole history as one JSON document, and that document back into the database.

The file carries what cannot be rebuilt (names, dates, options, each table's log) and nothing
secret or derived: no tokens, snapshots, idempotency keys or stored answers. An import rebuilds
each snapshot by replaying the live log and the seats' results from it, so a file cannot plant a
state or a score its log does not lead to. Everything is checked before the first write, and the
writes run in one transaction: a refused file leaves the database as it was.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.groups.models import Group
from companion.tables import services
from companion.tables.models import Event, Player, Seat, Table, new_table_id

# The file's format and its checks live in history_file; ImportRefused and parse_json are part of
# this module's interface too (the import page and command use them from here).
from .history_file import FORMAT, VERSION, ImportRefused, PlannedTable, parse_json, read_file, refuse, when

__all__ = ["ImportRefused", "ImportSummary", "dumps", "export_history", "import_history", "parse_json"]


@dataclass(frozen=True)
class ImportSummary:
    tables_added: int
    tables_already_there: int
    players_added: int

    def sentence(self) -> str:
        added, new = self.tables_added, self.players_added
        tables = ngettext("{count} table", "{count} tables", added).format(count=added)
        players = ngettext("{count} new player", "{count} new players", new).format(count=new)
        text = _("Imported {tables} and {players}.").format(tables=tables, players=players)
        if self.tables_already_there:
            kept = self.tables_already_there
            already = ngettext("{count} table", "{count} tables", kept).format(count=kept)
            text += " " + _("Already here and left as they were: {tables}.").format(tables=already)
        return text


# ---------------------------------------------------------------------------------------------
# Export


def _tables_with_seats_and_log():
    seats = Seat.objects.select_related("player").order_by("position")
    log = Event.objects.order_by("seq").only("table", "seq", "action", "text", "undone", "created")
    return Table.objects.defer("snapshot", "token", "view_token").prefetch_related(
        Prefetch("seats", queryset=seats), Prefetch("events", queryset=log)
    )


def table_entry(table: Table) -> dict:
    imported = {}
    if table.source:  # a result kept elsewhere before: where it came from, and each seat's result
        results = [{"score": seat.score, "won": seat.won} for seat in table.seats.all()]
        imported = {"source": table.source, "origin_id": table.origin_id, "results": results}
        imported |= {"bgg_play_id": table.bgg_play_id, "timed": table.timed, "origin": table.origin}
    return imported | {
        "id": table.id,
        "game": table.game,
        "options": table.options,
        "status": table.status,
        "created": when(table.created),
        "finished": when(table.finished),
        "abandoned": when(table.abandoned),
        "place": table.place,
        "comments": table.comments,
        "duration_minutes": table.duration_minutes,
        "version": table.version,
        "players": [seat.player.name for seat in table.seats.all()],
        "log": [
            {
                "seq": event.seq,
                "action": event.action,
                "text": event.text,
                "undone": event.undone,
                "created": when(event.created),
            }
            for event in table.events.all()
        ],
    }


def export_history(group: Group) -> dict:
    """The group's history: its people and every table of its, with their logs."""
    # Sorted in Python, not by the database: SQLite's lower() and a PostgreSQL collation order
    # differently, and the same history must give the same file everywhere.
    people = Player.objects.filter(group=group)
    players = sorted(people, key=lambda player: (player.name.lower(), player.name, player.pk))
    tables = sorted(
        _tables_with_seats_and_log().filter(group=group), key=lambda table: (table.created, table.id)
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": [
            {"name": player.name, "created": when(player.created)} | ({"guest": True} if player.guest else {})
            for player in players
        ],
        "tables": [table_entry(table) for table in tables],
    }


def dumps(history: dict) -> str:
    # ASCII escapes: the file is valid JSON whatever odd text the database may hold.
    return json.dumps(history, indent=2, allow_nan=False) + "\n"


# ---------------------------------------------------------------------------------------------
# Writing


def import_history(group: Group, data, max_entries: int | None = None) -> ImportSummary:
    """Add a history file's people and tables to the group; a table it already keeps is skipped.
    `max_entries` bounds the log entries a file may hold (history_file.read_file)."""
    players, tables = read_file(data, max_entries)
    with transaction.atomic():
        writer = _Writer(group)
        for number, (name, created, guest) in enumerate(players, 1):
            writer.claim_listed_player(name, created, f"Player {number}", guest)
        for table in tables:
            writer.add_table(table)
        return ImportSummary(writer.tables_added, writer.tables_already_there, writer.players_added)


class _Writer:
    def __init__(self, group: Group):
        self.group = group
        self.tables_added = self.tables_already_there = self.players_added = 0
        self.listed: dict[int, str] = {}  # player id -> the name that listed it in the file

    def player(self, name: str, created: dt.datetime, guest: bool = False) -> Player:
        # services.find_or_create_player, keeping the file's date for a new player.
        found = Player.objects.filter(group=self.group).named(name).first()
        if found is not None:
            return found
        try:
            with transaction.atomic():
                player = Player.objects.create(group=self.group, name=name, created=created, guest=guest)
        except IntegrityError:
            # Someone created the same person while the file was read: refuse rather than a 500.
            raise ImportRefused(
                _("The name '{name}' clashes with a player already here.").format(name=name)
            ) from None
        self.players_added += 1
        return player

    def claim_listed_player(self, name: str, created: dt.datetime, where: str, guest: bool = False) -> None:
        # Sameness is the database's (case-insensitive) rule, as for every table's seats.
        player = self.player(name, created, guest)
        if player.pk in self.listed:
            refuse(where, f"{name!r} is the same person as {self.listed[player.pk]!r} (names ignore case).")
        self.listed[player.pk] = name

    def add_table(self, table: PlannedTable) -> None:
        seated = [self.player(name, table.row["created"]) for name in table.names]
        if len({player.pk for player in seated}) != len(seated):
            refuse(table.where, "the same person sits at the table more than once.")
        file_id = table.row["id"]
        expected = {**table.entry, "players": [player.name for player in seated]}
        here = _tables_with_seats_and_log().filter(group=self.group)
        # Found again by its id, or by the id it had here before a restore gave it a new one, or, a
        # play imported from another app, by its id there.
        source, origin = table.row.get("source", ""), table.row.get("origin_id") or file_id
        existing = here.filter(pk=file_id).first() or here.filter(source=source, origin_id=origin).first()
        if existing is not None:
            # Imported before (under its own id, or a new one): the same table is left as it is.
            if table_entry(existing) != {**expected, "id": existing.id}:
                refuse(table.where, f"a different table with id {file_id!r} is already here.")
            self.tables_already_there += 1
            return
        row_fields = dict(table.row)
        if Table.objects.filter(pk=file_id).exists():
            # Another group's table has this id (a group's export restored into a new group on the
            # same server): the table takes a new id, and keeps the file's to be found again. Which
            # ids other groups hold is never said (issue 28).
            row_fields["id"], row_fields["origin_id"] = new_table_id(), origin
        row = Table.objects.create(
            **row_fields, group=self.group, last_seq=max((e["seq"] for e in table.log), default=0)
        )
        if table.results is not None:  # an imported play: its seats' results as kept, no log
            Seat.objects.bulk_create(
                Seat(table=row, player=player, position=position, score=result["score"], won=result["won"])
                for position, (player, result) in enumerate(zip(seated, table.results, strict=True))
            )
            self.tables_added += 1
            return
        Seat.objects.bulk_create(
            Seat(table=row, player=player, position=position) for position, player in enumerate(seated)
        )
        Event.objects.bulk_create(
            Event(
                table=row,
                seq=entry["seq"],
                action=entry["action"],
                text=entry["text"],
                undone=entry["undone"],
                created=entry["created"],
            )
            for entry in table.log
        )
        result = table.engine.result(row.snapshot)
        if result is not None:
            services.record_result(row, table.engine, result)
        self.tables_added += 1
