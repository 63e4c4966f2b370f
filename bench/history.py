"""How the history pages grow with the history: the same pages of one group timed on 100 and on
2,000 finished plays, and on a server of 1,000 groups of 200 plays each (issue 16).

The statistics are database aggregates (companion/history/stats.py), so a page's query count does
not depend on the number of plays (tests/history/test_stats.py pins that); this script shows what
that means in time. It builds each history in a temporary SQLite database (or, with --db postgres,
in a fresh PostgreSQL database created and dropped here), in bulk, with random scores for six
people across the four games, then renders each page through Django's test client: a few warm-up
runs, then REPEATS timed runs, and prints the median of each and the ratio large/small.

    .venv/bin/python bench/history.py                 # SQLite (make bench)
    .venv/bin/python bench/history.py --db postgres

Then one group of 100,000 finished plays (issue 42: 25 people and two guests, the four games with
their engines and 96 games brought in from BG Stats and BoardGameGeek on score pads, some with
teams, some lowest-wins, some scores that were no number, BGG's without a time of day): the player
page, a game page, the games list, the players list and the API's first page of plays, each with
its median time (ms) and its size (KB); `--large N` builds N plays instead, `--skip-sizes` measures
only that group and the import.

Then a BG Stats export of 5,000 plays (written here, as the app writes one) is imported into a new
group, timed: read, matched and written in one transaction (issue 29's target: under 10 s).
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# (groups, plays per group): the group measured is the last one made.
SIZES = ((1, 100), (1, 2000), (1000, 200))
BATCH = 25  # groups written per bulk insert (a server of 1,000 groups holds 200,000 plays)
REPEATS = 15
PEOPLE = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn"]
GAMES = {"dogo-dash": (2, 5, 40), "summer-suns": (1, 5, 80), "hang-four": (2, 4, 5), "surfs-up": (2, 5, 50)}
PG = "postgres://postgres@127.0.0.1:5432/"
# Table ids made here, one apart: the app's random 40-bit ids collide about once in 55 builds of
# 200,000 tables (n^2 / 2^41), and one collision failed a whole CI run.
TABLE_IDS = (f"{n:010x}" for n in itertools.count(1))


def build(groups: int, plays: int, seed: int = 7):
    """`groups` groups of `plays` finished tables each, in bulk: seats with scores and wins, two
    log entries each. Returns the last group."""
    from companion.groups.models import Group

    rng = random.Random(seed)
    group = None
    for first in range(0, groups, BATCH):
        names = [f"Group {n}" for n in range(first, min(first + BATCH, groups))]
        made = Group.objects.bulk_create(Group(name=name) for name in names)
        build_plays(made, plays, rng)
        group = made[-1]
    return group


def build_plays(groups, plays: int, rng: random.Random) -> None:
    from django.utils import timezone

    from companion.games import registry
    from companion.tables.models import Event, Player, Seat, Table

    start = timezone.now() - dt.timedelta(days=plays)
    tables, seats, events = [], [], []
    for group in groups:
        people = {name: Player(group=group, name=name) for name in PEOPLE}
        Player.objects.bulk_create(people.values())
        for index in range(plays):
            game = list(GAMES)[index % 4]
            low, high, top = GAMES[game]
            names = rng.sample(PEOPLE, rng.randint(max(low, 2), high))
            finished = start + dt.timedelta(days=index)
            table = Table(
                id=next(TABLE_IDS),
                group=group,
                game=game,
                played=game,  # bulk_create skips Table.save, which sets it (a game of its own: its slug)
                options=dict(registry.get(game).options),
                snapshot={},
                status=Table.Status.FINISHED,
                created=finished - dt.timedelta(hours=1),
                finished=finished,
            )
            tables.append(table)
            scores = [rng.randint(0, top) for _ in names]
            best = max(scores)
            seats += [
                Seat(table=table, player=people[name], position=i, score=score, won=score == best)
                for i, (name, score) in enumerate(zip(names, scores, strict=True))
            ]
            events += [
                Event(table=table, seq=1, action={}, created=finished - dt.timedelta(minutes=40)),
                Event(table=table, seq=2, action={}, created=finished),
            ]
    Table.objects.bulk_create(tables, batch_size=500)
    Seat.objects.bulk_create(seats, batch_size=500)
    Event.objects.bulk_create(events, batch_size=500)


IMPORT_PLAYS = 5000


def bgstats_file(plays: int, seed: int = 11) -> bytes:
    """A BG Stats export of `plays` plays: 60 games (one co-op in ten), 24 players, 2-6 a play."""
    import json

    rng = random.Random(seed)
    games = [
        {
            "id": n,
            "uuid": f"g{n}",
            "name": f"Game {n}",
            "bggId": 1000 + n,
            "highestWins": True,
            "cooperative": n % 10 == 0,
        }
        for n in range(1, 61)
    ]
    people = [
        {"id": 100 + n, "uuid": f"p{n}", "name": f"Player {n}", "isAnonymous": False} for n in range(24)
    ]
    start = dt.datetime(2005, 1, 1, 20, 0)  # a play every 17 hours: 8,000 plays end in 2020, not ahead
    made = []
    for n in range(plays):
        seated = rng.sample(people, rng.randint(2, 6))
        scores = [rng.randint(0, 120) for _ in seated]
        made.append(
            {
                "uuid": f"play-{n}",
                "gameRefId": rng.randint(1, 60),
                "playDate": (start + dt.timedelta(hours=17 * n)).strftime("%Y-%m-%d %H:%M:%S"),
                "durationMin": rng.randint(15, 150),
                "playerScores": [
                    {"playerRefId": p["id"], "score": str(score), "winner": score == max(scores), "rank": 0}
                    for p, score in zip(seated, scores, strict=True)
                ],
            }
        )
    return json.dumps({"games": games, "players": people, "locations": [], "plays": made}).encode()


def measure_import(plays: int) -> dict[str, float]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    django.setup()
    from django.core.management import call_command

    from companion.groups.models import Group
    from companion.history.importers import bgstats_file as reader
    from companion.history.importers import writer

    call_command("migrate", verbosity=0)
    raw = bgstats_file(plays)
    group = Group.objects.create(name="Imported")
    began = time.perf_counter()
    reading = reader.read(raw)
    read = time.perf_counter()
    planned = writer.plan(group, reading)
    answer = writer.write(planned)
    done = time.perf_counter()
    assert answer["plays_added"] == plays, answer
    return {
        "file MB": len(raw) / 1e6,
        "read s": read - began,
        "match and write s": done - read,
        "total s": done - began,
        **measure_api_import(API_IMPORT_PLAYS),
    }


API_IMPORT_PLAYS = 8000  # about the most a file within the upload limit holds (10 MB)


def measure_api_import(plays: int) -> dict[str, float]:
    """The largest file through the API (issue 42): POST .../imports answers 202 with its job, and
    GET .../imports/{job} is asked every 0.2 s until the job says done."""
    import json

    from django.test import Client

    from companion.groups.models import Group

    raw = bgstats_file(plays, seed=12)
    group = Group.objects.create(name="Imported through the API")
    client = Client(headers={"Authorization": f"Bearer {group.token}"})
    body = json.dumps({"format": "bgstats", "file": raw.decode()})
    began = time.perf_counter()
    answer = client.post(f"/api/v1/groups/{group.pk}/imports", body, content_type="application/json")
    accepted = time.perf_counter()
    assert answer.status_code == 202, answer.content[:300]
    polls = 0
    while (state := client.get(answer.json()["url"]).json())["status"] == "running":
        polls += 1
        time.sleep(0.2)
    finished = time.perf_counter()
    assert state["status"] == "done" and state["answer"]["plays_added"] == plays, state
    return {
        "api file MB": len(body) / 1e6,
        "api 202 s": accepted - began,
        "api done s": finished - began,
        "api polls": polls,
    }


def pages(group) -> dict[str, str]:
    from companion.tables.models import Player

    ann = Player.objects.get(group=group, name="Ann").pk
    h = f"/g/{group.pk}/history"
    return {
        "archive (25 newest)": f"{h}/",
        "archive, one player": f"{h}/?player={ann}",
        "player page": f"{h}/players/{ann}/",
        "game page": f"{h}/games/dogo-dash/",
        "players list": f"{h}/players/",
        "plays CSV (all)": f"{h}/plays.csv",
    }


def median_ms(client, url: str) -> float:
    for _ in range(3):
        assert client.get(url).status_code == 200, url
    times = []
    for _ in range(REPEATS):
        began = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, url
    return statistics.median(times)


LARGE = 100_000
LARGE_REPEATS = 5


def timed_get(client, url: str, headers: dict) -> tuple[float, int]:
    """One render's server time (ms) and its body's size (bytes), redirects followed."""
    began = time.perf_counter()
    response = client.get(url, follow=True, headers=headers)
    elapsed = (time.perf_counter() - began) * 1000
    assert response.status_code == 200, (url, response.status_code)
    return elapsed, len(response.content)


def measure_large(plays: int, repeats: int) -> dict[str, float]:
    """The 100,000-play group's pages: the first render's ms, then the median ms and KB of the next."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from history_large import build as build_large
    from history_large import finish_one_more
    from history_large import pages as large_pages

    call_command("migrate", verbosity=0)
    began = time.perf_counter()
    group = build_large(plays)
    figures = {"build s": time.perf_counter() - began}
    client = Client()
    client.get(f"/g/{group.pk}/join/{group.token}/")
    for name, url in large_pages(group).items():
        headers = {"Authorization": f"Bearer {group.token}"} if url.startswith("/api/") else {}
        first, *runs = [timed_get(client, url, headers) for _ in range(repeats + 1)]
        figures[f"{name} first ms"] = first[0]  # its figures computed (then kept under the stamp)
        figures[f"{name} ms"] = statistics.median(ms for ms, _size in runs)
        figures[f"{name} KB"] = runs[-1][1] / 1000
    # A table ends: the pages' next render reads the history again (its ratings resume where they
    # got to, resumable.py; its other figures are aggregated again by the database).
    for name in ("player page", "game page (engine)", "archive (25 newest)"):
        finish_one_more(group)
        figures[f"after a play ends: {name} ms"] = timed_get(client, large_pages(group)[name], {})[0]
    return figures


def print_large(figures: dict[str, float] | None, plays: int, db: str) -> None:
    if figures is None:
        print(f"{plays:,} plays in one group: failed")
        return
    print(f"One group of {plays:,} plays on {db} (built in {figures['build s']:.0f} s), median ms and KB:")
    print(f"{'page':<22}{'first ms':>10}{'ms':>10}{'KB':>10}", end="")
    print("   (targets: player and game pages < 300 ms, < 150 KB)")
    for key in figures:
        if key.endswith(" first ms"):
            name = key.removesuffix(" first ms")
            row = (figures[key], figures[f"{name} ms"], figures[f"{name} KB"])
            print(f"{name:<22}" + "".join(f"{value:>10.1f}" for value in row))
    print("first: the first render, in this order, with the history's figures computed and then kept;")
    print("ms: the median of the renders after it (the figures read from the cache).")
    for key in figures:
        if key.startswith("after a play ends: "):
            print(f"{key.removesuffix(' ms')}: {figures[key]:.0f} ms")


def measure(groups: int, plays: int) -> dict[str, float]:
    """Run in a child process per size (a fresh database, a fresh Django)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    group = build(groups, plays)
    client = Client()
    client.get(f"/g/{group.pk}/join/{group.token}/")  # a member of the group measured
    return {name: median_ms(client, url) for name, url in pages(group).items()}


def child(groups: int, plays: int, db: str) -> dict[str, float] | None:
    return child_named(f"{groups}x{plays}", db)


def child_named(what: str, db: str, extra: tuple[str, ...] = ()) -> dict[str, float] | None:
    """The figures of one size (or of the import), measured in a child process; None, with the
    child's error printed, when it fails (a full disk, say): the others are still worth printing."""
    env = {**os.environ, "DEBUG": "false", "ALLOWED_HOSTS": "testserver", "RATELIMIT_ENABLE": "false"}
    env.pop("COMPANION_LOGIN_REQUIRED", None)
    with tempfile.TemporaryDirectory() as folder:
        if db == "postgres":
            name = f"companion_bench_history_{os.getpid()}_{what}"
            subprocess.run(["psql", PG + "postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
            env["DATABASE_URL"] = PG + name
        else:
            env["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        try:
            run = subprocess.run(
                [sys.executable, __file__, "--child", what, *extra],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
        finally:
            if db == "postgres":
                subprocess.run(
                    ["psql", PG + "postgres", "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True
                )
    if run.returncode:
        tail = "\n".join(run.stderr.strip().splitlines()[-12:])
        print(
            f"FAILED: {what}, exit {run.returncode}; the end of its error:\n{tail}",
            flush=True,
        )
        return None
    figures = {}
    for line in run.stdout.strip().splitlines():
        name, value = line.rsplit("\t", 1)
        figures[name] = float(value)
    return figures


def cell(value: float | None, digits: int) -> str:
    return f"{'failed':>10}" if value is None else f"{value:>10.{digits}f}"


def ratio(top: float | None, bottom: float | None) -> float | None:
    return None if top is None or bottom is None else top / bottom


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--child", help="GROUPSxPLAYS: build and measure in this process")
    parser.add_argument("--large", type=int, default=LARGE, help="plays of the one large group")
    parser.add_argument("--repeats", type=int, default=LARGE_REPEATS, help="renders of each large page")
    parser.add_argument("--skip-sizes", action="store_true", help="only the large group and the import")
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(ROOT))
        if args.child == "large":
            figures = measure_large(args.large, args.repeats)
        elif args.child == "import":
            figures = measure_import(IMPORT_PLAYS)
        else:
            groups, plays = (int(part) for part in args.child.split("x"))
            figures = measure(groups, plays)
        for name, value in figures.items():
            print(f"{name}\t{value:.2f}")
        return
    large = ("--large", str(args.large), "--repeats", str(args.repeats))
    print_large(child_named("large", args.db, large), args.large, args.db)
    if not args.skip_sizes:
        measure_sizes(args.db)
    report_import(child_named("import", args.db), args.db)


def measure_sizes(db: str) -> None:
    """The pages at 100 and 2,000 plays and among 1,000 groups of 200, with their ratios."""
    runs = []
    for groups, plays in SIZES:
        began = time.perf_counter()
        runs.append(child(groups, plays, db))
        print(
            f"built and measured {groups} x {plays} plays in {time.perf_counter() - began:.0f} s", flush=True
        )
    heads = [f"{plays}" if groups == 1 else f"{groups}x{plays}" for groups, plays in SIZES]
    print(f"History pages of one group on {db}, median of {REPEATS} renders (ms)")
    print(f"{'page':<22}" + "".join(f"{head:>10}" for head in heads) + f"{'2000/100':>10}{'1000x/1':>10}")
    names = next((run for run in runs if run), {})
    for name in names:
        small, large, many = (run[name] if run else None for run in runs)
        figures = [cell(small, 1), cell(large, 1), cell(many, 1), cell(ratio(large, small), 2)]
        print(f"{name:<22}" + "".join(figures) + cell(ratio(many, small), 2))
    print("Pages run a fixed number of aggregate queries: only the database's scans grow.")
    print("The CSV writes a row per seat of every play, so it grows with the history.")
    print(
        "1000x200: the last of 1,000 groups of 200 plays (200,000 plays on the server),"
        " against 100 plays alone."
    )


def report_import(imported: dict[str, float] | None, db: str) -> None:
    if imported is None:
        print(f"Import of a BG Stats file of {IMPORT_PLAYS:,} plays: failed")
        return
    verdict = "ok" if imported["total s"] < 10 else "MISSED"
    print(
        f"Import of a BG Stats file of {IMPORT_PLAYS:,} plays ({imported['file MB']:.1f} MB) on {db}: "
        f"read {imported['read s']:.2f} s, match and write {imported['match and write s']:.2f} s, "
        f"total {imported['total s']:.2f} s (target < 10 s: {verdict})"
    )
    print(
        f"The same through the API, {API_IMPORT_PLAYS:,} plays ({imported['api file MB']:.1f} MB of JSON): "
        f"202 with its job after {imported['api 202 s']:.2f} s, done after {imported['api done s']:.2f} s "
        f"({imported['api polls']:.0f} polls of GET .../imports/{{job}})"
    )


if __name__ == "__main__":
    main()
