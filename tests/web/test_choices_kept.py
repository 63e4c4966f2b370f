"""A choice in progress never vanishes without a word (issue 30, 3: a pending write was dropped by
a stray tap near a bonus number). On every step page of the step-by-step games' golden playthroughs,
every link either carries the choices made so far (a next step, another sheet to look at) or is
Back, which takes back exactly the latest decision."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qsl

import pytest

from companion.tables import services
from tests.engines.golden_playthrough import script

pytestmark = pytest.mark.django_db

LINK = re.compile(r'<a [^>]*href="(\?[^"#]*)"([^>]*)>([^<]*)')


def links(html: str) -> list[tuple[dict, str]]:
    return [(dict(parse_qsl(unescape(href[1:]))), text.strip()) for href, _attrs, text in LINK.findall(html)]


@pytest.mark.parametrize("slug", ["summer-suns", "hang-four"])
def test_every_link_on_a_step_page_keeps_the_choice_or_is_back(slug, client):
    names, options, actions = script(slug)
    table = services.create_table(slug, names, options)
    assert client.get(f"/t/{table.id}/join/{table.token}/").status_code == 302
    checked = 0
    for action in actions:
        waiting = services.table_json(table)["expect"].get("seats") or []
        if slug == "summer-suns" and waiting:
            client.post(f"/t/{table.id}/seat/", {"seat": waiting[0]})
        pages, seen = [{}], set()
        while pages and len(seen) < 40:
            query = pages.pop()
            html = client.get(f"/t/{table.id}/", query).content.decode()
            for target, text in links(html):
                if query and "Back" not in text and not set(target) >= {k for k in query if k != "view"}:
                    if "why" in target and not {k for k in query if k not in ("why", "view")}:
                        continue  # "why is this slot dark" before anything is chosen
                    raise AssertionError(f"{query}: the link {target} ({text!r}) drops the choice")
                checked += bool(query)
                key = tuple(sorted(target.items()))
                if key not in seen and "view" not in target and "why" not in target:
                    seen.add(key)
                    pages.append(target)
        table.refresh_from_db()
        services.play_action(table.id, action, table.version)
    assert checked > 50, checked
