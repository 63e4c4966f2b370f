"""What dice are worth to a rules sheet (issue 44): the sums a step offers (one die from each of its
sets, a row's own die as "$row") and the points of a pattern of all the dice (n of a kind, two
pairs, a full house, a straight, any). Pure functions of faces: no state, no Django."""

from __future__ import annotations

from collections import Counter
from itertools import product

ROW_DIE = "$row"  # in a step's sets: the die of the row being marked (Qwixx's coloured dice)


def step_sums(value: dict, dice: dict[str, int], row: dict) -> set[int]:
    """Every value a mark in `row` may take from `dice` (id -> face, the dice in play): one die of
    each set of the step's "sum", added. A set whose dice are all out of play offers nothing."""
    sets = [[row.get("die") if die == ROW_DIE else die for die in choices] for choices in value["sum"]]
    in_play = [[die for die in choices if die in dice] for choices in sets]
    # One die from each set, never the same die twice (sets may overlap: two of three dice).
    picks = (picked for picked in product(*in_play) if len(set(picked)) == len(picked))
    return {sum(dice[die] for die in picked) for picked in picks}


def pattern_points(pattern: dict, faces: list[int]) -> int:
    """The points `faces` score for a pattern: 0 when they do not make it."""
    kind = pattern["pattern"]
    counts = Counter(faces)
    if ("with" in pattern and pattern["with"] not in counts) or pattern.get("without") in counts:
        return 0  # Knister's straight scores 8 with a 7 in it, 12 without
    if kind == "count":
        return pattern["face"] * counts[pattern["face"]]
    if kind == "chance":
        return _points(pattern, faces, faces)
    if kind == "kind":
        best = max((face for face, count in counts.items() if count >= pattern["n"]), default=None)
        return 0 if best is None else _points(pattern, faces, [best] * pattern["n"])
    if kind == "two_pairs":
        pairs = sorted((face for face, count in counts.items() if count >= 2), reverse=True)
        if len(pairs) < 2 and not any(count >= 4 for count in counts.values()):
            return 0
        matching = [pairs[0]] * 2 + [pairs[1] if len(pairs) > 1 else pairs[0]] * 2
        return _points(pattern, faces, matching)
    if kind == "full_house":
        shape = sorted(counts.values())
        if shape != [2, 3]:
            return 0
        return _points(pattern, faces, faces)
    if kind == "straight":
        return _points(pattern, faces, faces) if longest_run(faces) >= pattern["n"] else 0
    raise ValueError(kind)  # the schema allows no other


def longest_run(faces: list[int]) -> int:
    """The most consecutive faces among `faces` (1 2 3 5 -> 3)."""
    present, best = set(faces), 0
    for face in present:
        if face - 1 not in present:
            length = 1
            while face + length in present:
                length += 1
            best = max(best, length)
    return best


def _points(pattern: dict, faces: list[int], matching: list[int]) -> int:
    points = pattern.get("points", "sum")
    if points == "sum":
        return sum(faces)
    if points == "matching":
        return sum(matching)
    return points


def best_pattern(patterns: list[dict], faces: list[int]) -> int:
    """A line's score by the best of its patterns (Knister's rows): the most points any gives."""
    return max((pattern_points(pattern, faces) for pattern in patterns), default=0)
