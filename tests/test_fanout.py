"""The fan-out hub of one process (companion/tables/fanout.py), without a server: who hears what."""

import asyncio

import pytest

from companion.tables import fanout

from .servers import run_apart


def test_a_message_is_a_table_and_a_version():
    assert fanout.parse("ab12 7") == ("ab12", 7)
    assert fanout.parse("ab12 x") is None and fanout.parse("") is None


@pytest.mark.parametrize(
    "chosen, redis, vendor, backend",
    [
        ("auto", "redis://x", "sqlite", "redis"),
        ("auto", "", "postgresql", "postgres"),
        ("auto", "", "sqlite", "watch"),
        ("watch", "redis://x", "postgresql", "watch"),
    ],
)
def test_the_backend_follows_the_setting_then_redis_then_the_database(
    settings, monkeypatch, chosen, redis, vendor, backend
):
    settings.COMPANION_FANOUT = chosen
    monkeypatch.setenv("REDIS_URL", redis)
    monkeypatch.setattr(fanout.connection, "vendor", vendor)
    assert fanout.backend_name() == backend


def test_each_stream_hears_each_newer_version_once(settings, monkeypatch):
    async def run():
        hub = fanout.Hub()
        monkeypatch.setitem(fanout.LISTENERS, "watch", lambda hub: asyncio.sleep(0))
        settings.COMPANION_FANOUT = "watch"
        ann, ben = hub.watch("t1", 4), hub.watch("t1", 4)
        other = hub.watch("t2", 0)
        hub.publish("t1", 5)
        hub.publish("t1", 5)  # heard again from the backend: not sent twice
        hub.publish("t1", 3)  # older than what the phones have
        hub.publish_threadsafe("t1", 6)  # from a view's thread, after its commit
        await asyncio.sleep(0)
        hub.unwatch("t1", ben)
        hub.publish("t1", 7)
        heard = lambda queue: [queue.get_nowait() for _ in range(queue.qsize())]  # noqa: E731
        return heard(ann), heard(ben), heard(other), hub.versions

    ann, ben, other, versions = run_apart(run())
    assert ann == [5, 6, 7] and ben == [5, 6] and other == []
    assert versions == {"t1": 7, "t2": 0}


def test_renewed_links_reach_every_stream_of_the_table_once_even_one_watching_after(settings, monkeypatch):
    """Issue 41: a renewal's generation is put in each queue beside its version (fanout.Renewed),
    and a stream that starts watching after it was heard gets it at once."""

    async def run():
        hub = fanout.Hub()
        monkeypatch.setitem(fanout.LISTENERS, "watch", lambda hub: asyncio.sleep(0))
        settings.COMPANION_FANOUT = "watch"
        ann = hub.watch("t1", 3)
        hub.publish("t1", 4, 1)  # the renewal: version 4, links of generation 1
        hub.publish("t1", 4, 1)  # heard again from the backend
        late = hub.watch("t1", 3, 0)  # opened with the marks read before the renewal
        fresh = hub.watch("t1", 4, 1)  # opened after it
        hub.publish("t1", 5)  # an entry: no generation said, none changed
        heard = lambda queue: [queue.get_nowait() for _ in range(queue.qsize())]  # noqa: E731
        return heard(ann), heard(late), heard(fresh)

    ann, late, fresh = run_apart(run())
    assert ann == [fanout.Renewed(1), 4, 5] and isinstance(ann[0], fanout.Renewed)
    assert late == [fanout.Renewed(1), 5] and isinstance(late[0], fanout.Renewed)
    assert fresh == [5]
    assert fanout.parse("ab12 7 2") == ("ab12", 7, 2) and fanout.parse("ab12 7 x") is None


def test_streams_hear_when_the_backend_goes_and_comes_once_each(settings, monkeypatch):
    """Issue 28: a hub that lost its backend tells its streams, once per change."""

    async def run():
        hub = fanout.Hub()
        monkeypatch.setitem(fanout.LISTENERS, "watch", lambda hub: asyncio.sleep(0))
        settings.COMPANION_FANOUT = "watch"
        ann = hub.watch("t1", 0)
        hub.set_live(True)  # live from the start: nothing to say
        hub.set_live(False)
        hub.set_live(False)
        hub.publish("t1", 1)  # the hub's own process still writes
        hub.set_live(True)
        return [ann.get_nowait() for _ in range(ann.qsize())]

    assert run_apart(run()) == [fanout.DOWN, 1, fanout.UP]


def test_a_stream_sends_the_newest_version_and_the_last_change_of_state():
    from companion.tables.stream import _frames

    def frames(items: list) -> bytes:  # a stream whose page asked for no pushed region
        return run_apart(_frames(items, None))

    assert frames([3, 4]) == b"id: 4\nevent: version\ndata: 4\n\n"
    assert frames([fanout.DOWN]) == b"event: fanout\ndata: down\n\n"
    both = frames([fanout.DOWN, 5, fanout.UP])
    assert both == b"event: fanout\ndata: up\n\nid: 5\nevent: version\ndata: 5\n\n"


def test_a_write_never_waits_on_redis(settings, monkeypatch):
    """The publish happens in the publisher's thread: announce returns while that thread still
    waits on a Redis that accepts connections and never answers (a hung one, as SIGSTOP leaves
    it; REDIS_TIMEOUT 5 s here, so the thread is still waiting when the loop is done)."""
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)  # accepts connections, never reads or answers
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{silent.getsockname()[1]}/0")
    settings.COMPANION_FANOUT, settings.REDIS_TIMEOUT = "redis", 5.0
    publisher = fanout.RedisPublisher()
    monkeypatch.setattr(fanout, "publisher", publisher)
    try:
        for version in range(1, 101):
            fanout.announce("t1", version)
        # Every announce returned; the thread has not yet heard back from its first publish.
        assert publisher.thread.is_alive() and not publisher.failing
        with publisher.lock:
            waiting = dict(publisher.pending)
        assert waiting in ({"t1": (100, None)}, {})  # the newest only; {} while the thread holds it
    finally:
        silent.close()


@pytest.mark.django_db(transaction=True)
def test_the_watcher_asks_again_only_after_another_connection_commits():
    """SQLite's watcher (issue 33): PRAGMA data_version moves when another connection commits,
    as a write in another thread or process does; then the versions are read, with one query."""
    import threading

    from django.db import connection

    from companion.tables import services

    if connection.vendor != "sqlite":
        assert fanout.commits_seen() is None  # elsewhere: asked every round, as before
        return
    table = services.create_table("hang-four", ["Ann", "Ben"], {})
    before = fanout.commits_seen()
    assert fanout.commits_seen() == before  # nothing committed meanwhile
    assert fanout.read_versions([table.id, "nosuchtable"]) == {table.id: 0}
    assert fanout.commits_seen() == before  # its own reads move nothing

    def write():  # another phone's write: its own thread, its own connection
        services.play_action(table.id, {"type": "roll", "face": 5}, 0)
        connection.close()

    writer = threading.Thread(target=write)
    writer.start()
    writer.join(10)
    assert fanout.commits_seen() != before
    assert fanout.read_versions([table.id]) == {table.id: 1} and fanout.read_versions([]) == {}
