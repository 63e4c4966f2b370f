"""A bounded, thread-safe store of a worker's own: the least recently used entry goes first
(live_cache's renders, logs and log lines)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class Lru:
    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key) -> Any | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._store(key, value)

    def _store(self, key, value) -> None:  # under the lock
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    # Values kept with the version they are of, as (version, value): a table's render or log.
    def at(self, key, version: int) -> Any | None:
        """The value kept for `key` at `version`, else None."""
        found = self.get(key)
        return found[1] if found is not None and found[0] == version else None

    def keep_newest(self, key, version: int, value) -> None:
        """Keep `value` at `version` unless a newer version is kept already (a slower request of
        an older one must not replace it)."""
        with self._lock:
            found = self._items.get(key)
            if found is None or found[0] <= version:
                self._store(key, (version, value))

    def pop(self, key) -> None:
        with self._lock:
            self._items.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
