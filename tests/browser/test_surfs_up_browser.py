"""Surf's Up! through the pages, on a 390 px phone: four rounds of a 3-surfer table, every card entered
by tapping the labels of the card entries and every energy card by tapping its button.

Every number below is worked out by hand from the rulings (SU-1..SU-13). Start (SU-1): hand 0-5,
empty towel, 2 respect each. Setup (SU-3): the surf holds orange 3 (breakzone), blue 7, purple 5;
the ocean deck 28 - 3 = 25; the beach shows orange +2 (cost 3), energy 6 (cost 2), blue +1 (cost 4),
the beach deck 42 - 3 = 39.

  Round  Wave       Ann      Ben      Cleo     Outcome (SU-5)                 Rewards (SU-7)
  1      orange 3   4 (r2)   4 (r2)   3 (r2)   Ann and Ben wipe out (4,       Cleo buys energy 6 for 2:
                                               respect 2); Cleo wins alone    to her towel (SU-8); refill
                                                                              purple +3 (cost 1)
         new ocean card: orange 8
  2      blue 7     5 (r2)   3 (r2)   rests    Ann wins, Ben runner-up;       Ann +1 (3), Ben +1 (3)
                                               Cleo: respect 1, her towel
                                               (the temporary 6) and 0 back
         new ocean card: a bluebottle
  3      purple 5   3 (r3)   5 (r3)   t6 (r1)  Cleo wins with the temporary   Cleo +1 (2), Ben +1 (4)
                                               6 (trashed), Ben runner-up
         new ocean card: purple 2
  4      orange 8   2 (r3)   2 (r4)   2 (r2)   same value, different          Ben at 4 must buy: the
                                               respect: no wipe out; Ben      orange +2 for 3 (1); refill
                                               wins, Ann runner-up            energy 5 (cost 2). Ann +1 (4)
         new ocean card: blue 6

After round 4 (SU-6: the winner's card trashed, the others to the towels):
  Ann  respect 4, hand 0 1, towel 2 3 4, wave blue 7                       score 7
  Ben  respect 1, hand 0 1, towel 3 4 5, wave orange 8, board orange +2    score 8 + 2 x 1 = 10
  Cleo respect 2, hand 0 1 4 5, towel 2, waves orange 3 and purple 5       score 8
  The surf: bluebottle (breakzone), purple 2, blue 6; ocean deck 25 - 4 = 21.
  The beach: energy 5 (cost 2), purple +3 (cost 1), blue +1 (cost 4); beach deck 39 - 2 = 37.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from companion.games.surfs_up import faces

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ann", "Ben", "Cleo")  # seats 0, 1, 2

# Cards as entered: the fields of a card entry, in tapping order.
ORANGE_3 = {"suit": "orange", "points": 3}
BLUE_7 = {"suit": "blue", "points": 7}
PURPLE_5 = {"suit": "purple", "points": 5}
ORANGE_BOARD = {"kind": "surfboard", "suit": "orange", "bonus": 2, "cost": 3}
ENERGY_6 = {"kind": "energy", "value": 6, "cost": 2}
BLUE_BOARD = {"kind": "surfboard", "suit": "blue", "bonus": 1, "cost": 4}
PURPLE_BOARD = {"kind": "surfboard", "suit": "purple", "bonus": 3, "cost": 1}
ENERGY_5 = {"kind": "energy", "value": 5, "cost": 2}

# Cards as drawn on the board: "label detail".
SHOWN = {
    "orange 3": "🌊 3 orange",
    "blue 7": "🌊 7 blue",
    "purple 5": "🌊 5 purple",
    "orange 8": "🌊 8 orange",
    "purple 2": "🌊 2 purple",
    "blue 6": "🌊 6 blue",
    "bluebottle": "🪼 bluebottle",
    "orange board": "🏄 +2 orange · cost 3",
    "energy 6": "⚡ 6 energy · cost 2",
    "blue board": "🏄 +1 blue · cost 4",
    "purple board": "🏄 +3 purple · cost 1",
    "energy 5": "⚡ 5 energy · cost 2",
}


# ---------------------------------------------------------------------------------------------
# Helpers: what a player does on the table page


def start_table(page: Page, base_url: str) -> None:
    """Home -> "Surf's Up!" -> three seats -> "Start the table"."""
    page.goto(base_url + "/")
    page.get_by_role("link", name=re.compile(r"^Surf's Up!")).click()
    expect(page.get_by_role("heading", name="New Surf's Up! table")).to_be_visible()
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Seat {i + 1}").fill(name)
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))
    expect(title(page)).to_have_text("Wave 1 in the surf: the breakzone, closest to the beach")


def settle(page: Page) -> None:
    """Wait until Bootstrap's colour fade after a tap is over. The `shot` fixture waits for the same
    thing with an expression string, which Playwright re-polls through eval(): the app's CSP
    (script-src 'self') forbids that, so a shot taken mid-fade fails. A function does not need eval."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


def title(page: Page) -> Locator:
    return page.locator(".prompt-title")


def swap(page: Page, target: Locator) -> None:
    """Tap something that makes htmx replace the live region, wait for the new region, and check that
    nothing was refused."""
    expect(target).to_have_count(1)
    expect(target).to_be_enabled()
    page.evaluate("document.getElementById('live').dataset.old = 'yes'")
    target.tap()
    page.wait_for_function(
        "() => { const live = document.getElementById('live'); return live && !live.dataset.old; }"
    )
    expect(page.locator(".refusal")).to_have_count(0)


def press(page: Page, name: str) -> None:
    swap(page, page.locator(".prompt").get_by_role("button", name=name, exact=True))


def tap_label(page: Page, input_id: str) -> None:
    page.locator(f'label[for="{input_id}"]').tap()
    expect(page.locator(f'[id="{input_id}"]')).to_be_checked()


def face(page: Page, card: dict) -> Locator:
    """A card's button in the grid of faces: its figure and the word under it (issue 30)."""
    big, small = faces.label(card)
    pattern = re.compile(rf"^\s*{re.escape(big)}\s*{re.escape(small)}\s*$")
    return page.locator(".prompt .su-faces .su-face").filter(has_text=pattern)


def cost(page: Page, number: int) -> Locator:
    return page.locator(".prompt .su-costs .step-option").filter(has_text=re.compile(rf"^\s*{number}(?!\d)"))


def tap_card(page: Page, card: dict, shot=None, name: str = "") -> None:
    """A card tapped from the grid: a wave or a bluebottle one tap, a beach card its face and cost."""
    assert small_targets(page) == []
    if shot:
        settle(page)
        shot(page, name)
    swap(page, face(page, card))
    if "cost" in card:
        expect(page.locator(".prompt")).to_contain_text("its cost?")
        swap(page, cost(page, card["cost"]))


def set_up(page: Page, surf: tuple, beach: tuple, shot=None) -> None:
    for i, card in enumerate(surf, 1):
        expect(title(page)).to_contain_text(f"Wave {i} in the surf")
        tap_card(page, {"kind": "wave", **card}, shot if i == 2 else None, "su-01-setup")
    for i, card in enumerate(beach, 1):
        expect(title(page)).to_have_text(f"Beach card {i}")
        tap_card(page, card, shot if i == 1 else None, "su-01-setup-beach")


def reveal(page: Page, *cards, shot=None, name: str = "") -> None:
    """Each surfer's card; the last tap sends the reveal (issue 15)."""
    # A surfer down to the rest card is picked already (SU-4): nobody taps it.
    *first, (last_seat, last) = [
        (seat, card)
        for seat, card in enumerate(cards)
        if not page.locator(f'[id="energy-{seat}-{card}"]').is_checked()
    ]
    for seat, card in first:
        tap_label(page, f"energy-{seat}-{card}")
    if shot:
        settle(page)
        shot(page, name)
    swap(page, page.locator(f'label[for="energy-{last_seat}-{last}"]'))


def respect(page: Page, who: str) -> None:
    expect(title(page)).to_contain_text(f"{who}'s reward (")
    press(page, "+1 respect")


def buy(page: Page, who: str, option: str, refill: dict, shot=None, name: str = "") -> None:
    expect(title(page)).to_contain_text(f"{who}'s reward (")
    swap(page, page.locator(".prompt").get_by_role("link", name=f"Buy {option}", exact=True))
    expect(title(page)).to_contain_text(f"{who}'s reward (")  # whose purchase it is stays in view
    expect(page.locator(".prompt")).to_contain_text(f"{who} buys {option}: the new beach card from the deck?")
    tap_card(page, refill, shot, name)


def ocean(page: Page, card: dict, shot=None, name: str = "") -> None:
    expect(title(page)).to_have_text("Turn over the next ocean card")
    tap_card(page, {"kind": "wave", **card} if "suit" in card else card, shot, name)


# ---------------------------------------------------------------------------------------------
# Helpers: what a player reads


def texts(locator: Locator) -> list[str]:
    return [" ".join(text.split()) for text in locator.all_inner_texts()]


def story(page: Page) -> str:
    # Without its "Round N: " lead: the assertions name the round themselves.
    return re.sub(r"^Round \d+: ", "", page.locator(".prompt .su-story").inner_text().strip())


def board(page: Page) -> dict[str, list[str]]:
    """The surf and the beach drawn in the prompt, each card as "label detail"."""
    found = {}
    for block in page.locator(".prompt .su-cards").all():
        heading = block.locator("xpath=preceding-sibling::div[1]").inner_text()
        key = "surf" if heading.startswith("The surf") else "beach"
        found[key] = texts(block.locator(".su-card"))
        if key == "beach":
            found["beach_left"] = heading
    return found


def cards(*names: str) -> list[str]:
    return [SHOWN[name] for name in names]


def surfers(page: Page) -> dict[str, dict]:
    """The "Surfers" panel: per seat the respect pips lit, hand and towel (a temporary card as "t6"),
    and the waves and boards chips (suit colour + text)."""
    rows = page.locator("section[aria-label=Surfers] .seat-panel").evaluate_all(
        """rows => rows.map(row => {
            const cards = {hand: [], towel: []};
            let where = 'hand';
            for (const node of row.querySelector('.small').childNodes) {
                if (node.nodeType === Node.TEXT_NODE && node.textContent.includes('Towel')) where = 'towel';
                if (node.nodeType === Node.ELEMENT_NODE && node.classList.contains('energy-chip')) {
                    const temporary = node.classList.contains('temporary') ? 't' : '';
                    cards[where].push(temporary + node.textContent.trim());
                }
            }
            return {
                name: row.querySelector('strong').textContent.trim(),
                respect: row.querySelectorAll('.respect .pip.on').length,
                pips: row.querySelectorAll('.respect .pip').length,
                hand: cards.hand.join(' '),
                towel: cards.towel.join(' '),
                chips: [...row.querySelectorAll('.su-chip')].map(chip =>
                    chip.className.replace('su-chip su-', '') + ' ' + chip.textContent.trim()),
            };
        })"""
    )
    assert [row["name"] for row in rows] == list(NAMES)
    assert all(row.pop("pips") == 4 for row in rows)
    return {row.pop("name"): row for row in rows}


def surfer(respect: int, hand: str, towel: str = "", *chips: str) -> dict:
    return {"respect": respect, "hand": hand, "towel": towel, "chips": list(chips)}


def scores(page: Page) -> dict[str, int]:
    return dict(zip(NAMES, map(int, texts(page.locator(".scoreboard .score"))), strict=True))


def notes(page: Page) -> dict[str, str]:
    return dict(zip(NAMES, texts(page.locator(".scoreboard li small")), strict=True))


def status(page: Page) -> str:
    return " ".join(page.locator("#live h1 + small").inner_text().split())


def log(page: Page) -> list[str]:
    """The log entries, newest first."""
    return texts(page.locator(".log li .flex-grow-1"))


def options(page: Page) -> dict[str, str | None]:
    """The reward options: {button or link text: the reason under it when greyed, else None}."""
    found = {}
    for option in page.locator(".prompt .step-option").all():
        label = " ".join(option.inner_text().split())
        if option.is_disabled():
            reason = option.locator("xpath=following-sibling::div[1]").inner_text()
            found[label] = " ".join(reason.split())
        else:
            found[label] = None
    return found


def hand_buttons(page: Page, seat: int) -> list[str]:
    return page.locator(f"input[name=energy_{seat}]").evaluate_all("inputs => inputs.map(i => i.value)")


def small_targets(page: Page) -> list[str]:
    """Visible tap targets in the prompt smaller than 44 x 44 CSS pixels."""
    return page.locator(".prompt label.btn, .prompt .btn").evaluate_all(
        """els => els.filter(el => el.offsetParent !== null).map(el => {
            const r = el.getBoundingClientRect();
            return [el.textContent.trim(), Math.round(r.width), Math.round(r.height)];
        }).filter(([t, w, h]) => w < 44 || h < 44).map(([t, w, h]) => `${t} ${w}x${h}`)"""
    )


# ---------------------------------------------------------------------------------------------
# The test


def test_four_rounds_with_a_wipe_out_purchases_and_new_ocean_cards(live_server, phone, shot):
    start_table(phone, live_server.url)
    assert status(phone) == "Round 1 · 🪼 0/5 · ocean 28"
    assert surfers(phone) == {name: surfer(2, "0 1 2 3 4 5") for name in NAMES}  # SU-1
    assert scores(phone) == {"Ann": 0, "Ben": 0, "Cleo": 0}

    # ---- Setup: three waves, three beach cards, each tapped from the grid of faces (issue 30) ------
    set_up(phone, (ORANGE_3, BLUE_7, PURPLE_5), (ORANGE_BOARD, ENERGY_6, BLUE_BOARD), shot)
    expect(title(phone)).to_have_text("Round 1: reveal")
    assert status(phone) == "Round 1 · 🪼 0/5 · ocean 25"  # SU-3
    assert board(phone) == {
        "surf": cards("orange 3", "blue 7", "purple 5"),
        "beach": cards("orange board", "energy 6", "blue board"),
        "beach_left": "The beach · 39 left",
    }
    expect(phone.locator(".prompt .su-card.breakzone")).to_have_text(re.compile(r"🌊 3\s*orange"))
    assert log(phone) == [
        "The surf: 3 orange, 7 blue, 5 purple (breakzone first). The beach: the orange surfboard "
        "(+2, cost 3), temporary energy 6 (cost 2), the blue surfboard (+1, cost 4)."
    ]

    # ---- Round 1: Ann and Ben wipe out, Cleo wins and buys the energy 6 ------------------------
    assert [hand_buttons(phone, seat) for seat in range(3)] == [["0", "1", "2", "3", "4", "5"]] * 3
    reveal(phone, 4, 4, 3, shot=shot, name="su-02-reveal")
    assert story(phone) == "Ann and Ben wiped out (4, respect 2). Cleo wins the 3 orange wave."
    expect(title(phone)).to_have_text("Cleo's reward (winner, respect 2)")
    assert board(phone)["surf"] == cards("blue 7", "purple 5")  # SU-N7: the 3 has left the surf
    assert options(phone) == {
        "+1 respect": None,
        "Buy the orange surfboard (+2, cost 3)": "That surfboard costs 3 respect; Cleo has 2 (SU-7).",
        "Buy temporary energy 6 (cost 2)": None,
        "Buy the blue surfboard (+1, cost 4)": "That surfboard costs 4 respect; Cleo has 2 (SU-7).",
    }
    assert surfers(phone) == {
        "Ann": surfer(2, "0 1 2 3 5", "4"),
        "Ben": surfer(2, "0 1 2 3 5", "4"),
        "Cleo": surfer(2, "0 1 2 4 5", "", "orange 🌊 orange 3"),
    }
    assert small_targets(phone) == []
    settle(phone)
    shot(phone, "su-03-story-and-reward")
    buy(phone, "Cleo", "temporary energy 6 (cost 2)", PURPLE_BOARD, shot=shot, name="su-04-buy-refill")
    expect(phone.locator(".prompt")).not_to_contain_text("Cleo buys")
    assert log(phone)[0] == (
        "Cleo bought temporary energy 6 (cost 2) for the towel; "
        "the beach gets a purple surfboard (+3, cost 1)."
    )
    assert board(phone) == {
        "surf": cards("blue 7", "purple 5"),
        "beach": cards("orange board", "purple board", "blue board"),
        "beach_left": "The beach · 38 left",
    }
    ocean(phone, {"kind": "wave", "suit": "orange", "points": 8}, shot=shot, name="su-05-ocean-card")
    assert log(phone)[0] == "An 8 orange wave rolls into the surf."

    expect(title(phone)).to_have_text("Round 2: reveal")
    assert status(phone) == "Round 2 · 🪼 0/5 · ocean 24"
    assert board(phone) == {
        "surf": cards("blue 7", "purple 5", "orange 8"),
        "beach": cards("orange board", "purple board", "blue board"),
        "beach_left": "The beach · 38 left",
    }
    assert surfers(phone) == {
        "Ann": surfer(2, "0 1 2 3 5", "4"),
        "Ben": surfer(2, "0 1 2 3 5", "4"),
        "Cleo": surfer(0, "0 1 2 4 5", "t6", "orange 🌊 orange 3"),
    }
    assert scores(phone) == {"Ann": 0, "Ben": 0, "Cleo": 3}
    assert notes(phone) == {"Ann": "●●○○", "Ben": "●●○○", "Cleo": "○○○○"}
    assert [hand_buttons(phone, seat) for seat in range(3)] == [
        ["0", "1", "2", "3", "5"],
        ["0", "1", "2", "3", "5"],
        ["0", "1", "2", "4", "5"],
    ]

    # ---- Round 2: Cleo rests; Ann wins, Ben is runner-up ---------------------------------------
    reveal(phone, 5, 3, 0)
    assert story(phone) == "Cleo rested. Ann wins the 7 blue wave, Ben is runner-up."
    respect(phone, "Ann")
    respect(phone, "Ben")
    ocean(phone, {"kind": "bluebottle"})
    assert log(phone)[0] == "A bluebottle rolls into the surf."
    expect(title(phone)).to_have_text("Round 3: reveal")
    assert status(phone) == "Round 3 · 🪼 0/5 · ocean 23"
    assert board(phone)["surf"] == cards("purple 5", "orange 8", "bluebottle")
    assert surfers(phone) == {
        "Ann": surfer(3, "0 1 2 3", "4", "blue 🌊 blue 7"),
        "Ben": surfer(3, "0 1 2 5", "3 4"),
        "Cleo": surfer(1, "0 1 2 4 5 t6", "", "orange 🌊 orange 3"),  # the rest brought the 6 back (SU-6)
    }
    assert scores(phone) == {"Ann": 7, "Ben": 0, "Cleo": 3}
    assert hand_buttons(phone, 2) == ["0", "1", "2", "4", "5", "t6"]
    expect(phone.locator("label[for=energy-2-t6]")).to_have_text(re.compile(r"6\s*temp"))

    # ---- Round 3: Cleo wins with the temporary 6 ------------------------------------------------
    reveal(phone, 3, 5, "t6")
    assert story(phone) == "Cleo wins the 5 purple wave, Ben is runner-up."
    respect(phone, "Cleo")
    respect(phone, "Ben")
    ocean(phone, {"kind": "wave", "suit": "purple", "points": 2})
    expect(title(phone)).to_have_text("Round 4: reveal")
    assert status(phone) == "Round 4 · 🪼 0/5 · ocean 22"
    assert board(phone)["surf"] == cards("orange 8", "bluebottle", "purple 2")
    assert surfers(phone) == {
        "Ann": surfer(3, "0 1 2", "3 4", "blue 🌊 blue 7"),
        "Ben": surfer(4, "0 1 2", "3 4 5"),
        "Cleo": surfer(
            2, "0 1 2 4 5", "", "orange 🌊 orange 3", "purple 🌊 purple 5"
        ),  # the 6 went to the trash
    }
    assert scores(phone) == {"Ann": 7, "Ben": 0, "Cleo": 8}

    # ---- Round 4: three 2s, three different respects: Ben wins and must buy ---------------------
    reveal(phone, 2, 2, 2)
    assert story(phone) == "Ben wins the 8 orange wave, Ann is runner-up."
    expect(title(phone)).to_contain_text("Ben's reward (")
    assert options(phone) == {
        "+1 respect": "Ben is at 4 respect and must buy (SU-7).",
        "Buy the orange surfboard (+2, cost 3)": None,
        "Buy the purple surfboard (+3, cost 1)": None,
        "Buy the blue surfboard (+1, cost 4)": None,
    }
    settle(phone)
    shot(phone, "su-06-must-buy")
    buy(phone, "Ben", "the orange surfboard (+2, cost 3)", ENERGY_5)
    assert log(phone)[0] == (
        "Ben bought the orange surfboard (+2, cost 3); the beach gets temporary energy 5 (cost 2)."
    )
    expect(title(phone)).to_contain_text("Ann's reward (")
    assert options(phone) == {
        "+1 respect": None,
        "Buy temporary energy 5 (cost 2)": None,
        "Buy the purple surfboard (+3, cost 1)": None,
        "Buy the blue surfboard (+1, cost 4)": "That surfboard costs 4 respect; Ann has 3 (SU-7).",
    }
    respect(phone, "Ann")
    ocean(phone, {"kind": "wave", "suit": "blue", "points": 6})

    expect(title(phone)).to_have_text("Round 5: reveal")
    assert status(phone) == "Round 5 · 🪼 0/5 · ocean 21"
    assert board(phone) == {
        "surf": cards("bluebottle", "purple 2", "blue 6"),
        "beach": cards("energy 5", "purple board", "blue board"),
        "beach_left": "The beach · 37 left",
    }
    assert surfers(phone) == {
        "Ann": surfer(4, "0 1", "2 3 4", "blue 🌊 blue 7"),
        "Ben": surfer(1, "0 1", "3 4 5", "orange 🌊 orange 8", "orange 🏄 +2 orange"),
        "Cleo": surfer(2, "0 1 4 5", "2", "orange 🌊 orange 3", "purple 🌊 purple 5"),
    }
    assert scores(phone) == {"Ann": 7, "Ben": 10, "Cleo": 8}  # Ben: 8 + the orange +2 x 1 orange wave
    assert notes(phone) == {"Ann": "●●●●", "Ben": "●○○○", "Cleo": "●●○○"}
    assert [hand_buttons(phone, seat) for seat in range(3)] == [["0", "1"], ["0", "1"], ["0", "1", "4", "5"]]
    # The story of round 4 stays up until the next reveal.
    assert story(phone) == "Ben wins the 8 orange wave, Ann is runner-up."
    assert len(log(phone)) == 1 + 4 * 2 + 7  # setup, 4 reveals and 4 ocean cards, 1 + 2 + 2 + 2 rewards
    assert small_targets(phone) == []
    settle(phone)
    shot(phone, "su-07-after-round-4")
