"""How gunicorn.conf.py starts and stops a server (issue 41's audit), on real gunicorn servers:

- two servers of one user no longer share gunicorn's control socket (one path per user,
  $XDG_RUNTIME_DIR/gunicorn.ctl: stopping one removed the other's); the project uses none;
- a starting server accepts connections only once it can answer them: the master loads the app
  before it opens its socket (it accepted them ~1.5 s before its workers had loaded Django)."""

from __future__ import annotations

import contextlib
import http.client
import socket
import time

import pytest

from .servers import (
    app_servers,
    ensure_static_files,
    http_call,
    server_environment,
    start_server,
    stop_server,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_servers_of_one_user_keep_no_control_socket_to_take_from_each_other(tmp_path):
    # gunicorn's default path for this user: $XDG_RUNTIME_DIR/gunicorn.ctl.
    runtime = {"XDG_RUNTIME_DIR": str(tmp_path)}
    with app_servers(["--workers", "1"], ["--workers", "1"], env=runtime) as (first, second):
        assert list(tmp_path.iterdir()) == []
        stop_server(first)
        assert http_call(second.port, "GET", "/healthz").status == 200
        assert list(tmp_path.iterdir()) == []
        assert "Control socket" not in first.output(None) + second.output(None)


def seconds_until(probe, started: float, deadline: float) -> float:
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if probe():
                return time.monotonic() - started
        time.sleep(0.005)
    raise AssertionError("the server did not start in time")


def connects(port: int) -> bool:
    socket.create_connection(("127.0.0.1", port), timeout=0.05).close()
    return True


def answers(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    finally:
        connection.close()


def test_a_starting_server_accepts_connections_only_once_it_can_answer_them():
    """A connection made as soon as the socket accepts one is answered in a fraction of the time
    the server took to open it (before: ~0.15 s to accept, then ~1.4 s of silence)."""
    ensure_static_files()
    started = time.monotonic()
    server = start_server([], server_environment())  # the workers of production (WEB_CONCURRENCY)
    try:
        listening = seconds_until(lambda: connects(server.port), started, started + 60)
        answered = seconds_until(lambda: answers(server.port), started, started + 60)
    finally:
        stop_server(server)
        server.log.close()
    silent = answered - listening
    print(f"accepts connections after {listening:.2f} s, answers {silent:.2f} s later")
    assert silent < listening / 2, f"{silent:.2f} s silent after accepting at {listening:.2f} s"
