"""How the history pages grow with the history: the same pages timed on 100 and on 2,000 finished plays.

The statistics are database aggregates (companion/history/stats.py), so a page's query count does
not depend on the number of plays (tests/history/test_stats.py pins that); this script shows what
that means in time. It builds each history in a temporary SQLite database (or, with --db postgres,
in a fresh PostgreSQL database created and dropped here), in bulk, with random scores for six
people across the four games, then renders each page through Django's test client: a few warm-up
runs, then REPEATS timed runs, and prints the median of each and the ratio large/small.

    .venv/bin/python bench/history.py                 # SQLite (make bench)
    .venv/bin/python bench/history.py --db postgres
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = (100, 2000)
REPEATS = 15
PEOPLE = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn"]
GAMES = {"dogo-dash": (2, 5, 40), "summer-suns": (1, 5, 80), "hang-four": (2, 4, 5), "surfs-up": (2, 5, 50)}
PG = "postgres://postgres@127.0.0.1:5432/"


def build(plays: int, seed: int = 7) -> None:
    """`plays` finished tables in bulk: seats with scores and wins, two log entries each."""
    from django.utils import timezone

    from companion.games import registry
    from companion.tables.models import Event, Player, Seat, Table

    rng = random.Random(seed)
    people = {name: Player.objects.get_or_create(name=name)[0] for name in PEOPLE}
    start = timezone.now() - dt.timedelta(days=plays)
    tables, seats, events = [], [], []
    for index in range(plays):
        game = list(GAMES)[index % 4]
        low, high, top = GAMES[game]
        engine = registry.get(game)
        names = rng.sample(PEOPLE, rng.randint(max(low, 2), high))
        finished = start + dt.timedelta(days=index)
        table = Table(
            game=game,
            played=game,  # bulk_create skips Table.save, which sets it (a game of its own: its slug)
            options=dict(engine.options),
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


def pages() -> dict[str, str]:
    from companion.tables.models import Player

    ann = Player.objects.get(name="Ann").pk
    return {
        "archive (25 newest)": "/history/",
        "archive, one player": f"/history/?player={ann}",
        "player page": f"/history/players/{ann}/",
        "game page": "/history/games/dogo-dash/",
        "players list": "/history/players/",
        "plays CSV (all)": "/history/plays.csv",
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


def measure(plays: int) -> dict[str, float]:
    """Run in a child process per size (a fresh database, a fresh Django)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    build(plays)
    client = Client()
    return {name: median_ms(client, url) for name, url in pages().items()}


def child(plays: int, db: str) -> dict[str, float]:
    env = {**os.environ, "DEBUG": "false", "ALLOWED_HOSTS": "testserver", "RATELIMIT_ENABLE": "false"}
    env.pop("COMPANION_LOGIN_REQUIRED", None)
    with tempfile.TemporaryDirectory() as folder:
        if db == "postgres":
            name = f"companion_bench_history_{os.getpid()}_{plays}"
            subprocess.run(["psql", PG + "postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
            env["DATABASE_URL"] = PG + name
        else:
            env["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        try:
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(plays)],
                env=env,
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        finally:
            if db == "postgres":
                subprocess.run(
                    ["psql", PG + "postgres", "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True
                )
    figures = {}
    for line in out.strip().splitlines():
        name, value = line.rsplit("\t", 1)
        figures[name] = float(value)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--child", type=int)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(ROOT))
        for name, value in measure(args.child).items():
            print(f"{name}\t{value:.2f}")
        return
    small, large = (child(size, args.db) for size in SIZES)
    print(f"History pages on {args.db}, median of {REPEATS} renders (ms), {SIZES[0]} vs {SIZES[1]} plays")
    print(f"{'page':<22}{SIZES[0]:>10}{SIZES[1]:>10}{'ratio':>8}")
    for name in small:
        print(f"{name:<22}{small[name]:>10.1f}{large[name]:>10.1f}{large[name] / small[name]:>8.2f}")
    print("Pages run a fixed number of aggregate queries: only the database's scans grow.")
    print("The CSV writes a row per seat of every play, so it grows with the history.")


if __name__ == "__main__":
    main()
