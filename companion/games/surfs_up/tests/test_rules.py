"""Surf's Up! engine: rulings SU-1..SU-13 pinned with exact states after each step, refusals (which
leave the state unchanged), the helpers for the pages, the rulebook's scoring example, random games
(conservation, respect, the end, replay) and the golden file."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import registry
from companion.games.base import BadAction, RuleViolation, describe, play, replay
from companion.games.surfs_up import COMPONENTS, SurfsUp, engine, load_components
from companion.games.surfs_up.rules import energy_sorted
from tests.engines.refusals import refuser

NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Fay"]
START = [0, 1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------------------------
# Helpers


def W(suit: str, points: int) -> dict:
    return {"kind": "wave", "suit": suit, "points": points}


BB = {"kind": "bluebottle"}


def SB(suit: str, bonus: int, cost: int) -> dict:
    return {"kind": "surfboard", "suit": suit, "bonus": bonus, "cost": cost}


def EN(value: int, cost: int) -> dict:
    return {"kind": "energy", "value": value, "cost": cost}


SURF = [W("blue", 7), W("orange", 5), W("purple", 3)]
BEACH = [SB("orange", 2, 3), EN(6, 2), SB("blue", 1, 1)]
GOALS = [
    {"name": "Set of three", "points": 3},
    {"name": "Two boards", "points": 5},
    {"name": "Calm", "points": 4},
]


def setup_action(surf=None, beach=None, goals=None) -> dict:
    action = {"type": "setup", "surf": surf or SURF, "beach": beach or BEACH}
    if goals is not None:
        action["goals"] = goals
    return action


def reveal(*cards) -> dict:
    return {"type": "reveal", "energy": {str(seat): card for seat, card in enumerate(cards)}}


def respect(seat: int) -> dict:
    return {"type": "reward", "seat": seat, "choice": "respect"}


def buy(seat: int, slot: int, refill: dict | None) -> dict:
    return {"type": "reward", "seat": seat, "choice": "buy", "slot": slot, "refill": refill}


def pass_(seat: int) -> dict:
    return {"type": "reward", "seat": seat, "choice": "pass"}


def ocean(card: dict) -> dict:
    return {"type": "ocean", "card": card}


def final(stings: dict, goals: dict | None = None) -> dict:
    action = {"type": "final", "stings": {str(s): v for s, v in stings.items()}}
    if goals is not None:
        action["goals"] = {str(s): v for s, v in goals.items()}
    return action


def new(players: int = 4, shared_goals: bool = False) -> dict:
    """A game after the setup action: phase reveal, round 1."""
    state = engine.setup(players, {"shared_goals": shared_goals})
    return run(state, setup_action(goals=GOALS if shared_goals else None))


def table(
    hands: list[list],
    towels: list[list] | None = None,
    respects: list[int] | None = None,
    surf: list[dict] | None = None,
    beach: list[dict | None] | None = None,
    bluebottles: int = 0,
    stings: list[int] | None = None,
    waves: list[list[dict]] | None = None,
    surfboards: list[list[dict]] | None = None,
    beach_deck: int | None = None,
    ocean_left: dict | None = None,
    shared_goals: bool = False,
) -> dict:
    """A state in phase reveal. Every starting card that is neither in a hand nor on a towel is in
    the trash; the decks hold what the cards shown leave, so the conservation laws hold (unless
    `beach_deck` or `ocean_left` say otherwise)."""
    players = len(hands)
    state = new(players, shared_goals)
    towels = towels or [[] for _ in hands]
    for i, seat in enumerate(state["seats"]):
        seat["hand"] = energy_sorted(hands[i])
        seat["towel"] = energy_sorted(towels[i])
        seat["respect"] = respects[i] if respects else 2
        seat["stings"] = stings[i] if stings else 0
        seat["waves"] = waves[i] if waves else []
        seat["surfboards"] = surfboards[i] if surfboards else []
    state["trash"] = [
        card for seat in state["seats"] for card in START if card not in seat["hand"] + seat["towel"]
    ]
    state["surf"] = surf if surf is not None else list(SURF)
    state["beach"] = beach if beach is not None else list(BEACH)
    state["bluebottles"] = state["bluebottle_zone"] = bluebottles
    temps = sum(isinstance(c, str) for seat in state["seats"] for c in seat["hand"] + seat["towel"])
    boards = sum(len(seat["surfboards"]) for seat in state["seats"])
    shown = sum(card is not None for card in state["beach"])
    state["beach_deck"] = 42 - shown - boards - temps if beach_deck is None else beach_deck
    seen = Counter(card["kind"] for card in state["surf"])
    seen["wave"] += sum(len(seat["waves"]) for seat in state["seats"])
    seen["bluebottle"] += bluebottles
    state["ocean_left"] = ocean_left or {"wave": 23 - seen["wave"], "bluebottle": 5 - seen["bluebottle"]}
    state["ocean_deck"] = sum(state["ocean_left"].values())
    check_conservation(state, strict=beach_deck is None and ocean_left is None)
    return state


def check_conservation(state: dict, strict: bool = True) -> None:
    """Every energy card in exactly one place; respect within 0-4; the decks add up."""
    seats = state["seats"]
    players = len(seats)
    trash = Counter(state["trash"])
    for value in START:
        held = sum((seat["hand"] + seat["towel"]).count(value) for seat in seats)
        assert held + trash[value] == players, f"starting card {value}"
    temps = sum(n for card, n in trash.items() if isinstance(card, str))
    for seat in seats:
        cards = seat["hand"] + seat["towel"]
        starting = [c for c in cards if isinstance(c, int)]
        assert len(starting) == len(set(starting)), "a starting card in two places"
        assert seat["hand"] == energy_sorted(seat["hand"]) and seat["towel"] == energy_sorted(seat["towel"])
        assert 0 <= seat["respect"] <= 4
        temps += sum(isinstance(c, str) for c in cards)
        if state["phase"] != "setup":
            assert 0 in seat["hand"] and 0 not in seat["towel"], "the rest card is always in hand"
        assert seat["stings"] >= 0
    boards = sum(len(seat["surfboards"]) for seat in seats)
    shown = sum(card is not None for card in state["beach"])
    assert len(state["beach"]) == 3
    assert state["ocean_deck"] == sum(state["ocean_left"].values())
    assert all(n >= 0 for n in state["ocean_left"].values())
    assert state["bluebottles"] == state["bluebottle_zone"]
    assert len(state["surf"]) <= 3
    if strict:
        assert state["beach_deck"] + shown + boards + temps == 42
        seen = Counter(card["kind"] for card in state["surf"])
        seen["wave"] += sum(len(seat["waves"]) for seat in seats) + len(state["trashed_waves"])
        seen["bluebottle"] += state["bluebottle_zone"]
        assert state["ocean_left"]["wave"] + seen["wave"] == 23
        assert state["ocean_left"]["bluebottle"] + seen["bluebottle"] == 5


def run(state: dict, *actions: dict, strict: bool = True) -> dict:
    for action in actions:
        state = play(engine, state, action)
        check_conservation(state, strict)
    return state


refuse = refuser(engine)


def seat_view(state: dict, i: int) -> tuple:
    seat = state["seats"][i]
    return seat["hand"], seat["towel"], seat["respect"]


# ---------------------------------------------------------------------------------------------
# Metadata, components, setup (SU-1, SU-2, SU-3, SU-13)


def test_it_is_registered():
    assert registry.get("surfs-up") is engine
    assert (engine.slug, engine.name) == ("surfs-up", "Surf's Up!")
    assert (engine.min_players, engine.max_players) == (2, 6)
    assert engine.options == {"shared_goals": False}
    assert engine.action_types == ("setup", "reveal", "reward", "ocean", "final")
    assert engine.suits == ("orange", "purple", "blue")


GOOD = {
    "suits": ["orange", "purple", "blue"],
    "ocean_deck": {"wave": 23, "bluebottle": 5},
    "beach_deck": 42,
    "starting_energy": [0, 1, 2, 3, 4, 5],
    "starting_respect": 2,
    "max_respect": 4,
    "wave_points": [1, 10],
    "surfboard_bonus_min": 1,
    "surfboard_cost": [1, 4],
    "energy_value": [1, 9],
    "energy_cost": [1, 4],
    "sting_values": [0, -1, -2, -3],
    "bluebottles_to_end": 5,
    "bluebottle_tokens": 18,  # SU-14
}


def test_components_are_the_shipped_defaults():
    assert COMPONENTS == GOOD


def test_a_good_components_file_loads(tmp_path):
    path = tmp_path / "components.json"
    path.write_text(json.dumps({"_comment": "ours", **GOOD, "suits": ["red", "green", "gold"]}))
    loaded = load_components(path)
    assert loaded == {**GOOD, "suits": ["red", "green", "gold"]}
    other = SurfsUp(loaded)
    assert other.suits == ("red", "green", "gold")
    state = other.setup(2, {})
    with pytest.raises(BadAction, match="'suit' must be one of red, green, gold"):
        play(other, state, setup_action())


@pytest.mark.parametrize(
    "change, problem",
    [
        ("not json", "cannot be read"),
        ([], "must hold an object"),
        ({"suits": None}, "'suits' missing"),
        ({"colour": "blue"}, "unknown key 'colour'"),
        ({"suits": ["orange", "purple"]}, "'suits' must list 3 different suit names"),
        ({"suits": ["orange", "orange", "blue"]}, "'suits' must list 3 different suit names"),
        ({"suits": ["orange", "", "blue"]}, "'suits' must list 3 different suit names"),
        ({"ocean_deck": {"wave": 23}}, "'ocean_deck' must count exactly wave, bluebottle"),
        ({"ocean_deck": {"wave": 23, "bluebottle": -1}}, "every count in 'ocean_deck'"),
        ({"ocean_deck": {"wave": 2, "bluebottle": 5}}, "at least 3 waves"),
        ({"beach_deck": 2}, "'beach_deck' must be a whole number >= 3"),
        ({"starting_energy": [1, 2, 3]}, "'starting_energy' must list"),
        ({"starting_energy": [0, 1, 1]}, "'starting_energy' must list"),
        ({"starting_energy": [0]}, "'starting_energy' must list"),
        ({"max_respect": 0}, "'max_respect' must be a whole number >= 1"),
        ({"starting_respect": 5}, "'starting_respect' 5 is above 'max_respect' 4"),
        ({"wave_points": [10, 1]}, "'wave_points' must be [lowest, highest]"),
        ({"wave_points": [1, True]}, "'wave_points' must be [lowest, highest]"),
        ({"energy_value": [0, 9]}, "'energy_value' must be [lowest, highest], whole numbers with 1 <="),
        ({"surfboard_bonus_min": "1"}, "'surfboard_bonus_min' must be a whole number >= 0"),
        ({"sting_values": [0, 1]}, "'sting_values' must list different whole numbers <= 0"),
        ({"sting_values": []}, "'sting_values' must list"),
        ({"bluebottles_to_end": 0}, "'bluebottles_to_end' must be a whole number >= 1"),
        ({"bluebottles_to_end": 6}, "'bluebottles_to_end' is 6 but the ocean deck holds only 5"),
        ({"bluebottle_tokens": -1}, "'bluebottle_tokens' must be a whole number >= 0"),
    ],
)
def test_a_broken_components_file_is_a_clear_error(tmp_path, change, problem):
    path = tmp_path / "components.json"
    if isinstance(change, dict):
        data = {**GOOD, **change}
        data = {key: value for key, value in data.items() if value is not None}
        path.write_text(json.dumps(data))
    else:
        path.write_text(change if isinstance(change, str) else json.dumps(change))
    with pytest.raises(ValueError, match="Surf's Up! components file") as info:
        load_components(path)
    assert str(path) in str(info.value) and problem in str(info.value)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_before_the_setup_action_every_seat_holds_0_to_5_and_2_respect(players):
    state = engine.setup(players, {})
    assert state == {
        "options": {"shared_goals": False},
        "phase": "setup",
        "round": 1,
        "surf": [],
        "beach": [None, None, None],
        "token_supply": 18,
        "ocean_deck": 28,
        "ocean_left": {"wave": 23, "bluebottle": 5},
        "beach_deck": 42,
        "bluebottles": 0,
        "bluebottle_zone": 0,
        "trash": [],
        "trashed_waves": [],
        "goals": [],
        "rewards": [],
        "last": None,
        "end_reason": None,
        "winners": None,
        "seats": [
            {
                "hand": [0, 1, 2, 3, 4, 5],
                "towel": [],
                "respect": 2,
                "waves": [],
                "surfboards": [],
                "stings": 0,
                "sting_values": [],
                "goals": [],
            }
        ]
        * players,
    }
    assert engine.expect(state) == {"actions": ["setup"], "seats": [], "phase": "setup", "round": 1}
    assert engine.result(state) is None


@pytest.mark.parametrize("players", [1, 7])
def test_setup_refuses_a_wrong_player_count(players):
    with pytest.raises(BadAction, match="2 to 6 players"):
        engine.setup(players, {})


def test_setup_puts_three_waves_in_the_surf_and_three_cards_on_the_beach():
    """SU-N1: the setup action names only the 3 waves that end up in the surf; bluebottles set
    aside are shuffled back unseen, so the ocean deck holds 25 cards: 20 waves, 5 bluebottles."""
    state = run(engine.setup(3, {}), setup_action())
    assert state["surf"] == SURF and state["beach"] == BEACH
    assert (state["ocean_deck"], state["ocean_left"]) == (25, {"wave": 20, "bluebottle": 5})
    assert state["beach_deck"] == 39  # SU-2
    assert (state["phase"], state["round"], state["goals"]) == ("reveal", 1, [])
    assert engine.expect(state) == {"actions": ["reveal"], "seats": [0, 1, 2], "phase": "reveal", "round": 1}


def test_setup_refuses_a_bluebottle_and_cards_of_the_wrong_deck():
    state = engine.setup(3, {})
    error = refuse(state, setup_action(surf=[W("blue", 2), BB, W("blue", 3)]), code="setup_bluebottle")
    assert error.rule == "SU-3"
    assert error.message == (
        "Bluebottles revealed at setup are shuffled back into the ocean deck: "
        "the surf starts with 3 waves (SU-3)."
    )
    error = refuse(state, setup_action(surf=[W("blue", 2), W("blue", 3), EN(6, 2)]), rule="SU-2")
    assert (
        error.message == "Surf card 3: temporary energy 6 (cost 2) is a beach card, not an ocean card (SU-2)."
    )
    error = refuse(state, setup_action(beach=[SB("blue", 1, 1), W("orange", 8), EN(6, 2)]), rule="SU-2")
    assert error.message == "Beach card 2: an 8 orange wave is an ocean card, not a beach card (SU-2)."


def test_shared_goals_are_entered_at_setup_only_with_the_option():
    """SU-13; SU-N10: without the option, `goals` may be left out, null or []."""
    state = run(engine.setup(2, {"shared_goals": True}), setup_action(goals=GOALS))
    assert state["goals"] == GOALS
    error = refuse(engine.setup(2, {"shared_goals": True}), setup_action(), code="goals_needed")
    assert error.message == "This table plays with shared goals: enter the 3 goals (SU-13)."
    error = refuse(engine.setup(2, {}), setup_action(goals=GOALS), code="goals_off", rule="SU-13")
    assert error.message == "Shared goals are off at this table (SU-13)."
    for empty in (None, []):
        assert run(engine.setup(2, {}), {**setup_action(), "goals": empty})["goals"] == []
    refuse(engine.setup(2, {"shared_goals": True}), setup_action(goals=GOALS[:2]), BadAction)
    refuse(
        engine.setup(2, {"shared_goals": True}), setup_action(goals=[*GOALS[:2], {"name": "x"}]), BadAction
    )


# ---------------------------------------------------------------------------------------------
# Reveals (SU-4)


def test_a_reveal_needs_every_seat_and_only_cards_in_hand():
    state = table([[0, 1, 2, 3], [0, 4, "t6"], [0], [0, 1, 5]], towels=[[4, 5], [1, 2, 3, 5], [1, 2], []])
    # G-2: the refusal says where the card is.
    error = refuse(state, reveal(3, 5, 0, 1), code="not_in_hand", rule="SU-4")
    assert error.message == "Seat 1's 5 is on the towel: resting (revealing 0) brings it back to hand (SU-4)."
    error = refuse(state, reveal(3, "t5", 0, 1), code="not_in_hand")
    assert error.message == (
        "Seat 1 holds no temporary 5: a temporary card comes from the beach to the towel, "
        "and goes to the trash once revealed (SU-4, SU-8)."
    )
    error = refuse(state, reveal(3, 4, 1, 1), code="not_in_hand")
    assert error.message == "Seat 2 holds only the rest card 0: it must rest (SU-4)."
    error = refuse(state, reveal(3, 4, 0, 2), code="not_in_hand")
    assert (
        error.message
        == "Seat 3's 2 won a wave and went to the trash: it cannot be revealed again (SU-4, SU-6)."
    )
    error = refuse(state, {"type": "reveal", "energy": {"0": 3, "2": 0}}, code="missing_seat", rule="SU-4")
    assert (
        error.message
        == "Seat 1 and Seat 3 are missing: every seat reveals one energy card each round (SU-4)."
    )
    error = refuse(state, {"type": "reveal", "energy": {"0": 3, "1": 4, "2": 0, "3": 1, "4": 1}})
    assert (
        error.code == "unknown_seat"
        and error.rule == "SU-1"
        and error.message
        == "This table has 4 players, so there is no seat 4 (seats are numbered 0 to 3) (SU-1)."
    )
    state = run(state, reveal(3, "t6", 0, 1))
    assert state["last"]["revealed"] == {"0": 3, "1": "t6", "2": 0, "3": 1}


# ---------------------------------------------------------------------------------------------
# Wave rounds (SU-5, SU-6, SU-7, SU-8), step by step


def test_a_wave_round_step_by_step():
    state = new(4)
    state = run(state, reveal(5, 3, 4, 0))
    # SU-5: Dev rests; 5 > 4 > 3: Ann wins, Cleo is runner-up. SU-6: Ann's 5 to the trash, the
    # others' cards to their towels; Dev gains 1 respect and takes his 0 back.
    assert state["last"] == {
        "round": 1,
        "card": W("blue", 7),
        "revealed": {"0": 5, "1": 3, "2": 4, "3": 0},
        "resting": [3],
        "wiped_out": [],
        "winner": 0,
        "runner_up": 2,
        "unstung": [],
        "stung": [],
        "trashed": [{"seat": 0, "card": 5}],
        "to_towel": {"1": [3], "2": [4]},
        "rested": {"3": [0]},
        "rewards": [],
    }
    assert state["surf"] == [W("orange", 5), W("purple", 3)]
    assert state["trash"] == [5]
    assert [seat_view(state, i) for i in range(4)] == [
        ([0, 1, 2, 3, 4], [], 2),
        ([0, 1, 2, 4, 5], [3], 2),
        ([0, 1, 2, 3, 5], [4], 2),
        ([0, 1, 2, 3, 4, 5], [], 3),
    ]
    assert state["seats"][0]["waves"] == [W("blue", 7)]
    assert (state["phase"], state["rewards"]) == ("reward", [0, 2])
    assert engine.expect(state) == {"actions": ["reward"], "seats": [0], "phase": "reward", "round": 1}

    state = run(state, respect(0))  # SU-7: the winner first
    assert seat_view(state, 0) == ([0, 1, 2, 3, 4], [], 3)
    assert (state["phase"], state["rewards"]) == ("reward", [2])
    assert state["last"]["rewards"] == [{"seat": 0, "choice": "respect"}]

    state = run(state, buy(2, 2, EN(3, 1)))  # the runner-up buys the blue surfboard (+1, cost 1)
    assert state["seats"][2]["surfboards"] == [SB("blue", 1, 1)]
    assert seat_view(state, 2) == ([0, 1, 2, 3, 5], [4], 1)
    assert state["beach"] == [SB("orange", 2, 3), EN(6, 2), EN(3, 1)]
    assert state["beach_deck"] == 38
    assert state["last"]["rewards"][1] == {
        "seat": 2,
        "choice": "buy",
        "slot": 2,
        "card": SB("blue", 1, 1),
        "refill": EN(3, 1),
    }
    assert (state["phase"], state["rewards"], state["round"]) == ("ocean", [], 1)
    assert engine.ocean_needed(state)
    assert engine.expect(state) == {"actions": ["ocean"], "seats": [], "phase": "ocean", "round": 1}

    state = run(state, ocean(W("blue", 2)))  # SU-3: at the far end
    assert state["surf"] == [W("orange", 5), W("purple", 3), W("blue", 2)]
    assert (state["ocean_deck"], state["ocean_left"]) == (24, {"wave": 19, "bluebottle": 5})
    assert (state["phase"], state["round"]) == ("reveal", 2)
    assert not engine.ocean_needed(state)
    assert state["last"]["round"] == 1  # the story of the last resolved round stays


def test_a_wipe_out_of_three():
    state = table([START] * 4, respects=[2, 2, 2, 3])
    state = run(state, reveal(4, 4, 4, 1))
    last = state["last"]
    assert (last["wiped_out"], last["winner"], last["runner_up"]) == ([[0, 1, 2]], 3, None)
    assert last["to_towel"] == {"0": [4], "1": [4], "2": [4]} and last["trashed"] == [{"seat": 3, "card": 1}]
    assert state["seats"][3]["waves"] == [W("blue", 7)]
    assert [seat_view(state, i) for i in range(4)] == [
        ([0, 1, 2, 3, 5], [4], 2),
        ([0, 1, 2, 3, 5], [4], 2),
        ([0, 1, 2, 3, 5], [4], 2),
        ([0, 2, 3, 4, 5], [], 3),
    ]
    assert state["rewards"] == [3]  # no runner-up: only the winner is rewarded


def test_the_same_value_with_different_respect_is_no_wipe_out_respect_breaks_the_tie():
    state = table([START] * 3, respects=[1, 3, 2])
    state = run(state, reveal(4, 4, 4))
    last = state["last"]
    assert (last["wiped_out"], last["winner"], last["runner_up"]) == ([], 1, 2)
    assert state["trash"] == [4] and state["rewards"] == [1, 2]


def test_the_same_respect_with_different_values_is_no_wipe_out():
    state = run(table([START] * 3), reveal(2, 3, 1))
    assert (state["last"]["wiped_out"], state["last"]["winner"], state["last"]["runner_up"]) == ([], 1, 0)


def test_a_higher_value_beats_more_respect():
    state = run(table([START] * 2, respects=[4, 0]), reveal(2, 3))
    assert (state["last"]["winner"], state["last"]["runner_up"]) == (1, 0)


def test_the_runner_up_comes_after_a_wipe_out_of_higher_values():
    state = table([START] * 5, respects=[2, 2, 3, 1, 2])
    state = run(state, reveal(5, 5, 3, 3, 2))
    last = state["last"]
    # 5/2 and 5/2 wipe out; 3/3 beats 3/1 on respect; 2/2 is third and gets nothing.
    assert (last["wiped_out"], last["winner"], last["runner_up"]) == ([[0, 1]], 2, 3)
    assert state["rewards"] == [2, 3]


def test_everyone_wipes_out_the_wave_goes_to_the_trash():
    """SU-5, SU-N2: an unwon wave goes to the trash (the rulebook's trash holds ocean cards too),
    kept apart from the energy trash in `trashed_waves`; nobody is rewarded."""
    state = table([START] * 4)
    state = run(state, reveal(3, 3, 5, 5))
    last = state["last"]
    assert last["wiped_out"] == [[2, 3], [0, 1]]  # higher value first
    assert (last["winner"], last["runner_up"], last["trashed"]) == (None, None, [])
    assert state["trashed_waves"] == [W("blue", 7)] and state["trash"] == []
    assert last["to_towel"] == {"0": [3], "1": [3], "2": [5], "3": [5]}
    assert (state["phase"], state["rewards"]) == ("ocean", [])
    assert all(seat["waves"] == [] for seat in state["seats"])


def test_when_everyone_rests_nobody_catches_the_wave():
    state = table([[0, 1, 2], [0, 4], [0, 5]], towels=[[3], [1, 2, 3], []], respects=[4, 2, 0])
    state = run(state, reveal(0, 0, 0))
    last = state["last"]
    assert (last["resting"], last["winner"], last["wiped_out"]) == ([0, 1, 2], None, [])
    assert last["rested"] == {"0": [0, 3], "1": [0, 1, 2, 3], "2": [0]}
    assert [seat_view(state, i) for i in range(3)] == [
        ([0, 1, 2, 3], [], 4),  # SU-7: respect never exceeds 4
        ([0, 1, 2, 3, 4], [], 3),
        ([0, 5], [], 1),
    ]
    assert state["trashed_waves"] == [W("blue", 7)] and state["phase"] == "ocean"


def test_a_resting_seat_cannot_catch_the_wave_even_if_everyone_else_wipes_out():
    state = run(table([START] * 3), reveal(0, 2, 2))
    assert (state["last"]["winner"], state["last"]["wiped_out"]) == (None, [[1, 2]])
    assert state["trashed_waves"] == [W("blue", 7)] and state["rewards"] == []


def test_resting_in_a_wave_round_brings_the_whole_towel_back():
    state = table([[0, 2, "t7"], START], towels=[[1, 3, 4, 5, "t2"], []], respects=[3, 2])
    state = run(state, reveal(0, 1))
    assert state["last"]["rested"] == {"0": [0, 1, "t2", 3, 4, 5]}
    assert seat_view(state, 0) == ([0, 1, 2, "t2", 3, 4, 5, "t7"], [], 4)
    assert (state["last"]["winner"], state["last"]["runner_up"]) == (1, None)


# ---------------------------------------------------------------------------------------------
# Temporary energy (SU-6, SU-8)


def test_temporary_energy_bought_rested_back_and_trashed_after_use():
    state = table([START] * 3, respects=[2, 2, 1])
    state = run(state, reveal(5, 4, 1), respect(0), buy(1, 1, SB("purple", 2, 2)))
    # SU-8: the temporary 6 goes to Ben's towel, not his hand.
    assert seat_view(state, 1) == ([0, 1, 2, 3, 5], [4, "t6"], 0)
    assert state["beach"] == [SB("orange", 2, 3), SB("purple", 2, 2), SB("blue", 1, 1)]
    state = run(state, ocean(W("orange", 9)))
    error = refuse(state, reveal(4, "t6", 2), code="not_in_hand")
    assert (
        error.message
        == "Seat 1's temporary 6 is on the towel: resting (revealing 0) brings it back to hand (SU-4)."
    )
    # Ben rests: his towel, the temporary 6 included, comes back to his hand.
    state = run(state, reveal(4, 0, 2))
    assert state["last"]["rested"] == {"1": [0, 4, "t6"]}
    assert seat_view(state, 1) == ([0, 1, 2, 3, 4, 5, "t6"], [], 1)
    state = run(state, respect(0), respect(2), ocean(W("blue", 1)))
    # Ben wins with it: trashed (as every winning card would be).
    state = run(state, reveal(3, "t6", 3))
    assert state["last"]["winner"] == 1 and state["last"]["trashed"] == [{"seat": 1, "card": "t6"}]
    assert state["trash"][-1] == "t6"
    assert seat_view(state, 1) == ([0, 1, 2, 3, 4, 5], [], 1)


def test_a_temporary_card_goes_to_the_trash_whoever_plays_it_and_counts_for_wipe_outs():
    state = table([[0, 1, "t4", "t9"], [0, 4, 5], [0, 3]], towels=[[2, 3, 4, 5], [1, 2, 3], [1, 2, 4, 5]])
    # SU-8: a temporary 4 wipes out with a 4 at the same respect.
    state = run(state, reveal("t4", 4, 3))
    last = state["last"]
    assert (last["wiped_out"], last["winner"]) == ([[0, 1]], 2)
    assert last["trashed"] == [{"seat": 0, "card": "t4"}, {"seat": 2, "card": 3}]
    assert last["to_towel"] == {"1": [4]}
    assert seat_view(state, 0) == ([0, 1, "t9"], [2, 3, 4, 5], 2)


# ---------------------------------------------------------------------------------------------
# Rewards (SU-7, SU-8)


def test_the_winner_then_the_runner_up_take_their_rewards():
    state = run(table([START] * 3), reveal(5, 4, 1))
    assert engine.expect(state)["seats"] == [0]
    error = refuse(state, respect(1), code="not_your_turn")
    assert error.rule == "SU-7"
    assert error.message == "Seat 0's reward comes first: the winner's, then the runner-up's (SU-7)."
    error = refuse(state, respect(2), code="not_your_turn", rule="SU-7")
    assert error.message == "Seat 2 won no reward this round: Seat 0's reward is due (SU-7)."
    error = refuse(state, {"type": "reward", "choice": "respect"}, BadAction)
    assert error.message == "A reward needs 'seat': the seat taking it."
    state = run(state, respect(0))
    assert engine.expect(state)["seats"] == [1]
    refuse(state, respect(0), code="not_your_turn")
    # apply itself checks the seat too
    with pytest.raises(
        RuleViolation, match="Seat 0 has taken a reward this round: now Seat 1's reward is due"
    ):
        play(engine, state, respect(0))
    state = run(state, respect(1))
    assert [seat["respect"] for seat in state["seats"]] == [3, 3, 2]


def test_a_seat_at_4_respect_must_buy():
    state = run(table([START] * 2, respects=[4, 4]), reveal(5, 4))
    error = refuse(state, respect(0), code="max_respect", rule="SU-7")
    assert error.message == "Seat 0 is at 4 respect and must buy (SU-7)."
    state = run(state, buy(0, 0, EN(2, 1)))  # the orange surfboard, cost 3
    assert state["seats"][0]["respect"] == 1 and state["seats"][0]["surfboards"] == [SB("orange", 2, 3)]
    refuse(state, respect(1), code="max_respect")
    state = run(state, buy(1, 1, EN(8, 4)))  # temporary energy 6, cost 2
    assert seat_view(state, 1) == ([0, 1, 2, 3, 5], [4, "t6"], 2)
    assert state["beach"] == [EN(2, 1), EN(8, 4), SB("blue", 1, 1)]
    assert state["beach_deck"] == 39 - 2


def test_a_buy_pays_its_cost_and_refuses_what_the_seat_cannot_afford():
    state = run(table([START] * 2, respects=[2, 2]), reveal(5, 4))
    options = engine.reward_options(state)
    assert options == {
        "seat": 0,
        "respect": None,
        "buy": [
            {
                "slot": 0,
                "card": SB("orange", 2, 3),
                "reason": "That surfboard costs 3 respect; Seat 0 has 2 (SU-7).",
            },
            {"slot": 1, "card": EN(6, 2), "reason": None},
            {"slot": 2, "card": SB("blue", 1, 1), "reason": None},
        ],
        "pass": "Passing is only allowed when nothing else is (SU-7).",
    }
    error = refuse(state, buy(0, 0, EN(1, 1)), code="cannot_afford", rule="SU-7")
    assert error.message == "That surfboard costs 3 respect; Seat 0 has 2 (SU-7)."
    error = refuse(state, pass_(0), code="pass_refused", rule="SU-7")
    assert error.message == "Passing is only allowed when nothing else is (SU-7)."
    error = refuse(state, buy(0, 1, None), code="refill_needed")
    assert (
        error.message
        == "The beach deck still holds 39 cards: enter the card that refills beach space 2 (SU-7)."
    )
    error = refuse(state, buy(0, 1, W("blue", 3)), code="not_beach_card", rule="SU-2")
    assert error.message == "The refill: a 3 blue wave is an ocean card, not a beach card (SU-2)."
    state = run(state, buy(0, 1, EN(9, 4)))
    assert seat_view(state, 0) == ([0, 1, 2, 3, 4], ["t6"], 0)
    temp = engine.reward_options(state)["buy"][1]
    assert temp["reason"] == "That temporary energy card costs 4 respect; Seat 1 has 2 (SU-7)."


def test_a_pass_only_when_nothing_else_is():
    """SU-7 and SU-N6: with the beach deck and beach empty, a seat at 4 can neither gain respect
    nor buy: it passes, and the pass is an explicit entry like any other reward."""
    state = table([START] * 2, respects=[4, 3], beach=[None, None, None], beach_deck=0)
    state = run(state, reveal(5, 4), strict=False)
    assert engine.reward_options(state) == {
        "seat": 0,
        "respect": "Seat 0 is at 4 respect and can gain no more (SU-7).",
        "buy": [
            {
                "slot": i,
                "card": None,
                "reason": f"Beach space {i + 1} is empty: the beach deck ran out (SU-7).",
            }
            for i in range(3)
        ],
        "pass": None,
    }
    refuse(state, respect(0), code="max_respect")
    refuse(state, buy(0, 1, None), code="empty_slot", rule="SU-7")
    state = run(state, pass_(0), strict=False)
    assert state["last"]["rewards"] == [{"seat": 0, "choice": "pass"}]
    assert state["seats"][0]["respect"] == 4
    refuse(state, pass_(1), code="pass_refused")  # Ben at 3 can still gain respect
    state = run(state, respect(1), strict=False)
    assert state["seats"][1]["respect"] == 4 and state["phase"] == "ocean"


def test_the_beach_deck_runs_out_and_a_slot_stays_empty():
    state = table([START] * 2, respects=[4, 4], beach_deck=1)
    state = run(state, reveal(5, 4), strict=False)
    state = run(state, buy(0, 2, SB("purple", 1, 2)), strict=False)
    assert state["beach_deck"] == 0 and state["beach"][2] == SB("purple", 1, 2)
    error = refuse(state, buy(1, 1, EN(3, 1)), code="beach_deck_empty", rule="SU-7")
    assert (
        error.message
        == "The beach deck is empty: nothing refills beach space 2, so enter no refill card (SU-7)."
    )
    state = run(state, buy(1, 1, None), strict=False)
    assert state["beach"] == [SB("orange", 2, 3), None, SB("purple", 1, 2)]
    assert state["last"]["rewards"][1] == {
        "seat": 1,
        "choice": "buy",
        "slot": 1,
        "card": EN(6, 2),
        "refill": None,
    }
    # The empty slot cannot be bought.
    later = run(state, ocean(W("blue", 4)), reveal(4, 3), strict=False)
    assert engine.reward_options(later)["buy"][1]["reason"] == (
        "Beach space 2 is empty: the beach deck ran out (SU-7)."
    )


def test_reward_options_outside_the_reward_phase():
    reason = "No reward is due now (SU-7)."
    assert engine.reward_options(new(2)) == {"seat": None, "respect": reason, "buy": [], "pass": reason}


def test_slot_and_refill_are_only_for_a_buy_and_null_means_absent():
    """SU-N10: JSON null for `slot`/`refill` is the same as leaving them out."""
    state = run(table([START] * 2), reveal(5, 4))
    assert run(state, {**respect(0), "slot": None, "refill": None})["seats"][0]["respect"] == 3
    refuse(state, {**respect(0), "slot": 1}, BadAction)
    refuse(state, {**respect(0), "refill": EN(2, 2)}, BadAction)
    refuse(state, {"type": "reward", "seat": 0, "choice": "buy", "refill": EN(2, 2)}, BadAction)


# ---------------------------------------------------------------------------------------------
# Bluebottle rounds (SU-9)


def test_a_bluebottle_round_stings_every_lowest_seat():
    state = table(
        [START, START, START, [0, 1, "t6"]],
        towels=[[], [], [], [2, 3, 4, 5]],
        respects=[4, 1, 3, 2],
        surf=[BB, W("orange", 5), W("purple", 3)],
    )
    state = run(state, reveal(2, 1, 1, "t6"))
    assert state["last"] == {
        "round": 1,
        "card": BB,
        "revealed": {"0": 2, "1": 1, "2": 1, "3": "t6"},
        "resting": [],
        "wiped_out": [],
        "winner": None,
        "runner_up": None,
        "unstung": [],
        "stung": [1, 2],  # no respect tie-break
        "trashed": [{"seat": 3, "card": "t6"}],  # nobody's card is trashed except temporary ones
        "to_towel": {"0": [2], "1": [1], "2": [1]},
        "rested": {},
        "rewards": [],
    }
    assert [seat["stings"] for seat in state["seats"]] == [0, 1, 1, 0]
    assert (state["bluebottles"], state["bluebottle_zone"]) == (1, 1)
    assert state["surf"] == [W("orange", 5), W("purple", 3)]
    assert (state["phase"], state["rewards"]) == ("ocean", [])  # no beach visit
    assert [seat["respect"] for seat in state["seats"]] == [4, 1, 3, 2]


def test_the_box_holds_18_bluebottle_tokens():
    """SU-14: six surfers resting through three bluebottle rounds take all 18; in the fourth nobody
    takes one, and the final entry asks 3 values of each seat."""
    state = table([START] * 6, surf=[BB, BB, BB])
    for round_ in (1, 2, 3):
        state = run(state, reveal(0, 0, 0, 0, 0, 0))
        assert state["last"]["stung"] == [0, 1, 2, 3, 4, 5] and state["last"]["unstung"] == []
        assert state["token_supply"] == 18 - 6 * round_
        state = run(state, ocean(BB if round_ == 1 else W("blue", 2)))
    assert [seat["stings"] for seat in state["seats"]] == [3] * 6
    state = run(state, reveal(0, 0, 0, 0, 0, 0))  # the 4th bluebottle: the box is empty
    assert state["last"]["card"] == BB
    assert (state["last"]["stung"], state["last"]["unstung"]) == ([], [0, 1, 2, 3, 4, 5])
    assert state["token_supply"] == 0 and [seat["stings"] for seat in state["seats"]] == [3] * 6
    names = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn"]
    before = table([START] * 6, surf=[BB, W("blue", 2)], stings=[3] * 6, bluebottles=3)
    before["token_supply"] = 0
    assert (
        "Finn rests. Ann, Ben, Cleo, Dev, Eve and Finn revealed the lowest (0), "
        "but the box holds no bluebottle token any more. Ann rests:"
    ) in describe(engine, before, reveal(0, 0, 0, 0, 0, 0), names)


def test_the_last_tokens_go_in_seat_order():
    """SU-14: with 2 tokens left and 3 lowest seats, seats 0 and 2 take one, seat 3 none."""
    state = table([START] * 4, surf=[BB, W("blue", 2), W("blue", 3)])
    state["token_supply"] = 2
    state = run(state, reveal(1, 2, 1, 1))
    assert (state["last"]["stung"], state["last"]["unstung"]) == ([0, 2], [3])
    assert [seat["stings"] for seat in state["seats"]] == [1, 0, 1, 0]
    assert state["token_supply"] == 0


def test_resting_in_a_bluebottle_round_is_stung_and_still_rests():
    state = table(
        [[0, 1, 2], [0, 3, 4], [0, 5]],
        towels=[[3, 4, 5], [1, 2, 5], [1, 2, 3, 4]],
        respects=[2, 4, 1],
        surf=[BB, W("orange", 5)],
    )
    state = run(state, reveal(0, 0, 5))
    assert state["last"]["stung"] == [0, 1] and state["last"]["resting"] == [0, 1]
    assert [seat_view(state, i) for i in range(3)] == [
        ([0, 1, 2, 3, 4, 5], [], 3),
        ([0, 1, 2, 3, 4, 5], [], 4),
        ([0], [1, 2, 3, 4, 5], 1),
    ]


def test_everyone_revealing_the_same_value_in_a_bluebottle_round_is_stung():
    state = run(table([START] * 3, surf=[BB, W("blue", 3), W("blue", 4)]), reveal(3, 3, 3))
    assert state["last"]["stung"] == [0, 1, 2]
    assert [seat["stings"] for seat in state["seats"]] == [1, 1, 1]


# ---------------------------------------------------------------------------------------------
# The ocean (SU-3) and card counting


def test_the_ocean_card_must_be_one_the_ocean_deck_still_holds():
    state = run(table([START] * 2), reveal(0, 0))
    error = refuse(state, ocean(SB("blue", 1, 2)), code="not_ocean_card", rule="SU-2")
    assert error.message == "A blue surfboard (+1, cost 2) is a beach card, not an ocean card (SU-2)."
    few = table([START] * 2, ocean_left={"wave": 3, "bluebottle": 0}, bluebottles=4)
    few = run(few, reveal(0, 0), strict=False)
    error = refuse(few, ocean(BB), code="not_in_deck", rule="SU-2")
    assert error.message == (
        "The ocean deck holds no bluebottle any more (all 5 have been seen): "
        "its 3 cards left are waves (SU-2)."
    )
    only = table([START] * 2, ocean_left={"wave": 0, "bluebottle": 1}, bluebottles=3)
    only = run(only, reveal(0, 0), strict=False)
    error = refuse(only, ocean(W("blue", 2)), code="not_in_deck")
    assert error.message == (
        "The ocean deck holds no wave any more (all 23 have been seen): its last card is a bluebottle (SU-2)."
    )
    state = run(only, ocean(BB), strict=False)
    assert (state["ocean_deck"], state["ocean_left"], state["surf"][-1]) == (
        0,
        {"wave": 0, "bluebottle": 0},
        BB,
    )


def test_with_an_empty_ocean_deck_the_surf_just_shrinks():
    """SU-3: no ocean entry is expected; the next round starts at once with a shorter surf. Here
    the 5th bluebottle is the last card: resolving it ends the game (SU-10)."""
    state = table(
        [START] * 2,
        surf=[W("blue", 2), W("orange", 6), BB],
        bluebottles=4,
        waves=[[W("blue", 1)] * 11, [W("blue", 1)] * 10],
    )
    assert (state["ocean_deck"], state["ocean_left"]) == (0, {"wave": 0, "bluebottle": 0})
    state = run(state, reveal(0, 0))
    assert (state["phase"], state["round"], state["surf"]) == ("reveal", 2, [W("orange", 6), BB])
    assert not engine.ocean_needed(state)
    refuse(state, ocean(W("blue", 3)), code="unexpected_action")
    state = run(state, reveal(3, 2), respect(0), respect(1))
    assert (state["phase"], state["round"], state["surf"]) == ("reveal", 3, [BB])
    state = run(state, reveal(1, 3))
    assert (state["phase"], state["end_reason"], state["surf"]) == ("final", "bluebottles", [])


def test_an_empty_surf_with_an_empty_ocean_deck_ends_the_game():
    """SU-N3: when the last card of the surf is resolved and the ocean deck is empty (with the
    shipped components the 5th bluebottle always comes first; this table's counts do not add up),
    the game ends after that round: end_reason "exhausted"."""
    state = table([START] * 2, surf=[W("blue", 2)], ocean_left={"wave": 0, "bluebottle": 0}, bluebottles=2)
    state = run(state, reveal(3, 1), strict=False)
    assert state["phase"] == "reward"
    state = run(state, respect(0), respect(1), strict=False)
    assert (state["phase"], state["end_reason"], state["surf"]) == ("final", "exhausted", [])
    assert engine.expect(state) == {"actions": ["final"], "seats": [], "phase": "final", "round": 1}


# ---------------------------------------------------------------------------------------------
# The end (SU-10)


def test_the_fifth_bluebottle_ends_the_game_after_its_round():
    state = table([START] * 3, surf=[BB, W("blue", 2), W("blue", 3)], bluebottles=4, stings=[1, 2, 1])
    state = run(state, reveal(1, 2, 0))
    assert (state["phase"], state["end_reason"], state["bluebottles"]) == ("final", "bluebottles", 5)
    assert state["ocean_deck"] == 21  # the end comes before any new ocean card
    assert engine.final_counts(state) == {0: 1, 1: 2, 2: 2}
    assert engine.result(state) is None and state["winners"] is None
    refuse(state, ocean(W("blue", 4)), code="unexpected_action")


def test_a_seat_down_to_its_rest_card_ends_the_game_after_the_rewards():
    """SU-10: checked once the round is fully resolved, rewards included."""
    state = table([[0, 5], START], towels=[[], []], respects=[2, 2])
    state = run(state, reveal(5, 4))
    assert seat_view(state, 0) == ([0], [], 2) and state["phase"] == "reward"
    ended = run(state, respect(0), respect(1))
    assert (ended["phase"], ended["end_reason"]) == ("final", "rest_card")
    assert ended["ocean_deck"] == state["ocean_deck"]
    # A temporary card bought to the towel keeps the game going: the towel is no longer empty.
    going = run(state, buy(0, 1, EN(2, 2)), respect(1))
    assert seat_view(going, 0) == ([0], ["t6"], 0)
    assert (going["phase"], going["end_reason"]) == ("ocean", None)
    going = run(going, ocean(W("blue", 8)))
    refuse(going, reveal("t6", 1), code="not_in_hand")  # it must rest first
    going = run(going, reveal(0, 1))
    assert seat_view(going, 0) == ([0, "t6"], [], 1)


def test_a_seat_left_with_its_0_by_a_trashed_temporary_card_ends_the_game():
    state = table([[0, "t3"], START], surf=[BB, W("blue", 5)])
    state = run(state, reveal("t3", 4))
    assert (state["phase"], state["end_reason"], state["seats"][0]["stings"]) == ("final", "rest_card", 1)


def test_both_end_conditions_at_once_the_reason_is_bluebottles():
    """SU-N4."""
    state = table([[0, "t3"], START], surf=[BB, W("blue", 5)], bluebottles=4)
    state = run(state, reveal("t3", 4))
    assert seat_view(state, 0) == ([0], [], 2)
    assert (state["phase"], state["end_reason"]) == ("final", "bluebottles")


def test_a_seat_with_only_its_0_but_a_full_towel_does_not_end_the_game():
    state = run(table([[0, 1], START], towels=[[2, 3], []], surf=[BB, W("blue", 5)]), reveal(1, 0))
    assert seat_view(state, 0) == ([0], [1, 2, 3], 2)
    assert (state["phase"], state["end_reason"]) == ("ocean", None)


# ---------------------------------------------------------------------------------------------
# The final entry and scores (SU-11, SU-12, SU-13)


def ended(players: int, stings: list[int], shared_goals: bool = False, **kwargs) -> dict:
    """A game in phase final: the 5th bluebottle has just been resolved (everyone rested); then
    the seats hold `stings` tokens."""
    state = table(
        [START] * players, surf=[BB, W("blue", 5)], bluebottles=4, shared_goals=shared_goals, **kwargs
    )
    state = run(state, reveal(*([0] * players)))
    assert (state["phase"], state["end_reason"]) == ("final", "bluebottles")
    for seat, n in zip(state["seats"], stings, strict=True):
        seat["stings"] = n
    return state


def test_the_final_entry_needs_one_value_per_token_for_every_seat():
    state = ended(3, stings=[1, 2, 1])
    assert engine.final_counts(state) == {0: 1, 1: 2, 2: 1}
    error = refuse(state, final({0: [-1], 1: [-1], 2: [0]}), code="sting_count", rule="SU-11")
    assert error.message == "A sting list must hold 2 values for Seat 1, one per token (SU-11)."
    error = refuse(state, final({0: [], 1: [-1, 0], 2: [0]}), code="sting_count")
    assert error.message == "A sting list must hold 1 value for Seat 0, one per token (SU-11)."
    error = refuse(state, final({0: [-1], 2: [0]}), code="missing_seat", rule="SU-11")
    assert error.message == "Seat 1 is missing: every seat's sting values are entered ([] for none) (SU-11)."
    refuse(state, final({0: [-1], 1: [-1, 0], 2: [0], 3: []}), code="unknown_seat")
    refuse(state, final({0: [-4], 1: [-1, 0], 2: [0]}), BadAction)  # no such token value
    refuse(state, final({0: [-1], 1: [-1, 0], 2: [0]}, goals={0: [1]}), code="goals_off", rule="SU-13")
    state = run(state, final({0: [-1], 1: [-3, 0], 2: [-2]}))
    assert [seat["sting_values"] for seat in state["seats"]] == [[-1], [-3, 0], [-2]]
    assert [s["breakdown"]["stings"] for s in engine.scores(state)] == [-1, -3, -2]
    assert state["phase"] == "over"
    assert engine.result(state) == {"winners": [0], "end_reason": "bluebottles"}
    assert engine.expect(state) == {"actions": [], "seats": [], "phase": "over", "round": 1}
    refuse(state, final({0: [-1], 1: [-3, 0], 2: [-2]}), code="game_over")


def test_the_final_entry_of_shared_goals():
    state = ended(2, stings=[1, 1], shared_goals=True)
    assert state["goals"] == GOALS
    error = refuse(state, final({0: [0], 1: [0]}), code="goals_needed", rule="SU-13")
    assert error.message == "This table plays with shared goals: enter the goals each seat achieved (SU-13)."
    error = refuse(state, final({0: [0], 1: [0]}, goals={0: [3], 1: []}), code="unknown_goal")
    assert error.message == "Seat 0 names goal 4, but the table has 3 shared goals (SU-13)."
    error = refuse(state, final({0: [0], 1: [0]}, goals={0: [1, 1], 1: []}), code="goal_twice")
    assert error.message == "Seat 0 names a goal twice (SU-13)."
    refuse(state, final({0: [0], 1: [0]}, goals={0: [1]}), code="missing_seat", rule="SU-13")
    state = run(state, final({0: [0], 1: [-2]}, goals={0: [2, 0], 1: [0]}))  # one goal, several seats
    assert [seat["goals"] for seat in state["seats"]] == [[0, 2], [0]]
    assert [s["breakdown"]["goals"] for s in engine.scores(state)] == [7, 3]


def test_scores_are_live_and_stings_count_only_after_the_final_entry():
    """SU-N5: during the game the totals are wave points and surfboard bonuses; token values and
    goals are unknown until the final entry, so they count 0 until then."""
    state = table(
        [START] * 2,
        waves=[[W("orange", 4), W("orange", 2), W("blue", 6)], []],
        surfboards=[[SB("orange", 2, 3), SB("blue", 1, 1), SB("purple", 3, 2)], []],
        stings=[2, 0],
    )
    assert engine.scores(state) == [
        {
            "seat": 0,
            "total": 12 + 4 + 1,
            "breakdown": {"waves": 12, "surfboards": 5, "goals": 0, "stings": 0},
        },
        {"seat": 1, "total": 0, "breakdown": {"waves": 0, "surfboards": 0, "goals": 0, "stings": 0}},
    ]


# The rulebook's example (seeds/001, "Scoring Example"): Renee's waves 1, 4, 5, 5 make 15, her two
# orange surfboards "(+3, +3)" add 6, her purple surfboard matches no wave, goals +3, +5, 0 and
# stings -1, -3: 25. SU-N9: under SU-12 (each board's bonus for each wave of its suit) two +3
# boards add 6 only with exactly one orange wave; the rulebook's "her 2 waves" reading (one board
# per wave) would need two orange waves and boards worth +1 and +2 together.
RENEE = [
    pytest.param(
        [W("orange", 1), W("blue", 4), W("blue", 5), W("blue", 5)],
        [SB("orange", 3, 4), SB("orange", 3, 3), SB("purple", 2, 3)],
        id="one-orange-wave-two-plus-3-boards",
    ),
    pytest.param(
        [W("orange", 1), W("orange", 4), W("blue", 5), W("blue", 5)],
        [SB("orange", 1, 2), SB("orange", 2, 3), SB("purple", 2, 3)],
        id="two-orange-waves-boards-plus-1-and-plus-2",
    ),
]


@pytest.mark.parametrize("waves, boards", RENEE)
def test_the_rulebook_scoring_example_renee_scores_25(waves, boards):
    state = ended(
        2,
        stings=[2, 0],
        shared_goals=True,
        waves=[waves, [W("purple", 2)]],
        surfboards=[boards, []],
    )
    assert [goal["points"] for goal in state["goals"]] == [3, 5, 4]
    state = run(state, final({0: [-1, -3], 1: []}, goals={0: [0, 1], 1: []}))
    assert engine.scores(state)[0] == {
        "seat": 0,
        "total": 25,
        "breakdown": {"waves": 15, "surfboards": 6, "goals": 8, "stings": -4},
    }
    assert engine.result(state)["winners"] == [0]


def test_every_surfboard_counts_every_wave_of_its_suit():
    """SU-12 over the rulebook's loose wording: two +3 orange boards on two orange waves are 12."""
    state = table(
        [START] * 2,
        waves=[[W("orange", 1), W("orange", 4), W("blue", 5), W("blue", 5)], []],
        surfboards=[[SB("orange", 3, 4), SB("orange", 3, 3), SB("purple", 2, 3)], []],
    )
    assert engine.scores(state)[0]["breakdown"]["surfboards"] == 12


def test_tied_top_scores_share_the_win():
    state = ended(3, stings=[1, 1, 1], waves=[[W("blue", 5)], [W("orange", 5)], [W("purple", 6)]])
    state = run(state, final({0: [0], 1: [0], 2: [-1]}))
    assert [s["total"] for s in engine.scores(state)] == [5, 5, 5]
    assert engine.result(state) == {"winners": [0, 1, 2], "end_reason": "bluebottles"}
    state = ended(3, stings=[1, 1, 1], waves=[[W("blue", 5)], [W("orange", 5)], [W("purple", 6)]])
    state = run(state, final({0: [0], 1: [0], 2: [0]}))
    assert engine.result(state) == {"winners": [2], "end_reason": "bluebottles"}


# ---------------------------------------------------------------------------------------------
# Shapes, the order of checks, describe


def _reward_state() -> dict:
    return run(table([START] * 2), reveal(5, 4))


def _final_state() -> dict:
    return ended(2, stings=[1, 1])


@pytest.mark.parametrize(
    "make, action",
    [
        (lambda: engine.setup(2, {}), {"type": "setup", "surf": SURF[:2], "beach": BEACH}),
        (lambda: engine.setup(2, {}), {"type": "setup", "surf": SURF, "beach": [*BEACH, EN(2, 2)]}),
        (lambda: engine.setup(2, {}), setup_action(surf=[W("green", 3), *SURF[1:]])),
        (lambda: engine.setup(2, {}), setup_action(surf=[W("blue", 11), *SURF[1:]])),
        (lambda: engine.setup(2, {}), setup_action(surf=[W("blue", 0), *SURF[1:]])),
        (lambda: engine.setup(2, {}), setup_action(surf=[{"kind": "wave", "suit": "blue"}, *SURF[1:]])),
        (lambda: engine.setup(2, {}), setup_action(surf=[{**SURF[0], "x": 1}, *SURF[1:]])),
        (lambda: engine.setup(2, {}), setup_action(surf=[{"kind": "shark"}, *SURF[1:]])),
        (lambda: engine.setup(2, {}), setup_action(beach=[SB("blue", 0, 1), *BEACH[1:]])),
        (lambda: engine.setup(2, {}), setup_action(beach=[SB("blue", 1, 5), *BEACH[1:]])),
        (lambda: engine.setup(2, {}), setup_action(beach=[EN(10, 1), *BEACH[1:]])),
        (lambda: engine.setup(2, {}), setup_action(beach=[EN(0, 1), *BEACH[1:]])),
        (
            lambda: engine.setup(2, {}),
            setup_action(beach=[{"kind": "energy", "value": True, "cost": 1}, *BEACH[1:]]),
        ),
        (lambda: engine.setup(2, {}), setup_action(goals=[{"name": "", "points": 1}] * 3)),
        (lambda: engine.setup(2, {}), setup_action(goals=[{"name": "x", "points": -1}] * 3)),
        (lambda: engine.setup(2, {}), {**setup_action(), "goals": "three"}),
        (lambda: new(2), {"type": "reveal"}),
        (lambda: new(2), {"type": "reveal", "energy": [3, 4]}),
        (lambda: new(2), {"type": "reveal", "energy": {"00": 3, "1": 4}}),
        (lambda: new(2), {"type": "reveal", "energy": {"0": 6, "1": 4}}),
        (lambda: new(2), {"type": "reveal", "energy": {"0": "t0", "1": 4}}),
        (lambda: new(2), {"type": "reveal", "energy": {"0": "t10", "1": 4}}),
        (lambda: new(2), {"type": "reveal", "energy": {"0": "t06", "1": 4}}),
        (lambda: new(2), {"type": "reveal", "energy": {"0": "3", "1": 4}}),
        (lambda: new(2), {"type": "reveal", "energy": {"0": True, "1": 4}}),
        (lambda: new(2), {"type": "reveal", "energy": {"0": 3, "1": 4}, "seat": 0}),
        (_reward_state, {"type": "reward", "seat": 0, "choice": "gift"}),
        (_reward_state, {"type": "reward", "seat": "0", "choice": "respect"}),
        (_reward_state, {"type": "reward", "seat": 0, "choice": "buy", "refill": None}),
        (_reward_state, {"type": "reward", "seat": 0, "choice": "buy", "slot": 3, "refill": None}),
        (_reward_state, buy(0, 1, {"kind": "energy", "value": 3})),
        (lambda: run(table([START] * 2), reveal(0, 0)), {"type": "ocean"}),
        (lambda: run(table([START] * 2), reveal(0, 0)), ocean({"kind": "bluebottle", "points": 0})),
        (_final_state, {"type": "final"}),
        (_final_state, {"type": "final", "stings": {"0": -1, "1": [0]}}),
        (_final_state, {"type": "final", "stings": {"0": ["-1"], "1": [0]}}),
        (_final_state, {"type": "final", "stings": {"0": [-1], "1": [0]}, "goals": {"0": "all"}}),
        (_final_state, {"type": "final", "stings": {"0": [-1], "1": [0]}, "goals": [0]}),
    ],
)
def test_malformed_actions_are_bad_actions(make, action):
    refuse(make(), action, BadAction)


def test_the_fixed_order_of_checks():
    """G-1: every check before the game's own rules names the ruling that says what comes next."""
    state = engine.setup(2, {})
    error = refuse(state, respect(0), code="unexpected_action", rule="SU-3")
    assert error.message == "Set up the table first: the 3 waves in the surf and the 3 beach cards (SU-3)."
    state = run(state, {"type": "setup", "surf": SURF, "beach": BEACH})
    error = refuse(
        state, {"type": "setup", "surf": SURF, "beach": BEACH}, code="unexpected_action", rule="SU-3"
    )
    assert error.message == "The table is already set up (SU-3)."
    error = refuse(
        state, {"type": "final", "stings": {"0": [], "1": []}}, code="unexpected_action", rule="SU-10"
    )
    assert error.message == "The game has not ended yet: every seat reveals an energy card (SU-10)."
    error = refuse(state, ocean(W("blue", 3)), code="unexpected_action", rule="SU-4")
    assert error.message == "Round 1 first: every seat reveals an energy card (SU-4)."
    state = _reward_state()
    error = refuse(state, reveal(1, 2), code="unexpected_action", rule="SU-7")
    assert error.message == "Seat 0's reward comes first: respect or a beach card (SU-7)."
    error = refuse(state, {**respect(1), "seat": 5}, code="unknown_seat", rule="SU-1")
    assert (
        error.message == "This table has 2 players, so there is no seat 5 (seats are numbered 0 to 1) (SU-1)."
    )
    # A malformed action is a 400 in any phase: its shape comes before the rules.
    refuse(state, {**respect(0), "colour": "blue"}, BadAction)
    refuse(state, {"type": "reveal", "energy": {"0": 11, "1": 2}}, BadAction)


def test_apply_never_changes_its_input():
    state = _reward_state()
    before = copy.deepcopy(state)
    after = play(engine, state, respect(0))
    assert state == before and after != before
    with pytest.raises(RuleViolation):
        play(engine, state, reveal(0, 0))
    assert state == before


def test_describe_says_what_happened():
    state = table([START] * 4, respects=[2, 3, 3, 3])
    say = describe(engine, state, reveal(5, 4, 4, 2), NAMES)
    assert say == (
        "Round 1, the 7 blue wave: Ann 5, Ben 4, Cleo 4, Dev 2. Ben and Cleo wiped out (4, respect 3). "
        "Ann wins the 7 blue wave, Dev is runner-up. To the trash: Ann's 5."
    )
    state = run(state, reveal(5, 4, 4, 2))
    assert describe(engine, state, respect(0), NAMES) == "Ann took 1 respect (3)."
    state = run(state, respect(0))
    assert describe(engine, state, buy(3, 0, SB("purple", 1, 2)), NAMES) == (
        "Dev bought the orange surfboard (+2, cost 3); the beach gets a purple surfboard (+1, cost 2)."
    )
    assert describe(engine, state, buy(3, 1, EN(8, 3)), NAMES) == (
        "Dev bought temporary energy 6 (cost 2) for the towel; the beach gets temporary energy 8 (cost 3)."
    )
    state = run(state, buy(3, 1, EN(8, 3)))
    assert describe(engine, state, ocean(W("orange", 8)), NAMES) == "An 8 orange wave rolls into the surf."
    assert describe(engine, state, ocean(BB), NAMES) == "A bluebottle rolls into the surf."

    state = table([[0, 1], [0, 2, 3]], towels=[[2, 3], [1]], surf=[BB, W("blue", 2)], bluebottles=4)
    assert describe(engine, state, reveal(0, 2), NAMES) == (
        "Round 1, the bluebottle: Ann rests, Ben 2. "
        "Ann revealed the lowest (0) and takes a bluebottle token. "
        "Ann rests: respect 3, 3 cards back to hand (0, 2, 3). "
        "That was bluebottle 5: the game ends. Enter the bluebottle tokens."
    )
    state = table([[0, 5], START], towels=[[], []])
    state = run(state, reveal(5, 0))
    assert describe(engine, state, respect(0), NAMES) == (
        "Ann took 1 respect (3). Ann has only the rest card left: the game ends. Enter the bluebottle tokens."
    )
    state = table([START] * 3)
    assert describe(engine, state, reveal(3, 3, 0), NAMES) == (
        "Round 1, the 7 blue wave: Ann 3, Ben 3, Cleo rests. Ann and Ben wiped out (3, respect 2). "
        "Nobody catches the 7 blue wave: it goes to the trash. "
        "Cleo rests: respect 3, 1 card back to hand (0)."
    )
    state = ended(2, stings=[1, 1])
    assert (
        describe(engine, state, final({0: [0], 1: [-1]}), NAMES) == "Final scores: Ann 0, Ben -1. Ann wins."
    )


# ---------------------------------------------------------------------------------------------
# Random legal games (property) and the golden playthrough

# Every round resolves one ocean card: at most 28 rounds of at most 4 entries each.
MAX_STEPS = 200


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 6), shared_goals=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_conserve_everything_and_end(players, shared_goals, seed):
    rng = random.Random(seed)
    options = {"shared_goals": shared_goals}
    state = engine.setup(players, options)
    actions = []
    while engine.result(state) is None:
        assert len(actions) < MAX_STEPS
        action = engine.sample_action(state, rng)
        assert action["type"] in engine.expect(state)["actions"]
        assert describe(engine, state, action, NAMES)
        state = play(engine, state, action)
        actions.append(action)
        check_conservation(state)
        assert json.loads(json.dumps(state)) == state
        if state["phase"] == "reward":
            options_now = engine.reward_options(state)
            allowed = [options_now["respect"], options_now["pass"]] + [
                b["reason"] for b in options_now["buy"]
            ]
            assert allowed.count(None) >= 1, "a reward is always possible"
            if options_now["pass"] is None:
                assert allowed.count(None) == 1, "a pass only when nothing else is"
    assert state["end_reason"] in ("bluebottles", "rest_card", "exhausted")
    if state["end_reason"] == "bluebottles":
        assert state["bluebottles"] == 5
    elif state["end_reason"] == "rest_card":
        assert any(seat["hand"] == [0] and not seat["towel"] for seat in state["seats"])
    assert all(len(seat["sting_values"]) == seat["stings"] for seat in state["seats"])
    assert engine.expect(state)["actions"] == []
    assert replay(engine, players, options, actions) == state


def test_random_play_reaches_every_branch():
    seen = set()
    for seed in range(200):
        rng, state = random.Random(seed), engine.setup(2 + seed % 5, {"shared_goals": seed % 2 == 0})
        while engine.result(state) is None:
            state = play(engine, state, engine.sample_action(state, rng))
            last = state["last"]
            if last and state["phase"] in ("reward", "ocean", "final", "reveal"):
                seen.update(
                    name
                    for name, hit in [
                        ("wipe_out", bool(last["wiped_out"])),
                        ("wipe_out_of_three", any(len(g) >= 3 for g in last["wiped_out"])),
                        ("runner_up", last["runner_up"] is not None),
                        ("unwon", last["card"]["kind"] == "wave" and last["winner"] is None),
                        ("stung", bool(last["stung"])),
                        ("rested", bool(last["rested"])),
                        ("temporary_trashed", any(isinstance(t["card"], str) for t in last["trashed"])),
                    ]
                    if hit
                )
                seen.update(f"reward_{r['choice']}" for r in last["rewards"])
                if any(r.get("card", {}).get("kind") == "energy" for r in last["rewards"]):
                    seen.add("bought_energy")
        seen.add(state["end_reason"])
        seen.add(f"winners={min(len(state['winners']), 2)}")
    assert seen >= {
        "wipe_out", "wipe_out_of_three", "runner_up", "unwon", "stung", "rested", "temporary_trashed",
        "reward_respect", "reward_buy", "bought_energy", "bluebottles", "rest_card", "winners=1",
        "winners=2",
    }  # fmt: skip
