"""Rate limits per client address: starting tables and every write (django-ratelimit).

The API and the pages share the counters, so a client cannot double its allowance by switching door.
The rates are read from settings on each request, so tests and deployments can change them.
"""

from django.conf import settings
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit
from django_ratelimit.exceptions import Ratelimited


def tables_rate(group, request) -> str:
    return settings.RATELIMIT_TABLES


def writes_rate(group, request) -> str:
    return settings.RATELIMIT_WRITES


limit_tables = ratelimit(group="tables", key="ip", rate=tables_rate, method="POST")
limit_writes = ratelimit(group="writes", key="ip", rate=writes_rate, method="POST")


def check_tables(request) -> None:
    """The same limits for the API, whose handlers ninja inspects (so no decorator around them)."""
    _check(request, "tables", tables_rate)


def check_writes(request) -> None:
    _check(request, "writes", writes_rate)


def _check(request, group: str, rate) -> None:
    if is_ratelimited(request, group=group, key="ip", rate=rate, method="POST", increment=True):
        raise Ratelimited()
