"""A roll-and-write's rules sheet as the library and the API hold it (issue 44): the checked file,
its names, and the table options that play it on the roll-and-write kit (games/roll_and_write)."""

from __future__ import annotations

from dataclasses import dataclass

from .parse import Sheet, SheetError, read
from .rules_check import check_rules_sheet

RULES_GAME = "roll-and-write"  # the kit's engine, where every rules sheet is played


@dataclass(frozen=True)
class RulesSheet(Sheet):
    game = RULES_GAME

    def table_options(self, language: str = "en", own: bool = False) -> dict:
        """A library sheet is named; a group's own travels whole (the table keeps that version)."""
        return {"sheet": self.id, "rules": self.document} if own else {"sheet": self.id}


def parse_rules(raw: bytes | str) -> RulesSheet:
    return RulesSheet(check_rules_sheet(read(raw)))


def parse_any(raw: bytes | str):
    """A sheet of either kind from its JSON text, or SheetError at its first wrong field."""
    from .parse import checked

    document = read(raw)
    if isinstance(document, dict) and document.get("kind") == "rules":
        return RulesSheet(check_rules_sheet(document))
    if isinstance(document, dict) and document.get("kind") not in (None, "score"):
        raise SheetError("/kind", "a sheet is of kind 'score' or 'rules'")
    return checked(document)
