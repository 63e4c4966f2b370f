"""GET /healthz (companion/health.py, issue 41) against the real services: the test database
(SQLite, or PostgreSQL under DATABASE_URL), the machine's Redis on 6379, a port where nothing
listens, and a migration really unapplied."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from companion import health

from .servers import free_port

pytestmark = pytest.mark.django_db

REDIS_UP = "redis://127.0.0.1:6379/0"  # the machine's own (tests/test_streams.py uses it too)


def redis_cache(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "companion.cache.ResilientRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        }
    }


@pytest.fixture(autouse=True)
def migrations_asked_afresh(monkeypatch):
    """Each test asks for the migration plan itself, whatever an earlier one found."""
    monkeypatch.setattr(health, "_migrations_applied", False)


def test_all_ok_with_the_database_and_redis_answering(client, settings):
    settings.CACHES = redis_cache(REDIS_UP)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok", "migrations": "ok"}
    assert response["Cache-Control"] == "no-store"
    assert response["Content-Type"] == "application/json"


def test_without_redis_the_cache_is_unused_and_the_server_healthy(client, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    response = client.get("/healthz")
    assert (response.status_code, response.json()) == (
        200,
        {"database": "ok", "cache": "unused", "migrations": "ok"},
    )


def test_redis_on_a_closed_port_is_named(client, settings):
    """The cache's own breaker would answer requests as misses: health asks Redis itself."""
    settings.CACHES = redis_cache(f"redis://127.0.0.1:{free_port()}/0")
    for _ in range(2):  # the second time too, while the request path's breaker is open
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json() == {"database": "ok", "cache": "failed", "migrations": "ok"}
        assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db(transaction=True)
def test_an_unapplied_migration_is_named_until_it_is_applied(client, settings):
    settings.CACHES = redis_cache(REDIS_UP)
    call_command("migrate", "history", "zero", verbosity=0)  # its only migration, undone for real
    try:
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json() == {"database": "ok", "cache": "ok", "migrations": "unapplied"}
    finally:
        call_command("migrate", "history", verbosity=0)
    assert client.get("/healthz").json()["migrations"] == "ok"


@pytest.mark.django_db(transaction=True)
def test_migrations_once_found_applied_are_not_asked_again(client, django_assert_num_queries):
    assert client.get("/healthz").status_code == 200
    call_command("migrate", "history", "zero", verbosity=0)
    try:
        # Nothing un-applies a running server's migrations: the plan is not asked again, and a
        # check costs one query (SELECT 1).
        with django_assert_num_queries(1):
            response = client.get("/healthz")
        assert response.json()["migrations"] == "ok"
    finally:
        call_command("migrate", "history", verbosity=0)


def test_open_without_a_login_on_a_private_deployment(client, settings):
    settings.LOGIN_REQUIRED = True
    assert client.get("/accounts/password_change/").status_code == 302  # a page asks for a login
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


@pytest.mark.ratelimit
def test_never_rate_limited(client, settings):
    settings.RATELIMIT_TABLES = settings.RATELIMIT_WRITES = "1/h"
    assert [client.get("/healthz").status_code for _ in range(5)] == [200] * 5


def test_only_read(client):
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


def test_the_api_ping_is_still_there(client):
    assert client.get("/api/v1/ping").status_code == 200
