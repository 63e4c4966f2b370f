"""The table loop on phones (issue 12): push, the outbox, the connection mark, steps with their own
addresses, the stale-choice notice, the screen wake lock. Hang Four: a roll is two taps (Roll,
then the face), the second of which posts the entry."""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from companion.tables.models import Event, Table
from tests.servers import http_call

from .test_hang_four_browser import BUY, log, option, start_table, tap, title

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANN_ROLLED_5 = "Ann rolled a 5 and collects 5 sand dollars."


def outbox(page):
    return page.locator("#outbox .outbox-text")


def mark(page):
    return page.locator("#connection")


def live_mark(page):
    expect(mark(page)).to_have_attribute("data-state", "live")


def both_schemes(page, shot, name: str) -> None:
    """Light and dark, without a reload (theme.js follows the scheme live), so that a state such as
    an offline outbox stays on the screen."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
        shot(page, f"{name}-{scheme}")


def events(table: Table) -> list[str]:
    live = Event.objects.filter(table=table, undone=False).order_by("seq")
    return list(live.values_list("text", flat=True))


def test_a_tap_without_signal_is_kept_said_and_sent_once_back_online(live_server, phone, shot):
    start_table(phone, live_server.url)
    live_mark(phone)
    expect(mark(phone)).to_contain_text(re.compile(r"^ Live · updated \d\d?:\d\d:\d\d( [AP]M)?$"))
    table = Table.objects.get()

    phone.context.set_offline(True)
    option(phone, "5").tap()
    expect(outbox(phone)).to_have_text(
        "Not sent yet: no connection. Your entry “Ann rolled a 5” will be sent when the phone is back "
        "online.",
        timeout=3000,
    )
    expect(mark(phone)).to_have_attribute("data-state", "offline")
    expect(mark(phone)).to_contain_text(re.compile(r"Offline since \d\d?:\d\d( [AP]M)? · updated"))
    expect(phone.locator("#outbox").get_by_role("button", name="Send now")).to_be_visible()
    assert events(table) == []
    both_schemes(phone, shot, "loop-01-offline-outbox")

    phone.context.set_offline(False)
    expect(outbox(phone)).to_have_text("Sent: “Ann rolled a 5”.")
    expect(title(phone)).to_have_text("Ben's turn: tap what the die showed, or buy")
    assert log(phone) == [ANN_ROLLED_5]
    live_mark(phone)
    assert events(table) == [ANN_ROLLED_5]


def test_an_entry_kept_through_a_server_error_survives_a_reload_and_is_discarded(live_server, phone, shot):
    start_table(phone, live_server.url)
    table = Table.objects.get()
    phone.expected_errors = [r"/act/$"]
    phone.route(re.compile(r"/act/$"), lambda route: route.fulfill(status=503, body="down for a moment"))
    option(phone, "3").tap()  # the entry's button posts; the region stays as it was
    expect(outbox(phone)).to_contain_text("Not sent yet: the server did not answer. Your entry “Ann rolled")
    phone.reload()
    # After the reload the entry is still on the phone, and still not sent (the server is "down").
    expect(outbox(phone)).to_contain_text("Your entry “Ann rolled a 3” will be sent")
    both_schemes(phone, shot, "loop-02-outbox-after-reload")
    phone.locator("#outbox").get_by_role("button", name="Discard").tap()
    expect(phone.locator("#outbox")).to_be_hidden()
    phone.unroute(re.compile(r"/act/$"))
    phone.reload()
    expect(phone.locator("#outbox")).to_be_hidden()
    assert events(table) == []
    assert phone.evaluate("Object.keys(localStorage).filter(k => k.startsWith('table-outbox'))") == []


def test_an_entry_applied_whose_answer_was_lost_is_sent_again_and_counted_once(live_server, phone, shot):
    start_table(phone, live_server.url)
    table = Table.objects.get()

    def apply_then_drop(route):
        route.fetch()  # the server applies the entry...
        route.abort("connectionreset")  # ...and the phone never hears back

    phone.route(re.compile(r"/act/$"), apply_then_drop, times=1)
    option(phone, "5").tap()
    expect(outbox(phone)).to_have_text("Sent: “Ann rolled a 5”.")
    expect(title(phone)).to_have_text("Ben's turn: tap what the die showed, or buy")
    assert log(phone) == [ANN_ROLLED_5]
    assert events(table) == [ANN_ROLLED_5]
    assert Event.objects.filter(table=table).count() == 1
    both_schemes(phone, shot, "loop-03-sent-after-lost-answer")


def test_an_entry_through_the_api_reaches_a_watching_phone_without_a_poll(live_server, phone, shot):
    created = api_table(live_server)
    fetches, streams = [], []
    phone.on("request", lambda request: fetches.append(request.url) if "/poll/" in request.url else None)
    phone.on("response", lambda response: streams.append(response) if "/events/" in response.url else None)
    phone.goto(live_server.url + created["view_url"])
    live_mark(phone)
    phone.wait_for_timeout(2500)
    assert fetches == [], "an idle phone with a live stream asks nothing"

    api_roll(live_server, created, face=4)
    # A bound, not a figure (make bench measures the time); the fetch count proves the push.
    expect(phone.locator(".log li").first).to_contain_text("Ann rolled a 4", timeout=5000)
    expect(phone.locator("#live")).to_have_attribute("data-version", "1")
    # The second region is sent as gzip's references into the first (issue 45): Chromium decodes it.
    api_roll(live_server, created, face=5, version=1)
    expect(phone.locator(".log li").first).to_contain_text("Ben rolled a 5", timeout=5000)
    expect(phone.locator("#live")).to_have_attribute("data-version", "2")
    assert fetches == [], fetches  # the regions came in the stream itself (issue 33): nothing fetched
    assert [response.headers.get("content-encoding") for response in streams] == ["gzip"]
    both_schemes(phone, shot, "loop-04-watching-phone-pushed")


def test_back_goes_one_step_back_inside_an_entry(live_server, phone):
    start_table(phone, live_server.url)
    tap(phone, BUY)  # $3 buy one card: "How many?" is taken for her (issue 15)
    expect(title(phone)).to_have_text("Card 1 of 1: what did you draw?")
    assert phone.url.endswith("?do=buy&n=1")
    phone.go_back()
    expect(title(phone)).to_have_text("Ann's turn: tap what the die showed, or buy")
    assert re.search(r"/t/[^/]+/$", phone.url), phone.url
    phone.go_forward()
    expect(title(phone)).to_have_text("Card 1 of 1: what did you draw?")
    tap(phone, "◧ Nose board")
    expect(title(phone)).to_have_text("Ben's turn: tap what the die showed, or buy")
    assert re.search(r"/t/[^/]+/$", phone.url), "an entry made leaves its steps' address behind"


def test_forward_pressed_while_back_still_reloads_lands_on_its_step(live_server, new_phone):
    """Back reloads the page; a forward pressed before that page's scripts had all run moved the
    address and left the screen on the turn (a CI run caught it): address.js loads the step."""
    phone = new_phone(service_workers="block")  # the worker would answer the catalog unseen by route()
    start_table(phone, live_server.url)
    tap(phone, BUY)
    expect(title(phone)).to_have_text("Card 1 of 1: what did you draw?")
    held = []
    catalog = re.compile(r"/jsi18n/$")  # a deferred script after htmx's: the page is not ready yet
    phone.route(catalog, lambda route: held.append(route))
    phone.go_back(wait_until="commit")
    expect(title(phone)).to_have_text("Ann's turn: tap what the die showed, or buy")
    # The title is parsed before the deferred script is asked for (a CI run checked too soon).
    for _ in range(100):
        if held:
            break
        phone.wait_for_timeout(50)
    assert held, "the reloaded page waits for its catalog"
    phone.go_forward(wait_until="commit")
    expect(title(phone)).to_have_text("Card 1 of 1: what did you draw?")
    phone.unroute(catalog)
    for route in held:  # the left page's request was dropped with it; the new page's goes on
        with contextlib.suppress(PlaywrightError):
            route.continue_()
    assert phone.url.endswith("?do=buy&n=1")
    tap(phone, "◧ Nose board")
    expect(title(phone)).to_have_text("Ben's turn: tap what the die showed, or buy")


def test_a_choice_changed_by_another_phone_is_said_and_kept_where_it_still_fits(live_server, new_phone, shot):
    ann = new_phone()
    start_table(ann, live_server.url)
    ann.locator("summary", has_text="Bring the other phones in").click()
    play_link = ann.get_by_label("Play link", exact=True).input_value()
    other = new_phone()
    other.goto(play_link)
    live_mark(ann)
    tap(ann, BUY)  # Ann's phone is choosing the card she bought

    tap(other, "5")  # the other phone enters Ann's roll first
    notice = ann.locator("#step-notice")
    said = f"Another phone entered “{ANN_ROLLED_5}” while you were choosing: choose again."
    expect(notice).to_have_text(said)
    # Buying one card is still a choice of the next turn (Ben's $3): the step is kept, for Ben now.
    expect(title(ann)).to_have_text("Card 1 of 1: what did you draw?")
    expect(ann.locator(".log li").first).to_contain_text(ANN_ROLLED_5)
    both_schemes(ann, shot, "loop-05-choose-again")
    tap(ann, "◨ Tail board")
    expect(notice).to_be_hidden()
    assert log(ann)[0] == "Ben bought 1 card for 3: a tail for Surf Dog 1."


def test_the_screen_stays_on_unless_switched_off(live_server, phone):
    start_table(phone, live_server.url)
    if not phone.evaluate("'wakeLock' in navigator"):
        pytest.skip("this browser has no Screen Wake Lock API")
    switch = phone.get_by_label("Keep the screen on while this table is open")
    expect(switch).to_be_checked()
    switch.uncheck()
    assert phone.evaluate("localStorage.getItem('table-wake')") == "off"
    phone.reload()
    expect(phone.get_by_label("Keep the screen on while this table is open")).not_to_be_checked()


def test_without_a_stream_the_page_polls_and_says_so(live_server, phone, shot):
    """A proxy that cuts the stream, or a browser without one: the page falls back to polling."""
    created = api_table(live_server)
    phone.route(re.compile(r"/events/(\?.*)?$"), lambda route: route.abort("connectionreset"))
    phone.goto(live_server.url + created["view_url"])
    expect(mark(phone)).to_have_attribute("data-state", "polling", timeout=5000)
    expect(mark(phone)).to_contain_text("Not live: updating every 2 s · updated")
    api_roll(live_server, created, face=2)
    expect(phone.locator(".log li").first).to_contain_text("Ann rolled a 2", timeout=4000)
    both_schemes(phone, shot, "loop-06-polling-fallback")


def api_table(server) -> dict:
    answer = http_call(
        server.port, "POST", "/api/v1/tables", {"game": "hang-four", "players": ["Ann", "Ben"]}
    )
    assert answer.status == 201, answer.payload
    return answer.payload


def api_roll(server, created: dict, face: int, version: int = 0) -> None:
    """An entry of a table made through the API (its first by default): the seat to play rolls `face`."""
    body = {"action": {"type": "roll", "face": face}, "expected_version": version}
    answer = http_call(server.port, "POST", f"/api/v1/tables/{created['id']}/actions", body, created["token"])
    assert answer.status == 200, answer.payload


def test_while_the_servers_fanout_is_down_the_page_polls_and_says_it_is_not_live(
    django_db_blocker, phone, shot
):
    """Issue 28: two servers fanned out by a Redis that stops. The phone's stream stays open, but
    entries made on the other server would not reach it: the stream says so, the page polls and
    its mark says "Not live", the entry arrives by the poll, and "Live" returns with Redis."""
    from tests.redis_server import own_redis
    from tests.servers import app_servers

    with django_db_blocker.unblock(), own_redis() as redis:
        env = {"REDIS_URL": redis.url, "COMPANION_FANOUT": "redis"}
        with app_servers(["--workers", "1"], ["--workers", "1"], env=env) as (writer, holder):
            created = api_table(writer)
            phone.goto(holder.url + created["view_url"])
            live_mark(phone)
            redis.stop()
            expect(mark(phone)).to_have_attribute("data-state", "polling", timeout=5000)
            expect(mark(phone)).to_contain_text("Not live: updating every 2 s · updated")
            api_roll(writer, created, face=2)
            expect(phone.locator(".log li").first).to_contain_text("Ann rolled a 2", timeout=5000)
            both_schemes(phone, shot, "loop-07-fanout-down")
            redis.start()
            live_mark(phone)
            expect(mark(phone)).to_contain_text("Live · updated")
