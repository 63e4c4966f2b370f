"""Yahtzee's sheet (companion/games/yahtzee/sheet.json) played by the roll-and-write kit through the
API, as a group would play a file: the joker (the kit's named function yahtzee-joker) refuses a box
in the phone's language, and /legal offers only the box it allows (issue 44)."""

import pytest

from companion.games.yahtzee.boxes import SHEET

pytestmark = pytest.mark.django_db


def roll(api, table: dict, faces: list[int], version: int):
    dice = {f"die-{n}": face for n, face in enumerate(faces, 1)}
    return api.act(table, {"type": "roll", "dice": dice}, version=version)


def test_a_further_yahtzee_is_refused_in_french_and_only_its_box_offered(api, client):
    table = api.create("roll-and-write", ["Ann"], {"sheet": "yahtzee", "rules": SHEET})
    version = 0
    for row, box in (("upper", 2), ("lower", 5)):  # two Yahtzees of 3s: Threes 15, then Yahtzee 50
        assert roll(api, table, [3] * 5, version).status_code == 200
        assert (
            api.act(
                table, {"type": "mark", "seat": 0, "row": row, "box": box}, version=version + 1
            ).status_code
            == 200
        )
        version += 2
    assert roll(api, table, [5] * 5, version).status_code == 200
    body = {"action": {"type": "mark", "seat": 0, "row": "lower", "box": 6}, "expected_version": version + 1}
    french = api.client.post(
        f"/api/v1/tables/{table['id']}/actions",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {table['token']}",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert french.status_code == 422
    assert french.json()["error"] == {
        "code": "joker",
        "message": "Un nouveau Yahtzee de 5 doit remplir Cinq tant que la case est libre (YZ-8).",
        "rule": "YZ-8",
    }
    listing = api.call("get", f"/api/v1/tables/{table['id']}/legal?seat=0", token=table["token"]).json()
    assert listing["marks"] == [{"row": "upper", "box": 4, "value": 25}] and listing["allowed"] == ["mark"]
    done = api.act(table, {"type": "mark", "seat": 0, "row": "upper", "box": 4}, version=version + 1).json()
    assert done["scores"][0]["breakdown"] == {"upper": 40, "lower": 50, "bonus": 0, "yahtzee_bonus": 100}
    # Each sheet on the table's page shows the bonus beside its boxes
    client.get(f"/t/{table['id']}/join/{table['token']}/")
    page = client.get(f"/t/{table['id']}/").content.decode()
    assert '<p class="small mb-1">Bonus 0 · Yahtzee bonuses 100</p>' in page
