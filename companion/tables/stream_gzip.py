"""A table's event stream gzipped event by event (issue 45): a pushed live region is 8 to 17 KB of
HTML, sent to every other phone at the table on each entry, often over a poor mobile signal.

Each event is a deflate segment of its own, ended by a sync flush (the phone's browser decodes it
whole as soon as it arrives), compressed with the stream's last WINDOW bytes as its dictionary:
a region differs little from the one before it, so an event costs a few hundred bytes instead of
the ~2 KB a region costs compressed alone (a short event, a heartbeat or a version, goes as a
stored block: nothing to save by compressing it). Segments of separate compressors join into one valid
deflate stream because each ends on a byte boundary and none is marked final; a reference into
the dictionary is a reference into what the phone has just decoded.

A stream keeps no compressor between events, only its last WINDOW bytes, its CRC and its length:
its memory is bounded by WINDOW whatever it sends (a compressor kept per stream would hold
~256 KB, times every open phone).
"""

from __future__ import annotations

import contextlib
import re
import struct
import zlib
from collections.abc import AsyncIterator

LEVEL = 6  # zlib's default: level 9 saved ~10% more for ~15% more CPU (measured on regions)
WINDOW = 16 * 1024  # bytes a stream keeps as the next event's dictionary (a region: 8-17 KB)
HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # gzip: deflate, no name, no time, unknown OS
FINAL_EMPTY_BLOCK = b"\x03\x00"  # a last, empty deflate block: the stream ends
# An event this short (a heartbeat, a version) goes as a stored block: compressing it would save
# a few bytes for a compressor's setup (~0.1 ms with a 16 KB dictionary) on every stream.
STORED_AT_MOST = 128
REFUSED = re.compile(r"^q\s*=\s*0(\.0*)?$")  # "gzip;q=0": anything but gzip


def wanted(request) -> bool:
    """Whether the phone's Accept-Encoding takes gzip (by name or "*"), not refused with q=0."""
    taken = {}  # coding -> whether it is taken (not q=0)
    for coding in request.headers.get("Accept-Encoding", "").split(","):
        name, *parameters = (part.strip().lower() for part in coding.split(";"))
        taken[name] = not any(REFUSED.match(parameter) for parameter in parameters)
    for name in ("gzip", "x-gzip", "*"):  # a coding named outranks "*"
        if name in taken:
            return taken[name]
    return False


class GzipEvents:
    """One stream's gzip body, written an event at a time."""

    def __init__(self):
        self.started = False
        self.sent = b""  # the last WINDOW bytes sent: the next event's dictionary
        self.crc = 0
        self.size = 0

    def encode(self, data: bytes) -> bytes:
        """The bytes that carry `data`, decodable whole on arrival."""
        if len(data) <= STORED_AT_MOST:
            segment = stored_block(data)
        else:
            compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS, **self._dictionary())
            segment = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
        self.crc = zlib.crc32(data, self.crc)
        self.size += len(data)
        self.sent = (self.sent + data)[-WINDOW:]
        return self._header() + segment

    def end(self) -> bytes:
        """The end of the gzip body: its last block, its CRC and its length."""
        return self._header() + FINAL_EMPTY_BLOCK + struct.pack("<II", self.crc, self.size & 0xFFFFFFFF)

    def _dictionary(self) -> dict:
        return {"zdict": self.sent} if self.sent else {}  # zlib takes no empty dictionary

    def _header(self) -> bytes:
        if self.started:
            return b""
        self.started = True
        return HEADER


def stored_block(data: bytes) -> bytes:
    """`data` as a stored deflate block, not the last (it starts and ends on a byte boundary)."""
    return b"\x00" + struct.pack("<HH", len(data), len(data) ^ 0xFFFF) + data


async def gzipped(events: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """`events` gzipped; closing this closes them (their `finally` lets go of the table)."""
    body = GzipEvents()
    async with contextlib.aclosing(events):
        async for event in events:
            yield body.encode(event)
    yield body.end()
