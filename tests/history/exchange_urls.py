"""The history routes under /history/ beside the tables' pages and the app's manifest, for
tests/history/test_exchange.py (base.html links to all three)."""

from django.urls import include, path

urlpatterns = [
    path("history/", include("companion.history.urls")),
    path("", include("companion.pwa.urls")),
    path("", include("companion.tables.urls")),
]
