"""Dogo Dash through the pages, on a 390 px phone: a whole 2-player game, a watching phone, a race.

The game is scripted card by card so it is deterministic and legal under DD-11 (the 60-card deck:
22 cat, 18 dog, 12 bear, 4 cookie, 4 good boy). With 2 players the draw deck starts at 52 (DD-1).

  Round  Ann       Ben       What happens                                    Ann  Ben  deck
  1      dog       cat       Ann takes the pot of 2                            2    0    50
  2      cat       cat       tie on a cat (DD-4): they reveal again
         bear      cookie    cookie beats bear: Ben takes the pot of 4         2    4    46
  3      cookie    bear      Ann takes 2                                       4    4    44
  4      dog       bear      Ben wins; Ann dashes (DD-10): +2 for Ann, Ben
                             takes the pot of 1; Ann refills 2, Ben 1          6    5    41
  5      cookie    cat       cat beats cookie: Ben takes 2                     6    7    39
  6      cookie    cookie    REFUSED: only 1 cookie is unseen (DD-11)          6    7    39
         cat       cookie    one tap fixes it, wrongly: Ann takes 2; UNDONE    6    7    39
         cat       bear      Ben takes 2                                       6    9    37
  7      cookie    dog       Ann wins; Ben dashes: +2 for Ben, Ann takes 1     7   11    34
  8      good boy  good boy  a good boy forces a tie (DD-3)
         dog       cat       Ann takes the pot of 4                           11   11    30
  9-23   15 rounds: the winner shows a dog or a bear, the loser a cat (never a
         losing dog, so no dash prompt); Ben wins 8 of them, Ann 7            25   27     0
  24     bear      cat       last round (DD-7): the other 3 + 3 cards go face
                             down into the Super Pot; Ann takes 2 + 6         33   27

Ann wins with 33 cards: won 2+2+1+4+7x2+8 = 31, dash 2. Ben: won 4+1+2+2+8x2 = 25, dash 2; 27.
Seen at the end: 22 cats, 14 dogs, 12 bears, 4 cookies, 2 good boys (60 - 6 in the Super Pot).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ann", "Ben")  # seat 0, seat 1

ONE_COOKIE_LEFT = "Only 1 cookie is still unseen (3 of 4 seen), but this reveal shows 2 (DD-11)."

# Rounds 9-23: (winner, winning card); the other player shows a cat.
FILLER = [
    ("Ben", "dog"),
    ("Ann", "bear"),
    ("Ben", "bear"),
    ("Ann", "dog"),
    ("Ben", "dog"),
    ("Ann", "bear"),
    ("Ben", "bear"),
    ("Ann", "dog"),
    ("Ben", "dog"),
    ("Ann", "bear"),
    ("Ben", "bear"),
    ("Ann", "dog"),
    ("Ben", "dog"),
    ("Ann", "bear"),
    ("Ben", "dog"),
]


# ---------------------------------------------------------------------------------------------
# Helpers: what a player does and reads on the table page


def seat(name: str) -> int:
    return NAMES.index(name)


def start_table(page: Page, base_url: str, shot=None) -> None:
    """Home -> "Dogo Dash" -> seats -> Dogo Dash variant -> "Start the table"."""
    page.goto(base_url + "/")
    page.get_by_role("link", name=re.compile(r"^Dogo Dash")).click()
    expect(page.get_by_role("heading", name="New Dogo Dash table")).to_be_visible()
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Seat {i + 1}").fill(name)
    page.get_by_label("Dogo Dash variant: rescue your dog with a second dog").check()
    if shot:
        shot(page, "01-new-table-form")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))
    expect(page.locator(".prompt-title")).to_have_text("Round 1: reveal")


def submit(page: Page, button: str) -> None:
    """Tap a button of the live region and wait until htmx has swapped in the new region.

    The new region has the same labels as the old one, so without this wait the next tap could
    land on the old form.
    """
    swapped(page, page.get_by_role("button", name=button))


def swapped(page: Page, target) -> None:
    """Tap `target` and wait until htmx has swapped in the new live region."""
    page.evaluate("document.getElementById('live').dataset.old = 'yes'")
    target.tap()
    page.wait_for_function(
        "() => { const live = document.getElementById('live'); return live && !live.dataset.old; }"
    )


def choose(page: Page, cards: dict[str, str]) -> None:
    """Tap each player's card but the last: the last one sends the reveal (issue 43)."""
    for name, kind in list(cards.items())[:-1]:
        page.locator(f"label[for=card-{seat(name)}-{kind}]").tap()
        expect(page.locator(f"#card-{seat(name)}-{kind}")).to_be_checked()


def reveal(page: Page, cards: dict[str, str]) -> None:
    """Tap each player's card, e.g. {"Ann": "dog", "Ben": "cat"}: the last tap sends the reveal,
    with no Reveal button to reach (issue 43), as Surf's Up! and 62 Summer Suns do."""
    choose(page, cards)
    name, kind = list(cards.items())[-1]
    swapped(page, page.locator(f"label[for=card-{seat(name)}-{kind}]"))


def dash(page: Page, dashers: list[str]) -> None:
    for name in dashers:
        page.locator(f"label[for=dash-{seat(name)}]").tap()
        expect(page.locator(f"#dash-{seat(name)}")).to_be_checked()


def collect(page: Page, dashers: list[str]) -> None:
    dash(page, dashers)
    submit(page, "Collect the pot")


def texts(locator) -> list[str]:
    return [text.strip() for text in locator.all_inner_texts()]


def scores(page: Page) -> dict[str, int]:
    return dict(zip(NAMES, map(int, texts(page.locator(".scoreboard .score"))), strict=True))


def status(page: Page) -> str:
    return page.locator("#live h1 + small").inner_text().strip()


def seen(page: Page) -> dict[str, str]:
    """The card-counting panel: {"Cookie": "3/4", ...}."""
    cells = page.locator(".counting .count-cell")
    return {
        cell.locator(".small").inner_text().strip(): cell.locator("strong").inner_text().strip()
        for cell in cells.all()
    }


def log(page: Page) -> list[str]:
    """The log entries, newest first."""
    return texts(page.locator(".log li .flex-grow-1"))


def title(page: Page) -> str:
    return page.locator(".prompt-title").inner_text().strip()


# ---------------------------------------------------------------------------------------------
# The tests


def test_a_short_dogo_dash_game_played_on_a_phone(live_server, phone, shot):
    start_table(phone, live_server.url, shot)
    assert status(phone) == "Round 1 · deck 52"
    assert scores(phone) == {"Ann": 0, "Ben": 0}
    expect(phone.get_by_text("Nothing entered yet.")).to_be_visible()

    # Round 1: a plain win. Ann's dog beats Ben's cat; nobody lost with a dog, so no dash prompt.
    choose(phone, {"Ann": "dog", "Ben": "cat"})  # Ann's dog: one card left to tap
    shot(phone, "02-first-reveal-prompt")
    reveal(phone, {"Ben": "cat"})  # Ben's card, the last, sends the reveal
    assert title(phone) == "Round 2: reveal"
    assert scores(phone) == {"Ann": 2, "Ben": 0}
    assert status(phone) == "Round 2 · deck 50"
    assert log(phone) == ["Ann revealed a dog and Ben a cat. Ann takes the pot of 2."]

    # Round 2: both show a cat, a tie; the tie-break reveal decides (cookie beats bear).
    reveal(phone, {"Ann": "cat", "Ben": "cat"})
    assert title(phone) == "Tie! They reveal again"
    expect(phone.get_by_text("Only the tied players reveal; the pot now holds 2 cards.")).to_be_visible()
    assert status(phone) == "Round 2 · deck 50"
    choose(phone, {"Ann": "bear", "Ben": "cookie"})
    shot(phone, "03-tie-break-prompt")
    reveal(phone, {"Ben": "cookie"})
    assert scores(phone) == {"Ann": 2, "Ben": 4}
    assert status(phone) == "Round 3 · deck 46"

    # Round 3.
    reveal(phone, {"Ann": "cookie", "Ben": "bear"})
    assert scores(phone) == {"Ann": 4, "Ben": 4}

    # Round 4: Ben's bear wins, Ann lost with a dog: she may dash (DD-10). Only her toggle shows.
    reveal(phone, {"Ann": "dog", "Ben": "bear"})
    assert title(phone) == "Ben wins the pot of 2"
    expect(phone.locator("label[for=dash-0]")).to_have_text("🐶🐶 Ann dashes")
    expect(phone.locator("label[for=dash-1]")).to_have_count(0)
    dash(phone, ["Ann"])
    shot(phone, "04-collect-prompt-ann-dashes")
    submit(phone, "Collect the pot")
    assert scores(phone) == {"Ann": 6, "Ben": 5}
    assert status(phone) == "Round 5 · deck 41"  # Ann refilled 2 cards, Ben 1
    assert log(phone)[0] == "Ann dashed: 2 dogs to their pile. Ben takes the pot of 1."

    # Round 5: cat beats cookie. Three cookies are now seen.
    reveal(phone, {"Ann": "cookie", "Ben": "cat"})
    assert scores(phone) == {"Ann": 6, "Ben": 7}
    assert seen(phone)["Cookie"] == "3/4"

    # Round 6, refused: the page still offers a cookie to both, but only one is left unseen (DD-11).
    entries_before = log(phone)
    reveal(phone, {"Ann": "cookie", "Ben": "cookie"})
    refusal = phone.locator(".refusal")
    expect(refusal).to_have_text(f"Not allowed. {ONE_COOKIE_LEFT}")  # the sentence names its rule
    # The refused picks stay on screen, so fixing one card is one tap.
    expect(phone.locator(f"#card-{seat('Ann')}-cookie")).to_be_checked()
    expect(phone.locator(f"#card-{seat('Ben')}-cookie")).to_be_checked()
    shot(phone, "05-refused-entry")
    assert title(phone) == "Round 6: reveal"
    assert status(phone) == "Round 6 · deck 39"
    assert scores(phone) == {"Ann": 6, "Ben": 7}
    assert seen(phone)["Cookie"] == "3/4"
    assert log(phone) == entries_before

    # Round 6, a slip of the finger: one tap fixes the refused reveal and sends it (Ben's cookie
    # stays picked), but Ann's cat was not what she showed. Undo it.
    reveal(phone, {"Ann": "cat"})
    expect(phone.locator(".refusal")).to_have_count(0)
    assert scores(phone) == {"Ann": 8, "Ben": 7}
    assert log(phone)[0] == "Ann revealed a cat and Ben a cookie. Ann takes the pot of 2."
    assert len(log(phone)) == len(entries_before) + 1
    submit(phone, "↶ Undo")
    assert log(phone) == entries_before
    assert scores(phone) == {"Ann": 6, "Ben": 7}
    assert status(phone) == "Round 6 · deck 39"
    assert title(phone) == "Round 6: reveal"
    assert seen(phone)["Bear"] == "3/12"
    shot(phone, "06-after-undo")
    reveal(phone, {"Ann": "cat", "Ben": "bear"})
    assert scores(phone) == {"Ann": 6, "Ben": 9}
    assert status(phone) == "Round 7 · deck 37"

    # Round 7: the last cookie beats Ben's dog; Ben dashes. Every cookie is now seen.
    reveal(phone, {"Ann": "cookie", "Ben": "dog"})
    assert title(phone) == "Ann wins the pot of 2"
    collect(phone, ["Ben"])
    assert scores(phone) == {"Ann": 7, "Ben": 11}
    assert seen(phone)["Cookie"] == "4/4"
    for name in NAMES:
        expect(phone.locator(f"#card-{seat(name)}-cookie")).to_be_disabled()

    # Round 8: a good boy forces a tie (DD-3); the tie-break decides.
    reveal(phone, {"Ann": "good_boy", "Ben": "good_boy"})
    assert title(phone) == "Tie! They reveal again"
    reveal(phone, {"Ann": "dog", "Ben": "cat"})
    assert scores(phone) == {"Ann": 11, "Ben": 11}
    assert status(phone) == "Round 9 · deck 30"

    # Rounds 9-23.
    for winner, card in FILLER:
        loser = "Ben" if winner == "Ann" else "Ann"
        reveal(phone, {winner: card, loser: "cat"})
    assert scores(phone) == {"Ann": 25, "Ben": 27}

    # Round 24: the deck is empty, the last round.
    assert status(phone) == "Round 24 · deck 0"
    assert title(phone) == "Last round"
    expect(phone.get_by_text("The deck is empty: this is the last round.")).to_be_visible()
    choose(phone, {"Ann": "bear", "Ben": "cat"})
    shot(phone, "07-last-round-prompt")
    reveal(phone, {"Ben": "cat"})

    # The end: Ann wins with 33 cards (the revealed 2 and the Super Pot of 6 went to her).
    assert status(phone) == "Finished"
    result = phone.get_by_role("region", name="Result")
    expect(result.locator(".display-6")).to_have_text("🏆 Ann wins with 33 cards")
    expect(result).to_contain_text("The last round has been played.")
    expect(result).to_contain_text("Super Pot: 6 cards.")
    table = result.locator("table.breakdown")
    # Two players and three parts: a column per player is the narrower table, the total first.
    # Catnip was off at this table, so the result has no catnip row.
    assert texts(table.locator("thead th")) == ["Score part", "Ann", "Ben"]
    assert [texts(row.locator("th, td")) for row in table.locator("tbody tr").all()] == [
        ["Total", "33", "27"],
        ["Won", "31", "25"],
        ["Split", "0", "0"],
        ["Dash", "2", "2"],
    ]
    expect(table.locator("thead th").nth(1)).to_have_class(re.compile(r"\btable-success\b"))
    expect(table.locator("thead th").nth(2)).not_to_have_class(re.compile(r"\btable-success\b"))
    assert scores(phone) == {"Ann": 33, "Ben": 27}
    seen_at_the_end = {"Cat": "22/22", "Dog": "14/18", "Bear": "12/12", "Cookie": "4/4", "Good boy": "2/4"}
    assert seen(phone) == seen_at_the_end  # 60 cards less the 6 of the Super Pot
    expect(phone.locator(".prompt")).to_have_count(0)
    assert log(phone)[0] == (
        "Last round: Ann revealed a bear and Ben a cat. The Super Pot holds 6 cards. "
        "Ann takes the 2 revealed cards and the Super Pot of 6. Game over: Ann wins with 33 cards."
    )
    assert len(log(phone)) == 28
    shot(phone, "08-finished")


def test_a_watching_phone_sees_no_prompt_and_follows_the_table(live_server, new_phone, shot):
    player = new_phone()
    start_table(player, live_server.url)
    player.locator("summary", has_text="Bring the other phones in").click()
    watch_link = player.get_by_label("Watch link", exact=True).input_value()
    assert "/join/" in watch_link

    watcher = new_phone()  # another browser context: another phone, its own session
    watcher.goto(watch_link)
    watcher.wait_for_url(re.compile(r"/t/[^/]+/$"))  # the token leaves the address bar
    expect(watcher.get_by_text("You are watching this table. Waiting for round 1's reveal.")).to_be_visible()
    expect(watcher.locator(".prompt")).to_have_count(0)
    expect(watcher.get_by_role("button", name="Reveal")).to_have_count(0)
    expect(watcher.get_by_label("Play link", exact=True)).to_have_count(0)  # it cannot hand out play rights
    assert scores(watcher) == {"Ann": 0, "Ben": 0}

    reveal(player, {"Ann": "dog", "Ben": "cat"})
    # The live region polls every 2 s: the entry reaches the watching phone within about 3 s.
    expect(watcher.locator(".log li").first).to_contain_text(
        "Ann revealed a dog and Ben a cat. Ann takes the pot of 2.", timeout=3_500
    )
    assert scores(watcher) == {"Ann": 2, "Ben": 0}
    expect(watcher.get_by_text("You are watching this table. Waiting for round 2's reveal.")).to_be_visible()
    expect(watcher.locator(".prompt")).to_have_count(0)
    expect(watcher.get_by_role("button", name="↶ Undo")).to_have_count(0)
    shot(watcher, "09-view-only-phone")


def test_a_second_playing_phone_is_told_when_another_phone_entered_first(live_server, new_phone, shot):
    first = new_phone()
    start_table(first, live_server.url)
    first.locator("summary", has_text="Bring the other phones in").click()
    play_link = first.get_by_label("Play link", exact=True).input_value()

    second = new_phone()
    # This phone hears nothing of the first phone's entry: no stream (it would bring the region
    # itself), and its polls answer "nothing new", as if it had not polled since.
    second.route(re.compile(r"/events/"), lambda route: route.abort("connectionreset"))
    second.route(re.compile(r"/poll/"), lambda route: route.fulfill(status=204))
    second.goto(play_link)
    expect(second.locator(".prompt-title")).to_have_text("Round 1: reveal")

    reveal(first, {"Ann": "dog", "Ben": "cat"})
    reveal(second, {"Ann": "cat", "Ben": "bear"})  # entered against round 1 as it was
    expect(second.locator("#live").get_by_role("status")).to_have_text(
        "Another phone entered “Ann revealed a dog and Ben a cat. Ann takes the pot of 2.” first, "
        "so yours was not sent. Here is the table now."
    )
    shot(second, "10-stale-entry-notice")
    # Only the first phone's entry counts, and the second phone now shows the table as it is.
    assert log(second) == ["Ann revealed a dog and Ben a cat. Ann takes the pot of 2."]
    assert scores(second) == {"Ann": 2, "Ben": 0}
    assert title(second) == "Round 2: reveal"
