"""One group of 100,000 finished plays (issue 42), for bench/history.py: built in bulk as the file
builds its smaller histories, shaped like a real group that brought years of plays in.

25 people and two guests; the four games with their engines, kept here with a log of two entries;
96 games brought in on score pads (BG Stats with times, BGG with a day only), a few lowest-wins,
a few played in teams (every member holding the team's score, as an import writes it), a few
co-op, and now and then a score that was no number (kept as none).
"""

from __future__ import annotations

import datetime as dt
import itertools
import random

PEOPLE = [f"Person {n:02d}" for n in range(25)]
GUESTS = ["Anonymous", "Anonymous player"]
ENGINE_GAMES = {
    "dogo-dash": (2, 5, 40),
    "summer-suns": (1, 5, 80),
    "hang-four": (2, 4, 5),
    "surfs-up": (2, 5, 50),
}
PADS = 96
BATCH = 2000  # tables per bulk insert: memory stays flat whatever the size
TABLE_IDS = (f"L{n:09x}" for n in itertools.count(1))


def pad_options(number: int) -> dict:
    """The options an import gives its pad of game `number`: one in twelve lowest-wins, one in
    ten played in two teams, one in fifteen co-op."""
    outcome = "coop" if number % 15 == 0 else "points"
    options = {
        "game_name": f"Brought game {number:02d}",
        "bgg_id": 100_000 + number,
        "mode": "rounds",
        "categories": [],
        "lowest_wins": number % 12 == 0,
        "target": 0,
        "outcome": outcome,
        "teams": [],
        "roles": {},
        "expansions": [],
    }
    return options


def build(plays: int, seed: int = 42):
    """The group, with `plays` finished plays ending a few hours apart up to now."""
    from django.utils import timezone

    from companion.games import registry
    from companion.groups.models import Group
    from companion.tables.models import Event, Player, Seat, Table

    rng = random.Random(seed)
    group = Group.objects.create(name="A group of long standing", time_zone="Europe/Berlin")
    people = Player.objects.bulk_create(Player(group=group, name=name) for name in PEOPLE)
    guests = Player.objects.bulk_create(Player(group=group, name=name, guest=True) for name in GUESTS)
    now = timezone.now()
    step = dt.timedelta(hours=6)
    tables, seats, events = [], [], []
    for index in range(plays):
        finished = now - step * (plays - index)
        if index % 4 == 0:  # a game kept here, with its log
            game = list(ENGINE_GAMES)[index // 4 % 4]
            low, high, top = ENGINE_GAMES[game]
            table = Table(
                id=next(TABLE_IDS),
                group=group,
                game=game,
                played=game,  # bulk_create skips Table.save, which sets it
                options=dict(registry.get(game).options),
                snapshot={},
                status=Table.Status.FINISHED,
                created=finished - dt.timedelta(hours=1),
                finished=finished,
            )
            events += [
                Event(table=table, seq=1, action={}, created=finished - dt.timedelta(minutes=40)),
                Event(table=table, seq=2, action={}, created=finished),
            ]
            seated = rng.sample(people, rng.randint(max(low, 2), high))
            scores = [rng.randint(0, top) for _ in seated]
            won = [score == max(scores) for score in scores]
        else:  # a play brought in from BG Stats (timed) or BGG (a day only)
            number = rng.randint(1, PADS)
            options = pad_options(number)
            teams = number % 10 == 0
            seated = rng.sample(people, 4 if teams else rng.randint(2, 6))
            if rng.random() < 0.05:
                seated[-1] = rng.choice(guests)
            source = "bgstats" if index % 3 else "bgg"
            length = rng.randint(15, 150)
            table = Table(
                id=next(TABLE_IDS),
                group=group,
                game="any-game",
                title=options["game_name"],
                played=f"any-game:{options['game_name'].casefold()}",
                options={**options, "teams": [[0, 1], [2, 3]] if teams else []},
                snapshot={},
                status=Table.Status.FINISHED,
                created=finished - dt.timedelta(minutes=length),
                finished=finished,
                duration_minutes=length,
                source=source,
                origin_id=f"play-{index}",
                timed=source == "bgstats",
            )
            scores, won = pad_result(rng, options, len(seated), teams)
        tables.append(table)
        seats += [
            Seat(table=table, player=player, position=i, score=score, won=win)
            for i, (player, score, win) in enumerate(zip(seated, scores, won, strict=True))
        ]
        if len(tables) >= BATCH:
            flush(tables, seats, events)
    flush(tables, seats, events)
    return group


def pad_result(rng: random.Random, options: dict, count: int, teams: bool) -> tuple[list, list]:
    """Scores and wins as an import writes them: a team's score on each of its members, a co-op
    play won or lost by all, a score that was no number now and then (none)."""
    if options["outcome"] == "coop":
        win = rng.random() < 0.5
        return [None] * count, [win] * count
    if teams:
        first, second = rng.randint(20, 120), rng.randint(20, 120)
        scores = [first, first, second, second]
    else:
        scores = [rng.randint(0, 120) for _ in range(count)]
    best = min(scores) if options["lowest_wins"] else max(scores)
    won = [score == best for score in scores]
    if rng.random() < 0.03:
        scores[rng.randrange(count)] = None
    return scores, won


def flush(tables: list, seats: list, events: list) -> None:
    from companion.tables.models import Event, Seat, Table

    Table.objects.bulk_create(tables, batch_size=500)
    Seat.objects.bulk_create(seats, batch_size=500)
    Event.objects.bulk_create(events, batch_size=500)
    tables.clear()
    seats.clear()
    events.clear()


def pages(group) -> dict[str, str]:
    from companion.tables.models import Player

    person = Player.objects.get(group=group, name=PEOPLE[0]).pk
    h = f"/g/{group.pk}/history"
    return {
        "player page": f"{h}/players/{person}/",
        "game page (engine)": f"{h}/games/dogo-dash/",
        "game page (pad)": f"{h}/games/any-game:brought game 07/",
        "games list": f"{h}/games/",
        "players list": f"{h}/players/",
        "archive (25 newest)": f"{h}/",
        "API plays, page 1": f"/api/v1/groups/{group.pk}/plays",
    }


def finish_one_more(group) -> None:
    """One more play of the group's first person ends now (a copy of her latest): the history's
    stamp changes, as it does each time a table at the club ends."""
    from django.utils import timezone

    from companion.tables.models import Player, Seat, Table, new_table_id

    person = Player.objects.get(group=group, name=PEOPLE[0])
    latest = Table.objects.filter(group=group, seats__player=person, game="dogo-dash").latest("finished")
    seats = list(latest.seats.all())
    latest.pk, latest.finished = new_table_id(), timezone.now()
    latest._state.adding = True
    latest.save()
    Seat.objects.bulk_create(
        Seat(table=latest, player_id=seat.player_id, position=seat.position, score=seat.score, won=seat.won)
        for seat in seats
    )
