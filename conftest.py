"""Fixtures for every test, wherever pytest collects it: tests/ and each game's own tests/ folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_rate_limits(request, settings):
    """Tests write fast from one address; only tests marked `ratelimit` meet the limits."""
    if request.node.get_closest_marker("ratelimit") is None:
        settings.RATELIMIT_ENABLE = False


@pytest.fixture(autouse=True)
def no_kept_rows():
    """Each test starts with no table rows nor live regions kept by this process (row_cache.py,
    live_cache.py)."""
    from companion.tables import live_cache, row_cache

    row_cache.clear()
    live_cache.clear()


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A French request leaves French active in the test's thread (LocaleMiddleware activates the
    request's language and leaves it): each test starts in the default language."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def no_cached_values():
    """Each test starts with an empty cache (issue 46): the in-memory cache outlives a test, and a
    value kept by an earlier one (a rate limit's counter, a group's figures or ratings under a
    stamp that a later test's history can share) must not decide a later one. A Redis cache
    (REDIS_URL set) is another process's and is left alone."""
    from django.core.cache import cache, caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):
        cache.clear()


# Threads the app keeps for the life of a process, started on first use: the pages' pool, the
# fan-out's reader and publisher, the push renderers, the logins' watch, the log's checkpoints.
PROCESS_THREADS = ("view", "fanout-", "live-push", "login-watch", "sqlite-checkpoints", "asyncio_")


@pytest.fixture(autouse=True)
def no_thread_left_running(request):
    """A thread a test starts ends with it (issue 46): one left running (an import written in the
    background, a reader of a stream) could still write to the database, or hold its lock, while
    the next test runs, and make that one fail for a reason of this one's."""
    import gc
    import threading

    before = set(threading.enumerate())
    yield
    started = [t for t in threading.enumerate() if t not in before and not t.name.startswith(PROCESS_THREADS)]
    if started:
        # An executor nobody holds lets its idle thread go once collected (asgiref leaves the one
        # that ran an async view under the test client to the collector).
        gc.collect()
    for thread in started:
        thread.join(timeout=5)
    left = [thread.name for thread in started if thread.is_alive()]
    assert not left, f"{request.node.nodeid} left threads running: {left}"


# The settings as configured for the session (issue 46): each test must leave them so. A setting
# changed by hand (django.conf.settings.X = ...), or an override undone out of order (two overrides
# restore what each saw when it began), would decide every later test from this one.
_configured: list = []


@pytest.fixture(scope="session", autouse=True)
def configured_settings(django_test_environment):
    from django.conf import settings

    _configured[:] = [settings._wrapped, dict(vars(settings._wrapped))]


def _changed_settings() -> list[str]:
    from django.conf import settings

    wrapped, values = _configured
    if settings._wrapped is not wrapped:
        return ["an override left in place"]
    now, missing = vars(settings._wrapped), object()
    changed = []
    for name in values.keys() | now.keys():
        before, after = values.get(name, missing), now.get(name, missing)
        if before is not after and before != after:
            changed.append(name)
    return sorted(changed)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    outcome = yield
    # After the last test the session's own fixtures have ended too: nothing to compare with.
    if _configured and nextitem is not None:
        changed = _changed_settings()
        assert not changed, f"{item.nodeid} left the settings changed: {changed}"
    return outcome
