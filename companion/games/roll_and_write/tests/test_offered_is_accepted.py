"""What the kit offers is exactly what it accepts (issue 44): at states of random games of every
library rules sheet and an invented one, every mark a seat could send (each row, each box, each
value the dice could ever make) is accepted by the rules if and only if `legal_marks` lists it,
which is what the mark screen offers; a pass is accepted exactly where the step is optional.
Values past the sheet's numbers are out of every box's reach by the sheet's bounds (docs/sheets.md)."""

from __future__ import annotations

import random

import pytest

from companion.games.base import ActionError, play, validate_options
from companion.games.roll_and_write import engine
from companion.sheets import library
from tests.sheets.test_own_rules_sheet import CLIMB

SHEETS = [(sheet.id, {"sheet": sheet.id}) for sheet in library.rules_sheets()] + [
    ("climb", {"sheet": "climb", "rules": CLIMB})
]
CHECKED_STATES = 12  # mark states checked per game: each costs every row x box x value played


def accepted(state: dict, action: dict) -> bool:
    try:
        play(engine, state, action)
    except ActionError:
        return False
    return True


def every_value(sheet: dict) -> range:
    """Every value a mark could be sent with: 0 to one past the most the dice make or any number
    the sheet names (a pattern box's fixed points: Yacht's 40 for a large straight)."""
    named = numbers({key: value for key, value in sheet.items() if key not in ("bgg_id", "format")})
    return range(0, max(sum(max(die["faces"]) for die in sheet["dice"]), *named) + 2)


def numbers(value) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [number for item in items for number in numbers(item)]


@pytest.mark.parametrize("sheet_id, options", SHEETS, ids=[sheet_id for sheet_id, _ in SHEETS])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_mark_the_screen_offers_is_accepted_and_no_other(sheet_id, options, seed):
    rng = random.Random(seed)
    players = max(2, engine.setup(2, validate_options(engine, options))["sheet"]["players"]["min"])
    state = engine.setup(players, validate_options(engine, options))
    checked = 0
    for _step in range(2000):
        if engine.result(state) is not None or checked >= CHECKED_STATES:
            break
        if state["phase"] != "roll" and rng.random() < 0.5:
            checked += 1
            for seat in engine.expect(state)["seats"]:
                offered = {(m.row, m.box, m.value) for m in engine.legal_marks(state, seat)}
                sent = {
                    (row["id"], box, value)
                    for row in state["sheet"]["rows"]
                    for box in range(len(row["boxes"]))
                    for value in every_value(state["sheet"])
                    if accepted(
                        state, {"type": "mark", "seat": seat, "row": row["id"], "box": box, "value": value}
                    )
                }
                assert sent == offered, (sheet_id, seat, sent ^ offered)
                optional = bool(engine.step(state).get("optional"))
                assert accepted(state, {"type": "pass", "seat": seat}) == optional, (sheet_id, seat)
        state = play(engine, state, engine.sample_action(state, rng))
    assert checked > 0
