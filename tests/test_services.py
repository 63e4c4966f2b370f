"""The table service on the database: the stored snapshot always equals a replay of the live log."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import base, registry
from companion.tables import entry_sql, services
from companion.tables.models import Event, Player, Table

pytestmark = pytest.mark.django_db


def replay_of(table: Table) -> dict:
    engine = registry.get(table.game)
    actions = [event.action for event in table.events.filter(undone=False).order_by("seq")]
    return base.replay(engine, table.seats.count(), table.options, actions)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), undo_every=st.integers(3, 9))
def test_replaying_the_log_gives_the_stored_snapshot(seed, players, undo_every):
    """Random games through the service, with undos sprinkled in, end with snapshot == replay."""
    rng = random.Random(seed)
    engine = registry.get("dogo-dash")
    options = {"catnip": rng.random() < 0.5, "dogo_dash": rng.random() < 0.5}
    table = services.create_table("dogo-dash", [f"P{seed}-{i}" for i in range(players)], options)
    steps = 0
    while table.status != Table.Status.FINISHED and steps < 400:
        steps += 1
        if steps % undo_every == 0 and table.events.filter(undone=False).exists():
            services.undo(table.id, table.version)
        else:
            services.play_action(table.id, engine.sample_action(table.snapshot, rng), table.version)
        table.refresh_from_db()
        assert table.snapshot == replay_of(table)
    assert table.status == Table.Status.FINISHED
    assert table.finished is not None
    # Every entry bumped the version once, and every undo (one per undone entry) once more.
    entries = Event.objects.filter(table=table)
    assert table.version == entries.count() + entries.filter(undone=True).count()


def test_a_refused_action_leaves_no_trace():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    with pytest.raises(base.RuleViolation):
        services.play_action(table.id, {"type": "reveal", "cards": {"0": "cat"}}, 0, "key-1")
    table.refresh_from_db()
    assert table.version == 0 and not table.events.exists()
    # The key was not spent: the corrected entry under the same key applies.
    services.play_action(table.id, {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}, 0, "key-1")
    table.refresh_from_db()
    assert table.version == 1 and table.snapshot["seats"][1]["pile"] == 2


def test_undo_after_the_end_reopens_the_table():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    rng = random.Random(7)
    engine = registry.get("dogo-dash")
    while table.status != Table.Status.FINISHED:
        services.play_action(table.id, engine.sample_action(table.snapshot, rng), table.version)
        table.refresh_from_db()
    services.undo(table.id, table.version)
    table.refresh_from_db()
    assert table.status == Table.Status.IN_PROGRESS and table.finished is None
    assert engine.expect(table.snapshot)["actions"] == ["reveal"]


def test_a_players_own_entry_can_be_taken_back_while_others_stay():
    """In a round everyone writes at once, Ann's mistake should not cost Ben his entry."""
    table = services.create_table("summer-suns", ["Ann", "Ben", "Cleo"], {})
    services.play_action(table.id, {"type": "roll", "dice": [3, 5, 1]}, 0)
    ann = {"type": "place", "seat": 0, "slot_die": 0, "write_die": 1, "slot": "c1t"}
    ben = {"type": "place", "seat": 1, "slot_die": 0, "write_die": 2, "slot": "k2"}
    services.play_action(table.id, ann, 1)
    services.play_action(table.id, ben, 2)
    after = services.undo(table.id, 3, seq=2)
    assert after["version"] == 4
    seats = after["state"]["seats"]
    assert seats[0]["cells"] == {} and seats[0]["placed"] is False and seats[0]["sun"] == []
    assert seats[1]["cells"] == {"k2": 1} and seats[1]["placed"] is True
    assert list(Event.objects.filter(undone=False).values_list("seq", flat=True)) == [1, 3]
    # The roll cannot go while Ben's entry, made with those dice, stays.
    with pytest.raises(base.RuleViolation) as refused:
        services.undo(table.id, 4, seq=1)
    assert refused.value.code == "later_entries_depend"
    with pytest.raises(base.RuleViolation) as gone:
        services.undo(table.id, 4, seq=2)
    assert gone.value.code == "no_such_entry"
    table.refresh_from_db()
    assert table.version == 4 and table.snapshot == after["state"]


def test_a_retried_key_gets_its_first_answer_from_the_compact_store_and_from_older_rows():
    """Issue 13: the answer of a keyed write is kept compact (zlib of its JSON); a retry after the
    table moved on still gets exactly the first answer. Entries written before keep `response`."""
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    first = services.play_action(table.id, {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}, 0, "k1")
    services.play_action(table.id, {"type": "reveal", "cards": {"0": "bear", "1": "dog"}}, 1, "k2")
    event = Event.objects.get(table=table, idempotency_key="k1")
    assert event.response is None and len(event.answer) < len(repr(first)) / 2
    assert (
        services.play_action(table.id, {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}, 0, "k1")
        == first
    )
    Event.objects.filter(pk=event.pk).update(answer=None, response={"version": 1, "legacy": True})
    again = services.play_action(table.id, {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}, 0, "k1")
    assert again == {"version": 1, "legacy": True}
    assert Table.objects.get(pk=table.id).version == 2 and Event.objects.filter(table=table).count() == 2


REVEAL = {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}


def another_write_between_read_and_write(monkeypatch, write):
    """Run `write` (another phone's entry) after this request has read the row and run the rules,
    just before its own compare-and-set: the race the optimistic write path must lose cleanly."""
    real = entry_sql.write_entry
    pending = [write]

    def late(*args, **kwargs):
        while pending:
            pending.pop()()
        return real(*args, **kwargs)

    monkeypatch.setattr(entry_sql, "write_entry", late)


def test_an_entry_that_loses_the_race_is_stale_and_writes_nothing(monkeypatch):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    ann_first = lambda: services.play_action(table.id, REVEAL, 0, "ann")  # noqa: E731
    another_write_between_read_and_write(monkeypatch, ann_first)
    with pytest.raises(services.StaleVersion) as stale:
        services.play_action(table.id, {"type": "reveal", "cards": {"0": "dog", "1": "cat"}}, 0, "ben")
    assert stale.value.table["version"] == 1
    table.refresh_from_db()
    assert table.version == 1 and table.last_seq == 1
    assert list(table.events.values_list("idempotency_key", flat=True)) == ["ann"]
    assert table.snapshot == replay_of(table)


def test_a_retry_that_loses_the_race_to_its_own_first_send_gets_that_answer(monkeypatch):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    first = {}
    another_write_between_read_and_write(
        monkeypatch, lambda: first.update(services.play_action(table.id, REVEAL, 0, "same"))
    )
    retried = services.play_action(table.id, REVEAL, 0, "same")
    assert retried == first and retried["version"] == 1
    assert table.events.count() == 1


def test_a_rename_during_an_entry_is_not_undone_by_it(monkeypatch):
    """A rename clears the names kept on the row; an entry read before it must not write them back."""
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    another_write_between_read_and_write(
        monkeypatch,
        lambda: (Player.objects.filter(name="Ann").update(name="Anna"), Table.objects.update(names=None)),
    )
    services.play_action(table.id, REVEAL, 0)
    table.refresh_from_db()
    assert table.version == 1 and table.names is None
    assert services.seat_names(table) == ["Anna", "Ben"]


def test_the_entry_that_ends_a_game_writes_the_seats_results_with_it():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    engine = registry.get(table.game)
    rng = random.Random(3)
    while table.status != Table.Status.FINISHED:
        services.play_action(table.id, engine.sample_action(table.snapshot, rng), table.version)
        table.refresh_from_db()
    result = engine.result(table.snapshot)
    totals = [score["total"] for score in engine.scores(table.snapshot)]
    seats = list(table.seats.order_by("position"))
    assert [seat.score for seat in seats] == totals
    assert [seat.position for seat in seats if seat.won] == result["winners"]
    assert table.finished is not None
