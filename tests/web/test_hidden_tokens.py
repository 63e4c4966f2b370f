"""A bluebottle token noted in secret (issue 30, 2): the stung surfer taps its value on their own
phone when they take it; nobody else sees it until the end (it is in no page, API answer or log), and
the end asks only for the tokens nobody noted.

The table (2 surfers, SU-1: 2 respect each): the surf after setup holds a bluebottle in the breakzone
(put there by hand, as a table late in the game would have it). Ann reveals 1, Ben 2: Ann revealed the
lowest value and takes a token (SU-9); nobody wins, nobody visits the beach.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from companion.tables import row_cache, services
from companion.tables.models import Table

from .test_surfs_up_pages import BLUE_7, ORANGE_3, PURPLE_5, page, reveal, setup, state, text
from .text import read

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def stung_table(client) -> Table:
    assert client.post("/new/surfs-up/", {"player_0": "Ann", "player_1": "Ben"}).status_code == 302
    table = Table.objects.order_by("-created").first()
    setup(client, table, surf=(ORANGE_3, BLUE_7, PURPLE_5))
    s = state(table)
    s["surf"][0] = {"kind": "bluebottle"}
    table.snapshot = s
    table.save()
    row_cache.forget(table.id)  # written behind the services' back: a row kept after a commit is stale
    reveal(client, table, 1, 2)
    s = state(table)
    assert [seat["stings"] for seat in s["seats"]] == [1, 0] and s["phase"] == "ocean"
    return table


def to_the_end(table) -> None:
    """The end (SU-10) by hand: a surfer down to the rest card, the final entry due."""
    s = state(table)
    s["phase"], s["end_reason"] = "final", "rest_card"
    table.snapshot = s
    table.save()
    row_cache.forget(table.id)


def note(client, table, seat, index, value, htmx=True):
    return client.post(
        f"/t/{table.id}/note/", {"seat": seat, "index": index, "value": value}, **(HTMX if htmx else {})
    )


def without_secrets(html: str, table: Table) -> str:
    """A page as two tables would show it alike: no ids, tokens, form keys or csrf values."""
    html = html.replace(table.id, "ID").replace(table.token, "TOKEN").replace(table.view_token, "VIEW")
    html = re.sub(r'name="(csrfmiddlewaretoken|idempotency_key)" value="[^"]*"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]*"', "", html)
    return re.sub(r"updated \d\d:\d\d(:\d\d)?|\d\d:\d\d", "", html)


def test_a_noted_token_shows_nowhere_until_the_end_and_the_end_asks_only_the_rest():
    tables, pages, answers, clients = [], [], [], []
    for value in (-1, -3):
        client = Client()
        clients.append(client)
        table = stung_table(client)
        html = page(client, table)
        assert "🪼 Ann: look at your token 1 in secret and tap its value on your phone." in html
        assert 'aria-label="Ann\'s token 1: -3">-3</button>' in html
        answer = note(client, table, 0, 0, value)
        assert answer.status_code == 200 and "Noted: nobody sees it until the end." in answer.content.decode()
        table.refresh_from_db()
        # The setup and the reveal, then the note: no entry, but the pages changed (issue 43).
        assert table.version == 3 and table.events.count() == 2
        html = page(client, table)
        assert "Noted in secret: Ann." in html and "look at your token" not in html
        tables.append(table)
        pages.append(without_secrets(html, table))
        answers.append(json.dumps(services.table_json(table)).replace(table.id, "ID"))
    # Ann noted -1 at one table and -3 at the other: the pages and the API answers are the same.
    assert pages[0] == pages[1]
    assert answers[0] == answers[1]
    assert [t.seats.get(position=0).hidden_values for t in tables] == [[-1], [-3]]

    # The end (SU-10) comes by hand here: the final entry asks nothing of Ann's token.
    for client, table, value in zip(clients, tables, (-1, -3), strict=True):
        to_the_end(table)
        html = page(client, table)
        assert "The end: score the game" in html and "1 token noted in secret." in html
        assert 'name="sting_0_0"' not in html and 'name="stings_0" value="1"' in html
        answer = client.post(
            f"/t/{table.id}/act/",
            {"type": "final", "expected_version": table.version, "stings_0": 1, "stings_1": 0},
        )
        assert answer.status_code == 302, text(answer.content.decode())[:500]
        s = state(table)
        assert s["phase"] == "over" and s["seats"][0]["sting_values"] == [value]
        assert services.table_json(table)["scores"][0]["total"] == value  # no wave, no board: the sting
        final = table.events.order_by("-seq").first().text
        assert final == f"Final scores: Ann {value}, Ben 0. Ben wins."  # shown from the end on


def test_the_end_asks_a_token_nobody_noted(client):
    table = stung_table(client)
    to_the_end(table)
    html = page(client, table)
    assert "The end: turn over the bluebottle tokens" in html and 'name="sting_0_0"' in html
    missing = client.post(
        f"/t/{table.id}/act/", {"type": "final", "expected_version": table.version, "stings_0": 1}
    )
    assert missing.status_code == 400 and state(table)["phase"] == "final"
    done = client.post(
        f"/t/{table.id}/act/",
        {"type": "final", "expected_version": table.version, "stings_0": 1, "sting_0_0": -2},
    )
    assert done.status_code == 302 and state(table)["seats"][0]["sting_values"] == [-2]


def test_a_bad_note_is_refused_and_changes_nothing(client):
    table = stung_table(client)
    cases = [
        ((1, 0, -1), 422, "This surfer has no bluebottle token to note (SU-11)."),
        ((0, 1, -1), 422, "This surfer took 1 bluebottle token: there is no other one to note (SU-11)."),
        ((0, 0, 5), 400, "A bluebottle token shows 0, -1, -2, -3 (SU-11)."),
        (
            (0, "x", -1),
            400,
            "&#x27;seat&#x27;, &#x27;index&#x27; and &#x27;value&#x27; must be whole numbers.",
        ),
    ]
    for (seat, index, value), status, message in cases:
        answer = note(client, table, seat, index, value, htmx=False)
        assert answer.status_code == status, (seat, index, value)
        assert message in read(answer.content.decode()), message
    assert [seat.hidden_values for seat in table.seats.all()] == [[], []]
    # The same token sent twice is noted once; a second value replaces the first.
    assert note(client, table, 0, 0, -2).status_code == 200
    assert note(client, table, 0, 0, -2).status_code == 200
    assert table.seats.get(position=0).hidden_values == [-2]
    # A watch-only phone cannot note.
    watcher = client.__class__()
    watcher.get(f"/t/{table.id}/join/{table.view_token}/")
    assert note(watcher, table, 0, 0, 0).status_code == 403
    assert table.seats.get(position=0).hidden_values == [-2]
    assert "tables:note" not in page(watcher, table) and "/note/" not in page(watcher, table)


def test_a_token_taken_back_by_undo_is_asked_no_more(client):
    table = stung_table(client)
    assert note(client, table, 0, 0, -3).status_code == 200
    table.refresh_from_db()
    services.undo(table.id, table.version)  # the bluebottle round is taken back: no token taken
    html = page(client, table)
    assert "look at your token" not in html and "Noted in secret" not in html
    assert state(table)["seats"][0]["stings"] == 0


def test_every_phone_learns_of_a_secret_note_at_once(client):
    """Issue 43, item 4: the other phones kept asking Ann for her token until the next entry. The
    note moves the version, so a phone that polls with the old one gets the new region at once;
    the same note sent twice moves nothing."""
    table = stung_table(client)
    other = Client()  # Ben's phone, on the table's edit link
    other.get(f"/t/{table.id}/join/{table.token}/")
    before = table.version
    assert "Ann: look at your token 1 in secret" in text(page(other, table))
    assert other.get(f"/t/{table.id}/poll/?v={before}").status_code == 204
    note(client, table, 0, 0, -2)
    table.refresh_from_db()
    assert table.version == before + 1
    moved = other.get(f"/t/{table.id}/poll/?v={before}")
    assert moved.status_code == 200
    assert "Noted in secret: Ann." in text(moved.content.decode())
    assert "look at your token" not in moved.content.decode()
    note(client, table, 0, 0, -2)  # sent twice
    table.refresh_from_db()
    assert table.version == before + 1
    assert other.get(f"/t/{table.id}/poll/?v={table.version}").status_code == 204
