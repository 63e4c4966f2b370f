"""A game brought in on a score pad that is a game the app has an engine for (issue 42): an imported
"Yahtzee" and the built-in Yahtzee are one game in the history's lists, figures and pages.

The rule: a pad game is the engine's game when it has the engine's name (ignoring case) and either
no BoardGameGeek id or the engine's own (an engine may declare `bgg_id`). A pad of that name with
another BGG id is another game that shares the name: it stays apart, named "Yahtzee (imported)".
A pad game with the engine's BGG id under another name is not looked for: finding it would read
every imported play's options on every page (the import keeps each file's name as the game).

Only the pad games whose key is an engine's name are candidates, so finding them is one indexed
query of those few keys (Table.played), whatever the size of the history.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import CharField, F, Value
from django.db.models.expressions import Case, When
from django.db.models.fields.json import KT

from companion.games import base, registry
from companion.tables.models import Table

PAD = "any-game"


@dataclass(frozen=True)
class Twins:
    """The group's pad games that are an engine's game (pad key -> engine slug), and those that
    only share an engine's name (kept apart)."""

    of_engine: dict[str, str]
    namesakes: frozenset[str]

    def key(self, played: str) -> str:
        """The history key a play counts under: the engine's for a twin pad, else its own."""
        return self.of_engine.get(played, played)

    def keys(self, key: str) -> list[str]:
        """Every Table.played the game `key` covers: itself and its twin pads."""
        return [key, *sorted(pad for pad, slug in self.of_engine.items() if slug == key)]

    def expression(self, field: str = "played"):
        """`field` (a Table.played path) mapped to the game it counts as, in the database."""
        if not self.of_engine:
            return F(field)
        whens = [When(**{f"{field}__in": self.keys(slug)[1:]}, then=Value(slug)) for slug in self.slugs]
        return Case(*whens, default=F(field), output_field=CharField())

    @property
    def slugs(self) -> list[str]:
        return sorted(set(self.of_engine.values()))


def candidates() -> dict[str, object]:
    """The pad key each engine's name would have -> the engine."""
    return {
        base.history_key(PAD, engine.name): engine
        for engine in registry.all_engines()
        if not base.is_pad(engine)
    }


def twins(group) -> Twins:
    named = candidates()
    found = (
        Table.objects.filter(group=group, played__in=list(named), status=Table.Status.FINISHED)
        .values_list("played", KT("options__bgg_id"))
        .distinct()
    )
    ids: dict[str, set[int]] = {}
    for key, bgg_id in found:
        ids.setdefault(key, set()).add(_whole(bgg_id))
    of_engine, namesakes = {}, set()
    for key, seen in ids.items():
        engine = named[key]
        own = getattr(engine, "bgg_id", 0)
        if not own or seen <= {0, own}:
            of_engine[key] = engine.slug
        else:
            namesakes.add(key)
    return Twins(of_engine, frozenset(namesakes))


def _whole(value) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0
