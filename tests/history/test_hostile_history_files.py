"""Issue 42: a BG Stats or BGG file with odd values anywhere is read leniently and never makes a
500, on SQLite and PostgreSQL: what the file said is kept (Table.origin) as both databases can
keep it."""

from __future__ import annotations

import json

import pytest

from companion.groups.models import Group
from companion.history import bgstats_export
from companion.history.history_file import ImportRefused
from companion.history.importers import bgg_file, bgstats_file, writer
from companion.tables.models import Table

pytestmark = pytest.mark.django_db

DEEP: dict = {}
_level = DEEP
for _ in range(60):
    _level["next"] = {}
    _level = _level["next"]


def test_odd_values_anywhere_in_a_bg_stats_file_never_fail_the_import():
    group = Group.objects.create(name="Odd")
    file = {
        "games": [
            {"id": 1, "uuid": "g1", "name": "Catan\u0000", "bggId": "13", "metaData": DEEP},
            {"id": "x" * 500, "uuid": "g2", "name": "Long id"},
            {"id": True, "name": "Boolean id"},
        ],
        "players": [
            {"id": 1, "uuid": "p1", "name": "Ann", "bggUsername": None, "metaData": "\ud800broken"},
            {"id": 2, "name": "Ben"},  # no uuid: a hand-made file
        ],
        "locations": [{"id": 1, "uuid": "l1", "name": ["not", "text"]}],
        "plays": [
            {
                "uuid": "ok", "gameRefId": 1, "playDate": "2024-01-01 20:00:00", "locationRefId": 1,
                "comments": "nul \u0000 here", "durationMin": 30.5, "bggId": -4,
                "expansionPlays": [{"gameRefId": [1]}, "not an object", {"gameRefId": 99}],
                "playerScores": [
                    {"playerRefId": 1, "score": 7, "winner": True, "seatOrder": "1", "metaData": DEEP},
                    {"playerRefId": 2, "score": 3.25, "winner": "yes"},
                ],
            },
            {"uuid": "list-ref", "gameRefId": [1], "playDate": "2024-01-02 20:00:00", "playerScores": []},
            {"uuid": "dict-player", "gameRefId": 1, "playDate": "2024-01-03 20:00:00",
             "playerScores": [{"playerRefId": {"id": 1}, "score": "1"}]},
            "not a play",
        ],
        "userInfo": {"meRefId": [1]},
    }  # fmt: skip
    answer = writer.import_file(group, bgstats_file.read(json.dumps(file).encode()))
    assert answer["plays_added"] == 1
    hidden = "the game's name held characters nobody sees; they were dropped."
    assert answer["warnings"] == [
        "1 score with decimals counts as a whole number in figures (exported as written).",
        f"Play 1: {hidden}",
        "Play 2: its game (id [1]) is not among the file's games: left out.",
        f"Play 3: {hidden}",
        'Play 3 (Catan, 2024-01-03): a player (id {"id": 1}) is not among the file\'s players: left out.',
        "Play 4: it is not a play: left out.",
    ]
    table = Table.objects.get(group=group)
    assert [(seat.player.name, seat.score, seat.won) for seat in table.seats.order_by("position")] == [
        ("Ann", 7, True), ("Ben", 3, False)
    ]  # fmt: skip
    assert table.comments == "nul  here"
    assert table.origin["bgstats"]["comments"] == "nul  here"
    exported = bgstats_export.export(group)
    assert [score["score"] for score in exported["plays"][0]["playerScores"]] == [7, 3.25]


def test_odd_values_in_a_bgg_file_never_fail_the_import():
    group = Group.objects.create(name="Odd BGG")
    xml = (
        b'<plays><play id="1" date="2024-01-01" quantity="" length="x" location="Club&#x0;">'
        b'<item name="Azul" objectid="not-a-number"/><comments>fine</comments>'
        b'<players><player name="Ann" userid="99999999999999" username="a" score="1e400" win="2"/>'
        b'<player name="" username="" score="3"/></players></play></plays>'
    )
    refused = pytest.raises(ImportRefused, bgg_file.read, xml)  # XML itself allows no NUL
    assert refused.value.message.startswith(
        "The file is not valid XML: reference to invalid character number"
    )
    answer = writer.import_file(group, bgg_file.read(xml.replace(b"&#x0;", b"\xc2\xa0")))
    assert (answer["plays_added"], answer["guests"], answer["warnings"]) == (1, 1, [])
    table = Table.objects.get(group=group)
    assert (table.place, table.duration_minutes, table.options["bgg_id"]) == ("Club", None, 0)
    assert [(seat.player.name, seat.score, seat.won) for seat in table.seats.order_by("position")] == [
        ("Ann", None, False), ("Guest", 3, False)
    ]  # fmt: skip
