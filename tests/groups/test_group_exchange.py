"""A history file moves between groups as their own people (issue 16): imported into a group, its
names become that group's players. A table whose id another group on the server keeps takes a new
id in the importing group (a group's export restored into a new group, issue 28), is found again
by a second import of the same file, and no answer says which ids other groups hold."""

from __future__ import annotations

import pytest

from companion.groups.models import Group
from companion.history import exchange
from companion.history.exchange import ImportRefused, ImportSummary
from companion.tables.models import Player, Table
from tests.history.test_exchange import small_file

pytestmark = pytest.mark.django_db


def test_a_file_imported_into_two_groups_gives_each_its_own_people():
    a, b = Group.objects.create(name="A"), Group.objects.create(name="B")
    Player.objects.create(group=b, name="ann")  # B already knows an Ann: the file's Ann is her
    assert exchange.import_history(a, small_file()) == ImportSummary(2, 0, 4)
    names = sorted(Player.objects.filter(group=a).values_list("name", flat=True))
    assert names == ["Ann", "Ben", "Cleo", "Dora"]
    assert set(Table.objects.filter(group=a).values_list("id", flat=True)) == {"dd01", "hf02"}
    assert exchange.import_history(a, small_file()) == ImportSummary(0, 2, 0)  # the same file again
    # B restores the same file: its own copies, under new ids that remember the file's.
    assert exchange.import_history(b, small_file()) == ImportSummary(2, 0, 3)
    restored = Table.objects.filter(group=b)
    assert sorted(restored.values_list("origin_id", flat=True)) == ["dd01", "hf02"]
    assert not {"dd01", "hf02"} & set(restored.values_list("id", flat=True))
    assert sorted(Player.objects.filter(group=b).values_list("name", flat=True)) == [
        "Ben",
        "Cleo",
        "Dora",
        "ann",
    ]
    assert exchange.import_history(b, small_file()) == ImportSummary(0, 2, 0)  # found again, not doubled
    assert Table.objects.filter(group=b).count() == 2
    # Both groups' histories read the same plays, each under its own ids and with its own people
    # (B's Ann is the "ann" it knew).
    exported_a, exported_b = exchange.export_history(a)["tables"], exchange.export_history(b)["tables"]
    assert [t["id"] for t in exported_a] == ["dd01", "hf02"]
    assert [t["players"] for t in exported_b] == [["ann", "Ben", "Cleo"], ["Ben", "Cleo"]]
    same = [{**t, "id": None, "players": None} for t in exported_a]
    assert same == [{**t, "id": None, "players": None} for t in exported_b]


def test_a_clash_inside_the_group_names_only_its_own_table():
    a, b = Group.objects.create(name="A"), Group.objects.create(name="B")
    exchange.import_history(a, small_file())
    changed = small_file()
    changed["tables"][0]["place"] = "Somewhere else"
    # In another group the changed file is another play: it gets its own table.
    assert exchange.import_history(b, changed).tables_added == 2
    # In the group that has it, a different table under the same id is refused, naming its own id.
    with pytest.raises(ImportRefused, match="a different table with id 'dd01' is already here"):
        exchange.import_history(a, changed)
