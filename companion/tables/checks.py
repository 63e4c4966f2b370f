"""Deployment checks of our own (manage.py check)."""

import os

from django.core import checks


@checks.register(checks.Tags.security)
def no_client_chosen_addresses(app_configs, **kwargs):
    """RATELIMIT_IP_META_KEY=HTTP_X_FORWARDED_FOR, once advised behind a proxy, let a client choose
    the address its limits count against; the proxy is now named instead (issue 28)."""
    if not os.getenv("RATELIMIT_IP_META_KEY"):
        return []
    return [
        checks.Warning(
            "RATELIMIT_IP_META_KEY is no longer read: a client could set that header itself.",
            hint="Name your reverse proxies in FORWARDED_ALLOW_IPS (gunicorn.conf.py) instead.",
            id="companion.W001",
        )
    ]
