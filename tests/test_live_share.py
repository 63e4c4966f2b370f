"""One render per version and variant for all the workers of a server (issue 33,
companion/tables/live_share.py): the directory's hand-over, and two workers' streams, each with
its own Pusher as in its own process, waiting for the same entry."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import time
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory

from companion import tokens
from companion.tables import access, live_cache, live_share, services
from companion.tables.live_push import Pusher

from .servers import run_apart


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(live_share.DIRECTORY_ENV, str(tmp_path))
    return tmp_path


def test_one_worker_claims_a_version_and_the_others_read_what_it_wrote(folder):
    assert live_share.claim(folder, "t1", "fp", 3) is True
    assert live_share.claim(folder, "t1", "fp", 3) is False  # another worker: it waits
    assert live_share.claim(folder, "t1", "other", 3) is True  # another variant is its own
    assert live_share.read(folder, "t1", "fp", 3) is None  # not written yet
    live_share.write(folder, "t1", "fp", 3, 4, "id: 4\nevent: live\n")  # the table was at 4 by then
    assert live_share.read(folder, "t1", "fp", 3) == (4, "id: 4\nevent: live\n")
    assert live_share.read(folder, "t1", "fp", 4) == (4, "id: 4\nevent: live\n")
    assert live_share.read(folder, "t1", "fp", 5) is None  # older than the version asked for
    live_share.write(folder, "t1", "fp", 5, 5, "")  # nothing to push: the page fetches
    assert live_share.read(folder, "t1", "fp", 5) == (5, "")
    # The claims are done once written: only the frames and the other variant's claim are left.
    assert len(list(folder.iterdir())) == 2


def test_an_older_frame_written_late_does_not_replace_a_newer_one(folder):
    """A poll's or an entry's slower render of an older version comes after a newer one's."""
    live_share.claim(folder, "t1", "fp", 5)
    live_share.write(folder, "t1", "fp", 5, 5, "five")
    assert live_share.claim(folder, "t1", "fp", 4)
    live_share.write(folder, "t1", "fp", 4, 4, "four")
    assert live_share.read(folder, "t1", "fp", 4) == (5, "five")
    assert sorted(path.name for path in folder.iterdir()) == [live_share._name("t1", "fp")]  # claims done


def test_a_claim_that_cannot_be_made_leaves_the_render_to_this_worker(folder, monkeypatch):
    """The directory gone (or full): a poll or an entry's answer renders as without it (issue 45)."""
    monkeypatch.setattr(live_share, "_failed", False)
    shutil.rmtree(folder)
    assert live_share.claimed_for_others("t1", "fp", 1) is None
    assert live_share.directory() is None  # said in the log once; renders its own from then on


def test_files_older_than_the_hand_over_go(folder, monkeypatch):
    live_share.write(folder, "t1", "fp", 1, 1, "old")
    old = time.time() - live_share.KEEP_SECONDS - 1
    os.utime(folder / live_share._name("t1", "fp"), (old, old))
    live_share.claim(folder, "t2", "fp", 1)  # a claim whose worker died
    os.utime(folder / f"{live_share._name('t2', 'fp')}.1", (old, old))
    monkeypatch.setattr(live_share, "_pruned", 0.0)
    live_share.write(folder, "t3", "fp", 1, 1, "new")
    assert [path.name for path in folder.iterdir()] == [live_share._name("t3", "fp")]


def test_a_worker_that_cannot_write_renders_for_its_own_from_then_on(folder, monkeypatch):
    monkeypatch.setattr(live_share, "_failed", False)
    assert live_share.claim(folder, "t1", "fp", 1)
    shutil.rmtree(folder)  # the memory's directory gone (or full): the write fails
    live_share.write(folder, "t1", "fp", 1, 1, "frame")  # said in the log, not raised
    assert live_share.directory() is None


# --- Two workers' streams ------------------------------------------------------------------------


def phone(table) -> object:
    """A phone that opened the table's play link: its stream's request."""
    request = RequestFactory().get(f"/t/{table.id}/events/?live=1")
    request.session = import_module(settings.SESSION_ENGINE).SessionStore()
    request.user = AnonymousUser()
    access.grant(request, table, tokens.EDIT)
    return request


def played_table():
    table = services.create_table("hang-four", ["Ann", "Ben", "Cleo", "Dev"], {})
    services.play_action(table.id, {"type": "roll", "face": 5}, 0)  # no setup guide left to show
    table.refresh_from_db()
    return table


class Counted(Pusher):
    """A worker's stream whose renders are counted (what this worker rendered itself)."""

    renders = 0

    def _render(self):
        Counted.renders += 1
        return super()._render()


def frames_of_two_workers(table, version: int, claimed_by_a_dead_worker=False):
    async def run():
        pushers = [Counted(phone(table), table.id, tokens.EDIT) for _ in range(2)]
        for pusher in pushers:
            await pusher.learn()
        if claimed_by_a_dead_worker:
            folder = live_share.directory()
            live_share.claim(folder, table.id, live_cache.fingerprint(pushers[0].part), version)
        # Each as in its own process: no job of one worker is another's (live_push._jobs).
        return await asyncio.gather(*(pusher._made(version) for pusher in pushers))

    Counted.renders = 0
    live_cache.clear()
    return run_apart(run())


@pytest.mark.django_db(transaction=True)
def test_two_workers_push_one_render_of_an_entry(folder):
    table = played_table()
    made = frames_of_two_workers(table, 1)
    assert Counted.renders == 1  # one worker rendered; the other took what it wrote
    (part_a, frame_a), (part_b, frame_b) = made
    assert part_a == part_b and frame_a == frame_b
    assert frame_a.startswith(f"id: 1\nevent: live\ndata: 1 {live_cache.fingerprint(part_a)}\n")
    assert 'data-version="1"' in frame_a and live_cache.FORM_KEY in frame_a  # each phone fills its own
    assert live_share.read(folder, table.id, live_cache.fingerprint(part_a), 1) == (1, frame_a)


@pytest.mark.django_db(transaction=True)
def test_a_claim_whose_worker_died_is_rendered_after_the_wait(folder, monkeypatch):
    monkeypatch.setattr(live_share, "WAIT_SECONDS", 0.2)
    table = played_table()
    started = time.monotonic()
    made = frames_of_two_workers(table, 1, claimed_by_a_dead_worker=True)
    assert Counted.renders == 2 and made[0] == made[1]  # neither could claim it: each rendered
    assert time.monotonic() - started >= 0.2


@pytest.mark.django_db(transaction=True)
def test_a_region_that_is_the_phone_s_own_is_written_empty_and_nobody_waits(folder):
    """Before the first entry a phone with the edit link may show its setup guide (its own)."""
    table = services.create_table("hang-four", ["Ann", "Ben", "Cleo", "Dev"], {})
    started = time.monotonic()
    assert frames_of_two_workers(table, 0) == [None, None]  # both pages fetch
    assert Counted.renders == 1 and time.monotonic() - started < live_share.WAIT_SECONDS
    assert [path.read_bytes() for path in folder.iterdir()] == [b"0\n"]  # version 0, nothing


@pytest.mark.django_db(transaction=True)
def test_without_the_directory_each_worker_renders_for_its_own(monkeypatch):
    monkeypatch.delenv(live_share.DIRECTORY_ENV, raising=False)
    made = frames_of_two_workers(played_table(), 1)
    assert Counted.renders == 2 and made[0] == made[1] and made[0] is not None


@pytest.mark.django_db(transaction=True)
def test_an_entry_s_answer_is_handed_over_to_the_other_workers_streams(folder):
    """Issue 45: the region a plain entry's phone gets is its variant's; rendered for the answer,
    it is claimed and written for the other workers, whose streams then render nothing."""
    table = played_table()
    writer = Client()
    assert writer.get(f"/t/{table.id}/join/{table.token}/").status_code == 302
    entry = {"action": json.dumps({"type": "roll", "face": 3}), "expected_version": 1}
    answer = writer.post(f"/t/{table.id}/act/", entry, HTTP_HX_REQUEST="true")
    assert answer["Companion-Outcome"] == "applied" and 'data-version="2"' in answer.content.decode()
    made = frames_of_two_workers(table, 2)  # each worker's own store emptied: as in other processes
    assert Counted.renders == 0  # both took the frame the entry's answer wrote
    (part, frame), (_, same) = made
    assert frame == same and frame.startswith(f"id: 2\nevent: live\ndata: 2 {live_cache.fingerprint(part)}\n")
    assert "Ben rolled a 3" in frame and live_cache.FORM_KEY in frame
    assert [path.name for path in folder.iterdir()] == [
        live_share._name(table.id, live_cache.fingerprint(part))
    ]
