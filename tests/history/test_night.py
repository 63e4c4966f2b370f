"""The story of a night (issue 32), from a scripted evening of three games: a Skat pad, a Hang Four
and a Dogo Dash (the golden playthroughs), finished at 20:10, 22:40 and 00:30, in the server's time
zone (UTC here): all three are the night of 3 December, the last one after midnight included."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.history import night
from companion.tables import services
from companion.tables.models import Table
from tests.engines.golden_playthrough import script
from tests.history.factories import home

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 12, 3)
UTC = dt.UTC


def played(slug: str, names, options, actions, finished: dt.datetime) -> Table:
    table = services.create_table(slug, names, options)
    for action in actions:
        table.refresh_from_db()
        services.play_action(table.id, action, table.version)
    # A play belongs to the evening it started (issue 42): it starts and ends at `finished` here.
    Table.objects.filter(pk=table.pk).update(created=finished, finished=finished)
    table.refresh_from_db()
    assert table.status == "finished"
    return table


def score(*points):
    return {"type": "score", "points": {str(seat): value for seat, value in enumerate(points)}}


@pytest.fixture
def evening():
    # Skat, by hand: Ann 5-3 leads; Ben 9-5 leads (1 change); Ann 15-9 leads again (2 changes) and
    # keeps it: round 3 decided it.
    skat = played(
        "any-game",
        ["Ann", "Ben"],
        {"game_name": "Skat"},
        [score(5, 3), score(0, 6), score(10, 0), {"type": "finish"}],
        dt.datetime(2026, 12, 3, 20, 10, tzinfo=UTC),
    )
    names, options, actions = script("hang-four")
    waves = played("hang-four", names, options, actions, dt.datetime(2026, 12, 3, 22, 40, tzinfo=UTC))
    names, options, actions = script("dogo-dash")
    dogs = played("dogo-dash", names, options, actions, dt.datetime(2026, 12, 4, 0, 30, tzinfo=UTC))
    played(
        "any-game",
        ["Ann", "Ben"],
        {"game_name": "Skat"},
        [score(1, 0), {"type": "finish"}],
        dt.datetime(2026, 12, 4, 6, 30, tzinfo=UTC),
    )  # the next evening
    return skat, waves, dogs


def test_the_night_tells_its_plays_champion_leads_and_dice(evening):
    skat, waves, dogs = evening
    story = night.night(home(), DAY)
    assert [play["table"].pk for play in story["plays"]] == [skat.pk, waves.pk, dogs.pk]
    first = story["plays"][0]
    assert (
        first["game"] == "Skat"
        and first["winners"] == ["Ann"]
        and first["scores"] == [("Ann", 15), ("Ben", 9)]
    )
    assert first["lead_changes"] == 2
    assert first["decided_by"] == "Round 3: Ann 10, Ben 0."
    # Hang Four (the golden script, by hand): Ann rolled 5 5 5 5 4 (and two Shacks), Ben 4 2 4 5 3 1,
    # Cleo 3 5 4 3 2 1; the number faces 1-5 give 3 on average (HF-2).
    assert [(luck["who"], luck["rolls"], luck["average"]) for luck in story["plays"][1]["dice"]] == [
        ("Ann", 5, 4.8),
        ("Ben", 6, 19 / 6),
        ("Cleo", 6, 3.0),
    ]
    assert {luck["expected"] for luck in story["plays"][1]["dice"]} == {3}  # faces 1-5 (HF-2)
    assert story["plays"][2]["dice"] == []  # no dice in Dogo Dash
    # The golden games' winners (golden.txt): Ann wins the Hang Four, Ben the Dogo Dash.
    assert [play["winners"] for play in story["plays"]] == [["Ann"], ["Ann"], ["Ben"]]
    assert (story["champions"], story["champion_wins"]) == (["Ann"], 2)
    assert story["streak"] == {"who": "Ann", "length": 2}


def test_the_night_page_and_its_share_card(client, evening):
    page = client.get(f"/g/default/history/nights/{DAY.isoformat()}/").content.decode()
    assert "The night of Thursday 3 December 2026" in page
    assert "The lead changed hands 2 times. Decided by: “Round 3: Ann 10, Ben 0.”" in page
    assert page.count('<li class="card mb-2">') == 3
    card = client.get(f"/g/default/history/nights/{DAY.isoformat()}/card.png")
    assert card.status_code == 200 and card["Content-Type"] == "image/png"
    assert card.content[:8] == b"\x89PNG\r\n\x1a\n"
    latest = client.get("/g/default/history/nights/")
    assert latest.status_code == 302 and latest["Location"].endswith("/nights/2026-12-04/")
    assert client.get("/g/default/history/nights/2026-13-45/").status_code == 404
    empty = client.get("/g/default/history/nights/2020-01-01/").content.decode()
    assert "No play was finished this evening." in empty


def test_the_night_page_reads_french(evening):
    from tests.web.test_french import assert_french, french_client

    assert_french(french_client(), f"/g/default/history/nights/{DAY.isoformat()}/", typed=("Skat",))


def test_the_group_s_time_zone_decides_which_evening_a_play_belongs_to(client):
    """A play finished at 07:30 UTC on 4 December: in UTC it opens the evening of the 4th; in New
    York it is 02:30, still the night of the 3rd (an evening ends at 06:00)."""
    play = played(
        "any-game",
        ["Ann", "Ben"],
        {"game_name": "Skat"},
        [score(1, 0), {"type": "finish"}],
        dt.datetime(2026, 12, 4, 7, 30, tzinfo=UTC),
    )
    assert [p["table"].pk for p in night.night(home(), dt.date(2026, 12, 4))["plays"]] == [play.pk]
    assert client.post("/g/default/zone/", {"time_zone": "America/New_York"}).status_code == 302
    assert [p["table"].pk for p in night.night(home(), DAY)["plays"]] == [play.pk]
    assert night.night(home(), dt.date(2026, 12, 4))["plays"] == []
    page = client.get(f"/g/default/history/nights/{DAY.isoformat()}/").content.decode()
    assert "02:30" in page  # the time as the group reads it
    assert client.post("/g/default/zone/", {"time_zone": "Mars/Olympus"}).status_code == 302
    assert home().time_zone == "America/New_York"  # a zone not in the list changes nothing


def test_a_lead_that_never_changed_quotes_no_entry():
    """Issue 43: Ann led alone from the first round to the end; the first round decided nothing in
    particular, so no "Decided by" quotes it."""
    wire = played(
        "any-game",
        ["Ann", "Ben"],
        {"game_name": "Skat"},
        [score(5, 3), score(4, 4), score(2, 1), {"type": "finish"}],
        dt.datetime(2026, 12, 3, 20, 10, tzinfo=UTC),
    )
    story = night.play_story(wire)
    assert (story["lead_changes"], story["decided_by"], story["winners"]) == (0, None, ["Ann"])
    # Ben led after the first round, Ann from the second: the second round decided it.
    turned = played(
        "any-game",
        ["Ann", "Ben"],
        {"game_name": "Skat"},
        [score(1, 3), score(5, 0), score(1, 1), {"type": "finish"}],
        dt.datetime(2026, 12, 3, 21, 10, tzinfo=UTC),
    )
    assert night.play_story(turned)["decided_by"] == "Round 2: Ann 5, Ben 0."


def test_a_roll_and_writes_luck_is_each_rollers_and_yahtzees_kept_dice_are_none():
    """Any game whose engine says its entries roll (base.rolled) has its luck told (issue 44): a
    roll-and-write's active player rolls the dice in play; Yahtzee's entry is the dice kept."""
    from tests.sheets.test_own_rules_sheet import CLIMB

    table = services.create_table("roll-and-write", ["Ann", "Ben"], {"sheet": "climb", "rules": CLIMB})
    version = table.version
    for action in (
        {"type": "roll", "dice": {"a": 2, "b": 3, "c": 6}},
        {"type": "mark", "seat": 0, "row": "ladder", "box": 2, "value": 8},
        {"type": "mark", "seat": 1, "row": "ladder", "box": 0},
        {"type": "roll", "dice": {"a": 1, "b": 1, "c": 2}},
    ):
        version = services.play_action(table.id, action, version)["version"]
    events = list(table.events.filter(undone=False).order_by("seq"))
    luck = night.dice_luck(table, ["Ann", "Ben"], events)
    assert luck == [
        {"who": "Ann", "rolls": 3, "average": 11 / 3, "expected": 3.5},
        {"who": "Ben", "rolls": 3, "average": 4 / 3, "expected": 3.5},
    ]
    yahtzee = services.create_table("yahtzee", ["Ann"], {})
    services.play_action(
        yahtzee.id, {"type": "score", "seat": 0, "dice": [6, 6, 6, 2, 2], "box": "full_house"}, 0
    )
    yahtzee.refresh_from_db()
    assert night.dice_luck(yahtzee, ["Ann"], list(yahtzee.events.all())) == []


def test_62_summer_suns_dice_are_the_tables_shared_ones():
    names, options, actions = script("summer-suns")
    table = services.create_table("summer-suns", names, options)
    for action in actions[:12]:
        services.play_action(table.id, action, Table.objects.get(pk=table.id).version)
    table.refresh_from_db()
    dice = [die for action in actions[:12] if action["type"] == "roll" for die in action["dice"]]
    assert len(dice) >= 6  # two rounds at least
    luck = night.dice_luck(table, names, list(table.events.filter(undone=False).order_by("seq")))
    assert luck == [{"who": "", "rolls": len(dice), "average": sum(dice) / len(dice), "expected": 3.5}]
