"""axe-core finds no accessibility violation on the app's pages, light and dark, at 390 px (issue 15):
every game's new-table form, its table at the start, in the middle (with a step-by-step entry
open where it has one) and finished, its rules page, and the history's pages.

axe-core comes with the axe-playwright-python package (requirements.txt); the run is injected by
Playwright, outside the page's Content-Security-Policy.
"""

from __future__ import annotations

import random

import pytest
from axe_playwright_python.sync_playwright import Axe

from companion.games import registry
from companion.tables import services
from tests.engines.golden_playthrough import script
from tests.history.factories import play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEP_QUERIES = {"hang-four": "?do=roll", "summer-suns": "?slot=c1t"}  # an entry of several taps, open


def started(slug: str, entries: int):
    names, options, _ = script(slug)
    table = services.create_table(slug, names, options)
    engine, rng = registry.get(slug), random.Random(slug)
    for _ in range(entries):
        table.refresh_from_db()
        if engine.result(table.snapshot) is not None:
            break
        services.play_action(table.id, engine.sample_action(table.snapshot, rng), table.version)
    table.refresh_from_db()
    return table


def violations(axe: Axe, page) -> list[str]:
    found = axe.run(page).response["violations"]
    return [
        f"{page.url}: {v['id']} ({v['impact']}) at {v['nodes'][0]['target']}: "
        + v["nodes"][0].get("failureSummary", "").replace("\n", " ")[:160]
        for v in found
    ]


def test_no_page_has_an_accessibility_violation(live_server, phone):
    axe = Axe()
    url = live_server.url
    finished = {
        slug: play_out(slug, script(slug)[0], seed=5, options=script(slug)[1]) for slug in registry.GAMES
    }
    playing = {slug: started(slug, 6) for slug in registry.GAMES}
    player = finished["dogo-dash"].seats.first().player_id
    pages = [
        "/",
        "/g/default/history/",
        "/g/default/history/players/",
        f"/g/default/history/players/{player}/",
        "/g/default/history/games/",
    ]
    for slug in registry.GAMES:
        pages += [f"/new/{slug}/", f"/rules/{slug}/", f"/g/default/history/plays/{finished[slug].id}/"]
        pages += [f"/g/default/history/plays/{finished[slug].id}/replay/?step=3"]
    # Bring your history (issue 29): its page and a file's preview, for a phone with the member link.
    from companion.groups.models import Group
    from companion.history.importers import jobs
    from tests.history.import_files import bgstats

    group = Group.default()
    phone.goto(f"{url}/g/{group.pk}/join/{group.token}/")
    pages += [
        f"/g/{group.pk}/history/bring/",
        f"/g/{group.pk}/history/bring/{jobs.create(group, 'bgstats', bgstats()).pk}/",
    ]
    problems = []
    for table in [*playing.values(), *finished.values()]:
        phone.goto(f"{url}/t/{table.id}/join/{table.token}/")  # this phone may now open each table
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        for path in pages:
            phone.goto(url + path)
            problems += [f"{scheme} {line}" for line in violations(axe, phone)]
        for slug, table in playing.items():
            for query in ("", STEP_QUERIES.get(slug, "")):
                phone.goto(f"{url}/t/{table.id}/{query}")
                if slug == "summer-suns" and phone.get_by_role("button", name="Ann").count():
                    phone.get_by_role("button", name="Ann").click()  # this phone is Ann's sheet
                    phone.goto(f"{url}/t/{table.id}/{query}")
                problems += [f"{scheme} {line}" for line in violations(axe, phone)]
        for table in finished.values():
            phone.goto(f"{url}/t/{table.id}/")
            problems += [f"{scheme} {line}" for line in violations(axe, phone)]
    assert not problems, "axe-core found:\n" + "\n".join(problems)
