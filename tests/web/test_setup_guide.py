"""The setup guide before the first entry (issue 32): how to set the game up for this many players,
from the engine's own components (never restated), ticked on one phone; who starts where the
rulebook says (HF-1: "the last person to smell a wet dog starts"); one tap puts it away."""

from __future__ import annotations

import re

import pytest

from companion.tables import services

from .text import read

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def guide(html: str) -> list[str]:
    found = re.findall(r'<label class="form-check-label" for="guide-\d+">(.*?)</label>', read(html))
    return [re.sub(r"<[^>]+>", "", step).replace("&#x27;", "'") for step in found]


def joined(client, slug: str, names: list[str], options: dict | None = None):
    table = services.create_table(slug, names, options or {})
    client.get(f"/t/{table.id}/join/{table.token}/")
    return table


def test_hang_four_for_three_from_its_components_and_who_starts(client):
    table = joined(client, "hang-four", ["Ann", "Ben", "Cleo"])
    html = client.get(f"/t/{table.id}/").content.decode()
    assert "Set up for 3 players" in html
    # HF-2: 12 characters, a Surf deck of 36 (33 left once 3 are out), a Shack deck of 15, 30 sand
    # dollars (3 each: 9 dealt, 21 in the bank).
    assert guide(html) == [
        "Sort the two decks by their backs (HF-2).",
        "Put a Surf Dog character face up in front of each player: 3 of the 12.",
        "Shuffle the rest of the Surf deck (33 cards) face down in the middle.",
        "Shuffle the Surf Shack deck (15 cards) face down beside it.",
        "Give each player 3 sand dollars (9 in all); the other 21 go between the decks.",
        "Put the die within everyone's reach.",
    ]
    assert "The last person to smell a wet dog starts (HF-1). Who was it?" in read(html)
    answer = client.post(f"/t/{table.id}/first/", {"seat": 2, "expected_version": 0}, **HTMX)
    assert answer.status_code == 200 and "Cleo starts." in answer.content.decode()
    table.refresh_from_db()
    assert services.seat_names(table) == ["Cleo", "Ann", "Ben"] and table.version == 1
    assert services.table_json(table)["expect"]["seats"] == [0]  # seat 1, Cleo's turn (HF-1)
    html = client.get(f"/t/{table.id}/").content.decode()
    assert "smell a wet dog" not in html and "Set up for 3 players" in html  # asked once here
    # One tap puts the guide away on this phone.
    assert client.post(f"/t/{table.id}/guide/", **HTMX).status_code == 200
    assert "Set up for 3 players" not in client.get(f"/t/{table.id}/").content.decode()


def test_who_starts_is_asked_only_before_the_first_entry_and_refuses_nonsense(client):
    table = joined(client, "hang-four", ["Ann", "Ben"])
    bad = client.post(f"/t/{table.id}/first/", {"seat": 5, "expected_version": 0})
    assert bad.status_code == 400 and "a seat of this table" in bad.content.decode()
    services.play_action(table.id, {"type": "roll", "face": 3}, 0)
    late = client.post(f"/t/{table.id}/first/", {"seat": 1, "expected_version": 1})
    assert (
        late.status_code == 422 and "The game has begun: the seats stay as they are" in late.content.decode()
    )
    table.refresh_from_db()
    assert services.seat_names(table) == ["Ann", "Ben"] and table.version == 1
    assert "Set up for" not in client.get(f"/t/{table.id}/").content.decode()  # the game is on
    dogs = joined(client, "dogo-dash", ["Ann", "Ben"])
    nobody = client.post(f"/t/{dogs.id}/first/", {"seat": 1, "expected_version": 0})
    assert nobody.status_code == 400 and "everyone plays at once" in nobody.content.decode()


@pytest.mark.parametrize(
    ("slug", "names", "options", "steps"),
    [
        (
            "dogo-dash",
            ["Ann", "Ben", "Cleo", "Dan"],
            {},
            [
                "Shuffle the 60 cards face down.",
                "Deal 4 cards to each player (16 in all): keep them secret.",
                "Put the other 44 face down within reach: the draw deck (DD-1).",
            ],
        ),
        (
            "surfs-up",
            ["Ann", "Ben", "Cleo"],
            {"shared_goals": True},
            [
                "Each surfer takes the energy cards 0 to 5, a beach towel and 2 respect (SU-1).",
                "Shuffle the 28 ocean cards; turn 3 into the surf (a bluebottle goes back in, SU-3).",
                "Shuffle the 42 beach cards; turn 3 face up on the beach.",
                "The 18 bluebottle tokens face down within reach (SU-14).",
                "Draw 3 shared goals face up above the board (SU-13).",
            ],
        ),
        (
            "summer-suns",
            ["Ann", "Ben"],
            {},
            [
                "A score sheet and a pencil for each of the 2 players.",
                "Three dice within everyone's reach: they are shared (SS-1).",
            ],
        ),
    ],
)
def test_each_game_says_its_setup_for_this_many_players(client, slug, names, options, steps):
    table = joined(client, slug, names, options)
    html = client.get(f"/t/{table.id}/").content.decode()
    assert guide(html) == steps
    assert "Who was it?" not in html  # nobody starts: everyone plays at once, or a roller each round


def test_a_watcher_and_the_pad_see_no_guide(client):
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    client.get(f"/t/{table.id}/join/{table.view_token}/")
    assert "Set up for" not in client.get(f"/t/{table.id}/").content.decode()
    pad = joined(client, "any-game", ["Ann", "Ben"], {"game_name": "Skat"})
    assert "Set up for" not in client.get(f"/t/{pad.id}/").content.decode()
