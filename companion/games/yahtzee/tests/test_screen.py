"""Yahtzee's screen: a turn is tapped as the dice lie and the box, following the options the page
shows (each a button or a link: one tap each), and every box says what it would score or why not."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl

from companion.games import screen_kit
from companion.games.base import play
from companion.games.yahtzee import engine, screen
from companion.games.yahtzee.golden import SCRIPT

NAMES = ["Ann", "Ben"]


def step_of(state: dict, query: dict) -> dict:
    return screen.Steps(state, NAMES, query).resolve()


def tap_turn(state: dict, action: dict) -> tuple[int, dict]:
    """Enter `action` by tapping the shown options: each die in the order thrown, then the box.
    Returns the taps and the action the last tap posts."""
    query, taps = {}, 0
    for face in action["dice"]:
        step = step_of(state, query)
        assert step["name"] == "dice"
        (option,) = [o for o in step["options"] if o["label"] == str(face)]
        taps += 1
        if option["fields"]:  # the last box left: the fifth die posts the turn (no step with one answer)
            return taps, json.loads(option["fields"]["action"])
        query = dict(parse_qsl(option["href"].lstrip("?")))
    step = step_of(state, query)
    assert step["name"] == "box"
    (option,) = [
        o
        for o in step["options"]
        if o["fields"] and json.loads(o["fields"]["action"])["box"] == action["box"]
    ]
    return taps + 1, json.loads(option["fields"]["action"])


def test_a_turn_of_the_golden_game_takes_six_taps_or_five_when_one_box_is_possible():
    names, options, actions = SCRIPT
    state = engine.setup(len(names), options)
    taps = []
    for action in actions:
        count, posted = tap_turn(state, action)
        assert posted == {**action, "dice": sorted(action["dice"], reverse=True)}
        taps.append(count)
        state = play(engine, state, posted)
    # Five dice and the box. Ben's second turn, a Yahtzee of 3s after his 0 in Yahtzee, may only
    # fill Threes (YZ-8), and in the last round one box is left: the fifth die posts those.
    assert taps == [6, 6, 6, 5] + [6] * 20 + [5, 5]
    assert engine.result(state) == {"winners": [0], "end_reason": "all_filled"}


def test_the_box_step_shows_the_points_and_greys_what_the_rules_refuse():
    state = engine.setup(2, {})
    state["seats"][0]["boxes"].update(yahtzee=50, fours=12)
    step = step_of(state, {"d": "4,4,4,4,4"})
    assert step["title"] == "Ann threw 4 4 4 4 4: which box?"
    shown = {o["label"]: (o["detail"], o["disabled"]) for o in step["options"]}
    # Filled boxes are no choice (YZ-3), named once; the joker greys the open upper boxes (YZ-8).
    assert "Fours" not in shown and "Yahtzee" not in shown and len(shown) == 11
    assert step["filled"] == "Filled already: Fours, Yahtzee (YZ-3)."
    assert shown["Aces"] == ("", "A further Yahtzee fills an open lower box while there is one (YZ-8).")
    assert shown["Full House"] == ("25 + bonus 100", "")
    assert shown["Chance"] == ("20 + bonus 100", "")


def test_back_takes_back_the_last_die_and_junk_in_the_query_is_left_out():
    state = engine.setup(2, {})
    step = step_of(state, {"d": "6,9,x,2"})
    assert step["dice"] == ["⚅", "⚁"] and step["left"] == 3
    assert step["back"] == "?d=6%2C9%2Cx"  # the query's own last item goes first
    assert step_of(state, {"d": "6"})["back"] == "?"


def test_the_waiting_phone_and_the_sheet_say_the_table_in_words():
    names, options, actions = SCRIPT
    state = engine.setup(len(names), options)
    for action in actions[:5]:
        state = play(engine, state, action)
    data = {
        "state": state,
        "players": [{"seat": i, "name": name} for i, name in enumerate(names)],
        "scores": engine.scores(state),
        "status": "in_progress",
        "winners": None,
        "end_reason": None,
        "expect": engine.expect(state),
    }
    shown = screen.context(data, screen_kit.Viewer(can_edit=False))
    assert (shown["round"], shown["turn_name"], shown["step"]) == (3, "Ben", None)
    assert shown["last"] == "Ann: 4 4 4 4 4 · 50 in Yahtzee"
    sheet = shown["sheet"]
    assert [row["values"] for row in sheet["upper"]][5] == [24, None]  # Sixes: Ann 24, Ben open
    assert sheet["totals"] == [89, 15] and sheet["bonuses"] == [0, 0]
