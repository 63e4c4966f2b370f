"""A ruling a refusal cites opens with its first line below the sticky navbar (issue 43, item 2):
`/rules/<game>/#SU-7` used to scroll the ruling's title under the bar (its top at 0 px, the bar
ending at 61 px), so that for AG-2 only "9999." showed and the next ruling looked like the cited
one. Checked at 390 px and at 320 px (the narrowest phone the app is laid out for)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

CITED = [("surfs-up", "SU-7"), ("summer-suns", "SS-3"), ("hang-four", "HF-10"), ("any-game", "AG-2")]


def tops(page, ruling: str) -> tuple[float, float, float]:
    """The navbar's bottom, the cited ruling's title top and the page's scroll, in CSS pixels."""
    return page.evaluate(
        """(id) => [
            document.querySelector('.app-nav').getBoundingClientRect().bottom,
            document.getElementById(id + '-title').getBoundingClientRect().top,
            window.scrollY,
        ]""",
        ruling,
    )


@pytest.mark.parametrize("width", [390, 320])
def test_a_cited_ruling_opens_below_the_navbar(live_server, new_phone, width):
    phone = new_phone(viewport={"width": width, "height": 700})
    for game, ruling in CITED:
        phone.goto(f"{live_server.url}/rules/{game}/#{ruling}")
        expect(phone.locator(f"#{ruling}-title")).to_be_in_viewport()
        phone.wait_for_function("() => window.scrollY > 0")  # the browser went to the anchor
        navbar_bottom, title_top, scrolled = tops(phone, ruling)
        assert scrolled > 0 and navbar_bottom <= title_top <= navbar_bottom + 30, (game, ruling, width)
    # What the phone shows where the link lands (not the whole page from its top, as `shot` takes).
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        phone.screenshot(path=str(ARTIFACTS / f"rules-anchor-{width}-AG-2-{scheme}.png"), caret="initial")
