"""The library of score sheets (issue 44): every file checks, ids, names and BoardGameGeek ids are
each one game's, and every sheet plays to its end on the pad in English and French."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.any_game import engine
from companion.games.any_game.invariants import check
from companion.games.base import play, validate_options
from companion.sheets import library

MINIMUM = 150  # issue 44: the games groups log most
SHEETS = library.score_sheets()


def test_the_library_holds_the_games_groups_play_each_once():
    assert len(SHEETS) >= MINIMUM
    bgg_ids = Counter(sheet.bgg_id for sheet in SHEETS)
    assert [bgg_id for bgg_id, count in bgg_ids.items() if count > 1] == []
    assert all(sheet.bgg_id > 0 for sheet in SHEETS)  # every library sheet's id was checked
    for language in ("en", "fr"):
        names = Counter(library.folded(sheet.name(language)) for sheet in SHEETS)
        assert [name for name, count in names.items() if count > 1] == []
    # a French name is not another game's English one
    english = {library.folded(sheet.name("en")): sheet.id for sheet in SHEETS}
    assert all(english.get(library.folded(sheet.name("fr")), sheet.id) == sheet.id for sheet in SHEETS)


@pytest.mark.parametrize("sheet", SHEETS, ids=[sheet.id for sheet in SHEETS])
def test_every_sheet_plays_to_its_end_in_both_languages(sheet):
    rng = random.Random(sheet.id)
    for language in ("en", "fr"):
        options = validate_options(engine, sheet.pad_options(language))
        state = engine.setup(3, options)
        for _ in range(200):
            if engine.result(state) is not None:
                break
            state = play(engine, state, engine.sample_action(state, rng))
            check(state)
        assert engine.result(state) is not None
        assert state["game_name"] == sheet.name(language)


def test_a_sheet_is_found_by_either_name_ignoring_case_and_accents_and_by_bgg_id():
    ticket = library.get("ticket-to-ride")
    assert [sheet.id for sheet in library.find("aventuriers du rail")][:1] == ["ticket-to-ride"]
    assert library.by_name("LES AVENTURIERS DU RAIL") is ticket
    assert library.by_bgg_id(9209) is ticket
    assert library.by_bgg_id(0) is None and library.by_bgg_id("9209") is None
    assert library.find("zzz-no-game") == []
    starting = [sheet.id for sheet in library.find("ticket")]
    assert starting[:2] == ["ticket-to-ride", "ticket-to-ride-europe"]


def test_wingspan_keeps_its_own_lines_and_its_tie_breaker():
    wingspan = library.by_bgg_id(266192)
    options = wingspan.pad_options("en")
    assert options["game_name"] == "Wingspan" and options["tie_breaker"]
    assert options["categories"][-1] == options["tie_breaker"]
    assert {"Birds", "Eggs"} <= set(options["categories"])
