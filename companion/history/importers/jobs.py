"""An import from the group's page: read once for the preview, then written at once when it is
small, or in a thread of its own when it is large, so that no request holds a worker more than a
few seconds (issue 29). The writing is one transaction either way: all its plays or none.

Progress: the job's row says running, done or failed (committed outside the import's transaction,
so every worker sees it); how far a running import is goes through the cache, which every app
server shares when REDIS_URL is set (with one server's memory cache, a poll that reaches another
worker shows the bar moving without a figure until the end)."""

from __future__ import annotations

import datetime as dt
import logging
import threading

from django.core.cache import cache
from django.db import close_old_connections, connection
from django.utils import timezone
from django.utils.translation import gettext as _

from companion.history.history_file import ImportRefused
from companion.history.models import ImportJob

from . import bgg_file, bgstats_file, writer
from .records import Reading

log = logging.getLogger(__name__)

READERS = {"bgstats": bgstats_file.read, "bgg": bgg_file.read}
AT_ONCE = 2000  # plays written within the request (~0.6 s on this machine); more go to a thread
STALE = dt.timedelta(minutes=10)  # a running import not done by then died with its worker
KEPT = dt.timedelta(days=1)  # finished and abandoned jobs are deleted after this


def detect(raw: bytes) -> str | None:
    """The file's format from its first character: "<" is BoardGameGeek's XML, "{" BG Stats'."""
    start = raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    return {b"<": "bgg", b"{": "bgstats"}.get(start)


def read(job: ImportJob) -> Reading:
    return READERS[job.file_format](bytes(job.content))


def create(group, file_format: str, raw: bytes) -> ImportJob:
    """A job for a file that reads (refused otherwise, with ImportRefused): its preview comes next."""
    READERS[file_format](raw)
    ImportJob.objects.filter(updated__lt=timezone.now() - KEPT).delete()
    return ImportJob.objects.create(group=group, file_format=file_format, content=raw)


def start(job: ImportJob, names: dict[str, str], zone: str = "", keep: list[str] | tuple = ()) -> ImportJob:
    """Write the job's plays with the member's `names`, times read in `zone`, the plays
    "probably here" in `keep` kept: at once when few, else in a thread."""
    planned = writer.plan(job.group, read(job), names, zone or None, keep)
    return start_planned(job, planned, names, keep)


def start_planned(job: ImportJob, planned: writer.Plan, names: dict, keep) -> ImportJob:
    _mark(
        job,
        ImportJob.Status.RUNNING,
        names=names,
        zone=planned.zone.key,
        keep=list(keep),
        total=len(planned.new_plays),
        done=0,
    )
    if len(planned.new_plays) <= AT_ONCE:
        _write(job.pk, planned)
    else:
        threading.Thread(target=_in_background, args=(job.pk, planned), daemon=True).start()
    job.refresh_from_db()
    return job


def progress(job: ImportJob) -> dict:
    """How far the job is: status, plays done and total, and its answer or error once over."""
    if job.status == ImportJob.Status.RUNNING and timezone.now() - job.updated > STALE:
        message = _("The import stopped before its end (the server restarted): nothing was added. Try again.")
        _mark(job, ImportJob.Status.FAILED, error=message)
        job.refresh_from_db()
    done, total = cache.get(_key(job.pk), (job.done, job.total))
    if job.status == ImportJob.Status.DONE:
        done = total = job.total
    return {"status": job.status, "done": done, "total": total, "answer": job.answer, "error": job.error}


def _in_background(job_id, planned: writer.Plan) -> None:
    close_old_connections()
    try:
        _write(job_id, planned)
    finally:
        connection.close()  # this thread's own


def _write(job_id, planned: writer.Plan) -> None:
    job = ImportJob(pk=job_id)

    def step(done: int, total: int) -> None:
        cache.set(_key(job_id), (done, total), timeout=int(STALE.total_seconds()))

    try:
        answer = writer.write(planned, step)
    except ImportRefused as refused:
        _mark(job, ImportJob.Status.FAILED, error=refused.message)
    except Exception:  # reported in the page's words; the transaction left nothing behind
        log.exception("import %s failed", job_id)
        _mark(job, ImportJob.Status.FAILED, error=_("The import failed on the server: nothing was added."))
    else:
        _mark(job, ImportJob.Status.DONE, answer=answer, done=answer["plays_added"])
    finally:
        cache.delete(_key(job_id))


def _mark(job: ImportJob, status: str, **fields) -> None:
    ImportJob.objects.filter(pk=job.pk).update(status=status, updated=timezone.now(), **fields)


def _key(job_id) -> str:
    return f"import-progress:{job_id}"
