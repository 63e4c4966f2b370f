"""Finished plays as CSV for a spreadsheet: one row per seat per play, in the order they ended."""

from __future__ import annotations

import csv
import datetime as dt

from companion.tables.models import Table

from . import stats

COLUMNS = (
    "play_id",
    "game",
    "game_name",
    "date",
    "place",
    "length_minutes",
    "players",
    "seat",
    "start_player",
    "player",
    "score",
    "winner",
    "rank",
    "comments",
    "team",  # the pad's teams (AG-8): 1, 2, ... as the teams were listed
    "role",  # the pad's roles (AG-10)
    "source",  # where an imported play was kept before: bgstats, bgg (issue 29)
)


def finished_plays(group):
    """The group's finished tables with their seats and their first and last live entry, oldest
    first."""
    tables = Table.objects.filter(group=group, status=Table.Status.FINISHED)
    tables = tables.defer("snapshot", "token", "view_token")
    return stats.with_seats_and_length(tables).order_by("finished", "id")


def spreadsheet_text(value: str) -> str:
    """Text a spreadsheet would run as a formula (a name like "=HYPERLINK(...)") gets a leading
    apostrophe, which spreadsheets show as text (OWASP's advice against CSV injection)."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _blank_if_none(value) -> object:
    return "" if value is None else value


def write_plays_csv(stream, group) -> None:
    writer = csv.writer(stream)
    writer.writerow(COLUMNS)
    for table in finished_plays(group):
        seats = list(table.seats.all())
        game_name = table.game_name
        length = _blank_if_none(stats.length_minutes(table))
        team_of = {seat: n for n, team in enumerate(table.options.get("teams") or [], 1) for seat in team}
        roles = table.options.get("roles") or {}
        date = table.finished.astimezone(dt.UTC).isoformat(timespec="seconds")
        for seat, rank in zip(seats, stats.seat_ranks(table, seats), strict=True):
            writer.writerow(
                [
                    table.id,
                    table.game,
                    spreadsheet_text(game_name),
                    date,
                    spreadsheet_text(table.place),
                    length,
                    len(seats),
                    seat.position + 1,
                    _flag(seat.position == 0),
                    spreadsheet_text(seat.player.name),
                    _blank_if_none(seat.score),
                    _flag(seat.won),
                    _blank_if_none(rank),
                    spreadsheet_text(table.comments),
                    team_of.get(seat.position, ""),
                    spreadsheet_text(roles.get(str(seat.position), "")),
                    table.source,
                ]
            )
