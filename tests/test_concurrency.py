"""Two phones at once: real threads with their own database connections, real row locks."""

import json
import threading

import pytest
from django.db import connection, connections
from django.test import Client

from companion.tables.models import Event, Table

pytestmark = pytest.mark.django_db(transaction=True)

REVEAL = {"type": "reveal", "cards": {"0": "cat", "1": "dog", "2": "bear"}}
CLIENTS = 8


def create_table() -> dict:
    body = {"game": "dogo-dash", "players": ["Ann", "Ben", "Cleo"]}
    response = Client().post("/api/v1/tables", json.dumps(body), content_type="application/json")
    return response.json()


def post_at_once(table: dict, bodies: list[dict]) -> list[int]:
    """Each body from its own thread, all released together; returns the status codes."""
    barrier = threading.Barrier(len(bodies))
    statuses = [None] * len(bodies)

    def send(i: int):
        try:
            client = Client()
            barrier.wait()
            response = client.post(
                f"/api/v1/tables/{table['id']}/actions",
                json.dumps(bodies[i]),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {table['token']}",
            )
            statuses[i] = response.status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


def test_same_version_at_once_one_wins_the_others_get_409():
    table = create_table()
    statuses = post_at_once(table, [{"action": REVEAL, "expected_version": 0}] * CLIENTS)
    assert sorted(statuses) == [200] + [409] * (CLIENTS - 1), connection.vendor
    stored = Table.objects.get(pk=table["id"])
    assert stored.version == 1
    assert list(Event.objects.values_list("seq", flat=True)) == [1]
    assert [seat["pile"] for seat in stored.snapshot["seats"]] == [0, 0, 3]


def test_same_idempotency_key_at_once_applies_once():
    table = create_table()
    body = {"action": REVEAL, "expected_version": 0, "idempotency_key": "phone-1-tap-1"}
    statuses = post_at_once(table, [body] * CLIENTS)
    assert statuses == [200] * CLIENTS
    assert Table.objects.get(pk=table["id"]).version == 1
    assert Event.objects.count() == 1
