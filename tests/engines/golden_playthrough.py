"""Golden playthroughs: each game's scripted game (its folder's golden.py), written step by step
to golden.txt beside it.

A rule change then shows up as a readable diff of that file. Regenerate after a deliberate change:

    python -m tests.engines.golden_playthrough dogo-dash     (or no slug: every registered game)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.games import registry
from companion.games.base import Engine, describe, play, validate_options

Script = tuple[list[str], dict, list[dict]]  # player names, options, actions


def script(slug: str) -> Script | None:
    """The game's golden script, None when its folder has no golden.py."""
    try:
        return registry.part(slug, "golden").SCRIPT
    except ModuleNotFoundError:
        return None


def scripts(slug: str) -> dict[str, Script]:
    """Every golden script of the game: SCRIPT, and a kit's one per sheet (golden.py's SCRIPTS, the
    first being SCRIPT), by name ("" for SCRIPT alone)."""
    module = registry.part(slug, "golden")
    return getattr(module, "SCRIPTS", None) or {"": module.SCRIPT}


def golden_path(slug: str, name: str = "") -> Path:
    """golden.txt for the game's SCRIPT (its first), golden-<name>.txt for a kit's other sheets."""
    first = next(iter(scripts(slug)), "") if script(slug) is not None else ""
    return registry.folder(slug) / ("golden.txt" if name in ("", first) else f"golden-{name}.txt")


def _dump(value) -> str:
    return json.dumps(value, sort_keys=True, indent=None)


def render(engine: Engine, players: list[str], options: dict, actions: list[dict]) -> str:
    """The scripted game as text: setup, then per action its JSON, log sentence, state and expect."""
    options = validate_options(engine, options)
    state = engine.setup(len(players), options)
    # What a state holds unchanged from its setup (a kit's sheet) is written once, at the setup.
    fixed = getattr(engine, "fixed_state", ())

    def moving(state: dict) -> dict:
        return {key: value for key, value in state.items() if key not in fixed}

    lines = [
        f"# {engine.name} golden playthrough: {', '.join(players)}; options {_dump(options)}",
        "# Regenerate: python -m tests.engines.golden_playthrough " + engine.slug,
        "",
        "setup",
        f"state: {_dump(state)}",
        f"expect: {_dump(engine.expect(state))}",
    ]
    for step, action in enumerate(actions, 1):
        sentence = describe(engine, state, action, players)
        state = play(engine, state, action)
        lines += [
            "",
            f"step {step}",
            f"action: {_dump(action)}",
            f"log: {sentence}",
            f"state: {_dump(moving(state))}",
            f"expect: {_dump(engine.expect(state))}",
        ]
    lines += ["", f"scores: {_dump(engine.scores(state))}", f"result: {_dump(engine.result(state))}"]
    return "\n".join(lines) + "\n"


def render_slug(slug: str, name: str = "") -> str:
    players, options, actions = scripts(slug)[name] if name else script(slug)
    return render(registry.get(slug), players, options, actions)


def every_golden() -> list[tuple[str, str]]:
    """(slug, script name) of every golden playthrough of every registered game."""
    return [(slug, name) for slug in registry.GAMES if script(slug) is not None for name in scripts(slug)]


def main(argv: list[str]) -> int:
    slugs = argv or list(registry.GAMES)
    unknown = [slug for slug in slugs if slug not in registry.GAMES or script(slug) is None]
    if unknown:
        known = ", ".join(slug for slug in registry.GAMES if script(slug))
        print(f"No golden script for {', '.join(unknown)} (known: {known}).", file=sys.stderr)
        return 2
    for slug in slugs:
        for name in scripts(slug):
            golden_path(slug, name).write_text(render_slug(slug, name), encoding="utf-8")
            print(f"wrote {golden_path(slug, name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
