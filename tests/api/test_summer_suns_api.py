"""The 62 Summer Suns endpoints of API.md: the sheet definition and the legal-move listing."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_sheet_and_legal_moves_through_the_api(api):
    response = api.call("get", "/api/v1/games/summer-suns/sheets/default")
    assert response.status_code == 200
    sheet = response.json()
    assert sheet["name"] == "default" and len(sheet["slots"]) == 35 and sheet["suns"] == 20
    missing = api.call("get", "/api/v1/games/summer-suns/sheets/nope")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_sheet"
    assert missing.json()["error"]["message"].startswith("There is no sheet 'nope' (known: default")
    french = api.client.get("/api/v1/games/summer-suns/sheets/nope", HTTP_ACCEPT_LANGUAGE="fr")
    assert french.json()["error"]["message"].startswith("Il n'y a pas de feuille 'nope' (connues : default")
    table = api.create(game="summer-suns", players=["Ann", "Ben"])
    table = api.act(table, {"type": "roll", "dice": [3, 5, 1]}).json()
    response = api.call("get", f"/api/v1/tables/{table['id']}/legal?seat=0", token=api.tokens[table["id"]])
    assert response.status_code == 200
    legal = response.json()
    assert legal["pass_allowed"] is False
    assert {"slot_die": 0, "write_die": 1, "slot": "c1t", "value": 5, "crab": [], "dead": []} in legal[
        "placements"
    ]
    # SS-5 (revised), an extension of API.md: what each first crab copy would leave dead.
    crabbed = api.create(game="summer-suns", players=["Ann"])
    api.act(crabbed, {"type": "roll", "dice": [2, 6, 1]})
    listing = api.call("get", f"/api/v1/tables/{crabbed['id']}/legal?seat=0", token=crabbed["token"]).json()
    assert {"slot": "c2b", "value": 6, "target": "k2", "dead": ["k3"]} in listing["crab_dead"]
    assert {"slot": "c2b", "value": 6, "target": "c2t", "dead": []} in listing["crab_dead"]
    bad = api.call("get", f"/api/v1/tables/{table['id']}/legal?seat=9", token=api.tokens[table["id"]])
    assert bad.status_code == 400
    # The kit's part of the answer (issue 44): Ann may place, not roll again nor pass (SS-3, SS-11).
    assert legal["allowed"] == ["place"] and set(legal["refused"]) == {"roll", "pass"}
    assert legal["refused"]["roll"]["rule"] == "SS-3" and legal["refused"]["pass"]["rule"] == "SS-11"
