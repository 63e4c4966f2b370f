"""Every template reads keys that exist (issue 14): with Django's string_if_invalid set to a marker,
a renamed key of a screen's context or of the table data shows up as the marker on the page.

Every registered game's golden script is played through the services, and its table page is
rendered with edit rights (following its step-by-step links, three deep) and read-only after every
entry, then its history play and replay pages.
"""

from __future__ import annotations

import copy
import re
from html import unescape

import pytest
from django.conf import settings as django_settings

from companion.games import registry
from companion.tables import services
from tests.engines.golden_playthrough import script

from .text import spread

pytestmark = pytest.mark.django_db

MARKER = "MISSING-TEMPLATE-KEY"


@pytest.fixture
def strict_templates(settings):
    templates = copy.deepcopy(django_settings.TEMPLATES)
    templates[0]["OPTIONS"]["string_if_invalid"] = MARKER
    settings.TEMPLATES = templates


STEP_LINK = re.compile(r'href="(\?[^"#]*)"')


def assert_complete(client, path: str, follow: int = 0, seen: set | None = None) -> None:
    """The page has no marker, nor have the step-by-step pages its links lead to, `follow` deep."""
    response = client.get(path)
    assert response.status_code == 200, path
    html = response.content.decode()
    assert MARKER not in html, f"{path}: a template reads a key that is not there: ...{_around(html)}..."
    seen = set() if seen is None else seen
    if follow:
        base = path.split("?")[0]
        for query in spread(sorted(set(STEP_LINK.findall(html)) - seen)):
            seen.add(query)
            assert_complete(client, base + unescape(query), follow - 1, seen)


def _around(html: str) -> str:
    at = html.index(MARKER)
    return html[max(0, at - 200) : at + 60]


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_every_page_of_a_game_reads_only_keys_that_exist(slug, client, strict_templates):
    names, options, actions = script(slug)
    table = services.create_table(slug, names, options)
    watcher = client.__class__()
    assert client.get(f"/t/{table.id}/join/{table.token}/").status_code == 302
    assert watcher.get(f"/t/{table.id}/join/{table.view_token}/").status_code == 302
    seen: set[str] = set()  # each step-by-step query once per game: the steps, not every state
    for action in actions:
        waiting = services.table_json(table)["expect"].get("seats") or []
        if slug == "summer-suns" and waiting:  # its choices show on the sheet of the phone's own seat
            client.post(f"/t/{table.id}/seat/", {"seat": waiting[0]})
        assert_complete(client, f"/t/{table.id}/", follow=3, seen=seen)
        assert_complete(watcher, f"/t/{table.id}/")
        table.refresh_from_db()
        services.play_action(table.id, action, table.version)
    assert_complete(client, f"/t/{table.id}/")
    assert_complete(client, f"/g/default/history/plays/{table.id}/")
    assert_complete(client, f"/g/default/history/plays/{table.id}/replay/?step=1")
    assert_complete(client, f"/new/{slug}/")
