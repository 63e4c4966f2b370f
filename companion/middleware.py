"""Middleware of our own.

CompleteBodyMiddleware refuses a request whose body stopped short of its Content-Length. gunicorn
hands the application whatever bytes arrived before the client hung up, and nothing else compares
them with the length the client announced. A form cut off mid-way could then be applied as a
different entry than the one sent (the dash toggles of a collect, say); refuse it instead.

PrivateDeploymentMiddleware: in a private deployment (COMPANION_LOGIN_REQUIRED), log in for
everything but a table reached through its own links, and the API under the same rule as the pages.

LostDatabaseMiddleware: a request whose database connection died under it runs once more.

PrivateAnswersMiddleware: an answer that says nothing of its caching is kept by no cache.
"""

import logging

from django.conf import settings
from django.contrib.auth.middleware import LoginRequiredMiddleware
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.middleware import gzip
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from companion import errors

log = logging.getLogger(__name__)


class CompleteBodyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        declared = request.META.get("CONTENT_LENGTH") or "0"
        # ASCII digits only ("²" is a digit to str.isdigit), and a length a body could have: Django
        # reads it with int() (uvicorn's parser refuses any other before; a WSGI server may not).
        if not (declared.isascii() and declared.isdigit() and len(declared) <= 18):
            return errors.bad_request(request)
        # A file upload (the history import) streams to disk past FILE_UPLOAD_MAX_MEMORY_SIZE, so
        # its body cannot be read here; a cut-off file fails the import's own checks instead.
        if request.content_type == "multipart/form-data":
            return self.get_response(request)
        if int(declared) > 0 and len(request.body) < int(declared):
            return HttpResponseBadRequest(_("The request was cut off before its end: nothing was entered."))
        return self.get_response(request)


class PrivateAnswersMiddleware:
    """`Cache-Control: private, no-store` on every answer that does not say otherwise (issue 41).
    Pages, QR codes, exports and the API's answers hold tokens (a table's play link, a group's
    member link) or a group's people: no shared cache (a proxy, a CDN) and no disk cache of a
    shared computer may keep them. Static files (whitenoise, earlier in MIDDLEWARE, answers them
    before this), the web manifest, the service worker and the event streams say their own."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_store=True)
        return response


class GZipMiddleware(gzip.GZipMiddleware):
    """Django's gzip, except for an event stream: gzip would hold small events back until it has a
    block's worth, and the phones would hear of an entry late."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


# The JSON API's routes open without a login on a private deployment, by url name, as their pages
# are: a table's calls carry its token (as its share link opens its page) and the games' own facts
# (the list, a sheet, the rules' description of the API) hold nothing of anyone's, as /rules/ does.
# Every other route, a new one included, asks for a login: a group's, with or without its token,
# as a group's pages do (issue 28).
OPEN_API_ROUTES = frozenset(
    {
        "get_table",
        "post_action",
        "post_undo",
        "list_events",
        "list_legal",
        "renew_table_links",
        "list_games",
        "summer_suns_sheet",
        "openapi-json",
        "openapi-view",
        "ping",
    }
)


class PrivateDeploymentMiddleware(LoginRequiredMiddleware):
    """Django's LoginRequiredMiddleware, switched on by settings.LOGIN_REQUIRED (read per request).

    Exempt: views marked login_not_required (a table's own views, which demand the rights its share
    link put in the session, and the login page), and the API routes of OPEN_API_ROUTES. Static
    files never get here: whitenoise answers them earlier in the stack.
    """

    def process_view(self, request, view_func, view_args, view_kwargs):
        # The exemptions first: a table's own views (its polls above all) then read no account.
        if not settings.LOGIN_REQUIRED or not getattr(view_func, "login_required", True):
            return None
        match = request.resolver_match
        if match.namespace == "api":
            if match.url_name in OPEN_API_ROUTES or request.user.is_authenticated:
                return None
            return self.handle_no_permission(request, view_func)
        return super().process_view(request, view_func, view_args, view_kwargs)

    def handle_no_permission(self, request, view_func):
        if request.path_info.startswith("/api/"):
            name = request.resolver_match.url_name
            if name == "create_group" and request.method == "POST":
                message = _("This Table Companion is private: log in to start a group.")
            elif name == "create_table":
                message = _("This Table Companion is private: log in to start a table.")
            else:
                message = _("This Table Companion is private: log in to read or change its groups.")
            body = {"error": {"code": "login_required", "message": message, "rule": None}}
            return JsonResponse(body, status=401)
        response = super().handle_no_permission(request, view_func)
        if request.headers.get("HX-Request") == "true":
            # A fragment request would swap the login page into part of the page: reload it whole.
            redirect = HttpResponse(status=204)
            redirect["HX-Redirect"] = response["Location"]
            return redirect
        return response


class LostDatabaseMiddleware:
    """A request whose database connection died under it (a PostgreSQL restart, a backend ended
    by pg_terminate_backend, a failover) runs once more on a new connection instead of answering
    500 (issue 28). Safe for a write: every write is a compare-and-set on the table's version, so
    a write whose commit did land before the connection died answers as stale, or, carrying its
    idempotency key (as every phone's does), as it did the first time; one that did not land
    applies now. When the database still does not answer, 503 says so.

    Last in MIDDLEWARE: its process_exception is the first to see a view's exception.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)) or connection.in_atomic_block:
            return None
        if connection.connection is not None and connection.is_usable():
            return None  # the database answered with an error (SQLite's "locked"): not a lost one
        log.warning("The database connection was lost (%s): the request runs again on a new one.", exception)
        connection.close()
        match = request.resolver_match
        try:
            return match.func(request, *match.args, **match.kwargs)
        except (OperationalError, InterfaceError) as again:
            connection.close()
            log.warning("The database does not answer (%s): 503.", again)
            message = _("The database does not answer just now: nothing was entered. Try again in a moment.")
            if errors.is_api(request.path):
                return errors.api_error(503, "database_unavailable", message)
            return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
