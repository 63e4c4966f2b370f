"""Which rules sheet a table plays (options "sheet" and "rules"): a library sheet by its id, or a
group's own sheet given whole (checked again here: an engine trusts no option)."""

from __future__ import annotations

import copy

from companion.games.base import BadAction, shown
from companion.games.words import _
from companion.sheets import library
from companion.sheets.parse import SheetError
from companion.sheets.rules_check import check_rules_sheet


def library_ids() -> list[tuple[str, str]]:
    """(id, English name) of the library's rules sheets, for the new-table form."""
    return [(sheet.id, sheet.name("en")) for sheet in library.rules_sheets()]


def checked_sheet(options: dict) -> dict:
    """The rules sheet of these options, as a copy the table keeps."""
    own = options.get("rules")
    if own:
        try:
            return copy.deepcopy(check_rules_sheet(copy.deepcopy(own)))
        except SheetError as error:
            raise BadAction(
                "bad_options",
                _("The sheet is not playable: {path}: {message}").format(
                    path=error.path, message=error.message
                ),
            ) from None
    found = library.get(options.get("sheet")) if isinstance(options.get("sheet"), str) else None
    if found is None or found not in library.rules_sheets():
        known = ", ".join(sheet_id for sheet_id, _name in library_ids())
        raise BadAction(
            "bad_options",
            _("There is no rules sheet {shown}: the library has {known}.").format(
                shown=shown(options.get("sheet")), known=known
            ),
        )
    return copy.deepcopy(found.document)
