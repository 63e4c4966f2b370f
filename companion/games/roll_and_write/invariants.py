"""What must hold in every state of a rules sheet's game, whatever was played: the property tests
(tests/engines/test_hostile_sequences.py) check it after every entry of random, hostile games."""

from __future__ import annotations

from companion.sheets import library

from . import marks
from .rules import dice_in_play
from .scoring import seat_score


def check(state: dict) -> None:
    sheet, seats = state["sheet"], state["seats"]
    players = len(seats)
    assert 0 <= state["active"] < players and state["phase"] in ("roll", "mark")
    assert set(state["out"]) <= {row.get("die") for row in sheet["rows"] if row["id"] in state["locked"]}
    assert set(state["locked"]) <= {row["id"] for row in sheet["rows"] if row.get("locks")}
    if state["phase"] == "mark" and state["end_reason"] is None:
        # The dice rolled: every die in play, and any that left the game since (a row closed)
        in_play = {die["id"] for die in dice_in_play(sheet, state["out"])}
        assert in_play <= set(state["dice"]) <= {die["id"] for die in sheet["dice"]}
    for seat in seats:
        for row in sheet["rows"]:
            values = seat["rows"][row["id"]]
            assert len(values) == len(row["boxes"])
            written = [(index, value) for index, value in enumerate(values) if value is not None]
            for index, value in written:
                box = row["boxes"][index]
                if isinstance(box, int):
                    assert value == box, "a crossed box holds its printed number"
            if row.get("no_repeat"):
                assert len({value for _index, value in written}) == len(written)
            if row.get("order") == "ascending":
                assert [value for _i, value in written] == sorted({value for _i, value in written})
            if row["id"] in seat["locks"]:
                assert values[-1] is not None and marks.marked(seat, row) >= row.get("last_needs", 0) + 2
        assert set(seat["locks"]) <= set(state["locked"]) | set(state["closing"])
        if "penalties" in sheet:
            assert 0 <= seat["penalties"] <= sheet["penalties"]["max"]
        score = seat_score(sheet, seat)
        assert score["total"] == sum(score["breakdown"].values())
    ended = state["end_reason"]
    end = sheet["end"]
    assert ended in (None, "penalties", "locked_rows", "filled", "rolls")
    if ended == "locked_rows":
        assert len(state["locked"]) >= end["locked_rows"]
    if ended is None and "locked_rows" in end:
        assert len(state["locked"]) < end["locked_rows"]
    if ended is None and "penalties" in end:
        assert all(seat["penalties"] < end["penalties"] for seat in seats)


def _sheet_setup(sheet_id: str):
    """A library sheet's setup, for the numbers of players it is for (None otherwise)."""

    def setup(players: int) -> dict | None:
        wanted = library.get(sheet_id).document["players"]
        return {"sheet": sheet_id} if wanted["min"] <= players <= wanted["max"] else None

    return setup


# The setups the generic tests play (tests/engines/setups.py): every library rules sheet.
SETUPS = [_sheet_setup(sheet.id) for sheet in library.rules_sheets()]
