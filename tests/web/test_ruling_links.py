"""Every ruling id on a table page is a link to its text (issue 30, 5: "(SS-4)" in a why-not and
"(HF-11)" under a disabled button were plain text, while the rules page says "tap it to come here").

Every game's golden script is played through the services; after every entry its table page is read
with edit rights (its step-by-step links followed, three deep), and an entry out of turn is posted so
that the page shows a refusal. No text on any of them holds a ruling id outside a link.
"""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from companion.games import registry, rulebook
from companion.tables import services
from tests.engines.golden_playthrough import script

from .text import spread

pytestmark = pytest.mark.django_db

STEP_LINK = re.compile(r'href="(\?[^"#]*)"')


class BareIds(HTMLParser):
    """The ruling ids in a page's text that are not inside a rule link."""

    def __init__(self, known: set[str]):
        super().__init__()
        self.known, self.open, self.found = known, [], []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "input", "img", "meta", "link", "hr", "source"):
            return
        self.open.append((tag, "rule-link" in (dict(attrs).get("class") or "")))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        if any(linked or tag in ("script", "style", "title") for tag, linked in self.open):
            return
        self.found += [
            (ruling, data.strip()) for ruling in rulebook.RULING_ID.findall(data) if ruling in self.known
        ]


def bare_ids(html: str, known: set[str]) -> list:
    parser = BareIds(known)
    parser.feed(html)
    return parser.found


def read(client, path: str, known: set[str], follow: int, seen: set, pages: list) -> None:
    html = client.get(path).content.decode()
    pages.append(path)
    assert not bare_ids(html, known), f"{path}: a ruling id that is not a link: {bare_ids(html, known)}"
    if follow:
        base = path.split("?")[0]
        for query in spread(sorted(set(STEP_LINK.findall(html)) - seen)):
            seen.add(query)
            read(client, base + unescape(query), known, follow - 1, seen, pages)


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_every_ruling_id_on_a_table_page_is_a_link(slug, client, monkeypatch):
    # The refused entries are posted as the engine's actions, whatever the game's own form holds.
    screen = registry.screen(slug)
    monkeypatch.setattr(screen, "action_from_form", lambda post, data: json.loads(post["action"]))
    known = set(rulebook.rules(slug).ids())
    names, options, actions = script(slug)
    table = services.create_table(slug, names, options)
    assert client.get(f"/t/{table.id}/join/{table.token}/").status_code == 302
    seen: set[str] = set()
    pages: list[str] = []
    refusals = 0
    for i, action in enumerate(actions):
        waiting = services.table_json(table)["expect"].get("seats") or []
        if slug == "summer-suns" and waiting:  # its choices show on the sheet of the phone's own seat
            client.post(f"/t/{table.id}/seat/", {"seat": waiting[0]})
        read(client, f"/t/{table.id}/", known, 3, seen, pages)
        table.refresh_from_db()
        later = actions[i + 1] if i + 1 < len(actions) else None
        if slug == "any-game" and i == 0:
            later = {"type": "finish"}  # before any round (AG-5): the pad allows any score at any time
        version = table.version
        if later is not None:  # out of turn: most games refuse it, and the page says why
            answer = client.post(
                f"/t/{table.id}/act/",
                {"action": json.dumps(later), "expected_version": version, "idempotency_key": f"k{i}"},
                HTTP_HX_REQUEST="true",
            )
            html = answer.content.decode()
            if 'class="alert alert-danger py-2 refusal"' in html:
                refusals += 1
                assert not bare_ids(html, known), f"refusal after entry {i}: {bare_ids(html, known)}"
            table.refresh_from_db()
            if 'class="alert alert-danger py-2 refusal"' in html:
                assert table.version == version, "a refused entry changes nothing"
            elif table.version != version:  # the game allowed it (entries at once): take it back
                services.undo(table.id, table.version)
                table.refresh_from_db()
        services.play_action(table.id, action, table.version)
    read(client, f"/t/{table.id}/", known, 0, seen, pages)  # the result
    for after in ("", "replay/?step=1", f"replay/?step={len(actions)}"):
        read(client, f"/g/default/history/plays/{table.id}/{after}", known, 0, seen, pages)
    read(client, f"/new/{slug}/", known, 0, seen, pages)
    assert len(pages) >= len(actions) and refusals > 0, (len(pages), refusals)


def test_the_scan_finds_a_bare_id_and_passes_a_linked_one():
    known = {"HF-11"}
    assert bare_ids("<div>Not now (HF-11).</div>", known) == [("HF-11", "Not now (HF-11).")]
    assert bare_ids('<div>Not now (<a class="rule-link" href="#HF-11">HF-11</a>).</div>', known) == []
    assert bare_ids("<div>XX-99 is no ruling of this game</div>", known) == []
