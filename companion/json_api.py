"""The JSON API's plumbing, below every app: the one NinjaAPI the tables' and the groups' routes
join, its renderer, and errors in the one shape of shared/API.md ({"error": {code, message, rule}})."""

from __future__ import annotations

import orjson
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django_ratelimit.exceptions import Ratelimited
from ninja import NinjaAPI, Schema
from ninja.errors import HttpError, ValidationError
from ninja.renderers import BaseRenderer


def to_json(data) -> bytes:
    """orjson: several times faster than json for a table (issue 13); int keys become strings,
    as json.dumps makes them."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


class ORJSONRenderer(BaseRenderer):
    """django-ninja's documented renderer hook, with to_json."""

    media_type = "application/json"

    def render(self, request, data, *, response_status):
        return to_json(data)


def json_answer(data: dict, status: int = 200) -> HttpResponse:
    """A table answer already in its final shape (services.table_json), sent as it is: ninja's
    output validation of a whole table cost more than the rules check of the action (issue 13),
    and it dropped the game's own `expect` keys that API.md's extensions promise (TableOut still
    documents the shape in the OpenAPI document)."""
    return HttpResponse(to_json(data), content_type="application/json", status=status)


api = NinjaAPI(
    title="Table Companion API",
    version="1",
    description="Enter what happened at a physical game table; the server checks the rules.",
    urls_namespace="api",
    renderer=ORJSONRenderer(),
)


class ApiError(Exception):
    def __init__(self, status: int, error: dict):
        self.status = status
        self.error = error


def said(**limits) -> dict:
    """A field's limits as the OpenAPI document says them (maxLength, enum, ...), where the server
    refuses past them in its own words (a code such as bad_player_name, a translated sentence)
    rather than as pydantic's bad_request: Field(**said(maxLength=NAME_MAX)), from the constant
    that holds the limit (issue 41)."""
    return {"json_schema_extra": limits}


def error_body(code: str, message: str, rule: str | None = None, **extra) -> dict:
    return {"error": {"code": code, "message": message, "rule": rule, **extra}}


@api.exception_handler(ApiError)
def on_api_error(request, exc: ApiError):
    return api.create_response(request, {"error": exc.error}, status=exc.status)


@api.exception_handler(ValidationError)
def on_validation_error(request, exc: ValidationError):
    # API.md: a malformed body or a field of the wrong shape is a 400 (ninja's default is 422).
    first = exc.errors[0] if exc.errors else {}
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = first.get("msg", _("The request is malformed."))
    text = f"{where}: {message}" if where else message
    return api.create_response(request, error_body("bad_request", text), status=400)


@api.exception_handler(Ratelimited)
def on_rate_limited(request, exc: Ratelimited):
    message = _("Too many requests from this address in a short time: wait a minute, then try again.")
    return api.create_response(request, error_body("rate_limited", message), status=429)


@api.exception_handler(HttpError)
def on_http_error(request, exc: HttpError):
    return api.create_response(request, error_body("bad_request", str(exc)), status=exc.status_code)


# --- The error's schema ---------------------------------------------------------------------


class ErrorDetail(Schema):
    code: str
    message: str
    rule: str | None = None
    table: dict | None = None


class ErrorOut(Schema):
    error: ErrorDetail


ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut}
