"""One play as the history's lists and pages show it."""

from __future__ import annotations

from django.utils.translation import gettext as _

from companion.tables.models import Table

from . import stats

SOURCES = {"bgstats": "BG Stats", "bgg": "BoardGameGeek"}  # where an imported play was kept before


def play_row(table: Table) -> dict:
    """One play as the lists show it (a table from stats.archive: seats and length loaded), with
    what the pad kept beside the scores: teams, roles, expansions (AG-8, AG-10)."""
    seats = list(table.seats.all())
    names = {seat.position: seat.player.name for seat in seats}
    options = table.options if isinstance(table.options, dict) else {}
    roles = options.get("roles") or {}
    return {
        "table": table,
        "game_name": table.game_name,
        # When it started, in the group's zone on the page: the day it counts on (issue 42). A
        # play without a time of day (BGG's, `timed` false) shows its date alone.
        "started": table.created,
        "timed": table.timed,
        "length": stats.length_minutes(table),
        "seats": seats,
        "source_name": SOURCES.get(table.source, ""),
        "teams": [[names[seat] for seat in team if seat in names] for team in options.get("teams") or []],
        "roles": [(names[int(seat)], role) for seat, role in roles.items() if int(seat) in names],
        "expansions": options.get("expansions") or [],
        "together": together(options, seats),
    }


def together(options: dict, seats: list) -> str:
    """A co-op play's result in words (everyone won or lost together), "" for any other play: a
    co-op loss reads as a loss, never as a list of zeros (issue 43)."""
    if options.get("outcome") != "coop":
        return ""
    return _("won together") if any(seat.won for seat in seats) else _("lost together against the game")
