"""A group's past from BG Stats and BoardGameGeek (issue 29): the files of tests/history/import_files.py
imported with exact outcomes, a second import adding nothing, names mapped, every refusal."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from companion.groups.models import Group
from companion.history import stats
from companion.history.history_file import ImportRefused
from companion.history.importers import bgg_file, bgstats_file, writer
from companion.tables.models import Player, Table

from .import_files import BGG, GAMES, PLAYERS, PLAYS, bgstats, score

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Group:
    return Group.objects.create(name="Thursday club")


def totals(group: Group) -> dict[str, tuple[int, int]]:
    return {
        player.name: (stats.player_totals(player).plays, stats.player_totals(player).wins)
        for player in Player.objects.filter(group=group)
    }


def imported(group: Group, origin: str) -> Table:
    return Table.objects.get(group=group, origin_id=origin)


def test_a_bg_stats_export_comes_in_with_every_case(club):
    answer = writer.import_file(club, bgstats_file.read(bgstats()))
    assert answer == {
        "plays_added": 5,
        "plays_skipped": 0,
        "players_added": 5,
        "players_matched": 0,
        "games": 3,
        "names": [
            {"name": "Ann", "player": "Ann", "new": True},
            {"name": "Ben", "player": "Ben", "new": True},
            {"name": "Anonymous", "player": "Anonymous", "new": True},
            {"name": "Cleo", "player": "Cleo", "new": True},
            {"name": "Dan", "player": "Dan", "new": True},
        ],
        "warnings": [
            "1 play marked to leave out of statistics in BG Stats was left out.",
            "1 score with decimals was rounded to a whole number.",
        ],
    }
    assert totals(club) == {"Ann": (5, 4), "Ben": (4, 2), "Cleo": (3, 1), "Dan": (1, 0), "Anonymous": (1, 0)}
    catan = imported(club, "play-1")
    assert (catan.source, catan.game, catan.title, catan.played) == (
        "bgstats",
        "any-game",
        "Catan",
        "any-game:catan",
    )
    assert timezone.localtime(catan.created).replace(tzinfo=None) == dt.datetime(2024, 3, 1, 20, 15)
    assert catan.finished - catan.created == dt.timedelta(minutes=75) and catan.duration_minutes == 75
    assert (catan.place, catan.comments, catan.options["bgg_id"]) == (
        "Ann's place",
        "First game of the year",
        13,
    )
    seats = [(seat.player.name, seat.score, seat.won) for seat in catan.seats.order_by("position")]
    assert seats == [("Ann", 10, True), ("Ben", 9, False), ("Anonymous", None, False)]
    won, lost = imported(club, "play-2"), imported(club, "play-3")
    assert won.options["outcome"] == "coop" and won.options["expansions"] == ["Pandemic: On the Brink"]
    assert [seat.won for seat in won.seats.all()] == [True, True] and not any(s.won for s in lost.seats.all())
    codenames = imported(club, "play-4")
    assert codenames.options["outcome"] == "win_loss" and codenames.options["teams"] == [[0, 2], [1, 3]]
    assert codenames.options["roles"] == {"0": "Spymaster", "3": "Spymaster"}
    assert codenames.snapshot["winners"] == [0, 2] and codenames.snapshot["end_reason"] == "recorded"
    tie = imported(club, "play-5")
    assert [(seat.score, seat.won) for seat in tie.seats.order_by("position")] == [
        (9, True),
        (9, True),
        (None, False),
    ]
    assert not Table.objects.filter(origin_id="play-6").exists()  # ignored in BG Stats


def test_the_same_file_twice_adds_nothing(club):
    writer.import_file(club, bgstats_file.read(bgstats()))
    again = writer.import_file(club, bgstats_file.read(bgstats()))
    assert again["plays_added"] == 0 and again["plays_skipped"] == 5
    assert again["players_added"] == 0 and again["players_matched"] == 0  # nothing new to seat
    assert Table.objects.filter(group=club).count() == 5 and Player.objects.filter(group=club).count() == 5
    one_more = {**PLAYS[0], "uuid": "play-7", "playDate": "2024-07-01 20:00:00"}
    grown = writer.import_file(club, bgstats_file.read(bgstats(plays=[*PLAYS, one_more])))
    assert (grown["plays_added"], grown["plays_skipped"], grown["players_matched"]) == (1, 5, 3)


def test_names_match_the_groups_players_ignoring_case_unless_the_member_says_otherwise(club):
    Player.objects.create(group=club, name="ann")
    Player.objects.create(group=club, name="Benjamin")
    answer = writer.import_file(club, bgstats_file.read(bgstats()), {"Ben": "Benjamin", "Anonymous": "Guest"})
    assert answer["names"][:3] == [
        {"name": "Ann", "player": "ann", "new": False},
        {"name": "Ben", "player": "Benjamin", "new": False},
        {"name": "Anonymous", "player": "Guest", "new": True},
    ]
    assert (answer["players_added"], answer["players_matched"]) == (3, 2)
    assert sorted(Player.objects.filter(group=club).values_list("name", flat=True)) == [
        "Benjamin", "Cleo", "Dan", "Guest", "ann"
    ]  # fmt: skip
    assert totals(club)["Benjamin"] == (4, 2)


def test_a_dry_run_says_what_would_come_in_and_writes_nothing(club):
    answer = writer.import_file(club, bgstats_file.read(bgstats()), dry_run=True)
    assert answer["plays_added"] == 5 and answer["players_added"] == 5
    assert not Table.objects.exists() and not Player.objects.exists()


def test_a_boardgamegeek_file_comes_in_with_every_case(club):
    answer = writer.import_file(club, bgg_file.read(BGG))
    assert answer == {
        "plays_added": 3,
        "plays_skipped": 0,
        "players_added": 2,
        "players_matched": 0,
        "games": 2,
        "names": [
            {"name": "Ann", "player": "Ann", "new": True},
            {"name": "Ben", "player": "Ben", "new": True},
        ],
        "warnings": ["1 play marked incomplete was left out."],
    }
    assert sorted(Table.objects.values_list("origin_id", flat=True)) == ["101", "101#2", "103"]
    azul = imported(club, "101#2")
    assert [(seat.player.name, seat.score, seat.won) for seat in azul.seats.order_by("position")] == [
        ("Ann", 50, True), ("Ben", None, False)
    ]  # fmt: skip
    assert timezone.localtime(azul.created).replace(tzinfo=None) == dt.datetime(2024, 6, 1, 12, 0)
    assert (azul.place, azul.options["bgg_id"], azul.options["outcome"]) == ("Club", 230802, "points")
    hanabi = imported(club, "103")
    assert hanabi.options["outcome"] == "win_loss" and hanabi.comments == "A fine show"
    assert totals(club) == {"Ann": (3, 3), "Ben": (3, 1)}
    assert writer.import_file(club, bgg_file.read(BGG))["plays_added"] == 0


def changed_play(number: int, **changes) -> bytes:
    plays = [dict(play) for play in PLAYS]
    plays[number - 1].update(changes)
    return bgstats(plays=plays)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            b"{not json",
            "The file is not valid JSON: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1).",
        ),
        (b"\xff\xfe", "The file is not UTF-8 text."),
        (json.dumps({"games": []}).encode(), "This is not a BG Stats export: it has no list of plays."),
        (changed_play(3, gameRefId=99), "Play 3: its game (id 99) is not among the file's games."),
        (
            changed_play(2, playDate="2024-03-08"),
            'Play 2: its date "2024-03-08" is not a date and time like 2024-05-01 20:15:00.',
        ),
        (
            changed_play(3, playerScores=[score(11), score(77)]),
            "Play 3 (Pandemic, 2024-04-12): a player (id 77) is not among the file's players.",
        ),
        (
            bgstats(players=[{**PLAYERS[0], "name": "An\u200bn"}, *PLAYERS[1:]]),
            "Play 1 (Catan, 2024-03-01): a player's name holds a character nobody sees or that turns "
            "the text around (U+200B).",
        ),
        (
            bgstats(games=[{**GAMES[0], "name": "C" * 81}, *GAMES[1:]]),
            f"Play 1: the game's name has more than 80 characters ({'C' * 80}…).",
        ),
        (
            changed_play(3, playerScores=[score(11), score(11)]),
            "Play 3 (Pandemic, 2024-04-12): Ann sits at the table twice.",
        ),
    ],
)
def test_a_bg_stats_file_that_cannot_be_read_is_refused_saying_where(club, raw, message):
    with pytest.raises(ImportRefused) as refused:
        writer.import_file(club, bgstats_file.read(raw))
    assert refused.value.message == message
    assert not Table.objects.exists() and not Player.objects.exists()


def test_two_names_of_one_play_made_one_player_are_refused(club):
    with pytest.raises(ImportRefused) as refused:
        writer.import_file(club, bgstats_file.read(bgstats()), {"Ben": "Ann"})
    assert refused.value.message == (
        "Play 1 (Catan, 2024-03-01): Ann and Ben would both be ann, who sits at a table once."
    )
    assert not Table.objects.exists()


def test_fields_the_import_does_not_need_never_refuse_a_file(club):
    odd = dict(
        PLAYS[0], durationMin="long", locationRefId=999, comments=None, expansionPlays=[{"gameRefId": 999}]
    )
    odd["playerScores"] = [score(11, "10", True, team=None, role=12, seatOrder="first"), score(12, "7")]
    answer = writer.import_file(club, bgstats_file.read(bgstats(plays=[odd], tags=[{"id": 1}])))
    assert answer["plays_added"] == 1
    table = Table.objects.get()
    assert (table.duration_minutes, table.place, table.comments, table.options["expansions"]) == (
        None,
        "",
        "",
        [],
    )


PLAY = (
    b'<plays><play id="1" date="2024-01-01"><item name="%s"/>'
    b'<players><player name="Ann"/></players></play></plays>'
)
LAUGHS = (  # a billion laughs, in small
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n' + PLAY % b"&lol2;"
)
OUTSIDE = (
    b'<?xml version="1.0"?>\n<!DOCTYPE plays [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
    + PLAY % b"&secret;"
)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (LAUGHS, "The file declares entities or a DTD, which a plays file never needs."),
        (OUTSIDE, "The file declares entities or a DTD, which a plays file never needs."),
        (b"<plays><play", "The file is not valid XML: unclosed token: line 1, column 7."),
        (b"<items/>", "This is not a BoardGameGeek plays file: it does not start with <plays>."),
        (
            b'<plays><play id="x1" date="2024-01-01"/></plays>',
            "Play 1: its id 'x1' is not BoardGameGeek's number of a play.",
        ),
        (b'<plays><play id="1" date="2024-01-01"/></plays>', "Play 1: it names no game (<item>)."),
        (
            b'<plays><play id="1" date="01/02/2024"><item name="Azul"/></play></plays>',
            "Play 1: its date '01/02/2024' is not a date like 2024-05-01.",
        ),
    ],
)
def test_a_boardgamegeek_file_that_cannot_be_read_is_refused_saying_where(club, raw, message):
    with pytest.raises(ImportRefused) as refused:
        writer.import_file(club, bgg_file.read(raw))
    assert refused.value.message == message
    assert not Table.objects.exists()
