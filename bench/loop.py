"""The table loop's figures (issue 12), driven by bench/run.py against servers it started:

- before and after: the same rules-checked action and 8-client throughput on the app served by
  WSGI (gunicorn companion.wsgi --workers 2 --threads 4, as before issue 12) and by ASGI (the
  Procfile: uvicorn workers, companion.asgi), both on the same database, taken in turn;
- idle cost: 200 phones on 50 idle tables for IDLE_SECONDS, first polling every 2 s as the pages
  did, then holding event streams: the server's CPU seconds (master and workers, from /proc) and
  the requests it answered;
- the time from an entry to the other phones' pages changing (the live region fetched anew), while
  8 writers each write their own table, 3 phones watching each: by push, and by polling.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import random
import statistics
import time
import zlib
from pathlib import Path

import aiohttp

PHONES, IDLE_TABLES, IDLE_SECONDS = 200, 50, float(os.getenv("BENCH_IDLE_SECONDS", "60"))
POLL_SECONDS = 2.0  # what the pages polled at before the stream
COMPARE_PAIRS, COMPARE_ROUNDS, COMPARE_SECONDS = 400, 7, 2.0  # rounds: a 2-CPU machine is noisy
WRITERS, WATCHERS, LATENCY_SECONDS = 8, 3, 10.0
WRITE_PAUSE = 0.5  # seconds between one writer's entries: a lively table (a real one: seconds)
AFTER_BEFORE_RATIO = 1.1  # ASGI within 10% of WSGI


def cpu_seconds(master: int) -> float:
    """utime + stime of the server's master and its children (Linux /proc)."""
    ticks, total = os.sysconf("SC_CLK_TCK"), 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            pid = int(stat.parent.name)
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            continue
        if pid == master or int(fields[1]) == master:  # fields[1]: the parent's pid
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


async def text_of(answer: aiohttp.ClientResponse) -> str:
    """An answer's text, gzipped or not (a Phone reads its own bytes off the wire)."""
    body = await answer.read()
    return (gzip.decompress(body) if answer.headers.get("Content-Encoding") == "gzip" else body).decode()


class Phone:
    """A browser with a share link opened: its own cookies, the table it shows."""

    def __init__(self, base: str, table, bench):
        self.base, self.table, self.bench = base, table, bench
        self.http = aiohttp.ClientSession(
            base_url=base,
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            timeout=aiohttp.ClientTimeout(total=None, sock_read=60),
            connector=aiohttp.TCPConnector(limit=0, keepalive_timeout=bench.CLIENT_KEEPALIVE),
            auto_decompress=False,  # the bytes a phone's signal carries are counted (wire_bytes)
        )
        self.version = table.version
        self.pushed: list[int] = []  # bytes on the wire of each live region pushed to this phone
        self.variant = ""  # the page's variant (data-variant), known once it shows a region
        self.streaming = False  # its stream has sent its first event

    async def join(self) -> None:
        """Open the share link, then the table's page it leads to, as a browser does."""
        async with self.http.get(self.table.url, allow_redirects=False) as answer:
            await answer.read()
            if answer.status != 302:
                raise self.bench.BenchError(f"the share link answered {answer.status}")
            page = answer.headers["Location"]
        async with self.http.get(page) as answer:
            if answer.status != 200:
                raise self.bench.BenchError(f"the table's page answered {answer.status}")
            self.show(await text_of(answer))

    async def poll(self) -> bool:
        """One poll as the page made it; True when the live region came (the version changed)."""
        headers = {"HX-Request": "true"}
        async with self.http.get(f"/t/{self.table.id}/poll/?v={self.version}", headers=headers) as answer:
            body = await text_of(answer)
            if answer.status not in (200, 204):
                raise self.bench.BenchError(f"a poll answered {answer.status}")
        if answer.status == 200:
            self.show(body)
        return answer.status == 200

    def show(self, region: str) -> None:
        """The page now shows this live region: its version and its variant."""
        self.version = int(region.split('data-version="', 1)[1].split('"', 1)[0])
        self.variant = region.split('data-variant="', 1)[1].split('"', 1)[0]

    async def stream(self, heard) -> None:
        """Hold the table's event stream as a table page does (the region pushed, issue 33); call
        heard(version, region) for each event naming a version (region: None, or a pushed one's
        variant and text)."""
        async with self.http.get(f"/t/{self.table.id}/events/?live=1") as answer:
            if answer.status != 200:
                raise self.bench.BenchError(f"a stream answered {answer.status}")
            buffered = b""
            gzipped = answer.headers.get("Content-Encoding") == "gzip"
            inflate = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzipped else None
            carried = 0  # bytes on the wire since the last whole event
            async for wire in answer.content.iter_any():  # whole events, as a browser parses them
                buffered += inflate.decompress(wire) if inflate else wire
                carried += len(wire)
                *events, buffered = buffered.split(b"\n\n")
                live = [event for event in events if b"\nevent: live\n" in event]
                if live:  # the bytes that carried them, shared by the regions they end
                    self.pushed += [carried // len(live)] * len(live)
                if events:
                    carried = 0
                for event in events:
                    self.streaming = True
                    await self.heard_event(event.decode(), heard)

    @staticmethod
    async def heard_event(text: str, heard) -> None:
        """One event of the stream (its lines: event, id, data, comments)."""
        lines = text.split("\n")
        event = next((line[7:] for line in lines if line.startswith("event: ")), None)
        data = [line[6:] for line in lines if line.startswith("data: ")]
        if event == "version":
            await heard(int(data[0]), None)
        elif event == "live":
            version, variant = data[0].split(" ")
            await heard(int(version), (variant, "\n".join(data[1:])))

    async def follow(self, changed) -> None:
        """What table.js does with the stream: bring the page to each new version, taking a pushed
        region of this page's variant, else fetching it; changed(before) after each change."""

        async def heard(version: int, pushed: tuple[str, str] | None) -> None:
            before = self.version
            if version <= before:
                return
            if pushed is not None and pushed[0] == self.variant:
                self.show(pushed[1])
                changed(before)
            elif await self.poll():
                changed(before)

        await self.stream(heard)

    async def close(self) -> None:
        await self.http.close()


async def phones_on_tables(bench, base: str, tables: int, per_table: int) -> tuple[list, list[Phone]]:
    async with bench.session(base) as http:
        made = [await bench.create_table(http) for _ in range(tables)]
    phones = [Phone(base, table, bench) for table in made for _ in range(per_table)]
    await asyncio.gather(*(phone.join() for phone in phones))
    return made, phones


# --- Before (WSGI) and after (ASGI) ------------------------------------------------------------


async def before_and_after(bench, bases: dict[str, str]) -> dict:
    """Actions on both servers in turn (one client, each server its own table), then rounds of
    8-client throughput, alternating."""
    rng = random.Random(17)
    latencies = {name: [] for name in bases}
    sessions = {name: bench.session(base) for name, base in bases.items()}
    try:
        tables = {name: await bench.create_table(http) for name, http in sessions.items()}
        for _ in range(COMPARE_PAIRS):
            for name, http in sessions.items():
                tables[name], action = await bench.next_sample(http, tables[name], rng)
                latencies[name].append(await bench.act(http, tables[name], action))
    finally:
        for http in sessions.values():
            await http.close()
    rates = {name: [] for name in bases}
    for _ in range(COMPARE_ROUNDS):
        for name, base in bases.items():
            rates[name].append((await bench.throughput(base, 8, seconds=COMPARE_SECONDS))["rate"])
    return {"latencies": latencies, "rates": rates}


def before_and_after_rows(bench, data: dict) -> list[tuple[str, str, str, str]]:
    wsgi, asgi = data["latencies"]["wsgi"], data["latencies"]["asgi"]
    w50, _, w99 = bench.percentiles(wsgi)
    a50, _, a99 = bench.percentiles(asgi)
    wr, ar = statistics.median(data["rates"]["wsgi"]), statistics.median(data["rates"]["asgi"])
    limit, ok = f"<= {AFTER_BEFORE_RATIO}x", lambda ratio: bench.verdict(ratio <= AFTER_BEFORE_RATIO)
    return [
        ("action, WSGI before   p50/p95/p99", bench.ms3(wsgi), "", ""),
        ("action, ASGI after    p50/p95/p99", bench.ms3(asgi), "", ""),
        ("  after / before at p50", f"{a50 / w50:.2f}x", limit, ok(a50 / w50)),
        ("  after / before at p99", f"{a99 / w99:.2f}x", limit, ok(a99 / w99)),
        (
            f"actions/s, 8 clients, WSGI / ASGI (median of {COMPARE_ROUNDS})",
            f"{wr:.0f}/s / {ar:.0f}/s = {ar / wr:.2f}x",
            f">= {1 / AFTER_BEFORE_RATIO:.2f}x",
            bench.verdict(ar / wr >= 1 / AFTER_BEFORE_RATIO),
        ),
    ]


# --- Idle cost: polling against push -----------------------------------------------------------


async def idle_cost(bench, base: str, master: int) -> dict:
    made, phones = await phones_on_tables(bench, base, IDLE_TABLES, PHONES // IDLE_TABLES)
    results = {}
    try:
        # Polling: every phone every 2 s, each starting at its own moment as phones do.
        requests = 0

        async def polling(phone: Phone, offset: float, end: float) -> None:
            nonlocal requests
            await asyncio.sleep(offset)
            while time.monotonic() < end:
                await phone.poll()
                requests += 1
                await asyncio.sleep(POLL_SECONDS)

        start_cpu, end = cpu_seconds(master), time.monotonic() + IDLE_SECONDS
        await asyncio.gather(*(polling(p, random.uniform(0, POLL_SECONDS), end) for p in phones))
        results["polling"] = {"cpu": cpu_seconds(master) - start_cpu, "requests": requests}

        # Push: every phone holds its table's stream.
        events = 0

        async def heard(version: int, _pushed) -> None:
            nonlocal events
            events += 1

        start_cpu = cpu_seconds(master)
        tasks = [asyncio.ensure_future(phone.stream(heard)) for phone in phones]
        await asyncio.sleep(IDLE_SECONDS)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        results["push"] = {"cpu": cpu_seconds(master) - start_cpu, "requests": len(phones), "events": events}
    finally:
        await asyncio.gather(*(phone.close() for phone in phones))
    return results


def idle_rows(data: dict) -> list[tuple[str, str, str, str]]:
    poll, push = data["polling"], data["push"]
    where = f"{PHONES} phones on {IDLE_TABLES} idle tables, {IDLE_SECONDS:.0f} s"
    return [
        (f"{where}: polling every 2 s", f"{poll['cpu']:.2f} CPU s, {poll['requests']:,} requests", "", ""),
        (
            f"{where}: event streams",
            f"{push['cpu']:.2f} CPU s, {push['requests']} requests ({push['events']} events)",
            "",
            "",
        ),
    ]


# --- From an entry to the other phones' pages --------------------------------------------------


async def entry_to_pages(bench, base: str, mode: str) -> list[float]:
    """Seconds from sending an entry to each watching phone holding the new live region."""
    made, watchers = await phones_on_tables(bench, base, WRITERS, WATCHERS)
    sent: dict[tuple[str, int], float] = {}
    delays: list[float] = []
    end = time.monotonic() + LATENCY_SECONDS

    def changed(phone: Phone, before: int) -> None:
        """The phone now shows phone.version: every entry since `before` reached its page now."""
        now = time.monotonic()
        for version in range(before + 1, phone.version + 1):
            if (at := sent.get((phone.table.id, version))) is not None:
                delays.append(now - at)

    async def watch(phone: Phone) -> None:
        if mode == "push":
            await phone.follow(lambda before: changed(phone, before))
        else:
            await asyncio.sleep(random.uniform(0, POLL_SECONDS))
            while True:
                before = phone.version
                if await phone.poll():
                    changed(phone, before)
                await asyncio.sleep(POLL_SECONDS)

    async def write(table) -> None:
        rng = random.Random(table.id)
        async with bench.session(base) as http:
            while time.monotonic() < end:  # number rolls: the game never ends under the watchers
                sent[(table.id, table.version + 1)] = time.monotonic()
                await bench.act(http, table, bench.number_roll(rng))
                await asyncio.sleep(WRITE_PAUSE)

    tasks = [asyncio.ensure_future(watch(phone)) for phone in watchers]
    try:
        await asyncio.sleep(1.0)  # the streams are open
        await asyncio.gather(*(write(table) for table in made))
        await asyncio.sleep(POLL_SECONDS + 0.5)  # the last entries reach the pages
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(phone.close() for phone in watchers))
    return delays


def latency_rows(bench, data: dict) -> list[tuple[str, str, str, str]]:
    rows = []
    for mode in ("push", "polling"):
        delays = data[mode]
        label = f"entry -> other phones' pages, {WRITERS} tables written, {mode}"
        rows.append((f"{label}  p50/p95/p99", bench.ms3(delays) + f" ({len(delays)} pages)", "", ""))
    return rows
