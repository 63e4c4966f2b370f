"""Issue 42, finding 6: a BG Stats file -> import -> export is the same file on every field
shared/HISTORY_FORMATS.md lists, compared object by object under their uuids.

Not kept, on purpose: the file's integer ids (they mean nothing outside one file: every reference
is compared through the uuid it points at); a backup's `tags`, `groups`, `challenges` and
`deletedObjects` (not the group's history); games, people and places no play names (the history
is plays); `playDateYmd` is written from the play's date (the same here)."""

from __future__ import annotations

import json

import pytest

from companion.groups.models import Group
from companion.history import bgstats_export
from companion.history.importers import bgstats_file, writer

pytestmark = pytest.mark.django_db

META = json.dumps({"note": "kept as text"})


def game(id_, uuid, name, bgg, **more):
    return {
        "id": id_, "uuid": uuid, "name": name, "bggId": bgg, "bggName": name, "bggYear": 2010,
        "highestWins": True, "noPoints": False, "cooperative": False, "usesTeams": False,
        "isBaseGame": True, "isExpansion": False, "minPlayerCount": 2, "maxPlayerCount": 5,
        "minPlayTime": 30, "maxPlayTime": 60, "urlThumb": f"https://cf.geekdo-images.com/{uuid}_t.jpg",
        "urlImage": f"https://cf.geekdo-images.com/{uuid}.jpg", "designers": "Someone", "rating": 8,
        "copies": [{"uuid": f"copy-{uuid}", "statusOwned": True}], "tags": [], "metaData": META,
        "modificationDate": "2024-01-01 10:00:00", **more,
    }  # fmt: skip


def person(id_, uuid, name, bgg="", anonymous=False):
    return {"id": id_, "uuid": uuid, "name": name, "isAnonymous": anonymous, "bggUsername": bgg,
            "metaData": META, "modificationDate": "2024-01-02 10:00:00"}  # fmt: skip


def score(player, points, winner, seat, **more):
    return {
        "playerRefId": player, "score": points, "winner": winner, "rank": 0, "seatOrder": seat,
        "startPlayer": False, "newPlayer": False, "team": "", "role": "", "teamRole": "",
        "startPosition": seat, "color": "", **more,
    }  # fmt: skip


def play(uuid, game_ref, date, scores, **more):
    return {
        "uuid": uuid, "gameRefId": game_ref, "locationRefId": 31, "playDate": date,
        "playDateYmd": int(date[:10].replace("-", "")), "entryDate": "2024-05-01 23:00:00",
        "durationMin": 75, "ignored": False, "manualWinner": False, "usesTeams": False,
        "scoringSetting": 0, "rounds": 0, "board": "", "rating": 0, "comments": "",
        "playImages": "[]", "expansionPlays": [], "playerScores": scores, "bggId": 0,
        "nemestatsId": 0, "importPlayId": 0, "metaData": META, "modificationDate": "2024-05-02 09:00:00",
        **more,
    }  # fmt: skip


FILE = {
    "games": [
        game(1, "g-brass", "Brass", 28720, highestWins=True),
        game(2, "g-brass-b", "Brass", 224517, bggName="Brass: Birmingham", bggYear=2018),  # one name, two games
        game(3, "g-6nimmt", "6 nimmt!", 432, highestWins=False),
        game(4, "g-hanabi", "Hanabi", 98778, cooperative=True, noPoints=True),
        game(5, "g-codenames", "Codenames", 178900, noPoints=True, usesTeams=True),
        game(6, "g-exp", "Brass: Extra", 99999, isBaseGame=False, isExpansion=True),
    ],
    "players": [
        person(11, "p-ann", "Ann", "ann_b"),
        person(12, "p-ben", "Ben"),
        person(13, "p-cleo", "Cleo"),
        person(14, "p-dev", "Dev"),
        person(15, "p-anon", "Anonymous player", anonymous=True),
    ],
    "locations": [{"id": 31, "uuid": "l-home", "name": "Ann's place", "modificationDate": "2024-01-01 10:00:00"}],
    "plays": [
        play(
            "play-brass", 1, "2024-05-01 20:15:00",
            [
                score(12, "89.5", False, 1, color="red", newPlayer=True),
                score(11, "102", True, 2, startPlayer=True, color="purple"),
                score(15, "", False, 3),
            ],
            board="Lancashire", rating=9, comments="Close one", bggId=81234567,
            expansionPlays=[{"gameRefId": 6, "bggId": 99999}], manualWinner=True, rounds=2,
        ),
        play("play-brass-b", 2, "2024-05-08 20:00:00", [score(11, "150", True, 1), score(13, "140", False, 2)]),
        play("play-6nimmt", 3, "2024-05-09 21:00:00", [score(13, "12", True, 1, rank=1), score(14, "60", False, 2, rank=2)]),
        play("play-hanabi", 4, "2024-05-10 19:30:00", [score(11, "", True, 1), score(12, "", True, 2)]),
        play(
            "play-codenames", 5, "2024-05-11 22:00:00",
            [
                score(11, "", True, 1, team="Red", role="Spymaster", teamRole="captain"),
                score(12, "", False, 2, team="Blue", role="Spymaster / Guesser"),
                score(13, "", True, 3, team="Red"),
                score(14, "", False, 4, team="Blue"),
            ],
            usesTeams=True,
        ),
        play("play-ignored", 1, "2024-05-12 20:00:00", [score(11, "3", False, 1), score(14, "5", True, 2)], ignored=True),
    ],
    "userInfo": {"meRefId": 11, "bggUsername": "ann_b"},
    "tags": [{"id": 1, "name": "not the history"}],
}  # fmt: skip


def by_uuid(items: list[dict]) -> dict[str, dict]:
    return {item["uuid"]: item for item in items}


def resolved(file: dict) -> dict:
    """The file's plays with every reference replaced by the uuid it points at, ids left out."""
    games = {item["id"]: item["uuid"] for item in file["games"]}
    players = {item["id"]: item["uuid"] for item in file["players"]}
    places = {item["id"]: item["uuid"] for item in file["locations"]}
    plays = {}
    for item in file["plays"]:
        plays[item["uuid"]] = {
            **item,
            "gameRefId": games[item["gameRefId"]],
            "locationRefId": places.get(item["locationRefId"]),
            "expansionPlays": [{**x, "gameRefId": games[x["gameRefId"]]} for x in item["expansionPlays"]],
            "playerScores": [{**s, "playerRefId": players[s["playerRefId"]]} for s in item["playerScores"]],
        }
    return plays


def without_id(item: dict) -> dict:
    return {key: value for key, value in item.items() if key != "id"}


def test_a_bg_stats_file_comes_back_out_as_it_came_in():
    group = Group.objects.create(name="Round trip", time_zone="Europe/Berlin")
    answer = writer.import_file(group, bgstats_file.read(json.dumps(FILE).encode()))
    assert (answer["plays_added"], answer["plays_set_aside"], answer["guests"]) == (5, 1, 1)
    out = json.loads(json.dumps(bgstats_export.export(group)))  # as the file is written

    assert resolved(out) == resolved(FILE)  # every play, every field, every player score
    assert {uuid: without_id(item) for uuid, item in by_uuid(out["games"]).items()} == {
        uuid: without_id(item) for uuid, item in by_uuid(FILE["games"]).items()
    }
    assert {uuid: without_id(item) for uuid, item in by_uuid(out["players"]).items()} == {
        uuid: without_id(item) for uuid, item in by_uuid(FILE["players"]).items()
    }
    assert [without_id(item) for item in out["locations"]] == [without_id(FILE["locations"][0])]
    me = next(item["uuid"] for item in out["players"] if item["id"] == out["userInfo"]["meRefId"])
    assert (me, out["userInfo"]["bggUsername"]) == ("p-ann", "ann_b")
    assert "tags" not in out  # a backup's tags are not the group's history

    # And read back into another group: the same plays, people and results.
    again = Group.objects.create(name="Again", time_zone="Europe/Berlin")
    back = writer.import_file(again, bgstats_file.read(json.dumps(out).encode()))
    assert (back["plays_added"], back["plays_set_aside"], back["warnings"]) == (
        5,
        1,
        ["1 score with decimals counts as a whole number in figures (exported as written).",
         "1 play BG Stats leaves out of statistics is kept, out of every figure here too."],
    )  # fmt: skip
    assert resolved(json.loads(json.dumps(bgstats_export.export(again)))) == resolved(FILE)


def test_what_changed_here_is_what_the_export_writes():
    group = Group.objects.create(name="Edited", time_zone="Europe/Berlin")
    writer.import_file(group, bgstats_file.read(json.dumps(FILE).encode()))
    from companion.tables.models import Player, Seat, Table

    Player.objects.filter(group=group, name="Ben").update(name="Benjamin")
    brass = Table.objects.get(group=group, origin_id="play-brass")
    Table.objects.filter(pk=brass.pk).update(comments="Closer than we thought", place="The club")
    Seat.objects.filter(table=brass, position=0).update(score=91)
    out = bgstats_export.export(group)
    played = next(item for item in out["plays"] if item["uuid"] == "play-brass")
    ben = next(item for item in out["players"] if item["uuid"] == "p-ben")
    assert ben["name"] == "Benjamin"
    assert [s["score"] for s in played["playerScores"]] == ["91", "102", ""]  # 89.5 was changed here
    place = next(item for item in out["locations"] if item["id"] == played["locationRefId"])
    assert (played["comments"], place["name"]) == ("Closer than we thought", "The club")
