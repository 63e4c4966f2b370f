"""The performance budget of issue 7, measured against the app served the way production serves it.

For each database (a fresh PostgreSQL database, created and dropped here, then a temporary SQLite
file) this script runs `manage.py migrate` (and `collectstatic` once), starts the Procfile's web
command (`gunicorn companion.wsgi --workers 2 --threads 4 ...`) on a free 127.0.0.1 port with DEBUG
off, drives it from this process with an async HTTP client (aiohttp), stops it, and prints one
plain-text table with the targets next to the figures:

- latency of a rules-checked action (POST /api/v1/tables/{id}/actions, a legal Hang Four action
  built with the engine's sample_action on the state the server answered) next to the write floor
  (POST /bench/floor/, bench/floor: a bare Django view that commits one row, mounted only here) and
  the trivial JSON view GET /api/v1/ping, one client taking the three in turn, so all meet the same
  server state (issue 13: the floor is the target's reference, the ping an extra line);
- the same kind of action (a number roll) at entries 11-30 of ten fresh tables and at entries
  1901-2100 of one long table, alternating between the two so that drift hits both alike;
- actions per second with 1, 8 and 32 concurrent clients, each client on its own table, and the
  floor's writes per second with 8 clients;
- the memory (RSS) of each gunicorn worker at the end;
- the bytes on the wire of a phone's first load of a table page (HTML + every CSS and JS it links,
  sent with Accept-Encoding: gzip, br) and of one htmx update (the live region answering an act
  POST, and a poll with a changed version), on Hang Four tables at entry ~30 and ~2100 and on a
  finished 62 Summer Suns game (the largest page);
- the 62 Summer Suns legal-move listing on a half-full sheet (bench/summer_suns_legal.py's state).

Only 127.0.0.1 is contacted; every phase is bounded (about a minute in all on an idle machine,
DATABASE_BUDGET seconds at most per database); the servers are always stopped. Rate limits stay on,
set out of reach; CONN_MAX_AGE, if set in the environment, reaches the server.

    .venv/bin/python bench/run.py                  # both databases (make bench)
    .venv/bin/python bench/run.py --db sqlite      # one of them
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gzip
import json
import os
import platform
import random
import re
import secrets
import shlex
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from bench import convention, loop  # noqa: E402
from bench.summer_suns_legal import half_full_state  # noqa: E402
from companion.games import base as engines  # noqa: E402
from companion.games import registry  # noqa: E402
from companion.games.hang_four.rules import NUMBERS  # noqa: E402
from companion.games.summer_suns import SHEETS  # noqa: E402

# --- What is measured, and how much -----------------------------------------------------------

WORKERS, THREADS = int(os.getenv("BENCH_WORKERS", "2")), 4  # as the Procfile and `make run` start gunicorn
PLAYERS = ["Ann", "Ben", "Cleo", "Dev"]
HEADLINE_PAIRS = 800  # ping + action pairs, one client
EARLY_TABLES, EARLY_FIRST, WINDOW = 10, 11, 200  # entries 11..30 of ten tables = 200 timed actions
LATE_FIRST = 1901  # entries 1901..2100 of one table = 200 timed actions around entry 2000
THROUGHPUT_CLIENTS = (1, 8, 32)
THROUGHPUT_SECONDS = 3.0
LEGAL_RUNS = 5000

# Targets of issues 7 and 13 (the action against the write floor).
ACTION_P50_RATIO, ACTION_P99_RATIO = 1.5, 2.5
THROUGHPUT_RATIO, FLOOR_CLIENTS = 0.8, 8
FLOOR_ROUNDS, FLOOR_ROUND_SECONDS = 5, 2.0  # floor and action rounds alternate; medians compared
SCRIPTED_RATE = 1500  # actions/s all clients together could reach here: sizes the scripted games
SCRIPTED_MARGIN = 3  # times a client's fair share of SCRIPTED_RATE that its script holds
GROWTH_RATIO = 1.1
FIRST_LOAD_BYTES, UPDATE_BYTES = 80_000, 8_000  # KB here is 1000 bytes
LEGAL_SECONDS = 0.001

# Bounds in time.
REQUEST_TIMEOUT = 30  # seconds, any one request
STARTUP_TIMEOUT = 30  # gunicorn answering its first request
MANAGE_TIMEOUT = 180  # migrate, collectstatic
DATABASE_BUDGET = 300  # all measurements against one server (~150 s on a quiet machine, 190 s on a slow one)

BENCH = sys.modules[__name__]  # what bench/loop.py uses of this script (the client, the numbers)
HANG_FOUR = registry.get("hang-four")
SUMMER_SUNS = registry.get("summer-suns")


class BenchError(RuntimeError):
    pass


def progress(message: str) -> None:
    print(f"  .. {message}", file=sys.stderr, flush=True)


# --- Numbers --------------------------------------------------------------------------------


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """p50, p95, p99 (inclusive method: interpolated between observed samples)."""
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[94], cuts[98]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def ms3(samples: list[float]) -> str:
    return " / ".join(ms(value) for value in percentiles(samples)) + " ms"


def kb(size: int) -> str:
    return f"{size / 1000:.1f} KB ({size:,} B)"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


# --- Databases and the server ----------------------------------------------------------------


@contextlib.contextmanager
def database(kind: str, admin_url: str) -> Iterator[tuple[str, str]]:
    """(DATABASE_URL, description) of a fresh database, removed afterwards."""
    if kind == "sqlite":
        folder = tempfile.mkdtemp(prefix="companion-bench-")
        try:
            yield f"sqlite:///{folder}/bench.sqlite3", f"SQLite {sqlite3.sqlite_version} (temporary file)"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return

    import psycopg

    name = f"companion_bench_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=5) as conn:
            version = conn.execute("SHOW server_version").fetchone()[0]
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        raise BenchError(f"PostgreSQL is not reachable at {admin_url}: {error}") from error
    parts = urllib.parse.urlsplit(admin_url)
    try:
        yield (
            urllib.parse.urlunsplit(parts._replace(path=f"/{name}")),
            f"PostgreSQL {version} (fresh database)",
        )
    finally:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


SERVERS_SECRET = secrets.token_urlsafe(50)  # one for every server of a run, as app servers share it


def server_env(database_url: str) -> dict:
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECRET_KEY": SERVERS_SECRET,  # leaves the checkout's .secret_key alone
            # Every request here comes from 127.0.0.1: the limiter keeps running (its cost is part
            # of a write) with rates it never reaches.
            "RATELIMIT_TABLES": "1000000/m",
            "RATELIMIT_WRITES": "1000000/m",
            # ...and a convention's thousands of phones all open their streams from 127.0.0.1: the
            # bound per address (100 a worker) refused all but the first 200 (429).
            "COMPANION_STREAMS_PER_ADDRESS": "0",
            "COMPANION_BENCH_FLOOR": "1",  # mounts bench/floor, the write floor
        }
    )
    return env


def manage(env: dict, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=MANAGE_TIMEOUT,
    )
    if done.returncode != 0:
        raise BenchError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gunicorn_path() -> str:
    beside = Path(sys.executable).with_name("gunicorn")
    found = str(beside) if beside.exists() else shutil.which("gunicorn")
    if not found:
        raise BenchError("gunicorn is not installed: run `make install` first.")
    return found


ASGI_FALLBACK = ["gunicorn", "companion.asgi", "--bind", "0.0.0.0:$PORT"]  # + gunicorn.conf.py
# The app as it was served before issue 12: WSGI, threaded workers (the "before" of before/after).
WSGI = [
    "gunicorn",
    "companion.wsgi",
    "--worker-class",
    "sync",  # gunicorn.conf.py names the uvicorn worker
    "--bind",
    "0.0.0.0:$PORT",
    "--workers",
    str(WORKERS),
    "--threads",
    str(THREADS),
]


def gunicorn_command(port: int, wsgi: bool = False) -> list[str]:
    """The Procfile's web command (production), bound to 127.0.0.1:port with WORKERS workers; with
    `wsgi`, the same app served as before issue 12 (WSGI, threads)."""
    fallback = [*ASGI_FALLBACK, "--workers", str(WORKERS)]
    try:
        lines = (ROOT / "Procfile").read_text().splitlines()
        web = next(line.split(":", 1)[1] for line in lines if line.startswith("web:"))
        words = shlex.split(web)
    except (OSError, StopIteration, ValueError):
        words = fallback
    if words[:2] != ["gunicorn", "companion.asgi"] or "--bind" not in words:
        words = fallback
    if wsgi:  # the serving of before; the logging is gunicorn.conf.py's for both
        words = WSGI
    values = {"PORT": str(port), "WEB_CONCURRENCY": str(WORKERS)}

    def expand(match: re.Match) -> str:
        name = match[1] or match[3]
        return values.get(name) or os.environ.get(name) or match[2] or ""

    words = [re.sub(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)", expand, word) for word in words]
    words[words.index("--bind") + 1] = f"127.0.0.1:{port}"  # this machine only
    return [gunicorn_path(), *words[1:]]


def tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


@contextlib.contextmanager
def gunicorn(database_url: str, wsgi: bool = False) -> Iterator[tuple[str, list[str]]]:
    """Migrate, start gunicorn as production does (or, with `wsgi`, as it did before issue 12),
    yield its base URL, command and pid; always stop it."""
    env = server_env(database_url)
    manage(env, "migrate", "--noinput")
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-log-"))
    log_path = folder / "gunicorn.log"
    command = gunicorn_command(port, wsgi)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_serving(process, base, log_path)
            yield base, command, process.pid
        except Exception:
            print(f"gunicorn log (last lines):\n{tail(log_path)}", file=sys.stderr)
            raise
        finally:
            stop(process)
            shutil.rmtree(folder, ignore_errors=True)


def wait_until_serving(process: subprocess.Popen, base: str, log_path: Path) -> None:
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never via a proxy
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise BenchError(f"gunicorn exited with {process.returncode}:\n{tail(log_path)}")
        try:
            with direct.open(f"{base}/api/v1/ping", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise BenchError(f"gunicorn did not answer within {STARTUP_TIMEOUT} s")


def worker_rss(master: int) -> list[float]:
    """The resident memory (MB) of each process whose parent is the gunicorn master (Linux /proc)."""
    sizes = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != master:  # field 4 of stat: the parent's pid
                continue
            status = (stat.parent / "status").read_text()
        except (OSError, IndexError, ValueError):
            continue
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
        if match:
            sizes.append(int(match[1]) / 1024)
    return sorted(sizes)


def stop(process: subprocess.Popen) -> None:
    """SIGTERM to gunicorn's own process group (master and workers), SIGKILL if it lingers."""
    if process.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


# --- The client -----------------------------------------------------------------------------


class Table:
    """What a client knows of one table: its token and the last table the server answered."""

    def __init__(self, created: dict):
        self.id = created["id"]
        self.token = created["token"]
        self.url = created["url"]
        self.update(created)

    def update(self, answer: dict) -> None:
        self.version = answer["version"]
        self.state = answer["state"]
        self.finished = answer["status"] == "finished"


# A client keeps an idle connection for less than the server does (gunicorn's keepalive, 2 s): a
# request sent on one the server is closing meanwhile fails ("Server disconnected").
CLIENT_KEEPALIVE = 1.0


def session(base: str, **options) -> aiohttp.ClientSession:
    options.setdefault("connector", aiohttp.TCPConnector(limit=0, keepalive_timeout=CLIENT_KEEPALIVE))
    return aiohttp.ClientSession(
        base_url=base, timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT), **options
    )


async def create_table(http: aiohttp.ClientSession, game: str = "hang-four", options: dict | None = None):
    body = {"game": game, "players": PLAYERS, "options": options or {}}
    async with http.post("/api/v1/tables", json=body) as answer:
        raw = await answer.read()
        if answer.status != 201:
            raise BenchError(f"creating a table answered {answer.status}: {raw[:300]!r}")
    table = Table(json.loads(raw))
    table.game = game
    return table


async def send_action(http: aiohttp.ClientSession, table: Table, action: dict) -> tuple[float, bytes]:
    """POST one action; the seconds from sending to the last byte of the answer, and the answer."""
    data = json.dumps({"action": action, "expected_version": table.version}).encode()
    headers = {"Authorization": f"Bearer {table.token}", "Content-Type": "application/json"}
    start = time.perf_counter()
    async with http.post(f"/api/v1/tables/{table.id}/actions", data=data, headers=headers) as answer:
        raw = await answer.read()
    elapsed = time.perf_counter() - start
    if answer.status != 200:
        raise BenchError(f"action {action} on table {table.id} answered {answer.status}: {raw[:300]!r}")
    return elapsed, raw


async def act(http: aiohttp.ClientSession, table: Table, action: dict) -> float:
    """POST one action and keep the table it answers; the seconds it took."""
    elapsed, raw = await send_action(http, table, action)
    table.update(json.loads(raw))
    return elapsed


async def floor(http: aiohttp.ClientSession, action: dict) -> float:
    """POST the same kind of body to the write floor; seconds from sending to the last byte."""
    data = json.dumps({"action": action, "expected_version": 0}).encode()
    start = time.perf_counter()
    async with http.post("/bench/floor/", data=data, headers={"Content-Type": "application/json"}) as answer:
        raw = await answer.read()
    elapsed = time.perf_counter() - start
    if answer.status != 200 or json.loads(raw) != {"ok": True}:
        raise BenchError(f"the floor answered {answer.status}: {raw[:300]!r}")
    return elapsed


async def ping(http: aiohttp.ClientSession) -> float:
    start = time.perf_counter()
    async with http.get("/api/v1/ping") as answer:
        raw = await answer.read()
    elapsed = time.perf_counter() - start
    if answer.status != 200 or json.loads(raw) != {"ok": True}:
        raise BenchError(f"ping answered {answer.status}: {raw[:300]!r}")
    return elapsed


def number_roll(rng: random.Random) -> dict:
    """Legal on every Hang Four turn while nobody owes a purchase, which number rolls never cause:
    a game of number rolls only never ends."""
    return {"type": "roll", "face": rng.choice(NUMBERS)}


async def next_sample(http: aiohttp.ClientSession, table: Table, rng: random.Random) -> tuple[Table, dict]:
    """A legal action from the engine's sample_action; a finished game is replaced by a new table."""
    if table.finished:
        table = await create_table(http)
    return table, HANG_FOUR.sample_action(table.state, rng)


# --- Phases ---------------------------------------------------------------------------------


async def warm_up(base: str) -> None:
    """Both workers import everything and load the engine before anything is timed."""
    async with session(base) as http:

        async def one(seed: int) -> None:
            rng, table = random.Random(seed), await create_table(http)
            for _ in range(15):
                await ping(http)
                table, action = await next_sample(http, table, rng)
                await act(http, table, action)

        await asyncio.gather(*(one(seed) for seed in range(8)))


async def headline(base: str) -> dict:
    """One client taking ping, the floor write and a sampled legal action in turn, HEADLINE_PAIRS
    times (the floor gets the same body the action gets)."""
    rng = random.Random(7)
    pings, floors, actions = [], [], []
    async with session(base) as http:
        table = await create_table(http)
        for _ in range(HEADLINE_PAIRS):
            pings.append(await ping(http))
            table, action = await next_sample(http, table, rng)
            floors.append(await floor(http, action))
            actions.append(await act(http, table, action))
    return {"ping": pings, "floor": floors, "action": actions}


async def growth(base: str) -> dict:
    """Number rolls at entries 11-30 (ten tables) and 1901-2100 (one table), alternating."""
    rng = random.Random(11)
    async with session(base) as http:
        long = await create_table(http)
        for _ in range(LATE_FIRST - 1):
            await act(http, long, number_roll(rng))
        early = [await create_table(http) for _ in range(EARLY_TABLES)]
        for table in early:
            for _ in range(EARLY_FIRST - 1):
                await act(http, table, number_roll(rng))
        early_times, late_times = [], []
        for i in range(WINDOW):
            late_times.append(await act(http, long, number_roll(rng)))
            early_times.append(await act(http, early[i % EARLY_TABLES], number_roll(rng)))
    return {"early": early_times, "late": late_times, "long": long, "short": early[0]}


def scripted_games(rng: random.Random, actions: int) -> list[list[dict]]:
    """Legal Hang Four games played here, before any timing, by the engine's sample_action from a
    fresh table's setup, `actions` entries in all: a throughput client posts them as they are, so
    the load generator, which shares the server's CPUs, spends no more per request on an action
    than on a floor write (the engine has no dice of its own: the server reaches the same states)."""
    options = engines.validate_options(HANG_FOUR, {})
    games: list[list[dict]] = []
    while sum(map(len, games)) < actions:
        state, game = HANG_FOUR.setup(len(PLAYERS), options), []
        while HANG_FOUR.result(state) is None and len(game) < actions:
            action = HANG_FOUR.sample_action(state, rng)
            state = engines.play(HANG_FOUR, state, action)
            game.append(action)
        games.append(game)
    return games


async def post_scripted(http: aiohttp.ClientSession, table: Table, action: dict) -> float:
    """POST one scripted action; the answer is read whole but not parsed (the version is known)."""
    elapsed, _ = await send_action(http, table, action)
    table.version += 1
    return elapsed


async def closed_loop(clients: int, seconds: float, request) -> dict:
    """`clients` concurrent loops of `request(i)` for `seconds`: completed per second, latencies."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def client(i: int) -> None:
        while True:
            elapsed = await request(i)
            if time.perf_counter() > deadline:
                return
            latencies.append(elapsed)

    await asyncio.gather(*(client(i) for i in range(clients)))
    return {"rate": len(latencies) / seconds, "latencies": latencies}


async def floor_throughput(base: str, clients: int, seconds: float = THROUGHPUT_SECONDS) -> dict:
    """Floor writes completed per second by `clients` concurrent clients."""
    async with session(base) as http:
        body = {"type": "roll", "face": 3}
        await asyncio.gather(*(floor(http, body) for _ in range(clients)))  # opens the connections
        return await closed_loop(clients, seconds, lambda i: floor(http, body))


async def throughput(base: str, clients: int, seconds: float = THROUGHPUT_SECONDS) -> dict:
    """Actions completed per second by `clients` concurrent clients, each on tables of its own,
    posting scripted games (a finished game's next table was created before the timing)."""
    # Several times a fair share: the server does not share itself fairly between 32 connections.
    budget = int(SCRIPTED_MARGIN * seconds * SCRIPTED_RATE / clients) + 200
    async with session(base) as http:
        plays = []
        for i in range(clients):
            games = scripted_games(random.Random(100 + i), budget)
            tables = [await create_table(http) for _ in games]
            steps = [(table, action) for table, game in zip(tables, games, strict=True) for action in game]
            plays.append(iter(steps))
        opening = [next(play) for play in plays]  # one action each opens the client's connection
        await asyncio.gather(*(post_scripted(http, table, action) for table, action in opening))

        async def request(i: int) -> float:
            step = next(plays[i], None)
            if step is None:
                raise BenchError(f"a throughput client ran out of its {budget} scripted actions")
            return await post_scripted(http, *step)

        return await closed_loop(clients, seconds, request)


async def floor_and_actions(base: str, clients: int, rounds: int, seconds: float) -> dict:
    """The action's and the floor's throughput in alternating rounds (drift hits both alike)."""
    rates: dict[str, list[float]] = {"action": [], "floor": []}
    for _ in range(rounds):
        rates["floor"].append((await floor_throughput(base, clients, seconds))["rate"])
        rates["action"].append((await throughput(base, clients, seconds))["rate"])
    return rates


class AssetLinks(HTMLParser):
    """The scripts and stylesheets a page links."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.links.append(attrs["src"])
        rel = (attrs.get("rel") or "").lower().split()
        if tag == "link" and "stylesheet" in rel and attrs.get("href"):
            self.links.append(attrs["href"])


def wire_size(answer: aiohttp.ClientResponse, body: bytes) -> tuple[int, int]:
    """(body bytes as sent, header bytes incl. the status line) of one answer."""
    headers = sum(len(name) + len(value) + 4 for name, value in answer.raw_headers)
    status_line = len(f"HTTP/1.1 {answer.status} {answer.reason}\r\n\r\n")
    return len(body), headers + status_line


def decoded(answer: aiohttp.ClientResponse, body: bytes) -> str | None:
    encoding = answer.headers.get("Content-Encoding", "identity")
    if encoding == "identity":
        return body.decode()
    if encoding == "gzip":
        return gzip.decompress(body).decode()
    return None  # br: read again uncompressed just to parse it


async def first_load_and_update(base: str, table: Table, tap: bool = True) -> dict:
    """A phone opens the share link, loads the page and its assets, taps a Hang Four number roll
    (with `tap`), and polls with the version it had before."""
    phone_headers = {"Accept-Encoding": "gzip, br"}
    jar = aiohttp.CookieJar(unsafe=True)  # keeps cookies of an IP address host (127.0.0.1)
    async with session(base, cookie_jar=jar, auto_decompress=False, headers=phone_headers) as phone:
        async with phone.get(table.url, allow_redirects=False) as answer:
            body = await answer.read()
            if answer.status != 302:
                raise BenchError(f"the share link answered {answer.status}")
            join_body, join_headers = wire_size(answer, body)
        path = f"/t/{table.id}/"
        async with phone.get(path) as answer:
            body = await answer.read()
            if answer.status != 200:
                raise BenchError(f"the table page answered {answer.status}")
            html_body, html_headers = wire_size(answer, body)
            parts = [("HTML", html_body, answer.headers.get("Content-Encoding", "identity"))]
            text = decoded(answer, body)
        if text is None:
            async with phone.get(path, headers={"Accept-Encoding": "identity"}) as answer:
                text = (await answer.read()).decode()
        parser = AssetLinks()
        parser.feed(text)
        body_total, header_total = join_body + html_body, join_headers + html_headers
        for link in parser.links:
            async with phone.get(link) as answer:
                body = await answer.read()
                if answer.status != 200:
                    raise BenchError(f"{link} answered {answer.status}")
                size, headers = wire_size(answer, body)
                body_total, header_total = body_total + size, header_total + headers
                name = link.rsplit("/", 1)[-1]
                parts.append((name, size, answer.headers.get("Content-Encoding", "identity")))

        match = re.search(r'"X-CSRFToken": "([^"]+)"', text)
        if not match:
            raise BenchError("no CSRF token on the table page")
        before = table.version
        htmx = {"HX-Request": "true", "X-CSRFToken": match.group(1)}
        act_size, act_encoding = None, None
        if tap:
            form = {
                "action": json.dumps(number_roll(random.Random(5))),
                "expected_version": str(before),
                "idempotency_key": uuid.uuid4().hex,
            }
            async with phone.post(f"/t/{table.id}/act/", data=form, headers=htmx) as answer:
                body = await answer.read()
                act_size, _ = wire_size(answer, body)
                act_encoding = answer.headers.get("Content-Encoding", "identity")
                act_text = decoded(answer, body)
                applied = act_text is None or (f"?v={before + 1}" in act_text and "refusal" not in act_text)
                if answer.status != 200 or not applied:
                    raise BenchError(f"the htmx act POST was not applied ({answer.status})")
            table.version = before + 1
        async with phone.get(f"/t/{table.id}/poll/?v={before - (0 if tap else 1)}", headers=htmx) as answer:
            body = await answer.read()
            if answer.status != 200:
                raise BenchError(f"the poll with a changed version answered {answer.status}")
            poll_size, _ = wire_size(answer, body)
            poll_encoding = answer.headers.get("Content-Encoding", "identity")
    return {
        "first_load": body_total,
        "first_load_headers": header_total,
        "parts": parts,
        "act": act_size,
        "act_encoding": act_encoding,
        "poll": poll_size,
        "poll_encoding": poll_encoding,
    }


async def measure(base: str, wsgi_base: str, master: int, idle: bool) -> dict:
    progress("warming up both workers of both servers")
    await warm_up(base)
    await warm_up(wsgi_base)
    progress(f"headline: {HEADLINE_PAIRS} pings and {HEADLINE_PAIRS} actions, one client")
    results = {"headline": await headline(base)}
    progress(f"growth: building a {LATE_FIRST - 1}-entry table, then entries 11-30 vs 1901-2100")
    results["growth"] = await growth(base)
    for clients in THROUGHPUT_CLIENTS:
        progress(f"throughput: {clients} client(s) for {THROUGHPUT_SECONDS:.0f} s")
        results[f"rate{clients}"] = await throughput(base, clients)
    progress(f"floor vs action throughput: {FLOOR_ROUNDS} rounds of {FLOOR_CLIENTS} clients, alternating")
    results["floor_rates"] = await floor_and_actions(base, FLOOR_CLIENTS, FLOOR_ROUNDS, FLOOR_ROUND_SECONDS)
    progress("bytes: first load of a table page and htmx updates")
    results["bytes_early"] = await first_load_and_update(base, results["growth"]["short"])
    results["bytes_late"] = await first_load_and_update(base, results["growth"]["long"])
    progress("bytes: a whole 62 Summer Suns game (the largest page), then its first load and a poll")
    summer = await finished_game(base, "summer-suns")
    results["bytes_summer"] = {
        **await first_load_and_update(base, summer, tap=False),
        "entries": summer.version,
    }
    progress(f"before/after: {loop.COMPARE_PAIRS} actions on each server in turn, then 8-client rounds")
    results["before_after"] = await loop.before_and_after(BENCH, {"wsgi": wsgi_base, "asgi": base})
    progress(f"entry to the other phones' pages: {loop.WRITERS} tables written, push then polling")
    results["latency"] = {mode: await loop.entry_to_pages(BENCH, base, mode) for mode in ("push", "polling")}
    if idle:
        seconds = f"{loop.IDLE_SECONDS:.0f} s"
        progress(f"idle cost: {loop.PHONES} phones, {seconds} polling then {seconds} push")
        results["idle"] = await loop.idle_cost(BENCH, base, master)
    results["convention"] = await convention.ramp(BENCH, [base], [master])
    return results


async def finished_game(base: str, game: str, limit: int = 500) -> Table:
    """A table of `game` played to its end with the engine's sample_action."""
    rng = random.Random(3)
    async with session(base) as http:
        table = await create_table(http, game)
        while not table.finished and table.version < limit:
            await act(http, table, registry.get(game).sample_action(table.state, rng))
    return table


def legal_listing() -> dict:
    state = half_full_state()
    placements = len(SUMMER_SUNS.legal(state, 0)["placements"])
    timings = []
    for _ in range(LEGAL_RUNS):
        start = time.perf_counter()
        SUMMER_SUNS.legal(state, 0)
        timings.append(time.perf_counter() - start)
    return {
        "median": statistics.median(timings),
        "p99": percentiles(timings)[2],
        "written": len(state["seats"][0]["cells"]),
        "slots": len(SHEETS["default"].slot_ids),
        "placements": placements,
    }


# --- The table ------------------------------------------------------------------------------


def report(results: dict, legal: dict) -> str:
    head, grow = results["headline"], results["growth"]
    floor50, _, floor99 = percentiles(head["floor"])
    act50, _, act99 = percentiles(head["action"])
    early50, late50 = percentiles(grow["early"])[0], percentiles(grow["late"])[0]
    early, late, summer = results["bytes_early"], results["bytes_late"], results["bytes_summer"]
    rows: list[tuple[str, str, str, str]] = [
        ("trivial JSON view GET /api/v1/ping  p50/p95/p99", ms3(head["ping"]), "", ""),
        ("write floor POST /bench/floor/      p50/p95/p99", ms3(head["floor"]), "", ""),
        ("rules-checked action (Hang Four)    p50/p95/p99", ms3(head["action"]), "", ""),
        (
            "  action / floor at p50",
            f"{act50 / floor50:.2f}x",
            f"<= {ACTION_P50_RATIO}x",
            verdict(act50 / floor50 <= ACTION_P50_RATIO),
        ),
        (
            "  action / floor at p99",
            f"{act99 / floor99:.2f}x",
            f"<= {ACTION_P99_RATIO}x",
            verdict(act99 / floor99 <= ACTION_P99_RATIO),
        ),
        ("number roll at entries 11-30        p50/p95/p99", ms3(grow["early"]), "", ""),
        ("number roll at entries 1901-2100    p50/p95/p99", ms3(grow["late"]), "", ""),
        (
            "  entry ~2000 / entry ~20 at p50",
            f"{late50 / early50:.2f}x",
            f"<= {GROWTH_RATIO}x",
            verdict(late50 / early50 <= GROWTH_RATIO),
        ),
    ]
    for clients in THROUGHPUT_CLIENTS:
        rate = results[f"rate{clients}"]
        label = f"actions/s, {clients} client{'s' if clients > 1 else ''} (own tables)"
        p50 = percentiles(rate["latencies"])[0] if len(rate["latencies"]) > 1 else float("nan")
        rows.append((label, f"{rate['rate']:.0f}/s  (p50 {ms(p50)} ms)", "", ""))
    rates = results["floor_rates"]
    floor_rate, action_rate = statistics.median(rates["floor"]), statistics.median(rates["action"])
    each = lambda values: ", ".join(f"{value:.0f}" for value in values)  # noqa: E731
    rows += [
        (
            f"floor writes/s, {FLOOR_CLIENTS} clients, {FLOOR_ROUNDS} rounds",
            f"{each(rates['floor'])}: median {floor_rate:.0f}/s",
            "",
            "",
        ),
        (
            f"actions/s, {FLOOR_CLIENTS} clients, rounds between them",
            f"{each(rates['action'])}: median {action_rate:.0f}/s",
            "",
            "",
        ),
        (
            f"  actions / floor writes, {FLOOR_CLIENTS} clients (medians)",
            f"{action_rate / floor_rate:.2f}x",
            f">= {THROUGHPUT_RATIO}x",
            verdict(action_rate / floor_rate >= THROUGHPUT_RATIO),
        ),
    ]
    pages = (
        (early, "Hang Four, entry ~30"),
        (late, "Hang Four, entry ~2100"),
        (summer, f"Summer Suns, game over, {summer['entries']} entries"),
    )
    for data, where in pages:
        rows.append(
            (
                f"first load of a table page, {where}",
                kb(data["first_load"]),
                f"< {FIRST_LOAD_BYTES // 1000} KB",
                verdict(data["first_load"] < FIRST_LOAD_BYTES),
            )
        )
    for data, where in ((early, "Hang Four, entry ~30"), (late, "Hang Four, entry ~2100")):
        rows.append(
            (
                f"htmx update, act POST, {where}",
                f"{kb(data['act'])} {data['act_encoding']}",
                f"< {UPDATE_BYTES // 1000} KB",
                verdict(data["act"] < UPDATE_BYTES),
            )
        )
    for data, where in ((late, "Hang Four, entry ~2100"), (summer, "Summer Suns, over")):
        rows.append(
            (
                f"htmx update, poll, {where}",
                f"{kb(data['poll'])} {data['poll_encoding']}",
                f"< {UPDATE_BYTES // 1000} KB",
                verdict(data["poll"] < UPDATE_BYTES),
            )
        )
    rows += loop.before_and_after_rows(BENCH, results["before_after"])
    rows += loop.latency_rows(BENCH, results["latency"])
    if results.get("idle"):
        rows += loop.idle_rows(results["idle"])
    rows += convention.rows(BENCH, results.get("convention", []))
    if results.get("rss"):
        rss = ", ".join(f"{mb:.0f} MB" for mb in results["rss"])
        rows.append(("memory (RSS) of each worker at the end", rss, "", ""))
    rows.append(
        (
            f"Summer Suns legal listing, {legal['written']}/{legal['slots']} slots written",
            f"{legal['median'] * 1000:.3f} ms median (p99 {legal['p99'] * 1000:.3f})",
            "< 1 ms",
            verdict(legal["median"] < LEGAL_SECONDS),
        )
    )

    width = [max(len(row[i]) for row in rows) for i in range(4)]
    width[0] = max(width[0], len("measure"))
    lines = [""]
    header = ("measure", "figure", "target", "")
    for row in (header, tuple("-" * w for w in width), *rows):
        lines.append("  ".join(cell.ljust(width[i]) for i, cell in enumerate(row)).rstrip())
    lines.append("")
    html = [(data["parts"][0], where) for data, where in pages]
    note = (
        "first load, bodies as served: HTML "
        + " / ".join(f"{size:,} B {encoding} ({where})" for (_, size, encoding), where in html)
        + "; "
        + ", ".join(f"{name} {size:,} B {encoding}" for name, size, encoding in late["parts"][1:])
        + f"; plus about {late['first_load_headers']:,} B of response headers (share-link redirect included)"
    )
    lines.append(textwrap.fill(note, width=110, subsequent_indent="  "))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("both", "postgres", "sqlite"), default="both")
    parser.add_argument(
        "--pg-admin-url",
        default=os.getenv("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres"),
        help="where to create (and drop) the benchmark's PostgreSQL database",
    )
    parser.add_argument(
        "--convention-only", action="store_true", help="only the convention ramp (issue 33), on each database"
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="with --convention-only: app servers (2: PostgreSQL and Redis)"
    )
    args = parser.parse_args()
    if urllib.parse.urlsplit(args.pg_admin_url).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the benchmark only talks to this machine (127.0.0.1)")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so every `finally` below runs

    started = time.monotonic()
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"bench/run.py, {stamp}; {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"aiohttp {aiohttp.__version__}; load generator in this process, server in gunicorn processes"
    )
    print(
        f"served as the Procfile serves it (ASGI, {WORKERS} uvicorn workers), beside the same app as served "
        f"before issue 12 (WSGI, {WORKERS} workers x {THREADS} threads); DEBUG off, "
        f"CONN_MAX_AGE={os.getenv('CONN_MAX_AGE', '60 (the default)')}, rate limits on but out of reach"
    )
    print(
        "latency = send to last byte; headline: one client taking ping, the write floor and a sampled "
        "legal Hang Four action (4 seats) in turn; KB = 1000 B"
    )
    progress("collectstatic")
    manage(server_env("sqlite:///unused.sqlite3"), "collectstatic", "--noinput", "--verbosity", "0")
    if args.convention_only:
        return convention_only(args)
    progress(f"Summer Suns legal listing, {LEGAL_RUNS} runs")
    legal = legal_listing()
    kinds = ("postgres", "sqlite") if args.db == "both" else (args.db,)
    for kind in kinds:
        idle = kind == "sqlite"  # the idle cost once: on `make run`'s database
        budget = DATABASE_BUDGET + (2 * loop.IDLE_SECONDS + 60 if idle else 0) + convention.budget()
        with (
            database(kind, args.pg_admin_url) as (url, description),
            gunicorn(url) as (base, command, pid),
            gunicorn(url, wsgi=True) as (wsgi_base, _, _),
        ):
            progress(f"{description}: serving on {base} (ASGI) and {wsgi_base} (WSGI, before)")
            load_before = os.getloadavg()[0]
            try:
                results = asyncio.run(asyncio.wait_for(measure(base, wsgi_base, pid, idle), budget))
                results["rss"] = worker_rss(pid)
            except TimeoutError:
                # A benchmark reports figures; a slow, shared machine is not a failure of the app.
                # The bound only keeps the run short: say what is missing and go on.
                print(f"\n== {description} ==")
                print(f"not measured: not done in {budget:.0f} s (a busy machine?)")
                continue
            load_after = os.getloadavg()[0]
        served = " ".join(["gunicorn", *command[1:]])
        print()
        print(f"== {description} ==")
        print(f"served by: {served}")
        print(f"load average (1 min) on this machine before/after: {load_before:.2f} / {load_after:.2f}")
        print(report(results, legal))
    print(f"\n(whole run {time.monotonic() - started:.0f} s)")
    return 0


def convention_only(args) -> int:
    """The convention ramp alone on each database (issue 33: measured by hand, the full ramp);
    with --servers 2, on two app servers sharing PostgreSQL and Redis (REDIS_URL, else the local one)."""
    if args.servers > 1:
        os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")  # the servers' fan-out and cache
    for kind in ("postgres", "sqlite") if args.db == "both" else (args.db,):
        with contextlib.ExitStack() as stack:
            url, description = stack.enter_context(database(kind, args.pg_admin_url))
            served = [stack.enter_context(gunicorn(url)) for _ in range(args.servers)]
            progress(f"{description}: serving on {', '.join(base for base, _command, _pid in served)}")
            bases, masters = [base for base, _c, _p in served], [pid for _b, _c, pid in served]
            results = asyncio.run(convention.ramp(BENCH, bases, masters))
        if args.servers > 1:
            description += f", {args.servers} app servers with Redis"
        print(f"\n== {description} ==")
        for row in convention.rows(BENCH, results):
            print("  ".join(cell for cell in row if cell))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as error:
        print(f"bench/run.py: {error}", file=sys.stderr)
        sys.exit(2)
