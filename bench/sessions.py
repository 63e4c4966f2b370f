"""What a session that can end costs a live table's requests (issue 41): the same requests of one
table, timed interleaved for three phones, in one Django (the test client, no network):

- a phone without an account (its grants in the signed cookie: no query for them);
- a signed-in phone, as the app keeps it (the signed cookie names its login: one query reads the
  login and its account, which request.user then uses);
- a signed-in phone on Django's server-side sessions (django.contrib.sessions' db engine, as the
  other way the issue names: a row per session, read on every request).

A poll that finds the page current (204) is the request a live table makes most; the table page is
the heaviest. Prints the median and p90 in ms of each, the queries each makes, and the ratios to
the phone without an account.

    .venv/bin/python bench/sessions.py               # SQLite, then PostgreSQL when it answers
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 1500
PG = "postgres://postgres@127.0.0.1:5432/"
DB_SESSIONS = {
    "SESSION_ENGINE": "django.contrib.sessions.backends.db",
    "swap": (
        "companion.accounts.middleware.AuthenticationMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
    ),
}


def measure() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    from companion.tables import services

    call_command("migrate", verbosity=0)
    User.objects.create_user("ann", password="a long enough passphrase")
    table = services.create_table("hang-four", ["Ann", "Ben"], {})
    join = f"/t/{table.id}/join/{table.token}/"
    phones = {"no account": Client(), "signed in (login record)": Client()}
    phones["no account"].get(join)
    phones["signed in (login record)"].login(username="ann", password="a long enough passphrase")
    phones["signed in (login record)"].get(join)
    old, new = DB_SESSIONS["swap"]
    db_settings = override_settings(
        SESSION_ENGINE=DB_SESSIONS["SESSION_ENGINE"],
        MIDDLEWARE=[new if name == old else name for name in settings.MIDDLEWARE],
    )
    with db_settings:
        server_side = Client()
        server_side.login(username="ann", password="a long enough passphrase")
        server_side.get(join)
    phones["signed in (server-side session)"] = server_side
    requests = {"poll (204)": f"/t/{table.id}/poll/?v={table.version}", "table page": f"/t/{table.id}/"}
    for request_name, path in requests.items():
        times = {name: [] for name in phones}
        queries = {}
        for round_ in range(ROUNDS // (10 if request_name == "table page" else 1)):
            for name, client in phones.items():
                context = db_settings if client is server_side else _nothing()
                with context:
                    began = time.perf_counter()
                    answer = client.get(path)
                    times[name].append((time.perf_counter() - began) * 1000)
                    if round_ == 0:
                        with CaptureQueriesContext(connection) as seen:
                            client.get(path)
                        queries[name] = len(seen)
                assert answer.status_code in (200, 204), (name, answer.status_code)
        base = statistics.median(times["no account"])
        for name, values in times.items():
            median = statistics.median(values)
            p90 = statistics.quantiles(values, n=10)[-1]
            print(f"{request_name}\t{name}\t{median:.3f}\t{p90:.3f}\t{queries[name]}\t{median / base:.2f}")


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def run(db: str) -> None:
    env = {**os.environ, "DEBUG": "false", "ALLOWED_HOSTS": "testserver", "RATELIMIT_ENABLE": "false"}
    env.pop("COMPANION_LOGIN_REQUIRED", None)
    with tempfile.TemporaryDirectory() as folder:
        name = f"companion_bench_sessions_{os.getpid()}"
        if db == "PostgreSQL":
            made = subprocess.run(
                ["psql", PG + "postgres", "-qc", f"CREATE DATABASE {name}"], capture_output=True
            )
            if made.returncode:
                print("PostgreSQL does not answer: skipped")
                return
            env["DATABASE_URL"] = PG + name
        else:
            env["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        try:
            out = subprocess.run(
                [sys.executable, __file__, "--child"], env=env, cwd=ROOT, capture_output=True, text=True
            )
        finally:
            if db == "PostgreSQL":
                subprocess.run(
                    ["psql", PG + "postgres", "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True
                )
    if out.returncode:
        print(f"FAILED on {db}:\n{out.stderr[-2000:]}")
        return
    print(f"\n{db}: {ROUNDS} polls and {ROUNDS // 10} table pages per phone, interleaved")
    print(f"{'request':<12} {'phone':<34} {'median ms':>10} {'p90 ms':>8} {'queries':>8} {'ratio':>6}")
    for line in out.stdout.strip().splitlines():
        request, phone, median, p90, queries, ratio = line.split("\t")
        print(f"{request:<12} {phone:<34} {median:>10} {p90:>8} {queries:>8} {ratio:>6}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        sys.path.insert(0, str(ROOT))
        measure()
    else:
        for db in ("SQLite", "PostgreSQL"):
            run(db)
