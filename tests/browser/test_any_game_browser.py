"""The score pad on a 390 px phone: Hearts for five, typed with the keypad, as a group would.

  Round  Ann  Ben  Cleo  Dan  Eve     The round is typed on the keypad: a tap on Ann's field, then
  1      13   0    9     4    0       the keyboard's Next (Enter) after each player, the last one
  2      0    26   0     0    0       saves: players + 1 taps. After this phone's own entry the
  3      -5   10   3     0    18      next round's first field is ready: players taps (AG-3); a
  4      0    0    0     0    100     minus is one tap more. Totals after round 3: Ann 8, Ben 36,
                                      Cleo 12, Dan 4, Eve 18. Round 4 takes Eve to 118 >= 100: the
game ends (AG-5) and the lowest total wins: Dan with 4 (AG-6).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from companion.tables.models import Table

from .test_table_loop import both_schemes  # light and dark without a reload: typed fields stay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve"]


def type_round(page: Page, points: list[int], tap_first: bool) -> int:
    """Type a round as a player does; the taps it took (a tap on a field, the minus key, Next)."""
    taps = 0
    if tap_first:
        page.locator("#points-0").click()
        taps += 1
    expect(page.locator("#points-0")).to_be_focused()
    for seat, value in enumerate(points):
        if value < 0:
            page.get_by_text("minus for " + NAMES[seat]).locator("..").click()
            expect(page.locator(f"#points-{seat}")).to_be_focused()  # back to the field it signs
            taps += 1
        page.keyboard.type(str(abs(value)))
        page.keyboard.press("Enter")
        taps += 1
        if seat + 1 < len(points):
            expect(page.locator(f"#points-{seat + 1}")).to_be_focused()
    return taps


def test_hearts_for_five_on_the_keypad(live_server, phone, shot):
    phone.goto(live_server.url + "/")
    phone.get_by_role("link", name=re.compile(r"^Any other game")).click()
    expect(phone.get_by_role("heading", name="A score pad for any other game")).to_be_visible()
    phone.locator("#id_option_game_name").fill("Hearts")
    phone.locator("#id_option_game_name").press("Tab")  # a library game (issue 44): its sheet fills in
    expect(phone.get_by_label("The lowest total wins")).to_be_checked()
    expect(phone.get_by_label("End the game when a total reaches (optional)")).to_have_value("100")
    expect(phone.locator("#id_player_4")).to_be_hidden()  # seats appear as they are needed
    for i, name in enumerate(NAMES):
        phone.locator(f"#id_player_{i}").fill(name)
    expect(phone.locator("#id_player_5")).to_be_visible()
    expect(phone.locator("#id_player_6")).to_be_hidden()
    both_schemes(phone, shot, "any-game-01-new-pad")
    phone.get_by_role("button", name="Start the table").click()
    expect(phone.get_by_role("heading", name="Hearts", exact=True)).to_be_visible()

    taps = [type_round(phone, [13, 0, 9, 4, 0], tap_first=True)]
    expect(phone.locator("#last-entry-text")).to_contain_text("Round 1: Ann 13, Ben 0, Cleo 9, Dan 4, Eve 0.")
    taps.append(type_round(phone, [0, 26, 0, 0, 0], tap_first=False))
    expect(phone.get_by_role("heading", name="Round 3")).to_be_visible()
    taps.append(type_round(phone, [-5, 10, 3, 0, 18], tap_first=False))
    print(f"\nScore pad taps per round, 5 players: {taps}")
    assert taps == [6, 5, 6]  # players + 1 at most; the minus key is the one extra
    ranks = phone.locator(".scoreboard li small")
    expect(ranks).to_have_text(["2nd", "5th", "3rd", "1st", "4th"])  # the lowest total leads
    expect(phone.locator(".scoreboard li.leading")).to_contain_text("Dan")
    table = Table.objects.get()
    assert table.snapshot["rounds"][2] == {"0": -5, "1": 10, "2": 3, "3": 0, "4": 18}
    both_schemes(phone, shot, "any-game-02-round-4")

    type_round(phone, [0, 0, 0, 0, 100], tap_first=False)
    expect(phone.locator(".result")).to_contain_text("Dan wins with 4 points")
    expect(phone.locator(".result")).to_contain_text("A total reached the target.")
    table.refresh_from_db()
    assert table.status == "finished" and [seat.won for seat in table.seats.all()] == [
        False,
        False,
        False,
        True,
        False,
    ]
    both_schemes(phone, shot, "any-game-03-result")


def test_a_categories_pad_on_a_phone(live_server, phone, shot):
    phone.goto(live_server.url + "/new/any-game/")
    phone.locator("#id_option_game_name").fill("7 Wonders")
    phone.get_by_label("Named categories (like 7 Wonders)").check()
    phone.get_by_label("Categories, one per line").fill("Military\nCoins\nWonder\nCivilian\nScience")
    for i, name in enumerate(NAMES[:3]):
        phone.locator(f"#id_player_{i}").fill(name)
    phone.get_by_role("button", name="Start the table").click()
    expect(phone.get_by_role("heading", name="Military")).to_be_visible()
    type_round(phone, [3, 0, 5], tap_first=True)
    expect(phone.get_by_role("heading", name="Coins")).to_be_visible()
    phone.get_by_role("link", name="Science").click()
    expect(phone.get_by_role("heading", name="Science")).to_be_visible()
    phone.locator("#points-1").fill("21")
    phone.get_by_role("button", name="Save Science").click()
    expect(phone.locator("#last-entry-text")).to_contain_text("Science: Ben 21.")
    both_schemes(phone, shot, "any-game-04-categories")


def test_a_refusal_s_rule_is_one_tap_away(live_server, phone, shot):
    """Issue 15: the ruling id at the end of a refusal opens that rule's text."""
    phone.goto(live_server.url + "/new/any-game/")
    phone.locator("#id_option_game_name").fill("Backyard Dice")  # no library sheet: a pad of rounds
    phone.locator("#id_player_0").fill("Ann")
    phone.locator("#id_player_1").fill("Ben")
    phone.get_by_role("button", name="Start the table").click()
    phone.locator("#points-0").fill("12")
    phone.get_by_role("button", name="Save round 1").click()
    refusal = phone.locator(".refusal")
    expect(refusal).to_contain_text(
        "A round gives points to every player: enter Ben's too, 0 for nothing (AG-3)."
    )
    refusal.get_by_role("link", name="AG-3").click()
    expect(phone).to_have_url(re.compile(r"/rules/any-game/#AG-3$"))
    expect(phone.locator("#AG-3")).to_contain_text("one entry is one round and gives points to every player")
    both_schemes(phone, shot, "any-game-05-rules")


def test_the_save_button_stays_in_reach_of_a_form_taller_than_the_phone(live_server, phone, shot):
    """Twenty players make the keypad taller than the screen: the main button sticks to the bottom
    of the screen while the form is in view (issue 15), and scrolls away with it after."""
    from companion.tables import services

    names = [f"Player {n}" for n in range(1, 21)]
    table = services.create_table("any-game", names, {"game_name": "Skull King"})
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    save = phone.get_by_role("button", name="Save round 1")
    form = phone.locator("form", has=save)
    height = phone.viewport_size["height"]
    assert form.bounding_box()["height"] > height  # taller than the phone
    box = save.bounding_box()
    assert 0 < box["y"] and box["y"] + box["height"] <= height  # on screen without a scroll
    shot(phone, "any-game-06-sticky-save")


def new_pad(phone: Page, base_url: str, game: str, names: list[str]) -> None:
    phone.goto(base_url + "/new/any-game/")
    phone.locator("#id_option_game_name").fill(game)
    for i, name in enumerate(names):
        phone.locator(f"#id_player_{i}").fill(name)


def test_spades_in_two_teams_partners_across_the_table(live_server, phone, shot):
    """AG-8 on the phone: "2 teams" is one tap and seats take turns (partners sit across); the
    teams' totals add up, and the best team wins whole."""
    new_pad(phone, live_server.url, "Spades", ["Ann", "Ben", "Cleo", "Dan"])
    expect(phone.locator(".seat-teams").first).to_be_hidden()  # no teams: nothing per seat
    phone.get_by_label("2 teams").check()
    checked = phone.locator(".seat-teams input:checked:visible")
    expect(checked).to_have_count(4)
    assert [box.get_attribute("value") for box in checked.all()] == ["1", "2", "1", "2"]
    expect(phone.get_by_label("3", exact=True).first).to_be_hidden()
    phone.get_by_label("Roles or factions").check()
    phone.get_by_label("Role of seat 1", exact=True).fill("North")
    both_schemes(phone, shot, "any-game-03-new-teams")
    phone.get_by_role("button", name="Start the table").click()
    expect(phone.get_by_role("heading", name="Spades", exact=True)).to_be_visible()
    expect(phone.locator(".scoreboard li").first).to_contain_text("North · team 1")
    type_round(phone, [60, 40, 30, 40], tap_first=True)
    expect(phone.locator(".team-totals li")).to_have_text(
        [re.compile(r"Ann and Cleo\s*90"), re.compile(r"Ben and Dan\s*80")]
    )
    finish = phone.get_by_role("button", name="The game is over: finish the pad")
    expect(finish).to_be_hidden()  # folded, away from Save (issue 30)
    phone.get_by_text("The game is over?").click()
    finish.click()
    expect(phone.locator(".result")).to_contain_text("Ann and Cleo win with 90 points together")
    table = Table.objects.get()
    assert table.snapshot["teams"] == [[0, 2], [1, 3]] and table.snapshot["roles"] == {"0": "North"}
    assert [seat.won for seat in table.seats.order_by("position")] == [True, False, True, False]
    both_schemes(phone, shot, "any-game-04-teams-result")


def test_a_coop_game_hides_what_it_does_not_have_and_ends_in_one_tap(live_server, phone, shot):
    new_pad(phone, live_server.url, "Pandemic", ["Ann", "Ben"])
    phone.get_by_label("Co-op: together against the game").check()
    for label in (
        "The lowest total wins",
        "End the game when a total reaches (optional)",
        "Named categories (like 7 Wonders)",
    ):
        expect(phone.get_by_label(label)).to_be_hidden()
    expect(phone.get_by_label("2 teams")).to_be_hidden()
    phone.get_by_label("Expansions played, one per line (optional)").fill("On the Brink")
    phone.get_by_role("button", name="Start the table").click()
    expect(phone.get_by_role("button", name="We won")).to_be_visible()
    expect(phone.locator(".pad-row")).to_have_count(1)  # one keypad: the group's score
    both_schemes(phone, shot, "any-game-05-coop")
    phone.get_by_role("button", name="We lost").click()
    # A loss reads as one (issue 43): no trophy, no 0/0 table, no empty chart.
    expect(phone.locator(".result .display-6")).to_have_text("The game won: everyone lost together")
    expect(phone.locator(".result table")).to_have_count(0)
    expect(phone.locator("figure.chart")).to_have_count(0)
    assert [(seat.score, seat.won) for seat in Table.objects.get().seats.all()] == [(None, False)] * 2
    both_schemes(phone, shot, "any-game-06-coop-lost")
    phone.goto(live_server.url + "/g/default/history/")
    expect(phone.locator(".play-list a").first).to_contain_text("Ann · Ben — lost together against the game")
    both_schemes(phone, shot, "any-game-06b-coop-lost-history")


def test_a_game_without_points_ends_with_a_tap_on_each_winner(live_server, phone, shot):
    new_pad(phone, live_server.url, "The Resistance", ["Ann", "Ben", "Cleo"])
    phone.get_by_label("Win or lose, no points").check()
    phone.get_by_role("button", name="Start the table").click()
    expect(phone.get_by_role("group", name="Who won?")).to_be_visible()
    phone.get_by_text("🏆 Ben").click()
    phone.get_by_text("🏆 Cleo").click()
    both_schemes(phone, shot, "any-game-07-who-won")
    phone.get_by_role("button", name="Finish the game").click()
    expect(phone.locator(".result")).to_contain_text("Ben and Cleo win")
    expect(phone.locator(".result table")).to_have_count(0)  # no points to break down
    assert [seat.won for seat in Table.objects.get().seats.order_by("position")] == [False, True, True]


def test_the_pads_outcomes_read_french(new_phone, live_server, shot):
    phone = new_phone(locale="fr-FR")
    new_pad(phone, live_server.url, "Pandemic", ["Ann", "Ben"])
    phone.get_by_label("Coopératif : ensemble contre le jeu").check()
    expect(phone.get_by_label("Le total le plus bas gagne")).to_be_hidden()
    both_schemes(phone, shot, "any-game-08-new-coop-fr")
    phone.get_by_role("button", name="Lancer la table").click()
    expect(phone.get_by_role("button", name="On a gagné")).to_be_visible()
    both_schemes(phone, shot, "any-game-09-coop-fr")
    phone.get_by_role("button", name="On a gagné").click()
    expect(phone.locator(".result")).to_contain_text("Tout le monde a gagné ensemble")


def test_the_points_field_checks_what_is_typed(live_server, phone):
    """Issue 43: the points field's pattern was `[-−]?[0-9]*`, which Chrome compiles with the v flag
    and refuses (an unescaped "-" in a class): no check in the browser, an error on every pad page.
    A minus sign of any of the three kinds a keyboard types, then digits; nothing else."""
    messages = []
    phone.on("console", lambda message: messages.append(message.text))
    new_pad(phone, live_server.url, "Azul", ["Ann", "Ben"])
    phone.get_by_role("button", name="Start the table").click()
    field = phone.locator("#points-0")
    expect(field).to_be_visible()
    said = {}
    for typed in ("12", "-5", "−5", "–5", "", "abc", "5-", "1.5"):
        field.fill(typed)
        said[typed] = field.evaluate("(input) => input.validity.valid")
    assert said == {
        "12": True,
        "-5": True,
        "−5": True,
        "–5": True,
        "": True,
        "abc": False,
        "5-": False,
        "1.5": False,
    }
    assert not [text for text in messages if "pattern" in text.lower()], messages
