"""A table's score chart: each seat's score at the start and after every round (the result page,
the big screen and the history's play page draw it)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from companion import charts
from companion.games import base, registry

from . import replay
from .models import Event, Table


def table_chart(table: Table, names: list[str], events: list[Event]) -> dict | None:
    """Each seat's score at the start and after every round (and at the end); none for a play
    that kept no points (a pad's game won or lost, or its co-op game without a score: AG-7)."""
    if not events or not base.points_kept(registry.get(table.game), table.snapshot):
        return None
    try:
        labels, series = replay.round_series(table, events)
    except base.ActionError:
        # A log the current rules refuse (a rules fix after the game): the page shows without it.
        return None
    return charts.line_chart(
        [{"label": name, "values": values} for name, values in zip(names, series, strict=True)],
        x_labels=labels,
        title=_("Score after each round"),
        y_label=_("score"),
        chart_id=f"table-{table.id}",
        x_title=_("round"),
    )
