"""A history file: its format, and reading one with every check and no writes.

`read_file` turns the parsed JSON into planned tables (model fields, seat names, log entries),
each replayed through its engine, or raises ImportRefused naming where and why; exchange.py writes
the plan. Nothing here touches the database but a read of the Table model's field sizes.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from dataclasses import dataclass
from typing import NoReturn

from django.utils.translation import gettext as _

from companion.games import base, registry
from companion.tables import services
from companion.tables.models import Table

FORMAT = "table-companion-history"
VERSION = 1
FILE_FIELDS = ("format", "version", "players", "tables")
PLAYER_FIELDS = ("name", "created")
TABLE_FIELDS = (
    "id",
    "game",
    "options",
    "status",
    "created",
    "finished",
    "abandoned",
    "place",
    "comments",
    "duration_minutes",
    "version",
    "players",
    "log",
)
LOG_FIELDS = ("seq", "action", "text", "undone", "created")
# A play imported from another app (issue 29) has no log: where it came from, and each seat's result.
IMPORTED_FIELDS = ("source", "origin_id", "results")
# What issue 42 keeps of an imported play beside them (absent from older files).
IMPORTED_EXTRAS = ("bgg_play_id", "timed", "origin")
PLAYER_EXTRAS = ("guest",)  # a guest of an imported play (absent: not a guest)
RESULT_FIELDS = ("score", "won")
SOURCES = ("bgstats", "bgg")
TABLE_ID = re.compile(r"[-a-zA-Z0-9_]{1,16}")  # a URL slug, as long as the primary key allows
MAX_COUNT = base.WHOLE_MAX  # PositiveIntegerField's ceiling on PostgreSQL
# The days (UTC) a moment the history keeps falls on: a day away from the calendar's ends, so that
# every zone (each less than a day from UTC) can say its date and evening (issue 41: a play kept on
# 9999-12-31 made the nights a 500 in a zone ahead of UTC, and the night of that day was one).
FIRST_DAY = dt.date.min + dt.timedelta(days=1)
LAST_DAY = dt.date.max - dt.timedelta(days=1)
MAX_DEPTH = 100  # far deeper than any action; keeps the checks' recursion bounded
PLACE_MAX = Table._meta.get_field("place").max_length


class ImportRefused(Exception):
    """A history file that cannot be imported; the message names where and why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def when(value: dt.datetime | None) -> str | None:
    return None if value is None else value.astimezone(dt.UTC).isoformat()


def parse_json(raw: bytes) -> dict:
    """The bytes of a history file as JSON, or ImportRefused (the shape is checked on import)."""
    try:
        text = raw.decode("utf-8-sig")  # an editor's byte order mark is harmless
    except UnicodeDecodeError as error:
        raise ImportRefused(_("The file is not UTF-8 text.")) from error
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError as error:
        raise ImportRefused(_("The file is nested too deeply to be a history file.")) from error
    except ValueError as error:
        raise ImportRefused(_("The file is not valid JSON: {error}.").format(error=error)) from error


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


# ---------------------------------------------------------------------------------------------
# Reading a file: every check, no writes


@dataclass
class PlannedTable:
    where: str
    engine: base.Engine
    row: dict  # the Table model's fields
    names: list[str]
    log: list[dict]  # the Event model's fields, by seq
    entry: dict  # as export_history would give it once imported (names still as in the file)
    results: list[dict] | None = None  # an imported play's {"score", "won"} per seat: no log


def refuse(where: str, problem: str) -> NoReturn:
    raise ImportRefused(f"{where}: {problem}")


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _object(value, where: str, fields: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    if not isinstance(value, dict):
        refuse(where, f"must be an object, not {_kind(value)}.")
    missing = [name for name in fields if name not in value]
    if missing:
        refuse(where, f"{', '.join(map(repr, missing))} missing.")
    unknown = sorted(repr(name) for name in value if name not in fields and name not in optional)
    if unknown:
        refuse(where, f"unknown field {', '.join(unknown)}.")
    return value


def _list(value, where: str, name: str) -> list:
    if not isinstance(value, list):
        refuse(where, f"'{name}' must be a list, not {_kind(value)}.")
    return value


def _text(value, where: str, name: str, max_length: int | None = None) -> str:
    if not isinstance(value, str):
        refuse(where, f"'{name}' must be a string, not {_kind(value)}.")
    if services.unstorable(value):
        refuse(where, f"'{name}' holds a NUL character or broken Unicode.")
    if max_length is not None and len(value) > max_length:
        refuse(where, f"'{name}' has more than {max_length} characters.")
    return value


def _count(value, where: str, name: str, minimum: int = 0, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if not base.is_int(value) or not minimum <= value <= MAX_COUNT:
        refuse(where, f"'{name}' must be a whole number from {minimum} to {MAX_COUNT}, not {_short(value)}.")
    return value


def in_calendar(moment: dt.datetime) -> bool:
    """Whether an aware moment falls between FIRST_DAY and LAST_DAY in UTC."""
    try:
        return FIRST_DAY <= moment.astimezone(dt.UTC).date() <= LAST_DAY
    except OverflowError:
        return False


def _moment(value, where: str, name: str, nullable: bool = False) -> dt.datetime | None:
    if value is None and nullable:
        return None
    if not isinstance(value, str):
        refuse(where, f"'{name}' must be a date and time as a string, not {_kind(value)}.")
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        refuse(where, f"'{name}' is not an ISO 8601 date and time: {_short(value)}.")
    if parsed.utcoffset() is None:
        refuse(where, f"'{name}' has no time zone: {_short(value)}.")
    if not in_calendar(parsed):
        refuse(where, f"'{name}' is out of range: {_short(value)}.")
    return parsed.astimezone(dt.UTC)


def _short(value) -> str:
    """A value quoted in a message: scalars shortened, containers only named (repr of a huge or
    deeply nested one would be slow or overflow the stack)."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 50 else repr(value[:47]) + "..."
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a very large number"
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)
    return _kind(value)


def _check_json(value, where: str, name: str, depth: int = 0) -> None:
    """Plain JSON only (a caller may hand in any Python object), finite numbers, bounded depth."""
    if depth > MAX_DEPTH:
        refuse(where, f"'{name}' is nested too deeply.")
    if isinstance(value, float) and not math.isfinite(value):
        refuse(where, f"'{name}' holds {value}, which is not a JSON number.")
    if isinstance(value, list):
        for item in value:
            _check_json(item, where, name, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                refuse(where, f"'{name}' has a key that is not a string: {_short(key)}.")
            _check_json(item, where, name, depth + 1)
    elif value is not None and not isinstance(value, (str, int, float)):
        refuse(where, f"'{name}' holds {_kind(value)}, which is not JSON.")


def _storable_json(value, where: str, name: str) -> None:
    _check_json(value, where, name)
    try:
        services.check_storable(value)
    except base.ActionError as error:
        refuse(where, f"'{name}': {error.message}")


def _read_players(raw: list) -> list[tuple[str, dt.datetime, bool]]:
    players = []
    for number, item in enumerate(raw, 1):
        where = f"Player {number}"
        _object(item, where, PLAYER_FIELDS, PLAYER_EXTRAS)
        guest = item.get("guest", False)
        if not isinstance(guest, bool):
            refuse(where, f"'guest' must be true or false, not {_kind(guest)}.")
        players.append((_name(item["name"], where), _moment(item["created"], where, "created"), guest))
    return players


def _name(raw, where: str) -> str:
    if not isinstance(raw, str):
        refuse(where, f"a name must be a string, not {_kind(raw)}.")
    try:
        return services.clean_name(raw)
    except base.ActionError as error:
        refuse(where, f"{error.message} ({_short(raw)})")


def _seat_names(raw, where: str, engine: base.Engine) -> list[str]:
    raw = _list(raw, where, "players")
    try:
        base.check_players(engine, len(raw))
    except base.ActionError as error:
        refuse(where, error.message)
    names = [_name(item, f"{where}, player {seat}") for seat, item in enumerate(raw, 1)]
    seats: dict[str, int] = {}
    for seat, name in enumerate(names, 1):
        if name.lower() in seats:
            first = seats[name.lower()]
            refuse(
                where,
                f"{name!r} (player {seat}) already sits at the table as player {first} (names ignore case).",
            )
        seats[name.lower()] = seat
    return names


def _read_log(raw, where: str) -> list[dict]:
    log, seen = [], set()
    for number, item in enumerate(_list(raw, where, "log"), 1):
        at = f"{where}, log entry {number}"
        _object(item, at, LOG_FIELDS)
        seq = _count(item["seq"], at, "seq", minimum=1)
        if seq in seen:
            refuse(at, f"seq {seq} is used by another entry too.")
        seen.add(seq)
        if not isinstance(item["action"], dict):
            refuse(at, f"'action' must be an object, not {_kind(item['action'])}.")
        _storable_json(item["action"], at, "action")
        if not isinstance(item["undone"], bool):
            refuse(at, f"'undone' must be true or false, not {_kind(item['undone'])}.")
        log.append(
            {
                "seq": seq,
                "action": item["action"],
                "text": _text(item["text"], at, "text"),
                "undone": item["undone"],
                "created": _moment(item["created"], at, "created"),
                "number": number,  # for messages only
            }
        )
    return sorted(log, key=lambda entry: entry["seq"])


def _replay(engine: base.Engine, players: int, options: dict, log: list[dict], where: str) -> dict:
    """base.replay, one entry at a time so that a refusal names the entry."""
    try:
        state = engine.setup(players, options)
    except base.ActionError as error:
        refuse(where, f"the options are refused: {error.message}")
    for entry in log:
        if entry["undone"]:
            continue
        try:
            state = base.play(engine, state, entry["action"])
        except base.ActionError as error:
            refuse(
                where,
                f"log entry {entry['number']} (seq {entry['seq']}) is refused by the rules: {error.message}",
            )
    return state


def _read_table(item, number: int) -> PlannedTable:
    table_id = item.get("id") if isinstance(item, dict) else None
    valid_id = isinstance(table_id, str) and TABLE_ID.fullmatch(table_id)
    where = f"Table {number} (id {table_id!r})" if valid_id else f"Table {number}"
    _object(item, where, TABLE_FIELDS, IMPORTED_FIELDS + IMPORTED_EXTRAS)
    if not valid_id:
        refuse(where, f"'id' must be 1 to 16 letters, digits, '-' or '_', not {_short(table_id)}.")
    game = item["game"]
    if not isinstance(game, str) or game not in registry.GAMES:
        refuse(where, f"there is no game {_short(game)} (known: {', '.join(registry.GAMES)}).")
    engine = registry.get(game)
    names = _seat_names(item["players"], where, engine)
    if not isinstance(item["options"], dict):
        refuse(where, f"'options' must be an object, not {_kind(item['options'])}.")
    _storable_json(item["options"], where, "options")
    try:
        options = base.validate_options(engine, item["options"])
    except base.ActionError as error:
        refuse(where, error.message)
    row = {
        "id": table_id,
        "game": game,
        "options": options,
        "status": item["status"],
        "created": _moment(item["created"], where, "created"),
        "finished": _moment(item["finished"], where, "finished", nullable=True),
        "abandoned": _moment(item["abandoned"], where, "abandoned", nullable=True),
        "place": _text(item["place"], where, "place", PLACE_MAX),
        "comments": _text(item["comments"], where, "comments"),
        "duration_minutes": _count(item["duration_minutes"], where, "duration_minutes", nullable=True),
        "version": _count(item["version"], where, "version"),
    }
    log = _read_log(item["log"], where)
    results = None
    if "source" in item or "results" in item or "origin_id" in item:  # kept elsewhere: no log
        row["source"], row["origin_id"], results = _imported(item, where, len(names))
        row.update(_imported_extras(item, where))
        row["snapshot"] = _recorded(engine, len(names), options, results, where)
    else:
        row["snapshot"] = _replay(engine, len(names), options, log, where)
    _check_status(row, engine, where)
    entry = {name: when(value) if isinstance(value, dt.datetime) else value for name, value in row.items()}
    entry = _without(entry, "snapshot")
    entry["players"] = names
    entry["log"] = [{**_without(event, "number"), "created": when(event["created"])} for event in log]
    if results is not None:
        entry["results"] = results
    return PlannedTable(where, engine, row, names, log, entry, results)


def _imported_extras(item: dict, where: str) -> dict:
    """An imported play's BGG id, whether its time of day is known, and what its file said."""
    bgg_play_id = item.get("bgg_play_id")
    if bgg_play_id is not None:
        bgg_play_id = _count(bgg_play_id, where, "bgg_play_id")
    timed = item.get("timed", True)
    if not isinstance(timed, bool):
        refuse(where, f"'timed' must be true or false, not {_kind(timed)}.")
    origin = item.get("origin")
    if origin is not None:
        if not isinstance(origin, dict):
            refuse(where, f"'origin' must be an object, not {_kind(origin)}.")
        _storable_json(origin, where, "origin")
    return {"bgg_play_id": bgg_play_id, "timed": timed, "origin": origin}


def _imported(item: dict, where: str, players: int) -> tuple[str, str, list[dict]]:
    """An imported play's source, its id there, and one {"score", "won"} per seat."""
    _object(item, where, TABLE_FIELDS + IMPORTED_FIELDS, IMPORTED_EXTRAS)
    if item["source"] not in SOURCES:
        refuse(where, f"'source' must be one of {', '.join(SOURCES)}, not {_short(item['source'])}.")
    if item["log"]:
        refuse(where, "a play imported from another app has no log.")
    results = _list(item["results"], where, "results")
    if len(results) != players:
        refuse(where, f"'results' has {len(results)} seats, not {players}.")
    for number, result in enumerate(results, 1):
        at = f"{where}, result {number}"
        _object(result, at, RESULT_FIELDS)
        if result["score"] is not None:
            _count_or_negative(result["score"], at)
        if not isinstance(result["won"], bool):
            refuse(at, f"'won' must be true or false, not {_kind(result['won'])}.")
    return item["source"], _text(item["origin_id"], where, "origin_id", 64), results


def _count_or_negative(value, where: str) -> None:
    if not base.is_int(value) or abs(value) > MAX_COUNT:
        refuse(where, f"'score' must be a whole number or null, not {_short(value)}.")


def _recorded(engine: base.Engine, players: int, options: dict, results: list[dict], where: str) -> dict:
    """An imported play's finished state: the pad's result as it was kept (outcomes.recorded)."""
    from companion.games.any_game import outcomes

    if engine.slug != "any-game":
        refuse(where, "an imported play is kept as a score pad ('any-game').")
    try:
        state = engine.setup(players, options)
    except base.ActionError as error:
        refuse(where, f"the options are refused: {error.message}")
    totals = [result["score"] or 0 for result in results]
    return outcomes.recorded(state, totals, [seat for seat, result in enumerate(results) if result["won"]])


def _without(fields: dict, name: str) -> dict:
    return {key: value for key, value in fields.items() if key != name}


def _check_status(row: dict, engine: base.Engine, where: str) -> None:
    """The declared status must be the one the log leads to, with the dates that go with it."""
    status = row["status"]
    if status not in Table.Status.values:
        refuse(where, f"'status' must be one of {', '.join(Table.Status.values)}, not {_short(status)}.")
    over = engine.result(row["snapshot"]) is not None
    if status == Table.Status.FINISHED and not over:
        refuse(where, "the file says the table is finished, but its log does not finish the game.")
    if status == Table.Status.IN_PROGRESS and over:
        refuse(where, "the file says the table is in progress, but its log finishes the game.")
    if over and row["finished"] is None:
        refuse(where, "a finished table needs its 'finished' date.")
    if not over and row["finished"] is not None:
        refuse(where, "a table in progress has no 'finished' date.")
    if over and row["abandoned"] is not None:
        refuse(where, "a finished table cannot be abandoned.")


def count_entries(items: list) -> int:
    """The log entries of a file's tables, counted before any is read: the work an import does."""
    return sum(
        len(item["log"]) for item in items if isinstance(item, dict) and isinstance(item.get("log"), list)
    )


def read_file(
    data, max_entries: int | None = None
) -> tuple[list[tuple[str, dt.datetime]], list[PlannedTable]]:
    """The file's players and tables, every check made; with `max_entries`, a file whose tables
    hold more log entries is refused before any is replayed (an import's work is bounded)."""
    if not isinstance(data, dict):
        raise ImportRefused(f"The file must hold a JSON object, not {_kind(data)}.")
    if data.get("format") != FORMAT:
        raise ImportRefused(
            _("This is not a Table Companion history file ('format' must be '{format}').").format(
                format=FORMAT
            )
        )
    if not base.is_int(data.get("version")) or data["version"] != VERSION:
        raise ImportRefused(
            f"History file version {_short(data.get('version'))} is not supported (this app reads {VERSION})."
        )
    _object(data, "The file", FILE_FIELDS)
    players = _read_players(_list(data["players"], "The file", "players"))
    items = _list(data["tables"], "The file", "tables")
    if max_entries is not None and (entries := count_entries(items)) > max_entries:
        raise ImportRefused(
            _(
                "The file holds {entries} log entries, more than the {limit} one import takes here: "
                "import it with manage.py import_history on the server."
            ).format(entries=entries, limit=max_entries)
        )
    tables = [_read_table(item, number) for number, item in enumerate(items, 1)]
    seen = set()
    for table in tables:
        if table.row["id"] in seen:
            refuse(table.where, "an earlier table in the file has the same id.")
        seen.add(table.row["id"])
    return players, tables
