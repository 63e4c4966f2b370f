"""A JSONField encoded and decoded by orjson (issue 13): a table's snapshot is read and written on
every entry, and the standard library's json was the largest cost of that after the statements.

Same column type, same values: keys that are not strings become strings (as json.dumps makes
them), and what orjson refuses (a whole number beyond 64 bits, NaN from an older row) goes
through the standard library instead, so no value that the plain JSONField took is refused.
"""

import json

import orjson
from django.db import models
from django.db.models.fields.json import KeyTransform


def dumps(value) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits, say
        return json.dumps(value)


class FastJSONField(models.JSONField):
    def get_db_prep_value(self, value, connection, prepared=False):
        if not prepared:
            value = self.get_prep_value(value)
        if connection.vendor == "postgresql":
            from psycopg.types.json import Jsonb

            return Jsonb(value, dumps=dumps)
        return dumps(value)

    def from_db_value(self, value, expression, connection):
        if value is None:
            return value
        # SQLite extracts a key's non-string values in their SQL types (as JSONField says).
        if isinstance(expression, KeyTransform) and not isinstance(value, str):
            return value
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                return value
