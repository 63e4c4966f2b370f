"""The self-hosting files read as Docker, Compose and Caddy will read them (issue 41): no Docker
engine runs here, so compose.yaml, the Dockerfile and deploy/Caddyfile are checked as files,
FORWARDED_ALLOW_IPS with gunicorn's and uvicorn's own code, and with `docker compose config` and
`caddy adapt` where those are installed. tests/test_entrypoint.py runs the container's start."""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from gunicorn.config import validate_string_to_addr_list
from uvicorn.middleware.proxy_headers import _TrustedHosts

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
APPS = ("app1", "app2")
SECRETS = ("SECRET_KEY", "POSTGRES_PASSWORD", "COMPANION_ADMIN_PASSWORD")
CADDYFILE = (ROOT / "deploy" / "Caddyfile").read_text()
TEST_ENV = {
    "SECRET_KEY": "a-test-secret-key-long-enough-for-django-0123456789",
    "POSTGRES_PASSWORD": "abc123",
    "COMPANION_HOST": "companion.example.org",
    "COMPANION_ADMIN_USERNAME": "ann",
    "COMPANION_ADMIN_PASSWORD": "correct horse battery",
}


def interpolated(value: str) -> str:
    """A value as compose gives it with TEST_ENV in .env: ${NAME:?error} and ${NAME:-default}."""

    def value_of(match: re.Match) -> str:
        name, operator, default = match.groups()
        return TEST_ENV.get(name) or (default if operator == ":-" else "")

    return re.sub(r"\$\{(\w+)(:[?-])?([^}]*)\}", value_of, value)


def environment(service: str) -> dict[str, str]:
    return {name: interpolated(value) for name, value in SERVICES[service]["environment"].items()}


def proxy_address() -> str:
    return SERVICES["proxy"]["networks"]["companion"]["ipv4_address"]


def test_the_club_server_is_a_proxy_two_app_servers_postgresql_and_redis():
    assert set(SERVICES) == {"postgres", "redis", "app1", "app2", "proxy"}
    assert SERVICES["app1"] == SERVICES["app2"]  # one image, one configuration
    assert SERVICES["app1"]["build"] == "." and SERVICES["app1"]["image"] == "table-companion:local"


@pytest.mark.parametrize("app", APPS)
def test_each_app_server_is_private_and_uses_the_shared_services(app):
    env = environment(app)
    database, redis = urlsplit(env["DATABASE_URL"]), urlsplit(env["REDIS_URL"])
    assert (database.scheme, database.hostname, database.port) == ("postgres", "postgres", 5432)
    assert (redis.scheme, redis.hostname, redis.port) == ("redis", "redis", 6379)
    assert env["COMPANION_LOGIN_REQUIRED"] == "true" and env["COMPANION_DEFAULT_GROUP"] == "false"
    assert SERVICES[app]["depends_on"] == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }
    check = SERVICES[app]["healthcheck"]["test"]
    assert check[:3] == ["CMD", "python", "-c"] and "'http://127.0.0.1:8000/healthz'" in check[3]


@pytest.mark.parametrize("app", APPS)
def test_the_app_servers_believe_the_proxy_and_only_it(app):
    """gunicorn refuses a host name at start and uvicorn would never match one with the peer's
    address: the proxy has a fixed address on a fixed network, and that address is named."""
    allowed = environment(app)["FORWARDED_ALLOW_IPS"]
    validate_string_to_addr_list(allowed)  # gunicorn starts with it
    trusted = _TrustedHosts(allowed)  # uvicorn's ProxyHeadersMiddleware, as the workers build it
    proxy = proxy_address()
    subnet = ipaddress.ip_network(COMPOSE["networks"]["companion"]["ipam"]["config"][0]["subnet"])
    assert ipaddress.ip_address(proxy) in subnet
    assert proxy in trusted
    assert not trusted.always_trust
    others = [str(address) for address in list(subnet.hosts())[:20] if str(address) != proxy]
    assert not [address for address in others if address in trusted]  # app servers, Docker's gateway


def test_postgresql_and_redis_are_pinned_healthy_and_keep_what_they_should():
    postgres, redis = SERVICES["postgres"], SERVICES["redis"]
    assert re.fullmatch(r"postgres:15\.\d+(-[a-z]+)?", postgres["image"])
    assert re.fullmatch(r"redis:7\.\d+\.\d+(-[a-z0-9.]+)?", redis["image"])
    assert re.fullmatch(r"caddy:2\.\d+\.\d+(-[a-z0-9.]+)?", SERVICES["proxy"]["image"])
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    assert postgres["volumes"] == ["postgres_data:/var/lib/postgresql/data"]
    assert "postgres_data" in COMPOSE["volumes"]
    assert redis["command"] == ["redis-server", "--save", "", "--appendonly", "no"]
    assert "volumes" not in redis
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]


def test_no_secret_has_a_default_value():
    """Every use of a secret requires it (${NAME:?...}): compose refuses to start without it."""
    text = (ROOT / "compose.yaml").read_text()
    for name in SECRETS:
        uses = re.findall(r"\$\{" + name + r"([^}]*)\}", text)
        assert uses and all(use.startswith(":?") for use in uses), (name, uses)
    raw = SERVICES["app1"]["environment"]
    assert raw["SECRET_KEY"].startswith("${SECRET_KEY:?") and raw["COMPANION_HOST"].startswith(
        "${COMPANION_HOST:?"
    )
    assert not (ROOT / ".env").exists() or ".env" in (ROOT / ".gitignore").read_text().split()
    assert ".env" in (ROOT / ".dockerignore").read_text().split()


def test_the_proxy_serves_the_host_balances_both_apps_and_streams_unbuffered():
    proxy = SERVICES["proxy"]
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    assert proxy_address() == environment("app1")["FORWARDED_ALLOW_IPS"]
    assert environment("proxy")["COMPANION_APP_SERVERS"] == "app1:8000 app2:8000"
    blocks = caddy_blocks(CADDYFILE)
    upstreams = blocks["(app_servers)"]
    assert (
        "to {$COMPANION_APP_SERVERS:app1:8000 app2:8000}" in upstreams and "health_uri /healthz" in upstreams
    )
    site = blocks["{$COMPANION_HOST}"]
    assert "@events path */events/" in site
    events = site.split("handle @events {", 1)[1].split("\n\t}", 1)[0]
    assert "import app_servers" in events and "flush_interval -1" in events
    assert "encode" not in CADDYFILE  # nothing compresses a stream


def caddy_blocks(text: str) -> dict[str, str]:
    """The Caddyfile's top-level blocks (a snippet, a site) by their heading, comments left out."""
    lines = [line for line in text.splitlines() if not line.strip().startswith("#")]
    blocks, heading, body = {}, None, []
    for line in lines:
        if heading is None and line.endswith(" {"):
            heading, body = line[:-2].strip(), []
        elif heading is not None and line == "}":
            blocks[heading] = "\n".join(body)
            heading = None
        elif heading is not None:
            body.append(line)
    return blocks


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed here (Caddy 2 checks it)")
def test_caddy_reads_the_caddyfile_as_meant():
    adapted = subprocess.run(
        [shutil.which("caddy"), "adapt", "--config", str(ROOT / "deploy" / "Caddyfile")],
        env={**environment("proxy"), "HOME": str(ROOT)},  # as compose gives them to the proxy
        capture_output=True,
        check=True,
    )
    server = next(iter(json.loads(adapted.stdout)["apps"]["http"]["servers"].values()))
    assert server["listen"] == [":443"]
    routes = server["routes"][0]["handle"][0]["routes"]
    proxies = {json.dumps(route.get("match")): handler_of(route) for route in routes}
    streams, pages = proxies['[{"path": ["*/events/"]}]'], proxies["null"]
    assert streams["flush_interval"] == -1 and "flush_interval" not in pages
    for proxy in (streams, pages):
        assert proxy["upstreams"] == [{"dial": "app1:8000"}, {"dial": "app2:8000"}]
        assert proxy["health_checks"]["active"]["uri"] == "/healthz"


def handler_of(route: dict) -> dict:
    return route["handle"][0]["routes"][0]["handle"][0]


def compose_works() -> bool:
    docker = shutil.which("docker")
    return (
        docker is not None
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    )


@pytest.mark.skipif(
    not compose_works(), reason="no `docker compose` here (its config command needs no engine)"
)
def test_docker_compose_reads_it_and_requires_every_secret(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("".join(f"{name}={value}\n" for name, value in TEST_ENV.items()))
    command = ["docker", "compose", "--project-directory", str(ROOT), "--env-file", str(env_file)]
    # Nothing of this process's environment but where docker and its plugins are.
    clean = {name: os.environ[name] for name in ("PATH", "HOME", "DOCKER_CONFIG") if name in os.environ}
    read = subprocess.run(
        [*command, "config", "--format", "json"], env=clean, capture_output=True, check=True
    )
    services = json.loads(read.stdout)["services"]
    assert services["app1"]["environment"] == services["app2"]["environment"]
    assert (
        services["app1"]["environment"]["DATABASE_URL"]
        == "postgres://companion:abc123@postgres:5432/companion"
    )
    for name in SECRETS:
        env_file.write_text("".join(f"{n}={v}\n" for n, v in TEST_ENV.items() if n != name))
        refused = subprocess.run([*command, "config", "--quiet"], env=clean, capture_output=True)
        assert refused.returncode != 0
        assert f"required variable {name} is missing a value: set {name} in .env" in refused.stderr.decode()


DOCKERFILE = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")  # continued lines joined


def instructions(name: str) -> list[str]:
    return [line.split(None, 1)[1] for line in DOCKERFILE.splitlines() if line.startswith(f"{name} ")]


def test_the_image_is_pinned_runs_as_a_user_and_serves_as_make_run():
    bases = [line.split()[0] for line in instructions("FROM")]
    assert bases and all(re.fullmatch(r"python:3\.11\.\d+-slim-bookworm", base) for base in bases)
    final = DOCKERFILE.rsplit("\nFROM ", 1)[1]
    users = [line.split(None, 1)[1] for line in final.splitlines() if line.startswith("USER ")]
    assert users == ["10001:10001"]  # by number: Kubernetes' runAsNonRoot can check it
    assert "groupadd --system --gid 10001 companion" in final
    assert "useradd --system --uid 10001 --gid 10001" in final
    assert json.loads(instructions("CMD")[-1]) == ["gunicorn", "companion.asgi", "--bind", "0.0.0.0:8000"]
    assert json.loads(instructions("ENTRYPOINT")[-1]) == ["/app/deploy/entrypoint.sh"]
    build = " ".join(instructions("RUN"))
    for step in ("pip install -r requirements.txt", "manage.py compilemessages", "manage.py collectstatic"):
        assert step in build
    assert "postgresql-client" in final  # pg_dump and pg_restore for manage.py backup


def test_the_entrypoint_migrates_makes_the_first_account_then_runs_the_command():
    script = ROOT / "deploy" / "entrypoint.sh"
    assert script.stat().st_mode & 0o111  # executable, as the image's ENTRYPOINT runs it
    steps = [line for line in script.read_text().splitlines() if line and not line.startswith(("#", ":"))]
    assert steps == [
        "set -eu",
        'eval "$(python -m companion.selfhost.host_settings)"',
        "python manage.py migrate_once",
        "python manage.py ensure_account",
        'exec "$@"',
    ]


def test_the_image_leaves_out_the_checkouts_state_and_secrets():
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".venv", "db.sqlite3", ".secret_key", "staticfiles", "test-artifacts", ".git", ".env"} <= ignored


def test_the_readme_starts_deploying_with_docker_compose():
    readme = (ROOT / "README.md").read_text()
    assert "\n## Deploying on a PaaS\n" not in readme
    deploying = readme.split("\n## Deploying\n", 1)[1].split("\n## ", 1)[0]
    assert deploying.index("docker compose up -d") < deploying.index("Procfile")  # then the PaaS
    assert "(docs/self-hosting.md)" in deploying
