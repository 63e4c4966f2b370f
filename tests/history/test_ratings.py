"""OpenSkill ratings per game (issue 16, companion/history/ratings.py): the figures of a small
fixed history, pinned; the order of finishing counts; a play leaving the history leaves them."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from companion.history import people, ratings
from companion.tables.models import Player, Table
from tests.history.factories import home

from .factories import finished_play

pytestmark = pytest.mark.django_db

DAY = dt.timedelta(days=1)


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()  # the boards are kept in the cache under a stamp of the history


@pytest.fixture
def history():
    start = timezone.now() - 10 * DAY
    return [
        finished_play("dogo-dash", [("Ann", 30, True), ("Ben", 20, False), ("Cleo", 10, False)], start),
        finished_play("dogo-dash", [("Ann", 25, True), ("Ben", 25, True), ("Cleo", 5, False)], start + DAY),
        finished_play("dogo-dash", [("Cleo", 30, False), ("Ann", 40, True)], start + 2 * DAY),
        finished_play("hang-four", [("Ben", 4, True), ("Ann", 2, False)], start + 3 * DAY),  # another game
    ]


def board(key="dogo-dash", group=None):
    return [
        (one.player.name, round(one.mu, 3), round(one.sigma, 3), one.plays)
        for one in ratings.game_ratings(group or home(), key)
    ]


def wins(key="dogo-dash"):
    return {one.player.name: one.wins for one in ratings.game_ratings(home(), key)}


def test_a_small_history_gives_these_ratings(history):
    # Plackett-Luce from mu 25, sigma 25/3: Ann won all three (one shared with Ben), Cleo lost all.
    # Worked out with openskill's PlackettLuce directly, play by play, in the order they finished.
    assert board() == [
        ("Ann", 30.097, 7.833, 3),
        ("Ben", 26.359, 7.937, 2),
        ("Cleo", 18.609, 7.733, 3),
    ]
    assert wins() == {"Ann": 3, "Ben": 1, "Cleo": 0}  # Ann and Ben shared the second play's win
    assert [one.rating for one in ratings.game_ratings(home(), "dogo-dash")] == sorted(
        [one.rating for one in ratings.game_ratings(home(), "dogo-dash")], reverse=True
    )
    assert board("hang-four") == [("Ben", 27.635, 8.066, 1), ("Ann", 22.365, 8.066, 1)]


def test_a_play_undone_back_into_progress_leaves_the_ratings(history):
    before = board()
    Table.objects.filter(pk=history[2].pk).update(status=Table.Status.IN_PROGRESS, finished=None)
    after = board()
    assert after != before and after == [
        ("Ann", 28.32, 8.067, 2),
        ("Ben", 26.359, 7.937, 2),  # Ben was not at the third play: his rating did not move
        ("Cleo", 20.337, 7.954, 2),
    ]


def test_the_player_page_shows_each_game_s_rating_and_place(client, history):
    ann = Player.objects.get(name="Ann")
    html = client.get(f"/g/default/history/players/{ann.pk}/").content.decode()
    # Issue 29: a few plays say little; a player is "new" rather than a bare (negative) number.
    assert "Dogo Dash: new, 3 plays; not rated yet." in html
    assert "Hang Four: new, 1 play; not rated yet." in html and "-1.8" not in html and "±" not in html
    page = client.get("/g/default/history/games/dogo-dash/").content.decode()
    assert page.index(">Ann</a>") < page.index(">Ben</a>") < page.index(">Cleo</a>")
    assert page.count(">new</span>") == 3 and "A player with fewer than 5 plays is new" in page
    # Two more wins: five plays, rated, with her place.
    start = timezone.now() - 5 * DAY
    for day in range(2):
        finished_play("dogo-dash", [("Ann", 30, True), ("Cleo", 10, False)], start + day * DAY)
    cache.clear()
    rated = next(one for one in ratings.game_ratings(home(), "dogo-dash") if one.player.name == "Ann")
    assert rated.plays == 5 and not rated.new and rated.rating > 0
    html = client.get(f"/g/default/history/players/{ann.pk}/").content.decode()
    assert f"Dogo Dash: rating <strong>{rated.rating:.1f}</strong>, 1 of 3" in html


def test_a_merge_is_followed_though_the_boards_are_kept_in_the_cache(history, django_assert_max_num_queries):
    group = home()
    board("hang-four", group)  # computed and kept
    with django_assert_max_num_queries(3):  # the stamp and the players: the plays are not read
        assert board("hang-four", group) == [("Ben", 27.635, 8.066, 1), ("Ann", 22.365, 8.066, 1)]
    # Dan is one more name for Ben: his one Hang Four play (a loss to Ann) joins Ben's.
    finished_play("hang-four", [("Ann", 3, True), ("Dan", 1, False)], timezone.now() - DAY)
    people.merge(Player.objects.get(name="Ben"), Player.objects.get(name="Dan"))
    # Checked with openskill by hand: Ben beat Ann, then (as Dan) lost to her.
    assert board("hang-four") == [("Ann", 25.411, 7.823, 2), ("Ben", 24.589, 7.823, 2)]


def rated_from_scratch(key="dogo-dash"):
    cache.clear()  # neither the boards nor where the ratings got to (resumable.py)
    return board(key)


def test_a_play_that_finishes_later_is_rated_on_where_the_ratings_got_to(history):
    assert board() == rated_from_scratch()  # kept: the board, and where the ratings got to
    # Ben beats Cleo today. The board's stamp changed: only the new play is read (issue 42).
    finished_play("dogo-dash", [("Ben", 30, True), ("Cleo", 12, False)], timezone.now())
    with CaptureQueriesContext(connection) as read:
        resumed = board()
    plays_read = [q["sql"] for q in read.captured_queries if '"tables_table"."finished" >' in q["sql"]]
    assert plays_read, "the ratings were computed again from the first play"
    # Checked with openskill's PlackettLuce directly: the three plays above, then Ben over Cleo.
    assert (
        resumed
        == rated_from_scratch()
        == [
            ("Ann", 30.097, 7.833, 3),
            ("Ben", 28.118, 7.705, 3),
            ("Cleo", 16.939, 7.525, 4),
        ]
    )


@pytest.mark.parametrize("change", ["older play", "undo", "merge"])
def test_a_change_before_where_the_ratings_got_to_rates_from_the_first_play(history, change):
    before = board()
    if change == "older play":  # an import of a play that finished before the others
        finished_play("dogo-dash", [("Cleo", 50, True), ("Ann", 1, False)], timezone.now() - 30 * DAY)
    elif change == "undo":  # the first play back into progress
        Table.objects.filter(pk=history[0].pk).update(status=Table.Status.IN_PROGRESS, finished=None)
    else:  # Dan, who beat Cleo long ago, is one more name for Ben (his tables' versions move)
        finished_play("dogo-dash", [("Dan", 9, True), ("Cleo", 2, False)], timezone.now() - 30 * DAY)
        cache.clear()
        before = board()
        people.merge(Player.objects.get(name="Ben"), Player.objects.get(name="Dan"))
    after = board()
    assert after != before and after == rated_from_scratch()


# --- Teams, games without points, co-op (issue 29, AG-7, AG-8) ----------------------------------


def pad(game: str, names: list[str], options: dict, *actions: dict) -> Table:
    from companion.tables import services

    table = services.create_table("any-game", names, {"game_name": game, **options})
    for action in actions:
        services.play_action(table.id, action, table.version)
        table.refresh_from_db()
    return table


def test_a_team_game_rates_team_against_team():
    from openskill.models import PlackettLuce

    spades = {"teams": [[0, 2], [1, 3]]}
    round_ = {"type": "score", "points": {"0": 60, "1": 40, "2": 30, "3": 40}}  # 90 against 80
    pad("Spades", ["Ann", "Ben", "Cleo", "Dan"], spades, round_, {"type": "finish"})
    model = PlackettLuce()
    winners, losers = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1, 2]
    )
    expected = [
        (name, round(rating.mu, 3), round(rating.sigma, 3), 1)
        for name, rating in (
            ("Ann", winners[0]),
            ("Cleo", winners[1]),
            ("Ben", losers[0]),
            ("Dan", losers[1]),
        )
    ]
    assert board("any-game:spades") == expected
    assert expected[0][1:] == expected[1][1:] and expected[0][1] > 25 > expected[2][1]  # partners alike
    assert wins("any-game:spades") == {"Ann": 1, "Cleo": 1, "Ben": 0, "Dan": 0}


def test_a_game_without_points_ranks_its_winners_before_everyone_else():
    from openskill.models import PlackettLuce

    pad(
        "The Resistance",
        ["Ann", "Ben", "Cleo"],
        {"outcome": "win_loss"},
        {"type": "finish", "winners": [0, 2]},
    )
    model = PlackettLuce()
    ann, ben, cleo = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 1])
    assert board("any-game:the resistance") == [
        ("Ann", round(ann[0].mu, 3), round(ann[0].sigma, 3), 1),
        ("Cleo", round(cleo[0].mu, 3), round(cleo[0].sigma, 3), 1),
        ("Ben", round(ben[0].mu, 3), round(ben[0].sigma, 3), 1),
    ]


def test_a_coop_play_changes_no_rating_but_counts_as_a_play_and_a_win(client):
    from companion.history import stats

    pad("Pandemic", ["Ann", "Ben"], {"outcome": "coop"}, {"type": "finish", "won": True})
    pad("Pandemic", ["Ann", "Ben"], {"outcome": "coop"}, {"type": "finish", "won": False})
    assert board("any-game:pandemic") == []
    ann = Player.objects.get(name="Ann")
    assert stats.player_totals(ann).plays == 2 and stats.player_totals(ann).wins == 1
    page = client.get("/g/default/history/games/any-game:pandemic/").content.decode()
    assert "Co-op plays change no rating: the players win or lose together, against the game." in page
