"""The web manifest and the service worker as the server sends them (issue 17); the browser side
is tests/browser/test_installable.py."""

import json
import re

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_icons_and_how_it_opens(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert (data["name"], data["short_name"], data["display"], data["start_url"], data["scope"]) == (
        "Table Companion",
        "Table",
        "standalone",
        "/",
        "/",
    )
    assert (data["theme_color"], data["background_color"]) == ("#0d6efd", "#ffffff")
    icons = [(icon["sizes"], icon.get("purpose", "any")) for icon in data["icons"]]
    assert icons == [("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")]
    for icon in data["icons"]:  # hashed names of the app's own files
        assert re.fullmatch(r"/static/icons/[\w-]+\.[0-9a-f]{12}\.png", icon["src"]), icon["src"]


def test_every_page_links_the_manifest_and_both_theme_colours(client):
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#0d6efd" media="(prefers-color-scheme: light)">' in html
    assert '<meta name="theme-color" content="#212529" media="(prefers-color-scheme: dark)">' in html
    assert re.search(r'<script src="/static/js/pwa\.[0-9a-f]{12}\.js" defer></script>', html)


def test_the_worker_s_cache_is_named_by_the_deployment_s_static_files(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"] == "text/javascript"
    assert response["Service-Worker-Allowed"] == "/" and "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    version = re.search(r'const VERSION = "(\w+)";', body).group(1)
    assert version == staticfiles_storage.manifest_hash  # a new deployment: a new worker and cache
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    assert staticfiles_storage.url("js/table.js") in shell and staticfiles_storage.url("css/app.css") in shell
    assert staticfiles_storage.url("hang_four/screen.css") in shell  # every game's styles
    assert all(client.get(url).status_code == 200 for url in shell)


def test_a_private_deployment_serves_both_without_a_login(client, settings):
    settings.LOGIN_REQUIRED = True
    assert client.get("/").status_code == 302  # the app itself asks for a login
    assert client.get("/manifest.webmanifest").status_code == 200
    assert client.get("/sw.js").status_code == 200
