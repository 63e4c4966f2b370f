"""Who may read or write a table: the secret token writes, the view token only reads.

The API sends a token in the Authorization header; a phone that opened a share link keeps a grant
in its session, so the token does not stay in the address bar or in later request logs.
"""

from __future__ import annotations

from companion.tokens import EDIT

from .models import Table

MAX_GRANTS = 60  # tables one phone remembers


def _grants(request) -> dict:
    return request.session.get("tables", {})


def grant(request, table: Table, rights: str) -> None:
    grants = _grants(request)
    # Never downgrade: a phone holding the edit link keeps edit rights after opening a view link.
    rights = EDIT if grants.pop(table.id, None) == EDIT else rights
    grants[table.id] = rights  # re-inserted last: the dict runs from oldest to newest
    # The session lives in a signed cookie, which browsers drop whole past 4 kB: keep the newest.
    while len(grants) > MAX_GRANTS:
        grants.pop(next(iter(grants)))
    request.session["tables"] = grants


def session_rights(request, table_id: str) -> str | None:
    return _grants(request).get(table_id)


def my_seat(request, table_id: str) -> int | None:
    return request.session.get("seats", {}).get(table_id)


def set_seat(request, table_id: str, seat: int | None) -> None:
    seats = {key: value for key, value in request.session.get("seats", {}).items() if key in _grants(request)}
    if seat is None:
        seats.pop(table_id, None)
    else:
        seats[table_id] = seat
    request.session["seats"] = seats


def known_table_ids(request) -> list[str]:
    return list(_grants(request))
