"""Yahtzee engine: every box's points, the bonuses, the joker, turn order, the end, refusals that
change nothing, random games, and the golden game counted by hand (YZ-1..YZ-9)."""

from __future__ import annotations

import random

import pytest

from companion.games.base import BadAction, describe, play, replay
from companion.games.yahtzee import engine
from companion.games.yahtzee.boxes import BOXES, points
from companion.games.yahtzee.golden import SCRIPT
from companion.games.yahtzee.invariants import check
from tests.engines.refusals import refuser

refuse = refuser(engine)


def score(seat: int, dice: list[int], box: str) -> dict:
    return {"type": "score", "seat": seat, "dice": dice, "box": box}


def sheet_with(players: int = 2, **filled) -> dict:
    """A state at seat 0's turn whose sheet has `filled` boxes (box=points) and a round to match
    for every seat (the others' sheets filled alike, so turns stay in order)."""
    state = engine.setup(players, {})
    for seat in state["seats"]:
        seat["boxes"].update(filled)
    state["round"] = len(filled) + 1
    return state


# --- YZ-4, YZ-6: what five dice score in each box ---------------------------------------------


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        (
            [3, 3, 3, 3, 5],  # four 3s: Threes 12, three and four of a kind the sum 17
            {"aces": 0, "threes": 12, "fives": 5, "three_of_a_kind": 17, "four_of_a_kind": 17,
             "full_house": 0, "small_straight": 0, "large_straight": 0, "yahtzee": 0, "chance": 17},
        ),
        (
            [2, 2, 5, 5, 5],
            {"twos": 4, "fives": 15, "three_of_a_kind": 19, "four_of_a_kind": 0, "full_house": 25,
             "small_straight": 0, "large_straight": 0, "yahtzee": 0, "chance": 19},
        ),
        (
            [1, 3, 4, 5, 6],  # 3-4-5-6 is a small straight, not a large one
            {"aces": 1, "sixes": 6, "three_of_a_kind": 0, "full_house": 0, "small_straight": 30,
             "large_straight": 0, "chance": 19},
        ),
        (
            [2, 3, 4, 5, 6],
            {"small_straight": 30, "large_straight": 40, "chance": 20, "full_house": 0},
        ),
        (
            [1, 2, 2, 3, 4],  # a pair inside a small straight
            {"twos": 4, "small_straight": 30, "large_straight": 0, "three_of_a_kind": 0},
        ),
        (
            [6, 6, 6, 6, 6],  # five alike: not a Full House nor a straight but as a joker (YZ-8)
            {"sixes": 30, "three_of_a_kind": 30, "four_of_a_kind": 30, "full_house": 0,
             "small_straight": 0, "large_straight": 0, "yahtzee": 50, "chance": 30},
        ),
    ],
)  # fmt: skip
def test_the_points_of_each_box(dice, expected):
    assert {box: points(box, dice) for box in expected} == expected


def test_a_joker_fits_every_lower_box():
    dice = [2, 2, 2, 2, 2]
    joker = {box: points(box, dice, joker=True) for box in BOXES[6:]}
    assert joker == {
        "three_of_a_kind": 10, "four_of_a_kind": 10, "full_house": 25, "small_straight": 30,
        "large_straight": 40, "yahtzee": 50, "chance": 10,
    }  # fmt: skip


# --- YZ-2, YZ-3: turns, boxes, the log ------------------------------------------------------------


def test_a_turn_fills_one_box_and_passes_to_the_next_seat():
    state = play(engine, engine.setup(3, {}), score(0, [6, 2, 6, 2, 6], "full_house"))
    assert state["seats"][0]["boxes"]["full_house"] == 25
    assert state["last"]["dice"] == [6, 6, 6, 2, 2]  # kept sorted, highest first
    assert (state["turn"], state["round"]) == (1, 1)
    state = play(engine, state, score(1, [1, 1, 1, 1, 1], "aces"))
    state = play(engine, state, score(2, [1, 2, 3, 4, 6], "chance"))
    assert (state["turn"], state["round"]) == (0, 2)
    assert [s["total"] for s in engine.scores(state)] == [25, 5, 16]
    assert engine.expect(state) == {"actions": ["score"], "seats": [0]}


def test_a_box_that_does_not_fit_is_scratched_with_zero():
    state = play(engine, engine.setup(2, {}), score(0, [1, 2, 3, 5, 6], "yahtzee"))
    assert state["seats"][0]["boxes"]["yahtzee"] == 0
    text = describe(engine, engine.setup(2, {}), score(0, [1, 2, 3, 5, 6], "yahtzee"), ["Ann", "Ben"])
    assert text == "Ann threw 6 5 3 2 1: Yahtzee scratched with 0."


def test_the_log_says_the_dice_the_points_and_the_box():
    state = engine.setup(2, {})
    assert describe(engine, state, score(0, [5, 5, 2, 5, 2], "full_house"), ["Ann", "Ben"]) == (
        "Ann threw 5 5 5 2 2: 25 in Full House."
    )


def test_a_filled_box_is_refused_and_nothing_changes():
    state = play(engine, engine.setup(1, {}), score(0, [6, 6, 6, 1, 2], "sixes"))
    error = refuse(state, score(0, [6, 6, 6, 6, 2], "sixes"), code="box_filled", rule="YZ-3")
    assert error.message == "Sixes is already filled on this sheet: a filled box never changes (YZ-3)."


def test_another_seats_turn_is_refused_naming_whose_it_is():
    state = engine.setup(3, {})
    error = refuse(state, score(2, [1, 2, 3, 4, 5], "chance"), code="not_your_turn", rule="YZ-2")
    assert error.message == "It is Seat 0's turn, not Seat 2's: turns go in seat order (YZ-2)."
    refuse(state, score(3, [1, 2, 3, 4, 5], "chance"), code="unknown_seat", rule="YZ-1")


WANTS_DICE = "the five dice, each 1 to 6, e.g. [6, 6, 6, 2, 2]"


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "score", "seat": 0, "box": "chance"}, f"A score needs 'dice': {WANTS_DICE}."),
        (score(0, [1, 2, 3, 4], "chance"), f"'dice' must be {WANTS_DICE}, not [1, 2, 3, 4]."),
        (score(0, [1, 2, 3, 4, 7], "chance"), f"'dice' must be {WANTS_DICE}, not [1, 2, 3, 4, 7]."),
        (score(0, [1, 2, 3, 4, True], "chance"), f"'dice' must be {WANTS_DICE}, not [1, 2, 3, 4, true]."),
        (
            score(0, [1, 2, 3, 4, 5], "bonus"),
            '\'box\' must be one of the thirteen boxes, e.g. "full_house", not "bonus".',
        ),
        (score(-1, [1, 2, 3, 4, 5], "chance"), "'seat' must be a seat number (0, 1, ...), not -1."),
        ({**score(0, [1, 2, 3, 4, 5], "chance"), "throws": 2}, 'A score has no field "throws".'),
    ],
)
def test_a_malformed_entry_is_a_400_that_says_what_is_wanted(action, message):
    error = refuse(engine.setup(2, {}), action, error=BadAction)
    assert error.message == message


def test_a_malformed_entry_is_a_400_even_after_the_end():
    names, options, actions = SCRIPT
    over = replay(engine, len(names), options, actions)
    refuse(over, score(0, [1, 2, 3, 4], "chance"), error=BadAction)
    error = refuse(over, score(0, [1, 2, 3, 4, 5], "chance"), code="game_over", rule="YZ-9")
    assert error.message == "The game is over: no more entries can be made (YZ-9)."


# --- YZ-5, YZ-7, YZ-8: the bonuses and the joker ---------------------------------------------------


def test_the_upper_bonus_comes_at_63():
    at_62 = sheet_with(1, aces=2, twos=6, threes=9, fours=12, fives=15)  # 44
    state = play(engine, at_62, score(0, [6, 6, 6, 1, 2], "sixes"))  # +18 = 62
    assert engine.scores(state)[0]["breakdown"]["bonus"] == 0
    state = play(
        engine,
        sheet_with(1, aces=3, twos=6, threes=9, fours=12, fives=15),
        score(0, [6, 6, 6, 1, 2], "sixes"),
    )
    assert engine.scores(state)[0]["breakdown"] == {"upper": 63, "bonus": 35, "lower": 0, "yahtzee_bonus": 0}


def test_a_further_yahtzee_must_fill_its_upper_box_while_open():
    state = sheet_with(1, yahtzee=50)
    error = refuse(state, score(0, [4, 4, 4, 4, 4], "chance"), code="joker", rule="YZ-8")
    assert error.message == "A further Yahtzee of 4s must fill Fours while it is open (YZ-8)."
    state = play(engine, state, score(0, [4, 4, 4, 4, 4], "fours"))
    assert state["seats"][0]["boxes"]["fours"] == 20
    assert engine.scores(state)[0]["breakdown"]["yahtzee_bonus"] == 100  # YZ-7


def test_with_its_upper_box_filled_a_further_yahtzee_is_a_joker_in_the_lower_section():
    state = sheet_with(1, yahtzee=50, fours=12)
    error = refuse(state, score(0, [4, 4, 4, 4, 4], "aces"), code="joker", rule="YZ-8")
    assert error.message == "A further Yahtzee fills an open lower box while there is one (YZ-8)."
    after = play(engine, state, score(0, [4, 4, 4, 4, 4], "large_straight"))
    assert after["seats"][0]["boxes"]["large_straight"] == 40
    assert engine.scores(after)[0]["total"] == 50 + 12 + 40 + 100
    assert describe(engine, state, score(0, [4, 4, 4, 4, 4], "large_straight"), ["Ann"]) == (
        "Ann threw 4 4 4 4 4: 40 in Large Straight, and a Yahtzee bonus of 100 (YZ-7)."
    )


def test_with_the_lower_section_full_a_further_yahtzee_scores_zero_in_an_open_upper_box():
    lower = {"three_of_a_kind": 20, "four_of_a_kind": 20, "full_house": 25, "small_straight": 30,
             "large_straight": 40, "yahtzee": 50, "chance": 20, "fours": 16}  # fmt: skip
    state = play(engine, sheet_with(1, **lower), score(0, [4, 4, 4, 4, 4], "sixes"))
    assert state["seats"][0]["boxes"]["sixes"] == 0
    assert state["seats"][0]["yahtzee_bonuses"] == 1


def test_after_a_zero_in_the_yahtzee_box_a_yahtzee_earns_no_bonus_but_is_still_a_joker():
    state = sheet_with(1, yahtzee=0, threes=9)
    after = play(engine, state, score(0, [3, 3, 3, 3, 3], "full_house"))
    assert after["seats"][0]["boxes"]["full_house"] == 25
    assert after["seats"][0]["yahtzee_bonuses"] == 0
    assert describe(engine, state, score(0, [3, 3, 3, 3, 3], "full_house"), ["Ann"]) == (
        "Ann threw 3 3 3 3 3: 25 in Full House, as a joker (YZ-8)."
    )
    refuse(sheet_with(1, yahtzee=0), score(0, [3, 3, 3, 3, 3], "full_house"), code="joker", rule="YZ-8")


def test_a_first_yahtzee_may_go_anywhere_and_five_alike_are_no_full_house_then():
    state = play(engine, engine.setup(1, {}), score(0, [5, 5, 5, 5, 5], "full_house"))
    assert state["seats"][0]["boxes"]["full_house"] == 0
    state = play(engine, engine.setup(1, {}), score(0, [5, 5, 5, 5, 5], "fives"))
    assert state["seats"][0]["boxes"]["fives"] == 25 and state["seats"][0]["yahtzee_bonuses"] == 0


def test_the_choices_say_each_box_and_why_not_as_apply_does():
    state = sheet_with(2, yahtzee=50, sixes=18)
    choices = {c.box: c for c in engine.choices(state, 0, [6, 6, 6, 6, 6])}
    assert choices["sixes"].refusal.code == "box_filled"
    assert choices["aces"].refusal.code == "joker"
    assert (choices["full_house"].points, choices["full_house"].joker, choices["full_house"].bonus) == (
        25,
        True,
        True,
    )
    for box, choice in choices.items():
        action = score(0, [6, 6, 6, 6, 6], box)
        if choice.refusal:
            refuse(state, action, code=choice.refusal.code, rule=choice.refusal.rule)
        else:
            assert play(engine, state, action)["seats"][0]["boxes"][box] == choice.points


# --- YZ-9: the end, and the golden game counted by hand ---------------------------------------------


def test_the_golden_game_counted_by_hand():
    names, options, actions = SCRIPT
    state = engine.setup(len(names), options)
    for action in actions[:-1]:
        state = play(engine, state, action)
        assert engine.result(state) is None
    state = play(engine, state, actions[-1])
    # Ann: upper 24+15+12+9+6+3 = 69 (bonus 35); lower 50+25+30+40+24+22+19 = 210; one bonus 100.
    # Ben: upper 15+24+20+12+6+2 = 79 (bonus 35); lower 0+25+30+40+22+0+26 = 143; no bonus after a 0.
    assert [s["breakdown"] for s in engine.scores(state)] == [
        {"upper": 69, "bonus": 35, "lower": 210, "yahtzee_bonus": 100},
        {"upper": 79, "bonus": 35, "lower": 143, "yahtzee_bonus": 0},
    ]
    assert [s["total"] for s in engine.scores(state)] == [414, 257]
    assert engine.result(state) == {"winners": [0], "end_reason": "all_filled"}
    assert engine.expect(state) == {"actions": [], "seats": []}
    assert (state["round"], state["turn"]) == (13, 0)


def test_tied_totals_share_the_win():
    state = engine.setup(2, {})
    for box in BOXES:
        for seat in (0, 1):
            state = play(engine, state, score(seat, [1, 2, 3, 5, 6], box))
    assert engine.result(state) == {"winners": [0, 1], "end_reason": "all_filled"}
    assert [s["total"] for s in engine.scores(state)] == [17 + 17, 17 + 17]  # upper 1+2+3+5+6, chance 17


def test_random_games_end_after_thirteen_rounds_keeping_the_invariants():
    rng = random.Random(31)
    bonuses = jokers = 0
    for players in (1, 2, 4):
        for _game in range(20):
            state = engine.setup(players, {})
            turns = 0
            while engine.result(state) is None:
                state = play(engine, state, engine.sample_action(state, rng))
                check(state)
                turns += 1
                bonuses += state["last"]["bonus"]
                jokers += state["last"]["joker"]
            assert turns == 13 * players
    assert bonuses > 0 and jokers > 0
