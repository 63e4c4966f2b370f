"""Hang Four through the pages, on a 390 px phone: twelve turns of a 3-player table.

Every number below is worked out by hand from the rulings (HF-1..HF-14). Start (HF-3): each seat
holds one dog character and 3 sand dollars, the bank 30 - 3 x 3 = 21, the Surf deck 36 - 3 = 33,
the Shack deck 15 with an empty discard pile.

  Turn  Seat  Entry                              Ann   Ben   Cleo  Bank  Surf  Shack (discard)
  0     -     setup                               3     3     3     21    33    15 (0)
  1     Ann   rolls 5: collects 5                 8     3     3     16    33    15 (0)
  2     Ben   rolls 4: collects 4                 8     7     3     12    33    15 (0)
  3     Cleo  rolls 1: collects 1                 8     7     4     11    33    15 (0)
  4     Ann   rolls 5: collects 1 (cap 9, HF-4)   9     7     4     10    33    15 (0)
  5     Ben   pays 2 for a Shack card (HF-11)     9     5     4     12    33    15 (0)
              draws the Seagull                   9     5     4     12    33    14 (0)
              rolls 5: Ann pays 5, Cleo pays
              min(5, 4) = 4 (HF-10); Ben holds
              14 > 9: he must buy next turn       4    14     0     12    33    14 (1)
  6     Cleo  holds 0: buying and the Shack are
              greyed; rolls 3: collects 3         4    14     3      9    33    14 (1)
  7     Ann   buys 1 card for 3: a nose, which
              must join her Surf Dog 1 (HF-7)     1    14     3     12    32    14 (1)
  8     Ben   must buy: roll and Shack greyed;
              buys 2 for 6: a nose and a tail,
              Surf Dog 1 complete (score 1)       1     8     3     18    30    14 (1)
  9     Cleo  rolls the Surf Shack icon, draws
              Snag a Surfboard, rolls 2, picks
              Ann: takes min(2, 1) = 1 board,
              Ann's nose, to her Surf Dog 1       1     8     3     18    30    13 (2)
  10    Ann   holds 1: buying and the Shack are
              greyed; rolls 1: collects 1         2     8     3     17    30    13 (2)
  11    Ben   rolls 1: collects 1                 2     9     3     16    30    13 (2)
  12    Cleo  rolls the icon, draws Wipe Out,
              rolls 3: loses min(3, 1) = 1
              board, her nose (HF-9)              2     9     3     16    30    12 (3)

After turn 12: Ann's and Cleo's Surf Dog 1 are the dog alone, Ben's is complete (safe). Scores
(HF-14, complete Surf Dogs): Ann 0, Ben 1, Cleo 0. It is Ann's turn again.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ann", "Ben", "Cleo")  # seats 0, 1, 2

ROLL = "🎲 Roll the die"
BUY = "🛒 Buy Surf cards · 3 each"
SHACK = "🛖 Surf Shack card · 2"
SEAGULL = "🐦 Seagull · every opponent pays you the next roll"
SNAG = "🪝 Snag a Surfboard · steal boards from one opponent"
WIPE_OUT = "🌊 Wipe Out · lose your own loose boards"
FACES = ["1", "2", "3", "4", "5", "🛖"]
PARTS = ["🐶 Dog", "◧ Nose board", "◨ Tail board"]

BEN_MUST_BUY = "You hold 14 sand dollars after the Seagull: you must buy a card (HF-10)."
CLEO_CANNOT_BUY = "A card costs 3 sand dollars; Cleo holds 0 (HF-11)."
CLEO_CANNOT_DRAW = "A Surf Shack card costs 2 sand dollars; Cleo holds 0 (HF-11)."
ANN_CANNOT_BUY = "A card costs 3 sand dollars; Ann holds 1 (HF-11)."
ANN_CANNOT_DRAW = "A Surf Shack card costs 2 sand dollars; Ann holds 1 (HF-11)."


# ---------------------------------------------------------------------------------------------
# Helpers: what a player does and reads on the table page


def start_table(page: Page, base_url: str) -> None:
    """Home -> "Hang Four" -> three seats -> "Start the table"."""
    page.goto(base_url + "/")
    page.get_by_role("link", name=re.compile(r"^Hang Four")).click()
    expect(page.get_by_role("heading", name="New Hang Four table")).to_be_visible()
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Seat {i + 1}").fill(name)
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))
    expect(title(page)).to_have_text("Ann's turn: tap what the die showed, or buy")


def title(page: Page) -> Locator:
    return page.locator(".prompt-title")


def texts(locator: Locator) -> list[str]:
    return [" ".join(text.split()) for text in locator.all_inner_texts()]


def options(page: Page) -> list[str]:
    """The options' labels, without the small hint under a die face."""
    return [text.strip() for text in page.locator(".prompt .step-option .option-label").all_inner_texts()]


def hints(page: Page) -> dict[str, str]:
    """Die face -> the hint under it ("+1": what that face would bring)."""
    faces = page.locator(".prompt .hf-faces .step-option").all()
    return {
        f.locator(".option-label").inner_text().strip(): f.locator(".option-hint").inner_text() for f in faces
    }


def option(page: Page, text: str) -> Locator:
    label = page.locator(".option-label", has_text=re.compile(f"^\\s*{re.escape(text)}\\s*$"))
    return page.locator(".prompt .step-option").filter(has=label)


def greyed(page: Page) -> dict[str, str]:
    """The greyed options of the step: {label: the reason shown under it}."""
    found = {}
    for button in page.locator(".prompt button.step-option[disabled]").all():
        why = page.locator(f"#{button.get_attribute('aria-describedby')}")
        expect(why).to_be_visible()
        found[" ".join(button.inner_text().split())] = " ".join(why.inner_text().split())
    return found


def tap(page: Page, text: str) -> None:
    """Tap an option (a link to the next step or a button that posts the entry) and wait until htmx
    has swapped in the new live region (it often has the same labels as the old one)."""
    target = option(page, text)
    expect(target).to_have_count(1)
    expect(target).to_be_enabled()
    page.evaluate("document.getElementById('live').dataset.old = 'yes'")
    target.tap()
    page.wait_for_function(
        "() => { const live = document.getElementById('live'); return live && !live.dataset.old; }"
    )
    expect(page.locator(".refusal")).to_have_count(0)


def play(page: Page, *steps: str) -> None:
    for text in steps:
        tap(page, text)


def seats(page: Page) -> dict[str, int]:
    """Sand dollars per seat, read from the panel rows."""
    found = {}
    for row in page.locator(".seat-panel").all():
        head = row.locator("> div").first
        name = head.locator("strong").first.inner_text().split()[0]
        found[name] = int(re.fullmatch(r"\$(\d+)", head.locator("span > strong").inner_text()).group(1))
    assert list(found) == list(NAMES)
    return found


def counts(page: Page) -> dict[str, str]:
    """The table counts above the seats: bank, Surf deck, Shack deck (discard)."""
    spans = texts(page.locator(".hf-counts > span"))
    assert len(spans) == 3, spans
    return {"bank": spans[0], "surf": spans[1], "shack": spans[2]}


def table(bank: int, surf: int, shack: int, discard: int) -> dict[str, str]:
    return {
        "bank": f"🏦 Bank ${bank}",
        "surf": f"🂠 Surf deck {surf}",
        "shack": f"🛖 Shack {shack} (discard {discard})",
    }


def dogs(page: Page, name: str) -> list[str]:
    """One seat's Surf Dogs as drawn, spaces removed: "1🏄🐶🏄safe" (complete: nose, dog, tail),
    "1🏄🐶·" (a nose and the dog), "1·🐶·" (the dog alone)."""
    row = page.locator(".seat-panel").filter(has=page.locator("strong", has_text=re.compile(f"^{name}\\b")))
    # A board is drawn as a labelled box, dashed when missing: read the classes, not the labels.
    return row.locator(".hf-dog").evaluate_all(
        """dogs => dogs.map(dog => dog.querySelector('.hf-no').textContent.trim()
            + [...dog.querySelectorAll('.part')].map(part => part.classList.contains('missing') ? '·'
                : part.classList.contains('board') ? '🏄' : '🐶').join('')
            + (dog.classList.contains('complete') ? 'safe' : ''))"""
    )


def scores(page: Page) -> dict[str, int]:
    return dict(zip(NAMES, map(int, texts(page.locator(".scoreboard .score"))), strict=True))


def notes(page: Page) -> dict[str, str]:
    return dict(zip(NAMES, texts(page.locator(".scoreboard li small")), strict=True))


def log(page: Page) -> list[str]:
    """The log entries, newest first."""
    return texts(page.locator(".log li .flex-grow-1"))


def status(page: Page) -> str:
    return page.locator("#live h1 + small").inner_text().strip()


def check(page: Page, dollars: tuple[int, int, int], bank: int, surf: int, shack: int, discard: int):
    """The sand dollars of Ann, Ben and Cleo and the table counts; 30 sand dollars in all (HF-4)."""
    assert sum(dollars) + bank == 30
    assert seats(page) == dict(zip(NAMES, dollars, strict=True))
    assert counts(page) == table(bank, surf, shack, discard)


# ---------------------------------------------------------------------------------------------
# The test


def test_twelve_turns_cap_seagull_must_buy_complete_dog_snag_and_wipe_out(live_server, phone, shot):
    start_table(phone, live_server.url)
    check(phone, (3, 3, 3), bank=21, surf=33, shack=15, discard=0)
    assert scores(phone) == {"Ann": 0, "Ben": 0, "Cleo": 0}
    for name in NAMES:
        assert dogs(phone, name) == ["1·🐶·"]  # HF-3: one dog character each, no board yet
    assert options(phone) == [*FACES, BUY, SHACK]  # a roll is one tap on its face (issue 15)
    assert greyed(phone) == {}
    assert status(phone) == "Ann's turn"
    expect(phone.locator(".seat-panel.turn")).to_contain_text("Ann")
    expect(phone.get_by_text("Nothing entered yet.")).to_be_visible()
    shot(phone, "hf-01-turn-screen")

    # ---- Turns 1-4: number rolls; Ann's second 5 meets the cap of 9 (HF-4) --------------------
    tap(phone, "5")
    expect(title(phone)).to_have_text("Ben's turn: tap what the die showed, or buy")
    assert log(phone) == ["Ann rolled a 5 and collects 5 sand dollars."]
    check(phone, (8, 3, 3), bank=16, surf=33, shack=15, discard=0)

    play(phone, "4")
    assert log(phone)[0] == "Ben rolled a 4 and collects 4 sand dollars."
    check(phone, (8, 7, 3), bank=12, surf=33, shack=15, discard=0)

    play(phone, "1")
    assert log(phone)[0] == "Cleo rolled a 1 and collects 1 sand dollar."
    check(phone, (8, 7, 4), bank=11, surf=33, shack=15, discard=0)

    expect(title(phone)).to_have_text("Ann's turn: tap what the die showed, or buy")
    # Ann holds 8: each face says what it would bring, and the 9 cap shows before the tap (HF-4).
    assert hints(phone) == {"1": "+1", "2": "+1", "3": "+1", "4": "+1", "5": "+1", "🛖": "draw a card"}
    tap(phone, "5")
    assert log(phone)[0] == "Ann rolled a 5 and collects 1 sand dollar (9 is the cap)."
    check(phone, (9, 7, 4), bank=10, surf=33, shack=15, discard=0)

    # ---- Turn 5: Ben pays 2 for a Shack card, draws the Seagull, rolls 5 ----------------------
    expect(title(phone)).to_have_text("Ben's turn: tap what the die showed, or buy")
    tap(phone, SHACK)
    expect(title(phone)).to_have_text("Which Surf Shack card did Ben draw?")
    assert options(phone) == [SEAGULL, SNAG, WIPE_OUT]
    assert log(phone)[0] == "Ben paid 2 sand dollars for a Surf Shack card."
    check(phone, (9, 5, 4), bank=12, surf=33, shack=15, discard=0)
    shot(phone, "hf-03-shack-card-choice")

    tap(phone, SEAGULL)
    expect(title(phone)).to_have_text("Seagull: roll again. Every opponent pays up to that")
    assert options(phone) == FACES
    assert log(phone)[0] == "Ben drew Seagull."
    check(phone, (9, 5, 4), bank=12, surf=33, shack=14, discard=0)
    shot(phone, "hf-04-seagull-face-step")

    tap(phone, "5")
    assert log(phone)[0] == (
        "Ben rolled 5 for the Seagull: Ann pays 5, Cleo pays 4. Ben holds 14 and must buy next turn."
    )
    check(phone, (4, 14, 0), bank=12, surf=33, shack=14, discard=1)
    assert notes(phone) == {"Ann": "$4", "Ben": "$14 · must buy", "Cleo": "$0"}
    ben = phone.locator(".seat-panel", has_text="Ben")
    expect(ben.locator(".badge", has_text="must buy")).to_be_visible()

    # ---- Turn 6: Cleo holds nothing: only the die is left to her ------------------------------
    expect(title(phone)).to_have_text("Cleo's turn: tap what the die showed, or buy")
    assert greyed(phone) == {BUY: CLEO_CANNOT_BUY, SHACK: CLEO_CANNOT_DRAW}
    play(phone, "3")
    assert log(phone)[0] == "Cleo rolled a 3 and collects 3 sand dollars."
    check(phone, (4, 14, 3), bank=9, surf=33, shack=14, discard=1)

    # ---- Turn 7: Ann buys a nose; it must join her only Surf Dog (HF-7) -----------------------
    expect(title(phone)).to_have_text("Ann's turn: tap what the die showed, or buy")
    tap(phone, BUY)
    # 4 sand dollars buy one card: "How many?" has one answer, so it is not asked (issue 15).
    expect(title(phone)).to_have_text("Card 1 of 1: what did you draw?")
    tap(phone, "◧ Nose board")
    assert log(phone)[0] == "Ann bought 1 card for 3: a nose for Surf Dog 1."
    check(phone, (1, 14, 3), bank=12, surf=32, shack=14, discard=1)
    assert dogs(phone, "Ann") == ["1🏄🐶·"]

    # ---- Turn 8: Ben must buy (HF-10); a nose and a tail complete his Surf Dog ----------------
    expect(title(phone)).to_have_text("Ben's turn: tap what the die showed, or buy")
    assert options(phone) == [ROLL, BUY, SHACK]
    assert greyed(phone) == {ROLL: BEN_MUST_BUY, SHACK: BEN_MUST_BUY}
    shot(phone, "hf-05-must-buy-turn")

    tap(phone, BUY)
    assert options(phone) == ["1 · $3", "2 · $6", "3 · $9", "4 · $12"]  # 14 // 3 = 4
    shot(phone, "hf-06-purchase-count")
    tap(phone, "2 · $6")
    expect(title(phone)).to_have_text("Card 1 of 2: what did you draw?")
    assert options(phone) == PARTS
    assert greyed(phone) == {}
    shot(phone, "hf-07-part-step")
    tap(phone, "◧ Nose board")
    # The nose could only join Surf Dog 1 (HF-7): no "which Surf Dog?" step, straight to card 2,
    # whose every part finishes the purchase: each button posts it.
    expect(title(phone)).to_have_text("Card 2 of 2: what did you draw?")
    assert options(phone) == PARTS
    expect(phone.locator(".prompt button[type=submit].step-option")).to_have_count(3)
    tap(phone, "◨ Tail board")
    assert log(phone)[0] == (
        "Ben bought 2 cards for 6: a nose for Surf Dog 1 and a tail for Surf Dog 1 (complete!)."
    )
    check(phone, (1, 8, 3), bank=18, surf=30, shack=14, discard=1)
    assert scores(phone) == {"Ann": 0, "Ben": 1, "Cleo": 0}
    assert notes(phone) == {"Ann": "$1", "Ben": "$8", "Cleo": "$3"}
    ben_dog = phone.locator(".seat-panel", has_text="Ben").locator(".hf-dog")
    expect(ben_dog).to_have_count(1)
    expect(ben_dog).to_have_class(re.compile(r"\bcomplete\b"))
    expect(ben_dog.locator(".safe")).to_have_text("safe")
    assert dogs(phone, "Ben") == ["1🏄🐶🏄safe"]
    expect(phone.locator(".seat-panel", has_text="Ben")).to_contain_text("1 complete")
    ben = phone.locator(".seat-panel", has_text="Ben")
    expect(ben.locator(".badge", has_text="must buy")).to_have_count(0)
    shot(phone, "hf-08-completed-dog")

    # ---- Turn 9: Cleo rolls the icon, draws the Snag, rolls 2 and takes Ann's nose ------------
    expect(title(phone)).to_have_text("Cleo's turn: tap what the die showed, or buy")
    tap(phone, "🛖")
    assert log(phone)[0] == "Cleo rolled the Surf Shack."
    expect(title(phone)).to_have_text("Which Surf Shack card did Cleo draw?")
    tap(phone, SNAG)
    assert log(phone)[0] == "Cleo drew Snag a Surfboard."
    expect(title(phone)).to_have_text("Snag a Surfboard: roll again")
    tap(phone, "2")
    expect(title(phone)).to_have_text("Snag 2: from whom?")
    # Ben's boards are in a complete Surf Dog: protected (HF-8).
    assert options(phone) == ["Ann · 1 loose board", "Ben · 0 loose boards"]
    shot(phone, "hf-09-snag-target")
    # Ann's one loose board is the one way to take 1 from her, and it can only join Cleo's Surf
    # Dog 1: the tap on Ann posts the whole Snag (issue 15: no step with one answer).
    tap(phone, "Ann · 1 loose board")
    assert log(phone)[0] == (
        "Cleo rolled 2 for the Snag and takes from Ann the nose of Surf Dog 1 (to Surf Dog 1)."
    )
    check(phone, (1, 8, 3), bank=18, surf=30, shack=13, discard=2)
    assert dogs(phone, "Ann") == ["1·🐶·"]
    assert dogs(phone, "Ben") == ["1🏄🐶🏄safe"]
    assert dogs(phone, "Cleo") == ["1🏄🐶·"]
    assert scores(phone) == {"Ann": 0, "Ben": 1, "Cleo": 0}

    # ---- Turns 10-11: Ann, holding 1, can only roll; Ben rolls ---------------------------------
    expect(title(phone)).to_have_text("Ann's turn: tap what the die showed, or buy")
    assert greyed(phone) == {BUY: ANN_CANNOT_BUY, SHACK: ANN_CANNOT_DRAW}
    play(phone, "1")
    assert log(phone)[0] == "Ann rolled a 1 and collects 1 sand dollar."
    check(phone, (2, 8, 3), bank=17, surf=30, shack=13, discard=2)
    play(phone, "1")
    assert log(phone)[0] == "Ben rolled a 1 and collects 1 sand dollar."
    check(phone, (2, 9, 3), bank=16, surf=30, shack=13, discard=2)

    # ---- Turn 12: Cleo rolls the icon, draws Wipe Out, rolls 3 and loses her only board -------
    expect(title(phone)).to_have_text("Cleo's turn: tap what the die showed, or buy")
    play(phone, "🛖", WIPE_OUT)
    assert log(phone)[:2] == ["Cleo drew Wipe Out.", "Cleo rolled the Surf Shack."]
    expect(title(phone)).to_have_text("Wipe Out: roll again")
    tap(phone, "3")  # her one loose board is the one way to lose 1: the tap on 3 posts it
    assert log(phone)[0] == "Cleo rolled 3 for the Wipe Out and loses the nose of Surf Dog 1."
    check(phone, (2, 9, 3), bank=16, surf=30, shack=12, discard=3)
    assert dogs(phone, "Ann") == ["1·🐶·"]
    assert dogs(phone, "Ben") == ["1🏄🐶🏄safe"]
    assert dogs(phone, "Cleo") == ["1·🐶·"]
    assert scores(phone) == {"Ann": 0, "Ben": 1, "Cleo": 0}
    assert notes(phone) == {"Ann": "$2", "Ben": "$9", "Cleo": "$3"}
    expect(title(phone)).to_have_text("Ann's turn: tap what the die showed, or buy")
    assert status(phone) == "Ann's turn"
    expect(phone.locator(".seat-panel.turn")).to_contain_text("Ann")
    assert len(log(phone)) == 18  # 12 turns, three of them Shack visits of 3 entries each
    shot(phone, "hf-12-final-state")
