"""Figures of a large history kept in the cache under the history's stamp (issue 42), as the
ratings and the figures at a glance are: the database aggregates them once per change of the
history, and a page read again costs the stamp's query, not the plays'."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.utils import translation

from companion.groups.models import Group

from . import ratings


def figures(group: Group, name: str, compute: Callable[[], object], stamp: str | None = None):
    """`compute()`'s answer, kept while the history is as `stamp` says (read here when not given)."""
    stamp = stamp or ratings.history_stamp(group)
    said = f"{group.pk}:{stamp}:{name}:{translation.get_language()}"
    key = "kept:" + hashlib.sha256(said.encode()).hexdigest()
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, timeout=ratings.CACHE_SECONDS)
    return found
