from django.apps import AppConfig


class HistoryConfig(AppConfig):
    """Archive, statistics, charts, replay and export of finished tables (reads tables' models)."""

    name = "companion.history"
    label = "history"
    default_auto_field = "django.db.models.BigAutoField"
