"""What a table's live region costs one worker, game by game (issue 45): the context built, and the
template rendered, for a member and a watcher, in English and French, each game's golden
playthrough played half way. Interleaved rounds, medians, in one process.

    python -m bench.region_render [--rounds 40] [--against REV]

--against REV renders the same contexts with the templates of another commit too (its templates/
and each game folder's templates/, read with git), alternating which goes first: the ratio is
this checkout's render over REV's. It uses a database of its own (a temporary SQLite file).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

LANGUAGES = ("en", "fr")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
ROOT = Path(__file__).resolve().parent.parent


def _setup_django(folder: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'region.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _half_played_tables() -> dict[str, object]:
    """Each game with a golden script: a table played through the first half of its actions."""
    from companion.games import registry
    from companion.tables import services
    from tests.engines.golden_playthrough import script

    tables = {}
    for slug in registry.GAMES:
        scripted = script(slug)
        if scripted is None:
            continue
        players, options, actions = scripted
        table = services.create_table(slug, players, options)
        for action in actions[: len(actions) // 2]:
            services.play_action(table.id, action, table.version)
            table.refresh_from_db()
        tables[slug] = table
    return tables


def _request(table, rights: str):
    """A phone's htmx request with the table's link opened (a member sits in the first seat)."""
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.signed_cookies import SessionStore
    from django.test import RequestFactory

    from companion import tokens
    from companion.tables import access

    request = RequestFactory().get(f"/t/{table.id}/", headers={"HX-Request": "true"})
    request.session, request.htmx, request.user = SessionStore(), True, AnonymousUser()
    access.grant(request, table, rights)
    if rights == tokens.EDIT:
        access.set_seat(request, table.id, 0)
    return request


def _templates_of(revision: str, folder: Path):
    """The live region's template at `revision`: its template folders exported under `folder`,
    read by an engine configured as the app's."""
    from django.conf import settings

    from companion.acyclic import DjangoTemplates

    games = subprocess.run(
        ["git", "ls-tree", "-d", "--name-only", f"{revision}:companion/games"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    paths = ["templates"] + [f"companion/games/{game}/templates" for game in games]
    archive = subprocess.run(
        ["git", "archive", revision, "--", *paths], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    dirs = [folder / path for path in paths if (folder / path).is_dir()]
    options = {key: value for key, value in settings.TEMPLATES[0]["OPTIONS"].items() if key != "loaders"}
    cached = ("django.template.loaders.cached.Loader", ["django.template.loaders.filesystem.Loader"])
    options["loaders"] = [("template_partials.loader.Loader", [cached])]
    backend = DjangoTemplates({"NAME": "against", "DIRS": dirs, "APP_DIRS": False, "OPTIONS": options})
    return backend.get_template("tables/table.html#live")


def _timed(function, *arguments) -> tuple[float, object]:
    """(milliseconds, result) of function(*arguments)."""
    began = time.perf_counter()
    result = function(*arguments)
    return (time.perf_counter() - began) * 1000, result


def measure(rounds: int, against=None) -> list[dict]:
    """Per game and phone: the medians of the context's build, the render, REV's render (with
    --against) and their ratio, and the region's size."""
    from django.template.loader import get_template
    from django.utils import translation

    from companion import tokens
    from companion.tables import live_cache, views

    template = get_template("tables/table.html#live")
    cases = [
        (slug, who, rights, language, table, _request(table, rights))
        for slug, table in _half_played_tables().items()
        for who, rights in (("member", tokens.EDIT), ("watcher", tokens.VIEW))
        for language in LANGUAGES
    ]
    found: dict[tuple[str, str], dict[str, list]] = {}
    for round_number in range(rounds):
        order = cases if round_number % 2 == 0 else list(reversed(cases))
        for slug, who, rights, language, table, request in order:
            times = found.setdefault((slug, who), {"context": [], "render": [], "against": [], "ratio": []})
            with translation.override(language):
                # Each as the first render of its version (the log read too); a log line, once
                # rendered, is kept across versions as in a worker.
                live_cache._renders.clear()
                live_cache._logs.clear()
                spent, context = _timed(views._context, request, table, rights)
                times["context"].append(spent)
                renders = [("render", template), ("against", against)] if against else [("render", template)]
                if round_number % 2:
                    renders.reverse()
                pages = {}
                for name, which in renders:
                    spent, pages[name] = _timed(which.render, context, request)
                    times[name].append(spent)
                times.setdefault("bytes", [len(pages["render"].encode())])
                # The same page from both (a refactor of the templates shows none differ), but
                # for the CSRF token, masked anew for each render.
                unmasked = {CSRF.sub("", page) for page in pages.values()}
                times.setdefault("differ", []).append(len(unmasked) - 1)
                if against:
                    times["ratio"].append(times["render"][-1] / times["against"][-1])
    return [
        {
            "game": slug,
            "phone": who,
            **{name: statistics.median(values) for name, values in times.items() if values},
            "differ": sum(times["differ"]),
        }
        for (slug, who), times in found.items()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--against", help="a commit whose templates render the same contexts")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        _setup_django(Path(folder))
        against = _templates_of(arguments.against, Path(folder) / "against") if arguments.against else None
        rows = measure(arguments.rounds, against)
    heading = f"{'game':<14} {'phone':<8} {'context ms':>10} {'render ms':>10}"
    if against:
        heading += f" {arguments.against[:10]:>10} {'ratio':>6} {'pages differ':>12}"
    print(heading + f" {'KB':>6}")
    for row in rows:
        line = f"{row['game']:<14} {row['phone']:<8} {row['context']:>10.2f} {row['render']:>10.2f}"
        if against:
            line += f" {row['against']:>10.2f} {row['ratio']:>6.2f} {row['differ']:>12}"
        print(line + f" {row['bytes'] / 1000:>6.1f}")


if __name__ == "__main__":
    main()
