"""The API's way in and out of a group's history (API.md, "Moving a group's history in and out"),
beside group_api.py's routes: an import of a BG Stats or BoardGameGeek file, and the BG Stats
export."""

from __future__ import annotations

from typing import Annotated, Literal

from django.conf import settings
from ninja import Router, Schema
from pydantic import Field

from companion.groups import access
from companion.json_api import ERRORS, ApiError, api, error_body, json_answer, said
from companion.tables.limits import check_tables

from . import bgstats_export
from .history_file import ImportRefused
from .importers import bgg_file, bgstats_file, records, writer

router = Router(tags=["groups"])


class ImportIn(Schema):
    format: Literal["bgstats", "bgg"]
    file: str = Field(max_length=settings.MAX_UPLOAD_BYTES)  # the page's upload, in characters
    # A name in the file -> the group's player it is (a bad_file past the length a name has).
    names: dict[str, Annotated[str, Field(**said(maxLength=records.NAME_MAX))]] = Field(default_factory=dict)
    dry_run: bool = False


class ImportNameOut(Schema):
    name: str
    player: str
    new: bool


class ImportOut(Schema):
    plays_added: int
    plays_skipped: int
    players_added: int
    players_matched: int
    games: int
    names: list[ImportNameOut]
    warnings: list[str]


READERS = {"bgstats": bgstats_file.read, "bgg": bgg_file.read}


@router.post("/{group_id}/imports", response={200: ImportOut, 429: ERRORS[400], **ERRORS})
def import_plays(request, group_id: str, body: ImportIn):
    """A group's past plays from a BG Stats export or BoardGameGeek's plays XML (API.md): a dry
    run says what would come in; the import is all the file's new plays or none."""
    group = access.group_for(request, group_id, write=True)
    if not body.dry_run:
        check_tables(request)  # an import counts as starting tables does
    try:
        reading = READERS[body.format](body.file.encode())
        return writer.import_file(group, reading, body.names, dry_run=body.dry_run)
    except ImportRefused as refused:
        raise ApiError(400, error_body("bad_file", refused.message)["error"]) from None


@router.get("/{group_id}/export", response={200: dict, **ERRORS})
def export_plays(request, group_id: str, format: Literal["bgstats"] = "bgstats"):
    """The group's finished plays as a BG Stats export file, which BG Stats reads back."""
    group = access.group_for(request, group_id)
    answer = json_answer(bgstats_export.export(group))
    answer["Content-Disposition"] = f'attachment; filename="BGStatsExport-{group.pk}.json"'
    return answer


api.add_router("/groups", router)
