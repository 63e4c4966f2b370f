"""A finished table step by step: the state after each live entry, rebuilt from the log."""

from __future__ import annotations

from django.utils.translation import gettext as _

from companion.games import base

from . import services
from .models import Event, Table


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


def round_series(table: Table, events: list[Event]) -> tuple[list[str], list[list[int]]]:
    """Each seat's total at the start and after every round (issue 30: a chart of 12 Dogo Dash
    rounds had 24 points, one per entry), and at the end when the last entry changed it: the x
    labels ("0", "1", ... "end") and one list per seat."""
    engine = services.engine_for(table)
    state = engine.setup(table.seats.count(), table.options)
    labels, totals = ["0"], [[score["total"] for score in engine.scores(state)]]
    laps = RoundCounter(state)
    for event in events:
        state = base.play(engine, state, event.action)
        now = [score["total"] for score in engine.scores(state)]
        if laps.moved(state):
            labels.append(str(len(labels)))
            totals.append(now)
    final = [score["total"] for score in engine.scores(state)]
    if events and final != totals[-1]:
        labels.append(_("end"))
        totals.append(final)
    return labels, [list(seat) for seat in zip(*totals, strict=True)]


class RoundCounter:
    """Which round a state is in, as each game keeps it: its "round" number, the rounds of a pad,
    or, in a game of turns (Hang Four), a lap each time the turn comes back to an earlier seat."""

    def __init__(self, state: dict):
        self.turn, self.laps = state.get("turn"), 0
        self.mark = self._mark(state)

    def _mark(self, state: dict):
        if "round" in state:
            return state["round"]
        if isinstance(state.get("rounds"), list):
            return len(state["rounds"])
        return self.laps

    def moved(self, state: dict) -> bool:
        """Whether a round ended with the entry that led to `state`."""
        turn = state.get("turn")
        if isinstance(turn, int) and isinstance(self.turn, int) and turn < self.turn:
            self.laps += 1
        self.turn = turn
        mark = self._mark(state)
        moved, self.mark = mark != self.mark, mark
        return moved
