"""Names in their one form (issue 28, companion/games/names.py): players' and groups' names kept
before it in a decomposed form are composed (NFC). A player whose composed name another player of
the same group already has keeps the old form: merging two people is for the group to decide, on
the history's player page."""

import unicodedata

from django.db import migrations
from django.db.models import Value
from django.db.models.functions import Lower


def compose(apps, schema_editor):
    Player = apps.get_model("tables", "Player")
    Group = apps.get_model("groups", "Group")
    for group in Group.objects.all():
        composed = unicodedata.normalize("NFC", group.name)
        if composed != group.name:
            Group.objects.filter(pk=group.pk).update(name=composed)
    for player in Player.objects.all():
        composed = unicodedata.normalize("NFC", player.name)
        if composed == player.name:
            continue
        others = Player.objects.filter(group_id=player.group_id).exclude(pk=player.pk)
        if not others.alias(lower_name=Lower("name")).filter(lower_name=Lower(Value(composed))).exists():
            Player.objects.filter(pk=player.pk).update(name=composed)


class Migration(migrations.Migration):
    dependencies = [
        ("groups", "0001_initial"),
        ("tables", "0014_table_origin_id"),
    ]

    operations = [migrations.RunPython(compose, migrations.RunPython.noop)]
