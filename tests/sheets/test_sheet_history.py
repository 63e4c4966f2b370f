"""A library game is one game in the history (issue 44): a table started from its sheet in French,
one typed in English, and plays imported from BG Stats under the file's own spelling all count
under the library's name, found by BoardGameGeek id; a game outside the library keeps its name."""

from __future__ import annotations

import json

import pytest

from companion.groups.models import Group
from companion.history import stats
from companion.history.importers import bgstats_file, writer
from companion.sheets import library
from companion.tables import services
from companion.tables.models import Table
from tests.history.import_files import PLAYERS, score

pytestmark = pytest.mark.django_db


def pad(group: Group, name: str, bgg_id: int) -> Table:
    options = {"game_name": name, "bgg_id": bgg_id}
    return services.create_table("any-game", ["Ann", "Ben"], options, group)


def test_one_library_game_under_every_name_it_was_played_as():
    club = Group.objects.create(name="Thursday club")
    french = services.create_table(
        "any-game", ["Ann", "Ben"], library.get("ticket-to-ride").pad_options("fr"), club
    )
    typed = pad(club, "ticket to ride", 9209)
    assert french.title == "Les Aventuriers du Rail"  # shown as it was played
    assert french.played == typed.played == "any-game:ticket to ride"
    # another game of that name but no id, and a game outside the library, keep their own names
    assert pad(club, "Les Aventuriers du Rail", 0).played == "any-game:les aventuriers du rail"
    assert pad(club, "Our House Game", 4242424).played == "any-game:our house game"


def test_plays_imported_under_the_files_spelling_join_the_library_game():
    club = Group.objects.create(name="Thursday club")
    game = {"id": 9, "uuid": "g-ttr", "name": "Ticket To Ride!", "bggId": 9209, "highestWins": True}
    play = {
        "uuid": "play-ttr",
        "playDate": "2024-05-03 20:00:00",
        "gameRefId": 9,
        "playerScores": [score(11, "101", winner=True), score(12, "95")],
    }
    raw = json.dumps({"games": [game], "players": PLAYERS[:2], "plays": [play], "locations": []})
    writer.import_file(club, bgstats_file.read(raw.encode()))
    imported = Table.objects.get(group=club, origin_id="play-ttr")
    assert imported.title == "Ticket To Ride!" and imported.played == "any-game:ticket to ride"
    pad(club, "Les Aventuriers du Rail", 9209)
    assert Table.objects.filter(group=club, played="any-game:ticket to ride").count() == 2
    pads = [row for row in stats.games_overview(club) if row["slug"].startswith("any-game:")]
    assert pads == [{"slug": "any-game:ticket to ride", "name": "Ticket To Ride!", "plays": 1}]
