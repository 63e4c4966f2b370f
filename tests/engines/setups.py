"""The setups the generic tests play with each registered game, derived from the registry.

A game whose defaults are a game (the four with engines) is played with its defaults and every
on/off combination of its flags. A game whose defaults are no game at all (the score pad needs the
game's name, AG-1) lists its setups as SETUPS in its folder's invariants.py; a setup whose seats
matter (the pad's teams) is a function of the number of players, None where it does not apply.
"""

from __future__ import annotations

import itertools

from companion.games import base, registry


def declared(engine) -> list[dict] | None:
    return getattr(registry.part(engine.slug, "invariants"), "SETUPS", None)


def option_sets(engine, players: int | None = None) -> list[dict]:
    """Every setup to play with `players` (the most when None): the folder's SETUPS, or the defaults
    with each combination of flags."""
    listed = declared(engine)
    if listed:
        count = engine.max_players if players is None else players
        resolved = [options(count) if callable(options) else options for options in listed]
        return [dict(options) for options in resolved if options is not None]
    flags = [name for name, default in engine.options.items() if isinstance(default, bool)]
    values = itertools.product([False, True], repeat=len(flags))
    combos = [dict(zip(flags, combo, strict=True)) for combo in values]
    return combos or [{}]


def variants_on(engine) -> dict:
    """One setup with the most on: every flag on, or the folder's first setup."""
    listed = declared(engine)
    if listed:
        return option_sets(engine)[0]
    return {name: True for name, default in engine.options.items() if isinstance(default, bool)}


def playable(engine) -> dict:
    """The engine's full options for a setup that is a game (validated: ready for engine.setup)."""
    listed = declared(engine)
    return base.validate_options(engine, option_sets(engine)[0] if listed else {})


def every_setup(engine) -> list[tuple[int, dict]]:
    """(players, options) of each setup the game plays, each with the most players it takes: a kit's
    sheets differ in what they allow (Knister never passes, Qwixx does)."""
    listed = declared(engine)
    if not listed:
        return [(engine.max_players, variants_on(engine))]
    found = []
    for setup in listed:
        for players in range(engine.max_players, engine.min_players - 1, -1):
            options = setup(players) if callable(setup) else setup
            if options is not None:
                found.append((players, dict(options)))
                break
    return found
