"""The history routes under /history/ beside the tables' pages, for tests/history/test_exchange.py
(base.html links to both), while the project's root URLconf does not route the history yet."""

from django.urls import include, path

urlpatterns = [
    path("history/", include("companion.history.urls")),
    path("", include("companion.tables.urls")),
]
