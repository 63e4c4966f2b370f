"""Rate limits, the Content-Security-Policy, and tokens kept out of logs."""

import json
import logging
import re

import pytest

from companion.gunicorn_logging import TokenFreeLogger
from companion.log_redaction import redact
from companion.tables.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_limits(settings):
    settings.RATELIMIT_TABLES = "3/h"
    settings.RATELIMIT_WRITES = "4/h"
    from django.core.cache import cache

    cache.clear()


@pytest.mark.ratelimit
def test_table_creation_is_limited_per_address_with_a_clear_429(client, low_limits):
    body = json.dumps({"game": "dogo-dash", "players": ["Ann", "Ben"]})
    statuses = [
        client.post("/api/v1/tables", body, content_type="application/json").status_code for _ in range(4)
    ]
    assert statuses == [201, 201, 201, 429]
    refused = client.post("/api/v1/tables", body, content_type="application/json")
    assert refused.json()["error"]["code"] == "rate_limited"
    assert "wait a minute" in refused.json()["error"]["message"]
    # The pages count against the same allowance, and say so in words.
    page = client.post("/new/dogo-dash/", {"player_0": "Ann", "player_1": "Ben"})
    assert page.status_code == 429
    assert b"Too many entries from this address" in page.content
    assert Table.objects.count() == 3
    # Another address is not affected.
    other = client.post("/api/v1/tables", body, content_type="application/json", REMOTE_ADDR="10.9.9.9")
    assert other.status_code == 201


@pytest.mark.ratelimit
def test_writes_are_limited_and_a_refused_write_changes_nothing(api, low_limits):
    table = api.create(players=["Ann", "Ben"])
    reveal = {"type": "reveal", "cards": {"0": "cat", "1": "dog"}}
    statuses = []
    for _ in range(5):
        response = api.act(table, reveal)
        statuses.append(response.status_code)
        if response.status_code == 200:
            table = response.json()
    assert statuses == [200, 200, 200, 200, 429]
    assert Table.objects.get().version == 4


@pytest.mark.ratelimit
def test_an_htmx_write_over_the_limit_lands_in_the_flash_area(client, low_limits):
    client.post("/new/dogo-dash/", {"player_0": "Ann", "player_1": "Ben"})
    table = Table.objects.get()
    for version in range(5):
        response = client.post(
            f"/t/{table.id}/act/",
            {"card_0": "cat", "card_1": "dog", "expected_version": version},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 429
    assert response["HX-Retarget"] == "#flash"


def test_pages_send_a_strict_content_security_policy(client):
    policy = client.get("/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy


def test_no_page_holds_an_inline_script_or_style(client):
    client.post("/new/summer-suns/", {"player_0": "Ann", "option_sheet": "default"})
    table = Table.objects.get()
    for path in ("/", "/new/dogo-dash/", f"/t/{table.id}/"):
        html = client.get(path).content.decode()
        assert "<script>" not in html and "style=" not in html, path
        for tag in html.split("<script")[1:]:
            attributes = tag.split(">")[0].strip()
            # A script file, or a JSON data block (json_script), which no browser runs.
            assert attributes.startswith("src=") or attributes.endswith('type="application/json"'), path


def test_share_tokens_are_kept_out_of_logs(client, caplog, settings):
    client.post("/new/dogo-dash/", {"player_0": "Ann", "player_1": "Ben"})
    table = Table.objects.get()
    wrong = f"/t/{table.id}/join/{table.token}x/"
    client.cookies.clear()
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client.get(wrong).status_code == 404  # Django logs "Not Found: <path>"
    # The console handler's filter rewrote the record before any handler could write it out.
    record = next(r for r in caplog.records if "Not Found" in r.getMessage())
    assert record.getMessage() == f"Not Found: /t/{table.id}/join/[token]/"
    assert table.token not in record.getMessage()
    # The console handler applies that filter; gunicorn's access log uses the same redaction.
    assert settings.LOGGING["handlers"]["console"]["filters"] == ["no_tokens"]
    assert (
        redact(f"GET /t/{table.id}/join/{table.view_token}/ HTTP/1.1")
        == f"GET /t/{table.id}/join/[token]/ HTTP/1.1"
    )


def token_routes(resolver=None, prefix: str = "") -> list[str]:
    """Every URL pattern with a token in its path, as an example path."""
    from django.urls import URLResolver, get_resolver

    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += token_routes(pattern, text)
        elif "<slug:token>" in text or "<token>" in text or "<str:token>" in text:
            found.append(
                "/"
                + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: "SeCrEt-Token_9" if m[1] == "token" else "abc", text)
            )
    return found


def test_every_link_with_a_token_in_its_path_is_redacted_in_every_log(client, caplog, settings):
    """Tables' and groups' share links alike (issue 28: the group member links were logged)."""
    paths = token_routes()
    assert {"/t/abc/join/SeCrEt-Token_9/", "/g/abc/join/SeCrEt-Token_9/"} <= set(paths)
    for path in paths:
        assert "SeCrEt" not in redact(f"GET {path} HTTP/1.1"), path
        with caplog.at_level(logging.WARNING, logger="django.request"):
            assert client.get(path).status_code == 404  # Django logs "Not Found: <path>"
    said = [record.getMessage() for record in caplog.records]
    assert len([line for line in said if line.startswith("Not Found: ")]) == len(paths)
    assert not [line for line in said if "SeCrEt" in line]


def test_gunicorn_access_lines_hide_tokens():
    class Response:
        status, sent, headers = "302 Found", 0, []

    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/t/abc123/join/SeCrEt-Token_1/",
        "PATH_INFO": "/t/abc123/join/SeCrEt-Token_1/",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": "http://x/t/abc123/join/SeCrEt-Token_1/",
    }
    from datetime import timedelta

    atoms = TokenFreeLogger.atoms(object.__new__(TokenFreeLogger), Response(), {}, environ, timedelta(0))
    assert atoms["r"] == "GET /t/abc123/join/[token]/ HTTP/1.1"
    assert "SeCrEt" not in atoms["U"] and "SeCrEt" not in atoms["f"]
    group = {
        **environ,
        "RAW_URI": "/g/f00d/join/SeCrEt-Token_1/",
        "PATH_INFO": "/g/f00d/join/SeCrEt-Token_1/",
    }
    atoms = TokenFreeLogger.atoms(object.__new__(TokenFreeLogger), Response(), {}, group, timedelta(0))
    assert atoms["r"] == "GET /g/f00d/join/[token]/ HTTP/1.1"
    # A group's shared sheet read through the API carries its link's token in the query (issue 44)
    sheet = {**environ, "RAW_URI": "/api/v1/sheets/f00d.climb?share=SeCrEt-Token_1&x=1"}
    sheet.update(PATH_INFO="/api/v1/sheets/f00d.climb", QUERY_STRING="share=SeCrEt-Token_1&x=1")
    atoms = TokenFreeLogger.atoms(object.__new__(TokenFreeLogger), Response(), {}, sheet, timedelta(0))
    assert atoms["r"] == "GET /api/v1/sheets/f00d.climb?share=[token]&x=1 HTTP/1.1"
    assert "SeCrEt" not in atoms["U"] + atoms["q"] + atoms["f"]


def test_every_form_needs_its_csrf_token(settings):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/new/dogo-dash/", {"player_0": "Ann", "player_1": "Ben"})
    assert response.status_code == 403
    assert Table.objects.count() == 0
    # The pages carry the token: a form fetched first posts fine.
    page = strict.get("/new/dogo-dash/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = strict.post(
        "/new/dogo-dash/", {"player_0": "Ann", "player_1": "Ben", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302


@pytest.mark.ratelimit
def test_the_limits_can_live_in_redis_for_several_servers(client, settings):
    """With REDIS_URL (the local Redis here) every app server counts against the same allowance."""
    from django.core.cache import caches

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/15",
        }
    }
    settings.RATELIMIT_TABLES = "2/h"
    caches["default"].clear()
    body = json.dumps({"game": "dogo-dash", "players": ["Ann", "Ben"]})
    address = {"REMOTE_ADDR": "10.20.30.40"}
    statuses = [
        client.post("/api/v1/tables", body, content_type="application/json", **address).status_code
        for _ in range(3)
    ]
    assert statuses == [201, 201, 429]
    caches["default"].clear()


def test_the_old_advice_to_believe_x_forwarded_for_is_flagged(monkeypatch):
    """RATELIMIT_IP_META_KEY let a client choose its address (issue 28): it is no longer read, and
    `manage.py check` says what to set instead."""
    from companion.tables.checks import no_client_chosen_addresses

    assert no_client_chosen_addresses(None) == []
    monkeypatch.setenv("RATELIMIT_IP_META_KEY", "HTTP_X_FORWARDED_FOR")
    (warning,) = no_client_chosen_addresses(None)
    assert warning.id == "companion.W001" and "FORWARDED_ALLOW_IPS" in warning.hint
    from django.conf import settings

    assert not hasattr(settings, "RATELIMIT_IP_META_KEY")
