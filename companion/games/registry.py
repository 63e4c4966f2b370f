"""Game slug -> engine. Adding a game: write its package under games/, add one line here."""

from __future__ import annotations

from importlib import import_module

from .base import Engine

# slug -> "module:attribute", imported on first use so one broken game cannot hide the others' errors.
GAMES = {
    "dogo-dash": "companion.games.dogo_dash:engine",
    "summer-suns": "companion.games.summer_suns:engine",
    "hang-four": "companion.games.hang_four:engine",
    "surfs-up": "companion.games.surfs_up:engine",
}

_loaded: dict[str, Engine] = {}


def get(slug: str) -> Engine:
    if slug not in _loaded:
        module_name, attribute = GAMES[slug].split(":")
        _loaded[slug] = getattr(import_module(module_name), attribute)
    return _loaded[slug]


def all_engines() -> list[Engine]:
    return [get(slug) for slug in GAMES]
