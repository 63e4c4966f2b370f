"""The ASGI application that gunicorn's uvicorn workers serve (`make run`, the Procfile, the tests).

ASGI is here for the table's event stream (companion/tables/stream.py): one worker holds hundreds
of open streams on its event loop. Every other request runs Django's ordinary synchronous stack
on a fixed pool of threads, as gunicorn's --threads did. Measured on a write (docs/performance.md):

- Django's own ASGI handler made a write about 1.6x slower: it starts a new thread, and with it a
  new database connection, for every request, and moves each classic middleware's hooks to a
  thread and back (about 19 hops per request);
- a2wsgi's WSGI-in-ASGI bridge cost ~0.5 ms per request: the thread reads the body and sends each
  part of the answer through the event loop, one round trip each (four per write);
- here the body is read on the loop, the request runs in one pooled thread, and the answer comes
  back whole: one round trip. a2wsgi still builds the WSGI environ from the ASGI scope.

A body over its limit is answered 413 before it is read (issue 28: any body was spooled to disk
first): settings.MAX_BODY_BYTES for a form or JSON, settings.MAX_UPLOAD_BYTES for a file upload
(multipart, the history import), settings.MAX_IMPORT_BODY_BYTES for the API's imports (a file in
JSON). The API gets its JSON error shape. A request that takes no body (a GET or a HEAD, and any
request to an event stream, which Django's own handler would read whole first: issue 41) is
answered 413 as soon as its headers announce one, before a byte of it is read.
"""

import asyncio
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor

import orjson
from a2wsgi.wsgi import build_environ
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from companion import errors
from companion.acyclic import WSGIHandlerWithoutCycles

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")

THREADS = int(os.getenv("COMPANION_THREADS", "4"))  # synchronous requests at once, per worker
STREAM_SUFFIX = "/events/"
BODY_IN_MEMORY = 1 << 20  # bytes; a larger upload (a history import) goes to a temporary file
IMPORTS = re.compile(r"/api/v1/groups/[^/]+/imports")


class PooledWSGI:
    """A WSGI application served to ASGI: body first, one pooled thread, the answer whole.

    The answers here are pages and JSON of a few kB and static files of a few hundred at most, so
    holding one whole costs nothing worth streaming it for. A client gone before its body arrived
    reaches no view (a half body is never handed to Django as a whole one)."""

    def __init__(self, app, threads: int):
        self.app = app
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="view")

    async def __call__(self, scope, receive, send):
        headers = dict(scope["headers"])
        limit = body_limit(scope["path"], headers.get(b"content-type", b""))
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and (len(declared) > 18 or int(declared) > limit):  # 19 digits: past any
            await send_too_large(scope, headers, send, limit)
            return
        with tempfile.SpooledTemporaryFile(max_size=BODY_IN_MEMORY) as body:
            received = 0
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                received += len(chunk)
                if received > limit:  # a chunked body, or one longer than it said
                    await send_too_large(scope, headers, send, limit)
                    return
                body.write(chunk)
                if not message.get("more_body"):
                    break
            body.seek(0)
            environ = build_environ(scope, body)
            loop = asyncio.get_running_loop()
            status, headers, content = await loop.run_in_executor(self.pool, self.run, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def run(self, environ) -> tuple[int, list, bytes]:
        started = []

        def start_response(status, headers, exc_info=None):
            encoded = [(name.lower().encode("latin1"), value.encode("latin1")) for name, value in headers]
            started[:] = [int(status.split(" ", 1)[0]), encoded]
            return parts.append  # WSGI's write(), which nothing here uses

        parts: list[bytes] = []
        answer = self.app(environ, start_response)
        try:
            parts.extend(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()  # Django's request_finished: database connections looked after
        return started[0], started[1], b"".join(parts)


def body_limit(path: str, content_type: bytes) -> int:
    if content_type.startswith(b"multipart/form-data"):
        return settings.MAX_UPLOAD_BYTES
    if IMPORTS.fullmatch(path):
        return settings.MAX_IMPORT_BODY_BYTES
    return settings.MAX_BODY_BYTES


async def send_too_large(scope, headers: dict, send, limit: int) -> None:
    """413 in the request's language: the API's error shape, or a sentence for a page."""
    accepted = [code for code, _ in parse_accept_lang_header(headers.get(b"accept-language", b"").decode())]
    language = next((code[:2] for code in accepted if code[:2] in dict(settings.LANGUAGES)), "en")
    with translation.override(language):
        code, message = errors.too_large_body(limit)
    if errors.is_api(scope["path"]):
        content = orjson.dumps({"error": {"code": code, "message": message, "rule": None}})
        kind = b"application/json"
    else:
        content, kind = message.encode(), b"text/plain; charset=utf-8"
    # The body is left unread: the connection closes after the answer.
    answer_headers = [(b"content-type", kind), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": 413, "headers": answer_headers})
    await send({"type": "http.response.body", "body": content})


streams = get_asgi_application()  # sets Django up
pages = PooledWSGI(WSGIHandlerWithoutCycles(), THREADS)


async def application(scope, receive, send):
    if scope["type"] == "http":
        stream = scope["path"].endswith(STREAM_SUFFIX)
        if (stream or scope["method"] in BODILESS_METHODS) and announces_body(scope):
            await send_too_large(scope, dict(scope["headers"]), send, 0)
        elif stream:
            await streams(scope, receive, send)
        else:
            await pages(scope, receive, send)
    elif scope["type"] == "lifespan":
        await lifespan(receive, send)


BODILESS_METHODS = frozenset({"GET", "HEAD"})  # no view here reads a body they might carry


def announces_body(scope) -> bool:
    """The request's headers say a body follows: a length above 0, or any transfer coding."""
    headers = dict(scope["headers"])
    declared = headers.get(b"content-length", b"0").strip()
    return (
        b"transfer-encoding" in headers or not declared.isdigit() or len(declared) > 18 or int(declared) > 0
    )


async def lifespan(receive, send):
    """Nothing to set up at start: the fan-out listener starts with the first stream."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
