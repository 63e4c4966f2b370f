"""A group's own roll-and-write, written from docs/sheets.md alone (issue 44): "Climb", a game
nobody here has played, checked mark by mark through the API and the table's page, its refusals
citing its own rules (CL-1..CL-8)."""

from __future__ import annotations

import copy
import json

import pytest

from companion.tables.models import Table

pytestmark = pytest.mark.django_db


def d6(die_id: str, en: str, fr: str) -> dict:
    return {"id": die_id, "name": {"en": en, "fr": fr}, "faces": [1, 2, 3, 4, 5, 6]}


CLIMB = {
    "format": 1,
    "kind": "rules",
    "id": "climb",
    "bgg_id": 0,
    "name": {"en": "Climb", "fr": "Grimpette"},
    "players": {"min": 2, "max": 4},
    "dice": [d6("a", "Amber", "Ambre"), d6("b", "Blue", "Bleu"), d6("c", "Coral", "Corail")],
    "rows": [
        {
            "id": "ladder",
            "name": {"en": "Ladder", "fr": "Échelle"},
            "boxes": [None] * 6,
            "order": "ascending",
            "no_repeat": True,
            "score": {"by_marks": [0, 1, 3, 6, 10, 15, 21]},
        }
    ],
    "turn": {
        "steps": [
            {"who": "active", "value": {"sum": [["a", "b", "c"], ["a", "b", "c"]]}, "optional": True},
            {"who": "others", "value": {"sum": [["a"], ["b"]]}, "optional": True},
        ],
        "penalty_if_active_marks_nothing": True,
    },
    "penalties": {"max": 3, "points": 2},
    "end": {"penalties": 3, "rolls": 12},
    "wins": "highest",
    "rules": [
        {
            "id": "CL-1",
            "about": "players",
            "en": "Two to four climbers.",
            "fr": "De deux à quatre grimpeurs.",
        },
        {
            "id": "CL-2",
            "about": "roll",
            "en": "The active player rolls the three dice.",
            "fr": "Le joueur actif lance les trois dés.",
        },
        {
            "id": "CL-3",
            "about": "turn",
            "en": "The active player may write any two dice added; then the others amber plus blue.",
            "fr": "Le joueur actif peut écrire deux dés additionnés ; puis les autres ambre plus bleu.",
        },
        {
            "id": "CL-4",
            "about": "value",
            "en": "A sum goes in an empty box.",
            "fr": "Une somme va dans une case vide.",
        },
        {
            "id": "CL-5",
            "about": "order",
            "en": "The ladder rises from left to right.",
            "fr": "L'échelle monte de gauche à droite.",
        },
        {
            "id": "CL-6",
            "about": "repeat",
            "en": "No number twice on the ladder.",
            "fr": "Pas deux fois le même nombre sur l'échelle.",
        },
        {
            "id": "CL-7",
            "about": "penalty",
            "en": "An active player who writes nothing slips: minus 2.",
            "fr": "Un joueur actif qui n'écrit rien glisse : moins 2.",
        },
        {
            "id": "CL-8",
            "about": "end",
            "en": "Twelve rolls, or a third slip.",
            "fr": "Douze lancers, ou une troisième glissade.",
        },
        {
            "id": "CL-9",
            "about": "score",
            "en": "1, 3, 6, 10, 15 or 21 points for 1 to 6 rungs.",
            "fr": "1, 3, 6, 10, 15 ou 21 points pour 1 à 6 barreaux.",
        },
    ],
}


def create(api, sheet=CLIMB, players=("Ann", "Ben")):
    body = {"game": "roll-and-write", "players": list(players), "options": {"sheet": "climb", "rules": sheet}}
    return api.call("post", "/api/v1/tables", body)


def act(api, table, action):
    answer = api.call(
        "post",
        f"/api/v1/tables/{table['id']}/actions",
        {"action": action, "expected_version": table["version"]},
        api.tokens.get(table["id"]) or table["token"],
    )
    return answer


def test_an_invented_roll_and_write_plays_through_the_api_citing_its_own_rules(api):
    answer = create(api)
    assert answer.status_code == 201, answer.content
    table = answer.json()
    api.tokens[table["id"]] = table["token"]
    assert table["expect"] == {"actions": ["roll"], "seats": [0], "active": 0}
    refused = act(api, table, {"type": "mark", "seat": 0, "row": "ladder", "box": 0, "value": 5})
    assert refused.status_code == 422
    assert refused.json()["error"]["message"] == "Enter the roll first: the dice as they lie (CL-2)."
    table = act(api, table, {"type": "roll", "dice": {"a": 2, "b": 3, "c": 6}}).json()
    assert table["expect"]["seats"] == [0]
    many = act(api, table, {"type": "mark", "seat": 0, "row": "ladder", "box": 2})
    assert many.status_code == 400
    assert many.json()["error"]["message"] == "Say the 'value' to write: these dice make 5, 8, 9."
    wrong = act(api, table, {"type": "mark", "seat": 0, "row": "ladder", "box": 2, "value": 12})
    assert wrong.json()["error"]["message"] == "These dice do not make 12 for Ladder (CL-4)."
    table = act(api, table, {"type": "mark", "seat": 0, "row": "ladder", "box": 2, "value": 8}).json()
    # Ben, the other, may write amber plus blue: 5, anywhere on his ladder
    table = act(api, table, {"type": "mark", "seat": 1, "row": "ladder", "box": 0}).json()
    assert table["expect"] == {"actions": ["roll"], "seats": [1], "active": 1}
    # Ben rolls 1, 1, 2: 2 or 3 would go left of his 5, where his ladder has no box: nothing he may
    # write, so the step passes him without a tap; Ann, the other, may write amber plus blue: 2
    table = act(api, table, {"type": "roll", "dice": {"a": 1, "b": 1, "c": 2}}).json()
    assert table["expect"]["seats"] == [0] and table["expect"]["step"] == 1
    marked = act(api, table, {"type": "mark", "seat": 0, "row": "ladder", "box": 2, "value": 2})
    assert marked.json()["error"]["message"] == "box 3 in Ladder is marked already (CL-4)."
    below = act(api, table, {"type": "mark", "seat": 0, "row": "ladder", "box": 3, "value": 2})
    assert below.json()["error"]["message"] == "Ladder rises from left to right: 2 cannot go in box 4 (CL-5)."
    table = act(api, table, {"type": "mark", "seat": 0, "row": "ladder", "box": 0, "value": 2}).json()
    assert [seat["penalties"] for seat in table["state"]["seats"]] == [0, 1]  # Ben slipped (CL-7)
    assert [score["total"] for score in table["scores"]] == [3, -1]  # Ann 2 rungs, Ben 1 rung - 2
    assert table["scores"][1]["breakdown"] == {"ladder": 1, "penalties": -2}


def test_a_wrong_own_sheet_is_refused_at_its_first_wrong_field_and_makes_no_table(api):
    wrong = copy.deepcopy(CLIMB)
    wrong["rows"][0]["score"]["by_marks"] = [0, 1]
    answer = create(api, wrong)
    assert answer.status_code == 400
    assert answer.json()["error"]["message"] == (
        "The sheet is not playable: /rows/0/score/by_marks: the table gives points for 0 marks up to "
        "every box (and the lock)"
    )
    endless = copy.deepcopy(CLIMB)
    endless["end"] = {"penalties": 3}
    endless["turn"].pop("penalty_if_active_marks_nothing")
    endless["rules"] = [rule for rule in endless["rules"] if rule["about"] != "penalty"]
    answer = create(api, endless)
    assert (
        answer.status_code == 400
        and "/end: this sheet could roll for ever" in answer.json()["error"]["message"]
    )
    assert Table.objects.count() == 0


def test_an_invented_roll_and_write_on_the_tables_page(api, client):
    table = create(api).json()
    client.get(f"/t/{table['id']}/join/{table['token']}/")  # the share link: this phone may write
    page = client.get(f"/t/{table['id']}/").content.decode()
    assert "Climb" in page and "Ann&#x27;s roll: Amber die (1 of 3)" in page
    roll = {"type": "roll", "dice": {"a": 2, "b": 3, "c": 6}}
    answer = client.post(f"/t/{table['id']}/act/", {"action": json.dumps(roll), "expected_version": 0})
    assert answer.status_code in (200, 302)
    page = client.get(f"/t/{table['id']}/").content.decode()
    assert "Ann: what do you mark?" in page
    marks = page.count("&quot;type&quot;: &quot;mark&quot;")
    assert marks == 3 * 6  # 5, 8 or 9 in any of the six empty rungs
    assert Table.objects.get(pk=table["id"]).snapshot["phase"] == "mark"
    # Its rules, which its refusals cite, are on its page, in the phone's language
    rung_rule = '<dt id="rule-CL-5">CL-5 · where a mark goes</dt><dd>The ladder rises from left to right.'
    assert rung_rule in page
    french = client.get(f"/t/{table['id']}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "CL-5 · où va une marque</dt><dd>L&#x27;échelle monte de gauche à droite.</dd>" in french
    assert "📖 Les règles de Grimpette, telles que sa feuille les dit" in french


def test_a_tables_seats_are_the_own_sheets_own():
    """The new-table form offers the seats the sheet takes (Climb: two to four, CL-1)."""
    from companion.games import base, registry

    kit = registry.get("roll-and-write")
    assert base.seat_range(kit, {"sheet": "climb", "rules": CLIMB}) == (2, 4)
    assert base.seat_range(kit, {}) == (kit.min_players, kit.max_players)  # chosen on the form
    broken = {**CLIMB, "players": {"min": 5, "max": 2}}
    assert base.seat_range(kit, {"sheet": "climb", "rules": broken}) == (kit.min_players, kit.max_players)
    assert base.seat_range(registry.get("dogo-dash"), {}) == (2, 5)
