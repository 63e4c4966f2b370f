"""The kit's named rules (issue 44): what a rules sheet's data cannot say, as small pure functions
a sheet names in `functions`. A sheet that names none needs no Python; one that names one gets
exactly what the function says, and nothing a sheet writes can run code (the names are a closed
list, the schema's enum).

A function is told one seat's marks (row id -> values, None for an empty box) and the dice of a
box step (the faces), and answers:
- `boxes`: the boxes the throw may fill and the points each takes, or None where the sheet's own
  patterns decide;
- `refusal`: the sentence for a box it does not allow (the kit cites the sheet's rule about the
  function's `about`);
- `bonus`: points the throw earns beside its box, added under the function's `key` of the score.
`check(sheet)` raises SheetError where the sheet lacks what the function reads. A function's bonus
is bounded by the sheet's boxes (yahtzee-joker: 100 at most for each named box, one a throw).

yahtzee-joker (Yahtzee's YZ-7 and YZ-8): five dice alike thrown when the sheet's box of five alike
is filled is a further Yahtzee. It earns 100 when that box holds its points (not a scratched 0),
and fills the upper box of its number while open, else any open lower box as a joker (a fixed
pattern's points, the others the dice's sum), else an open upper box (0).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.words import _, gettext_noop, said

from .parse import SheetError
from .values import pattern_points

Box = tuple[str, int]  # (row id, index)


@dataclass(frozen=True)
class Roles:
    """A Yahtzee sheet's named boxes by what they do, found from their patterns."""

    five_alike: Box
    upper: dict[int, Box]  # face -> the box that counts it
    lower: tuple[Box, ...]  # every other named box, in the sheet's order


def named_boxes(sheet: dict):
    for row in sheet["rows"]:
        for index, box in enumerate(row["boxes"]):
            if isinstance(box, dict):
                yield (row["id"], index), box


def box_at(sheet: dict, box: Box) -> dict:
    row = next(row for row in sheet["rows"] if row["id"] == box[0])
    return row["boxes"][box[1]]


class YahtzeeJoker:
    name = "yahtzee-joker"
    key = "yahtzee_bonus"  # the score's breakdown line of its bonuses
    label = gettext_noop("Yahtzee bonuses")  # that line, as a sheet shows it
    about = "joker"  # the sheet's rule its refusals cite
    bonus_points = 100  # YZ-7

    def roles(self, sheet: dict) -> Roles:
        dice = len(sheet["dice"])
        upper, lower, five = {}, [], None
        for place, box in named_boxes(sheet):
            pattern = box["value"]
            if pattern["pattern"] == "count" and pattern["face"] not in upper:
                upper[pattern["face"]] = place
            elif pattern["pattern"] == "kind" and pattern["n"] == dice and five is None:
                five = place
            else:
                lower.append(place)
        return Roles(five, upper, tuple(lower))

    def check(self, sheet: dict) -> None:
        """What the joker reads, and what keeps its forced box markable: one throw, one box."""

        def wrong(message: str):
            raise SheetError("/functions", f"yahtzee-joker needs {message}")

        roles = self.roles(sheet)
        steps = [step for step in sheet["turn"]["steps"] if step["value"] == "box"]
        if len(steps) != 1 or steps[0].get("marks", 1) != 1:
            wrong("one step valued by its boxes, of one mark (a throw fills one box)")
        if any(die["faces"] != sheet["dice"][0]["faces"] for die in sheet["dice"]):
            wrong("dice alike")
        if sheet.get("columns_no_repeat"):
            wrong("repeats allowed in a column (its forced box must take its value)")
        if any(row.get("locks") and row.get("die") for row in sheet["rows"]):
            wrong("every die in play to the end (no row that locks takes a die out)")
        if roles.five_alike is None:
            wrong("a named box of every die alike (a kind of n, n the dice)")
        missing = sorted(set(sheet["dice"][0]["faces"]) - set(roles.upper))
        if missing:
            wrong(f"a named box counting each face: none counts {missing[0]}")
        marked_rows = set(steps[0].get("rows") or [row["id"] for row in sheet["rows"]])
        for row in sheet["rows"]:
            named = any(isinstance(box, dict) for box in row["boxes"])
            if named and (
                row["id"] not in marked_rows or row.get("order", "any") != "any" or row.get("no_repeat")
            ):
                wrong(f"named boxes its step marks, in any order, repeats allowed: not row {row['id']!r}")

    def _further(self, sheet: dict, rows: dict, faces: list[int]) -> Roles | None:
        roles = self.roles(sheet)
        row, index = roles.five_alike
        if len(faces) != len(sheet["dice"]) or len(set(faces)) != 1 or rows[row][index] is None:
            return None
        return roles

    def boxes(self, sheet: dict, rows: dict, faces: list[int]) -> dict[Box, int] | None:
        roles = self._further(sheet, rows, faces)
        if roles is None:
            return None
        own = roles.upper[faces[0]]
        if rows[own[0]][own[1]] is None:
            return {own: pattern_points(box_at(sheet, own)["value"], faces)}
        open_lower = [box for box in roles.lower if rows[box[0]][box[1]] is None]
        if open_lower:
            return {box: self.as_joker(box_at(sheet, box)["value"], faces) for box in open_lower}
        return {
            box: pattern_points(box_at(sheet, box)["value"], faces)
            for box in roles.upper.values()
            if rows[box[0]][box[1]] is None
        }

    def as_joker(self, pattern: dict, faces: list[int]) -> int:
        """A lower box filled as a joker (YZ-8): its fixed points, else the points of the dice as
        if they made its pattern (its `with` and `without` still judged: Knister's straights)."""
        if ("with" in pattern and pattern["with"] not in faces) or pattern.get("without") in faces:
            return 0
        points = pattern.get("points", "sum")
        if isinstance(points, int):
            return points
        matching = {"kind": pattern.get("n", len(faces)), "two_pairs": 4}.get(pattern["pattern"])
        if points == "matching" and matching is not None:
            return faces[0] * min(matching, len(faces))
        return sum(faces)

    def refusal(self, sheet: dict, rows: dict, faces: list[int]) -> str:
        roles = self.roles(sheet)
        five = said(box_at(sheet, roles.five_alike)["name"])
        own = roles.upper[faces[0]]
        if rows[own[0]][own[1]] is None:
            return _("A further {five} of {face}s must fill {box} while it is open").format(
                five=five, face=faces[0], box=said(box_at(sheet, own)["name"])
            )
        return _("A further {five} fills an open lower box while there is one").format(five=five)

    def bonus(self, sheet: dict, rows: dict, faces: list[int]) -> int:
        roles = self._further(sheet, rows, faces)
        if roles is None:
            return 0
        row, index = roles.five_alike
        return self.bonus_points if rows[row][index] > 0 else 0  # YZ-7: none after a scratched 0


FUNCTIONS = {function.name: function for function in (YahtzeeJoker(),)}


def named(sheet: dict) -> list:
    """The functions a checked sheet names, in its order."""
    return [FUNCTIONS[name] for name in sheet.get("functions", [])]
