"""A finished table step by step: the state after each live entry, rebuilt from the log."""

from __future__ import annotations

from companion.games import base
from companion.tables import services
from companion.tables.models import Event, Table


def live_events(table: Table) -> list[Event]:
    return list(table.events.filter(undone=False).order_by("seq"))


def state_after(table: Table, events: list[Event], step: int) -> dict:
    """The state after the first `step` live entries (0: the game as set up)."""
    engine = services.engine_for(table)
    return base.replay(engine, table.seats.count(), table.options, [event.action for event in events[:step]])


def score_series(table: Table, events: list[Event]) -> list[list[int]]:
    """Each seat's total at the start and after every live entry: one list per seat."""
    engine = services.engine_for(table)
    state = engine.setup(table.seats.count(), table.options)
    totals = [[score["total"] for score in engine.scores(state)]]
    for event in events:
        state = base.play(engine, state, event.action)
        totals.append([score["total"] for score in engine.scores(state)])
    return [list(seat) for seat in zip(*totals, strict=True)]
