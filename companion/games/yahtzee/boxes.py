"""The thirteen boxes of a Yahtzee sheet and what five dice score in each (YZ-4, YZ-5, YZ-6, YZ-8),
read from the game's kit sheet (sheet.json, checked when loaded: a broken file stops the app at
start-up). The Yahtzee engine and the roll-and-write kit play the same file: its patterns are the
kit's (sheets/values.py) and its joker the kit's named function (sheets/functions.py). Pure
arithmetic: which box a throw may fill is the rules' question (rules.py)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.games.words import said
from companion.sheets.functions import FUNCTIONS
from companion.sheets.rules_check import check_rules_sheet
from companion.sheets.values import pattern_points

SHEET = check_rules_sheet(json.loads((Path(__file__).parent / "sheet.json").read_text(encoding="utf-8")))
JOKER = FUNCTIONS["yahtzee-joker"]
ROWS = {row["id"]: row for row in SHEET["rows"]}
_NAMED = {box["id"]: box for row in SHEET["rows"] for box in row["boxes"]}

UPPER = tuple(box["id"] for box in ROWS["upper"]["boxes"])
LOWER = tuple(box["id"] for box in ROWS["lower"]["boxes"])
BOXES = UPPER + LOWER
DICE = len(SHEET["dice"])
FACES = tuple(SHEET["dice"][0]["faces"])
(_UPPER_BONUS,) = SHEET["bonuses"]
UPPER_BONUS_AT, UPPER_BONUS = _UPPER_BONUS["at_least"], _UPPER_BONUS["points"]  # YZ-5
YAHTZEE_BONUS = JOKER.bonus_points  # YZ-7
# The lower boxes that score fixed points when made (YZ-6): Full House 25, the straights, Yahtzee.
FIXED = {
    box: _NAMED[box]["value"]["points"]
    for box in LOWER
    if isinstance(_NAMED[box]["value"].get("points"), int)
}


def label(box: str) -> str:
    """A box's name in the language chosen, as the sheet says it (English and French)."""
    return said(_NAMED[box]["name"])


def place(box: str) -> tuple[str, int]:
    """(row id, index) of a box on the sheet: where the kit's functions find it."""
    row = "upper" if box in UPPER else "lower"
    return row, (UPPER if row == "upper" else LOWER).index(box)


def rows_of(boxes: dict) -> dict[str, list]:
    """A seat's boxes as the kit reads a sheet's marks: row id -> values in the sheet's order."""
    return {"upper": [boxes[box] for box in UPPER], "lower": [boxes[box] for box in LOWER]}


def points(box: str, dice: list[int], joker: bool = False) -> int:
    """What `dice` score in `box`; as a joker (YZ-8) a Yahtzee fits every lower box."""
    pattern = _NAMED[box]["value"]
    return JOKER.as_joker(pattern, dice) if joker and box in LOWER else pattern_points(pattern, dice)
