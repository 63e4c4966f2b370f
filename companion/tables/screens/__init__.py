"""Per game, how its screens turn a posted form into an action. No rules here: the engine judges."""

from importlib import import_module

SCREENS = {
    "dogo-dash": "companion.tables.screens.dogo_dash",
    "summer-suns": "companion.tables.screens.summer_suns",
    "hang-four": "companion.tables.screens.hang_four",
    "surfs-up": "companion.tables.screens.surfs_up",
}


def for_game(slug: str):
    return import_module(SCREENS[slug])


def template_dir(slug: str) -> str:
    return "tables/" + slug.replace("-", "_")
