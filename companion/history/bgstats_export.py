"""A group's finished plays as a BG Stats export file (API.md, "Moving a group's history in and
out"): what BG Stats, or this app on another server, reads back (importers/bgstats_file.py).

Ids are the file's own (1, 2, ...); uuids stay the same from one export to the next, so that a
play exported twice is imported once: a play that came from BG Stats keeps its own uuid, a play
kept here is "table-companion:<table id>". Dates are the time of day where the group plays
(BG Stats keeps local times)."""

from __future__ import annotations

import hashlib

from django.utils import timezone

from companion.games import base, registry
from companion.groups.models import Group
from companion.tables.models import Table

from . import stats

DATE = "%Y-%m-%d %H:%M:%S"


def export(group: Group) -> dict:
    tables = stats.with_seats_and_length(
        Table.objects.filter(group=group, status=Table.Status.FINISHED).defer("token", "view_token")
    ).order_by("finished", "id")
    book = _Book()
    plays = [_play(table, book) for table in tables]
    return {
        "games": list(book.games.values()),
        "players": list(book.players.values()),
        "locations": list(book.locations.values()),
        "plays": plays,
        "userInfo": {"meRefId": 0, "bggUsername": ""},
    }


class _Book:
    """The file's games, players and locations, each given an id the first time a play names it."""

    def __init__(self):
        self.games: dict[str, dict] = {}
        self.players: dict[int, dict] = {}
        self.locations: dict[str, dict] = {}

    def game(self, key: str, name: str, facts: base.PlayedGame, expansion: bool = False) -> int:
        if key not in self.games:
            self.games[key] = {
                "id": len(self.games) + 1,
                "uuid": "table-companion:" + key,
                "name": name,
                "bggId": facts.bgg_id,
                "highestWins": facts.highest_wins,
                "noPoints": facts.no_points,
                "cooperative": facts.cooperative,
                "usesTeams": facts.teams,
                "isBaseGame": not expansion,
                "isExpansion": expansion,
            }
        return self.games[key]["id"]

    def player(self, player) -> int:
        if player.pk not in self.players:
            uuid = f"table-companion:player:{player.pk}"
            self.players[player.pk] = {
                "id": len(self.players) + 1,
                "uuid": uuid,
                "name": player.name,
                "isAnonymous": False,
            }
        return self.players[player.pk]["id"]

    def location(self, place: str) -> int:
        if not place:
            return 0
        if place not in self.locations:
            uuid = "table-companion:place:" + hashlib.sha1(place.encode()).hexdigest()[:16]
            self.locations[place] = {"id": len(self.locations) + 1, "uuid": uuid, "name": place}
        return self.locations[place]["id"]


def play_uuid(table: Table) -> str:
    if table.source == "bgstats":
        return table.origin_id
    if table.source:
        return f"{table.source}:{table.origin_id}"
    return f"table-companion:{table.id}"


def _play(table: Table, book: _Book) -> dict:
    engine = registry.get(table.game)
    facts = base.played_game(engine, table.options)
    seats = list(table.seats.all())
    ranks = stats.seat_ranks(table, seats)
    team_of = {seat: n for n, team in enumerate(table.options.get("teams") or [], 1) for seat in team}
    roles = table.options.get("roles") or {}
    started = timezone.localtime(table.first_entry or table.created)
    expansions = [
        {
            "gameRefId": book.game("expansion:" + name.casefold(), name, base.PlayedGame(), expansion=True),
            "bggId": 0,
        }
        for name in table.options.get("expansions") or []
    ]
    return {
        "uuid": play_uuid(table),
        "gameRefId": book.game(table.played, table.game_name, facts),
        "playDate": started.strftime(DATE),
        "playDateYmd": int(started.strftime("%Y%m%d")),
        "durationMin": stats.length_minutes(table) or 0,
        "locationRefId": book.location(table.place),
        "comments": table.comments,
        "ignored": False,
        "manualWinner": False,
        "usesTeams": bool(team_of),
        "expansionPlays": expansions,
        "playerScores": [
            {
                "playerRefId": book.player(seat.player),
                "score": "" if seat.score is None else str(seat.score),
                "winner": seat.won,
                "rank": rank or 0,
                "seatOrder": seat.position + 1,
                "startPlayer": seat.position == 0,
                "team": str(team_of[seat.position]) if seat.position in team_of else "",
                "role": roles.get(str(seat.position), ""),
            }
            for seat, rank in zip(seats, ranks, strict=True)
        ],
    }
