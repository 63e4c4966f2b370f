"""62 Summer Suns score sheets (SS-2): load a sheet file, check every part of it, index it for the rules.

A sheet is data (API.md, "The sheet definition"): slots on a grid, each in one zone with a pearl
1-6 and optional crab, sun hat and shell; zones of five kinds, each made of groups of slots; the
sun row and its bonuses. Every *.json file in sheets/ is loaded at import into SHEETS, so a broken
file stops start-up with a message naming the file and the problem.

The zone rules (SS-4) all become pairwise relations between slots: `relations[a][b] = op` means
"the value in a op the value in b" must hold once both are written, with op one of
"=" (cabins, bottles), "!=" (boat lines, gulls), "<" and ">" (koi signs).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from companion.games.words import _, gettext_noop, ordinal

from ..base import is_int

SHEETS_DIR = Path(__file__).with_name("sheets")

KINDS = ("pair", "sequence", "no_adjacent_equal", "equal", "all_different")
BONUS_KINDS = ("number", "starfish")  # SS-10 (revised): no shell bonus
TOP_KEYS = ("name", "rows", "cols", "suns", "zones", "slots", "sun_bonuses")
OPTIONAL_TOP_KEYS = ("title",)
SLOT_KEYS = ("id", "row", "col", "zone", "pearl", "crab", "hat", "shell")
ZONE_KEYS = ("id", "kind", "starfish", "groups")
SIGNS = ("<", ">")
FLIP = {"<": ">", ">": "<", "=": "=", "!=": "!="}
# Score breakdown parts next to the zone ids (SS-13): a zone may not take one of these names.
RESERVED_ZONE_IDS = ("pearls", "sun", "shell_bonus")


class SheetError(ValueError):
    """A sheet file that cannot be used; the message names the file and the problem."""


class Sheet:
    """A checked sheet definition and the indexes the rules need. Build it with load_sheet()."""

    def __init__(self, definition: dict):
        self.definition = definition
        self.name: str = definition["name"]
        self.title: str | None = definition.get("title")
        self.rows: int = definition["rows"]
        self.cols: int = definition["cols"]
        self.suns: int = definition["suns"]
        self.slots: dict[str, dict] = {slot["id"]: slot for slot in definition["slots"]}
        self.zones: dict[str, dict] = {zone["id"]: zone for zone in definition["zones"]}
        self.slot_ids: tuple[str, ...] = tuple(self.slots)
        self.zone_ids: tuple[str, ...] = tuple(self.zones)
        order = {slot_id: n for n, slot_id in enumerate(self.slot_ids)}

        self.zone_of: dict[str, str] = {s: slot["zone"] for s, slot in self.slots.items()}
        self.kind_of: dict[str, str] = {s: self.zones[z]["kind"] for s, z in self.zone_of.items()}
        self.zone_slots: dict[str, tuple[str, ...]] = {
            z: tuple(s for s in self.slot_ids if self.zone_of[s] == z) for z in self.zone_ids
        }
        self.pearl: dict[str, int] = {s: slot["pearl"] for s, slot in self.slots.items()}
        self.crabs = frozenset(s for s, slot in self.slots.items() if slot["crab"])
        self.hats = frozenset(s for s, slot in self.slots.items() if slot["hat"])
        self.shells = frozenset(s for s, slot in self.slots.items() if slot["shell"])
        self.by_pearl: dict[int, tuple[str, ...]] = {
            v: tuple(s for s in self.slot_ids if self.pearl[s] == v) for v in range(1, 7)
        }

        # Group neighbours with their signs, from the slot's point of view (SS-4): in a koi,
        # (k2, "<") on k1 means k1 < k2; on a boat line "!=", in a cabin "=".
        neighbours = self._neighbours()
        self.relations: dict[str, dict[str, str]] = {
            s: {other: op for other, op in pairs} for s, pairs in neighbours.items()
        }
        self.group_neighbours: dict[str, tuple[tuple[str, str], ...]] = {
            s: tuple(sorted(pairs, key=lambda pair: order[pair[0]])) for s, pairs in neighbours.items()
        }
        # (other, op seen from other): what writing into s does to each related slot.
        self.back: dict[str, tuple[tuple[str, str], ...]] = {
            s: tuple((other, FLIP[op]) for other, op in self.group_neighbours[s]) for s in self.slot_ids
        }

        # Grid adjacency for crabs (SS-7): same row and columns one apart, or same column and rows
        # one apart, only between existing slots.
        self.at: dict[tuple[int, int], str] = {
            (slot["row"], slot["col"]): s for s, slot in self.slots.items()
        }
        self.adjacent: dict[str, tuple[str, ...]] = {
            s: self._grid_neighbours(s, order) for s in self.slot_ids
        }

        # Slots as people say them (issue 15): "Cabin 3, top", "Koi 1, 3rd", "Gull 4".
        self.names: dict[str, str] = self._slot_names()

        # Sun row bonuses (SS-10): total -> (kind, amount).
        self.bonuses: dict[int, tuple[str, int]] = {
            int(total): next(iter(bonus.items())) for total, bonus in definition["sun_bonuses"].items()
        }

    def named(self, slot_id: str) -> str:
        """The slot in words, for every sentence a player reads, in the language chosen."""
        if slot_id not in self.names:
            return slot_id
        word, group, place = self.names[slot_id]
        word = _(word)
        place = _(place) if isinstance(place, str) else ordinal(place) if group is not None else place
        if group is None:
            return (
                _("{zone}, {place}").format(zone=word, place=place)
                if isinstance(place, str)
                else f"{word} {place}"
            )
        return _("{zone} {number}, {place}").format(zone=word, number=group, place=place)

    def _slot_names(self) -> dict[str, tuple]:
        """A zone's singular (its id without the plural s), the group's number when the zone has
        several (else None), and the place in the group: top or bottom in a pair, else its number
        (said 1st, 2nd ... in a group, Bottle 1 to 5 alone); named() says them."""
        names = {}
        for zone in self.zones.values():
            word = zone["id"][:-1] if zone["id"].endswith("s") else zone["id"]
            word = word[:1].upper() + word[1:]
            several = len(zone["groups"]) > 1
            for g, group in enumerate(zone["groups"]):
                places = _places(zone["kind"], [self.slots[s] for s in group])
                for n, (slot_id, place) in enumerate(zip(group, places, strict=True), 1):
                    if several:
                        names[slot_id] = (word, g + 1, place)
                    else:  # one group: the bottles are Bottle 1 to 5
                        names[slot_id] = (word, None, place if zone["kind"] == "pair" else n)
        return names

    def _neighbours(self) -> dict[str, list[tuple[str, str]]]:
        """Per slot, the slots its zone relates it to and how (SS-4): "=", "!=", "<" or ">"."""
        neighbours: dict[str, list[tuple[str, str]]] = {s: [] for s in self.slot_ids}
        for zone in self.zones.values():
            kind = zone["kind"]
            for g, group in enumerate(zone["groups"]):
                if kind == "pair":
                    a, b = group
                    neighbours[a].append((b, "="))
                    neighbours[b].append((a, "="))
                elif kind in ("sequence", "no_adjacent_equal"):
                    for p in range(len(group) - 1):
                        a, b = group[p], group[p + 1]
                        op = zone["signs"][g][p] if kind == "sequence" else "!="
                        neighbours[a].append((b, op))
                        neighbours[b].append((a, FLIP[op]))
            if kind in ("equal", "all_different"):
                # SS-4: the whole zone, not only a group.
                op = "=" if kind == "equal" else "!="
                members = self.zone_slots[zone["id"]]
                for a in members:
                    neighbours[a] = [(b, op) for b in members if b != a]
        return neighbours

    def _grid_neighbours(self, slot_id: str, order: dict[str, int]) -> tuple[str, ...]:
        r, c = self.slots[slot_id]["row"], self.slots[slot_id]["col"]
        near = [self.at.get(cell) for cell in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))]
        return tuple(sorted((n for n in near if n is not None), key=order.__getitem__))

    def __repr__(self) -> str:
        return f"<Sheet {self.name!r}: {len(self.slot_ids)} slots>"


# ---------------------------------------------------------------------------------------------
# Loading and checking


def _keys(fail, value, what: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    if not isinstance(value, dict):
        fail(f"{what} must be an object.")
    missing = [key for key in required if key not in value]
    if missing:
        fail(f"{what} lacks {', '.join(repr(key) for key in missing)}.")
    unknown = [key for key in value if key not in required and key not in optional]
    if unknown:
        fail(f"{what} has an unknown key {', '.join(repr(key) for key in unknown)}.")


def _count(fail, value, what: str, low: int, high: int | None = None) -> None:
    if not is_int(value) or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f">= {low}"
        fail(f"{what} must be a whole number {bound}, not {json.dumps(value)}.")


def _places(kind: str, group: list[dict]) -> list[str]:
    """Each slot's place in its group: a pair is top and bottom (or left and right), a line counts."""
    if kind == "pair" and len(group) == 2:
        first, second = group
        if first["col"] == second["col"]:
            return ["top", "bottom"] if first["row"] < second["row"] else ["bottom", "top"]
        return ["left", "right"] if first["col"] < second["col"] else ["right", "left"]
    return list(range(1, len(group) + 1))


# The words of the default sheet's zones and places, for the catalog (a sheet file of a group's
# own keeps its words where the catalog has none).
ZONE_WORDS = (
    gettext_noop("Cabin"),
    gettext_noop("Koi"),
    gettext_noop("Boat"),
    gettext_noop("Bottle"),
    gettext_noop("Gull"),
    gettext_noop("top"),
    gettext_noop("bottom"),
    gettext_noop("left"),
    gettext_noop("right"),
)


def _shape_problem(kind: str, group: list[dict]) -> str | None:
    """SS-2 (revised): a cabin is a top slot directly above its bottom slot; a boat line runs left
    to right along one row, each slot directly right of the one before; each koi slot is
    orthogonally next to the one before. The clause names the slot that breaks the shape."""
    cell = [(slot["row"], slot["col"]) for slot in group]
    if kind == "pair":
        (r0, c0), (r1, c1) = cell
        if c0 != c1 or abs(r0 - r1) != 1:
            return f"cabin slot {group[1]['id']!r} is not directly below or above {group[0]['id']!r}"
    elif kind == "no_adjacent_equal":
        for before, (slot, (r, c)) in zip(cell, zip(group[1:], cell[1:], strict=True), strict=False):
            if (r, c) != (before[0], before[1] + 1):
                return f"boat slot {slot['id']!r} is not directly right of the slot before it in the line"
    elif kind == "sequence":
        for before, (slot, (r, c)) in zip(cell, zip(group[1:], cell[1:], strict=True), strict=False):
            if abs(r - before[0]) + abs(c - before[1]) != 1:
                return (
                    f"koi slot {slot['id']!r} is not next to the slot before it (above, below, left or right)"
                )
    return None


def load_sheet(path) -> Sheet:
    """Read and check the sheet file at `path`; raise SheetError naming the file and the problem."""
    path = Path(path)

    def fail(problem: str):
        raise SheetError(f"Sheet file {path}: {problem}")

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise SheetError(f"Sheet file {path} cannot be read: {error}") from error

    _keys(fail, data, "the sheet", TOP_KEYS, OPTIONAL_TOP_KEYS)
    name = data["name"]
    if not isinstance(name, str) or not name:
        fail("'name' must be a non-empty string.")
    if name != path.stem:
        fail(f"the name {name!r} must equal the file name {path.stem!r}.")
    if "title" in data and not isinstance(data["title"], str):
        fail("'title' must be a string.")
    for key in ("rows", "cols", "suns"):
        _count(fail, data[key], f"'{key}'", 1)
    seen_ids = _check_slots(fail, data)
    _check_zones(fail, data["zones"], seen_ids)
    _check_bonuses(fail, data)
    return Sheet(data)


def _check_slots(fail, data: dict) -> dict[str, dict]:
    """Slots: unique ids, coordinates unique and on the grid, pearls 1-6, booleans for the icons.
    Returns the slots by id."""
    rows, cols = data["rows"], data["cols"]
    slots = data["slots"]
    if not isinstance(slots, list) or not slots:
        fail("'slots' must be a non-empty list.")
    seen_ids: dict[str, dict] = {}
    seen_cells: dict[tuple[int, int], str] = {}
    for n, slot in enumerate(slots):
        label = f"slot {slot.get('id')!r}" if isinstance(slot, dict) and "id" in slot else f"slot #{n + 1}"
        _keys(fail, slot, label, SLOT_KEYS)
        slot_id = slot["id"]
        if not isinstance(slot_id, str) or not slot_id:
            fail(f"{label}: 'id' must be a non-empty string.")
        if slot_id in seen_ids:
            fail(f"slot id {slot_id!r} is used twice.")
        seen_ids[slot_id] = slot
        _count(fail, slot["row"], f"slot {slot_id!r}: 'row'", 0, rows - 1)
        _count(fail, slot["col"], f"slot {slot_id!r}: 'col'", 0, cols - 1)
        cell = (slot["row"], slot["col"])
        if cell in seen_cells:
            fail(f"slots {seen_cells[cell]!r} and {slot_id!r} are both at row {cell[0]}, column {cell[1]}.")
        seen_cells[cell] = slot_id
        _count(fail, slot["pearl"], f"slot {slot_id!r}: 'pearl'", 1, 6)
        for icon in ("crab", "hat", "shell"):
            if not isinstance(slot[icon], bool):
                fail(f"slot {slot_id!r}: {icon!r} must be true or false, not {json.dumps(slot[icon])}.")
        if not isinstance(slot["zone"], str):
            fail(f"slot {slot_id!r}: 'zone' must be a zone id string.")

    return seen_ids


def _check_zones(fail, zones, seen_ids: dict[str, dict]) -> None:
    """Zones: known kinds, groups of this zone's slots, every slot of the zone in exactly one group,
    a sequence's signs, and each group's shape on the grid (SS-2)."""
    if not isinstance(zones, list) or not zones:
        fail("'zones' must be a non-empty list.")
    zone_ids: set[str] = set()
    for n, zone in enumerate(zones):
        zone_ids.add(_check_zone(fail, zone, n, seen_ids, zone_ids))
    for slot_id, slot in seen_ids.items():
        if slot["zone"] not in zone_ids:
            fail(f"slot {slot_id!r} names the unknown zone {slot['zone']!r}.")
    for zone in zones:
        for g, group in enumerate(zone["groups"]):
            problem = _shape_problem(zone["kind"], [seen_ids[s] for s in group])
            if problem:
                fail(f"zone {zone['id']!r}, group {g + 1}: {problem} (SS-2).")


def _check_zone(fail, zone, n: int, seen_ids: dict[str, dict], zone_ids: set[str]) -> str:
    """One zone's keys, id, kind and starfish, then its groups; returns its id."""
    label = f"zone {zone.get('id')!r}" if isinstance(zone, dict) and "id" in zone else f"zone #{n + 1}"
    optional = ("signs",) if isinstance(zone, dict) and zone.get("kind") == "sequence" else ()
    if isinstance(zone, dict) and "signs" in zone and zone.get("kind") != "sequence":
        fail(f"{label}: only a sequence zone has 'signs' (this one is {zone.get('kind')!r}).")
    _keys(fail, zone, label, ZONE_KEYS + optional, ())
    zone_id, kind = zone["id"], zone["kind"]
    if not isinstance(zone_id, str) or not zone_id:
        fail(f"{label}: 'id' must be a non-empty string.")
    if zone_id in zone_ids:
        fail(f"zone id {zone_id!r} is used twice.")
    if zone_id in RESERVED_ZONE_IDS:
        fail(f"zone id {zone_id!r} is reserved for a score part: use another id.")
    if kind not in KINDS:
        fail(f"zone {zone_id!r} has the unknown kind {kind!r} (known: {', '.join(KINDS)}).")
    _count(fail, zone["starfish"], f"zone {zone_id!r}: 'starfish'", 0)
    _check_groups(fail, zone_id, kind, zone["groups"], seen_ids)
    if kind == "sequence":
        _check_signs(fail, zone_id, zone["groups"], zone["signs"])
    return zone_id


def _check_groups(fail, zone_id: str, kind: str, groups, seen_ids: dict[str, dict]) -> None:
    if not isinstance(groups, list) or not groups:
        fail(f"zone {zone_id!r}: 'groups' must be a non-empty list of lists of slot ids.")
    in_group: dict[str, int] = {}
    for g, group in enumerate(groups):
        if not isinstance(group, list) or not group or not all(isinstance(s, str) for s in group):
            fail(f"zone {zone_id!r}: group {g + 1} must be a non-empty list of slot ids.")
        if kind == "pair" and len(group) != 2:
            fail(f"zone {zone_id!r}: group {g + 1} has {len(group)} slots, but a pair group has exactly 2.")
        for slot_id in group:
            if slot_id not in seen_ids:
                fail(f"zone {zone_id!r}: group {g + 1} names the unknown slot {slot_id!r}.")
            if seen_ids[slot_id]["zone"] != zone_id:
                fail(
                    f"slot {slot_id!r} is in group {g + 1} of zone {zone_id!r} "
                    f"but belongs to zone {seen_ids[slot_id]['zone']!r}."
                )
            if slot_id in in_group:
                fail(f"slot {slot_id!r} is in more than one group of zone {zone_id!r}.")
            in_group[slot_id] = g
    for slot_id, slot in seen_ids.items():
        if slot["zone"] == zone_id and slot_id not in in_group:
            fail(f"slot {slot_id!r} is in zone {zone_id!r} but in none of its groups.")


def _check_signs(fail, zone_id: str, groups: list, signs) -> None:
    if not isinstance(signs, list) or len(signs) != len(groups):
        fail(f"zone {zone_id!r}: 'signs' must hold one list per group ({len(groups)}).")
    for g, (group, row) in enumerate(zip(groups, signs, strict=True)):
        if not isinstance(row, list) or len(row) != len(group) - 1:
            fail(
                f"zone {zone_id!r}: group {g + 1} has {len(group)} slots, "
                f"so its signs must be a list of {len(group) - 1}."
            )
        bad = [sign for sign in row if sign not in SIGNS]
        if bad:
            fail(f"zone {zone_id!r}: group {g + 1} has the sign {bad[0]!r}: use '<' or '>'.")


def _check_bonuses(fail, data: dict) -> None:
    # The sun row bonuses (SS-10): at positive whole totals, each exactly one kind.
    bonuses = data["sun_bonuses"]
    if not isinstance(bonuses, dict):
        fail("'sun_bonuses' must be an object from a sun total to its bonus.")
    for total, bonus in bonuses.items():
        if not (total.isascii() and total.isdigit() and str(int(total)) == total and int(total) >= 1):
            fail(f'sun bonus key {total!r} must be a positive whole number written as a string, e.g. "12".')
        if int(total) > 6 * data["suns"]:
            fail(f"sun bonus at {total} can never be reached with {data['suns']} suns of at most 6.")
        if isinstance(bonus, dict) and "shell" in bonus:
            fail(
                f"sun bonus at {total} is a shell, but a sun bonus is starfish or a bonus number (SS-10): "
                'use {"starfish": n} or {"number": 1}.'
            )
        if not isinstance(bonus, dict) or len(bonus) != 1 or next(iter(bonus)) not in BONUS_KINDS:
            fail(f'sun bonus at {total} must be exactly one of {{"number": 1}} or {{"starfish": n}} (SS-10).')
        kind, amount = next(iter(bonus.items()))
        if kind == "number":
            if not is_int(amount) or amount != 1:
                fail(f'sun bonus at {total}: a bonus number is written {{"number": 1}}.')
        else:
            _count(fail, amount, f"sun bonus at {total}: {kind!r}", 1)


def load_sheets(folder: Path = SHEETS_DIR) -> dict[str, Sheet]:
    """Every *.json sheet in `folder`, by name (the name must equal the file stem)."""
    sheets = {}
    for path in sorted(Path(folder).glob("*.json")):
        sheet = load_sheet(path)
        sheets[sheet.name] = sheet
    if not sheets:
        raise SheetError(f"Sheet folder {folder} holds no *.json sheet file.")
    return sheets


def installed_sheets() -> dict[str, Sheet]:
    """The shipped sheets plus, when SUMMER_SUNS_SHEETS names a folder, a group's own sheets there
    (kept outside the code, so an update of the app leaves them alone)."""
    sheets = load_sheets()
    extra = os.environ.get("SUMMER_SUNS_SHEETS")
    if extra:
        for name, sheet in load_sheets(Path(extra)).items():
            if name in sheets:
                raise SheetError(f"Sheet folder {extra}: a sheet named {name!r} is already installed.")
            sheets[name] = sheet
    return sheets


SHEETS: dict[str, Sheet] = installed_sheets()
