"""No cache keeps an answer that holds a token or a group's people (issue 41): every answer that does
not say otherwise is `Cache-Control: private, no-store`; static files stay cacheable."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from companion.groups.models import Group
from companion.tables import services
from tests.history.factories import play_out

pytestmark = pytest.mark.django_db
PRIVATE = "private, no-store"


def test_every_answer_holding_a_token_is_kept_by_no_cache(client):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    group = Group.objects.create(name="Thursday club")
    play_out("dogo-dash", ["Ann", "Ben"], group=group)
    client.get(f"/t/{table.id}/join/{table.token}/")
    client.get(f"/g/{group.pk}/join/{group.token}/")
    made = client.post(
        "/api/v1/tables",
        json.dumps({"game": "dogo-dash", "players": ["Ann", "Ben"]}),
        content_type="application/json",
    )
    answers = {
        "table page": client.get(f"/t/{table.id}/"),
        "play link's QR code": client.get(f"/t/{table.id}/qr/edit.svg"),
        "group page": client.get(f"/g/{group.pk}/"),
        "member link's QR code": client.get(f"/g/{group.pk}/qr/edit.svg"),
        "history export": client.get(f"/g/{group.pk}/history/export.json"),
        "BG Stats export": client.get(f"/g/{group.pk}/history/bgstats.json"),
        "plays as CSV": client.get(f"/g/{group.pk}/history/plays.csv"),
        "API's new table": made,
        "API's new links": client.post(
            f"/api/v1/tables/{table.id}/links", HTTP_AUTHORIZATION=f"Bearer {table.token}"
        ),
    }
    for name, answer in answers.items():
        assert answer.status_code in (200, 201), name
        assert answer["Cache-Control"] == PRIVATE, name


def test_what_says_its_own_caching_keeps_it():
    client = Client()
    assert client.get("/manifest.webmanifest")["Cache-Control"] == "max-age=3600"
    assert client.get("/sw.js")["Cache-Control"] == "no-cache"
