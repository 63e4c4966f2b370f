from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog, set_language

from companion.health import healthz
from companion.history import group_api as _group_api  # noqa: F401 - adds the groups' routes to the API
from companion.history import imports_api as _imports_api  # noqa: F401 - and their imports and export
from companion.history import members_api as _members_api  # noqa: F401 - and their links and members
from companion.history.group_pages import legacy_history
from companion.json_api import api
from companion.tables import api as _table_api  # noqa: F401 - adds the tables' routes to the API
from companion.tables import api_links as _table_links_api  # noqa: F401 - and the renewal of their links
from companion.tables import game_routes as _game_routes  # noqa: F401 - and each game folder's own routes
from companion.tables import sheets_api as _sheets_api  # noqa: F401 - and the score sheets' library

urlpatterns = [
    path("healthz", healthz, name="healthz"),  # the proxy's and Docker's health checks
    path("api/v1/", api.urls),
    path("accounts/", include("companion.accounts.urls")),  # a private deployment's accounts
    # The language switch of every page, and table.js's sentences: open to a table's phones on a
    # private deployment too, as the table's own pages are.
    path("i18n/setlang/", login_not_required(set_language), name="set_language"),
    path("jsi18n/", login_not_required(JavaScriptCatalog.as_view()), name="javascript-catalog"),
    path("g/<slug:group_id>/history/", include("companion.history.urls")),
    re_path(r"^history/(?P<rest>.*)$", legacy_history),  # links from before groups (issue 16)
    path("", include("companion.history.group_urls")),
    path("", include("companion.pwa.urls")),  # at the root: the worker's scope is the whole app
    path("", include("companion.tables.urls")),
]

if settings.BENCH_FLOOR:  # the benchmark's bare write (bench/floor), never in a deployment
    urlpatterns.insert(0, path("bench/floor/", include("bench.floor.urls")))

# The JSON API answers its error shape for these too (companion/errors.py); the pages Django's own.
handler400 = "companion.errors.bad_request"
handler403 = "companion.errors.permission_denied"
handler404 = "companion.errors.page_not_found"
handler500 = "companion.errors.server_error"
