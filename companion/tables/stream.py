"""A table's event stream (Server-Sent Events): the page's EventSource hears "version N" within
milliseconds of a write, then fetches its live region (the poll view); a table page's stream
sends the live region itself instead where it can (live_push.py, issue 33). When the worker's
fan-out loses its backend (fanout.py), the stream says "fanout: down" and the page polls, marked as
not live, until "fanout: up" (issue 28: pages said "Live" and stayed stale).

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

from . import access, live_push
from .fanout import DOWN, UP, hub

RETRY_MS = 2000  # how soon the browser reconnects after the stream drops (it adds its own backoff)


def frame(version: int) -> bytes:
    return f"id: {version}\nevent: version\ndata: {version}\n\n".encode()


def fanout_frame(state: str) -> bytes:
    return f"event: fanout\ndata: {state}\n\n".encode()


@login_not_required
@require_GET
async def table_events(request, table_id: str):
    rights = access.session_rights(request, table_id)
    if rights is None:
        raise Http404("No such table")
    version = (await hub.read_versions([table_id])).get(table_id)
    if version is None:
        raise Http404("No such table")
    pusher = live_push.Pusher(request, table_id, rights) if live_push.wanted(request) else None
    response = StreamingHttpResponse(_events(table_id, version, pusher), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _events(table_id: str, version: int, pusher: live_push.Pusher | None = None):
    """The current version at once (the page compares it with the one it shows), then each new
    one; a comment line every HEARTBEAT seconds keeps proxies and phones from closing an idle
    stream. After LIFETIME seconds the stream ends and the browser opens a new one, which checks
    the rights again."""
    heartbeat = settings.COMPANION_STREAM_HEARTBEAT
    end = time.monotonic() + settings.COMPANION_STREAM_LIFETIME
    queue = hub.watch(table_id, version)
    try:
        yield f"retry: {RETRY_MS}\n".encode() + frame(version) + (b"" if hub.live else fanout_frame(DOWN))
        if pusher is not None:  # after the first event, which the page waits for (table.js HELD_MS)
            await pusher.learn()
        while (left := end - time.monotonic()) > 0:
            try:
                items = [await asyncio.wait_for(queue.get(), min(heartbeat, left))]
            except TimeoutError:
                yield b": still here\n\n"
                continue
            while not queue.empty():  # several writes at once: only the newest matters
                items.append(queue.get_nowait())
            yield await _frames(items, pusher)
    finally:
        hub.unwatch(table_id, queue)


async def _frames(items: list, pusher: live_push.Pusher | None) -> bytes:
    """The fan-out's last change of state if any, and the newest version among the items: the live
    region itself where the page asked for it and it could be rendered, else the version alone."""
    versions = [item for item in items if isinstance(item, int)]
    states = [item for item in items if item in (DOWN, UP)]
    out = fanout_frame(states[-1]) if states else b""
    if not versions:
        return out
    pushed = await pusher.frame(max(versions)) if pusher is not None else None
    return out + (pushed or frame(max(versions)))
