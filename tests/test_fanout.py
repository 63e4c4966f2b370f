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
