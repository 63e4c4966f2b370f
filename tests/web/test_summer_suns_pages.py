"""62 Summer Suns through the pages: the roll, "this is my sheet", a placement one tap at a time."""

import re

import pytest

from companion.games import registry
from companion.games.summer_suns import SHEETS
from companion.tables.models import Table

from .text import read

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(client):
    response = client.post(
        "/new/summer-suns/", {"player_0": "Ann", "player_1": "Ben", "option_sheet": "default"}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.get()


def roll(client, table, dice):
    data = {"type": "roll", "expected_version": table.version, **{f"die_{i}": v for i, v in enumerate(dice)}}
    return client.post(f"/t/{table.id}/act/", data)


def hidden_forms(html: str) -> list[dict]:
    """Each posting form of a page as its hidden fields (the wizard's finishing buttons)."""
    forms = []
    for form in re.findall(r'<form method="post" action="/t/\w+/act/".*?</form>', html, re.S):
        forms.append(dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form)))
    return forms


def test_new_table_asks_for_the_sheet_only_when_there_is_a_choice(client, monkeypatch):
    html = client.get("/new/summer-suns/").content.decode()
    assert '<input type="hidden" name="option_sheet" value="default"' in html and "Score sheet" not in html
    monkeypatch.setattr(registry.get("summer-suns"), "option_choices", {"sheet": ["default", "mine"]})
    html = client.get("/new/summer-suns/").content.decode()
    assert 'type="radio" class="form-check-input"  name="option_sheet" value="mine"' in html


def test_the_roll_form_enters_three_dice(client, table):
    html = client.get(f"/t/{table.id}/").content.decode()
    assert "Round 1: roll the three dice" in html
    assert html.count('name="die_') == 18
    assert roll(client, table, [3, 5, 1]).status_code == 302
    table.refresh_from_db()
    assert table.snapshot["dice"] == [3, 5, 1] and table.snapshot["phase"] == "place"


def test_a_bad_roll_is_refused(client, table):
    response = client.post(
        f"/t/{table.id}/act/", {"type": "roll", "expected_version": 0, "die_0": 7, "die_1": 1}
    )
    assert response.status_code == 400
    table.refresh_from_db()
    assert table.version == 0


def test_a_phone_picks_its_sheet_then_places_in_two_taps(client, table):
    roll(client, table, [3, 5, 1])
    table.refresh_from_db()
    html = client.get(f"/t/{table.id}/").content.decode()
    assert "Which sheet is yours?" in html
    client.post(f"/t/{table.id}/seat/", {"seat": 0})
    html = client.get(f"/t/{table.id}/").content.decode()
    assert "Ann: Tap a lit slot to write in it" in html
    # Pearl 3 (die 1) selects c1t, k2, g2, s4, b5, s7; pearl 5 and pearl 1 select more.
    lit = re.findall(r'data-slot="(\w+)" aria-label="Choose ', html)
    assert {"c1t", "k2", "g2", "s4", "b5", "s7"} <= set(lit)
    # Tap c1t: two ways, each one tap from done.
    html = client.get(f"/t/{table.id}/?slot=c1t", **HTMX).content.decode()
    assert "How to fill Cabin 1, top" in html
    assert "Write 5 · sun +1 = 1" in html and "Write 1 · sun +5 = 5" in html
    ways = [form for form in hidden_forms(html) if form.get("type") == "place"]
    assert {(form["write_die"], form["slot"]) for form in ways} == {("1", "c1t"), ("2", "c1t")}
    write_five = next(form for form in ways if form["write_die"] == "1")
    response = client.post(f"/t/{table.id}/act/", write_five, **HTMX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.snapshot["seats"][0]["cells"] == {"c1t": 5}
    assert table.snapshot["seats"][0]["sun"] == [1]
    html = response.content.decode()
    assert "Ann has written this round" in html
    # A shared phone hands on in one tap: "Next: Ben" makes it Ben's sheet (issue 15).
    next_ben = 'name="seat" value="1"><button class="btn btn-primary btn-lg w-100 big-action" '
    next_ben += 'type="submit">Next: Ben'
    assert next_ben in html
    client.post(f"/t/{table.id}/seat/", {"seat": 1})
    html = client.get(f"/t/{table.id}/").content.decode()
    assert "Ben: Tap a lit slot to write in it" in html and "Next: " not in html


def test_the_choice_in_progress_survives_a_poll(client, table):
    roll(client, table, [3, 5, 1])
    client.post(f"/t/{table.id}/seat/", {"seat": 0})
    table.refresh_from_db()
    # Ben's phone writes meanwhile: the version moves and Ann's phone polls with its choice.
    client.post(f"/t/{table.id}/seat/", {"seat": 1})
    ben = client.get(f"/t/{table.id}/?slot=k2", **HTMX).content.decode()
    form = next(form for form in hidden_forms(ben) if form.get("slot") == "k2")
    client.post(f"/t/{table.id}/act/", form)
    client.post(f"/t/{table.id}/seat/", {"seat": 0})
    html = client.get(f"/t/{table.id}/poll/?v=1&slot=c1t", **HTMX).content.decode()
    assert "How to fill Cabin 1, top" in html
    assert 'poll/?v=2&amp;slot=c1t"' in html


def test_a_refused_pass_names_its_rule(client, table):
    roll(client, table, [3, 5, 1])
    table.refresh_from_db()
    data = {"type": "pass", "seat": 1, "sun_die": 0, "expected_version": table.version}
    response = client.post(f"/t/{table.id}/act/", data, **HTMX)
    html = response.content.decode()
    assert "Not allowed." in html and "SS-11" in html
    table.refresh_from_db()
    assert table.snapshot["seats"][1]["placed"] is False


def test_another_players_sheet_is_read_only(client, table):
    roll(client, table, [3, 5, 1])
    client.post(f"/t/{table.id}/seat/", {"seat": 0})
    html = client.get(f"/t/{table.id}/?view=1", **HTMX).content.decode()
    assert 'Ben\'s sheet</strong> <small class="text-body-secondary">(read-only)</small>' in html


def place(client, table, seat, slot_die, write_die, slot):
    table.refresh_from_db()
    data = {"type": "place", "seat": seat, "slot_die": slot_die, "write_die": write_die, "slot": slot}
    response = client.post(f"/t/{table.id}/act/", {**data, "expected_version": table.version})
    assert response.status_code == 302, response.content.decode()[:3000]


def test_an_unlit_slot_says_why_it_is_dark(client, table):
    roll(client, table, [3, 5, 1])
    place(client, table, 0, 0, 2, "k2")  # Ann writes 1 in k2 (picked by the 3)
    place(client, table, 1, 0, 1, "c1t")
    table.refresh_from_db()
    roll(client, table, [1, 3, 5])
    client.post(f"/t/{table.id}/seat/", {"seat": 0})
    html = client.get(f"/t/{table.id}/", **HTMX).content.decode()
    # A dark slot's link says which slot in words (issue 15), for a screen reader too.
    assert 'aria-label="Why not Koi 1, 1st?"' in html and 'aria-label="Why not Koi 1, 4th?"' in html
    # k4's pearl is 2: no die shows it.
    html = client.get(f"/t/{table.id}/?why=k4", **HTMX).content.decode()
    assert "No die shows the pearl of Koi 1, 4th (2)" in html
    # The 1 picks k1, but k1 must stay below k2's 1 on this koi whatever is written.
    html = client.get(f"/t/{table.id}/?why=k1", **HTMX).content.decode()
    assert "Not there." in html
    assert (
        "Cannot write 3 or 5 in Koi 1, 1st: it must be smaller than Koi 1, 2nd (1) on this koi (SS-4)."
    ) in read(html)
    assert 'class="ss-cell zone-koi refused"' in html
    table.refresh_from_db()
    assert table.snapshot["seats"][0]["cells"] == {"k2": 1}


def test_a_seat_with_no_legal_slot_gets_the_pass_buttons(client, table):
    roll(client, table, [3, 5, 1])
    table.refresh_from_db()
    # Every slot but k4 (pearl 2) written: no die shows a 2, so Ann must pass (SS-11).
    table.snapshot["seats"][0]["cells"] = {slot: 1 for slot in SHEETS["default"].slot_ids if slot != "k4"}
    table.save()
    client.post(f"/t/{table.id}/seat/", {"seat": 0})
    html = client.get(f"/t/{table.id}/", **HTMX).content.decode()
    assert "No slot can take these dice: choose the die for the sun row" in html
    passes = [form for form in hidden_forms(html) if form.get("type") == "pass"]
    assert [(form["sun_die"], form["seat"]) for form in passes] == [("0", "0"), ("1", "0"), ("2", "0")]
    assert "Sun +3 = 3" in html and "Sun +5 = 5" in html and "Sun +1 = 1" in html
    response = client.post(f"/t/{table.id}/act/", passes[1], **HTMX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.snapshot["seats"][0]["sun"] == [5] and table.snapshot["seats"][0]["placed"] is True


def test_a_player_takes_back_their_own_entry(client, table):
    roll(client, table, [3, 5, 1])
    place(client, table, 0, 0, 1, "c1t")
    client.post(f"/t/{table.id}/seat/", {"seat": 0})
    html = client.get(f"/t/{table.id}/", **HTMX).content.decode()
    assert "↶ Take back Ann's entry" in html
    assert '<input type="hidden" name="seq" value="2">' in html
    table.refresh_from_db()
    response = client.post(f"/t/{table.id}/undo/", {"expected_version": table.version, "seq": 2}, **HTMX)
    assert "Ann: Tap a lit slot to write in it" in response.content.decode()
    table.refresh_from_db()
    assert table.snapshot["seats"][0]["cells"] == {} and table.snapshot["dice"] == [3, 5, 1]


def test_the_sheet_spells_out_the_score_now(client, table):
    roll(client, table, [3, 5, 1])
    place(client, table, 0, 0, 2, "c1t")  # Ann writes 1 in c1t (no pearl: 3), sun 5
    place(client, table, 1, 1, 0, "b2")  # Ben writes 3 in b2 (no pearl: 5), sun 1
    table.refresh_from_db()
    roll(client, table, [4, 4, 2])
    client.post(f"/t/{table.id}/seat/", {"seat": 0})
    place(client, table, 0, 0, 1, "g1")  # 4 in g1: its pearl and its shell, the shell lead
    html = client.get(f"/t/{table.id}/", **HTMX).content.decode()
    assert "Score now: pearls 1 + most shells 5 = 6" in html  # SS-N5: the lead counts live
    assert "sun 7 · 🐚1 ✓" in html and "sun 1 · 🐚0" in html


def test_a_bonus_number_is_chosen_slot_then_value(client, table):
    roll(client, table, [1, 3, 6])
    place(client, table, 0, 0, 1, "c3t")  # Ann: 3 in c3t, sun +6 = 6
    place(client, table, 1, 0, 1, "k1")  # Ben: 3 in k1, sun +6 = 6
    table.refresh_from_db()
    roll(client, table, [1, 3, 6])
    client.post(f"/t/{table.id}/seat/", {"seat": 0})
    # Round 2: 3 in k1 with the 6 to the sun makes 12, a bonus number (SS-10).
    html = client.get(f"/t/{table.id}/?slot=k1", **HTMX).content.decode()
    assert "Write 3 · sun +6 = 12" in html and "Write 6 · sun +3 = 9" in html
    step = re.search(r'href="(\?[^"]*wd=1[^"]*)"', html).group(1).replace("&amp;", "&")
    html = client.get(f"/t/{table.id}/{step}", **HTMX).content.decode()
    assert "Ann: Sun total 12: a bonus number! Tap the slot for it" in html
    lit = set(re.findall(r'data-slot="(\w+)" aria-label="Choose ', html))
    assert "k1" not in lit and "c3t" not in lit and "k2" in lit  # written slots cannot take it
    # c3b can only be 3 beside c3t's 3 (SS-4): one way, so its tap writes the bonus at once (issue 15).
    assert "c3b" not in lit
    assert "Write 3 in Koi 1, 1st; sun +6 = 12; bonus 3 in Cabin 3, bottom" in re.findall(
        r'class="cell-button" data-slot="\w+" aria-label="([^"]*)"', html
    )
    html = client.get(f"/t/{table.id}/{step}&bslot=k2", **HTMX).content.decode()
    assert "Bonus number in Koi 1, 2nd: which value?" in html
    # k2 sits between k1 (3) and k3 (empty) with k1 < k2: only 4, 5, 6 fit (SS-4).
    bonus = [form for form in hidden_forms(html) if form.get("bonus_slot") == "k2"]
    assert sorted(form["bonus_value"] for form in bonus) == ["4", "5", "6"]
    table.refresh_from_db()
    client.post(f"/t/{table.id}/act/", next(form for form in bonus if form["bonus_value"] == "5"))
    table.refresh_from_db()
    ann = table.snapshot["seats"][0]
    assert ann["cells"] == {"c3t": 3, "k1": 3, "k2": 5} and ann["sun"] == [6, 12]
    assert ann["marks"] == {"k2": "bonus"}
