"""The JSON API v1 of shared/API.md: thin handlers over services, errors in one shape."""

from __future__ import annotations

import re
from typing import Annotated, Any

from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from ninja import Schema
from ninja.security import HttpBearer
from pydantic import Field, StrictInt

from companion import tokens
from companion.games import base, registry
from companion.games.base import name_seats
from companion.groups import own_sheets
from companion.groups.access import GROUP_ID, group_for, open_to_all
from companion.groups.models import DEFAULT_GROUP_ID, Group
from companion.json_api import ERRORS, ApiError, ErrorOut, api, error_body, json_answer, said
from companion.sheets import library

from . import services
from .limits import check_tables, check_writes
from .models import Event, Table


class TableToken(HttpBearer):
    """Documents the bearer scheme; the token itself is checked per table in `_table`, after
    the table is found, so an unknown table is a 404 whatever the header says."""

    def __call__(self, request):
        return self.Marker()

    class Marker:
        def __bool__(self):
            return True

    def authenticate(self, request, token):  # pragma: no cover - __call__ never defers here
        return token


@api.exception_handler(base.ActionError)
def on_action_error(request, exc: base.ActionError):
    return api.create_response(request, {"error": exc.as_dict()}, status=exc.status)


@api.exception_handler(services.StaleVersion)
def on_stale(request, exc: services.StaleVersion):
    return api.create_response(request, {"error": {**exc.error.as_dict(), "table": exc.table}}, status=409)


# --- Schemas --------------------------------------------------------------------------------


class GameOut(Schema):
    slug: str
    name: str
    min_players: int
    max_players: int
    options: dict[str, Any]


class PlayerOut(Schema):
    seat: int
    name: str


class ScoreOut(Schema):
    seat: int
    total: int
    breakdown: dict[str, Any]


class ExpectOut(Schema):
    actions: list[str]
    seats: list[int]

    model_config = {"extra": "allow"}


class TableOut(Schema):
    id: str
    game: str
    version: int
    status: str
    players: list[PlayerOut]
    expect: ExpectOut
    state: dict[str, Any]
    scores: list[ScoreOut]
    winners: list[int] | None
    end_reason: str | None


class CreatedTableOut(TableOut):
    token: str
    view_token: str
    url: str
    view_url: str


# The limits the server holds, said (json_api.said) from the constants that hold them (issue 41).
ENGINES = registry.all_engines()
PlayerName = Annotated[str, Field(**said(minLength=1, maxLength=services.NAME_MAX))]


class CreateTableIn(Schema):
    # A game's slug, or a score sheet's id (GET /sheets) played on the pad: one of the two.
    game: str | None = Field(default=None, **said(enum=list(registry.GAMES)))
    sheet: str | None = Field(default=None, **said(maxLength=60))
    players: list[PlayerName] = Field(
        **said(
            minItems=min(engine.min_players for engine in ENGINES),
            maxItems=max(engine.max_players for engine in ENGINES),
        )
    )
    options: dict[str, Any] = Field(default_factory=dict)
    # API.md "Groups": the group's token in the Authorization header
    group: str | None = Field(default=None, **said(pattern=f"^{GROUP_ID.pattern}$"))


KEY_MAX = Event._meta.get_field("idempotency_key").max_length


def idempotency_key_field():
    # Printable only: PostgreSQL text cannot hold NUL, and keys are opaque tokens anyway.
    return Field(default=None, min_length=1, max_length=KEY_MAX, pattern=r"^[^\x00-\x1f\x7f]+$")


class ActionIn(Schema):
    action: dict[str, Any]
    # Strict: a field of the wrong shape is a 400 (API.md), not coerced ("3", 3.0 and true were 3, 3, 1).
    expected_version: StrictInt
    idempotency_key: str | None = idempotency_key_field()


class UndoIn(Schema):
    expected_version: StrictInt
    idempotency_key: str | None = idempotency_key_field()  # API.md: every write may carry one
    # An extension of API.md: take back this entry instead of the last one, when nothing after it
    # depends on it (e.g. a player's own placement in a round everyone writes at once).
    seq: StrictInt | None = None


class PlacementOut(Schema):
    slot_die: int
    write_die: int
    slot: str
    value: int
    crab: list[str]
    dead: list[str]


class CrabDeadOut(Schema):
    slot: str
    value: int
    target: str
    dead: list[str]


class RefusalOut(Schema):
    code: str
    message: str
    rule: str


class MarkOut(Schema):
    row: str
    box: int
    value: int


class LegalOut(Schema):
    """What a seat may enter now, for every game (issue 44, the engine kit): the action types it
    may enter and, for each other type, the refusal apply would give. A game that lists its
    entries adds them: 62 Summer Suns API.md's placements, a roll-and-write's marks."""

    allowed: list[str]
    refused: dict[str, RefusalOut]
    placements: list[PlacementOut] | None = None  # 62 Summer Suns (API.md)
    pass_allowed: bool | None = None
    # An extension of API.md (SS-5 revised): for each placement's first crab targets, the slots
    # that copy would leave impossible to fill, as a placement's `dead` does for the placed value.
    crab_dead: list[CrabDeadOut] | None = None
    marks: list[MarkOut] | None = None  # a roll-and-write's marks (docs/sheets.md)


class EventOut(Schema):
    seq: int
    action: dict[str, Any]
    at: str


# Table ids are short lowercase hex; anything else is unknown without asking the database.
TABLE_ID = re.compile(r"[0-9a-z]{1,16}")
WRITE_ERRORS = {**ERRORS, 409: ErrorOut, 422: ErrorOut, 429: ErrorOut}


# --- Helpers --------------------------------------------------------------------------------


def _table(request: HttpRequest, table_id: str, write: bool = False) -> Table:
    # Only what the token check needs: a write reloads the row under its lock in the service.
    tables = Table.objects.only("id", "game", "token", "view_token", "links") if write else Table.objects
    table = tables.filter(pk=table_id).first() if TABLE_ID.fullmatch(table_id) else None
    _check_rights(request, table, write)
    return table


def _writer(request: HttpRequest, table_id: str):
    """The token check a write makes on the row the service has just locked (one read, issue 13)."""
    if not TABLE_ID.fullmatch(table_id):
        _check_rights(request, None, write=True)
    return lambda table: _check_rights(request, table, write=True)


def _check_rights(request: HttpRequest, table: Table | None, write: bool) -> None:
    if table is None:
        raise ApiError(404, error_body("not_found", _("There is no table with this id."))["error"])
    rights = tokens.rights_for_token(table, tokens.bearer_token(request))
    if rights is None:
        raise ApiError(401, error_body("unauthorized", _("This table needs its token."))["error"])
    if write and rights != tokens.EDIT:
        raise ApiError(403, error_body("read_only", _("The view token can only read this table."))["error"])


def share_urls(table: Table) -> dict:
    return {
        "url": reverse("tables:join", args=[table.id, table.token]),
        "view_url": reverse("tables:join", args=[table.id, table.view_token]),
    }


# --- Endpoints ------------------------------------------------------------------------------


@api.get("/ping", tags=["meta"], include_in_schema=False)
def ping(request):
    """The trivial JSON view the benchmark compares an action with: no database, no rules.
    Left out of the OpenAPI document, which is a contract of the endpoints in API.md."""
    return {"ok": True}


@api.get("/games", response=list[GameOut], tags=["games"])
def list_games(request):
    return [
        {
            "slug": engine.slug,
            "name": engine.name,
            "min_players": engine.min_players,
            "max_players": engine.max_players,
            "options": engine.options,
        }
        for engine in registry.all_engines()
    ]


@api.post("/tables", response={201: CreatedTableOut, 429: ErrorOut, **ERRORS}, tags=["tables"])
def create_table(request, body: CreateTableIn):
    check_tables(request)

    group = group_for(request, body.group, write=True) if body.group is not None else None
    # The table and its answer together: a table whose answer cannot be made is not kept (its
    # client would never get its token, and a retry would make a second one: issue 41).
    game, options = _game_and_options(body, group)
    with transaction.atomic():
        table = services.create_table(game, body.players, options, group)
        created = {**services.table_json(table), "token": table.token, "view_token": table.view_token}
        return json_answer({**created, **share_urls(table)}, status=201)


def _game_and_options(body: CreateTableIn, group: Group | None) -> tuple[str, dict]:
    """The game and its options: a sheet's (the pad's lines, or a group's own rules sheet whole),
    in the request's language, under the body's own options (a client may add expansions or
    change a line's name). A group's own sheet starts tables in its group only."""
    if body.sheet is None:
        if body.game is None:
            message = _("Name the 'game', or the 'sheet' to play.")
            raise ApiError(400, error_body("bad_request", message)["error"])
        return body.game, body.options
    language = translation.get_language()
    sheet, options = library.get(body.sheet), {}
    if sheet is not None:
        options = sheet.table_options(language)
    else:
        row = own_sheets.find(body.sheet)
        group_id = group.pk if group is not None else DEFAULT_GROUP_ID
        if row is not None and row.group_id == group_id and (group is not None or open_to_all(group_id)):
            sheet, options = own_sheets.sheet_of(row), own_sheets.table_options(row, language)
    if sheet is None:
        message = _(
            "There is no sheet '{id}' for this group: GET /api/v1/sheets lists them (a group's own "
            "sheet with its 'group')."
        ).format(id=body.sheet)
        raise ApiError(400, error_body("unknown_sheet", message)["error"])
    if body.game not in (None, sheet.game):
        message = _("This sheet is played as '{game}': leave out 'game', or say '{game}'.").format(
            game=sheet.game
        )
        raise ApiError(400, error_body("bad_request", message)["error"])
    return sheet.game, {**options, **body.options}


@api.get("/tables/{table_id}", response={200: TableOut, **ERRORS}, auth=TableToken(), tags=["tables"])
def get_table(request, table_id: str):
    return json_answer(services.table_json(_table(request, table_id)))


@api.post(
    "/tables/{table_id}/actions", response={200: TableOut, **WRITE_ERRORS}, auth=TableToken(), tags=["tables"]
)
def post_action(request, table_id: str, body: ActionIn):
    check_writes(request)
    authorize = _writer(request, table_id)
    return json_answer(
        services.play_action(
            table_id, body.action, body.expected_version, body.idempotency_key, authorize=authorize
        )
    )


@api.post(
    "/tables/{table_id}/undo", response={200: TableOut, **WRITE_ERRORS}, auth=TableToken(), tags=["tables"]
)
def post_undo(request, table_id: str, body: UndoIn):
    check_writes(request)
    _table(request, table_id, write=True)
    return json_answer(services.undo(table_id, body.expected_version, body.seq, body.idempotency_key))


@api.get(
    "/tables/{table_id}/events", response={200: list[EventOut], **ERRORS}, auth=TableToken(), tags=["tables"]
)
def list_events(request, table_id: str):
    table = _table(request, table_id)
    return [
        {"seq": event.seq, "action": event.action, "at": event.created.isoformat()}
        for event in table.events.filter(undone=False).order_by("seq")
    ]


@api.get(
    "/tables/{table_id}/legal",
    response={200: LegalOut, **ERRORS},
    auth=TableToken(),
    tags=["tables"],
    exclude_none=True,  # a game's own listing only where it has one
)
def list_legal(request, table_id: str, seat: int):
    """What `seat` may enter now, and why not, for every game (base.legal: the engine's entries,
    from its declared turns, and its own listing); 62 Summer Suns' keeps API.md's placements."""
    table = _table(request, table_id)
    engine = services.engine_for(table)
    if not 0 <= seat < table.seats.count():
        raise ApiError(
            400,
            error_body("bad_seat", _("There is no seat {seat} at this table.").format(seat=seat))["error"],
        )
    legal = base.legal(engine, table.snapshot, seat)
    names = services.seat_names(table)  # G-2: a refusal names the players, as apply's does
    for refusal in legal["refused"].values():
        refusal["message"] = name_seats(refusal["message"], names)
    return legal
