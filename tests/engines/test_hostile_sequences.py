"""Hostile and broken input for every registered engine (issue 7), as hypothesis property tests.

From setup, a random sequence mixes legal actions (engine.sample_action with a seeded
random.Random) with hostile ones: random dicts with the game's action types and random fields
(ints, huge ints, floats, NaN, strings, None, lists, nested dicts, out-of-range seats, cards and
slots of the other games), mutations of a legal action (a field dropped, a value changed at any
depth, a field added), re-sent old actions, and values that are no object at all. Through
base.play every call either returns a new JSON-serialisable state or raises BadAction or
RuleViolation; a refusal leaves the state as it was (an accepted action leaves its input alone);
each game's invariants hold after every step; the log sentence is written; no text a database
cannot store appears unless the action brought it (the service refuses those actions first); and
the game still ends when legal play takes over, its log replaying to the same state.

Budget: HYPOTHESIS_PROFILE=fuzz (what `make fuzz` sets) runs many more examples;
HOSTILE_EXAMPLES=n sets the number of examples per engine directly.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, given, settings
from hypothesis import strategies as st

from companion.games import base, registry
from companion.games.dogo_dash import rules as dogo
from companion.games.hang_four import rules as hang
from companion.games.summer_suns.sheet import SHEETS
from companion.games.surfs_up import rules as surf

from . import setups
from .wording import wording_problems

ENGINES = registry.all_engines()
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")
EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "0")) or (1000 if PROFILE == "fuzz" else 80)
HOSTILE_STEPS = 40  # most entries of the hostile prefix
ADVANCE = 25  # most legal entries one "advance" step plays at once
MAX_STEPS = 5000  # legal entries allowed to finish a game after the prefix

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# ---------------------------------------------------------------------------------------------
# Hostile values: every field name and token the four games know, and JSON of any shape


FIELD_NAMES = sorted(
    {name for engine in ENGINES for fields in engine.action_fields.values() for name in fields}
    | {"dog", "part", "to_dog", "kind", "suit", "points", "bonus", "cost", "value", "name"}
)
ACTION_TYPES = sorted({kind for engine in ENGINES for kind in engine.action_types})
SLOT_IDS = sorted({slot for sheet in SHEETS.values() for slot in sheet.slot_ids})
TOKENS = sorted(
    set(dogo.KINDS)
    | set(hang.PARTS)
    | set(hang.SHACK_CARDS)
    | {hang.SHACK_FACE}
    | set(surf.CHOICES)
    | set(surf.CARD_FIELDS)
    | set(surf.COMPONENTS["suits"])
    | set(SLOT_IDS)
    | set(ACTION_TYPES)
    | {
        "t0",
        "t1",
        "t6",
        "t9",
        "t10",
        "t-1",
        "t06",
        "t٣",
        "",
        " ",
        "0",
        "1",
        "-1",
        "01",
        "1.0",
        "٣",
        "\x00",
        "\ud800",
    }
)
CARDS = [
    {"kind": "wave", "suit": "blue", "points": 5},
    {"kind": "wave", "suit": "blue", "points": 99},
    {"kind": "bluebottle"},
    {"kind": "surfboard", "suit": "orange", "bonus": 2, "cost": 3},
    {"kind": "energy", "value": 6, "cost": 2},
    {"kind": "energy", "value": 6},
    {"dog": 0, "part": "nose", "to_dog": None},
    {"part": "tail", "dog": 0},
    {"part": "character", "dog": None},
    {"slot": "k1", "value": 3},
    {"name": "Goal", "points": 3},
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=12),
    st.integers(),
    st.sampled_from([-(2**63), 2**63, 10**30, -(10**30)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 2.5, -0.0, math.nan, math.inf]),
    st.text(max_size=8),
    st.sampled_from(TOKENS),
)
json_values = st.recursive(
    st.one_of(scalars, st.sampled_from(CARDS)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(
            st.one_of(st.sampled_from(FIELD_NAMES + TOKENS), st.text(max_size=4)), inner, max_size=5
        ),
    ),
    max_leaves=12,
)
# A value that could almost be right: a token, a small number, a card, or any JSON.
plausible = st.one_of(st.sampled_from(TOKENS), st.integers(-2, 10), st.sampled_from(CARDS), json_values)


@st.composite
def random_actions(draw, engine) -> dict:
    """A dict with one of the game's action types (mostly) and random fields."""
    kind = draw(st.one_of(st.sampled_from(engine.action_types), st.sampled_from(ACTION_TYPES), scalars))
    fields = draw(st.dictionaries(st.sampled_from(FIELD_NAMES), json_values, max_size=5))
    fields.pop("type", None)
    return {"type": kind, **fields}


def paths(value, prefix=()) -> list[tuple]:
    """Every place inside a JSON value, as a path of keys and indexes (the root is ())."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, prefix + (index,))
    return found


@st.composite
def mutants(draw, action: dict):
    """A legal action changed in one place: a field dropped, a value replaced, a field or an item
    added, a seat moved, a number nudged by one."""
    action = copy.deepcopy(action)
    path = draw(st.sampled_from(paths(action)))
    op = draw(st.sampled_from(["drop", "replace", "add", "nudge", "seat", "wrap"]))
    if not path:
        if op == "drop":
            return {}
        if op == "wrap":
            return [action]
        key = draw(st.sampled_from(FIELD_NAMES + ["extra"]))
        action[key] = draw(plausible)
        return action
    parent = action
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if op == "drop":
        del parent[key]
    elif op == "add" and isinstance(parent[key], dict):
        parent[key][draw(st.sampled_from(FIELD_NAMES + TOKENS))] = draw(plausible)
    elif op == "add" and isinstance(parent[key], list):
        parent[key].append(draw(plausible) if parent[key] == [] else copy.deepcopy(parent[key][-1]))
    elif op == "nudge" and base.is_int(parent[key]):
        parent[key] += draw(st.sampled_from([-1, 1, -100, 100]))
    elif op == "seat":
        parent[key] = draw(st.sampled_from([-1, 5, 8, 9, 99, "0", 0.0, True]))
    elif op == "wrap":
        parent[key] = [parent[key]]
    else:
        parent[key] = draw(plausible)
    return action


# ---------------------------------------------------------------------------------------------
# Invariants: each game's own (its folder's invariants.py) and those every engine shares


def storable(value) -> bool:
    """No NUL and no lone surrogate in any text, keys included (what PostgreSQL and UTF-8 refuse)."""
    if isinstance(value, str):
        return "\x00" not in value and not any("\ud800" <= char <= "\udfff" for char in value)
    if isinstance(value, dict):
        return all(storable(key) and storable(item) for key, item in value.items())
    if isinstance(value, list):
        return all(storable(item) for item in value)
    return True


def invariants(slug: str, state: dict) -> None:
    """The invariants of game `slug`, and those every engine shares."""
    assert json.loads(json.dumps(state, allow_nan=False)) == state, "the state is plain JSON"
    engine = registry.get(slug)
    registry.part(slug, "invariants").check(state)
    expect = engine.expect(state)
    assert set(expect["actions"]) <= set(engine.action_types)
    assert set(expect["seats"]) <= set(range(len(state["seats"])))
    scores = engine.scores(state)
    assert [score["seat"] for score in scores] == list(range(len(state["seats"])))
    assert all(base.is_int(score["total"]) for score in scores)
    json.dumps(scores, allow_nan=False)
    result = engine.result(state)
    assert (result is None) == bool(expect["actions"]), "waiting for nothing exactly when over"
    if result is not None:
        # Someone wins, but for a co-op game the players lost together (AG-7).
        lost_together = result["end_reason"] == "lost" and state.get("outcome") == "coop"
        assert result["winners"] or lost_together
        assert set(result["winners"]) <= set(range(len(state["seats"])))


# ---------------------------------------------------------------------------------------------
# One entry, checked


class Game:
    """A game under attack: its state, the actions that were applied, and the checks per entry."""

    def __init__(self, engine, players: int, options: dict):
        self.engine = engine
        self.players = players
        self.options = base.validate_options(engine, options)
        self.state = engine.setup(players, self.options)
        self.applied: list[dict] = []
        self.refused = Counter()
        self.names = [f"<b>P{i}</b>" for i in range(players)]
        invariants(engine.slug, self.state)

    @property
    def over(self) -> bool:
        return self.engine.result(self.state) is not None

    def send(self, action) -> bool:
        """Play `action` through base.play; True when it was applied."""
        engine, state = self.engine, self.state
        state_before, action_before = copy.deepcopy(state), copy.deepcopy(action)
        try:
            new = base.play(engine, state, action)
        except (base.BadAction, base.RuleViolation) as refused:
            assert state == state_before, f"a refused {action!r} changed the state"
            assert isinstance(refused.code, str) and refused.code
            assert isinstance(refused.message, str) and refused.message
            assert refused.rule is None or isinstance(refused.rule, str)
            assert not wording_problems(refused), wording_problems(refused)  # G-1, G-2
            json.dumps(refused.as_dict(), allow_nan=False)
            self.refused[type(refused).__name__] += 1
            if currently_in_test_context():
                event(f"refused: {type(refused).__name__} {refused.code}")
            return False
        # Anything else raised (KeyError, TypeError, ...) fails the test right here.
        assert state == state_before, "play changed the state it was given"
        assert action == action_before, "play changed the action it was given"
        json.dumps(action, allow_nan=False)  # the event log stores it as JSON
        if storable(action):  # (the service refuses unstorable text before the engine sees it)
            assert storable(new), "the engine wrote text a database cannot store"
        sentence = base.describe(engine, state, action, self.names)  # the log line the service writes
        assert isinstance(sentence, str) and sentence
        self.state = new
        self.applied.append(copy.deepcopy(action))
        invariants(engine.slug, new)
        return True

    def legal(self, rng: random.Random) -> dict:
        return self.engine.sample_action(self.state, rng)

    def play_legal(self, rng: random.Random) -> None:
        action = self.legal(rng)
        if not self.send(action):
            pytest.fail(f"the sampled legal action {action!r} was refused")

    def finish(self, rng: random.Random) -> None:
        """Legal play to the end; the game must end, and its log must replay to the same state."""
        for _ in range(MAX_STEPS):
            if self.over:
                break
            self.play_legal(rng)
        else:
            pytest.fail(f"{self.engine.slug} did not end within {MAX_STEPS} legal actions")
        assert self.engine.expect(self.state)["actions"] == []
        assert base.replay(self.engine, self.players, self.options, self.applied) == self.state
        with pytest.raises(base.RuleViolation):
            base.play(self.engine, self.state, self.applied[-1])


def option_sets(engine, players: int) -> st.SearchStrategy[dict]:
    """The game's setups (tests/engines/setups.py): its flags drawn at random, or its SETUPS."""
    if setups.declared(engine):
        return st.sampled_from(setups.option_sets(engine, players))
    booleans = [name for name, default in engine.options.items() if isinstance(default, bool)]
    return st.fixed_dictionaries({name: st.booleans() for name in booleans})


STEP_KINDS = ["legal", "advance", "random", "mutant", "mutant", "resend", "junk", "other_game"]


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
@SETTINGS
@given(data=st.data())
def test_hostile_sequences(engine, data):
    players = data.draw(st.integers(engine.min_players, engine.max_players), label="players")
    options = data.draw(option_sets(engine, players), label="options")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    game = Game(engine, players, options)
    others = [other for other in ENGINES if other is not engine]
    for _ in range(data.draw(st.integers(1, HOSTILE_STEPS), label="steps")):
        if game.over:
            # Entries after the end are refused (game_over): one of any kind is enough.
            game.send(data.draw(st.one_of(random_actions(engine), st.sampled_from(game.applied))))
            break
        kind = data.draw(st.sampled_from(STEP_KINDS), label="kind")
        if kind == "legal":
            game.play_legal(rng)
        elif kind == "advance":
            for _ in range(data.draw(st.integers(1, ADVANCE), label="advance")):
                if game.over:
                    break
                game.play_legal(rng)
        elif kind == "random":
            game.send(data.draw(random_actions(engine), label="random action"))
        elif kind == "mutant":
            game.send(data.draw(mutants(game.legal(rng)), label="mutant"))
        elif kind == "resend" and game.applied:
            game.send(data.draw(st.sampled_from(game.applied), label="resent"))
        elif kind == "other_game":
            # A legal action of another game at its start: cards and fields that do not belong here.
            other = data.draw(st.sampled_from(others), label="other game")
            start = other.setup(other.min_players, setups.playable(other))
            game.send(other.sample_action(start, rng))
        else:
            game.send(data.draw(json_values, label="junk"))
    game.finish(rng)


# ---------------------------------------------------------------------------------------------
# The generators reach what they should (so a green run means something)


def test_every_engine_refuses_hostile_input_of_both_kinds():
    """A fixed run per engine: hostile input meets both BadAction and RuleViolation, and legal
    entries are interleaved, so the property test above exercises both refusal paths."""
    for engine in ENGINES:
        rng = random.Random(engine.slug)
        game = Game(engine, engine.min_players, setups.variants_on(engine))
        for step in range(60):
            if game.over:
                break
            if step % 3 == 0:
                game.play_legal(rng)
            legal = game.legal(rng)
            dropped = {key: value for key, value in legal.items() if key != next(reversed(legal))}
            game.send(dropped)
            game.send({**legal, "seat": len(game.state["seats"])})
            game.send({**legal, "type": 7})
            for other in set(engine.action_types) - set(engine.expect(game.state)["actions"]):
                game.send({"type": other})  # not accepted now (422), or a shape short of fields (400)
        assert game.refused["BadAction"] and game.refused["RuleViolation"], (engine.slug, game.refused)
        game.finish(rng)
