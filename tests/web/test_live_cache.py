"""The live region rendered once per version and variant, shared by the phones that fetch it
(issue 33, companion/tables/live_cache.py): the same page for each, its own form key and CSRF
token in each, a write from a shared render applied, a new version rendered anew, and what is a
phone's own (the setup guide, a secret note) never shared."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext

from companion.tables import services
from companion.tables.models import Event, Table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
KEY = re.compile(r'name="idempotency_key" value="([^"]*)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


def phone(table: Table, token: str) -> Client:
    """A phone that opened the table's share link, with CSRF checks on as a browser meets them."""
    client = Client(enforce_csrf_checks=True)
    assert client.get(f"/t/{table.id}/join/{token}/").status_code == 302
    return client


def poll(client: Client, table: Table, shown: int):
    answer = client.get(f"/t/{table.id}/poll/?v={shown}", **HTMX)
    assert answer.status_code == 200
    return answer, answer.content.decode()


def played_table(game: str = "dogo-dash", names=("Ann", "Ben", "Cleo")) -> Table:
    table = services.create_table(game, list(names), {})
    cards = {"0": "cat", "1": "dog", "2": "bear"} if game == "dogo-dash" else None
    if cards:
        services.play_action(table.id, {"type": "reveal", "cards": cards}, table.version)
    return Table.objects.get(pk=table.id)


def test_the_phones_of_a_table_share_one_render_each_with_its_own_key_and_token():
    table = played_table()
    ann, ben = phone(table, table.token), phone(table, table.token)
    first, ann_page = poll(ann, table, 0)
    second, ben_page = poll(ben, table, 0)
    assert first.templates and not second.templates  # Ben's answer is Ann's render, not a new one
    assert 'data-version="1"' in ben_page and "Ben" in ben_page
    keys = KEY.findall(ann_page) + KEY.findall(ben_page)
    assert (
        keys
        and len(set(KEY.findall(ann_page))) == 1
        and set(KEY.findall(ann_page)).isdisjoint(KEY.findall(ben_page))
    )
    assert "live-cache" not in ann_page + ben_page  # every placeholder was filled
    same = (KEY, CSRF)
    normal = [page for page in (ann_page, ben_page)]
    for pattern in same:
        normal = [pattern.sub("", page) for page in normal]
    assert normal[0] == normal[1]


def test_a_write_from_a_shared_render_is_applied_with_its_token_and_key():
    table = played_table()
    ann, ben = phone(table, table.token), phone(table, table.token)
    poll(ann, table, 0)
    _answer, page = poll(ben, table, 0)  # the shared render, filled for Ben
    form = {
        "csrfmiddlewaretoken": CSRF.search(page).group(1),
        "idempotency_key": KEY.search(page).group(1),
        "expected_version": 1,
        "card_0": "cat",
        "card_1": "cat",
        "card_2": "dog",
    }
    answer = ben.post(f"/t/{table.id}/act/", form, **HTMX)
    assert answer.status_code == 200 and answer["Companion-Outcome"] == "applied"
    assert Table.objects.get(pk=table.id).version == 2
    # The next version is rendered once, for the write's own answer (issue 45), then shared.
    assert answer.templates
    fresh, page = poll(ann, table, 1)
    again, _ = poll(ben, table, 1)
    assert not fresh.templates and not again.templates and 'data-version="2"' in page
    # The writer got the region every phone of its variant gets, with its own key and token.
    written = answer.content.decode()
    assert CSRF.search(written) and "live-cache" not in written  # the placeholders filled
    assert KEY.search(written).group(1) not in (KEY.search(page).group(1), form["idempotency_key"])
    assert KEY.sub("", CSRF.sub("", written)) == KEY.sub("", CSRF.sub("", page))


def test_a_write_refused_or_confirmed_in_words_is_rendered_for_its_phone():
    """A refusal's message and an undo's words are the writer's alone: not the shared region."""
    table = played_table()
    ann, ben = phone(table, table.token), phone(table, table.token)
    _answer, page = poll(ben, table, 0)
    form = {"csrfmiddlewaretoken": CSRF.search(page).group(1), "expected_version": 1, "card_0": "cat"}
    refused = ben.post(f"/t/{table.id}/act/", form, **HTMX)
    assert refused["Companion-Outcome"] == "refused" and refused.templates
    assert "Ben and Cleo must each reveal a card" in refused.content.decode()  # DD-3, said to Ben
    undone = ben.post(f"/t/{table.id}/undo/", {**form, "expected_version": 1}, **HTMX)
    assert undone["Companion-Outcome"] == "applied" and "Undone" in undone.content.decode()
    _answer, shared = poll(ann, table, 1)
    assert "must each reveal" not in shared and "Undone" not in shared and 'data-version="2"' in shared


def test_what_a_phone_holds_alone_is_rendered_for_it():
    # Before the first entry an edit phone may still show its setup guide (its session's).
    new = services.create_table("hang-four", ["Ann", "Ben"], {})
    ann, ben = phone(new, new.token), phone(new, new.token)
    assert all(poll(client, new, -1)[0].templates for client in (ann, ben))
    # Surf's Up!'s bluebottle values are noted in secret without a new version: never shared.
    surf = services.create_table("surfs-up", ["Ann", "Ben", "Cleo"], {})
    watchers = [phone(surf, surf.view_token), phone(surf, surf.view_token)]
    assert all(poll(client, surf, -1)[0].templates for client in watchers)
    # After an entry: a watch phone and the edit phones are two variants, each rendered once.
    services.play_action(new.id, {"type": "roll", "seat": 0, "face": 1}, 0)
    new.refresh_from_db()
    view = phone(new, new.view_token)
    assert poll(ann, new, 0)[0].templates and not poll(ben, new, 0)[0].templates
    assert poll(view, new, 0)[0].templates


LOG_LINE = re.compile(r'log-number">(\d+)</span>\s*<span class="flex-grow-1">([^<]*)</span>')


def test_each_log_line_is_rendered_once_and_follows_undo_and_language():
    """A region's log lines are kept rendered (live_cache.log_line): the next region renders only
    the new entry's, and an undo or another language never shows a kept line in the wrong place."""
    table = played_table()  # Ann cat, Ben dog, Cleo bear: three cards, no tie
    services.play_action(table.id, {"type": "reveal", "cards": {"0": "cat", "1": "cat", "2": "dog"}}, 1)
    ann = phone(table, table.token)
    _answer, page = poll(ann, table, 0)
    first = LOG_LINE.findall(page)
    assert [number for number, _ in first] == ["2", "1"]
    assert first[0][1].startswith("Ann revealed a cat, Ben a cat and Cleo a dog.")
    rendered = []

    def seen(sender, template, **kwargs):
        rendered.append(template.name)

    template_rendered.connect(seen)
    try:
        cards = {"0": "bear", "1": "dog", "2": "cat"}
        services.play_action(table.id, {"type": "reveal", "cards": cards}, 2)
        _answer, page = poll(ann, table, 2)
    finally:
        template_rendered.disconnect(seen)
    assert rendered.count("tables/_log_entry.html") == 1  # the new entry's line alone
    assert [number for number, _ in LOG_LINE.findall(page)] == ["3", "2", "1"]
    # Undone, the last line goes; the others keep their numbers and words.
    services.undo(table.id, 3)
    _answer, page = poll(ann, table, 3)
    assert LOG_LINE.findall(page) == first
    # The same entries in French are French lines.
    french = phone(table, table.token)
    french.cookies["django_language"] = "fr"
    _answer, page = poll(french, table, 3)
    lines = LOG_LINE.findall(page)
    assert [number for number, _ in lines] == ["2", "1"] and lines != first
    assert lines[0][1].startswith("Ann a révélé un chat, Ben un chat et Cleo un chien.")


def test_the_log_is_read_once_a_version_for_every_variant_of_the_region():
    """The writer's region and the watchers' are two renders of one version: they read the log's
    rows once between them (live_cache.log, issue 45); the next version reads them again, and an
    undone entry is gone from every variant."""
    table = played_table()
    writer, watcher = phone(table, table.token), phone(table, table.view_token)

    def log_reads(*polls) -> tuple[int, list]:
        with CaptureQueriesContext(connection) as queries:
            pages = [poll(client, table, shown)[1] for client, shown in polls]
        reads = [q["sql"] for q in queries if Event._meta.db_table in q["sql"] and "SELECT" in q["sql"]]
        return len(reads), [LOG_LINE.findall(page) for page in pages]

    reads, logs = log_reads((writer, 0), (watcher, 0))
    assert reads == 1 and logs[0] == logs[1] and [number for number, _ in logs[0]] == ["1"]
    services.play_action(table.id, {"type": "reveal", "cards": {"0": "dog", "1": "cat", "2": "bear"}}, 1)
    reads, logs = log_reads((watcher, 1), (writer, 1))
    assert reads == 1 and [number for number, _ in logs[0]] == ["2", "1"] and logs[0] == logs[1]
    services.undo(table.id, 2)
    reads, logs = log_reads((writer, 2), (watcher, 2))
    assert reads == 1 and [number for number, _ in logs[0]] == ["1"] and logs[0] == logs[1]
