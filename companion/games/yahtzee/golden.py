"""The golden playthrough's script: player names, options and every action of one scripted game.

tests/engines/golden_playthrough.py writes it step by step to golden.txt beside this file, so a rule
change shows as a readable diff. Regenerate after a deliberate change: make golden.
"""

from __future__ import annotations


def _turn(seat: int, dice: list[int], box: str) -> dict:
    return {"type": "score", "seat": seat, "dice": dice, "box": box}


# Yahtzee, 2 players, 13 rounds. Ann: the upper bonus, a Yahtzee, then a further one whose Fours are
# filled: a joker Full House and the bonus of 100 (YZ-7, YZ-8). Ben: a scratched Yahtzee box, then
# Yahtzees that must fill Threes (YZ-8), then a joker Large Straight without a bonus.
ANN = [
    ([6, 6, 6, 6, 2], "sixes"),  # 24
    ([5, 5, 5, 1, 2], "fives"),  # 15
    ([4, 4, 4, 4, 4], "yahtzee"),  # 50
    ([4, 4, 4, 3, 3], "fours"),  # 12
    ([4, 4, 4, 4, 4], "full_house"),  # joker 25, bonus 100
    ([3, 3, 3, 1, 2], "threes"),  # 9
    ([1, 2, 3, 4, 6], "small_straight"),  # 30
    ([2, 3, 4, 5, 6], "large_straight"),  # 40
    ([2, 2, 2, 5, 6], "twos"),  # 6
    ([1, 1, 1, 5, 6], "aces"),  # 3: upper 69, bonus 35
    ([6, 6, 6, 5, 1], "three_of_a_kind"),  # 24
    ([5, 5, 5, 5, 2], "four_of_a_kind"),  # 22
    ([6, 5, 4, 3, 1], "chance"),  # 19
]
BEN = [
    ([1, 2, 3, 5, 6], "yahtzee"),  # scratched: 0
    ([3, 3, 3, 3, 3], "threes"),  # a further Yahtzee must fill Threes: 15, no bonus after a 0
    ([2, 2, 3, 3, 3], "full_house"),  # 25
    ([1, 3, 4, 5, 6], "small_straight"),  # 30
    ([6, 6, 6, 6, 1], "sixes"),  # 24
    ([5, 5, 5, 5, 1], "fives"),  # 20
    ([4, 4, 4, 2, 1], "fours"),  # 12
    ([2, 2, 2, 6, 6], "twos"),  # 6
    ([1, 1, 3, 4, 5], "aces"),  # 2: upper 79, bonus 35
    ([3, 3, 3, 3, 3], "large_straight"),  # Threes filled: a joker, 40
    ([6, 6, 6, 2, 2], "three_of_a_kind"),  # 22
    ([1, 2, 2, 4, 6], "four_of_a_kind"),  # scratched: 0
    ([6, 6, 5, 5, 4], "chance"),  # 26
]

SCRIPT = (
    ["Ann", "Ben"],
    {},
    [_turn(seat, *turn) for pair in zip(ANN, BEN, strict=True) for seat, turn in enumerate(pair)],
)
