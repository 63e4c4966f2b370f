"""Every body bounded at the door (issue 41), against a real app server: a 100 MB chunked body
sent slowly to each kind of path is answered 413 before much of it could have been read. A path
that takes no body (an event stream, any GET) refuses one as soon as the headers say it comes; a
path that takes one reads at most its limit. The audit sent 300 MB to /nothing/here/events/ and
400 MB to /t/<id>/events/, which Django's own handler spooled to disk before answering."""

from __future__ import annotations

import http.client
import io
import json
import select
import socket
import time

import pytest

from .servers import app_servers, http_call

pytestmark = pytest.mark.django_db(transaction=True)

MB = 1024 * 1024
CHUNK = 64 * 1024
TOTAL = 100 * MB
PACE = 0.005  # seconds between chunks: 12.8 MB/s, so a slow answer would let megabytes through


def post_chunked(port: int, path: str, content_type: str = "application/json", method: str = "POST"):
    """Send up to TOTAL bytes as a chunked body, a chunk every PACE seconds, until the answer
    comes: (status, answer's body, bytes of body sent before it came)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, CHUNK)
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    sock.sendall(head.encode())
    frame = b"%x\r\n" % CHUNK + b"x" * CHUNK + b"\r\n"
    sent, answer = 0, b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            readable, _, _ = select.select([sock], [], [], PACE)
            if readable:
                answer = read_answer(sock)
                break
            if sent < TOTAL:
                try:
                    sock.sendall(frame)
                except (BrokenPipeError, ConnectionResetError):
                    answer = read_answer(sock)
                    break
                sent += CHUNK
        response = http.client.HTTPResponse(FakeSocket(answer))
        response.begin()
        return response.status, response.read(), sent
    finally:
        sock.close()


def read_answer(sock: socket.socket) -> bytes:
    sock.settimeout(5)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return data


class FakeSocket:
    def __init__(self, data: bytes):
        self.data = data

    def makefile(self, *args, **kwargs):
        return io.BytesIO(self.data)


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), app_servers(["--workers", "1"]) as (one,):
        yield one


NO_BODY = "This address takes no request body: nothing was read."


@pytest.mark.parametrize("path", ["/nothing/here/events/", "/t/abc123/events/", "/t/abc123/events/?live=1"])
def test_an_event_stream_path_refuses_a_body_before_reading_any(server, path):
    status, body, sent = post_chunked(server.port, path)
    assert status == 413 and sent < 1 * MB, (status, sent)
    assert body.decode() == NO_BODY


def test_the_api_says_it_in_its_error_shape(server):
    status, body, sent = post_chunked(server.port, "/api/v1/events/")
    assert status == 413 and sent < 1 * MB, (status, sent)
    assert json.loads(body) == {"error": {"code": "too_large", "message": NO_BODY, "rule": None}}


@pytest.mark.parametrize("path", ["/", "/t/abc123/", "/api/v1/games", "/static/css/app.css", "/g/default/"])
def test_a_get_with_a_body_is_refused_before_it_is_read(server, path):
    status, _body, sent = post_chunked(server.port, path, method="GET")
    assert status == 413 and sent < 1 * MB, (path, status, sent)


@pytest.mark.parametrize(
    ("path", "content_type", "limit"),
    [
        ("/api/v1/tables", "application/json", 256 * 1024),  # the API
        ("/t/abc123/act/", "application/x-www-form-urlencoded", 256 * 1024),  # a page's form
        ("/nothing/here/", "application/x-www-form-urlencoded", 256 * 1024),  # no such page
        ("/g/default/history/import/", "multipart/form-data; boundary=x", 10 * MB),  # a file upload
        ("/api/v1/groups/default/imports", "application/json", 20 * MB),  # the API's import
    ],
)
def test_a_path_that_takes_a_body_reads_no_more_than_its_limit(server, path, content_type, limit):
    status, _body, sent = post_chunked(server.port, path, content_type)
    assert status == 413 and sent < limit + 1 * MB, (path, status, sent)


def test_the_worker_serves_on_after_the_refusals(server):
    assert http_call(server.port, "GET", "/api/v1/games").status == 200


@pytest.mark.parametrize("declared", ["²", "9" * 5000, "-1"])
def test_a_length_no_body_could_have_is_no_500_under_the_wsgi_handler(client, declared):
    """CompleteBodyMiddleware reads CONTENT_LENGTH as it comes (uvicorn's parser refuses these
    first; Django's WSGI handler does not)."""
    answer = client.post("/api/v1/tables", b"{}", content_type="application/json", CONTENT_LENGTH=declared)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"
    page = client.post("/groups/new/", {"name": "Club"}, CONTENT_LENGTH=declared)
    assert page.status_code == 400
