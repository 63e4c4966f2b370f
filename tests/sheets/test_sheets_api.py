"""The score sheets through the JSON API (issue 44, docs/sheets.md): found by name in either
language, read whole, played by POST /api/v1/tables with a sheet's id; bad input a 400 or 404."""

from __future__ import annotations

import json

import pytest

from companion.sheets import library

pytestmark = pytest.mark.django_db


def test_sheets_are_found_by_name_and_named_in_the_callers_language(client):
    found = client.get("/api/v1/sheets", {"q": "aventuriers"}, HTTP_ACCEPT_LANGUAGE="fr").json()
    assert found[0] == {
        "id": "ticket-to-ride",
        "name": "Les Aventuriers du Rail",
        "bgg_id": 9209,
        "kind": "score",
        "names": {"en": "Ticket to Ride", "fr": "Les Aventuriers du Rail"},
        "group": None,  # the library's, not a group's own
    }
    english = client.get("/api/v1/sheets", {"q": "Ticket"}).json()
    assert [sheet["name"] for sheet in english][:2] == ["Ticket to Ride", "Ticket to Ride: Europe"]
    assert len(client.get("/api/v1/sheets").json()) == library.FOUND_MAX


def test_a_sheet_is_read_whole_and_an_unknown_one_is_a_404(client):
    answer = client.get("/api/v1/sheets/wingspan")
    assert answer.status_code == 200
    assert answer.json() == json.loads(library.LIBRARY.joinpath("wingspan.json").read_text())
    missing = client.get("/api/v1/sheets/no-such-game")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "unknown_sheet"
    long = client.get("/api/v1/sheets", {"q": "x" * 81})
    assert long.status_code == 400 and long.json()["error"]["code"] == "bad_query"


def test_a_table_plays_a_sheet_on_the_pad_in_the_callers_language(api, client):
    body = {"sheet": "ticket-to-ride", "players": ["Ann", "Ben"], "options": {"expansions": ["1910"]}}
    answer = client.post("/api/v1/tables", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == 201, answer.content
    table = answer.json()
    assert table["game"] == "any-game"
    options = table["state"]
    assert options["game_name"] == "Les Aventuriers du Rail" and options["bgg_id"] == 9209
    assert options["against"] == ["Destinations ratées"] and options["expansions"] == ["1910"]
    assert options["categories"][0] == "Routes posées"
    assert options["tie_breaker"] == "Destinations réussies (nombre)"
    token = table["token"]
    version = 0
    for category, points in [
        ("Routes posées", {"0": 40, "1": 35}),
        ("Destinations réussies", {"0": 20, "1": 21}),
        ("Destinations ratées", {"0": 6, "1": 0}),
        ("Bonus du plus long chemin", {"0": 10, "1": 0}),
        ("Destinations réussies (nombre)", {"0": 3, "1": 4}),
    ]:
        action = {"type": "score", "category": category, "points": points}
        sent = api.call(
            "post",
            f"/api/v1/tables/{table['id']}/actions",
            {"action": action, "expected_version": version},
            token,
        )
        assert sent.status_code == 200, sent.content
        version = sent.json()["version"]
    final = sent.json()
    assert [score["total"] for score in final["scores"]] == [64, 56]  # 40+20-6+10, 35+21
    assert final["winners"] == [0] and final["end_reason"] == "complete"


@pytest.mark.parametrize(
    "body, code",
    [
        ({"sheet": "no-such-game", "players": ["Ann"]}, "unknown_sheet"),
        ({"sheet": "wingspan", "game": "yahtzee", "players": ["Ann"]}, "bad_request"),
        ({"players": ["Ann"]}, "bad_request"),
        ({"sheet": "wingspan", "players": ["Ann"], "options": {"tie_breaker": "Nope"}}, "bad_options"),
    ],
)
def test_a_table_from_a_wrong_sheet_is_refused_and_makes_nothing(api, body, code):
    from companion.tables.models import Table

    answer = api.call("post", "/api/v1/tables", body)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == code
    assert Table.objects.count() == 0
