"""Every registered game has every part the rest of the app expects of it (issue 14).

A game in the registry alone answered a 500 at its table (no screen) and no test noticed. Here a
missing part fails with the game's name and the part, before anyone opens the table.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template

from companion.games import registry
from companion.tables import screens
from tests.api.test_fuzz_api import TABLES
from tests.engines.golden_playthrough import SCRIPTS, golden_path
from tests.engines.test_hostile_sequences import INVARIANTS

# The partials the table page, the result and the replay include from a game's template folder.
PARTIALS = ("_last.html", "_panel.html", "_prompt.html", "_status.html", "_waiting.html")
SCREEN_FUNCTIONS = ("context", "action_from_form")


def missing_parts(slug: str) -> list[str]:
    """What the game lacks, each said as the place to add it."""
    missing = []
    if slug not in screens.SCREENS:
        missing.append("a screen module (companion/tables/screens/__init__.py, SCREENS)")
    else:
        module = screens.for_game(slug)
        missing += [f"{module.__name__}.{name}()" for name in SCREEN_FUNCTIONS if not hasattr(module, name)]
    for partial in PARTIALS:
        name = f"{screens.template_dir(slug)}/{partial}"
        try:
            get_template(name)
        except (TemplateDoesNotExist, TemplateSyntaxError):
            missing.append(f"the template templates/{name}")
    if slug not in INVARIANTS:
        missing.append("its invariants (tests/engines/test_hostile_sequences.py, INVARIANTS)")
    if slug not in SCRIPTS:
        missing.append("a golden script (tests/engines/golden_playthrough.py, SCRIPTS)")
    elif not Path(golden_path(slug)).exists():
        missing.append(f"its golden file {golden_path(slug)} (make golden)")
    if slug not in {game for game, _, _ in TABLES}:
        missing.append("a fuzzed table (tests/api/test_fuzz_api.py, TABLES)")
    return missing


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_a_registered_game_has_every_part(slug):
    missing = missing_parts(slug)
    assert not missing, f"The game {slug!r} is registered but lacks: " + "; ".join(missing)


def test_a_game_in_the_registry_alone_is_named_with_each_missing_part(monkeypatch):
    """The check itself: a throwaway game registered with nothing else lacks every part."""
    monkeypatch.setitem(registry.GAMES, "throwaway-game", "companion.games.dogo_dash:engine")
    assert missing_parts("throwaway-game") == [
        "a screen module (companion/tables/screens/__init__.py, SCREENS)",
        *(f"the template templates/tables/throwaway_game/{partial}" for partial in PARTIALS),
        "its invariants (tests/engines/test_hostile_sequences.py, INVARIANTS)",
        "a golden script (tests/engines/golden_playthrough.py, SCRIPTS)",
        "a fuzzed table (tests/api/test_fuzz_api.py, TABLES)",
    ]
