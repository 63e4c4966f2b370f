"""What must hold in every state of the game, whatever was played: the property tests
(tests/engines/test_hostile_sequences.py) check it after every entry of random, hostile games."""

from __future__ import annotations

from . import rules as dogo


def check(state: dict) -> None:
    seats = state["seats"]
    held = sum(seat["hand"] + seat["pile"] for seat in seats)
    loose = state["deck"] + state["pot"] + state["super_pot"] + state["discarded"]
    assert held + loose == dogo.DECK_TOTAL == 60, "cards are conserved"
    for kind, seen in state["seen"].items():
        assert 0 <= seen <= dogo.DECK[kind], f"more {kind}s seen than the deck holds"
    for name in ("deck", "pot", "super_pot", "discarded"):
        assert state[name] >= 0
    for seat in seats:
        assert 0 <= seat["hand"] <= dogo.HAND_SIZE
        assert seat["pile"] == sum(seat[part] for part in dogo.BREAKDOWN) >= 0
    assert state["phase"] in ("reveal", "collect", "over")
    assert set(state["contenders"]) <= set(range(len(seats)))
    if state["phase"] == "reveal":
        assert state["contenders"], "a round in progress has someone to reveal"
    assert 1 <= state["round"]
