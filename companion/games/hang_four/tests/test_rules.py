"""Hang Four engine: rulings HF-1..HF-14 pinned with exact numbers and messages, refusals, the
helpers for the pages, random games (conservation, the end, replay) and the golden file."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import registry, screen_kit
from companion.games.base import BadAction, RuleViolation, describe, play, replay
from companion.games.hang_four import engine, load_components, place_card
from companion.games.hang_four import screen as hang_four_screen
from companion.games.hang_four.rules import COMPONENTS, SHACK, SURF
from tests.engines.refusals import refuser

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
LETTERS = {"N": "nose", "C": "character", "T": "tail"}


# ---------------------------------------------------------------------------------------------
# Helpers


def new(players: int = 3) -> dict:
    return engine.setup(players, {})


def dog(text: str) -> dict:
    """'NCT' a complete Surf Dog, '.C.' a lone character, 'N.T' two boards without a character."""
    assert len(text) == 3
    return {"nose": text[0] == "N", "character": text[1] == "C", "tail": text[2] == "T"}


def show(seat: dict) -> list[str]:
    return [
        ("N" if d["nose"] else ".") + ("C" if d["character"] else ".") + ("T" if d["tail"] else ".")
        for d in seat["dogs"]
    ]


def cards_in_dogs(state: dict) -> int:
    return sum(sum(d.values()) for seat in state["seats"] for d in seat["dogs"])


def table(dollars=None, dogs=None, turn: int = 0, surf: dict | None = None, must_buy=()) -> dict:
    """A state in phase turn: seat i holds dollars[i] and the Surf Dogs dogs[i]; the bank holds the
    rest of the 30 sand dollars. The Surf deck is what is left of each part (or `surf`); any other
    card counts as out of the game, so the conservation laws hold."""
    players = len(dollars or dogs or [0, 0, 0])
    state = new(players)
    if dollars is not None:
        for seat, n in zip(state["seats"], dollars, strict=True):
            seat["dollars"] = n
        state["bank"] = 30 - sum(dollars)
        assert state["bank"] >= 0
    if dogs is not None:
        for seat, texts in zip(state["seats"], dogs, strict=True):
            seat["dogs"] = [dog(t) for t in texts]
            seat["complete"] = sum(all(d.values()) for d in seat["dogs"])
    for seat in must_buy:
        state["seats"][seat]["must_buy"] = True
    if surf is None:
        surf = {part: SURF[part] - sum(d[part] for s in state["seats"] for d in s["dogs"]) for part in SURF}
    state["surf_left"] = dict(surf)
    state["surf_deck"] = sum(surf.values())
    state["out"] = 36 - state["surf_deck"] - cards_in_dogs(state)
    state["turn"] = turn
    check_conservation(state)
    return state


def check_conservation(state: dict) -> None:
    assert sum(seat["dollars"] for seat in state["seats"]) + state["bank"] == 30
    assert all(seat["dollars"] >= 0 for seat in state["seats"]) and state["bank"] >= 0
    assert state["surf_deck"] == sum(state["surf_left"].values())
    assert all(n >= 0 for n in state["surf_left"].values())
    assert state["surf_deck"] + cards_in_dogs(state) + state["out"] == 36
    assert state["shack_deck"] == sum(state["shack_left"].values())
    assert state["shack_deck"] + state["shack_discard"] + (1 if state["shack_card"] else 0) == 15
    for seat in state["seats"]:
        assert seat["complete"] == sum(all(d.values()) for d in seat["dogs"])
        assert all(any(d.values()) for d in seat["dogs"])  # HF-14: no empty Surf Dog


def run(state: dict, *actions: dict) -> dict:
    for action in actions:
        state = play(engine, state, action)
        check_conservation(state)
    return state


refuse = refuser(engine)


def roll(face) -> dict:
    return {"type": "roll", "face": face}


def shack(card: str) -> dict:
    return {"type": "shack", "card": card}


def second(face, target=None, cards=None) -> dict:
    action = {"type": "shack_roll", "face": face}
    if target is not None:
        action["target"] = target
    if cards is not None:
        action["cards"] = cards
    return action


def take(*picks) -> list[dict]:
    """take((dog, part, to_dog), ...) for a Snag, take((dog, part), ...) for a Wipe Out."""
    return [
        {"dog": p[0], "part": p[1], "to_dog": p[2]} if len(p) == 3 else {"dog": p[0], "part": p[1]}
        for p in picks
    ]


def buy(*cards) -> dict:
    return {"type": "buy", "cards": [{"part": part, "dog": d} for part, d in cards]}


BUY_SHACK = {"type": "buy_shack"}


def drawn(state: dict, card: str, via_roll: bool = True) -> dict:
    """The seat in turn rolls the icon (or pays 2) and draws `card`: phase shack_roll."""
    return run(state, roll("shack") if via_roll else BUY_SHACK, shack(card))


# ---------------------------------------------------------------------------------------------
# Metadata, components, setup (HF-1, HF-2, HF-3)


def test_it_is_registered():
    assert registry.get("hang-four") is engine
    assert (engine.slug, engine.name) == ("hang-four", "Hang Four")
    assert (engine.min_players, engine.max_players) == (2, 4)
    assert engine.options == {}
    assert engine.action_types == ("roll", "shack", "shack_roll", "buy", "buy_shack")


def test_components_are_the_shipped_defaults():
    assert COMPONENTS == {
        "surf_deck": {"character": 12, "nose": 12, "tail": 12},
        "shack_deck": {"seagull": 5, "snag": 5, "wipeout": 5},
        "sand_dollars": 30,
        "die": [1, 2, 3, 4, 5, "shack"],
        "start_dollars": 3,
        "cap": 9,
        "card_cost": 3,
        "shack_cost": 2,
        "dogs_to_win": 4,
    }


GOOD = {
    "surf_deck": {"character": 12, "nose": 12, "tail": 12},
    "shack_deck": {"seagull": 5, "snag": 5, "wipeout": 5},
    "sand_dollars": 30,
    "die": [1, 2, 3, 4, 5, "shack"],
    "start_dollars": 3,
    "cap": 9,
    "card_cost": 3,
    "shack_cost": 2,
    "dogs_to_win": 4,
}


def test_a_good_components_file_loads(tmp_path):
    path = tmp_path / "components.json"
    path.write_text(json.dumps({"_comment": "ours", **GOOD}))
    assert load_components(path) == GOOD


@pytest.mark.parametrize(
    "change, problem",
    [
        ("not json", "cannot be read"),
        ([], "must hold an object"),
        ({"cap": None}, "'cap' missing"),
        ({"colour": "blue"}, "unknown key 'colour'"),
        (
            {"surf_deck": {"character": 12, "nose": 12}},
            "'surf_deck' must count exactly character, nose, tail",
        ),
        ({"surf_deck": {"character": 12, "nose": -1, "tail": 12}}, "every count in 'surf_deck'"),
        ({"shack_deck": {"seagull": "5", "snag": 5, "wipeout": 5}}, "every count in 'shack_deck'"),
        ({"shack_deck": {"seagull": 0, "snag": 0, "wipeout": 0}}, "at least one card"),
        ({"surf_deck": {"character": 3, "nose": 12, "tail": 12}}, "at least 4 characters"),
        ({"die": [1, 2, 3, 4, 5]}, "'die' must list"),
        ({"die": [0, 1, "shack"]}, "'die' must list"),
        ({"die": [1, 1, "shack"]}, "'die' must list"),
        ({"die": "123"}, "'die' must list"),
        ({"cap": 0}, "'cap' must be a whole number >= 1"),
        ({"card_cost": True}, "'card_cost' must be a whole number >= 1"),
        ({"dogs_to_win": 0}, "'dogs_to_win' must be a whole number >= 1"),
        ({"start_dollars": 8}, "4 seats of 8 sand dollars need more than the 30"),
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
    with pytest.raises(ValueError, match="Hang Four components file") as info:
        load_components(path)
    assert str(path) in str(info.value) and problem in str(info.value)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_gives_each_seat_a_character_and_3_sand_dollars(players):
    state = new(players)
    assert state["bank"] == 30 - 3 * players  # HF-3
    assert state["surf_deck"] == 36 - players
    assert state["surf_left"] == {"character": 12 - players, "nose": 12, "tail": 12}
    assert (state["shack_deck"], state["shack_discard"], state["shack_card"]) == (15, 0, None)
    assert state["shack_left"] == {"seagull": 5, "snag": 5, "wipeout": 5}
    assert (state["turn"], state["phase"], state["out"], state["winners"], state["end_reason"]) == (
        0,
        "turn",
        0,
        None,
        None,
    )
    for seat in state["seats"]:
        assert seat == {
            "dollars": 3,
            "dogs": [{"character": True, "nose": False, "tail": False}],
            "complete": 0,
            "must_buy": False,
        }
    expect = engine.expect(state)
    assert expect["actions"] == ["roll", "buy", "buy_shack"] and expect["seats"] == [0]
    assert engine.result(state) is None
    check_conservation(state)


@pytest.mark.parametrize("players", [1, 5])
def test_setup_refuses_a_wrong_player_count(players):
    with pytest.raises(BadAction):
        engine.setup(players, {})


# ---------------------------------------------------------------------------------------------
# Turns (HF-1, HF-13)


def test_turns_go_in_seat_order_and_wrap():
    state = new(4)
    turns = []
    for face in (1, 2, 3, 4, 5):
        turns.append(state["turn"])
        state = run(state, roll(face))
    assert turns == [0, 1, 2, 3, 0] and state["turn"] == 1


def test_one_action_per_turn_rolling_and_cashing_in_never_mix():
    state = run(new(3), roll("shack"))
    for action in (buy(("nose", 0)), BUY_SHACK, roll(3)):
        error = refuse(state, action, code="unexpected_action", rule="HF-5")
        assert error.message == "Draw the Surf Shack card first and enter which card came up (HF-5)."
    state = run(state, shack("seagull"))
    error = refuse(state, buy(("nose", 0)), code="unexpected_action", rule="HF-5")
    assert error.message == "Roll the die again for Seagull first: that roll decides what it does (HF-5)."
    state = run(state, second("shack"))
    assert state["turn"] == 1 and state["phase"] == "turn"
    # After a buy_shack, the seat cannot roll or buy in the same turn either.
    state = run(state, BUY_SHACK)
    refuse(state, roll(3), code="unexpected_action")


def test_a_seat_field_must_name_the_seat_in_turn():
    state = new(3)
    error = refuse(state, {"type": "roll", "face": 2, "seat": 1}, code="not_your_turn", rule="HF-13")
    assert error.message == "It is Seat 0's turn, not Seat 1's (HF-13)."
    error = refuse(state, {"type": "roll", "face": 2, "seat": 4}, code="unknown_seat", rule="HF-1")
    assert (
        error.message == "This table has 3 players, so there is no seat 4 (seats are numbered 0 to 2) (HF-1)."
    )
    with pytest.raises(RuleViolation):
        play(engine, state, {"type": "roll", "face": 2, "seat": 2})
    state = run(state, {"type": "roll", "face": 2, "seat": 0})
    assert state["seats"][0]["dollars"] == 5
    state = run(state, {"type": "roll", "face": "shack", "seat": 1})
    assert engine.expect(state)["seats"] == [1]
    refuse(state, {"type": "shack", "card": "snag", "seat": 0}, code="not_your_turn")


# ---------------------------------------------------------------------------------------------
# Number rolls: the 9 cap and the bank (HF-4)


def test_a_number_roll_collects_from_the_bank_and_passes_the_turn():
    state = run(new(3), roll(4))
    assert state["seats"][0]["dollars"] == 7 and state["bank"] == 17
    assert state["turn"] == 1 and state["phase"] == "turn"
    assert state["last"]["collected"] == 4 and state["last"]["limit"] is None


@pytest.mark.parametrize(
    "held, face, collected, sentence",
    [
        (3, 5, 5, "Ann rolled a 5 and collects 5 sand dollars."),
        (4, 5, 5, "Ann rolled a 5 and collects 5 sand dollars."),
        (6, 5, 3, "Ann rolled a 5 and collects 3 sand dollars (9 is the cap)."),
        (8, 5, 1, "Ann rolled a 5 and collects 1 sand dollar (9 is the cap)."),
        (8, 1, 1, "Ann rolled a 1 and collects 1 sand dollar."),
        (9, 2, 0, "Ann rolled a 2 and collects nothing (9 is the cap)."),
        (11, 5, 0, "Ann rolled a 5 and collects nothing (9 is the cap)."),
    ],
)
def test_the_9_cap_on_number_rolls(held, face, collected, sentence):
    # 11 is possible after a Seagull and a purchase of one card (HF-4: never negative).
    state = table(dollars=[held, 3, 3])
    assert describe(engine, state, roll(face), NAMES) == sentence
    after = run(state, roll(face))
    assert after["seats"][0]["dollars"] == held + collected
    assert after["bank"] == state["bank"] - collected


def test_a_short_bank_pays_what_it_holds_and_an_empty_bank_nothing():
    state = table(dollars=[5, 9, 9, 5])  # the bank holds 2
    assert state["bank"] == 2
    assert (
        describe(engine, state, roll(4), NAMES)
        == "Ann rolled a 4 and collects 2 sand dollars (the bank held only 2)."
    )
    state = run(state, roll(4))
    assert state["seats"][0]["dollars"] == 7 and state["bank"] == 0
    assert state["last"]["limit"] == "bank"
    assert describe(engine, state, roll(3), NAMES) == "Ben rolled a 3 and collects nothing (9 is the cap)."
    state = run(state, roll(3))
    assert describe(engine, state, roll(3), NAMES) == "Cleo rolled a 3 and collects nothing (9 is the cap)."
    state = run(state, roll(3))
    assert (
        describe(engine, state, roll(2), NAMES) == "Dan rolled a 2 and collects nothing (the bank is empty)."
    )
    state = run(state, roll(2))
    assert state["seats"][3]["dollars"] == 5 and state["bank"] == 0


# ---------------------------------------------------------------------------------------------
# The Surf Shack (HF-5, HF-11)


def test_rolling_the_icon_then_drawing_the_card():
    state = run(new(3), roll("shack"))
    assert (state["phase"], state["shack_via"], state["turn"]) == ("shack_card", "roll", 0)
    expect = engine.expect(state)
    assert expect["actions"] == ["shack"] and expect["seats"] == [0]
    assert expect["drawable"] == {"seagull": 5, "snag": 5, "wipeout": 5} and expect["reshuffle"] is False
    state = run(state, shack("wipeout"))
    assert (state["phase"], state["shack_card"], state["shack_deck"]) == ("shack_roll", "wipeout", 14)
    assert state["shack_left"] == {"seagull": 5, "snag": 5, "wipeout": 4}
    expect = engine.expect(state)
    assert expect["actions"] == ["shack_roll"] and expect["seats"] == [0] and expect["card"] == "wipeout"
    state = run(state, second(3, cards=[]))
    assert (state["phase"], state["shack_card"], state["shack_via"]) == ("turn", None, None)
    assert (state["shack_deck"], state["shack_discard"], state["turn"]) == (14, 1, 1)


def test_buy_shack_costs_2_paid_to_the_bank():
    state = run(new(3), BUY_SHACK)
    assert state["seats"][0]["dollars"] == 1 and state["bank"] == 23
    assert (state["phase"], state["shack_via"]) == ("shack_card", "buy")
    poor = table(dollars=[1, 3, 3])
    error = refuse(poor, BUY_SHACK, code="cannot_afford", rule="HF-11")
    assert error.message == "A Surf Shack card costs 2 sand dollars; Seat 0 holds 1 (HF-11)."


@pytest.mark.parametrize(
    "card, sentence",
    [
        ("seagull", "Ann rolled the Surf Shack for the Seagull: nothing is collected."),
        ("snag", "Ann rolled the Surf Shack for the Snag: nothing is stolen."),
        ("wipeout", "Ann rolled the Surf Shack for the Wipe Out: the cards are safe."),
    ],
)
def test_the_icon_on_the_second_roll_does_nothing(card, sentence):
    state = drawn(table(dollars=[5, 5, 5], dogs=[["N.T"], ["N.T"], ["N.T"]]), card)
    assert describe(engine, state, second("shack"), NAMES) == sentence
    for action in (second("shack", target=1), second("shack", cards=take((0, "nose", None)))):
        error = refuse(state, action, code="nothing_happens", rule="HF-5")
        assert error.message == (
            "The Surf Shack on the second roll means nothing happens (HF-5): no target and no cards."
        )
    after = run(state, second("shack", cards=[]))
    assert [s["dollars"] for s in after["seats"]] == [5, 5, 5]
    assert [show(s) for s in after["seats"]] == [["N.T"], ["N.T"], ["N.T"]]
    assert (after["shack_discard"], after["turn"]) == (1, 1)


def test_a_card_no_longer_in_the_shack_deck_is_refused():
    state = table()
    state.update(shack_left={"seagull": 0, "snag": 5, "wipeout": 5}, shack_deck=10, shack_discard=5)
    state = run(state, roll("shack"))
    error = refuse(state, shack("seagull"), code="not_in_deck", rule="HF-5")
    assert error.message == "The Shack deck holds no Seagull card now: all 5 are in the discard pile (HF-5)."
    assert engine.expect(state)["drawable"] == {"seagull": 0, "snag": 5, "wipeout": 5}


def test_the_shack_discard_is_reshuffled_when_a_card_is_needed():
    state = new(2)
    cards = ["seagull"] * 5 + ["snag"] * 5 + ["wipeout"] * 4
    for card in cards:  # 14 draws, every second roll the icon: nothing happens
        state = run(state, roll("shack"), shack(card), second("shack"))
    assert state["shack_deck"] == 1 and state["shack_left"] == {"seagull": 0, "snag": 0, "wipeout": 1}
    refuse(run(state, roll("shack")), shack("snag"), code="not_in_deck")
    state = run(state, roll("shack"), shack("wipeout"))  # the 15th: no reshuffle yet
    assert state["last"]["reshuffled"] is False
    state = run(state, second("shack"))
    assert (state["shack_deck"], state["shack_discard"]) == (0, 15)
    state = run(state, roll("shack"))
    expect = engine.expect(state)
    assert expect["reshuffle"] is True and expect["drawable"] == {"seagull": 5, "snag": 5, "wipeout": 5}
    sentence = describe(engine, state, shack("snag"), NAMES)
    assert sentence == "The Shack discard pile is shuffled into a new Shack deck. Ben drew Snag a Surfboard."
    state = run(state, shack("snag"))
    assert state["last"]["reshuffled"] is True
    assert (state["shack_deck"], state["shack_discard"], state["shack_card"]) == (14, 0, "snag")
    assert state["shack_left"] == {"seagull": 5, "snag": 4, "wipeout": 5}


def test_a_reshuffle_by_a_paid_draw_works_the_same():
    state = table(dollars=[5, 5])
    state.update(shack_left={"seagull": 0, "snag": 0, "wipeout": 0}, shack_deck=0, shack_discard=15)
    state = run(state, BUY_SHACK, shack("seagull"))
    assert (state["shack_deck"], state["shack_discard"], state["last"]["reshuffled"]) == (14, 0, True)


# ---------------------------------------------------------------------------------------------
# Seagull and must-buy (HF-10)


def seagull_table(dollars, face, roller: int = 1, **changes):
    state = drawn(table(dollars=dollars, turn=roller, **changes), "seagull")
    return state, second(face)


def test_seagull_each_opponent_pays_what_they_hold():
    state, action = seagull_table([5, 8, 1], 3)
    assert describe(engine, state, action, NAMES) == (
        "Ben rolled 3 for the Seagull: Ann pays 3, Cleo pays 1. Ben holds 12 and must buy next turn."
    )
    after = run(state, action)
    assert [s["dollars"] for s in after["seats"]] == [2, 12, 0]
    assert after["bank"] == state["bank"]  # the bank takes no part
    assert after["last"]["paid"] == {"0": 3, "2": 1}
    assert [s["must_buy"] for s in after["seats"]] == [False, True, False]


def test_seagull_against_opponents_with_nothing():
    state, action = seagull_table([0, 5, 0], 5)
    assert (
        describe(engine, state, action, NAMES)
        == "Ben rolled 5 for the Seagull: Ann pays nothing, Cleo pays nothing."
    )
    after = run(state, action)
    assert [s["dollars"] for s in after["seats"]] == [0, 5, 0]
    assert after["seats"][1]["must_buy"] is False


def test_seagull_leaving_exactly_9_does_not_force_a_buy():
    state, action = seagull_table([2, 6, 1], 4)
    after = run(state, action)
    assert after["seats"][1]["dollars"] == 9 and after["seats"][1]["must_buy"] is False
    assert engine.turn_options(run(after, roll(1), roll(1))) == {"roll": None, "buy": None, "buy_shack": None}


def test_seagull_refuses_a_target_and_cards():
    state, _ = seagull_table([5, 5, 5], 3)
    error = refuse(state, second(3, target=0), code="no_target", rule="HF-10")
    assert error.message == "The Seagull takes from every opponent: it has no target (HF-10)."
    error = refuse(state, second(3, cards=take((0, "nose", None))), code="no_cards", rule="HF-10")
    assert error.message == "The Seagull takes sand dollars, not cards (HF-10)."


def test_must_buy_is_enforced_and_cleared_by_buying():
    state, action = seagull_table([5, 8, 1], 3)
    state = run(state, action, roll(1), roll(1))  # Cleo and Ann roll; Ben's turn again
    assert state["turn"] == 1 and state["seats"][1]["dollars"] == 12
    reason = "You hold 12 sand dollars after the Seagull: you must buy a card (HF-10)."
    assert engine.turn_options(state) == {"roll": reason, "buy": None, "buy_shack": reason}
    assert engine.expect(state)["actions"] == ["buy"]  # issue 31: expect lists only what is accepted
    for refused in (roll(3), roll("shack"), BUY_SHACK):
        error = refuse(state, refused, code="must_buy", rule="HF-10")
        assert error.message == reason
    assert engine.buy_limit(state) == 4
    state = run(state, buy(("nose", 0)))  # one card is enough (HF-10: at least one)
    assert state["seats"][1]["dollars"] == 9 and state["seats"][1]["must_buy"] is False
    state = run(state, roll(2), roll(2))
    assert engine.turn_options(state)["roll"] is None
    state = run(state, roll(4))
    assert state["seats"][1]["dollars"] == 9  # the cap again


def test_a_purchase_may_leave_the_seat_above_9_and_it_then_collects_nothing():
    state, action = seagull_table([5, 8, 5], 5)  # Ben 8 + 5 + 5 = 18
    state = run(state, action, roll(1), roll(1), buy(("nose", 0)))
    assert state["seats"][1]["dollars"] == 15 and state["seats"][1]["must_buy"] is False
    state = run(state, roll(1), roll(1), roll(5))
    assert state["seats"][1]["dollars"] == 15 and state["last"]["collected"] == 0


def test_must_buy_stays_when_a_later_seagull_brings_the_seat_back_to_9_or_less():
    # HF-N1: the obligation comes from the Seagull that put the seat above 9.
    state, action = seagull_table([5, 8, 1], 3)
    state = run(state, action)  # Ben 12, must buy; Cleo's turn
    state = run(state, roll("shack"), shack("seagull"), second(5))  # Cleo takes 5 from Ben
    assert state["seats"][1]["dollars"] == 7 and state["seats"][1]["must_buy"] is True
    state = run(state, roll(1))
    reason = "The Seagull left you above 9 sand dollars: you must buy a card this turn (HF-10)."
    assert engine.turn_options(state) == {"roll": reason, "buy": None, "buy_shack": reason}
    refuse(state, roll(2), code="must_buy", rule="HF-10")
    state = run(state, buy(("nose", 0), ("tail", 0)))
    assert state["seats"][1]["must_buy"] is False and state["seats"][1]["dollars"] == 1


def test_must_buy_lapses_when_the_seat_can_no_longer_afford_a_card():
    # HF-N1: a seat that must buy but holds fewer than 3 is let off (it could never act otherwise).
    state, action = seagull_table([1, 8, 1], 3)
    state = run(state, action)  # Ann and Cleo pay 1 each: Ben 10, must buy
    state = run(state, roll("shack"), shack("seagull"), second(5))  # Cleo takes 5 from Ben: 5
    assert state["seats"][1]["dollars"] == 5 and state["seats"][1]["must_buy"] is True
    state = drawn(state, "seagull")  # Ann
    assert describe(engine, state, second(4), NAMES) == (
        "Ann rolled 4 for the Seagull: Ben pays 4, Cleo pays 4. Ben can no longer afford a card and need "
        "not buy."
    )
    state = run(state, second(4))
    assert [s["dollars"] for s in state["seats"]] == [8, 1, 1]
    assert [s["must_buy"] for s in state["seats"]] == [False, False, False]
    assert state["last"]["lapsed"] == [1] and state["turn"] == 1
    assert engine.turn_options(state) == {
        "roll": None,
        "buy": "A card costs 3 sand dollars; Seat 1 holds 1 (HF-11).",
        "buy_shack": "A Surf Shack card costs 2 sand dollars; Seat 1 holds 1 (HF-11).",
    }
    run(state, roll(3))


# ---------------------------------------------------------------------------------------------
# Snag a Surfboard (HF-7, HF-8, HF-9, HF-14)


def snag_table(dogs, face, target: int = 1, roller: int = 0):
    state = drawn(table(dogs=dogs, turn=roller), "snag")
    return state, face, target


def test_snag_takes_exactly_min_face_and_unprotected_boards():
    dogs = [[".C."], ["NCT", "N..", ".CT", "N.T"], [".C."]]
    state = drawn(table(dogs=dogs), "snag")
    assert engine.stealable(state, 1) == [
        {"dog": 1, "part": "nose"},
        {"dog": 2, "part": "tail"},
        {"dog": 3, "part": "nose"},
        {"dog": 3, "part": "tail"},
    ]
    assert [engine.take_count(state, face, 1) for face in (1, 2, 3, 4, 5, "shack")] == [1, 2, 3, 4, 4, 0]
    two = take((1, "nose", 0), (2, "tail", 0))
    error = refuse(state, second(3, target=1, cards=two), code="take_count", rule="HF-9")
    assert (
        error.message == "The Snag with a 3 takes exactly 3 of Seat 1's 4 unprotected boards, not 2 (HF-9)."
    )
    four = two + take((3, "nose", None), (3, "tail", 1))
    error = refuse(state, second(3, target=1, cards=four), code="take_count", rule="HF-9")
    assert (
        error.message == "The Snag with a 3 takes exactly 3 of Seat 1's 4 unprotected boards, not 4 (HF-9)."
    )
    three = two + take((3, "nose", None))
    after = run(state, second(3, target=1, cards=three))
    assert show(after["seats"][0]) == ["NCT", "N.."]
    assert show(after["seats"][1]) == ["NCT", ".C.", "..T"]  # Surf Dog 2 (index 1) had only its nose
    assert after["seats"][0]["complete"] == 1 and after["last"]["removed"] == [1]
    assert after["last"]["completed"] == 1


def test_snag_with_a_face_above_the_boards_takes_them_all():
    state = drawn(table(dogs=[[".C."], ["N.T", "NCT"], [".C."]]), "snag")
    assert engine.take_count(state, 5, 1) == 2
    error = refuse(state, second(5, target=1, cards=take((0, "nose", 0))), code="take_count")
    assert (
        error.message == "The Snag with a 5 takes exactly 2 of Seat 1's 2 unprotected boards, not 1 (HF-9)."
    )
    after = run(state, second(5, target=1, cards=take((0, "nose", 0), (0, "tail", 0))))
    assert show(after["seats"][0]) == ["NCT"] and show(after["seats"][1]) == ["NCT"]


def test_snag_against_an_opponent_without_unprotected_boards_takes_nothing():
    # HF-N4: the roller may pick any opponent, even one with nothing to take; the target is required.
    state = drawn(table(dogs=[[".C."], ["NCT", ".C."], ["N.."]]), "snag")
    assert describe(engine, state, second(4, target=1, cards=[]), NAMES) == (
        "Ann rolled 4 for the Snag against Ben, who has no unprotected board: nothing is stolen."
    )
    error = refuse(state, second(4, target=1, cards=take((0, "nose", 0))), code="protected", rule="HF-8")
    assert error.message == "The nose of Seat 1's Surf Dog 1 is protected: that Surf Dog is complete (HF-8)."
    after = run(state, second(4, target=1))
    assert show(after["seats"][1]) == ["NCT", ".C."] and after["turn"] == 1
    error = refuse(state, second(4), code="target_required", rule="HF-9")
    assert error.message == "The Snag needs a target: the opponent whose boards are taken (HF-9)."


def test_a_snag_takes_exactly_the_roll_from_an_opponent_who_holds_that_many():
    """HF-9 (revised), the example of the second edition: Ben holds one loose board, Cleo three. A
    Snag rolling 2 that targets Ben is refused; targeting Cleo and taking two is fine."""
    state = drawn(table(dogs=[[".C."], ["NC."], ["NC.", "N.T"]]), "snag")
    assert engine.snag_targets(state, 2) == [2]
    error = refuse(state, second(2, target=1, cards=take((0, "nose", 0))), code="snag_target", rule="HF-9")
    assert error.message == (
        "Seat 1 holds 1 unprotected board, but Seat 2 holds 2 or more: with a 2, "
        "the Snag takes exactly 2 from an opponent who holds that many (HF-9)."
    )
    # Cleo still has to give exactly two, not one.
    refuse(state, second(2, target=2, cards=take((1, "nose", 0))), code="take_count", rule="HF-9")
    after = run(state, second(2, target=2, cards=take((1, "nose", 0), (1, "tail", 0))))
    assert show(after["seats"][0]) == ["NCT"] and show(after["seats"][2]) == ["NC."]
    assert after["seats"][0]["complete"] == 1 and show(after["seats"][1]) == ["NC."]


def test_when_nobody_holds_the_roll_the_snag_takes_what_the_target_has():
    """HF-9 (revised): a 3 and nobody holds three boards: any opponent, all their boards (HF-N4:
    even one with none, then nothing is taken)."""
    state = drawn(table(dogs=[[".C."], ["NC."], ["N.T"], ["NCT"]]), "snag")
    assert engine.snag_targets(state, 3) == [1, 2, 3]
    after = run(state, second(3, target=2, cards=take((0, "nose", 0), (0, "tail", 0))))
    assert show(after["seats"][0]) == ["NCT"] and show(after["seats"][2]) == []
    assert show(run(state, second(3, target=3, cards=[]))["seats"][3]) == ["NCT"]
    error = refuse(state, second(3, target=2, cards=take((0, "nose", 0))), code="take_count", rule="HF-9")
    assert (
        error.message == "The Snag with a 3 takes exactly 2 of Seat 2's 2 unprotected boards, not 1 (HF-9)."
    )


def test_protected_and_missing_cards_are_refused():
    state = drawn(table(dogs=[[".C."], ["NCT", "NC.", "..T"], [".C."]]), "snag")
    cases = [
        ((1, "character", None), "protected", "HF-8", "Characters are never stolen or wiped out (HF-8)."),
        ((0, "tail", 0), "protected", "HF-8",
         "The tail of Seat 1's Surf Dog 1 is protected: that Surf Dog is complete (HF-8)."),
        ((1, "tail", 0), "no_such_card", "HF-8", "Seat 1's Surf Dog 2 has no tail (HF-8)."),
        ((3, "nose", 0), "no_such_dog", "HF-14",
         "There is no Surf Dog 4: Seat 1 has only 3 Surf Dogs (HF-14)."),
    ]  # fmt: skip
    refuse(state, second(1, target=1, cards=take((-1, "nose", 0))), BadAction)  # an index from 0: a shape
    for pick, code, rule, message in cases:
        error = refuse(state, second(1, target=1, cards=take(pick)), code=code, rule=rule)
        if message:
            assert error.message == message
    twice = take((1, "nose", 0), (1, "nose", None))
    error = refuse(state, second(2, target=1, cards=twice), code="listed_twice", rule="HF-9")
    assert error.message == "Card 2 of 2: the nose of Seat 1's Surf Dog 2 is named twice (HF-9)."


def test_snag_target_must_be_an_opponent_at_the_table():
    state = drawn(table(dogs=[["N.."], ["N.."], ["N.."]]), "snag")
    error = refuse(state, second(1, target=0, cards=take((0, "nose", None))), code="own_target", rule="HF-9")
    assert error.message == "The Snag takes from an opponent, not from the roller (HF-9)."
    error = refuse(state, second(1, target=3, cards=[]), code="unknown_seat", rule="HF-9")
    assert error.message == (
        "The Snag takes from an opponent at this table: "
        "there is no seat 3 (seats are numbered 0 to 2) (HF-9)."
    )


def test_stolen_cards_are_placed_where_they_fit():
    state = drawn(table(dogs=[[".C.", "NC."], ["N.T", "N.."], [".C."]]), "snag")
    # The tail must join Surf Dog 1 or 2 (both lack one); the nose only Surf Dog 1.
    error = refuse(state, second(1, target=1, cards=take((0, "tail", None))), code="must_join", rule="HF-7")
    assert error.message == "The tail must join Surf Dog 1 or 2, which lack one: no new Surf Dog (HF-7)."
    error = refuse(state, second(1, target=1, cards=take((0, "nose", 1))), code="part_taken", rule="HF-7")
    assert error.message == "The nose cannot join Surf Dog 2: it already has a nose (HF-7)."
    error = refuse(state, second(1, target=1, cards=take((0, "nose", 2))), code="no_such_dog", rule="HF-7")
    assert error.message == "The nose cannot join Surf Dog 3: there are only 2 Surf Dogs (HF-7)."
    # Two noses: the first fills Surf Dog 1, then no dog lacks one and the second starts a new dog.
    cards = take((0, "nose", 0), (1, "nose", 1))
    error = refuse(state, second(2, target=1, cards=cards), code="part_taken")
    assert error.message == "Card 2 of 2: the nose cannot join Surf Dog 2: it already has a nose (HF-7)."
    after = run(state, second(2, target=1, cards=take((0, "nose", 0), (1, "nose", None))))
    assert show(after["seats"][0]) == ["NC.", "NC.", "N.."]
    assert show(after["seats"][1]) == ["..T"]


def test_indexes_name_the_dogs_as_they_were_before_the_action():
    # HF-N3: Ben's Surf Dogs 1 and 2 are emptied and removed only after the whole Snag, so the
    # third card is still named by index 2 although it ends up at index 0.
    state = drawn(table(dogs=[[".C."], ["N..", "..T", "NC."], [".C."]]), "snag")
    cards = take((0, "nose", 0), (1, "tail", 0), (2, "nose", None))
    assert describe(engine, state, second(3, target=1, cards=cards), NAMES) == (
        "Ann rolled 3 for the Snag and takes from Ben the nose of Surf Dog 1 (to Surf Dog 1), the tail of "
        "Surf Dog 2 (to Surf Dog 1, complete!) and the nose of Surf Dog 3 (to a new Surf Dog). "
        "Ben's Surf Dogs 1 and 2 are left empty and removed."
    )
    after = run(state, second(3, target=1, cards=cards))
    assert show(after["seats"][0]) == ["NCT", "N.."]
    assert show(after["seats"][1]) == [".C."]
    assert after["last"]["removed"] == [0, 1]
    assert after["last"]["stolen"] == [
        {"dog": 0, "part": "nose", "to_dog": 0, "new": False, "completed": False},
        {"dog": 1, "part": "tail", "to_dog": 0, "new": False, "completed": True},
        {"dog": 2, "part": "nose", "to_dog": 1, "new": True, "completed": False},
    ]
    # Named by the indexes after removal instead, the same Snag is refused.
    refuse(state, second(3, target=1, cards=take((0, "nose", 0), (1, "tail", 0), (0, "nose", None))))


def test_a_snag_that_completes_the_fourth_dog_wins_at_once():
    dogs = [["NCT", "NCT", "NCT", "NC."], ["..T", "N.."], [".C."]]
    state = drawn(table(dogs=dogs), "snag")
    cards = take((1, "nose", None), (0, "tail", 3))  # placed whole (HF-N5): the nose first starts a dog
    after = run(state, second(2, target=1, cards=cards))
    assert after["phase"] == "over" and after["end_reason"] == "four_dogs" and after["winners"] == [0]
    assert show(after["seats"][0]) == ["NCT", "NCT", "NCT", "NCT", "N.."]
    assert after["seats"][1]["dogs"] == []
    assert (after["shack_card"], after["shack_discard"]) == (None, 1)
    assert engine.result(after) == {"winners": [0], "end_reason": "four_dogs"}
    assert engine.expect(after) == {"actions": [], "seats": [], "phase": "over"}
    refuse(after, roll(3), code="game_over")


# ---------------------------------------------------------------------------------------------
# Wipe Out (HF-8, HF-9, HF-14)


def test_wipe_out_discards_exactly_min_face_and_own_boards():
    state = drawn(table(dogs=[["NCT", "N.T", ".C.", "..T"], [".C."], [".C."]]), "wipeout")
    assert engine.take_count(state, 1, 0) == 1 and engine.take_count(state, 4, 0) == 3
    error = refuse(state, second(1, cards=[]), code="take_count", rule="HF-9")
    assert (
        error.message
        == "The Wipe Out with a 1 discards exactly 1 of your 3 unprotected boards, not 0 (HF-9)."
    )
    after = run(state, second(1, cards=take((1, "tail"))))
    assert show(after["seats"][0]) == ["NCT", "N..", ".C.", "..T"] and after["out"] == 1
    cards = take((1, "nose"), (1, "tail"), (3, "tail"))
    error = refuse(state, second(5, cards=cards[:2]), code="take_count")
    assert (
        error.message
        == "The Wipe Out with a 5 discards exactly 3 of your 3 unprotected boards, not 2 (HF-9)."
    )
    assert describe(engine, state, second(5, cards=cards), NAMES) == (
        "Ann rolled 5 for the Wipe Out and loses the nose of Surf Dog 2, the tail of Surf Dog 2 and the tail "
        "of Surf Dog 4. Ann's Surf Dogs 2 and 4 are left empty and removed."
    )
    after = run(state, second(5, cards=cards))
    assert show(after["seats"][0]) == ["NCT", ".C."]
    assert after["out"] == state["out"] + 3 and after["surf_deck"] == state["surf_deck"]  # out of the game


def test_wipe_out_protects_characters_and_complete_dogs_and_refuses_a_target():
    state = drawn(table(dogs=[["NCT", "NC."], [".C."], ["N.."]]), "wipeout")
    error = refuse(state, second(1, cards=take((0, "nose"))), code="protected", rule="HF-8")
    assert error.message == "The nose of your Surf Dog 1 is protected: that Surf Dog is complete (HF-8)."
    refuse(state, second(1, cards=take((1, "character"))), code="protected", rule="HF-8")
    error = refuse(state, second(1, cards=take((1, "tail"))), code="no_such_card")
    assert error.message == "Your Surf Dog 2 has no tail (HF-8)."
    error = refuse(state, second(1, target=2, cards=take((1, "nose"))), code="no_target", rule="HF-9")
    assert error.message == "The Wipe Out hits the roller's own boards: it has no target (HF-9)."
    error = refuse(state, second(1, cards=take((1, "nose", 0))), code="no_to_dog", rule="HF-9")
    assert error.message == "Wiped out cards leave the game: they join no Surf Dog (HF-9)."
    after = run(state, second(1, cards=take((1, "nose", None))))  # to_dog null is the same as absent
    assert show(after["seats"][0]) == ["NCT", ".C."]


def test_wipe_out_with_nothing_to_lose():
    state = drawn(table(dogs=[["NCT", ".C."], ["N.."], ["N.."]]), "wipeout")
    assert describe(engine, state, second(3), NAMES) == (
        "Ann rolled 3 for the Wipe Out, but has no unprotected board: nothing is lost."
    )
    after = run(state, second(3))
    assert show(after["seats"][0]) == ["NCT", ".C."] and after["out"] == state["out"]


# ---------------------------------------------------------------------------------------------
# Buying Surf deck cards (HF-7, HF-11)


def test_a_purchase_costs_3_per_card_paid_to_the_bank():
    state = table(dollars=[9, 3, 3])
    after = run(state, buy(("nose", 0), ("tail", 0), ("character", None)))
    seat = after["seats"][0]
    assert seat["dollars"] == 0 and after["bank"] == state["bank"] + 9
    assert show(seat) == ["NCT", ".C."] and seat["complete"] == 1
    assert after["surf_deck"] == state["surf_deck"] - 3
    assert after["surf_left"] == {
        "character": state["surf_left"]["character"] - 1,
        "nose": state["surf_left"]["nose"] - 1,
        "tail": state["surf_left"]["tail"] - 1,
    }
    assert after["turn"] == 1 and after["last"]["completed"] == 1 and after["last"]["cost"] == 9


def test_purchase_refusals_name_cost_deck_and_parts():
    state = table(dollars=[5, 3, 3])
    error = refuse(state, buy(), code="buy_none", rule="HF-11")
    assert error.message == "A purchase is at least one card (HF-11)."
    error = refuse(state, buy(("nose", 0), ("tail", 0)), code="cannot_buy", rule="HF-11")
    assert error.message == "2 cards cost 6 sand dollars; Seat 0 holds 5 (HF-11)."
    poor = table(dollars=[2, 3, 3])
    error = refuse(poor, buy(("nose", 0)), code="cannot_buy", rule="HF-11")
    assert error.message == "A card costs 3 sand dollars; Seat 0 holds 2 (HF-11)."
    short = table(dollars=[9, 3, 3], surf={"character": 0, "nose": 1, "tail": 1})
    error = refuse(short, buy(("nose", 0), ("tail", 0), ("nose", None)), code="cannot_buy", rule="HF-11")
    assert error.message == "The Surf deck holds 2 cards: Seat 0 cannot buy 3 (HF-11)."
    error = refuse(short, buy(("character", None)), code="not_in_deck", rule="HF-2")
    assert error.message == "The Surf deck holds no character card any more (HF-2)."
    error = refuse(short, buy(("nose", 0), ("nose", None)), code="not_in_deck", rule="HF-2")
    assert (
        error.message == "Card 2 of 2: the Surf deck holds only 1 nose card: this purchase names more (HF-2)."
    )


def test_placement_is_forced_onto_a_fitting_dog():
    state = table(dollars=[9, 3, 3], dogs=[[".C.", "N..", "NCT"], [".C."], [".C."]])
    assert engine.placements(state, 0, "tail") == {"must_join": True, "dogs": [0, 1]}
    assert engine.placements(state, 0, "nose") == {"must_join": True, "dogs": [0]}
    assert engine.placements(state, 0, "character") == {"must_join": True, "dogs": [1]}
    assert engine.placements(state, 1, "character") == {"must_join": False, "dogs": []}
    error = refuse(state, buy(("tail", None)), code="must_join", rule="HF-7")
    assert error.message == "The tail must join Surf Dog 1 or 2, which lack one: no new Surf Dog (HF-7)."
    error = refuse(state, buy(("nose", None)), code="must_join", rule="HF-7")
    assert error.message == "The nose must join Surf Dog 1, which lacks one: no new Surf Dog (HF-7)."
    error = refuse(state, buy(("nose", 1)), code="part_taken", rule="HF-7")
    assert error.message == "The nose cannot join Surf Dog 2: it already has a nose (HF-7)."
    error = refuse(state, buy(("tail", 2)), code="dog_complete", rule="HF-7")
    assert error.message == "The tail cannot join Surf Dog 3: it is complete (HF-7)."
    error = refuse(state, buy(("tail", 3)), code="no_such_dog", rule="HF-7")
    assert error.message == "The tail cannot join Surf Dog 4: there are only 3 Surf Dogs (HF-7)."
    refuse(state, buy(("tail", -1)), BadAction)  # an index counts from 0: -1 is a malformed action
    after = run(state, buy(("character", 1), ("tail", 1), ("tail", 0)))
    assert show(after["seats"][0]) == [".CT", "NCT", "NCT"]


def test_a_new_dog_can_be_joined_by_a_later_card_of_the_same_purchase():
    state = table(dollars=[9, 3, 3], dogs=[["NCT"], [".C."], [".C."]])
    assert describe(engine, state, buy(("nose", None), ("character", 1), ("tail", 1)), NAMES) == (
        "Ann bought 3 cards for 9: a nose for a new Surf Dog, a character for Surf Dog 2 and a tail for "
        "Surf Dog 2 (complete!)."
    )
    after = run(state, buy(("nose", None), ("character", 1), ("tail", 1)))
    assert show(after["seats"][0]) == ["NCT", "NCT"] and after["seats"][0]["complete"] == 2
    # Once a new dog holds only a nose, a tail in the same purchase must join it.
    error = refuse(state, buy(("nose", None), ("tail", None)), code="must_join")
    assert (
        error.message
        == "Card 2 of 2: the tail must join Surf Dog 2, which lacks one: no new Surf Dog (HF-7)."
    )


def test_the_win_at_four_in_the_middle_of_a_purchase():
    state = table(dollars=[9, 3, 3], dogs=[["NCT", "NCT", "NCT", ".C."], [".C."], [".C."]])
    action = buy(("nose", 3), ("tail", 3), ("nose", None))
    assert describe(engine, state, action, NAMES) == (
        "Ann bought 3 cards for 9: a nose for Surf Dog 4, a tail for Surf Dog 4 (complete!) and a nose for "
        "a new Surf Dog. Ann has 4 complete Surf Dogs and wins!"
    )
    after = run(state, action)
    assert (after["phase"], after["end_reason"], after["winners"]) == ("over", "four_dogs", [0])
    seat = after["seats"][0]
    assert show(seat) == ["NCT", "NCT", "NCT", "NCT", "N.."] and seat["complete"] == 4
    assert seat["dollars"] == 0 and after["surf_deck"] == state["surf_deck"] - 3  # the whole purchase
    # Placed whole first (HF-12): a later card that does not fit refuses the whole purchase.
    refuse(state, buy(("nose", 3), ("tail", 3), ("tail", 0)), code="dog_complete")
    assert engine.scores(after)[0] == {"seat": 0, "total": 4, "breakdown": {"complete_dogs": 4, "dollars": 0}}


def test_four_dogs_and_an_empty_surf_deck_in_one_purchase_is_a_four_dog_win():
    # HF-N6: the win at four comes first; the Surf deck end is not reached.
    state = table(
        dollars=[6, 9, 9],
        dogs=[["NCT", "NCT", "NCT", ".C."], ["NCT", "NCT", "NCT", ".C."], [".C."]],
        surf={"character": 0, "nose": 1, "tail": 1},
    )
    after = run(state, buy(("nose", 3), ("tail", 3)))
    assert after["surf_deck"] == 0
    assert (after["end_reason"], after["winners"]) == ("four_dogs", [0])


# ---------------------------------------------------------------------------------------------
# The end when the Surf deck is empty (HF-12)


def last_card_table(dollars, dogs):
    return table(dollars=dollars, dogs=dogs, surf={"character": 0, "nose": 1, "tail": 0})


def test_the_surf_deck_end_most_complete_dogs_wins():
    state = last_card_table([3, 9, 9], [["NCT", "NC."], [".C."], [".C."]])  # dogs beat dollars
    after = run(state, buy(("nose", None)))
    assert after["surf_deck"] == 0
    assert (after["phase"], after["end_reason"], after["winners"]) == ("over", "surf_deck_empty", [0])
    assert describe(engine, state, buy(("nose", None)), NAMES) == (
        "Ann bought 1 card for 3: a nose for a new Surf Dog. The Surf deck is empty: game over. "
        "Ann wins with 1 complete Surf Dog."
    )


def test_the_surf_deck_end_tie_on_dogs_most_dollars_decides():
    state = last_card_table([3, 9, 5], [["NCT", ".C."], ["NCT"], ["NCT"]])
    action = buy(("nose", 1))
    after = run(state, action)
    assert (after["end_reason"], after["winners"]) == ("surf_deck_empty", [1])  # Ben 9 > Cleo 5 > Ann 0
    assert describe(engine, state, action, NAMES).endswith(
        "The Surf deck is empty: game over. Ben wins with 1 complete Surf Dog and the most sand dollars (9)."
    )
    assert engine.result(after) == {"winners": [1], "end_reason": "surf_deck_empty"}
    assert engine.tie_break(after) == {"winner": 1, "dollars": 9, "tied": {0: 0, 2: 5}}


def test_the_result_says_how_the_tie_on_dogs_was_broken():
    """Issue 15: "Ben wins with 1 complete Surf Dogs" alone hid that Ann and Cleo had as many."""
    after = run(last_card_table([3, 9, 5], [["NCT", ".C."], ["NCT"], ["NCT"]]), buy(("nose", 1)))
    data = {
        "status": "finished",
        "players": [{"seat": i, "name": name} for i, name in enumerate(NAMES)],
        "winners": [1],
        "end_reason": "surf_deck_empty",
        "scores": engine.scores(after),
    }
    words = hang_four_screen.tie_break_words(after, NAMES)
    assert words == (
        "Ann and Cleo have as many: the most sand dollars wins the tie, $9 against Ann's $0 and Cleo's $5.",
        "HF-12",
    )
    shown = screen_kit.result(data, hang_four_screen.BREAKDOWN, {}, hang_four_screen.dogs_word, words)
    assert (shown["winner_text"], shown["tie_break_text"], shown["tie_break_rule"]) == (
        "Ben wins with 1 complete Surf Dog",
        words[0],
        "HF-12",
    )


def test_no_tie_break_is_said_when_the_dogs_decided_or_the_win_is_shared():
    most_dogs = run(last_card_table([3, 9, 9], [["NCT", "NC."], [".C."], [".C."]]), buy(("nose", None)))
    shared = run(last_card_table([3, 6, 6, 2], [[".C."], ["NCT"], ["NCT"], ["NC."]]), buy(("nose", 0)))
    assert engine.tie_break(most_dogs) is None and engine.tie_break(shared) is None
    assert hang_four_screen.tie_break_words(shared, NAMES) is None


def test_the_surf_deck_end_still_tied_the_win_is_shared():
    state = last_card_table([3, 6, 6, 2], [[".C."], ["NCT"], ["NCT"], ["NC."]])
    action = buy(("nose", 0))
    after = run(state, action)
    assert (after["end_reason"], after["winners"]) == ("surf_deck_empty", [1, 2])
    assert describe(engine, state, action, NAMES).endswith(
        "The Surf deck is empty: game over. Ben and Cleo share the win with 1 complete Surf Dog and 6 sand "
        "dollars each."
    )
    assert [s["total"] for s in engine.scores(after)] == [0, 1, 1, 0]


def test_turns_without_a_purchase_do_not_end_the_game():
    # Only purchases draw from the Surf deck, so only a purchase can bring the end (it is checked at
    # the end of every turn).
    state = last_card_table([3, 3, 3], [[".C."], [".C."], [".C."]])
    state = run(state, roll(2), roll(2), roll(2))
    assert state["phase"] == "turn" and state["surf_deck"] == 1


# ---------------------------------------------------------------------------------------------
# Helpers for the pages


def test_turn_options_and_buy_limit():
    state = new(3)
    assert engine.turn_options(state) == {"roll": None, "buy": None, "buy_shack": None}
    assert engine.buy_limit(state) == 1
    poor = table(dollars=[1, 3, 3])
    assert engine.turn_options(poor) == {
        "roll": None,
        "buy": "A card costs 3 sand dollars; Seat 0 holds 1 (HF-11).",
        "buy_shack": "A Surf Shack card costs 2 sand dollars; Seat 0 holds 1 (HF-11).",
    }
    assert engine.buy_limit(poor) == 0
    rich = table(dollars=[14, 3, 3], surf={"character": 1, "nose": 1, "tail": 1})
    assert engine.buy_limit(rich) == 3  # min(14 // 3, 3)
    assert engine.buy_limit(table(dollars=[14, 3, 3])) == 4
    state = run(state, roll("shack"))
    assert engine.buy_limit(state) == 0
    assert (
        engine.turn_options(state)["roll"]
        == "Draw the Surf Shack card first and enter which card came up (HF-5)."
    )
    state = run(state, shack("snag"))
    assert (
        engine.turn_options(state)["buy"]
        == "Roll the die again for Snag a Surfboard first: that roll decides what it does (HF-5)."
    )


def test_place_card_previews_a_purchase_card_by_card_and_is_pure():
    state = table(dogs=[["NCT", ".C."], [".C."], [".C."]])
    seat = state["seats"][0]
    before = copy.deepcopy(seat)
    step1 = place_card(seat, "nose", 1)
    assert seat == before
    assert show(step1) == ["NCT", "NC."] and step1["complete"] == 1
    step2 = engine.place_card(step1, "tail", 1)
    assert show(step2) == ["NCT", "NCT"] and step2["complete"] == 2
    step3 = engine.place_card(step2, "tail", None)
    assert show(step3) == ["NCT", "NCT", "..T"]
    with pytest.raises(RuleViolation) as info:
        engine.place_card(step3, "nose", None)
    assert info.value.message == "The nose must join Surf Dog 3, which lacks one: no new Surf Dog (HF-7)."
    with pytest.raises(BadAction):
        engine.place_card(seat, "fin", None)
    with pytest.raises(RuleViolation):
        engine.placements(state, 3, "nose")


def test_stealable_and_take_count():
    state = table(dogs=[["NCT", "NC.", "..T", ".C."], [".C."], ["N.."]])
    assert engine.stealable(state, 0) == [{"dog": 1, "part": "nose"}, {"dog": 2, "part": "tail"}]
    assert engine.stealable(state, 1) == []
    assert engine.take_count(state, 1, 0) == 1 and engine.take_count(state, 5, 0) == 2
    assert engine.take_count(state, 5, 1) == 0 and engine.take_count(state, 3, 2) == 1


# ---------------------------------------------------------------------------------------------
# Malformed actions (400) and other refusals (422)


@pytest.mark.parametrize(
    "phase, action",
    [
        ("turn", []),
        ("turn", {"type": "surf"}),
        ("turn", {"face": 3}),
        ("turn", {"type": "roll"}),
        ("turn", roll(0)),
        ("turn", roll(6)),
        ("turn", roll(True)),
        ("turn", roll("Shack")),
        ("turn", roll(2.0)),
        ("turn", {"type": "roll", "face": 2, "seat": "0"}),
        ("turn", {"type": "roll", "face": 2, "card": "snag"}),
        ("turn", {"type": "buy"}),
        ("turn", {"type": "buy", "cards": "nose"}),
        ("turn", {"type": "buy", "cards": ["nose"]}),
        ("turn", {"type": "buy", "cards": [{"part": "fin", "dog": 0}]}),
        ("turn", {"type": "buy", "cards": [{"dog": 0}]}),
        ("turn", {"type": "buy", "cards": [{"part": "nose", "dog": "0"}]}),
        ("turn", {"type": "buy", "cards": [{"part": "nose", "dog": True}]}),
        ("turn", {"type": "buy", "cards": [{"part": "nose", "dog": 0, "to_dog": 0}]}),
        ("turn", {"type": "buy_shack", "cards": []}),
        ("shack_card", shack("shark")),
        ("shack_card", {"type": "shack"}),
        ("shack_roll", second(7)),
        ("shack_roll", {"type": "shack_roll"}),
        ("shack_roll", second(2, target="1", cards=[])),
        ("shack_roll", second(2, target=1, cards={"dog": 0, "part": "nose"})),
        ("shack_roll", second(2, target=1, cards=[{"part": "nose", "to_dog": None}])),
        ("shack_roll", second(2, target=1, cards=[{"dog": None, "part": "nose", "to_dog": None}])),
        ("shack_roll", second(2, target=1, cards=[{"dog": 0, "part": "board", "to_dog": None}])),
        ("shack_roll", second(2, target=1, cards=[{"dog": 0, "part": "nose", "to_dog": "new"}])),
        ("shack_roll", second(2, target=1, cards=[{"dog": 0, "part": "nose", "owner": 1}])),
    ],
)
def test_malformed_actions_are_bad_actions(phase, action):
    state = table(dollars=[9, 3, 3], dogs=[[".C."], ["N.T"], [".C."]])
    if phase != "turn":
        state = run(state, roll("shack"))
    if phase == "shack_roll":
        state = run(state, shack("snag"))
    refuse(state, action, error=BadAction)


def test_a_character_named_in_a_shack_roll_is_a_rule_not_a_shape():
    # HF-N9: "character" is a part of the game; naming it for a Snag is refused by HF-8 (422).
    state = drawn(table(dogs=[["N.."], [".C."], [".C."]]), "snag")
    error = refuse(state, second(1, target=1, cards=take((0, "character", None))), code="protected")
    assert error.rule == "HF-8"


def test_null_means_absent():
    # HF-N8: null target/cards/dog/to_dog mean the field is left out; an absent dog is a new dog.
    state = drawn(table(), "seagull")
    run(state, {"type": "shack_roll", "face": 2, "target": None, "cards": None})
    state = table(dollars=[9, 3, 3], dogs=[["NCT"], [".C."], [".C."]])
    after = run(state, {"type": "buy", "cards": [{"part": "nose"}]})
    assert show(after["seats"][0]) == ["NCT", "N.."]
    state = drawn(table(dogs=[["NCT"], ["N.."], [".C."]]), "snag")
    after = run(state, second(1, target=1, cards=[{"dog": 0, "part": "nose"}]))
    assert show(after["seats"][0]) == ["NCT", "N.."]


@pytest.mark.parametrize("action", [[], "roll", {"type": "dance"}, {"face": 3}])
def test_apply_itself_refuses_malformed_actions(action):
    state = new(3)
    before = copy.deepcopy(state)
    with pytest.raises(BadAction):
        play(engine, state, action)
    assert state == before


def test_apply_never_changes_its_input_and_refuses_out_of_phase():
    state = new(3)
    before = copy.deepcopy(state)
    after = play(engine, state, roll(3))
    assert state == before and after != before
    with pytest.raises(RuleViolation) as info:
        play(engine, state, shack("snag"))
    assert info.value.code == "unexpected_action"
    assert info.value.rule == "HF-13"
    assert info.value.message == (
        "No Surf Shack card is in play: it is Seat 0's turn to roll, "
        "buy Surf deck cards or buy a Surf Shack card (HF-13)."
    )


# ---------------------------------------------------------------------------------------------
# The log


def test_describe_says_what_happened():
    state = new(3)
    assert describe(engine, state, roll("shack"), NAMES) == "Ann rolled the Surf Shack."
    assert describe(engine, state, BUY_SHACK, NAMES) == "Ann paid 2 sand dollars for a Surf Shack card."
    state = run(state, roll("shack"))
    assert describe(engine, state, shack("seagull"), NAMES) == "Ann drew Seagull."
    assert describe(engine, state, shack("wipeout"), NAMES) == "Ann drew Wipe Out."
    state = table(dollars=[6, 3, 3], dogs=[["NC."], [".C."], [".C."]])
    assert describe(engine, state, buy(("tail", 0), ("tail", None)), NAMES) == (
        "Ann bought 2 cards for 6: a tail for Surf Dog 1 (complete!) and a tail for a new Surf Dog."
    )
    assert describe(engine, state, buy(("tail", 0), ("tail", None)), ["Ann"]).startswith("Ann bought")
    assert "Seat 1" in describe(engine, drawn(table(dollars=[3, 5, 3]), "seagull"), second(1), ["Ann"])


def test_scores_and_result():
    state = table(dollars=[4, 7, 1], dogs=[["NCT", "NCT"], [".C."], ["NCT"]])
    assert engine.scores(state) == [
        {"seat": 0, "total": 2, "breakdown": {"complete_dogs": 2, "dollars": 4}},
        {"seat": 1, "total": 0, "breakdown": {"complete_dogs": 0, "dollars": 7}},
        {"seat": 2, "total": 1, "breakdown": {"complete_dogs": 1, "dollars": 1}},
    ]
    assert engine.result(state) is None


# ---------------------------------------------------------------------------------------------
# Random legal games (property) and the golden playthrough

# Only purchases shrink the Surf deck; sample_action buys whenever it can (mostly), so random games
# end long before the conformance test's cap of 5000 actions.
MAX_STEPS = 5000


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_conserve_everything_and_end(players, seed):
    rng = random.Random(seed)
    state = engine.setup(players, {})
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
        if state["phase"] == "turn":
            seat = state["seats"][state["turn"]]
            # Some turn action is always possible; a seat that must buy can afford a card.
            assert any(reason is None for reason in engine.turn_options(state).values())
            assert not seat["must_buy"] or engine.buy_limit(state) >= 1
    assert state["end_reason"] in ("four_dogs", "surf_deck_empty")
    if state["end_reason"] == "surf_deck_empty":
        assert state["surf_deck"] == 0
    else:
        assert [s["complete"] >= 4 for s in state["seats"]].count(True) == 1
    assert engine.expect(state)["actions"] == []
    assert replay(engine, players, {}, actions) == state


def test_random_play_reaches_every_branch():
    seen = set()
    for seed in range(150):
        rng, state = random.Random(seed), new(2 + seed % 3)
        while engine.result(state) is None:
            state = play(engine, state, engine.sample_action(state, rng))
            last = state["last"]
            seen.add(last["type"])
            seen.update(
                name
                for name, hit in [
                    ("stolen", bool(last["stolen"])),
                    ("wiped", bool(last["wiped"])),
                    ("removed", bool(last["removed"])),
                    ("must_buy", last["must_buy"]),
                    ("reshuffled", last["reshuffled"]),
                    ("cap", last["limit"] == "cap"),
                ]
                if hit
            )
        seen.add(state["end_reason"])
        seen.add(f"winners={len(state['winners'])}")
    assert seen >= {
        "roll", "shack", "shack_roll", "buy", "buy_shack", "stolen", "wiped", "removed", "must_buy",
        "reshuffled", "cap", "four_dogs", "surf_deck_empty", "winners=1", "winners=2",
    }  # fmt: skip


def test_shack_constants_are_the_deck():
    assert sum(SHACK.values()) == 15 and sum(SURF.values()) == 36
