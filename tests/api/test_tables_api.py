"""API v1 of shared/API.md: every endpoint, status code and error shape."""

import pytest

from companion.tables.models import Event, Player, Table

pytestmark = pytest.mark.django_db

REVEAL = {"type": "reveal", "cards": {"0": "cat", "1": "dog", "2": "bear"}}


def error(response) -> dict:
    return response.json()["error"]


def test_it_lists_games(api):
    response = api.call("get", "/api/v1/games")
    assert response.status_code == 200
    games = {game["slug"]: game for game in response.json()}
    assert games["dogo-dash"] == {
        "slug": "dogo-dash",
        "name": "Dogo Dash",
        "min_players": 2,
        "max_players": 5,
        "options": {"catnip": False, "dogo_dash": False},
    }


def test_it_creates_a_table(api):
    table = api.create(players=["Ann", "Ben", "Cleo"], options={"catnip": True})
    assert table["game"] == "dogo-dash"
    assert table["version"] == 0
    assert table["status"] == "in_progress"
    assert table["players"] == [
        {"seat": 0, "name": "Ann"},
        {"seat": 1, "name": "Ben"},
        {"seat": 2, "name": "Cleo"},
    ]
    assert table["expect"]["actions"] == ["reveal"]
    assert table["expect"]["seats"] == [0, 1, 2]
    assert table["state"]["deck"] == 60 - 3 * 4  # DD-1
    assert table["state"]["options"] == {"catnip": True, "dogo_dash": False}
    assert [score["total"] for score in table["scores"]] == [0, 0, 0]
    assert table["winners"] is None and table["end_reason"] is None
    assert table["url"] == f"/t/{table['id']}/join/{table['token']}/"
    assert table["view_url"] == f"/t/{table['id']}/join/{table['view_token']}/"
    assert len(table["token"]) >= 24 and table["token"] != table["view_token"]


def test_it_reuses_a_player_ignoring_case(api):
    api.create(players=["Ann", "Ben"])
    api.create(players=["ann", "BEN", "Cleo"])
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "Ben", "Cleo"]


@pytest.mark.parametrize(
    "body, code",
    [
        ({"game": "chess", "players": ["Ann", "Ben"]}, "unknown_game"),
        ({"game": "dogo-dash", "players": ["Ann"]}, "bad_player_count"),
        ({"game": "dogo-dash", "players": ["A", "B", "C", "D", "E", "F"]}, "bad_player_count"),
        ({"game": "dogo-dash", "players": ["Ann", "Ben"], "options": {"turbo": True}}, "unknown_option"),
        ({"game": "dogo-dash", "players": ["Ann", "Ben"], "options": {"catnip": "yes"}}, "bad_option"),
        ({"game": "dogo-dash", "players": ["Ann", "ann"]}, "duplicate_player"),
        ({"game": "dogo-dash", "players": ["Ann", "   "]}, "bad_player_name"),
        ({"game": "dogo-dash", "players": ["Ann", "B" * 41]}, "bad_player_name"),
        ({"game": "dogo-dash", "players": "Ann, Ben"}, "bad_request"),
        ({"players": ["Ann", "Ben"]}, "bad_request"),
    ],
)
def test_it_refuses_a_bad_table_with_400_and_creates_nothing(api, body, code):
    response = api.call("post", "/api/v1/tables", body)
    assert response.status_code == 400
    assert error(response)["code"] == code
    assert error(response)["message"]
    assert Table.objects.count() == 0 and Player.objects.count() == 0


def test_it_reads_a_table_with_either_token(api):
    table = api.create()
    for token in (table["token"], table["view_token"]):
        response = api.call("get", f"/api/v1/tables/{table['id']}", token=token)
        assert response.status_code == 200
        assert response.json()["id"] == table["id"]
        assert "token" not in response.json()


def test_unknown_table_is_404_with_or_without_token(api):
    assert api.call("get", "/api/v1/tables/nope").status_code == 404
    response = api.call("get", "/api/v1/tables/nope", token="whatever")
    assert response.status_code == 404
    assert error(response) == {
        "code": "not_found",
        "message": "There is no table with this id.",
        "rule": None,
    }


def test_missing_or_wrong_token_is_401_without_details(api):
    table = api.create()
    other = api.create(players=["Dev", "Eve"])
    for token in (None, "wrong", other["token"]):
        response = api.call("get", f"/api/v1/tables/{table['id']}", token=token)
        assert response.status_code == 401
        assert set(response.json()) == {"error"}
        assert error(response)["code"] == "unauthorized"
    response = api.act(table, REVEAL, token="wrong")
    assert response.status_code == 401


def test_view_token_cannot_write(api):
    table = api.create()
    response = api.act(table, REVEAL, token=table["view_token"])
    assert response.status_code == 403
    assert error(response)["code"] == "read_only"
    undo = api.call(
        "post", f"/api/v1/tables/{table['id']}/undo", {"expected_version": 0}, table["view_token"]
    )
    assert undo.status_code == 403
    assert Table.objects.get(pk=table["id"]).version == 0


def test_it_applies_an_action(api):
    table = api.create()
    response = api.act(table, REVEAL)
    assert response.status_code == 200
    after = response.json()
    assert after["version"] == 1
    # DD-2: the bear beats the dog and the cat; Cleo takes the pot of 3 and everyone refills (DD-6).
    assert [score["total"] for score in after["scores"]] == [0, 0, 3]
    assert [seat["hand"] for seat in after["state"]["seats"]] == [4, 4, 4]
    assert after["state"]["deck"] == 48 - 3
    assert after["state"]["round"] == 2


def test_stale_version_is_409_with_the_fresh_table(api):
    table = api.create()
    api.act(table, REVEAL)
    response = api.act(table, REVEAL, version=0)
    assert response.status_code == 409
    body = error(response)
    assert body["code"] == "stale_version"
    assert body["table"]["version"] == 1
    assert body["table"]["scores"][2]["total"] == 3
    assert Event.objects.count() == 1


def test_a_rule_refusal_is_422_naming_its_rule_and_changes_nothing(api):
    table = api.create()
    response = api.act(table, {"type": "reveal", "cards": {"0": "cat", "1": "dog"}})
    assert response.status_code == 422
    assert error(response) == {
        "code": "missing_card",
        "message": "Cleo must reveal a card: every seat reveals a card (DD-3).",  # G-2: the players' names
        "rule": "DD-3",
    }
    stored = Table.objects.get(pk=table["id"])
    assert stored.version == 0 and stored.snapshot == table["state"]
    assert Event.objects.count() == 0


def test_an_action_not_expected_now_is_422(api):
    table = api.create(options={"dogo_dash": True})
    response = api.act(table, {"type": "collect", "dogo_dash": []})
    assert response.status_code == 422
    assert error(response)["code"] == "unexpected_action"


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[]",
        {"action": REVEAL},
        {"action": REVEAL, "expected_version": "zero"},
        {"action": "reveal", "expected_version": 0},
        {"action": REVEAL, "expected_version": 0, "idempotency_key": "k" * 65},
    ],
)
def test_a_malformed_write_is_400(api, body):
    table = api.create()
    response = api.call("post", f"/api/v1/tables/{table['id']}/actions", body, table["token"])
    assert response.status_code == 400
    assert set(error(response)) == {"code", "message", "rule"}
    assert Table.objects.get(pk=table["id"]).version == 0


@pytest.mark.parametrize(
    "action",
    [
        {"cards": {"0": "cat"}},
        {"type": "reveal"},
        {"type": "reveal", "cards": {"0": "unicorn", "1": "dog", "2": "cat"}},
        {"type": "reveal", "cards": {"zero": "cat", "1": "dog", "2": "cat"}},
        {"type": "reveal", "cards": ["cat", "dog", "bear"]},
        {"type": "dance"},
    ],
)
def test_a_malformed_action_is_400(api, action):
    table = api.create()
    response = api.act(table, action)
    assert response.status_code == 400, response.json()
    assert Table.objects.get(pk=table["id"]).version == 0


def test_the_same_idempotency_key_applies_once_and_answers_the_same(api):
    table = api.create()
    first = api.act(table, REVEAL, key="tap-1")
    again = api.act(table, REVEAL, key="tap-1")  # the phone retried with its old version
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert Table.objects.get(pk=table["id"]).version == 1
    assert Event.objects.count() == 1


def test_an_idempotency_key_is_per_table(api):
    one, two = api.create(), api.create(players=["Dev", "Eve"])
    assert api.act(one, REVEAL, key="k").status_code == 200
    response = api.act(two, {"type": "reveal", "cards": {"0": "dog", "1": "cat"}}, key="k")
    assert response.status_code == 200
    assert response.json()["id"] == two["id"] and response.json()["version"] == 1


def test_undo_takes_back_the_last_action(api):
    table = api.create()
    after = api.act(table, REVEAL).json()
    path = f"/api/v1/tables/{table['id']}/undo"
    response = api.call("post", path, {"expected_version": after["version"]}, table["token"])
    assert response.status_code == 200
    undone = response.json()
    assert undone["version"] == 2  # an undo is a change too
    assert undone["state"] == table["state"]
    assert undone["scores"] == table["scores"]
    assert Event.objects.get().undone is True
    assert api.call("get", f"/api/v1/tables/{table['id']}/events", token=table["token"]).json() == []


def test_undo_with_nothing_to_undo_is_422_and_stale_undo_is_409(api):
    table = api.create()
    path = f"/api/v1/tables/{table['id']}/undo"
    response = api.call("post", path, {"expected_version": 0}, table["token"])
    assert response.status_code == 422
    assert error(response)["code"] == "nothing_to_undo"
    api.act(table, REVEAL)
    stale = api.call("post", path, {"expected_version": 0}, table["token"])
    assert stale.status_code == 409
    assert error(stale)["table"]["version"] == 1


def test_events_list_live_entries_oldest_first(api):
    table = api.create()
    t1 = api.act(table, REVEAL).json()
    second = {"type": "reveal", "cards": {"0": "dog", "1": "dog", "2": "cat"}}
    t2 = api.act(t1, second).json()
    third = {"type": "reveal", "cards": {"0": "bear", "1": "cat"}}
    t3 = api.act(t2, third).json()
    api.call(
        "post", f"/api/v1/tables/{table['id']}/undo", {"expected_version": t3["version"]}, table["token"]
    )
    events = api.call("get", f"/api/v1/tables/{table['id']}/events", token=table["view_token"]).json()
    assert [(event["seq"], event["action"]) for event in events] == [(1, REVEAL), (2, second)]
    assert all(event["at"].startswith("20") for event in events)


def test_finished_table_reports_winners(api):
    """A 2-player game to its end: 26 rounds empty the deck of 52, the 27th is the last (DD-7)."""
    table = api.create(players=["Ann", "Ben"])
    rounds = (
        [("bear", "cat")] * 12
        + [("dog", "cat")] * 10  # DD-2: Ann wins 22 pots of 2
        + [("cookie", "dog")] * 4  # cookie beats dog: 4 more pots of 2
    )
    for ann, ben in rounds:
        table = api.act(table, {"type": "reveal", "cards": {"0": ann, "1": ben}}).json()
    assert table["state"]["deck"] == 0 and table["state"]["last_round"] is True
    assert [score["total"] for score in table["scores"]] == [52, 0]
    # Last round: a good boy forces a tie, which is not replayed: 2 revealed + Super Pot 6 split 4/4.
    table = api.act(table, {"type": "reveal", "cards": {"0": "dog", "1": "good_boy"}}).json()
    assert table["status"] == "finished"
    assert table["expect"]["actions"] == [] and table["expect"]["seats"] == []
    assert [score["total"] for score in table["scores"]] == [56, 4]
    assert table["winners"] == [0]
    assert table["end_reason"] == "last_round"
    done = api.act(table, {"type": "reveal", "cards": {"0": "cat", "1": "cat"}})
    assert done.status_code == 422 and error(done)["code"] == "game_over"
    assert Table.objects.get(pk=table["id"]).finished is not None


def test_openapi_document_lists_every_endpoint(api):
    response = api.call("get", "/api/v1/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert set(paths) == {
        "/api/v1/games",
        "/api/v1/tables",
        "/api/v1/tables/{table_id}",
        "/api/v1/tables/{table_id}/actions",
        "/api/v1/tables/{table_id}/undo",
        "/api/v1/tables/{table_id}/events",
        "/api/v1/tables/{table_id}/legal",
        "/api/v1/games/summer-suns/sheets/{name}",
        "/api/v1/groups",
        "/api/v1/groups/{group_id}",
        "/api/v1/groups/{group_id}/players",
        "/api/v1/groups/{group_id}/plays",
        "/api/v1/groups/{group_id}/ratings",
        "/api/v1/groups/{group_id}/imports",
        "/api/v1/groups/{group_id}/imports/{job_id}",  # a large import's progress (issue 42)
        "/api/v1/groups/{group_id}/export",
        # Links renewed and members removed (issue 41)
        "/api/v1/tables/{table_id}/links",
        "/api/v1/groups/{group_id}/links",
        "/api/v1/groups/{group_id}/members",
        "/api/v1/groups/{group_id}/members/{user_id}",
        # Score sheets (issue 44)
        "/api/v1/sheets",
        "/api/v1/sheets/{sheet_id}",
        "/api/v1/groups/{group_id}/sheets",
        "/api/v1/groups/{group_id}/sheets/{sheet_id}",
    }
    assert set(paths["/api/v1/tables/{table_id}/actions"]["post"]["responses"]) == {
        "200",
        "400",
        "401",
        "403",
        "404",
        "409",
        "422",
        "429",
    }


def test_expect_carries_the_games_own_keys_in_every_table_answer(api):
    """API.md, extensions in force: `expect` may carry game-specific keys. Every answer that holds
    a table (create, get, action, undo) carries them alike (ninja's output model dropped them)."""
    created = api.create(options={"catnip": True})
    assert created["expect"]["catnip"] == [0, 1, 2] and created["expect"]["phase"] == "reveal"
    token = api.tokens[created["id"]]
    seen = api.call("get", f"/api/v1/tables/{created['id']}", token=token).json()
    assert seen["expect"] == created["expect"]
    acted = api.act(created, {"type": "reveal", "cards": {"0": "dog", "1": "dog", "2": "cat"}}).json()
    assert acted["expect"]["tie_break"] is True and acted["expect"]["seats"] == [0, 1]
    undone = api.call("post", f"/api/v1/tables/{created['id']}/undo", {"expected_version": 1}, token=token)
    assert undone.json()["expect"] == created["expect"]


def test_an_undo_sent_twice_with_its_key_takes_back_one_entry_and_answers_the_same(api):
    table = api.create("hang-four", players=("Ann", "Ben"))
    for version in range(2):
        assert api.act(table, {"type": "roll", "face": 2}, version=version).status_code == 200
    token = api.tokens[table["id"]]
    body = {"expected_version": 2, "idempotency_key": "undo-once"}
    first = api.call("post", f"/api/v1/tables/{table['id']}/undo", body, token)
    again = api.call("post", f"/api/v1/tables/{table['id']}/undo", body, token)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() and first.json()["version"] == 3
    events = api.call("get", f"/api/v1/tables/{table['id']}/events", token=token).json()
    assert [event["seq"] for event in events] == [1]


def test_an_undo_key_of_the_wrong_shape_is_a_400(api):
    table = api.create("hang-four", players=("Ann", "Ben"))
    token = api.tokens[table["id"]]
    for key in ("", "x" * 65, "tab\there", 7):
        body = {"expected_version": 0, "idempotency_key": key}
        answer = api.call("post", f"/api/v1/tables/{table['id']}/undo", body, token)
        assert answer.status_code == 400, key


def test_the_score_pad_through_the_api(api):
    """API.md "any-game": the options, a round, a refusal naming its ruling, finish."""
    games = {game["slug"]: game for game in api.call("get", "/api/v1/games").json()}
    assert games["any-game"]["options"] == {
        "game_name": "",
        "bgg_id": 0,
        "mode": "rounds",
        "categories": [],
        "lowest_wins": False,
        "target": 0,
        "outcome": "points",  # API.md (new): AG-7..AG-10
        "teams": [],
        "roles": {},
        "expansions": [],
        "against": [],  # a score sheet's lines (issue 44; docs/sheets.md)
        "tie_breaker": "",
        "tie_breaker_lowest": False,
        "headings": {},  # a score sheet's headings over its lines (issue 44)
    }
    refused = api.call("post", "/api/v1/tables", {"game": "any-game", "players": ["Ann"], "options": {}})
    assert refused.status_code == 400
    assert error(refused) == {
        "code": "bad_options",
        "message": "Name the game this pad keeps the score of (AG-1).",
        "rule": None,
    }
    table = api.create("any-game", ["Ann", "Ben"], {"game_name": "Azul", "bgg_id": 230802})
    assert table["state"]["game_name"] == "Azul" and table["expect"] == {
        "actions": ["score"],
        "seats": [],
        "mode": "rounds",
        "outcome": "points",
        "round": 1,
    }
    missing = api.act(table, {"type": "score", "points": {"0": 12}})
    assert missing.status_code == 422 and error(missing)["rule"] == "AG-3"
    assert (
        error(missing)["message"]
        == "A round gives points to every player: enter Ben's too, 0 for nothing (AG-3)."
    )
    table = api.act(table, {"type": "score", "points": {"0": 12, "1": 30}}).json()
    table = api.act(table, {"type": "finish"}).json()
    assert table["status"] == "finished" and table["winners"] == [1] and table["end_reason"] == "finished"
    assert table["scores"] == [
        {"seat": 0, "total": 12, "breakdown": {"1": 12}},
        {"seat": 1, "total": 30, "breakdown": {"1": 30}},
    ]
    assert Table.objects.get(pk=table["id"]).played == "any-game:azul"


def test_the_pads_outcomes_through_the_api(api):
    """API.md (new), RULINGS AG-7..AG-10: co-op, win or lose, teams, a tie settled, roles and
    expansions, through the API as a client sends them."""
    coop = api.create(
        "any-game",
        ["Ann", "Ben"],
        {"game_name": "Pandemic", "outcome": "coop", "expansions": ["On the Brink"]},
    )
    assert coop["state"]["outcome"] == "coop" and coop["state"]["expansions"] == ["On the Brink"]
    assert coop["expect"]["actions"] == ["score", "finish"]
    unequal = api.act(coop, {"type": "score", "points": {"0": 3, "1": 4}})
    assert unequal.status_code == 422 and error(unequal)["rule"] == "AG-7"
    won = api.act(coop, {"type": "finish", "won": True}).json()
    assert (won["status"], won["winners"], won["end_reason"]) == ("finished", [0, 1], "won")

    codenames = api.create(
        "any-game",
        ["Ann", "Ben", "Cleo", "Dan"],
        {
            "game_name": "Codenames",
            "outcome": "win_loss",
            "teams": [[0, 2], [1, 3]],
            "roles": {"0": "Spymaster"},
        },
    )
    assert [score["team"] for score in codenames["scores"]] == [0, 1, 0, 1]
    half = api.act(codenames, {"type": "finish", "winners": [0]})
    assert half.status_code == 422 and error(half)["rule"] == "AG-7"
    assert "Teams win whole: Cleo is in the same team as Ann (AG-7)." == error(half)["message"]
    done = api.act(codenames, {"type": "finish", "winners": [0, 2]}).json()
    assert done["winners"] == [0, 2] and done["state"]["roles"] == {"0": "Spymaster"}

    tie = api.create("any-game", ["Ann", "Ben"], {"game_name": "Azul"})
    tied = api.act(tie, {"type": "score", "points": {"0": 40, "1": 40}}).json()
    assert tied["expect"]["tied"] == [0, 1]
    settled = api.act({**tie, "version": tied["version"]}, {"type": "finish", "winners": [1]}).json()
    assert settled["winners"] == [1] and settled["end_reason"] == "finished"
    bad = api.call(
        "post",
        "/api/v1/tables",
        {"game": "any-game", "players": ["Ann"], "options": {"game_name": "X", "teams": [[0]]}},
    )
    assert (
        bad.status_code == 400
        and error(bad)["message"] == "Teams play against each other: two teams at least (AG-8)."
    )
