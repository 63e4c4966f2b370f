"""The zone rules of 62 Summer Suns as bit masks, and the legal-move search (SS-3, SS-4, SS-5, SS-7).

Which values 1-6 a slot can still take is a 7-bit mask (bit v set: value v allowed): all values,
narrowed by every written slot it is related to (sheet.py turns each zone rule into pairwise
relations "=", "!=", "<", ">"). The legal-move list runs on every tap, so it computes each empty
slot's mask once and derives placements, crab targets and dead slots from it.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.games.words import _, gettext_noop

from .sheet import Sheet

VALUES = (1, 2, 3, 4, 5, 6)
FULL = 0b1111110  # bits 1-6
# MASK[op][w]: the values v with "v op w".
MASK = {
    "=": {w: 1 << w for w in VALUES},
    "!=": {w: FULL & ~(1 << w) for w in VALUES},
    "<": {w: FULL & ((1 << w) - 1) for w in VALUES},
    ">": {w: FULL & ~((2 << w) - 1) for w in VALUES},
}
# (slot die, write die) in a fixed order; the third die is 3 - i - j.
ROLES = ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))

KIND_WORDS = {  # marked for the catalog; zone_problem says them in the sentence's language
    "pair": gettext_noop("cabin"),
    "sequence": gettext_noop("koi"),
    "no_adjacent_equal": gettext_noop("boat line"),
    "equal": gettext_noop("bottle"),
    "all_different": gettext_noop("gull"),
}


def mask_of(sheet: Sheet, cells: dict, slot: str) -> int:
    """The values the zone rules allow in `slot` given the written `cells` (SS-4)."""
    mask = FULL
    for other, op in sheet.group_neighbours[slot]:
        w = cells.get(other)
        if w is not None:
            mask &= MASK[op][w]
    return mask


def masks_of(sheet: Sheet, cells: dict) -> dict[str, int]:
    """Every empty slot's mask, in sheet order."""
    return {s: mask_of(sheet, cells, s) for s in sheet.slot_ids if s not in cells}


def fits(sheet: Sheet, cells: dict, slot: str, value: int) -> bool:
    return slot not in cells and bool(mask_of(sheet, cells, slot) >> value & 1)


def values_of(mask: int) -> list[int]:
    return [v for v in VALUES if mask >> v & 1]


def fillable(sheet: Sheet, cells: dict) -> dict[str, list[int]]:
    """Empty slot -> the values it can take (slots that can take none are left out)."""
    return {s: values_of(m) for s, m in masks_of(sheet, cells).items() if m}


def zone_problem(sheet: Sheet, cells: dict, slot: str, value: int) -> str | None:
    """Why `value` may not go in `slot` under its zone rule (a clause ending in the ruling), or None."""
    kind = sheet.kind_of[slot]
    word = _(KIND_WORDS[kind])
    for other, op in sheet.group_neighbours[slot]:
        w = cells.get(other)
        if w is None or MASK[op][w] >> value & 1:
            continue
        other = sheet.named(other)  # the clause follows the slot's own name: "it" is that slot
        if kind == "pair":
            return _("it must hold the same value as {other} ({w}) in this {word} (SS-4)").format(
                other=other, w=w, word=word
            )
        if kind == "sequence":
            relation = _("smaller") if op == "<" else _("greater")
            return _("it must be {relation} than {other} ({w}) on this {word} (SS-4)").format(
                relation=relation, other=other, w=w, word=word
            )
        if kind == "no_adjacent_equal":
            return _("{other} next to it on this {word} already holds {w} (SS-4)").format(
                other=other, word=word, w=w
            )
        if kind == "equal":
            return _("{other} already holds {w}, and every {word} must hold the same value (SS-4)").format(
                other=other, w=w, word=word
            )
        return _("{other} already holds {w}, and no value may appear twice among the {word}s (SS-4)").format(
            other=other, w=w, word=word
        )
    return None


def dead_after(sheet: Sheet, cells: dict, slot: str, value: int) -> list[str]:
    """SS-5 (revised): the empty slots that could still be filled given `cells` and no longer can
    once `value` is written in `slot`, for any write of a turn (a placement, a crab copy, a bonus
    number). Only slots related to `slot` can lose their last value."""
    dead = []
    for other, op in sheet.back[slot]:
        if other in cells or other == slot:
            continue
        mask = mask_of(sheet, cells, other)
        if mask and not mask & MASK[op][value]:
            dead.append(other)
    return dead


def crab_targets(sheet: Sheet, cells: dict, source: str, value: int) -> list[str]:
    """SS-7: the empty slots next to `source` (if it has a crab) that can take `value`, given `cells`
    (which already hold everything written this turn, `source` included)."""
    if source not in sheet.crabs:
        return []
    return [t for t in sheet.adjacent[source] if t not in cells and mask_of(sheet, cells, t) >> value & 1]


def iter_placements(sheet: Sheet, masks: dict[str, int], dice: list[int]) -> Iterator[tuple[int, int, str]]:
    """(slot die, write die, slot) for every legal placement (SS-3, SS-4), in a fixed order."""
    for i, j in ROLES:
        bit = 1 << dice[j]
        for s in sheet.by_pearl[dice[i]]:
            m = masks.get(s)
            if m is not None and m & bit:
                yield i, j, s


def placements(sheet: Sheet, cells: dict, dice: list[int]) -> list[dict]:
    """Every legal (slot die, write die, slot) for the dice, each with its value, first crab targets
    and the slots it leaves dead (SS-5). Mirror duplicates are listed when dice are equal."""
    masks = masks_of(sheet, cells)
    found, cache = [], {}
    for i, j, s in iter_placements(sheet, masks, dice):
        v = dice[j]
        info = cache.get((s, v))
        if info is None:
            crab = []
            if s in sheet.crabs:
                bit = 1 << v
                for t in sheet.adjacent[s]:
                    m = masks.get(t)
                    if m is None:
                        continue
                    op = sheet.relations[t].get(s)
                    if op is not None:
                        m &= MASK[op][v]
                    if m & bit:
                        crab.append(t)
            # SS-5: only slots related to s can lose their last value.
            dead = [t for t, op in sheet.back[s] if masks.get(t) and not masks[t] & MASK[op][v]]
            info = cache[(s, v)] = (crab, dead)
        found.append(
            {"slot_die": i, "write_die": j, "slot": s, "value": v, "crab": info[0][:], "dead": info[1][:]}
        )
    return found


def crab_dead(sheet: Sheet, cells: dict, found: list[dict]) -> list[dict]:
    """SS-5 (revised): for every listed placement's first crab targets, the slots that copy would
    leave impossible to fill, once per (slot, value, target): [{"slot", "value", "target", "dead"}]."""
    listed, seen = [], set()
    for placement in found:
        s, v = placement["slot"], placement["value"]
        if not placement["crab"] or (s, v) in seen:
            continue
        seen.add((s, v))
        after = {**cells, s: v}
        for target in placement["crab"]:
            listed.append(
                {"slot": s, "value": v, "target": target, "dead": dead_after(sheet, after, target, v)}
            )
    return listed


def first_placement(sheet: Sheet, cells: dict, dice: list[int]) -> tuple[int, int, str] | None:
    return next(iter_placements(sheet, masks_of(sheet, cells), dice), None)
