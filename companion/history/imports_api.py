"""The API's way in and out of a group's history (API.md, "Moving a group's history in and out"),
beside group_api.py's routes: an import of a BG Stats or BoardGameGeek file, and the BG Stats
export."""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Router, Schema
from pydantic import Field

from companion.groups import access
from companion.json_api import ERRORS, ApiError, api, error_body, json_answer, said
from companion.tables.limits import check_tables

from . import bgstats_export
from .history_file import ImportRefused
from .importers import bgg_file, bgstats_file, jobs, records, writer
from .models import ImportJob

router = Router(tags=["groups"])


class ImportIn(Schema):
    format: Literal["bgstats", "bgg"]
    file: str = Field(max_length=settings.MAX_UPLOAD_BYTES)  # the page's upload, in characters
    # A name in the file -> the group's player it is (a bad_file past the length a name has).
    names: dict[str, Annotated[str, Field(**said(maxLength=records.NAME_MAX))]] = Field(default_factory=dict)
    dry_run: bool = False
    # The zone the file's times are read in (IANA, such as Europe/Berlin); the group's by default.
    zone: str = Field("", max_length=64)
    # Plays the preview calls "probably here already" (by their id in the file) to import anyway.
    keep: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=100_000)


class ImportNameOut(Schema):
    name: str  # how the file calls them, unique in the file ("Alex", "Alex (alex_k)")
    player: str
    new: bool
    guest: bool = False
    plays: int = 0
    username: str = ""


class ProbablyHereOut(Schema):
    play: str
    where: str
    table: str


class PlayTimeOut(Schema):
    where: str
    in_file: str
    at: str | None


class ImportOut(Schema):
    plays_added: int
    plays_skipped: int
    players_added: int
    players_matched: int
    guests: int = 0
    games: int
    names: list[ImportNameOut]
    plays_set_aside: int = 0
    plays_from_the_other_app: int = 0
    probably_here: list[ProbablyHereOut] = Field(default_factory=list)
    plays_probably_here: int = 0
    zone: str = ""
    times: list[PlayTimeOut] = Field(default_factory=list)
    warnings: list[str]


class ImportJobOut(Schema):
    job: str
    status: str  # "running", "done" or "failed"
    done: int
    total: int
    url: str
    answer: ImportOut | None = None
    error: str = ""


READERS = {"bgstats": bgstats_file.read, "bgg": bgg_file.read}


@router.post("/{group_id}/imports", response={200: ImportOut, 202: ImportJobOut, 429: ERRORS[400], **ERRORS})
def import_plays(request, group_id: str, body: ImportIn):
    """A group's past plays from a BG Stats export or BoardGameGeek's plays XML (API.md): a dry
    run says what would come in; the import is all the file's new plays or none."""
    group = access.group_for(request, group_id, write=True)
    if not body.dry_run:
        check_tables(request)  # an import counts as starting tables does
    raw = body.file.encode()
    try:
        planned = writer.plan(group, READERS[body.format](raw), body.names, body.zone or None, body.keep)
        if body.dry_run:
            return planned.answer()
        if len(planned.new_plays) <= jobs.AT_ONCE:
            return writer.write(planned)
    except ImportRefused as refused:
        raise ApiError(400, error_body("bad_file", refused.message)["error"]) from None
    # Many plays: written in the background (issue 42: no request held for minutes), polled.
    job = ImportJob.objects.create(group=group, file_format=body.format, content=raw)
    jobs.start_planned(job, planned, body.names, body.keep)
    return json_answer(_job_answer(group, job), status=202)


@router.get("/{group_id}/imports/{job_id}", response={200: ImportJobOut, **ERRORS})
def import_progress(request, group_id: str, job_id: str):
    """How far a large import is (the 202 of POST .../imports named it): its answer once done."""
    group = access.group_for(request, group_id, write=True)
    job = ImportJob.objects.filter(group=group, pk=_uuid(job_id)).first() if _uuid(job_id) else None
    if job is None:
        raise ApiError(404, error_body("unknown_import", _("This group has no such import."))["error"])
    return _job_answer(group, job)


def _job_answer(group, job: ImportJob) -> dict:
    state = jobs.progress(job)
    url = reverse("api:import_progress", kwargs={"group_id": group.pk, "job_id": job.pk})
    return {"job": str(job.pk), "url": url, **state, "error": state["error"] or ""}


def _uuid(text: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(text)
    except ValueError:
        return None


@router.get("/{group_id}/export", response={200: dict, **ERRORS})
def export_plays(request, group_id: str, format: Literal["bgstats"] = "bgstats"):
    """The group's finished plays as a BG Stats export file, which BG Stats reads back."""
    group = access.group_for(request, group_id)
    answer = json_answer(bgstats_export.export(group))
    answer["Content-Disposition"] = f'attachment; filename="BGStatsExport-{group.pk}.json"'
    return answer


api.add_router("/groups", router)
