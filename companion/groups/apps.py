from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "companion.groups"
    label = "groups"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import signals  # noqa: F401 - a phone's groups follow it into the account it logs in to
