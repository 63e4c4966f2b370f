"""Fuzz the pages as the API is fuzzed (issue 41): hostile values in every URL a page route takes,
in its query and in every form a page shows, as a member, a watcher and a stranger. No answer is a
500 (Django's test client raises the view's exception: nothing here catches it), and a write that
is refused (4xx, or a redirect that says an error) changes no row.

- Routes: every URL pattern of the app (django.urls.get_resolver, the JSON API left to
  tests/api/test_fuzz_api.py), its converters filled with the route's real values (the group, a
  table of each game, a player, a day of a play) or hostile strings (huge and negative numbers,
  dates past 9999 and before year 1, NUL, unicode, long text), by GET and POST.
- Forms and links: every form and every link with a query on the member's pages (a new table of
  every game, each game's table page a few steps deep, the group's page, the history's play and
  player pages), sent with hostile values in one or more of its fields.

Budget: FUZZ_EXAMPLES (as tests/api/test_fuzz_api.py; `make fuzz` raises it) sets the examples per
route and per form: the default keeps `make test` to a few hundred requests in a few seconds. The
numbers of requests, routes and forms are printed at the end of the module.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import time
import uuid
from collections import Counter
from html.parser import HTMLParser
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

import pytest
from django.contrib.messages import constants as message_levels
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import registry
from companion.groups.models import Group, Membership
from companion.history.models import ImportJob
from companion.tables import services
from companion.tables.models import Event, KeyedWrite, Player, Seat, Table
from tests.engines.golden_playthrough import script
from tests.history.factories import play_out
from tests.history.import_files import BGG, PLAYS, bgstats, score

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
PER_ROUTE = max(1, EXAMPLES // 30)  # 2 by default, one more for a route with parameters: ~60 routes
PER_FORM = max(1, EXAMPLES // 60)  # 1 by default: ~40 forms (each of their buttons: VARIANTS) and links
VARIANTS = max(2, EXAMPLES // 20)  # a form's buttons fuzzed (a game's entries are buttons): 3 by default
# Where each game's table stands, in thirds of its golden script: a third by default; more screens
# (each game's start, middle and late steps) with a larger budget.
STAGES = (1,) if EXAMPLES < 200 else (0, 1, 2)
SKIPPED_PREFIXES = ("api/",)  # the JSON API: schemathesis fuzzes it from its OpenAPI document
# A table's event stream is an async view: through this WSGI client each request leaves asgiref's
# loop thread running (the conftest's check fails). tests/test_streams.py and test_bodies.py send
# it hostile requests through the ASGI app it is served by.
SKIPPED_SUFFIXES = ("/events/",)

# --- Hostile values --------------------------------------------------------------------------

NUMBERS = [
    "0",
    "-1",
    "1",
    "007",
    "2147483647",
    "2147483648",
    "-2147483649",
    "9223372036854775807",
    "9223372036854775808",
    "1" + "0" * 30,
    "9" * 5000,  # past Python's 4,300 digits
    "1e309",
    "NaN",
    "-0",
    "1.5",
    "\u0663",  # ARABIC-INDIC DIGIT THREE: a digit to str.isdigit
    "\u00b2",  # SUPERSCRIPT TWO: a digit to str.isdigit, not to int()
]
DATES = ["9999-12-31", "0001-01-01", "0000-00-00", "2024-02-30", "10000-01-01", "1999-12-31", "2024-W01"]
TEXTS = [
    "",
    " ",
    "\x00",
    "Zo\x00e",
    "Zoë 🦊",
    "\u202eevil",
    "e\u0301\u0301\u0301",
    "<script>alert(1)</script>",
    "'; DROP TABLE x; --",
    "x" * 300,
    "é" * 5000,
    "\t\n",
    "%",
    "..",
    "default",
    "any-game:",
    "any-game:\x00",
]
HOSTILE = NUMBERS + DATES + TEXTS
SLUGGISH = [value for value in HOSTILE if re.fullmatch(r"[-a-zA-Z0-9_]+", value)] + ["x" * 300, "ABC", "a_b"]


def free_text(max_size: int = 40):
    return st.text(max_size=max_size)  # hypothesis's text: any code point but the surrogates


HOSTILE_VALUE = st.one_of(  # the list above twice as often as each of the others
    st.sampled_from(HOSTILE),
    st.sampled_from(HOSTILE),
    free_text(),
    st.integers().map(str),
    st.dates().map(dt.date.isoformat),
)
# Files for the imports: the app's own formats with values past what a database keeps, and junk.
SCORES = [{**PLAYS[0], "playerScores": [score(11, 10**30, True), score(12, "3")]}]
HOSTILE_FILES = [
    b"",
    b"\x00",
    b"[" * 100_000,
    b"9" * 5000,
    BGG,
    BGG.replace(b'date="2024-06-01"', b'date="9999-12-31"'),
    BGG.replace(b'length="40"', b'length="999999999"'),
    bgstats(plays=SCORES),
    bgstats(plays=[{**PLAYS[0], "playDate": "9999-12-31 23:59:59"}]),
    json.dumps({"format": "table-companion-history", "version": 10**30}).encode(),
]
HOSTILE_FILE = st.one_of(st.sampled_from(HOSTILE_FILES), st.binary(max_size=200))

# --- The world: a group with a member and a watcher, a table of every game, a history ---------


class World:
    def __init__(self):
        self.member, self.watcher, self.stranger = Client(), Client(), Client()
        answer = self.member.post("/groups/new/", {"name": "Fuzzers"})
        assert answer.status_code == 302, answer.content
        self.group = Group.objects.get(name="Fuzzers")
        self.watcher.get(f"/g/{self.group.pk}/join/{self.group.view_token}/")
        self.tables: list[Table] = []
        for slug, stage in ((slug, stage) for slug in registry.GAMES for stage in STAGES):
            names, options, actions = script(slug)
            table = services.create_table(slug, names, options, self.group)
            for action in actions[: len(actions) * stage // 3]:
                services.play_action(table.id, action, table.version)
                table.refresh_from_db()
            self.tables.append(table)
        self.finished = play_out("dogo-dash", ["Ann", "Ben", "Cleo"], group=self.group)
        self.tables.append(self.finished)
        for table in self.tables:
            self.member.get(f"/t/{table.id}/join/{table.token}/")
            self.watcher.get(f"/t/{table.id}/join/{table.view_token}/")
        self.player = Player.objects.filter(group=self.group).first()
        self.job = ImportJob.objects.create(group=self.group, file_format="bgg", content=BGG)
        self.day = self.finished.finished.date()

    def real(self, name: str, kind: str) -> list[str]:
        """The route's real values of a URL parameter: what gets a request past its 404."""
        table = self.tables[0]
        values = {
            "group_id": [self.group.pk, "default"],
            "table_id": [table.id for table in self.tables],
            "token": [self.group.token, self.group.view_token, table.token, table.view_token],
            "slug": list(registry.GAMES) + ["any-game:fuzz"],
            "kind": ["edit", "view"],
            "player_id": [str(self.player.pk)],
            "user_id": ["1"],
            "job_id": [str(self.job.pk)],
            "day": [self.day.isoformat()],
            "rest": ["", "players/", "nights/9999-12-31/"],
            "login_handle": ["x"],
        }
        return values.get(name, []) + ([str(uuid.uuid4())] if kind == "uuid" else [])

    def client(self, who: str) -> Client:
        return {"member": self.member, "watcher": self.watcher, "stranger": self.stranger}[who]


@pytest.fixture
def world(settings):
    settings.RATELIMIT_ENABLE = False
    return World()


# --- What a refused write may not change -----------------------------------------------------


def fingerprint() -> tuple:
    """Every row a page writes: counts, and the fields a write changes."""
    return (
        tuple(model.objects.count() for model in (Table, Seat, Player, Event, Group, Membership, KeyedWrite)),
        tuple(
            Table.objects.order_by("pk").values_list(
                "pk", "version", "status", "abandoned", "place", "duration_minutes", "comments", "token"
            )
        ),
        tuple(Group.objects.order_by("pk").values_list("pk", "name", "time_zone", "token")),
        tuple(Player.objects.order_by("pk").values_list("pk", "name")),
        tuple(ImportJob.objects.order_by("pk").values_list("pk", "status")),
    )


def refused(response) -> bool:
    if response.status_code >= 400:
        return True
    # The messages this request added (the session may still hold an earlier request's).
    said = getattr(get_messages(response.wsgi_request), "_queued_messages", [])
    return any(message.level == message_levels.ERROR for message in said)


SENT: Counter = Counter()  # what kind of request -> how many
STATUSES: Counter = Counter()
COVERED: set[str] = set()


def send(client: Client, method: str, url: str, data=None, htmx: bool = False):
    """One request; a POST that is refused must leave every row as it was."""
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    before = fingerprint() if method == "post" else None
    response = getattr(client, method)(url, data or {}, **headers)
    STATUSES[response.status_code] += 1
    assert response.status_code < 500, (method, url, data, response.status_code)
    if method == "post" and refused(response):
        assert fingerprint() == before, ("a refused write changed rows", url, data, response.status_code)
    return response


# --- Routes ----------------------------------------------------------------------------------

PARAMETER = re.compile(r"<(?:(?P<kind>\w+):)?(?P<name>\w+)>|\(\?P<(?P<group>\w+)>[^)]*\)")


def page_routes() -> list[str]:
    """Every route of the app as text ("g/<slug:group_id>/history/nights/<str:day>/")."""
    routes = []

    def walk(patterns, prefix: str):
        for pattern in patterns:
            text = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, text)
            elif isinstance(pattern, URLPattern) and not text.startswith(SKIPPED_PREFIXES):
                if text.endswith(SKIPPED_SUFFIXES):
                    continue
                routes.append(text)

    walk(get_resolver().url_patterns, "")
    return sorted(set(routes))


ROUTES = page_routes()


def parameters(route: str) -> list[tuple[str, str]]:
    """(name, converter) of each parameter; a regular expression's group reads as a path."""
    return [
        (match["name"], match["kind"] or "str") if match["name"] else (match["group"], "path")
        for match in PARAMETER.finditer(route)
    ]


def value_strategy(world: World, name: str, kind: str):
    real = world.real(name, kind)
    if kind == "int":
        hostile = st.one_of(
            st.sampled_from([n for n in NUMBERS if n.isascii() and n.isdigit()]), st.integers(0)
        )
        hostile = hostile.map(str)
    elif kind == "slug":
        hostile = st.one_of(st.sampled_from(SLUGGISH), st.from_regex(r"[-a-zA-Z0-9_]{1,40}", fullmatch=True))
    elif kind == "uuid":
        hostile = st.uuids().map(str)
    else:
        hostile = HOSTILE_VALUE.filter(lambda text: text and "/" not in text)
    return st.one_of(st.sampled_from(real), hostile) if real else hostile


def fill(route: str, values: dict[str, str]) -> str:
    def one(match):
        name = match["name"] or match["group"]
        return quote(values[name], safe=":" if name == "slug" else "")

    return "/" + PARAMETER.sub(one, route)


QUERY_KEYS = ["page", "step", "view", "like", "group", "to", "v", "game", "player", "live", "category"]
QUERY_KEYS += ["seat", "f", "t", "n", "c", "d", "b", "s", "sd", "buy", "do", "die", "slot", "bslot"]
QUERY_KEYS += ["bval", "wd", "why", "sun", "crab", "nocrab", "card", "cost"]  # the games' steps
QUERY = st.dictionaries(st.sampled_from(QUERY_KEYS), HOSTILE_VALUE, max_size=3)
WHO = st.sampled_from(["member", "member", "watcher", "stranger"])
FORM_KEYS = ["name", "time_zone", "seq", "expected_version", "seat", "place", "duration_minutes", "other"]
FORM = st.dictionaries(st.sampled_from(FORM_KEYS), HOSTILE_VALUE, max_size=4)
FUZZ = {"deadline": None, "database": None, "suppress_health_check": list(HealthCheck)}


def fuzz_route(world: World, route: str) -> None:
    names = parameters(route)
    values = st.fixed_dictionaries({name: value_strategy(world, name, kind) for name, kind in names})

    @settings(max_examples=PER_ROUTE + 1 if names else 1, **FUZZ)
    @given(values=values, who=WHO, post=st.booleans(), query=QUERY, form=FORM, htmx=st.booleans())
    def run(values, who, post, query, form, htmx):
        url = fill(route, values)
        if post:
            send(world.client(who), "post", url + ("?" + urlencode(query) if query else ""), form, htmx)
        else:
            send(world.client(who), "get", url, query, htmx)
        SENT["route"] += 1
        COVERED.add(route)

    run()


def test_every_route_answers_hostile_parameters_without_a_500(world):
    started = time.monotonic()
    assert len(ROUTES) > 40, ROUTES
    for route in ROUTES:
        fuzz_route(world, route)
    SENT["route seconds"] += round(time.monotonic() - started, 1)
    assert COVERED >= set(ROUTES)


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/g/{group}/history/nights/9999-12-31/", 404),
        ("/g/{group}/history/nights/9999-12-31/card.png", 404),
        ("/g/{group}/history/nights/0001-01-01/", 404),
        ("/g/{group}/history/nights/0001-01-01/card.png", 404),
        ("/g/{group}/history/nights/0000-00-00/", 404),
        ("/g/{group}/history/nights/9999-12-30/", 200),
        ("/g/{group}/history/nights/0001-01-02/", 200),
    ],
)
@pytest.mark.parametrize("zone", ["", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_a_night_past_the_calendar_is_404(client, url, status, zone):
    """A night's end crossed year 9999 (a 500); its start, in a zone east of UTC, crossed year 1."""
    group = Group.objects.create(name="Night owls", time_zone=zone)
    client.get(f"/g/{group.pk}/join/{group.token}/")
    assert client.get(url.format(group=group.pk)).status_code == status


# --- Forms and links -------------------------------------------------------------------------


class Forms(HTMLParser):
    """The forms of a page, one for each of its submit buttons (the button's name and value sent
    as a field: a game's entries are buttons), and its links with a query (href and hx-get)."""

    def __init__(self, page: str):
        super().__init__()
        self.page = page
        self.forms: list[tuple[str, dict, list, list]] = []  # action, fields, buttons, file fields
        self.links: list[str] = []
        self._form: tuple[str, dict, list, list] | None = None
        self._select: str | None = None
        self._textarea: str | None = None

    def variants(self) -> list[tuple[str, dict, list]]:
        found = []
        for action, fields, buttons, files in self.forms:
            fields = {name: value for name, value in fields.items() if value is not None}
            found += [(action, {**fields, name: value}, files) for name, value in buttons]
            found += [] if buttons else [(action, fields, files)]
        return found

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for link in (attrs.get("href"), attrs.get("hx-get")):
            if link and "?" in link and not link.startswith(("http", "//", "#", "mailto")):
                self.links.append(link)
        if tag == "form" and (attrs.get("method") or "").lower() == "post":
            self._form = (attrs.get("action") or attrs.get("hx-post") or self.page, {}, [], [])
            self.forms.append(self._form)
        if self._form is None:
            return
        _action, fields, buttons, files = self._form
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") == "file":
            files.append(name)
        elif tag == "input" and name:
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                fields.setdefault(name, None)
            elif attrs.get("type") == "submit":
                buttons.append((name, attrs.get("value") or ""))
            else:
                fields[name] = attrs.get("value") or ""
        elif tag == "button" and name:
            buttons.append((name, attrs.get("value") or ""))
        elif tag == "select" and name:
            self._select = name
            fields.setdefault(name, None)
        elif tag == "option" and self._select and fields.get(self._select) is None:
            fields[self._select] = attrs.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            fields[name] = ""

    def handle_data(self, data):
        if self._form is not None and self._textarea:
            self._form[1][self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def absolute(page: str, link: str) -> str:
    if link.startswith("?"):
        return urlsplit(page).path + link
    return link


def scrape(world: World) -> tuple[list[tuple[str, dict]], list[str]]:
    """The member's forms (action, fields) and links with a query (one of each shape: path and
    query keys), from the app's pages and each table page a few steps deep."""
    group, forms, links = world.group.pk, {}, {}
    pages = ["/", "/groups/new/", f"/g/{group}/", f"/g/{group}/history/", f"/g/{group}/history/players/"]
    pages += [f"/new/{slug}/?group={group}" for slug in registry.GAMES]
    pages += [f"/t/{table.id}/" for table in world.tables]
    pages += [
        f"/g/{group}/history/plays/{world.finished.id}/",
        f"/g/{group}/history/players/{world.player.pk}/",
    ]
    pages += [f"/g/{group}/history/plays/{world.finished.id}/replay/?step=3"]
    pages += [f"/g/{group}/history/{page}/" for page in ("import", "bring", f"bring/{world.job.pk}")]
    seen, queue = set(), [(page, 0) for page in pages]
    while queue:
        page, depth = queue.pop(0)
        if page in seen:
            continue
        seen.add(page)
        response = world.member.get(page)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = Forms(page)
        parser.feed(response.content.decode())
        for action, fields, files in parser.variants():
            action = absolute(page, action)
            if not action.startswith(("/i18n/", "/accounts/")):
                fields.pop("csrfmiddlewaretoken", None)
                key = (action, tuple(sorted(fields)), fields.get("action"))
                forms.setdefault(key, (action, fields, files))
        for link in parser.links:
            link = absolute(page, link)
            path, query = urlsplit(link).path, parse_qsl(urlsplit(link).query, keep_blank_values=True)
            shape = (path, tuple(sorted(dict(query))))
            if shape not in links and depth < 3 and path.startswith("/t/"):
                queue.append((link, depth + 1))  # a step of each shape, a few steps deep
            links.setdefault(shape, link)
    return list(forms.values()), sorted(links.values())


def fuzz_form(world: World, action: str, fields: dict, files: list[str]) -> None:
    """The form sent with hostile values in one to three fields (its own, or a write's), and a
    hostile file in each of its file fields."""
    keys = sorted(fields) + ["expected_version", "seq", "idempotency_key"]
    changes = st.dictionaries(st.sampled_from(keys), HOSTILE_VALUE, min_size=1, max_size=3)
    uploads = st.fixed_dictionaries({name: HOSTILE_FILE for name in files})
    table_id = resolve(urlsplit(action).path).kwargs.get("table_id")

    @settings(max_examples=PER_FORM * (4 if files else 1), **FUZZ)
    @given(changed=changes, uploaded=uploads, who=WHO, htmx=st.booleans())
    def run(changed, uploaded, who, htmx):
        data = {**fields, **changed}
        data.update({name: SimpleUploadedFile("plays.json", content) for name, content in uploaded.items()})
        if "expected_version" in fields and "expected_version" not in changed and table_id:
            # The table's version now, so the values reach the rules (a stale one is a 409 first).
            data["expected_version"] = Table.objects.get(pk=table_id).version
        send(world.client(who), "post", action, data, htmx)
        SENT["form"] += 1

    run()


def fuzz_link(world: World, link: str) -> None:
    """The link followed with hostile values in its query."""
    path, query = urlsplit(link).path, dict(parse_qsl(urlsplit(link).query, keep_blank_values=True))
    changes = st.dictionaries(st.sampled_from(sorted(query) + ["x"]), HOSTILE_VALUE, min_size=1, max_size=3)

    @settings(max_examples=PER_FORM, **FUZZ)
    @given(changed=changes, htmx=st.booleans())
    def run(changed, htmx):
        send(world.member, "get", path, {**query, **changed}, htmx)
        SENT["link"] += 1

    run()


def test_every_form_and_link_answers_hostile_values_without_a_500(world):
    started = time.monotonic()
    forms, links = scrape(world)
    actions = [action for action, _fields, _files in forms]
    games = {resolve(urlsplit(action).path).kwargs.get("slug") for action in actions if "/new/" in action}
    assert games >= set(registry.GAMES), games  # a new table of every game
    parts = ["/act/", "/undo/", "/rename/", "/zone/", "/groups/new/", "/history/plays/", "/merge/"]
    for part in parts + ["/history/import/", "/history/bring/", f"/history/bring/{world.job.pk}/"]:
        assert any(part in action for action in actions), part
    # Each form's first VARIANTS buttons; new links last: the watcher's grants name the old ones.
    fuzzed = Counter()
    for action, fields, files in sorted(forms, key=lambda form: "/renew/" in form[0]):
        fuzzed[action] += 1
        if fuzzed[action] <= VARIANTS:
            fuzz_form(world, action, fields, files)
    for link in links:
        fuzz_link(world, link)
    SENT["forms"], SENT["links"] = len(forms), len(links)
    SENT["form seconds"] += round(time.monotonic() - started, 1)


@pytest.fixture(scope="module", autouse=True)
def report(request):
    started = time.monotonic()
    yield
    total = SENT["route"] + SENT["form"] + SENT["link"]
    line = (
        f"page fuzz: {total} requests in {time.monotonic() - started:.1f} s"
        f" ({SENT['route']} to {len(COVERED)} of {len(ROUTES)} routes in {SENT['route seconds']} s,"
        f" {SENT['form']} posts to {SENT['forms']} forms and {SENT['link']} to {SENT['links']} links"
        f" in {SENT['form seconds']} s); statuses {dict(sorted(STATUSES.items()))}"
    )
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line("")
            reporter.write_line(line)


# ---------------------------------------------------------------------------------------------
# What the fuzzing found, pinned (these were 500s)


def golden_third(client: Client, slug: str) -> Table:
    """A table of `slug` a third of the way through its golden script, this client at it."""
    names, options, actions = script(slug)
    table = services.create_table(slug, names, options)
    for action in actions[: len(actions) // 3]:
        services.play_action(table.id, action, table.version)
        table.refresh_from_db()
    client.get(f"/t/{table.id}/join/{table.token}/")
    return table


@pytest.mark.parametrize("target", ["1" + "0" * 30, "2147483648"])
def test_a_new_pads_target_past_an_integer_column_is_refused_on_the_form(client, target):
    data = {"option_game_name": "Hearts", "option_target": target, "player_0": "Ann", "player_1": "Ben"}
    response = client.post("/new/any-game/", data)
    assert response.status_code == 400
    assert f"The target is at most 2147483647, not {target} (AG-1)." in response.content.decode()
    assert Table.objects.count() == 0 and Player.objects.count() == 0


@pytest.mark.parametrize("team", ["\u00b2", "9" * 5000, "-1"])
def test_a_team_no_form_offers_is_refused_on_the_form(client, team):
    data = {"option_game_name": "Hearts", "option_teams": "2", "player_0": "Ann", "player_1": "Ben"}
    response = client.post("/new/any-game/", {**data, "teams_0": team, "teams_1": "2"})
    assert response.status_code == 400
    assert Table.objects.count() == 0


@pytest.mark.parametrize(
    ("slug", "query"),
    [
        ("yahtzee", {"d": "\u00b2"}),
        ("yahtzee", {"d": "9" * 5000}),
        ("yahtzee", {"d": "1,\u00b2"}),
        ("summer-suns", {"view": "\u00b2"}),
        ("summer-suns", {"view": "9" * 5000}),
        ("surfs-up", {"buy": "\u00b2"}),
        ("surfs-up", {"buy": "9" * 5000}),
        ("hang-four", {"c": "x"}),
        ("hang-four", {"c": "\u00b2"}),
    ],
)
def test_a_step_no_page_sets_is_left_out_of_the_table_page(client, slug, query):
    table = golden_third(client, slug)
    assert client.get(f"/t/{table.id}/", query).status_code == 200
    assert client.get(f"/t/{table.id}/poll/", query).status_code == 200


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ({"step": "\u00b2"}, 400),
        ({"step": "--1"}, 400),
        ({"step": "9" * 5000}, 200),
        ({"step": "-" + "9" * 5000}, 200),
        ({"step": "1", "view": "\u00b2"}, 200),
        ({"step": "1", "view": "9" * 5000}, 200),
    ],
)
def test_a_replay_step_past_what_int_reads_is_the_last_or_a_400(client, query, status):
    group = Group.objects.create(name="Replayers")
    table = play_out("dogo-dash", ["Ann", "Ben"], group=group)
    client.get(f"/g/{group.pk}/join/{group.token}/")
    assert client.get(f"/g/{group.pk}/history/plays/{table.id}/replay/", query).status_code == status


@pytest.mark.parametrize("slug", ["hang-four", "surfs-up"])
@pytest.mark.parametrize("action", ["[" * 100_000, '{"type": "roll", "x": ' + "[" * 50 + "]" * 50 + "}"])
def test_a_posted_action_nested_thousands_deep_is_refused_and_changes_nothing(client, slug, action):
    table = golden_third(client, slug)
    response = client.post(f"/t/{table.id}/act/", {"action": action, "expected_version": table.version})
    assert response.status_code == 400 and response["Companion-Outcome"] == "refused"
    assert Table.objects.get().version == table.version


@pytest.mark.parametrize("points", ["9" * 5000])
def test_a_pads_points_of_thousands_of_digits_are_refused_naming_the_player(client, points):
    table = golden_third(client, "any-game")
    data = {"type": "score", "expected_version": table.version, "points_0": points, "points_1": "3"}
    data.update({f"points_{seat}": "1" for seat in range(2, table.seats.count())})
    response = client.post(f"/t/{table.id}/act/", data)
    assert response.status_code == 400 and response["Companion-Outcome"] == "refused"
    assert "points must be a whole number" in response.content.decode()
    assert Table.objects.get().version == table.version


@pytest.mark.parametrize("seq", ["9" * 5000, "99999999999999999999", "2147483648", "-1", "\u00b2", "\x00"])
def test_an_undo_of_an_entry_no_log_holds_is_refused_and_changes_nothing(client, seq):
    table = golden_third(client, "dogo-dash")
    response = client.post(f"/t/{table.id}/undo/", {"seq": seq, "expected_version": table.version})
    assert response.status_code in (400, 422) and response["Companion-Outcome"] == "refused"
    assert Table.objects.get().version == table.version
