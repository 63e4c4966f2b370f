"""What an imported play's file said beyond the history's columns (issue 42), kept in
Table.origin so that the BG Stats export gives it back and a round trip loses nothing:

    {"bgstats": <the play object, its references to the file's games, places and people replaced by
                 their keys (uuids), each player score told its seat>}
    {"bgg": {"play": <the <play> attributes>, "item": <the <item> attributes>,
             "players": [<each <player>'s attributes, told its seat and person>]}}

The file's own integer ids mean nothing outside the file: they are left out."""

from __future__ import annotations

from companion.tables.services import UNSTORABLE

DEPTH_MAX = 20  # a file's objects are a few levels deep; deeper is dropped, not stored

SEAT = "_seat"  # the seat (history's position) a player score or <player> is
PERSON = "_person"  # the person (records.Person.key) a <player> is


def without_id(item: dict) -> dict:
    return storable({key: value for key, value in item.items() if key != "id"})


def storable(value, depth: int = 0):
    """A file's JSON as both databases keep it: text without NUL characters or broken Unicode
    (PostgreSQL refuses them, a 500 after the import had started), no deeper than DEPTH_MAX."""
    if isinstance(value, str):
        return UNSTORABLE.sub("", value) if UNSTORABLE.search(value) else value
    if depth >= DEPTH_MAX and isinstance(value, (dict, list)):
        return None
    if isinstance(value, dict):
        return {storable(str(key)): storable(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [storable(item, depth + 1) for item in value]
    return value


def bgstats_play(play: dict, scores: list[dict], games: dict, locations: dict, key_of) -> dict:
    kept = {name: value for name, value in play.items() if name not in ("playerScores",)}
    game = lookup(games, play.get("gameRefId"))
    kept["gameRefId"] = key_of(game) if game else None
    place = lookup(locations, play.get("locationRefId"))
    kept["locationRefId"] = key_of(place) if place else None
    expansions = play.get("expansionPlays")
    kept["expansionPlays"] = [
        {**item, "gameRefId": key_of(lookup(games, item.get("gameRefId")))}
        for item in (expansions if isinstance(expansions, list) else [])
        if isinstance(item, dict) and lookup(games, item.get("gameRefId")) is not None
    ]
    kept["playerScores"] = scores
    return storable(kept)


def lookup(items: dict, ref):
    """The file's object a reference names; None for a reference that is no id (a list, an
    object: no key of a dict)."""
    if isinstance(ref, bool) or not isinstance(ref, (int, str)):
        return None
    return items.get(ref)


def bgg_play(play: dict, item: dict, players: list[dict], comments: str | None) -> dict:
    return storable({"bgg": {"play": play, "item": item, "players": players, "comments": comments}})
