"""A group's own sheets (issue 44, docs/sheets.md): kept checked, found by their id
("<group>.<sheet>"), shared by a link, played by the group's tables. The checks are the library's
(companion/sheets): a sheet a member sends is a stranger's file until it passes them."""

from __future__ import annotations

import re
import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from companion.games import base
from companion.sheets import library
from companion.sheets.parse import ScoreSheet, SheetError
from companion.sheets.rules_sheet import RulesSheet, parse_any

from .models import Group, GroupSheet

SHEETS_MAX = 100  # a group's own sheets: bounded, as everything a stranger can send
OWN_ID = re.compile(r"(?P<group>[0-9a-z]{1,16})\.(?P<sheet>[a-z0-9]+(?:-[a-z0-9]+)*)")


def sheet_of(row: GroupSheet) -> ScoreSheet | RulesSheet:
    """The kept document as a sheet (it was checked when it was kept)."""
    return RulesSheet(row.document) if row.kind == "rules" else ScoreSheet(row.document)


def split(sheet_id: str) -> tuple[str, str] | None:
    """(group id, sheet id) of a group's own sheet's id, None for anything else."""
    found = OWN_ID.fullmatch(sheet_id or "")
    return (found["group"], found["sheet"]) if found else None


def find(sheet_id: str) -> GroupSheet | None:
    parts = split(sheet_id)
    if parts is None:
        return None
    return GroupSheet.objects.filter(group_id=parts[0], sheet_id=parts[1]).select_related("group").first()


def shared(token: str) -> GroupSheet | None:
    """The sheet whose share link this is."""
    if not token or len(token) > 64:
        return None
    return GroupSheet.objects.filter(share_token=token).select_related("group").first()


def shared_as(sheet_id: str, token: str) -> GroupSheet | None:
    """The sheet of this id when `token` is its share link's (compared in constant time)."""
    row = shared(token)
    return row if row is not None and secrets.compare_digest(row.api_id, sheet_id) else None


def keep(group: Group, raw: bytes | str) -> tuple[GroupSheet, bool]:
    """Check a sheet's file and keep it as the group's: (the row, whether it is new). A sheet of
    an id the group has already is its next version (tables played keep theirs). SheetError, at
    the first wrong field, for a file that does not check; nothing is kept then."""
    sheet = parse_any(raw)
    try:
        with transaction.atomic():
            return _keep(group, sheet)
    except IntegrityError:  # two phones kept the same new sheet at once: the other's row is there now
        with transaction.atomic():
            return _keep(group, sheet)


def _keep(group: Group, sheet: ScoreSheet | RulesSheet) -> tuple[GroupSheet, bool]:
    row = GroupSheet.objects.select_for_update().filter(group=group, sheet_id=sheet.id).first()
    if row is None:
        if GroupSheet.objects.filter(group=group).count() >= SHEETS_MAX:
            message = _("A group keeps {count} sheets at most: remove one first.").format(count=SHEETS_MAX)
            raise SheetError("", message)
        row = GroupSheet.objects.create(
            group=group,
            sheet_id=sheet.id,
            kind=sheet.document["kind"],
            name=sheet.name("en"),
            document=sheet.document,
        )
        return row, True
    if row.kind != sheet.document["kind"]:  # a typed score sheet never replaces a roll-and-write
        message = _("The group's sheet '{id}' is another kind of sheet: give this one another id.")
        raise SheetError("/id", message.format(id=sheet.id))
    if row.document != sheet.document:
        row.document, row.kind, row.name = sheet.document, sheet.document["kind"], sheet.name("en")
        row.version += 1
        row.updated = timezone.now()
        row.save()
    return row, False


def table_options(row: GroupSheet, language: str) -> dict:
    """What a table of this sheet starts with: its whole document (a rules sheet) or the pad's
    lines (a score sheet), copied in, so the table keeps this version."""
    return sheet_of(row).table_options(language, own=True)


def group_sheets(group: Group, query: str = "") -> list[GroupSheet]:
    """The group's sheets whose name in either language holds the query, by name."""
    key = library.folded(query)
    rows = sorted(GroupSheet.objects.filter(group=group), key=lambda row: library.folded(row.name))
    return [row for row in rows if not key or any(key in library.folded(n) for n in sheet_of(row).names())]


def history_keys(row: GroupSheet) -> list[str]:
    """The history's keys of this sheet's plays: under its English or its French name, as each
    table was started (a table keeps the name it was played as)."""
    sheet = sheet_of(row)
    titles = {library.history_title(sheet.bgg_id, name) for name in sheet.names()}
    return sorted({base.history_key(sheet.game, title) for title in titles})


def offered(group: Group, language: str) -> dict[str, dict]:
    """The group's score sheets as the pad's form offers a game typed before (forms.past_options)."""
    sheets = [sheet_of(row) for row in group_sheets(group)]
    return library.offered(language, [sheet for sheet in sheets if isinstance(sheet, ScoreSheet)])
