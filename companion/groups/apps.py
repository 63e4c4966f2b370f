from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "companion.groups"
    label = "groups"
    default_auto_field = "django.db.models.BigAutoField"
