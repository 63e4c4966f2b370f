"""A co-op loss is a loss everywhere (issue 43, item 5; AG-7): the table's result has no trophy, no
0/0/0 table and no empty chart; the history lists "lost together", never "Ann 0 · Ben 0"; the
night says it and its share card too; a game without a score shows no average. A co-op game that
kept its (optional) score shows it."""

from __future__ import annotations

import datetime as dt
import importlib
import re

import pytest
from django.apps import apps
from django.test import Client

from companion.history import night, night_card
from companion.tables import services
from companion.tables.models import Table
from tests.history.test_pages_read_as_played import text_of

pytestmark = pytest.mark.django_db


def pad(names: list[str], *actions: dict, outcome: str = "coop") -> Table:
    table = services.create_table("any-game", names, {"game_name": "Pandemic", "outcome": outcome})
    for action in actions:
        services.play_action(table.id, action, table.version)
        table.refresh_from_db()
    return table


def scores(table: Table) -> list[tuple]:
    return [(seat.player.name, seat.score, seat.won) for seat in table.seats.order_by("position")]


def page(client: Client, table: Table) -> str:
    client.get(f"/t/{table.id}/join/{table.token}/")
    return client.get(f"/t/{table.id}/").content.decode()


def test_a_coop_loss_without_a_score_reads_as_a_loss_on_every_page(client):
    lost = pad(["Ann", "Ben", "Cat"], {"type": "finish", "won": False})
    assert scores(lost) == [("Ann", None, False), ("Ben", None, False), ("Cat", None, False)]
    table_page = page(client, lost)
    result = table_page[table_page.index('<section class="result') :]
    result = result[: result.index("</section>")]
    assert "The game won: everyone lost together" in result and "🏆" not in result
    assert "border-secondary" in result and "<table" not in result  # no 0/0/0
    assert 'class="chart' not in table_page  # no empty score chart

    archive = text_of(client.get("/g/default/history/").content)
    assert "Ann · Ben · Cat — lost together against the game" in archive
    assert not re.search(r"Ann 0|Ben 0|Cat 0", archive)
    # The evening it was played: a play after midnight is the night before's (night.evening_of),
    # so this test reads the same page at 00:30 as at 21:00.
    day = night.evening_of(lost.created, night.zone(lost.group))
    evening = text_of(client.get(f"/g/default/history/nights/{day.isoformat()}/").content)
    assert "Lost together against the game." in evening and "Nobody won." not in evening
    story = night.play_story(lost)
    assert night_card.outcome(story) == "lost together against the game" and night_card.scores(story) == ""
    game = text_of(client.get("/g/default/history/games/any-game:pandemic/").content)
    assert "0.0" not in game and "Average score" not in game


def test_a_coop_game_that_kept_its_score_shows_it():
    won = pad(["Ann", "Ben"], {"type": "score", "points": {"0": 7, "1": 7}}, {"type": "finish", "won": True})
    assert scores(won) == [("Ann", 7, True), ("Ben", 7, True)]
    client = Client()
    result = page(client, won)
    assert "🏆 Everyone won together" in result and "border-success" in result and "<table" in result
    story = night.play_story(won)
    assert (night_card.outcome(story), night_card.scores(story)) == ("won together", "Ann 7 · Ben 7")
    archive = text_of(client.get("/g/default/history/").content)
    assert "🏆 Ann 7 · 🏆 Ben 7 — won together" in archive


def test_the_share_card_gives_each_play_its_scores_or_outcome():
    points = pad(
        ["Ann", "Ben"], {"type": "score", "points": {"0": 12, "1": 9}}, {"type": "finish"}, outcome="points"
    )
    story = night.play_story(points)
    assert (night_card.outcome(story), night_card.scores(story)) == ("won by Ann", "Ann 12 · Ben 9")
    nobody = {"winners": [], "scores": [("Ann", None)], "together": ""}
    assert (night_card.outcome(nobody), night_card.scores(nobody)) == ("nobody won", "")
    day = {"day": dt.date(2026, 3, 1), "champions": ["Ann"], "champion_wins": 1, "plays": [story] * 3}
    assert night_card.png(day, "Thursday club").startswith(b"\x89PNG")


def test_the_migration_takes_the_zeros_of_a_coop_game_without_a_score():
    """Plays finished before the fix kept 0 for every seat (tables/migrations/0021)."""
    lost = pad(["Ann", "Ben"], {"type": "finish", "won": False})
    kept = pad(
        ["Ann", "Ben"], {"type": "score", "points": {"0": 5, "1": 5}}, {"type": "finish", "won": False}
    )
    lost.seats.update(score=0)  # as record_result wrote it then
    version = lost.version
    migration = importlib.import_module("companion.tables.migrations.0021_coop_without_a_score")
    migration.no_score_for_a_coop_game_without_one(apps, None)
    lost.refresh_from_db()
    assert scores(lost) == [("Ann", None, False), ("Ben", None, False)] and lost.version == version + 1
    assert scores(kept) == [("Ann", 5, False), ("Ben", 5, False)]
