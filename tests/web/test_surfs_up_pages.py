"""Surf's Up! through the pages: every entry is made with the fields the page's own forms hold.

The opening used by most tests (3 surfers, SU-1: hand 0-5, 2 respect each):
  surf  orange 3 (breakzone), blue 7, purple 5     beach  orange +2 cost 3, energy 6 cost 2, blue +1 cost 4
  Round 1, the 3 orange wave: Ann 4, Ben 4, Cleo 3. Ann and Ben show the same value with the same
  respect (2): they wipe out (SU-5); Cleo wins alone, there is no runner-up. Cleo's 3 is trashed,
  Ann's and Ben's 4 go to their towels (SU-6).
"""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode

import pytest
from django.test import Client

from companion.games.surfs_up import faces
from companion.tables.models import Table

from .text import read

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def wave(suit: str, points: int) -> dict:
    return {"kind": "wave", "suit": suit, "points": points}


ORANGE_3 = {"kind": "wave", "suit": "orange", "points": 3}
BLUE_7 = {"kind": "wave", "suit": "blue", "points": 7}
PURPLE_5 = {"kind": "wave", "suit": "purple", "points": 5}
ORANGE_BOARD = {"kind": "surfboard", "suit": "orange", "bonus": 2, "cost": 3}
ENERGY_6 = {"kind": "energy", "value": 6, "cost": 2}
BLUE_BOARD = {"kind": "surfboard", "suit": "blue", "bonus": 1, "cost": 4}
PURPLE_BOARD = {"kind": "surfboard", "suit": "purple", "bonus": 3, "cost": 1}


# ---------------------------------------------------------------------------------------------
# Reading the page's forms as a browser would submit them


class FormReader(HTMLParser):
    """The posting forms of a page: their hidden fields, the choices of their radios and checkboxes,
    their other inputs and their buttons (text, disabled)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.form: dict | None = None
        self.button: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("method") == "post":
            self.form = {"action": a["action"], "hidden": {}, "choices": {}, "inputs": [], "buttons": []}
            self.forms.append(self.form)
        elif self.form is not None and tag == "input":
            kind = a.get("type", "text")
            if kind == "hidden":
                self.form["hidden"][a["name"]] = a.get("value", "")
            elif kind in ("radio", "checkbox"):
                self.form["choices"].setdefault(a["name"], []).append(a["value"])
            else:
                self.form["inputs"].append(a["name"])
        elif self.form is not None and tag == "button":
            self.button = {"text": "", "disabled": "disabled" in a}
            self.form["buttons"].append(self.button)

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "button":
            self.button = None

    def handle_data(self, data):
        if self.button is not None:
            self.button["text"] += data


def act_forms(html: str) -> list[dict]:
    reader = FormReader()
    reader.feed(html)
    return [form for form in reader.forms if form["action"].endswith("/act/")]


def the_form(html: str, **hidden) -> dict:
    """The one entry form whose hidden fields include `hidden` (e.g. type="reveal")."""
    found = [
        form
        for form in act_forms(html)
        if all(form["hidden"].get(key) == str(value) for key, value in hidden.items())
    ]
    assert len(found) == 1, (hidden, [form["hidden"] for form in act_forms(html)])
    return found[0]


def submit(client, form: dict, picks: dict, htmx: bool = False):
    """Post a form with its hidden fields and the given picks; every pick must be one the form offers
    (a radio or checkbox value, or a field of its own)."""
    for name, value in picks.items():
        if name in form["choices"]:
            assert str(value) in form["choices"][name], (
                f"{name}={value} is not offered: {form['choices'][name]}"
            )
        else:
            assert name in form["inputs"], f"the form has no field {name}"
    return client.post(form["action"], {**form["hidden"], **picks}, **(HTMX if htmx else {}))


def href(query: dict) -> str:
    return 'href="?' + urlencode(query).replace("&", "&amp;") + '"'


def action_form(html: str, action: dict) -> dict:
    """The one option that posts `action` whole (a step's button: its action as JSON)."""
    found = [form for form in act_forms(html) if json.loads(form["hidden"].get("action", "null")) == action]
    assert len(found) == 1, (action, [form["hidden"].get("action") for form in act_forms(html)])
    return found[0]


# ---------------------------------------------------------------------------------------------
# Helpers


def new_table(client, names=("Ann", "Ben", "Cleo"), shared_goals=False) -> Table:
    fields = {f"player_{i}": name for i, name in enumerate(names)}
    if shared_goals:
        fields["option_shared_goals"] = "on"
    response = client.post("/new/surfs-up/", fields)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.get()


@pytest.fixture
def table(client):
    return new_table(client)


def page(client, table, query="") -> str:
    response = client.get(f"/t/{table.id}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def state(table) -> dict:
    table.refresh_from_db()
    return table.snapshot


def text(html: str) -> str:
    """The page's text, tags dropped and spaces squeezed, quotes unescaped."""
    plain = re.sub(r"<[^>]+>", " ", read(html)).replace("&#x27;", "'").replace("&quot;", '"')
    return " ".join(plain.split())


def options_text(html: str) -> str:
    """The reward options as read down the screen: each button and the reason under it."""
    start, end = (
        html.index('<div class="step-options">'),
        html.index('<section class="mb-3" aria-label="Scores"'),
    )
    return text(html[start:end])


def done(response) -> None:
    assert response.status_code == 302, text(response.content.decode())[:3000]


def step_to(client, table, query: dict, key: str, value) -> dict:
    """Tap the option of the page at `query` that sets `key` to `value`: its link must be there."""
    html = page(client, table, "?" + urlencode(query) if query else "")
    after = {**query, key: str(value)}
    assert href(after) in html, f"no link to {after} on the page at {query}"
    return after


def post_option(client, table, query: dict, action: dict):
    done(submit(client, action_form(page(client, table, "?" + urlencode(query)), action), {}))


def setup(
    client, table, surf=(ORANGE_3, BLUE_7, PURPLE_5), beach=(ORANGE_BOARD, ENERGY_6, BLUE_BOARD), goals=()
):
    """The six cards tapped from the grids: a wave is one tap, a beach card its face and its cost;
    the last cost posts the setup, or opens the goals' form."""
    query = {}
    for i, card in enumerate(surf, 1):
        query = step_to(client, table, query, f"w{i}", faces.code(card))
    for i, card in enumerate(beach, 1):
        query = step_to(client, table, query, f"b{i}", faces.code(card))
        if i < 3 or goals:
            query = step_to(client, table, query, f"c{i}", card["cost"])
    action = {"type": "setup", "surf": list(surf), "beach": list(beach)}
    if not goals:
        return post_option(client, table, query, action)
    form = action_form(page(client, table, "?" + urlencode(query)), action)
    picks = {}
    for i, (name, points) in enumerate(goals, 1):
        picks |= {f"goal{i}_name": name, f"goal{i}_points": points}
    done(submit(client, form, picks))


def reveal(client, table, *cards):
    form = the_form(page(client, table), type="reveal")
    done(submit(client, form, {f"energy_{seat}": card for seat, card in enumerate(cards)}))


def take_respect(client, table, seat):
    post_option(client, table, {}, {"type": "reward", "seat": seat, "choice": "respect"})


def buy(client, table, seat, slot, refill=None):
    bought = {"type": "reward", "seat": seat, "choice": "buy", "slot": slot}
    if refill is None:  # the beach deck is spent: the buy posts at once (SU-N13)
        return post_option(client, table, {}, {**bought, "refill": None})
    query = step_to(client, table, {}, "buy", slot)
    query = step_to(client, table, query, "b", faces.code(refill))
    post_option(client, table, query, {**bought, "refill": refill})


def ocean(client, table, card):
    post_option(client, table, {}, {"type": "ocean", "card": card})


def round_one(client, table):
    setup(client, table)
    reveal(client, table, 4, 4, 3)


# ---------------------------------------------------------------------------------------------
# Setup


def faces_offered(html: str) -> list[str]:
    """The face codes a grid links to, in the page's order."""
    return [dict(parse_qsl(unescape(query)))[key] for query, key in FACE_LINK.findall(html)]


FACE_LINK = re.compile(r'class="btn su-face[^"]*" href="\?([^"]*?(w\d|b\d?)=[^"&]*)"')


def test_the_setup_is_six_cards_tapped_from_grids(client, table):
    """Issue 30: a wave is one tap from the grid of every wave face (3 suits x 1-10, SU-2); a beach
    card is its face (a surfboard's suit and bonus, or an energy value) and then its cost."""
    html = page(client, table)
    assert "Wave 1 in the surf: the breakzone, closest to the beach" in html
    waves = [f"w.{suit}.{points}" for suit in ("orange", "purple", "blue") for points in range(1, 11)]
    assert faces_offered(html) == waves  # no bluebottle: one turned up now goes back (SU-3)
    assert html.count('class="su-faces"') == 3  # a row of faces per suit
    html = page(client, table, "?w1=w.orange.3")
    assert "Wave 2 in the surf" in html and "So far: the surf: a 3 orange wave" in html
    assert faces_offered(html) == waves
    assert 'href="?" ' in html  # Back takes the wave back

    html = page(client, table, "?w1=w.orange.3&w2=w.blue.7&w3=w.purple.5")
    assert "Beach card 1" in html
    boards = [f"s.{suit}.{bonus}" for suit in ("orange", "purple", "blue") for bonus in range(1, 6)]
    assert faces_offered(html) == boards + [f"e.{value}" for value in range(1, 10)]
    html = page(client, table, "?w1=w.orange.3&w2=w.blue.7&w3=w.purple.5&b1=s.orange.2")
    assert "the orange surfboard (+2): its cost?" in html
    assert [label for label in re.findall(r'<span class="option-label">(\d)</span>', html)] == [
        "1",
        "2",
        "3",
        "4",
    ]

    setup(client, table)
    s = state(table)
    assert s["surf"] == [ORANGE_3, BLUE_7, PURPLE_5]
    assert s["beach"] == [ORANGE_BOARD, ENERGY_6, BLUE_BOARD]
    assert s["ocean_deck"] == 25 and s["ocean_left"] == {"wave": 20, "bluebottle": 5}  # SU-3
    assert s["beach_deck"] == 39  # SU-2: 42 - 3
    assert s["phase"] == "reveal" and s["round"] == 1

    html = page(client, table)
    assert "Round 1 · 🪼 0/5 · ocean 25" in text(html)
    assert "Round 1: reveal" in html and "The beach · 39 left" in html
    assert '<span class="su-card su-orange breakzone" title="orange"><strong>🌊 3</strong>' in html
    form = the_form(html, type="reveal")
    assert {name: values for name, values in form["choices"].items()} == {
        f"energy_{seat}": ["0", "1", "2", "3", "4", "5"] for seat in range(3)
    }


def test_a_setup_asks_again_for_a_card_no_grid_offers_and_refuses_a_bad_one(client, table):
    # A face that is not one (typed into the address) is asked again, never a 500.
    for query in ("?w1=w.green.3", "?w1=w.orange.x", "?w1=bb", "?w1=w.orange.3&w2=s.blue.2"):
        html = page(client, table, query)
        assert '<h2 class="prompt-title">Wave' in html, query
    html = page(client, table, "?w1=w.orange.3&w2=w.blue.7&w3=w.purple.5&b1=s.orange.2&c1=9")
    assert "its cost?" in html  # a cost out of 1-4 is asked again
    # A hand-made setup with an 11-point wave is refused with its rule and changes nothing.
    bad = {
        "type": "setup",
        "surf": [wave("orange", 11), BLUE_7, PURPLE_5],
        "beach": [ORANGE_BOARD, ENERGY_6, BLUE_BOARD],
    }
    response = client.post(f"/t/{table.id}/act/", {"action": json.dumps(bad), "expected_version": 0})
    assert response.status_code == 400
    assert "Not allowed." in text(response.content.decode())
    assert state(table)["phase"] == "setup" and table.version == 0


# ---------------------------------------------------------------------------------------------
# A reveal, its story and the rewards


def test_a_wipe_out_round_tells_its_story_above_the_reward(client, table):
    round_one(client, table)
    s = state(table)
    ann, ben, cleo = s["seats"]
    assert s["last"]["wiped_out"] == [[0, 1]] and s["last"]["winner"] == 2 and s["last"]["runner_up"] is None
    assert cleo["waves"] == [ORANGE_3]
    assert s["trash"] == [3]  # the winner's card (SU-6)
    assert (ann["hand"], ann["towel"]) == ([0, 1, 2, 3, 5], [4])
    assert (ben["hand"], ben["towel"]) == ([0, 1, 2, 3, 5], [4])
    assert (cleo["hand"], cleo["towel"]) == ([0, 1, 2, 4, 5], [])
    assert [seat["respect"] for seat in s["seats"]] == [2, 2, 2]
    assert s["surf"] == [BLUE_7, PURPLE_5]  # SU-N7: the breakzone card has left
    assert s["phase"] == "reward" and s["rewards"] == [2]

    html = page(client, table)
    story = "Ann and Ben wiped out (4, respect 2). Cleo wins the 3 orange wave."
    assert f'<p class="su-story mb-2">Round 1: {story}</p>' in html
    assert html.index(story) < html.index("Cleo's reward") < html.index("+1 respect")
    assert (
        "Round 1, the 3 orange wave: Ann 4, Ben 4, Cleo 3. Ann and Ben wiped out (4, respect 2). "
        "Cleo wins the 3 orange wave; there is no runner-up. To the trash: Cleo's 3."
    ) in text(html)
    assert [score for score in re.findall(r'<span class="score fw-bold">(\d+)</span>', html)] == [
        "0",
        "0",
        "3",
    ]


def test_the_reward_screen_offers_respect_and_each_beach_card_with_its_reason(client, table):
    round_one(client, table)
    html = page(client, table)
    forms = act_forms(html)
    # +1 respect posts at once; no pass is offered while something else is possible (SU-7).
    assert [json.loads(form["hidden"]["action"]) for form in forms] == [
        {"type": "reward", "seat": 2, "choice": "respect"}
    ]
    assert forms[0]["buttons"] == [{"text": "+1 respect", "disabled": False}]
    assert "Pass: nothing is possible" not in html
    options = options_text(html)
    assert options == (
        "+1 respect "
        "Buy the orange surfboard (+2, cost 3) That surfboard costs 3 respect; Cleo has 2 (SU-7). "
        "Buy temporary energy 6 (cost 2) "
        "Buy the blue surfboard (+1, cost 4) That surfboard costs 4 respect; Cleo has 2 (SU-7)."
    )
    assert html.count('type="button" disabled aria-describedby') == 2
    assert 'href="?buy=1"' in html and 'href="?buy=0"' not in html and 'href="?buy=2"' not in html
    # An unaffordable slot asked for by hand does not open the purchase.
    assert "Cleo buys" not in page(client, table, "?buy=0")


def test_a_buy_taps_the_refill_card_from_the_grid(client, table):
    round_one(client, table)
    html = page(client, table, "?buy=1")
    assert "Cleo buys temporary energy 6 (cost 2): the new beach card from the deck?" in text(html)
    assert "Cleo's reward" in html  # whose reward it is stays the title (issue 30, 1)
    assert len(faces_offered(html)) == 24 and act_forms(html) == []  # its face, then its cost
    html = page(client, table, "?buy=1&b=s.purple.3")
    assert "the purple surfboard (+3): its cost?" in html
    forms = act_forms(html)
    assert [json.loads(form["hidden"]["action"])["refill"]["cost"] for form in forms] == [1, 2, 3, 4]
    # A hand-made purchase without its refill card is refused while the beach deck holds cards.
    table.refresh_from_db()
    version = table.version
    bare = {"type": "reward", "seat": 2, "choice": "buy", "slot": 1, "refill": None}
    refused = client.post(
        f"/t/{table.id}/act/", {"action": json.dumps(bare), "expected_version": version}, **HTMX
    )
    assert "Not allowed." in text(refused.content.decode()), text(refused.content.decode())[:600]
    assert "The beach deck still holds 39 cards" in refused.content.decode()
    assert state(table)["beach"] == [ORANGE_BOARD, ENERGY_6, BLUE_BOARD] and table.version == version

    buy(client, table, 2, 1, PURPLE_BOARD)
    s = state(table)
    cleo = s["seats"][2]
    assert cleo["respect"] == 0 and cleo["towel"] == ["t6"] and cleo["surfboards"] == []  # SU-8
    assert s["beach"] == [ORANGE_BOARD, PURPLE_BOARD, BLUE_BOARD] and s["beach_deck"] == 38
    assert s["phase"] == "ocean" and s["round"] == 1
    html = page(client, table)
    assert "Cleo bought temporary energy 6 (cost 2) for the towel; the beach gets a purple surfboard" in text(
        html
    )
    assert "Turn over the next ocean card" in html
    assert '<span class="energy-chip temporary">6</span>' in html  # Cleo's towel
    # The story of round 1 stays up until the next reveal.
    assert "Ann and Ben wiped out (4, respect 2). Cleo wins the 3 orange wave." in html


def test_the_ocean_card_form_takes_a_wave_or_a_bluebottle(client, table):
    round_one(client, table)
    buy(client, table, 2, 1, PURPLE_BOARD)
    # One tap a card: a button per wave face and the bluebottle, each posting the card (SU-2).
    posted = [json.loads(form["hidden"]["action"])["card"] for form in act_forms(page(client, table))]
    assert posted == [wave(suit, n) for suit in ("orange", "purple", "blue") for n in range(1, 11)] + [
        {"kind": "bluebottle"}
    ]
    ocean(client, table, wave("blue", 2))
    s = state(table)
    assert s["surf"] == [BLUE_7, PURPLE_5, wave("blue", 2)]
    assert s["ocean_deck"] == 24 and s["ocean_left"] == {"wave": 19, "bluebottle": 5}
    assert s["phase"] == "reveal" and s["round"] == 2

    # Round 2, the 7 blue wave: Ann 5 wins, Cleo 2 is runner-up, Ben rests (SU-5, SU-6).
    reveal(client, table, 5, 0, 2)
    html = page(client, table)
    assert (
        '<p class="su-story mb-2">Round 2: Ben rested. Ann wins the 7 blue wave, Cleo is runner-up.</p>'
        in html
    )
    take_respect(client, table, 0)
    html = page(client, table)
    assert "Cleo's reward" in html
    # Cleo spent her respect on the 6: no beach card is affordable, +1 respect is.
    assert "That surfboard costs 1 respect; Cleo has 0 (SU-7)." in read(html)
    assert "That surfboard costs 3 respect; Cleo has 0 (SU-7)." in read(html)
    assert "That surfboard costs 4 respect; Cleo has 0 (SU-7)." in read(html)
    take_respect(client, table, 2)
    ocean(client, table, {"kind": "bluebottle"})
    s = state(table)
    assert s["surf"] == [PURPLE_5, wave("blue", 2), {"kind": "bluebottle"}]
    assert s["ocean_deck"] == 23 and s["ocean_left"] == {"wave": 19, "bluebottle": 4}
    assert [seat["respect"] for seat in s["seats"]] == [3, 3, 1]
    ann, ben, cleo = s["seats"]
    assert (ann["hand"], ann["towel"], ann["waves"]) == ([0, 1, 2, 3], [4], [BLUE_7])
    assert (ben["hand"], ben["towel"]) == ([0, 1, 2, 3, 4, 5], [])  # resting brought the 4 back
    assert (cleo["hand"], cleo["towel"]) == ([0, 1, 4, 5], [2, "t6"])
    html = page(client, table)
    assert "Round 3 · 🪼 0/5 · ocean 23" in text(html)
    assert '<span class="su-card su-bluebottle" title="bluebottle"><strong>🪼</strong>' in html
    assert "A bluebottle rolls into the surf." in text(html)


def test_a_refused_reveal_shows_its_rule_and_changes_nothing(client, table):
    round_one(client, table)
    buy(client, table, 2, 1, PURPLE_BOARD)
    ocean(client, table, wave("blue", 2))
    before = state(table)
    version = table.version
    # Ann's 4 lies on her towel: a phone that posts it by hand is refused (SU-4).
    data = {"type": "reveal", "expected_version": version, "energy_0": "4", "energy_1": "5", "energy_2": "0"}
    response = client.post(f"/t/{table.id}/act/", data, **HTMX)
    html = read(response.content.decode())
    assert response.status_code == 200  # htmx swaps only 2xx answers
    assert (
        "Not allowed.</strong> Ann&#x27;s 4 is on the towel: "
        "resting (revealing 0) brings it back to hand (SU-4)." in html
    )
    assert 'class="alert alert-danger py-2 refusal"' in html
    # The other picks stay picked; Ann's 4 is not offered at all.
    assert 'id="energy-1-5" value="5" autocomplete="off" required checked' in html
    assert 'id="energy-2-0" value="0" autocomplete="off" required checked' in html
    assert 'id="energy-0-4"' not in html
    assert state(table) == before and table.version == version
    # Without htmx the refusal is a 422 page.
    response = client.post(f"/t/{table.id}/act/", data)
    assert response.status_code == 422 and "Ann&#x27;s 4 is on the towel" in response.content.decode()
    assert state(table) == before and table.version == version


def test_must_buy_at_four_and_pass_only_when_nothing_else_is(client, table):
    setup(client, table)
    s = state(table)
    # A table late in the game: the beach deck is spent and two spaces stand empty (SU-N13).
    s["seats"][0]["respect"] = s["seats"][1]["respect"] = 4
    s["beach"], s["beach_deck"] = [None, ENERGY_6, None], 0
    table.snapshot = s
    table.save()
    reveal(client, table, 5, 4, 3)  # Ann wins the 3 orange wave, Ben is runner-up
    html = page(client, table)
    assert '<span class="su-card empty"><small>empty</small></span>' in html
    assert "The beach · 0 left" in html
    options = options_text(html)
    assert options == (
        "+1 respect Ann is at 4 respect and must buy (SU-7). "
        "Empty beach space Beach space 1 is empty: the beach deck ran out (SU-7). "
        "Buy temporary energy 6 (cost 2) "
        "Empty beach space Beach space 3 is empty: the beach deck ran out (SU-7)."
    )
    assert '<span class="option-label">+1 respect</span></button>' in html and "?buy=1" not in html
    # Nothing refills the space (SU-N13): the purchase posts at once.
    buy(client, table, 0, 1)
    s = state(table)
    assert s["beach"] == [None, None, None] and s["seats"][0]["respect"] == 2
    assert s["seats"][0]["towel"] == ["t6"]

    html = page(client, table)
    assert "Ben's reward" in html
    options = options_text(html)
    assert options.startswith("+1 respect Ben is at 4 respect and can gain no more (SU-7). Empty beach space")
    assert options.endswith("Pass: nothing is possible")
    post_option(client, table, {}, {"type": "reward", "seat": 1, "choice": "pass"})
    s = state(table)
    assert s["phase"] == "ocean" and s["seats"][1]["respect"] == 4
    assert "Ben passes: at 4 respect with nothing to buy." in text(page(client, table))


# ---------------------------------------------------------------------------------------------
# The end


def test_the_final_entry_scores_the_game(client):
    """Two surfers with shared goals; Ann wins five waves with 5, 4, 3, 2, 1 and is left with her
    rest card alone (SU-10).

      Round  Surf card  Ann   Ben   Result                         Rewards
      1      orange 6   5     0     Ann wins                       Ann +1 respect (3)
      2      blue 4     4     0     Ann wins                       Ann +1 respect (4)
      3      purple 2   3     0     Ann wins                       Ann at 4 must buy the orange +2 (1)
      4      bluebottle 0     0     both lowest: both stung        -
      5      orange 8   2     1     Ann wins, Ben runner-up        Ann +1 (3); Ben at 4 buys the blue +1 (2)
      6      blue 10    1     0     Ann wins: only her 0 is left   Ann +1 (4); the game ends

    Ben rests in rounds 1-4 (respect 3, 4, then 4 twice: the cap), pays 2 in round 5 (2) and rests in
    round 6 (3, with his towel's 1 back in hand).
    Score (SU-12): Ann waves 6 + 4 + 2 + 8 + 10 = 30, the orange +2 x 2 orange waves = 4, goals 5 + 3,
    sting -2: 40. Ben: no wave, the blue +1 x 0 = 0, goal 2, sting 0: 2.
    """
    table = new_table(client, ("Ann", "Ben"), shared_goals=True)
    goals = [("Three suits", 5), ("Big wave", 3), ("Beach bum", 2)]
    setup(
        client,
        table,
        surf=[wave("orange", 6), wave("blue", 4), wave("purple", 2)],
        beach=[ORANGE_BOARD, {"kind": "surfboard", "suit": "blue", "bonus": 1, "cost": 2}, ENERGY_6],
        goals=goals,
    )
    assert state(table)["goals"] == [{"name": name, "points": points} for name, points in goals]

    reveal(client, table, 5, 0)
    take_respect(client, table, 0)
    ocean(client, table, {"kind": "bluebottle"})
    reveal(client, table, 4, 0)
    take_respect(client, table, 0)
    ocean(client, table, wave("orange", 8))
    reveal(client, table, 3, 0)
    html = page(client, table)
    assert 'disabled aria-describedby="why-1"><span class="option-label">+1 respect</span>' in html
    assert "Ann is at 4 respect and must buy (SU-7)." in read(html)
    buy(client, table, 0, 0, PURPLE_BOARD)
    ocean(client, table, wave("blue", 10))
    reveal(client, table, 0, 0)
    assert "Ann and Ben rested. Ann and Ben got stung by the bluebottle.</p>" in page(client, table)
    ocean(client, table, wave("purple", 7))
    reveal(client, table, 2, 1)
    take_respect(client, table, 0)
    assert "Ben is at 4 respect and must buy (SU-7)." in read(page(client, table))
    buy(client, table, 1, 1, {"kind": "energy", "value": 3, "cost": 1})
    ocean(client, table, {"kind": "bluebottle"})
    reveal(client, table, 1, 0)
    take_respect(client, table, 0)

    s = state(table)
    assert s["phase"] == "final" and s["end_reason"] == "rest_card"
    ann, ben = s["seats"]
    assert (ann["hand"], ann["towel"], ann["respect"], ann["stings"]) == ([0], [], 4, 1)
    assert (ben["hand"], ben["towel"], ben["respect"], ben["stings"]) == ([0, 1, 2, 3, 4, 5], [], 3, 1)
    assert [w["points"] for w in ann["waves"]] == [6, 4, 2, 8, 10]
    html = page(client, table)
    assert "The end: turn over the bluebottle tokens" in html
    assert (
        "Ann has only the rest card left: the game ends. Enter the bluebottle tokens and the shared goals."
        in text(html)
    )
    form = the_form(html, type="final")
    assert form["hidden"]["stings_0"] == "1" and form["hidden"]["stings_1"] == "1"
    assert form["hidden"]["goals_on"] == "1"
    assert form["choices"]["sting_0_0"] == ["0", "-1", "-2", "-3"]
    assert form["choices"]["goal_0_0"] == ["1"] and form["choices"]["goal_1_2"] == ["1"]
    # A tick's two states cannot be confused (issue 43): an empty box until ticked, a checked one
    # after (screen.css shows one of the two), never a check mark on an unticked goal.
    tick = (
        '<span class="tick-off" aria-hidden="true">☐</span><span class="tick-on" aria-hidden="true">☑</span>'
    )
    assert f"{tick} Three suits (+5)" in html and f"{tick} Beach bum (+2)" in html and "✓" not in html
    # Each surfer's total with the goals ticked, from what the waves and boards give now.
    assert re.findall(r'<output id="preview-(\d)" data-base="(-?\d+)">', html) == [("0", "34"), ("1", "0")]
    assert [button["text"] for button in form["buttons"]] == ["Score the game"]
    # Live scores before the entry: waves and boards only (SU-N5).
    assert re.findall(r'<span class="score fw-bold">(-?\d+)</span>', html) == ["34", "0"]

    # A token left without a value (posted by hand: the radios are required) is refused.
    refused = submit(client, form, {"sting_1_0": 0, "goal_0_0": 1}, htmx=True).content.decode()
    assert "Not allowed." in refused and "Ann&#x27;s stings must be a list of token values" in refused
    assert state(table)["phase"] == "final"

    form = the_form(page(client, table), type="final")
    done(submit(client, form, {"sting_0_0": -2, "sting_1_0": 0, "goal_0_0": 1, "goal_0_1": 1, "goal_1_2": 1}))
    table.refresh_from_db()
    assert table.status == "finished"
    s = table.snapshot
    assert s["phase"] == "over" and s["winners"] == [0]
    assert (s["seats"][0]["sting_values"], s["seats"][0]["goals"]) == ([-2], [0, 1])
    assert (s["seats"][1]["sting_values"], s["seats"][1]["goals"]) == ([0], [2])

    html = page(client, table)
    assert "🏆 Ann wins with 40 points" in html
    assert "Ann is down to the rest card alone (SU-10)." in read(html)  # who, not "a surfer" (issue 15)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html[html.index('class="table table-sm') :], re.S)
    # Two surfers and four parts: a column per surfer is narrower than a column per part, and the
    # Total row comes first (issue 15: no sideways scroll, Total never cut off).
    assert [text(row) for row in rows[:6]] == [
        "Score part Ann Ben",
        "Total 40 2",
        "Waves 30 0",
        "Boards 4 0",
        "Goals 8 2",
        "Stings -2 0",
    ]
    assert "Final scores: Ann 40, Ben 2. Ann wins." in text(html)
    assert act_forms(html) == []


# ---------------------------------------------------------------------------------------------
# Watching


def test_the_view_only_link_sees_no_forms(client, table):
    round_one(client, table)
    watcher = Client()
    watcher.get(f"/t/{table.id}/join/{table.view_token}/")
    html = watcher.get(f"/t/{table.id}/").content.decode()
    assert "You are watching this table." in html
    assert "Cleo takes a reward." in html
    assert "Ann and Ben wiped out (4, respect 2). Cleo wins the 3 orange wave." in html
    # No form of the table's (the page's foot holds the language switch, every page's).
    assert act_forms(html) == [] and "<form" not in html[html.index('id="live"') : html.index("app-footer")]
    assert "?buy=" not in html and "energy_0" not in html and "Undo" not in html
    # The panel still shows the whole table.
    assert "Surfers" in html and '<span class="su-chip su-orange">🌊 orange 3</span>' in html
    data = {"type": "reward", "seat": 2, "choice": "respect", "expected_version": table.version}
    assert watcher.post(f"/t/{table.id}/act/", data).status_code == 403
    assert state(table)["phase"] == "reward"


@pytest.mark.parametrize("goals", [False, True])
def test_the_result_has_a_goals_row_only_when_the_table_played_with_goals(client, goals):
    """Issue 43: a "Goals 0" row showed under a game without shared goals."""
    from tests.history.factories import play_out

    table = play_out("surfs-up", ["Ann", "Ben", "Cleo"], seed=4, options={"shared_goals": goals})
    client.get(f"/t/{table.id}/join/{table.view_token}/")
    html = page(client, table)
    result = html[html.index('<section class="result') :]
    parts = re.findall(r'<th scope="row"[^>]*>([^<]+)</th>', result[: result.index("</section>")])
    assert parts == ["Total", "Waves", "Boards", *(["Goals"] if goals else []), "Stings"]
