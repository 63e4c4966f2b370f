"""History export and import: round trips, importing into a used database, refused files, the
plays CSV, the management commands and the download and upload pages."""

from __future__ import annotations

import copy
import csv
import datetime as dt
import io
import json
import random

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import base, registry
from companion.history import exchange
from companion.history.exchange import ImportRefused, ImportSummary, export_history, import_history
from companion.history.plays_csv import COLUMNS, write_plays_csv
from companion.history.stats import competition_ranks
from companion.tables import services
from companion.tables.models import Event, Player, Seat, Table
from tests.history.factories import home

from .factories import finished_play, play_out

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2024, 5, 1, 18, 0, tzinfo=dt.UTC)


def iso(moment: dt.datetime) -> str:
    return moment.isoformat()


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (Player, Table, Seat, Event)}


def flush() -> None:
    Table.objects.all().delete()  # seats and events go with their table
    Player.objects.all().delete()


def seat_results() -> list[tuple]:
    seats = Seat.objects.select_related("player").order_by("table_id", "position")
    return [(seat.table_id, seat.position, seat.player.name, seat.score, seat.won) for seat in seats]


def engine_table(table_id: str, game: str, names: list[str], seed: int, entries: int | None = None, start=T0):
    """A file's table entry played by the engine alone, no database: to the end of the game, or
    `entries` entries long. Entry n is made n minutes after `start`."""
    engine = registry.get(game)
    rng = random.Random(seed)
    options = dict(engine.options)
    state = engine.setup(len(names), options)
    log = []
    while engine.result(state) is None and (entries is None or len(log) < entries):
        action = engine.sample_action(state, rng)
        made = start + dt.timedelta(minutes=len(log) + 1)
        text = base.describe(engine, state, action, names)
        log.append(
            {"seq": len(log) + 1, "action": action, "text": text, "undone": False, "created": iso(made)}
        )
        state = base.play(engine, state, action)
    over = engine.result(state) is not None
    return {
        "id": table_id,
        "game": game,
        "options": options,
        "status": "finished" if over else "in_progress",
        "created": iso(start),
        "finished": log[-1]["created"] if over else None,
        "abandoned": None,
        "place": "",
        "comments": "",
        "duration_minutes": None,
        "version": len(log),
        "players": names,
        "log": log,
    }


def small_file() -> dict:
    """A finished Dogo Dash table, then a Hang Four table in progress whose last entry was taken
    back, and a player without tables: a file in exactly the form export_history writes."""
    dogo = engine_table("dd01", "dogo-dash", ["Ann", "Ben", "Cleo"], seed=1)
    hang = engine_table(
        "hf02", "hang-four", ["Ben", "Cleo"], seed=2, entries=6, start=T0 + dt.timedelta(days=1)
    )
    hang["log"].append(
        {**hang["log"][-1], "seq": 7, "undone": True, "created": iso(T0 + dt.timedelta(days=2))}
    )
    hang["version"] = 8
    names = ["Ann", "Ben", "Cleo", "Dora"]
    players = [{"name": name, "created": iso(T0 - dt.timedelta(days=30 - i))} for i, name in enumerate(names)]
    return {"format": "table-companion-history", "version": 1, "players": players, "tables": [dogo, hang]}


def play_some(table: Table, entries: int, seed: int) -> Table:
    engine = registry.get(table.game)
    rng = random.Random(seed)
    for _ in range(entries):
        services.play_action(table.id, engine.sample_action(table.snapshot, rng), table.version)
        table.refresh_from_db()
    return table


@pytest.fixture
def history():
    """All four games played out through the services (two with undone entries), a table in
    progress, an abandoned one, a player without tables, and one table's details filled in."""
    dogo = play_out("dogo-dash", ["Ann", "Ben", "Cleo"], seed=1, undo_every=5)
    play_out("summer-suns", ["Ann", "Dora", "Ed", "Fay"], seed=2)
    play_out("hang-four", ["Ben", "Dora", "Gus", "Hal"], seed=3, undo_every=9)
    play_out("surfs-up", ["Ann", "Ben", "Cleo", "Dora", "Ed"], seed=4, options={"shared_goals": True})
    Table.objects.filter(pk=dogo.pk).update(
        place="Ann's kitchen", comments="Rematch, café", duration_minutes=42
    )
    play_some(services.create_table("hang-four", ["Ivy", "Ann", "Ben"], {}), 5, seed=5)
    abandoned = play_some(services.create_table("dogo-dash", ["Jo", "Ben"], {"catnip": True}), 2, seed=6)
    services.abandon(abandoned.id, abandoned.version)
    Player.objects.create(name="Kim", group=home())


# ---------------------------------------------------------------------------------------------
# Round trips


def test_export_import_round_trip_rebuilds_tables_logs_and_results(history):
    first = export_history(home())
    results = seat_results()
    snapshots = dict(Table.objects.values_list("id", "snapshot"))
    tables = first["tables"]
    assert [table["status"] for table in tables].count("finished") == 4
    assert sum(table["abandoned"] is not None for table in tables) == 1
    assert any(entry["undone"] for table in tables for entry in table["log"])
    text = exchange.dumps(first)
    for secret_or_derived in ("token", "snapshot", "idempotency_key", "response"):
        assert f'"{secret_or_derived}"' not in text

    flush()
    assert counts() == {"Player": 0, "Table": 0, "Seat": 0, "Event": 0}
    summary = import_history(home(), exchange.parse_json(text.encode()))

    assert summary == ImportSummary(tables_added=6, tables_already_there=0, players_added=11)
    assert export_history(home()) == first
    assert seat_results() == results
    assert dict(Table.objects.values_list("id", "snapshot")) == snapshots
    for table in Table.objects.prefetch_related("events"):
        live = [event.action for event in table.events.all() if not event.undone]
        assert table.snapshot == base.replay(
            registry.get(table.game), table.seats.count(), table.options, live
        )


def test_a_pad_comes_back_as_the_game_it_kept():
    """An export holds a pad's options; the import gives its play back its game (Table.played)."""
    hearts = {"game_name": "Hearts", "bgg_id": 6887, "lowest_wins": True, "target": 100}
    play_out("any-game", ["Ann", "Ben", "Cleo"], seed=8, options=hearts)
    first = export_history(home())
    results = seat_results()
    flush()
    import_history(home(), exchange.parse_json(exchange.dumps(first).encode()))
    table = Table.objects.get()
    assert (table.title, table.played, table.game_name) == ("Hearts", "any-game:hearts", "Hearts")
    assert export_history(home()) == first and seat_results() == results


def test_a_file_in_export_form_comes_back_unchanged():
    data = small_file()
    assert import_history(home(), copy.deepcopy(data)) == ImportSummary(2, 0, 4)
    assert export_history(home()) == data
    finished = Seat.objects.filter(table_id="dd01")
    assert all(seat.score is not None for seat in finished) and any(seat.won for seat in finished)
    assert not Seat.objects.filter(table_id="hf02", score__isnull=False).exists()


def test_other_time_zones_are_stored_in_utc():
    data = small_file()
    data["tables"][0]["created"] = "2024-05-01T20:00:00+02:00"
    import_history(home(), data)
    assert Table.objects.get(pk="dd01").created == T0
    assert export_history(home())["tables"][0]["created"] == "2024-05-01T18:00:00+00:00"


def test_import_into_a_used_database_adds_tables_and_matches_players_ignoring_case(history):
    data = json.loads(exchange.dumps(export_history(home())))
    flush()
    own = play_out("dogo-dash", ["ANN", "ben", "Zoe"], seed=9)
    own_entry = exchange.table_entry(own)
    ann_created = Player.objects.get(name="ANN").created

    summary = import_history(home(), data)

    assert summary == ImportSummary(tables_added=6, tables_already_there=0, players_added=9)
    assert Player.objects.count() == 12  # the file's 11 and Zoe
    assert Player.objects.get(name__iexact="ann").name == "ANN"
    assert Player.objects.get(name="ANN").created == ann_created
    assert exchange.table_entry(Table.objects.get(pk=own.pk)) == own_entry
    imported = {table["id"]: table for table in export_history(home())["tables"]}
    first_dogo = data["tables"][0]
    assert imported[first_dogo["id"]]["players"] == ["ANN", "ben", "Cleo"]
    assert {**imported[first_dogo["id"]], "players": first_dogo["players"]} == first_dogo

    before = counts()
    assert import_history(home(), data) == ImportSummary(
        tables_added=0, tables_already_there=6, players_added=0
    )
    assert counts() == before


def test_importing_the_same_file_twice_adds_nothing_the_second_time():
    assert import_history(home(), small_file()) == ImportSummary(2, 0, 4)
    before = counts()
    assert import_history(home(), small_file()) == ImportSummary(0, 2, 0)
    assert counts() == before


def test_a_table_already_here_with_other_content_refuses_the_whole_file():
    import_history(home(), small_file())
    before, first = counts(), export_history(home())
    data = small_file()
    data["players"].append({"name": "Eve", "created": iso(T0)})
    data["tables"].insert(0, engine_table("new1", "dogo-dash", ["Eve", "Ann"], seed=3))
    data["tables"][2]["comments"] = "changed"
    with pytest.raises(ImportRefused) as refused:
        import_history(home(), data)
    assert refused.value.message == "Table 3 (id 'hf02'): a different table with id 'hf02' is already here."
    assert counts() == before and export_history(home()) == first


# ---------------------------------------------------------------------------------------------
# Refused files: a message that names the problem, and nothing written


def _table(data, number):
    return data["tables"][number - 1]


def _parent(data, path):
    for key in path[:-1]:
        data = data[key]
    return data


def _set(path, value):
    def change(data):
        _parent(data, path)[path[-1]] = value
        return data

    return change


def _drop(path):
    def change(data):
        del _parent(data, path)[path[-1]]
        return data

    return change


def _finish_without_finishing(data):
    dogo = _table(data, 1)
    dogo["log"].pop()
    return data


def _duplicate_seq(data):
    _table(data, 2)["log"][2]["seq"] = 2
    return data


def _extra_entry_after_the_end(data):
    dogo = _table(data, 1)
    dogo["log"].append({**dogo["log"][0], "seq": 99})
    return data


BROKEN = {
    "top level list": (lambda d: [d], "The file must hold a JSON object, not a list."),
    "top level null": (lambda d: None, "The file must hold a JSON object, not null."),
    "wrong format tag": (
        _set(["format"], "something-else"),
        "This is not a Table Companion history file ('format' must be 'table-companion-history').",
    ),
    "version 2": (_set(["version"], 2), "History file version 2 is not supported (this app reads 1)."),
    "version true": (
        _set(["version"], True),
        "History file version true is not supported (this app reads 1).",
    ),
    "unknown top field": (_set(["extra"], 1), "The file: unknown field 'extra'."),
    "tables not a list": (_set(["tables"], {"a": 1}), "The file: 'tables' must be a list, not an object."),
    "player entry a string": (_set(["players", 0], "Ann"), "Player 1: must be an object, not a string."),
    "player name null": (_set(["players", 1, "name"], None), "Player 2: a name must be a string, not null."),
    "player name too long": (
        _set(["players", 1, "name"], "B" * 41),
        "Player 2: A name has at most 40 characters. ('BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB')",
    ),
    "player twice ignoring case": (
        _set(["players", 3, "name"], "aNN"),
        "Player 4: 'aNN' is the same person as 'Ann' (names ignore case).",
    ),
    "player created missing": (
        _drop(["players", 0, "created"]),
        "Player 1: 'created' missing.",
    ),
    "table entry a number": (_set(["tables", 1], 7), "Table 2: must be an object, not a number."),
    "table id with a slash": (
        _set(["tables", 1, "id"], "../etc"),
        "Table 2: 'id' must be 1 to 16 letters, digits, '-' or '_', not '../etc'.",
    ),
    "table id too long": (
        _set(["tables", 1, "id"], "a" * 17),
        "Table 2: 'id' must be 1 to 16 letters, digits, '-' or '_', not 'aaaaaaaaaaaaaaaaa'.",
    ),
    "two tables with one id": (
        _set(["tables", 1, "id"], "dd01"),
        "Table 2 (id 'dd01'): an earlier table in the file has the same id.",
    ),
    "unknown game": (
        _set(["tables", 1, "game"], "chess"),
        "Table 2 (id 'hf02'): there is no game 'chess' (known: " + ", ".join(registry.GAMES) + ").",
    ),
    "game null": (
        _set(["tables", 1, "game"], None),
        "Table 2 (id 'hf02'): there is no game null (known: " + ", ".join(registry.GAMES) + ").",
    ),
    "wrong player count": (
        _set(["tables", 1, "players"], ["Ben"]),
        "Table 2 (id 'hf02'): Hang Four is for 2 to 4 players, not 1.",
    ),
    "players not a list": (
        _set(["tables", 1, "players"], "Ben, Cleo"),
        "Table 2 (id 'hf02'): 'players' must be a list, not a string.",
    ),
    "one name twice at a table": (
        _set(["tables", 1, "players"], ["Ben", "ben"]),
        "Table 2 (id 'hf02'): 'ben' (player 2) already sits at the table as player 1 (names ignore case).",
    ),
    "control character in a name": (
        _set(["tables", 1, "players", 1], "Cl\x07eo"),
        "Table 2 (id 'hf02'), player 2: "
        "A name cannot hold invisible characters or ones that turn the text around (U+0007). ('Cl\\x07eo')",
    ),
    "bad option type": (
        _set(["tables", 0, "options", "catnip"], "yes"),
        "Table 1 (id 'dd01'): Option 'catnip' must be true or false, not \"yes\".",
    ),
    "unknown option": (
        _set(["tables", 0, "options", "speed"], 3),
        "Table 1 (id 'dd01'): Dogo Dash has no option 'speed' (known: catnip, dogo_dash).",
    ),
    "options null": (
        _set(["tables", 0, "options"], None),
        "Table 1 (id 'dd01'): 'options' must be an object, not null.",
    ),
    "entry the rules refuse": (
        _set(["tables", 1, "log", 0, "action"], {"type": "buy", "seat": 0}),
        "Table 2 (id 'hf02'): log entry 1 (seq 1) is refused by the rules: A buy needs 'cards'...",
    ),
    "entry of an unknown type": (
        _set(["tables", 1, "log", 1, "action"], {"type": "teleport"}),
        "Table 2 (id 'hf02'): log entry 2 (seq 2) is refused by the rules: "
        'Hang Four has no action "teleport"...',
    ),
    "entry after the game ended": (
        _extra_entry_after_the_end,
        "Table 1 (id 'dd01'): log entry 20 (seq 99) is refused by the rules: "
        "The game is over: no more entries can be made (DD-7).",
    ),
    "finished but the log does not finish": (
        _finish_without_finishing,
        "Table 1 (id 'dd01'): the file says the table is finished, but its log does not finish the game.",
    ),
    "in progress but the log finishes": (
        lambda d: _set(["tables", 0, "finished"], None)(_set(["tables", 0, "status"], "in_progress")(d)),
        "Table 1 (id 'dd01'): the file says the table is in progress, but its log finishes the game.",
    ),
    "finished without a date": (
        _set(["tables", 0, "finished"], None),
        "Table 1 (id 'dd01'): a finished table needs its 'finished' date.",
    ),
    "in progress with a finished date": (
        _set(["tables", 1, "finished"], "2024-05-03T10:00:00+00:00"),
        "Table 2 (id 'hf02'): a table in progress has no 'finished' date.",
    ),
    "finished and abandoned": (
        _set(["tables", 0, "abandoned"], "2024-05-03T10:00:00+00:00"),
        "Table 1 (id 'dd01'): a finished table cannot be abandoned.",
    ),
    "unknown status": (
        _set(["tables", 1, "status"], "paused"),
        "Table 2 (id 'hf02'): 'status' must be one of in_progress, finished, not 'paused'.",
    ),
    "bad datetime": (
        _set(["tables", 1, "created"], "yesterday"),
        "Table 2 (id 'hf02'): 'created' is not an ISO 8601 date and time: 'yesterday'.",
    ),
    "naive datetime": (
        _set(["tables", 1, "log", 0, "created"], "2024-05-02T18:01:00"),
        "Table 2 (id 'hf02'), log entry 1: 'created' has no time zone: '2024-05-02T18:01:00'.",
    ),
    "datetime out of range": (
        _set(["players", 0, "created"], "0001-01-01T00:00:00+05:00"),
        "Player 1: 'created' is out of range: '0001-01-01T00:00:00+05:00'.",
    ),
    "datetime on the calendar's last day": (  # a zone ahead of UTC could not say its night: a 500
        _set(["players", 0, "created"], "9999-12-31T12:00:00+00:00"),
        "Player 1: 'created' is out of range: '9999-12-31T12:00:00+00:00'.",
    ),
    "datetime a number": (
        _set(["tables", 1, "abandoned"], 1714586400),
        "Table 2 (id 'hf02'): 'abandoned' must be a date and time as a string, not a number.",
    ),
    "duplicate seq": (
        _duplicate_seq,
        "Table 2 (id 'hf02'), log entry 3: seq 2 is used by another entry too.",
    ),
    "seq zero": (
        _set(["tables", 1, "log", 0, "seq"], 0),
        "Table 2 (id 'hf02'), log entry 1: 'seq' must be a whole number from 1 to 2147483647, not 0.",
    ),
    "seq huge": (
        _set(["tables", 1, "log", 0, "seq"], 10**40),
        "Table 2 (id 'hf02'), log entry 1: 'seq' must be a whole number from 1 to 2147483647, "
        "not a very large number.",
    ),
    "version a float": (
        _set(["tables", 1, "version"], 8.0),
        "Table 2 (id 'hf02'): 'version' must be a whole number from 0 to 2147483647, not 8.0.",
    ),
    "negative duration": (
        _set(["tables", 1, "duration_minutes"], -5),
        "Table 2 (id 'hf02'): 'duration_minutes' must be a whole number from 0 to 2147483647, not -5.",
    ),
    "NUL in a log text": (
        _set(["tables", 1, "log", 0, "text"], "Ben rolled\x00"),
        "Table 2 (id 'hf02'), log entry 1: 'text' holds a NUL character or broken Unicode.",
    ),
    "NUL in an action": (
        _set(["tables", 1, "log", 0, "action", "note"], "a\x00b"),
        "Table 2 (id 'hf02'), log entry 1: "
        "'action': Text in the action holds a NUL character or broken Unicode.",
    ),
    "broken Unicode in comments": (
        _set(["tables", 1, "comments"], "fun \ud800"),
        "Table 2 (id 'hf02'): 'comments' holds a NUL character or broken Unicode.",
    ),
    "place too long": (
        _set(["tables", 1, "place"], "x" * 81),
        "Table 2 (id 'hf02'): 'place' has more than 80 characters.",
    ),
    "NaN in an action": (
        _set(["tables", 1, "log", 0, "action", "value"], float("nan")),
        "Table 2 (id 'hf02'), log entry 1: 'action' holds nan, which is not a JSON number.",
    ),
    "action a list": (
        _set(["tables", 1, "log", 0, "action"], ["roll", 6]),
        "Table 2 (id 'hf02'), log entry 1: 'action' must be an object, not a list.",
    ),
    "undone a string": (
        _set(["tables", 1, "log", 0, "undone"], "no"),
        "Table 2 (id 'hf02'), log entry 1: 'undone' must be true or false, not a string.",
    ),
    "log null": (_set(["tables", 1, "log"], None), "Table 2 (id 'hf02'): 'log' must be a list, not null."),
    "log entry without text": (
        _drop(["tables", 1, "log", 0, "text"]),
        "Table 2 (id 'hf02'), log entry 1: 'text' missing.",
    ),
    "log entry a string": (
        _set(["tables", 1, "log", 3], "Ben rolled a 4"),
        "Table 2 (id 'hf02'), log entry 4: must be an object, not a string.",
    ),
    "a field too many": (
        _set(["tables", 1, "token"], "secret"),
        "Table 2 (id 'hf02'): unknown field 'token'.",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_file_is_refused_with_a_message_and_nothing_written(case):
    services.create_table("dogo-dash", ["ann", "Zed"], {})  # a database already in use
    before = counts()
    breaks, message = BROKEN[case]
    with pytest.raises(ImportRefused) as refused:
        import_history(home(), breaks(small_file()))
    if message.endswith("..."):  # the rest is the engine's own sentence
        assert refused.value.message.startswith(message.removesuffix("...")), refused.value.message
    else:
        assert refused.value.message == message
    assert counts() == before


def test_a_later_broken_table_imports_nothing_of_the_good_ones_before_it():
    data = small_file()
    data["tables"].insert(0, engine_table("ok1", "surfs-up", ["Ann", "Ben"], seed=7))
    data["tables"].append(engine_table("bad", "hang-four", ["Ann", "Ben"], seed=8, entries=3))
    data["tables"][-1]["log"][2]["action"] = {"type": "teleport"}
    with pytest.raises(ImportRefused, match=r"^Table 4 \(id 'bad'\): log entry 3 \(seq 3\)"):
        import_history(home(), data)
    assert counts() == {"Player": 0, "Table": 0, "Seat": 0, "Event": 0}


def test_a_summer_suns_table_with_an_unknown_sheet_is_refused():
    data = small_file()
    data["tables"][1] = {**engine_table("ss1", "summer-suns", ["Ann"], seed=1, entries=2), "log": []}
    data["tables"][1].update(version=0, status="in_progress", finished=None, options={"sheet": "moon"})
    with pytest.raises(
        ImportRefused, match=r"^Table 2 \(id 'ss1'\): the options are refused: There is no sheet"
    ):
        import_history(home(), data)
    assert counts()["Table"] == 0


def _paths(value, prefix=()):
    """Every place in a JSON document, as the keys that lead there."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats()
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
PATHS = [path for path in _paths(small_file()) if path]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk=JUNK)
def test_junk_of_any_shape_is_refused(junk):
    with pytest.raises(ImportRefused):
        import_history(home(), junk)
    assert not Table.objects.exists()


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(PATHS), junk=JUNK, drop=st.booleans())
def test_junk_anywhere_in_a_good_file_is_refused_or_imported_never_a_crash(path, junk, drop):
    data = small_file()
    target = _parent(data, path)
    if drop and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = junk
    before = counts()
    try:
        import_history(home(), data)
    except ImportRefused:
        assert counts() == before


# ---------------------------------------------------------------------------------------------
# Plays CSV


def read_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def plays_csv(group=None) -> str:
    stream = io.StringIO()
    write_plays_csv(stream, group or home())
    return stream.getvalue()


def test_competition_ranks_share_a_rank_and_skip_the_next():
    assert competition_ranks([10, 12, 12, 3]) == [3, 1, 1, 4]
    assert competition_ranks([5, 5, 5]) == [1, 1, 1]
    assert competition_ranks([7, None]) == [1, None]


def test_ranks_agree_with_the_wins_the_rules_decided():
    """Surf's Up breaks a tie on complete Surf Dogs by sand dollars (SU-7): the winner ranks 1."""
    assert competition_ranks([3, 3], won=[False, True]) == [2, 1]
    assert competition_ranks([3, 3, 3, 1], won=[True, False, False, False]) == [1, 2, 2, 4]
    assert competition_ranks([12, 12, 10, 3], won=[True, True, False, False]) == [1, 1, 3, 4]
    assert competition_ranks([5, 5], won=[True, True]) == [1, 1]
    assert competition_ranks([9, None], won=[True, False]) == [1, None]


def test_the_plays_csv_has_one_row_per_seat_per_finished_play():
    may_first = dt.datetime(2024, 5, 1, 20, 0, tzinfo=dt.UTC)
    later = finished_play(
        "hang-four",
        [("Ben", 10, True), ("Ann", 10, True)],
        finished=may_first + dt.timedelta(days=1),
        minutes=47,
    )
    Table.objects.filter(pk=later.pk).update(duration_minutes=55, comments='Tied, "again"')
    earlier = finished_play(
        "surfs-up",
        [("Ann", 9, False), ("Ben", 12, True), ("Cleo", 12, False), ("Dora", 3, False)],
        finished=may_first,
        minutes=30,
        place="Club",
    )
    # Lengths are rounded to the minute: a live entry 29 s after the last one leaves 30; an undone
    # entry much later does not count at all.
    Event.objects.create(table=earlier, seq=3, action={}, created=may_first + dt.timedelta(seconds=29))
    Event.objects.create(
        table=earlier, seq=4, action={}, undone=True, created=may_first + dt.timedelta(hours=2)
    )
    in_progress = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    services.abandon(in_progress.id, in_progress.version)
    services.create_table("dogo-dash", ["Ann", "Ben"], {})

    e, lt = earlier.id, later.id
    rows = read_csv(plays_csv())
    # No teams, roles or imported plays here (issue 29's columns, at the end): blank.
    assert rows[0][14:] == ["team", "role", "source"] and {tuple(row[14:]) for row in rows[1:]} == {
        ("", "", "")
    }
    assert [row[:14] for row in rows] == [
        list(COLUMNS)[:14],
        [e, "surfs-up", "Surf's Up!", "2024-05-01T20:00:00+00:00", "Club", "30", "4", "1", "true", "Ann", "9"]
        + ["false", "3", ""],
        [
            e,
            "surfs-up",
            "Surf's Up!",
            "2024-05-01T20:00:00+00:00",
            "Club",
            "30",
            "4",
            "2",
            "false",
            "Ben",
            "12",
        ]
        + ["true", "1", ""],
        [
            e,
            "surfs-up",
            "Surf's Up!",
            "2024-05-01T20:00:00+00:00",
            "Club",
            "30",
            "4",
            "3",
            "false",
            "Cleo",
            "12",
        ]
        + ["false", "2", ""],  # the same points as Ben, who won on the rules' tie-break
        [
            e,
            "surfs-up",
            "Surf's Up!",
            "2024-05-01T20:00:00+00:00",
            "Club",
            "30",
            "4",
            "4",
            "false",
            "Dora",
            "3",
        ]
        + ["false", "4", ""],
        [lt, "hang-four", "Hang Four", "2024-05-02T20:00:00+00:00", "", "55", "2", "1", "true", "Ben", "10"]
        + ["true", "1", 'Tied, "again"'],
        [lt, "hang-four", "Hang Four", "2024-05-02T20:00:00+00:00", "", "55", "2", "2", "false", "Ann", "10"]
        + ["true", "1", 'Tied, "again"'],
    ]


def test_the_plays_csv_of_an_empty_history_is_its_header():
    assert plays_csv() == ",".join(COLUMNS) + "\r\n"


def test_the_plays_csv_reads_the_log_lengths_in_one_query(django_assert_num_queries):
    for day in range(3):
        finished_play(
            "dogo-dash", [("Ann", 3, True), ("Ben", 1, False)], finished=T0 + dt.timedelta(days=day)
        )
    group = home()
    with django_assert_num_queries(2):  # the tables with their lengths, then their seats
        assert len(read_csv(plays_csv(group))) == 7


# ---------------------------------------------------------------------------------------------
# Management commands


def test_export_and_import_commands_round_trip_through_a_file(tmp_path):
    import_history(home(), small_file())
    first = export_history(home())
    path = tmp_path / "history.json"
    call_command("export_history", output=str(path))
    flush()
    out = io.StringIO()
    call_command("import_history", str(path), stdout=out)
    assert out.getvalue() == "Imported 2 tables and 4 new players.\n"
    assert export_history(home()) == first


def test_export_command_writes_json_to_standard_output_by_default_and_csv_on_request(tmp_path):
    import_history(home(), small_file())
    out = io.StringIO()
    call_command("export_history", stdout=out)
    assert json.loads(out.getvalue()) == export_history(home())
    out = io.StringIO()
    call_command("export_history", format="csv", stdout=out)
    assert out.getvalue() == plays_csv()
    path = tmp_path / "plays.csv"
    call_command("export_history", "--format", "csv", "--output", str(path))
    assert path.read_bytes().decode() == plays_csv()


def test_import_command_reads_standard_input():
    out = io.StringIO()
    call_command("import_history", "-", stdin=io.StringIO(json.dumps(small_file())), stdout=out)
    assert out.getvalue().startswith("Imported 2 tables")
    assert out.getvalue().endswith("\n")
    out = io.StringIO()
    call_command("import_history", "-", stdin=io.BytesIO(json.dumps(small_file()).encode()), stdout=out)
    assert (
        out.getvalue()
        == "Imported 0 tables and 0 new players. Already here and left as they were: 2 tables.\n"
    )


def test_import_command_refuses_a_broken_file_with_its_message(tmp_path):
    data = small_file()
    data["tables"][1]["players"] = ["Ben"]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    with pytest.raises(
        CommandError, match=r"^Table 2 \(id 'hf02'\): Hang Four is for 2 to 4 players, not 1\.$"
    ):
        call_command("import_history", str(path))
    path.write_bytes(b'{"format": ')
    with pytest.raises(CommandError, match="^The file is not valid JSON: "):
        call_command("import_history", str(path))
    with pytest.raises(CommandError, match="^Cannot read .*missing.json"):
        call_command("import_history", str(tmp_path / "missing.json"))
    assert counts()["Table"] == 0


# ---------------------------------------------------------------------------------------------
# Pages


pages = pytest.mark.urls("tests.history.exchange_urls")


@pytest.fixture
def member(client):
    """A phone that opened the open default group's member link, which an import needs (issue 28)."""
    group = home()
    assert client.get(reverse("groups:join", args=[group.pk, group.token])).status_code == 302
    return client


def upload(content: bytes, name: str = "history.json") -> dict:
    return {"file": SimpleUploadedFile(name, content, content_type="application/json")}


@pages
def test_the_json_download(client):
    import_history(home(), small_file())
    response = client.get(reverse("history:export_json", args=["default"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="table-companion-game-night.json"'
    assert json.loads(response.content) == export_history(home())
    assert client.post(reverse("history:export_json", args=["default"])).status_code == 405


@pages
def test_the_csv_download(client):
    finished_play("dogo-dash", [("Ann", 3, True), ("Ben", 1, False)])
    response = client.get(reverse("history:export_csv", args=["default"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="table-companion-game-night-plays.csv"'
    rows = read_csv(response.content.decode())
    assert rows[0] == list(COLUMNS)
    assert [row[9] for row in rows[1:]] == ["Ann", "Ben"]


@pages
def test_the_import_page_shows_a_file_form(member):
    response = member.get(reverse("history:import", args=["default"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'enctype="multipart/form-data"' in html
    assert 'type="file"' in html and 'name="file"' in html


@pages
def test_importing_a_good_file_redirects_with_a_summary(member):
    response = member.post(
        reverse("history:import", args=["default"]), upload(exchange.dumps(small_file()).encode())
    )
    assert response.status_code == 302
    assert response["Location"] == "/g/default/history/"
    assert set(Table.objects.values_list("id", flat=True)) == {"dd01", "hf02"}
    assert [str(message) for message in get_messages(response.wsgi_request)] == [
        "Imported 2 tables and 4 new players."
    ]


@pages
@pytest.mark.parametrize(
    "content, message",
    [
        (b'{"format": "table-companion-history", ', "The file is not valid JSON: "),
        ("{}".encode("utf-16"), "The file is not UTF-8 text."),
        (b'{"value": NaN}', "The file is not valid JSON: NaN is not a JSON number"),
        (b"[" * 100_000, "The file is nested too deeply to be a history file."),
        (b'{"format": "table-companion-history", "version": 2}', "History file version 2 is not supported"),
    ],
)
def test_importing_a_bad_file_shows_the_message_and_writes_nothing(member, content, message):
    services.create_table("dogo-dash", ["Ann", "Ben"], {})
    before = counts()
    response = member.post(reverse("history:import", args=["default"]), upload(content))
    assert response.status_code == 400
    html = response.content.decode()
    assert "alert-danger" in html and "Nothing was imported." in html
    assert message.replace('"', "&quot;") in html
    assert counts() == before


@pages
def test_importing_a_refused_file_names_the_table(member):
    data = small_file()
    data["tables"][1]["game"] = "chess"
    response = member.post(reverse("history:import", args=["default"]), upload(json.dumps(data).encode()))
    assert response.status_code == 400
    assert "Table 2 (id &#x27;hf02&#x27;): there is no game &#x27;chess&#x27;" in response.content.decode()
    assert counts()["Table"] == 0


@pages
def test_a_file_over_the_size_limit_is_refused_unread(member, settings):
    settings.MAX_UPLOAD_BYTES = 100 * 1024
    response = member.post(reverse("history:import", args=["default"]), upload(b" " * (100 * 1024 + 1)))
    assert response.status_code == 400
    assert "The file is larger than 100 KB." in response.content.decode()


@pages
def test_a_file_of_several_hundred_kilobytes_imports(member):
    padded = exchange.dumps(small_file()).encode() + b" " * (300 * 1024)
    response = member.post(reverse("history:import", args=["default"]), upload(padded))
    assert response.status_code == 302


@pages
def test_posting_without_a_file_is_refused(member):
    response = member.post(reverse("history:import", args=["default"]), {})
    assert response.status_code == 400
    assert counts()["Table"] == 0


# --- Bounds of an import (issue 28) --------------------------------------------------------------


@pages
def test_the_open_group_takes_a_history_only_through_its_member_link(client, django_user_model):
    path = reverse("history:import", args=["default"])
    refused = client.post(path, upload(exchange.dumps(small_file()).encode()))
    assert refused.status_code == 403
    assert "comes in only through its member link" in refused.content.decode()
    assert Table.objects.count() == 0 and client.get(path).status_code == 403
    # A signed-in account (a private deployment) may, as a phone that opened the member link may.
    client.force_login(django_user_model.objects.create_user("ann", password="a long passphrase"))
    assert client.post(path, upload(exchange.dumps(small_file()).encode())).status_code == 302
    assert Table.objects.count() == 2


def test_a_file_with_more_entries_than_one_import_takes_is_refused_before_any_replay():
    data = small_file()
    entries = sum(len(table["log"]) for table in data["tables"])
    with pytest.raises(ImportRefused) as refused:
        import_history(home(), data, max_entries=entries - 1)
    assert refused.value.message == (
        f"The file holds {entries} log entries, more than the {entries - 1} one import takes here: "
        "import it with manage.py import_history on the server."
    )
    assert Table.objects.count() == 0
    assert import_history(home(), data, max_entries=entries).tables_added == 2


@pages
@pytest.mark.ratelimit
def test_imports_count_against_the_address_like_new_tables(member, settings):
    from django.core.cache import cache

    settings.RATELIMIT_TABLES = "2/h"
    cache.clear()
    path = reverse("history:import", args=["default"])
    statuses = [
        member.post(path, upload(exchange.dumps(small_file()).encode())).status_code for _ in range(3)
    ]
    assert statuses == [302, 302, 429]
    cache.clear()


def test_a_pads_game_name_is_kept_as_text_in_the_spreadsheet():
    """Issue 28: the pad's name went into plays.csv without the formula guard the other columns get."""
    options = {"game_name": '=HYPERLINK("http://x","win")', "mode": "rounds", "target": 10}
    finished_play("any-game", [("Ann", 12, True), ("Ben", 3, False)], options=options)
    rows = read_csv(plays_csv())
    assert [row[2] for row in rows[1:]] == ['\'=HYPERLINK("http://x","win")'] * 2
