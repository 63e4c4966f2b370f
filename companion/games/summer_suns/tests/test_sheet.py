"""62 Summer Suns sheet files (SS-2): the shipped default sheet, its indexes, and broken files that
must stop start-up with a message naming the file and the problem."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.summer_suns import SHEETS, SheetError, load_sheet
from companion.games.summer_suns.sheet import SHEETS_DIR, load_sheets

DEFAULT_FILE = SHEETS_DIR / "default.json"
PROJECT = Path(__file__).resolve().parents[4]


def default_definition() -> dict:
    return json.loads(DEFAULT_FILE.read_text(encoding="utf-8"))


def slot(definition: dict, slot_id: str) -> dict:
    return next(s for s in definition["slots"] if s["id"] == slot_id)


def zone(definition: dict, zone_id: str) -> dict:
    return next(z for z in definition["zones"] if z["id"] == zone_id)


# ---------------------------------------------------------------------------------------------
# The shipped sheet


def test_the_default_sheet_loads_with_35_slots_and_its_definition():
    sheet = load_sheet(DEFAULT_FILE)
    assert sheet.name == "default" and len(sheet.slot_ids) == 35
    assert sheet.definition == default_definition()
    assert sorted(SHEETS) == ["default"] and SHEETS["default"].definition == sheet.definition
    assert (sheet.rows, sheet.cols, sheet.suns) == (6, 6, 20)
    assert sheet.zone_ids == ("cabins", "koi", "boats", "bottles", "gulls")
    assert {z: len(sheet.zone_slots[z]) for z in sheet.zone_ids} == {
        "cabins": 8,
        "koi": 8,
        "boats": 8,
        "bottles": 5,
        "gulls": 6,
    }
    assert sorted(sheet.crabs) == ["b3", "c2b", "g5", "k3", "s2"]
    assert sorted(sheet.hats) == ["c4t", "k6", "s7"]
    assert sorted(sheet.shells) == ["b5", "c1b", "g1", "k4", "k8", "s5"]
    assert sheet.bonuses == {
        12: ("number", 1),
        22: ("starfish", 1),  # SS-10 (revised): it was a shell
        32: ("starfish", 2),
        42: ("number", 1),
        52: ("starfish", 3),
        62: ("starfish", 4),
    }


def test_the_default_sheet_is_the_issues_table():
    # Issue 3: each cell is slot id, pearl, icons (C crab, H hat, S shell); row 5 column 4 is empty.
    table = [
        "c1t 3|c2t 5|c3t 1|c4t 6 H|b1 2|g1 4 S",
        "c1b 4 S|c2b 2 C|c3b 6|c4b 1|b2 5|g2 3",
        "k1 1|k2 3|k3 5 C|k4 2 S|b3 4 C|g3 6",
        "k5 6|k6 4 H|k7 2|k8 5 S|b4 1|g4 2",
        "s1 2|s2 6 C|s3 4|s4 3|b5 3 S|g5 5 C",
        "s5 5 S|s6 1|s7 3 H|s8 4|-|g6 1",
    ]
    sheet = SHEETS["default"]
    for row, line in enumerate(table):
        for col, cell in enumerate(line.split("|")):
            if cell == "-":
                assert (row, col) not in sheet.at
                continue
            slot_id, pearl, *icons = cell.split()
            assert sheet.at[(row, col)] == slot_id
            assert sheet.slots[slot_id] == {
                "id": slot_id,
                "row": row,
                "col": col,
                "zone": {"c": "cabins", "k": "koi", "s": "boats", "b": "bottles", "g": "gulls"}[slot_id[0]],
                "pearl": int(pearl),
                "crab": "C" in icons,
                "hat": "H" in icons,
                "shell": "S" in icons,
            }
    koi = zone(sheet.definition, "koi")
    assert koi["groups"] == [["k1", "k2", "k3", "k4"], ["k5", "k6", "k7", "k8"]]
    assert koi["signs"] == [["<", "<", ">"], [">", "<", "<"]]
    starfish = {z["id"]: z["starfish"] for z in sheet.definition["zones"]}
    assert starfish == {"cabins": 6, "koi": 8, "boats": 5, "bottles": 7, "gulls": 6}


def test_the_indexes():
    sheet = SHEETS["default"]
    assert sheet.zone_of["k3"] == "koi" and sheet.kind_of["s2"] == "no_adjacent_equal"
    # Grid adjacency, in sheet order, only between existing slots (b5 has nothing below it).
    assert sheet.adjacent["c2b"] == ("c2t", "c1b", "c3b", "k2")
    assert sheet.adjacent["b5"] == ("b4", "s4", "g5")
    assert sheet.adjacent["g6"] == ("g5",)
    # Group neighbours with signs from the slot's side: k1 < k2 < k3 > k4.
    assert sheet.group_neighbours["k3"] == (("k2", ">"), ("k4", ">"))
    assert sheet.group_neighbours["k2"] == (("k1", ">"), ("k3", "<"))
    assert sheet.group_neighbours["k6"] == (("k5", "<"), ("k7", "<"))
    assert sheet.group_neighbours["s4"] == (("s3", "!="),)  # s4 ends its line; s5 starts the next
    assert sheet.group_neighbours["c1b"] == (("c1t", "="),)
    assert sheet.group_neighbours["b3"] == (("b1", "="), ("b2", "="), ("b4", "="), ("b5", "="))
    assert len(sheet.group_neighbours["g1"]) == 5
    for a, related in sheet.relations.items():
        for b, op in related.items():
            assert sheet.relations[b][a] == {"<": ">", ">": "<"}.get(op, op)
    assert sheet.by_pearl[4] == ("g1", "c1b", "b3", "k6", "s3", "s8")


def test_the_title_key_is_allowed_and_a_second_sheet_is_found(tmp_path):
    shutil.copy(DEFAULT_FILE, tmp_path / "default.json")
    printed = default_definition() | {"name": "printed", "title": "The printed sheet"}
    (tmp_path / "printed.json").write_text(json.dumps(printed))
    sheets = load_sheets(tmp_path)
    assert sorted(sheets) == ["default", "printed"] and sheets["printed"].title == "The printed sheet"


def test_a_broken_file_in_the_folder_stops_loading(tmp_path):
    shutil.copy(DEFAULT_FILE, tmp_path / "default.json")
    (tmp_path / "zz.json").write_text("{")
    with pytest.raises(SheetError, match=r"Sheet file .*zz\.json cannot be read"):
        load_sheets(tmp_path)
    with pytest.raises(SheetError, match="holds no"):
        load_sheets(tmp_path / "nothing")


# ---------------------------------------------------------------------------------------------
# Broken sheets


def edit(fn):
    """A broken variant: the default definition renamed 'broken' and changed by fn(definition)."""

    def make():
        definition = copy.deepcopy(default_definition())
        definition["name"] = "broken"
        fn(definition)
        return definition

    return make


def remove_from_groups(definition: dict, zone_id: str, slot_id: str) -> None:
    for group in zone(definition, zone_id)["groups"]:
        if slot_id in group:
            group.remove(slot_id)


def add_slot(definition: dict, **fields) -> None:
    definition["slots"].append(
        {"row": 5, "col": 4, "zone": "koi", "pearl": 1, "crab": False, "hat": False, "shell": False} | fields
    )


BROKEN = [
    # The extra slot k9 of the issue's example: in the koi zone, in none of its groups.
    (edit(lambda d: add_slot(d, id="k9")), "slot 'k9' is in zone 'koi' but in none of its groups."),
    (
        edit(lambda d: zone(d, "koi")["groups"][1].append("k2")),
        "slot 'k2' is in more than one group of zone 'koi'.",
    ),
    (
        edit(lambda d: zone(d, "koi")["groups"][0].append("g1")),
        "slot 'g1' is in group 1 of zone 'koi' but belongs to zone 'gulls'.",
    ),
    (
        edit(lambda d: zone(d, "gulls")["groups"][0].append("g7")),
        "zone 'gulls': group 1 names the unknown slot 'g7'.",
    ),
    (
        edit(lambda d: (remove_from_groups(d, "gulls", "g6"), slot(d, "g6").update(zone="birds"))),
        "slot 'g6' names the unknown zone 'birds'.",
    ),
    (
        edit(lambda d: zone(d, "koi")["signs"][0].pop()),
        "zone 'koi': group 1 has 4 slots, so its signs must be a list of 3.",
    ),
    (
        edit(lambda d: zone(d, "koi")["signs"][1].__setitem__(0, "=")),
        "zone 'koi': group 2 has the sign '=': use '<' or '>'.",
    ),
    (edit(lambda d: zone(d, "koi")["signs"].pop()), "zone 'koi': 'signs' must hold one list per group (2)."),
    (edit(lambda d: zone(d, "koi").pop("signs")), "zone 'koi' lacks 'signs'."),
    (
        edit(lambda d: zone(d, "boats").update(signs=[["<", "<", "<"], ["<", "<", "<"]])),
        "zone 'boats': only a sequence zone has 'signs' (this one is 'no_adjacent_equal').",
    ),
    (
        edit(lambda d: zone(d, "bottles")["groups"].append(["b1"])),
        "slot 'b1' is in more than one group of zone 'bottles'.",
    ),
    (
        edit(
            lambda d: zone(d, "cabins").update(
                groups=[["c1t", "c1b", "c2t"], ["c2b"], ["c3t", "c3b"], ["c4t", "c4b"]]
            )
        ),
        "zone 'cabins': group 1 has 3 slots, but a pair group has exactly 2.",
    ),
    (edit(lambda d: zone(d, "gulls").update(kind="stairs")), "zone 'gulls' has the unknown kind 'stairs' "),
    (
        edit(lambda d: zone(d, "gulls").update(starfish=-1)),
        "zone 'gulls': 'starfish' must be a whole number >= 0",
    ),
    (edit(lambda d: zone(d, "gulls").update(groups=[])), "zone 'gulls': 'groups' must be a non-empty list"),
    (edit(lambda d: zone(d, "gulls").update(id="pearls")), "zone id 'pearls' is reserved"),
    (edit(lambda d: d["zones"].append(dict(zone(d, "gulls")))), "zone id 'gulls' is used twice."),
    (
        edit(lambda d: slot(d, "k2").update(pearl=7)),
        "slot 'k2': 'pearl' must be a whole number from 1 to 6, not 7.",
    ),
    (
        edit(lambda d: slot(d, "k2").update(pearl="3")),
        "slot 'k2': 'pearl' must be a whole number from 1 to 6",
    ),
    (
        edit(lambda d: slot(d, "k2").update(pearl=True)),
        "slot 'k2': 'pearl' must be a whole number from 1 to 6",
    ),
    (
        edit(lambda d: slot(d, "k3").update(crab="yes")),
        "slot 'k3': 'crab' must be true or false, not \"yes\".",
    ),
    (edit(lambda d: slot(d, "k3").update(hat=1)), "slot 'k3': 'hat' must be true or false, not 1."),
    (edit(lambda d: slot(d, "k3").pop("shell")), "slot 'k3' lacks 'shell'."),
    (edit(lambda d: slot(d, "k3").update(colour="red")), "slot 'k3' has an unknown key 'colour'."),
    (
        edit(lambda d: slot(d, "g6").update(row=0, col=0)),
        "slots 'c1t' and 'g6' are both at row 0, column 0.",
    ),
    (
        edit(lambda d: slot(d, "g6").update(col=6)),
        "slot 'g6': 'col' must be a whole number from 0 to 5, not 6.",
    ),
    (
        edit(lambda d: slot(d, "g6").update(row=-1)),
        "slot 'g6': 'row' must be a whole number from 0 to 5, not -1.",
    ),
    (edit(lambda d: add_slot(d, id="k2")), "slot id 'k2' is used twice."),
    (edit(lambda d: d.update(suns=0)), "'suns' must be a whole number >= 1, not 0."),
    (edit(lambda d: d.update(rows="6")), "'rows' must be a whole number >= 1, not \"6\"."),
    (edit(lambda d: d.pop("zones")), "the sheet lacks 'zones'."),
    (edit(lambda d: d.update(sun_bonus={})), "the sheet has an unknown key 'sun_bonus'."),
    (edit(lambda d: d.update(name="default")), "the name 'default' must equal the file name 'broken'."),
    (
        edit(lambda d: d["sun_bonuses"].update({"012": {"starfish": 1}})),
        "sun bonus key '012' must be a positive",
    ),
    (edit(lambda d: d["sun_bonuses"].update({"0": {"starfish": 1}})), "sun bonus key '0' must be a positive"),
    (edit(lambda d: d["sun_bonuses"].update({"x": {"starfish": 1}})), "sun bonus key 'x' must be a positive"),
    (
        edit(lambda d: d["sun_bonuses"].update({"121": {"starfish": 1}})),
        "sun bonus at 121 can never be reached",
    ),
    (
        edit(lambda d: d["sun_bonuses"].update({"12": {"number": 2}})),
        'sun bonus at 12: a bonus number is written {"number": 1}.',
    ),
    (
        edit(lambda d: d["sun_bonuses"].update({"22": {"starfish": 0}})),
        "sun bonus at 22: 'starfish' must be a whole number >= 1, not 0.",
    ),
    # SS-10 (revised): a sun bonus is starfish or a bonus number, never a shell.
    (
        edit(lambda d: d["sun_bonuses"].update({"22": {"shell": 1}})),
        "sun bonus at 22 is a shell, but a sun bonus is starfish or a bonus number (SS-10)",
    ),
    (
        edit(lambda d: d["sun_bonuses"].update({"32": {"starfish": 2, "number": 1}})),
        "sun bonus at 32 must be exactly one of",
    ),
    # SS-2 (revised): the shape of cabins, boat lines and koi is checked at load.
    (
        edit(lambda d: slot(d, "s4").update(row=5, col=4)),
        "zone 'boats', group 1: boat slot 's4' is not directly right of the slot before it",
    ),
    (
        edit(lambda d: zone(d, "boats")["groups"][0].sort(key=["s1", "s3", "s2", "s4"].index)),
        "zone 'boats', group 1: boat slot 's3' is not directly right of the slot before it",
    ),
    (
        edit(
            lambda d: zone(d, "cabins").update(
                groups=[["c1t", "c2b"], ["c2t", "c1b"], ["c3t", "c3b"], ["c4t", "c4b"]]
            )
        ),
        "zone 'cabins', group 1: cabin slot 'c2b' is not directly below or above 'c1t' (SS-2).",
    ),
    (
        edit(lambda d: zone(d, "koi")["groups"][0].sort(key=["k1", "k3", "k2", "k4"].index)),
        "zone 'koi', group 1: koi slot 'k3' is not next to the slot before it (above, below, left or right)",
    ),
    (edit(lambda d: d["sun_bonuses"].update({"32": {"gold": 2}})), "sun bonus at 32 must be exactly one of"),
    (edit(lambda d: d.update(sun_bonuses=[])), "'sun_bonuses' must be an object"),
    (edit(lambda d: d.update(slots=[])), "'slots' must be a non-empty list."),
]


@pytest.mark.parametrize("make, problem", BROKEN, ids=[problem[:60] for _, problem in BROKEN])
def test_a_broken_sheet_names_the_file_and_the_problem(tmp_path, make, problem):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(make()))
    with pytest.raises(SheetError) as info:
        load_sheet(path)
    assert str(info.value).startswith(f"Sheet file {path}: {problem}")


@pytest.mark.parametrize("text", ["", "{", "[]", '"default"'])
def test_a_file_that_is_no_sheet_object(tmp_path, text):
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(SheetError, match=r"^Sheet file .*broken\.json"):
        load_sheet(path)


def test_a_missing_file(tmp_path):
    with pytest.raises(SheetError, match="cannot be read"):
        load_sheet(tmp_path / "nope.json")


def run_check(sheets_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SUMMER_SUNS_SHEETS": str(sheets_dir)}
    command = [sys.executable, "manage.py", "check"]
    return subprocess.run(command, cwd=PROJECT, env=env, capture_output=True, text=True, timeout=120)


def test_a_broken_sheet_stops_the_app_from_starting(tmp_path):
    printed = json.loads(DEFAULT_FILE.read_text())
    printed["name"] = "printed"
    printed["slots"][0]["pearl"] = 9
    (tmp_path / "printed.json").write_text(json.dumps(printed))
    started = run_check(tmp_path)
    assert started.returncode != 0
    problem = "slot 'c1t': 'pearl' must be a whole number from 1 to 6, not 9."
    assert f"Sheet file {tmp_path / 'printed.json'}: {problem}" in started.stderr


def test_a_groups_own_sheet_is_installed_from_its_folder(tmp_path):
    printed = json.loads(DEFAULT_FILE.read_text())
    printed["name"] = "printed"
    (tmp_path / "printed.json").write_text(json.dumps(printed))
    started = run_check(tmp_path)
    assert started.returncode == 0, started.stderr
