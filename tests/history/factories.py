"""Tables for history tests: real games played out through the service, and hand-written results.

`play_out` runs a whole game through `services.play_action` with the engine's random legal
actions, so the log, the snapshot and the seats' results are exactly what a real table leaves.
`finished_play` writes a finished table's rows directly with the scores and winners given, for
statistics checked against figures computed by hand.
"""

from __future__ import annotations

import datetime as dt
import random

from django.utils import timezone

from companion.games import base, registry
from companion.groups.models import Group
from companion.tables import services
from companion.tables.models import Event, Seat, Table
from tests.engines.setups import playable

MAX_STEPS = 3000


def play_out(
    game: str,
    names: list[str],
    seed: int = 1,
    options: dict | None = None,
    undo_every: int = 0,
    group: Group | None = None,
):
    """A finished table of `game` (in `group`, else the default group), played with seeded random
    legal actions (and an undo every `undo_every` entries, when given, so the log holds undone
    entries too)."""
    engine = registry.get(game)
    rng = random.Random(seed)
    table = services.create_table(game, names, options or {}, group)
    for step in range(1, MAX_STEPS):
        if table.status == Table.Status.FINISHED:
            return table
        if undo_every and step % undo_every == 0 and table.events.filter(undone=False).exists():
            services.undo(table.id, table.version)
        else:
            services.play_action(table.id, engine.sample_action(table.snapshot, rng), table.version)
        table.refresh_from_db()
    raise AssertionError(f"{game} did not finish in {MAX_STEPS} steps (seed {seed})")


def golden_table(slug: str, steps: int | None = None) -> Table:
    """A table of `slug` with its golden playthrough's first `steps` entries made (all by default)."""
    from tests.engines.golden_playthrough import script

    names, options, actions = script(slug)
    table = services.create_table(slug, names, options)
    for action in actions[:steps]:
        table.refresh_from_db()
        services.play_action(table.id, action, table.version)
    table.refresh_from_db()
    return table


def finished_play(
    game: str,
    seats: list[tuple[str, int, bool]],
    finished: dt.datetime | None = None,
    minutes: int = 30,
    place: str = "",
    options: dict | None = None,
    group: Group | None = None,
) -> Table:
    """A finished table with (name, score, won) per seat in seat order, and two log entries
    `minutes` apart so its length reads as `minutes`. The snapshot is the game's setup: pages that
    draw the board get a valid state, but statistics only read the seats' results. `options`: the
    game's (a pad's game name), else a setup that is a game (tests/engines/setups.py)."""
    finished = finished or timezone.now()
    group = group or Group.default()
    engine = registry.get(game)
    options = base.validate_options(engine, options) if options is not None else playable(engine)
    table = Table.objects.create(
        group=group,
        game=game,
        options=options,
        snapshot=engine.setup(len(seats), options),
        status=Table.Status.FINISHED,
        created=finished - dt.timedelta(minutes=minutes + 5),
        finished=finished,
        place=place,
    )
    for position, (name, score, won) in enumerate(seats):
        Seat.objects.create(
            table=table,
            player=services.find_or_create_player(name, group),
            position=position,
            score=score,
            won=won,
        )
    for seq, at in ((1, finished - dt.timedelta(minutes=minutes)), (2, finished)):
        Event.objects.create(table=table, seq=seq, action={"type": "fixture"}, text="", created=at)
    return table


def home() -> Group:
    """The default group: where every table made without a group sits (issue 16)."""
    return Group.default()
