"""An app container's host settings from the one address the club gives its server, COMPANION_HOST
(compose.yaml's .env; deploy/entrypoint.sh runs `python -m companion.selfhost.host_settings` and
evaluates what it prints). It is the site address the proxy serves (deploy/Caddyfile):

- a host name, `companion.example.org`: HTTPS, with a certificate the proxy gets and renews. The
  app answers that name and localhost (the health checks'), trusts https://that-name as the
  origin of forms, and sends its cookies on HTTPS only;
- `:80`, or `http://name`: plain HTTP on a LAN. `:80` is reached by whatever address the phones
  use (the server's LAN address), so every host name is answered; no cookie asks for HTTPS.

A variable already set (ALLOWED_HOSTS, say) is kept as it is. Several addresses: comma-separated.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping

LOCAL = ["localhost", "127.0.0.1"]  # Docker's and the proxy's health checks ask for these


def host_settings(companion_host: str) -> dict[str, str]:
    """ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS and SECURE_COOKIES for the addresses given."""
    hosts, origins, plain = [], [], False
    for address in [part.strip() for part in companion_host.split(",") if part.strip()]:
        if address.startswith(":"):  # any name, on that port
            plain = True
            hosts.append("*")
        elif address.startswith("http://"):
            plain = True
            hosts.append(_without_port(address.removeprefix("http://")))
        else:
            site = address.removeprefix("https://")
            hosts.append(_without_port(site))
            origins.append(f"https://{site}")
    if not hosts:
        return {}
    allowed = "*" if "*" in hosts else ",".join(dict.fromkeys([*hosts, *LOCAL]))
    found = {"ALLOWED_HOSTS": allowed, "SECURE_COOKIES": "false" if plain else "true"}
    if origins:
        found["CSRF_TRUSTED_ORIGINS"] = ",".join(origins)
    return found


def _without_port(site: str) -> str:
    return site.rsplit(":", 1)[0] if site.count(":") == 1 else site


def exports(environ: Mapping[str, str]) -> str:
    """Shell lines that set each host setting the environment does not set already."""
    derived = host_settings(environ.get("COMPANION_HOST", ""))
    return "".join(
        f"export {name}={shlex.quote(value)}\n" for name, value in derived.items() if not environ.get(name)
    )


if __name__ == "__main__":
    print(exports(os.environ), end="")
