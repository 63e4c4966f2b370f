"""The app's routes without the JSON API, for tests/history/test_exchange.py (base.html links to
the history, the groups, the tables' pages, the app's manifest and the language switch)."""

from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("g/<slug:group_id>/history/", include("companion.history.urls")),
    path("", include("companion.groups.urls")),
    path("", include("companion.pwa.urls")),
    path("", include("companion.tables.urls")),
]
