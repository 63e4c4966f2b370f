"""Engines speak of seats as the API does ("Seat 2"); people read names ("Cleo"). G-2: a refusal
names the players, in the API and on the pages alike."""

from __future__ import annotations

from companion.games import base
from companion.games.base import name_seats


def named(error: base.ActionError, names: list[str]) -> base.ActionError:
    """The same refusal, its sentence naming the players (once: the sentence is replaced)."""
    error.message = name_seats(error.message, names)
    return error
