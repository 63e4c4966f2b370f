"""A table's event stream (Server-Sent Events): the page's EventSource hears "version N" within
milliseconds of a write, then fetches its live region as before (the poll view).

An async view, so that an open stream costs a queue on the worker's event loop, not a thread.
Same rights as the page: the phone's session must hold a grant for the table (a share link opened),
else 404 like an unknown table; the URL never holds a token.
"""

from __future__ import annotations

import asyncio
import time

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, StreamingHttpResponse
from django.views.decorators.http import require_GET

from . import access
from .fanout import hub

RETRY_MS = 2000  # how soon the browser reconnects after the stream drops (it adds its own backoff)


def frame(version: int) -> bytes:
    return f"id: {version}\nevent: version\ndata: {version}\n\n".encode()


@login_not_required
@require_GET
async def table_events(request, table_id: str):
    if access.session_rights(request, table_id) is None:
        raise Http404("No such table")
    version = (await hub.read_versions([table_id])).get(table_id)
    if version is None:
        raise Http404("No such table")
    response = StreamingHttpResponse(_events(table_id, version), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _events(table_id: str, version: int):
    """The current version at once (the page compares it with the one it shows), then each new
    one; a comment line every HEARTBEAT seconds keeps proxies and phones from closing an idle
    stream. After LIFETIME seconds the stream ends and the browser opens a new one, which checks
    the rights again."""
    heartbeat = settings.COMPANION_STREAM_HEARTBEAT
    end = time.monotonic() + settings.COMPANION_STREAM_LIFETIME
    queue = hub.watch(table_id, version)
    try:
        yield f"retry: {RETRY_MS}\n".encode() + frame(version)
        while (left := end - time.monotonic()) > 0:
            try:
                version = await asyncio.wait_for(queue.get(), min(heartbeat, left))
            except TimeoutError:
                yield b": still here\n\n"
                continue
            while not queue.empty():  # several writes at once: only the newest matters
                version = queue.get_nowait()
            yield frame(version)
    finally:
        hub.unwatch(table_id, queue)
