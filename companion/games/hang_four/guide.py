"""How to set Hang Four up for this many players (issue 32), from the components the engine reads
(HF-2): never restated, so a group whose copy differs edits components.json and the guide follows."""

from __future__ import annotations

from companion.games.hang_four.rules import DOLLARS, SHACK_TOTAL, START, SURF, SURF_TOTAL
from companion.games.words import _, gettext_noop

# The rulebook's own words for who starts (HF-1: that player takes seat 1, play goes on in seat order).
FIRST_PLAYER = gettext_noop("The last person to smell a wet dog starts (HF-1). Who was it?")


def steps(players: int, options: dict) -> list[str]:
    dealt = START * players
    return [
        _("Sort the two decks by their backs (HF-2)."),
        _("Put a Surf Dog character face up in front of each player: {players} of the {characters}.").format(
            players=players, characters=SURF["character"]
        ),
        _("Shuffle the rest of the Surf deck ({cards} cards) face down in the middle.").format(
            cards=SURF_TOTAL - players
        ),
        _("Shuffle the Surf Shack deck ({cards} cards) face down beside it.").format(cards=SHACK_TOTAL),
        _(
            "Give each player {start} sand dollars ({dealt} in all); the other {bank} go between the decks."
        ).format(start=START, dealt=dealt, bank=DOLLARS - dealt),
        _("Put the die within everyone's reach."),
    ]
