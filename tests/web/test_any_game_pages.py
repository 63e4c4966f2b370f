"""The score pad through the pages and in the history: the new-table form, a keypad round, the
refusals that keep what was typed, categories, the end, and each game's name as a game of its own."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import uuid
from urllib.parse import unquote

import pytest

from companion.history import bgstats, stats
from companion.tables.models import Table
from tests.history.factories import home

from .text import read

pytestmark = pytest.mark.django_db

HEARTS = {
    "option_game_name": "Hearts",
    "option_mode": "rounds",
    "option_lowest_wins": "on",
    "option_target": "100",
}


def start(client, players: list[str], **options) -> Table:
    fields = {f"player_{i}": name for i, name in enumerate(players)}
    response = client.post("/new/any-game/", {**fields, "option_mode": "rounds", **options})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get(pk=response["Location"].split("/")[2])


def enter(client, table: Table, **fields) -> str:
    table.refresh_from_db()
    data = {"expected_version": table.version, "idempotency_key": uuid.uuid4().hex, **fields}
    response = client.post(f"/t/{table.id}/act/", data, HTTP_HX_REQUEST="true")
    return response.status_code, response.content.decode()


def test_the_form_asks_for_the_game_first_and_starts_a_pad(client):
    page = client.get("/new/any-game/").content.decode()
    assert page.index("The game") < page.index("Seat 1")  # which game, then who plays
    assert 'name="option_mode" value="rounds"' in page and "A row of points per round" in page
    assert page.count('class="seat-row more-seat"') == 16  # 20 seats: four shown, the others one by one
    table = start(client, ["Ann", "Ben", "Cleo", "Dan"], **HEARTS, option_bgg_id="6887")
    assert table.title == "Hearts" and table.played == "any-game:hearts" and table.game_name == "Hearts"
    assert table.snapshot["target"] == 100 and table.snapshot["lowest_wins"] is True
    page = client.get(f"/t/{table.id}/").content.decode()
    assert '<h1 class="h4 mb-0">Hearts</h1>' in page and "Round 1 · to 100 · lowest wins" in page
    assert page.count('inputmode="numeric"') == 4 and 'enterkeyhint="done"' in page


def test_a_refused_setup_says_why_and_makes_nothing(client):
    response = client.post(
        "/new/any-game/", {"player_0": "Ann", "option_mode": "rounds", "option_game_name": " "}
    )
    assert response.status_code == 400
    assert "Name the game this pad keeps the score of (AG-1)." in response.content.decode()
    response = client.post(
        "/new/any-game/",
        {
            "player_0": "Ann",
            "option_mode": "categories",
            "option_game_name": "7 Wonders",
            "option_categories": "",
        },
    )
    assert "A pad of categories has 1 to 30 of them, not 0 (AG-1)." in response.content.decode()
    assert not Table.objects.exists()


def test_a_keypad_round_with_a_minus_key_ranks_and_the_target(client):
    table = start(client, ["Ann", "Ben", "Cleo"], **HEARTS)
    status, page = enter(client, table, points_0="13", points_1="4", minus_2="1", points_2="9")
    assert status == 200
    table.refresh_from_db()
    assert table.snapshot["rounds"] == [{"0": 13, "1": 4, "2": -9}]
    assert "Last entry:</span> Round 1: Ann 13, Ben 4, Cleo -9." in page
    ranks = re.findall(r'<small class="text-body-secondary">(=?\d+(?:st|nd|rd|th))</small>', page)
    assert ranks == ["3rd", "2nd", "1st"]  # the lowest total leads in Hearts
    assert "Round 2" in page and "The first total to reach 100 ends the game; the lowest total wins" in page
    status, page = enter(client, table, points_0="90", points_1="−2", points_2="0")  # a phone's minus sign
    assert status == 200
    table.refresh_from_db()
    assert table.status == "finished" and [seat.score for seat in table.seats.all()] == [103, 2, -9]
    assert [seat.won for seat in table.seats.all()] == [False, False, True]
    assert "Cleo wins with -9 points" in page and "A total reached the target." in page


def test_a_refused_round_keeps_what_was_typed_and_names_who_is_missing(client):
    table = start(client, ["Ann", "Ben", "Cleo"], option_game_name="Skull King")
    status, page = enter(client, table, points_0="20", points_1="", points_2="x1")
    assert 'Cleo\'s points must be a whole number, not "x1" (AG-2).' in html.unescape(read(page))
    assert 'name="points_0" id="points-0" value="20"' in page and 'value="x1"' in page
    status, page = enter(client, table, points_0="20", points_1="", points_2="10")
    assert "enter Ben's too, 0 for nothing (AG-3)." in html.unescape(read(page))
    assert Table.objects.get(pk=table.id).version == 0


def test_finish_and_undo(client):
    table = start(client, ["Ann", "Ben"], option_game_name="Skull King")
    page = client.get(f"/t/{table.id}/").content.decode()
    assert "finish the pad" not in page  # nothing to finish before a round (AG-5)
    enter(client, table, points_0="30", points_1="50")
    status, page = enter(client, table, type="finish")
    assert status == 200 and "Ben wins with 50 points" in page and "The table closed the pad." in page
    table.refresh_from_db()
    response = client.post(
        f"/t/{table.id}/undo/", {"expected_version": table.version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.status == "in_progress" and table.seats.filter(won=True).count() == 0


def test_categories_one_at_a_time_with_the_others_a_tap_away(client):
    table = start(
        client,
        ["Ann", "Ben"],
        option_game_name="7 Wonders",
        option_mode="categories",
        option_categories="Military\nCoins\n\nWonder\n",
    )
    assert table.snapshot["categories"] == ["Military", "Coins", "Wonder"]
    page = client.get(f"/t/{table.id}/").content.decode()
    assert '<h2 class="prompt-title">Military</h2>' in page and "0 of 6 written" in page
    assert 'href="?category=Coins"' in page
    page = client.get(f"/t/{table.id}/?category=Coins").content.decode()
    assert '<h2 class="prompt-title">Coins</h2>' in page
    status, page = enter(client, table, category="Coins", points_0="4", points_1="")
    assert status == 200 and "Last entry:</span> Coins: Ann 4." in page
    page = client.get(f"/t/{table.id}/?category=Coins").content.decode()
    assert 'name="points_1"' in page and 'name="points_0"' not in page  # Ann's Coins is written
    enter(client, table, category="Coins", points_1="6")
    enter(client, table, category="Military", points_0="5", points_1="1")
    status, page = enter(client, table, category="Wonder", points_0="3", points_1="3")
    table.refresh_from_db()
    assert table.status == "finished" and [seat.score for seat in table.seats.all()] == [12, 10]
    assert "Ann wins with 12 points" in page and "Every cell is written." in page


def play_pad(client, name: str, players: list[str], rounds: list[list[int]], **options) -> Table:
    table = start(client, players, option_game_name=name, **options)
    for points in rounds:
        enter(client, table, **{f"points_{seat}": str(value) for seat, value in enumerate(points)})
    if table.snapshot.get("end_reason") is None:
        enter(client, table, type="finish")
    table.refresh_from_db()
    return table


def test_each_game_name_is_a_game_of_its_own_in_the_history(client):
    first = play_pad(
        client, "Hearts", ["Ann", "Ben"], [[60, 20], [50, 10]], option_lowest_wins="on", option_target="100"
    )
    second = play_pad(client, "hearts ", ["Ann", "Ben"], [[10, 30]], option_lowest_wins="on")
    other = play_pad(client, "Skull King", ["Ann", "Cleo"], [[40, 20]], option_bgg_id="150145")
    assert first.played == second.played == "any-game:hearts" and other.played == "any-game:skull king"
    games = {game["slug"]: (game["name"], game["plays"]) for game in stats.games_overview(home())}
    assert games["any-game:hearts"][1] == 2 and games["any-game:skull king"] == ("Skull King", 1)
    assert "any-game" not in games  # the pad itself is no game
    page = client.get("/g/default/history/games/any-game:hearts/").content.decode()
    assert '<h1 class="h3 mb-3">hearts</h1>' in page  # as its latest play spelled it
    tiles = re.findall(r'<span class="stat-value">([^<]+)</span>', page)
    assert tiles[0] == "2"
    assert "Best: 10 by" in page  # the lowest total is the best in Hearts
    assert "/new/any-game/?like=any-game%3Ahearts" in page
    form = client.get("/new/any-game/?like=any-game%3Askull%20king").content.decode()
    assert 'value="Skull King"' in form and 'value="150145"' in form
    form = client.get("/new/any-game/").content.decode()
    assert '<option value="hearts">' in form and 'value="Hearts"' not in form  # typed before, once
    blank = client.get("/new/any-game/?like=any-game%3A%00hearts")  # no play holds NUL: a blank form
    assert blank.status_code == 200 and 'value="Hearts"' not in blank.content.decode()
    archive = client.get("/g/default/history/?game=any-game%3Askull+king").content.decode()
    assert (
        f"/g/default/history/plays/{other.id}/" in archive
        and f"/g/default/history/plays/{first.id}/" not in archive
    )
    player = client.get(
        f"/g/default/history/players/{first.seats.get(position=0).player_id}/"
    ).content.decode()
    assert 'href="/g/default/history/games/any-game:hearts/"' in player and "Skull King" in player


def test_exports_name_the_game_played(client):
    table = play_pad(client, "Skull King", ["Ann", "Ben"], [[40, 20]], option_bgg_id="150145")
    rows = list(csv.DictReader(io.StringIO(client.get("/g/default/history/plays.csv").content.decode())))
    assert {(row["game"], row["game_name"]) for row in rows} == {("any-game", "Skull King")}
    play = stats.archive(home()).get(pk=table.id)
    data = bgstats.play_data(play)
    assert data["game"] == {
        "name": "Skull King",
        "sourceGameId": "any-game:skull king",
        "bggId": 150145,
        "highestWins": True,
        "noPoints": False,
    }
    link = json.loads(unquote(bgstats.play_link(play).split("data=", 1)[1]))
    assert link["players"][0]["winner"] is True and link["players"][0]["rank"] == 1


def test_where_the_lowest_total_wins_the_exports_rank_the_lowest_first(client):
    """Hearts for four, one round then finish: Cleo's 2 wins, Ben's 5 is 2nd, Ann and Dan share 3rd
    on 9, in the CSV and in the BG Stats link alike (issue 15: ranks agree with the winners)."""
    table = play_pad(client, "Hearts", ["Ann", "Ben", "Cleo", "Dan"], [[9, 5, 2, 9]], option_lowest_wins="on")
    rows = list(csv.DictReader(io.StringIO(client.get("/g/default/history/plays.csv").content.decode())))
    assert [(row["player"], row["rank"], row["winner"]) for row in rows] == [
        ("Ann", "3", "false"),
        ("Ben", "2", "false"),
        ("Cleo", "1", "true"),
        ("Dan", "3", "false"),
    ]
    data = bgstats.play_data(stats.archive(home()).get(pk=table.id))
    assert [(p["name"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Ann", 3, False),
        ("Ben", 2, False),
        ("Cleo", 1, True),
        ("Dan", 3, False),
    ]
    assert data["game"]["highestWins"] is False
