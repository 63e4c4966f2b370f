"""A pad's setup, checked (AG-1): the game's name, its BoardGameGeek id, rounds or categories, which
way scores win and an optional target. A setup outside these is refused whole (HTTP 400)."""

from __future__ import annotations

from companion.games.words import _

from .. import names as name_rules
from ..base import BadAction, is_int, shown

NAME_MAX = 80
BGG_ID_MAX = 2**31 - 1  # BoardGameGeek's ids are far below; past 64 bits no JSON writer takes one
CATEGORY_MAX = 40
CATEGORIES_MAX = 30
MODES = ("rounds", "categories")


def refuse(message: str) -> None:
    raise BadAction("bad_options", _("{message} (AG-1).").format(message=message))


def checked_options(options: dict) -> dict:
    """The options as the pad keeps them: names trimmed, every rule of AG-1 checked."""
    name = name_rules.tidy(options["game_name"])
    if not name:
        refuse(_("Name the game this pad keeps the score of"))
    _no_hidden(name, _("The game's name"))
    if len(name) > NAME_MAX:
        refuse(
            _("A game's name has at most {NAME_MAX} characters, not {len}").format(
                NAME_MAX=NAME_MAX, len=len(name)
            )
        )
    bgg_id = options["bgg_id"]
    if not is_int(bgg_id) or not 0 <= bgg_id <= BGG_ID_MAX:
        refuse(
            _("The BoardGameGeek id is a positive whole number (0 for none), not {shown}").format(
                shown=shown(bgg_id)
            )
        )
    mode = options["mode"]
    if mode not in MODES:
        refuse(_("The pad counts 'rounds' or 'categories', not {shown}").format(shown=shown(mode)))
    categories = _categories(options["categories"], mode)
    target = options["target"]
    if not is_int(target) or target < 0:
        refuse(
            _("The target is a positive whole number (0 for none), not {shown}").format(shown=shown(target))
        )
    if target and mode == "categories":
        refuse(_("A target ends a pad of rounds; a pad of categories ends when every cell is written"))
    return {
        "game_name": name,
        "bgg_id": bgg_id,
        "mode": mode,
        "categories": categories,
        "lowest_wins": bool(options["lowest_wins"]),
        "target": target,
    }


def _categories(value, mode: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        refuse(_("The categories are a list of names"))
    names = [name_rules.tidy(item) for item in value]
    if mode == "rounds":
        if names:
            refuse(_("A pad of rounds has no categories: choose the categories mode to name them"))
        return []
    if not 1 <= len(names) <= CATEGORIES_MAX:
        refuse(
            _("A pad of categories has 1 to {CATEGORIES_MAX} of them, not {len}").format(
                CATEGORIES_MAX=CATEGORIES_MAX, len=len(names)
            )
        )
    for item in names:
        _no_hidden(item, _("A category's name"))
        if not 1 <= len(item) <= CATEGORY_MAX:
            refuse(
                _("A category's name has 1 to {CATEGORY_MAX} characters: {shown}").format(
                    CATEGORY_MAX=CATEGORY_MAX, shown=shown(item)
                )
            )
    folded = [item.casefold() for item in names]
    twice = next((item for item, key in zip(names, folded, strict=True) if folded.count(key) > 1), None)
    if twice is not None:
        refuse(_("Each category is named once: {shown} is there twice").format(shown=shown(twice)))
    return names


def _no_hidden(name: str, what: str) -> None:
    if (char := name_rules.hidden(name)) is not None:
        refuse(
            _("{what} cannot hold invisible characters or ones that turn the text around ({char})").format(
                what=what, char=char
            )
        )
