"""The orjson JSONField (issue 13) stores and reads what the plain JSONField did."""

import json

import pytest
from django.db import connection

from companion.tables import services
from companion.tables.json_field import dumps
from companion.tables.models import Event, Table

pytestmark = pytest.mark.django_db


def test_int_keys_become_strings_as_json_dumps_makes_them():
    assert dumps({1: [True, None, "é"]}) == '{"1":[true,null,"é"]}'


def test_a_whole_number_beyond_64_bits_is_stored_by_the_standard_library_instead():
    assert dumps({"n": 2**70}) == '{"n": 1180591620717411303424}'
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    Table.objects.filter(pk=table.pk).update(options={"big": 2**70})
    assert Table.objects.get(pk=table.pk).options == {"big": 2**70}


def test_a_row_written_by_the_plain_field_reads_the_same():
    table = services.create_table("dogo-dash", ["Ann", "Ben"], {})
    services.play_action(table.id, {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}, 0)
    column = connection.ops.quote_name(Event._meta.get_field("action").column)
    with connection.cursor() as cursor:  # json.dumps's spacing, as rows before issue 13 have it
        cursor.execute(
            f"UPDATE {Event._meta.db_table} SET {column} = %s",
            [json.dumps({"type": "reveal", "x": [1, 2]})],
        )
    assert Event.objects.get(table=table).action == {"type": "reveal", "x": [1, 2]}
    assert Table.objects.filter(events__action__type="reveal").count() == 1  # key lookups still work
