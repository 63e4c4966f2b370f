"""Engines speak of seats as the API does ("Seat 2"); people read names ("Cleo"). G-2: a refusal
names the players, in the API and on the pages alike."""

from __future__ import annotations

import re

from companion.games import base

SEAT_MENTION = re.compile(r"\b[Ss]eat (\d+)\b")


def name_seats(message: str, names: list[str]) -> str:
    def name(match: re.Match) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return SEAT_MENTION.sub(name, message)


def named(error: base.ActionError, names: list[str]) -> base.ActionError:
    """The same refusal, its sentence naming the players (once: the sentence is replaced)."""
    error.message = name_seats(error.message, names)
    return error
