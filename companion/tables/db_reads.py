"""Reads made by the workers' own long-lived threads (the fan-out's reader, the push renderers)."""

from __future__ import annotations

import contextlib

from django.db import connection


@contextlib.contextmanager
def closed_if_broken():
    """A read that fails closes the thread's connection: the next one opens it afresh (a
    PostgreSQL restart, an ended backend), as a request's thread gets a new one with its next request."""
    try:
        yield
    except Exception:
        connection.close()
        raise
