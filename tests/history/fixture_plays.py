"""A year of plays written out by hand, for statistics checked against figures computed by hand.

33 finished plays across the four games by six people (Ann, Ben, Cleo, Dev, Eve, Finn), one a
line as (label, game, finished, minutes, place, seats), seats in seat order as (name, score, won).
Labels: D = Dogo Dash, S = 62 Summer Suns, H = Hang Four, U = Surf's Up!, numbered in date order
within the game. The list itself is in date order (the 2026 calendar), one play per date.

Built in on purpose:
- ties for first (two winners): D3, D7, S5, H4, U5;
- seat 0 wins: D1, D3, D5, D7, S1, S2, S5, S7, S8, H2, H3, H4, H7, U1, U3, U4, U5;
- an equal top score with a single winner (Hang Four breaks it on sand dollars): H1;
- a solo game: S8; a negative score (Surf's Up! stings): Ben in U8;
- three people share the highest Hang Four score, 5: Ann (H3), Ben (H5), Finn (H6);
- Eve and Finn never sit at the same table (so they can be merged), here or at the two extra
  tables below.

`load_fixture_plays()` also makes two tables that must count nowhere: an abandoned Dogo Dash
(Ann, Ben and Gus, who has no other table) and a Surf's Up! still in progress (Cleo, Dev).
"""

from __future__ import annotations

import datetime as dt
import random

from companion.games import registry
from companion.tables import services
from companion.tables.models import Table
from tests.history.factories import finished_play


def at(month: int, day: int) -> dt.datetime:
    return dt.datetime(2026, month, day, 20, 0, tzinfo=dt.UTC)


W, L = True, False

PLAYS = [
    ("D1", "dogo-dash", at(1, 6), 25, "Ann's kitchen", [("Ann", 30, W), ("Ben", 20, L), ("Cleo", 9, L)]),
    ("S1", "summer-suns", at(1, 13), 45, "Ann's kitchen",
     [("Ann", 54, W), ("Ben", 41, L), ("Cleo", 47, L), ("Dev", 38, L)]),
    ("H1", "hang-four", at(1, 20), 30, "Beach hut", [("Ben", 4, L), ("Ann", 4, W), ("Cleo", 2, L)]),
    ("U1", "surfs-up", at(1, 27), 50, "", [("Ann", 35, W), ("Cleo", 15, L)]),
    ("D2", "dogo-dash", at(2, 3), 30, "Café Wave",
     [("Ben", 22, L), ("Ann", 18, L), ("Dev", 27, W), ("Eve", 15, L)]),
    ("S2", "summer-suns", at(2, 10), 40, "", [("Eve", 62, W), ("Dev", 55, L)]),
    ("H2", "hang-four", at(2, 17), 25, "Beach hut", [("Dev", 4, W), ("Eve", 1, L)]),
    ("U2", "surfs-up", at(2, 24), 75, "Café Wave",
     [("Ben", 41, L), ("Dev", 44, W), ("Eve", 30, L), ("Ann", 38, L)]),
    ("D3", "dogo-dash", at(3, 10), 20, "", [("Cleo", 25, W), ("Finn", 25, W)]),
    ("S3", "summer-suns", at(3, 17), 50, "Ann's kitchen", [("Ben", 45, L), ("Ann", 45, L), ("Cleo", 58, W)]),
    ("H3", "hang-four", at(3, 31), 40, "Beach hut",
     [("Ann", 5, W), ("Dev", 3, L), ("Ben", 2, L), ("Cleo", 0, L)]),
    ("U3", "surfs-up", at(4, 7), 90, "Café Wave",
     [("Cleo", 52, W), ("Ben", 47, L), ("Ann", 29, L), ("Dev", 33, L), ("Eve", 40, L)]),
    ("D4", "dogo-dash", at(4, 21), 35, "Café Wave",
     [("Dev", 12, L), ("Ann", 31, W), ("Ben", 19, L), ("Cleo", 24, L), ("Eve", 8, L)]),
    ("S4", "summer-suns", at(5, 5), 70, "",
     [("Finn", 49, L), ("Ann", 61, W), ("Ben", 52, L), ("Cleo", 33, L), ("Dev", 44, L)]),
    ("H4", "hang-four", at(5, 19), 35, "Beach hut", [("Finn", 4, W), ("Cleo", 4, W), ("Ann", 1, L)]),
    ("U4", "surfs-up", at(6, 2), 60, "", [("Finn", 36, W), ("Ann", 34, L), ("Dev", 21, L)]),
    ("D5", "dogo-dash", at(6, 16), 15, "Ann's kitchen", [("Eve", 28, W), ("Ben", 21, L)]),
    ("S5", "summer-suns", at(6, 30), 55, "Café Wave", [("Dev", 50, W), ("Eve", 50, W), ("Ann", 42, L)]),
    ("H5", "hang-four", at(7, 14), 45, "Beach hut",
     [("Eve", 3, L), ("Ben", 5, W), ("Dev", 2, L), ("Ann", 3, L)]),
    ("U5", "surfs-up", at(7, 28), 65, "", [("Eve", 48, W), ("Ben", 48, W), ("Cleo", 27, L)]),
    ("D6", "dogo-dash", at(8, 11), 25, "", [("Ann", 17, L), ("Finn", 33, W), ("Dev", 20, L)]),
    ("S6", "summer-suns", at(8, 25), 40, "Ann's kitchen", [("Ann", 39, L), ("Ben", 66, W)]),
    ("H6", "hang-four", at(9, 8), 30, "", [("Cleo", 2, L), ("Finn", 5, W)]),
    ("U6", "surfs-up", at(9, 22), 55, "Café Wave", [("Dev", 25, L), ("Ann", 45, W)]),
    ("D7", "dogo-dash", at(10, 6), 30, "Café Wave",
     [("Ben", 26, W), ("Cleo", 26, W), ("Ann", 14, L), ("Dev", 22, L)]),
    ("S7", "summer-suns", at(10, 20), 65, "",
     [("Cleo", 57, W), ("Eve", 51, L), ("Ben", 48, L), ("Ann", 36, L), ("Dev", 29, L)]),
    ("H7", "hang-four", at(11, 3), 20, "Beach hut", [("Ann", 4, W), ("Eve", 2, L)]),
    ("U7", "surfs-up", at(11, 17), 85, "Ann's kitchen",
     [("Ann", 31, L), ("Ben", 28, L), ("Cleo", 39, L), ("Dev", 42, W), ("Finn", 34, L)]),
    ("D8", "dogo-dash", at(12, 1), 20, "", [("Finn", 19, L), ("Ann", 24, W)]),
    ("S8", "summer-suns", at(12, 8), 35, "", [("Finn", 70, W)]),
    ("H8", "hang-four", at(12, 15), 40, "Café Wave", [("Dev", 1, L), ("Ben", 3, L), ("Cleo", 4, W)]),
    ("U8", "surfs-up", at(12, 22), 70, "Café Wave",
     [("Cleo", 18, L), ("Eve", 22, W), ("Ben", -3, L), ("Ann", 12, L)]),
    ("D9", "dogo-dash", at(12, 29), 25, "Ann's kitchen", [("Cleo", 16, L), ("Dev", 29, W), ("Eve", 23, L)]),
]  # fmt: skip


def load_fixture_plays() -> dict[str, Table]:
    """Write every play of PLAYS, plus the abandoned and the in-progress table; label -> table
    (the two extra tables under "abandoned" and "in_progress")."""
    tables = {
        label: finished_play(game, seats, finished=finished, minutes=minutes, place=place)
        for label, game, finished, minutes, place, seats in PLAYS
    }
    tables["abandoned"] = _started("dogo-dash", ["Ann", "Ben", "Gus"])
    services.abandon(tables["abandoned"].id, tables["abandoned"].version)
    tables["in_progress"] = _started("surfs-up", ["Cleo", "Dev"])
    for key in ("abandoned", "in_progress"):
        tables[key].refresh_from_db()
    return tables


def _started(game: str, names: list[str]) -> Table:
    """A table with one real entry, so it has a log (and a length) like a real unfinished game."""
    table = services.create_table(game, names, {})
    action = registry.get(game).sample_action(table.snapshot, random.Random(7))
    services.play_action(table.id, action, table.version)
    table.refresh_from_db()
    return table
