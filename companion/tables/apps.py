from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "companion.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Load every engine and its data files now: a broken components file stops start-up
        # with its message instead of failing at the table.
        from companion.games import registry

        registry.all_engines()
