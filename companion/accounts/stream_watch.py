"""The event streams of signed-in sessions, ended when their login ends (issue 41).

A stream outlives the request that checked its session: a phone signed out elsewhere (a logout, a
password change, "sign out everywhere", an operator's `manage.py signout`) would go on hearing its
table until the stream's lifetime. Each process checks the logins of its open streams every
COMPANION_SESSION_RECHECK seconds, in one query whatever their number, and tells each stream whose
login no longer counts: it ends (tables/stream.py), and its page reloads without the grants the
session held (a table's page then answers 404, as to any phone that never opened its link).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

from companion.tables.db_reads import closed_if_broken

from .sessions import LOGIN_KEY

log = logging.getLogger(__name__)

SIGNED_OUT = "signed-out"  # what a stream's queue gets when its session's login has ended


class SignedInStreams:
    def __init__(self):
        self.queues: dict[str, set[asyncio.Queue]] = {}  # by login key
        self.task: asyncio.Task | None = None
        self.reader = ThreadPoolExecutor(1, thread_name_prefix="login-watch")

    def watch(self, session, queue: asyncio.Queue) -> str | None:
        """Watch a stream's queue if its (already loaded) session is signed in; its login's key."""
        watched = session.get(LOGIN_KEY)
        if not watched:
            return None
        self.queues.setdefault(watched, set()).add(queue)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())
        return watched

    def unwatch(self, watched: str | None, queue: asyncio.Queue) -> None:
        if watched is None:
            return
        queues = self.queues.get(watched, set())
        queues.discard(queue)
        if not queues:
            self.queues.pop(watched, None)

    async def _run(self) -> None:
        while self.queues:
            await asyncio.sleep(settings.COMPANION_SESSION_RECHECK)
            watched = list(self.queues)
            try:
                alive = await asyncio.get_running_loop().run_in_executor(self.reader, logins_alive, watched)
            except Exception:
                log.warning("The signed-in streams' logins could not be checked; tried again", exc_info=True)
                continue
            for ended in set(watched) - alive:
                for queue in self.queues.pop(ended, set()):
                    queue.put_nowait(SIGNED_OUT)


def logins_alive(keys: list[str]) -> set[str]:
    """Of these logins' keys, those whose login still counts."""
    from .models import Login

    with closed_if_broken():
        return set(Login.objects.counting().filter(pk__in=keys).values_list("pk", flat=True))


signed_in_streams = SignedInStreams()
