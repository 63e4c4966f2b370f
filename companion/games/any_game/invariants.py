"""What must hold in every state of the game, whatever was played: the property tests
(tests/engines/test_hostile_sequences.py) check it after every entry of random, hostile games.

SETUPS: the pads they play (a pad's defaults are no game: AG-1 needs its name)."""

from __future__ import annotations

from ..base import is_int
from .rules import POINTS_MAX

SETUPS = [
    {"game_name": "Hearts", "lowest_wins": True, "target": 100},
    {"game_name": "Skull King", "bgg_id": 150145},
    {"game_name": "7 Wonders", "mode": "categories", "categories": ["Military", "Coins", "Wonder", "Civil"]},
]


def check(state: dict) -> None:
    players = len(state["seats"])
    assert 1 <= players <= 20
    assert state["game_name"] and state["game_name"] == " ".join(state["game_name"].split())
    totals = [0] * players
    if state["mode"] == "rounds":
        assert state["cells"] == {} and state["categories"] == []
        for points in state["rounds"]:
            assert sorted(points) == sorted(str(seat) for seat in range(players)), "a round names every seat"
            for seat, value in points.items():
                assert is_int(value) and abs(value) <= POINTS_MAX
                totals[int(seat)] += value
    else:
        assert state["rounds"] == [] and state["target"] == 0
        assert set(state["cells"]) <= set(state["categories"])
        for cells in state["cells"].values():
            assert cells, "a category is written with one seat at least"
            for seat, value in cells.items():
                assert 0 <= int(seat) < players and is_int(value) and abs(value) <= POINTS_MAX
                totals[int(seat)] += value
    assert [seat["total"] for seat in state["seats"]] == totals, "each total is the sum of its points"
    reason = state["end_reason"]
    assert reason in (None, "finished", "target", "complete")
    if state["mode"] == "categories":
        written = sum(len(cells) for cells in state["cells"].values())
        assert (reason == "complete") == (written == players * len(state["categories"]))
        assert reason in (None, "complete")
    else:
        reached = state["target"] and any(total >= state["target"] for total in totals)
        assert bool(reached) == (reason == "target"), "the round reaching the target ends the pad"
        assert reason != "finished" or state["rounds"], "a pad is finished after a round at least"
