"""The rights a share token gives, for a table and a group alike: the secret token edits, the view
token only reads. Below every app (tables, groups and history all read tokens this one way)."""

from __future__ import annotations

import secrets
from typing import Protocol

EDIT = "edit"
VIEW = "view"


class Shared(Protocol):
    """A table or a group: anything shared by a pair of tokens."""

    token: str
    view_token: str


def rights_for_token(shared: Shared, token: str | None) -> str | None:
    """EDIT, VIEW or None for a table's or a group's token. Compared in constant time so a token
    cannot be guessed by timing."""
    if not token:
        return None
    if secrets.compare_digest(token.encode(), shared.token.encode()):
        return EDIT
    if secrets.compare_digest(token.encode(), shared.view_token.encode()):
        return VIEW
    return None


def bearer_token(request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None
