"""The web manifest and the service worker. The worker's cache name is the static files' version
(collectstatic's digest of its manifest): a deployment that changes any file gets a new worker,
which drops the old cache when it takes over."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import LogoutView
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from companion.games import registry

# The files every page loads, fetched when the worker installs; any other static file is cached
# the first time a page asks for it.
SHELL = [
    "js-lib-bootstrap5/css/bootstrap.min.css",
    "css/app.css",
    "js/theme.js",
    "js/address.js",
    "js/share.js",
    "js/table.js",
    "js/pwa.js",
    "django_htmx/htmx-2.min.js",
    "icon.svg",
    "icons/icon-192.png",
]
LIGHT = {"theme": "#0d6efd", "background": "#ffffff"}  # the dark scheme's are base.html's theme-color


def static_version() -> str:
    """collectstatic's digest of its manifest: it changes whenever a deployed file does."""
    return getattr(staticfiles_storage, "manifest_hash", "") or "dev"


def shell_urls() -> list[str]:
    games = [f"{registry.template_dir(slug)}/screen.css" for slug in registry.GAMES]
    return [static(path) for path in SHELL + games if staticfiles_storage.exists(path)]


@login_not_required  # a private deployment's table page, reached by its link, is installable too
@require_GET
@cache_control(max_age=3600)
def manifest(request):
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    data = {
        "name": "Table Companion",
        "short_name": "Table",
        "description": _("The rules, the scoresheets and the history of the games on your table."),
        "start_url": reverse("tables:home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": LIGHT["theme"],
        "background_color": LIGHT["background"],
        "icons": icons,
    }
    return JsonResponse(data, content_type="application/manifest+json")


@login_not_required
@require_GET
@cache_control(no_cache=True)  # a phone asks for a new worker on every visit, as browsers expect
def service_worker(request):
    context = {
        "version": static_version(),
        "precache": json.dumps(shell_urls()),
        "static_url": settings.STATIC_URL
        if settings.STATIC_URL.startswith("/")
        else "/" + settings.STATIC_URL,
    }
    response = render(request, "pwa/sw.js", context, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


class LogoutEverywhereView(LogoutView):
    """Django's logout, which also clears what this phone keeps of the app (issue 28): the
    worker's copies of table pages hold each table's play link, and the outbox the entries not yet
    sent. Clear-Site-Data ("cache", "storage": the caches, the worker, localStorage) is honoured on
    https and localhost, where a worker can run at all."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = CLEAR_SITE_DATA
        return response


CLEAR_SITE_DATA = '"cache", "storage"'  # what a logout clears (accounts/views.py's too)
