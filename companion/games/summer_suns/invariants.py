"""What must hold in every state of the game, whatever was played: the property tests
(tests/engines/test_hostile_sequences.py) check it after every entry of random, hostile games."""

from __future__ import annotations

from .. import base
from . import rules as suns
from .legal import MASK
from .sheet import SHEETS


def check(state: dict) -> None:
    sheet = SHEETS[state["sheet"]]
    for seat in state["seats"]:
        cells = seat["cells"]
        for slot, value in cells.items():
            assert slot in sheet.slots, f"{slot!r} is no slot of the sheet"
            assert base.is_int(value) and 1 <= value <= 6, f"{slot} holds {value!r}"
            for other, op in sheet.group_neighbours[slot]:
                if other in cells:
                    assert MASK[op][cells[other]] >> value & 1, f"zone rule broken between {slot}, {other}"
        assert set(seat["marks"]) <= set(cells)
        assert seat["pearls"] == sum(sheet.pearl[s] == v for s, v in cells.items())
        assert seat["shells"] >= sum(s in sheet.shells for s in cells)
        sun = seat["sun"]
        steps = [b - a for a, b in zip([0, *sun], sun, strict=False)]
        assert all(1 <= step <= 6 for step in steps), f"sun totals must increase by 1-6: {sun}"
        assert len(sun) <= sheet.suns
        # One total per turn taken: the rounds before this one, and this one once placed.
        assert len(sun) == state["round"] - 1 + seat["placed"]
    assert 1 <= state["round"] <= suns.LAST_ROUND
    if state["phase"] == "roll":
        assert state["dice"] is None and not any(seat["placed"] for seat in state["seats"])
    elif state["phase"] == "place":
        dice = state["dice"]
        assert len(dice) == 3 and all(base.is_int(d) and 1 <= d <= 6 for d in dice)
        assert not all(seat["placed"] for seat in state["seats"])
