"""A score sheet's lines that do not simply add (issue 44): lines that count against (typed as
printed, a positive number, and taken away) and a tie-breaker line (written, not added, and deciding
a tie for the best total: AG-6 then shares the win only among those still level on it).

The closest reading of AG-4 and AG-6 for a sheet's lines; shared/RULINGS.md does not name them yet."""

from __future__ import annotations


def counted(state: dict, category: str, value: int) -> int:
    """What a cell adds to its seat's total: its value, minus it on a line that counts against,
    nothing on the tie-breaker line."""
    if category == state.get("tie_breaker"):
        return 0
    return -value if category in state.get("against", ()) else value


def tie_breaker_values(state: dict, sides: list[list[int]]) -> list[int] | None:
    """Each side's tie-breaker (a team's is the sum of its seats'), or None while one is unwritten."""
    line = state.get("tie_breaker")
    if not line:
        return None
    cells = state["cells"].get(line, {})
    if any(str(seat) not in cells for side in sides for seat in side):
        return None
    return [sum(cells[str(seat)] for seat in side) for side in sides]


def broken_tie(state: dict, best: list[list[int]]) -> list[list[int]]:
    """Among the sides tied for the best total, those best on the tie-breaker line."""
    values = tie_breaker_values(state, best) if len(best) > 1 else None
    if values is None:
        return best
    top = min(values) if state.get("tie_breaker_lowest") else max(values)
    return [side for side, value in zip(best, values, strict=True) if value == top]
