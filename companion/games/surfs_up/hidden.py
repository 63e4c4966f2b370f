"""Bluebottle tokens noted in secret (issue 30, SU-N11): a stung surfer looks at the token taken (SU-9,
SU-11) and taps its value on their own phone. The app keeps it apart from the table's state, shown to
nobody, and the final entry takes it in, so the end asks only for the tokens nobody noted.

What the tables app asks of a game whose seats note hidden values (tables/services.note_hidden).
"""

from __future__ import annotations

from companion.games import registry
from companion.games.words import _, ngettext

RULE = "SU-11"


def engine():
    return registry.get("surfs-up")


def slots(state: dict) -> dict[int, int]:
    """Seat -> how many values it may note now: the tokens it took (SU-14: only those taken)."""
    if state["phase"] in ("setup", "over"):
        return {}
    return {seat: count for seat, count in engine().final_counts(state).items() if count}


def choices() -> list[int]:
    return list(engine().components["sting_values"])  # SU-11: 0, -1, -2, -3


def no_slot_reason(count: int) -> str:
    if count == 0:
        return _("This surfer has no bluebottle token to note (SU-11).")
    return ngettext(
        "This surfer took {count} bluebottle token: there is no other one to note (SU-11).",
        "This surfer took {count} bluebottle tokens: there is no other one to note (SU-11).",
        count,
    ).format(count=count)


def bad_value_reason() -> str:
    values = ", ".join(str(value) for value in choices())
    return _("A bluebottle token shows {values} (SU-11).").format(values=values)
