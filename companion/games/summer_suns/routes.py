"""62 Summer Suns' own reads of the JSON API (API.md, "The sheet definition"), said as plain
functions: companion/tables/game_routes.py serves each under /api/v1/games/summer-suns/."""

from __future__ import annotations

from companion.games.words import _

from .sheet import SHEETS


def sheet_definition(name: str) -> dict:
    """A sheet's definition by its name; LookupError with the sentence its 404 says."""
    if name not in SHEETS:
        known = ", ".join(sorted(SHEETS))
        raise LookupError(_("There is no sheet '{name}' (known: {known}).").format(name=name, known=known))
    return SHEETS[name].definition


# path under the game's (one {parameter}) -> (the 404's error code, the read)
READS = {"sheets/{name}": ("unknown_sheet", sheet_definition)}
