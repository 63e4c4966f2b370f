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
from companion.history.importers import bgg_file, bgstats_file, sniff, writer
from companion.history.models import SetAsidePlay
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

    def person(name, plays, guest=False):
        return {"name": name, "player": name, "new": True, "guest": guest, "plays": plays, "username": ""}

    assert answer == {
        "plays_added": 5,
        "plays_skipped": 0,
        "players_added": 4,
        "players_matched": 0,
        "guests": 1,  # BG Stats' anonymous player: a guest, never a ranked player (issue 42)
        "games": 3,
        "names": [
            person("Ann", 5),
            person("Ben", 4),
            person("Guest", 1, guest=True),
            person("Cleo", 3),
            person("Dan", 1),
        ],
        "plays_set_aside": 1,  # ignored in BG Stats: kept apart, out of every figure
        "plays_from_the_other_app": 0,
        "probably_here": [],
        "plays_probably_here": 0,
        "zone": "UTC",
        "times": [
            {
                "where": "Play 1 (Catan, 2024-03-01)",
                "in_file": "2024-03-01 20:15:00",
                "at": "2024-03-01T20:15:00+00:00",
            },
            {
                "where": "Play 2 (Pandemic, 2024-03-08)",
                "in_file": "2024-03-08 19:00:00",
                "at": "2024-03-08T19:00:00+00:00",
            },
            {
                "where": "Play 3 (Pandemic, 2024-04-12)",
                "in_file": "2024-04-12 19:00:00",
                "at": "2024-04-12T19:00:00+00:00",
            },
        ],
        "warnings": [
            "1 score with decimals counts as a whole number in figures (exported as written).",
            "1 play BG Stats leaves out of statistics is kept, out of every figure here too.",
        ],
    }
    assert totals(club) == {"Ann": (5, 4), "Ben": (4, 2), "Cleo": (3, 1), "Dan": (1, 0), "Guest": (1, 0)}
    assert list(Player.objects.filter(group=club, guest=True).values_list("name", flat=True)) == ["Guest"]
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
    assert seats == [("Ann", 10, True), ("Ben", 9, False), ("Guest", None, False)]
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
    assert not Table.objects.filter(origin_id="play-6").exists()  # ignored in BG Stats: set aside
    assert list(SetAsidePlay.objects.filter(group=club).values_list("origin_id", flat=True)) == ["play-6"]


def test_the_same_file_twice_adds_nothing(club):
    writer.import_file(club, bgstats_file.read(bgstats()))
    again = writer.import_file(club, bgstats_file.read(bgstats()))
    assert again["plays_added"] == 0 and again["plays_skipped"] == 6 and again["plays_set_aside"] == 0
    assert again["players_added"] == 0 and again["players_matched"] == 0  # nothing new to seat
    assert Table.objects.filter(group=club).count() == 5 and Player.objects.filter(group=club).count() == 5
    assert SetAsidePlay.objects.filter(group=club).count() == 1
    one_more = {**PLAYS[0], "uuid": "play-7", "playDate": "2024-07-01 20:00:00"}
    grown = writer.import_file(club, bgstats_file.read(bgstats(plays=[*PLAYS, one_more])))
    assert (grown["plays_added"], grown["plays_skipped"], grown["players_matched"]) == (1, 6, 2)  # Ann, Ben


def test_names_match_the_groups_players_ignoring_case_unless_the_member_says_otherwise(club):
    Player.objects.create(group=club, name="ann")
    Player.objects.create(group=club, name="Benjamin")
    answer = writer.import_file(club, bgstats_file.read(bgstats()), {"Ben": "Benjamin", "Guest": "Visitor"})
    assert [(name["name"], name["player"], name["new"]) for name in answer["names"][:3]] == [
        ("Ann", "ann", False),
        ("Ben", "Benjamin", False),
        ("Guest", "Visitor", True),
    ]
    assert (answer["players_added"], answer["players_matched"], answer["guests"]) == (2, 2, 1)
    assert sorted(Player.objects.filter(group=club).values_list("name", "guest")) == [
        ("Benjamin", False), ("Cleo", False), ("Dan", False), ("Visitor", True), ("ann", False)
    ]  # fmt: skip
    assert totals(club)["Benjamin"] == (4, 2)


def test_a_dry_run_says_what_would_come_in_and_writes_nothing(club):
    answer = writer.import_file(club, bgstats_file.read(bgstats()), dry_run=True)
    assert answer["plays_added"] == 5 and answer["players_added"] == 4 and answer["guests"] == 1
    assert not Table.objects.exists() and not Player.objects.exists() and not SetAsidePlay.objects.exists()


def test_a_boardgamegeek_file_comes_in_with_every_case(club):
    answer = writer.import_file(club, bgg_file.read(BGG))
    # The file's Ann (BGG user 1) and the Ann of play 103, who is no BGG user, are two people as
    # far as the file tells (issue 42): the preview lists them apart, for the member to merge.
    assert answer["names"] == [
        {"name": "Ann", "player": "Ann", "new": True, "guest": False, "plays": 2, "username": "ann"},
        {"name": "Ben", "player": "Ben", "new": True, "guest": False, "plays": 3, "username": ""},
        {"name": "Ann 2", "player": "Ann 2", "new": True, "guest": False, "plays": 1, "username": ""},
    ]
    assert (answer["plays_added"], answer["players_added"], answer["games"]) == (3, 3, 2)
    assert answer["times"][0] == {"where": "Play 1 (Azul, 2024-06-01)", "in_file": "2024-06-01", "at": None}
    assert answer["warnings"] == ["1 play marked incomplete was left out."]
    assert sorted(Table.objects.values_list("origin_id", flat=True)) == ["101", "101#2", "103"]
    azul = imported(club, "101#2")
    assert [(seat.player.name, seat.score, seat.won) for seat in azul.seats.order_by("position")] == [
        ("Ann", 50, True), ("Ben", None, False)
    ]  # fmt: skip
    assert timezone.localtime(azul.created).replace(tzinfo=None) == dt.datetime(2024, 6, 1, 12, 0)
    assert (azul.timed, azul.bgg_play_id, imported(club, "101").bgg_play_id) == (False, None, 101)
    assert (azul.place, azul.options["bgg_id"], azul.options["outcome"]) == ("Club", 230802, "points")
    hanabi = imported(club, "103")
    assert hanabi.options["outcome"] == "win_loss" and hanabi.comments == "A fine show"
    assert totals(club) == {"Ann": (2, 2), "Ann 2": (1, 1), "Ben": (3, 1)}
    assert writer.import_file(club, bgg_file.read(BGG))["plays_added"] == 0
    merged = writer.import_file(Group.objects.create(name="Other"), bgg_file.read(BGG), {"Ann 2": "Ann"})
    assert [(name["name"], name["player"]) for name in merged["names"]] == [
        ("Ann", "Ann"), ("Ben", "Ben"), ("Ann 2", "Ann")
    ]  # fmt: skip


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
        (
            b"\x80\x81{}",
            "The file is not text (UTF-8 or UTF-16): it is not a BG Stats or BoardGameGeek file.",
        ),
        (json.dumps({"games": []}).encode(), "This is not a BG Stats export: it has no list of plays."),
        (
            BGG,
            "This is an XML file, not a BG Stats export: a BoardGameGeek plays file? "
            "Choose BoardGameGeek for it.",
        ),
    ],
)
def test_a_file_that_is_no_bg_stats_file_is_refused_saying_what_it_is(club, raw, message):
    with pytest.raises(ImportRefused) as refused:
        writer.import_file(club, bgstats_file.read(raw))
    assert refused.value.message == message
    assert not Table.objects.exists() and not Player.objects.exists()


def test_a_utf16_export_is_read_as_the_same_file():
    assert bgstats_file.read(bgstats().decode().encode("utf-16")).plays == bgstats_file.read(bgstats()).plays


@pytest.mark.parametrize(
    ("raw", "added", "warning"),
    [
        (
            changed_play(3, gameRefId=99),
            4,
            "Play 3: its game (id 99) is not among the file's games: left out.",
        ),
        (
            changed_play(2, playDate="2024-03-08"),
            4,
            'Play 2: its date "2024-03-08" is not a date and time like 2024-05-01 20:15:00: left out.',
        ),
        (
            changed_play(2, playDate="1850-03-08 20:00:00"),
            4,
            "Play 2 (Pandemic, 1850-03-08): its date 1850-03-08 is before 1900 or after tomorrow: left out.",
        ),
        (
            changed_play(3, playerScores=[score(11), score(77)]),
            4,
            "Play 3 (Pandemic, 2024-04-12): a player (id 77) is not among the file's players: left out.",
        ),
        (
            bgstats(players=[{**PLAYERS[0], "name": "An\u200bn"}, *PLAYERS[1:]]),
            5,
            "Play 1 (Catan, 2024-03-01): a player's name held characters nobody sees; they were dropped.",
        ),
        (
            bgstats(games=[{**GAMES[0], "name": "C" * 81}, *GAMES[1:]]),
            5,
            f"Play 1: the game's name has more than 80 characters; it was cut to “{'C' * 80}”.",
        ),
        (
            bgstats(players=[{**PLAYERS[0], "name": "A" * 41}, *PLAYERS[1:]]),
            5,
            "Play 1 (Catan, 2024-03-01): a player's name has more than 40 characters; "
            f"it was cut to “{'A' * 40}”.",
        ),
        (
            changed_play(3, playerScores=[score(11), score(11)]),
            4,
            "Play 3 (Pandemic, 2024-04-12): Ann sits at the table twice: left out.",
        ),
        (
            changed_play(1, durationMin=-20),
            5,
            "Play 1 (Catan, 2024-03-01): its length -20 minutes is below zero; it is kept without a length.",
        ),
    ],
)
def test_a_play_with_a_field_the_history_cannot_keep_is_left_out_or_kept_without_it_saying_so(
    club, raw, added, warning
):
    """Issue 42: one bad play never refuses the file; the warning names the play and what was done."""
    answer = writer.import_file(club, bgstats_file.read(raw))
    assert answer["plays_added"] == added
    assert warning in answer["warnings"]
    assert Table.objects.filter(group=club).count() == added


def test_two_names_of_one_play_made_one_player_leave_that_play_out(club):
    answer = writer.import_file(club, bgstats_file.read(bgstats()), {"Ben": "Ann"})
    assert (
        "Play 1 (Catan, 2024-03-01): Ann and Ben would both be ann, who sits at a table once: left out."
        in answer["warnings"]
    )
    # Plays 1, 2, 4 and 5 seat both (and 6, set aside); play 3 seats Ann and Cleo.
    assert answer["plays_added"] == 1 and Table.objects.filter(group=club).count() == 1


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
        (b"<!DOCTYPE html>\n<html><head><title>Error</title></head></html>", sniff.web_page()),
        (b'{"plays": []}', sniff.json_not_xml()),
    ],
)
def test_a_boardgamegeek_file_that_cannot_be_read_is_refused_saying_where(club, raw, message):
    with pytest.raises(ImportRefused) as refused:
        writer.import_file(club, bgg_file.read(raw))
    assert refused.value.message == message
    assert not Table.objects.exists()


GOOD_BGG_PLAY = (
    b'<play id="9" date="2024-01-02"><item name="Azul"/><players><player name="Ann"/></players></play>'
)


AZUL_BY_BEN = b'<item name="Azul"/><players><player name="Ben"/></players></play>'


@pytest.mark.parametrize(
    ("play", "copies", "warning"),
    [
        (
            b'<play id="x1" date="2024-01-01"/>',
            0,
            "Play 1: its id 'x1' is not BoardGameGeek's number of a play: left out.",
        ),
        (b'<play id="1" date="2024-01-01"/>', 0, "Play 1: it names no game (<item>): left out."),
        (
            b'<play id="1" date="01/02/2024"><item name="Azul"/></play>',
            0,
            "Play 1: its date '01/02/2024' is not a date like 2024-05-01: left out.",
        ),
        (
            b'<play id="1" date="2024-01-01" quantity="1000000000">' + AZUL_BY_BEN,
            1,
            "Play 1 (Azul, 2024-01-01): it says it was played 1000000000 times, which cannot be right; "
            "it is kept once.",
        ),
        (
            b'<play id="1" date="2024-01-01" quantity="-3">' + AZUL_BY_BEN,
            1,
            "Play 1 (Azul, 2024-01-01): it says it was played -3 times, which cannot be right; "
            "it is kept once.",
        ),
        (
            b'<play id="1" date="2099-01-01">' + AZUL_BY_BEN,
            0,
            "Play 1 (Azul, 2099-01-01): its date 2099-01-01 is before 1900 or after tomorrow: left out.",
        ),
        (
            b'<play id="1" date="2024-01-01" length="-5">' + AZUL_BY_BEN,
            1,
            "Play 1 (Azul, 2024-01-01): its length -5 minutes is below zero; it is kept without a length.",
        ),
    ],
)
def test_a_boardgamegeek_play_with_a_bad_field_is_left_out_or_kept_saying_so(club, play, copies, warning):
    """Issue 42: a quantity of 10^9 or -3 was silently one play; one bad play refused the file."""
    answer = writer.import_file(club, bgg_file.read(b"<plays>" + play + GOOD_BGG_PLAY + b"</plays>"))
    assert answer["warnings"] == [warning]
    assert answer["plays_added"] == copies + 1
