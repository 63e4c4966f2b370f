"""Groups (issue 16): every player and table of a deployment made before groups moves into the
default group, so a LAN's history stays one history and its links keep working. The fields are
made required, and names unique within a group, by 0011 (PostgreSQL cannot alter a table in the
transaction that updated its rows under a deferred foreign key)."""

import django.db.models.deletion
from django.db import migrations, models

DEFAULT_GROUP_ID = "default"  # groups.models.DEFAULT_GROUP_ID, frozen here as migrations are
DEFAULT_GROUP_NAME = "Game night"


def into_the_default_group(apps, schema_editor):
    Group = apps.get_model("groups", "Group")
    Player = apps.get_model("tables", "Player")
    Table = apps.get_model("tables", "Table")
    if not Player.objects.exists() and not Table.objects.exists():
        return  # a new database: the default group is made on first use
    group, _ = Group.objects.get_or_create(pk=DEFAULT_GROUP_ID, defaults={"name": DEFAULT_GROUP_NAME})
    Player.objects.filter(group__isnull=True).update(group=group)
    Table.objects.filter(group__isnull=True).update(group=group)


def out_of_groups(apps, schema_editor):
    """Back to one history: only possible while names stay unique across the server."""
    Player = apps.get_model("tables", "Player")
    names = [name.lower() for name in Player.objects.values_list("name", flat=True)]
    if len(set(names)) != len(names):
        raise RuntimeError("Two groups have a player of the same name: the history cannot become one.")


class Migration(migrations.Migration):
    dependencies = [
        ("groups", "0001_initial"),
        ("tables", "0009_played_game"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="group",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="players",
                to="groups.group",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="group",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="tables",
                to="groups.group",
            ),
        ),
        migrations.RunPython(into_the_default_group, out_of_groups),
    ]
