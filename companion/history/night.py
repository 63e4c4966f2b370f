"""The story of a night (issue 32): every play of an evening in order, its winners, the evening's
champion, and what only a log can tell: each game's lead changes and the entry that decided it, the
luck of the dice, the longest streak of wins.

An evening runs from 06:00 to 06:00 the next day, in the group's time zone, and a play belongs to
the evening it started in (issue 42): a game from 23:30 to 00:40 on New Year's Eve is Dec 31's.
A play's start is its table's `created` (an imported play's start as its file said it).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from statistics import mean
from zoneinfo import ZoneInfo

from companion.games import base
from companion.groups.access import group_zone
from companion.groups.models import Group
from companion.tables import replay, services
from companion.tables.models import Table

from . import history_file, play_rows, stats

DAY_STARTS = dt.time(6)  # an evening ends at 06:00 the next morning
# The evenings the calendar holds in every zone (each is less than a day from UTC, the database's
# time): the night of 9999-12-31 would end in year 10000, that of 0001-01-01 start in year 0 in UTC
# where the zone is ahead of it (issue 41: both were a 500). The history keeps no moment outside.
FIRST_EVENING, LAST_EVENING = history_file.FIRST_DAY, history_file.LAST_DAY


def zone(group: Group) -> ZoneInfo:
    return group_zone(group)


def evening_of(moment: dt.datetime, tz: ZoneInfo) -> dt.date:
    local = moment.astimezone(tz)
    return (local - dt.timedelta(days=1)).date() if local.time() < DAY_STARTS else local.date()


def bounds(day: dt.date, tz: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
    start = dt.datetime.combine(day, DAY_STARTS, tzinfo=tz)
    return start, start + dt.timedelta(days=1)


def latest_evening(group: Group) -> dt.date | None:
    last = Table.objects.filter(group=group, status=stats.FINISHED).order_by("-created").first()
    return evening_of(last.created, zone(group)) if last is not None else None


def night(group: Group, day: dt.date) -> dict:
    """The evening `day` of `group`: its plays (oldest first) with their stories, the champion(s)
    and the longest streak."""
    start, end = bounds(day, zone(group))
    tonight = stats.archive(group).filter(created__gte=start, created__lt=end)
    tables = list(tonight.order_by("created", "pk"))
    plays = [play_story(table) for table in tables]
    wins = Counter(name for play in plays for name in play["winners"])
    best = max(wins.values(), default=0)
    return {
        "day": day,
        "plays": plays,
        "champions": sorted(name for name, count in wins.items() if count == best) if best else [],
        "champion_wins": best,
        "streak": longest_streak(plays),
    }


def play_story(table: Table) -> dict:
    names = services.seat_names(table)
    seats = list(table.seats.order_by("position"))
    events = replay.live_events(table)
    leads = lead_story(table, names, events)
    return {
        "table": table,
        "game": table.game_name,
        "winners": [names[seat.position] for seat in seats if seat.won],
        "together": play_rows.together(table.options if isinstance(table.options, dict) else {}, seats),
        "scores": [(names[seat.position], seat.score) for seat in seats],
        "lead_changes": leads["changes"],
        "decided_by": leads["decided_by"],
        "dice": dice_luck(table, names, events),
    }


def lead_story(table: Table, names: list[str], events: list) -> dict:
    """How often the sole lead passed from one player to another, and the entry after which the
    winner led alone to the end (None when the lead was shared to the last entry)."""
    engine = services.engine_for(table)
    if base.is_pad(engine) and table.options.get("outcome", "points") != "points":
        return {"changes": 0, "decided_by": None}
    try:
        series = replay.score_series(table, events)
    except base.ActionError:
        return {"changes": 0, "decided_by": None}
    lowest = bool(table.options.get("lowest_wins"))
    leaders = []
    for step in range(len(events) + 1):
        totals = [seat[step] for seat in series]
        top = min(totals) if lowest else max(totals)
        leading = [seat for seat, total in enumerate(totals) if total == top]
        leaders.append(leading[0] if len(leading) == 1 else None)
    sole = [leader for leader in leaders if leader is not None]
    changes = sum(1 for a, b in zip(sole, sole[1:], strict=False) if a != b)
    final = leaders[-1]
    decided = None
    if final is not None:
        step = len(leaders) - 1
        while step > 0 and leaders[step - 1] == final:
            step -= 1
        # The entry after which the winner led alone, unless it was the first: a lead that never
        # changed was decided by nothing in particular (issue 43), and the first entry says little.
        decided = events[step - 1].said if step > 1 else None
    return {"changes": changes, "decided_by": decided}


def dice_luck(table: Table, names: list[str], events: list) -> list[dict]:
    """The luck of a game whose entries roll dice (the engine says which: base.rolled): each
    roller's average against a fair die's, or the table's shared dice as one."""
    engine = services.engine_for(table)
    if not base.rolls_dice(engine):
        return []
    faces: dict[int | None, list[int]] = {}
    fair: dict[int | None, list[float]] = {}
    try:
        state = engine.setup(len(names), table.options)
        for event in events:
            roll = base.rolled(engine, state, event.action)
            if roll is not None:
                faces.setdefault(roll.seat, []).extend(roll.faces)
                fair.setdefault(roll.seat, []).extend([roll.fair_mean] * len(roll.faces))
            state = base.play(engine, state, event.action)
    except base.ActionError:  # a library sheet changed since the table was played: no luck told
        return []
    return [
        {
            "who": names[seat] if seat is not None else "",
            "rolls": len(values),
            "average": mean(values),
            "expected": mean(fair[seat]),
        }
        for seat, values in sorted(faces.items(), key=lambda item: (item[0] is None, item[0] or 0))
    ]


def longest_streak(plays: list[dict]) -> dict | None:
    """The longest run of plays in a row that one player won (2 at least)."""
    best, runs = None, {}
    for play in plays:
        runs = {name: runs.get(name, 0) + 1 for name in play["winners"]}
        for name, length in runs.items():
            if length >= 2 and (best is None or length > best["length"]):
                best = {"who": name, "length": length}
    return best
