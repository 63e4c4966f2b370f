"""Input from people and clients that should never reach a 500: odd ids, NUL bytes, odd Unicode."""

import json
import re

import pytest

from companion.tables.models import Player, Table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("table_id", ["%00", "a%00b", "..%2F..", "ÄÖ", "x" * 300, "ABC"])
def test_odd_table_ids_are_404(api, table_id):
    assert api.call("get", f"/api/v1/tables/{table_id}", token="t").status_code == 404
    body = {"action": {}, "expected_version": 0}
    response = api.call("post", f"/api/v1/tables/{table_id}/actions", body, "t")
    assert response.status_code == 404


@pytest.mark.parametrize("name", ["Ann\x00", "Ann\x07", "\x1b[31mAnn"])
def test_control_characters_in_names_are_refused(api, name):
    response = api.call("post", "/api/v1/tables", {"game": "dogo-dash", "players": [name, "Ben"]})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_player_name"
    assert Player.objects.count() == 0


def test_odd_unicode_names_are_kept_as_typed(api):
    names = ["Zoë 🦊", "<script>alert(1)</script>", "محمد", "李"]
    table = api.create(players=names)
    assert [player["name"] for player in table["players"]] == names


@pytest.mark.parametrize("key", ["\x00", "a\nb", ""])
def test_odd_idempotency_keys_are_400(api, key):
    table = api.create()
    response = api.act(table, {"type": "reveal", "cards": {"0": "cat", "1": "dog", "2": "bear"}}, key=key)
    assert response.status_code == 400
    assert Table.objects.get().version == 0


@pytest.mark.parametrize(
    "action",
    [
        {"type": "reveal\x00"},
        {"type": "reveal", "cards": {"0": "cat\x00", "1": "dog", "2": "bear"}},
        {"type": "reveal", "cards": {"0\x00": "cat", "1": "dog", "2": "bear"}},
        {"type": "reveal", "cards": {"0": "cat", "1": "dog", "2": "bear"}, "note": "\x00"},
        {"type": "reveal", "cards": {"0": "cat", "1": "dog", "2": "bear"}, "catnip": [True]},
        {"type": "reveal", "cards": {"0": "cat", "1": "dog", "2": "bear"}, "catnip": [10**30]},
        {"type": 7},
        {"type": None},
    ],
)
def test_odd_actions_are_refused_and_change_nothing(api, action):
    table = api.create()
    response = api.act(table, action)
    assert response.status_code in (400, 422)
    assert set(response.json()["error"]) == {"code", "message", "rule"}
    assert Table.objects.get().version == 0


def test_a_deeply_nested_body_is_refused(api):
    table = api.create()
    nested = "[" * 5000 + "]" * 5000
    body = '{"action": {"type": "reveal", "cards": ' + nested + '}, "expected_version": 0}'
    response = api.call("post", f"/api/v1/tables/{table['id']}/actions", body, table["token"])
    assert response.status_code == 400


def test_a_huge_body_is_refused(api):
    table = api.create()
    body = json.dumps({"action": {"type": "reveal", "cards": {"0": "x" * 400_000}}, "expected_version": 0})
    response = api.call("post", f"/api/v1/tables/{table['id']}/actions", body, table["token"])
    assert response.status_code == 400


def test_api_docs_load_nothing_from_a_cdn(client):
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    assert b"cdn" not in response.content.lower()
    assert re.search(rb'src="/static/ninja/swagger-ui-bundle[.0-9a-f]*js"', response.content)


@pytest.mark.urls("tests.api.failing_urls")
def test_a_failing_api_call_answers_the_error_shape_and_a_page_a_page(client):
    """A bug is a 500 (never for anything a client sends), but a client still reads error.code."""
    client.raise_request_exception = False
    answer = client.get("/api/v1/failing")
    assert answer.status_code == 500 and answer["Content-Type"] == "application/json"
    assert answer.json() == {
        "error": {
            "code": "server_error",
            "message": "The server could not answer this request. Try again.",
            "rule": None,
        }
    }
    page = client.get("/failing/")
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")
