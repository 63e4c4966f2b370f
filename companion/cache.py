"""Django's Redis cache, made to degrade instead of failing a request when Redis does.

The cache holds the rate limits' counters (django-ratelimit) and the ratings' computed tables
(history/ratings.py). Neither is worth a refused write: when Redis is stopped, unreachable or
hung, every call fails soft within the client's short timeouts (settings.REDIS_TIMEOUT) as a
miss, and for RETRY_SECONDS after a failure the cache is not even asked, so that a hung Redis costs
one request a timeout every few seconds instead of every request two (issue 28). The rate limits
then let every request through (RATELIMIT_FAIL_OPEN), and the log says so once per outage.
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0  # after a failure, the cache is asked again this much later


class Breaker:
    """Whether to ask the cache now: closed while it answers, open for RETRY_SECONDS after a
    failure, then one request tries again."""

    def __init__(self, name: str):
        self.name = name
        self.down_until = 0.0
        self.down = False
        self.up_since = 0.0  # when the cache last answered after an outage
        self.down_since = 0.0  # when the last outage was seen
        self.lock = threading.Lock()

    def allows(self) -> bool:
        return time.monotonic() >= self.down_until

    def failed(self, error: Exception, asked_at: float) -> None:
        with self.lock:
            if asked_at < self.up_since:
                # Asked before another thread saw the cache answer again: a leftover of the outage
                # just over, not a new one (it would open the breaker and log twice per outage).
                return
            self.down_until = time.monotonic() + RETRY_SECONDS
            if not self.down:
                self.down = True
                self.down_since = time.monotonic()
                log.warning(
                    "The cache at %s does not answer (%s): rate limits let every request through "
                    "and ratings are computed afresh until it does.",
                    self.name,
                    error,
                )

    def answered(self, asked_at: float) -> None:
        if self.down:
            with self.lock:
                if self.down and asked_at >= self.down_since:
                    # An answer to a question asked before another thread saw the outage is not
                    # the cache back (a CI run logged each outage's start twice in one worker).
                    self.down = False
                    self.up_since = time.monotonic()
                    log.warning("The cache at %s answers again: rate limits count again.", self.name)


_breakers: dict[str, Breaker] = {}
_breakers_lock = threading.Lock()


def breaker_for(servers: str) -> Breaker:
    """One breaker per Redis and process: Django makes a cache object per thread, and one thread's
    failure should spare the others their timeout (and the log its repeats)."""
    with _breakers_lock:
        return _breakers.setdefault(servers, Breaker(servers))


class ResilientRedisCache(RedisCache):
    """RedisCache whose reads miss and whose writes are dropped while Redis does not answer."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self.breaker = breaker_for(", ".join(self._servers))

    def _try(self, call, fallback):
        if not self.breaker.allows():
            return fallback()
        asked_at = time.monotonic()
        try:
            value = call()
        except RedisError as error:
            self.breaker.failed(error, asked_at)
            return fallback()
        self.breaker.answered(asked_at)
        return value

    def add(self, key, value, timeout=..., version=None):
        return self._try(lambda: super(ResilientRedisCache, self).add(key, value, timeout, version), _false)

    def get(self, key, default=None, version=None):
        return self._try(lambda: super(ResilientRedisCache, self).get(key, default, version), lambda: default)

    def set(self, key, value, timeout=..., version=None):
        return self._try(lambda: super(ResilientRedisCache, self).set(key, value, timeout, version), _none)

    def touch(self, key, timeout=..., version=None):
        return self._try(lambda: super(ResilientRedisCache, self).touch(key, timeout, version), _false)

    def delete(self, key, version=None):
        return self._try(lambda: super(ResilientRedisCache, self).delete(key, version), _false)

    def get_many(self, keys, version=None):
        return self._try(lambda: super(ResilientRedisCache, self).get_many(keys, version), dict)

    def has_key(self, key, version=None):
        return self._try(lambda: super(ResilientRedisCache, self).has_key(key, version), _false)

    def incr(self, key, delta=1, version=None):
        # A key the cache cannot find raises ValueError (Django's contract): django-ratelimit
        # then counts nothing and, with RATELIMIT_FAIL_OPEN, lets the request through.
        return self._try(lambda: super(ResilientRedisCache, self).incr(key, delta, version), _missing)

    def set_many(self, data, timeout=..., version=None):
        return self._try(lambda: super(ResilientRedisCache, self).set_many(data, timeout, version), list)

    def delete_many(self, keys, version=None):
        return self._try(lambda: super(ResilientRedisCache, self).delete_many(keys, version), _none)

    def clear(self):
        return self._try(lambda: super(ResilientRedisCache, self).clear(), _false)


def _false():
    return False


def _none():
    return None


def _missing():
    raise ValueError("The cache does not answer: nothing counted.")
