from django.apps import AppConfig


class SelfhostConfig(AppConfig):
    """The self-hosted server's commands: ensure_account, migrate_once, backup, restore."""

    name = "companion.selfhost"
    label = "selfhost"
