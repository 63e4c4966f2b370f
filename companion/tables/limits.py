"""Rate limits per client address: starting tables, logging in and every write (django-ratelimit).

The API and the pages share the counters, so a client cannot double its allowance by switching door.
The rates are read from settings on each request, so tests and deployments can change them.

The address is REMOTE_ADDR, which uvicorn sets to the peer, or, behind a proxy named in
FORWARDED_ALLOW_IPS (gunicorn.conf.py), to the first address from the right of X-Forwarded-For that
no named proxy holds: a client cannot choose its own (issue 28).
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit
from django_ratelimit.exceptions import Ratelimited

KEY = "companion.tables.limits.client_address"
IPV6_PREFIX = 64  # one phone moves through its /64 (privacy addresses): it counts as one client


def client_address(group, request) -> str:
    """The counters' key: the client's address (an IPv6 one by its /64); a value that is no address
    (a misconfigured proxy passing a header's garbage along) counts as itself, cut short, instead
    of failing the request as django-ratelimit's own "ip" key does."""
    raw = request.META.get("REMOTE_ADDR") or ""
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return "not-an-address:" + raw[:64]
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False).network_address)
    return str(address)


def tables_rate(group, request) -> str:
    return settings.RATELIMIT_TABLES


def writes_rate(group, request) -> str:
    return settings.RATELIMIT_WRITES


limit_tables = ratelimit(group="tables", key=KEY, rate=tables_rate, method="POST")
limit_writes = ratelimit(group="writes", key=KEY, rate=writes_rate, method="POST")
limit_logins = ratelimit(group="login", key=KEY, rate=tables_rate, method="POST")


def check_tables(request) -> None:
    """The same limits for the API, whose handlers ninja inspects (so no decorator around them)."""
    _check(request, "tables", tables_rate)


def check_writes(request) -> None:
    _check(request, "writes", writes_rate)


def _check(request, group: str, rate) -> None:
    if is_ratelimited(request, group=group, key=KEY, rate=rate, method="POST", increment=True):
        raise Ratelimited()
