"""How to set Dogo Dash up for this many players (issue 32), from the deck the engine reads (DD-1)."""

from __future__ import annotations

from companion.games.dogo_dash.rules import DECK_TOTAL, HAND_SIZE
from companion.games.words import _

FIRST_PLAYER = ""  # everyone reveals at once: nobody starts


def steps(players: int, options: dict) -> list[str]:
    return [
        _("Shuffle the {cards} cards face down.").format(cards=DECK_TOTAL),
        _("Deal {hand} cards to each player ({dealt} in all): keep them secret.").format(
            hand=HAND_SIZE, dealt=HAND_SIZE * players
        ),
        _("Put the other {deck} face down within reach: the draw deck (DD-1).").format(
            deck=DECK_TOTAL - HAND_SIZE * players
        ),
    ]
