"""The score sheets' routes of the JSON API (issue 44; docs/sheets.md): the library found by name,
a sheet's file. A table plays a sheet through POST /tables with `"sheet": id` (api.py)."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from ninja import Router, Schema

from companion.json_api import ERRORS, ApiError, api, error_body, json_answer
from companion.sheets import library

QUERY_MAX = 80  # a game's name is at most 80 characters (AG-1)
router = Router(tags=["sheets"])


class SheetOut(Schema):
    id: str
    name: str
    bgg_id: int
    kind: str
    names: dict[str, str]


@router.get("", response={200: list[SheetOut], **ERRORS})
def list_sheets(request, q: str = ""):
    """The sheets whose English or French name starts with `q`, then those holding it (ignoring
    case and accents), up to library.FOUND_MAX; named in the request's language."""
    if len(q) > QUERY_MAX:
        message = _("'q' is part of a game's name: {count} characters at most.").format(count=QUERY_MAX)
        raise ApiError(400, error_body("bad_query", message)["error"])
    language = translation.get_language()
    return json_answer(
        [
            {
                "id": sheet.id,
                "name": sheet.name(language),
                "bgg_id": sheet.bgg_id,
                "kind": sheet.document["kind"],
                "names": dict(sheet.document["name"]),
            }
            for sheet in library.find(q)
        ]
    )


@router.get("/{sheet_id}", response={200: dict[str, Any], **ERRORS})
def get_sheet(request, sheet_id: str):
    """The sheet's file, as docs/sheets.md and score-sheet.schema.json describe it."""
    sheet = library.get(sheet_id)
    if sheet is None:
        message = _("There is no sheet '{id}'.").format(id=sheet_id)
        raise ApiError(404, error_body("unknown_sheet", message)["error"])
    return json_answer(sheet.document)


api.add_router("/sheets", router)
