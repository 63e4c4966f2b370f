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
"""

import asyncio
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import build_environ
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")

THREADS = int(os.getenv("COMPANION_THREADS", "4"))  # synchronous requests at once, per worker
STREAM_SUFFIX = "/events/"
BODY_IN_MEMORY = 1 << 20  # bytes; a larger upload (a history import) goes to a temporary file


class PooledWSGI:
    """A WSGI application served to ASGI: body first, one pooled thread, the answer whole.

    The answers here are pages and JSON of a few kB and static files of a few hundred at most, so
    holding one whole costs nothing worth streaming it for. A client gone before its body arrived
    reaches no view (a half body is never handed to Django as a whole one)."""

    def __init__(self, app, threads: int):
        self.app = app
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="view")

    async def __call__(self, scope, receive, send):
        with tempfile.SpooledTemporaryFile(max_size=BODY_IN_MEMORY) as body:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body.write(message.get("body", b""))
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


streams = get_asgi_application()
pages = PooledWSGI(get_wsgi_application(), THREADS)


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["path"].endswith(STREAM_SUFFIX):
        await streams(scope, receive, send)
    elif scope["type"] == "http":
        await pages(scope, receive, send)
    elif scope["type"] == "lifespan":
        await lifespan(receive, send)


async def lifespan(receive, send):
    """Nothing to set up at start: the fan-out listener starts with the first stream."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
