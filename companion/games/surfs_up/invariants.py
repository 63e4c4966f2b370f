"""What must hold in every state of the game, whatever was played: the property tests
(tests/engines/test_hostile_sequences.py) check it after every entry of random, hostile games."""

from __future__ import annotations

from collections import Counter

from . import rules as surf


def check(state: dict) -> None:
    seats, c = state["seats"], surf.COMPONENTS
    players = len(seats)
    trash = Counter(state["trash"])
    for value in c["starting_energy"]:
        held = sum((seat["hand"] + seat["towel"]).count(value) for seat in seats)
        assert held + trash[value] == players, f"starting energy card {value} in exactly one place"
    temps = sum(n for card, n in trash.items() if isinstance(card, str))
    for seat in seats:
        cards = seat["hand"] + seat["towel"]
        starting = [card for card in cards if isinstance(card, int)]
        assert len(starting) == len(set(starting)), "a starting card in two places"
        assert seat["hand"] == surf.energy_sorted(seat["hand"])
        assert seat["towel"] == surf.energy_sorted(seat["towel"])
        assert 0 <= seat["respect"] <= c["max_respect"] == 4, "respect stays within 0-4"
        assert surf.REST in seat["hand"] and surf.REST not in seat["towel"], "the rest card stays in hand"
        temps += sum(isinstance(card, str) for card in cards)
        assert seat["stings"] >= 0
    ocean = sum(c["ocean_deck"].values())
    assert state["ocean_deck"] == sum(state["ocean_left"].values())
    assert all(n >= 0 for n in state["ocean_left"].values())
    caught = sum(len(seat["waves"]) for seat in seats)
    assert (
        state["ocean_deck"] + len(state["surf"]) + caught + len(state["trashed_waves"]) + state["bluebottles"]
        == ocean
    ), "ocean cards are conserved"
    assert len(state["beach"]) == surf.BEACH_SIZE
    shown = sum(card is not None for card in state["beach"])
    boards = sum(len(seat["surfboards"]) for seat in seats)
    assert state["beach_deck"] + shown + boards + temps == c["beach_deck"], "beach cards are conserved"
    assert state["beach_deck"] >= 0
    assert state["phase"] in ("setup", "reveal", "reward", "ocean", "final", "over")
