"""Game slug -> the game's folder. Adding a game: write its folder under games/, add one line here
(README, "Adding a game"). Everything else in the app finds the game's parts from this line."""

from __future__ import annotations

import functools
from importlib import import_module
from pathlib import Path
from types import ModuleType

from .base import Engine

# slug -> "module:attribute", imported on first use so one broken game cannot hide the others' errors.
GAMES = {
    "dogo-dash": "companion.games.dogo_dash:engine",
    "summer-suns": "companion.games.summer_suns:engine",
    "hang-four": "companion.games.hang_four:engine",
    "surfs-up": "companion.games.surfs_up:engine",
    "any-game": "companion.games.any_game:engine",
    "yahtzee": "companion.games.yahtzee:engine",
    "roll-and-write": "companion.games.roll_and_write:engine",  # every rules sheet (issue 44)
}

_loaded: dict[str, Engine] = {}


def get(slug: str) -> Engine:
    if slug not in _loaded:
        module_name, attribute = GAMES[slug].split(":")
        _loaded[slug] = getattr(import_module(module_name), attribute)
    return _loaded[slug]


def all_engines() -> list[Engine]:
    return [get(slug) for slug in GAMES]


def package(slug: str) -> str:
    """The game's folder as a Python package: "companion.games.dogo_dash"."""
    return GAMES[slug].split(":")[0]


def part(slug: str, name: str) -> ModuleType:
    """One module of the game's folder: its screen, its golden script, its invariants."""
    return import_module(f"{package(slug)}.{name}")


def folder(slug: str) -> Path:
    """The game's folder on disk: its data files, RULES.md, golden.txt, templates/ and static/."""
    return _folder_of(package(slug))


@functools.cache
def _folder_of(package_name: str) -> Path:
    return Path(import_module(f"{package_name}.__init__").__file__).parent


@functools.cache
def _optional_part(package_name: str, name: str) -> ModuleType | None:
    """A module a game's folder may leave out, looked for once: every live region asks (a stat and
    a path built each time were ~2% of a worker's CPU under a convention's load, issue 45)."""
    if not (_folder_of(package_name) / f"{name}.py").exists():
        return None
    return import_module(f"{package_name}.{name}")


def screen(slug: str) -> ModuleType:
    """How the game's pages read a state and turn a posted form into an action (no rules there)."""
    return part(slug, "screen")


def hidden(slug: str) -> ModuleType | None:
    """The game's values a seat notes in secret until the end (its folder's hidden.py), if any."""
    return _optional_part(package(slug), "hidden")


def routes(slug: str) -> ModuleType | None:
    """The game's own reads of the JSON API (its folder's routes.py: READS), if it has any."""
    return _optional_part(package(slug), "routes")


def guide(slug: str) -> ModuleType | None:
    """How to set the game up for a number of players (its folder's guide.py), if it has one."""
    return _optional_part(package(slug), "guide")


def template_dir(slug: str) -> str:
    """Where the game's partials are, under its folder's templates/: "dogo_dash"."""
    return package(slug).rsplit(".", 1)[-1]


def apps() -> list[str]:
    """The game folders as Django apps (settings.INSTALLED_APPS), so their templates/ are found."""
    return [package(slug) for slug in GAMES]
