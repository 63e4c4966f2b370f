"""companion.asgi in-process: a request's body arrives in parts, a client gone before the end of
its body reaches no view, Django's request_finished runs after each answer, a stream path goes to
Django's own async handler."""

import asyncio
import json

import pytest
from django.core.signals import request_finished
from django.db import connections

from companion import asgi
from companion.tables import fanout
from companion.tables.models import Table

from .servers import run_apart

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def one_page_thread(monkeypatch):
    """The pages on one thread of their own, whose database connection is closed afterwards (an
    open one would keep PostgreSQL from dropping the test database at the end)."""
    pages = asgi.PooledWSGI(asgi.WSGIHandlerWithoutCycles(), 1)
    monkeypatch.setattr(asgi, "pages", pages)
    yield
    pages.pool.submit(connections.close_all).result()
    pages.pool.shutdown()


def call(path: str, parts: list[bytes], disconnect_after: int | None = None, method="POST") -> dict:
    """Run one HTTP request through the ASGI application; its status, headers and body."""
    total = sum(len(part) for part in parts)
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                    (b"content-length", str(total).encode())],
        "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80),
    }  # fmt: skip
    last = len(parts) - 1
    messages = [{"type": "http.request", "body": part, "more_body": i < last} for i, part in enumerate(parts)]
    if disconnect_after is not None:
        messages = [*messages[:disconnect_after], {"type": "http.disconnect"}]
    answer = {"status": None, "body": b""}

    async def receive():
        if messages:
            return messages.pop(0)
        await asyncio.sleep(3600)

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"], answer["headers"] = message["status"], dict(message["headers"])
        else:
            answer["body"] += message.get("body", b"")

    run_apart(asgi.application(scope, receive, send))
    return answer


BODY = json.dumps({"game": "hang-four", "players": ["Ann", "Ben"], "options": {}}).encode()


def test_a_body_in_parts_reaches_the_view_whole_and_request_finished_runs():
    finished = []
    request_finished.connect(lambda **kwargs: finished.append(kwargs), weak=False, dispatch_uid="test-asgi")
    try:
        answer = call("/api/v1/tables", [BODY[:10], BODY[10:30], BODY[30:]])
    finally:
        request_finished.disconnect(dispatch_uid="test-asgi")
    assert answer["status"] == 201, answer["body"]
    assert json.loads(answer["body"])["players"] == [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Ben"}]
    assert Table.objects.count() == 1
    assert len(finished) == 1


def test_a_client_gone_before_the_end_of_its_body_reaches_no_view():
    answer = call("/api/v1/tables", [BODY[:10], BODY[10:30], BODY[30:]], disconnect_after=2)
    assert answer["status"] is None  # nothing was answered: nobody is there
    assert Table.objects.count() == 0


def test_an_unknown_tables_stream_is_answered_by_the_async_handler():
    try:
        answer = call("/t/nothing/events/", [b""], method="GET")
    finally:
        # The stream read the version on the hub's reader thread, whose database connection would
        # keep PostgreSQL from dropping the test database at the end.
        fanout.hub.reader.submit(connections.close_all).result()
    assert answer["status"] == 404
