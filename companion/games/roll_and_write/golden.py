"""The golden playthroughs: one scripted game of each library rules sheet, written step by step to
golden.txt (Qwixx, the first) and golden-<sheet>.txt beside this file by
tests/engines/golden_playthrough.py, so a change of the kit or of a sheet shows as a readable diff.
Regenerate after a deliberate change: make golden.
"""

from __future__ import annotations

import json
from pathlib import Path


def _roll(**faces: int) -> dict:
    return {"type": "roll", "dice": {die.replace("_", "-"): face for die, face in faces.items()}}


def _mark(seat: int, row: str, box: int) -> dict:
    return {"type": "mark", "seat": seat, "row": row, "box": box}


# Qwixx, Ann and Ben (QX-1..QX-10): white sums crossed by both, the active player's white and
# colour, a box skipped and lost (Ben's yellow 3), passes, Ann closing red with six crosses (its
# die leaves), a roll where Ben, active, can cross nothing (a penalty), and Ben closing yellow in
# the first action of the last roll: two rows closed, the game over. Ann 37 (red 8 crosses 36,
# green 1), Ben 31 (yellow 36, minus 5).
QWIXX = (
    ["Ann", "Ben"],
    {"sheet": "qwixx"},
    json.loads(Path(__file__).with_name("golden_qwixx.json").read_text()),
)

# Knister, one player (KN-1..KN-6): the twenty-five sums written so that each line scores one
# combination. Rows: a straight without a 7 (12), five 7s (10), a full house (8), two pairs (3), a
# straight with a 7 (8); column 5 a pair of 7s (1); the falling diagonal a pair of 7s, doubled (2).
# Total 44.
GRID = [
    [2, 3, 4, 5, 6],
    [7, 7, 7, 7, 7],
    [8, 8, 8, 9, 9],
    [10, 10, 11, 11, 12],
    [3, 4, 5, 6, 7],
]
KNISTER = (
    ["Ann"],
    {"sheet": "knister"},
    [
        action
        for row, sums in enumerate(GRID, 1)
        for column, total in enumerate(sums)
        for action in (
            _roll(die_1=min(6, total - 1), die_2=total - min(6, total - 1)),
            _mark(0, f"row-{row}", column),
        )
    ],
)

# Yacht, Ann alone (YA-1..YA-6): twelve rolls, each category once: a Yacht (50), a Full House (the
# five dice), Four of a Kind (the four), both straights, Choice, the numbers, and a Full House roll
# put in Ones for 0 when nothing better is open: 50 + 19 + 24 + 30 + 40 + 22 + 24 + 15 + 12 + 12 + 6
# + 0 = 254.
THROWS = [
    ([5, 5, 5, 5, 5], 11),  # Yacht 50
    ([3, 3, 3, 5, 5], 6),  # Full House 19
    ([6, 6, 6, 6, 2], 7),  # Four of a Kind 24
    ([1, 2, 3, 4, 6], 8),  # Little Straight 30
    ([2, 3, 4, 5, 6], 9),  # Big Straight 40
    ([6, 5, 4, 4, 3], 10),  # Choice 22
    ([6, 6, 6, 6, 1], 5),  # Sixes 24
    ([5, 5, 5, 2, 1], 4),  # Fives 15
    ([4, 4, 4, 1, 2], 3),  # Fours 12
    ([3, 3, 3, 3, 2], 2),  # Threes 12
    ([2, 2, 2, 1, 6], 1),  # Twos 6
    ([2, 2, 3, 3, 3], 0),  # Ones 0: no 1 among them
]
YACHT = (
    ["Ann"],
    {"sheet": "yacht"},
    [
        action
        for faces, box in THROWS
        for action in (
            {"type": "roll", "dice": {f"die-{i}": face for i, face in enumerate(faces, 1)}},
            _mark(0, "categories", box),
        )
    ],
)

SCRIPTS = {"qwixx": QWIXX, "knister": KNISTER, "yacht": YACHT}
SCRIPT = QWIXX
