"""'Play again with the same players' on a finished table (issue 15): one tap, the same game,
options and seats; made once, and every phone of the table can follow it."""

import pytest
from django.test import Client

from companion.games import base
from companion.tables import services
from companion.tables.models import Table
from tests.history.factories import play_out

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cleo"]


def finished_table(client) -> Table:
    table = play_out("dogo-dash", NAMES, seed=4, options={"catnip": True, "dogo_dash": False})
    client.get(f"/t/{table.id}/join/{table.token}/")
    return table


def test_the_next_game_has_the_same_game_options_and_seats():
    table = play_out("hang-four", ["Dev", "Ann", "Ben"], seed=2)
    rematch = services.play_again(table.id)
    assert (rematch.game, rematch.options, services.seat_names(rematch)) == (
        "hang-four",
        table.options,
        ["Dev", "Ann", "Ben"],
    )
    assert (rematch.status, rematch.version, rematch.events.count()) == ("in_progress", 0, 0)
    version = Table.objects.get(pk=table.pk).version
    assert version == table.version + 1  # the other phones' pages learn of it
    # Asked again (the second phone to tap), the same table: never two next games.
    assert services.play_again(table.id).pk == rematch.pk
    assert Table.objects.count() == 2 and Table.objects.get(pk=table.pk).version == version


def test_an_unfinished_table_has_no_next_game_yet():
    table = services.create_table("dogo-dash", NAMES, {})
    with pytest.raises(base.RuleViolation) as refused:
        services.play_again(table.id)
    assert refused.value.message == "A new game with the same players starts once this one is over."
    assert Table.objects.count() == 1


def test_one_tap_on_the_finished_page_starts_it_and_opens_it(client):
    table = finished_table(client)
    page = client.get(f"/t/{table.id}/").content.decode()
    assert f'action="/t/{table.id}/again/"' in page
    label = '<small class="d-block fw-normal fs-6">the same players in the same seats</small>'
    assert f"Play again{label}" in page
    answer = client.post(f"/t/{table.id}/again/")
    rematch = Table.objects.get(rematch_of=table)
    assert answer.status_code == 302 and answer["Location"] == f"/t/{rematch.id}/"
    assert rematch.options == {"catnip": True, "dogo_dash": False}
    assert 'name="card_0"' in client.get(f"/t/{rematch.id}/").content.decode()  # this phone enters
    assert "Go to the next game" in client.get(f"/t/{table.id}/").content.decode()


def test_the_other_phones_follow_with_the_rights_they_hold(client):
    table = finished_table(client)
    watcher = Client()
    watcher.get(f"/t/{table.id}/join/{table.view_token}/")
    assert "Play again" not in watcher.get(f"/t/{table.id}/").content.decode()
    assert watcher.post(f"/t/{table.id}/again/").status_code == 403  # a watcher cannot start one
    assert Table.objects.count() == 1
    other_player = Client()
    other_player.get(f"/t/{table.id}/join/{table.token}/")
    client.post(f"/t/{table.id}/again/")
    rematch = Table.objects.get(rematch_of=table)
    assert other_player.post(f"/t/{table.id}/again/")["Location"] == f"/t/{rematch.id}/"
    assert 'name="card_0"' in other_player.get(f"/t/{rematch.id}/").content.decode()
    assert "Watch the next game" in watcher.get(f"/t/{table.id}/").content.decode()
    assert watcher.post(f"/t/{table.id}/again/")["Location"] == f"/t/{rematch.id}/"
    watching = watcher.get(f"/t/{rematch.id}/").content.decode()
    assert "You are watching this table." in watching and 'name="card_0"' not in watching
    assert Table.objects.count() == 2


def test_a_stranger_gets_nothing(client):
    table = play_out("dogo-dash", NAMES, seed=4)
    assert client.post(f"/t/{table.id}/again/").status_code == 404
    assert client.get(f"/t/{table.id}/again/").status_code == 405
    assert Table.objects.count() == 1
