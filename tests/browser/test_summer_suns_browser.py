"""62 Summer Suns through the pages: two phones, Ann's and Ben's, each writing on its own sheet.

Three rounds on the default sheet (issue 3), scripted so that every number is known by hand. Pearls
are earned only when the written value equals the slot's pearl (SS-6): with three different dice a
direct placement can never do that (the die that picks the slot already shows the pearl), so pearls
come from doubles and from crab copies.

  Round  dice     Ann (seat 0)                            Ben (seat 1)
  1      5 2 1    k3 (pearl 5, crab) picked by the 5,     g5 (pearl 5, crab) picked by the 5,
         (Ann)    writes 2; sun +1 = 1. The crab offers   writes 1; sun +2 = 2. The crab offers
                  c3b and k7 (k2 and k4 would break the   only b5 (g4, g6: gulls hold no value
                  koi signs), she copies to k7: pearl 2   twice); copied by tapping b5 on the
                  earned (SS-7).                          sheet: b5 gives a shell (SS-8).
  2      4 4 3    Refused taps: k4 (no die shows its      k6 (pearl 4, sun hat) picked by a 4,
         (Ben)    pearl 2) and k6 (k6 < k7 = 2 on the     writes 4: pearl; the hat lets him choose
                  koi, neither 4 nor 3 fits). g1 (pearl   the sun value: 5, sun 2 + 5 = 7 (SS-9).
                  4, shell) picked by a 4, writes the     He opens k6 before Ann writes; his
                  other 4: pearl and shell; sun +3 = 4.   phone keeps that step while polling.
  3      6 6 2    s2 (pearl 6, crab) picked by a 6,       g3 (pearl 6) picked by a 6, writes 6:
         (Ann)    writes 6: pearl; the crab offers s6     pearl; sun +2 = 9. Ben places first
                  (s1/s3: boat neighbours differ; k6      this round.
                  must stay below 2): "No copy"; sun
                  +2 = 6.

After round 3 (no zone is complete, no sun bonus reached: the sun rows stay below 12):
  Ann: k3=2, k7=2, g1=4, s2=6; pearls earned k7, g1, s2 = 3; 1 shell (g1); sun 1, 4, 6.
  Ben: g5=1, b5=1, k6=4, g3=6; pearls earned k6, g3 = 2; 1 shell (b5); sun 2, 7, 9.
Scores are live (SS-13, engine note SS-N5): pearls + completed zones + sun starfish + the shell
majority bonus as it stands now (SS-8: the most shells, at least one, 5 starfish; ties all get it).
  after Ann's round 1: Ann 1 (pearl k7), Ben 0
  after round 1:       Ann 1, Ben 0 + 5 (he alone has a shell) = 5
  after Ann's round 2: Ann 2 + 5 = 7 (one shell each now), Ben 0 + 5 = 5
  after round 2:       Ann 7, Ben 1 + 5 = 6
  after Ben's round 3: Ann 7, Ben 2 + 5 = 7
  after round 3:       Ann 3 + 5 = 8, Ben 2 + 5 = 7
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ann", "Ben")  # seat 0, seat 1
POLL = 3_500  # ms: the live region polls every 2 s, so another phone's entry shows within ~3 s

NO_PEARL_K4 = (
    "Not there. No die shows the pearl of Koi 1, 4th (2): the die that picks a slot must equal it. (SS-3)"
)
KOI_K6 = (
    "Not there. Cannot write 4 or 3 in Koi 2, 2nd: it must be smaller than Koi 2, 3rd (2) on this koi (SS-4)."
)


# ---------------------------------------------------------------------------------------------
# Helpers: what a player does and reads on the table page


def start_table(page: Page, base_url: str, shot) -> None:
    """Home -> "62 Summer Suns" -> players and sheet -> "Start the table"."""
    page.goto(base_url + "/")
    page.get_by_role("link", name=re.compile(r"^62 Summer Suns")).click()
    expect(page.get_by_role("heading", name="New 62 Summer Suns table")).to_be_visible()
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Seat {i + 1}").fill(name)
    expect(page.get_by_text("Score sheet")).to_have_count(0)  # one sheet: no question (issue 15)
    shot(page, "ss-01-new-table-form")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))
    expect(page.locator(".prompt-title")).to_have_text("Round 1: roll the three dice")


def swap(page: Page, target: Locator) -> None:
    """Tap something that makes htmx replace the live region, and wait for the new region.

    The new region often has the same labels as the old one, so without this wait the next tap
    could land on the old one.
    """
    page.evaluate("document.getElementById('live').dataset.old = 'yes'")
    target.tap()
    page.wait_for_function(
        "() => { const live = document.getElementById('live'); return live && !live.dataset.old; }"
    )


def roll(page: Page, dice: list[int], shot=None, name: str = "") -> None:
    """Three taps, one per die: the third sends the roll (issue 15)."""
    for i, value in enumerate(dice[:2]):
        page.locator(f"label[for=die-{i}-{value}]").tap()
        expect(page.locator(f"#die-{i}-{value}")).to_be_checked()
    if shot:
        shot(page, name)
    swap(page, page.locator(f"label[for=die-2-{dice[2]}]"))
    expect(page.locator(".ss-dice .die")).to_have_text([str(v) for v in dice])


def pick_sheet(page: Page, name: str) -> None:
    """ "Which sheet is yours?": tap the name (a plain form post, the whole page reloads)."""
    expect(title(page)).to_have_text("Which sheet is yours?")
    with page.expect_navigation():
        page.locator("form", has=page.locator("input[name=seat]")).get_by_role(
            "button", name=name, exact=True
        ).tap()
    expect(title(page)).to_have_text(f"{name}: Tap a lit slot to write in it")


def title(page: Page) -> Locator:
    return page.locator(".prompt-title")


def banner(page: Page) -> Locator:
    """The round banner next to the dice: who has not written yet."""
    return page.locator(".prompt small", has_text="Waiting for")


def my_grid(page: Page) -> Locator:
    """This phone's own sheet while a round is being written (it sits in the prompt)."""
    return page.locator(".prompt .ss-grid")


def panel_grid(page: Page) -> Locator:
    """The sheet shown in the "Sheets" panel (this phone's own, or the one whose chip was tapped)."""
    return page.get_by_role("region", name="Sheets").locator(".ss-grid")


def cell(page: Page, slot: str) -> Locator:
    return my_grid(page).locator(f"a[data-slot='{slot}'][aria-label^='Choose ']")


def lit(page: Page) -> list[str]:
    """The slots a tap writes in or opens (a slot with one way posts at once: issue 15)."""
    return [cell.get_attribute("data-slot") for cell in my_grid(page).locator(".ss-cell.lit").all()]


def options(page: Page) -> list[str]:
    return [text.strip() for text in page.locator(".prompt .step-option").all_inner_texts()]


def option(page: Page, text: str) -> Locator:
    return page.locator(".prompt .step-option").filter(has_text=re.compile(f"^{re.escape(text)}$"))


def sheet(grid: Locator) -> tuple[dict[str, int], set[str]]:
    """A drawn sheet as ({slot: written value}, {slots whose pearl is shown earned}).

    Each written value is read from the big number in the cell and checked against the cell's
    accessible name ("Koi 1, 3rd, pearl 5, holds 2": the slot in words, issue 15).
    """
    cells = grid.locator(".ss-cell[role=gridcell]").evaluate_all(
        """cells => cells.map(c => [
            c.dataset.slot,
            c.getAttribute('aria-label'),
            c.querySelector('.value').innerText.trim(),
            !!c.querySelector('.value .pending, .value .preview'),
            c.querySelector('.pearl').classList.contains('earned'),
        ])"""
    )
    assert len(cells) == 35  # the default sheet
    written, earned = {}, set()
    for slot, label, value, pending, pearl in cells:
        assert ", pearl " in label and not label.startswith(slot), label
        if value and not pending:
            assert label.endswith(f", holds {value}"), label
            written[slot] = int(value)
        else:
            assert "holds" not in label, label
        if pearl:
            earned.add(slot)
    return written, earned


def sun_row(grid: Locator) -> list[int]:
    """The filled suns under a sheet."""
    suns = grid.locator("xpath=following-sibling::div[contains(@class, 'ss-sun')][1]").locator(".sun.done")
    return [int(text) for text in suns.all_inner_texts()]


def scores(page: Page) -> dict[str, int]:
    values = [int(text) for text in page.locator(".scoreboard .score").all_inner_texts()]
    return dict(zip(NAMES, values, strict=True))


def notes(page: Page) -> dict[str, str]:
    """The scoreboard's note per player: "sun 7 ✓" (✓: has written this round)."""
    texts = [text.strip() for text in page.locator(".scoreboard li small").all_inner_texts()]
    return dict(zip(NAMES, texts, strict=True))


def log(page: Page) -> list[str]:
    return [text.strip() for text in page.locator(".log li .flex-grow-1").all_inner_texts()]


def version(page: Page) -> str:
    """The table version this page shows (the live region polls with it)."""
    return re.search(r"[?&]v=(\d+)", page.locator("#live").get_attribute("hx-get")).group(1)


# ---------------------------------------------------------------------------------------------
# The test


def test_three_rounds_on_two_phones_with_a_crab_copy_a_hat_and_refused_taps(live_server, new_phone, shot):
    ann = new_phone()
    start_table(ann, live_server.url, shot)
    ann.locator("summary", has_text="Bring the other phones in").click()
    play_link = ann.locator("#play-link").input_value()
    assert "/join/" in play_link

    ben = new_phone()
    ben.goto(play_link)
    ben.wait_for_url(re.compile(r"/t/[^/]+/$"))
    expect(title(ben)).to_have_text("Round 1: roll the three dice")
    assert scores(ben) == {"Ann": 0, "Ben": 0}
    assert notes(ben) == {"Ann": "sun 0 · 🐚0", "Ben": "sun 0 · 🐚0"}

    # ---- Round 1: Ann rolls 5 2 1 -------------------------------------------------------------
    roll(ann, [5, 2, 1], shot, "ss-02-roll-form")
    expect(title(ann)).to_have_text("Which sheet is yours?")
    expect(banner(ann)).to_have_text("Waiting for Ann and Ben")
    shot(ann, "ss-03-which-sheet-is-yours")
    pick_sheet(ann, "Ann")
    expect(ann.locator(".prompt strong", has_text="Ann's sheet")).to_be_visible()

    # Ben's phone learns of the roll by polling, and he picks his sheet there.
    expect(title(ben)).to_have_text("Which sheet is yours?", timeout=POLL)
    pick_sheet(ben, "Ben")

    # Every empty slot whose pearl is on a die (5, 2 or 1) is lit on an empty sheet.
    assert lit(ann) == [
        "c2t", "c3t", "b1", "c2b", "c4b", "b2", "k1", "k3", "k4",
        "k7", "k8", "b4", "g4", "s1", "g5", "s5", "s6", "g6",
    ]  # fmt: skip
    expect(my_grid(ann).locator(".ss-cell.lit")).to_have_count(18)
    shot(ann, "ss-04-slot-step-lit-sheet")

    swap(ann, cell(ann, "k3"))
    expect(title(ann)).to_have_text("Ann: How to fill Koi 1, 3rd")
    assert options(ann) == ["Write 2 · sun +1 = 1", "Write 1 · sun +2 = 2"]
    # SS-5: a 1 in k3 leaves k2 (< k3) and k4 (< k3) with no value: legal, but warned.
    expect(ann.get_by_text("⚠ Koi 1, 2nd, Koi 1, 4th could never be filled after this")).to_be_visible()
    shot(ann, "ss-05-way-step")

    swap(ann, option(ann, "Write 2 · sun +1 = 1"))
    expect(title(ann)).to_have_text("Ann: Crab in Koi 1, 3rd: copy the 2 next door?")
    # k2 and k4 are k3's koi neighbours and would have to be smaller than 2: only c3b and k7.
    assert options(ann) == ["Copy to Cabin 3, bottom", "Copy to Koi 2, 3rd (★ pearl)", "No copy"]
    assert lit(ann) == ["c3b", "k7"]  # the crab's targets post the entry from the sheet too
    expect(my_grid(ann).locator(".ss-cell.chosen")).to_have_count(1)  # k3, the 2 drawn faintly
    shot(ann, "ss-06-crab-step")

    swap(ann, option(ann, "Copy to Koi 2, 3rd (★ pearl)"))
    expect(title(ann)).to_have_text("Ann has written this round")
    expect(banner(ann)).to_have_text("Waiting for Ben")
    assert sheet(my_grid(ann)) == ({"k3": 2, "k7": 2}, {"k7"})
    assert sun_row(my_grid(ann)) == [1]
    assert scores(ann) == {"Ann": 1, "Ben": 0}

    # Ben's phone, mid-choice on its own sheet, hears of Ann's entry from its event stream.
    expect(banner(ben)).to_have_text("Waiting for Ben", timeout=POLL)
    assert notes(ben) == {"Ann": "sun 1 · 🐚0 ✓", "Ben": "sun 0 · 🐚0"}
    assert scores(ben) == {"Ann": 1, "Ben": 0}
    expect(ben.locator(".seat-chip", has_text="Ann")).to_have_text("Ann ✓")
    expect(title(ben)).to_have_text("Ben: Tap a lit slot to write in it")
    assert sheet(my_grid(ben)) == ({}, set())  # Ann's writing is on Ann's sheet only
    shot(ben, "ss-07-ben-sees-ann-has-written")

    swap(ben, cell(ben, "g5"))
    assert options(ben) == ["Write 2 · sun +1 = 1", "Write 1 · sun +2 = 2"]
    swap(ben, option(ben, "Write 1 · sun +2 = 2"))
    expect(title(ben)).to_have_text("Ben: Crab in Gull 5: copy the 1 next door?")
    assert options(ben) == ["Copy to Bottle 5 (🐚 shell)", "No copy"]  # g4, g6 are gulls: no value twice
    # The copy target is lit on the sheet too: tap it there.
    swap(ben, my_grid(ben).get_by_role("button", name="Write 1 in Gull 5, copy to Bottle 5; sun +2 = 2"))

    # Round 1 is over: Ben's phone offers round 2's roll at once, Ann's after its next poll.
    expect(title(ben)).to_have_text("Round 2: roll the three dice")
    expect(title(ann)).to_have_text("Round 2: roll the three dice", timeout=POLL)
    for page in (ann, ben):
        assert scores(page) == {"Ann": 1, "Ben": 5}  # Ben leads on shells: 5 starfish (SS-8)
        assert notes(page) == {"Ann": "sun 1 · 🐚0", "Ben": "sun 2 · 🐚1"}
    assert sheet(panel_grid(ben)) == ({"g5": 1, "b5": 1}, set())
    expect(panel_grid(ben).locator(".ss-cell.mark-crab")).to_have_count(1)
    assert len(log(ann)) == 3  # the roll and two placements

    # ---- Round 2: Ben rolls 4 4 3 -------------------------------------------------------------
    roll(ben, [4, 4, 3])
    expect(title(ben)).to_have_text("Ben: Tap a lit slot to write in it")  # the phone remembers Ben
    expect(title(ann)).to_have_text("Ann: Tap a lit slot to write in it", timeout=POLL)
    # Ben starts his choice before Ann: his phone keeps the step while it polls (see below).
    swap(ben, cell(ben, "k6"))
    expect(title(ben)).to_have_text("Ben: How to fill Koi 2, 2nd")
    # Pearls 4 and 3, but not k6: it must stay below k7's 2 on Ann's koi.
    assert lit(ann) == ["c1t", "g1", "c1b", "g2", "b3", "s3", "s4", "b5", "s7", "s8"]

    # Refused taps: an unlit slot says why, and nothing is written.
    before = (version(ann), log(ann), sheet(my_grid(ann)), scores(ann))
    swap(ann, my_grid(ann).locator("a[aria-label='Why not Koi 1, 4th?']"))
    expect(ann.locator(".refusal")).to_have_text(NO_PEARL_K4)
    shot(ann, "ss-08-refused-tap-no-pearl")
    swap(ann, my_grid(ann).locator("a[aria-label='Why not Koi 2, 2nd?']"))
    expect(ann.locator(".refusal")).to_have_text(KOI_K6)
    expect(title(ann)).to_have_text("Ann: Tap a lit slot to write in it")
    assert lit(ann) == ["c1t", "g1", "c1b", "g2", "b3", "s3", "s4", "b5", "s7", "s8"]
    assert (version(ann), log(ann), sheet(my_grid(ann)), scores(ann)) == before
    shot(ann, "ss-09-refused-tap-koi")

    swap(ann, cell(ann, "g1"))
    expect(ann.locator(".refusal")).to_have_count(0)
    assert options(ann) == ["Write 4 · sun +3 = 4", "Write 3 · sun +4 = 5"]
    expect(ann.get_by_text("★ earns the pearl")).to_have_count(1)
    swap(ann, option(ann, "Write 4 · sun +3 = 4"))
    expect(title(ann)).to_have_text("Ann has written this round")
    assert sheet(my_grid(ann)) == ({"k3": 2, "k7": 2, "g1": 4}, {"k7", "g1"})
    assert scores(ann) == {"Ann": 7, "Ben": 5}  # one shell each: both get the 5 for now

    expect(banner(ben)).to_have_text("Waiting for Ben", timeout=POLL)
    assert notes(ben) == {"Ann": "sun 4 · 🐚1 ✓", "Ben": "sun 2 · 🐚1"}
    expect(title(ben)).to_have_text("Ben: How to fill Koi 2, 2nd")  # the poll kept his step
    assert options(ben) == ["Write 4 · sun: your choice (hat)", "Write 3 · sun: your choice (hat)"]
    swap(ben, option(ben, "Write 4 · sun: your choice (hat)"))
    expect(title(ben)).to_have_text("Ben: Sun hat: choose the value for the sun row")
    # Each value shows the total it makes (Ben's sun is at 2); a ★ would mark a bonus total.
    assert options(ben) == ["1 = 3", "2 = 4", "3 = 5", "4 = 6", "5 = 7", "6 = 8"]
    shot(ben, "ss-10-sun-hat-step")
    swap(ben, option(ben, "5 = 7"))

    expect(title(ben)).to_have_text("Round 3: roll the three dice")
    expect(title(ann)).to_have_text("Round 3: roll the three dice", timeout=POLL)
    for page in (ann, ben):
        assert scores(page) == {"Ann": 7, "Ben": 6}
        assert notes(page) == {"Ann": "sun 4 · 🐚1", "Ben": "sun 7 · 🐚1"}
    assert sheet(panel_grid(ben)) == ({"g5": 1, "b5": 1, "k6": 4}, {"k6"})
    assert sun_row(panel_grid(ben)) == [2, 7]

    # ---- Round 3: Ann rolls 6 6 2; Ben writes first -------------------------------------------
    roll(ann, [6, 6, 2])
    expect(title(ben)).to_have_text("Ben: Tap a lit slot to write in it", timeout=POLL)
    swap(ben, cell(ben, "g3"))
    assert options(ben) == ["Write 6 · sun +2 = 9", "Write 2 · sun +6 = 13"]
    swap(ben, option(ben, "Write 6 · sun +2 = 9"))
    expect(title(ben)).to_have_text("Ben has written this round")
    assert scores(ben) == {"Ann": 7, "Ben": 7}

    expect(banner(ann)).to_have_text("Waiting for Ann", timeout=POLL)
    assert notes(ann) == {"Ann": "sun 4 · 🐚1", "Ben": "sun 9 · 🐚1 ✓"}
    swap(ann, cell(ann, "s2"))
    assert options(ann) == ["Write 6 · sun +2 = 6", "Write 2 · sun +6 = 10"]
    swap(ann, option(ann, "Write 6 · sun +2 = 6"))
    expect(title(ann)).to_have_text("Ann: Crab in Boat 1, 2nd: copy the 6 next door?")
    assert options(ann) == ["Copy to Boat 2, 2nd", "No copy"]  # s1, s3: boat neighbours; k6 must stay < 2
    swap(ann, option(ann, "No copy"))

    # ---- After round 3 ------------------------------------------------------------------------
    expect(title(ann)).to_have_text("Round 4: roll the three dice")
    expect(title(ben)).to_have_text("Round 4: roll the three dice", timeout=POLL)
    for page in (ann, ben):
        assert scores(page) == {"Ann": 8, "Ben": 7}
        assert notes(page) == {"Ann": "sun 6 · 🐚1", "Ben": "sun 9 · 🐚1"}
        expect(page.locator(".scoreboard .leading")).to_contain_text("Ann")
        assert len(log(page)) == 9  # three rolls, six placements

    expect(ann.get_by_role("region", name="Sheets")).to_contain_text("Ann's sheet")
    assert sheet(panel_grid(ann)) == ({"k3": 2, "k7": 2, "g1": 4, "s2": 6}, {"k7", "g1", "s2"})
    assert sun_row(panel_grid(ann)) == [1, 4, 6]
    expect(panel_grid(ann).locator(".ss-cell.mark-crab")).to_have_count(1)  # k7, the copy
    legend = [text.strip() for text in ann.locator(".ss-legend li").all_inner_texts()]
    assert [re.search(r"\((\d+/\d+)\)$", line).group(1) for line in legend] == [
        "0/8",  # cabins
        "2/8",  # koi: k3, k7
        "1/8",  # boats: s2
        "0/5",  # bottles
        "1/6",  # gulls: g1
    ]
    shot(ann, "ss-11-ann-after-round-3")
    assert sheet(panel_grid(ben)) == ({"g5": 1, "b5": 1, "k6": 4, "g3": 6}, {"k6", "g3"})
    assert sun_row(panel_grid(ben)) == [2, 7, 9]
    shot(ben, "ss-12-ben-after-round-3")

    # Ann taps Ben in "Sheets": his sheet, read-only (nothing on it can be tapped).
    swap(ann, ann.locator(".seat-chip", has_text="Ben"))
    expect(ann.get_by_role("region", name="Sheets")).to_contain_text("Ben's sheet (read-only)")
    assert sheet(panel_grid(ann)) == ({"g5": 1, "b5": 1, "k6": 4, "g3": 6}, {"k6", "g3"})
    assert sun_row(panel_grid(ann)) == [2, 7, 9]
    expect(panel_grid(ann).locator(".cell-link")).to_have_count(0)
    expect(title(ann)).to_have_text("Round 4: roll the three dice")  # the roll form is still there
    shot(ann, "ss-13-bens-sheet-read-only")


def test_a_bonus_number_is_chosen_on_the_sheet_then_its_value(live_server, phone, shot):
    """SS-10: the lit slots of the sheet are the choice (no list of slot buttons above it, issue
    15), then the values the zone rules allow there."""
    from companion.tables import services

    table = services.create_table("summer-suns", ["Ann"], {})
    for action in (
        {"type": "roll", "dice": [1, 3, 6]},
        {"type": "place", "seat": 0, "slot_die": 0, "write_die": 1, "slot": "c3t"},  # 3, sun 6
        {"type": "roll", "dice": [1, 3, 6]},
    ):
        table.refresh_from_db()
        services.play_action(table.id, action, table.version)
    phone.goto(f"{live_server.url}/t/{table.id}/join/{table.token}/")
    swap(phone, cell(phone, "k1"))
    swap(phone, option(phone, "Write 3 · sun +6 = 12"))
    expect(title(phone)).to_have_text("Ann: Sun total 12: a bonus number! Tap the slot for it")
    expect(phone.locator(".prompt .step-option")).to_have_count(0)  # the sheet is the choice
    assert "k2" in lit(phone) and "k1" not in lit(phone) and "c3t" not in lit(phone)
    assert phone.evaluate("document.documentElement.scrollHeight") < 2300
    shot(phone, "ss-bonus-slot-on-the-sheet")
    swap(phone, cell(phone, "k2"))
    expect(title(phone)).to_have_text("Ann: Bonus number in Koi 1, 2nd: which value?")
    assert options(phone) == ["4", "5", "6"]  # k1 (3) < k2 on this koi (SS-4)
    shot(phone, "ss-bonus-value")
    swap(phone, option(phone, "5"))
    assert (
        log(phone)[0]
        == "Ann wrote 3 in Koi 1, 1st; sun +6 = 12: bonus number 5 in Koi 1, 2nd. Round 2 is over."
    )
    assert sheet(panel_grid(phone))[0] == {"c3t": 3, "k1": 3, "k2": 5}
