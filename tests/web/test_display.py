"""The table on a big screen (issue 32, API.md "A table on a big screen"): opened by the play or the
watch link, the scores, what the game waits for, the last entry and the game's board, live, and
nothing that writes."""

from __future__ import annotations

import re

import pytest

from companion.games import registry
from companion.tables import services
from tests.engines.golden_playthrough import script

pytestmark = pytest.mark.django_db

POSTING = re.compile(r'<form[^>]*method="post"|hx-post=')


def live_region(html: str) -> str:
    start = html.index('<div id="live"')
    end = html.find("<footer", start)
    return html[start : end if end > 0 else len(html)]


def test_the_watch_link_opens_the_big_screen_and_it_follows_the_table(client):
    table = services.create_table("dogo-dash", ["Ann", "Ben", "Cleo"], {})
    answer = client.get(f"/t/{table.id}/join/{table.view_token}/?to=display")
    assert answer.status_code == 302 and answer["Location"] == f"/t/{table.id}/display/"
    html = client.get(f"/t/{table.id}/display/").content.decode()
    assert "Dogo Dash on a big screen" in html
    assert [name in html for name in ("Ann", "Ben", "Cleo")] == [True, True, True]
    assert not POSTING.search(live_region(html))
    assert client.get(f"/t/{table.id}/display/?v=0").status_code == 204  # nothing new: no render
    services.play_action(table.id, {"type": "reveal", "cards": {"0": "dog", "1": "cat", "2": "cat"}}, 0)
    update = client.get(f"/t/{table.id}/display/?v=0")
    assert update.status_code == 200 and update.content.decode().lstrip().startswith('<div id="live"')
    # DD-2: the dog beats both cats; Ann takes the pot.
    said = "Last entry:</span> Ann revealed a dog, Ben a cat and Cleo a cat. Ann takes the pot of 3."
    assert said in update.content.decode()
    assert 'data-version="1"' in update.content.decode()


def test_a_stranger_sees_no_big_screen_and_the_play_link_writes_nothing_there(client):
    table = services.create_table("hang-four", ["Ann", "Ben"], {})
    assert client.get(f"/t/{table.id}/display/").status_code == 404
    client.get(f"/t/{table.id}/join/{table.token}/")
    html = client.get(f"/t/{table.id}/display/").content.decode()
    assert not POSTING.search(live_region(html)) and "↶ Undo" not in html
    page = client.get(f"/t/{table.id}/").content.decode()
    assert f"/t/{table.id}/join/{table.view_token}/?to=display" in page  # the share panel offers it
    assert f"/t/{table.id}/qr/view.svg?to=display" in page
    qr = client.get(f"/t/{table.id}/qr/view.svg?to=display")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_every_game_shows_on_the_big_screen_from_start_to_result(slug, client):
    names, options, actions = script(slug)
    table = services.create_table(slug, names, options)
    client.get(f"/t/{table.id}/join/{table.view_token}/")
    for step, action in enumerate(actions):
        if step in (0, len(actions) // 2):
            html = client.get(f"/t/{table.id}/display/").content.decode()
            assert not POSTING.search(live_region(html)), step
        table.refresh_from_db()
        services.play_action(table.id, action, table.version)
    html = client.get(f"/t/{table.id}/display/").content.decode()
    table.refresh_from_db()
    assert table.status == "finished" and 'class="display-result"' in html
    winners = [seat.player.name for seat in table.seats.filter(won=True)]
    assert winners and all(name in live_region(html) for name in winners)
