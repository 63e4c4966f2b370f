"""How the app is served on the internet (issue 28), against real app servers started with
gunicorn.conf.py as `make run` and the Procfile start them: whose address a request comes from,
bodies over the limit, and the JSON API's error shape for what Django answers itself."""

from __future__ import annotations

import http.client
import json
import socket
import time
from pathlib import Path

import pytest

from .servers import ROOT, app_servers, http_call

pytestmark = pytest.mark.django_db(transaction=True)

LIMITED = {"RATELIMIT_ENABLE": "true", "RATELIMIT_TABLES": "5/h"}
TABLE = {"game": "hang-four", "players": ["Ann", "Ben"]}


def create_from(port: int, forwarded_for: str | None) -> int:
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    return http_call(port, "POST", "/api/v1/tables", TABLE, headers=headers).status


def test_make_run_and_the_procfile_leave_the_serving_to_gunicorn_conf():
    """Every start reads gunicorn.conf.py; none names proxies of its own (make run named '*')."""
    makefile, procfile = (ROOT / "Makefile").read_text(), (ROOT / "Procfile").read_text()
    for text in (makefile, procfile):
        assert "forwarded-allow-ips" not in text and "gunicorn companion.asgi --bind" in text
    config: dict = {}
    exec(Path(ROOT / "gunicorn.conf.py").read_text(), config)  # noqa: S102 - our own file
    assert config["forwarded_allow_ips"] == "" and config["worker_class"] == "uvicorn_worker.UvicornWorker"


def test_by_default_nobody_chooses_the_address_its_limits_count(django_db_blocker):
    """Without FORWARDED_ALLOW_IPS, X-Forwarded-For is not believed: five tables an hour from
    this address, however the header changes (the audit dodged the limits with it)."""
    with django_db_blocker.unblock(), app_servers(["--workers", "1"], env=LIMITED) as (server,):
        statuses = [create_from(server.port, f"203.0.113.{n}") for n in range(7)]
    assert statuses == [201] * 5 + [429] * 2


def test_behind_a_named_proxy_each_client_counts_and_no_header_fails_a_request(django_db_blocker):
    """With the proxy named (here the tests' own address), the client is the first address from
    the right that is not a named proxy: a client cannot prepend its way out of its limit, and a
    list, a missing header or garbage is answered, never a 500."""
    env = {**LIMITED, "FORWARDED_ALLOW_IPS": "127.0.0.1"}
    with django_db_blocker.unblock(), app_servers(["--workers", "1"], env=env) as (server,):
        port = server.port
        # Two clients behind the proxy count apart.
        assert [create_from(port, "198.51.100.7") for _ in range(6)] == [201] * 5 + [429]
        assert create_from(port, "198.51.100.8") == 201
        # A client that writes its own X-Forwarded-For gets the proxy's address appended: it stays
        # the client the proxy saw.
        assert create_from(port, "1.2.3.4, 198.51.100.7") == 429
        assert create_from(port, "10.9.8.7, 1.2.3.4, 198.51.100.7") == 429
        # No header: the proxy itself; garbage, or an address with a port: answered all the same.
        answers = [
            create_from(port, value) for value in (None, "garbage", "not an ip, at all", "[::1]:80", "")
        ]
        assert 500 not in answers and set(answers) <= {201, 429}, answers
        assert [create_from(port, "garbage") for _ in range(5)][-1] == 429  # garbage counts too


def raw_request(port: int, head: str, body: bytes = b"", wait: float = 5.0) -> tuple[int, bytes, float]:
    """Send a request's head (and what of its body is given), read the answer: (status, body,
    seconds until the answer began)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        started = time.monotonic()
        sock.sendall(head.encode() + body)
        response = http.client.HTTPResponse(sock)
        response.begin()
        began = time.monotonic() - started
        return response.status, response.read(), began


def test_a_body_over_the_limit_is_refused_before_it_is_read(django_db_blocker):
    with django_db_blocker.unblock(), app_servers(["--workers", "1"]) as (server,):
        port = server.port
        # 50 MB announced, 10 bytes sent: the answer comes at once, without waiting for the rest.
        head = (
            "POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Accept-Language: fr\r\nContent-Length: 52428800\r\n\r\n"
        )
        status, body, began = raw_request(port, head, b'{"game": "')
        assert status == 413 and began < 2.0
        assert json.loads(body) == {
            "error": {
                "code": "too_large",
                "message": "La demande dépasse 256 KB : rien n'a été saisi.",
                "rule": None,
            }
        }
        # A chunked body that never says its length is cut at the limit.
        head = (
            "POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * 65536
        chunks = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(5))
        status, body, _ = raw_request(port, head, chunks)
        assert status == 413 and json.loads(body)["error"]["code"] == "too_large"
        # A file upload may be larger than a form, up to its own limit (the history import).
        head = (
            "POST /g/default/history/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 20971520\r\n\r\n"
        )
        status, body, began = raw_request(port, head)
        assert status == 413 and body.decode() == "The request is larger than 10 MB: nothing was entered."
        assert http_call(port, "GET", "/api/v1/games").status == 200  # the worker serves on


def test_the_api_answers_its_error_shape_for_what_django_answers_itself(django_db_blocker):
    with django_db_blocker.unblock(), app_servers(["--workers", "1"]) as (server,):
        missing = http_call(server.port, "GET", "/api/v1/no-such-route")
        page = http_call(server.port, "GET", "/no-such-page/")
    assert missing.status == 404 and missing.payload == {
        "error": {"code": "not_found", "message": "There is no such address in the API.", "rule": None}
    }
    assert page.status == 404 and page.headers["Content-Type"].startswith("text/html")
