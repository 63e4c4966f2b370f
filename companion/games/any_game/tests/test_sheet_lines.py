"""A score sheet's special lines on the pad (issue 44): a line that counts against is typed as a
positive number and taken away; the tie-breaker line is written, not added, and decides a tie for
the best total (the closest reading of AG-4 and AG-6: sheet_lines.py). Exact totals and winners."""

from __future__ import annotations

import pytest

from companion.games.any_game import engine
from companion.games.any_game.invariants import check
from companion.games.any_game.screen import _sheet
from companion.games.base import BadAction, describe, play, validate_options

TICKETS = ["Routes", "Tickets", "Lost tickets", "Longest path", "Trains left"]


def pad(players: int = 2, **options) -> dict:
    return engine.setup(
        players,
        validate_options(
            engine, {"game_name": "Ticket to Ride", "mode": "categories", "categories": TICKETS, **options}
        ),
    )


def cell(category: str, *points: int) -> dict:
    return {"type": "score", "category": category, "points": {str(s): v for s, v in enumerate(points)}}


def run(state: dict, *actions: dict) -> dict:
    for action in actions:
        state = play(engine, state, action)
        check(state)
    return state


def test_a_line_against_takes_its_points_away_and_the_tie_breaker_adds_nothing():
    state = pad(against=["lost TICKETS"], tie_breaker="trains left")
    assert state["against"] == ["Lost tickets"] and state["tie_breaker"] == "Trains left"
    state = run(
        state,
        cell("Routes", 50, 40),
        cell("Tickets", 20, 30),
        cell("Lost tickets", 8, 0),
        cell("Longest path", 10, 0),
        cell("Trains left", 3, 9),
    )
    assert [seat["total"] for seat in state["seats"]] == [72, 70]  # 50+20-8+10, 40+30
    assert engine.result(state) == {"winners": [0], "end_reason": "complete"}
    ann = engine.scores(state)[0]["breakdown"]
    assert ann == {"Routes": 50, "Tickets": 20, "Lost tickets": -8, "Longest path": 10, "Trains left": 3}


def test_the_tie_breaker_decides_a_tie_for_the_best_total_highest_or_lowest():
    lines = (cell("Routes", 30, 30, 29), cell("Tickets", 0, 0, 0), cell("Lost tickets", 0, 0, 0))
    lines += (cell("Longest path", 0, 0, 0),)
    before = run(pad(3, tie_breaker="Trains left"), *lines)
    most = run(before, cell("Trains left", 4, 7, 45))
    assert engine.result(most)["winners"] == [1]  # Cleo's 45 trains do not count: she is not tied
    said = describe(engine, before, cell("Trains left", 4, 7, 45), ["Ann", "Ben", "Cleo"])
    ended = "Every cell is written. Game over: Ben wins the tie at 30 on Trains left."
    assert said == f"Trains left: Ann 4, Ben 7, Cleo 45. {ended}"
    fewest = run(
        pad(3, tie_breaker="Trains left", tie_breaker_lowest=True), *lines, cell("Trains left", 4, 7, 0)
    )
    assert engine.result(fewest)["winners"] == [0]
    level = run(pad(3, tie_breaker="Trains left"), *lines, cell("Trains left", 5, 5, 9))
    assert engine.result(level)["winners"] == [0, 1]  # still level on it: they share the win (AG-6)


def test_a_team_breaks_a_tie_on_its_seats_tie_breakers_together():
    state = pad(4, tie_breaker="Trains left", teams=[[0, 2], [1, 3]])
    state = run(
        state,
        cell("Routes", 10, 10, 5, 5),
        cell("Tickets", 0, 0, 0, 0),
        cell("Lost tickets", 0, 0, 0, 0),
        cell("Longest path", 0, 0, 0, 0),
        cell("Trains left", 1, 6, 9, 2),
    )
    assert engine.result(state)["winners"] == [0, 2]  # 1 + 9 trains against 6 + 2


@pytest.mark.parametrize(
    "options, words",
    [
        (
            {"against": ["Bonus"]},
            'A category that counts against is one of the categories: "Bonus" is not one (AG-4).',
        ),
        ({"tie_breaker": "Bonus"}, 'The tie-breaker is one of the categories: "Bonus" is not one (AG-4).'),
        (
            {"against": ["Trains left"], "tie_breaker": "Trains left"},
            "The tie-breaker is written, not added: it cannot also count against (AG-6).",
        ),
        (
            {"categories": ["Trains left"], "tie_breaker": "Trains left"},
            "A tie-breaker needs another category that counts (AG-6).",
        ),
    ],
)
def test_a_line_the_pad_does_not_have_is_refused_naming_its_rule(options, words):
    with pytest.raises(BadAction) as refused:
        pad(**options)
    assert refused.value.message == words


def test_a_pad_without_special_lines_keeps_its_state_as_before():
    state = pad()
    assert "against" not in state and "tie_breaker" not in state and "headings" not in state


def test_a_sheets_headings_stand_over_the_first_line_of_each_run():
    headings = {"routes": "On the board", "TICKETS": "Tickets", "Lost tickets": "Tickets", "Gone": "Gone"}
    state = pad(headings=headings)
    # Spelled as the lines are; one over a line the pad does not have is dropped (a renamed line)
    assert state["headings"] == {"Routes": "On the board", "Tickets": "Tickets", "Lost tickets": "Tickets"}
    rows = _sheet(state, ["Ann", "Ben"])["rows"]
    assert [(row["heading"], row["label"], row["ends_group"]) for row in rows] == [
        ("On the board", "Routes", False),
        ("Tickets", "Tickets", False),
        ("", "Lost tickets", False),
        ("", "Longest path", True),  # no heading of its own after the tickets: set apart (a rule above it)
        ("", "Trains left", False),
    ]


@pytest.mark.parametrize(
    "headings, words",
    [
        (["Tickets"], "Option 'headings' must be an object, not [\"Tickets\"]."),
        ({"Routes": 3}, "The headings are an object of a category's name -> the heading over it (AG-4)."),
        ({"Routes": "H" * 41}, f'A heading has 1 to 40 characters: "{"H" * 36}... (AG-4).'),
    ],
)
def test_wrong_headings_are_refused_naming_their_rule(headings, words):
    with pytest.raises(BadAction) as refused:
        pad(headings=headings)
    assert refused.value.message == words
