"""What must hold in every state of the game, whatever was played: the property tests
(tests/engines/test_hostile_sequences.py) check it after every entry of random, hostile games.

SETUPS: the pads they play (a pad's defaults are no game: AG-1 needs its name); a setup whose seats
matter (teams) is a function of the number of players, None where it cannot be played."""

from __future__ import annotations

from ..base import is_int
from .rules import POINTS_MAX
from .sheet_lines import counted

SETUPS = [
    {"game_name": "Hearts", "lowest_wins": True, "target": 100},
    {"game_name": "Skull King", "bgg_id": 150145},
    {"game_name": "7 Wonders", "mode": "categories", "categories": ["Military", "Coins", "Wonder", "Civil"]},
    {"game_name": "Pandemic", "outcome": "coop", "expansions": ["On the Brink"]},
    lambda players: (
        {"game_name": "Codenames", "outcome": "win_loss", "teams": alternate(players)}
        if players >= 2
        else None
    ),
    lambda players: (
        {"game_name": "Spades", "teams": alternate(players), "target": 200, "roles": {"0": "North"}}
        if players >= 2
        else None
    ),
]


def alternate(players: int) -> list[list[int]]:
    """Two teams, seats taking turns (partners sit across the table)."""
    return [list(range(0, players, 2)), list(range(1, players, 2))]


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
        assert set(state.get("against", [])) <= set(state["categories"])
        assert state.get("tie_breaker", state["categories"][0]) in state["categories"]
        for category, cells in state["cells"].items():
            assert cells, "a category is written with one seat at least"
            for seat, value in cells.items():
                assert 0 <= int(seat) < players and is_int(value) and abs(value) <= POINTS_MAX
                totals[int(seat)] += counted(state, category, value)
    assert [seat["total"] for seat in state["seats"]] == totals, "each total is the sum of its points"
    _check_outcome(state, players)
    reason = state["end_reason"]
    if state["outcome"] == "coop":
        assert reason in (None, "won", "lost") and (reason is None) == (state["won"] is None)
        assert len({seat["total"] for seat in state["seats"]}) == 1, "a co-op score is the group's"
        return
    assert reason in (None, "finished", "target", "complete")
    if state["mode"] == "categories":
        written = sum(len(cells) for cells in state["cells"].values())
        assert (reason == "complete") == (written == players * len(state["categories"]))
        assert reason in (None, "complete")
    else:
        sides = [sum(totals[seat] for seat in team) for team in state["teams"]] or totals  # AG-8
        reached = state["target"] and any(total >= state["target"] for total in sides)
        assert bool(reached) == (reason == "target"), "the round reaching the target ends the pad"
        if state["outcome"] == "points":
            assert reason != "finished" or state["rounds"], "a pad is finished after a round at least"


def _check_outcome(state: dict, players: int) -> None:
    """AG-7..AG-10: the outcome's own facts, the teams a partition of the seats, roles by seat."""
    assert state["outcome"] in ("points", "win_loss", "coop")
    teams = state["teams"]
    if teams:
        assert state["outcome"] != "coop" and len(teams) >= 2
        assert sorted(seat for team in teams for seat in team) == list(range(players))
    assert all(0 <= int(seat) < players and 0 < len(role) <= 40 for seat, role in state["roles"].items())
    assert len(state["expansions"]) <= 20
    if state["outcome"] == "win_loss":
        assert state["rounds"] == [] and state["cells"] == {}, "no scores without points"
        assert (state["end_reason"] is None) == (state["winners"] is None)
    if state["winners"] is not None:
        assert state["winners"] and state["end_reason"] == "finished"
        for team in teams:  # whole teams win
            assert all(seat in state["winners"] for seat in team) or not set(team) & set(state["winners"])
