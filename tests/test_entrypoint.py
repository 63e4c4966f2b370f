"""The app container's start, without Docker (issue 41): deploy/entrypoint.sh run with compose.yaml's
environment for an app server and the Dockerfile's command, on the test database and the machine's
Redis. What `docker compose up` gives each app server: its host settings from COMPANION_HOST, the
migrations, the first account, and a private server that this account logs in to."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
from email.message import Message
from pathlib import Path
from urllib.parse import urlencode

import pytest

from companion.selfhost.host_settings import exports, host_settings

from .servers import ROOT, Server, free_port, server_environment, stop_server, wait_until_up
from .test_deploy_files import TEST_ENV, environment, instructions

ENTRYPOINT = str(ROOT / "deploy" / "entrypoint.sh")


@pytest.mark.parametrize(
    ("companion_host", "expected"),
    [
        (
            "companion.example.org",
            {
                "ALLOWED_HOSTS": "companion.example.org,localhost,127.0.0.1",
                "CSRF_TRUSTED_ORIGINS": "https://companion.example.org",
                "SECURE_COOKIES": "true",
            },
        ),
        (
            "https://club.example.org:8443",
            {
                "ALLOWED_HOSTS": "club.example.org,localhost,127.0.0.1",
                "CSRF_TRUSTED_ORIGINS": "https://club.example.org:8443",
                "SECURE_COOKIES": "true",
            },
        ),
        (":80", {"ALLOWED_HOSTS": "*", "SECURE_COOKIES": "false"}),
        ("http://club.lan", {"ALLOWED_HOSTS": "club.lan,localhost,127.0.0.1", "SECURE_COOKIES": "false"}),
        (
            "a.example.org, b.example.org",
            {
                "ALLOWED_HOSTS": "a.example.org,b.example.org,localhost,127.0.0.1",
                "CSRF_TRUSTED_ORIGINS": "https://a.example.org,https://b.example.org",
                "SECURE_COOKIES": "true",
            },
        ),
        ("", {}),
    ],
)
def test_the_host_settings_of_each_kind_of_address(companion_host, expected):
    assert host_settings(companion_host) == expected


def test_a_host_setting_given_outright_is_kept():
    given = {"COMPANION_HOST": "companion.example.org", "ALLOWED_HOSTS": "companion.example.org"}
    assert exports(given) == (
        "export SECURE_COOKIES=true\nexport CSRF_TRUSTED_ORIGINS=https://companion.example.org\n"
    )
    assert exports({"COMPANION_HOST": ":80"}) == "export ALLOWED_HOSTS='*'\nexport SECURE_COOKIES=false\n"


def container_environment(**changes: str) -> dict[str, str]:
    """compose.yaml's environment for app1 (.env's values from TEST_ENV) on this machine's
    services, and nothing else but the image's PATH (its python and gunicorn: the venv's)."""
    env = environment("app1") | {
        "DATABASE_URL": server_environment()["DATABASE_URL"],
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
        "PYTHONUNBUFFERED": "1",  # as the image sets it
    }
    env |= changes
    return {name: value for name, value in env.items() if value is not None}


def start_container(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", ENTRYPOINT, *command], cwd=ROOT, env=env, capture_output=True, timeout=120)


class Browser:
    """Requests to one server with the cookies it set, as a phone's browser would send them."""

    def __init__(self, port: int, host: str):
        self.port, self.host, self.cookies, self.secure = port, host, {}, set()

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, Message, str]:
        headers = {"Host": self.host}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, value = cookie.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
            if "; Secure" in cookie:
                self.secure.add(name)
        return response.status, response.headers, text


@pytest.mark.django_db(transaction=True)
def test_the_container_starts_a_private_server_its_first_account_logs_in_to():
    port = free_port()
    command = json.loads(instructions("CMD")[-1])  # gunicorn companion.asgi --bind 0.0.0.0:8000
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        ["sh", ENTRYPOINT, *command],
        cwd=ROOT,
        env=container_environment(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = Server(proc, port, log)
    try:
        wait_until_up(server, timeout=120)
        started = server.output(None)
        assert "No migrations to apply." in started
        assert "Made the account 'ann' (superuser): log in with it at /accounts/login/." in started
        assert TEST_ENV["COMPANION_ADMIN_PASSWORD"] not in started
        phone = Browser(port, "companion.example.org")
        status, _, health = phone.request("GET", "/healthz")
        assert (status, json.loads(health)) == (200, {"database": "ok", "cache": "ok", "migrations": "ok"})
        assert Browser(port, "elsewhere.example.org").request("GET", "/healthz")[0] == 400  # ALLOWED_HOSTS
        status, headers, _ = phone.request("GET", "/")
        assert (status, headers["Location"]) == (302, "/accounts/login/?next=/")  # login required
        page = phone.request("GET", "/accounts/login/")[2]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        form = {
            "csrfmiddlewaretoken": token,
            "username": "ann",
            "password": TEST_ENV["COMPANION_ADMIN_PASSWORD"],
        }
        status, headers, _ = phone.request("POST", "/accounts/login/", form)
        assert (status, headers["Location"]) == (302, "/")
        assert phone.request("GET", "/")[0] == 200
        assert {"sessionid", "csrftoken"} <= phone.secure  # HTTPS only: COMPANION_HOST is a host name
    finally:
        stop_server(server)
        log.close()


@pytest.mark.django_db(transaction=True)
def test_the_container_stops_at_its_start_on_a_missing_secret_or_a_refused_password():
    no_key = start_container(["echo", "served"], container_environment(SECRET_KEY=None))
    assert no_key.returncode != 0 and no_key.stdout == b""
    assert b"SECRET_KEY: is not set: put one in .env (docs/self-hosting.md)" in no_key.stderr
    short = start_container(["echo", "served"], container_environment(COMPANION_ADMIN_PASSWORD="too short"))
    assert short.returncode == 1 and b"served" not in short.stdout
    assert b"The first account's password is refused: This password is too short." in short.stderr


def test_the_entrypoint_is_the_images():
    assert os.access(ENTRYPOINT, os.X_OK)
    assert json.loads(instructions("ENTRYPOINT")[-1]) == ["/app/" + str(Path(ENTRYPOINT).relative_to(ROOT))]
