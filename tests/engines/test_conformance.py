"""One test over every registered engine (DESIGN.md): random legal play to the end, replay equals
the step-by-step state, state survives JSON, scores are always defined, and no Django in games/."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from companion.games import base, registry

from .setups import every_setup, option_sets, playable

ENGINES = registry.all_engines()
GAMES_DIR = Path(base.__file__).parent
MAX_STEPS = 5000


CASES = [
    pytest.param(
        engine, players, options, id=f"{engine.slug}-{players}p-{sorted(k for k, v in options.items() if v)}"
    )
    for engine in ENGINES
    for players in range(engine.min_players, engine.max_players + 1)
    for options in option_sets(engine, players)
]


def check_scores(engine, state, players):
    scores = engine.scores(state)
    assert [score["seat"] for score in scores] == list(range(players))
    for score in scores:
        assert base.is_int(score["total"])
        assert isinstance(score["breakdown"], dict)


@pytest.mark.parametrize("engine, players, options", CASES)
def test_random_legal_play_ends_and_replays(engine, players, options):
    for seed in range(3):
        rng = random.Random(f"{engine.slug}-{players}-{seed}")
        merged = base.validate_options(engine, options)
        state = engine.setup(players, merged)
        actions = []
        assert len(state["seats"]) == players
        for _ in range(MAX_STEPS):
            if engine.result(state) is not None:
                break
            expect = engine.expect(state)
            assert expect["actions"], "a game that is not over must wait for something"
            assert set(expect["actions"]) <= set(engine.action_types)
            action = engine.sample_action(state, rng)
            assert action["type"] in expect["actions"]
            sentence = base.describe(engine, state, action, [f"P{i}" for i in range(players)])
            assert isinstance(sentence, str) and sentence
            state = base.play(engine, state, action)
            assert json.loads(json.dumps(state)) == state
            check_scores(engine, state, players)
            actions.append(action)
        else:
            pytest.fail(f"{engine.slug} did not end within {MAX_STEPS} actions")
        result = engine.result(state)
        # Someone wins, but for a co-op game the players lost together (AG-7).
        lost_together = base.played_game(engine, merged).cooperative and result["end_reason"] == "lost"
        assert (result["winners"] or lost_together) and set(result["winners"]) <= set(range(players))
        assert isinstance(result["end_reason"], str)
        assert engine.expect(state)["actions"] == [] and engine.expect(state)["seats"] == []
        assert base.replay(engine, players, merged, actions) == state
        with pytest.raises(base.RuleViolation) as refused:
            base.play(engine, state, actions[-1])
        assert refused.value.code == "game_over"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_every_action_type_declares_its_shape(engine):
    """Issue 31: shapes are declared once and base.play checks them: every type has its fields,
    and action_fields (what play accepts) is exactly what they declare."""
    assert set(engine.action_shapes) == set(engine.action_types)
    assert engine.action_fields == base.declared_fields(engine.action_shapes)
    for fields in engine.action_shapes.values():
        assert all(isinstance(field, base.Field) for field in fields.values())


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_engine_metadata(engine):
    assert engine.slug in registry.GAMES
    assert 1 <= engine.min_players <= engine.max_players
    assert engine.action_types
    json.dumps(engine.options)
    for players in (engine.min_players - 1, engine.max_players + 1):
        with pytest.raises(base.BadAction):
            base.check_players(engine, players)


def one_action_of_each_type(engine) -> dict[str, dict]:
    """A well-formed action of every type the engine knows, taken from random legal play (each is
    legal in some state, so its shape is right)."""
    found: dict[str, dict] = {}
    for seed in range(20):
        for players, options in every_setup(engine):
            rng = random.Random(f"types-{engine.slug}-{seed}")
            state = engine.setup(players, base.validate_options(engine, options))
            while engine.result(state) is None and len(found) < len(engine.action_types):
                action = engine.sample_action(state, rng)
                found.setdefault(action["type"], action)
                state = base.play(engine, state, action)
            if len(found) == len(engine.action_types):
                return found
    pytest.fail(f"{engine.slug}: random play never made {set(engine.action_types) - set(found)}")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_the_fixed_order_of_checks(engine):
    """The shape first (400, whatever the state), then game over, an action not accepted now and a
    seat that may not act now, each naming its ruling (G-1), then the game's own rules."""
    state = engine.setup(engine.max_players, playable(engine))  # the samples' seats exist
    with pytest.raises(base.BadAction):
        base.play(engine, state, "reveal")
    with pytest.raises(base.BadAction):
        base.play(engine, state, {"type": "no-such-action"})
    samples = one_action_of_each_type(engine)
    waiting = set(engine.expect(state)["actions"])
    for other in set(engine.action_types) - waiting:
        with pytest.raises(base.RuleViolation) as refused:
            base.play(engine, state, samples[other])
        assert refused.value.code == "unexpected_action"
        assert refused.value.rule and f"{refused.value.rule})" in refused.value.message
        # an unknown field is a 400 whatever else the action says (one shape before rules)
        with pytest.raises(base.BadAction):
            base.play(engine, state, {**samples[other], "no_such_field": 1})
    assert engine.end_rule and engine.players_rule


def test_no_module_under_games_imports_django():
    offenders = []
    for path in GAMES_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {name}" for name in names if name.split(".")[0] == "django"]
    assert offenders == []


def test_every_rule_refusal_in_the_engines_names_a_ruling():
    """G-1, checked on the source: every RuleViolation(...) an engine can raise passes a ruling
    (a literal that exists, or a variable the wording checks of the engine tests then meet)."""
    from .wording import KNOWN

    missing, unknown = [], []
    for path in GAMES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            # A declared refusal (turns.Said) names its ruling as a RuleViolation does.
            if not (
                isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("RuleViolation", "Said")
            ):
                continue
            rule = (
                node.args[2]
                if len(node.args) > 2
                else next((k.value for k in node.keywords if k.arg == "rule"), None)
            )
            where = f"{path.name}:{node.lineno}"
            if rule is None or (isinstance(rule, ast.Constant) and rule.value is None):
                missing.append(where)
            elif isinstance(rule, ast.Constant) and rule.value not in KNOWN:
                unknown.append(f"{where} {rule.value}")
    assert not missing, f"RuleViolation without a ruling at {missing}"
    assert not unknown, f"rulings that no rulings file has: {unknown}"


def accepts(engine, state: dict, action: dict) -> bool:
    try:
        base.play(engine, state, action)
    except base.RuleViolation:
        return False
    return True


def for_seat(action: dict, seat: int) -> dict:
    return {**action, "seat": seat} if "seat" in action else action


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_expect_lists_exactly_what_is_accepted(engine):
    """Issue 31: API.md's expect lists "the action types accepted now". Over random play, at every
    step each listed type has an accepted entry (for each listed seat, where the entry names its
    seat), and every type not listed is refused: a screen or client that trusts expect offers
    nothing the rules then refuse."""
    players = min(max(engine.min_players, 3), engine.max_players)
    known = dict(one_action_of_each_type(engine))  # a well-formed action of every type
    for seed in range(3):
        rng = random.Random(f"expect-{engine.slug}-{seed}")
        state = engine.setup(players, playable(engine))
        while engine.result(state) is None:
            expect = engine.expect(state)
            tried = [engine.sample_action(state, random.Random(f"{seed}-{n}")) for n in range(30)]
            tried += [for_seat(known[kind], seat) for kind in expect["actions"] for seat in expect["seats"]]
            accepted = [action for action in tried if accepts(engine, state, action)]
            assert {action["type"] for action in accepted} == set(expect["actions"]), (state, expect)
            named = [action["seat"] for action in accepted if "seat" in action]
            if named:
                assert set(named) == set(expect["seats"]), (expect, named)
            for kind in set(engine.action_types) - set(expect["actions"]):
                for seat in expect["seats"] or [0]:
                    assert not accepts(engine, state, for_seat(known[kind], seat)), (kind, expect)
            action = engine.sample_action(state, rng)
            known[action["type"]] = action
            state = base.play(engine, state, action)
