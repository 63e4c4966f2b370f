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
