"""Who may read or write a table: the secret token writes, the view token only reads.

The API sends a token in the Authorization header; a phone that opened a share link keeps a grant
in its session, so the token does not stay in the address bar or in later request logs. A grant
names the links' generation it came from (tokens.grant_value): once the links are renewed, the
grants of the old ones give nothing (issue 41).
"""

from __future__ import annotations

from companion import tokens
from companion.tokens import EDIT

from .models import Table

MAX_GRANTS = 60  # tables one phone remembers


def _grants(request) -> dict:
    return request.session.get("tables", {})


def grant(request, table: Table, rights: str) -> None:
    grants = _grants(request)
    # Never downgrade: a phone holding the edit link keeps edit rights after opening a view link.
    if tokens.granted(grants.pop(table.id, None), table.links) == EDIT:
        rights = EDIT
    grants[table.id] = tokens.grant_value(rights, table.links)  # re-inserted last: oldest to newest
    # The session lives in a signed cookie, which browsers drop whole past 4 kB: keep the newest.
    while len(grants) > MAX_GRANTS:
        grants.pop(next(iter(grants)))
    request.session["tables"] = grants


def session_rights(request, table_id: str, links: int) -> str | None:
    """This phone's rights at the table whose links are of generation `links`."""
    return tokens.granted(_grants(request).get(table_id), links)


def links_renewed(request, table_id: str, links: int) -> bool:
    """This phone opened the table's links before they were renewed."""
    return tokens.renewed(_grants(request).get(table_id), links)


async def asession_grant(request, table_id: str) -> str | None:
    """The grant kept for the table, read in an async view (a signed-in session asks the database)."""
    return (await request.session.aget("tables", {})).get(table_id)


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


def held_tables(request, tables) -> list[Table]:
    """Of `tables` (rows of known_table_ids), those whose grant still counts."""
    grants = _grants(request)
    return [table for table in tables if tokens.granted(grants.get(table.id), table.links) is not None]
