"""Figures a group reads at a glance (issue 29), for the group's history and for one player: plays
and hours, plays per month (the last twelve) and per year, the most played games, and how often
the co-op games were won. One query of the plays' few columns; the counting is done here, by the
group's local dates, and resumed where it got to when a play ends (resumable.py); the figures are
kept in the cache under the history's stamp (as the ratings are), so that a page read again costs
the stamp's two queries, not the plays' (2,000 plays: ~60 ms)."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter

from django.core.cache import cache
from django.db.models import Exists, Max, Min, OuterRef, Q
from django.db.models.fields.json import KT
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from companion import charts
from companion.games import registry
from companion.groups.access import group_zone
from companion.groups.models import Group
from companion.tables.models import Player, Seat, Table

from . import ratings, resumable, same_game, stats

MONTHS = 12
TOP = 5


COLUMNS = (
    "created",
    "played",
    "title",
    "duration_minutes",
    "first_entry",
    "last_entry",
    "won_any",
    "outcome",
)


def plays_of(group: Group, player: Player | None = None, rows: bool = True):
    """The group's finished plays (those `player` sat at): with `rows`, annotated with what the
    figures read of each (values() of COLUMNS picks them)."""
    tables = Table.objects.filter(group=group, status=stats.FINISHED)
    if player is not None:
        tables = tables.filter(pk__in=Seat.objects.filter(player=player).values("table"))
    if not rows:
        return tables
    live = Q(events__undone=False)
    return tables.annotate(
        first_entry=Min("events__created", filter=live),
        last_entry=Max("events__created", filter=live),
        won_any=Exists(Seat.objects.filter(table=OuterRef("pk"), won=True)),
        outcome=KT("options__outcome"),
    )


def figures(
    group: Group, player: Player | None = None, today: dt.date | None = None, stamp: str | None = None
) -> dict:
    """The figures, from the cache while the group's history is unchanged (`stamp`: the
    history's, when the caller has read it already)."""
    today = today or timezone.localdate(timezone=group_zone(group))
    owner = player.pk if player is not None else ""
    history = stamp or ratings.history_stamp(group)
    said = f"{group.pk}:{owner}:{history}:{today}:{group_zone(group).key}:{translation.get_language()}"
    key = "glance:" + hashlib.sha256(said.encode()).hexdigest()
    found = cache.get(key)
    if found is None:
        found = compute(group, player, today, history)
        cache.set(key, found, timeout=ratings.CACHE_SECONDS)
    return found


def compute(group: Group, player: Player | None, today: dt.date, stamp: str) -> dict:
    tally = _tally(group, player, resumable.people_in(stamp))
    twins = same_game.twins(group)
    games, coop_plays, coop_wins, names = Counter(), Counter(), Counter(), {}
    for played, count in tally["games"].items():  # a twin pad's plays count as its engine's game's
        key = twins.key(played)
        games[key] += count
        coop_plays[key] += tally["coop_plays"].get(played, 0)
        coop_wins[key] += tally["coop_wins"].get(played, 0)
        title = tally["titles"].get(played) or key
        names[key] = stats.game_name(key) if key in registry.GAMES else stats.shown_title(title, key, twins)
    years, hours_by_year = tally["years"], tally["minutes_by_year"]  # minutes, summed by year
    return {
        "plays": sum(games.values()),
        "hours": round(sum(hours_by_year.values()) / 60),
        "minutes": sum(hours_by_year.values()),  # said in minutes under an hour: never "0 hours" (issue 43)
        "this_year": years.get(today.year, 0),
        "months_chart": _months_chart(tally["months"], today, player),
        "years": [
            {
                "year": year,
                "plays": years[year],
                "hours": round(hours_by_year.get(year, 0) / 60),
                "minutes": hours_by_year.get(year, 0),
            }
            for year in sorted(years, reverse=True)
        ],
        "most_played": [
            {"key": key, "name": names[key], "plays": count} for key, count in _most(games, names)[:TOP]
        ],
        "coop": _coop_rates(coop_plays, coop_wins, names),
    }


def _tally(group: Group, player: Player | None, people: int) -> dict:
    """The counts the figures are made of, resumed where they got to (resumable.py: a play that
    ends is added to them on its own). A play counts in the month and year it started, in the
    group's zone (issue 42): a New Year's Eve game that ends after midnight is the old year's."""
    zone = group_zone(group)
    figure = f"glance:{player.pk if player is not None else ''}:{zone.key}"
    finished = plays_of(group, player, rows=False)
    progress = resumable.resume(group.pk, figure, finished, people)
    tally = progress.state
    for name in ("games", "coop_plays", "coop_wins", "months", "years", "minutes_by_year"):
        tally[name] = Counter(tally.get(name, {}))
    tally.setdefault("titles", {})
    rows = plays_of(group, player).filter(progress.after()).order_by("finished", "pk")
    for row in rows.values(*COLUMNS, "pk", "finished", "version").iterator(chunk_size=5000):
        progress.went_through(row["pk"], row["finished"], row["version"])
        when = row["created"].astimezone(zone)
        tally["months"][when.year, when.month] += 1
        tally["years"][when.year] += 1
        tally["minutes_by_year"][when.year] += _minutes(row) or 0
        tally["games"][row["played"]] += 1
        if row["title"]:
            tally["titles"][row["played"]] = row["title"]
        if row["outcome"] == "coop":
            tally["coop_plays"][row["played"]] += 1
            tally["coop_wins"][row["played"]] += row["won_any"]
    resumable.keep(group.pk, figure, progress)
    return tally


def _minutes(row: dict) -> int | None:
    if row["duration_minutes"] is not None:
        return row["duration_minutes"]
    if row["first_entry"] is None or row["last_entry"] is None:
        return None
    return round((row["last_entry"] - row["first_entry"]).total_seconds() / 60)


def _months_chart(months: Counter, today: dt.date, player: Player | None) -> dict | None:
    """Twelve months' plays as bars, up to this month, or up to the latest play's month when the
    group has not played for a year (a history brought in from elsewhere)."""
    if not months:
        return None
    latest = max(months)  # (year, month) of the newest play
    year, month = (today.year, today.month) if latest > (today.year - 1, today.month) else latest
    keys = []
    for _step in range(MONTHS):
        keys.append((year, month))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    keys.reverse()
    bars = [
        {
            "label": date_format(dt.date(year, month, 1), "M" if month != 1 else "M Y"),
            "value": months.get((year, month), 0),
        }
        for year, month in keys
    ]
    owner = f"player-{player.pk}" if player is not None else "group"
    return charts.bar_chart(bars, title=_("Plays per month"), chart_id=f"{owner}-months", x_title=_("month"))


def _coop_rates(plays: Counter, wins: Counter, names: dict) -> list[dict]:
    """Per co-op game: plays, wins (the players won together) and the rate, most played first."""
    plays = +plays  # the games with no co-op play left out
    return [
        {
            "key": key,
            "name": names[key],
            "plays": count,
            "wins": wins[key],
            "rate": stats.rate(wins[key], count),
        }
        for key, count in _most(plays, names)
    ]


def _most(counts: Counter, names: dict) -> list[tuple[str, int]]:
    """Most first; a tie by name, so that the same history reads the same everywhere."""
    return sorted(counts.items(), key=lambda item: (-item[1], names[item[0]].casefold()))
