"""Roll-and-writes from their sheets (issue 44): Qwixx, Knister and Yacht played by the kit with
exact marks, refusals citing each sheet's own rule, scores and winners; the dice's patterns; a
sheet that could roll for ever refused."""

from __future__ import annotations

import copy

import pytest

from companion.games.base import BadAction, RuleViolation, play, replay, validate_options
from companion.games.roll_and_write import engine
from companion.games.roll_and_write.golden import SCRIPTS
from companion.games.roll_and_write.invariants import check
from companion.sheets import library
from companion.sheets.parse import SheetError
from companion.sheets.rules_check import check_rules_sheet
from companion.sheets.values import longest_run, pattern_points


def new(sheet: str, players: int = 2) -> dict:
    return engine.setup(players, validate_options(engine, {"sheet": sheet}))


def run(state: dict, *actions: dict) -> dict:
    for action in actions:
        state = play(engine, state, action)
        check(state)
    return state


def roll(**faces: int) -> dict:
    return {"type": "roll", "dice": {die.replace("_", "-"): face for die, face in faces.items()}}


def qwixx_roll(w1, w2, red=1, yellow=1, green=1, blue=1, out=()) -> dict:
    dice = {"white-1": w1, "white-2": w2, "red": red, "yellow": yellow, "green": green, "blue": blue}
    return {"type": "roll", "dice": {die: face for die, face in dice.items() if die not in out}}


def mark(seat: int, row: str, box: int, **more) -> dict:
    return {"type": "mark", "seat": seat, "row": row, "box": box, **more}


def refusal(state: dict, action: dict) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as refused:
        play(engine, state, action)
    return refused.value.rule, refused.value.message


@pytest.mark.parametrize("name, totals", [("qwixx", [37, 31]), ("knister", [44]), ("yacht", [254])])
def test_each_golden_game_ends_with_its_exact_totals(name, totals):
    players, options, actions = SCRIPTS[name]
    state = replay(engine, len(players), validate_options(engine, options), actions)
    assert [score["total"] for score in engine.scores(state)] == totals
    assert engine.result(state)["winners"] == [0]


def test_qwixx_white_sum_for_everyone_then_white_and_colour_for_the_active_player():
    state = run(new("qwixx"), qwixx_roll(3, 4, red=5))
    assert engine.expect(state)["seats"] == [0, 1]
    assert [m.value for m in engine.legal_marks(state, 1)] == [7, 7, 7, 7]  # the white sum, any row (QX-3)
    state = run(state, mark(1, "green", 5), {"type": "pass", "seat": 0})
    assert engine.expect(state)["seats"] == [0]  # the second action: the active player alone
    assert {(m.row, m.value) for m in engine.legal_marks(state, 0)} == {
        ("red", 8),
        ("red", 9),
        ("yellow", 4),
        ("yellow", 5),
        ("green", 4),
        ("green", 5),
        ("blue", 4),
        ("blue", 5),
    }
    assert refusal(state, mark(1, "red", 6)) == (
        "QX-3",
        "Seat 1 has nothing to mark now: Seat 0 still to mark or pass (QX-3).",
    )
    state = run(state, mark(0, "red", 7))  # white 4 + red 5 = 9
    assert state["seats"][0]["rows"]["red"][7] == 9 and state["active"] == 1 and state["phase"] == "roll"


def test_qwixx_refusals_cite_its_rules():
    state = run(new("qwixx"), qwixx_roll(5, 6), mark(0, "red", 9))  # Ann crosses red 11: 2 to 10 lost
    state = run(state, {"type": "pass", "seat": 1}, {"type": "pass", "seat": 0})
    state = run(state, qwixx_roll(6, 6))  # Ben's roll: 12
    assert refusal(state, mark(0, "red", 10)) == (
        "QX-6",
        "12 ends Red: it needs 5 marks in the row first, you have 1 (QX-6).",
    )
    state = run(state, {"type": "pass", "seat": 0}, {"type": "pass", "seat": 1}, {"type": "pass", "seat": 1})
    assert state["seats"][1]["penalties"] == 1  # Ben, active, crossed nothing (QX-8)
    state = run(state, qwixx_roll(1, 2))  # Ann's roll: 3
    assert refusal(state, mark(0, "red", 1)) == (
        "QX-5",
        "Red is marked from left to right: 3 is left of your last mark (QX-5).",
    )
    assert refusal(state, mark(0, "yellow", 5)) == ("QX-4", "These dice do not make a 7 for Yellow (QX-4).")
    assert refusal(state, qwixx_roll(1, 1)) == ("QX-3", "Finish this roll's marks first (QX-3).")
    assert refusal(new("qwixx"), mark(0, "red", 0)) == (
        "QX-2",
        "Enter the roll first: the dice as they lie (QX-2).",
    )


def test_qwixx_an_active_player_who_crosses_nothing_takes_a_penalty_and_the_fourth_ends_the_game():
    state = new("qwixx")
    for number in range(7):  # whites 1 + 1: red and yellow 2 are open to both, and nobody crosses
        active = number % 2
        state = run(state, qwixx_roll(1, 1), {"type": "pass", "seat": 0}, {"type": "pass", "seat": 1})
        state = run(state, {"type": "pass", "seat": active})
    assert [seat["penalties"] for seat in state["seats"]] == [4, 3]
    assert engine.result(state) == {"winners": [1], "end_reason": "penalties"}
    assert [score["total"] for score in engine.scores(state)] == [-20, -15]


def test_qwixx_a_row_closed_in_the_first_action_may_be_closed_by_others_at_once_then_never():
    state = new("qwixx", 3)
    for face in (5, 6, 7, 8, 9):  # five crosses in red for Ann and Ben, from the white sums
        state = run(state, qwixx_roll(face - 4, 4), mark(0, "red", face - 2), mark(1, "red", face - 2))
        while state["phase"] == "mark":  # Cleo, and the active player's second action: nothing
            state = run(state, {"type": "pass", "seat": engine.expect(state)["seats"][0]})
    state = run(state, qwixx_roll(6, 6))
    state = run(state, mark(0, "red", 10), mark(1, "red", 10))  # both close red in the same action
    assert state["seats"][0]["locks"] == ["red"] and state["seats"][1]["locks"] == ["red"]
    state = run(state, {"type": "pass", "seat": 2})
    assert state["locked"] == ["red"] and state["out"] == ["red"]
    assert [score["breakdown"]["red"] for score in engine.scores(state)] == [28, 28, 0]  # 7 crosses
    while state["phase"] == "mark":
        state = run(state, {"type": "pass", "seat": engine.expect(state)["seats"][0]})
    with pytest.raises(BadAction, match="A roll gives every die in play"):
        play(engine, state, qwixx_roll(1, 1))  # the red die left the game
    state = run(state, qwixx_roll(1, 1, out=("red",)))
    assert all(mark.row != "red" for seat in (0, 1, 2) for mark in engine.legal_marks(state, seat))


def test_knister_everyone_must_write_the_sum_and_lines_score_their_best_combination():
    state = run(new("knister", 2), roll(die_1=3, die_2=4))
    assert engine.expect(state) == {"actions": ["mark"], "seats": [0, 1], "active": 0, "step": 0}
    assert refusal(state, {"type": "pass", "seat": 0}) == (
        "KN-3",
        "This roll must be marked: a box is open to it (KN-3).",
    )
    state = run(state, mark(0, "row-1", 4), mark(1, "row-3", 0))
    assert state["seats"][0]["rows"]["row-1"] == [None, None, None, None, 7] and state["active"] == 1
    assert refusal(run(state, roll(die_1=1, die_2=1)), mark(0, "row-1", 4)) == (
        "KN-4",
        "box 5 in Row 1 is marked already (KN-4).",
    )


@pytest.mark.parametrize(
    "faces, points",
    [
        ([7, 7, 3, 9, 11], 1),
        ([7, 7, 3, 3, 11], 3),
        ([7, 7, 7, 3, 11], 3),
        ([7, 7, 7, 3, 3], 8),
        ([7, 7, 7, 7, 3], 6),
        ([9, 9, 9, 9, 9], 10),
        ([3, 4, 5, 6, 7], 8),
        ([8, 9, 10, 11, 12], 12),
        ([2, 4, 6, 8, 10], 0),
    ],
)
def test_knister_lines(faces, points):
    patterns = library.get("knister").document["rows"][0]["score"]["patterns"]
    assert max(pattern_points(pattern, faces) for pattern in patterns) == points


@pytest.mark.parametrize(
    "box, faces, points",
    [
        (0, [1, 1, 1, 4, 5], 3),  # Ones
        (6, [3, 3, 3, 5, 5], 19),  # Full House: all five
        (6, [5, 5, 5, 5, 5], 0),  # a Yacht is no Full House
        (7, [6, 6, 6, 6, 2], 24),  # Four of a Kind: those four
        (7, [4, 4, 4, 4, 4], 16),  # a Yacht as Four of a Kind: four of them
        (8, [1, 2, 3, 4, 6], 30),  # Little Straight: four in a row
        (9, [1, 2, 3, 4, 6], 0),
        (9, [2, 3, 4, 5, 6], 40),
        (10, [6, 5, 4, 4, 3], 22),  # Choice
        (11, [2, 2, 2, 2, 2], 50),  # Yacht
    ],
)
def test_yacht_boxes_score_what_the_dice_make_there(box, faces, points):
    state = run(
        new("yacht", 1), {"type": "roll", "dice": {f"die-{i}": face for i, face in enumerate(faces, 1)}}
    )
    state = run(state, mark(0, "categories", box))
    assert state["seats"][0]["rows"]["categories"][box] == points


def test_longest_run():
    assert longest_run([1, 2, 3, 5]) == 3 and longest_run([6]) == 1 and longest_run([2, 2, 3]) == 2


def test_a_wrong_number_of_players_is_refused_citing_the_sheets_rule():
    with pytest.raises(BadAction) as refused:
        new("qwixx", 1)
    assert refused.value.code == "bad_player_count"
    assert refused.value.message == "Qwixx is for 2 to 5 players, not 1 (QX-1)."


def test_a_table_keeps_the_sheet_it_started_with():
    own = copy.deepcopy(library.get("knister").document)
    own["id"], own["name"] = "our-knister", {"en": "Our Knister", "fr": "Notre Knister"}
    state = engine.setup(2, validate_options(engine, {"sheet": "our-knister", "rules": own}))
    own["rows"][0]["boxes"] = [None]  # changed afterwards: the table does not see it
    assert len(state["sheet"]["rows"][0]["boxes"]) == 5 and state["sheet"]["name"]["en"] == "Our Knister"
    assert engine.played_game({"sheet": "our-knister", "rules": state["sheet"]}).title == "Our Knister"


def test_a_sheet_that_could_roll_for_ever_is_refused():
    endless = copy.deepcopy(library.get("qwixx").document)
    endless["turn"].pop("penalty_if_active_marks_nothing")
    endless["rules"] = [rule for rule in endless["rules"] if rule["about"] != "penalty"]
    with pytest.raises(SheetError) as refused:
        check_rules_sheet(endless)
    assert refused.value.path == "/end" and refused.value.message.startswith("this sheet could roll for ever")
    with pytest.raises(BadAction, match="The sheet is not playable: /end: this sheet could roll for ever"):
        engine.setup(2, validate_options(engine, {"sheet": "x", "rules": endless}))
