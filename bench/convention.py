"""A convention on one server (issues 33 and 45), driven by bench/run.py against the server(s) it
started.

Tables of four phones, ramped, each playing a game of page_writer.MIX (the score pad, Hang Four,
62 Summer Suns, Yahtzee, Dogo Dash): three phones opened the share link, loaded the table's page
and hold its event stream (gzipped when asked, as a browser asks), doing what table.js does on a
new version (take the region the stream pushes when it is of the page's variant, else fetch it:
Phone.follow); the fourth, the table's writer, enters a legal entry every TABLE_SECONDS with
jitter from its page, as table.js posts it (page_writer.py). `BENCH_CONVENTION_WRITER=api`: the
writer enters Hang Four number rolls through the JSON API instead (issue 33's measure). A step
starts once every stream is open, runs STEP_SECONDS; the ramp stops after the first step whose p99
passes STOP_P99. Per step: the entries/s entered, entry to each other phone's page p50/p95/p99, the
writer's own answer, missed updates (a phone whose page never showed an entry's version), the
bytes on the wire of each pushed region per game, the server's CPU per entry and per phone update,
and the workers' RSS. With `--servers 2` a table's phones are spread over two app servers
(bench/run.py).

CI runs a short ramp (CI_STEPS); `BENCH_CONVENTION=50,100,200,500,1000` (make bench by hand)
runs the issue's. The load generator shares the machine with the server: its own CPU is printed.
"""

from __future__ import annotations

import asyncio
import os
import random
import resource
import statistics
import time
from collections import Counter

import aiohttp

from bench import page_writer
from bench.loop import Phone, cpu_seconds

PHONES_PER_TABLE = 4  # one of them writes; the other three watch
TABLE_SECONDS = 10.0  # a table's entries come this far apart on average
FULL_STEPS, CI_STEPS = (50, 100, 200, 500, 1000), (25, 50)
STEP_SECONDS = float(os.getenv("BENCH_CONVENTION_SECONDS", "20" if os.getenv("CI") else "45"))
SETTLE_SECONDS = 3.0  # after the last entry, before missed updates are counted
STOP_P99 = 1.0


def steps() -> tuple[int, ...]:
    asked = os.getenv("BENCH_CONVENTION")
    if asked:
        return tuple(int(n) for n in asked.split(",") if n.strip())
    return CI_STEPS if os.getenv("CI") else FULL_STEPS


def budget() -> float:
    """Seconds the ramp may take at most: each step, its tables' setup and its settling."""
    return sum(STEP_SECONDS + 30 + count / 20 for count in steps())


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def writer_kind() -> str:
    """ "page" (the phones' own path, the default) or "api" (the JSON API, issue 33's writer)."""
    kind = os.getenv("BENCH_CONVENTION_WRITER", "page")
    if kind not in ("page", "api"):
        raise ValueError(f"BENCH_CONVENTION_WRITER is page or api, not {kind!r}")
    return kind


async def open_tables(bench, bases: list[str], count: int) -> tuple[list, list[Phone], list]:
    """`count` tables and their phones, each joined by the share link: written from the page, the
    games of page_writer.MIX, a PageWriter each; through the API, Hang Four. With several app
    servers, a table's phones are spread over them (the fan-out crosses servers)."""
    page = writer_kind() == "page"
    games = page_writer.games_for(count, random.Random(count)) if page else ["hang-four"] * count
    async with bench.session(bases[0]) as http:
        made = (bench.create_table(http, game, page_writer.OPTIONS.get(game)) for game in games)
        tables = await asyncio.gather(*made)
    watchers = [
        Phone(bases[(number + seat) % len(bases)], table, bench)
        for number, table in enumerate(tables)
        for seat in range(1, PHONES_PER_TABLE)
    ]
    writers = [
        page_writer.PageWriter(bases[number % len(bases)], table, bench, table.game) if page else None
        for number, table in enumerate(tables)
    ]
    joining = watchers + [writer for writer in writers if writer is not None]
    for start in range(0, len(joining), 100):  # not a thousand connections in one burst
        await asyncio.gather(*(phone.join() for phone in joining[start : start + 100]))
    return list(tables), watchers, writers


async def every_stream_open(watchers: list[Phone], tasks: list) -> None:
    """Until each phone's stream has said the version it opened on (the page is live)."""
    deadline = time.monotonic() + 60
    while sum(phone.streaming for phone in watchers) < len(watchers) and time.monotonic() < deadline:
        if any(task.done() for task in tasks):
            return  # a stream that failed: the step says so
        await asyncio.sleep(0.1)


async def step(bench, bases: list[str], masters: list[int], count: int) -> dict:
    tables, watchers, writers = await open_tables(bench, bases, count)
    sent: dict[tuple[str, int], float] = {}
    delays: list[float] = []
    writes: list[float] = []  # each entry's write, send to answer
    updates = 0

    def changed(phone: Phone, before: int) -> None:
        """The phone's page now shows phone.version: the entries since `before` reached it now."""
        nonlocal updates
        updates += 1
        now = time.monotonic()
        for seen in range(before + 1, phone.version + 1):
            if (at := sent.get((phone.table.id, seen))) is not None:
                delays.append(now - at)

    async def watch(phone: Phone) -> None:
        await phone.follow(lambda before: changed(phone, before))

    async def write(table, writer, https: list, end: float) -> None:
        rng = random.Random(table.id)
        http = https[tables.index(table) % len(https)]  # a table's writing phone: its own server
        await asyncio.sleep(rng.uniform(0, TABLE_SECONDS))  # tables are not in step
        while time.monotonic() < end:
            sent[(table.id, table.version + 1)] = time.monotonic()
            if writer is None:
                writes.append(await bench.act(http, table, bench.number_roll(rng)))
            elif (took := await writer.write(rng)) is not None:
                writes.append(took)
            else:  # the game has no entry left that does not end it
                del sent[(table.id, table.version + 1)]
                return
            await asyncio.sleep(rng.uniform(0.5, 1.5) * TABLE_SECONDS)

    tasks = [asyncio.ensure_future(watch(phone)) for phone in watchers]
    try:
        await every_stream_open(watchers, tasks)
        cpu_before, mine_before, started = servers_cpu(masters), own_cpu(), time.monotonic()
        https = [bench.session(base) for base in bases]
        try:
            end = started + STEP_SECONDS
            pairs = zip(tables, writers, strict=True)
            await asyncio.gather(*(write(table, writer, https, end) for table, writer in pairs))
        finally:
            await asyncio.gather(*(http.close() for http in https))
        elapsed = time.monotonic() - started
        await asyncio.sleep(SETTLE_SECONDS)
        cpu = servers_cpu(masters) - cpu_before
        mine = own_cpu() - mine_before
        crashed = [task for task in tasks if task.done() and task.exception() is not None]
        for task in crashed[:1]:
            bench.progress(f"a stream failed: {task.exception()!r}")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(phone.close() for phone in watchers + [w for w in writers if w is not None]))
    entries = len(sent)
    pushed: dict[str, list[int]] = {}
    for phone in watchers:
        pushed.setdefault(phone.table.game, []).extend(phone.pushed)
    final = {table.id: table.version for table in tables}
    missed = sum(final[phone.table.id] - phone.version for phone in watchers)
    return {
        "tables": count,
        "writer": writer_kind(),
        "games": Counter(table.game for table in tables),
        "pushed": pushed,
        "phones": count * PHONES_PER_TABLE,
        "entries": entries,
        "rate": entries / STEP_SECONDS,  # the writers enter only within the step
        "delays": delays,
        "writes": writes,
        "missed": missed,
        "streams_lost": len(crashed),
        "cpu_per_entry": cpu / entries if entries else 0.0,
        "cpu_per_update": cpu / updates if updates else 0.0,
        "generator_cpu": mine / elapsed,
        "server_cpu": cpu / elapsed,
        "rss": [mb for master in masters for mb in bench.worker_rss(master)],
    }


def servers_cpu(masters: list[int]) -> float:
    return sum(cpu_seconds(master) for master in masters)


async def ramp(bench, bases: list[str], masters: list[int]) -> list[dict]:
    """Each step of the ramp, until one's p99 passes STOP_P99 or a step cannot be measured."""
    done = []
    for count in steps():
        bench.progress(f"convention: {count} tables x {PHONES_PER_TABLE} phones for {STEP_SECONDS:.0f} s")
        try:
            result = await step(bench, bases, masters, count)
        except (aiohttp.ClientError, OSError, bench.BenchError) as error:
            done.append({"tables": count, "error": f"{type(error).__name__}: {error}"[:200]})
            break
        done.append(result)
        if len(result["delays"]) >= 2 and bench.percentiles(result["delays"])[2] > STOP_P99:
            break
    return done


def rows(bench, results: list[dict]) -> list[tuple[str, str, str, str]]:
    found = []
    for result in results:
        games = ", ".join(f"{n} {game}" for game, n in sorted(result.get("games", {}).items()))
        label = f"convention: {result['tables']} tables x {PHONES_PER_TABLE} phones"
        label += f" ({games})" if games else ""
        if "error" in result:
            found.append((label, "not measured: " + result["error"], "", ""))
            continue
        if len(result["delays"]) < 2:  # a step too short to say a percentile
            said = f"{len(result['delays'])} page updates of {result['entries']} entries"
            said += f", {result['streams_lost']} streams lost"
            found.append((label, f"not measured: {said} in the step", "", ""))
            continue
        p99 = bench.percentiles(result["delays"])[2]
        found.append(
            (
                f"{label}: {result['rate']:.1f} entries/s; entry -> other phones p50/p95/p99",
                bench.ms3(result["delays"]) + f" ({len(result['delays'])} pages)",
                "p99 <= 250 ms",
                bench.verdict(p99 <= 0.25 and result["missed"] == 0),
            )
        )
        writer_p99 = bench.percentiles(result["writes"])[2]
        found.append(
            (
                f"{label}: the writer's own answer ({result['writer']}), p50/p95/p99",
                bench.ms3(result["writes"]),
                "p99 <= 250 ms",
                bench.verdict(writer_p99 <= 0.25),
            )
        )
        found += pushed_rows(bench, label, result)
        rss = "/".join(f"{mb:.0f}" for mb in result["rss"])
        found.append(
            (
                f"{label}: missed updates, server CPU per entry / per phone update, worker RSS",
                f"{result['missed']} missed; {result['cpu_per_entry'] * 1000:.0f} / "
                f"{result['cpu_per_update'] * 1000:.1f} ms CPU; {rss} MB",
                "0 missed",
                bench.verdict(result["missed"] == 0 and not result["streams_lost"]),
            )
        )
        found.append(
            (
                f"{label}: CPU busy, server / load generator (of {os.cpu_count()} CPUs)",
                f"{result['server_cpu']:.2f} / {result['generator_cpu']:.2f}",
                "",
                "",
            )
        )
    return found


def pushed_rows(bench, label: str, result: dict) -> list[tuple[str, str, str, str]]:
    """Bytes on the wire per live region pushed to a watching phone, per game: median / p90 / max."""
    found = []
    for game, sizes in sorted(result.get("pushed", {}).items()):
        if not sizes:
            continue
        ordered = sorted(sizes)
        median, p90 = statistics.median(ordered), ordered[int(len(ordered) * 0.9)]
        found.append(
            (
                f"{label}: bytes per pushed region, {game}, median / p90 / max ({len(sizes)} events)",
                f"{bench.kb(int(median))} / {bench.kb(p90)} / {bench.kb(ordered[-1])}",
                "median <= 4 KB",
                bench.verdict(median <= 4000),
            )
        )
    return found
