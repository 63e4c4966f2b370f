"""The French pages on a 390 px phone (issue 17): French words are longer, and every screen still
fits, light and dark. The phone's browser speaks French (its Accept-Language), so the app answers
in French without a tap; the switch brings English back and the phone keeps it.

Each game's table at the start and in the middle, with a step-by-step entry open, a finished
table, the rules, the new-table form, the home page and the history are photographed (the `shot`
fixture fails on anything wider than the phone) and read for French.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.games import registry
from tests.browser.test_accessibility import STEP_QUERIES, started
from tests.browser.test_installable import open_table, until, worker_ready
from tests.engines.golden_playthrough import script
from tests.history.factories import play_out
from tests.web.test_french import english_words

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_french_screen_fits_a_390_px_phone(live_server, new_phone, shot):
    phone = new_phone(locale="fr-FR")
    url = live_server.url
    playing = {slug: started(slug, 6) for slug in registry.GAMES}
    finished = {
        slug: play_out(slug, script(slug)[0], seed=5, options=script(slug)[1]) for slug in registry.GAMES
    }
    for table in [*playing.values(), *finished.values()]:
        phone.goto(f"{url}/t/{table.id}/join/{table.token}/")
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        phone.goto(url + "/")
        assert phone.locator("html").get_attribute("lang") == "fr"
        assert phone.get_by_role("heading", name="À quoi jouez-vous ?").is_visible()
        shot(phone, f"fr-home-{scheme}")
        for slug, table in playing.items():
            for query in ("", STEP_QUERIES.get(slug, "")):
                phone.goto(f"{url}/t/{table.id}/{query}")
                ann = phone.get_by_role("button", name=re.compile(r"^Ann\b"))  # not "Annuler" (Undo)
                if slug == "summer-suns" and ann.count():
                    ann.click()  # this phone is Ann's sheet
                    phone.goto(f"{url}/t/{table.id}/{query}")
                live = phone.locator("#live").inner_text()
                assert not english_words(live), f"{slug}: English on its French page: {english_words(live)}"
                assert "Dernière saisie" in phone.locator("#live").inner_text()
                # The connection mark is table.js's, from Django's JavaScript catalog.
                # Read as Playwright retries it: the mark changes live (connecting, then live), and
                # three reads of it in a row could each see another text (issue 46: one run saw
                # none of the words, then "En direct · mis à jour" in its own message).
                said = re.compile("En direct|Mise à jour|Connexion")
                expect(phone.locator(".connection-text")).to_have_text(said)
                shot(phone, f"fr-{slug}{'-step' if query else ''}-{scheme}")
        for slug, table in finished.items():
            phone.goto(f"{url}/t/{table.id}/")
            assert "Rejouer" in phone.locator("#live").inner_text()
            shot(phone, f"fr-{slug}-finished-{scheme}")
            phone.goto(f"{url}/rules/{slug}/")
            shot(phone, f"fr-{slug}-rules-{scheme}")
            phone.goto(f"{url}/new/{slug}/")
            shot(phone, f"fr-{slug}-new-{scheme}")
        phone.goto(f"{url}/g/default/history/")
        assert phone.get_by_role("heading", name="Historique").count()
        shot(phone, f"fr-history-{scheme}")
        phone.goto(f"{url}/g/default/history/plays/{finished['summer-suns'].id}/")
        shot(phone, f"fr-play-{scheme}")


def test_the_switch_brings_english_back_and_the_phone_keeps_it(live_server, new_phone):
    phone = new_phone(locale="fr-FR")
    phone.goto(live_server.url + "/")
    assert phone.locator("html").get_attribute("lang") == "fr"
    phone.get_by_role("button", name="English").click()
    phone.wait_for_url(live_server.url + "/")
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.get_by_role("heading", name="What are you playing?").is_visible()
    phone.goto(live_server.url + "/groups/new/")  # another page: the choice is the phone's
    assert phone.locator("html").get_attribute("lang") == "en"
    phone.get_by_role("button", name="Français").click()
    assert phone.get_by_role("heading", name="Créer un groupe").is_visible()


def test_a_french_table_opened_once_opens_again_offline_in_french(live_server, new_phone):
    """The worker keeps the JavaScript catalog beside the table page: offline, table.js still
    speaks French, and a tap waits in the outbox in French."""
    phone = new_phone(locale="fr-FR")
    open_table(phone, live_server.url)
    worker_ready(phone)
    phone.reload()  # through the worker now: it keeps the page and the catalog
    until(phone, "() => caches.open('tables').then(c => c.match('/jsi18n/')).then(r => !!r)")
    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("#connection")).to_contain_text(
        "Hors ligne : la table telle que ce téléphone l'a vue en dernier"
    )
    expect(phone.locator(".log li").first).to_contain_text("Ann a fait un 4")
    phone.locator(".prompt .hf-faces .step-option", has_text="5").tap()
    outbox = phone.locator("#outbox .outbox-text")
    expect(outbox).to_contain_text("Pas encore envoyé : pas de connexion. Ta saisie « Ben a fait un 5 »")
    phone.context.set_offline(False)
    expect(outbox).to_have_text("Envoyé : « Ben a fait un 5 ».", timeout=15_000)
