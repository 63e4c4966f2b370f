"""Ratings beyond wins and averages (issue 16): an OpenSkill rating per player and game, from the
Plackett-Luce model (multiplayer, ties; open, unlike the patented TrueSkill), run over the game's
finished plays in the order they finished.

A team game rates team against team (OpenSkill rates a team as its players together); a game
without points ranks its winners first and the others after them; a co-op play changes no rating
(the players won or lost together, against the game, not each other).

Computed from the plays, and kept in the cache under a stamp of the history (its finished plays,
their versions, the players): an undo back into progress, an abandon, an import or a merge of two
players changes the stamp, so the ratings are computed again with nothing stored to go stale. The
model's work grows with the plays (~0.2 ms a play), once per change of the history."""

from __future__ import annotations

import functools
import hashlib
import operator
from dataclasses import dataclass
from typing import NamedTuple

from django.core.cache import cache
from django.db.models import Count, Max, Q, Sum
from openskill.models import PlackettLuce

from companion.games import base, registry
from companion.groups.models import Group
from companion.tables.models import Player, Seat, Table

from . import results, resumable, same_game, stats

CACHE_SECONDS = 24 * 60 * 60  # a stamp that no longer matches is never read again: let it expire
NEW_PLAYS = 5  # fewer plays than this: the games have not said enough to rate a player yet


@dataclass(frozen=True)
class Rated:
    player: Player
    mu: float  # the skill the model believes
    sigma: float  # how unsure it is: wide at first, narrowing with every play
    plays: int
    wins: int

    @property
    def rating(self) -> float:
        """The skill the model is nearly sure of (mu - 3 sigma, OpenSkill's ordinal, as API.md's
        `rating`): the leaderboard's order."""
        return ordinal(self.mu, self.sigma)

    @property
    def new(self) -> bool:
        """Too few plays to say: the pages say "new". A rating below 0 after more plays is shown
        as the number it is, with the pages' plain words on why ratings start low (issue 42)."""
        return self.plays < NEW_PLAYS


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def game_ratings(group: Group, key: str, stamp: str | None = None) -> list[Rated]:
    """Every player of the group's game `key` (a history key), best rating first."""
    return boards(group, [key], stamp)[key]


def boards(group: Group, keys: list[str], stamp: str | None = None) -> dict[str, list[Rated]]:
    """The group's leaderboard of each game of `keys`: from the cache while its history is
    unchanged (three queries: the stamp's two and the players), else from one pass over their
    plays (two more). `stamp`: the history's, when the caller has read it already."""
    stamp = stamp or history_stamp(group)
    names = {
        key: f"ratings:{hashlib.sha256(f'{group.pk}:{stamp}:{key}'.encode()).hexdigest()}" for key in keys
    }
    kept = cache.get_many(list(names.values()))
    missing = [key for key in keys if names[key] not in kept]
    people = resumable.people_in(stamp)
    computed = _compute(group, missing, same_game.twins(group), people) if missing else {}
    cache.set_many({names[key]: rows for key, rows in computed.items()}, timeout=CACHE_SECONDS)
    rows = {key: kept.get(names[key], computed.get(key)) for key in keys}
    people = Player.objects.in_bulk({pid for board in rows.values() for pid, *_ in board})
    # A guest moved the ratings of those they played with, but is no ranked player (issue 42).
    return {
        key: [Rated(people[pid], *rest) for pid, *rest in board if pid in people and not people[pid].guest]
        for key, board in rows.items()
    }


def history_stamp(group: Group) -> str:
    """What the group's ratings depend on: its finished plays (how many, their versions, the
    latest finish) and its number of players (a merge removes one)."""
    facts = Table.objects.filter(group=group, status=stats.FINISHED).aggregate(
        plays=Count("pk"), versions=Sum("version"), latest=Max("finished")
    )
    people = Player.objects.filter(group=group).count()
    return f"{facts['plays']}|{facts['versions']}|{facts['latest']}|{people}"


class _Play(NamedTuple):
    """What rating reads of a play (rows, not models: 100,000 plays build no model objects)."""

    pk: str
    game: str
    played: str
    options: dict
    source: str


class _Seat(NamedTuple):
    player_id: int
    position: int
    score: int | None
    won: bool


def _compute(group: Group, keys: list[str], twins: same_game.Twins, people: int) -> dict[str, list[tuple]]:
    """Each game's board as (player id, mu, sigma, plays, wins) rows, best rating first; a twin
    pad's plays (same_game.py) rate with its engine's game. Each game resumes where its ratings
    got to while its earlier plays are unchanged (resumable.py): only later plays are read."""
    finished = Table.objects.filter(group=group, status=stats.FINISHED)
    owner = {played: key for key in keys for played in twins.keys(key)}  # Table.played -> its board
    progress = {
        key: resumable.resume(group.pk, f"ratings:{key}", finished.filter(played__in=twins.keys(key)), people)
        for key in keys
    }
    later = (Q(played__in=twins.keys(key)) & progress[key].after() for key in keys)
    unread = finished.filter(functools.reduce(operator.or_, later))
    seated: dict[str, list[_Seat]] = {}
    for table_id, *seat in (
        Seat.objects.filter(table__in=unread.values("pk"))
        .order_by("position")
        .values_list("table_id", *_Seat._fields)
        .iterator(chunk_size=5000)
    ):
        seated.setdefault(table_id, []).append(_Seat(*seat))
    model = PlackettLuce()
    ratings: dict[str, dict] = {}  # game -> player -> the model's rating
    counts: dict[str, dict] = {}  # game -> player -> [plays, wins]
    for key in keys:
        kept = progress[key].state
        ratings[key] = {
            pid: model.rating(mu=mu, sigma=sigma) for pid, (mu, sigma) in kept.get("ratings", {}).items()
        }
        counts[key] = kept.setdefault("counts", {})
    rows = unread.order_by("finished", "pk").values_list(*_Play._fields, "finished", "version")
    for *play, finished_at, version in rows.iterator(chunk_size=5000):
        table = _Play(*play)
        key = owner[table.played]
        progress[key].went_through(table.pk, finished_at, version)
        ranked = rating_sides(table, seated.get(table.pk, []))
        if ranked is None:  # a solo or co-op play, or a seat without a score: no ranking
            continue
        sides, ranks = ranked
        game = ratings[key]
        teams = [[game.get(seat.player_id) or model.rating() for seat in side] for side in sides]
        for side, rated in zip(sides, model.rate(teams, ranks=ranks), strict=True):
            for seat, rating in zip(side, rated, strict=True):
                game[seat.player_id] = rating
                tally = counts[key].setdefault(seat.player_id, [0, 0])
                tally[0] += 1
                tally[1] += seat.won
    for key in keys:
        progress[key].state["ratings"] = {pid: (r.mu, r.sigma) for pid, r in ratings[key].items()}
        resumable.keep(group.pk, f"ratings:{key}", progress[key])
    names = dict(Player.objects.filter(group=group).values_list("pk", "name"))
    return {
        key: sorted(
            ((pid, r.mu, r.sigma, *counts[key][pid]) for pid, r in game.items()),
            key=lambda row: (-ordinal(row[1], row[2]), names[row[0]].lower()),
        )
        for key, game in ratings.items()
    }


def rating_sides(table: Table | _Play, seated: list) -> tuple[list[list], list[int]] | None:
    """What a play says about skill: its sides (teams, or each seat alone) and their ranks, or
    None when it says nothing (one side, a co-op play, a score missing in a game of points)."""
    facts = base.played_game(registry.get(table.game), table.options)
    if facts.cooperative:
        return None
    teams = table.options.get("teams") or [] if facts.teams else []
    by_position = {seat.position: seat for seat in seated}
    sides = [[by_position[p] for p in team if p in by_position] for team in teams] or [
        [seat] for seat in seated
    ]
    sides = [side for side in sides if side]
    if len(sides) < 2:
        return None
    won = [any(seat.won for seat in side) for side in sides]
    if facts.no_points:  # the winners first, everyone else after them
        return sides, [1 if win else 2 for win in won]
    # An imported team's members each hold the team's score: it counts once (results.side_score).
    totals = [results.side_score([seat.score for seat in side], bool(table.source)) for side in sides]
    ranks = stats.competition_ranks(totals, won, facts.highest_wins)
    return (sides, ranks) if None not in ranks else None


def player_ratings(
    group: Group, player: Player, keys: list[str], stamp: str | None = None
) -> dict[str, dict]:
    """Per game of `keys`: the player's rating and place among that game's players."""
    found = {}
    for key, board in boards(group, keys, stamp).items():
        for place, one in enumerate(board, 1):
            if one.player.pk == player.pk:
                found[key] = {"rated": one, "place": place, "of": len(board)}
    return found
