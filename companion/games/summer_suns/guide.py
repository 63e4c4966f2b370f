"""How to set 62 Summer Suns up for this many players (issue 32): a sheet each, three dice (SS-1)."""

from __future__ import annotations

from companion.games.words import _, ngettext

FIRST_PLAYER = ""  # the dice are shared; the app asks who rolls each round


def steps(players: int, options: dict) -> list[str]:
    return [
        ngettext(
            "A score sheet and a pencil for the player.",
            "A score sheet and a pencil for each of the {players} players.",
            players,
        ).format(players=players),
        _("Three dice within everyone's reach: they are shared (SS-1)."),
    ]
