"""Where a game's ratings got to (issue 42): the model's state after the game's plays up to one
play, kept in the cache so that a play that finishes later is rated on its own instead of the
whole history again (100,000 plays: ~1.5 s each time a play ends; resumed: a few ms).

The state is resumed only while the plays it went through are exactly as they were: the same
number of finished plays up to its last one and the same sum of their versions (an undo, an
import of older plays, a merge of two players, which moves its tables' versions, change one of
them), and the same number of players in the group. Anything else starts again from the first
play; tests/history/test_ratings.py compares both ways."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import Count, Q, QuerySet, Sum

CACHE_SECONDS = 24 * 60 * 60


@dataclass
class Progress:
    people: int  # the group's players when it was kept
    through: tuple[dt.datetime, str] | None = None  # the last play rated: (finished, pk)
    plays: int = 0  # the game's finished plays up to `through` (rated or not: co-op, solo)
    versions: int = 0  # the sum of their versions
    ratings: dict[int, tuple[float, float]] = field(default_factory=dict)  # player -> (mu, sigma)
    counts: dict[int, list[int]] = field(default_factory=dict)  # player -> [plays, wins]

    def after(self) -> Q:
        """The plays not yet rated: those that finished after `through`, in the rating order."""
        if self.through is None:
            return Q()
        finished, pk = self.through
        return Q(finished__gt=finished) | Q(finished=finished, pk__gt=pk)

    def went_through(self, row: tuple) -> None:
        """Count a play (rated or not) as read: `row` is (pk, finished, version)."""
        pk, finished, version = row
        self.through = (finished, pk)
        self.plays += 1
        self.versions += version


def _name(group_id: str, key: str) -> str:
    return "rating-progress:" + hashlib.sha256(f"{group_id}:{key}".encode()).hexdigest()


def resume(group_id: str, key: str, plays: QuerySet, people: int) -> Progress:
    """The kept progress of game `key` if `plays` (its finished plays) still hold what it went
    through, else a progress from the first play. One aggregate query when something is kept."""
    kept = cache.get(_name(group_id, key))
    if kept is None or kept.people != people or kept.through is None:
        return Progress(people=people)
    finished, pk = kept.through
    upto = plays.filter(Q(finished__lt=finished) | Q(finished=finished, pk__lte=pk))
    facts = upto.aggregate(plays=Count("pk"), versions=Sum("version"))
    if (facts["plays"], facts["versions"] or 0) != (kept.plays, kept.versions):
        return Progress(people=people)
    return kept


def keep(group_id: str, key: str, progress: Progress) -> None:
    cache.set(_name(group_id, key), progress, timeout=CACHE_SECONDS)
