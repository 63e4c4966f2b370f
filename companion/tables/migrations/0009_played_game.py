"""The game a play counts as in the history (issue 14): a title for a pad of any game, and the key
the statistics group by. Every table made before has an engine's own game: its key is its slug."""

from django.db import migrations, models


def played_is_the_slug(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    Table.objects.update(played=models.F("game"))


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0008_rematch"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="title",
            field=models.CharField(blank=True, editable=False, max_length=80),
        ),
        migrations.AddField(
            model_name="table",
            name="played",
            field=models.CharField(default="", editable=False, max_length=120),
            preserve_default=False,
        ),
        migrations.RunPython(played_is_the_slug, migrations.RunPython.noop),
        migrations.RemoveIndex(model_name="table", name="tables_tabl_game_021e8d_idx"),
        migrations.AddIndex(
            model_name="table",
            index=models.Index(fields=["played", "status", "-finished"], name="tables_tabl_played_846ee5_idx"),
        ),
    ]
