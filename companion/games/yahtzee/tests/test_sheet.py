"""Yahtzee on the kit (issue 44): its facts are a rules sheet (sheet.json) and its joker the kit's
named function yahtzee-joker. The same file played by the roll-and-write kit accepts and refuses
the same boxes, in the same words for the joker, and scores the same, at every step of random
games; the sheet's rules are RULES.md's, word for word."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import pytest

from companion.games import base, registry
from companion.games.yahtzee.boxes import BOXES, SHEET, place
from companion.sheets.parse import SheetError
from companion.sheets.rules_check import check_rules_sheet

FOLDER = Path(__file__).resolve().parents[1]
YAHTZEE = registry.get("yahtzee")
KIT = registry.get("roll-and-write")


def rulings(name: str) -> dict[str, str]:
    text = (FOLDER / name).read_text(encoding="utf-8")
    return {m[1]: m[2].strip() for m in re.finditer(r"## (YZ-\d) [^\n]*\n(.*?)(?=\n## |\Z)", text, re.S)}


def test_the_sheets_rules_are_the_rulings_word_for_word():
    assert {rule["id"]: rule["en"] for rule in SHEET["rules"]} == rulings("RULES.md")
    assert {rule["id"]: rule["fr"] for rule in SHEET["rules"]} == rulings("RULES.fr.md")


def kit_table(players: int) -> dict:
    return KIT.setup(players, base.validate_options(KIT, {"sheet": "yahtzee", "rules": SHEET}))


def as_kit_roll(dice: list[int]) -> dict:
    return {"type": "roll", "dice": {f"die-{n}": face for n, face in enumerate(dice, 1)}}


def as_kit_mark(seat: int, box: str) -> dict:
    row, index = place(box)
    return {"type": "mark", "seat": seat, "row": row, "box": index}


def refusal(engine, state: dict, action: dict) -> base.RuleViolation | None:
    try:
        base.play(engine, state, action)
    except base.RuleViolation as refused:
        return refused
    return None


@pytest.mark.parametrize("players", [1, 2, 3])
def test_the_kit_plays_the_sheet_as_the_yahtzee_engine_does(players):
    jokers = bonuses = 0
    for seed in range(25):
        rng = random.Random(f"yahtzee-kit-{players}-{seed}")
        ours, kit = YAHTZEE.setup(players, {}), kit_table(players)
        while YAHTZEE.result(ours) is None:
            action = YAHTZEE.sample_action(ours, rng)
            rolled = base.play(KIT, kit, as_kit_roll(action["dice"]))
            for box in BOXES:
                said = refusal(YAHTZEE, ours, {**action, "box": box})
                kit_said = refusal(KIT, rolled, as_kit_mark(action["seat"], box))
                assert (said is None) == (kit_said is None), (action, box, said, kit_said)
                if said is not None and said.code == "joker":
                    jokers += 1
                    assert (kit_said.code, kit_said.message, kit_said.rule) == ("joker", said.message, "YZ-8")
            ours = base.play(YAHTZEE, ours, action)
            kit = base.play(KIT, rolled, as_kit_mark(action["seat"], action["box"]))
            bonuses += bool(ours["last"]["bonus"])
            assert [score["breakdown"] for score in KIT.scores(kit)] == [
                score["breakdown"] for score in YAHTZEE.scores(ours)
            ]
        assert KIT.result(kit)["winners"] == YAHTZEE.result(ours)["winners"]
    assert jokers and bonuses  # random play met the joker and the bonus (the samples favour Yahtzees)


def test_a_further_yahtzee_through_the_kit_says_its_bonus_and_refuses_by_the_joker():
    kit = kit_table(1)
    for box in ("threes", "yahtzee"):  # 15 in Threes, then 50 in Yahtzee, from two Yahtzees of 3s
        kit = base.play(KIT, base.play(KIT, kit, as_kit_roll([3] * 5)), as_kit_mark(0, box))
    rolled = base.play(KIT, kit, as_kit_roll([5] * 5))
    refused = refusal(KIT, rolled, as_kit_mark(0, "chance"))
    assert refused.message == "A further Yahtzee of 5s must fill Fives while it is open (YZ-8)."
    assert base.legal(KIT, rolled, 0)["marks"] == [{"row": "upper", "box": 4, "value": 25}]
    sentence = base.describe(KIT, rolled, as_kit_mark(0, "fives"), ["Ann"])
    assert sentence == "Ann scored 25 in Fives, and a bonus of 100."
    after = base.play(KIT, rolled, as_kit_mark(0, "fives"))
    assert KIT.scores(after)[0]["breakdown"] == {"upper": 40, "lower": 50, "bonus": 0, "yahtzee_bonus": 100}


@pytest.mark.parametrize(
    "change, path, words",
    [
        (lambda sheet: sheet["functions"].append("wild-card"), "/functions/1", '"wild-card" is not one of'),
        (lambda sheet: sheet["rows"][1]["boxes"].pop(5), "/functions", "a named box of every die alike"),
        (lambda sheet: sheet["rows"][0]["boxes"].pop(0), "/functions", "none counts 1"),
        (lambda sheet: sheet["rules"].pop(7), "/rules", "a rule about 'joker' is needed"),
        # One throw fills one box: a second mark, or a second box step, would earn the bonus twice
        (
            lambda sheet: sheet["turn"]["steps"][0].update(marks=2),
            "/functions",
            "one step valued by its boxes",
        ),
        (
            lambda sheet: sheet["turn"]["steps"].append({"who": "active", "value": "box"}),
            "/functions",
            "one step",
        ),
        # The box it forces must be open to the step: every row of named boxes, marked freely
        (lambda sheet: sheet["turn"]["steps"][0].update(rows=["lower"]), "/functions", "not row 'upper'"),
        (lambda sheet: sheet["rows"][1].update(no_repeat=True), "/functions", "not row 'lower'"),
    ],
)
def test_a_sheet_naming_the_joker_must_hold_what_it_reads(change, path, words):
    sheet = copy.deepcopy(SHEET)
    change(sheet)
    with pytest.raises(SheetError) as refused:
        check_rules_sheet(sheet)
    assert refused.value.path == path and words in refused.value.message
