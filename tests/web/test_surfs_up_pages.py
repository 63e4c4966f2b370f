"""Surf's Up! through the pages: every entry is made with the fields the page's own forms hold.

The opening used by most tests (3 surfers, SU-1: hand 0-5, 2 respect each):
  surf  orange 3 (breakzone), blue 7, purple 5     beach  orange +2 cost 3, energy 6 cost 2, blue +1 cost 4
  Round 1, the 3 orange wave: Ann 4, Ben 4, Cleo 3. Ann and Ben show the same value with the same
  respect (2): they wipe out (SU-5); Cleo wins alone, there is no runner-up. Cleo's 3 is trashed,
  Ann's and Ben's 4 go to their towels (SU-6).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

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


def card_picks(prefix: str, card: dict) -> dict:
    """The taps that enter `card` in a card entry named `prefix` (a wave entry has no kind switch)."""
    picks = {f"{prefix}_{key}": value for key, value in card.items()}
    if prefix.startswith("surf"):
        del picks[f"{prefix}_kind"]
    return picks


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


def setup(
    client, table, surf=(ORANGE_3, BLUE_7, PURPLE_5), beach=(ORANGE_BOARD, ENERGY_6, BLUE_BOARD), goals=()
):
    form = the_form(page(client, table), type="setup")
    picks = {}
    for i, card in enumerate(surf, 1):
        picks |= card_picks(f"surf{i}", card)
    for i, card in enumerate(beach, 1):
        picks |= card_picks(f"beach{i}", card)
    for i, (name, points) in enumerate(goals, 1):
        picks |= {f"goal{i}_name": name, f"goal{i}_points": points}
    done(submit(client, form, picks))


def reveal(client, table, *cards):
    form = the_form(page(client, table), type="reveal")
    done(submit(client, form, {f"energy_{seat}": card for seat, card in enumerate(cards)}))


def take_respect(client, table, seat):
    done(submit(client, the_form(page(client, table), type="reward", seat=seat, choice="respect"), {}))


def buy(client, table, seat, slot, refill=None):
    html = page(client, table)
    assert f'href="?buy={slot}"' in html, f"beach slot {slot} cannot be bought"
    form = the_form(page(client, table, f"?buy={slot}"), type="reward", seat=seat, choice="buy", slot=slot)
    done(submit(client, form, card_picks("refill", refill) if refill else {}))


def ocean(client, table, card):
    form = the_form(page(client, table), type="ocean")
    done(submit(client, form, card_picks("card", card)))


def round_one(client, table):
    setup(client, table)
    reveal(client, table, 4, 4, 3)


# ---------------------------------------------------------------------------------------------
# Setup


def test_the_setup_form_creates_the_surf_and_the_beach(client, table):
    html = page(client, table)
    assert "Set up the surf and the beach" in html
    form = the_form(html, type="setup")
    # Three wave entries (the kind is fixed), three beach entries with a kind switch (SU-2).
    for i in (1, 2, 3):
        assert form["hidden"][f"surf{i}_kind"] == "wave"
        assert form["choices"][f"surf{i}_suit"] == ["orange", "purple", "blue"]
        assert form["choices"][f"surf{i}_points"] == [str(n) for n in range(1, 11)]
        assert form["choices"][f"beach{i}_kind"] == ["surfboard", "energy"]
        assert form["choices"][f"beach{i}_bonus"] == ["1", "2", "3", "4", "5"]
        assert form["choices"][f"beach{i}_value"] == [str(n) for n in range(1, 10)]
        assert form["choices"][f"beach{i}_cost"] == ["1", "2", "3", "4"]
    assert not any(name.startswith("goal") for name in form["inputs"])  # shared goals are off
    assert [button["text"] for button in form["buttons"]] == ["Start surfing"]

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


def test_a_setup_with_a_missing_wave_value_is_refused(client, table):
    form = the_form(page(client, table), type="setup")
    picks = card_picks("surf1", ORANGE_3) | card_picks("surf2", BLUE_7)  # wave 3 left blank
    for i, card in enumerate((ORANGE_BOARD, ENERGY_6, BLUE_BOARD), 1):
        picks |= card_picks(f"beach{i}", card)
    response = submit(client, form, picks | {"surf3_suit": "purple"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Not allowed." in text(html)
    assert state(table)["phase"] == "setup" and table.version == 0
    # Every tap made stays made (issue 15): the two waves, the third's suit, the beach cards.
    checked = dict(re.findall(r'name="(\w+)" id="[^"]+" value="([^"]+)"[^>]*\bchecked>', html))
    assert checked == {
        "surf1_suit": "orange",
        "surf1_points": "3",
        "surf2_suit": "blue",
        "surf2_points": "7",
        "surf3_suit": "purple",
        **{key: str(value) for key, value in picks.items() if key.startswith("beach")},
    }


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
    assert html.index(story) < html.index("Cleo's reward") < html.index('name="choice" value="respect"')
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
    # +1 respect is a form of its own; no pass is offered while something else is possible (SU-7).
    assert [form["hidden"]["choice"] for form in forms] == ["respect"]
    assert forms[0]["buttons"] == [{"text": "+1 respect", "disabled": False}]
    assert 'value="pass"' not in html and "Pass: nothing is possible" not in html
    options = options_text(html)
    assert options == (
        "+1 respect "
        "Buy 🏄 +2 · orange · cost 3 That surfboard costs 3 respect; Cleo has 2 (SU-7). "
        "Buy ⚡ 6 · energy · cost 2 "
        "Buy 🏄 +1 · blue · cost 4 That surfboard costs 4 respect; Cleo has 2 (SU-7)."
    )
    assert html.count('type="button" disabled>Buy') == 2
    assert 'href="?buy=1"' in html and 'href="?buy=0"' not in html and 'href="?buy=2"' not in html
    # An unaffordable slot asked for by hand does not open the buy form.
    assert "Cleo buys" not in page(client, table, "?buy=0")


def test_a_buy_enters_the_refill_card(client, table):
    round_one(client, table)
    html = page(client, table, "?buy=1")
    assert "Cleo buys <strong>⚡ 6</strong> (energy · cost 2): it goes to the towel" in html
    assert "The new beach card from the deck" in html
    form = the_form(html, type="reward", choice="buy")
    assert form["hidden"] | {"csrfmiddlewaretoken": "", "idempotency_key": ""} == {
        "csrfmiddlewaretoken": "",
        "expected_version": "2",
        "idempotency_key": "",
        "type": "reward",
        "seat": "2",
        "choice": "buy",
        "slot": "1",
    }
    assert form["choices"]["refill_kind"] == ["surfboard", "energy"]
    # Forgetting the refill card is refused while the beach deck holds cards (SU-7).
    refused = submit(client, form, {}, htmx=True).content.decode()
    assert "Not allowed." in refused and "The beach deck still holds 39 cards" in refused
    assert state(table)["beach"] == [ORANGE_BOARD, ENERGY_6, BLUE_BOARD]

    form = the_form(page(client, table, "?buy=1"), type="reward", choice="buy")
    done(submit(client, form, card_picks("refill", PURPLE_BOARD)))
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
    form = the_form(page(client, table), type="ocean")
    assert form["choices"]["card_kind"] == ["wave", "bluebottle"]
    assert form["choices"]["card_suit"] == ["orange", "purple", "blue"]
    assert [button["text"] for button in form["buttons"]] == ["Add to the surf"]
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
        "Buy ⚡ 6 · energy · cost 2 "
        "Empty beach space Beach space 3 is empty: the beach deck ran out (SU-7)."
    )
    assert the_form(html, choice="respect")["buttons"] == [{"text": "+1 respect", "disabled": True}]

    html = page(client, table, "?buy=1")
    assert "The beach deck is empty: the space stays empty." in html
    assert "refill_kind" not in html
    done(submit(client, the_form(html, choice="buy"), {}))
    s = state(table)
    assert s["beach"] == [None, None, None] and s["seats"][0]["respect"] == 2
    assert s["seats"][0]["towel"] == ["t6"]

    html = page(client, table)
    assert "Ben's reward" in html
    options = options_text(html)
    assert options.startswith("+1 respect Ben is at 4 respect and can gain no more (SU-7). Empty beach space")
    assert options.endswith("Pass: nothing is possible")
    done(submit(client, the_form(html, choice="pass"), {}))
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
    html = page(client, table)
    form = the_form(html, type="setup")
    assert {"goal1_name", "goal1_points", "goal3_name", "goal3_points"} <= set(form["inputs"])
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
    assert the_form(html, choice="respect")["buttons"] == [{"text": "+1 respect", "disabled": True}]
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
    assert "✓ Three suits (+5)" in html and "✓ Beach bum (+2)" in html
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
