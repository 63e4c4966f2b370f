"""A rules sheet's screens (issue 44): the dice tapped one by one, then each seat's marks as
buttons (exactly engine.legal: what apply accepts), and every seat's sheet, from the sheet alone."""

from __future__ import annotations

import json

from companion.games import registry, screen_kit
from companion.games.base import and_join
from companion.games.words import _, gettext_noop, ngettext, said
from companion.sheets import functions

from . import marks
from .rules import ABOUT, dice_in_play, step_seats

END_TEXTS = {
    "penalties": gettext_noop("A player took the last penalty."),
    "locked_rows": gettext_noop("Enough rows are closed."),
    "filled": gettext_noop("Every sheet is full."),
    "rolls": gettext_noop("The last roll is played."),
}
PIPS = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


def engine():
    return registry.get("roll-and-write")


def points_word(number: int) -> str:
    return ngettext("point", "points", number)


def context(data: dict, viewer: screen_kit.Viewer) -> dict:
    state = data["state"]
    sheet = state["sheet"]
    names = [player["name"] for player in data["players"]]
    playing = data["status"] != "finished"
    parts = [(row["id"], said(row["name"])) for row in sheet["rows"]]
    parts += [(group["id"], said(group["name"])) for group in sheet.get("groups", [])]
    parts += [("bonus", _("Bonus"))] if sheet.get("bonuses") else []
    parts += [(function.key, _(function.label)) for function in functions.named(sheet)]
    parts += [("penalties", _("Penalties"))] if sheet.get("penalties") else []
    entry = None
    if viewer.can_edit and playing:
        entry = (
            DiceSteps(state, names, viewer.query).resolve()
            if state["phase"] == "roll"
            else marking(state, names, viewer)
        )
    return {
        "game_name": said(sheet["name"]),
        "sheet_id": sheet["id"],
        "status": status(state, names) if playing else "",
        "waiting": waiting(state, names),
        "scoreboard": screen_kit.scoreboard(data, lowest_wins=sheet["wins"] == "lowest"),
        **screen_kit.result(data, parts, END_TEXTS, points_word),
        "entry": entry,
        "dice": rolled(state),
        "sheets": sheets(state, names),
        "last": last_words(state, names),
        # The table's own sheet's rules, which its refusals cite (a group's own sheet is on no
        # rules page: the table keeps its copy).
        "rules": [
            {"id": rule["id"], "about": said(ABOUT[rule["about"]]), "text": said(rule)}
            for rule in sheet["rules"]
        ],
    }


def status(state: dict, names: list[str]) -> str:
    active = names[state["active"]]
    if state["phase"] == "roll":
        return _("Roll {number} · {name} rolls").format(number=state["rolls"] + 1, name=active)
    return _("Roll {number} · marks after {name}'s roll").format(number=state["rolls"] + 1, name=active)


def waiting(state: dict, names: list[str]) -> str:
    if state["end_reason"] is not None:
        return ""
    if state["phase"] == "roll":
        return _("{name} rolls the dice.").format(name=names[state["active"]])
    waiting_seats = [seat for seat in step_seats(state) if not state["step_done"][seat]]
    return _("Waiting for {names} to mark.").format(names=and_join([names[seat] for seat in waiting_seats]))


def rolled(state: dict) -> list[dict]:
    """The roll being marked, die by die (none while the next roll is awaited)."""
    return [
        {
            "name": said(die["name"]),
            "face": state["dice"][die["id"]],
            "pip": PIPS.get(state["dice"][die["id"]], ""),
            "colour": die.get("colour", "white"),
        }
        for die in state["sheet"]["dice"]
        if die["id"] in state["dice"]
    ]


class DiceSteps(screen_kit.StepMachine):
    """The roll: one tap per die in play, in the sheet's order; the last tap sends it."""

    KEYS = ("d",)
    UNDO = (("d",),)
    LIST_KEYS = frozenset({"d"})

    def __init__(self, state: dict, names: list[str], query: dict):
        super().__init__(state, query)
        self.names = names
        self.dice = dice_in_play(state["sheet"], state["out"])

    def _faces(self, query: dict) -> list[int]:
        tapped = [screen_kit.number(item) for item in query.get("d", "").split(",") if item]
        faces = []
        for die, face in zip(self.dice, tapped, strict=False):
            if face not in die["faces"]:
                break
            faces.append(face)
        return faces

    def _step(self, query: dict) -> dict:
        faces = self._faces(query)
        if len(faces) == len(self.dice):
            action = {
                "type": "roll",
                "dice": {die["id"]: face for die, face in zip(self.dice, faces, strict=True)},
            }
            return {"name": "done", "action": action}
        die = self.dice[len(faces)]
        shown = [
            {"name": said(d["name"]), "face": f, "colour": d.get("colour", "white")}
            for d, f in zip(self.dice, faces, strict=False)
        ]
        options = []
        for face in sorted(set(die["faces"])):
            after = ",".join(map(str, [*faces, face]))
            if len(faces) + 1 == len(self.dice):
                action = {
                    "type": "roll",
                    "dice": {d["id"]: f for d, f in zip(self.dice, [*faces, face], strict=True)},
                }
                options.append({"label": str(face), "action": action})
            else:
                options.append({"label": str(face), "set": {"d": after}})
        return {
            "name": "dice",
            "title": _("{name}'s roll: {die} die ({number} of {count})").format(
                name=self.names[self.state["active"]],
                die=said(die["name"]),
                number=len(faces) + 1,
                count=len(self.dice),
            ),
            "tapped": shown,
            "colour": die.get("colour", "white"),
            "options": options,
        }

    def posted(self, action: dict) -> dict:
        return {"action": json.dumps(action)}

    def says(self, action: dict) -> str:
        return screen_kit.log_words(engine(), self.state, action, self.names)


def marking(state: dict, names: list[str], viewer: screen_kit.Viewer) -> dict:
    """One seat's choices after the roll, exactly its legal marks, each one tap: printed numbers as
    a grid of coloured buttons, written boxes in place on the seat's own grid, named boxes with the
    points they would take; and, where the sheet allows, one button to mark nothing. The seat:
    asked in ?s=, else this phone's, else the first still to mark."""
    waiting_seats = [seat for seat in step_seats(state) if not state["step_done"][seat]]
    asked = screen_kit.number(viewer.query.get("s", ""))
    seat = next((s for s in (asked, viewer.seat) if s in waiting_seats), waiting_seats[0])
    sheet = state["sheet"]
    step = sheet["turn"]["steps"][state["step"]]
    legal = marks.legal(sheet, state, step, seat)
    printed, grids, named = [], [], []
    for row in sheet["rows"]:
        found = [mark for mark in legal if mark.row == row["id"]]
        if found:
            kind, choices = _row_choices(state, names, seat, row, found)
            {"printed": printed, "grid": grids, "named": named}[kind].extend(choices)
    can_pass = step.get("optional") or not legal
    pass_option = None
    if can_pass:
        label = _("Nothing for {name}").format(name=names[seat])
        pass_option = _option(state, names, {"type": "pass", "seat": seat}, label, "")
    title = _("{name}: what do you mark?") if legal else _("{name} has nothing to mark")
    return {
        "name": "marks",
        "seat": seat,
        "title": title.format(name=names[seat]),
        "others": [
            {"seat": other, "name": names[other], "href": f"?s={other}"}
            for other in waiting_seats
            if other != seat
        ],
        "printed": printed,
        "grids": grids,
        "named": named,
        "pass": pass_option,
    }


def _row_choices(state: dict, names: list[str], seat: int, row: dict, found: list) -> tuple[str, list]:
    """A row's legal marks as the screen offers them: ("printed", coloured number buttons), ("named",
    boxes with their points) or ("grid", the row in place, its open boxes as buttons)."""
    if all(isinstance(box, int) for box in row["boxes"]):
        colour = row.get("colour", "")
        return "printed", [
            {
                **_option(state, names, _mark_action(seat, mark), str(mark.value), said(row["name"])),
                "colour": colour,
            }
            for mark in found
        ]
    if all(isinstance(box, dict) for box in row["boxes"]):
        return "named", [
            _option(
                state, names, _mark_action(seat, mark), said(row["boxes"][mark.box]["name"]), str(mark.value)
            )
            for mark in found
        ]
    cells = [
        {
            "value": "" if value is None else str(value),
            "options": [
                _option(state, names, _mark_action(seat, mark), str(mark.value), "")
                for mark in found
                if mark.box == index
            ],
        }
        for index, value in enumerate(state["seats"][seat]["rows"][row["id"]])
    ]
    return "grid", [{"name": said(row["name"]), "colour": row.get("colour", ""), "cells": cells}]


def _mark_action(seat: int, mark: marks.Mark) -> dict:
    return {"type": "mark", "seat": seat, "row": mark.row, "box": mark.box, "value": mark.value}


def _option(state: dict, names: list[str], action: dict, label: str, hint: str) -> dict:
    return screen_kit.choice(
        {
            "label": label,
            "hint": hint,
            "fields": {"action": json.dumps(action)},
            "says": screen_kit.log_words(engine(), state, action, names),
        }
    )


def sheets(state: dict, names: list[str]) -> list[dict]:
    """Every seat's sheet: each row's boxes (open, marked, lost to the left of a mark), its lock,
    its points; the groups' points; penalties; the total."""
    sheet = state["sheet"]
    scores = engine().scores(state)
    found = []
    for seat, own in enumerate(state["seats"]):
        rows = []
        for row in sheet["rows"]:
            values = own["rows"][row["id"]]
            last = max((i for i, value in enumerate(values) if value is not None), default=-1)
            cells = []
            for index, box in enumerate(row["boxes"]):
                value = values[index]
                lost = row.get("order") == "left_to_right" and value is None and index < last
                cells.append(
                    {
                        "label": said(box["name"])
                        if isinstance(box, dict)
                        else ("" if box is None else str(box)),
                        "value": "" if value is None else str(value),
                        "marked": value is not None,
                        "lost": lost,
                        "printed": isinstance(box, int),
                        "named": isinstance(box, dict),
                    }
                )
            rows.append(
                {
                    "name": said(row["name"]),
                    "colour": row.get("colour", ""),
                    "cells": cells,
                    "lock": row.get("locks", False),
                    "locked_here": row["id"] in own["locks"],
                    "closed": row["id"] in state["locked"],
                    "named": any(cell["named"] for cell in cells),
                    "points": scores[seat]["breakdown"][row["id"]],
                }
            )
        groups = [
            {"name": said(group["name"]), "points": scores[seat]["breakdown"][group["id"]]}
            for group in sheet.get("groups", [])
        ]
        found.append(
            {
                "seat": seat,
                "name": names[seat],
                "active": seat == state["active"] and state["end_reason"] is None,
                "rows": rows,
                "groups": groups,
                "extras": extras(sheet, scores[seat]["breakdown"]),
                "penalties": own["penalties"],
                "penalty_boxes": sheet.get("penalties", {}).get("max", 0),
                "penalty_points": sheet.get("penalties", {}).get("points", 0),
                "total": scores[seat]["total"],
            }
        )
    return found


def extras(sheet: dict, breakdown: dict) -> list[dict]:
    """The points beside the boxes: the sheet's bonuses, a named function's (Yahtzee's 100s)."""
    found = [{"name": _("Bonus"), "points": breakdown["bonus"]}] if sheet.get("bonuses") else []
    return found + [
        {"name": _(function.label), "points": breakdown[function.key]} for function in functions.named(sheet)
    ]


def last_words(state: dict, names: list[str]) -> str:
    """The newest marks in a line (the log holds them all)."""
    sheet = state["sheet"]
    said_marks = []
    for event in state["last"]:
        if "seat" in event:
            row = marks.row_of(sheet, event["row"])
            said_marks.append(engine()._mark_words(row, event, names[event["seat"]]))
    return " ".join(said_marks)


def action_from_form(post, data: dict) -> dict:
    """Every button posts its whole action as JSON; the engine checks it."""
    return screen_kit.json_action(post)
