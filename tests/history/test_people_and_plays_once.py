"""Issue 42, findings 1, 2, 4 and 6 from the importers' side, with files written here from
shared/HISTORY_FORMATS.md: people by who they are, each play once across BG Stats and BGG, times
as played, and a BG Stats export that gives back every field it brought."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from companion.groups.models import Group
from companion.history import bgstats_export
from companion.history.importers import bgg_file, bgstats_file, writer
from companion.history.models import PersonOrigin
from companion.tables.models import Player, Seat, Table

pytestmark = pytest.mark.django_db

CATAN = {"id": 1, "uuid": "g-catan", "name": "Catan", "bggId": 13, "highestWins": True, "noPoints": False,
         "cooperative": False, "usesTeams": False, "isBaseGame": True, "isExpansion": False}  # fmt: skip
ALEX = {"id": 1, "uuid": "p-alex", "name": "Alex", "isAnonymous": False, "bggUsername": ""}
ALEX_K = {"id": 2, "uuid": "p-alex-k", "name": "Alex", "isAnonymous": False, "bggUsername": "alex_k"}
BEA = {"id": 3, "uuid": "p-bea", "name": "Bea", "isAnonymous": False, "bggUsername": "bea_b"}
GUEST = {"id": 9, "uuid": "p-anon", "name": "Anonymous player", "isAnonymous": True}


def score(player: dict, points: str, winner: bool = False, **more) -> dict:
    return {"playerRefId": player["id"], "score": points, "winner": winner, **more}


def bgstats_play(uuid: str, date: str, *scores: dict, **more) -> dict:
    return {
        "uuid": uuid,
        "gameRefId": 1,
        "playDate": date,
        "durationMin": 60,
        "playerScores": list(scores),
        **more,
    }


def bgstats_file_of(*plays: dict, players=(ALEX, ALEX_K, BEA, GUEST), games=(CATAN,)) -> bytes:
    return json.dumps(
        {"games": list(games), "players": list(players), "locations": [], "plays": list(plays)}
    ).encode()


def bgg_file_of(*plays: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?><plays username="bea_b" userid="30">'
        + "".join(plays)
        + "</plays>"
    ).encode()


def bgg_play(play_id: int, date: str, *players: str, game: str = "Catan", objectid: int = 13) -> str:
    return (
        f'<play id="{play_id}" date="{date}" quantity="1" length="60" incomplete="0" nowinstats="0" '
        f'location=""><item name="{game}" objecttype="thing" objectid="{objectid}"/>'
        f"<players>{''.join(players)}</players></play>"
    )


def bgg_player(name: str, score: str, win: bool = False, username: str = "", userid: int = 0, **more) -> str:
    extra = "".join(f' {key}="{value}"' for key, value in more.items())
    return (
        f'<player username="{username}" userid="{userid}" name="{name}" score="{score}" '
        f'win="{int(win)}"{extra}/>'
    )


@pytest.fixture
def club() -> Group:
    return Group.objects.create(name="Thursday club")


def seats_of(table: Table) -> list[tuple]:
    return [(seat.player.name, seat.score, seat.won) for seat in table.seats.order_by("position")]


def plays_of(group: Group) -> dict[str, int]:
    return {
        player.name: Seat.objects.filter(player=player).count()
        for player in Player.objects.filter(group=group)
    }


# --- 1. People by who they are ------------------------------------------------------------------


def test_two_people_of_one_name_at_one_table_come_in_as_two(club):
    file = bgstats_file_of(
        bgstats_play("p1", "2024-01-05 20:00:00", score(ALEX, "10", True), score(ALEX_K, "8")),
        bgstats_play("p2", "2024-01-12 20:00:00", score(ALEX, "7"), score(BEA, "9", True)),
    )
    answer = writer.import_file(club, bgstats_file.read(file))
    assert answer["plays_added"] == 2 and answer["warnings"] == []
    assert [(name["name"], name["player"], name["plays"], name["username"]) for name in answer["names"]] == [
        ("Alex", "Alex", 2, ""),
        ("Alex (alex_k)", "Alex (alex_k)", 1, "alex_k"),
        ("Bea", "Bea", 1, "bea_b"),
    ]
    assert seats_of(Table.objects.get(origin_id="p1")) == [("Alex", 10, True), ("Alex (alex_k)", 8, False)]
    assert plays_of(club) == {"Alex": 2, "Alex (alex_k)": 1, "Bea": 1}


def test_two_people_of_one_name_who_never_met_are_not_merged_without_a_word(club):
    file = bgstats_file_of(
        *[
            bgstats_play(f"a{n}", f"2024-02-{n:02d} 20:00:00", score(ALEX, "5", True), score(BEA, "3"))
            for n in range(1, 4)
        ],
        *[
            bgstats_play(f"k{n}", f"2024-03-{n:02d} 20:00:00", score(ALEX_K, "5"), score(BEA, "6", True))
            for n in range(1, 3)
        ],
    )
    answer = writer.import_file(club, bgstats_file.read(file))
    assert plays_of(club) == {"Alex": 3, "Alex (alex_k)": 2, "Bea": 5}
    assert [name["name"] for name in answer["names"]] == ["Alex", "Bea", "Alex (alex_k)"]  # file order
    # The member can say they are one person: then they are.
    other = Group.objects.create(name="Other")
    merged = writer.import_file(other, bgstats_file.read(file), {"Alex (alex_k)": "Alex"})
    assert merged["players_added"] == 2 and plays_of(other) == {"Alex": 5, "Bea": 5}


def test_a_person_is_found_again_by_who_they_are_not_by_their_name(club):
    writer.import_file(
        club,
        bgstats_file.read(
            bgstats_file_of(
                bgstats_play("p1", "2024-01-05 20:00:00", score(ALEX, "1"), score(ALEX_K, "2", True))
            )
        ),
    )
    Player.objects.filter(group=club, name="Alex (alex_k)").update(name="Alexandra")  # renamed here
    later = bgstats_file_of(
        bgstats_play("p9", "2024-06-05 20:00:00", score(ALEX_K, "4", True), score(BEA, "1"))
    )
    answer = writer.import_file(club, bgstats_file.read(later))
    assert [(name["name"], name["player"], name["new"]) for name in answer["names"]] == [
        ("Alex", "Alexandra", False),  # by her BG Stats uuid, though her name in the file is Alex
        ("Bea", "Bea", True),
    ]
    # From BoardGameGeek: alex_k is her username (BG Stats said so); Bea is BGG user 30.
    bgg = bgg_file_of(
        bgg_play(
            5001,
            "2024-07-01",
            bgg_player("Alex K.", "3", True, username="alex_k", userid=31),
            bgg_player("Bea", "2", username="bea_b", userid=30),
        )
    )
    answer = writer.import_file(club, bgg_file.read(bgg))
    assert [(name["name"], name["player"], name["new"]) for name in answer["names"]] == [
        ("Alex K.", "Alexandra", False),
        ("Bea", "Bea", False),
    ]
    alexandra = PersonOrigin.objects.filter(group=club, player__name="Alexandra")
    assert set(alexandra.values_list("key", flat=True)) == {
        "bgstats:p-alex-k", "bgg-name:alex_k", "bgg-user:31"
    }  # fmt: skip


def test_two_people_of_one_name_in_a_bgg_file_stay_two(club):
    bgg = bgg_file_of(
        bgg_play(
            1,
            "2024-01-01",
            bgg_player("Alex", "5", True, username="alex_k", userid=31),
            bgg_player("Alex", "4"),
        ),
        bgg_play(2, "2024-01-02", bgg_player("Alex", "6", True)),
    )
    answer = writer.import_file(club, bgg_file.read(bgg))
    assert answer["warnings"] == [] and answer["plays_added"] == 2
    assert [(name["name"], name["plays"]) for name in answer["names"]] == [("Alex (alex_k)", 1), ("Alex", 2)]
    assert seats_of(Table.objects.get(origin_id="1")) == [("Alex (alex_k)", 5, True), ("Alex", 4, False)]


def test_guests_are_counted_in_their_play_and_are_never_ranked_players(club):
    file = bgstats_file_of(
        bgstats_play("p1", "2024-01-05 20:00:00", score(BEA, "9", True), score(GUEST, "4"), score(GUEST, "3"))
    )
    answer = writer.import_file(club, bgstats_file.read(file))
    assert (answer["players_added"], answer["guests"]) == (1, 2)
    assert seats_of(Table.objects.get()) == [("Bea", 9, True), ("Guest", 4, False), ("Guest 2", 3, False)]
    assert list(Player.objects.filter(group=club, guest=True).values_list("name", flat=True)) == [
        "Guest",
        "Guest 2",
    ]
    bgg = bgg_file_of(
        bgg_play(
            7,
            "2024-02-01",
            bgg_player("Bea", "5", True, username="bea_b", userid=30),
            bgg_player("Anonymous player", "2"),
        )
    )
    again = writer.import_file(club, bgg_file.read(bgg))
    assert (again["players_added"], again["players_matched"], again["guests"]) == (0, 1, 1)
    assert Player.objects.filter(group=club, guest=True).count() == 2  # BGG's guest is the same "Guest"


# --- 2. Each play once across the two apps -----------------------------------------------------


def test_the_bgg_file_of_plays_brought_from_bg_stats_adds_nothing(club):
    bgstats = bgstats_file_of(
        bgstats_play("p1", "2024-01-05 20:15:00", score(BEA, "10", True), score(ALEX, "8"), bggId=90001),
        bgstats_play("p2", "2024-01-12 19:00:00", score(BEA, "6"), score(ALEX, "9", True), bggId=90002),
        bgstats_play("p3", "2024-01-19 19:00:00", score(BEA, "6"), score(ALEX, "9", True)),  # never posted
    )
    writer.import_file(club, bgstats_file.read(bgstats))
    bgg = bgg_file_of(
        bgg_play(
            90001,
            "2024-01-05",
            bgg_player("Bea", "10", True, username="bea_b", userid=30),
            bgg_player("Alex", "8"),
        ),
        bgg_play(
            90002,
            "2024-01-12",
            bgg_player("Bea", "6", username="bea_b", userid=30),
            bgg_player("Alex", "9", True),
        ),
    )
    dry = writer.import_file(club, bgg_file.read(bgg), dry_run=True)
    assert (dry["plays_added"], dry["plays_skipped"], dry["plays_from_the_other_app"]) == (0, 2, 2)
    done = writer.import_file(club, bgg_file.read(bgg))
    assert done["plays_added"] == 0 and Table.objects.filter(group=club).count() == 3
    # What BGG knew that BG Stats did not is kept: Bea is BGG user 30.
    assert PersonOrigin.objects.get(group=club, key="bgg-user:30").player.name == "Bea"


def test_bg_stats_after_bgg_adds_nothing_and_lends_its_times_of_day(club):
    bgg = bgg_file_of(bgg_play(90001, "2024-01-05", bgg_player("Bea", "10", True), bgg_player("Alex", "8")))
    writer.import_file(club, bgg_file.read(bgg))
    assert Table.objects.get().timed is False
    bgstats = bgstats_file_of(
        bgstats_play("p1", "2024-01-05 20:15:00", score(BEA, "10", True), score(ALEX, "8"), bggId=90001)
    )
    answer = writer.import_file(club, bgstats_file.read(bgstats))
    assert (answer["plays_added"], answer["plays_from_the_other_app"]) == (0, 1)
    table = Table.objects.get()
    assert table.timed is True and table.created == dt.datetime(2024, 1, 5, 20, 15, tzinfo=dt.UTC)


def test_a_play_that_looks_like_one_here_is_held_back_unless_the_member_keeps_it(club):
    first = bgstats_file_of(
        bgstats_play("p1", "2024-01-05 20:15:00", score(BEA, "10", True), score(ALEX, "8"))
    )
    writer.import_file(club, bgstats_file.read(first))
    bgg = bgg_file_of(
        bgg_play(777, "2024-01-05", bgg_player("Bea", "10", True), bgg_player("Alex", "8")),
        bgg_play(778, "2024-01-06", bgg_player("Bea", "1", True), bgg_player("Alex", "0")),
    )
    answer = writer.import_file(club, bgg_file.read(bgg), dry_run=True)
    table = Table.objects.get(origin_id="p1")
    assert answer["probably_here"] == [
        {"play": "777", "where": "Play 1 (Catan, 2024-01-05)", "table": table.pk}
    ]
    assert (answer["plays_added"], answer["plays_probably_here"], answer["plays_skipped"]) == (1, 1, 1)
    kept = writer.import_file(club, bgg_file.read(bgg), keep=["777"])
    assert kept["plays_added"] == 2 and Table.objects.filter(group=club).count() == 3


# --- 4. Times as played ------------------------------------------------------------------------


def test_a_berlin_groups_file_times_are_read_as_berlin_times(club):
    club.time_zone = "Europe/Berlin"
    club.save()
    file = bgstats_file_of(
        bgstats_play("winter", "2024-01-05 20:15:00", score(BEA, "10", True)),
        bgstats_play("summer", "2024-07-05 20:15:00", score(BEA, "10", True)),
    )
    answer = writer.import_file(club, bgstats_file.read(file))
    assert answer["zone"] == "Europe/Berlin"
    assert answer["times"][0] == {
        "where": "Play 1 (Catan, 2024-01-05)",
        "in_file": "2024-01-05 20:15:00",
        "at": "2024-01-05T20:15:00+01:00",
    }
    assert Table.objects.get(origin_id="winter").created == dt.datetime(2024, 1, 5, 19, 15, tzinfo=dt.UTC)
    assert Table.objects.get(origin_id="summer").created == dt.datetime(2024, 7, 5, 18, 15, tzinfo=dt.UTC)
    # The export writes them back as the wall-clock time in the group's zone, as BG Stats keeps them.
    exported = {play["uuid"]: play["playDate"] for play in bgstats_export.export(club)["plays"]}
    assert exported == {"winter": "2024-01-05 20:15:00", "summer": "2024-07-05 20:15:00"}


def test_the_member_may_read_a_files_times_in_another_zone(club):
    file = bgstats_file_of(bgstats_play("p1", "2024-01-05 20:15:00", score(BEA, "10", True)))
    answer = writer.import_file(club, bgstats_file.read(file), zone="America/New_York")
    assert answer["zone"] == "America/New_York"
    assert Table.objects.get().created == dt.datetime(2024, 1, 6, 1, 15, tzinfo=dt.UTC)
    with pytest.raises(Exception) as refused:
        writer.import_file(club, bgstats_file.read(file), zone="Mars/Olympus")
    assert refused.value.message == "Mars/Olympus is not a time zone: name one such as Europe/Berlin."


def test_a_new_years_eve_play_starts_in_the_old_year(club):
    club.time_zone = "Europe/Berlin"
    club.save()
    file = bgstats_file_of(bgstats_play("nye", "2024-12-31 23:30:00", score(BEA, "10", True), durationMin=70))
    writer.import_file(club, bgstats_file.read(file))
    table = Table.objects.get()
    zone = timezone.get_fixed_timezone(60)
    assert timezone.localtime(table.created, zone) == dt.datetime(2024, 12, 31, 23, 30, tzinfo=zone)
    assert timezone.localtime(table.finished, zone).date() == dt.date(2025, 1, 1)


def test_a_bgg_play_has_no_time_of_day(club):
    writer.import_file(club, bgg_file.read(bgg_file_of(bgg_play(1, "2024-03-02", bgg_player("Bea", "1")))))
    table = Table.objects.get()
    assert table.timed is False and timezone.localtime(table.created).date() == dt.date(2024, 3, 2)


def test_two_records_merged_here_are_one_person_for_the_next_import(club):
    from companion.history import people

    file = bgstats_file_of(
        bgstats_play("a1", "2024-02-01 20:00:00", score(ALEX, "5", True), score(BEA, "3")),
        bgstats_play("k1", "2024-03-01 20:00:00", score(ALEX_K, "5"), score(BEA, "6", True)),
    )
    writer.import_file(club, bgstats_file.read(file))
    people.merge(
        Player.objects.get(group=club, name="Alex"), Player.objects.get(group=club, name="Alex (alex_k)")
    )
    later = bgstats_file_of(
        bgstats_play("k2", "2024-04-01 20:00:00", score(ALEX_K, "9", True), score(BEA, "6"))
    )
    answer = writer.import_file(club, bgstats_file.read(later))
    assert [(name["name"], name["player"], name["new"]) for name in answer["names"]] == [
        ("Alex", "Alex", False),
        ("Bea", "Bea", False),
    ]
    assert plays_of(club) == {"Alex": 3, "Bea": 3}


def test_the_apps_own_history_file_keeps_what_an_import_brought(club):
    """Moving a group to another server (issue 28's file) keeps guests, BGG ids, untimed plays and
    what BG Stats said, so that the new server's BG Stats export is the old one's."""
    from companion.history import exchange

    writer.import_file(
        club,
        bgstats_file.read(
            bgstats_file_of(
                bgstats_play(
                    "p1", "2024-01-05 20:15:00", score(BEA, "9.5", True), score(GUEST, "4"), bggId=90001
                )
            )
        ),
    )
    writer.import_file(club, bgg_file.read(bgg_file_of(bgg_play(5, "2024-02-01", bgg_player("Bea", "1")))))
    moved = Group.objects.create(name="Moved")
    summary = exchange.import_history(moved, json.loads(exchange.dumps(exchange.export_history(club))))
    assert summary.tables_added == 2
    assert list(Player.objects.filter(group=moved, guest=True).values_list("name", flat=True)) == ["Guest"]
    kept, bgg = Table.objects.get(group=moved, origin_id="p1"), Table.objects.get(group=moved, origin_id="5")
    assert (kept.bgg_play_id, kept.timed, bgg.bgg_play_id, bgg.timed) == (90001, True, 5, False)
    out = bgstats_export.export(moved)["plays"][0]
    assert [s["score"] for s in out["playerScores"]] == ["9.5", "4"] and out["bggId"] == 90001
    # Imported again, it is the same history: nothing added.
    again = exchange.import_history(moved, json.loads(exchange.dumps(exchange.export_history(club))))
    assert (again.tables_added, again.tables_already_there) == (0, 2)
