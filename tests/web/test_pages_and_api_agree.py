"""A whole Dogo Dash game for 2 to 5 players, once through the pages and once through the API:
both front doors reach the same service, so they must end with the same scores."""

import json
import random

import pytest

from companion.games import registry
from companion.games.base import and_join, play
from companion.tables.models import Table

pytestmark = pytest.mark.django_db


def form_for(action: dict) -> dict:
    """The buttons a player taps for `action` on the Dogo Dash screens."""
    if action["type"] == "collect":
        return {f"dash_{seat}": "1" for seat in action["dogo_dash"]}
    data = {f"card_{seat}": kind for seat, kind in action["cards"].items()}
    data.update({f"card_{seat}": "catnip" for seat in action.get("catnip", [])})
    return data


def script(players: int, options: dict, seed: int) -> list[dict]:
    engine = registry.get("dogo-dash")
    rng = random.Random(seed)
    state, actions = engine.setup(players, options), []
    while engine.result(state) is None:
        action = engine.sample_action(state, rng)
        state = play(engine, state, action)
        actions.append(action)
    return actions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_whole_game_scores_the_same_through_pages_and_api(client, players):
    names = ["Ann", "Ben", "Cleo", "Dev", "Eve"][:players]
    options = {"catnip": True, "dogo_dash": True}
    actions = script(players, options, seed=players)

    form = {f"player_{i}": name for i, name in enumerate(names)} | {
        "option_catnip": "on",
        "option_dogo_dash": "on",
    }
    assert client.post("/new/dogo-dash/", form).status_code == 302
    page_table = Table.objects.get()
    for version, action in enumerate(actions):
        response = client.post(f"/t/{page_table.id}/act/", {**form_for(action), "expected_version": version})
        assert response.status_code == 302, response.content.decode()[:2000]

    created = client.post(
        "/api/v1/tables",
        json.dumps({"game": "dogo-dash", "players": names, "options": options}),
        content_type="application/json",
    ).json()
    headers = {"HTTP_AUTHORIZATION": f"Bearer {created['token']}"}
    for version, action in enumerate(actions):
        body = {"action": action, "expected_version": version}
        response = client.post(
            f"/api/v1/tables/{created['id']}/actions",
            json.dumps(body),
            content_type="application/json",
            **headers,
        )
        assert response.status_code == 200, response.json()
    api_table = response.json()

    page_table.refresh_from_db()
    assert page_table.status == "finished" and api_table["status"] == "finished"
    assert page_table.snapshot == api_table["state"]
    engine = registry.get("dogo-dash")
    assert engine.scores(page_table.snapshot) == api_table["scores"]
    assert sum(score["total"] for score in api_table["scores"]) + api_table["state"]["discarded"] == 60
    finished_page = client.get(f"/t/{page_table.id}/").content.decode()
    best = api_table["scores"][api_table["winners"][0]]["total"]
    winners = and_join([names[seat] for seat in api_table["winners"]])
    verb = "wins" if len(api_table["winners"]) == 1 else "share the win"
    assert f"{winners} {verb} with {best} cards" in finished_page
