"""A table's event stream gzipped event by event (issue 45): each event decodable whole as soon as
its bytes arrive, the whole body a valid gzip file, a region like the one before it sent in a few
hundred bytes, and a stream's memory bounded whatever it sends."""

import gzip
import random
import zlib

from companion.tables import stream_gzip
from companion.tables.stream_gzip import WINDOW, GzipEvents
from tests.servers import run_apart


def region(version: int, seed: int = 1) -> bytes:
    """An event like a pushed live region: ~12 KB of markup that changes a little per version."""
    rng = random.Random(seed)
    rows = [f'<tr><td class="seat">{name}</td><td>{rng.randint(0, 99)}</td></tr>' for name in "ABCD" * 60]
    rows[version % len(rows)] = f"<tr><td>version {version}</td></tr>"
    data = "".join(f"data: {row}\n" for row in rows)
    return f"id: {version}\nevent: live\ndata: {version} abc\n{data}\n".encode()


def test_each_event_is_decoded_whole_on_arrival_and_the_body_is_a_gzip_file():
    body, decoder = GzipEvents(), zlib.decompressobj(16 + zlib.MAX_WBITS)
    events = [b"retry: 2000\nid: 1\nevent: version\ndata: 1\n\n", region(2), b": still here\n\n", region(3)]
    sent = []
    for event in events:
        sent.append(body.encode(event))
        assert decoder.decompress(sent[-1]) == event  # nothing held back for the next one
    sent.append(body.end())
    assert decoder.decompress(sent[-1]) == b"" and decoder.eof and not decoder.unused_data
    assert gzip.decompress(b"".join(sent)) == b"".join(events)  # the CRC and the length check out


def test_a_region_like_the_one_before_costs_a_few_hundred_bytes():
    body = GzipEvents()
    first = len(body.encode(region(1)))
    later = [len(body.encode(region(version))) for version in range(2, 12)]
    alone = len(zlib.compress(region(2)))
    assert len(region(2)) > 10_000
    assert abs(first - alone) < 20  # the first has nothing before it: a region compressed alone
    assert max(later) < alone / 3  # the dictionary: the stream's last bytes


def test_a_stream_keeps_at_most_its_window_whatever_it_sends():
    body, decoder = GzipEvents(), zlib.decompressobj(16 + zlib.MAX_WBITS)
    huge = bytes(random.Random(3).getrandbits(8) for _ in range(3 * WINDOW))  # does not compress
    for event in (huge, region(1), huge, region(2)):
        assert decoder.decompress(body.encode(event)) == event
        assert len(body.sent) <= WINDOW
    assert body.size == 2 * len(huge) + len(region(1)) + len(region(2))


def test_a_short_event_goes_stored_and_stays_in_the_next_one_s_dictionary():
    body, decoder = GzipEvents(), zlib.decompressobj(16 + zlib.MAX_WBITS)
    heartbeat = b": still here\n\n"
    sent = body.encode(heartbeat)
    assert (
        sent == stream_gzip.HEADER + b"\x00" + len(heartbeat).to_bytes(2, "little") + sent[13:15] + heartbeat
    )
    assert decoder.decompress(sent) == heartbeat and body.sent == heartbeat
    again = body.encode(heartbeat)
    assert again == sent[len(stream_gzip.HEADER) :] and decoder.decompress(again) == heartbeat
    assert decoder.decompress(body.encode(region(1))) == region(1)


def test_an_empty_stream_is_an_empty_gzip_file():
    assert gzip.decompress(GzipEvents().end()) == b""


def test_closing_the_gzipped_stream_closes_the_events_it_wraps():
    ended = []

    async def events():
        try:
            while True:
                yield b": still here\n\n"
        finally:
            ended.append(True)  # the table's watch let go (stream.py's finally)

    async def read_two_and_leave():
        stream = stream_gzip.gzipped(events())
        decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        heard = [decoder.decompress(await anext(stream)) for _ in range(2)]
        await stream.aclose()
        return heard

    # in a thread of its own: after the browser tests, Playwright keeps a loop running in this one
    assert run_apart(read_two_and_leave()) == [b": still here\n\n"] * 2
    assert ended == [True]


def test_the_phone_must_accept_gzip():
    class Asked:
        def __init__(self, accepted):
            self.headers = {"Accept-Encoding": accepted} if accepted is not None else {}

    assert stream_gzip.wanted(Asked("gzip, deflate, br, zstd"))
    assert not stream_gzip.wanted(Asked("identity")) and not stream_gzip.wanted(Asked(None))
    assert stream_gzip.wanted(Asked("deflate, GZIP;q=0.5")) and stream_gzip.wanted(Asked("*"))
    assert not stream_gzip.wanted(Asked("gzip;q=0, br")) and not stream_gzip.wanted(Asked("gzip; q=0.0"))
    assert not stream_gzip.wanted(Asked("*, gzip;q=0")) and not stream_gzip.wanted(Asked("ungzipped"))
