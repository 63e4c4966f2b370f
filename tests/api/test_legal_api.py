"""GET /api/v1/tables/{id}/legal for every game (issue 44, the engine kit): the action types a
seat may enter now, the refusal of each other type in the words apply would use (naming the
players, G-2, in the phone's language), and a game's own listing where it has one."""

import pytest

pytestmark = pytest.mark.django_db

NO_SHACK_CARD = (
    "No Surf Shack card is in play: it is Ann's turn to roll, buy Surf deck cards "
    "or buy a Surf Shack card (HF-13)."
)


def legal(api, table: dict, seat: int, **headers) -> dict:
    response = api.client.get(
        f"/api/v1/tables/{table['id']}/legal?seat={seat}",
        HTTP_AUTHORIZATION=f"Bearer {table['token']}",
        **headers,
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_hang_four_says_what_the_seat_in_turn_may_do_and_why_the_other_may_not(api):
    table = api.create("hang-four", ["Ann", "Ben"])
    ann = legal(api, table, 0)
    # Three sand dollars to start: a Surf card costs 3 and a Shack card 2 (HF-11), so both are open.
    assert ann == {
        "allowed": ["roll", "buy", "buy_shack"],
        "refused": {
            "shack": {"code": "unexpected_action", "message": NO_SHACK_CARD, "rule": "HF-13"},
            "shack_roll": {"code": "unexpected_action", "message": NO_SHACK_CARD, "rule": "HF-13"},
        },
    }
    ben = legal(api, table, 1)
    assert ben["allowed"] == []
    assert ben["refused"]["roll"] == {
        "code": "not_your_turn",
        "message": "It is Ann's turn, not Ben's (HF-13).",
        "rule": "HF-13",
    }
    french = legal(api, table, 1, HTTP_ACCEPT_LANGUAGE="fr")
    assert french["refused"]["roll"]["message"] == "C'est au tour d'Ann, pas de Ben (HF-13)."
    # What /legal refuses is what the actions endpoint refuses, word for word.
    refused = api.act(table, {"type": "shack", "card": "snag"})
    assert refused.status_code == 422 and refused.json()["error"] == ann["refused"]["shack"]


def test_a_roll_and_write_lists_the_marks_each_seat_may_make(api):
    table = api.create("roll-and-write", ["Ann", "Ben"], {"sheet": "knister"})
    assert legal(api, table, 0)["marks"] == []
    api.act(table, {"type": "roll", "dice": {"die-1": 2, "die-2": 3}})
    ann = legal(api, table, 0)
    assert ann["allowed"] == ["mark"] and ann["refused"]["pass"]["code"] == "must_mark"
    # Knister: everyone writes the sum of the two dice, 5, in any empty box of the 5x5 grid (KN-3, KN-4).
    assert len(ann["marks"]) == 25 and {mark["value"] for mark in ann["marks"]} == {5}
    assert legal(api, table, 1)["marks"] == ann["marks"]
    first = ann["marks"][0]
    marked = api.act(table, {"type": "mark", "seat": 0, **first}, version=1)
    assert marked.status_code == 200, marked.content


def test_every_entry_is_refused_once_the_game_is_over_and_a_seat_must_exist(api):
    table = api.create("any-game", ["Ann", "Ben"], {"game_name": "Codenames", "outcome": "win_loss"})
    assert legal(api, table, 0) == {
        "allowed": ["finish"],
        "refused": {
            "score": {
                "code": "no_points",
                "message": "A game without points takes no scores: finish it naming who won (AG-7).",
                "rule": "AG-7",
            }
        },
    }
    api.act(table, {"type": "finish", "winners": [1]})
    over = legal(api, table, 1)
    assert over["allowed"] == [] and {refusal["code"] for refusal in over["refused"].values()} == {
        "game_over"
    }
    missing = api.call("get", f"/api/v1/tables/{table['id']}/legal?seat=2", token=table["token"])
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "bad_seat"
