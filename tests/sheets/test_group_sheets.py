"""A group's own sheets (issue 44): kept checked through the API and the group's page, played at
once, shared by a link or a file, private to the group otherwise, and a table keeps the version
it started with."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.test import Client

from companion.groups.models import Group, GroupSheet
from companion.tables.models import Table
from tests.history.factories import finished_play
from tests.sheets.test_own_rules_sheet import CLIMB

pytestmark = pytest.mark.django_db

HARBOUR = {
    "format": 1,
    "kind": "score",
    "id": "harbour-lights",
    "bgg_id": 0,
    "name": {"en": "Harbour Lights", "fr": "Feux du port"},
    "outcome": "points",
    "scoring": "end",
    "wins": "highest",
    "lines": [
        {"en": "Boats", "fr": "Bateaux"},
        {"en": "Lighthouses", "fr": "Phares"},
        {"en": "Storms", "fr": "Tempêtes", "against": True},
    ],
}


@pytest.fixture
def crew():
    return Group.objects.create(name="Crew")


@pytest.fixture
def rivals():
    return Group.objects.create(name="Rivals")


def keep(api, group, sheet, token=None):
    return api.call("post", f"/api/v1/groups/{group.pk}/sheets", sheet, token or group.token)


def start(api, group, sheet_id, players=("Ann", "Ben"), token=None):
    body = {"sheet": sheet_id, "players": list(players), "group": group.pk}
    return api.call("post", "/api/v1/tables", body, token or group.token)


def test_a_group_keeps_its_own_score_sheet_and_plays_it_at_once(api, crew):
    kept = keep(api, crew, HARBOUR)
    assert kept.status_code == 201, kept.content
    answer = kept.json()
    assert answer["id"] == f"{crew.pk}.harbour-lights" and answer["version"] == 1
    assert answer["kind"] == "score" and answer["group"] == crew.pk and answer["name"] == "Harbour Lights"
    share = GroupSheet.objects.get().share_token
    assert answer["share_url"] == f"http://testserver/sheets/shared/{share}/"
    table = start(api, crew, answer["id"])
    assert table.status_code == 201, table.content
    options = Table.objects.get(pk=table.json()["id"]).options
    assert options["game_name"] == "Harbour Lights" and options["categories"] == [
        "Boats",
        "Lighthouses",
        "Storms",
    ]
    assert options["against"] == ["Storms"] and Table.objects.get().group == crew


def test_the_list_holds_the_groups_own_sheets_first_and_only_with_its_token(api, crew):
    keep(api, crew, HARBOUR)
    found = api.call("get", f"/api/v1/sheets?q=harb&group={crew.pk}", token=crew.token).json()
    assert [sheet["id"] for sheet in found] == [f"{crew.pk}.harbour-lights"]
    assert found[0]["names"] == {"en": "Harbour Lights", "fr": "Feux du port"}
    library_only = api.call("get", "/api/v1/sheets?q=harb").json()
    assert library_only == []
    assert api.call("get", f"/api/v1/sheets?q=harb&group={crew.pk}").status_code == 401
    azul = api.call("get", f"/api/v1/sheets?q=azul&group={crew.pk}", token=crew.token).json()
    assert azul[0]["id"] == "azul" and {sheet["group"] for sheet in azul} == {None}


def test_another_group_reads_a_sheet_only_by_its_share_link(api, crew, rivals):
    sheet_id = keep(api, crew, HARBOUR).json()["id"]
    assert api.call("get", f"/api/v1/sheets/{sheet_id}").status_code == 401
    assert api.call("get", f"/api/v1/sheets/{sheet_id}", token=rivals.token).status_code == 401
    assert api.call("get", f"/api/v1/sheets/{sheet_id}", token=crew.token).json() == HARBOUR
    share = GroupSheet.objects.get().share_token
    assert api.call("get", f"/api/v1/sheets/{sheet_id}?share={share}").json() == HARBOUR
    assert api.call("get", f"/api/v1/sheets/{sheet_id}?share=nope").status_code == 404
    # Whether a group has a sheet of a name is its own: without its token, the same 401 either way
    assert api.call("get", f"/api/v1/sheets/{crew.pk}.nothing-here").status_code == 401
    assert api.call("get", f"/api/v1/sheets/{crew.pk}.nothing-here?share={share}").status_code == 404
    # Nor can another group start a table from it, even with the id
    refused = start(api, rivals, sheet_id)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "unknown_sheet"
    assert Table.objects.count() == 0


def test_a_wrong_sheet_is_refused_at_its_first_wrong_field_and_nothing_is_kept(api, crew):
    long_line = copy.deepcopy(HARBOUR)
    long_line["lines"][1]["fr"] = "P" * 41
    refused = keep(api, crew, long_line)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "bad_sheet" and error["path"] == "/lines/1/fr"
    assert error["message"] == f'/lines/1/fr: "{"P" * 41}" is too long (at most 40)'
    not_json = api.call("post", f"/api/v1/groups/{crew.pk}/sheets", "{not json", crew.token)
    assert not_json.status_code == 400 and not_json.json()["error"]["path"] == "/"
    endless = copy.deepcopy(CLIMB)
    endless["end"] = {"penalties": 3}
    endless["turn"].pop("penalty_if_active_marks_nothing")
    endless["rules"] = [rule for rule in endless["rules"] if rule["about"] != "penalty"]
    refused = keep(api, crew, endless)
    assert refused.status_code == 400 and refused.json()["error"]["path"] == "/end"
    assert GroupSheet.objects.count() == 0


def test_a_watcher_cannot_keep_a_sheet(api, crew):
    refused = keep(api, crew, HARBOUR, token=crew.view_token)
    assert refused.status_code == 403 and GroupSheet.objects.count() == 0


def test_a_new_version_leaves_the_tables_already_started_as_they_were(api, crew):
    sheet_id = keep(api, crew, HARBOUR).json()["id"]
    first = start(api, crew, sheet_id).json()
    changed = copy.deepcopy(HARBOUR)
    changed["lines"].insert(2, {"en": "Fish", "fr": "Poissons"})
    again = keep(api, crew, changed)
    assert again.status_code == 200 and again.json()["version"] == 2
    assert keep(api, crew, changed).json()["version"] == 2  # the same file again is no new version
    second = Table.objects.get(pk=start(api, crew, sheet_id).json()["id"])
    assert second.options["categories"] == ["Boats", "Lighthouses", "Fish", "Storms"]
    assert Table.objects.get(pk=first["id"]).options["categories"] == ["Boats", "Lighthouses", "Storms"]


def test_a_groups_own_roll_and_write_plays_through_the_api_citing_its_rules(api, crew):
    kept = keep(api, crew, CLIMB)
    assert kept.status_code == 201 and kept.json()["kind"] == "rules"
    answer = start(api, crew, kept.json()["id"])
    assert answer.status_code == 201, answer.content
    table = answer.json()
    assert table["game"] == "roll-and-write" and table["expect"] == {
        "actions": ["roll"],
        "seats": [0],
        "active": 0,
    }
    api.tokens[table["id"]] = table["token"]
    table = api.act(table, {"type": "roll", "dice": {"a": 2, "b": 3, "c": 6}}).json()
    wrong = api.act(table, {"type": "mark", "seat": 0, "row": "ladder", "box": 2, "value": 12})
    assert wrong.json()["error"]["message"] == "These dice do not make 12 for Ladder (CL-4)."
    # Removed from the group, the sheet stays whole in the table that plays it
    removed = api.call("delete", f"/api/v1/groups/{crew.pk}/sheets/{kept.json()['id']}", token=crew.token)
    assert removed.status_code == 204 and GroupSheet.objects.count() == 0
    marked = api.act(table, {"type": "mark", "seat": 0, "row": "ladder", "box": 2, "value": 8})
    assert marked.status_code == 200 and marked.json()["state"]["seats"][0]["rows"]["ladder"][2] == 8


def test_a_group_keeps_a_hundred_sheets_at_most(api, crew):
    for number in range(100):
        GroupSheet.objects.create(group=crew, sheet_id=f"s{number}", kind="score", name="S", document=HARBOUR)
    refused = keep(api, crew, HARBOUR)
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == "/: A group keeps 100 sheets at most: remove one first."


# --- the group's page ---------------------------------------------------------------------------


def member(group: Group) -> Client:
    phone = Client()
    phone.get(f"/g/{group.pk}/join/{group.token}/")
    return phone


def written(**fields) -> dict:
    return {"kind": "score", "outcome": "points", "wins": "highest", "scoring": "end", **fields}


def test_a_member_writes_a_score_sheet_line_by_line(crew):
    phone = member(crew)
    lines = "Boats\nLights:\nRed lights\nGreen lights\n- Storms\n"
    answer = phone.post(
        f"/g/{crew.pk}/sheets/", written(name="Harbour  Lights", lines=lines, tie_breaker="Coins")
    )
    assert answer.status_code == 302 and answer["Location"] == f"/g/{crew.pk}/sheets/#sheet-harbour-lights"
    document = GroupSheet.objects.get(group=crew).document
    assert document["name"] == {"en": "Harbour Lights", "fr": "Harbour Lights"}
    assert document["lines"] == [
        {"en": "Boats", "fr": "Boats"},
        {"en": "Red lights", "fr": "Red lights", "group": {"en": "Lights", "fr": "Lights"}},
        {"en": "Green lights", "fr": "Green lights", "group": {"en": "Lights", "fr": "Lights"}},
        {"en": "Storms", "fr": "Storms", "against": True, "group": {"en": "Lights", "fr": "Lights"}},
    ]
    assert document["tie_breaker"] == {"en": "Coins", "fr": "Coins", "wins": "highest"}
    page = phone.get(f"/g/{crew.pk}/sheets/").content.decode()
    assert "Harbour Lights" in page and "Boats · Red lights · Green lights · Storms" in page
    assert f"/new/any-game/?group={crew.pk}&amp;sheet={crew.pk}.harbour-lights" in page
    # Its Play link opens the pad's form filled in with its lines
    form = phone.get(f"/new/any-game/?group={crew.pk}&sheet={crew.pk}.harbour-lights").content.decode()
    assert 'value="Harbour Lights"' in form and "Boats\nRed lights\nGreen lights\nStorms\nCoins" in form


def test_a_wrong_line_is_named_with_its_number_and_nothing_is_kept(crew):
    phone = member(crew)
    answer = phone.post(f"/g/{crew.pk}/sheets/", written(name="Harbour", lines="Boats\n" + "L" * 41))
    assert answer.status_code == 400
    assert f"Line 2 ({'L' * 41}): 40 characters at most." in answer.content.decode()
    answer = phone.post(f"/g/{crew.pk}/sheets/", written(name="Harbour", lines=""))
    assert "Write at least one line, and 30 at most." in answer.content.decode()
    assert GroupSheet.objects.count() == 0


def test_changing_a_score_sheet_makes_its_next_version(crew):
    phone = member(crew)
    phone.post(f"/g/{crew.pk}/sheets/", written(name="Harbour", lines="Boats\n- Storms"))
    edit = phone.get(f"/g/{crew.pk}/sheets/?edit=harbour").content.decode()
    assert "Boats\n- Storms</textarea>" in edit and 'name="sheet_id" value="harbour"' in edit
    phone.post(
        f"/g/{crew.pk}/sheets/", written(name="Harbour Nights", lines="Boats\nFish", sheet_id="harbour")
    )
    row = GroupSheet.objects.get(group=crew)
    assert row.version == 2 and row.name == "Harbour Nights" and row.sheet_id == "harbour"


def test_a_rules_sheet_comes_as_a_file_and_plays_from_the_new_table_page(crew):
    phone = member(crew)
    upload = io.BytesIO(json.dumps(CLIMB).encode())
    upload.name = "climb.json"
    answer = phone.post(f"/g/{crew.pk}/sheets/", {"kind": "upload", "file": upload})
    assert answer.status_code == 302 and GroupSheet.objects.get().kind == "rules"
    url = f"/new/roll-and-write/?group={crew.pk}&sheet={crew.pk}.climb"
    form = phone.get(url).content.decode()
    assert "Your group's sheet: Climb, each mark checked by its own rules." in form
    assert 'name="option_sheet"' not in form  # the sheet is the page's, not a choice
    started = phone.post(url, {"player_0": "Ann", "player_1": "Ben"})
    assert started.status_code == 302, started.content.decode()[-2000:]
    table = Table.objects.get()
    assert table.group == crew and table.options["rules"] == CLIMB and table.played == "roll-and-write:climb"


def test_a_wrong_file_is_named_at_its_first_wrong_field(crew):
    phone = member(crew)
    wrong = copy.deepcopy(CLIMB)
    wrong["dice"][0]["faces"] = []
    upload = io.BytesIO(json.dumps(wrong).encode())
    upload.name = "climb.json"
    answer = phone.post(f"/g/{crew.pk}/sheets/", {"kind": "upload", "file": upload})
    assert answer.status_code == 400 and "In the file, at /dice/0/faces:" in answer.content.decode()
    assert GroupSheet.objects.count() == 0


def test_a_watcher_sees_the_sheets_but_cannot_write_one(crew):
    GroupSheet.objects.create(
        group=crew, sheet_id="harbour-lights", kind="score", name="Harbour Lights", document=HARBOUR
    )
    watcher = Client()
    watcher.get(f"/g/{crew.pk}/join/{crew.view_token}/")
    page = watcher.get(f"/g/{crew.pk}/sheets/").content.decode()
    assert "Harbour Lights" in page and "Write a game" not in page and "Play Harbour Lights" not in page
    # A watcher takes the file: sharing, changing and removing are not offered
    assert "Share, change or remove" not in page and "Download its file" in page
    assert f'href="/g/{crew.pk}/sheets/harbour-lights.json" download>' in page
    refused = watcher.post(f"/g/{crew.pk}/sheets/", written(name="Mine", lines="A"))
    assert refused.status_code == 403 and GroupSheet.objects.count() == 1
    assert Client().get(f"/g/{crew.pk}/sheets/").status_code == 404  # a stranger: no such group


def test_a_shared_link_adds_the_sheet_to_another_group_and_gives_its_file(crew, rivals):
    row = GroupSheet.objects.create(
        group=crew, sheet_id="harbour-lights", kind="score", name="Harbour Lights", document=HARBOUR
    )
    rival = member(rivals)
    page = rival.get(f"/sheets/shared/{row.share_token}/").content.decode()
    assert "shared by Crew" in page and "Storms" in page and f'value="{rivals.pk}"' in page
    assert f'value="{crew.pk}"' not in page
    assert json.loads(rival.get(f"/sheets/shared/{row.share_token}/?file=1").content) == HARBOUR
    added = rival.post(f"/sheets/shared/{row.share_token}/", {"group": rivals.pk})
    assert added.status_code == 302 and GroupSheet.objects.get(group=rivals).document == HARBOUR
    refused = rival.post(f"/sheets/shared/{row.share_token}/", {"group": crew.pk})  # not their group
    assert refused.status_code == 403
    assert rival.get("/sheets/shared/not-a-token/").status_code == 404


def test_the_sheets_page_counts_a_sheets_plays_and_links_its_history(api, crew):
    sheet_id = keep(api, crew, HARBOUR).json()["id"]
    options = Table.objects.get(pk=start(api, crew, sheet_id).json()["id"]).options
    french = {**options, "game_name": "Feux du port"}  # played in French: the same sheet's play
    finished_play("any-game", [("Ann", 30, True), ("Ben", 20, False)], options=options, group=crew)
    finished_play("any-game", [("Ann", 10, False), ("Ben", 25, True)], options=french, group=crew)
    finished_play("any-game", [("Ann", 10, False), ("Ben", 25, True)], options=options, group=crew)
    page = member(crew).get(f"/g/{crew.pk}/sheets/").content.decode()
    english = f'<a href="/g/{crew.pk}/history/games/any-game:harbour%20lights/">2 plays</a>'
    french = f'<a href="/g/{crew.pk}/history/games/any-game:feux%20du%20port/">1 play</a>'
    assert f"{english}, {french}" in page  # each name's plays on the history page they open


def test_a_shared_roll_and_write_shows_its_rules_in_the_phones_language(crew):
    row = GroupSheet.objects.create(group=crew, sheet_id="climb", kind="rules", name="Climb", document=CLIMB)
    page = Client().get(f"/sheets/shared/{row.share_token}/").content.decode()
    assert "<dt>CL-1</dt><dd>Two to four climbers.</dd>" in page
    assert "Open your group's member link on this phone first" in page  # a stranger: no group to add it to
    french = (
        Client(headers={"accept-language": "fr"}).get(f"/sheets/shared/{row.share_token}/").content.decode()
    )
    assert '<h1 class="h3 mb-1">Grimpette</h1>' in french and "<dd>De deux à quatre grimpeurs.</dd>" in french


def test_a_sheets_headings_go_from_its_play_link_to_the_pad(crew):
    phone = member(crew)
    lines = "Boats\nLights:\nRed lights\nGreen lights\n:\nStorms\n"  # a colon alone ends the group
    phone.post(f"/g/{crew.pk}/sheets/", written(name="Harbour", lines=lines))
    assert GroupSheet.objects.get(group=crew).document["lines"][-1] == {"en": "Storms", "fr": "Storms"}
    change = phone.get(f"/g/{crew.pk}/sheets/?edit=harbour").content.decode()
    assert "Boats\nLights:\nRed lights\nGreen lights\n:\nStorms</textarea>" in change
    url = f"/new/any-game/?group={crew.pk}&sheet={crew.pk}.harbour"
    form = phone.get(url).content.decode()
    hidden = "{&quot;Red lights&quot;: &quot;Lights&quot;, &quot;Green lights&quot;: &quot;Lights&quot;}"
    assert f'type="hidden" name="option_headings" value="{hidden}"' in form
    posted = {
        "player_0": "Ann",
        "player_1": "Ben",
        "option_game_name": "Harbour",
        "option_outcome": "points",
        "option_mode": "categories",
        "option_categories": "Boats\nRed lights\nGreen lights\nStorms",
        "option_headings": json.dumps({"Red lights": "Lights", "Green lights": "Lights"}),
        "option_target": "0",
        "option_bgg_id": "0",
    }
    assert phone.post(url, posted).status_code == 302
    table = Table.objects.get()
    assert table.options["headings"] == {"Red lights": "Lights", "Green lights": "Lights"}
    page = phone.get(f"/t/{table.id}/").content.decode()
    assert page.count('<tr class="pad-heading">') == 1 and ">Lights</th></tr>" in page
    # Storms, after the group and in none, is set apart by a rule above it (the group ends there)
    assert '<tr class="pad-after-group"><th scope="row" class="fw-normal text-break">Storms</th>' in page


def test_the_sheets_page_names_a_sheet_and_its_lines_in_the_phones_language(crew):
    GroupSheet.objects.create(
        group=crew, sheet_id="harbour-lights", kind="score", name="Harbour Lights", document=HARBOUR
    )
    phone = Client(headers={"accept-language": "fr"})
    phone.get(f"/g/{crew.pk}/join/{crew.token}/")
    page = phone.get(f"/g/{crew.pk}/sheets/").content.decode()
    assert "Jouer à Feux du port" in page and "Bateaux · Phares · Tempêtes" in page


def test_a_typed_sheet_never_replaces_another_unasked_and_a_file_only_sheet_is_changed_by_file(api, crew):
    keep(api, crew, CLIMB)
    phone = member(crew)
    answer = phone.post(f"/g/{crew.pk}/sheets/", written(name="Climb", lines="Rungs"))
    assert answer.status_code == 400
    assert "The group has a sheet called Climb already: change that one, or name this one otherwise." in (
        answer.content.decode()
    )
    # Nor does the API turn a rules sheet into a score sheet of the same id
    score = {**HARBOUR, "id": "climb"}
    refused = keep(api, crew, score)
    assert refused.status_code == 400 and refused.json()["error"]["path"] == "/id"
    assert GroupSheet.objects.get(sheet_id="climb").kind == "rules"
    # A score sheet the form cannot show whole (its French lines, its BoardGameGeek id) has no
    # "Change its lines": saving the form would drop them
    keep(api, crew, {**HARBOUR, "bgg_id": 9209})
    page = phone.get(f"/g/{crew.pk}/sheets/").content.decode()
    assert "?edit=harbour-lights" not in page
    edit = phone.get(f"/g/{crew.pk}/sheets/?edit=harbour-lights").content.decode()
    assert 'name="sheet_id" value="harbour-lights"' not in edit


def test_junk_in_the_hidden_headings_field_is_no_error(crew):
    phone = member(crew)
    posted = {
        "player_0": "Ann",
        "option_game_name": "Harbour",
        "option_outcome": "points",
        "option_mode": "categories",
        "option_categories": "Boats",
        "option_headings": "[" * 3000,
    }
    answer = phone.post(f"/new/any-game/?group={crew.pk}", posted)
    assert answer.status_code == 302 and "headings" not in Table.objects.get().snapshot


def test_renewing_the_groups_links_renews_its_sheets_share_links(crew, rivals):
    row = GroupSheet.objects.create(
        group=crew, sheet_id="harbour-lights", kind="score", name="Harbour Lights", document=HARBOUR
    )
    other = GroupSheet.objects.create(
        group=rivals, sheet_id="harbour-lights", kind="score", name="H", document=HARBOUR
    )
    leaked, theirs = row.share_token, other.share_token
    assert Client().get(f"/sheets/shared/{leaked}/").status_code == 200
    crew.renew_links()
    row.refresh_from_db()
    other.refresh_from_db()
    assert row.share_token != leaked and Client().get(f"/sheets/shared/{leaked}/").status_code == 404
    assert Client().get(f"/sheets/shared/{row.share_token}/").status_code == 200
    assert other.share_token == theirs  # another group's sheet keeps its link


def test_a_sheet_with_a_line_ending_in_a_colon_is_changed_by_its_file_not_the_form(crew):
    """The form would read "Tricks:" back as a heading and drop the line: that sheet is not offered
    to the form (its file changes it)."""
    document = {**HARBOUR, "lines": [{"en": "Tricks:", "fr": "Tricks:"}, {"en": "Boats", "fr": "Boats"}]}
    GroupSheet.objects.create(group=crew, sheet_id="tricks", kind="score", name="Tricks", document=document)
    page = member(crew).get(f"/g/{crew.pk}/sheets/").content.decode()
    assert "Tricks" in page and "?edit=tricks" not in page
