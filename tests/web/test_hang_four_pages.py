"""Hang Four through the pages: the three turn actions, the die, the Shack and purchases card by card."""

import json
import re

import pytest

from companion.tables.models import Table

from .text import read

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(client):
    response = client.post("/new/hang-four/", {"player_0": "Ann", "player_1": "Ben", "player_2": "Cleo"})
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.get()


def posted_actions(html: str) -> list[dict]:
    """The actions the page's buttons would post."""
    return [
        json.loads(raw.replace("&quot;", '"')) for raw in re.findall(r'name="action" value="([^"]*)"', html)
    ]


def act(client, table, action):
    table.refresh_from_db()
    data = {"action": json.dumps(action), "expected_version": table.version}
    return client.post(f"/t/{table.id}/act/", data, **HTMX)


def seats(table):
    table.refresh_from_db()
    return [seat["dollars"] for seat in table.snapshot["seats"]]


def test_the_turn_offers_the_die_s_faces_buying_and_the_shack(client, table):
    html = read(client.get(f"/t/{table.id}/").content.decode())
    assert "Ann&#x27;s turn: tap what the die showed, or buy" in html
    assert "🛒 Buy Surf cards · 3 each" in html and "🎲 Roll the die" not in html
    # A roll is one tap on its face (issue 15), with what it brings: +5 for a 5 (HF-4).
    rolls = [{"type": "roll", "face": face} for face in (1, 2, 3, 4, 5, "shack")]
    assert posted_actions(html) == [*rolls, {"type": "buy_shack"}]
    assert '"option-label">5</span><small class="option-hint">+5</small>' in html
    assert '"option-label">🛖</span><small class="option-hint">draw a card</small>' in html
    assert "Bank <strong>$21</strong>" in html and "Surf deck <strong>33</strong>" in html  # HF-3


def test_a_roll_is_one_tap_on_the_die(client, table):
    html = client.get(f"/t/{table.id}/?do=roll", **HTMX).content.decode()
    assert "What did the die show?" in html
    faces = [action["face"] for action in posted_actions(html)]
    assert faces == [1, 2, 3, 4, 5, "shack"]
    act(client, table, {"type": "roll", "face": 5})
    assert seats(table) == [8, 3, 3] and table.snapshot["bank"] == 16 and table.snapshot["turn"] == 1


def test_must_buy_greys_the_other_actions_with_the_reason(client, table):
    act(client, table, {"type": "roll", "face": 5})  # Ann 8
    act(client, table, {"type": "buy_shack"})  # Ben pays 2: 1
    act(client, table, {"type": "shack", "card": "seagull"})
    act(client, table, {"type": "shack_roll", "face": 4})  # Ann pays 4, Cleo pays 3: Ben 8
    act(client, table, {"type": "roll", "face": 2})  # Cleo 0 + 2
    act(client, table, {"type": "buy_shack"})  # Ann 4 - 2 = 2
    act(client, table, {"type": "shack", "card": "seagull"})
    act(client, table, {"type": "shack_roll", "face": 5})  # Ben pays 5, Cleo pays 2: Ann 9
    assert seats(table) == [9, 3, 0]
    act(client, table, {"type": "buy_shack"})  # Ben 3 - 2 = 1
    act(client, table, {"type": "shack", "card": "seagull"})
    act(client, table, {"type": "shack_roll", "face": 5})  # Ann pays 5, Cleo 0: Ben 6
    act(client, table, {"type": "roll", "face": 1})  # Cleo 1
    act(client, table, {"type": "buy_shack"})  # Ann 4 - 2 = 2
    act(client, table, {"type": "shack", "card": "seagull"})
    act(client, table, {"type": "shack_roll", "face": 5})  # Ben pays 5, Cleo pays 1: Ann 8
    assert seats(table) == [8, 1, 0]
    act(client, table, {"type": "roll", "face": 5})  # Ben 1 + 5 = 6
    act(client, table, {"type": "roll", "face": 5})  # Cleo 5
    act(client, table, {"type": "buy_shack"})  # Ann 6
    act(client, table, {"type": "shack", "card": "seagull"})
    act(client, table, {"type": "shack_roll", "face": 5})  # Ben pays 5, Cleo pays 5: Ann 16
    assert seats(table) == [16, 1, 0] and table.snapshot["seats"][0]["must_buy"] is True
    act(client, table, {"type": "roll", "face": 3})  # Ben 4
    act(client, table, {"type": "roll", "face": 3})  # Cleo 3
    html = client.get(f"/t/{table.id}/").content.decode()
    assert html.count("disabled") >= 2
    assert "You hold 16 sand dollars after the Seagull: you must buy a card (" in html
    assert 'href="/rules/hang-four/#HF-10" title="Read rule HF-10">HF-10</a>).' in html
    refused = act(client, table, {"type": "roll", "face": 3}).content.decode()
    assert "Not allowed." in refused and "you must buy a card (" in refused and ">HF-10</a>)" in refused
    assert seats(table) == [16, 4, 3]


def test_a_purchase_card_by_card_completes_a_surf_dog(client, table):
    for face in (3, 1, 1):  # Ann 6, Ben 4, Cleo 4: Ann's turn again
        act(client, table, {"type": "roll", "face": face})
    html = client.get(f"/t/{table.id}/?do=buy", **HTMX).content.decode()
    assert "How many Surf cards? (3 sand dollars each)" in html
    assert "1 · $3" in html and "2 · $6" in html and "3 · $9" not in html
    html = client.get(f"/t/{table.id}/?do=buy&n=2", **HTMX).content.decode()
    assert "Card 1 of 2: what did you draw?" in html
    # The nose can only join Ann's one dog (HF-7): no question asked, on to card 2.
    html = client.get(f"/t/{table.id}/?do=buy&n=2&c=nose.%3F", **HTMX).content.decode()
    assert "Card 2 of 2: what did you draw?" in html
    buys = posted_actions(html)
    tail = {"type": "buy", "cards": [{"part": "nose", "dog": 0}, {"part": "tail", "dog": 0}]}
    assert tail in buys
    act(client, table, tail)
    table.refresh_from_db()
    ann = table.snapshot["seats"][0]
    assert ann["dollars"] == 0 and ann["complete"] == 1
    assert ann["dogs"] == [{"character": True, "nose": True, "tail": True}]
    page = client.get(f"/t/{table.id}/").content.decode()
    assert 'class="hf-dog complete"' in page and ">safe<" in page


def test_a_snag_picks_the_victim_then_the_cards(client, table):
    act(client, table, {"type": "buy", "cards": [{"part": "nose", "dog": 0}]})  # Ann: dog + nose, loose
    act(client, table, {"type": "buy_shack"})  # Ben pays 2
    act(client, table, {"type": "shack", "card": "snag"})
    html = client.get(f"/t/{table.id}/", **HTMX).content.decode()
    assert "Snag a Surfboard: roll again" in html
    # A 1 has one way (issue 15): only Ann holds a board (HF-9), so the tap on 1 takes her nose
    # at once. The icon steals nothing; the other faces ask from whom.
    assert posted_actions(html) == [
        {"type": "shack_roll", "face": 1, "target": 0, "cards": [{"dog": 0, "part": "nose", "to_dog": 0}]},
        {"type": "shack_roll", "face": "shack"},
    ]
    html = client.get(f"/t/{table.id}/?f=2", **HTMX).content.decode()
    assert "Snag 2: from whom?" in html
    assert "Ann · 1 loose board<" in html and "Cleo · 0 loose boards" in html
    # Cleo has nothing to take (HF-N4): choosing her finishes the entry with no card.
    assert {"type": "shack_roll", "face": 2, "target": 2, "cards": []} in posted_actions(html)
    # Ann's one loose board is all a Snag 2 can take from her (min(2, 1), HF-9): nothing to pick, so
    # tapping her takes it (issue 30: no step with one answer).
    steal = {"type": "shack_roll", "face": 2, "target": 0, "cards": [{"dog": 0, "part": "nose", "to_dog": 0}]}
    assert steal in posted_actions(html)
    act(client, table, steal)
    table.refresh_from_db()
    assert [seat["dogs"] for seat in table.snapshot["seats"][:2]] == [
        [{"character": True, "nose": False, "tail": False}],
        [{"character": True, "nose": True, "tail": False}],
    ]


def test_a_purchase_does_not_offer_a_part_it_already_took_the_last_of(client, table):
    table.refresh_from_db()
    state = table.snapshot
    state["seats"][0]["dollars"], state["bank"] = 6, state["bank"] - 3
    state["surf_left"]["nose"], state["surf_deck"] = 1, state["surf_deck"] - 11
    state["out"] += 11
    table.snapshot = state
    table.save()
    html = client.get(f"/t/{table.id}/?do=buy&n=2&c=nose.0", **HTMX).content.decode()
    assert "Card 2 of 2: what did you draw?" in html and "So far: Nose board → Surf Dog 1" in html
    assert "No nose board is left in the Surf deck." in html


def test_a_card_that_fits_two_surf_dogs_asks_which(client, table):
    table.refresh_from_db()
    state = table.snapshot
    # Ann bought a second dog character earlier: two dogs, both without a nose (HF-7 lets her choose).
    state["seats"][0]["dogs"].append({"character": True, "nose": False, "tail": False})
    state["seats"][0]["dollars"], state["bank"] = 6, state["bank"] - 3
    state["surf_left"]["character"] -= 1
    state["surf_deck"] -= 1
    table.snapshot = state
    table.save()
    html = client.get(f"/t/{table.id}/?do=buy&n=1&c=nose.%3F", **HTMX).content.decode()
    assert "The nose board joins which Surf Dog?" in html
    assert posted_actions(html) == [
        {"type": "buy", "cards": [{"part": "nose", "dog": 0}]},
        {"type": "buy", "cards": [{"part": "nose", "dog": 1}]},
    ]


def test_the_result_says_the_tie_break_under_the_winner(client, table):
    """Issue 15: a tie on complete Surf Dogs broken by sand dollars (HF-12) is said on the page."""
    from companion.games.hang_four.tests.test_rules import buy, last_card_table
    from companion.tables import services

    Table.objects.filter(pk=table.pk).update(
        snapshot=last_card_table([3, 9, 5], [["NCT", ".C."], ["NCT"], ["NCT"]])
    )
    services.play_action(table.id, buy(("nose", 1)), table.version)
    html = read(client.get(f"/t/{table.id}/").content.decode())
    assert "🏆 Ben wins with 1 complete Surf Dog</p>" in html
    assert (
        '<p class="mb-1 tie-break">Ann and Cleo have as many: the most sand dollars wins the tie, $9 against '
        'Ann&#x27;s $0 and Cleo&#x27;s $5. <small class="text-body-secondary">HF-12</small></p>'
    ) in html


def test_the_log_shows_the_newest_five_and_the_rest_a_tap_away(client, table):
    from companion.tables import services

    for version, face in enumerate([1, 2, 3, 4, 5, 1, 2]):
        services.play_action(table.id, {"type": "roll", "face": face}, version)
    html = client.get(f"/t/{table.id}/").content.decode()
    log = html[html.index('aria-label="Log"') :]
    newest, earlier = log.split('<details class="log-more mt-2">')
    assert re.findall(r'log-number">(\d+)<', newest) == ["7", "6", "5", "4", "3"]
    assert "Show the 2 earlier entries</summary>" in earlier
    assert re.findall(r'log-number">(\d+)<', earlier.split("</details>")[0]) == ["2", "1"]


def test_a_question_with_one_answer_is_not_asked_and_back_skips_it(client, table):
    for face in (1, 1, 1):  # Ann 4, Ben 4, Cleo 4: Ann's turn, one card within reach
        act(client, table, {"type": "roll", "face": face})
    html = client.get(f"/t/{table.id}/").content.decode()
    # "How many Surf cards?" would have one answer (1 · $3): Buy leads past it (issue 15).
    assert 'href="?do=buy&amp;n=1"' in html and 'href="?do=buy"' not in html
    html = client.get(f"/t/{table.id}/?do=buy&n=1", **HTMX).content.decode()
    assert "Card 1 of 1: what did you draw?" in html
    assert '<a class="btn btn-link ps-0" href="?"' in html  # Back: to the turn, past the question
    assert {"type": "buy", "cards": [{"part": "nose", "dog": 0}]} in posted_actions(html)
