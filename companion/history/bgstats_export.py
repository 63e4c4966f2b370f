"""A group's finished plays as a BG Stats export file (API.md, "Moving a group's history in and
out"): what BG Stats, or this app on another server, reads back (importers/bgstats_file.py).

A way out that loses nothing that came in (issue 42): a play that came from BG Stats is given back
as the file had it (Table.origin: start player, seat order, team names, roles, colours, first
plays, the play's rating and board, expansions with their BGG ids, its BGG id, decimal scores as
written, ...), with its games, places and people under the uuids BG Stats gave them, so that BG
Stats knows them again; what changed here since (a result, a name, a place, a comment) is what is
written. A play from BoardGameGeek keeps its BGG id, users, colours and first plays. Plays BG Stats
set aside come back as `ignored`. Two games of one name with different BGG ids stay two.

Ids are the file's own (1, 2, ...); uuids stay the same from one export to the next. A play kept
here is "table-companion:<table id>". Dates are the wall-clock time in the group's time zone
(BG Stats keeps naive local times, and reads a file's times as the phone's own: docs/history.md)."""

from __future__ import annotations

import hashlib

from django.utils import timezone

from companion.games import base, registry
from companion.groups.models import Group
from companion.tables.models import Table

from . import night, stats
from .importers import origin as kept_origin
from .importers.records import score_of
from .models import PersonOrigin, SetAsidePlay, ThingOrigin

DATE = "%Y-%m-%d %H:%M:%S"


def export(group: Group) -> dict:
    tables = stats.with_seats_and_length(
        Table.objects.filter(group=group, status=Table.Status.FINISHED).defer("token", "view_token")
    ).order_by("created", "id")
    book = _Book(group)
    plays = [_play(table, book) for table in tables]
    plays += [_set_aside(row, book) for row in SetAsidePlay.objects.filter(group=group).order_by("pk")]
    user = book.things.get(("user", "me"), {})
    me = book.player_by_key(user.get("me", "")) if user.get("me") else 0
    return {
        "games": list(book.games.values()),
        "players": list(book.players.values()),
        "locations": list(book.locations.values()),
        "plays": plays,
        "userInfo": {"meRefId": me, "bggUsername": user.get("bggUsername", "")},
    }


class _Book:
    """The file's games, players and locations, each given an id the first time a play names it,
    under the uuids they came with."""

    def __init__(self, group: Group):
        self.zone = night.zone(group)
        self.games: dict[str, dict] = {}
        self.players: dict[str, dict] = {}
        self.locations: dict[str, dict] = {}
        self.things = {
            (thing.kind, thing.uuid): thing.data for thing in ThingOrigin.objects.filter(group=group)
        }
        # Who each player is in BG Stats (their first uuid there) and on BGG (their username).
        self.bgstats: dict[int, tuple[str, dict]] = {}
        self.bgg: dict[int, dict] = {}
        self.player_of_key: dict[str, int] = {}
        for key, player_id, data in (
            PersonOrigin.objects.filter(group=group).order_by("pk").values_list("key", "player_id", "data")
        ):
            self.player_of_key[key] = player_id
            if key.startswith("bgstats:"):
                self.bgstats.setdefault(player_id, (key.removeprefix("bgstats:"), data or {}))
            elif data:
                self.bgg.setdefault(player_id, data)

    def _add(self, into: dict, key: str, item: dict) -> int:
        if key not in into:
            into[key] = {"id": len(into) + 1, **item}
        return into[key]["id"]

    def game(self, key: str, name: str, facts: base.PlayedGame, expansion: bool = False) -> int:
        return self._add(
            self.games,
            "table-companion:" + key,
            {
                "uuid": "table-companion:" + key,
                "name": name,
                "bggId": facts.bgg_id,
                "highestWins": facts.highest_wins,
                "noPoints": facts.no_points,
                "cooperative": facts.cooperative,
                "usesTeams": facts.teams,
                "isBaseGame": not expansion,
                "isExpansion": expansion,
            },
        )

    def kept_game(self, uuid: str | None) -> int | None:
        """A game BG Stats gave (by its uuid), as it gave it."""
        data = self.things.get(("game", uuid)) if uuid else None
        if data is None:
            return None
        return self._add(self.games, uuid, {**data, "uuid": data.get("uuid", uuid)})

    def player(self, player) -> int:
        if player.guest:
            return self.anonymous()
        if player.pk in self.bgstats:
            uuid, data = self.bgstats[player.pk]
            return self._add(self.players, uuid, {**data, "uuid": uuid, "name": player.name})
        item = {"uuid": f"table-companion:player:{player.pk}", "name": player.name, "isAnonymous": False}
        if player.pk in self.bgg:
            item["bggUsername"] = self.bgg[player.pk].get("bggUsername", "")
        return self._add(self.players, item["uuid"], item)

    def player_by_key(self, key: str, data: dict | None = None, name: str = "") -> int:
        """A person of a file by their key there: the group's player they became, else as the file
        had them (a person who sat only at plays BG Stats set aside)."""
        if key.startswith("guest:"):
            return self.anonymous()
        player_id = self.player_of_key.get(f"bgstats:{key}")
        if player_id is not None and player_id in self.bgstats:
            uuid, kept = self.bgstats[player_id]
            return self._add(self.players, uuid, {**kept, "uuid": uuid})
        uuid = key if not key.startswith("id:") else f"table-companion:person:{key}"
        return self._add(self.players, uuid, {"name": name, **(data or {}), "uuid": uuid})

    def anonymous(self) -> int:
        """BG Stats' one anonymous player, who stands for every guest."""
        kept = next(((uuid, data) for (kind, uuid), data in self.things.items() if kind == "anonymous"), None)
        uuid, data = kept or ("table-companion:anonymous", {"name": "Anonymous player", "isAnonymous": True})
        return self._add(self.players, uuid, {**data, "uuid": uuid})

    def location(self, place: str, uuid: str | None = None) -> int:
        """The play's place: the one BG Stats gave when the place is still its name, else by name."""
        data = self.things.get(("location", uuid)) if uuid else None
        if data is not None and data.get("name") == place:
            return self._add(self.locations, uuid, {**data, "uuid": uuid})
        if not place:
            return 0
        uuid = "table-companion:place:" + hashlib.sha1(place.encode()).hexdigest()[:16]
        return self._add(self.locations, uuid, {"uuid": uuid, "name": place})


def play_uuid(table: Table) -> str:
    if table.source == "bgstats":
        return table.origin_id
    if table.source:
        return f"{table.source}:{table.origin_id}"
    return f"table-companion:{table.id}"


def _play(table: Table, book: _Book) -> dict:
    kept = (table.origin or {}).get("bgstats")
    if kept is not None:
        return _kept_play(table, kept, book)
    return _made_play(table, book)


def _local(table: Table, book: _Book):
    return timezone.localtime(getattr(table, "first_entry", None) or table.created, book.zone)


def _kept_play(table: Table, kept: dict, book: _Book) -> dict:
    """A play from BG Stats as it came, with what changed here since."""
    seats = {seat.position: seat for seat in table.seats.all()}
    started = _local(table, book)
    game = book.kept_game(kept.get("gameRefId"))
    if game is None:
        game = book.game(
            table.played, table.game_name, base.played_game(registry.get(table.game), table.options)
        )
    play = {key: value for key, value in kept.items() if key != "playerScores"}
    play.update(
        {
            "uuid": play_uuid(table) if table.source == "bgstats" else kept.get("uuid", play_uuid(table)),
            "gameRefId": game,
            "locationRefId": book.location(table.place, kept.get("locationRefId")),
            "playDate": started.strftime(DATE),
            "playDateYmd": int(started.strftime("%Y%m%d")),
            "durationMin": table.duration_minutes or 0,
            "comments": table.comments,
            "ignored": False,
            "expansionPlays": [
                {**item, "gameRefId": book.kept_game(item.get("gameRefId"))}
                for item in kept.get("expansionPlays", [])
                if book.kept_game(item.get("gameRefId")) is not None
            ],
            "playerScores": [
                _kept_score(score, seats[score[kept_origin.SEAT]], book)
                for score in kept.get("playerScores", [])
                if score.get(kept_origin.SEAT) in seats
            ],
        }
    )
    if table.bgg_play_id:
        play["bggId"] = table.bgg_play_id
    return play


def _kept_score(score: dict, seat, book: _Book) -> dict:
    written = score.get("score")
    unchanged = score_of(written)[0] == seat.score  # a decimal ("8.5") is given back as written
    return {
        **{key: value for key, value in score.items() if key != kept_origin.SEAT},
        "playerRefId": book.player(seat.player),
        "score": written if unchanged else ("" if seat.score is None else str(seat.score)),
        "winner": seat.won,
    }


def _made_play(table: Table, book: _Book) -> dict:
    """A play kept here, or from BoardGameGeek, in BG Stats' words."""
    engine = registry.get(table.game)
    facts = base.played_game(engine, table.options)
    seats = list(table.seats.all())
    ranks = stats.seat_ranks(table, seats)
    team_of = {seat: n for n, team in enumerate(table.options.get("teams") or [], 1) for seat in team}
    roles = table.options.get("roles") or {}
    started = _local(table, book)
    bgg = (table.origin or {}).get("bgg") or {}
    rows = {row.get(kept_origin.SEAT): row for row in bgg.get("players", [])}
    key = table.played if not facts.bgg_id else f"{table.played}:{facts.bgg_id}"
    expansions = [
        {
            "gameRefId": book.game("expansion:" + name.casefold(), name, base.PlayedGame(), expansion=True),
            "bggId": 0,
        }
        for name in table.options.get("expansions") or []
    ]
    play = {
        "uuid": play_uuid(table),
        "gameRefId": book.game(key, table.game_name, facts),
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
                **_bgg_seat(rows.get(seat.position)),
            }
            for seat, rank in zip(seats, ranks, strict=True)
        ],
    }
    if table.bgg_play_id:
        play["bggId"] = table.bgg_play_id
    return play


def _bgg_seat(row: dict | None) -> dict:
    """What BGG said of a seat, in BG Stats' words: colour and first play."""
    if row is None:
        return {}
    return {"color": row.get("color", ""), "newPlayer": row.get("new") == "1"}


def _set_aside(row: SetAsidePlay, book: _Book) -> dict:
    """A play BG Stats set aside, given back as it came, still `ignored`."""
    kept = row.data.get("bgstats") or {}
    people = row.data.get("people", {})
    play = {key: value for key, value in kept.items() if key != "playerScores"}
    play["gameRefId"] = book.kept_game(kept.get("gameRefId")) or 0
    place = book.things.get(("location", kept.get("locationRefId")), {}).get("name", "")
    play["locationRefId"] = book.location(place, kept.get("locationRefId"))
    play["expansionPlays"] = [
        {**item, "gameRefId": book.kept_game(item.get("gameRefId"))}
        for item in kept.get("expansionPlays", [])
        if book.kept_game(item.get("gameRefId")) is not None
    ]
    play["playerScores"] = [
        {
            **{key: value for key, value in score.items() if key != kept_origin.SEAT},
            "playerRefId": book.player_by_key(
                score["playerRefId"],
                (people.get(score["playerRefId"]) or {}).get("data"),
                (people.get(score["playerRefId"]) or {}).get("name", ""),
            ),
        }
        for score in kept.get("playerScores", [])
    ]
    play["ignored"] = True
    return play
