"""The sheets' routes of the JSON API (issue 44; docs/sheets.md): the library and a group's own
sheets found by name, a sheet's file, a group's sheet kept (checked) or removed. A table plays a
sheet through POST /tables with `"sheet": id` (api.py)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from ninja import Router, Schema

from companion.groups import access, own_sheets
from companion.groups.models import GroupSheet
from companion.json_api import ERRORS, ApiError, api, error_body, json_answer
from companion.sheets import library
from companion.sheets.parse import SheetError

QUERY_MAX = 80  # a game's name is at most 80 characters (AG-1)
router = Router(tags=["sheets"])


class SheetOut(Schema):
    id: str
    name: str
    bgg_id: int
    kind: str
    names: dict[str, str]
    group: str | None  # the group whose own sheet it is; None for the library's


class KeptSheetOut(SheetOut):
    version: int
    share_url: str  # the link another group opens it by (its page; ?share= on GET /sheets/{id})


def sheet_answer(sheet, sheet_id: str, language: str, group: str | None = None) -> dict:
    return {
        "id": sheet_id,
        "name": sheet.name(language),
        "bgg_id": sheet.bgg_id,
        "kind": sheet.document["kind"],
        "names": dict(sheet.document["name"]),
        "group": group,
    }


def kept_answer(request, row: GroupSheet) -> dict:
    language = translation.get_language()
    share = request.build_absolute_uri(reverse("groups:shared_sheet", args=[row.share_token]))
    sheet = own_sheets.sheet_of(row)
    return {
        **sheet_answer(sheet, row.api_id, language, row.group_id),
        "version": row.version,
        "share_url": share,
    }


@router.get("", response={200: list[SheetOut], **ERRORS})
def list_sheets(request, q: str = "", group: str = ""):
    """The sheets whose English or French name starts with `q`, then those holding it (ignoring
    case and accents), up to library.FOUND_MAX; named in the request's language. With `group`
    (and its token), that group's own sheets holding `q` come first."""
    if len(q) > QUERY_MAX:
        message = _("'q' is part of a game's name: {count} characters at most.").format(count=QUERY_MAX)
        raise ApiError(400, error_body("bad_query", message)["error"])
    language = translation.get_language()
    own = []
    if group:
        found = access.group_for(request, group)
        own = [
            sheet_answer(own_sheets.sheet_of(row), row.api_id, language, row.group_id)
            for row in own_sheets.group_sheets(found, q)
        ]
    return json_answer(own + [sheet_answer(sheet, sheet.id, language) for sheet in library.find(q)])


@router.get("/{sheet_id}", response={200: dict[str, Any], **ERRORS})
def get_sheet(request, sheet_id: str, share: str = ""):
    """The sheet's file, as docs/sheets.md and its schemas describe it. A group's own sheet is
    read with its group's token, or with its share link's token as `share`."""
    sheet = library.get(sheet_id)
    if sheet is not None:
        return json_answer(sheet.document)
    own = own_sheets.split(sheet_id)
    if own is not None:
        # The rights first, then the sheet: whether a group has a sheet of a name is its own.
        row = own_sheets.shared_as(sheet_id, share) if share else None
        if row is None and not share:
            access.group_for(request, own[0])  # 401 without the group's token
            row = own_sheets.find(sheet_id)
        if row is not None:
            return json_answer(row.document)
    message = _("There is no sheet '{id}'.").format(id=sheet_id)
    raise ApiError(404, error_body("unknown_sheet", message)["error"])


api.add_router("/sheets", router)


@api.post(
    "/groups/{group_id}/sheets",
    response={200: KeptSheetOut, 201: KeptSheetOut, **ERRORS},
    tags=["sheets"],
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}
    },
)
def keep_sheet(request, group_id: str):
    """Keep a sheet (the body: its file) as the group's own: 201 new, 200 the next version of a
    sheet of the same id (tables already played keep theirs); 400 `bad_sheet` with the `path`
    of the first wrong field and nothing kept."""
    group = access.group_for(request, group_id, write=True)
    try:
        row, new = own_sheets.keep(group, request.body)
    except SheetError as error:
        message = f"{error.path}: {error.message}"
        raise ApiError(400, error_body("bad_sheet", message, path=error.path)["error"]) from None
    return json_answer(kept_answer(request, row), status=201 if new else 200)


@api.delete("/groups/{group_id}/sheets/{sheet_id}", response={204: None, **ERRORS}, tags=["sheets"])
def remove_sheet(request, group_id: str, sheet_id: str):
    """Remove one of the group's sheets (`sheet_id` as GET /sheets says it); its plays stay."""
    group = access.group_for(request, group_id, write=True)
    row = own_sheets.find(sheet_id)
    if row is None or row.group_id != group.pk:
        message = _("There is no sheet '{id}'.").format(id=sheet_id)
        raise ApiError(404, error_body("unknown_sheet", message)["error"])
    row.delete()
    return HttpResponse(status=204)
