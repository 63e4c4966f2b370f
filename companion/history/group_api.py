"""The JSON API's groups (API.md, "Groups"): create one, read its players, plays and ratings.

Every call carries the group's token or view token as a bearer token, as a table's do; the open
default group (settings.DEFAULT_GROUP) reads without one, as its pages do.
"""

from __future__ import annotations

from django.db.models import Count, Q
from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Router, Schema
from pydantic import Field

from companion.games import screen_kit
from companion.groups import access
from companion.groups.models import NAME_MAX, Group, Membership, clean_group_name
from companion.json_api import ERRORS, ApiError, api, error_body, json_answer, said
from companion.tables.limits import check_tables
from companion.tables.models import Player, Table

from . import ratings, stats

router = Router(tags=["groups"])


class GroupIn(Schema):
    # Said here, refused by create_group in its own words (bad_group_name).
    name: str = Field(**said(minLength=1, maxLength=NAME_MAX))


class GroupCreatedOut(Schema):
    id: str
    name: str
    token: str
    view_token: str
    url: str
    view_url: str


class GroupOut(Schema):
    id: str
    name: str
    players: int
    plays: int


class GroupPlayerOut(Schema):
    id: int
    name: str
    plays: int
    wins: int


class PlaySeatOut(Schema):
    seat: int
    name: str
    score: int | None
    won: bool


class PlayOut(Schema):
    table: str
    game: str
    game_name: str
    finished: str
    seats: list[PlaySeatOut]
    source: str  # "" kept here, "bgstats" or "bgg" imported (issue 29)


class RatingOut(Schema):
    player: int
    name: str
    rating: float
    mu: float
    sigma: float
    plays: int
    wins: int


@router.post("", response={201: GroupCreatedOut, 429: ERRORS[400], **ERRORS})
def create_group(request, body: GroupIn):
    check_tables(request)
    # Past NAME_MAX as sent too: what the OpenAPI document says (spaces trimmed or not).
    name = clean_group_name(body.name) if len(body.name) <= NAME_MAX else None
    if name is None:
        message = _("A group needs a name of 1 to {count} printable characters.").format(count=NAME_MAX)
        raise ApiError(400, error_body("bad_group_name", message)["error"])
    owner = request.user if request.user.is_authenticated else None
    group = Group.objects.create(name=name, owner=owner)
    if owner is not None:  # an account's groups are its memberships
        Membership.keep(owner, group, Membership.Rights.EDIT)
    return json_answer(created_answer(group), status=201)


def created_answer(group: Group) -> dict:
    """A group's id, name, tokens and share links (GroupCreatedOut): at its start, and when its
    links are renewed (members_api.py)."""
    return {
        "id": group.pk,
        "name": group.name,
        "token": group.token,
        "view_token": group.view_token,
        "url": reverse("groups:join", args=[group.pk, group.token]),
        "view_url": reverse("groups:join", args=[group.pk, group.view_token]),
    }


@router.get("/{group_id}", response={200: GroupOut, **ERRORS})
def get_group(request, group_id: str):
    group = access.group_for(request, group_id)
    plays = Table.objects.filter(group=group, status=Table.Status.FINISHED).count()
    people = Player.objects.filter(group=group, guest=False).count()  # a guest is no player of it
    return {"id": group.pk, "name": group.name, "players": people, "plays": plays}


@router.get("/{group_id}/players", response={200: list[GroupPlayerOut], **ERRORS})
def list_players(request, group_id: str):
    group = access.group_for(request, group_id)
    finished = Q(seats__table__status=Table.Status.FINISHED)
    people = Player.objects.filter(group=group, guest=False).annotate(
        plays=Count("seats", filter=finished), wins=Count("seats", filter=finished & Q(seats__won=True))
    )
    rows = [{"id": p.pk, "name": p.name, "plays": p.plays, "wins": p.wins} for p in people]
    return sorted(rows, key=lambda row: (row["name"].lower(), row["name"], row["id"]))


PLAYS_PAGE = 100  # plays in one answer of GET .../plays (issue 42)


@router.get("/{group_id}/plays", response={200: list[PlayOut], **ERRORS})
def list_plays(request, group_id: str, page: str = "1"):
    """Finished plays, newest first, PLAYS_PAGE at a time (issue 42: 100,000 plays were one answer
    of 17 MB). The body stays the list API.md describes: the page's plays. The next page, while
    there is one, is named in a `Link: <url>; rel="next"` header (RFC 8288); `?page=N` (1-based)
    asks for page N, and a page past the last is an empty list."""
    group = access.group_for(request, group_id)
    number = screen_kit.number(page)
    if not number:
        message = _("'page' is a page number: 1 for the newest plays, 2 for the next ones.")
        raise ApiError(400, error_body("bad_page", message)["error"])
    start = (number - 1) * PLAYS_PAGE
    # One more than the page, to know whether a next page exists without counting every play.
    found = list(stats.plays(group)[start : start + PLAYS_PAGE + 1])
    tables = stats.detailed(found[:PLAYS_PAGE])
    response = json_answer([play_answer(table) for table in tables])
    if len(found) > PLAYS_PAGE:
        url = request.build_absolute_uri(f"{request.path}?page={number + 1}")
        response["Link"] = f'<{url}>; rel="next"'
    return response


def play_answer(table: Table) -> dict:
    return {
        "table": table.id,
        "game": table.game,
        "game_name": table.game_name,
        "finished": table.finished.isoformat(),
        "seats": [
            {"seat": seat.position, "name": seat.player.name, "score": seat.score, "won": seat.won}
            for seat in sorted(table.seats.all(), key=lambda seat: seat.position)
        ],
        "source": table.source,
    }


@router.get("/{group_id}/ratings", response={200: list[RatingOut], **ERRORS})
def list_ratings(request, group_id: str, game: str):
    """The group's leaderboard of one game (a history key: a slug, or a pad's "any-game:name")."""
    group = access.group_for(request, group_id)
    if stats.played(group, game) is None:
        raise ApiError(
            404, error_body("unknown_game", _("The group has no game '{game}'.").format(game=game))["error"]
        )
    return [
        {
            "player": one.player.pk,
            "name": one.player.name,
            "rating": one.rating,
            "mu": one.mu,
            "sigma": one.sigma,
            "plays": one.plays,
            "wins": one.wins,
        }
        for one in ratings.game_ratings(group, game)
    ]


api.add_router("/groups", router)
