"""The table screens' third round (issue 30), the points that hold in every game: after an entry
the next decision's title is in view, and a tapped button does not look chosen on the next screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.tables import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAVES = [
    {"kind": "wave", "suit": suit, "points": points}
    for suit, points in (("orange", 3), ("blue", 7), ("purple", 5))
]
BEACH = [
    {"kind": "surfboard", "suit": "orange", "bonus": 2, "cost": 3},
    {"kind": "energy", "value": 6, "cost": 2},
    {"kind": "surfboard", "suit": "blue", "bonus": 1, "cost": 4},
]


def surfing(names: list[str]):
    table = services.create_table("surfs-up", names, {})
    services.play_action(table.id, {"type": "setup", "surf": WAVES, "beach": BEACH}, table.version)
    table.refresh_from_db()
    return table


def test_after_the_last_reveal_the_rewards_title_is_in_view_below_the_navbar(live_server, phone, shot):
    """Issue 30, 1: the fourth surfer's tap sends the reveal low on the page; whose reward it is
    must show, not hide under the sticky navbar."""
    table = surfing(["Ann", "Ben", "Cleo", "Dan"])
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    for seat, value in enumerate(["4", "3", "2"]):
        phone.locator(f'label[for="energy-{seat}-{value}"]').tap()
    last = phone.locator('label[for="energy-3-1"]')
    last.scroll_into_view_if_needed()
    phone.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # the bottom, as a thumb leaves it
    last.tap()
    reward = phone.locator(".prompt-title")
    expect(reward).to_contain_text(re.compile("Ann's reward"))
    # The answer to this phone's entry puts it there (the refresh its write rang may come first).
    phone.wait_for_function(
        "() => { const nav = document.querySelector('.app-nav').getBoundingClientRect().bottom;"
        " const box = document.querySelector('.prompt-title').getBoundingClientRect();"
        " return box.top >= nav && box.bottom <= window.innerHeight; }",
        timeout=3000,
    )
    shot(phone, "third-01-reward-title-in-view")


# Each enabled option of the prompt: hovered or not, its background and its colour.
LOOKS = (
    "() => [...document.querySelectorAll('.prompt .step-option.btn-outline-primary:not([disabled])')]"
    ".map(el => [el.matches(':hover'), getComputedStyle(el).backgroundColor, getComputedStyle(el).color])"
)


def test_a_tapped_button_does_not_look_chosen_on_the_next_screen(live_server, phone):
    """Issue 30, 9: a touch screen keeps :hover where the finger was, and the next screen's button
    there looked chosen. On a screen without hover (this phone: `(hover: none)`), a hovered button
    looks as the others do."""
    assert phone.evaluate("() => matchMedia('(hover: none)').matches")
    table = services.create_table("hang-four", ["Ann", "Ben"], {})
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    options = phone.locator(".prompt a.step-option, .prompt button.step-option:enabled")
    expect(options.first).to_be_visible()
    phone.evaluate("document.getElementById('live').dataset.old = 'yes'")
    options.first.tap()
    phone.wait_for_function("() => !document.getElementById('live').dataset.old")  # the next screen
    expect(options.first).to_be_visible()
    for _attempt in range(5):
        # Where the finger stays. The refresh this tap rang for may still replace the region under
        # it (a new element is not hovered until the pointer moves): hover again until one is.
        options.first.hover()
        looks = phone.evaluate(LOOKS)
        if any(hovered for hovered, *_ in looks):
            break
        phone.mouse.move(0, 0)
        phone.wait_for_timeout(200)
    assert any(hovered for hovered, *_ in looks), looks
    assert len({tuple(look[1:]) for look in looks}) == 1, looks


def test_the_mark_says_live_within_a_second_of_the_signal_coming_back(live_server, phone):
    """Issue 30, 7: the mark stayed "Reconnecting..." 6 s after the signal came back."""
    table = services.create_table("hang-four", ["Ann", "Ben"], {})
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    mark = phone.locator("#connection")
    expect(mark).to_have_attribute("data-state", "live")
    phone.context.set_offline(True)
    expect(mark).to_have_attribute("data-state", "offline", timeout=5000)
    phone.wait_for_timeout(3000)  # long enough for the stream's retries to back off
    phone.context.set_offline(False)
    expect(mark).to_have_attribute("data-state", "live", timeout=1000)


def test_the_stream_comes_back_at_once_when_a_poll_gets_through(live_server, phone):
    """A phone with no signal that never said offline (a Wi-Fi without internet, say): once a poll
    gets through, the stream is tried at once instead of after its backoff (issue 30)."""
    table = services.create_table("hang-four", ["Ann", "Ben"], {})
    stream = re.compile(r"/t/[^/]+/(events|poll)/")
    phone.route(stream, lambda route: route.abort("internetdisconnected"))
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    mark = phone.locator("#connection")
    phone.wait_for_timeout(8000)  # the stream's retries back off to 8 s meanwhile
    expect(mark).not_to_have_attribute("data-state", "live")
    phone.unroute(stream)
    expect(mark).to_have_attribute("data-state", "live", timeout=3500)  # the next poll (2 s), then the stream


def kept_entry(phone) -> str:
    text = phone.locator("#outbox .outbox-text").inner_text()
    found = re.search(r"Your entry “(.*)” will be sent", text)
    assert found, text
    return found.group(1)


def offline_tap(phone, taps) -> str:
    """The words of an entry made without signal, as the outbox says them."""
    expect(phone.locator("#connection")).to_have_attribute("data-state", "live")
    phone.context.set_offline(True)
    expect(phone.locator("#connection")).to_have_attribute("data-state", "offline", timeout=5000)
    taps()
    expect(phone.locator("#outbox")).to_be_visible(timeout=3000)
    return kept_entry(phone)


def test_an_entry_waiting_offline_says_what_it_is_as_the_log_will(live_server, phone, shot):
    """Issue 30, 7: "Round 5: reveal: Reveal" and "Save round 5" said nothing a person could check
    against what the table recorded."""
    dogs = services.create_table("dogo-dash", ["Ann", "Ben", "Cleo"], {})
    phone.goto(f"{live_server.url}/t/{dogs.id}/join/{dogs.token}/")

    def reveal():
        for seat, kind in enumerate(["cat", "dog", "bear"]):  # the last card sends the reveal
            phone.locator(f'label[for="card-{seat}-{kind}"]').tap()

    assert offline_tap(phone, reveal) == "Round 1: Ann Cat, Ben Dog, Cleo Bear"
    shot(phone, "third-round-outbox-reveal")
    phone.context.set_offline(False)
    expect(phone.locator("#outbox")).to_contain_text("Sent: “Round 1: Ann Cat, Ben Dog, Cleo Bear”.")

    pad = services.create_table("any-game", ["Ann", "Ben", "Cleo"], {"game_name": "Skat"})
    phone.goto(f"{live_server.url}/t/{pad.id}/join/{pad.token}/")

    def save():
        phone.locator("#points-0").fill("5")
        phone.locator("#points-1").fill("3")
        phone.locator('label[for="minus-2"]').tap()
        phone.locator("#points-2").fill("2")
        phone.get_by_role("button", name="Save round 1").tap()

    assert offline_tap(phone, save) == "Round 1: Ann 5, Ben 3, Cleo −2"
    phone.context.set_offline(False)
    expect(phone.locator("#outbox")).to_contain_text("Sent:")

    suns = services.create_table("summer-suns", ["Ann", "Ben"], {})
    phone.goto(f"{live_server.url}/t/{suns.id}/join/{suns.token}/")

    def roll():
        for die, face in enumerate(["3", "5", "6"]):
            phone.locator(f'label[for="die-{die}-{face}"]').tap()

    assert offline_tap(phone, roll) == "The dice: 3, 5, 6"
    phone.context.set_offline(False)
    expect(phone.locator("#outbox")).to_contain_text("Sent:")

    # Surf's Up!: a rest says itself as the log does ("Dev rests"), a temporary card by its name.
    surf = services.create_table("surfs-up", ["Ann", "Ben"], {})
    setup = {
        "type": "setup",
        "surf": [{"kind": "wave", "suit": "blue", "points": n} for n in (3, 5, 7)],
        "beach": [{"kind": "energy", "value": 6, "cost": 2}] * 3,
    }
    services.play_action(surf.id, setup, surf.version)
    phone.goto(f"{live_server.url}/t/{surf.id}/join/{surf.token}/")

    def surf_reveal():
        phone.locator('label[for="energy-0-4"]').tap()
        phone.locator('label[for="energy-1-0"]').tap()

    assert offline_tap(phone, surf_reveal) == "Round 1: Ann 4, Ben rests"
    phone.context.set_offline(False)
    expect(phone.locator("#outbox")).to_contain_text("Sent:")
    assert (
        phone.locator(".log li .flex-grow-1")
        .first.inner_text()
        .startswith("Round 1, the 3 blue wave: Ann 4, Ben rests")
    )

    waves = services.create_table("hang-four", ["Ann", "Ben"], {})
    phone.goto(f"{live_server.url}/t/{waves.id}/join/{waves.token}/")
    shack = phone.get_by_role("button", name=re.compile("Surf Shack card"))
    kept = offline_tap(phone, shack.tap)
    phone.context.set_offline(False)
    expect(phone.locator("#outbox")).to_contain_text("Sent:")
    assert kept == phone.locator(".log li .flex-grow-1").first.inner_text()  # the log's own words


def test_finishing_the_pad_is_folded_away_from_save(live_server, phone, shot):
    """Issue 30, 4: "The game is over: finish the pad" sat under Save from round 1, one slip from
    ending a play; it stays one tap away, folded, well below the button tapped every round."""
    pad = services.create_table("any-game", ["Ann", "Ben"], {"game_name": "Skat"})
    phone.goto(f"{live_server.url}/t/{pad.id}/join/{pad.token}/")
    phone.locator("#points-0").fill("5")
    phone.locator("#points-1").fill("3")
    phone.get_by_role("button", name="Save round 1").tap()
    save = phone.get_by_role("button", name="Save round 2")
    expect(save).to_be_visible()
    finish = phone.get_by_role("button", name="The game is over: finish the pad")
    expect(finish).to_be_hidden()
    folded = phone.locator(".pad-finish > summary")
    gap = folded.bounding_box()["y"] - (save.bounding_box()["y"] + save.bounding_box()["height"])
    assert gap >= 40, gap
    shot(phone, "third-round-pad-finish-folded-light")
    folded.tap()
    expect(finish).to_be_visible()
    phone.emulate_media(color_scheme="dark")
    shot(phone, "third-round-pad-finish-open-dark")
    finish.tap()
    expect(phone.locator(".result")).to_contain_text("Ann")
    pad.refresh_from_db()
    assert pad.status == "finished" and [s.won for s in pad.seats.order_by("position")] == [True, False]


def test_a_summer_suns_sheet_shows_which_taps_write_and_keeps_a_choice(new_phone, live_server, shot):
    """Issue 30, 3: the same tap sometimes wrote and sometimes asked, with nothing to tell which; a
    choice in progress vanished with a stray tap; slots were named c1t, k3 on the sheet."""
    table = services.create_table("summer-suns", ["Ann", "Ben"], {})
    services.play_action(table.id, {"type": "roll", "dice": [4, 4, 3]}, table.version)
    phone = new_phone(locale="fr-FR")
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    with phone.expect_navigation():
        phone.locator("form", has=phone.locator("input[name=seat]")).get_by_role("button", name="Ann").tap()
    grid = phone.locator(".prompt .ss-grid")
    writes, asks = grid.locator(".ss-cell.lit.writes"), grid.locator(".ss-cell.lit.asks")
    expect(writes.first).to_be_visible()
    expect(asks.first).to_be_visible()
    # c1t's pearl is 3: the 3 picks it and the 4 is written, the one way (SS-3); g1 (pearl 4) is
    # picked by either 4 and written with the other 4 or the 3: it asks.
    expect(grid.locator('.ss-cell[data-slot="c1t"] .preview')).to_have_text("4")
    expect(grid.locator('.ss-cell[data-slot="c1t"]')).to_have_class(re.compile(r"\bwrites\b"))
    expect(grid.locator('.ss-cell[data-slot="g1"] .preview')).to_have_text("…")
    expect(phone.locator(".ss-tap-key")).to_contain_text("✎")
    # No slot is named by its id anywhere on the page (c1t, k3 ...), in French too.
    assert not re.search(r"\b[cksbg]\d+[tb]?\b", phone.locator("main").inner_text())
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        shot(phone, f"third-round-ss-writes-or-asks-fr-{scheme}")

    # A choice in progress survives a look at another sheet.
    phone.locator('.prompt [data-slot="g1"] a.cell-link').tap()
    expect(phone.locator(".prompt-title")).to_contain_text("Mouette")
    asked = phone.locator(".prompt-title").inner_text()
    phone.get_by_role("region", name="Feuilles").get_by_role("link", name="Ben").tap()
    expect(phone.get_by_role("region", name="Feuilles")).to_contain_text("Feuille de Ben")
    expect(phone.locator(".prompt-title")).to_have_text(asked)
    assert "slot=g1" in phone.url
    phone.locator(".prompt .step-option").first.tap()
    expect(phone.locator(".log li").first).to_contain_text("Ann")
    table.refresh_from_db()
    assert table.snapshot["seats"][0]["cells"]["g1"] in (3, 4)


def test_the_pad_form_marks_what_is_required_and_shows_each_box_in_its_mode(live_server, phone, shot):
    """Issue 30, 8: the pad's new-table form marked no required field, and showed the categories box
    and the target whatever the way of scoring."""
    phone.goto(f"{live_server.url}/new/any-game/")
    categories, target = phone.locator("#div_id_option_categories"), phone.locator("#div_id_option_target")
    shot(phone, "third-round-pad-form-rounds-light")
    expect(phone.locator("#id_option_game_name")).to_have_attribute("required", "")
    mark = "el => getComputedStyle(el, '::after').content"
    assert phone.locator("label[for=id_option_game_name]").evaluate(mark) == '"*"'
    assert phone.locator("label[for=id_option_target]").evaluate(mark) in ("none", "normal")
    expect(target).to_be_visible()
    expect(categories).to_be_hidden()
    shot(phone, "third-round-pad-form-rounds-light")
    phone.get_by_label("Named categories (like 7 Wonders)").check()
    expect(categories).to_be_visible()
    expect(target).to_be_hidden()
    phone.emulate_media(color_scheme="dark")
    shot(phone, "third-round-pad-form-categories-dark")
