"""A history file moves between groups as their own people (issue 16): imported into a group, its
names become that group's players; a table another group keeps is refused, since table ids are
the server's and one play cannot be kept twice."""

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
    with pytest.raises(ImportRefused, match="'dd01' is already kept by another group on this server"):
        exchange.import_history(b, small_file())
    assert list(Player.objects.filter(group=b).values_list("name", flat=True)) == ["ann"]  # nothing added
    assert exchange.export_history(b)["tables"] == []
