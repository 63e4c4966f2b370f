"""The engine kit's turn structure (issue 44, games/turns.py), checked for every registered game:
each declares its phases and writes none of expect, not_now or not_your_turn by hand; random play
moves only from a phase to one it declares may follow, reaches every phase it declares, ends in
`over` exactly when the game has a result; and at every state each type the phase does not take,
and each seat it does not list, is refused in a sentence that names its ruling (G-1)."""

from __future__ import annotations

import random
import re

import pytest

from companion.games import base, registry
from companion.games.turns import Turned

from .setups import every_setup

ENGINES = registry.all_engines()
SEEDS = 4
# A ruling as a sentence names it: "(DD-10)", or a sheet's own rule, "(Qwixx, rule 3)".
NAMES_ITS_RULE = re.compile(r"\([^()]+\)\.?$")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_every_engine_declares_its_turns_and_writes_none_of_them_by_hand(engine):
    assert isinstance(engine, Turned)
    written = [name for name in ("expect", "not_now", "not_your_turn") if name in type(engine).__dict__]
    assert written == []
    turns = engine.turns
    assert turns.over in turns.phases
    assert turns.phases[turns.over].accepted(engine, {}) == []  # the end takes nothing


def check_refusals(engine, state: dict) -> None:
    """Every type not taken now is refused by not_now, every seat not listed by not_your_turn: a
    RuleViolation citing its ruling, in words that end by naming it."""
    expect = engine.expect(state)
    for kind in set(engine.action_types) - set(expect["actions"]):
        refusal = engine.not_now(state, kind, None)
        assert isinstance(refusal, base.RuleViolation) and refusal.rule, (kind, expect)
        assert NAMES_ITS_RULE.search(refusal.message), refusal.message
    if expect["seats"]:
        for seat in set(range(len(state["seats"]))) - set(expect["seats"]):
            refusal = engine.not_your_turn(state, expect["actions"][0], seat)
            assert isinstance(refusal, base.RuleViolation) and refusal.rule, (seat, expect)
            assert NAMES_ITS_RULE.search(refusal.message), refusal.message


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_random_play_follows_the_declared_phases_and_reaches_each(engine):
    turns = engine.turns
    reached, moves = set(), set()
    for players, options in every_setup(engine):
        merged = base.validate_options(engine, options)
        for seed in range(SEEDS):
            rng = random.Random(f"turns-{engine.slug}-{players}-{seed}")
            state = engine.setup(players, merged)
            while True:
                name = turns.phase_of(state)
                reached.add(name)
                assert (name == turns.over) == (engine.result(state) is not None), name
                if name == turns.over:
                    break
                check_refusals(engine, state)
                state = base.play(engine, state, engine.sample_action(state, rng))
                after = turns.phase_of(state)
                assert after in turns.phases[name].then, f"{name} -> {after} is not declared"
                moves.add((name, after))
    assert reached == set(turns.phases), f"declared but never reached: {set(turns.phases) - reached}"
    # Some declared moves are rare in random play (Surf's Up's rounds once the ocean deck is out,
    # a Snag that brings Hang Four's fourth dog), so only the phases are all required to be reached.
    assert moves, "random play made no move"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_the_legal_listing_refuses_each_type_with_the_very_refusal_of_apply(engine):
    """`entries(state, seat)` (what /legal answers for every game) lists a type as allowed exactly
    when expect lets the seat enter it (an entry that names no seat: whoever enters it), and gives
    for each other type the refusal apply raises for that seat's entry of it: the same code, words
    and ruling."""
    from .test_conformance import one_action_of_each_type

    players = min(max(engine.min_players, 3), engine.max_players)
    known = dict(one_action_of_each_type(engine))
    for seed in range(2):
        rng = random.Random(f"legal-{engine.slug}-{seed}")
        state = engine.setup(players, base.validate_options(engine, every_setup(engine)[0][1]))
        while True:
            expect = engine.expect(state)
            for seat in range(players):
                legal = engine.entries(state, seat)
                mine = not expect["seats"] or seat in expect["seats"]
                allowed = [
                    kind
                    for kind in engine.action_types
                    if kind in expect["actions"] and (mine or "seat" not in engine.action_shapes[kind])
                ]
                assert legal["allowed"] == allowed, (seat, expect)
                assert set(legal["refused"]) == set(engine.action_types) - set(legal["allowed"])
                for kind, refusal in legal["refused"].items():
                    # The seat said where the type takes one (Hang Four's is optional: said here)
                    action = (
                        {**known[kind], "seat": seat} if "seat" in engine.action_shapes[kind] else known[kind]
                    )
                    with pytest.raises(base.RuleViolation) as refused:
                        base.play(engine, state, action)
                    assert refused.value.as_dict() == refusal, (kind, seat)
            if engine.result(state) is not None:
                break
            action = engine.sample_action(state, rng)
            known[action["type"]] = action
            state = base.play(engine, state, action)
