"""A table page's live region pushed in its event stream (issue 33): on an entry, each other
phone at the table gets the new region with the doorbell, instead of fetching it (a request, a
session read, the middleware and the table's queries each time, most of what a phone's update
cost the server).

The page asks for it (`?live=1` on the stream's address). The stream renders for the phone's
variant as it stood when the stream opened: its language, rights, seat and group, no step open;
the region is the one every phone of that variant shares (live_cache), filled with the phone's own
form key and CSRF token. The streams of one worker that wait for the same version of the same
variant wait for one render (a job), made in threads of the worker's own; the workers of one
server share it (live_share.py), and a stream learns its variant when it opens. The event names the
variant's fingerprint; a page showing another variant (a step open, a seat chosen since) fetches
its own as before (table.js). Where the region is a phone's own (its setup guide, its secret
notes) or the render fails, the event names the version alone and the page fetches.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from django.middleware.csrf import get_token
from django.utils import translation

from . import live_cache, live_share
from .db_reads import closed_if_broken
from .live_share import live_frame
from .models import Table
from .views import phone_part, phone_reads_group, shared_region

log = logging.getLogger(__name__)

# Renders run here, beside the event loop: threads that live as long as the worker keep their
# database connections (a request's thread, and its connection, end with the request).
_renderer = ThreadPoolExecutor(2, thread_name_prefix="live-push")
_jobs: dict[tuple, asyncio.Future] = {}  # (table, version, the phones' part): the render under way


def wanted(request) -> bool:
    return request.GET.get("live") == "1"


class Pusher:
    """What one stream knows of its phone to render its region: taken when the stream opens."""

    def __init__(self, request, table_id: str, rights: str):
        self.request, self.table_id, self.rights = request, table_id, rights
        self.language = translation.get_language()
        self.csrf_token = get_token(request)  # masked anew here; the phone's cookie holds the secret
        self.part: tuple | None = None  # what the phone brings to its variant (learn)

    async def learn(self) -> None:
        """The phone's part, learned when the stream opens: from the first entry on, the streams
        of one variant wait for one render (else each stream's first one was its own: after a
        restart, 1,500 phones' first entries queued up behind each other for seconds)."""
        try:
            self.part = await asyncio.get_running_loop().run_in_executor(_renderer, self._part)
        except Exception:
            log.warning("live push: table %s part not known (its first render is its own)", self.table_id)

    def _part(self) -> tuple | None:
        with self._reading():
            table = Table.objects.filter(pk=self.table_id).only("id", "group_id").first()
            return None if table is None else phone_part(self.request, table, self.rights)

    @contextlib.contextmanager
    def _reading(self):
        """In a render thread: the phone's language; a broken connection closed, so that the
        next job opens it afresh."""
        with translation.override(self.language), closed_if_broken():
            yield

    async def frame(self, version: int) -> bytes | None:
        """The event carrying the table's live region (at `version` or newer), or None when the
        phone must fetch it."""
        try:
            found = await asyncio.shield(self._job(version))
        except Exception:
            log.warning("live push: table %s not rendered (it is fetched)", self.table_id, exc_info=True)
            return None
        if found is None:
            return None
        self.part, text = found
        return live_cache.filled(text, self.csrf_token).encode()

    def _job(self, version: int) -> asyncio.Future:
        """The frame this stream waits for: one under way for its table, version and part, or a
        new one (a stream whose part is not known learns it from its render)."""
        key = (self.table_id, version, self.part)
        if self.part is not None and (job := _jobs.get(key)) is not None:
            return job
        job = asyncio.ensure_future(self._made(version))
        if self.part is not None:
            _jobs[key] = job
            job.add_done_callback(lambda _done: _jobs.pop(key, None))
        return job

    async def _made(self, version: int) -> tuple[tuple, str] | None:
        """(The phone's part, the frame) rendered by another worker of this server (live_share),
        or here."""
        folder = live_share.directory()
        if folder is None or self.part is None:
            return _part_and_frame(await self._rendered())
        fingerprint = live_cache.fingerprint(self.part)
        written = live_share.read(folder, self.table_id, fingerprint, version)
        if written is None and live_share.claim(folder, self.table_id, fingerprint, version):
            found = None
            try:
                found = await self._rendered()
            finally:  # written empty where nothing was rendered (the page fetches): nobody waits
                at, frame = (found[1], found[2]) if found else (version, "")
                live_share.write(folder, self.table_id, fingerprint, version, at, frame)
            return _part_and_frame(found)
        written = written or await self._written(folder, fingerprint, version)
        if written is None:  # its renderer never wrote it (stopped?): render it here
            return _part_and_frame(await self._rendered())
        return (self.part, written[1]) if written[1] else None

    async def _written(self, folder, fingerprint: str, version: int) -> tuple[int, str] | None:
        """The frame another worker renders, as soon as it is written, within WAIT_SECONDS."""
        deadline = time.monotonic() + live_share.WAIT_SECONDS
        while time.monotonic() < deadline:
            await asyncio.sleep(live_share.LOOK_SECONDS)
            if (written := live_share.read(folder, self.table_id, fingerprint, version)) is not None:
                return written
        return None

    async def _rendered(self):
        return await asyncio.get_running_loop().run_in_executor(_renderer, self._render)

    def _render(self) -> tuple[tuple, int, str] | None:
        """In a render thread: the phone's part, the version rendered and the event (placeholders
        in it), or None."""
        with self._reading():
            table = Table.objects.filter(pk=self.table_id).first()
            if table is None:
                return None
            found = shared_region(self.request, table, self.rights, phone_reads_group(self.request, table))
        if found is None:
            return None
        part, html = found
        return part, table.version, live_frame(table.version, live_cache.fingerprint(part), html)


def _part_and_frame(found: tuple[tuple, int, str] | None) -> tuple[tuple, str] | None:
    return None if found is None else (found[0], found[2])
