"""The app in French (issue 17): the catalog is complete, and every page, log sentence and refusal
a French phone meets reads French, with no English sentence left.

The walk is the one of test_templates_read_the_screen: every game's golden script played through
the services, its table page read after every entry with edit rights (following its step-by-step
links two deep) and as a watcher, then its history pages, its rules and its new-table form; then
the pages of the app around the games. A page's visible text and its titles and labels are read
word by word for English words that no French sentence holds.
"""

from __future__ import annotations

import random
import re
import subprocess
from html import unescape
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from companion.games import base, registry
from companion.games.elision import Phrase, elide_text, starts_with_vowel_sound
from companion.games.summer_suns import legal
from companion.games.summer_suns.sheet import installed_sheets
from companion.groups.models import Group
from companion.tables import services
from companion.tables.models import Table
from tests.engines.golden_playthrough import script
from tests.engines.setups import playable
from tests.history.factories import play_out
from tests.web.text import read

pytestmark = pytest.mark.django_db

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES"
# The app's catalogs, and each game's own in its folder (makemessages files a game's sentences there).
CATALOGS = [LOCALE / "django.po", LOCALE / "djangojs.po"] + [
    registry.folder(slug) / "locale" / "fr" / "LC_MESSAGES" / "django.po" for slug in registry.GAMES
]


def catalog_entries(path: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) of a .po file, plurals as their forms joined: enough of the format to read
    what it says in each language."""
    entries, field, current = [], None, {}
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith(("msgid ", "msgid_plural ", "msgstr")):
            if line.startswith("msgid ") and current:
                entries.append(current)
                current = {}
            field, _space, rest = line.partition(" ")
            field = "msgstr" if field.startswith("msgstr") else "msgid"
            current[field] = current.get(field, "") + " " + rest.strip()[1:-1]
        elif line.startswith('"') and field:
            current[field] += line[1:-1]
    entries.append(current)
    return [(e.get("msgid", ""), e.get("msgstr", "")) for e in entries if e.get("msgid", "").strip()]


def english_only_words() -> set[str]:
    """The words of the catalogs' English sentences that none of their French ones uses: a page
    that shows one of them shows English."""
    english, french = set(), set()
    for catalog in CATALOGS:
        for msgid, msgstr in catalog_entries(catalog):
            english |= {word.lower() for word in WORD.findall(NAMES.sub(" ", msgid))}
            french |= {word.lower() for word in WORD.findall(NAMES.sub(" ", msgstr))}
    return {word for word in english - french - PLACEHOLDER_WORDS if len(word) > 1}


WORD = re.compile(r"[^\W\d_]+(?:'[a-z]+)?")  # letters, accented ones too
# Scripts, styles, comments, and what is marked English on purpose (the switch back to English).
TAG = re.compile(r"<(script|style)\b.*?</\1>|<!--.*?-->|<(\w+)[^>]*\blang=\"en\"[^>]*>.*?</\2>", re.S)
ATTRIBUTE = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')
NAMES = re.compile(
    (
        r"Dogo Dash|Hang Four|Surf's Up!?|62 Summer Suns|Surf Dogs?|Surf Shack|Super Pot|BG Stats|"
        r"Table Companion|OpenSkill|Plackett-Luce|BoardGameGeek|JSON|CSV|QR|docs/[\w.-]+|[\w-]+\.json|"
        r"\b(?:Ann|Ben|Cleo|Dan|Eve)\b"
    ).replace(" ", r"\s+")  # a chart's label wraps between a name's words
)


# Words that are code, not English: placeholders, and the API's field names quoted in messages.
# And words French sentences use too, though the catalog's French does not ("tu passes").
PLACEHOLDER_WORDS = {"lo", "hi", "id", "ids", "json", "null", "true", "false", "nd", "rd", "passes"}
ENGLISH = english_only_words()


def english_words(text: str, typed: tuple[str, ...] = ()) -> list[str]:
    """The English words of `text`, leaving out names and what the players typed (`typed`)."""
    for words in typed:
        text = text.replace(words, " ")
    text = NAMES.sub(" ", text)
    return sorted({word for word in WORD.findall(text) if word.lower() in ENGLISH})


def visible(html: str) -> str:
    """The text a person reads, and hears: the page without its scripts and styles, its tags'
    text, and the titles, labels and placeholders in its tags."""
    html = TAG.sub(" ", html)
    said = " ".join(ATTRIBUTE.findall(html))
    return unescape(re.sub(r"<[^>]+>", " ", html) + " " + said)


MEETS = re.compile(r"(?<![\w'’-])(?:de|que|le|la)\s+(\w+)", re.IGNORECASE)


def missed_elisions(text: str) -> list[str]:
    """Where `text` says 'de Ann', 'que Éva', 'le ours': French says d'Ann, qu'Éva, l'ours."""
    return [match.group(0) for match in MEETS.finditer(text) if starts_with_vowel_sound(match.group(1))]


def french_client() -> Client:
    return Client(headers={"accept-language": "fr"})


QUOTED = re.compile(r"(?<![^\W\d_])'[^']*'|\"[^\"]*\"|«[^»]*»")  # not an elision's apostrophe (l'action)
STEP_LINK = re.compile(r'href="(\?[^"#]*)"')


def typed_in(actions: list[dict]) -> tuple[str, ...]:
    """The texts the players typed in a script: Surf's Up's shared goals are named at setup."""
    return tuple(
        goal["name"] for action in actions if action["type"] == "setup" for goal in action.get("goals") or ()
    )


def assert_french(
    client: Client,
    path: str,
    follow: int = 0,
    seen: set | None = None,
    typed: tuple[str, ...] = (),
    status: int = 200,
) -> None:
    response = client.get(path)
    assert response.status_code == status, path
    html = response.content.decode()
    assert '<html lang="fr">' in html, path
    found = english_words(visible(html), typed)
    assert not found, f"{path}: English left on the French page: {found}"
    slips = missed_elisions(visible(html))
    assert not slips, f"{path}: 'de' before a vowel on the French page: {slips}"
    seen = set() if seen is None else seen
    if follow:
        for query in sorted(set(STEP_LINK.findall(html)) - seen):
            seen.add(query)
            assert_french(client, path.split("?")[0] + unescape(query), follow - 1, seen, typed)


def test_the_french_catalogs_are_complete():
    for catalog in CATALOGS:
        checked = subprocess.run(
            ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(catalog)],
            capture_output=True,
            text=True,
        )
        assert checked.returncode == 0, checked.stderr
        statistics = checked.stderr.strip().splitlines()[-1]
        assert re.fullmatch(r"\d+ translated messages\.", statistics), f"{catalog}: {statistics}"


def test_the_english_word_finder_finds_english_and_leaves_french_alone():
    assert english_words("It is Ben's turn, not Ann's (HF-13).") == ["It", "is", "not"]
    assert english_words("En attente du lancer de Ann. Dogo Dash ! Surf Dogs complets") == []


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_every_page_of_a_game_reads_french(slug):
    names, options, actions = script(slug)
    table = services.create_table(slug, names, options)
    player, watcher = french_client(), french_client()
    assert player.get(f"/t/{table.id}/join/{table.token}/").status_code == 302
    assert watcher.get(f"/t/{table.id}/join/{table.view_token}/").status_code == 302
    seen: set[str] = set()
    typed = typed_in(actions)
    for action in actions:
        assert_french(player, f"/t/{table.id}/", follow=2, seen=seen, typed=typed)
        assert_french(watcher, f"/t/{table.id}/", typed=typed)
        assert_french(watcher, f"/t/{table.id}/display/", typed=typed)  # the big screen (issue 32)
        table.refresh_from_db()
        services.play_action(table.id, action, table.version)
    assert_french(player, f"/t/{table.id}/", typed=typed)
    assert_french(watcher, f"/t/{table.id}/display/", typed=typed)
    assert_french(player, f"/g/default/history/plays/{table.id}/", typed=typed)
    assert_french(player, f"/g/default/history/plays/{table.id}/replay/?step=1", typed=typed)
    assert_french(player, f"/g/default/history/plays/{table.id}/replay/?step={len(actions)}", typed=typed)
    assert_french(player, f"/rules/{slug}/", typed=typed)
    assert_french(player, f"/new/{slug}/", typed=typed)


def test_the_pages_around_the_games_read_french():
    for slug in registry.GAMES:
        play_out(slug, ["Ann", "Ben", "Cleo"], seed=3, options=playable(registry.get(slug)))
    client = french_client()
    group = Group.default()
    ann = group.players.get(name="Ann")
    for path in (
        "/",
        "/groups/new/",
        f"/g/{group.pk}/",
        f"/g/{group.pk}/history/",
        f"/g/{group.pk}/history/players/",
        f"/g/{group.pk}/history/players/{ann.pk}/",
        f"/g/{group.pk}/history/abandoned/",
        # A pad and a kit list their plays under each game they were set up as, not under their slug.
        *(
            f"/g/{group.pk}/history/games/{slug}/"
            for slug in registry.GAMES
            if not base.is_pad(registry.get(slug))
        ),
    ):
        assert_french(client, path)
    # The import asks for the open group's member link first (issue 28), then shows its form.
    assert_french(client, f"/g/{group.pk}/history/import/", status=403)
    client.get(f"/g/{group.pk}/join/{group.token}/")
    assert_french(client, f"/g/{group.pk}/history/import/")
    # Bring your history (issue 29): the page, and a BG Stats file's preview.
    from companion.history.importers import jobs
    from tests.history.import_files import bgstats

    assert_french(client, f"/g/{group.pk}/history/bring/")
    job = jobs.create(group, "bgstats", bgstats())
    assert_french(client, f"/g/{group.pk}/history/bring/{job.pk}/", typed=("Catan", "Pandemic", "Codenames"))


def refusals(slug: str, seed: int) -> list[str]:
    """The refusals a random walk through a game meets: at each state, each kind of action with
    another state's fields, and a seat the table does not have."""
    engine = registry.get(slug)
    names, options, _actions = script(slug)
    rng = random.Random(seed)
    state = services.create_table(slug, names, options).snapshot
    said, samples = [], []
    for _step in range(400):
        if engine.result(state) is not None:
            break
        action = engine.sample_action(state, rng)
        samples.append(action)
        for other in rng.sample(samples, min(3, len(samples))) + [{**action, "seat": 9}]:
            try:
                base.play(engine, state, other)
            except base.ActionError as error:
                said.append(base.name_seats(error.message, names))
        state = base.play(engine, state, action)
    return said


@pytest.mark.parametrize("slug", list(registry.GAMES))
def test_the_refusals_read_french(slug):
    with translation.override("fr"):
        said = [message for seed in range(4) for message in refusals(slug, seed)]
    assert len(said) > 20
    # A field or an action's type in quotes is the API's word, as the client sent it.
    unquoted = {message: QUOTED.sub(" ", message) for message in said}
    left = {message: english_words(text) for message, text in unquoted.items() if english_words(text)}
    assert not left, f"English left in {len(left)} refusals, e.g. {list(left.items())[:5]}"


def test_the_api_answers_in_the_language_asked_with_the_same_codes():
    table = services.create_table("dogo-dash", ["Ann", "Ben", "Cleo"], {})
    body = {"expected_version": table.version, "action": {"type": "collect", "dogo_dash": [1]}}
    url = f"/api/v1/tables/{table.id}/actions"
    auth = {"authorization": f"Bearer {table.token}"}
    english = Client(headers=auth).post(url, body, content_type="application/json")
    french = Client(headers={**auth, "accept-language": "fr"}).post(
        url, body, content_type="application/json"
    )
    assert english.status_code == french.status_code == 422
    assert english.json()["error"]["code"] == french.json()["error"]["code"] == "unexpected_action"
    assert english.json()["error"]["rule"] == french.json()["error"]["rule"] == "DD-10"
    assert english.json()["error"]["message"] == (
        "Nobody can dash now: the round's cards are revealed first (DD-10)."
    )
    assert french.json()["error"]["message"] == (
        "Personne ne peut foncer maintenant : les cartes de la manche sont d'abord révélées (DD-10)."
    )
    assert french["Content-Language"] == "fr"


def test_a_log_sentence_is_kept_in_both_languages_and_each_phone_reads_its_own():
    table = services.create_table("hang-four", ["Ann", "Ben"], {})
    services.play_action(table.id, {"type": "roll", "seat": 0, "face": 3}, table.version)
    event = table.events.get()
    assert event.text == "Ann rolled a 3 and collects 3 sand dollars."
    assert event.texts == {"fr": "Ann a fait un 3 et reçoit 3 dollars des sables."}
    player = french_client()
    player.get(f"/t/{table.id}/join/{table.token}/")
    assert "Ann a fait un 3 et reçoit 3 dollars des sables." in player.get(f"/t/{table.id}/").content.decode()
    english = Client()
    english.get(f"/t/{table.id}/join/{table.token}/")
    assert "Ann rolled a 3 and collects 3 sand dollars." in english.get(f"/t/{table.id}/").content.decode()


def test_the_language_switch_keeps_the_phone_in_french():
    client = Client()
    assert '<html lang="en">' in client.get("/").content.decode()
    answer = client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    page = client.get("/").content.decode()
    assert '<html lang="fr">' in page and "À quoi jouez-vous ?" in page
    assert 'value="en"' in page  # the switch now offers English back


def test_a_refused_entry_and_a_refused_form_read_french_with_the_players_names():
    phone = french_client()
    started = phone.post("/new/dogo-dash/", {"player_0": "Ann", "player_1": "Ben", "player_2": "Cleo"})
    assert started.status_code == 302
    table = Table.objects.get()
    posted = {"card_0": "cat", "card_1": "dog", "expected_version": 0, "idempotency_key": ""}
    refused = phone.post(f"/t/{table.id}/act/", posted)
    assert refused.status_code == 422
    html = read(refused.content.decode())
    assert "Pas permis." in html
    assert "Cleo doit révéler une carte : chaque siège révèle une carte (DD-3)." in html
    assert not english_words(visible(html))
    # The new-table form says what is wrong in French too, and starts nothing.
    form = phone.post("/new/dogo-dash/", {"player_0": "Ann", "player_1": "ann"})
    assert "Chaque joueur ne peut s&#x27;asseoir qu&#x27;une fois à la table." in form.content.decode()
    assert Table.objects.count() == 1


def test_a_named_group_and_the_login_page_read_french():
    group = Group.objects.create(name="Club du jeudi")
    member = french_client()
    assert member.get(f"/g/{group.pk}/join/{group.token}/").status_code == 302
    assert_french(member, f"/g/{group.pk}/")
    assert_french(member, f"/g/{group.pk}/history/")
    assert_french(french_client(), "/accounts/login/")


def test_a_summer_suns_zone_rule_is_said_in_french_with_the_zone_s_own_words():
    sheet = installed_sheets()["default"]
    with translation.override("fr"):
        pair = legal.zone_problem(sheet, {"c1t": 3}, "c1b", 4)
        line = legal.zone_problem(sheet, {"g1": 3}, "g2", 3)
    assert pair == "elle doit porter la même valeur que Cabane 1, en haut (3) dans cette cabane (SS-4)"
    assert (
        line
        == "Mouette 1 porte déjà 3, et aucune valeur ne peut apparaître deux fois parmi les mouettes (SS-4)"
    )
    assert legal.zone_problem(sheet, {"c1t": 3}, "c1b", 4) == (
        "it must hold the same value as Cabin 1, top (3) in this cabin (SS-4)"
    )


def test_the_slips_a_table_read_in_french_are_gone():
    """Issue 43, item 6: "Au tour de Ann" (de before a vowel), "1 complets", "sauf" for safe."""
    from django.template import Context, Template
    from django.utils.translation import gettext, ngettext

    with translation.override("fr"):
        turn = gettext("{value}'s turn: tap what the die showed, or buy").format(value="Ann")
        assert turn == "À Ann de jouer : touche ce qu'a montré le dé, ou achète"
        assert gettext("%(turn_name)s's turn") % {"turn_name": "Ann"} == "À Ann de jouer"
        assert (
            gettext("{name}'s turn: tap the five dice as they lie after the last throw")
            .format(name="Ella")
            .startswith("À Ella de jouer : ")
        )
        assert gettext("safe") == "à l'abri"
        complete = [
            ngettext("· %(complete)s complete", "· %(complete)s complete", n) % {"complete": n}
            for n in (1, 2)
        ]
        assert complete == ["· 1 complet", "· 2 complets"]
        panel = Template(
            "{% load i18n %}{% blocktranslate count complete=n %}· {{ complete }} complete"
            "{% plural %}· {{ complete }} complete{% endblocktranslate %}"
        )
        assert [panel.render(Context({"n": n})) for n in (1, 3)] == ["· 1 complet", "· 3 complets"]


def test_a_hang_four_card_part_agrees_with_its_article():
    """Issue 43, item 6: "une chien", "La chien": every French sentence says a part as a feminine
    noun ("La {part}", "une {part}", "protégée"), so the character card is "carte chien", as the
    others are "planche avant" and "planche arrière"."""
    from django.utils.translation import gettext, ngettext

    from companion.games.hang_four.rules import part_word

    with translation.override("fr"):
        parts = [part_word(part) for part in ("character", "nose", "tail")]
        assert parts == ["carte chien", "planche avant", "planche arrière"]
        twice = gettext("The {part} cannot join Surf Dog {number}: it already has a {part} (HF-7).")
        assert [twice.format(part=part, number=2) for part in parts[:2]] == [
            "La carte chien ne peut pas rejoindre le Surf Dog 2 : il a déjà une carte chien (HF-7).",
            "La planche avant ne peut pas rejoindre le Surf Dog 2 : il a déjà une planche avant (HF-7).",
        ]
        empty = gettext("The Surf deck holds no {part} card any more (HF-2).").format(part=parts[0])
        assert empty == "La pioche Surf ne contient plus de carte chien (HF-2)."
        held = ngettext("{count} {part} card", "{count} {part} cards", 2).format(count=2, part=parts[0])
        assert held == "2 × carte chien"


BRACE_FIELD = re.compile(r"\{(\w+)[^{}]*\}")
PERCENT_FIELD = re.compile(r"%\((\w+)\)[sd]")


def test_a_name_starting_with_a_vowel_is_elided_into_the_sentence():
    assert Phrase("Feuille de {name}").format(name="Ann") == "Feuille d'Ann"
    assert Phrase("Feuille de {name}").format(name="Ben") == "Feuille de Ben"
    assert Phrase("Manche {n} : le {kind} de {who} gagne.").format(n=2, kind="ours", who="Éva") == (
        "Manche 2 : l'ours d'Éva gagne."
    )
    assert Phrase("plus petite que {other}").format(other="Olivier") == "plus petite qu'Olivier"
    # y before a vowel, h, onze and a number keep their 'de'; y before a consonant does not.
    assert [Phrase("de {x}").format(x=x) for x in ("Yann", "Yves", "Hugo", "onze", "8")] == [
        "de Yann",
        "d'Yves",
        "de Hugo",
        "de onze",
        "de 8",
    ]
    # Only where the sentence meets a value: a word inside a name stays as its owner wrote it.
    assert Phrase("Feuille de {name}").format(name="Jean de Arc") == "Feuille de Jean de Arc"


def test_a_french_template_elides_where_a_name_goes_in():
    from django.template import Context, Template

    page = Template(
        "{% blocktranslate with name=name %}{{ name }}'s sheet{% endblocktranslate %}|"
        "{% blocktranslate with name=name asvar kept %}{{ name }}'s sheet{% endblocktranslate %}{{ kept }}"
    )
    with translation.override("fr"):
        assert translation.gettext("%(name)s's sheet") == "Feuille de %(name)s"
        assert page.render(Context({"name": "Ann"})) == "Feuille d'Ann|Feuille d'Ann"
        assert page.render(Context({"name": "Ben"})) == "Feuille de Ben|Feuille de Ben"
    with translation.override("en"):
        assert page.render(Context({"name": "Ann"})) == "Ann's sheet|Ann's sheet"


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda path: str(path.relative_to(LOCALE.parents[2])))
def test_no_french_sentence_says_de_before_a_vowel_whatever_the_name(catalog):
    """Every French sentence of the catalog said with a name starting with a vowel in each of its
    places: the engines' (str.format, through words' Phrase) and the templates' (%, elided)."""
    slips = []
    for _msgid, msgstr in catalog_entries(catalog):
        braces = {field: "Ann" for field in BRACE_FIELD.findall(msgstr)}
        said = msgstr
        if braces and "%(" not in msgstr:
            try:
                said = Phrase(msgstr).format(**braces)
            except (IndexError, KeyError, ValueError):
                continue  # numbered fields, or braces that are not a format
        if PERCENT_FIELD.search(said):
            said = elide_text(PERCENT_FIELD.sub("Ann", said))
        slips += [f"{msgstr!r}: {slip}" for slip in missed_elisions(said)]
    assert not slips


def test_a_seat_named_after_the_sentence_was_said_is_elided_too():
    """Engines say "Siège 0"; the name goes in afterwards (base.name_seats, G-2)."""
    with translation.override("fr"):
        said = base.name_seats("Les points de Siège 0 et de Siège 1, que Siège 0 a vus.", ["Ann", "Ben"])
    assert said == "Les points d'Ann et de Ben, qu'Ann a vus."
    assert base.name_seats("Seat 0's points", ["Ann"]) == "Ann's points"


def test_no_template_loads_django_s_i18n_tags_over_the_eliding_ones():
    """{% load i18n %} would put Django's blocktranslate back, without the elisions."""
    games = [registry.folder(slug) / "templates" for slug in registry.GAMES]
    roots = [LOCALE.parents[2] / "templates", *games]
    pages = [path for root in roots for path in root.rglob("*.html")]
    assert len(pages) > 50 and [str(page) for page in pages if "load i18n" in page.read_text()] == []
