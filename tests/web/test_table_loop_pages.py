"""The pages' side of the table loop (issue 12), through Django's test client: how each write says
how it went (Companion-Outcome), the idempotency keys of undo, abandon and resume, the address a
made entry leaves, Back restoring a step, and what the table page gives its script."""

import pytest

from companion.tables import services
from companion.tables.models import Event, KeyedWrite, Table

from . import test_pages
from .test_pages import HTMX, reveal

table = test_pages.table  # the fixture: a Dogo Dash table this client may write

pytestmark = pytest.mark.django_db

ANN_CAT = {0: "cat", 1: "cat", 2: "bear"}


def test_each_write_says_how_it_went(client, table):
    applied = reveal(client, table, ANN_CAT, key="k1", **HTMX)
    assert applied["Companion-Outcome"] == "applied"
    assert applied["HX-Replace-Url"] == f"/t/{table.id}/"  # the entry's steps are left behind
    stale = reveal(client, table, ANN_CAT, version=0, key="k2", **HTMX)
    assert stale["Companion-Outcome"] == "stale" and "HX-Replace-Url" not in stale
    refused = reveal(client, table, {0: "cat"}, version=1, key="k3", **HTMX)
    assert refused["Companion-Outcome"] == "refused"
    assert Table.objects.get().version == 1


def test_a_watch_link_write_is_forbidden_and_says_so(client, table):
    other = client.__class__()
    other.get(f"/t/{table.id}/join/{table.view_token}/")
    response = reveal(other, table, ANN_CAT, key="w1", **HTMX)
    assert response.status_code == 403 and response["Companion-Outcome"] == "forbidden"
    assert Event.objects.count() == 0


def test_the_same_entry_sent_twice_is_applied_once_and_answered_as_applied(client, table):
    first = reveal(client, table, ANN_CAT, key="twice", **HTMX)
    again = reveal(client, table, ANN_CAT, version=0, key="twice", **HTMX)  # its answer was lost
    assert first["Companion-Outcome"] == again["Companion-Outcome"] == "applied"
    assert Event.objects.count() == 1 and Table.objects.get().version == 1


@pytest.mark.parametrize("path", ["undo", "abandon"])
def test_undo_and_abandon_sent_twice_apply_once(client, table, path):
    reveal(client, table, ANN_CAT, key="entry")
    reveal(client, table, {0: "dog", 1: "cat", 2: "cat"}, version=1, key="entry-2")
    data = {"expected_version": 2, "idempotency_key": f"{path}-1"}
    first = client.post(f"/t/{table.id}/{path}/", data, **HTMX)
    again = client.post(f"/t/{table.id}/{path}/", data, **HTMX)  # version 2 is stale by now
    assert first["Companion-Outcome"] == again["Companion-Outcome"] == "applied"
    stored = Table.objects.get()
    assert stored.version == 3
    assert Event.objects.filter(undone=True).count() == (1 if path == "undo" else 0)
    assert (stored.abandoned is not None) == (path == "abandon")
    assert KeyedWrite.objects.filter(table=stored, idempotency_key=f"{path}-1").count() == 1


def test_a_resume_sent_twice_applies_once(client, table):
    services.abandon(table.id, 0)
    data = {"expected_version": 1, "idempotency_key": "resume-1"}
    assert client.post(f"/t/{table.id}/resume/", data, **HTMX)["Companion-Outcome"] == "applied"
    assert client.post(f"/t/{table.id}/resume/", data, **HTMX)["Companion-Outcome"] == "applied"
    stored = Table.objects.get()
    assert stored.version == 2 and stored.abandoned is None


def test_a_key_no_database_can_store_is_ignored_not_a_500(client, table):
    response = reveal(client, table, ANN_CAT, key="bad\x00key", **HTMX)
    assert response["Companion-Outcome"] == "applied"
    assert Event.objects.get().idempotency_key is None


def test_back_to_a_step_gets_the_whole_page(client, table):
    step = client.get(f"/t/{table.id}/?card_0=cat", **HTMX)
    assert b"<html" not in step.content  # a step fetched by htmx: the live region only
    restored = client.get(f"/t/{table.id}/?card_0=cat", HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert b"<html" in restored.content  # htmx restoring history wants the whole page


def test_the_table_page_gives_its_script_the_stream_and_the_version(client, table):
    page = client.get(f"/t/{table.id}/").content.decode()
    assert f'data-events="/t/{table.id}/events/?live=1"' in page  # the region itself is pushed
    display = client.get(f"/t/{table.id}/display/").content.decode()
    assert f'data-events="/t/{table.id}/events/"' in display  # the big screen fetches its own
    assert 'data-version="0"' in page and 'hx-trigger="refresh-table"' in page
    assert 'id="connection"' in page and 'id="outbox"' in page
    assert "/static/js/table.js" in page or "js/table." in page
    assert "every 2s" not in page  # the script polls only while the stream is down
