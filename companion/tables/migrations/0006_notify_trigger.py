"""On PostgreSQL, every change of a table's version is announced on the channel the event streams
listen to (companion/tables/fanout.py): NOTIFY is sent when the write commits, and only then, by
the database itself, so no write path pays a round trip for it. Other databases: nothing to do."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION companion_table_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('companion_tables', NEW.id || ' ' || NEW.version);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER companion_table_changed
    AFTER UPDATE OF version ON tables_table
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION companion_table_changed();
"""
DROP = """
DROP TRIGGER IF EXISTS companion_table_changed ON tables_table;
DROP FUNCTION IF EXISTS companion_table_changed();
"""


def on_postgres(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("tables", "0005_keyed_write")]
    operations = [migrations.RunPython(on_postgres(CREATE), on_postgres(DROP))]
