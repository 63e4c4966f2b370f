"""Bring your history, the page (issue 29): choose the file, see what comes in and who is who,
change a name, bring it in; a large file is written in the background behind a progress bar."""

from __future__ import annotations

import time

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from companion.groups.models import Group
from companion.history.importers import jobs
from companion.history.models import ImportJob
from companion.tables.models import Player, Table

from .import_files import BGG, bgstats


@pytest.fixture
def club(db) -> Group:
    return Group.objects.create(name="Thursday club")


@pytest.fixture
def member(club) -> Client:
    client = Client()
    assert client.get(f"/g/{club.pk}/join/{club.token}/").status_code == 302
    return client


def choose(client: Client, club: Group, content: bytes, name: str = "BGStatsExport.json"):
    return client.post(f"/g/{club.pk}/history/bring/", {"file": SimpleUploadedFile(name, content)})


@pytest.mark.django_db
def test_a_bg_stats_file_is_shown_then_brought_in_with_a_name_changed(member, club):
    Player.objects.create(group=club, name="Benjamin")
    chosen = choose(member, club, bgstats())
    assert chosen.status_code == 302
    job = ImportJob.objects.get()
    assert chosen["Location"] == f"/g/{club.pk}/history/bring/{job.pk}/"
    page = member.get(chosen["Location"]).content.decode()
    for said in (
        "New plays",
        "<b>5</b>",
        "Games",
        "<b>3</b>",
        "1 score with decimals counts as a whole number in figures (exported as written).",
        "1 play BG Stats leaves out of statistics is kept, out of every figure here too.",
        "Guests (in their plays, never ranked)",
        "Play 1 (Catan, 2024-03-01)</span><br>"
        "In the file 2024-03-01 20:15:00; shown as 2024-03-01 20:15 (UTC)",
    ):
        assert said in page
    assert '<option value="Ben" selected>New player: Ben</option>' in page
    assert '<option value="Benjamin">Benjamin</option>' in page
    assert "Bring 5 plays in" in page and not Table.objects.exists()  # nothing before the tap
    assert '<option value="Guest" selected>Guest: Guest</option>' in page
    chosen_names = [("Ann", "Ann"), ("Ben", "Benjamin"), ("Guest", "Guest"), ("Cleo", "Cleo"), ("Dan", "Dan")]
    names = {f"name_{index}": player for index, (_label, player) in enumerate(chosen_names)}
    names |= {f"name_{index}_label": label for index, (label, _player) in enumerate(chosen_names)}
    done = member.post(chosen["Location"], names)
    assert done.status_code == 302 and done["Location"] == f"/g/{club.pk}/history/"
    said = [str(message) for message in get_messages(done.wsgi_request)]
    assert said == [
        "Brought in 5 plays and 3 new players. 1 guest is in their plays, never ranked. "
        "1 score with decimals counts as a whole number in figures (exported as written). "
        "1 play BG Stats leaves out of statistics is kept, out of every figure here too."
    ]
    assert sorted(Player.objects.filter(group=club).values_list("name", flat=True)) == [
        "Ann", "Benjamin", "Cleo", "Dan", "Guest"
    ]  # fmt: skip
    assert Table.objects.filter(group=club, source="bgstats").count() == 5
    assert ImportJob.objects.get().status == ImportJob.Status.DONE
    archive = member.get(f"/g/{club.pk}/history/").content.decode()
    assert "Catan" in archive and "Pandemic" in archive


@pytest.mark.django_db
def test_a_boardgamegeek_file_is_known_by_its_first_character(member, club):
    chosen = choose(member, club, BGG, "plays.xml")
    assert chosen.status_code == 302 and ImportJob.objects.get().file_format == "bgg"
    member.post(chosen["Location"], {})
    assert Table.objects.filter(group=club, source="bgg").count() == 3


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"name,score\nAnn,3\n", "This is neither a BG Stats export nor a BoardGameGeek plays file."),
        (b'{"format": "table-companion-history", "version": 1}', "This is a Table Companion history file"),
        (b"<!DOCTYPE html><html><body>Rate limit exceeded</body></html>", "This is a web page (HTML)"),
        (b"<plays><play", "The file is not valid XML"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_on_the_page(member, club, content, message):
    refused = choose(member, club, content)
    assert refused.status_code == 400
    assert "Nothing was imported." in refused.content.decode() and message in refused.content.decode()
    assert not ImportJob.objects.exists() and not Table.objects.exists()


@pytest.mark.django_db
def test_a_watcher_cannot_bring_anything_in(club):
    watcher = Client()
    watcher.get(f"/g/{club.pk}/join/{club.view_token}/")
    assert watcher.get(f"/g/{club.pk}/history/bring/").status_code == 403
    assert choose(watcher, club, bgstats()).status_code == 403
    assert not ImportJob.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_large_file_is_written_in_the_background_behind_a_progress_bar(member, club, monkeypatch):
    monkeypatch.setattr(jobs, "AT_ONCE", 2)  # five plays: "large"
    chosen = choose(member, club, bgstats())
    started = member.post(chosen["Location"], {})
    assert started.status_code == 302 and started["Location"] == chosen["Location"]
    deadline = time.monotonic() + 20
    while (
        bar := member.get(chosen["Location"].rstrip("/") + "/progress/", HTTP_HX_REQUEST="true")
    ).status_code == 200:
        assert "<progress" in bar.content.decode() and time.monotonic() < deadline
        time.sleep(0.05)
    assert bar.status_code == 204 and bar["HX-Redirect"] == f"/g/{club.pk}/history/"
    assert Table.objects.filter(group=club).count() == 5
    page = member.get(chosen["Location"]).content.decode()  # the job's page, once done
    assert "Bringing your history in" in page


@pytest.mark.django_db
def test_a_running_import_whose_worker_died_says_so_after_a_while(member, club):
    from django.utils import timezone

    job = jobs.create(club, "bgstats", bgstats())
    ImportJob.objects.filter(pk=job.pk).update(
        status="running", total=5, updated=timezone.now() - jobs.STALE * 2
    )
    bar = member.get(f"/g/{club.pk}/history/bring/{job.pk}/progress/")
    assert bar.status_code == 200
    assert (
        "The import stopped before its end (the server restarted): nothing was added. Try again."
        in bar.content.decode()
    )
    assert ImportJob.objects.get().status == ImportJob.Status.FAILED


@pytest.mark.django_db
def test_an_imported_play_says_where_it_came_from_and_has_no_replay(member, club):
    from companion.history.importers import bgstats_file, writer

    writer.import_file(club, bgstats_file.read(bgstats()))
    codenames = Table.objects.get(origin_id="play-4")
    page = member.get(f"/g/{club.pk}/history/plays/{codenames.pk}/").content.decode()
    assert "from BG Stats" in page and "Replay entry by entry" not in page
    assert "Ann and Cleo win" in page
    assert "The result as it was kept before this app (imported): no log to replay." in page
    assert 'Ann, Cleo <span class="text-body-secondary">against</span> Ben, Dan' in page
    assert "Ann: Spymaster · Dan: Spymaster" in page
    replay = member.get(f"/g/{club.pk}/history/plays/{codenames.pk}/replay/?step=0")
    assert replay.status_code == 302 and replay["Location"] == f"/g/{club.pk}/history/plays/{codenames.pk}/"
    pandemic = Table.objects.get(origin_id="play-2")
    page = member.get(f"/g/{club.pk}/history/plays/{pandemic.pk}/").content.decode()
    assert "Everyone won together" in page and "Pandemic: On the Brink" in page
    archive = member.get(f"/g/{club.pk}/history/").content.decode()
    assert archive.count('<small class="badge text-bg-light border fw-normal">BG Stats</small>') == 5


@pytest.mark.django_db
def test_imported_plays_travel_in_the_apps_own_history_file(club):
    """An imported play has no log: the history file carries its source, its id there and each
    seat's result, and brings it back as it was, once."""
    from companion.history import exchange
    from companion.history.importers import bgstats_file, writer

    writer.import_file(club, bgstats_file.read(bgstats()))
    data = exchange.export_history(club)
    codenames = next(table for table in data["tables"] if table.get("origin_id") == "play-4")
    assert (codenames["source"], codenames["log"]) == ("bgstats", [])
    assert codenames["results"] == [{"score": None, "won": won} for won in (True, False, True, False)]
    other = Group.objects.create(name="Sunday club")
    assert (
        exchange.import_history(other, exchange.parse_json(exchange.dumps(data).encode())).tables_added == 5
    )
    assert (
        exchange.import_history(other, exchange.parse_json(exchange.dumps(data).encode())).tables_added == 0
    )
    again = Table.objects.get(group=other, origin_id="play-4")
    assert again.source == "bgstats" and again.pk != codenames["id"]
    seats = [(seat.player.name, seat.score, seat.won) for seat in again.seats.order_by("position")]
    assert seats == [("Ann", None, True), ("Ben", None, False), ("Cleo", None, True), ("Dan", None, False)]
    catan = Table.objects.get(group=other, origin_id="play-1")
    assert [(seat.score, seat.won) for seat in catan.seats.order_by("position")] == [
        (10, True),
        (9, False),
        (None, False),
    ]


@pytest.mark.django_db
def test_the_plays_csv_says_teams_roles_and_where_a_play_came_from(member, club):
    import csv
    import io

    from companion.history.importers import bgstats_file, writer

    writer.import_file(club, bgstats_file.read(bgstats()))
    rows = list(csv.DictReader(io.StringIO(member.get(f"/g/{club.pk}/history/plays.csv").content.decode())))
    codenames = [row for row in rows if row["game_name"] == "Codenames"]
    assert [(row["player"], row["team"], row["role"], row["winner"], row["source"]) for row in codenames] == [
        ("Ann", "1", "Spymaster", "true", "bgstats"),
        ("Ben", "2", "", "false", "bgstats"),
        ("Cleo", "1", "", "true", "bgstats"),
        ("Dan", "2", "Spymaster", "false", "bgstats"),
    ]


@pytest.mark.django_db
def test_a_group_reads_its_figures_at_a_glance(club):
    """The imported file's five plays (import_files.py), seen from 2024-06-30."""
    import datetime as dt

    from companion.history import glance
    from companion.history.importers import bgstats_file, writer

    writer.import_file(club, bgstats_file.read(bgstats()))
    seen = glance.figures(club, today=dt.date(2024, 6, 30))
    assert (seen["plays"], seen["hours"], seen["this_year"]) == (5, 5, 5)  # 75+45+50+20+90 minutes: 4.7 h
    assert seen["years"] == [{"year": 2024, "plays": 5, "hours": 5, "minutes": 280}]
    assert seen["most_played"] == [
        {"key": "any-game:catan", "name": "Catan", "plays": 2},
        {"key": "any-game:pandemic", "name": "Pandemic", "plays": 2},
        {"key": "any-game:codenames", "name": "Codenames", "plays": 1},
    ]
    assert seen["coop"] == [
        {"key": "any-game:pandemic", "name": "Pandemic", "plays": 2, "wins": 1, "rate": 0.5}
    ]
    bars = seen["months_chart"]["table"]
    assert [row[0] for row in bars["rows"]][-4:] == ["Mar", "Apr", "May", "Jun"] and len(bars["rows"]) == 12
    assert [row[1] for row in bars["rows"]][-4:] == ["2", "2", "1", "0"]
    # Seen two years on, the months are the last twelve the group played, not twelve empty ones.
    later = glance.figures(club, today=dt.date(2026, 6, 30))["months_chart"]["table"]["rows"]
    assert [row[0] for row in later][-3:] == ["Mar", "Apr", "May"] and [row[1] for row in later][-3:] == [
        "2",
        "2",
        "1",
    ]
    ben = Player.objects.get(group=club, name="Ben")
    assert glance.figures(club, ben, today=dt.date(2024, 6, 30))["plays"] == 4
