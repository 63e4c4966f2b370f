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


# --- Issue 28: one way to write a name, no hidden characters, seats written one way ------------


def test_a_name_typed_with_a_combining_accent_is_the_same_person(api):
    first = api.create(players=["Ren\u00e9", "Ben"])  # é
    second = api.create(players=["Rene\u0301", "Ben"])  # e + combining acute
    assert first["players"][0]["name"] == second["players"][0]["name"] == "Ren\u00e9"
    assert Player.objects.filter(name__in=["Ren\u00e9", "Rene\u0301"]).count() == 1


@pytest.mark.parametrize("name", ["An\u200bn", "\u202eAnn", "Ann\u200f", "\ufeffAnn", "Ann\u3164"])
def test_names_with_invisible_or_direction_characters_are_refused(api, name):
    response = api.call("post", "/api/v1/tables", {"game": "dogo-dash", "players": [name, "Ben"]})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_player_name"
    assert error["message"].startswith(
        "A name cannot hold invisible characters or ones that turn the text around (U+"
    )
    assert Player.objects.count() == 0 and Table.objects.count() == 0


@pytest.mark.parametrize("name", ["Club\u202e", "\u200b", "Cl\x00ub"])
def test_group_names_with_hidden_characters_are_refused(client, name):
    from companion.groups.models import Group

    response = client.post("/api/v1/groups", json.dumps({"name": name}), content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_group_name"
    page = client.post("/groups/new/", {"name": name})
    assert page.status_code == 400
    assert Group.objects.count() == 0


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"game_name": "Hea\x00rts"}, "The game's name cannot hold invisible characters"),
        ({"game_name": "Hearts\u200b"}, "The game's name cannot hold invisible characters"),
        (
            {"game_name": "Wonders", "mode": "categories", "categories": ["Co\x00ins"]},
            "A category's name cannot",
        ),
        (
            {"game_name": "Wonders", "mode": "categories", "categories": ["\u202eCoins"]},
            "A category's name cannot",
        ),
        ({"game_name": "Hearts", "bgg_id": 2**64}, "The BoardGameGeek id is a positive whole number"),
        ({"game_name": "Hearts", "bgg_id": 2**31}, "The BoardGameGeek id is a positive whole number"),
    ],
)
def test_a_pads_names_and_id_that_no_database_keeps_are_refused_not_a_500(api, options, says):
    body = {"game": "any-game", "players": ["Ann", "Ben"], "options": options}
    response = api.call("post", "/api/v1/tables", body)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "bad_options" and says in response.json()["error"]["message"]
    assert Table.objects.count() == 0


def test_a_pads_category_typed_decomposed_is_its_category(api):
    options = {"game_name": "Caf\u00e9s", "mode": "categories", "categories": ["Caf\u00e9"]}
    table = api.create(game="any-game", players=["Ann", "Ben"], options=options)
    assert table["state"]["game_name"] == "Caf\u00e9s"
    scored = api.act(table, {"type": "score", "category": "Cafe\u0301", "points": {"0": 3, "1": 4}})
    assert scored.status_code == 200 and scored.json()["state"]["cells"] == {"Caf\u00e9": {"0": 3, "1": 4}}


@pytest.mark.parametrize(
    ("game", "action"),
    [
        ("any-game", {"type": "score", "points": {"0": 5, "00": 7}}),
        ("any-game", {"type": "score", "points": {"0": 5, "01": 7}}),
        ("dogo-dash", {"type": "reveal", "cards": {"0": "cat", "1": "dog", "02": "bear"}}),
    ],
)
def test_a_seat_written_two_ways_is_refused_not_a_value_dropped(api, game, action):
    """Issue 28: "00" counted as seat 0 and silently dropped the other value."""
    options = {"game_name": "Hearts"} if game == "any-game" else {}
    table = api.create(game=game, players=["Ann", "Ben", "Cleo"], options=options)
    response = api.act(table, action)
    assert response.status_code == 400, response.content
    assert "seat number" in response.json()["error"]["message"]
    assert Table.objects.get().version == 0


# --- Issue 41: no 500 from input: numbers past what a column keeps, the schema's limits ---------


@pytest.mark.parametrize("target", [10**30, 2**63, 2**40, 2**31])
def test_a_pads_target_past_an_integer_column_is_400_and_writes_nothing(api, target):
    """10**30 was a 500 after the table was written (its answer could not be encoded: the client
    never got its token); 2**40 fits SQLite's integers and not PostgreSQL's: one answer on both."""
    body = {
        "game": "any-game",
        "players": ["Ann", "Ben"],
        "options": {"game_name": "Hearts", "target": target},
    }
    response = api.call("post", "/api/v1/tables", body)
    assert response.status_code == 400, response.content
    assert response.json()["error"] == {
        "code": "bad_options",
        "message": f"The target is at most 2147483647, not {target} (AG-1).",
        "rule": None,
    }
    assert Table.objects.count() == 0 and Player.objects.count() == 0


def test_a_pads_largest_target_is_kept(api):
    table = api.create("any-game", ["Ann", "Ben"], {"game_name": "Hearts", "target": 2**31 - 1})
    assert table["state"]["target"] == 2**31 - 1


def test_a_table_whose_answer_cannot_be_made_is_not_kept(client, monkeypatch):
    """The table and its answer are one transaction: a client that gets no token has no table."""
    from companion.tables import api as table_api

    def broken(*args, **kwargs):
        raise RuntimeError("no answer")

    monkeypatch.setattr(table_api, "share_urls", broken)
    client.raise_request_exception = False
    body = json.dumps({"game": "dogo-dash", "players": ["Ann", "Ben"]})
    response = client.post("/api/v1/tables", body, content_type="application/json")
    assert response.status_code == 500
    assert Table.objects.count() == 0 and Player.objects.count() == 0


@pytest.mark.parametrize("key", ["1" * 5000, "1" * 10])
def test_a_seat_key_of_thousands_of_digits_is_400(api, key):
    """int() of a key of 5,000 digits raised (Python converts at most 4,300): a 500."""
    options = {"game_name": "Hearts", "roles": {key: "Red"}}
    response = api.call(
        "post", "/api/v1/tables", {"game": "any-game", "players": ["Ann", "Ben"], "options": options}
    )
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_options"
    table = api.create("any-game", ["Ann", "Ben"], {"game_name": "Hearts"})
    scored = api.act(table, {"type": "score", "points": {"0": 1, key: 2}})
    assert scored.status_code == 400 and "seat number" in scored.json()["error"]["message"]
    assert Table.objects.get().version == 0


def test_the_schema_says_the_limits_the_server_holds(client):
    from django.conf import settings

    from companion.games import registry
    from companion.groups.models import NAME_MAX as GROUP_NAME_MAX
    from companion.tables.services import NAME_MAX

    schemas = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    assert schemas["GroupIn"]["properties"]["name"]["maxLength"] == GROUP_NAME_MAX == 60
    players = schemas["CreateTableIn"]["properties"]["players"]
    assert players["items"]["maxLength"] == NAME_MAX == 40
    assert players["maxItems"] == max(engine.max_players for engine in registry.all_engines())
    assert schemas["CreateTableIn"]["properties"]["game"]["enum"] == list(registry.GAMES)
    assert schemas["ImportIn"]["properties"]["file"]["maxLength"] == settings.MAX_UPLOAD_BYTES


@pytest.mark.parametrize("name", ["x" * 61, " " + "x" * 60, "x" * 60 + "\t"])
def test_a_group_name_longer_than_the_schema_says_is_refused_as_sent(api, name):
    response = api.call("post", "/api/v1/groups", {"name": name})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_group_name"
    from companion.groups.models import Group

    assert Group.objects.count() == 0


def test_a_player_name_longer_than_the_schema_says_is_refused_as_sent(api):
    response = api.call("post", "/api/v1/tables", {"game": "dogo-dash", "players": ["Ann" + " " * 38, "Ben"]})
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "bad_player_name",
        "message": "A name has at most 40 characters.",
        "rule": None,
    }
    assert Table.objects.count() == 0


WAVE = {"kind": "wave", "suit": "blue", "points": 5}
ENERGY = {"kind": "energy", "value": 6, "cost": 2}


@pytest.mark.parametrize("points", [10**30, 2**40, 10_000])
def test_a_shared_goal_past_9999_points_is_400_and_writes_nothing(api, points):
    """SU-N15: a goal of 10**30 points was kept, then the answer failed (a 500 after the write)."""
    table = api.create("surfs-up", ["Ann", "Ben"], {"shared_goals": True})
    goals = [{"name": "One", "points": points}, {"name": "Two", "points": 1}, {"name": "Three", "points": 0}]
    response = api.act(table, {"type": "setup", "surf": [WAVE] * 3, "beach": [ENERGY] * 3, "goals": goals})
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "bad_action",
        "message": f"Goal 1: 'points' go up to 9999, not {points}.",
        "rule": None,
    }
    assert Table.objects.get().version == 0
    goals[0]["points"] = 9999
    setup = {"type": "setup", "surf": [WAVE] * 3, "beach": [ENERGY] * 3, "goals": goals}
    assert api.act(table, setup).status_code == 200
