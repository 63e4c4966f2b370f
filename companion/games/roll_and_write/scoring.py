"""A rules sheet's score (issue 44): each row and group by its own table (marks counted, values
added, the best pattern of its values), bonuses over rows, minus each penalty. Pure."""

from __future__ import annotations

from companion.sheets import functions
from companion.sheets.values import best_pattern

from .marks import marked


def line_points(score: dict, values: list, marks: int) -> int:
    if "by_marks" in score:
        table = score["by_marks"]
        return table[min(marks, len(table) - 1)]
    written = [value for value in values if value is not None]
    if "sum" in score:
        return sum(written)
    if len(written) < len(values):  # a pattern is judged on a full line
        return 0
    return best_pattern(score["patterns"], written)


def seat_score(sheet: dict, seat: dict) -> dict:
    """{"total", "breakdown": {row or group id: points, "bonus": ..., "penalties": -...}}."""
    breakdown = {}
    for row in sheet["rows"]:
        breakdown[row["id"]] = line_points(row["score"], seat["rows"][row["id"]], marked(seat, row))
    for group in sheet.get("groups", []):
        values = [seat["rows"][row][index] for row, index in group["boxes"]]
        marks = sum(value is not None for value in values)
        breakdown[group["id"]] = line_points(group["score"], values, marks) * group.get("times", 1)
    bonus = sum(
        bonus["points"]
        for bonus in sheet.get("bonuses", [])
        if sum(breakdown[row] for row in bonus["rows"]) >= bonus["at_least"]
    )
    if sheet.get("bonuses"):
        breakdown["bonus"] = bonus
    for function in functions.named(sheet):  # its bonuses (yahtzee-joker: YZ-7's 100s)
        breakdown[function.key] = seat["bonuses"][function.key]
    if sheet.get("penalties"):
        breakdown["penalties"] = -seat["penalties"] * sheet["penalties"]["points"]
    return {"total": sum(breakdown.values()), "breakdown": breakdown}
