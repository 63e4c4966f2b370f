from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "companion.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Load every engine and its data files now: a broken components file stops start-up
        # with its message instead of failing at the table.
        from django.utils import translation

        from companion.games import registry, words

        from . import checks  # noqa: F401 - registers the deployment checks

        registry.all_engines()
        # The engines' sentences in the language of the request (issue 17).
        words.plug(translation.gettext, translation.ngettext, translation.pgettext)
