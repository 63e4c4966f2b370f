"""Where a mark may go on a rules sheet after a roll, and why not (issue 44): the one source of what
is legal, for apply and for the screen alike. A mark is (row, box, value): a printed number crossed
when the dice make it, a value written in an empty box, or a named box's points from all the dice.

Each refusal cites the sheet's own rule about it (its `rules`, by `about`)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import RuleViolation
from companion.games.words import _, said
from companion.sheets import functions
from companion.sheets.values import pattern_points, step_sums


@dataclass(frozen=True)
class Mark:
    row: str
    box: int
    value: int


def rule_id(sheet: dict, about: str) -> str:
    """The sheet's rule about `about` (the checks of a sheet make sure one exists where it is used)."""
    found = next((rule["id"] for rule in sheet["rules"] if rule["about"] == about), None)
    return found or next(rule["id"] for rule in sheet["rules"] if rule["about"] == "turn")


def refuse(sheet: dict, code: str, message: str, about: str) -> RuleViolation:
    rule = rule_id(sheet, about)
    return RuleViolation(code, f"{message} ({rule}).", rule)


def row_of(sheet: dict, row_id: str) -> dict | None:
    return next((row for row in sheet["rows"] if row["id"] == row_id), None)


def box_label(row: dict, index: int) -> str:
    """How a box is said: its printed number, its name, or its place in the row."""
    box = row["boxes"][index]
    if isinstance(box, dict):
        return said(box["name"])
    if box is None:
        return _("box {number}").format(number=index + 1)
    return str(box)


def marked(seat: dict, row: dict) -> int:
    """A row's marks on a seat's sheet, its lock's cross counted (Qwixx)."""
    return sum(value is not None for value in seat["rows"][row["id"]]) + (row["id"] in seat["locks"])


def offered(sheet: dict, state: dict, step: dict, seat: int, row: dict, index: int) -> set[int]:
    """The values a box may take from this roll, before where it lies is judged."""
    box = row["boxes"][index]
    if step["value"] == "box":
        if not isinstance(box, dict):
            return set()
        faces = list(state["dice"].values())
        for function in functions.named(sheet):  # a named rule may decide the boxes (yahtzee-joker)
            allowed = function.boxes(sheet, state["seats"][seat]["rows"], faces)
            if allowed is not None:
                return {allowed[row["id"], index]} if (row["id"], index) in allowed else set()
        return {pattern_points(box["value"], faces)}
    if isinstance(box, dict):
        return set()
    in_play = {
        die: face for die, face in state["dice"].items() if die not in state["out"]
    }  # a closed row's die leaves at once (RW-4)
    sums = step_sums(step["value"], in_play, row)
    return sums if box is None else ({box} & sums)


def refusal(sheet: dict, state: dict, step: dict, seat: int, mark: Mark) -> RuleViolation | None:
    """Why `seat` may not make `mark` now, or None: the sheet's rules in a fixed order."""
    row = row_of(sheet, mark.row)
    rows = step.get("rows") or [row["id"] for row in sheet["rows"]]
    name = said(row["name"])
    if mark.row in state["locked"]:
        return refuse(
            sheet, "row_closed", _("{row} is closed: nobody marks it any more").format(row=name), "lock"
        )
    if mark.row not in rows:
        return refuse(
            sheet,
            "not_this_row",
            _("This roll marks {rows}, not {row}").format(
                rows=", ".join(said(row_of(sheet, other)["name"]) for other in rows), row=name
            ),
            "turn",
        )
    if not 0 <= mark.box < len(row["boxes"]):
        return refuse(
            sheet,
            "no_such_box",
            _("{row} has boxes 1 to {count}").format(row=name, count=len(row["boxes"])),
            "value",
        )
    values = state["seats"][seat]["rows"][row["id"]]
    label = box_label(row, mark.box)
    if values[mark.box] is not None:
        return refuse(
            sheet, "box_marked", _("{box} in {row} is marked already").format(box=label, row=name), "value"
        )
    if step["value"] == "box":
        faces, rows_of_seat = list(state["dice"].values()), state["seats"][seat]["rows"]
        for function in functions.named(sheet):
            allowed = function.boxes(sheet, rows_of_seat, faces)
            if allowed is not None and (mark.row, mark.box) not in allowed:
                return refuse(sheet, "joker", function.refusal(sheet, rows_of_seat, faces), function.about)
    values_offered = offered(sheet, state, step, seat, row, mark.box)
    if mark.value not in values_offered:
        box = row["boxes"][mark.box]
        if isinstance(box, dict) and values_offered:
            message = _("{box} takes {points} from these dice, not {value}").format(
                box=label, points=next(iter(values_offered)), value=mark.value
            )
        elif isinstance(box, int):
            message = _("These dice do not make a {value} for {row}").format(value=box, row=name)
        else:
            message = _("These dice do not make {value} for {row}").format(value=mark.value, row=name)
        return refuse(sheet, "not_these_dice", message, "value")
    return _placement(sheet, state["seats"][seat], row, mark)


def _placement(sheet: dict, seat: dict, row: dict, mark: Mark) -> RuleViolation | None:
    values, name, label = seat["rows"][row["id"]], said(row["name"]), box_label(row, mark.box)
    order = row.get("order", "any")
    written = [(index, value) for index, value in enumerate(values) if value is not None]
    if order == "left_to_right" and written and mark.box < written[-1][0]:
        return refuse(
            sheet,
            "left_to_right",
            _("{row} is marked from left to right: {box} is left of your last mark").format(
                row=name, box=label
            ),
            "order",
        )
    if order in ("ascending", "descending"):
        rising = order == "ascending"
        for index, value in written:
            before = index < mark.box
            wrong = (value >= mark.value) if before == rising else (value <= mark.value)
            if wrong:
                words = _("{row} rises from left to right") if rising else _("{row} falls from left to right")
                return refuse(
                    sheet,
                    "order",
                    _("{rule}: {value} cannot go in {box}").format(
                        rule=words.format(row=name), value=mark.value, box=label
                    ),
                    "order",
                )
    if row.get("no_repeat") and any(value == mark.value for _index, value in written):
        return refuse(
            sheet,
            "repeat_row",
            _("{row} already holds a {value}").format(row=name, value=mark.value),
            "repeat",
        )
    if sheet.get("columns_no_repeat"):
        for other in sheet["rows"]:
            if other is not row and len(other["boxes"]) == len(row["boxes"]):
                if seat["rows"][other["id"]][mark.box] == mark.value:
                    return refuse(
                        sheet,
                        "repeat_column",
                        _("Column {column} already holds a {value}").format(
                            column=mark.box + 1, value=mark.value
                        ),
                        "repeat",
                    )
    last = len(row["boxes"]) - 1
    needs = row.get("last_needs")
    if needs and mark.box == last and marked(seat, row) < needs:
        return refuse(
            sheet,
            "last_needs",
            _("{box} ends {row}: it needs {needs} marks in the row first, you have {count}").format(
                box=label, row=name, needs=needs, count=marked(seat, row)
            ),
            "last_needs",
        )
    return None


def legal(sheet: dict, state: dict, step: dict, seat: int) -> list[Mark]:
    """Every mark `seat` may make now, in the sheet's order: what the screen offers, and all that
    apply accepts."""
    rows = step.get("rows") or [row["id"] for row in sheet["rows"]]
    found = []
    for row in sheet["rows"]:
        if row["id"] not in rows or row["id"] in state["locked"]:
            continue
        values = state["seats"][seat]["rows"][row["id"]]
        for index in range(len(row["boxes"])):
            if values[index] is not None:
                continue
            for value in sorted(offered(sheet, state, step, seat, row, index)):
                mark = Mark(row["id"], index, value)
                if refusal(sheet, state, step, seat, mark) is None:
                    found.append(mark)
    return found
