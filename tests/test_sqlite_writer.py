"""SQLite's writers queue on a lock file (issue 33, companion/sqlite_writer): held from a
transaction's start to its end, whatever ends it, and by one connection at a time."""

from __future__ import annotations

import fcntl
import os
import threading

import pytest
from django.db import connection, transaction

from companion.tables import services
from companion.tables.models import Table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's own backend"),
]


def lock_is_free() -> bool:
    """Whether another open of the lock file (another connection's) takes it at once."""
    fd = os.open(f"{connection.settings_dict['NAME']}-writer.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)  # closing lets a lock taken here go
    return True


def test_a_transaction_holds_the_lock_until_it_commits():
    assert lock_is_free()
    with transaction.atomic():
        table = services.create_table("hang-four", ["Ann", "Ben"], {})
        assert not lock_is_free()
    assert lock_is_free() and Table.objects.filter(pk=table.pk).exists()


def test_a_rolled_back_transaction_lets_the_lock_go():
    with pytest.raises(ValueError), transaction.atomic():
        services.create_table("hang-four", ["Ann", "Ben"], {})
        raise ValueError("refused")
    assert lock_is_free() and not Table.objects.exists()


def test_a_connection_closed_in_a_transaction_lets_the_lock_go():
    """A request's thread ends with its transaction open (the worker stops it): Django closes."""
    block = transaction.atomic()
    block.__enter__()
    services.create_table("hang-four", ["Ann", "Ben"], {})
    assert not lock_is_free()
    connection.close()
    assert lock_is_free()
    block.__exit__(RuntimeError, RuntimeError("stopped"), None)
    assert not Table.objects.exists()  # never committed


def test_a_second_writer_waits_for_the_first_to_commit_then_writes():
    """Two threads, each with its own connection, as two phones' requests."""
    order: list[str] = []
    first_began, second_tries = threading.Event(), threading.Event()

    def first():
        with transaction.atomic():
            services.create_table("hang-four", ["Ann", "Ben"], {})
            first_began.set()
            second_tries.wait(5)
            order.append("first commits")
        connection.close()

    def second():
        first_began.wait(5)
        second_tries.set()
        with transaction.atomic():
            order.append("second began")
            services.create_table("dogo-dash", ["Cleo", "Dev"], {})
        connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert order == ["first commits", "second began"]
    assert sorted(Table.objects.values_list("game", flat=True)) == ["dogo-dash", "hang-four"]
