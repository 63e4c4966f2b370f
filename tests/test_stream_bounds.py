"""Streams that cannot be made expensive (issue 41), on a real app server: what a stream renders is
only what the page shows (its address's other query parameters change nothing: 150 streams with
as many made-up parameters share one render), and one client address holds a bounded number of
open streams in a worker (429 in the error shape past it, the places given back as streams end)."""

from __future__ import annotations

import http.client
import json
import threading

import pytest

from .servers import app_servers
from .test_streams import WAIT, Stream, edit_cookie, new_table, roll

pytestmark = pytest.mark.django_db(transaction=True)

BOUND = 160


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    env = {"COMPANION_STREAMS_PER_ADDRESS": str(BOUND)}
    with django_db_blocker.unblock(), app_servers(["--workers", "1"], env=env) as (one,):
        yield one


class QueryStream(Stream):
    """A pushed stream whose address carries a made-up query parameter."""

    def __init__(self, port: int, table_id: str, cookie: str, query: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        headers = {"Accept": "text/event-stream", "Cookie": cookie}
        self.conn.request("GET", f"/t/{table_id}/events/?live=1&{query}", headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status


def test_streams_with_made_up_parameters_share_the_render_of_the_page(server):
    table = new_table(server.port)
    roll(server.port, table, 0)  # an entry made: no setup guide left to show
    cookie = edit_cookie(server.port, table)
    streams = [QueryStream(server.port, table["id"], cookie, f"x{n}=1&step={n}") for n in range(150)]
    assert {stream.status for stream in streams} == {200}
    firsts = [stream.next_event() for stream in streams]
    assert {(event, tuple(data)) for event, data in firsts} == {("version", ("1",))}
    roll(server.port, table, 1, face=5)
    heads, lock = [], threading.Lock()

    def hear(stream):
        event, data = stream.next_event()
        with lock:
            heads.append((event, data[0]))

    readers = [threading.Thread(target=hear, args=(stream,)) for stream in streams]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(WAIT * 2)
    # Every stream got the region pushed for one and the same variant: the page's, with no step.
    assert len(heads) == 150 and len(set(heads)) == 1 and heads[0][0] == "live", set(heads)
    for stream in streams:
        stream.close()


def test_one_address_holds_a_bounded_number_of_open_streams(server):
    table = new_table(server.port)
    cookie = edit_cookie(server.port, table)
    streams = [Stream(server.port, table["id"], cookie) for _ in range(BOUND)]
    assert [stream.status for stream in streams] == [200] * BOUND
    over = Stream(server.port, table["id"], cookie)
    assert over.status == 429
    assert json.loads(over.response.read()) == {
        "error": {
            "code": "too_many_streams",
            "message": "Too many live tables open from this address.",
            "rule": None,
        }
    }
    over.close()
    for stream in streams[:10]:
        stream.close()
    # The places of the closed streams are given back (the server hears of it within moments).
    for _ in range(50):
        again = Stream(server.port, table["id"], cookie)
        if again.status == 200:
            break
        again.close()
        threading.Event().wait(0.1)
    assert again.status == 200
    again.close()
    for stream in streams[10:]:
        stream.close()
