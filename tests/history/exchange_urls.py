"""The app's routes without the JSON API, for tests/history/test_exchange.py (base.html links to
the history, the groups, the tables' pages and the app's manifest)."""

from django.urls import include, path

urlpatterns = [
    path("g/<slug:group_id>/history/", include("companion.history.urls")),
    path("", include("companion.groups.urls")),
    path("", include("companion.pwa.urls")),
    path("", include("companion.tables.urls")),
]
