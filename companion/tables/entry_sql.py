"""The statements of an entry, compiled once per database instead of once per write (issue 13).

Profiled, building the SELECT ... FOR UPDATE, the UPDATE and the INSERT through the ORM cost more
than running them and than the rules check together. The SQL is made here from the models' own
metadata (columns, defaults, each field's conversions to and from the database), so a field added
to Table or Event reaches these statements without editing them; only the queries' shape is fixed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.db import connections

from .models import Event, Table

# What a write reads of the table row: the token check, the rules and the answer need these.
LOCKED_FIELDS = (
    "id",
    "game",
    "options",
    "status",
    "version",
    "snapshot",
    "names",
    "last_seq",
    "token",
    "view_token",
    "finished",
    "abandoned",
)
# What an entry changes in the row ("names" only on the first write since a rename or a merge).
UPDATED_FIELDS = ("snapshot", "version", "status", "finished", "last_seq", "names")


@dataclass(frozen=True)
class Statements:
    lock: str
    update: str
    insert: str
    readers: tuple  # one tuple of converters per LOCKED_FIELDS column
    event_fields: tuple  # the Event fields the INSERT names, in order


@cache
def _statements(alias: str) -> Statements:
    connection = connections[alias]
    quote = connection.ops.quote_name
    table, event = Table._meta, Event._meta
    locked = [table.get_field(name) for name in LOCKED_FIELDS]
    columns = ", ".join(f"t.{quote(field.column)}" for field in locked)
    # The event that already carries this idempotency key, found in the same round trip as the lock.
    repeat = (
        f"(SELECT e.{quote(event.pk.column)} FROM {quote(event.db_table)} e"
        f" WHERE e.{quote(event.get_field('table').column)} = t.{quote(table.pk.column)}"
        f" AND e.{quote(event.get_field('idempotency_key').column)} = %s)"
    )
    lock_clause = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    lock = (
        f"SELECT {columns}, {repeat} FROM {quote(table.db_table)} t"
        f" WHERE t.{quote(table.pk.column)} = %s{lock_clause}"
    )
    assignments = ", ".join(f"{quote(table.get_field(name).column)} = %s" for name in UPDATED_FIELDS)
    update = f"UPDATE {quote(table.db_table)} SET {assignments} WHERE {quote(table.pk.column)} = %s"
    event_fields = tuple(field for field in event.concrete_fields if not field.primary_key)
    insert = (
        f"INSERT INTO {quote(event.db_table)} ({', '.join(quote(f.column) for f in event_fields)})"
        f" VALUES ({', '.join(['%s'] * len(event_fields))})"
    )
    readers = []
    for field in locked:
        column = field.get_col(table.db_table)
        readers.append(tuple(connection.ops.get_db_converters(column) + column.get_db_converters(connection)))
    return Statements(lock, update, insert, tuple(readers), event_fields)


def lock_table(table_id: str, idempotency_key: str | None, using: str = "default") -> tuple[Table | None, int | None]:
    """The table row, locked for this transaction, and the id of the event that already carries
    `idempotency_key` (None when none does): one statement."""
    connection = connections[using]
    statements = _statements(using)
    with connection.cursor() as cursor:
        cursor.execute(statements.lock, [idempotency_key, table_id])
        row = cursor.fetchone()
    if row is None:
        return None, None
    values = []
    for value, converters, column in zip(row, statements.readers, _locked_columns(), strict=False):
        for converter in converters:
            value = converter(value, column, connection)
        values.append(value)
    return Table.from_db(using, LOCKED_FIELDS, values), row[-1]


@cache
def _locked_columns() -> tuple:
    return tuple(Table._meta.get_field(name).get_col(Table._meta.db_table) for name in LOCKED_FIELDS)


def save_entry(table: Table, event_values: dict, using: str = "default") -> None:
    """Write the changed row and append its event: the two statements of an applied entry. Values
    go through each field's own preparation, and an Event field not given takes its default."""
    connection = connections[using]
    statements = _statements(using)
    fields = Table._meta
    row = [fields.get_field(name).get_db_prep_save(getattr(table, name), connection) for name in UPDATED_FIELDS]
    event = []
    for field in statements.event_fields:
        value = event_values[field.attname] if field.attname in event_values else field.get_default()
        event.append(field.get_db_prep_save(value, connection))
    with connection.cursor() as cursor:
        cursor.execute(statements.update, [*row, table.pk])
        cursor.execute(statements.insert, event)
