"""The rows a worker keeps after its own writes (companion/tables/row_cache.py, issue 13): the next
entry on the table skips its read, and every way the kept row can be out of date (another worker's
write, an undo, a rename, a write rolled back) ends as it would without the cache."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from companion.history import people
from companion.tables import entry_sql, row_cache, services
from companion.tables.models import Event, Player, Table

pytestmark = pytest.mark.django_db
ANN_DOG = {"type": "reveal", "cards": {"0": "dog", "1": "cat"}}  # Ann's dog beats Ben's cat (DD-2)
REVEAL = {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}


@pytest.fixture(autouse=True)
def empty_cache():
    row_cache.clear()
    yield
    row_cache.clear()


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run each write's on-commit callbacks, as a request outside a test transaction does."""

    def write(run):
        with django_capture_on_commit_callbacks(execute=True):
            return run()

    return write


def test_the_next_entry_on_a_table_this_worker_wrote_skips_the_read(committed):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    with CaptureQueriesContext(connection) as first:
        committed(lambda: services.play_action(table.id, REVEAL, 0))
    with CaptureQueriesContext(connection) as second:
        answer = committed(lambda: services.play_action(table.id, ANN_DOG, 1))
    reads = [q["sql"] for q in first.captured_queries if q["sql"].startswith("SELECT")]
    assert len(reads) >= 1
    assert not any(q["sql"].startswith("SELECT") for q in second.captured_queries)
    assert len(second.captured_queries) == len(first.captured_queries) - len(reads)
    assert answer["version"] == 2
    stored = Table.objects.get(pk=table.id)
    assert stored.version == 2 and stored.snapshot == answer["state"]
    assert list(stored.events.values_list("seq", flat=True)) == [1, 2]


def test_a_kept_row_another_worker_moved_writes_nothing_and_answers_stale(committed):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    committed(lambda: services.play_action(table.id, REVEAL, 0))
    # Another worker takes the entry back: its version moves, this worker's kept row does not.
    elsewhere = row_cache._rows.copy()
    services.undo(table.id, 1)
    row_cache._rows.update(elsewhere)
    assert row_cache.get(table.id, 1) is not None
    with pytest.raises(services.StaleVersion) as stale:
        services.play_action(table.id, ANN_DOG, 1)
    assert stale.value.table["version"] == 2
    assert row_cache.get(table.id, 1) is None  # forgotten on the way
    assert Event.objects.filter(table_id=table.id, undone=False).count() == 0


def test_a_retry_of_an_entry_this_worker_wrote_gets_its_first_answer(committed):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    first = committed(lambda: services.play_action(table.id, ANN_DOG, 0, "key-1"))
    again = committed(lambda: services.play_action(table.id, ANN_DOG, 0, "key-1"))
    assert again == first and Table.objects.get(pk=table.id).version == 1


def test_a_write_rolled_back_is_never_kept(committed):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})

    def rolled_back():
        with transaction.atomic():
            services.play_action(table.id, REVEAL, 0)
            raise RuntimeError("the request failed after the write")

    with pytest.raises(RuntimeError):
        committed(rolled_back)
    assert row_cache.get(table.id, 1) is None
    assert Table.objects.get(pk=table.id).version == 0


def test_a_rename_moves_the_version_so_a_kept_row_never_answers_the_old_name(committed):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    committed(lambda: services.play_action(table.id, ANN_DOG, 0))
    committed(lambda: people.rename(Player.objects.get(name="Ann"), "Anna"))
    with pytest.raises(services.StaleVersion) as stale:
        services.play_action(table.id, ANN_DOG, 1)
    assert stale.value.table["version"] == 2
    assert [player["name"] for player in stale.value.table["players"]] == ["Anna", "Ben"]
    answer = committed(lambda: services.play_action(table.id, ANN_DOG, 2))
    assert [player["name"] for player in answer["players"]] == ["Anna", "Ben"]
    assert "Anna" in Event.objects.get(table_id=table.id, seq=2).text


def test_a_view_token_on_a_kept_row_is_refused_before_anything_is_written(committed):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    committed(lambda: services.play_action(table.id, REVEAL, 0))

    def watcher_only(row):
        raise PermissionError(row.view_token)

    with pytest.raises(PermissionError):
        services.play_action(table.id, ANN_DOG, 1, authorize=watcher_only)
    assert Table.objects.get(pk=table.id).version == 1


def test_the_cache_keeps_at_most_its_size(committed, monkeypatch):
    monkeypatch.setattr(row_cache, "SIZE", 2)
    tables = [services.create_table("dogo-dash", ["Ann", "Ben"], {}) for _ in range(3)]
    for table in tables:
        committed(lambda table=table: services.play_action(table.id, REVEAL, 0))
    assert [row_cache.get(t.id, 1) is not None for t in tables] == [False, True, True]
    assert entry_sql.read_table(tables[0].id, None)[0].version == 1


def test_a_key_reused_at_the_version_this_worker_kept_gets_its_first_answer(committed):
    """Found by the API fuzzer on PostgreSQL: a client sent an applied key again with the table's
    current version; the kept row skipped the read that finds repeats, and the key's unique index
    answered a 500. The compare-and-set now also asks that no event carries the key."""
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    first = committed(lambda: services.play_action(table.id, REVEAL, 0, "reused"))
    assert row_cache.get(table.id, 1) is not None
    again = committed(lambda: services.play_action(table.id, ANN_DOG, 1, "reused"))
    assert again == first
    stored = Table.objects.get(pk=table.id)
    assert stored.version == 1 and stored.events.count() == 1


def test_a_key_reused_at_the_current_version_without_a_kept_row_gets_its_first_answer():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    first = services.play_action(table.id, REVEAL, 0, "reused")
    assert services.play_action(table.id, ANN_DOG, 1, "reused") == first
    assert Table.objects.get(pk=table.id).events.count() == 1


def test_an_entry_s_answer_shows_the_row_its_write_committed_without_reading_it(committed):
    """Issue 45: the page's answer to an entry renders the row the write kept, not a read of it."""
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    committed(lambda: services.play_action(table.id, ANN_DOG, 0))
    with CaptureQueriesContext(connection) as reads:
        after = services.after_write(table)
    assert len(reads) == 0 and after.version == 1 and after.snapshot == Table.objects.get().snapshot


def test_after_a_write_kept_nowhere_the_row_is_read_again(committed):
    """A refusal or a stale entry writes nothing; an undo's row is not kept: read as before."""
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    committed(lambda: services.play_action(table.id, ANN_DOG, 0))
    table.refresh_from_db()
    committed(lambda: services.undo(table.id, 1))
    with CaptureQueriesContext(connection) as reads:
        after = services.after_write(table)
    assert len(reads) == 1 and after.version == 2 and after.last_seq == Table.objects.get().last_seq
