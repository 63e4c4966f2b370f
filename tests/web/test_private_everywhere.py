"""A private deployment keeps its history private on every door (issue 28): every route of the
OpenAPI document and every page URL, called without a login, with and without tokens.

The audit found `GET /api/v1/groups/default`, `/players` and `/plays` answering 200 to anyone with
every name, score and winner while every page asked for a login. Here each route is called by a
stranger, and no answer may hold the names of the group's people, its name or its scores.
"""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from companion.groups.models import Group
from companion.middleware import OPEN_API_ROUTES
from tests.history.factories import play_out

pytestmark = pytest.mark.django_db

SECRET_NAMES = ("Zoltan", "Ysolde")  # the people of both groups: no answer may name them
GROUP_NAME = "Quiet circle"


@pytest.fixture
def world(settings):
    settings.LOGIN_REQUIRED = True
    group = Group.objects.create(name=GROUP_NAME)
    default_play = play_out("dogo-dash", list(SECRET_NAMES))  # the open default group's history
    group_play = play_out("hang-four", list(SECRET_NAMES), group=group)
    return {"group": group, "default_play": default_play, "group_play": group_play}


def openapi_operations(client) -> list[tuple[str, str, str]]:
    """(method, path template, operation id) of every operation the API documents."""
    document = client.get("/api/v1/openapi.json").json()
    return [
        (method.upper(), path, operation["operationId"])
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]


def filled(template: str, values: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda match: values[match[1]], template)


def assert_nothing_private(response, where: str) -> None:
    body = response.content.decode(errors="replace")
    for secret in (*SECRET_NAMES, GROUP_NAME):
        assert secret not in body, f"{where} shows {secret!r} to a stranger"


def test_the_walk_covers_the_routes_that_hold_a_history(client, world):
    operations = {operation.rsplit("_api_", 1)[-1] for _, _, operation in openapi_operations(client)}
    assert {"get_group", "list_players", "list_plays", "list_ratings", "create_table"} <= operations
    assert not {"get_group", "list_players", "list_plays", "list_ratings"} & OPEN_API_ROUTES


@pytest.mark.parametrize("token_kind", ["none", "group token", "table token"])
def test_every_api_route_asks_a_stranger_to_log_in_or_holds_nothing_private(client, world, token_kind):
    group, group_play = world["group"], world["group_play"]
    tokens = {"none": None, "group token": group.token, "table token": group_play.token}
    headers = {"HTTP_AUTHORIZATION": f"Bearer {tokens[token_kind]}"} if tokens[token_kind] else {}
    walked = 0
    for group_id in ("default", group.pk):
        values = {
            "group_id": group_id,
            "table_id": group_play.id,
            "name": "default",
            "user_id": "1",
            "job_id": PAGE_VALUES["job_id"],  # an import's progress (issue 42)
            "sheet_id": "wingspan",  # a library sheet: public (issue 44)
        }
        for method, template, _operation in openapi_operations(client):
            path = filled(template, values)
            query = {"game": "dogo-dash", "seat": "0"}
            if method == "GET":
                response = client.get(path, query, **headers)
            else:
                response = client.generic(method, path, "{}", content_type="application/json", **headers)
            where = f"{method} {path} ({token_kind})"
            assert response.status_code != 500, where
            assert response["Content-Type"].startswith("application/json"), where
            route = response.resolver_match.url_name
            if route not in OPEN_API_ROUTES:
                assert response.status_code == 401, where
                assert response.json()["error"]["code"] == "login_required", where
                assert_nothing_private(response, where)
            elif token_kind != "table token":
                # A table's call without its own token is refused as it is anywhere.
                assert response.status_code in (200, 400, 401, 404), where
                assert_nothing_private(response, where)
            walked += 1
    assert walked >= 2 * 12


def page_patterns(resolver: URLResolver | None = None, prefix: str = "") -> list[tuple[str, object]]:
    """Every page route as (regex text, pattern), the API's left to the test above."""
    resolver = resolver or get_resolver()
    found = []
    for pattern in resolver.url_patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if text.startswith("api/"):
                continue
            found += page_patterns(pattern, text)
        elif isinstance(pattern, URLPattern):
            found.append((text, pattern))
    return found


PAGE_VALUES = {
    "table_id": "TABLE",
    "group_id": "GROUP",
    "token": "TOKEN",
    "slug": "dogo-dash",
    "player_id": "PLAYER",
    "kind": "edit",
    "rest": "",
    "job_id": "00000000-0000-4000-8000-000000000000",
    "day": "2026-12-03",  # a night of the group (issue 32)
    "user_id": "1",  # a member to remove (issue 41)
    "login_handle": "0123456789abcdef",  # a login to sign out (issue 41)
    "sheet_id": "harbour-lights",  # a group's own sheet (issue 44)
}


def page_url(text: str, world: dict, token: str) -> str:
    group, play = world["group"], world["group_play"]
    player = play.seats.first().player_id
    values = {**PAGE_VALUES, "table_id": play.id, "group_id": group.pk, "token": token}
    values["player_id"] = str(player)
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda match: values[match[1]], text)
    path = path.replace("^", "").replace("$", "").replace("(?P<rest>.*)", "")
    return "/" + path


# Pages a stranger may open on a private deployment, and why: the login page, the language switch
# and its words, the installable app's files, the rules of a game, the health check of a load
# balancer (issue 41: it names no one), and a table reached through its own link (the join view
# checks the token; without it the table's pages are 404).
PUBLIC_PAGES = {
    "login",
    "set_language",
    "javascript-catalog",
    "manifest",
    "service_worker",
    "rules",
    "healthz",
}


@pytest.mark.parametrize("token_kind", ["wrong", "group token"])
def test_every_page_asks_a_stranger_to_log_in_or_holds_nothing_private(client, world, token_kind):
    token = {"wrong": "not-a-token", "group token": world["group"].token}[token_kind]
    walked = 0
    for text, pattern in page_patterns():
        url = page_url(text, world, token)
        response = client.get(url)
        where = f"GET {url} ({pattern.name}, {token_kind})"
        assert response.status_code != 500, where
        assert_nothing_private(response, where)
        login = response.status_code == 302 and response["Location"].startswith("/accounts/login/")
        if pattern.name in PUBLIC_PAGES:
            assert response.status_code in (200, 302), where
        elif pattern.name == "join" and "/t/" in url:
            assert response.status_code == 404, where  # a table's link with a group's or no token
        else:
            # Either the login page, or a table's own view that finds no grant (404), or a
            # legacy address forwarding to a page that asks for a login.
            assert login or response.status_code in (404, 405) or pattern.name is None, where
        walked += 1
    assert walked >= 30
