"""The data migration that brought groups in (tables 0010): a database filled by the version
before groups keeps its whole history, now the default group's, and its links keep working."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from companion.groups.models import DEFAULT_GROUP_ID, Group
from companion.tables.models import Player, Table

BEFORE_GROUPS = [("tables", "0009_played_game"), ("groups", None)]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([node for node in targets if node[1] is not None]).apps


@pytest.mark.django_db(transaction=True)
def test_a_history_from_before_groups_moves_into_the_default_group():
    old = migrate(BEFORE_GROUPS)
    OldPlayer, OldTable, OldSeat = (old.get_model("tables", name) for name in ("Player", "Table", "Seat"))
    when = dt.datetime(2026, 11, 1, 20, tzinfo=dt.UTC)
    ann, ben = OldPlayer.objects.create(name="Ann"), OldPlayer.objects.create(name="Ben")
    OldPlayer.objects.create(name="Cleo")  # never played: still a person of the history
    table = OldTable.objects.create(
        id="0123456789", game="dogo-dash", played="dogo-dash", status="finished", finished=when, created=when
    )
    OldSeat.objects.create(table=table, player=ann, position=0, score=9, won=True)
    OldSeat.objects.create(table=table, player=ben, position=1, score=4, won=False)
    playing = OldTable.objects.create(id="abcdef0123", game="hang-four", played="hang-four", created=when)

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    group = Group.objects.get()
    assert (group.pk, group.name) == (DEFAULT_GROUP_ID, "Game night")
    assert sorted(Player.objects.filter(group=group).values_list("name", flat=True)) == ["Ann", "Ben", "Cleo"]
    assert set(Table.objects.filter(group=group).values_list("id", flat=True)) == {table.id, playing.id}
    page = Client().get(f"/g/{DEFAULT_GROUP_ID}/history/")
    assert (
        page.status_code == 200
        and f"/g/{DEFAULT_GROUP_ID}/history/plays/{table.id}/" in page.content.decode()
    )
    old_link = Client().get(f"/history/plays/{table.id}/")
    assert old_link["Location"] == f"/g/{DEFAULT_GROUP_ID}/history/plays/{table.id}/"
    # Names are now unique within a group: a second group may have its own Ann.
    other = Group.objects.create(name="Other")
    Player.objects.create(group=other, name="ann")
    assert Player.objects.filter(name__iexact="ann").count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_new_database_gets_its_default_group_on_first_use():
    migrate(BEFORE_GROUPS)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert Group.objects.count() == 0
    assert Client().get(f"/g/{DEFAULT_GROUP_ID}/history/").status_code == 200
    assert Group.objects.get().pk == DEFAULT_GROUP_ID


@pytest.mark.django_db(transaction=True)
def test_names_kept_decomposed_are_composed_unless_that_would_make_two_people_one():
    """tables 0015 (issue 28): a name typed with a combining accent before names were composed."""
    old = migrate([("tables", "0014_table_origin_id"), ("groups", "0001_initial")])
    OldGroup, OldPlayer = old.get_model("groups", "Group"), old.get_model("tables", "Player")
    club = OldGroup.objects.create(id="club", name="Caf\u0065\u0301 club")
    OldPlayer.objects.create(group=club, name="Rene\u0301")  # only this René: composed
    OldPlayer.objects.create(group=club, name="Zoe\u0308")
    OldPlayer.objects.create(group=club, name="zo\u00eb")  # the composed Zoë is there already

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    assert Group.objects.get(pk="club").name == "Caf\u00e9 club"
    names = sorted(Player.objects.filter(group_id="club").values_list("name", flat=True))
    assert names == ["Ren\u00e9", "Zoe\u0308", "zo\u00eb"]  # the Zoës are for the group to merge
