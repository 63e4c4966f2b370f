"""An entry's statements on PostgreSQL (companion/tables/entry_sql.py, issue 13): prepared once per
connection and bound on the server, the same entries and answers as with Django's own cursor."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from companion.tables import row_cache, services
from companion.tables.models import Event, Table

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's"),
]
REVEAL = {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}  # Ben's dog beats Ann's cat (DD-2)
ANN_DOG = {"type": "reveal", "cards": {"0": "dog", "1": "cat"}}


@pytest.fixture(autouse=True)
def nothing_prepared_yet():
    """Start with no prepared statement on the test's connection (psycopg, seeing DEALLOCATE ALL,
    forgets its own list too) and no kept row, which would skip the read."""
    row_cache.clear()
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    yield
    row_cache.clear()


def prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements ORDER BY prepare_time")
        return [row[0] for row in cursor.fetchall()]


def test_an_entry_prepares_its_read_and_its_write_once_per_connection():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    services.play_action(table.id, REVEAL, 0, "first")
    services.play_action(table.id, ANN_DOG, 1, "second")
    statements = prepared_statements()
    assert len(statements) == 2  # the same two for both entries: the second one reused them
    assert statements[0].startswith("SELECT ") and "tables_table" in statements[0]
    assert statements[1].startswith("WITH moved AS (UPDATE ")
    stored = Table.objects.get(pk=table.id)
    assert stored.version == 2 and stored.last_seq == 2
    events = list(Event.objects.filter(table=table).order_by("seq"))
    assert [event.seq for event in events] == [1, 2]
    assert [event.action for event in events] == [REVEAL, ANN_DOG]
    assert [event.idempotency_key for event in events] == ["first", "second"]
    assert [event.undone for event in events] == [False, False]


def test_nulls_and_a_finished_game_bound_on_the_server(django_capture_on_commit_callbacks):
    """NULLs in the INSERT's SELECT list (no idempotency key, no stored answer) and a game played
    to its end, whose seats' results commit with the entry."""
    table = services.create_table("any-game", ["Ann", "Ben"], {"game_name": "Carcassonne"})
    with django_capture_on_commit_callbacks(execute=True):
        services.play_action(table.id, {"type": "score", "points": {"0": 12, "1": 9}}, 0)
        answer = services.play_action(table.id, {"type": "finish"}, 1)
    assert answer["status"] == "finished" and answer["winners"] == [0]
    events = list(Event.objects.filter(table=table).order_by("seq"))
    assert [(event.seq, event.idempotency_key, event.answer) for event in events] == [
        (1, None, None),
        (2, None, None),
    ]
    assert [event.text for event in events] == [
        "Round 1: Ann 12, Ben 9.",
        "The pad is closed after 1 round. Game over: Ann wins with 12.",
    ]
    assert list(table.seats.order_by("position").values_list("score", "won")) == [(12, True), (9, False)]


def test_switched_off_nothing_is_prepared_and_the_entry_is_the_same(settings):
    settings.COMPANION_PREPARED_ENTRIES = False
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    answer = services.play_action(table.id, REVEAL, 0, "first")
    assert prepared_statements() == []
    assert answer["version"] == 1 and Event.objects.get(table=table).action == REVEAL


def test_the_query_log_shows_the_statement_with_its_values():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    with CaptureQueriesContext(connection) as queries:
        services.play_action(table.id, REVEAL, 0, "logged-key")
    logged = [query["sql"] for query in queries.captured_queries]
    assert any(sql.startswith("WITH moved AS") and "'logged-key'" in sql for sql in logged), logged
