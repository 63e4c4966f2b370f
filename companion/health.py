"""GET /healthz: whether this app server can serve, for the proxy's and Docker's health checks
(compose.yaml, deploy/Caddyfile; issue 41).

200 with {"database": "ok", "cache": "ok", "migrations": "ok"} when the database answers a query,
the cache answers (Redis asked for real: companion/cache.py fails soft for requests, so its
answers say nothing of Redis; "unused" without Redis) and no migration is left unapplied; 503
otherwise, the failing part named by its value. Open without a login on a private deployment,
never cached, never rate-limited (no limit decorates it), and cheap: one SELECT 1, one PING, and
the migration plan until it has once been empty (a running server's migrations cannot be
un-applied under it).
"""

from __future__ import annotations

import logging

from django.contrib.auth.decorators import login_not_required
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse
from django.views.decorators.http import require_safe
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

HEALTHY = frozenset({"ok", "unused"})
_migrations_applied = False  # once the plan was empty, it stays empty for this process


def database_state() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        log.warning("Health: the database does not answer (%s).", error)
        return "failed"
    return "ok"


def cache_state() -> str:
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        return "unused"  # one server's own memory: nothing to ask
    try:
        # The cache's own client: its address and its short timeouts (settings.REDIS_TIMEOUT).
        cache._cache.get_client(write=True).ping()
    except RedisError as error:
        log.warning("Health: the cache does not answer (%s).", error)
        return "failed"
    return "ok"


def migrations_state() -> str:
    global _migrations_applied
    if _migrations_applied:
        return "ok"
    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError:
        return "unknown"  # the database does not answer: "database" says so
    if plan:
        log.warning("Health: %d migrations are not applied: run manage.py migrate.", len(plan))
        return "unapplied"
    _migrations_applied = True
    return "ok"


@login_not_required
@require_safe
def healthz(request):
    states = {"database": database_state(), "cache": cache_state(), "migrations": migrations_state()}
    healthy = set(states.values()) <= HEALTHY
    response = JsonResponse(states, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    return response
