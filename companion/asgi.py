"""The ASGI application that gunicorn's uvicorn workers serve (`make run`, the Procfile, the tests).

ASGI is here for the table's event stream (companion/tables/stream.py): one worker holds hundreds
of open streams on its event loop. Every other request runs Django's ordinary synchronous stack
in a fixed pool of threads (a2wsgi), as gunicorn's --threads did: Django's own ASGI handler made a
write about 1.6x slower (docs/performance.md), since it starts a new thread, and with it a new
database connection, for every request, and moves each classic middleware's hooks to a thread and
back (about 19 hops per request).
"""

import os

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")

THREADS = int(os.getenv("COMPANION_THREADS", "4"))  # synchronous requests at once, per worker
STREAM_SUFFIX = "/events/"

streams = get_asgi_application()
pages = WSGIMiddleware(get_wsgi_application(), workers=THREADS)


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
