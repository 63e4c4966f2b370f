"""The app's routes without the JSON API, for tests/history/test_exchange.py (base.html links to
the history, the groups, the tables' pages, the app's manifest and the language switch)."""

from django.urls import include, path
from django.views.i18n import JavaScriptCatalog, set_language

urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("g/<slug:group_id>/history/", include("companion.history.urls")),
    path("", include("companion.history.group_urls")),
    path("", include("companion.pwa.urls")),
    path("", include("companion.tables.urls")),
]
