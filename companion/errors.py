"""Error answers outside the views: the JSON API gets its error shape for every status (API.md:
"never a 500 for anything a client sends", and a client reads `error.code` even when the server
fails), the pages Django's own pages. Mounted as handler400/403/404/500 in urls.py; the 413 of a
body over the limit is answered by companion/asgi.py before the body is read, in the same shape."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults

API_PREFIX = "/api/"


class LinksRenewed(Http404):
    """A page of a table or a group whose links this phone opened before they were renewed (issue
    41): 410 with a sentence saying so, rather than the 404 of a page never shared with it (the
    phone knew the table or group: nothing leaks). `kind` is "table" or "group"."""

    def __init__(self, kind: str):
        super().__init__(f"The {kind}'s links were renewed")
        self.kind = kind


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
    if isinstance(exception, LinksRenewed):
        return render(request, "links_renewed.html", {"kind": exception.kind}, status=410)
    if is_api(request.path):
        return api_error(404, "not_found", _("There is no such address in the API."))
    return defaults.page_not_found(request, exception)


def server_error(request):
    if is_api(request.path):
        message = _("The server could not answer this request. Try again.")
        return api_error(500, "server_error", message)
    return defaults.server_error(request)


def too_large_body(limit: int) -> tuple[str, str]:
    """The 413 sentence, and its code, for a body over `limit` bytes (0: a request that takes none)."""
    if limit == 0:
        return "too_large", _("This address takes no request body: nothing was read.")
    size = f"{limit // (1024 * 1024)} MB" if limit % (1024 * 1024) == 0 else f"{limit // 1024} KB"
    return "too_large", _("The request is larger than {size}: nothing was entered.").format(size=size)
