"""No step asks a question with one possible answer (issue 30, 6: a Wipe Out of 3 with exactly 3
loose boards took 3 taps). Every step of every step-by-step game, in every state of its golden
playthrough, leads to at least two different entries; a step with one is taken without a tap."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl

import pytest

from companion.games import base, registry
from companion.games.hang_four import screen as hang_four_screen
from companion.games.summer_suns import screen as summer_suns_screen
from companion.games.surfs_up import steps as surfs_up_steps
from tests.engines.golden_playthrough import script


def machines(slug: str, state: dict, names: list[str], expect: dict):
    """The step machines a phone may open in this state, by the query they start from."""
    if slug == "hang-four" and state["phase"] != "over":
        return [lambda query: hang_four_screen.Steps(state, names, query)]
    if slug == "summer-suns" and state["phase"] == "place":
        return [
            lambda query, seat=seat: summer_suns_screen.Wizard(state, seat, query, names)
            for seat in expect["seats"]
        ]
    if slug == "surfs-up" and state["phase"] in ("reward", "ocean"):
        machine = {"reward": surfs_up_steps.RewardSteps, "ocean": surfs_up_steps.OceanSteps}[state["phase"]]
        return [lambda query: machine(state, names, query)]
    return []


def entry_key(fields: dict) -> str:
    """A posted entry, the order of its picked cards aside (taking A then B is taking B then A)."""
    action = json.loads(fields["action"]) if "action" in fields else dict(fields)
    if isinstance(action.get("cards"), list):
        action["cards"] = sorted(action["cards"], key=lambda card: json.dumps(card, sort_keys=True))
    return json.dumps(action, sort_keys=True)


def entries(machine, query: dict, found: set, depth: int = 0) -> set:
    """The different entries a step leads to, stopping at two (enough to be a choice)."""
    step = machine(query).resolve()
    for option in step["options"]:
        if len(found) > 1:
            break
        if option["disabled"]:
            continue
        if option["fields"]:
            found.add(entry_key(option["fields"]))
        elif option["href"] and depth < 8:
            entries(machine, dict(parse_qsl(option["href"][1:])), found, depth + 1)
    return found


def asked_steps(machine, query: dict, seen: set, depth: int = 0):
    """Every step reachable from `query` that asks something, with its query."""
    step = machine(query).resolve()
    if step["name"] == "done":
        return
    yield query, step
    for option in step["options"]:
        if option["href"] and not option["disabled"] and option["href"] not in seen and depth < 3:
            seen.add(option["href"])
            yield from asked_steps(machine, dict(parse_qsl(option["href"][1:])), seen, depth + 1)


def states(slug: str):
    names, options, actions = script(slug)
    engine = registry.get(slug)
    state = engine.setup(len(names), base.validate_options(engine, options))
    for action in actions:
        yield names, state, engine.expect(state)
        state = base.play(engine, state, action)


def forced_reward(state: dict) -> bool:
    """A Surf's Up! reward with one possible choice (no respect to buy with: +1 respect; at 4 with
    an empty beach: pass). The engine takes it as an action of its own (SU-7), so the page asks it;
    whether the app may take it for the table is a question for the next rulings (issue 30 note)."""
    options = registry.get("surfs-up").reward_options(state)
    reasons = [options["respect"], options["pass"]] + [buy["reason"] for buy in options["buy"]]
    return reasons.count(None) == 1


def one_answer_steps(slug: str, names, state, expect) -> list:
    found = []
    for machine in machines(slug, state, names, expect):
        for query, step in asked_steps(machine, {}, set()):
            if step["name"] == "slot" and query.get("why"):
                continue  # "why is this slot dark": an answer, not a question
            if slug == "surfs-up" and not query and forced_reward(state):
                continue  # the one reward SU-7 leaves: an entry of its own the engine requires
            if len(entries(machine, query, set())) == 1:
                found.append((query, step["title"]))
    return found


@pytest.mark.parametrize("slug", ["hang-four", "summer-suns", "surfs-up"])
def test_no_step_of_a_golden_playthrough_has_one_answer(slug):
    asked = 0
    for names, state, expect in states(slug):
        assert one_answer_steps(slug, names, state, expect) == []
        asked += sum(
            1 for machine in machines(slug, state, names, expect) for _ in asked_steps(machine, {}, set())
        )
    assert asked > 20, asked  # the walk saw the steps


def wipe_out_state() -> dict:
    """Ann's turn in a 2-player Hang Four, her Wipe Out card drawn; three Surf Dogs of hers hold a
    nose each: three loose boards (HF-8)."""
    engine = registry.get("hang-four")
    state = engine.setup(2, base.validate_options(engine, {}))
    state["phase"], state["shack_card"] = "shack_roll", "wipeout"
    state["seats"][0]["dogs"] = [{"character": True, "nose": True, "tail": False} for _ in range(3)]
    return state


def test_a_wipe_out_that_takes_every_loose_board_is_one_tap():
    state = wipe_out_state()
    assert len(registry.get("hang-four").stealable(state, 0)) == 3
    step = hang_four_screen.Steps(state, ["Ann", "Ben"], {}).resolve()
    three = next(option for option in step["options"] if option["label"] == "3")
    action = json.loads(three["fields"]["action"])  # the face posts the whole Wipe Out at once
    assert action["type"] == "shack_roll" and action["face"] == 3
    assert sorted((card["dog"], card["part"]) for card in action["cards"]) == [
        (0, "nose"),
        (1, "nose"),
        (2, "nose"),
    ]
    two = next(option for option in step["options"] if option["label"] == "2")
    assert two["href"] == "?f=2"  # 2 of 3: a choice, asked
    assert one_answer_steps("hang-four", ["Ann", "Ben"], state, {}) == []
