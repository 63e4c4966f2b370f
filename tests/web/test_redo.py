"""A mistaken undo taken back (issue 43, T-N1): the phone that undid an entry is offered "↷ Redo"
for a few seconds, which enters the same entry again; refused, and nothing changed, once the table
has moved on; never offered to another phone or to a watcher."""

import re

import pytest
from django.test import Client

from companion.tables import services
from companion.tables.models import Table

from .test_pages import HTMX, reveal

pytestmark = pytest.mark.django_db

REDO = re.compile(r'<form class="redo-form[^"]*"[^>]*data-expires-in="10">.*?name="seq" value="(\d+)"', re.S)


@pytest.fixture
def table(client):
    response = client.post("/new/dogo-dash/", {"player_0": "Ann", "player_1": "Ben", "player_2": "Cleo"})
    assert response.status_code == 302
    return Table.objects.get()


def piles(table: Table) -> list[int]:
    table.refresh_from_db()
    return [seat["pile"] for seat in table.snapshot["seats"]]


def test_the_phone_that_undid_an_entry_redoes_it_as_it_was(client, table):
    reveal(client, table, {0: "dog", 1: "cat", 2: "cat"})  # DD-2: Ann's dog takes the pot of 3
    assert piles(table) == [3, 0, 0]
    said = table.events.get().text
    undone = client.post(f"/t/{table.id}/undo/", {"expected_version": 1}, **HTMX).content.decode()
    assert piles(table) == [0, 0, 0] and table.version == 2
    assert REDO.search(undone).group(1) == "1"  # the undone entry's seq
    assert "↷ Redo</button>" in undone
    redone = client.post(f"/t/{table.id}/redo/", {"expected_version": 2, "seq": 1}, **HTMX)
    assert redone.status_code == 200 and redone["Companion-Outcome"] == "applied"
    assert piles(table) == [3, 0, 0] and table.version == 3
    live = list(table.events.filter(undone=False).values_list("seq", "text"))
    assert live == [(2, said)]  # a new entry, the same words; the undone one stays in the log, undone
    assert "Entered again: " in redone.content.decode() and REDO.search(redone.content.decode()) is None


def test_a_redo_after_the_table_moved_on_is_refused_and_changes_nothing(client, table):
    reveal(client, table, {0: "dog", 1: "cat", 2: "cat"})
    client.post(f"/t/{table.id}/undo/", {"expected_version": 1}, **HTMX)
    other = Client()  # another phone enters the round again, differently
    other.get(f"/t/{table.id}/join/{table.token}/")
    table.refresh_from_db()
    reveal(other, table, {0: "cat", 1: "bear", 2: "cat"})  # Ben's bear takes 3
    assert piles(table) == [0, 3, 0] and table.version == 3
    late = client.post(f"/t/{table.id}/redo/", {"expected_version": 2, "seq": 1}, **HTMX)
    assert late["Companion-Outcome"] == "stale"
    assert "Another phone entered" in late.content.decode()
    assert piles(table) == [0, 3, 0] and table.version == 3


def test_only_an_undone_entry_is_redone_and_only_by_a_phone_that_may_write(client, table):
    reveal(client, table, {0: "dog", 1: "cat", 2: "cat"})
    refused = client.post(f"/t/{table.id}/redo/", {"expected_version": 1, "seq": 1}, **HTMX).content.decode()
    assert "There is no undone entry to enter again (T-N1)." in refused  # seq 1 is live
    assert (
        "There is no undone entry"
        in client.post(f"/t/{table.id}/redo/", {"expected_version": 1, "seq": "x"}, **HTMX).content.decode()
    )
    assert piles(table) == [3, 0, 0] and table.version == 1
    services.undo(table.id, 1)
    watcher = Client()
    watcher.get(f"/t/{table.id}/join/{table.view_token}/")
    assert watcher.post(f"/t/{table.id}/redo/", {"expected_version": 2, "seq": 1}).status_code == 403
    assert piles(table) == [0, 0, 0]
    # The offer is the undoing phone's answer only: the table page itself offers no redo.
    assert "↷ Redo" not in client.get(f"/t/{table.id}/").content.decode()


def test_without_htmx_the_page_after_the_redirect_offers_the_redo_once(client, table):
    reveal(client, table, {0: "dog", 1: "cat", 2: "cat"})
    assert client.post(f"/t/{table.id}/undo/", {"expected_version": 1}).status_code == 302
    page = client.get(f"/t/{table.id}/").content.decode()
    assert REDO.search(page).group(1) == "1"
    assert REDO.search(client.get(f"/t/{table.id}/").content.decode()) is None  # a reload: gone
    assert client.post(f"/t/{table.id}/redo/", {"expected_version": 2, "seq": 1}).status_code == 302
    assert piles(table) == [3, 0, 0]
