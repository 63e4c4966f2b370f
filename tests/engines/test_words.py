"""companion.games.words (issue 17): the engines speak through it, English by default, any catalog
once plugged, and a block of code may speak one language for a while (a write's log sentences).
These tests plug their own catalog: no Django in the engine's path."""

from __future__ import annotations

import pytest

from companion.games import base, registry, words
from companion.games.words import ngettext, ordinal

PIRATE = {
    "Seat {seat} may not act now (DD-3).": "Seat {seat} be not allowed t' act now, matey (DD-3).",
    "{count} card": "{count} doubloon",
}


def pirate_gettext(message):
    return PIRATE.get(message, message)


def pirate_ngettext(singular, plural, number):
    return PIRATE.get(singular, singular) if number == 1 else PIRATE.get(singular, singular) + "s"


def pirate_pgettext(context, message):
    return {"1st": "first o' all"}.get(message, message) if context == "ordinal" else message


@pytest.fixture
def unplugged():
    """The engines as they are without the app: English (the app plugs Django back after)."""
    from django.utils import translation

    words.unplug()
    yield
    words.plug(translation.gettext, translation.ngettext, translation.pgettext)


def test_unplugged_the_engines_speak_english(unplugged):
    engine = registry.get("dogo-dash")
    refusal = engine.not_your_turn(engine.setup(3, {}), "reveal", 2)
    assert refusal.message == "Seat 2 may not act now (DD-3)."
    assert (ngettext("{count} card", "{count} cards", 1), ngettext("{count} card", "{count} cards", 2)) == (
        "{count} card",
        "{count} cards",
    )
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip


def test_a_plugged_catalog_is_what_every_engine_says(unplugged):
    words.plug(pirate_gettext, pirate_ngettext, pirate_pgettext)
    engine = registry.get("dogo-dash")
    refusal = engine.not_your_turn(engine.setup(3, {}), "reveal", 2)
    assert refusal.message == "Seat 2 be not allowed t' act now, matey (DD-3)."
    assert base.name_seats(refusal.message, ["Ann", "Ben", "Cleo"]) == (
        "Cleo be not allowed t' act now, matey (DD-3)."
    )
    assert ngettext("{count} card", "{count} cards", 3).format(count=3) == "3 doubloons"
    assert ordinal(1) == "first o' all" and ordinal(2) == "2nd"


def test_speaking_holds_for_its_block_only(unplugged):
    words.plug(pirate_gettext, pirate_ngettext, pirate_pgettext)
    with words.speaking(words.ENGLISH):
        assert words.gettext("Seat {seat} may not act now (DD-3).") == "Seat {seat} may not act now (DD-3)."
    assert words.gettext("Seat {seat} may not act now (DD-3).").endswith("matey (DD-3).")
