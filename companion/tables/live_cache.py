"""A table's live region rendered once per version and variant, shared by the phones that fetch it
or get it pushed in their stream (live_push.py, issue 33): on an entry, every other phone at the
table needs the same page, and the render is most of what it costs.

A variant is what the region depends on besides the table: the language, the phone's rights, its
seat, the step it has open (the query) and whether it reads the table's group. The two things a
render makes for one phone alone, the form key (a write's idempotency key) and the CSRF token,
are rendered as placeholders and filled in for each answer, so no two phones share a key. Left
out, rendered each time as before: a table whose setup guide a phone may still show (it depends
on the phone's session) and a game whose values are noted in secret (hidden.py: the notes change
without a new version).

One store per worker process, the newest render of each (table, variant), LRU-bounded; the log's
lines, each rendered once (log_line), so that a render's cost does not grow with the game; and a
table's log at its version (log), read once for every render of that version: an entry's answer
and the pushes of the other variants read the same rows.
"""

from __future__ import annotations

import hashlib
import threading
import uuid
from collections.abc import Callable

from django.template.loader import render_to_string
from django.utils.translation import get_language

from companion import tokens
from companion.games import registry

from . import live_share
from .lru import Lru
from .models import Table

FORM_KEY = "live-cache-form-key-0"  # placeholders: no markup, nothing a page says
CSRF_TOKEN = "live-cache-csrf-token-0"
MAX_RENDERS = 1024  # a render is 5-40 KB: at most ~40 MB a worker
MAX_LINES = 100_000  # a log line is ~200 B: at most ~20 MB a worker
MAX_LOGS = 256  # a log is up to 200 rows of ~0.5 KB; its renders come within milliseconds

_renders = Lru(MAX_RENDERS)  # (table, variant) -> (version, render)
_lines = Lru(MAX_LINES)  # (table, seq, number, language) -> a log line
_logs = Lru(MAX_LOGS)  # (table, language) -> (version, the log as the region shows it)
_lock = threading.Lock()
_making: dict[tuple, threading.Lock] = {}  # a render in progress: who asks the same waits for it


def phone_part(rights: str, seat: int | None, query: dict, reads_group: bool) -> tuple:
    """What a phone brings to a variant (its language, rights, seat, step, group)."""
    return (get_language(), rights, seat, tuple(sorted(query.items())), reads_group)


def fingerprint(part: tuple) -> str:
    """A short name of a phone's part, written on the region it shows (data-variant): a region
    pushed in the stream (live_push.py) is taken only by a page showing the same variant."""
    return hashlib.blake2s(repr(part).encode(), digest_size=6).hexdigest()


def variant(table: Table, rights: str, seat: int | None, query: dict, reads_group: bool) -> tuple | None:
    """What the region of `table` depends on for this phone, or None when it is the phone's own."""
    guide_possible = rights == tokens.EDIT and not table.last_seq and table.abandoned is None
    if guide_possible or registry.hidden(table.game) is not None:
        return None
    state = (table.status, table.abandoned, table.rematch_id)
    return (table.id, phone_part(rights, seat, query, reads_group), state)


def shared(key: tuple, version: int, render: Callable[[], str]) -> str:
    """The render of `key` at `version`: the stored one, or `render()` (with the placeholders).
    Threads asking for the same render at once wait for one of them to make it."""
    with _lock:
        making = _making.setdefault((key, version), threading.Lock())
    with making:
        try:
            return _stored_or(key, version, render)
        finally:
            with _lock:
                _making.pop((key, version), None)


def _stored_or(key: tuple, version: int, render: Callable[[], str]) -> str:
    found = _renders.at(key, version)
    if found is not None:
        return found
    # Claimed before the render: the other workers' streams of this variant wait for this one
    # instead of making their own (an entry's answer is rendered as its commit wakes them).
    table_id, mark = key[0], fingerprint(key[1])
    folder = live_share.claimed_for_others(table_id, mark, version)
    frame = ""  # written empty if the render fails: the others then send the bare version
    try:
        html = render()  # outside the store's lock: other tables' renders go on meanwhile
        frame = live_share.live_frame(version, mark, html) if folder is not None else ""
    finally:
        if folder is not None:
            live_share.write(folder, table_id, mark, version, version, frame)
    _renders.put(key, (version, html))
    return html


def filled(html: str, csrf_token: str) -> str:
    """A shared render made one phone's: its own form key and CSRF token."""
    return html.replace(FORM_KEY, uuid.uuid4().hex).replace(CSRF_TOKEN, csrf_token)


def log_line(event, game: str) -> str:
    """An entry of the log as the page shows it, rendered once per language and number: a table's
    region renders its log (up to 200 entries) each time, and an entry's line never changes."""
    key = (event.table_id, event.seq, event.number, get_language())
    line = _lines.get(key)
    if line is None:
        line = render_to_string("tables/_log_entry.html", {"event": event, "game": game})
        _lines.put(key, line)
    return line


def log(table: Table, read: Callable[[Table], list]) -> list:
    """The log of `table` at its version as the region shows it, from `read` once per version and
    language. A slower request of an older version reads its own and keeps the newer one."""
    key = (table.id, get_language())
    events = _logs.at(key, table.version)
    if events is None:
        events = read(table)
        _logs.keep_newest(key, table.version, events)
    return events


def clear() -> None:
    _renders.clear()
    _lines.clear()
    _logs.clear()
