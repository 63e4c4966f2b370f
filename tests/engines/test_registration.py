"""Every registered game has every part the rest of the app expects of it (issue 14).

A game in the registry alone answered a 500 at its table (no screen) and no test noticed. Here a
missing part fails with the game's name and the part, before anyone opens the table.
"""

from __future__ import annotations

import pytest
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template

from companion.games import registry, rulebook
from tests.engines.golden_playthrough import golden_path, script

# The partials the table page, the result and the replay include from a game's template folder.
PARTIALS = ("_last.html", "_panel.html", "_prompt.html", "_status.html", "_waiting.html")
SCREEN_FUNCTIONS = ("context", "action_from_form")
# What base.Engine lists (docs/adding-a-game.md, item 1).
ENGINE_PARTS = (
    "slug", "name", "min_players", "max_players", "options", "action_types", "action_fields", "end_rule",
    "players_rule", "setup", "expect", "apply", "scores", "result", "describe", "sample_action", "not_now",
    "not_your_turn", "action_shapes",
)  # fmt: skip
# Files a game's folder holds besides its modules: its rulings in both languages, its French.
FILES = ("RULES.md", "RULES.fr.md", "locale/fr/LC_MESSAGES/django.po")


def module(slug: str, name: str):
    try:
        return registry.part(slug, name)
    except ModuleNotFoundError:
        return None


def missing_parts(slug: str) -> list[str]:
    """What the game lacks, each said as the file to add to its folder."""
    folder = registry.package(slug).replace(".", "/")
    engine = registry.get(slug)
    missing = [f"{folder}/__init__.py: engine.{name}" for name in ENGINE_PARTS if not hasattr(engine, name)]
    if engine is not None and getattr(engine, "slug", slug) != slug:
        missing.append(f"{folder}/__init__.py: engine.slug {slug!r} (the registry's key)")
    missing += [f"{folder}/{name}" for name in FILES if not (registry.folder(slug) / name).exists()]
    if not list((registry.folder(slug) / "tests").glob("test_*.py")):
        missing.append(f"its rules tests ({folder}/tests/test_*.py)")
    screen = module(slug, "screen")
    if screen is None:
        missing.append(f"its screen ({folder}/screen.py)")
    else:
        missing += [f"{folder}/screen.py: {name}()" for name in SCREEN_FUNCTIONS if not hasattr(screen, name)]
    for partial in PARTIALS:
        name = f"{registry.template_dir(slug)}/{partial}"
        try:
            get_template(name)
        except (TemplateDoesNotExist, TemplateSyntaxError):
            missing.append(f"the template {folder}/templates/{name}")
    styles = registry.folder(slug) / "static" / registry.template_dir(slug)
    if not (styles / "screen.css").exists():
        missing.append(f"its styles {folder}/static/{registry.template_dir(slug)}/screen.css")
    invariants = module(slug, "invariants")
    if invariants is None or not hasattr(invariants, "check"):
        missing.append(f"its invariants ({folder}/invariants.py: check(state))")
    if script(slug) is None:
        missing.append(f"a golden script ({folder}/golden.py: SCRIPT)")
    elif not golden_path(slug).exists():
        missing.append(f"its golden file {folder}/golden.txt (make golden)")
    return missing


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_a_registered_game_has_every_part(slug):
    missing = missing_parts(slug)
    assert not missing, f"The game {slug!r} is registered but lacks: " + "; ".join(missing)


def test_a_game_in_the_registry_alone_is_named_with_each_missing_part(monkeypatch, tmp_path):
    """The check itself: a throwaway game registered with nothing else lacks every part."""
    folder = tmp_path / "throwaway_game"
    folder.mkdir()
    (folder / "__init__.py").write_text("engine = None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.GAMES, "throwaway-game", "throwaway_game:engine")
    assert missing_parts("throwaway-game") == [
        *(f"throwaway_game/__init__.py: engine.{name}" for name in ENGINE_PARTS),
        "throwaway_game/RULES.md",
        "throwaway_game/RULES.fr.md",
        "throwaway_game/locale/fr/LC_MESSAGES/django.po",
        "its rules tests (throwaway_game/tests/test_*.py)",
        "its screen (throwaway_game/screen.py)",
        *(f"the template throwaway_game/templates/throwaway_game/{partial}" for partial in PARTIALS),
        "its styles throwaway_game/static/throwaway_game/screen.css",
        "its invariants (throwaway_game/invariants.py: check(state))",
        "a golden script (throwaway_game/golden.py: SCRIPT)",
    ]


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_every_ruling_a_game_cites_has_its_text(slug):
    """Issue 15: each ruling id the game's code cites (its refusals and log lines) is a link to
    its text, so its folder's RULES.md holds every one of them, in order and once."""
    rules = rulebook.rules(slug)
    ids = [ruling.id for ruling in rules.rulings]
    assert len(ids) == len(set(ids)), f"{slug}: a ruling is in RULES.md twice"
    assert all(ruling.text for ruling in rules.rulings), f"{slug}: a ruling without its text"
    folder = registry.folder(slug)
    prefix = ids[0].split("-")[0]
    source = " ".join(path.read_text(encoding="utf-8") for path in folder.glob("*.py"))
    cited = {ruling for ruling in rulebook.cited(source) if ruling.startswith(prefix + "-")}
    missing = sorted(cited - set(ids))
    assert not missing, f"{slug} cites {', '.join(missing)}, which {folder.name}/RULES.md does not explain"


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_every_game_has_its_rules_in_french_ruling_for_ruling(slug):
    """Issue 17: RULES.fr.md holds the same rulings as RULES.md, in the same order, each with its
    text; the French page reads it, and a language without a file reads English."""
    english, french = rulebook.rules(slug), rulebook.rules(slug, "fr")
    assert rulebook.rules_path(slug, "fr").name == "RULES.fr.md"
    assert [ruling.id for ruling in french.rulings] == [ruling.id for ruling in english.rulings]
    assert all(ruling.text and ruling.title for ruling in french.rulings)
    assert french.title != english.title
    assert rulebook.rules(slug, "de") == english
