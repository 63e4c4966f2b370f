"""The history's statistics against figures worked out by hand from tests/history/fixture_plays.py.

Every expected number below is a literal computed on paper from the PLAYS list (the arithmetic is
in the comments), never recomputed in Python from it: the statistics are checked, not re-implemented.
Labels (D1, S4, H6, U8 ...) are the plays' labels in that list; D = Dogo Dash, S = 62 Summer Suns,
H = Hang Four, U = Surf's Up!.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from companion.games import base, registry
from companion.groups.models import Group
from companion.history import people, stats
from companion.tables import services
from companion.tables.models import Player, Seat, Table
from tests.engines.setups import playable
from tests.history.factories import finished_play, home, play_out
from tests.history.fixture_plays import load_fixture_plays

pytestmark = pytest.mark.django_db

GAMES = list(registry.GAMES)


@pytest.fixture
def plays() -> dict[str, Table]:
    return load_fixture_plays()


def person(name: str) -> Player:
    return Player.objects.get(name=name)


def ids(plays: dict[str, Table], labels: str) -> list[str]:
    return [plays[label].id for label in labels.split()]


def at(month: int, day: int) -> dt.datetime:
    return dt.datetime(2026, month, day, 20, 0, tzinfo=dt.UTC)


# --- People ------------------------------------------------------------------------------------


def test_player_totals(plays):
    # Ann: D1 D2 D4 D6 D7 D8 (6), S1 S3 S4 S5 S6 S7 (6), H1 H3 H4 H5 H7 (5),
    #      U1 U2 U3 U4 U6 U7 U8 (7) = 24 plays; won D1 D4 D8, S1 S4, H1 H3 H7, U1 U6 = 10.
    ann = stats.player_totals(person("Ann"))
    assert (ann.plays, ann.wins) == (24, 10)
    assert ann.win_rate == pytest.approx(10 / 24)
    # Ben: D 5 + S 5 + H 4 + U 5 = 19 plays; won D7 (tie), S6, H5, U5 (tie) = 4.
    ben = stats.player_totals(person("Ben"))
    assert (ben.plays, ben.wins, ben.win_rate) == (19, 4, pytest.approx(4 / 19))
    # Cleo: D 5 + S 4 + H 5 + U 5 = 19; won D3 D7 (both ties), S3 S7, H4 (tie) H8, U3 = 7.
    cleo = stats.player_totals(person("Cleo"))
    assert (cleo.plays, cleo.wins) == (19, 7)
    # Finn: D3 D6 D8, S4 S8, H4 H6, U4 U7 = 9; won D3 D6, S8, H4 H6, U4 = 6.
    finn = stats.player_totals(person("Finn"))
    assert (finn.plays, finn.wins, finn.win_rate) == (9, 6, pytest.approx(6 / 9))
    # Gus sat only at the abandoned table: nothing counts.
    gus = stats.player_totals(person("Gus"))
    assert (gus.plays, gus.wins, gus.win_rate) == (0, 0, None)


def test_player_games_for_ann_across_all_four_games(plays):
    rows = stats.player_games(person("Ann"))
    # Most plays first, then by slug: surfs-up 7, dogo-dash 6, summer-suns 6, hang-four 5.
    assert [(row["game"], row["name"]) for row in rows] == [
        ("surfs-up", "Surf's Up!"),
        ("dogo-dash", "Dogo Dash"),
        ("summer-suns", "62 Summer Suns"),
        ("hang-four", "Hang Four"),
    ]
    surfs, dogo, suns, hang = rows
    # U1 35 W, U2 38, U3 29, U4 34, U6 45 W, U7 31, U8 12 (Dec 22, the latest):
    # 35 + 38 + 29 + 34 + 45 + 31 + 12 = 224 over 7 = 32.
    assert (surfs["plays"], surfs["wins"], surfs["best"], surfs["latest"]) == (7, 2, 45, 12)
    assert surfs["average"] == pytest.approx(32.0)
    assert surfs["win_rate"] == pytest.approx(2 / 7)
    # D1 30 W, D2 18, D4 31 W, D6 17, D7 14, D8 24 W (Dec 1; D9 has no Ann):
    # 30 + 18 + 31 + 17 + 14 + 24 = 134 over 6.
    assert (dogo["plays"], dogo["wins"], dogo["best"], dogo["latest"]) == (6, 3, 31, 24)
    assert dogo["average"] == pytest.approx(134 / 6)
    assert dogo["win_rate"] == pytest.approx(0.5)
    # S1 54 W, S3 45, S4 61 W, S5 42, S6 39, S7 36 (Oct 20; S8 is Finn's solo):
    # 54 + 45 + 61 + 42 + 39 + 36 = 277 over 6.
    assert (suns["plays"], suns["wins"], suns["best"], suns["latest"]) == (6, 2, 61, 36)
    assert suns["average"] == pytest.approx(277 / 6)
    # H1 4 W, H3 5 W, H4 1, H5 3, H7 4 W (Nov 3): 4 + 5 + 1 + 3 + 4 = 17 over 5 = 3.4.
    assert (hang["plays"], hang["wins"], hang["best"], hang["latest"]) == (5, 3, 5, 4)
    assert hang["average"] == pytest.approx(3.4)
    assert hang["win_rate"] == pytest.approx(0.6)


def test_player_games_is_empty_for_someone_with_only_an_abandoned_table(plays):
    assert stats.player_games(person("Gus")) == []


def test_opponents_of_ann(plays):
    """Ann's head-to-head record. A win against X: a shared play Ann won and X did not; a loss: X
    won and Ann did not; a shared win (tie for first) or a play neither won counts for neither."""
    rows = stats.opponents(person("Ann"))
    got = [(row["name"], row["plays"], row["wins"], row["losses"]) for row in rows]
    assert got == [
        # Ben, 16 shared: D1 D2 D4 D7, S1 S3 S4 S6 S7, H1 H3 H5, U2 U3 U7 U8.
        # Ann won D1 D4 S1 S4 H1 H3 (6); Ben won D7 S6 H5 (3).
        ("Ben", 16, 6, 3),
        # Dev, 15 shared: D2 D4 D6 D7, S1 S4 S5 S7, H3 H5, U2 U3 U4 U6 U7.
        # Ann won D4 S1 S4 H3 U6 (5); Dev won D2 S5 (Eve too) U2 U7 (4).
        ("Dev", 15, 5, 4),
        # Cleo, 14 shared: D1 D4 D7, S1 S3 S4 S7, H1 H3 H4, U1 U3 U7 U8.
        # Ann won D1 D4 S1 S4 H1 H3 U1 (7); Cleo won D7 S3 S7 H4 U3 (5).
        ("Cleo", 14, 7, 5),
        # Eve, 9 shared: D2 D4, S5 S7, H5 H7, U2 U3 U8. Ann won D4 H7 (2); Eve won S5 U8 (2).
        ("Eve", 9, 2, 2),
        # Finn, 6 shared: D6 D8, S4, H4, U4 U7. Ann won D8 S4 (2); Finn won D6 H4 U4 (3).
        ("Finn", 6, 2, 3),
    ]
    # 16 + 15 + 14 + 9 + 6 = 60 = the other seats at Ann's 24 tables (15 D + 16 S + 11 H + 18 U).
    # Gus (abandoned table) and Ann herself are not listed.
    assert all(isinstance(row["id"], int) for row in rows)


def test_opponents_a_tie_for_first_counts_for_neither(plays):
    rows = {row["name"]: row for row in stats.opponents(person("Cleo"))}
    assert "Cleo" not in rows
    # Cleo and Finn, 5 shared: D3 (both won: a tie), S4 (Ann won), H4 (both won: a tie),
    # H6 (Finn won), U7 (Dev won): 0 wins, 1 loss.
    finn = rows["Finn"]
    assert (finn["plays"], finn["wins"], finn["losses"]) == (5, 0, 1)
    # Cleo and Ben, 14 shared: D1 D4 D7 S1 S3 S4 S7 H1 H3 H8 U3 U5 U7 U8; D7 a tie (neither);
    # Cleo won S3 S7 H8 U3 (4), Ben won U5 (1, Eve too).
    ben = rows["Ben"]
    assert (ben["plays"], ben["wins"], ben["losses"]) == (14, 4, 1)


def test_score_history(plays):
    rows = stats.score_history(person("Ann"), "dogo-dash")
    # Oldest first; the winning score is the top score among the play's winners.
    got = [(row["table_id"], row["finished"], row["score"], row["won"], row["winning"]) for row in rows]
    assert got == [
        (plays["D1"].id, at(1, 6), 30, True, 30),
        (plays["D2"].id, at(2, 3), 18, False, 27),  # Dev
        (plays["D4"].id, at(4, 21), 31, True, 31),
        (plays["D6"].id, at(8, 11), 17, False, 33),  # Finn
        (plays["D7"].id, at(10, 6), 14, False, 26),  # Ben and Cleo tied on 26
        (plays["D8"].id, at(12, 1), 24, True, 24),
    ]
    # The latest 3, still oldest first.
    last = stats.score_history(person("Ann"), "dogo-dash", last=3)
    assert [row["table_id"] for row in last] == ids(plays, "D6 D7 D8")
    # H1: Ann and Ben both have 4, only Ann won (sand dollars): the winning score is 4.
    hang = stats.score_history(person("Ann"), "hang-four")
    assert [(row["score"], row["won"], row["winning"]) for row in hang] == [
        (4, True, 4),  # H1
        (5, True, 5),  # H3
        (1, False, 4),  # H4, Finn and Cleo on 4
        (3, False, 5),  # H5, Ben
        (4, True, 4),  # H7
    ]
    assert stats.score_history(person("Gus"), "dogo-dash") == []


def test_players_overview(plays):
    got = [(p.name, p.plays, p.wins) for p in stats.players_overview(home())]
    # Most plays first, then by name; Ben, Cleo and Dev all have 19.
    # Plays: 24 + 19 + 19 + 19 + 14 + 9 = 104 = the seats of the 33 plays (28 D + 25 S + 23 H + 28 U).
    assert got == [
        ("Ann", 24, 10),
        ("Ben", 19, 4),
        ("Cleo", 19, 7),
        ("Dev", 19, 6),
        ("Eve", 14, 5),  # D5, S2 S5, U5 U8
        ("Finn", 9, 6),
    ]  # not Gus: his only table was abandoned, he has no play to show (issue 30, 8)


# --- Games -------------------------------------------------------------------------------------


def test_games_overview(plays):
    # The fixture's plays (the in-progress Surf's Up! not counted); every other game with an engine
    # of its own is listed with none, in the registry's order (a pad lists the games it kept).
    counted = {"dogo-dash": 9, "summer-suns": 8, "hang-four": 8, "surfs-up": 8}
    assert stats.games_overview(home()) == [
        {"slug": slug, "name": registry.get(slug).name, "plays": counted.get(slug, 0)}
        for slug in registry.GAMES
        if not base.is_pad(registry.get(slug))
    ]
    assert [row["slug"] for row in stats.games_overview(home())][:4] == list(counted)


def summary(game: str) -> tuple:
    figures = stats.game_summary(home(), game)
    best = figures["best"]
    return (
        figures["plays"],
        figures["average_winning"],
        figures["average"],
        figures["lowest"],
        figures["highest"],
        figures["first_seat_wins"],
        figures["first_seat_rate"],
        (best.player.name, best.score, best.table_id),
    )


def test_game_summary_dogo_dash(plays):
    # average_winning counts each play's winning score once (a shared win too): D1 30, D2 27, D3 25,
    # D4 31, D5 28, D6 33, D7 26, D8 24, D9 29 = 253 over 9.
    # All 28 scores: D1 59 + D2 82 + D3 50 + D4 94 + D5 49 + D6 70 + D7 88 + D8 43 + D9 68 = 603.
    # Seat 0 won D1 (Ann), D3 (Cleo, tie), D5 (Eve), D7 (Ben, tie): 4 of 9.
    assert summary("dogo-dash") == (
        9,
        pytest.approx(253 / 9),
        pytest.approx(603 / 28),
        8,  # Eve in D4
        33,
        4,
        pytest.approx(4 / 9),
        ("Finn", 33, plays["D6"].id),
    )


def test_game_summary_summer_suns(plays):
    # Winning scores: S1 54, S2 62, S3 58, S4 61, S5 50 (shared), S6 66, S7 57, S8 70 = 478 over 8.
    # All 25: S1 180 + S2 117 + S3 148 + S4 239 + S5 142 + S6 105 + S7 221 + S8 70 = 1222.
    # Seat 0 won S1 (Ann), S2 (Eve), S5 (Dev, tie), S7 (Cleo), S8 (Finn, solo): 5 of 8.
    assert summary("summer-suns") == (
        8,
        pytest.approx(478 / 8),
        pytest.approx(1222 / 25),
        29,  # Dev in S7
        70,
        5,
        pytest.approx(5 / 8),
        ("Finn", 70, plays["S8"].id),
    )


def test_game_summary_hang_four(plays):
    # Winning scores: H1 4, H2 4, H3 5, H4 4 (shared), H5 5, H6 5, H7 4, H8 4 = 35 over 8.
    # All 23: H1 10 + H2 5 + H3 10 + H4 9 + H5 13 + H6 7 + H7 6 + H8 8 = 68.
    # Seat 0 won H2 (Dev), H3 (Ann), H4 (Finn, tie), H7 (Ann); not H1 (Ben has 4 but Ann won): 4 of 8.
    # The best score, 5, three times: Ann H3 (Mar 31), Ben H5 (Jul 14), Finn H6 (Sep 8): the first.
    assert summary("hang-four") == (
        8,
        pytest.approx(35 / 8),
        pytest.approx(68 / 23),
        0,  # Cleo in H3
        5,
        4,
        pytest.approx(0.5),
        ("Ann", 5, plays["H3"].id),
    )


def test_game_summary_surfs_up(plays):
    # Winning scores: U1 35, U2 44, U3 52, U4 36, U5 48 (shared), U6 45, U7 42, U8 22 = 324 over 8.
    # All 28: U1 50 + U2 153 + U3 201 + U4 91 + U5 123 + U6 70 + U7 174 + U8 49 (18 + 22 - 3 + 12) = 911.
    # Seat 0 won U1 (Ann), U3 (Cleo), U4 (Finn), U5 (Eve, tie): 4 of 8.
    assert summary("surfs-up") == (
        8,
        pytest.approx(324 / 8),
        pytest.approx(911 / 28),
        -3,  # Ben in U8
        52,
        4,
        pytest.approx(0.5),
        ("Cleo", 52, plays["U3"].id),
    )


def test_game_summary_of_a_game_never_finished():
    figures = stats.game_summary(home(), "hang-four")
    assert (figures["plays"], figures["average"], figures["first_seat_rate"], figures["best"]) == (
        0,
        None,
        None,
        None,
    )


def bands(game: str) -> list[tuple[str, int]]:
    return [(row["label"], row["count"]) for row in stats.score_distribution(home(), game)]


def test_score_distribution(plays):
    # Dogo Dash 8 to 33: width 5 gives bands 1 to 6 (6 <= 8); width 2 would give 4 to 16 (13).
    assert bands("dogo-dash") == [
        ("5–9", 2),  # 9 (D1), 8 (D4)
        ("10–14", 2),  # 12 (D4), 14 (D7)
        ("15–19", 6),  # 18 15 (D2), 19 (D4), 17 (D6), 19 (D8), 16 (D9)
        ("20–24", 8),  # 20 (D1), 22 (D2), 24 (D4), 21 (D5), 20 (D6), 22 (D7), 24 (D8), 23 (D9)
        ("25–29", 7),  # 27 (D2), 25 25 (D3), 28 (D5), 26 26 (D7), 29 (D9)
        ("30–34", 3),  # 30 (D1), 31 (D4), 33 (D6)
    ]  # 2 + 2 + 6 + 8 + 7 + 3 = 28
    # Hang Four 0 to 5: width 1, one band per score.
    assert bands("hang-four") == [
        ("0", 1),  # Cleo H3
        ("1", 3),  # H2 Eve, H4 Ann, H8 Dev
        ("2", 5),  # H1 Cleo, H3 Ben, H5 Dev, H6 Cleo, H7 Eve
        ("3", 4),  # H3 Dev, H5 Eve and Ann, H8 Ben
        ("4", 7),  # H1 Ben and Ann, H2 Dev, H4 Finn and Cleo, H7 Ann, H8 Cleo
        ("5", 3),  # H3 Ann, H5 Ben, H6 Finn
    ]  # 23
    # Surf's Up! -3 to 52: width 5 gives bands -1 to 10 (12); width 10 gives -1 to 5 (7).
    assert bands("surfs-up") == [
        ("−10 to −1", 1),  # -3 (Ben, U8)
        ("0–9", 0),
        ("10–19", 3),  # 15 (U1), 18 12 (U8)
        ("20–29", 6),  # 29 (U3), 21 (U4), 27 (U5), 25 (U6), 28 (U7), 22 (U8)
        ("30–39", 9),  # 35 (U1), 30 38 (U2), 33 (U3), 36 34 (U4), 31 39 34 (U7)
        ("40–49", 8),  # 41 44 (U2), 47 40 (U3), 48 48 (U5), 45 (U6), 42 (U7)
        ("50–59", 1),  # 52 (U3)
    ]  # 28
    # 62 Summer Suns 29 to 70: width 5 gives 5 to 14 (10); width 10 gives 2 to 7 (6).
    assert bands("summer-suns") == [
        ("20–29", 1),  # 29
        ("30–39", 4),  # 38 33 39 36
        ("40–49", 8),  # 41 47 45 45 49 44 42 48
        ("50–59", 8),  # 54 55 58 52 50 50 57 51
        ("60–69", 3),  # 62 61 66
        ("70–79", 1),  # 70
    ]  # 25
    assert [row["low"] for row in stats.score_distribution(home(), "surfs-up")] == [
        -10,
        0,
        10,
        20,
        30,
        40,
        50,
    ]


def test_score_distribution_of_a_game_never_finished():
    assert stats.score_distribution(home(), "dogo-dash") == []


@pytest.mark.parametrize(
    "low, high, buckets, width",
    [
        (0, 5, 8, 1),  # 6 bands
        (0, 7, 8, 1),  # exactly 8
        (0, 8, 8, 2),  # width 1 gives 9; width 2 gives 0 to 4, 5
        (15, 15, 8, 1),  # one score
        (8, 33, 8, 5),  # 2: 4 to 16 = 13; 5: 1 to 6 = 6
        (-3, 52, 8, 10),  # 5: -1 to 10 = 12; 10: -1 to 5 = 7
        (29, 70, 8, 10),  # 5: 5 to 14 = 10; 10: 2 to 7 = 6
        (0, 1000, 8, 200),  # 100: 11; 200: 0 to 5 = 6
        (0, 99, 4, 50),  # 20: 0 to 4 = 5; 50: 0 to 1 = 2
        (10, 19, 1, 10),  # 10: 1 to 1 = 1
    ],
)
def test_band_width(low, high, buckets, width):
    assert stats.band_width(low, high, buckets) == width


def test_player_count_spread(plays):
    def spread(game):
        return [(row["players"], row["plays"]) for row in stats.player_count_spread(home(), game)]

    # D1 3, D2 4, D3 2, D4 5, D5 2, D6 3, D7 4, D8 2, D9 3 (the abandoned 3-player one not counted).
    assert spread("dogo-dash") == [(2, 3), (3, 3), (4, 2), (5, 1)]
    # S1 4, S2 2, S3 3, S4 5, S5 3, S6 2, S7 5, S8 1.
    assert spread("summer-suns") == [(1, 1), (2, 2), (3, 2), (4, 1), (5, 2)]
    # H1 3, H2 2, H3 4, H4 3, H5 4, H6 2, H7 2, H8 3.
    assert spread("hang-four") == [(2, 3), (3, 3), (4, 2)]
    # U1 2, U2 4, U3 5, U4 3, U5 3, U6 2, U7 5, U8 4 (the in-progress 2-player one not counted).
    assert spread("surfs-up") == [(2, 2), (3, 2), (4, 2), (5, 2)]


def test_top_players(plays):
    rows = stats.top_players(home(), "dogo-dash")
    got = [(r["name"], r["plays"], r["wins"], r["best"]) for r in rows]
    # Most wins, then most plays, then name.
    assert got == [
        ("Ann", 6, 3, 31),  # D1 D4 D8
        ("Cleo", 5, 2, 26),  # D3 D7: 9 25 24 26 16
        ("Dev", 5, 2, 29),  # D2 D9: 27 12 20 22 29
        ("Finn", 3, 2, 33),  # D3 D6: 25 33 19
        ("Ben", 5, 1, 26),  # D7: 20 22 19 21 26
        ("Eve", 4, 1, 28),  # D5: 15 8 28 23
    ]
    averages = [r["average"] for r in rows]
    # Ann 134 / 6; Cleo 100 / 5; Dev 110 / 5; Finn 77 / 3; Ben 108 / 5; Eve 74 / 4.
    assert averages == [
        pytest.approx(134 / 6),
        pytest.approx(20.0),
        pytest.approx(22.0),
        pytest.approx(77 / 3),
        pytest.approx(21.6),
        pytest.approx(18.5),
    ]
    assert [r["win_rate"] for r in rows] == [
        pytest.approx(0.5),
        pytest.approx(0.4),
        pytest.approx(0.4),
        pytest.approx(2 / 3),
        pytest.approx(0.2),
        pytest.approx(0.25),
    ]
    # Hang Four: Ann 3 wins (5 plays), Cleo 2 (5), Finn 2 (2), then Ben and Dev 1 (4), Eve 0 (3).
    assert [(r["name"], r["wins"], r["plays"]) for r in stats.top_players(home(), "hang-four", limit=3)] == [
        ("Ann", 3, 5),
        ("Cleo", 2, 5),
        ("Finn", 2, 2),
    ]


# --- The archive -------------------------------------------------------------------------------


def test_archive_filters_and_order(plays):
    everything = list(stats.archive(home()))
    assert len(everything) == 33
    # Newest first: D9 (Dec 29), U8 (Dec 22), H8 (Dec 15) ... D1 (Jan 6).
    assert [t.id for t in everything[:3]] == ids(plays, "D9 U8 H8")
    assert everything[-1].id == plays["D1"].id
    assert plays["abandoned"].id not in {t.id for t in everything}
    assert plays["in_progress"].id not in {t.id for t in everything}

    assert [t.id for t in stats.archive(home(), game="hang-four")] == ids(plays, "H8 H7 H6 H5 H4 H3 H2 H1")
    finn = [t.id for t in stats.archive(home(), player=person("Finn"))]
    assert finn == ids(plays, "S8 D8 U7 H6 D6 U4 H4 S4 D3")
    assert [t.id for t in stats.archive(home(), game="dogo-dash", player=person("Eve"))] == ids(
        plays, "D9 D5 D4 D2"
    )
    # Ann's 24 plays; her abandoned table not among them.
    assert stats.archive(home(), player=person("Ann")).count() == 24
    # Gus and Dev's in-progress table: nothing.
    assert list(stats.archive(home(), player=person("Gus"))) == []
    assert stats.archive(home(), game="surfs-up", player=person("Cleo")).count() == 5  # U1 U3 U5 U7 U8


def test_archive_seats_in_seat_order(plays):
    d2 = next(t for t in stats.archive(home(), game="dogo-dash") if t.id == plays["D2"].id)
    assert [(s.player.name, s.score, s.won) for s in d2.seats.all()] == [
        ("Ben", 22, False),
        ("Ann", 18, False),
        ("Dev", 27, True),
        ("Eve", 15, False),
    ]


def test_abandoned_lists_only_the_abandoned_table(plays):
    assert [t.id for t in stats.abandoned(home())] == [plays["abandoned"].id]
    table = stats.abandoned(home())[0]
    assert [s.player.name for s in table.seats.all()] == ["Ann", "Ben", "Gus"]
    # It is not in progress for the history either: it counts nowhere (see the tests above).
    assert table.status == Table.Status.IN_PROGRESS


def test_length_minutes(plays):
    lengths = {t.id: stats.length_minutes(t) for t in stats.archive(home())}
    # The fixture's first and last entries are `minutes` apart.
    assert lengths[plays["D1"].id] == 25
    assert lengths[plays["S4"].id] == 70
    assert lengths[plays["U3"].id] == 90
    assert lengths[plays["H7"].id] == 20
    # A length people entered wins over the log's.
    Table.objects.filter(pk=plays["D1"].id).update(duration_minutes=95)
    lengths = {t.id: stats.length_minutes(t) for t in stats.archive(home())}
    assert lengths[plays["D1"].id] == 95
    assert lengths[plays["D2"].id] == 30
    # Without the archive's annotations and no entered length, there is no length.
    assert stats.length_minutes(Table.objects.get(pk=plays["D2"].id)) is None
    assert stats.length_minutes(Table.objects.get(pk=plays["D1"].id)) == 95


# --- Cost: the database does the counting --------------------------------------------------------


def run_everything(ann: Player, group: Group) -> None:
    stats.player_games(ann)
    stats.opponents(ann)
    stats.game_summary(group, "dogo-dash")
    stats.score_distribution(group, "surfs-up")
    for table in stats.archive(group):
        [seat.player.name for seat in table.seats.all()]
        stats.length_minutes(table)


def test_a_fixed_small_number_of_queries(plays, django_assert_max_num_queries):
    ann, group = person("Ann"), home()
    # The group's pads that are an engine's game (same_game.py), the figures, each game's latest score.
    with django_assert_max_num_queries(3):
        stats.player_games(ann)
    with django_assert_max_num_queries(1):
        stats.opponents(ann)
    with django_assert_max_num_queries(4):  # the figures, the winning scores, the first seat, the best seat
        stats.game_summary(group, "hang-four")
    with django_assert_max_num_queries(2):  # the span, the bands
        stats.score_distribution(group, "surfs-up")
    with django_assert_max_num_queries(2):  # tables, their seats with their players
        for table in stats.archive(group):
            [seat.player.name for seat in table.seats.all()]
            stats.length_minutes(table)


def test_the_number_of_queries_does_not_grow_with_the_plays(plays):
    ann, group = person("Ann"), home()
    with CaptureQueriesContext(connection) as before:
        run_everything(ann, group)
    people_ = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Hal"]
    for n in range(20):
        game = GAMES[n % len(GAMES)]
        seats = [(name, 10 + n + i, i == 0) for i, name in enumerate(people_[n % 3 : n % 3 + 3])]
        finished_play(game, seats, finished=at(1, 1) + dt.timedelta(hours=n))
    assert stats.archive(home()).count() == 53
    with CaptureQueriesContext(connection) as after:
        run_everything(ann, group)
    assert len(after.captured_queries) == len(before.captured_queries) == 3 + 1 + 4 + 2 + 2


# --- Rename and merge ----------------------------------------------------------------------------


def test_merge_two_people_who_never_shared_a_table(plays):
    eve, finn = person("Eve"), person("Finn")
    # Before: Eve 14 plays 5 wins, Finn 9 plays 6 wins.
    assert (stats.player_totals(eve).plays, stats.player_totals(eve).wins) == (14, 5)
    eve_games = {row["game"]: row for row in stats.player_games(eve)}
    # Eve D2 15, D4 8, D5 28 W, D9 23 = 74 over 4.
    assert (eve_games["dogo-dash"]["plays"], eve_games["dogo-dash"]["best"]) == (4, 28)
    assert eve_games["dogo-dash"]["average"] == pytest.approx(18.5)

    people.merge(eve, finn)

    assert not Player.objects.filter(name="Finn").exists()
    totals = stats.player_totals(eve)
    assert (totals.plays, totals.wins) == (14 + 9, 5 + 6)
    rows = stats.player_games(eve)
    got = [(r["game"], r["plays"], r["wins"], r["best"], r["latest"]) for r in rows]
    assert got == [
        # Eve D2 15, D4 8, D5 28 W, D9 23 (Dec 29) + Finn D3 25 W, D6 33 W, D8 19 (Dec 1).
        ("dogo-dash", 4 + 3, 1 + 2, 33, 23),
        # Eve U2 30, U3 40, U5 48 W, U8 22 W (Dec 22) + Finn U4 36 W, U7 34 (Nov 17).
        ("surfs-up", 4 + 2, 2 + 1, 48, 22),
        # Eve H2 1, H5 3, H7 2 (Nov 3) + Finn H4 4 W, H6 5 W (Sep 8).
        ("hang-four", 3 + 2, 0 + 2, 5, 2),
        # Eve S2 62 W, S5 50 W, S7 51 (Oct 20) + Finn S4 49, S8 70 W (Dec 8).
        ("summer-suns", 3 + 2, 2 + 1, 70, 70),
    ]
    # Weighted averages: (sum + sum) / (plays + plays).
    assert [r["average"] for r in rows] == [
        pytest.approx((74 + 77) / 7),
        pytest.approx((140 + 70) / 6),  # 35
        pytest.approx((6 + 9) / 5),  # 3
        pytest.approx((163 + 119) / 5),  # 56.4
    ]
    # Ann's opponents list Eve once: 9 + 6 shared plays, 2 + 2 wins, 2 + 3 losses.
    got = [(r["name"], r["plays"], r["wins"], r["losses"]) for r in stats.opponents(person("Ann"))]
    assert got == [("Ben", 16, 6, 3), ("Dev", 15, 5, 4), ("Eve", 15, 4, 5), ("Cleo", 14, 7, 5)]
    assert [p.name for p in stats.players_overview(home())] == [
        "Ann",
        "Eve",
        "Ben",
        "Cleo",
        "Dev",
    ]  # Gus: only an abandoned table
    # The Hang Four's best seat (Ann's 5 in H3) is unchanged; Finn's seats now belong to Eve.
    assert stats.archive(home(), player=eve).count() == 23
    assert stats.game_summary(home(), "summer-suns")["best"].player.name == "Eve"  # Finn's 70 in S8


def test_merge_two_people_who_shared_a_table_changes_nothing(plays):
    ann, ben = person("Ann"), person("Ben")
    seats_before = sorted(Seat.objects.values_list("table_id", "position", "player_id"))
    with pytest.raises(people.PeopleError, match="sat at the same table"):
        people.merge(ann, ben)
    assert sorted(Seat.objects.values_list("table_id", "position", "player_id")) == seats_before
    assert Player.objects.filter(name__in=["Ann", "Ben"]).count() == 2
    assert stats.player_totals(ann).plays == 24
    assert stats.player_totals(ben).plays == 19
    # Ann and Gus shared only the abandoned table: that is enough to refuse.
    with pytest.raises(people.PeopleError):
        people.merge(ann, person("Gus"))
    with pytest.raises(people.PeopleError):
        people.merge(ann, ann)


def test_rename(plays):
    ann = person("Ann")
    people.rename(ann, "  Annie   Lee ")
    assert Player.objects.get(pk=ann.pk).name == "Annie Lee"
    assert stats.player_totals(Player.objects.get(pk=ann.pk)).plays == 24
    # One's own name in another case is fine.
    people.rename(ann, "ANNIE LEE")
    assert Player.objects.get(pk=ann.pk).name == "ANNIE LEE"


@pytest.mark.parametrize("name", ["ben", "BEN", "  Ben  "])
def test_rename_to_someone_else_is_refused(plays, name):
    ann = person("Ann")
    with pytest.raises(people.PeopleError, match="merge"):
        people.rename(ann, name)
    assert Player.objects.get(pk=ann.pk).name == "Ann"


@pytest.mark.parametrize("name", ["", "   ", "An\x07n", "\x00", "Ann\x1b[31m", "a" * 41])
def test_rename_to_a_bad_name_is_refused(plays, name):
    ann = person("Ann")
    with pytest.raises(people.PeopleError):
        people.rename(ann, name)
    assert Player.objects.get(pk=ann.pk).name == "Ann"


# --- Real games ----------------------------------------------------------------------------------


def test_real_games_write_their_results_and_undo_clears_them():
    names = ["Ann", "Ben", "Cleo"]
    setups = {game: playable(registry.get(game)) for game in GAMES}
    tables = [play_out(game, names, seed, setups[game]) for seed, game in enumerate(GAMES, start=11)]
    wins = dict.fromkeys(names, 0)
    for table in tables:
        engine = registry.get(table.game)
        totals = [score["total"] for score in engine.scores(table.snapshot)]
        winners = engine.result(table.snapshot)["winners"]
        seats = list(table.seats.select_related("player"))
        assert [(s.score, s.won) for s in seats] == [(totals[i], i in winners) for i in range(3)]
        for seat in seats:
            wins[seat.player.name] += seat.won
    for name in names:
        totals = stats.player_totals(person(name))
        assert (totals.plays, totals.wins) == (len(GAMES), wins[name])
    assert [row["plays"] for row in stats.games_overview(home())] == [1] * len(GAMES)

    # Take back the last entry of the Surf's Up! table: it is in progress again, its results gone.
    table = tables[GAMES.index("surfs-up")]
    last = table.events.filter(undone=False).order_by("-seq").first()
    surf_won = {seat.player.name: seat.won for seat in table.seats.select_related("player")}
    services.undo(table.id, table.version)
    table.refresh_from_db()
    assert table.status == Table.Status.IN_PROGRESS
    assert [(s.score, s.won) for s in table.seats.all()] == [(None, False)] * 3
    for name in names:
        totals = stats.player_totals(person(name))
        assert (totals.plays, totals.wins) == (len(GAMES) - 1, wins[name] - surf_won[name])
    assert stats.archive(home(), game="surfs-up").count() == 0
    assert stats.game_summary(home(), "surfs-up")["plays"] == 0

    # Entering it again finishes the table with the same results.
    services.play_action(table.id, last.action, table.version)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    for name in names:
        totals = stats.player_totals(person(name))
        assert (totals.plays, totals.wins) == (len(GAMES), wins[name])
    assert stats.archive(home(), game="surfs-up").count() == 1
