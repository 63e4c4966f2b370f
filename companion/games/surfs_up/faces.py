"""Card faces as one grid to tap (issue 30): every face the box's data allows (SU-2), one tap each.

A face is the card as printed minus its cost: a wave (suit, points), the bluebottle, a surfboard
(suit, bonus), a temporary energy card (value). Beach cards carry a cost as well, asked as a second
tap from four buttons, so any beach card is two taps and any ocean card one. A face travels in a
page's query as a short code ("w.orange.3", "bb", "s.blue.2", "e.6").

The print run's card list is not published, so the grid offers every face the ranges in
components.json allow, minus the kinds the ocean deck no longer holds (SU-2, the engine's
`ocean_left`); the engine still checks every entry.
"""

from __future__ import annotations

from companion.games import registry
from companion.games.words import _

BONUSES = range(1, 6)  # a surfboard's bonus: at least 1 (SU-2); the boxes seen print +1 to +5


def components() -> dict:
    return registry.get("surfs-up").components


def code(card: dict) -> str:
    kind = card["kind"]
    if kind == "wave":
        return f"w.{card['suit']}.{card['points']}"
    if kind == "surfboard":
        return f"s.{card['suit']}.{card['bonus']}"
    if kind == "energy":
        return f"e.{card['value']}"
    return "bb"


def card(face: str) -> dict | None:
    """The card of a face code (without its cost), or None for a code no grid offers."""
    parts = face.split(".")
    try:
        if parts == ["bb"]:
            return {"kind": "bluebottle"}
        if parts[0] == "w" and len(parts) == 3:
            return {"kind": "wave", "suit": parts[1], "points": int(parts[2])}
        if parts[0] == "s" and len(parts) == 3:
            return {"kind": "surfboard", "suit": parts[1], "bonus": int(parts[2])}
        if parts[0] == "e" and len(parts) == 2:
            return {"kind": "energy", "value": int(parts[1])}
    except ValueError:
        return None
    return None


def waves() -> list[dict]:
    low, high = components()["wave_points"]
    return [
        {"kind": "wave", "suit": suit, "points": points}
        for suit in components()["suits"]
        for points in range(low, high + 1)
    ]


def ocean(ocean_left: dict[str, int]) -> list[dict]:
    """The ocean faces that can still come: no wave once all waves are seen, no bluebottle either."""
    cards = waves() if ocean_left.get("wave", 0) else []
    return cards + ([{"kind": "bluebottle"}] if ocean_left.get("bluebottle", 0) else [])


def beach() -> list[dict]:
    low, high = components()["energy_value"]
    boards = [
        {"kind": "surfboard", "suit": suit, "bonus": bonus}
        for suit in components()["suits"]
        for bonus in BONUSES
    ]
    return boards + [{"kind": "energy", "value": value} for value in range(low, high + 1)]


def costs(face: dict) -> list[int]:
    low, high = components()["surfboard_cost" if face["kind"] == "surfboard" else "energy_cost"]
    return list(range(low, high + 1))


SUIT_COLOURS = ("orange", "purple", "blue")  # the page's colour of the data's 1st, 2nd, 3rd suit


def suit_colour(suit: str) -> str:
    suits = components()["suits"]
    index = suits.index(suit) if suit in suits else 0
    return SUIT_COLOURS[index] if index < len(SUIT_COLOURS) else SUIT_COLOURS[0]


def colour(face: dict) -> str:
    """The page's colour class of a face: its suit's, or its kind's."""
    return suit_colour(face["suit"]) if "suit" in face else face["kind"]


def group(face: dict) -> str:
    """The grid's row a face sits in: its suit, or the kind without one."""
    return face.get("suit") or face["kind"]


def label(face: dict) -> tuple[str, str]:
    """What its button shows: the big figure, and the small word under it (together its name)."""
    kind = face["kind"]
    if kind == "wave":
        return str(face["points"]), _(face["suit"])
    if kind == "surfboard":
        return f"🏄 +{face['bonus']}", _(face["suit"])
    if kind == "energy":
        return f"⚡ {face['value']}", _("energy")
    return "🪼", _("bluebottle")
