"""The rows this process last wrote, kept so that the next entry on the same table skips its read
(issue 13): on PostgreSQL that read is a round trip of its own.

Safe because the write is a compare-and-set on the version: a row kept here is used only when the
entry names that very version, and when another process (or an undo, an abandon, a rename) has
moved the row since, the compare-and-set finds another version, writes nothing, and the entry reads
the row as it does without this cache. A row is kept only once its write has committed (a write
rolled back must never be taken for the row), and versions only grow, so one version is one state.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict

from django.db import transaction

from .models import Table

SIZE = 512  # tables a worker keeps (a snapshot is a few kB)

_rows: OrderedDict[tuple[str, str], Table] = OrderedDict()
_lock = threading.Lock()


def get(table_id: str, version, using: str = "default") -> Table | None:
    """A copy of the row kept for `table_id`, if it holds `version` (the entry's expected one)."""
    with _lock:
        row = _rows.get((using, table_id))
        if row is None or row.version != version:
            return None
        _rows.move_to_end((using, table_id))
    return copy.copy(row)  # the entry changes its fields: the kept one stays as committed


def keep_after_commit(table: Table, using: str = "default") -> None:
    row = copy.copy(table)
    transaction.on_commit(lambda: _keep(row, using), using=using)


def _keep(row: Table, using: str) -> None:
    with _lock:
        _rows[(using, row.pk)] = row
        _rows.move_to_end((using, row.pk))
        while len(_rows) > SIZE:
            _rows.popitem(last=False)


def forget(table_id: str, using: str = "default") -> None:
    with _lock:
        _rows.pop((using, table_id), None)


def clear() -> None:
    with _lock:
        _rows.clear()
