"""What must hold in every state of the game, whatever was played: the property tests
(tests/engines/test_hostile_sequences.py) check it after every entry of random, hostile games."""

from __future__ import annotations

from collections import Counter

from . import rules as hang


def check(state: dict) -> None:
    seats = state["seats"]
    assert state["bank"] + sum(seat["dollars"] for seat in seats) == hang.DOLLARS == 30, "sand dollars"
    assert state["bank"] >= 0 and all(seat["dollars"] >= 0 for seat in seats)
    on_dogs = Counter(part for seat in seats for dog in seat["dogs"] for part in hang.PARTS if dog[part])
    assert state["surf_deck"] == sum(state["surf_left"].values()) >= 0
    assert all(n >= 0 for n in state["surf_left"].values())
    assert state["surf_deck"] + sum(on_dogs.values()) + state["out"] == hang.SURF_TOTAL == 36, "surf cards"
    assert state["surf_left"]["character"] + on_dogs["character"] == hang.SURF["character"]
    for part in hang.PARTS:
        assert state["surf_left"][part] + on_dogs[part] <= hang.SURF[part]
    drawn = state["shack_card"] is not None
    assert state["shack_deck"] + state["shack_discard"] + drawn == hang.SHACK_TOTAL, "shack cards"
    assert all(n >= 0 for n in state["shack_left"].values())
    for seat in seats:
        assert all(any(dog.values()) for dog in seat["dogs"]), "an empty Surf Dog is removed (HF-14)"
        assert all(sum(dog.values()) >= 1 for dog in seat["dogs"])
        assert seat["complete"] == hang.count_complete(seat["dogs"])
    assert 0 <= state["turn"] < len(seats)
    assert state["phase"] in ("turn", "shack_card", "shack_roll", "over")
    assert (state["phase"] == "shack_roll") == drawn
