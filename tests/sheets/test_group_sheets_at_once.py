"""Phones that keep the same new sheet at the same moment (issue 44): one keeps it, the others
find it kept; none gets a 500 and the group holds it once."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection, connections
from django.test import Client

from companion.groups.models import Group, GroupSheet
from tests.sheets.test_group_sheets import HARBOUR

pytestmark = pytest.mark.django_db(transaction=True)
PHONES = 4


def test_the_same_new_sheet_sent_at_once_is_kept_once():
    group = Group.objects.create(name="Crew")
    barrier = threading.Barrier(PHONES)
    statuses = [None] * PHONES

    def send(i: int) -> None:
        try:
            phone = Client()
            barrier.wait()
            answer = phone.post(
                f"/api/v1/groups/{group.pk}/sheets",
                json.dumps(HARBOUR),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {group.token}",
            )
            statuses[i] = answer.status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == [200] * (PHONES - 1) + [201], connection.vendor
    row = GroupSheet.objects.get(group=group)
    assert row.version == 1 and row.document == HARBOUR
