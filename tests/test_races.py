"""Races and faults (issue 7): phones that send at once, twice, late, or lose signal mid-request.

Real threads with their own database connections, and real app servers (tests/servers.py) on the test
database, drive one table through the JSON API. Whatever the interleaving, the same invariants must
hold at the end: every write was applied exactly once or refused with 409, the event log has no gap
or duplicate, and the stored snapshot equals a replay of the live log.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
import traceback
from http.cookies import SimpleCookie
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import connection, connections
from django.test import Client

from companion.games import base, registry
from companion.tables.models import Event, Table

from .servers import Answer, app_servers, http_call

pytestmark = pytest.mark.django_db(transaction=True)

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"

GAME = "summer-suns"  # the longest game: 8 players take ~140 entries to finish a sheet
PLAYERS = [f"Racer {i}" for i in range(8)]
CLIENTS = 8
APPLIED_TARGET = 240  # accepted writes (actions and undos) per load run
UNDO_SHARE = 0.12  # of a client's writes; an undo also reopens a finished table
RESENDS = 24
BACKOFF = 0.02  # seconds of jitter per 409 in a row, up to 4 of them
LOAD_DEADLINE = 180.0  # seconds: a safety stop only (a run stops at APPLIED_TARGET); a busy CI
# machine once took over 40 s for what an idle one does in a few


# --- Transports: the same load through Django's test client or over HTTP to an app server ----


class DjangoTransport:
    """Each thread its own django.test.Client (and so its own database connection)."""

    def __init__(self, token: str):
        self.token = token
        self.local = threading.local()

    def __call__(self, who: int, method: str, path: str, body=None, port=None) -> Answer:
        client = getattr(self.local, "client", None)
        if client is None:
            client = self.local.client = Client()
        auth = {"HTTP_AUTHORIZATION": f"Bearer {self.token}"}
        if method == "GET":
            response = client.get(path, **auth)
        else:
            response = client.post(path, json.dumps(body), content_type="application/json", **auth)
        return Answer(response.status_code, response.json())

    def done(self):
        connections.close_all()


class HttpTransport:
    """Plain HTTP; each thread alternates between the servers request by request."""

    def __init__(self, token: str, ports: list[int]):
        self.token = token
        self.ports = ports
        self.counts: dict[int, int] = {}

    def port_for(self, who: int) -> int:
        count = self.counts.get(who, who)  # threads start on different servers
        self.counts[who] = count + 1
        return self.ports[count % len(self.ports)]

    def __call__(self, who: int, method: str, path: str, body=None, port=None) -> Answer:
        port = port or self.port_for(who)
        answer = http_call(port, method, path, body, self.token)
        answer.port = port
        return answer

    def other_port(self, port: int) -> int:
        return self.ports[(self.ports.index(port) + 1) % len(self.ports)]

    def done(self):
        pass


# --- The load: many phones, one table ---------------------------------------------------------


def create_table(send, game=GAME, players=PLAYERS, options=None) -> dict:
    answer = send(0, "POST", "/api/v1/tables", {"game": game, "players": players, "options": options or {}})
    assert answer.status == 201, answer.payload
    return answer.payload


def run_threads(count: int, target, timeout: float) -> None:
    """Run target(i) in `count` threads; re-raise the first failure with its thread's traceback."""
    errors: list[str] = []

    def guarded(i: int):
        try:
            target(i)
        except BaseException:  # noqa: BLE001 - reported below, with its traceback
            errors.append(f"thread {i}:\n{traceback.format_exc()}")

    threads = [threading.Thread(target=guarded, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(thread.is_alive() for thread in threads), "a client thread hung"
    assert not errors, "\n".join(errors)


class Load:
    """CLIENTS phones write to one table until APPLIED_TARGET writes were accepted."""

    def __init__(self, send, table: dict, seed: int):
        self.send = send
        self.table = table
        self.path = f"/api/v1/tables/{table['id']}"
        self.seed = seed
        self.engine = registry.get(table["game"])
        self.initial_state = table["state"]
        self.lock = threading.Lock()
        self.applied = 0
        self.records: list[dict] = []  # every write and its answer
        self.stop = threading.Event()

    def run(self) -> float:
        started = time.monotonic()
        self.deadline = started + LOAD_DEADLINE
        try:
            run_threads(CLIENTS, self.client, timeout=LOAD_DEADLINE + 30)
        finally:
            self.stop.set()
        return time.monotonic() - started

    def client(self, who: int) -> None:
        rng = random.Random(self.seed * 1000 + who)
        refused_in_a_row = 0
        try:
            for n in range(10**6):
                with self.lock:
                    if self.applied >= APPLIED_TARGET or self.stop.is_set():
                        return
                if time.monotonic() > self.deadline:
                    return
                seen = self.send(who, "GET", self.path)
                assert seen.status == 200, seen.payload
                table = seen.payload
                record = self.write(who, n, rng, table)
                with self.lock:
                    self.records.append(record)
                    if record["status"] == 200:
                        self.applied += 1
                if record["status"] == 409:
                    # A phone told "someone was first" looks again a moment later; the jitter
                    # keeps eight of them from colliding in lockstep.
                    refused_in_a_row += 1
                    time.sleep(rng.uniform(0, BACKOFF * min(refused_in_a_row, 4)))
                else:
                    refused_in_a_row = 0
        except BaseException:
            self.stop.set()
            raise
        finally:
            self.send.done()

    def write(self, who: int, n: int, rng: random.Random, table: dict) -> dict:
        version = table["version"]
        undoing = table["status"] == "finished" or (
            table["state"] != self.initial_state and rng.random() < UNDO_SHARE
        )
        if undoing:
            kind, key, body = "undo", None, {"expected_version": version}
        else:
            action = self.engine.sample_action(table["state"], rng)
            kind, key = "action", f"s{self.seed}-c{who}-w{n}"
            body = {"action": action, "expected_version": version, "idempotency_key": key}
        answer = self.send(who, "POST", f"{self.path}/{'undo' if undoing else 'actions'}", body)
        record = {"who": who, "kind": kind, "key": key, "body": body, "status": answer.status}
        record["answer"] = answer.payload
        record["port"] = getattr(answer, "port", None)
        # Checked here, where the request's context is at hand; the log is checked at the end.
        if answer.status == 200:
            assert answer.payload["version"] == version + 1, (kind, version, answer.payload["version"])
        else:
            assert answer.status == 409, (kind, answer.status, answer.payload)
            error = answer.payload["error"]
            assert error["code"] == "stale_version", error
            assert error["table"]["version"] > version, "a 409 must carry a newer table"
        return record

    def stats(self) -> dict:
        writes = len(self.records)
        refused = sum(record["status"] == 409 for record in self.records)
        return {
            "writes": writes,
            "applied": writes - refused,
            "409": refused,
            "undos": sum(r["kind"] == "undo" and r["status"] == 200 for r in self.records),
        }


def check_log(table_id: str, records: list[dict]) -> Table:
    """Every accepted write is in the log exactly once, every refused one is not; seqs are 1..n; the
    snapshot is the replay of the live entries."""
    stored = Table.objects.get(pk=table_id)
    oks = [record for record in records if record["status"] == 200]
    versions = [record["answer"]["version"] for record in oks]
    assert len(set(versions)) == len(versions), "two accepted writes answered with the same version"
    # Each accepted write moved the version by one and nothing else did: none lost, none doubled.
    assert sorted(versions) == list(range(1, stored.version + 1))
    assert max(oks, key=lambda r: r["answer"]["version"])["answer"]["state"] == stored.snapshot

    events = list(Event.objects.filter(table_id=table_id).order_by("seq"))
    actions_ok = [record for record in oks if record["kind"] == "action"]
    undos_ok = [record for record in oks if record["kind"] == "undo"]
    assert [event.seq for event in events] == list(range(1, len(events) + 1)), "gap or duplicate in seqs"
    assert len(events) == len(actions_ok), "an accepted action missing from the log, or one applied twice"
    assert sum(event.undone for event in events) == len(undos_ok)

    keys = [event.idempotency_key for event in events]
    assert len(set(keys)) == len(keys), "an idempotency key applied twice"
    by_key = {event.idempotency_key: event for event in events}
    assert set(by_key) == {record["key"] for record in actions_ok}
    refused_keys = {record["key"] for record in records if record["status"] == 409 and record["key"]}
    assert not refused_keys & set(by_key), "a refused write left an entry"
    for record in actions_ok:
        event = by_key[record["key"]]
        assert event.action == record["body"]["action"]
        # The answer kept for a repeat of the key (compact since issue 13: Event.stored_answer).
        stored_answer = event.stored_answer()
        assert (stored_answer["version"], stored_answer["state"]) == (
            record["answer"]["version"],
            record["answer"]["state"],
        )

    engine = registry.get(stored.game)
    live = [event.action for event in events if not event.undone]
    assert stored.snapshot == base.replay(engine, stored.seats.count(), stored.options, live)
    assert stored.status == ("finished" if engine.result(stored.snapshot) else "in_progress")
    return stored


def resend_sample(send, table_id: str, records: list[dict], seed: int) -> dict:
    """Phones that never got their answer send again, all at once: accepted keys get the very same
    answer, refused ones are refused again, and nothing changes."""
    rng = random.Random(seed)
    path = f"/api/v1/tables/{table_id}/actions"
    accepted = [r for r in records if r["kind"] == "action" and r["status"] == 200]
    refused = [r for r in records if r["kind"] == "action" and r["status"] == 409]
    sample = rng.sample(accepted, min(RESENDS, len(accepted))) + rng.sample(refused, min(8, len(refused)))
    before = Table.objects.get(pk=table_id)
    events_before = list(Event.objects.filter(table_id=table_id).values_list("seq", "undone", "action"))
    answers: dict[int, Answer] = {}

    def resend(who: int):
        try:
            for index in range(who, len(sample), CLIENTS):
                # Over HTTP, through the other server than the one that answered first.
                port = sample[index].get("port")
                port = send.other_port(port) if port else None
                answers[index] = send(who, "POST", path, sample[index]["body"], port=port)
        finally:
            send.done()

    run_threads(CLIENTS, resend, timeout=60)
    for index, record in enumerate(sample):
        answer = answers[index]
        assert answer.status == record["status"], (record["key"], answer.status, answer.payload)
        if record["status"] == 200:
            assert answer.payload == record["answer"], f"key {record['key']} got a different answer"
        else:
            assert answer.payload["error"]["code"] == "stale_version"
    after = Table.objects.get(pk=table_id)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    assert (
        list(Event.objects.filter(table_id=table_id).values_list("seq", "undone", "action")) == events_before
    )
    return {"resent": len(sample)}


def report(name: str, **figures) -> None:
    """Shown with `pytest -s` (and kept short without it)."""
    print(f"\n[{name} on {connection.vendor}] " + ", ".join(f"{k}={v}" for k, v in figures.items()))


def test_many_clients_on_one_table_apply_each_write_once():
    send = DjangoTransport(token="")
    table = create_table(send)
    send.token = table["token"]
    load = Load(send, table, seed=1)
    seconds = load.run()
    stats = load.stats()
    assert stats["applied"] >= APPLIED_TARGET, f"only {stats} before the {LOAD_DEADLINE} s safety stop"
    check_log(table["id"], load.records)
    resent = resend_sample(send, table["id"], load.records, seed=2)
    report("one table, 8 clients", seconds=round(seconds, 1), **stats, **resent)


# --- Undo against an action at the same version -----------------------------------------------


def post_at_once(send, requests: list[tuple[str, dict]]) -> list[Answer]:
    """Each (path, body) from its own thread, released together by a barrier."""
    barrier = threading.Barrier(len(requests))
    answers: list[Answer | None] = [None] * len(requests)

    def fire(i: int):
        try:
            path, body = requests[i]
            barrier.wait(timeout=30)
            answers[i] = send(i, "POST", path, body)
        finally:
            send.done()

    run_threads(len(requests), fire, timeout=60)
    return answers


def play_sequentially(send, table: dict, rng: random.Random, count: int) -> dict:
    engine = registry.get(table["game"])
    path = f"/api/v1/tables/{table['id']}/actions"
    for _ in range(count):
        action = engine.sample_action(table["state"], rng)
        answer = send(0, "POST", path, {"action": action, "expected_version": table["version"]})
        assert answer.status == 200, answer.payload
        table = answer.payload
    return table


ROUNDS = 20


def test_undo_and_action_at_the_same_version_cannot_both_apply():
    send = DjangoTransport(token="")
    table = create_table(send, players=PLAYERS[:4])
    send.token = table["token"]
    engine = registry.get(GAME)
    rng = random.Random(3)
    # Enough entries that undos winning every round still leave one to take back.
    table = play_sequentially(send, table, rng, ROUNDS + 5)
    base_path = f"/api/v1/tables/{table['id']}"
    records, winners = [], {"undo": 0, "action": 0}
    for round_no in range(ROUNDS):
        table = send(0, "GET", base_path).payload
        assert table["status"] == "in_progress"
        version = table["version"]
        action = engine.sample_action(table["state"], rng)
        requests = [
            (f"{base_path}/undo", {"expected_version": version}),
            (
                f"{base_path}/actions",
                {"action": action, "expected_version": version, "idempotency_key": f"r{round_no}"},
            ),
        ]
        if round_no % 2:  # which thread starts first should not matter either
            requests.reverse()
        answers = post_at_once(send, requests)
        assert sorted(answer.status for answer in answers) == [200, 409], [a.payload for a in answers]
        for (path, body), answer in zip(requests, answers, strict=True):
            kind = "undo" if path.endswith("/undo") else "action"
            key = body.get("idempotency_key")
            records.append(
                {"kind": kind, "key": key, "body": body, "status": answer.status, "answer": answer.payload}
            )
            if answer.status == 200:
                winners[kind] += 1
                assert answer.payload["version"] == version + 1
            else:
                assert answer.payload["error"]["code"] == "stale_version"
                assert answer.payload["error"]["table"]["version"] == version + 1
        assert Table.objects.get(pk=table["id"]).version == version + 1

    stored = Table.objects.get(pk=table["id"])
    assert stored.version == ROUNDS + 5 + ROUNDS
    events = list(Event.objects.filter(table_id=table["id"]).order_by("seq"))
    assert [event.seq for event in events] == list(range(1, len(events) + 1))
    assert len(events) == ROUNDS + 5 + winners["action"]
    assert sum(event.undone for event in events) == winners["undo"]
    won_keys = {r["key"] for r in records if r["kind"] == "action" and r["status"] == 200}
    assert {event.idempotency_key for event in events if event.idempotency_key} == won_keys
    live = [event.action for event in events if not event.undone]
    assert stored.snapshot == base.replay(engine, 4, stored.options, live)
    report("undo vs action", rounds=ROUNDS, undo_won=winners["undo"], action_won=winners["action"])


def test_two_undos_at_the_same_version_take_back_one_entry():
    send = DjangoTransport(token="")
    table = create_table(send, game="dogo-dash", players=PLAYERS[:3])
    send.token = table["token"]
    table = play_sequentially(send, table, random.Random(4), 8)
    path = f"/api/v1/tables/{table['id']}/undo"
    for version in range(8, 12):  # an undo moves the version on too
        answers = post_at_once(send, [(path, {"expected_version": version})] * 3)
        assert sorted(answer.status for answer in answers) == [200, 409, 409]
    undone = Event.objects.filter(table_id=table["id"], undone=True).values_list("seq", flat=True)
    assert sorted(undone) == [5, 6, 7, 8], "each round took back exactly the last live entry"
    stored = Table.objects.get(pk=table["id"])
    live = list(Event.objects.filter(table_id=table["id"], undone=False).values_list("action", flat=True))
    assert stored.snapshot == base.replay(registry.get("dogo-dash"), 3, stored.options, live)


# --- App servers on the test database ---------------------------------------------------------


@pytest.mark.postgres_only
@pytest.mark.skipif(
    not ON_POSTGRES,
    reason="two app servers need one shared PostgreSQL database: run with DATABASE_URL=postgres://...",
)
def test_two_app_servers_on_one_database_apply_each_write_once():
    # Two servers as the Procfile runs production.
    with app_servers(["--workers", "2"], ["--workers", "2"]) as servers:
        ports = [server.port for server in servers]
        send = HttpTransport(token="", ports=ports)
        table = create_table(send)
        send.token = table["token"]
        load = Load(send, table, seed=5)
        seconds = load.run()
        stats = load.stats()
        assert stats["applied"] >= APPLIED_TARGET, f"only {stats} before the {LOAD_DEADLINE} s safety stop"
        check_log(table["id"], load.records)
        resent = resend_sample(send, table["id"], load.records, seed=6)
        for server in servers:
            assert server.proc.poll() is None, server.output()
    report("two app servers", seconds=round(seconds, 1), **stats, **resent)


# --- A request cut off mid-way ----------------------------------------------------------------


@pytest.fixture(scope="module")
def one_worker(django_db_setup):
    """One worker process, as `make run` serves (uvicorn: a cut body never reaches the app, or
    reaches it short and CompleteBodyMiddleware refuses it)."""
    with app_servers(["--workers", "1"]) as (server,):
        yield server


def send_raw(port: int, head: str, body: bytes, declared: int, until=None) -> None:
    """Send headers promising `declared` bytes, then `body` (maybe fewer), then hang up without
    reading the answer: a phone that lost its signal. With `until`, the line stays up (unread)
    until until() is true: the server took the request in, and only its answer is lost."""
    request = (
        f"POST {head}\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {declared}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request + body)
        deadline = time.monotonic() + 10
        while until is not None and not until() and time.monotonic() < deadline:
            time.sleep(0.01)


def api_head(table: dict) -> str:
    return (
        f"/api/v1/tables/{table['id']}/actions HTTP/1.1\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {table['token']}"
    )


def table_state(port: int, table: dict) -> tuple[int, int]:
    """Version and event count, read through the server (which also waits out the cut request)."""
    seen = http_call(port, "GET", f"/api/v1/tables/{table['id']}", token=table["token"])
    assert seen.status == 200, seen.payload
    return seen.payload["version"], Event.objects.filter(table_id=table["id"]).count()


def reveal_body(version: int, key: str | None = None) -> bytes:
    body = {
        "action": {"type": "reveal", "cards": {"0": "cat", "1": "dog", "2": "bear"}},
        "expected_version": version,
    }
    if key:
        body["idempotency_key"] = key
    return json.dumps(body).encode()


def test_a_request_cut_off_mid_body_changes_nothing(one_worker):
    port = one_worker.port
    table = create_table(DjangoTransport(token=""), game="dogo-dash", players=PLAYERS[:3])
    body = reveal_body(0, key="cut-1")
    for sent in (0, 1, len(body) // 3, len(body) // 2, len(body) - 1):
        send_raw(port, api_head(table), body[:sent], declared=len(body))
        assert table_state(port, table) == (0, 0), f"cut after {sent} of {len(body)} bytes"
    # The same phone, back in signal, sends the same entry again: it applies, once.
    answer = http_call(
        port, "POST", f"/api/v1/tables/{table['id']}/actions", json.loads(body), table["token"]
    )
    assert answer.status == 200 and answer.payload["version"] == 1, answer.payload
    assert table_state(port, table) == (1, 1)
    assert one_worker.proc.poll() is None, one_worker.output()


def test_a_request_sent_whole_but_never_answered_applies_once(one_worker):
    """The signal drops after the server took the entry in: the entry is in, and the retry with the
    same key gets its answer without a second entry."""
    port = one_worker.port
    table = create_table(DjangoTransport(token=""), game="dogo-dash", players=PLAYERS[:3])
    body = reveal_body(0, key="lost-answer")
    send_raw(port, api_head(table), body, len(body), until=Event.objects.filter(table_id=table["id"]).exists)
    assert table_state(port, table) == (1, 1)
    retry = http_call(port, "POST", f"/api/v1/tables/{table['id']}/actions", json.loads(body), table["token"])
    assert retry.status == 200 and retry.payload["version"] == 1, retry.payload
    assert table_state(port, table) == (1, 1)
    seen = http_call(port, "GET", f"/api/v1/tables/{table['id']}", token=table["token"])
    assert retry.payload == seen.payload


def test_a_request_whose_sender_hung_up_at_once_applies_at_most_once(one_worker):
    """Hung up right after the last byte: the server may have dropped the request (its body not
    read yet), be applying it, or have applied it. Whichever, the phone's retry with the same key
    leaves exactly one entry (the retry waits on the row lock of an entry being applied)."""
    port = one_worker.port
    table = create_table(DjangoTransport(token=""), game="dogo-dash", players=PLAYERS[:3])
    body = reveal_body(0, key="hung-up")
    send_raw(port, api_head(table), body, declared=len(body))
    retry = http_call(port, "POST", f"/api/v1/tables/{table['id']}/actions", json.loads(body), table["token"])
    assert retry.status == 200 and retry.payload["version"] == 1, retry.payload
    assert table_state(port, table) == (1, 1)


def precondition(ok: bool, message: str) -> None:
    # Not an AssertionError: a broken set-up must not pass for the behaviour under test.
    if not ok:
        raise RuntimeError(message)


def test_a_complete_json_body_short_of_its_content_length_changes_nothing(one_worker):
    port = one_worker.port
    table = create_table(DjangoTransport(token=""), game="dogo-dash", players=PLAYERS[:3])
    body = reveal_body(0) + b"\n"  # a client that ends its body with a newline, cut before it
    send_raw(port, api_head(table), body[:-1], declared=len(body))
    assert table_state(port, table) == (0, 0), "an incomplete request was applied"


# Three reveals that leave Dogo Dash waiting for a collect that seats 0 and 1 may dash in.
TO_COLLECT = [
    {"type": "reveal", "cards": {"0": "cat", "1": "bear", "2": "bear"}},
    {"type": "reveal", "cards": {"1": "cat", "2": "dog"}},
    {"type": "reveal", "cards": {"0": "dog", "1": "dog", "2": "bear"}},
]


def cookies_of(answer) -> dict:
    jar = SimpleCookie()
    for header in answer.headers.get_all("Set-Cookie") or []:
        jar.load(header)
    return {name: morsel.value for name, morsel in jar.items()}


def test_a_form_cut_off_mid_body_applies_no_partial_entry(one_worker):
    port = one_worker.port
    send = DjangoTransport(token="")
    table = create_table(send, game="dogo-dash", players=PLAYERS[:3], options={"dogo_dash": True})
    send.token = table["token"]
    for version, action in enumerate(TO_COLLECT):
        answer = send(
            0,
            "POST",
            f"/api/v1/tables/{table['id']}/actions",
            {"action": action, "expected_version": version},
        )
        precondition(answer.status == 200, str(answer.payload))
    precondition(
        (answer.payload["expect"]["actions"], answer.payload["expect"]["seats"]) == (["collect"], [0, 1]),
        str(answer.payload["expect"]),
    )

    # The phone opens the share link, then the table page (which sets the CSRF cookie).
    joined = http_call(port, "GET", f"/t/{table['id']}/join/{table['token']}/")
    precondition(joined.status == 302, f"join answered {joined.status}")
    session = cookies_of(joined)["sessionid"]
    page = http_call(port, "GET", f"/t/{table['id']}/", headers={"Cookie": f"sessionid={session}"})
    precondition(page.status == 200, f"table page answered {page.status}")
    csrf = cookies_of(page)["csrftoken"]

    # Both dash toggles on, in the order the form lists its fields; the signal drops before the
    # second one went out.
    form = urlencode(
        [("csrfmiddlewaretoken", csrf), ("expected_version", 3), ("idempotency_key", "form-cut")]
        + [("dash_0", "1"), ("dash_1", "1")]
    ).encode()
    head = (
        f"/t/{table['id']}/act/ HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        f"Cookie: sessionid={session}; csrftoken={csrf}\r\nHX-Request: true"
    )
    send_raw(port, head, form[: form.index(b"&dash_1")], declared=len(form))
    version, events = table_state(port, table)
    applied = list(Event.objects.filter(table_id=table["id"], seq=4).values_list("action", flat=True))
    assert (version, events) == (3, 3), f"a cut form was applied as {applied}"
