from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "companion.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import signals  # noqa: F401 - a login makes its record, a logout ends it
