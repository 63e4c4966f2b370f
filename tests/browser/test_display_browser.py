"""The table on a big screen at 1280x720 (issue 32): it follows an entry made on a phone within a
second, fits without scrolling during play, and axe-core finds nothing on it, light and dark."""

from __future__ import annotations

import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from companion.tables import services
from tests.engines.golden_playthrough import script
from tests.history.factories import golden_table

from .test_accessibility import violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {
    "viewport": {"width": 1280, "height": 720},
    "device_scale_factor": 1,
    "is_mobile": False,
    "has_touch": False,
}


def fits_one_screen(page) -> None:
    height, room = page.evaluate("() => [document.documentElement.scrollHeight, innerHeight]")
    assert height <= room, (height, room)  # nothing to scroll


def looked_at(page, shot, name: str, schemes=("light", "dark")) -> list[str]:
    """Screenshots in each colour scheme, and what axe-core finds in each."""
    axe, problems = Axe(), []
    for scheme in schemes:
        page.emulate_media(color_scheme=scheme)
        shot(page, f"{name}-{scheme}")
        problems += violations(axe, page)
    return problems


def test_the_big_screen_follows_a_phone_within_a_second(live_server, new_phone, phone, shot):
    table = services.create_table("dogo-dash", ["Ann", "Ben", "Cleo", "Dan"], {})
    screen = new_phone(**SCREEN)
    screen.goto(f"{live_server.url}/t/{table.id}/join/{table.view_token}/?to=display")
    expect(screen).to_have_url(f"{live_server.url}/t/{table.id}/display/")
    expect(screen.locator("#connection")).to_have_attribute("data-state", "live")
    expect(screen.locator(".display-waiting")).to_be_visible()
    assert screen.locator("#live form, #live button").count() == 0  # nothing that writes

    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    for seat, kind in enumerate(["dog", "cat", "cat"]):
        phone.locator(f'label[for="card-{seat}-{kind}"]').tap()
    sent = time.monotonic()
    phone.locator('label[for="card-3-bear"]').tap()  # the last card sends the reveal (issue 43)
    # DD-2: the bear beats the dog and the cats; Dan takes the pot.
    expect(screen.locator(".display-last")).to_contain_text("Dan takes the pot of 4.", timeout=1000)
    print(f"\nbig screen updated {1000 * (time.monotonic() - sent):.0f} ms after the tap")
    fits_one_screen(screen)  # no scrolling during play at 1280x720
    assert not looked_at(screen, shot, "display-1280-dogo-dash")


@pytest.mark.parametrize("slug", ["surfs-up", "hang-four", "summer-suns", "any-game"])
def test_each_game_on_the_big_screen_at_1280(slug, live_server, new_phone, shot):
    table = golden_table(slug, len(script(slug)[2]) // 2)
    screen = new_phone(**SCREEN)
    screen.goto(f"{live_server.url}/t/{table.id}/join/{table.view_token}/?to=display")
    expect(screen.locator(".display-board")).to_be_visible()
    fits_one_screen(screen)  # no scrolling during play at 1280x720
    assert not looked_at(screen, shot, f"display-1280-{slug}", schemes=("dark",))


def test_the_setup_guide_is_ticked_asks_who_starts_and_goes_in_one_tap(live_server, phone, shot):
    """Issue 32: before the first entry, the game's setup for this many players, ticked on one phone;
    who starts, as the rulebook says (HF-1); one tap puts it away."""
    table = services.create_table("hang-four", ["Ann", "Ben", "Cleo"], {})
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    guide = phone.locator(".setup-guide")
    expect(guide).to_contain_text("Set up for 3 players")
    guide.get_by_text("Put the die within everyone's reach.").tap()
    expect(guide.locator("#guide-6")).to_be_checked()
    assert not looked_at(phone, shot, "setup-guide-hang-four")
    guide.get_by_role("button", name="Ben", exact=True).tap()
    expect(phone.locator(".done-notice")).to_have_text("Ben starts.")
    expect(phone.locator(".prompt-title")).to_contain_text("Ben")
    phone.get_by_role("button", name="All set (or skip): put this away").tap()
    expect(phone.locator(".setup-guide")).to_have_count(0)
    expect(phone.locator(".prompt-title")).to_be_visible()


def test_the_story_of_the_night_at_390(live_server, phone, shot):
    """Issue 32: tonight's plays, champion, leads and dice, and the share card, light and dark."""
    from tests.history.test_night import DAY, evening

    evening.__wrapped__()
    phone.goto(f"{live_server.url}/g/default/history/nights/{DAY.isoformat()}/")
    expect(phone.get_by_role("heading", name="The night of Thursday 3 December 2026")).to_be_visible()
    expect(phone.locator(".night-summary")).to_contain_text("Champion of the night: Ann (2 wins)")
    expect(phone.locator(".night-card")).to_have_js_property("complete", True)
    assert phone.locator(".night-card").evaluate("img => img.naturalWidth") == 1080
    assert not looked_at(phone, shot, f"night-{DAY.isoformat()}")


def test_the_group_sets_its_time_zone_for_its_nights(live_server, phone, shot):
    phone.goto(f"{live_server.url}/g/default/")
    phone.get_by_text("Rename the group, its time zone").tap()
    field = phone.get_by_label("The group's time zone")
    expect(field).to_have_value("UTC")  # the server's, until the group says
    field.fill("Europe/Paris")
    assert not looked_at(phone, shot, "group-time-zone")
    phone.get_by_role("button", name="Save the time zone").tap()
    expect(
        phone.get_by_role("status").filter(has_text="The group's evenings now follow Europe/Paris.")
    ).to_be_visible()


def test_the_big_screen_says_the_result_large_at_the_end(live_server, new_phone, shot):
    table = golden_table("dogo-dash")
    screen = new_phone(**SCREEN)
    screen.goto(f"{live_server.url}/t/{table.id}/join/{table.view_token}/?to=display")
    expect(screen.locator(".display-result")).to_contain_text("Ben")  # DD golden: Ben wins
    assert not looked_at(screen, shot, "display-1280-result")
    fits_one_screen(screen)  # the result alone, on one screen
