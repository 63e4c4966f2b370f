"""Fixtures of the app's tests: a client of the JSON API to create and play tables. (The autouse
fixtures every test needs are in the root conftest.py.)"""

from __future__ import annotations

import json

import pytest


class ApiClient:
    """A thin JSON client over Django's test client, speaking API v1."""

    def __init__(self, client):
        self.client = client
        self.tokens: dict[str, str] = {}  # table id -> secret token, so later tables need not carry it

    def call(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        if body is None:
            return getattr(self.client, method)(path, **headers)
        data = body if isinstance(body, (str, bytes)) else json.dumps(body)
        return getattr(self.client, method)(path, data, content_type="application/json", **headers)

    def create(self, game="dogo-dash", players=("Ann", "Ben", "Cleo"), options=None) -> dict:
        response = self.call(
            "post", "/api/v1/tables", {"game": game, "players": list(players), "options": options or {}}
        )
        assert response.status_code == 201, response.content
        table = response.json()
        self.tokens[table["id"]] = table["token"]
        return table

    def act(self, table: dict, action: dict, version: int | None = None, key: str | None = None, token=None):
        body = {"action": action, "expected_version": table["version"] if version is None else version}
        if key is not None:
            body["idempotency_key"] = key
        return self.call(
            "post", f"/api/v1/tables/{table['id']}/actions", body, token or self.tokens[table["id"]]
        )


@pytest.fixture
def api(client) -> ApiClient:
    return ApiClient(client)
