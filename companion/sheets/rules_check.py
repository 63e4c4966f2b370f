"""A rules sheet checked (issue 44): the schema's bounds (rules-sheet.schema.json), then what a
schema cannot say: ids that name real dice and rows, a rule for every kind of refusal the sheet
can give, scoring tables as long as their rows, and an end the game must reach.

Why a checked sheet always ends. Every roll, the active player's turn either consumes something
finite or the end comes by count:
- `end.rolls`: at most that many rolls;
- a penalty for an active player who marks nothing (`penalty_if_active_marks_nothing`) with
  `end.penalties` at most `penalties.max`: each roll marks a box of the active player's sheet
  (finitely many) or gives a penalty (at most end.penalties - 1 each before the end);
- `end.filled` with a step in which the active player (or everyone) must mark and every row
  open to it takes any value anywhere (order "any", no repeats, no last-box condition, boxes
  written in or named): each roll fills a box until every sheet is full.
A sheet that says none of these is refused: it could roll for ever. And scores are bounded:
at most 20 boxes a row, 12 rows, faces under 100, tables and bonuses under 1,000 a line, and a
named function's bonus bounded by the boxes (yahtzee-joker: 100 at most a named box). A named
function changes where a mark goes, never whether one can go: it always leaves an open box."""

from __future__ import annotations

from . import functions
from .parse import SheetError, check_against, check_names

ABOUT_NEEDED = {
    "roll": lambda sheet: True,
    "turn": lambda sheet: True,
    "value": lambda sheet: True,
    "players": lambda sheet: True,
    "end": lambda sheet: True,
    "score": lambda sheet: True,
    "order": lambda sheet: any(row.get("order", "any") != "any" for row in sheet["rows"]),
    "repeat": lambda sheet: (
        sheet.get("columns_no_repeat") or any(row.get("no_repeat") for row in sheet["rows"])
    ),
    "last_needs": lambda sheet: any("last_needs" in row for row in sheet["rows"]),
    "lock": lambda sheet: any(row.get("locks") for row in sheet["rows"]),
    "penalty": lambda sheet: bool(sheet["turn"].get("penalty_if_active_marks_nothing")),
    "joker": lambda sheet: any(function.about == "joker" for function in functions.named(sheet)),
}


def check_rules_sheet(document) -> dict:
    """The document if it is a playable rules sheet, else SheetError naming the first wrong field."""
    check_against("rules-sheet.schema.json", document)
    check_names(_texts(document))
    _check_ids(document)
    _check_rows(document)
    _check_steps(document)
    for function in functions.named(document):
        function.check(document)
    _check_rules(document)
    _check_end(document)
    return document


def _texts(sheet: dict):
    """(pointer, key of uniqueness or None, text) of every name a person reads."""
    for language in ("en", "fr"):
        yield f"/name/{language}", None, sheet["name"][language]
        for index, die in enumerate(sheet["dice"]):
            yield f"/dice/{index}/name/{language}", None, die["name"][language]
        for index, row in enumerate(sheet["rows"]):
            yield f"/rows/{index}/name/{language}", ("row", language), row["name"][language]
            for place, box in enumerate(row["boxes"]):
                if isinstance(box, dict):
                    yield (
                        f"/rows/{index}/boxes/{place}/name/{language}",
                        ("box", language),
                        box["name"][language],
                    )
        for index, group in enumerate(sheet.get("groups", [])):
            yield f"/groups/{index}/name/{language}", None, group["name"][language]
        for index, rule in enumerate(sheet["rules"]):
            yield f"/rules/{index}/{language}", None, rule[language]


def _unique(items, path: str, what: str) -> None:
    seen = set()
    for index, item in enumerate(items):
        if item in seen:
            raise SheetError(f"{path}/{index}/id", f"the {what} {item!r} is named twice")
        seen.add(item)


def _check_ids(sheet: dict) -> None:
    _unique([die["id"] for die in sheet["dice"]], "/dice", "die")
    _unique(
        [row["id"] for row in sheet["rows"]] + [group["id"] for group in sheet.get("groups", [])],
        "/rows",
        "row or group",
    )
    _unique([rule["id"] for rule in sheet["rules"]], "/rules", "rule")
    for index, row in enumerate(sheet["rows"]):
        ids = [box.get("id") for box in row["boxes"] if isinstance(box, dict)]
        _unique([box_id for box_id in ids if box_id], f"/rows/{index}/boxes", "box")
    if sheet["players"]["min"] > sheet["players"]["max"]:
        raise SheetError("/players/min", "the fewest players is not more than the most")


def _check_rows(sheet: dict) -> None:
    dice = {die["id"] for die in sheet["dice"]}
    rows = {row["id"]: row for row in sheet["rows"]}
    lengths = {len(row["boxes"]) for row in sheet["rows"]}
    for index, row in enumerate(sheet["rows"]):
        where = f"/rows/{index}"
        if "die" in row and row["die"] not in dice:
            raise SheetError(f"{where}/die", f"there is no die {row['die']!r}")
        printed = [box for box in row["boxes"] if isinstance(box, int)]
        named = [box for box in row["boxes"] if isinstance(box, dict)]
        if named and len(named) != len(row["boxes"]):
            raise SheetError(f"{where}/boxes", "a row of named boxes holds named boxes only")
        if row.get("order") == "left_to_right" and len(printed) != len(row["boxes"]):
            raise SheetError(f"{where}/order", "left to right is for rows of printed numbers")
        if row.get("order") in ("ascending", "descending") and printed:
            raise SheetError(f"{where}/order", "a rising or falling row is written in: its boxes are null")
        if (row.get("locks") or "last_needs" in row) and row.get("order") != "left_to_right":
            raise SheetError(
                f"{where}/locks", "a last box that locks or waits belongs to a left-to-right row"
            )
        table = row["score"].get("by_marks")
        if table is not None and len(table) < len(row["boxes"]) + 1 + bool(row.get("locks")):
            raise SheetError(
                f"{where}/score/by_marks", "the table gives points for 0 marks up to every box (and the lock)"
            )
        for place, box in enumerate(named):
            _check_pattern(box["value"], f"{where}/boxes/{place}/value")
        for place, pattern in enumerate(row["score"].get("patterns", [])):
            _check_pattern(pattern, f"{where}/score/patterns/{place}")
    if sheet.get("columns_no_repeat") and len(lengths) != 1:
        raise SheetError("/columns_no_repeat", "columns need rows of one length")
    for index, group in enumerate(sheet.get("groups", [])):
        for place, (row_id, box) in enumerate(group["boxes"]):
            if row_id not in rows or box >= len(rows[row_id]["boxes"]):
                raise SheetError(f"/groups/{index}/boxes/{place}", f"there is no box {box} in row {row_id!r}")
        if "by_marks" in group["score"] and len(group["score"]["by_marks"]) < len(group["boxes"]) + 1:
            raise SheetError(
                f"/groups/{index}/score/by_marks", "the table gives points for 0 marks up to every box"
            )
    for index, bonus in enumerate(sheet.get("bonuses", [])):
        for place, row_id in enumerate(bonus["rows"]):
            if row_id not in rows:
                raise SheetError(f"/bonuses/{index}/rows/{place}", f"there is no row {row_id!r}")


def _check_pattern(pattern: dict, where: str) -> None:
    kind = pattern["pattern"]
    if kind == "count" and "face" not in pattern:
        raise SheetError(f"{where}/face", "a count names the face it counts")
    if kind in ("kind", "straight") and "n" not in pattern:
        raise SheetError(f"{where}/n", "n of a kind, or a straight of n, says its n")


def _check_steps(sheet: dict) -> None:
    dice = {die["id"] for die in sheet["dice"]}
    rows = {row["id"]: row for row in sheet["rows"]}
    for index, step in enumerate(sheet["turn"]["steps"]):
        where = f"/turn/steps/{index}"
        for place, row_id in enumerate(step.get("rows", [])):
            if row_id not in rows:
                raise SheetError(f"{where}/rows/{place}", f"there is no row {row_id!r}")
        marked = [rows[row_id] for row_id in step.get("rows", rows)]
        if step["value"] == "box":
            if not all(isinstance(box, dict) for row in marked for box in row["boxes"]):
                raise SheetError(
                    f"{where}/value", "a step valued by its boxes marks rows of named boxes only"
                )
            continue
        for place, choices in enumerate(step["value"]["sum"]):
            for die in choices:
                if die == "$row":
                    if any("die" not in row for row in marked):
                        raise SheetError(
                            f"{where}/value/sum/{place}", '"$row" needs each row it marks to name its die'
                        )
                elif die not in dice:
                    raise SheetError(f"{where}/value/sum/{place}", f"there is no die {die!r}")
        if any(isinstance(box, dict) for row in marked for box in row["boxes"]):
            raise SheetError(f"{where}/value", 'named boxes take their value from the dice: "value": "box"')


def _check_rules(sheet: dict) -> None:
    present = {rule["about"] for rule in sheet["rules"]}
    for about, needed in ABOUT_NEEDED.items():
        if needed(sheet) and about not in present:
            raise SheetError("/rules", f"a rule about {about!r} is needed: its refusals cite it")
    penalty = sheet["turn"].get("penalty_if_active_marks_nothing")
    if (penalty or "penalties" in sheet["end"]) and "penalties" not in sheet:
        raise SheetError("/penalties", "penalties need their boxes and points")


def _free(row: dict) -> bool:
    """Any value goes in any open box of this row, whatever is written: a forced mark always fits."""
    written_in = all(box is None or isinstance(box, dict) for box in row["boxes"])
    return written_in and row.get("order", "any") == "any" and not row.get("no_repeat")


def _check_end(sheet: dict) -> None:
    end, turn = sheet["end"], sheet["turn"]
    if "rolls" in end:
        return
    if turn.get("penalty_if_active_marks_nothing") and "penalties" in end:
        if end["penalties"] > sheet["penalties"]["max"]:
            raise SheetError("/end/penalties", "the end comes at most at the last penalty box")
        return
    if end.get("filled") and not sheet.get("columns_no_repeat"):
        rows = {row["id"]: row for row in sheet["rows"]}
        for step in turn["steps"]:
            marked = [rows[row_id] for row_id in step.get("rows", rows)]
            if step["who"] != "others" and not step.get("optional") and len(marked) == len(rows):
                if all(_free(row) for row in marked):
                    return
    raise SheetError(
        "/end",
        "this sheet could roll for ever: end it after a number of rolls, or give the active player a "
        "penalty for marking nothing and end at a number of penalties, or end when every box is filled "
        "with a step that must mark a box that takes any value",
    )
