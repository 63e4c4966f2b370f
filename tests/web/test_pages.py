"""The htmx pages through Django's test client: forms, share links, entries, refusals, undo, polling."""

import re

import pytest

from companion.tables import access
from companion.tables.models import Event, Table

from .text import read

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(client):
    """A 3-player Dogo Dash table started through the new-table form; this client holds edit rights."""
    response = client.post(
        "/new/dogo-dash/",
        {"player_0": "Ann", "player_1": "Ben", "player_2": "Cleo", "option_dogo_dash": "on"},
    )
    assert response.status_code == 302
    return Table.objects.get()


def reveal(client, table, cards: dict, version=None, key="", **extra):
    data = {f"card_{seat}": kind for seat, kind in cards.items()}
    data["expected_version"] = table.version if version is None else version
    data["idempotency_key"] = key
    return client.post(f"/t/{table.id}/act/", data, **extra)


def test_home_offers_every_game(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/new/dogo-dash/"' in response.content
    assert b"None yet" in response.content


def test_new_table_form_starts_a_table_in_seat_order(client, table):
    assert [seat.player.name for seat in table.seats.select_related("player")] == ["Ann", "Ben", "Cleo"]
    assert table.options == {"catnip": False, "dogo_dash": True}
    page = client.get("/")
    assert f'href="/t/{table.id}/"'.encode() in page.content


@pytest.mark.parametrize(
    "data, message",
    [
        ({"player_0": "Ann"}, "Dogo Dash needs at least 2 players."),
        ({"player_0": "Ann", "player_1": "ann"}, "Each player can sit at the table only once."),
        ({"player_0": "Ann", "player_1": "B" * 41}, "Ensure this value has at most 40 characters"),
    ],
)
def test_a_bad_new_table_form_shows_why_and_creates_nothing(client, data, message):
    response = client.post("/new/dogo-dash/", data)
    assert response.status_code == 400
    assert message.encode() in response.content
    assert Table.objects.count() == 0


def test_unknown_game_is_404(client):
    assert client.get("/new/chess/").status_code == 404


def test_a_table_page_needs_its_link(client, table):
    client.cookies.clear()
    assert client.get(f"/t/{table.id}/").status_code == 404
    assert client.get(f"/t/{table.id}/join/not-the-token/").status_code == 404
    response = client.get(f"/t/{table.id}/join/{table.token}/")
    assert response.status_code == 302 and response["Location"] == f"/t/{table.id}/"
    assert client.get(f"/t/{table.id}/").status_code == 200


def test_table_page_shows_prompt_scoreboard_and_share_links(client, table):
    response = client.get(f"/t/{table.id}/")
    html = response.content.decode()
    assert "Round 1: reveal" in html
    assert html.count('name="card_') == 3 * 5
    assert f"/t/{table.id}/join/{table.token}/" in html
    assert f"/t/{table.id}/join/{table.view_token}/" in html
    assert "Nothing entered yet." in html


def test_an_entry_is_applied_and_logged_as_a_sentence(client, table):
    response = reveal(client, table, {0: "cat", 1: "dog", 2: "bear"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.version == 1
    # Ben revealed a dog and lost: with the Dogo Dash variant on he may dash before Cleo collects (DD-10).
    assert table.snapshot["pot"] == 3
    assert [seat["pile"] for seat in table.snapshot["seats"]] == [0, 0, 0]
    html = client.get(f"/t/{table.id}/").content.decode()
    assert "Ann revealed a cat, Ben a dog and Cleo a bear." in html
    assert "Collect the pot" in html and 'name="dash_1"' in html


def test_an_htmx_entry_answers_the_live_region_only(client, table):
    response = reveal(client, table, {0: "cat", 1: "cat", 2: "bear"}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live"')
    assert "<html" not in html
    assert "Cleo takes the pot of 3." in html


def test_a_refused_entry_names_the_rule_with_names_and_changes_nothing(client, table):
    # DD-11: only 4 cookies exist; three cookies are fine, a fourth and fifth are not.
    reveal(client, table, {0: "cookie", 1: "cookie", 2: "cookie"})
    table.refresh_from_db()
    response = reveal(client, table, {0: "cookie", 1: "cookie", 2: "dog"}, **HTMX)
    assert response.status_code == 200
    html = read(response.content.decode())
    assert "Not allowed." in html
    assert "Only 1 cookie is still unseen (3 of 4 seen), but this reveal shows 2 (DD-11)." in html
    assert "DD-11</span>" not in html  # the sentence names its rule already: no second badge
    before = table.version
    table.refresh_from_db()
    assert table.version == before


def test_a_missing_card_is_refused_with_the_players_name(client, table):
    response = reveal(client, table, {0: "cat", 1: "dog"})
    assert response.status_code == 422
    assert "Cleo must reveal a card: every seat reveals a card (DD-3)." in read(response.content.decode())
    # The ruling id is a link to its text on the game's rules page (issue 15).
    assert '(<a class="rule-link" href="/rules/dogo-dash/#DD-3" title="Read rule DD-3">DD-3</a>)' in (
        response.content.decode()
    )
    table.refresh_from_db()
    assert table.version == 0


def test_a_double_tap_applies_once(client, table):
    first = reveal(client, table, {0: "cat", 1: "cat", 2: "bear"}, key="form-1", **HTMX)
    second = reveal(client, table, {0: "cat", 1: "cat", 2: "bear"}, version=0, key="form-1", **HTMX)
    assert first.status_code == second.status_code == 200
    table.refresh_from_db()
    assert table.version == 1 and Event.objects.count() == 1
    assert "Another phone" not in second.content.decode()


def test_a_stale_form_shows_the_fresh_table(client, table):
    reveal(client, table, {0: "cat", 1: "cat", 2: "bear"})
    response = reveal(client, table, {0: "dog", 1: "cat", 2: "cat"}, version=0, **HTMX)
    assert response.status_code == 200
    entered = Event.objects.get(table=table).text
    notice = f"Another phone entered “{entered}” first, so yours was not sent. Here is the table now."
    assert notice in response.content.decode()
    assert response["Companion-Outcome"] == "stale"
    table.refresh_from_db()
    assert table.version == 1


def test_undo_takes_back_the_last_entry(client, table):
    reveal(client, table, {0: "cat", 1: "cat", 2: "bear"})
    response = client.post(f"/t/{table.id}/undo/", {"expected_version": 1}, **HTMX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.version == 2
    assert [seat["pile"] for seat in table.snapshot["seats"]] == [0, 0, 0]
    assert "Nothing entered yet." in response.content.decode()


def test_undo_with_nothing_to_undo_says_so(client, table):
    response = client.post(f"/t/{table.id}/undo/", {"expected_version": 0}, **HTMX)
    assert "There is no entry to take back (T-N1)." in response.content.decode()


def test_garbage_posts_never_500(client, table):
    for data in (
        {},
        {"expected_version": "x"},
        {"card_0": "unicorn", "expected_version": 0},
        {"card_9": "cat"},
    ):
        response = client.post(f"/t/{table.id}/act/", data)
        assert response.status_code in (400, 409, 422), data
    assert client.post(f"/t/{table.id}/undo/", {"expected_version": "x"}).status_code == 400
    table.refresh_from_db()
    assert table.version == 0


def test_view_link_watches_but_cannot_write(client, table):
    client.cookies.clear()
    client.get(f"/t/{table.id}/join/{table.view_token}/")
    html = client.get(f"/t/{table.id}/").content.decode()
    assert "You are watching this table." in html
    assert 'name="card_0"' not in html
    assert table.token not in html
    assert reveal(client, table, {0: "cat", 1: "cat", 2: "bear"}).status_code == 403
    assert client.post(f"/t/{table.id}/undo/", {"expected_version": 0}).status_code == 403
    assert client.get(f"/t/{table.id}/qr/edit.svg").status_code == 403
    table.refresh_from_db()
    assert table.version == 0


def test_view_link_does_not_downgrade_an_edit_phone(client, table):
    client.get(f"/t/{table.id}/join/{table.view_token}/")
    assert 'name="card_0"' in client.get(f"/t/{table.id}/").content.decode()


def test_poll_is_204_until_the_version_moves(client, table):
    assert client.get(f"/t/{table.id}/poll/?v=0").status_code == 204
    reveal(client, table, {0: "cat", 1: "cat", 2: "bear"})
    response = client.get(f"/t/{table.id}/poll/?v=0", **HTMX)
    assert response.status_code == 200
    assert b'poll/?v=1"' in response.content
    assert client.get(f"/t/{table.id}/poll/?v=1").status_code == 204


def test_poll_needs_the_link(client, table):
    client.cookies.clear()
    assert client.get(f"/t/{table.id}/poll/?v=0").status_code == 404


def test_qr_codes_are_svg(client, table):
    response = client.get(f"/t/{table.id}/qr/view.svg")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert re.search(rb"<svg[^>]*>", response.content)


@pytest.mark.parametrize("path", ["/t/%00/", "/t/ABC%00/poll/?v=0", "/t/nope/join/x/", "/t/zzz/qr/edit.svg"])
def test_odd_table_paths_are_404(client, path):
    assert client.get(path).status_code == 404


def test_a_name_with_a_nul_byte_is_refused_by_the_form(client):
    response = client.post("/new/dogo-dash/", {"player_0": "Ann\x00", "player_1": "Ben"})
    assert response.status_code == 400
    assert Table.objects.count() == 0


def test_names_are_escaped(client):
    client.post("/new/dogo-dash/", {"player_0": "<b>Ann</b>", "player_1": "Ben"})
    table = Table.objects.get()
    html = client.get(f"/t/{table.id}/").content.decode()
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "<b>Ann</b>" not in html


def test_pages_load_nothing_from_another_host(client, table):
    for path in ("/", "/new/dogo-dash/", f"/t/{table.id}/"):
        html = client.get(path).content.decode()
        assert not re.findall(r'(?:src|href)="(?:https?:)?//', html), path


def test_an_idle_poll_costs_one_query(client, table, django_assert_num_queries):
    client.get(f"/t/{table.id}/")  # the session cookie is signed: reading it needs no query
    with django_assert_num_queries(1):
        response = client.get(f"/t/{table.id}/poll/?v=0")
    assert response.status_code == 204 and response.content == b""


def test_a_refused_entry_keeps_the_picks(client, table):
    response = reveal(client, table, {0: "cat", 1: "dog"}, **HTMX)
    html = response.content.decode()
    assert 'id="card-0-cat" value="cat" autocomplete="off" required checked>' in html
    assert 'id="card-1-dog" value="dog" autocomplete="off" required checked>' in html
    assert html.count(" checked>") == 2
    assert (
        "every seat reveals a card (DD-3)." in read(html) and "DD-3</span>" not in html
    )  # G-1: in the sentence


def test_a_phone_remembers_its_newest_tables_only(client):
    ids = []
    for i in range(access.MAX_GRANTS + 3):
        response = client.post("/new/dogo-dash/", {"player_0": f"A{i}", "player_1": f"B{i}"})
        ids.append(response["Location"].split("/")[2])
    assert client.get(f"/t/{ids[0]}/").status_code == 404
    assert client.get(f"/t/{ids[3]}/").status_code == 200
    assert len(client.cookies["sessionid"].value) < 4000


def test_the_last_entry_and_its_undo_are_at_the_top_and_an_undo_says_what_it_took_back(client, table):
    """Issue 15: "Undo" beside the last entry in words, above the prompt; then "Undone: ..."."""
    reveal(client, table, {0: "cat", 1: "cat", 2: "bear"})
    table.refresh_from_db()
    reveal(client, table, {0: "dog", 1: "bear", 2: "cat"})
    table.refresh_from_db()
    newest, older = table.events.order_by("-seq").values_list("text", flat=True)
    page = client.get(f"/t/{table.id}/").content.decode()
    strip = page[page.index('class="last-entry') :]
    strip = strip[: strip.index("</div>")]
    shown = strip.replace("&#x27;", "'")
    assert f'<span class="text-body-secondary">Last entry:</span> {newest}</p>' in shown
    assert "↶ Undo</button>" in strip
    assert page.index('class="last-entry') < page.index('aria-label="What happens next"')
    assert page.count("↶ Undo</button>") == 1  # the log no longer carries a second one
    undone = client.post(f"/t/{table.id}/undo/", {"expected_version": 2}, **HTMX).content.decode()
    assert f'<span class="done-words flex-grow-1">Undone: {newest}</span>' in undone.replace("&#x27;", "'")
    assert f"</span> {older}</p>" in undone.replace("&#x27;", "'")  # the strip now offers the one before
    # Without htmx: the page the redirect opens says it once.
    answer = client.post(f"/t/{table.id}/undo/", {"expected_version": 3})
    assert answer.status_code == 302
    assert f"Undone: {older}" in client.get(f"/t/{table.id}/").content.decode().replace("&#x27;", "'")
    again = client.get(f"/t/{table.id}/").content.decode()
    assert "Undone:" not in again and 'class="last-entry' not in again  # nothing left to undo


def test_a_watcher_sees_no_undo(client, table):
    reveal(client, table, {0: "cat", 1: "cat", 2: "bear"})
    client.cookies.clear()
    client.get(f"/t/{table.id}/join/{table.view_token}/")
    assert 'class="last-entry' not in client.get(f"/t/{table.id}/").content.decode()


def test_each_game_has_a_rules_page_with_an_anchor_per_ruling(client):
    from companion.games import registry, rulebook

    for slug in registry.GAMES:
        page = client.get(f"/rules/{slug}/").content.decode()
        for ruling in rulebook.rules(slug).rulings:
            assert f'id="{ruling.id}"' in page and f'href="#{ruling.id}"' in page
    page = client.get("/rules/dogo-dash/").content.decode()
    assert "The tied players reveal again, only among themselves" in page  # DD-4, in players' words
    assert client.get("/rules/chess/").status_code == 404
