"""A pad's setup, checked (AG-1, AG-7, AG-10): the game's name, its BoardGameGeek id, rounds or
categories (with a score sheet's lines that count against and its tie-breaker line, AG-4, AG-6),
which way scores win, an optional target, the outcome (points, win or lose, co-op) and the
expansions played. A setup outside these is refused whole (HTTP 400). The seats' own options
(teams, roles) need the number of players: seating.py checks them."""

from __future__ import annotations

from companion.games.words import _

from .. import names as name_rules
from ..base import WHOLE_MAX, BadAction, is_int, shown

NAME_MAX = 80
BGG_ID_MAX = WHOLE_MAX  # BoardGameGeek's ids are far below; past 64 bits no JSON writer takes one
TARGET_MAX = WHOLE_MAX  # a total is kept in an integer column (Seat.score): none gets past it
CATEGORY_MAX = 40
CATEGORIES_MAX = 30
MODES = ("rounds", "categories")
OUTCOMES = ("points", "win_loss", "coop")
EXPANSIONS_MAX = 20
EXPANSION_MAX = 80


def refuse(message: str, rule: str = "AG-1") -> None:
    raise BadAction("bad_options", _("{message} ({rule}).").format(message=message, rule=rule))


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
    if target > TARGET_MAX:
        refuse(_("The target is at most {count}, not {shown}").format(count=TARGET_MAX, shown=shown(target)))
    if target and mode == "categories":
        refuse(_("A target ends a pad of rounds; a pad of categories ends when every cell is written"))
    outcome = _outcome(options, mode, target)
    checked = {
        "game_name": name,
        "bgg_id": bgg_id,
        "mode": mode,
        "categories": categories,
        "lowest_wins": bool(options["lowest_wins"]),
        "target": target,
        "outcome": outcome,
        "expansions": _expansions(options["expansions"]),
    }
    # A sheet's special lines (sheet_lines.py), kept only when named: a pad without them is as before.
    against = _named_lines(options.get("against", []), categories, _("A category that counts against"))
    if against:
        checked["against"] = against
    tie_breaker = _tie_breaker(options.get("tie_breaker", ""), categories, against)
    if tie_breaker:
        checked["tie_breaker"] = tie_breaker
        checked["tie_breaker_lowest"] = bool(options.get("tie_breaker_lowest", False))
    headings = _headings(options.get("headings", {}), categories)
    if headings:
        checked["headings"] = headings
    return checked


def _headings(value, categories: list[str]) -> dict[str, str]:
    """A sheet's headings over its lines (line -> heading), as the categories spell the lines. A
    heading only shows the sheet as printed: one over a line the table renamed or left out is
    dropped, not refused (the form fills them in from a sheet; the group may change its lines)."""
    if not isinstance(value, dict) or not all(isinstance(item, str) for item in (*value, *value.values())):
        refuse(_("The headings are an object of a category's name -> the heading over it"), "AG-4")
    by_key = {category.casefold(): category for category in categories}
    headings = {}
    for line, heading in value.items():
        heading = name_rules.tidy(heading)
        found = by_key.get(name_rules.tidy(line).casefold())
        if found is None or not heading:
            continue
        _no_hidden(heading, _("A heading"))
        if len(heading) > CATEGORY_MAX:
            refuse(
                _("A heading has 1 to {CATEGORY_MAX} characters: {shown}").format(
                    CATEGORY_MAX=CATEGORY_MAX, shown=shown(heading)
                ),
                "AG-4",
            )
        headings[found] = heading
    return {category: headings[category] for category in categories if category in headings}


def _named_lines(value, categories: list[str], what: str) -> list[str]:
    """Names of the pad's own categories (any case), as the categories spell them."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        refuse(_("{what} is a list of the categories' names").format(what=what), "AG-4")
    by_key = {category.casefold(): category for category in categories}
    named = []
    for item in value:
        found = by_key.get(name_rules.tidy(item).casefold())
        if found is None:
            refuse(
                _("{what} is one of the categories: {shown} is not one").format(what=what, shown=shown(item)),
                "AG-4",
            )
        if found not in named:
            named.append(found)
    return named


def _tie_breaker(value, categories: list[str], against: list[str]) -> str:
    if not isinstance(value, str):
        refuse(_("The tie-breaker is the name of one of the categories"), "AG-6")
    if not value.strip():
        return ""
    (line,) = _named_lines([value], categories, _("The tie-breaker"))
    if line in against:
        refuse(_("The tie-breaker is written, not added: it cannot also count against"), "AG-6")
    if len(categories) < 2:
        refuse(_("A tie-breaker needs another category that counts"), "AG-6")
    return line


def _outcome(options: dict, mode: str, target: int) -> str:
    """AG-7: a game without points, or played together, keeps no categories, no target and no
    lowest total (its pad ends with the result said)."""
    outcome = options["outcome"]
    if outcome not in OUTCOMES:
        refuse(
            _("The outcome is 'points', 'win_loss' or 'coop', not {shown}").format(shown=shown(outcome)),
            "AG-7",
        )
    if outcome != "points":
        kind = _("A game without points") if outcome == "win_loss" else _("A co-op game")
        if mode != "rounds":
            refuse(_("{kind} has no categories").format(kind=kind), "AG-7")
        if target:
            refuse(
                _("{kind} has no target: the table says the result when it ends").format(kind=kind), "AG-7"
            )
        if options["lowest_wins"]:
            refuse(_("{kind} has no lowest total").format(kind=kind), "AG-7")
    return outcome


def _expansions(value) -> list[str]:
    """AG-10: up to 20 names of 1-80 characters, each named once."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        refuse(_("The expansions are a list of names"), "AG-10")
    names = [name_rules.tidy(item) for item in value]
    if len(names) > EXPANSIONS_MAX:
        refuse(_("A play names {count} expansions at most").format(count=EXPANSIONS_MAX), "AG-10")
    for item in names:
        _no_hidden(item, _("An expansion's name"), "AG-10")
        if not 1 <= len(item) <= EXPANSION_MAX:
            refuse(
                _("An expansion's name has 1 to {count} characters: {shown}").format(
                    count=EXPANSION_MAX, shown=shown(item)
                ),
                "AG-10",
            )
    folded = [item.casefold() for item in names]
    twice = next((item for item, key in zip(names, folded, strict=True) if folded.count(key) > 1), None)
    if twice is not None:
        refuse(_("Each expansion is named once: {shown} is there twice").format(shown=shown(twice)), "AG-10")
    return names


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


def _no_hidden(name: str, what: str, rule: str = "AG-1") -> None:
    if (char := name_rules.hidden(name)) is not None:
        refuse(
            _("{what} cannot hold invisible characters or ones that turn the text around ({char})").format(
                what=what, char=char
            ),
            rule,
        )
