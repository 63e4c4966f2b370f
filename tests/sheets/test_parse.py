"""A score sheet's file checked (issue 44, docs/sheets.md): the first wrong field named by its path,
with what is wrong there; a sheet the pad cannot play refused in the pad's words."""

from __future__ import annotations

import copy
import json

import pytest

from companion.sheets.parse import MAX_BYTES, SheetError, checked, parse

SHEET = {
    "format": 1,
    "kind": "score",
    "id": "orchard-race",
    "bgg_id": 0,
    "name": {"en": "Orchard Race", "fr": "Course au verger"},
    "outcome": "points",
    "scoring": "end",
    "wins": "highest",
    "lines": [
        {"en": "Apples", "fr": "Pommes", "group": {"en": "Fruit", "fr": "Fruits"}},
        {"en": "Pears", "fr": "Poires", "group": {"en": "Fruit", "fr": "Fruits"}},
        {"en": "Wasps", "fr": "Guêpes", "against": True},
    ],
    "tie_breaker": {"en": "Baskets left", "fr": "Paniers restants", "wins": "lowest"},
}


def changed(path: str, value) -> dict:
    """SHEET with the field at `path` ("lines/1/en") set to value (or removed for ...)."""
    sheet = copy.deepcopy(SHEET)
    *parents, last = path.split("/")
    here = sheet
    for part in parents:
        here = here[int(part)] if isinstance(here, list) else here[part]
    key = int(last) if isinstance(here, list) else last
    if value is ...:
        del here[key]
    else:
        here[key] = value
    return sheet


def refusal(document) -> tuple[str, str]:
    with pytest.raises(SheetError) as refused:
        checked(document)
    return refused.value.path, refused.value.message


def test_a_right_sheet_plays_on_the_pad_in_either_language():
    sheet = checked(SHEET)
    assert sheet.pad_options("fr") == {
        "game_name": "Course au verger",
        "bgg_id": 0,
        "outcome": "points",
        "mode": "categories",
        "categories": ["Pommes", "Poires", "Guêpes", "Paniers restants"],
        "lowest_wins": False,
        "target": 0,
        "against": ["Guêpes"],
        "tie_breaker": "Paniers restants",
        "tie_breaker_lowest": True,
        "headings": {"Pommes": "Fruits", "Poires": "Fruits"},
    }
    assert [line["group"] for line in sheet.lines("en")] == ["Fruit", "Fruit", None]


@pytest.mark.parametrize(
    "path, value, where, words",
    [
        ("lines/1/en", "x" * 41, "/lines/1/en", "is too long"),
        ("lines/2/fr", "", "/lines/2/fr", "should be non-empty"),
        ("lines/0/against", False, "/lines/0/against", "True was expected"),
        ("name/fr", ..., "/name", "'fr' is a required property"),
        ("wins", "most", "/wins", "is not one of ['highest', 'lowest']"),
        ("bgg_id", -3, "/bgg_id", "is less than the minimum of 0"),
        ("id", "Orchard Race", "/id", "does not match"),
        ("lines", [], "/lines", "should be non-empty"),
        (
            "lines/0/colour",
            "red",
            "/lines/0",
            "Additional properties are not allowed ('colour' was unexpected)",
        ),
        ("format", 2, "/format", "1 was expected"),
    ],
)
def test_a_wrong_field_is_named_by_its_path(path, value, where, words):
    found, message = refusal(changed(path, value))
    assert found == where and words in message


def test_a_wrong_value_is_said_back_in_json_and_cut_short():
    """The author wrote JSON: a refused value is said in JSON (null, not Python's None), at most
    60 characters of it, however long it was."""
    found, message = refusal(changed("lines", [{"en": None, "fr": None}] * 31))
    assert found == "/lines"
    assert message == '[{"en": null, "fr": null}, {"en": null, "fr": null}, {"en":… is too long (at most 30)'
    assert refusal(changed("wins", "most"))[1] == """"most" is not one of ['highest', 'lowest']"""


def test_what_a_schema_cannot_say_is_checked_by_name():
    assert refusal(changed("lines/1/en", "APPLES")) == (
        "/lines/1/en",
        "'APPLES' is already the name of /lines/0/en",
    )
    assert refusal(changed("tie_breaker/fr", "pommes"))[0] == "/tie_breaker/fr"
    assert refusal(changed("lines/0/en", " Apples")) == (
        "/lines/0/en",
        "a name has no leading, trailing or doubled spaces",
    )
    assert refusal(changed("lines/1/fr", "Poi\u202eres")) == (
        "/lines/1/fr",
        "a name holds no invisible or turning characters (U+202E)",
    )
    apart = changed("lines/2/group", {"en": "Fruit", "fr": "Fruits"})
    apart["lines"][1].pop("group")
    assert refusal(apart) == ("/lines/2/group", "the lines of the group 'Fruit' stand together")


def test_a_sheet_without_points_has_no_lines_and_a_sheet_of_rounds_no_tie_breaker():
    coop = {key: SHEET[key] for key in ("format", "kind", "id", "bgg_id", "name")} | {"outcome": "coop"}
    assert checked(coop).pad_options()["mode"] == "rounds"
    assert refusal({**coop, "lines": SHEET["lines"]})[0] == "/"
    rounds = {**SHEET, "scoring": "rounds", "end_at": 66}
    del rounds["lines"], rounds["tie_breaker"]
    assert checked(rounds).pad_options()["target"] == 66
    assert refusal({**rounds, "tie_breaker": SHEET["tie_breaker"]})[0] == "/"
    assert refusal({**SHEET, "end_at": 66})[0] == "/"  # a target ends rounds only (AG-5)


def test_the_pad_judges_what_the_schema_lets_by():
    many = changed("lines", [{"en": f"Line {n}", "fr": f"Ligne {n}"} for n in range(30)])
    assert refusal(many) == (
        "/",
        "en: A pad of categories has 1 to 30 of them, not 31 (AG-1).",
    )  # 30 lines and the tie-breaker


def test_a_file_is_bounded_and_json():
    assert checked(json.loads(json.dumps(SHEET))).id == "orchard-race"
    with pytest.raises(SheetError, match=f"at most {MAX_BYTES} bytes"):
        parse(b" " * (MAX_BYTES + 1))
    with pytest.raises(SheetError, match="not JSON"):
        parse(b"{'id': 1}")
    with pytest.raises(SheetError) as refused:
        parse(b"[]")
    assert refused.value.path == "/" and "is not of type 'object'" in refused.value.message
