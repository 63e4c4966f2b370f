"""What must hold in every state of the game, whatever was played: the property tests
(tests/engines/test_hostile_sequences.py) check it after every entry of random, hostile games."""

from __future__ import annotations

from .boxes import BOXES, DICE, FIXED, LOWER, UPPER, YAHTZEE_BONUS
from .rules import ROUNDS, seat_score


def check(state: dict) -> None:
    seats = state["seats"]
    filled = [sum(value is not None for value in seat["boxes"].values()) for seat in seats]
    turn = state["turn"]
    # Turns go in seat order (YZ-2): the seats before the turn have filled one box more this round.
    assert filled == [state["round"] - (i >= turn) for i in range(len(seats))] or all(
        count == ROUNDS for count in filled
    ), filled
    assert 1 <= state["round"] <= ROUNDS
    for seat in seats:
        assert list(seat["boxes"]) == list(BOXES)
        for box in UPPER:
            value = seat["boxes"][box]
            assert value is None or (value % (UPPER.index(box) + 1) == 0 and 0 <= value <= DICE * 6)
        for box in LOWER:
            value = seat["boxes"][box]
            if box in FIXED:
                assert value in (None, 0, FIXED[box])
            else:
                assert value is None or 0 <= value <= DICE * 6
        # A bonus needs a 50 in the Yahtzee box (YZ-7), and each one a Yahtzee of its turn.
        assert seat["yahtzee_bonuses"] == 0 or seat["boxes"]["yahtzee"] == 50
        assert 0 <= seat["yahtzee_bonuses"] <= ROUNDS - 1
        score = seat_score(seat)
        assert score["total"] == sum(score["breakdown"].values())
        assert score["breakdown"]["yahtzee_bonus"] == YAHTZEE_BONUS * seat["yahtzee_bonuses"]
