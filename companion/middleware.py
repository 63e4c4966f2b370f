"""Middleware of our own.

CompleteBodyMiddleware refuses a request whose body stopped short of its Content-Length. gunicorn
hands the application whatever bytes arrived before the client hung up, and nothing else compares
them with the length the client announced. A form cut off mid-way could then be applied as a
different entry than the one sent (the dash toggles of a collect, say); refuse it instead.

PrivateDeploymentMiddleware: in a private deployment (COMPANION_LOGIN_REQUIRED), log in for
everything but a table reached through its own links.
"""

from django.conf import settings
from django.contrib.auth.middleware import LoginRequiredMiddleware
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.middleware import gzip
from django.utils.translation import gettext as _


class CompleteBodyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        declared = request.META.get("CONTENT_LENGTH") or ""
        # A file upload (the history import) streams to disk past DATA_UPLOAD_MAX_MEMORY_SIZE, so
        # its body cannot be read here; a cut-off file fails the import's own checks instead.
        if request.content_type == "multipart/form-data":
            return self.get_response(request)
        if declared.isdigit() and int(declared) > 0 and len(request.body) < int(declared):
            return HttpResponseBadRequest(_("The request was cut off before its end: nothing was entered."))
        return self.get_response(request)


class GZipMiddleware(gzip.GZipMiddleware):
    """Django's gzip, except for an event stream: gzip would hold small events back until it has a
    block's worth, and the phones would hear of an entry late."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


class PrivateDeploymentMiddleware(LoginRequiredMiddleware):
    """Django's LoginRequiredMiddleware, switched on by settings.LOGIN_REQUIRED (read per request).

    Exempt: views marked login_not_required (a table's own views, which demand the rights its share
    link put in the session, and the login page); the JSON API but table creation, since every
    table call carries the table's token. Static files never get here: whitenoise answers them
    earlier in the stack.
    """

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not settings.LOGIN_REQUIRED or request.user.is_authenticated:
            return None
        match = request.resolver_match
        creates = match.url_name in ("create_table", "create_group") and request.method == "POST"
        if match.namespace == "api" and not creates:
            return None
        return super().process_view(request, view_func, view_args, view_kwargs)

    def handle_no_permission(self, request, view_func):
        if request.path_info.startswith("/api/"):
            if request.resolver_match.url_name == "create_group":
                message = _("This Table Companion is private: log in to start a group.")
            else:
                message = _("This Table Companion is private: log in to start a table.")
            body = {"error": {"code": "login_required", "message": message, "rule": None}}
            return JsonResponse(body, status=401)
        response = super().handle_no_permission(request, view_func)
        if request.headers.get("HX-Request") == "true":
            # A fragment request would swap the login page into part of the page: reload it whole.
            redirect = HttpResponse(status=204)
            redirect["HX-Redirect"] = response["Location"]
            return redirect
        return response
