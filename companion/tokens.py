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


class Linked(Shared, Protocol):
    """A table or a group whose links can be renewed: `links` counts the renewals."""

    links: int


def grant_value(rights: str, links: int) -> str:
    """What a phone's session keeps of a link it opened: the rights, and the links' generation when
    they were ever renewed ("edit", "view@2"), so a grant of links renewed since counts for nothing."""
    return rights if links == 0 else f"{rights}@{links}"


def granted(value: str | None, links: int) -> str | None:
    """The rights a kept grant gives now: its own while it names the links' generation, else None."""
    if not value:
        return None
    rights, _, generation = value.partition("@")
    return rights if (int(generation) if generation.isdigit() else 0) == links else None


def renewed(value: str | None, links: int) -> bool:
    """A grant of links renewed since (as opposed to no grant at all): the page can say so."""
    return bool(value) and granted(value, links) is None
