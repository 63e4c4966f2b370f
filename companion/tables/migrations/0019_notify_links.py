"""On PostgreSQL the trigger of migration 0006 also says the links' generation (issue 41): a renewal
of a table's links ends, on every server, the streams of phones that opened the old ones
(companion/tables/fanout.py)."""

from importlib import import_module

from django.db import migrations

on_postgres = import_module("companion.tables.migrations.0006_notify_trigger").on_postgres

WITH_LINKS = """
CREATE OR REPLACE FUNCTION companion_table_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('companion_tables', NEW.id || ' ' || NEW.version || ' ' || NEW.links);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
"""
VERSION_ONLY = """
CREATE OR REPLACE FUNCTION companion_table_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('companion_tables', NEW.id || ' ' || NEW.version);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
"""


class Migration(migrations.Migration):
    dependencies = [("tables", "0018_links")]
    operations = [migrations.RunPython(on_postgres(WITH_LINKS), on_postgres(VERSION_ONLY))]
