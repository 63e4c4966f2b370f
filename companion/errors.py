"""Error answers outside the views: the JSON API gets its error shape for every status (API.md:
"never a 500 for anything a client sends", and a client reads `error.code` even when the server
fails), the pages Django's own pages. Mounted as handler400/403/404/500 in urls.py; the 413 of a
body over the limit is answered by companion/asgi.py before the body is read, in the same shape."""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

API_PREFIX = "/api/"


def is_api(path: str) -> bool:
    return path.startswith(API_PREFIX)


def api_error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "rule": None}}, status=status)


def bad_request(request, exception=None):
    if is_api(request.path):
        return api_error(400, "bad_request", _("The request is malformed."))
    return defaults.bad_request(request, exception)


def permission_denied(request, exception=None):
    if is_api(request.path):
        return api_error(403, "forbidden", _("This request is not allowed."))
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception=None):
    if is_api(request.path):
        return api_error(404, "not_found", _("There is no such address in the API."))
    return defaults.page_not_found(request, exception)


def server_error(request):
    if is_api(request.path):
        message = _("The server could not answer this request. Try again.")
        return api_error(500, "server_error", message)
    return defaults.server_error(request)


def too_large_body(limit: int) -> tuple[str, str]:
    """The 413 sentence, and its code, for a body over `limit` bytes."""
    size = f"{limit // (1024 * 1024)} MB" if limit % (1024 * 1024) == 0 else f"{limit // 1024} KB"
    return "too_large", _("The request is larger than {size}: nothing was entered.").format(size=size)
