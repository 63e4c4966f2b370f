"""The app served as `make run` and the Procfile serve it (gunicorn with gunicorn.conf.py: uvicorn
workers, companion.asgi), started on the test database: for the races, the event streams, the
faults and the browser tests."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
SERVE = ["companion.asgi"]  # as the Procfile; the rest is gunicorn.conf.py's, read from ROOT


class Answer:
    def __init__(self, status: int, payload, headers=None):
        self.status = status
        self.payload = payload
        self.headers = headers


def http_call(port: int, method: str, path: str, body=None, token: str | None = None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        raw = response.read()
        is_json = response.getheader("Content-Type", "").startswith("application/json")
        return Answer(response.status, json.loads(raw) if is_json else raw, response.headers)
    finally:
        conn.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url_for_servers() -> str:
    """The database pytest-django created, as the app servers' DATABASE_URL."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Server:
    def __init__(self, proc: subprocess.Popen, port: int, log):
        self.proc, self.port, self.log = proc, port, log
        self.url = f"http://127.0.0.1:{port}"

    def output(self, last: int | None = 4000) -> str:
        self.log.seek(0)
        text = self.log.read().decode(errors="replace")
        return text if last is None else text[-last:]


def ensure_static_files() -> None:
    """The servers serve collected files (`make test` collects them first; a bare pytest may not)."""
    if not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
        command = [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"]
        subprocess.run(command, cwd=ROOT, check=True)


def server_environment(env: dict | None = None) -> dict:
    """The app servers' environment: the test database, a fixed secret, DEBUG off, `env` on top."""
    return {
        **os.environ,
        "DATABASE_URL": database_url_for_servers(),
        "SECRET_KEY": "test-servers-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "false",
        # Keep connections between requests: a fresh PostgreSQL backend per request would make up a
        # third of a two-server run's time. The servers are stopped before the database is dropped.
        "CONN_MAX_AGE": "60",
        # Every test client comes from 127.0.0.1; the limits have their own tests (test_security).
        "RATELIMIT_ENABLE": "false",
        **(env or {}),
    }


def start_server(extra: list[str], environment: dict, serve: list[str] = SERVE) -> Server:
    """One app server on a free port, started (not yet answering: wait_until_up)."""
    port = free_port()
    log = tempfile.TemporaryFile()
    command = [
        sys.executable, "-m", "gunicorn", *serve, "--bind", f"127.0.0.1:{port}",
        # No control socket: gunicorn.conf.py turns it off (two servers of one user shared its
        # path). Open event streams end at a stop.
        "--timeout", "60", "--graceful-timeout", "2",
        *extra,
    ]  # fmt: skip
    proc = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)
    return Server(proc, port, log)


def stop_server(server: Server) -> None:
    server.proc.terminate()
    wait_stopped(server)


def wait_stopped(server: Server) -> None:
    try:
        server.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait(timeout=5)


@contextlib.contextmanager
def app_servers(*extra_args_per_server: list[str], env: dict | None = None, serve: list[str] = SERVE):
    """Start one app server per argument list on the test database; stop them all in any case."""
    ensure_static_files()
    environment = server_environment(env)
    servers: list[Server] = []
    try:
        for extra in extra_args_per_server:
            servers.append(start_server(extra, environment, serve))
        for server in servers:
            wait_until_up(server)
        yield servers
    finally:
        for server in servers:
            server.proc.terminate()
        for server in servers:
            wait_stopped(server)
            server.log.close()


def wait_until_up(server: Server, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"the app server on {server.port} exited:\n{server.output()}")
        with contextlib.suppress(OSError):
            if http_call(server.port, "GET", "/api/v1/games").status == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the app server on {server.port} did not answer in {timeout} s:\n{server.output()}")


def run_apart(coroutine):
    """asyncio.run in a thread of its own: once the browser tests ran, Playwright's sync API keeps
    an event loop running in the test thread, where asyncio.run refuses to start another."""
    outcome = {}

    def run():
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
