"""The statements of an entry, compiled once per database instead of once per write (issue 13).

Profiled, building the SELECT, the UPDATE and the INSERT through the ORM cost more than running
them and than the rules check together. The SQL is made here from the models' own metadata
(columns, defaults, each field's conversions to and from the database), so a field added to Table
or Event reaches these statements without editing them; only the queries' shape is fixed.

An entry is written optimistically: the row is read without a lock, the rules run, and the write
applies only if the row still has the version that was read (a compare-and-set). Nothing is held
while the engine runs, so SQLite's one write lock is taken for two short statements, and
PostgreSQL makes the whole write one statement (an UPDATE ... RETURNING feeding the INSERT).

On PostgreSQL both statements are also prepared, once per connection, and their values sent apart
from them (server-side binding): Django's default cursor instead writes every value into the SQL
text, the whole snapshot included, and the server then parses and plans that text on every entry.
Measured with 8 clients (bench's throughput): PostgreSQL's CPU per entry from about 1.1 ms to 0.8.
COMPANION_PREPARED_ENTRIES=false turns it off, for a pooler that keeps no prepared statements
(PgBouncer before 1.21, or without max_prepared_statements, in transaction mode).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.db import connections, transaction
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper

from .models import Event, Table

# What a write reads of the table row: the token check, the rules and the answer need these.
READ_FIELDS = (
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
    "links",  # a page's write checks its phone's grant on the row it writes (issue 41)
    "finished",
    "abandoned",
)
# What an entry changes in the row. Not "names": a rename may have cleared them since the read.
UPDATED_FIELDS = ("snapshot", "version", "status", "finished", "last_seq")


@dataclass(frozen=True)
class Statements:
    read: str
    write: str  # PostgreSQL: the compare-and-set UPDATE and the INSERT in one statement
    update: str  # elsewhere: the compare-and-set UPDATE, then
    insert: str  # the INSERT, in one transaction
    readers: tuple  # per READ_FIELDS column: (its Col, the converters from the database value)
    event_fields: tuple  # the Event fields the INSERT names, in order


@cache
def _statements(alias: str) -> Statements:
    connection = connections[alias]
    quote = connection.ops.quote_name
    table, event = Table._meta, Event._meta
    read_fields = [table.get_field(name) for name in READ_FIELDS]
    columns = ", ".join(f"t.{quote(field.column)}" for field in read_fields)
    # The event that already carries this idempotency key, found in the same round trip as the row.
    repeat = (
        f"(SELECT e.{quote(event.pk.column)} FROM {quote(event.db_table)} e"
        f" WHERE e.{quote(event.get_field('table').column)} = t.{quote(table.pk.column)}"
        f" AND e.{quote(event.get_field('idempotency_key').column)} = %s)"
    )
    read = f"SELECT {columns}, {repeat} FROM {quote(table.db_table)} t WHERE t.{quote(table.pk.column)} = %s"
    assignments = ", ".join(f"{quote(table.get_field(name).column)} = %s" for name in UPDATED_FIELDS)
    # The compare-and-set: the version read, and no event yet with this idempotency key (a key
    # reused at a later version, or met by a write that skipped the read: row_cache.py), which
    # then loses like a stale write and reads, instead of failing on the key's unique index.
    key_taken = (
        f"SELECT 1 FROM {quote(event.db_table)} e"
        f" WHERE e.{quote(event.get_field('table').column)} = %s"
        f" AND e.{quote(event.get_field('idempotency_key').column)} = %s"
    )
    where = (
        f"{quote(table.pk.column)} = %s AND {quote(table.get_field('version').column)} = %s"
        f" AND NOT EXISTS ({key_taken})"
    )
    update = f"UPDATE {quote(table.db_table)} SET {assignments} WHERE {where}"
    event_fields = tuple(field for field in event.concrete_fields if not field.primary_key)
    event_columns = ", ".join(quote(field.column) for field in event_fields)
    placeholders = ", ".join(["%s"] * len(event_fields))
    insert = f"INSERT INTO {quote(event.db_table)} ({event_columns}) VALUES ({placeholders})"
    # A value bound on the server takes its column's type here too (PostgreSQL types the SELECT
    # list of an INSERT ... SELECT by the columns it fills), NULLs included.
    write = (
        f"WITH moved AS ({update} RETURNING {quote(table.pk.column)})"
        f" INSERT INTO {quote(event.db_table)} ({event_columns}) SELECT {placeholders} FROM moved"
    )
    readers = []
    for field in read_fields:
        column = field.get_col(table.db_table)
        converters = tuple(connection.ops.get_db_converters(column) + column.get_db_converters(connection))
        readers.append((column, converters))
    return Statements(read, write, update, insert, tuple(readers), event_fields)


def read_table(
    table_id: str, idempotency_key: str | None, using: str = "default"
) -> tuple[Table | None, int | None]:
    """The table row as last committed, and the id of the event that already carries
    `idempotency_key` (None when none does): one statement, no lock."""
    connection = connections[using]
    statements = _statements(using)
    with _cursor(connection) as cursor:
        cursor.execute(statements.read, [idempotency_key, table_id])
        row = cursor.fetchone()
    if row is None:
        return None, None
    values = []
    for value, (column, converters) in zip(row, statements.readers, strict=False):
        for converter in converters:
            value = converter(value, column, connection)
        values.append(value)
    return Table.from_db(using, READ_FIELDS, values), row[-1]


def write_entry(table: Table, read_version: int, event_values: dict, using: str = "default") -> bool:
    """Write the changed row and append its event if the row still holds `read_version` and no
    event carries the entry's idempotency key; False (and nothing written) otherwise. Values go
    through each field's own preparation, and an Event field not given takes its default."""
    connection = connections[using]
    statements = _statements(using)
    meta = Table._meta
    row = [meta.get_field(name).get_db_prep_save(getattr(table, name), connection) for name in UPDATED_FIELDS]
    row += [table.pk, read_version, table.pk, event_values.get("idempotency_key")]
    event = []
    for field in statements.event_fields:
        value = event_values[field.attname] if field.attname in event_values else field.get_default()
        event.append(field.get_db_prep_save(value, connection))
    if connection.vendor == "postgresql":
        with _cursor(connection) as cursor:
            cursor.execute(statements.write, [*row, *event])
            return cursor.rowcount == 1
    with transaction.atomic(using=using), connection.cursor() as cursor:
        cursor.execute(statements.update, row)
        if cursor.rowcount != 1:
            return False
        cursor.execute(statements.insert, event)
        return True


def _cursor(connection):
    """Django's cursor (its error wrapping and query log), over psycopg's server-binding cursor on
    PostgreSQL, whose statements the connection prepares the first time it runs them. Django's
    own queries keep their client-side cursors, which psycopg never prepares."""
    if connection.vendor != "postgresql" or not settings.COMPANION_PREPARED_ENTRIES:
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        pg = connection.connection
        if pg.prepare_threshold != 0:  # Django connects with None: nothing would ever be prepared
            pg.prepare_threshold = 0
        cursor = ServerBindingCursor(pg)
    return _LoggedCursor(cursor, connection) if connection.queries_logged else connection.make_cursor(cursor)


class _LoggedCursor(CursorDebugWrapper):
    """Django's query log (DEBUG, tests): Django reads a statement back from a client-side cursor
    only, so the statement is composed with its values here, as Django does when every cursor
    binds on the server."""

    def execute(self, sql, params=None):
        with self.debug_sql(self.db.ops.compose_sql(sql, params)):
            return CursorWrapper.execute(self, sql, params)
