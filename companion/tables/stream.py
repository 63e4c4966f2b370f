"""A table's event stream (Server-Sent Events): the page's EventSource hears "version N" within
milliseconds of a write, then fetches its live region (the poll view); a table page's stream
sends the live region itself instead where it can (live_push.py, issue 33). When the worker's
fan-out loses its backend (fanout.py), the stream says "fanout: down" and the page polls, marked as
not live, until "fanout: up" (issue 28: pages said "Live" and stayed stale). A phone that accepts
gzip gets each event gzipped as it goes (stream_gzip.py, issue 45).

An async view, so that an open stream costs a queue on the worker's event loop, not a thread.
Same rights as the page: the phone's session must hold a grant for the table (a share link opened),
else 404 like an unknown table; the URL never holds a token.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections import Counter

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, QueryDict, StreamingHttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from companion import errors, tokens
from companion.accounts.stream_watch import SIGNED_OUT, signed_in_streams

from . import access, live_push, stream_gzip
from .fanout import DOWN, UP, Renewed, hub
from .limits import client_address

RETRY_MS = 2000  # how soon the browser reconnects after the stream drops (it adds its own backoff)
# The last event of a stream whose phone lost its rights (issue 41): the page reloads, and says why.
RENEWED_FRAME = b"event: renewed\ndata: links\n\n"
SIGNED_OUT_FRAME = b"event: renewed\ndata: signed-out\n\n"


def frame(version: int) -> bytes:
    return f"id: {version}\nevent: version\ndata: {version}\n\n".encode()


def fanout_frame(state: str) -> bytes:
    return f"event: fanout\ndata: {state}\n\n".encode()


@login_not_required
@require_GET
async def table_events(request, table_id: str):
    held = await access.asession_grant(request, table_id)  # a signed-in session: its login checked
    if held is None:
        raise Http404("No such table")
    marks = (await hub.read_marks([table_id])).get(table_id)
    if marks is None:
        raise Http404("No such table")
    version, links = marks
    rights = tokens.granted(held, links)
    if rights is None:
        raise errors.LinksRenewed("table")
    held = stream_bound.take(client_address(None, request))
    if held is None:
        return errors.api_error(429, "too_many_streams", _("Too many live tables open from this address."))
    pushed = live_push.wanted(request)
    # What the stream renders is what the page shows: no step open, whatever else its address says
    # (issue 41: each extra query parameter made a render of its own).
    request.GET, request.META["QUERY_STRING"] = QueryDict(), ""
    pusher = live_push.Pusher(request, table_id, rights) if pushed else None
    events = _events(table_id, version, pusher, links, request.session, held)
    gzipped = stream_gzip.wanted(request)
    body = stream_gzip.gzipped(events) if gzipped else events
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    if gzipped:  # each event decodable on arrival (stream_gzip.py; issue 45)
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    # A stream that never started is given back when its response closes, or, when Django never
    # closes it (a phone gone while the answer was on its way), when its events are collected.
    response._resource_closers.append(held.release)
    weakref.finalize(events, held.release)
    return response


class StreamBound:
    """Open streams per client address, in this worker (settings.COMPANION_STREAMS_PER_ADDRESS; 0:
    no bound): one address cannot hold the worker's event loop and memory with thousands."""

    def __init__(self):
        self.open: Counter[str] = Counter()
        self.lock = threading.Lock()  # Django closes a response in a thread of its own

    def take(self, address: str) -> Held | None:
        bound = settings.COMPANION_STREAMS_PER_ADDRESS
        with self.lock:
            if bound and self.open[address] >= bound:
                return None
            self.open[address] += 1
        return Held(self, address)

    def give_back(self, address: str) -> None:
        with self.lock:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]


class Held:
    """One stream's place, given back once: when its events end (a phone gone: Django cancels the
    response and never closes it) or when its response closes (a stream that never started)."""

    def __init__(self, bound: StreamBound, address: str):
        self.bound, self.address, self.given_back = bound, address, False

    def release(self) -> None:
        with self.bound.lock:
            if self.given_back:
                return
            self.given_back = True
        self.bound.give_back(self.address)


stream_bound = StreamBound()


async def _events(
    table_id: str, version: int, pusher: live_push.Pusher | None = None, links=0, session=None, held=None
):
    """The current version at once (the page compares it with the one it shows), then each new
    one; a comment line every HEARTBEAT seconds keeps proxies and phones from closing an idle
    stream. After LIFETIME seconds the stream ends and the browser opens a new one, which checks
    the rights again; it ends at once when the table's links are renewed (issue 41) or, for a
    signed-in phone, soon after its login ends (accounts/stream_watch.py)."""
    heartbeat = settings.COMPANION_STREAM_HEARTBEAT
    end = time.monotonic() + settings.COMPANION_STREAM_LIFETIME
    queue = hub.watch(table_id, version, links)
    login = signed_in_streams.watch(session, queue) if session is not None else None
    try:
        yield f"retry: {RETRY_MS}\n".encode() + frame(version) + (b"" if hub.live else fanout_frame(DOWN))
        # What changed between the view's read and the watch (a renewal heard by no stream of this
        # worker yet): read once more, now that the queue hears everything after. After the first
        # event, which the page waits for (table.js HELD_MS).
        marks = (await hub.read_marks([table_id])).get(table_id)
        if marks is None or marks[1] != links:
            yield RENEWED_FRAME
            return
        hub.publish(table_id, *marks)
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
            if (last := _last_frame(items, links)) is not None:
                yield last
                return
            yield await _frames(items, pusher)
    finally:
        hub.unwatch(table_id, queue)
        signed_in_streams.unwatch(login, queue)
        if held is not None:
            held.release()


def _last_frame(items: list, links: int) -> bytes | None:
    """The frame that ends the stream, when its phone no longer holds the table."""
    if SIGNED_OUT in items:
        return SIGNED_OUT_FRAME
    if any(isinstance(item, Renewed) and item != links for item in items):
        return RENEWED_FRAME
    return None


async def _frames(items: list, pusher: live_push.Pusher | None) -> bytes:
    """The fan-out's last change of state if any, and the newest version among the items: the live
    region itself where the page asked for it and it could be rendered, else the version alone."""
    versions = [item for item in items if type(item) is int]  # not a Renewed generation
    states = [item for item in items if item in (DOWN, UP)]
    out = fanout_frame(states[-1]) if states else b""
    if not versions:
        return out
    pushed = await pusher.frame(max(versions)) if pusher is not None else None
    return out + (pushed or frame(max(versions)))
