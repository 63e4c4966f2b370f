"""The score sheets this app ships (library/*.json, one game a file), read and checked once per
process: a file that does not check is a bug the suite catches (tests/sheets), never a page's 500
at a table. Found by name as a group types it, or by BoardGameGeek id when plays are imported."""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

from .parse import LANGUAGES, ScoreSheet, SheetError, parse
from .rules_sheet import RulesSheet, parse_rules

LIBRARY = Path(__file__).with_name("library")  # score sheets
RULES = Path(__file__).with_name("rules")  # rules sheets (roll-and-writes)
FOUND_MAX = 20


@functools.cache
def sheets() -> dict[str, ScoreSheet | RulesSheet]:
    """id -> sheet, score sheets (library/) and rules sheets (rules/), in the order of their
    English names."""
    found = {}
    for folder, reader in ((LIBRARY, parse), (RULES, parse_rules)):
        for path in sorted(folder.glob("*.json")):
            try:
                sheet = reader(path.read_bytes())
            except SheetError as error:
                raise SheetError(f"{path.name}{error.path}", error.message) from None
            if sheet.id != path.stem or sheet.id in found:
                raise SheetError(
                    f"{path.name}/id", f"the id is the file's name, {path.stem!r}, and one sheet's"
                )
            found[sheet.id] = sheet
    return dict(sorted(found.items(), key=lambda item: folded(item[1].name("en"))))


def score_sheets() -> list[ScoreSheet]:
    return [sheet for sheet in sheets().values() if isinstance(sheet, ScoreSheet)]


def rules_sheets() -> list[RulesSheet]:
    return [sheet for sheet in sheets().values() if isinstance(sheet, RulesSheet)]


def get(sheet_id: str) -> ScoreSheet | None:
    return sheets().get(sheet_id)


@functools.cache
def _by_bgg_id() -> dict[int, ScoreSheet]:
    return {sheet.bgg_id: sheet for sheet in sheets().values() if sheet.bgg_id}


def by_bgg_id(bgg_id) -> ScoreSheet | None:
    return _by_bgg_id().get(bgg_id) if isinstance(bgg_id, int) and bgg_id > 0 else None


def history_title(bgg_id, title: str) -> str:
    """The name the history counts a pad's play under (Table.played): a library game's English
    name whatever the table or the imported file called it ("Les Aventuriers du Rail", "Ticket To
    Ride" -> "Ticket to Ride", one game), else the name it was played as."""
    sheet = by_bgg_id(bgg_id)
    return sheet.name("en") if sheet is not None else title


@functools.cache
def _by_name() -> dict[str, ScoreSheet]:
    return {folded(name): sheet for sheet in sheets().values() for name in sheet.names()}


def by_name(name: str) -> ScoreSheet | None:
    """The sheet whose English or French name this is (ignoring case and accents)."""
    return _by_name().get(folded(name or ""))


def folded(text: str) -> str:
    """'Les Aventuriers du Rail' and 'les aventuriers du rail' alike; 'Orléans' as 'orleans'."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def find(query: str, limit: int = FOUND_MAX) -> list[ScoreSheet]:
    """Sheets whose name (in either language) starts with the query, then those holding it
    elsewhere, each list in name order; every sheet for an empty query."""
    key = folded(query or "")
    everything = list(sheets().values())
    if not key:
        return everything[:limit]
    names = {sheet.id: [folded(sheet.name(language)) for language in LANGUAGES] for sheet in everything}
    starting = [s for s in everything if any(name.startswith(key) for name in names[s.id])]
    holding = [s for s in everything if s not in starting and any(key in name for name in names[s.id])]
    return (starting + holding)[:limit]


def offered(language: str, among: list[ScoreSheet] | None = None) -> dict[str, dict]:
    """Every sheet (the library's, or those `among`: a group's own) as the new-table form offers a
    game name typed before (forms.past_options): the name, lowercased with single spaces as the
    page's script looks it up, -> the pad's options. Both languages' names find it; the options
    are in the page's language."""
    found = {}
    for sheet in score_sheets() if among is None else among:
        for name in sorted(sheet.names(), key=lambda name: name != sheet.name(language)):
            key = " ".join(name.split()).casefold()
            found.setdefault(key, {"value": name, "options": sheet.pad_options(language)})
    return found
