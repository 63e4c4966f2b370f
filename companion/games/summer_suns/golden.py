"""The golden playthrough's script: player names, options and every action of one scripted game.

tests/engines/golden_playthrough.py writes it step by step to golden.txt beside this file, so a rule
change shows as a readable diff. Regenerate after a deliberate change: make golden.
"""

from __future__ import annotations


def _roll(a: int, b: int, c: int) -> dict:
    return {"type": "roll", "dice": [a, b, c]}


def _place(seat: int, slot_die: int, write_die: int, slot: str, **extra) -> dict:
    return {
        "type": "place",
        "seat": seat,
        "slot_die": slot_die,
        "write_die": write_die,
        "slot": slot,
        **extra,
    }


# 62 Summer Suns, 2 players, default sheet: Ann completes the cabins and the bottles and meets every
# sun bonus (12 a number, 22 a shell, 32/52/62 starfish); Ben shows a crab copy onto a hat, a bonus
# number on a hat slot (no sun choice) and one completing a cabin. Ann reaches 62 first in round 12;
# Ben still places, then the game ends (SS-12). Shells tie 3-3: both get 5 (SS-8).
SCRIPT = (
    ["Ann", "Ben"],
    {"sheet": "default"},
    [
        # Round 1: Ann's crab copies 5 from c2b to c2t (pearl); Ben's from s2 onto k6's hat: sun 6.
        _roll(2, 5, 6),
        _place(0, 0, 1, "c2b", crab=["c2t"]),
        _place(1, 2, 1, "s2", crab=["k6"], sun=6),
        # Round 2: both reach 12, a bonus number: Ann completes cabin 1, Ben writes on s7's hat.
        _roll(3, 3, 6),
        _place(0, 0, 1, "c1t", bonus={"slot": "c1b", "value": 3}),
        _place(1, 0, 1, "g2", bonus={"slot": "s7", "value": 3}),
        # Round 3: Ben places first this time.
        _roll(1, 1, 4),
        _place(1, 2, 0, "g1"),
        _place(0, 0, 1, "c3t"),
        # Round 4: Ann reaches 22: a shell.
        _roll(6, 1, 6),
        _place(0, 0, 1, "c3b"),
        _place(1, 0, 2, "k5"),
        # Round 5: Ann's sun hat on c4t: she chooses 4 instead of the third die's 1.
        _roll(6, 6, 1),
        _place(0, 0, 1, "c4t", sun=4),
        _place(1, 2, 0, "s6"),
        # Round 6: Ann completes the cabins and reaches 32: 2 starfish.
        _roll(1, 6, 6),
        _place(0, 0, 1, "c4b"),
        _place(1, 1, 2, "g3"),
        _roll(2, 2, 4),
        _place(0, 0, 1, "b1"),
        _place(1, 2, 0, "c1b"),
        # Round 8: Ann's crab copies 2 from b3 to b4; 42 gives her a bonus number: 2 in b5 (shell).
        _roll(4, 2, 6),
        _place(0, 0, 1, "b3", crab=["b4"], bonus={"slot": "b5", "value": 2}),
        _place(1, 1, 0, "k4"),
        # Round 9: Ann completes the bottles.
        _roll(5, 2, 4),
        _place(0, 0, 1, "b2"),
        _place(1, 0, 1, "g5"),
        # Round 10: Ann reaches 52: 3 starfish.
        _roll(1, 1, 6),
        _place(0, 0, 1, "k1"),
        _place(1, 2, 0, "c3b"),
        _roll(3, 3, 4),
        _place(0, 0, 1, "k2"),
        _place(1, 0, 2, "s4"),
        # Round 12: Ann reaches 62 (4 starfish); Ben still places (hat, 42, a bonus number), then
        # the game is over.
        _roll(5, 5, 6),
        _place(0, 0, 1, "k3"),
        _place(1, 2, 0, "c4t", sun=5, bonus={"slot": "c4b", "value": 5}),
    ],
)
