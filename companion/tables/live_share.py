"""A live region pushed in the streams (live_push.py) rendered once per server, not once per
worker (issue 33): a table's three watching phones are spread over the workers, and each worker
rendered each entry for its own (1.75-2 renders an entry with two workers, the render most of an
entry's cost).

The workers of one server share a directory (gunicorn.conf.py makes one for each start, in memory
where the system has /dev/shm, and removes it at the end). The first worker that needs a version
of a variant claims it (a file created only if it is not there), renders and writes the frame; the
others wait for that file (a look every few milliseconds, on the event loop: a read in memory
costs microseconds) and take it, or, when it does not come in WAIT_SECONDS (a worker killed
mid-render), render it themselves. A region that is the phone's own, or a failed render, is
written empty: the waiting workers then send the bare version at once, as the renderer does.

A file is only the hand-over between workers (each keeps its own renders, live_cache): older than
KEEP_SECONDS, it goes. Without the directory (a server not started by gunicorn.conf.py, the tests'
own threads), each worker renders for its own streams as before.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import time
from pathlib import Path

log = logging.getLogger(__name__)

DIRECTORY_ENV = "COMPANION_LIVE_DIR"
WAIT_SECONDS = 1.0  # a claim older than this is given up: its worker may be gone
LOOK_SECONDS = 0.004  # how often a waiting worker looks for the frame
KEEP_SECONDS = 10.0  # at 50 entries/s of 40 KB regions, at most 20 MB in memory
PRUNE_SECONDS = 2.0

LINE_END = re.compile(r"\r\n|\r|\n")  # what ends a line of an event stream

_pruned = 0.0
_failed = False  # a write failed (the memory full?): this worker renders for its own from then on


def directory() -> Path | None:
    found = os.environ.get(DIRECTORY_ENV)
    return Path(found) if found and not _failed else None


def _name(table_id: str, fingerprint: str) -> str:
    """A file name from anything a table id holds (imported tables keep others' ids)."""
    return hashlib.blake2s(f"{table_id} {fingerprint}".encode(), digest_size=12).hexdigest()


def read(folder: Path, table_id: str, fingerprint: str, version: int) -> tuple[int, str] | None:
    """The frame written for this variant at `version` or newer: (its version, the frame, "" for
    none: the phone fetches), or None when there is none yet."""
    try:
        data = (folder / _name(table_id, fingerprint)).read_bytes()
    except FileNotFoundError:
        return None
    header, _, frame = data.partition(b"\n")
    written = int(header)
    return (written, frame.decode()) if written >= version else None


def claim(folder: Path, table_id: str, fingerprint: str, version: int) -> bool:
    """True for the one worker that is to render this version of this variant."""
    try:
        os.close(os.open(folder / f"{_name(table_id, fingerprint)}.{version}", os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return False
    return True


def write(folder: Path, table_id: str, fingerprint: str, claimed: int, version: int, frame: str) -> None:
    """The frame for the claimed version (rendered at `version`, the claimed one or newer), put
    whole in one step (a reader never sees half of it); the claim is then done."""
    global _failed
    name = _name(table_id, fingerprint)
    partial = folder / f"{name}.{os.getpid()}.partial"
    try:
        if _newer_there(folder / name, version):  # a slower render of an older version: dropped
            (folder / f"{name}.{claimed}").unlink(missing_ok=True)
            return
        partial.write_bytes(f"{version}\n".encode() + frame.encode())
        os.replace(partial, folder / name)
        (folder / f"{name}.{claimed}").unlink(missing_ok=True)
        _prune(folder)
    except OSError:  # the others wait WAIT_SECONDS for it, then render it themselves
        log.warning("live share: %s not written: this worker renders its own", folder, exc_info=True)
        _failed = True


def _newer_there(path: Path, version: int) -> bool:
    """Whether the frame written there is of a newer version than `version`."""
    try:
        with open(path, "rb") as written:
            return int(written.readline()) > version
    except (FileNotFoundError, ValueError):
        return False


def live_frame(version: int, fingerprint: str, html: str) -> str:
    """An event "live": its first data line the version and the variant's fingerprint, then the
    region's lines (the browser joins data lines with a newline)."""
    data = "".join(f"data: {line}\n" for line in LINE_END.split(html))
    return f"id: {version}\nevent: live\ndata: {version} {fingerprint}\n{data}\n"


def claimed_for_others(table_id: str, fingerprint: str, version: int) -> Path | None:
    """The folder where a render this worker is about to make (a phone's fetch or an entry's
    answer: issue 45) is handed over to the other workers' streams, once claimed; None when
    another worker claimed it first (its streams' pusher) or there is no folder."""
    global _failed
    folder = directory()
    if folder is None:
        return None
    try:
        return folder if claim(folder, table_id, fingerprint, version) else None
    except OSError:  # the directory gone or full: a poll or an entry's answer must not fail for it
        log.warning("live share: %s not claimed: this worker renders its own", folder, exc_info=True)
        _failed = True
        return None


def _prune(folder: Path) -> None:
    """Files older than KEEP_SECONDS go, looked for at most every PRUNE_SECONDS."""
    global _pruned
    now = time.time()
    if now - _pruned < PRUNE_SECONDS:
        return
    _pruned = now
    with os.scandir(folder) as entries:
        for entry in entries:
            try:
                if now - entry.stat().st_mtime > KEEP_SECONDS:
                    os.unlink(entry.path)
            except FileNotFoundError:
                pass  # another worker pruned it first
