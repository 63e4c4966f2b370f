"""How to set Surf's Up! up for this many surfers (issue 32), from the components the engine reads
(SU-1, SU-2, SU-3, SU-14)."""

from __future__ import annotations

from companion.games.surfs_up.rules import BEACH_SIZE, COMPONENTS, SURF_SIZE
from companion.games.words import _

FIRST_PLAYER = ""  # everyone reveals at once: nobody starts


def steps(players: int, options: dict) -> list[str]:
    c = COMPONENTS
    energy = c["starting_energy"]
    found = [
        _(
            "Each surfer takes the energy cards {low} to {high}, a beach towel and {respect} respect (SU-1)."
        ).format(low=min(energy), high=max(energy), respect=c["starting_respect"]),
        _(
            "Shuffle the {cards} ocean cards; turn {surf} into the surf (a bluebottle goes back in, SU-3)."
        ).format(cards=sum(c["ocean_deck"].values()), surf=SURF_SIZE),
        _("Shuffle the {cards} beach cards; turn {beach} face up on the beach.").format(
            cards=c["beach_deck"], beach=BEACH_SIZE
        ),
        _("The {tokens} bluebottle tokens face down within reach (SU-14).").format(
            tokens=c["bluebottle_tokens"]
        ),
    ]
    if options.get("shared_goals"):
        found.append(_("Draw 3 shared goals face up above the board (SU-13)."))
    return found
