"""The thirteen boxes of a Yahtzee sheet and what five dice score in each (YZ-4, YZ-6, YZ-8).
Pure arithmetic: which box a throw may fill is the rules' question (rules.py)."""

from __future__ import annotations

from collections import Counter

from companion.games.words import gettext_noop

UPPER = ("aces", "twos", "threes", "fours", "fives", "sixes")
LOWER = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
BOXES = UPPER + LOWER
FACE_OF = {box: face for face, box in enumerate(UPPER, start=1)}  # "threes" -> 3
LABELS = {
    "aces": gettext_noop("Aces"),
    "twos": gettext_noop("Twos"),
    "threes": gettext_noop("Threes"),
    "fours": gettext_noop("Fours"),
    "fives": gettext_noop("Fives"),
    "sixes": gettext_noop("Sixes"),
    "three_of_a_kind": gettext_noop("Three of a kind"),
    "four_of_a_kind": gettext_noop("Four of a kind"),
    "full_house": gettext_noop("Full House"),
    "small_straight": gettext_noop("Small Straight"),
    "large_straight": gettext_noop("Large Straight"),
    "yahtzee": gettext_noop("Yahtzee"),
    "chance": gettext_noop("Chance"),
}
DICE = 5
FACES = (1, 2, 3, 4, 5, 6)
UPPER_BONUS_AT, UPPER_BONUS = 63, 35  # YZ-5
YAHTZEE_BONUS = 100  # YZ-7
FIXED = {"full_house": 25, "small_straight": 30, "large_straight": 40, "yahtzee": 50}  # YZ-6
SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def is_yahtzee(dice: list[int]) -> bool:
    return len(set(dice)) == 1


def points(box: str, dice: list[int], joker: bool = False) -> int:
    """What `dice` score in `box`; as a joker (YZ-8) a Yahtzee fits every lower box."""
    counts = Counter(dice)
    if box in FACE_OF:
        return FACE_OF[box] * counts[FACE_OF[box]]
    if box in FIXED:
        return FIXED[box] if joker or _fits(box, counts) else 0
    most = max(counts.values())
    needed = {"three_of_a_kind": 3, "four_of_a_kind": 4, "chance": 0}[box]
    return sum(dice) if joker or most >= needed else 0


def _fits(box: str, counts: Counter) -> bool:
    faces = set(counts)
    if box == "full_house":
        return sorted(counts.values()) == [2, 3]
    if box == "small_straight":
        return any(run <= faces for run in SMALL_RUNS)
    if box == "large_straight":
        return faces in LARGE_RUNS
    return len(faces) == 1  # yahtzee
