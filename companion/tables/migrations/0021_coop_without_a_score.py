"""A pad's co-op game finished without a score kept 0 for every seat (issue 43): the history read
it as "Ann 0 · Ben 0 · Cat 0" and averaged the zeros. Such plays keep no score now (AG-7, as
services.record_result writes them); their versions move, so figures kept under the history's
stamp are read again."""

from django.db import migrations, models


def no_score_for_a_coop_game_without_one(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    Seat = apps.get_model("tables", "Seat")
    coop = Table.objects.filter(game="any-game", status="finished", source="", options__outcome="coop")
    rows = coop.values_list("pk", "snapshot")
    unscored = [pk for pk, snapshot in rows if not (snapshot or {}).get("rounds")]
    Seat.objects.filter(table_id__in=unscored).update(score=None)
    Table.objects.filter(pk__in=unscored).update(version=models.F("version") + 1)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0020_history_identity"),
    ]

    operations = [migrations.RunPython(no_score_for_a_coop_game_without_one, migrations.RunPython.noop)]
