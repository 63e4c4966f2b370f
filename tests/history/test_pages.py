"""The history pages through Django's test client: archive, one play, replay, people, games, and
abandoning a table from its page."""

from __future__ import annotations

import datetime as dt
import json
import re
from urllib.parse import unquote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from companion import charts
from companion.games import base, registry
from companion.history import bgstats, stats
from companion.tables import replay, services
from companion.tables.models import Player, Seat, Table
from tests.engines.golden_playthrough import script as golden_script
from tests.engines.setups import playable
from tests.history.factories import home

from .factories import finished_play, golden_table, play_out

pytestmark = pytest.mark.django_db

DAY = dt.datetime(2026, 6, 1, 19, 0, tzinfo=dt.UTC)
PLAY_LINK = re.compile(r'href="/g/default/history/plays/([0-9a-f]+)/"')


def linked_plays(response) -> list[str]:
    return PLAY_LINK.findall(response.content.decode())


def edit_rights(client, table: Table) -> None:
    assert client.get(f"/t/{table.id}/join/{table.token}/").status_code == 302


@pytest.fixture
def three_plays():
    """Ann wins Dogo Dash on day 0, Ben wins Surf's Up on day 1, Ann and Cleo share day 2."""
    return [
        finished_play("dogo-dash", [("Ann", 30, True), ("Ben", 20, False)], finished=DAY, place="Home"),
        finished_play(
            "surfs-up", [("Ben", 35, True), ("Cleo", 15, False)], finished=DAY + dt.timedelta(days=1)
        ),
        finished_play(
            "dogo-dash",
            [("Cleo", 25, True), ("Ann", 25, True), ("Ben", 3, False)],
            finished=DAY + dt.timedelta(days=2),
            minutes=47,
        ),
    ]


def test_the_archive_lists_finished_plays_newest_first(client, three_plays):
    unfinished = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    left = services.create_table("dogo-dash", ["Ann", "Cleo"], {})
    services.abandon(left.id, left.version)
    response = client.get("/g/default/history/")
    assert response.status_code == 200
    assert linked_plays(response) == [three_plays[2].id, three_plays[1].id, three_plays[0].id]
    page = response.content.decode()
    assert unfinished.id not in page and left.id not in page
    assert "3 plays" in page and "Abandoned tables (1)" in page
    assert "47 min" in page and "Home" in page


def test_the_archive_filters_by_game_and_by_player(client, three_plays):
    ann = Player.objects.get(name="Ann")
    assert linked_plays(client.get("/g/default/history/?game=dogo-dash")) == [
        three_plays[2].id,
        three_plays[0].id,
    ]
    assert linked_plays(client.get(f"/g/default/history/?player={ann.pk}")) == [
        three_plays[2].id,
        three_plays[0].id,
    ]
    cleo = Player.objects.get(name="Cleo")
    both = client.get(f"/g/default/history/?game=surfs-up&player={cleo.pk}")
    assert linked_plays(both) == [three_plays[1].id]
    # A filter naming nothing known shows everything rather than an error.
    assert len(linked_plays(client.get("/g/default/history/?game=chess&player=999"))) == 3


def test_the_archive_pages_by_25_and_its_queries_do_not_grow(client):
    for day in range(26):
        finished_play(
            "dogo-dash", [("Ann", day, True), ("Ben", 0, False)], finished=DAY + dt.timedelta(days=day)
        )
    first = client.get("/g/default/history/")
    assert len(linked_plays(first)) == 25 and "Page 1 of 2" in first.content.decode()
    second = client.get("/g/default/history/?page=2")
    assert len(linked_plays(second)) == 1
    with CaptureQueriesContext(connection) as few:
        client.get("/g/default/history/?page=2")
    with CaptureQueriesContext(connection) as first_page:
        client.get("/g/default/history/")
    # The first page's figures at a glance cost nothing more: they are kept under the history's
    # stamp, which every page reads once (the games' counts too); the plays are read once per
    # change of the history (the first request above), then kept in the cache.
    assert len(first_page) == len(few)
    for day in range(26, 60):
        finished_play(
            "dogo-dash", [("Ann", day, True), ("Ben", 0, False)], finished=DAY + dt.timedelta(days=day)
        )
    with CaptureQueriesContext(connection) as changed:
        client.get("/g/default/history/")
    # The history changed: the games' counts read again, with the pads that are an engine's game
    # (same_game.py); the figures at a glance check that the plays they counted are as they were
    # (one query), then count only the later ones (resumable.py).
    assert len(changed) == len(first_page) + 5
    with CaptureQueriesContext(connection) as many:
        client.get("/g/default/history/")
    assert len(many) == len(first_page)  # more plays, the same queries


def test_a_play_page_shows_the_result_the_chart_and_the_players(client):
    table = play_out("dogo-dash", ["Ann", "Ben", "Cleo"], seed=4)
    page = client.get(f"/g/default/history/plays/{table.id}/").content.decode()
    seats = list(table.seats.select_related("player"))
    for seat in seats:
        assert f'href="/g/default/history/players/{seat.player_id}/"' in page
    # One line per seat in the score chart, from 0 at the start to each seat's final score.
    assert page.count('<polyline class="chart-line"') == 3
    series = replay.score_series(table, replay.live_events(table))
    assert [values[0] for values in series] == [0, 0, 0]
    assert [values[-1] for values in series] == [seat.score for seat in seats]
    assert "Send to BG Stats" in page
    assert f'href="/g/default/history/plays/{table.id}/replay/?step=0"' in page


def test_the_bg_stats_link_carries_the_play_as_bg_stats_documents_it(three_plays):
    table = stats.archive(home()).get(pk=three_plays[2].id)
    link = bgstats.play_link(table)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(unquote(link.split("data=", 1)[1]))
    assert data["game"] == {
        "name": "Dogo Dash",
        "sourceGameId": "dogo-dash",
        "highestWins": True,
        "noPoints": False,
    }
    assert data["durationMin"] == 47
    assert data["location"] == ""
    assert data["playDate"] == "2026-06-03 18:13:00"  # the first entry, 47 minutes before the end
    assert [(p["name"], p["score"], p["winner"], p["rank"], p["startPlayer"]) for p in data["players"]] == [
        ("Cleo", 25, True, 1, True),
        ("Ann", 25, True, 1, False),
        ("Ben", 3, False, 3, False),
    ]


def test_details_can_be_corrected_and_bad_input_changes_nothing(client, three_plays):
    table = three_plays[0]
    url = f"/g/default/history/plays/{table.id}/"
    saved = client.post(
        url, {"place": "  Beach   house ", "duration_minutes": "95", "comments": "Close one."}
    )
    assert saved.status_code == 302
    table.refresh_from_db()
    assert (table.place, table.duration_minutes, table.comments) == ("Beach house", 95, "Close one.")
    assert "95 min" in client.get("/g/default/history/").content.decode()
    for bad in ({"duration_minutes": "-5"}, {"duration_minutes": "soon"}, {"duration_minutes": "99999"}):
        refused = client.post(url, {"place": "Elsewhere", "comments": "", **bad})
        assert refused.status_code == 400
        table.refresh_from_db()
        assert (table.place, table.duration_minutes) == ("Beach house", 95)
    # Empty length: back to first-to-last entry (30 minutes in the fixture).
    client.post(url, {"place": "", "duration_minutes": "", "comments": ""})
    table.refresh_from_db()
    assert table.duration_minutes is None
    assert stats.length_minutes(stats.archive(home()).get(pk=table.pk)) == 30


def test_only_finished_or_abandoned_tables_have_a_history_page(client):
    playing = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    assert client.get(f"/g/default/history/plays/{playing.id}/").status_code == 404
    assert client.get(f"/g/default/history/plays/{playing.id}/replay/").status_code == 404
    assert client.get("/g/default/history/plays/nope/").status_code == 404
    services.abandon(playing.id, playing.version)
    page = client.get(f"/g/default/history/plays/{playing.id}/")
    assert page.status_code == 200 and "abandoned before its end" in page.content.decode()


@pytest.mark.parametrize("game", list(registry.GAMES))
def test_a_replay_steps_through_the_log_entry_by_entry(client, game):
    table = play_out(game, ["Ann", "Ben", "Cleo"], seed=9, options=playable(registry.get(game)), undo_every=6)
    events = replay.live_events(table)
    last = len(events)
    url = f"/g/default/history/plays/{table.id}/replay/"
    start = client.get(url + "?step=0").content.decode()
    assert f"Entry 0 of {last}" in start and "before the first entry" in start
    for step in (1, last // 2, last):
        page = client.get(f"{url}?step={step}").content.decode()
        assert f"Entry {step} of {last}" in page
        assert escape(events[step - 1].text) in page
        back, forward = max(step - 1, 0), min(step + 1, last)
        assert f'href="?step={back}&amp;view=0"' in page and f'href="?step={forward}&amp;view=0"' in page
    # The last step is the stored game; out-of-range steps are clamped, junk is a 400.
    assert replay.state_after(table, events, last) == table.snapshot
    assert f"Entry {last} of {last}" in client.get(url).content.decode()
    assert f"Entry {last} of {last}" in client.get(f"{url}?step=100000").content.decode()
    assert "Entry 0 of" in client.get(f"{url}?step=-4").content.decode()
    assert client.get(f"{url}?step=two").status_code == 400


def test_a_replay_keeps_the_sheet_asked_for_and_answers_htmx_with_the_live_region(client):
    table = play_out("summer-suns", ["Ann", "Ben", "Cleo"], seed=3)
    url = f"/g/default/history/plays/{table.id}/replay/"
    page = client.get(f"{url}?step=6&view=2").content.decode()
    assert "Cleo&#x27;s sheet" in page or "Cleo's sheet" in page
    assert 'href="?step=6&amp;view=1"' in page  # another sheet, same step
    assert 'href="?step=7&amp;view=2"' in page  # next step, same sheet
    live = client.get(f"{url}?step=6", HTTP_HX_REQUEST="true").content.decode()
    assert live.lstrip().startswith('<div id="live">') and "<html" not in live
    # A sheet that does not exist falls back to the first.
    assert 'href="?step=7&amp;view=0"' in client.get(f"{url}?step=6&view=9").content.decode()


def test_score_series_end_at_the_seats_final_scores():
    table = play_out("surfs-up", ["Ann", "Ben", "Cleo"], seed=2)
    events = replay.live_events(table)
    series = replay.score_series(table, events)
    assert [len(values) for values in series] == [len(events) + 1] * 3
    assert [values[-1] for values in series] == [seat.score for seat in table.seats.all()]


def test_a_player_page_shows_totals_games_and_opponents(client, three_plays):
    ann = Player.objects.get(name="Ann")
    page = client.get(f"/g/default/history/players/{ann.pk}/").content.decode()
    # Ann: 2 plays (both Dogo Dash), 2 wins (one shared), 100%.
    tiles = re.findall(r'<span class="stat-value">([^<]+)</span>', page)
    # Then, at a glance: 30 + 47 minutes is 1 hour (rounded), both plays this year (2026).
    assert tiles == ["2", "2", "100%", "1", "2"]
    assert "Plays most with Ben: 2 plays together." in page
    assert "Dogo Dash" in page and "27.5" in page  # (30 + 25) / 2
    assert linked_plays(client.get(f"/g/default/history/players/{ann.pk}/"))[:2] == [
        three_plays[2].id,
        three_plays[0].id,
    ]
    assert client.get("/g/default/history/players/99999/").status_code == 404


def test_rename_and_merge_from_the_player_page(client, three_plays):
    ann = Player.objects.get(name="Ann")
    renamed = client.post(f"/g/default/history/players/{ann.pk}/rename/", {"name": "Annie"})
    assert renamed.status_code == 302
    ann.refresh_from_db()
    assert ann.name == "Annie"
    clash = client.post(f"/g/default/history/players/{ann.pk}/rename/", {"name": "BEN"})
    assert clash.status_code == 400 and "merge the two instead" in clash.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Annie"
    # Ann and Ben sat together: refused, both kept. A newcomer who never sat with Ann merges in.
    ben = Player.objects.get(name="Ben")
    refused = client.post(f"/g/default/history/players/{ann.pk}/merge/", {"other": ben.pk})
    assert refused.status_code == 400 and "two people" in refused.content.decode()
    assert Player.objects.filter(pk=ben.pk).exists()
    alias = finished_play("hang-four", [("Anne", 3, True), ("Dev", 1, False)], finished=DAY)
    anne = Player.objects.get(name="Anne")
    merged = client.post(f"/g/default/history/players/{ann.pk}/merge/", {"other": anne.pk})
    assert merged.status_code == 302
    assert not Player.objects.filter(pk=anne.pk).exists()
    assert alias.seats.get(position=0).player_id == ann.pk
    assert stats.player_totals(ann).plays == 3


def test_game_pages(client, three_plays):
    page = client.get("/g/default/history/games/dogo-dash/").content.decode()
    assert linked_plays(client.get("/g/default/history/games/dogo-dash/")) == [
        three_plays[2].id,
        three_plays[0].id,
    ]
    tiles = re.findall(r'<span class="stat-value">([^<]+)</span>', page)
    # 2 plays; winning scores 30 and 25 (shared, counted once) -> 27.5; the first seat won both.
    assert tiles == ["2", "27.5", "100%"]
    empty = client.get("/g/default/history/games/hang-four/").content.decode()
    assert "No finished Hang Four plays yet" in empty
    assert client.get("/g/default/history/games/chess/").status_code == 404
    # The nav's Games is the list of every game, most played first (issue 42: a game page no longer
    # lists a hundred games' buttons).
    games = client.get("/g/default/history/games/").content.decode()
    assert re.findall(r'href="/g/default/history/games/([^/"]+)/"', games)[:2] == ["dogo-dash", "surfs-up"]
    assert 'href="/g/default/history/games/"' in page


def test_abandon_and_resume_from_the_table_page(client):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    edit_rights(client, table)
    page = client.get(f"/t/{table.id}/").content.decode()
    assert "Abandon this table" in page
    assert client.post(f"/t/{table.id}/abandon/", {"expected_version": 0}).status_code == 302
    table.refresh_from_db()
    assert table.abandoned is not None and table.version == 1
    page = client.get(f"/t/{table.id}/").content.decode()
    assert "This table was abandoned" in page and "Resume the game" in page
    refused = client.post(f"/t/{table.id}/act/", {"expected_version": 1, "card_0": "cat", "card_1": "dog"})
    assert refused.status_code == 422 and "resume it" in refused.content.decode()
    assert table.events.count() == 0
    assert client.post(f"/t/{table.id}/resume/", {"expected_version": 1}).status_code == 302
    table.refresh_from_db()
    assert table.abandoned is None and table.version == 2


def test_a_finished_table_cannot_be_abandoned_and_a_watcher_cannot_abandon(client):
    finished = play_out("dogo-dash", ["Ann", "Ben"], seed=1)
    edit_rights(client, finished)
    refused = client.post(f"/t/{finished.id}/abandon/", {"expected_version": finished.version})
    assert refused.status_code == 422 and "kept in the history" in refused.content.decode()
    watched = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    assert client.get(f"/t/{watched.id}/join/{watched.view_token}/").status_code == 302
    assert client.post(f"/t/{watched.id}/abandon/", {"expected_version": 0}).status_code == 403
    watched.refresh_from_db()
    assert watched.abandoned is None


def test_resume_from_the_abandoned_list(client):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    services.abandon(table.id, table.version)
    listed = client.get("/g/default/history/abandoned/").content.decode()
    assert f'href="/g/default/history/plays/{table.id}/"' in listed
    assert client.post(f"/g/default/history/plays/{table.id}/resume/").status_code == 302
    table.refresh_from_db()
    assert table.abandoned is None
    assert client.post(f"/g/default/history/plays/{table.id}/resume/").status_code == 404


def test_a_finished_table_page_shows_its_score_chart_and_history_link(client):
    table = play_out("hang-four", ["Ann", "Ben"], seed=5)
    edit_rights(client, table)
    page = client.get(f"/t/{table.id}/").content.decode()
    assert "Score after each round" in page
    assert f'href="/g/default/history/plays/{table.id}/"' in page


def test_the_api_refuses_entries_on_an_abandoned_table_and_names_why(api):
    table = api.create("dogo-dash", ["Ann", "Ben"])
    services.abandon(table["id"], table["version"])
    refused = api.act(table, {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}, version=1)
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "table_abandoned"
    assert Table.objects.get(pk=table["id"]).events.count() == 0
    undo = api.call(
        "post", f"/api/v1/tables/{table['id']}/undo", {"expected_version": 1}, api.tokens[table["id"]]
    )
    assert undo.status_code == 422 and undo.json()["error"]["code"] == "table_abandoned"


GARBAGE = ["", "abc", "-1", "9" * 30, "1e9", "\x00", "\x1b[2J", "<script>", "[]", "0x10"]


@pytest.mark.parametrize("junk", GARBAGE)
def test_junk_in_every_history_form_and_query_never_500s_and_changes_nothing(client, three_plays, junk):
    """Each answer is a page or a 4xx; names, details and seats are as they were."""
    ann = Player.objects.get(name="Ann")
    table = three_plays[0]
    before = (
        sorted(Player.objects.values_list("pk", "name")),
        sorted(Table.objects.values_list("pk", "place", "duration_minutes", "comments")),
        sorted(Seat.objects.values_list("pk", "player_id")),
    )
    answers = [
        client.get("/g/default/history/", {"game": junk, "player": junk, "page": junk}),
        client.get(f"/g/default/history/plays/{table.id}/replay/", {"step": junk, "view": junk}),
        client.post(f"/g/default/history/players/{ann.pk}/merge/", {"other": junk}),
        client.post(f"/g/default/history/plays/{table.id}/", {"duration_minutes": junk, "place": "x" * 81}),
    ]
    if not junk.isprintable() or not junk:  # a name that cannot be: refused
        answers.append(client.post(f"/g/default/history/players/{ann.pk}/rename/", {"name": junk}))
    assert all(answer.status_code < 500 for answer in answers), [a.status_code for a in answers]
    after = (
        sorted(Player.objects.values_list("pk", "name")),
        sorted(Table.objects.values_list("pk", "place", "duration_minutes", "comments")),
        sorted(Seat.objects.values_list("pk", "player_id")),
    )
    assert after == before


def test_the_bg_stats_link_says_the_time_in_utc_wherever_the_server_is(settings, three_plays):
    """Issue 29: playDate in UTC (companion/history/bgstats.py says why), not the server's time."""
    from django.utils import timezone

    settings.TIME_ZONE = "Pacific/Auckland"
    timezone.activate("Pacific/Auckland")
    try:
        table = stats.archive(home()).get(pk=three_plays[2].id)
        data = bgstats.play_data(table)
    finally:
        timezone.deactivate()
    assert data["playDate"] == "2026-06-03 18:13:00"  # as in UTC above, not Auckland's 06:13 next day


def test_the_bg_stats_link_says_teams_roles_and_no_points(client):
    from companion.tables import services

    table = services.create_table(
        "any-game",
        ["Ann", "Ben", "Cleo", "Dan"],
        {
            "game_name": "Codenames",
            "outcome": "win_loss",
            "teams": [[0, 2], [1, 3]],
            "roles": {"1": "Spymaster"},
        },
    )
    services.play_action(table.id, {"type": "finish", "winners": [1, 3]}, table.version)
    data = bgstats.play_data(stats.archive(home()).get(pk=table.id))
    assert data["game"]["noPoints"] is True
    assert [(p["name"], p["winner"], p["team"], p["role"], p["rank"]) for p in data["players"]] == [
        ("Ann", False, "1", "", 3),  # no points: the winners first, the others after them
        ("Ben", True, "2", "Spymaster", 1),
        ("Cleo", False, "1", "", 3),
        ("Dan", True, "2", "", 1),
    ]


@pytest.mark.parametrize(
    ("slug", "rounds"),
    [("dogo-dash", 9), ("summer-suns", 11), ("hang-four", 10), ("surfs-up", 11), ("any-game", 8)],
)
def test_the_play_chart_has_a_point_per_round_not_per_entry(slug, rounds):
    """Issue 30, 8: the chart of 12 Dogo Dash rounds had 24 points (one per entry). The golden
    playthroughs' rounds, counted by hand from their scripts: Dogo Dash 9 (a tie, a dash, the last
    round's extra entries), 62 Summer Suns 11 rolls before the last, Hang Four 10 laps of the turn,
    Surf's Up! 11 rounds before the last, the Hearts pad 8 rounds; the last point is the end, where
    the last entry changed the score."""
    names, options, _actions = golden_script(slug)
    table = golden_table(slug)
    events = replay.live_events(table)
    labels, series = replay.round_series(table, events)
    assert labels[: rounds + 1] == [str(n) for n in range(rounds + 1)]
    assert labels[rounds + 1 :] in ([], ["end"])
    engine = registry.get(slug)
    start = engine.scores(engine.setup(len(names), base.validate_options(engine, options)))
    assert [values[0] for values in series] == [score["total"] for score in start]
    assert [values[-1] for values in series] == [seat.score for seat in table.seats.order_by("position")]
    assert len(labels) <= len(events) + 1  # a pad's entry is a round; elsewhere a round is several


def test_a_long_word_under_a_narrow_bar_breaks_with_a_hyphen_rather_than_an_ellipsis():
    assert charts._wrap("7 Wonders", 7) == ["7", "Wonders"]
    assert charts._wrap("7 Wonders", 5, 4) == ["7", "Won‐", "ders"]  # between syllables (issue 43)
    assert charts._wrap("Wingspan", 5) == ["Wing‐", "span"]
    assert charts._wrap("62 Summer Suns", 6) == ["62", "Summer", "Suns"]
    assert charts._wrap("10–14", 3) == ["10–", "14"]


def test_close_final_scores_get_end_labels_that_do_not_overlap():
    """Issue 30, 8: end labels 43, 42 and 38 were drawn over each other. Each sits at least a line of
    its 13 px font from the next, a leader line pointing to its point."""
    chart = charts.line_chart(
        [
            {"label": name, "values": values}
            for name, values in (("A", [0, 30, 43]), ("B", [0, 28, 42]), ("C", [0, 20, 38]))
        ]
    )
    ys = sorted(series["end_label"]["y"] for series in chart["series"])
    assert [
        label["text"] for label in sorted((s["end_label"] for s in chart["series"]), key=lambda e: e["y"])
    ] == [
        "43",
        "42",
        "38",
    ]
    assert all(b - a >= charts.END_FONT for a, b in zip(ys, ys[1:], strict=False))
