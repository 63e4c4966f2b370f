"""Taps per round of every game, counted in a browser at 390 px (issue 15): the figures of docs/taps.md.

Each test plays scripted rounds through the pages, as a group would, and counts every tap a phone
takes: the page counts its own pointer presses (a tap, a click, a tap on a label), kept in the
tab's sessionStorage so that a full page load (the shared phone's "Next: Ben") keeps the count.
Typing on the keyboard is no tap. Starting the table is not counted: the count starts at its first
entry. The scripts are fixed, so the counts are exact and asserted; each test prints its figures.

  game                              per round (scripted)            target (issue 15)
  Dogo Dash, 4 players              4 a reveal, +2 with a dash      players + 1 a reveal
  Hang Four, 3 players              1.75 a turn (1 a roll)          2.2 a turn
  Surf's Up!, 3 surfers             7, 6, 6, 8 (6.75)               9
  Surf's Up!, 4 surfers (golden)    median 7 (4-11); setup 9 (the   7; setup 10; the end 8
                                    goals typed, not tapped);
                                    the end 5
  62 Summer Suns, a phone each      roller 5 (7 in round 1), 2-4    5
  62 Summer Suns, one phone, 3      15 (round 1), 11, 11            11
"""

from __future__ import annotations

import re
import statistics

import pytest
from playwright.sync_api import Page, expect

from companion.games import base, registry
from tests.engines.golden_playthrough import script as golden_script

from . import test_hang_four_browser as hang_four
from . import test_summer_suns_browser as summer_suns
from . import test_surfs_up_browser as surfs_up
from .test_bring_history_browser import both_schemes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COUNT_TAPS = """
addEventListener("pointerdown", () => {
  sessionStorage.setItem("taps", String(Number(sessionStorage.getItem("taps") || 0) + 1));
}, true);
"""


class Taps:
    """The taps one phone has made since the last `since()`."""

    def __init__(self, page: Page):
        self.page = page
        page.context.add_init_script(COUNT_TAPS)
        self.seen = 0

    def total(self) -> int:
        return self.page.evaluate("Number(sessionStorage.getItem('taps') || 0)")

    def since(self) -> int:
        total = self.total()
        taps, self.seen = total - self.seen, total
        return taps


def start(page: Page, base_url: str, game: str, names: tuple[str, ...], *checks: str) -> None:
    page.goto(base_url + "/")
    page.get_by_role("link", name=re.compile(f"^{re.escape(game)}")).click()
    for i, name in enumerate(names):
        page.get_by_label(f"Seat {i + 1}").fill(name)
    for label in checks:
        page.get_by_label(label).check()
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))


def swap(page: Page, target) -> None:
    summer_suns.swap(page, target)
    expect(page.locator(".refusal")).to_have_count(0)


# ---------------------------------------------------------------------------------------------
# Dogo Dash, 4 players: a reveal is each player's card, the last one sending it (DD-2, issue 43);
# a dash is asked only of a player who lost with a dog (DD-10).

DOGO = ("Ann", "Ben", "Cleo", "Dan")


def dogo_reveal(page: Page, *cards: str) -> None:
    *first, (last_seat, last) = [(seat, kind) for seat, kind in enumerate(cards) if kind]
    for seat, kind in first:
        page.locator(f"label[for=card-{seat}-{kind}]").tap()
    swap(page, page.locator(f"label[for=card-{last_seat}-{last}]"))  # the last card sends it (issue 43)


def test_dogo_dash_taps_per_reveal(live_server, phone):
    start(phone, live_server.url, "Dogo Dash", DOGO, "Dogo Dash variant: rescue your dog with a second dog")
    taps, rounds = Taps(phone), []
    phone.reload()
    dogo_reveal(phone, "dog", "cat", "cat", "cat")  # Ann's dog beats the cats
    rounds.append(taps.since())
    dogo_reveal(phone, "cat", "cat", "cat", "cat")  # a tie (DD-4): all four reveal again
    expect(phone.locator(".prompt-title")).to_have_text("Tie! They reveal again")
    dogo_reveal(phone, "cookie", "bear", "bear", "bear")  # the cookie beats the bears
    rounds.append(taps.since())
    dogo_reveal(phone, "dog", "bear", "dog", "dog")  # Ben's bear wins; three lost with a dog
    phone.locator("label[for=dash-0]").tap()  # Ann dashes
    swap(phone, phone.get_by_role("button", name="Collect the pot"))
    rounds.append(taps.since())
    print(f"\nDogo Dash taps per round, 4 players: {rounds}")
    assert rounds == [4, 8, 6]  # a tap a player (twice in a tie), + a dash and Collect


# ---------------------------------------------------------------------------------------------
# Hang Four, 3 players: the turns 1-8 of test_hang_four_browser (rolls, the cap, a Seagull, a
# forced single purchase, a must-buy of two cards).


def test_hang_four_taps_per_turn(live_server, phone):
    hang_four.start_table(phone, live_server.url)
    taps, turns = Taps(phone), []
    phone.reload()
    for steps in (
        ["5"],  # Ann collects 5
        ["4"],  # Ben
        ["1"],  # Cleo
        ["5"],  # Ann: the cap of 9 (HF-4)
        [hang_four.SHACK, hang_four.SEAGULL, "5"],  # Ben: the Shack, the Seagull, its roll
        ["3"],  # Cleo
        [hang_four.BUY, "◧ Nose board"],  # Ann: $4 buys one card, "How many?" is not asked
        [hang_four.BUY, "2 · $6", "◧ Nose board", "◨ Tail board"],  # Ben must buy (HF-10)
    ):
        hang_four.play(phone, *steps)
        turns.append(taps.since())
    assert hang_four.scores(phone) == {"Ann": 0, "Ben": 1, "Cleo": 0}
    print(f"\nHang Four taps per turn, 3 players: {turns}, {sum(turns) / len(turns):.2f} a turn")
    assert turns == [1, 1, 1, 1, 3, 1, 2, 4]  # 1.75 a turn


# ---------------------------------------------------------------------------------------------
# Surf's Up!, 3 surfers: the four rounds of test_surfs_up_browser. A card is tapped from the grid of
# faces: an ocean card one tap, a beach card its face and its cost (issue 30).


def test_surfs_up_taps_per_round(live_server, phone):
    surfs_up.start_table(phone, live_server.url)
    surfs_up.set_up(
        phone,
        (surfs_up.ORANGE_3, surfs_up.BLUE_7, surfs_up.PURPLE_5),
        (surfs_up.ORANGE_BOARD, surfs_up.ENERGY_6, surfs_up.BLUE_BOARD),
    )
    taps, rounds = Taps(phone), []
    phone.reload()
    surfs_up.reveal(phone, 4, 4, 3)  # Ann and Ben wipe out; Cleo buys the energy 6
    surfs_up.buy(phone, "Cleo", "temporary energy 6 (cost 2)", surfs_up.PURPLE_BOARD)
    surfs_up.ocean(phone, {"suit": "orange", "points": 8})
    rounds.append(taps.since())
    surfs_up.reveal(phone, 5, 3, 0)
    surfs_up.respect(phone, "Ann")
    surfs_up.respect(phone, "Ben")
    surfs_up.ocean(phone, {"kind": "bluebottle"})
    rounds.append(taps.since())
    surfs_up.reveal(phone, 3, 5, "t6")
    surfs_up.respect(phone, "Cleo")
    surfs_up.respect(phone, "Ben")
    surfs_up.ocean(phone, {"suit": "purple", "points": 2})
    rounds.append(taps.since())
    surfs_up.reveal(phone, 2, 2, 2)
    surfs_up.buy(phone, "Ben", "the orange surfboard (+2, cost 3)", surfs_up.ENERGY_5)
    surfs_up.respect(phone, "Ann")
    surfs_up.ocean(phone, {"suit": "blue", "points": 6})
    rounds.append(taps.since())
    assert surfs_up.scores(phone) == {"Ann": 7, "Ben": 10, "Cleo": 8}
    print(f"\nSurf's Up! taps per round, 3 surfers: {rounds}, {sum(rounds) / len(rounds):.2f} a round")
    # A reveal is a tap per surfer; a respect 1; a purchase 1 + its refill card's face and cost (2);
    # an ocean card 1 (issue 30: a grid of faces).
    assert rounds == [7, 6, 6, 8]


# Surf's Up!, 4 surfers with shared goals: the golden playthrough's twelve rounds through the pages
# (issue 30: setup <= 10 taps, the goals typed through, a round's median <= 7, the end <= 8). Each
# stung surfer notes the token's value when they take it (here on the same phone, a tap each, counted
# in its round), so the end asks only for the goals.


def test_surfs_up_taps_four_surfers_golden_playthrough(live_server, phone, shot):
    names, _options, actions = golden_script("surfs-up")
    start(phone, live_server.url, "Surf's Up!", tuple(names), "Shared goals")
    taps = Taps(phone)
    phone.reload()
    setup, *rest = actions
    plain = lambda card: {k: v for k, v in card.items() if k != "kind"} if card["kind"] == "wave" else card  # noqa: E731
    surfs_up.set_up(phone, tuple(map(plain, setup["surf"])), tuple(setup["beach"]))
    # The goals are typed through without a tap (issue 43): the first field is ready, the
    # keyboard's Next moves on, the last one's Go starts surfing.
    expect(phone.get_by_label("Goal 1", exact=True)).to_be_focused()
    both_schemes(phone, shot, "su-goals-ready-to-type")
    for goal in setup["goals"]:
        for typed in (goal["name"], str(goal["points"])):
            phone.keyboard.type(typed)
            phone.keyboard.press("Enter")
    expect(phone.locator(".prompt-title")).to_have_text("Round 1: reveal")
    setup_taps = taps.since()
    final = rest.pop()
    stings = {int(seat): list(values) for seat, values in final["stings"].items()}
    noted = {seat: 0 for seat in stings}
    rounds: list[int] = []
    for action in rest:
        if action["type"] == "reveal":
            if action is not rest[0]:  # a round ends where the next reveal begins
                rounds.append(taps.since())
            surfs_up.reveal(phone, *action["energy"].values())
            if phone.locator(".su-tokens").count() and not any(noted.values()):
                for scheme in ("light", "dark"):  # a look, not a tap: the count is unchanged
                    phone.emulate_media(color_scheme=scheme)
                    surfs_up.settle(phone)
                    shot(phone, f"su-token-note-{scheme}")
            for row in phone.locator(".su-tokens p.mb-1").all_inner_texts():  # stung: each notes the token
                who = next(i for i, name in enumerate(names) if row.startswith(f"🪼 {name}:"))
                value = stings[who][noted[who]]
                noted[who] += 1
                label = f"{names[who]}'s token {noted[who]}: {value}"
                surfs_up.swap(phone, phone.get_by_role("button", name=label, exact=True))
        elif action["type"] == "reward" and action["choice"] == "respect":
            surfs_up.respect(phone, names[action["seat"]])
        elif action["type"] == "reward":
            surfs_up.swap(phone, phone.locator(f'.prompt a.step-option[href="?buy={action["slot"]}"]'))
            surfs_up.tap_card(phone, action["refill"])
        else:
            surfs_up.ocean(phone, action["card"])
    rounds.append(taps.since())
    assert noted == {seat: len(values) for seat, values in stings.items()}
    expect(phone.locator(".prompt-title")).to_have_text("The end: score the game")
    for seat, goals in final["goals"].items():
        for goal in goals:
            phone.locator(f'label[for="goal-{seat}-{goal}"]').tap()
    surfs_up.settle(phone)
    shot(phone, "su-the-end-tokens-noted")
    surfs_up.press(phone, "Score the game")
    end_taps = taps.since()
    expect(phone.locator(".result")).to_be_visible()
    engine = registry.get("surfs-up")
    state = engine.setup(len(names), base.validate_options(engine, _options))
    for action in actions:
        state = base.play(engine, state, action)
    assert surfs_up.texts(phone.locator(".scoreboard .score")) == [
        str(score["total"]) for score in engine.scores(state)
    ]
    median = statistics.median(rounds)
    print(
        f"\nSurf's Up! taps, 4 surfers: setup {setup_taps} (goals typed), rounds {rounds} "
        f"(median {median}), the end {end_taps}"
    )
    assert setup_taps == 9 and end_taps == 5
    assert rounds == [6, 9, 9, 7, 7, 11, 6, 8, 5, 6, 8, 4] and median == 7


# ---------------------------------------------------------------------------------------------
# 62 Summer Suns: the roll is three taps (the third sends it); a placement is the slot and, when
# the dice allow two values, the value; a crab copy one more (SS-7).

ROUNDS = (([5, 2, 1], 0), ([4, 4, 3], 1), ([6, 6, 2], 0))  # the dice and who rolls


def write(page: Page, slot: str, way: str, copy: str | None = None) -> None:
    """Tap `slot`, then the way whose label starts with `way`, then the crab's copy (or none)."""
    swap(page, summer_suns.cell(page, slot))
    swap(page, page.locator(".prompt .step-option", has_text=re.compile(f"^\\s*{re.escape(way)}")))
    if copy:
        swap(page, page.locator(".prompt .step-option", has_text=copy))


# Each player's placement per round, legal on the default sheet from an empty start.
PLACEMENTS = {
    "Ann": [("k3", "Write 2", "Copy to Koi 2, 3rd"), ("g1", "Write 4 · sun +3"), ("g3", "Write 6 · sun +2")],
    "Ben": [("g5", "Write 1", "Copy to Bottle 5"), ("g1", "Write 4 · sun +3"), ("g3", "Write 6 · sun +2")],
    "Cleo": [("g5", "Write 1", "Copy to Bottle 5"), ("g1", "Write 4 · sun +3"), ("g3", "Write 6 · sun +2")],
}


def version(page: Page) -> str:
    return page.locator("#live").get_attribute("data-version")


def test_summer_suns_taps_per_round_one_phone_each(live_server, new_phone):
    ann, ben = new_phone(), new_phone()
    start(ann, live_server.url, "62 Summer Suns", ("Ann", "Ben"))
    ann.locator("summary", has_text="Bring the other phones in").click()
    ben.goto(ann.locator("#play-link").input_value())
    ben.wait_for_url(re.compile(r"/t/[^/]+/$"))
    phones = {"Ann": ann, "Ben": ben}
    taps = {name: Taps(page) for name, page in phones.items()}
    for page in phones.values():
        page.reload()
    counts = []
    for number, (dice, roller) in enumerate(ROUNDS):
        rolling = phones[("Ann", "Ben")[roller]]
        summer_suns.roll(rolling, dice)
        newest = version(rolling)
        for name, page in phones.items():
            # The entries so far are on this phone before it taps: a region replaced under a tap
            # (the other phone's entry arriving) would make the browser tap twice.
            expect(page.locator("#live")).to_have_attribute("data-version", newest, timeout=summer_suns.POLL)
            if number == 0:
                expect(summer_suns.title(page)).to_have_text(
                    "Which sheet is yours?", timeout=summer_suns.POLL
                )
                summer_suns.pick_sheet(page, name)
            expect(summer_suns.title(page)).to_have_text(
                f"{name}: Tap a lit slot to write in it", timeout=summer_suns.POLL
            )
            write(page, *PLACEMENTS[name][number])
            newest = version(page)
        counts.append({name: taps[name].since() for name in phones})
    print(f"\n62 Summer Suns taps per round, a phone each: {counts}")
    # The roller: 3 for the roll, 2 for a placement (5); round 1 adds the sheet's choice and a crab.
    assert counts == [{"Ann": 7, "Ben": 4}, {"Ann": 2, "Ben": 5}, {"Ann": 5, "Ben": 2}]


def test_summer_suns_taps_per_round_on_one_shared_phone(live_server, phone):
    names = ("Ann", "Ben", "Cleo")
    start(phone, live_server.url, "62 Summer Suns", names)
    taps, rounds = Taps(phone), []
    phone.reload()
    order = []
    for number, (dice, _) in enumerate(ROUNDS):
        summer_suns.roll(phone, dice)
        if number == 0:
            summer_suns.pick_sheet(phone, "Ann")
        for turn in range(3):
            if turn:  # "Next: Ben": one tap hands the phone on (a plain form: the page reloads)
                with phone.expect_navigation():
                    phone.get_by_role("button", name=re.compile(r"^Next: ")).tap()
            name = summer_suns.title(phone).inner_text().split(":")[0]
            order.append(name)
            write(phone, *PLACEMENTS[name][number])
        rounds.append(taps.since())
    # The phone stays with the last writer: the next round starts with that player's sheet.
    assert order == ["Ann", "Ben", "Cleo", "Cleo", "Ann", "Ben", "Ben", "Cleo", "Ann"]
    print(f"\n62 Summer Suns taps per round, one phone for 3 players: {rounds}")
    # 3 for the roll, 2 a placement, 1 a hand-over; round 1 adds the first sheet and three crabs.
    assert rounds == [15, 11, 11]
