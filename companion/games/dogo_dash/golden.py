"""The golden playthrough's script: player names, options and every action of one scripted game.

tests/engines/golden_playthrough.py writes it step by step to golden.txt beside this file, so a rule
change shows as a readable diff. Regenerate after a deliberate change: make golden.
"""

from __future__ import annotations


def _reveal(cards: dict, catnip: list[int] | None = None) -> dict:
    action = {"type": "reveal", "cards": cards}
    if catnip:
        action["catnip"] = catnip
    return action


def _collect(dash: list[int]) -> dict:
    return {"type": "collect", "dogo_dash": dash}


# Dogo Dash, 3 players, both variants: a tie, a dash, a catnip, a split, cat+cookie, and the last round.
SCRIPT = (
    ["Ann", "Ben", "Cleo"],
    {"catnip": True, "dogo_dash": True},
    [
        # Round 1: Ben and Cleo tie on dogs; Ben's bear wins the tie-break; Cleo dashes.
        _reveal({"0": "cat", "1": "dog", "2": "dog"}),
        _reveal({"1": "bear", "2": "dog"}),
        _collect([2]),
        # Round 2: Ann plays catnip; Ben's cookie beats Cleo's bear.
        _reveal({"1": "cookie", "2": "bear"}, catnip=[0]),
        # Round 3: Ann and Ben tie until both hands are empty: they split 9, 4 each, 1 discarded.
        _reveal({"0": "bear", "1": "bear", "2": "cat"}),
        _reveal({"0": "good_boy", "1": "dog"}),
        _reveal({"0": "cat", "1": "cat"}),
        _reveal({"0": "dog", "1": "dog"}),
        # Round 4: a cat and a cookie: the cat wins whatever else is there (DD-3).
        _reveal({"0": "cookie", "1": "cat", "2": "bear"}),
        # Round 5: Ann's bear wins; Ben could dash but does not.
        _reveal({"0": "bear", "1": "dog", "2": "cat"}),
        _collect([]),
        # Round 6: a good boy forces a three-way tie; Ben's bear wins the tie-break; Cleo dashes again.
        _reveal({"0": "good_boy", "1": "cat", "2": "dog"}),
        _reveal({"0": "cat", "1": "bear", "2": "cat"}),
        _collect([2]),
        # Round 7: Cleo plays catnip; Ben's bear beats Ann's dog and Ann dashes.
        _reveal({"0": "dog", "1": "bear"}, catnip=[2]),
        _collect([0]),
        # Round 8: Cleo's bear beats two cats.
        _reveal({"0": "cat", "1": "cat", "2": "bear"}),
        # Round 9: Ann and Ben tie on bears, Ben's cookie wins; the refill runs short (Ann draws 1
        # of 2) and empties the deck: the next round is the last.
        _reveal({"0": "bear", "1": "bear", "2": "dog"}),
        _reveal({"0": "dog", "1": "cookie"}),
        _collect([]),
        # Round 10, the last: every other card in hand goes to the Super Pot; Cleo's bear takes all.
        _reveal({"0": "cat", "1": "dog", "2": "bear"}),
    ],
)
