"""How to set Yahtzee up for this many players (issue 32), from the engine's dice and boxes (YZ-1)."""

from __future__ import annotations

from companion.games.words import _, gettext_noop, ngettext

from .boxes import BOXES, DICE

# The rulebook's own way to pick who starts (YZ-2): that player takes the first seat.
FIRST_PLAYER = gettext_noop("Everyone throws the five dice: the highest total starts (YZ-2). Who was it?")


def steps(players: int, options: dict) -> list[str]:
    return [
        _("Put the {dice} dice and the cup within everyone's reach: they are shared (YZ-1).").format(
            dice=DICE
        ),
        ngettext(
            "No paper needed: the app keeps your sheet of {boxes} boxes.",
            "No paper needed: the app keeps a sheet of {boxes} boxes for each of the {players} players.",
            players,
        ).format(boxes=len(BOXES), players=players),
    ]
