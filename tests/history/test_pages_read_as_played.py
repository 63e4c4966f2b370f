"""Issue 42, findings 3, 5 and the pages' half of 4 and 7: the history's pages read an imported
play as its file recorded it (a tie only when tied, no 0 for no score, a team's score once), leave
guests out of every list of players, count the built-in Yahtzee and an imported "Yahtzee" as one
game, place a play on the day it started, show no time of day a file did not give, and page the
API's plays. Files are written here from shared/HISTORY_FORMATS.md."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from companion.groups.models import Group
from companion.history import ratings, same_game, stats
from companion.history.importers import bgg_file, bgstats_file, writer
from companion.tables.models import Player, Table
from tests.history.factories import play_out
from tests.history.test_people_and_plays_once import (
    ALEX,
    BEA,
    CATAN,
    GUEST,
    bgg_file_of,
    bgg_play,
    bgg_player,
    bgstats_file_of,
    bgstats_play,
    score,
)

pytestmark = pytest.mark.django_db

CLEO = {"id": 4, "uuid": "p-cleo", "name": "Cleo", "isAnonymous": False, "bggUsername": ""}
DAN = {"id": 5, "uuid": "p-dan", "name": "Dan", "isAnonymous": False, "bggUsername": ""}
GOLF = {"id": 2, "uuid": "g-golf", "name": "Golf", "bggId": 0, "highestWins": False, "noPoints": False,
        "cooperative": False, "usesTeams": False, "isBaseGame": True, "isExpansion": False}  # fmt: skip
PEOPLE = (ALEX, BEA, CLEO, DAN, GUEST)


@pytest.fixture
def club() -> Group:
    return Group.objects.create(name="Thursday club")


@pytest.fixture
def member(club) -> Client:
    client = Client()
    assert client.get(f"/g/{club.pk}/join/{club.token}/").status_code == 302
    return client


def bring(club: Group, *plays: dict, games=(CATAN,)) -> dict:
    answer = writer.import_file(club, bgstats_file.read(bgstats_file_of(*plays, players=PEOPLE, games=games)))
    assert answer["warnings"] == []
    return answer


def text_of(page: bytes) -> str:
    """A page's words, tags dropped and spaces folded, as a person reads them."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.decode())))


def headline(member: Client, club: Group, origin_id: str) -> str:
    table = Table.objects.get(group=club, origin_id=origin_id)
    page = member.get(f"/g/{club.pk}/history/plays/{table.pk}/").content.decode()
    return html.unescape(re.search(r"🏆 (.+?)</p>", page)[1])


# --- Finding 3: an imported play's result -------------------------------------------------------


def test_a_winner_with_more_points_wins_and_a_tie_is_said_only_when_tied(member, club):
    bring(
        club,
        bgstats_play("clear", "2024-01-05 20:00:00", score(ALEX, "10", True), score(BEA, "8")),
        bgstats_play("tied", "2024-01-06 20:00:00", score(ALEX, "9", True), score(BEA, "9")),
        bgstats_play("shared", "2024-01-07 20:00:00", score(ALEX, "7", True), score(BEA, "7", True)),
    )
    assert headline(member, club, "clear") == "Alex wins with 10 points"
    assert headline(member, club, "tied") == "Alex wins the tie with 9 points"  # the file's tiebreak
    assert headline(member, club, "shared") == "Alex and Bea share the win with 7 points"


def test_a_winner_without_a_score_wins_with_no_zero_points(member, club):
    writer.import_file(
        club,
        bgg_file.read(
            bgg_file_of(bgg_play(5, "2024-02-01", bgg_player("Bea", "", True), bgg_player("Alex", "3")))
        ),
    )
    table = Table.objects.get(group=club)
    assert [(seat.player.name, seat.score) for seat in table.seats.order_by("position")] == [
        ("Bea", None),
        ("Alex", 3),
    ]
    page = text_of(member.get(f"/g/{club.pk}/history/plays/{table.pk}/").content)
    assert "🏆 Bea wins " in page and "0 points" not in page and "None" not in page
    assert "Player Total Bea — Alex 3 " in page  # Bea's score is no number: a dash, not 0
    bea = Player.objects.get(group=club, name="Bea")
    games = member.get(f"/g/{club.pk}/history/games/").content.decode()
    catan = re.search(r'href="([^"]+/history/games/[^"]+/)"[^>]*>\s*<[^>]+>\s*Catan', games)
    for figures in (f"/g/{club.pk}/history/players/{bea.pk}/", html.unescape(catan[1])):
        answer = member.get(figures)
        assert answer.status_code == 200 and "None" not in text_of(answer.content), figures


def test_a_teams_score_counts_once(member, club):
    bring(
        club,
        bgstats_play(
            "teams",
            "2024-03-01 20:00:00",
            score(ALEX, "5", True, team="Red"),
            score(BEA, "5", True, team="Red"),
            score(CLEO, "3", team="Blue"),
            score(DAN, "3", team="Blue"),
        ),
    )
    assert headline(member, club, "teams") == "Alex and Bea win with 5 points together"
    table = Table.objects.get(origin_id="teams")
    # The ratings rank Red (5) over Blue (3), each team's score once: the winners gain.
    sides, ranks = ratings.rating_sides(table, list(table.seats.order_by("position")))
    assert [[seat.player.name for seat in side] for side in sides] == [["Alex", "Bea"], ["Cleo", "Dan"]]
    assert ranks == [1, 2]


# --- Finding 5: guests are in their plays, never in a list of players ------------------------------


def test_guests_are_in_their_plays_and_in_no_list_of_players(member, club):
    bring(
        club,
        *[
            bgstats_play(
                f"p{n}", f"2024-04-{n:02d} 20:00:00", score(ALEX, str(10 + n), True), score(GUEST, "2")
            )
            for n in range(1, 7)
        ],
    )
    guest = Player.objects.get(group=club, guest=True)
    assert guest.name == "Guest" and guest.seats.count() == 6
    players = text_of(member.get(f"/g/{club.pk}/history/players/").content)
    assert "Alex" in players and "Guest" not in players
    api = Client(HTTP_AUTHORIZATION=f"Bearer {club.token}")
    assert [row["name"] for row in api.get(f"/api/v1/groups/{club.pk}/players").json()] == ["Alex"]
    assert api.get(f"/api/v1/groups/{club.pk}").json()["players"] == 1
    board = ratings.game_ratings(club, "any-game:catan")
    assert [(one.player.name, one.plays, one.wins, one.new) for one in board] == [("Alex", 6, 6, False)]
    alex = Player.objects.get(group=club, name="Alex")
    assert stats.opponents(alex) == []  # a guest is nobody's head-to-head
    # The play itself still says who sat there.
    table = Table.objects.get(origin_id="p1")
    assert "Guest" in text_of(member.get(f"/g/{club.pk}/history/plays/{table.pk}/").content)


def test_a_rating_below_zero_after_five_plays_is_shown_as_its_number(member, club):
    bring(
        club,
        *[
            bgstats_play(f"p{n}", f"2024-05-{n:02d} 20:00:00", score(ALEX, "9", True), score(BEA, "4"))
            for n in range(1, 6)
        ],
    )
    board = {one.player.name: one for one in ratings.game_ratings(club, "any-game:catan")}
    assert board["Bea"].plays == 5 and board["Bea"].rating < 0 and not board["Bea"].new
    page = text_of(member.get(f"/g/{club.pk}/history/games/any-game:catan/").content)
    assert f"Bea {board['Bea'].rating:.1f} 5 0" in page  # her place, her rating, plays, wins
    assert "a rating below 0 is usual" in page


def test_the_best_score_of_a_game_where_the_lowest_wins_is_the_lowest(club):
    bring(
        club,
        bgstats_play("g1", "2024-06-01 20:00:00", score(ALEX, "72", True), score(BEA, "80"), gameRefId=2),
        bgstats_play("g2", "2024-06-08 20:00:00", score(ALEX, "90"), score(BEA, "75", True), gameRefId=2),
        games=(CATAN, GOLF),
    )
    alex = Player.objects.get(group=club, name="Alex")
    assert [(row["name"], row["best"], row["latest"], row["wins"]) for row in stats.player_games(alex)] == [
        ("Golf", 72, 90, 1)
    ]


# --- The built-in Yahtzee and an imported "Yahtzee" are one game ---------------------------------


def test_an_imported_yahtzee_is_the_built_in_game_and_a_namesake_stays_apart(member, club):
    play_out("yahtzee", ["Alex", "Bea"], seed=3, group=club)
    writer.import_file(
        club,
        bgg_file.read(
            bgg_file_of(
                bgg_play(1, "2024-01-01", bgg_player("Alex", "250", True), game="Yahtzee", objectid=2243),
                bgg_play(2, "2024-01-02", bgg_player("Alex", "180", True), game="Yahtzee", objectid=2243),
            )
        ),
    )
    twins = same_game.twins(club)
    assert twins.of_engine == {"any-game:yahtzee": "yahtzee"} and not twins.namesakes
    games = {row["slug"]: (row["name"], row["plays"]) for row in stats.games_overview(club)}
    assert games["yahtzee"] == ("Yahtzee", 3) and "any-game:yahtzee" not in games
    moved = member.get(f"/g/{club.pk}/history/games/any-game:yahtzee/")
    assert moved.status_code == 302 and moved["Location"] == f"/g/{club.pk}/history/games/yahtzee/"
    alex = Player.objects.get(group=club, name="Alex")
    assert [(row["game"], row["plays"]) for row in stats.player_games(alex)] == [("yahtzee", 3)]
    # Another game of that name on BoardGameGeek (another id) is its own game, named apart.
    other = Group.objects.create(name="Other club")
    play_out("yahtzee", ["Alex", "Bea"], seed=3, group=other)
    writer.import_file(
        other,
        bgg_file.read(
            bgg_file_of(bgg_play(3, "2024-01-03", bgg_player("Alex", "9", True), game="Yahtzee", objectid=1))
        ),
    )
    assert same_game.twins(other).namesakes == {"any-game:yahtzee"}
    names = {row["slug"]: (row["name"], row["plays"]) for row in stats.games_overview(other)}
    assert names["yahtzee"] == ("Yahtzee", 1) and names["any-game:yahtzee"] == ("Yahtzee (imported)", 1)


# --- Finding 4: times as played, on the pages ----------------------------------------------------


def test_a_play_is_on_the_night_and_year_it_started_and_an_untimed_one_shows_no_time(member, club):
    club.time_zone = "Europe/Berlin"
    club.save()
    bring(
        club,
        bgstats_play("nye", "2024-12-31 23:30:00", score(ALEX, "10", True), score(BEA, "2"), durationMin=70),
    )
    writer.import_file(
        club, bgg_file.read(bgg_file_of(bgg_play(9, "2025-03-02", bgg_player("Bea", "4", True))))
    )
    night = text_of(member.get(f"/g/{club.pk}/history/nights/2024-12-31/").content)
    assert "Catan 23:30" in night  # the old year's evening, at the time it started in Berlin
    assert "Catan" not in text_of(member.get(f"/g/{club.pk}/history/nights/2025-01-01/").content)
    archive = text_of(member.get(f"/g/{club.pk}/history/").content)
    assert "Tue 31 Dec 2024" in archive
    untimed = Table.objects.get(origin_id="9")
    facts = text_of(member.get(f"/g/{club.pk}/history/plays/{untimed.pk}/").content)
    assert "Sun 2 Mar 2025 · 60 min · from BoardGameGeek" in facts
    assert "00:00" not in facts and "01:00" not in facts
    spring = text_of(member.get(f"/g/{club.pk}/history/nights/2025-03-02/").content)
    assert re.search(r"Catan Won by Bea", spring)  # no time of day beside the game's name


# --- The API's plays, paged ------------------------------------------------------------------------


def test_the_apis_plays_come_a_hundred_at_a_time_with_a_link_to_the_next(club):
    bring(
        club,
        *[
            bgstats_play(
                f"p{n}", f"2024-{1 + n // 28:02d}-{1 + n % 28:02d} 20:00:00", score(ALEX, str(n), True)
            )
            for n in range(120)
        ],
    )
    api = Client(HTTP_AUTHORIZATION=f"Bearer {club.token}")
    first = api.get(f"/api/v1/groups/{club.pk}/plays")
    assert first.status_code == 200 and len(first.json()) == 100
    assert first["Link"] == f'<http://testserver/api/v1/groups/{club.pk}/plays?page=2>; rel="next"'
    assert [seat["score"] for seat in first.json()[0]["seats"]] == [119]  # newest first
    second = api.get(f"/api/v1/groups/{club.pk}/plays?page=2")
    assert [play["seats"][0]["score"] for play in second.json()] == list(range(19, -1, -1))
    assert "Link" not in second
    assert api.get(f"/api/v1/groups/{club.pk}/plays?page=3").json() == []
    bad = api.get(f"/api/v1/groups/{club.pk}/plays?page=zero")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_page"
