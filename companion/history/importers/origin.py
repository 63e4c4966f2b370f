"""What an imported play's file said beyond the history's columns (issue 42), kept in
Table.origin so that the BG Stats export gives it back and a round trip loses nothing:

    {"bgstats": <the play object, its references to the file's games, places and people replaced by
                 their keys (uuids), each player score told its seat>}
    {"bgg": {"play": <the <play> attributes>, "item": <the <item> attributes>,
             "players": [<each <player>'s attributes, told its seat and person>]}}

The file's own integer ids mean nothing outside the file: they are left out."""

from __future__ import annotations

SEAT = "_seat"  # the seat (history's position) a player score or <player> is
PERSON = "_person"  # the person (records.Person.key) a <player> is


def without_id(item: dict) -> dict:
    return {key: value for key, value in item.items() if key != "id"}


def bgstats_play(play: dict, scores: list[dict], games: dict, locations: dict, key_of) -> dict:
    kept = {name: value for name, value in play.items() if name not in ("playerScores",)}
    game = games.get(play.get("gameRefId"))
    kept["gameRefId"] = key_of(game) if game else None
    place = locations.get(play.get("locationRefId"))
    kept["locationRefId"] = key_of(place) if place else None
    kept["expansionPlays"] = [
        {**item, "gameRefId": key_of(games[item.get("gameRefId")])}
        for item in play.get("expansionPlays") or []
        if isinstance(item, dict) and item.get("gameRefId") in games
    ]
    kept["playerScores"] = scores
    return kept


def bgg_play(play: dict, item: dict, players: list[dict], comments: str | None) -> dict:
    return {"bgg": {"play": play, "item": item, "players": players, "comments": comments}}
