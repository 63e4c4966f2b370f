"""Dogo Dash engine: rulings DD-1..DD-11 pinned with exact numbers, refusals, random games, golden file."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import registry
from companion.games.base import BadAction, RuleViolation, describe, play, replay, validate_options
from companion.games.dogo_dash import engine
from companion.games.dogo_dash.rules import DECK, DECK_TOTAL, HAND_SIZE, KINDS, load_components, strongest
from tests.engines.refusals import refuser

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve"]


# ---------------------------------------------------------------------------------------------
# Helpers


def new(players: int = 3, **options) -> dict:
    return engine.setup(players, validate_options(engine, options))


def reveal(cards: dict, catnip: list | None = None) -> dict:
    action = {"type": "reveal", "cards": cards}
    if catnip is not None:
        action["catnip"] = catnip
    return action


def collect(dash: list) -> dict:
    return {"type": "collect", "dogo_dash": dash}


def run(state: dict, *actions: dict) -> dict:
    for action in actions:
        state = play(engine, state, action)
    return state


refuse = refuser(engine)


def short_deck(state: dict, left: int) -> dict:
    """As if most of the deck had gone already: the cards leave the game so the count of 60 still holds."""
    state["discarded"] += state["deck"] - left
    state["deck"] = left
    return state


def piles(state: dict) -> list[int]:
    return [seat["pile"] for seat in state["seats"]]


def hands(state: dict) -> list[int]:
    return [seat["hand"] for seat in state["seats"]]


def in_play(state: dict) -> int:
    held = sum(piles(state)) + sum(hands(state))
    return held + state["pot"] + state["super_pot"] + state["deck"] + state["discarded"]


def last_round_table() -> dict:
    """3 seats, deck 3 left. Cleo wins a tie-break (pot 5) and draws first from the short deck:
    Cleo 2 -> 4 (deck 1), then Ann 3 -> 4 (deck 0), Ben stays at 2. The next round is the last."""
    state = short_deck(new(3), 3)
    return run(state, reveal({"0": "cat", "1": "bear", "2": "bear"}), reveal({"1": "dog", "2": "bear"}))


# ---------------------------------------------------------------------------------------------
# Metadata, components, setup (DD-1)


def test_it_is_registered():
    assert registry.get("dogo-dash") is engine
    assert (engine.slug, engine.name) == ("dogo-dash", "Dogo Dash")
    assert (engine.min_players, engine.max_players) == (2, 5)
    assert engine.options == {"catnip": False, "dogo_dash": False}
    assert engine.action_types == ("reveal", "collect")


def test_components_are_the_shipped_deck():
    assert DECK == {"cat": 22, "dog": 18, "bear": 12, "cookie": 4, "good_boy": 4}
    assert (DECK_TOTAL, HAND_SIZE) == (60, 4)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"deck": {"cat": 22, "dog": 18, "bear": 12, "cookie": 4}, "hand_size": 4}',
        '{"deck": {"cat": 22, "dog": 18, "bear": 12, "cookie": 4, "good_boy": 4, "wolf": 1}, "hand_size": 4}',
        '{"deck": {"cat": -1, "dog": 18, "bear": 12, "cookie": 4, "good_boy": 4}, "hand_size": 4}',
        '{"deck": {"cat": "22", "dog": 18, "bear": 12, "cookie": 4, "good_boy": 4}, "hand_size": 4}',
        '{"deck": {"cat": 22, "dog": 18, "bear": 12, "cookie": 4, "good_boy": 4}, "hand_size": 0}',
        '{"deck": {"cat": 5, "dog": 5, "bear": 5, "cookie": 4, "good_boy": 1}, "hand_size": 4}',
    ],
)
def test_a_broken_components_file_is_a_clear_error(tmp_path, text):
    path = tmp_path / "components.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="Dogo Dash components file"):
        load_components(path)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_four_each(players):
    state = new(players)
    assert state["deck"] == 60 - 4 * players
    assert hands(state) == [4] * players and piles(state) == [0] * players
    assert state["seen"] == {kind: 0 for kind in KINDS}
    assert (state["round"], state["pot"], state["last_round"], state["phase"]) == (1, 0, False, "reveal")
    expect = engine.expect(state)
    assert expect["actions"] == ["reveal"] and expect["seats"] == list(range(players))
    assert expect["catnip"] == [] and expect["last_round"] is False and expect["tie_break"] is False
    assert engine.expect(new(players, catnip=True))["catnip"] == list(range(players))
    assert engine.result(state) is None
    assert in_play(state) == 60


@pytest.mark.parametrize("players", [1, 6])
def test_setup_refuses_a_wrong_player_count(players):
    with pytest.raises(BadAction):
        engine.setup(players, dict(engine.options))


# ---------------------------------------------------------------------------------------------
# Strength and outcome (DD-2, DD-3)


@pytest.mark.parametrize(
    "cards, kind, seats",
    [
        ({0: "dog", 1: "cat"}, "dog", [0]),
        ({0: "dog", 1: "bear"}, "bear", [1]),
        ({0: "cat", 1: "bear"}, "bear", [1]),
        ({0: "bear", 1: "cookie"}, "cookie", [1]),
        ({0: "dog", 1: "cookie"}, "cookie", [1]),
        ({0: "cookie", 1: "cat"}, "cat", [1]),
        ({0: "cookie", 1: "bear", 2: "dog"}, "cookie", [0]),
        ({0: "cat", 1: "dog", 2: "bear"}, "bear", [2]),
        # DD-3: a cat and a cookie both out: the cat is strongest whatever else is there.
        ({0: "cookie", 1: "cat", 2: "bear"}, "cat", [1]),
        ({0: "cookie", 1: "cat", 2: "bear", 3: "dog", 4: "cat"}, "cat", [1, 4]),
        ({0: "dog", 1: "dog", 2: "cat"}, "dog", [0, 1]),
        # A good boy ties every seat of the reveal, even against a would-be winner.
        ({0: "good_boy", 1: "bear", 2: "cat"}, "good_boy", [0, 1, 2]),
        ({0: "good_boy", 1: "good_boy"}, "good_boy", [0, 1]),
    ],
)
def test_strongest_kind(cards, kind, seats):
    assert strongest(cards) == (kind, seats)


def test_cat_and_cookie_with_a_bear_the_cat_takes_the_pot():
    state = run(new(3), reveal({"0": "cookie", "1": "cat", "2": "bear"}))
    assert piles(state) == [0, 3, 0]
    assert state["last"]["outcome"] == "win" and state["last"]["kind"] == "cat"
    # DD-6: Ben fills first; everyone played one card, so all go back to 4.
    assert hands(state) == [4, 4, 4] and state["deck"] == 48 - 3 and state["round"] == 2


def test_a_good_boy_forces_a_tie_of_everyone():
    state = run(new(3), reveal({"0": "good_boy", "1": "bear", "2": "cat"}))
    expect = engine.expect(state)
    assert expect["seats"] == [0, 1, 2] and expect["tie_break"] is True
    assert (state["pot"], piles(state), hands(state)) == (3, [0, 0, 0], [3, 3, 3])
    assert state["last"]["outcome"] == "tie" and state["last"]["kind"] == "good_boy"


def test_a_seat_revealing_alone_wins_even_with_a_good_boy():
    # Pinned decision (the rulings are silent): a single revealer has nobody to tie with, so it
    # wins its reveal, good boy or not. Here Ann and Ben play catnip and Cleo reveals alone.
    state = run(new(3, catnip=True), reveal({"2": "good_boy"}, catnip=[0, 1]))
    assert piles(state) == [4, 4, 1]
    assert state["last"]["outcome"] == "win" and state["last"]["seats"] == [2]
    assert state["seen"]["good_boy"] == 1 and state["seen"]["cat"] == 8


# ---------------------------------------------------------------------------------------------
# Ties and splits (DD-4), the pot (DD-5), refills (DD-6)


def test_tied_seats_reveal_again_and_the_pot_grows():
    state = run(new(3), reveal({"0": "dog", "1": "dog", "2": "cat"}))
    assert engine.expect(state)["seats"] == [0, 1] and state["pot"] == 3 and state["deck"] == 48
    refuse(state, reveal({"0": "bear", "1": "cat", "2": "cat"}), code="not_in_tie", rule="DD-4")
    error = refuse(state, reveal({"0": "bear"}), code="missing_card", rule="DD-4")
    assert error.message == "Seat 1 must reveal a card: the tied seats reveal again (DD-4)."
    state = run(state, reveal({"0": "bear", "1": "dog"}))
    assert piles(state) == [5, 0, 0] and state["pot"] == 0
    # Hands 2, 2, 3 refill from Ann (the winner): 2 + 2 + 1 drawn.
    assert hands(state) == [4, 4, 4] and state["deck"] == 48 - 5
    assert state["reveals"] == [] and engine.expect(state)["seats"] == [0, 1, 2]


def test_three_tied_until_their_hands_are_empty_split_13_four_each_one_discarded():
    state = run(
        new(4),
        reveal({"0": "bear", "1": "bear", "2": "bear", "3": "dog"}),
        reveal({"0": "cat", "1": "cat", "2": "cat"}),
        reveal({"0": "dog", "1": "dog", "2": "dog"}),
    )
    assert state["pot"] == 10 and hands(state) == [1, 1, 1, 3]
    state = run(state, reveal({"0": "good_boy", "1": "good_boy", "2": "cat"}))
    assert piles(state) == [4, 4, 4, 0] and state["discarded"] == 1
    assert state["last"]["outcome"] == "split"
    assert (state["last"]["share"], state["last"]["discarded"], state["last"]["pot"]) == (4, 1, 13)
    # The discarded card was seen: 13 revealed cards counted (DD-11).
    assert sum(state["seen"].values()) == 13
    # DD-6 after a split: the lowest tied seat (0) draws first: 4 + 4 + 4 + 1 from a deck of 44.
    assert hands(state) == [4, 4, 4, 4] and state["deck"] == 44 - 13
    assert engine.scores(state)[0]["breakdown"] == {"won": 0, "split": 4, "catnip": 0, "dash": 0}


def test_refill_from_a_short_deck_winner_first_then_wrapping():
    state = last_round_table()
    assert piles(state) == [0, 0, 5]
    # Cleo (seat 2) won: she fills 2 -> 4, then Ann 3 -> 4 takes the last card; Ben gets none.
    assert hands(state) == [4, 2, 4] and state["deck"] == 0
    assert state["last_round"] is True and state["round"] == 2
    expect = engine.expect(state)
    assert expect["last_round"] is True and expect["seats"] == [0, 1, 2] and expect["catnip"] == []


# ---------------------------------------------------------------------------------------------
# The last round and the end (DD-7, DD-8)


def test_last_round_winner_takes_the_revealed_cards_and_the_super_pot():
    state = last_round_table()
    seen = sum(state["seen"].values())
    state = run(state, reveal({"0": "cookie", "1": "dog", "2": "bear"}))
    # Super Pot: 3 + 1 + 3 cards left in hand; Ann takes 3 revealed + 7.
    assert piles(state) == [10, 0, 5] and hands(state) == [0, 0, 0]
    assert state["last"]["super_pot"] == 7 and state["last"]["pot"] == 3
    assert (state["pot"], state["super_pot"]) == (0, 0)
    assert sum(state["seen"].values()) == seen + 3  # the Super Pot is never seen (DD-11)
    assert state["phase"] == "over" and state["end_reason"] == "last_round"
    assert engine.result(state) == {"winners": [0], "end_reason": "last_round"}
    assert engine.expect(state)["actions"] == [] and engine.expect(state)["seats"] == []
    assert in_play(state) == 60


def test_last_round_tie_is_split_not_replayed_and_tied_piles_share_the_win():
    state = run(last_round_table(), reveal({"0": "bear", "1": "bear", "2": "cat"}))
    # Ann and Ben split 3 revealed + 7 Super Pot: 5 each. Everyone ends on 5: all three win.
    assert piles(state) == [5, 5, 5] and state["discarded"] == 45
    assert engine.result(state) == {"winners": [0, 1, 2], "end_reason": "last_round"}


def test_last_round_good_boy_splits_ten_three_ways_one_discarded():
    state = run(last_round_table(), reveal({"0": "good_boy", "1": "dog", "2": "cat"}))
    assert piles(state) == [3, 3, 8] and state["last"]["discarded"] == 1
    assert engine.result(state)["winners"] == [2]


def test_the_game_over_refuses_everything():
    state = run(last_round_table(), reveal({"0": "cookie", "1": "dog", "2": "bear"}))
    refuse(state, reveal({"0": "cat"}), code="game_over")
    with pytest.raises(RuleViolation) as info:
        play(engine, state, reveal({"0": "cat"}))
    assert info.value.code == "game_over"


def test_last_round_seats_without_cards_do_not_reveal_and_catnip_is_gone():
    state = short_deck(new(3, catnip=True), 2)
    state = run(state, reveal({"0": "cat", "2": "bear"}, catnip=[1]))
    # Cleo won: she fills 3 -> 4, Ann 3 -> 4 empties the deck, Ben (catnipped, 0 cards) gets none.
    assert hands(state) == [4, 0, 4] and state["last_round"] is True
    assert engine.expect(state)["seats"] == [0, 2]
    error = refuse(state, reveal({"0": "cat", "1": "cat", "2": "cat"}), code="no_card", rule="DD-7")
    assert error.message == "Seat 1 holds no card and cannot reveal (DD-7)."
    refuse(state, reveal({"0": "cat"}), code="missing_card", rule="DD-7")
    state = run(state, reveal({"0": "dog", "2": "cat"}))
    assert piles(state) == [2 + 6, 4, 2] and state["end_reason"] == "last_round"


def test_catnip_in_the_last_round_goes_to_the_own_pile_not_the_super_pot():
    """DD-9 (revised): the rulebook does not forbid catnip in the last round. Cleo's 4 cats go to her
    own pile; Ann's 3 cards left in hand go to the Super Pot, which the winner Ann takes."""
    state = short_deck(new(3, catnip=True), 2)
    state = run(state, reveal({"0": "cat", "2": "bear"}, catnip=[1]))
    assert hands(state) == [4, 0, 4] and state["last_round"] is True
    assert piles(state) == [0, 4, 2]
    assert engine.expect(state)["catnip"] == [0, 2]
    state = run(state, reveal({"0": "dog"}, catnip=[2]))
    assert state["last"]["catnip"] == [2] and state["last"]["super_pot"] == 3
    # Ann reveals alone (DD-N1) and takes her dog and the Super Pot of 3: 4 cards.
    assert piles(state) == [4, 4, 2 + 4] and state["end_reason"] == "last_round"
    assert engine.scores(state)[2]["breakdown"] == {"won": 2, "split": 0, "catnip": 4, "dash": 0}
    assert engine.result(state)["winners"] == [2]


def test_a_catnip_seat_in_a_tie_break_is_refused_by_the_tie_rule():
    """G-1: Ann played catnip, Ben and Cleo tie on a dog; Ann named in the tie-break is not in the
    tie (DD-4), though her hand is empty too (that was DD-7 before)."""
    tie = run(new(3, catnip=True), reveal({"1": "dog", "2": "dog"}, catnip=[0]))
    assert engine.expect(tie)["seats"] == [1, 2] and hands(tie)[0] == 0
    error = refuse(tie, reveal({"0": "cat", "1": "cat", "2": "bear"}), code="not_in_tie", rule="DD-4")
    assert error.message == "Seat 0 is not in the tie and does not reveal again (DD-4)."


# ---------------------------------------------------------------------------------------------
# Catnip (DD-9)


def test_catnip_puts_four_cats_on_the_own_pile_and_refills():
    state = run(new(3, catnip=True), reveal({"1": "dog", "2": "bear"}, catnip=[0]))
    assert piles(state) == [4, 0, 2] and state["seen"]["cat"] == 4
    assert state["seen"]["dog"] == 1 and state["seen"]["bear"] == 1
    assert state["last"]["catnip"] == [0]
    # Cleo fills 3 -> 4, then Ann 0 -> 4, then Ben 3 -> 4: 6 drawn.
    assert hands(state) == [4, 4, 4] and state["deck"] == 42
    breakdown = {"won": 0, "split": 0, "catnip": 4, "dash": 0}
    assert engine.scores(state)[0] == {"seat": 0, "total": 4, "breakdown": breakdown}


def test_everyone_plays_catnip_and_seat_zero_draws_first():
    # Pinned decision (the rulings leave it open): a round with no winner at all starts the refill
    # at seat 0. With 5 cards left, Ann fills to 4 and Ben gets the last one.
    state = short_deck(new(2, catnip=True), 5)
    state = run(state, reveal({}, catnip=[0, 1]))
    assert piles(state) == [4, 4] and state["last"]["outcome"] == "none" and state["pot"] == 0
    assert hands(state) == [4, 1] and state["deck"] == 0 and state["last_round"] is True


def test_catnip_refusals():
    plain = new(3)
    refuse(plain, reveal({"1": "dog", "2": "dog"}, catnip=[0]), code="catnip_off", rule="DD-9")
    state = new(3, catnip=True)
    both = reveal({"0": "cat", "1": "dog", "2": "dog"}, catnip=[0])
    refuse(state, both, code="catnip_and_card", rule="DD-9")
    refuse(state, reveal({"1": "dog", "2": "dog"}, catnip=[0, 0]), code="listed_twice", rule="DD-9")
    error = refuse(state, reveal({"1": "dog"}, catnip=[0]), code="missing_card", rule="DD-9")
    assert error.message == "Seat 2 must reveal a card: every seat reveals a card or plays catnip (DD-9)."
    tie = run(state, reveal({"0": "dog", "1": "dog", "2": "cat"}))
    assert engine.expect(tie)["catnip"] == []
    refuse(tie, reveal({"1": "dog"}, catnip=[0]), code="catnip_tie_break", rule="DD-9")


def test_catnip_counts_cats_dd11():
    state = run(
        new(3, catnip=True),
        reveal({"2": "cat"}, catnip=[0, 1]),  # 9 cats seen
        reveal({"2": "cat"}, catnip=[0, 1]),  # 18
        reveal({"0": "cat", "1": "cat", "2": "dog"}),  # 20
    )
    assert state["seen"]["cat"] == 20 and engine.expect(state)["catnip"] == []
    error = refuse(state, reveal({"1": "dog", "2": "dog"}, catnip=[0]), code="card_count", rule="DD-11")
    assert error.message == (
        "Only 2 cats are still unseen (20 of 22 seen), "
        "but this reveal (catnip counts 4 cats) shows 4 (DD-11)."
    )


# ---------------------------------------------------------------------------------------------
# Dogo Dash (DD-10)


def test_a_losing_dog_dashes_two_dogs_to_its_pile():
    state = run(new(3, dogo_dash=True), reveal({"0": "dog", "1": "bear", "2": "dog"}))
    expect = engine.expect(state)
    assert expect["actions"] == ["collect"] and expect["seats"] == [0, 2] and expect["winner"] == 1
    assert state["pot"] == 3 and piles(state) == [0, 0, 0]
    state = run(state, collect([2]))
    assert piles(state) == [0, 2, 2] and state["seen"]["dog"] == 3
    assert engine.scores(state)[2]["breakdown"]["dash"] == 2 and state["last"]["dash"] == [2]
    # Hands 3, 3, 2 refill from Ben: 1 + 2 + 1 drawn.
    assert hands(state) == [4, 4, 4] and state["deck"] == 44


def test_two_seats_dash_and_the_winner_keeps_the_rest():
    state = run(new(3, dogo_dash=True), reveal({"0": "dog", "1": "bear", "2": "dog"}), collect([0, 2]))
    assert piles(state) == [2, 1, 2] and state["seen"]["dog"] == 4 and state["deck"] == 43


def test_no_dash_is_a_plain_collect():
    state = run(new(3, dogo_dash=True), reveal({"0": "dog", "1": "bear", "2": "dog"}), collect([]))
    assert piles(state) == [0, 3, 0] and state["deck"] == 45


def test_a_dog_from_an_earlier_reveal_of_the_round_may_dash():
    state = run(
        new(3, dogo_dash=True),
        reveal({"0": "dog", "1": "dog", "2": "cat"}),
        reveal({"0": "bear", "1": "cat"}),
    )
    assert engine.expect(state)["seats"] == [1] and state["round_dogs"] == [0, 1]
    refuse(state, collect([2]), code="dash_no_dog", rule="DD-10")
    refuse(state, collect([0]), code="dash_winner", rule="DD-10")
    refuse(state, collect([1, 1]), code="listed_twice", rule="DD-10")
    refuse(state, collect([7]), code="unknown_seat")
    refuse(state, reveal({"0": "cat", "1": "cat", "2": "cat"}), code="unexpected_action")
    state = run(state, collect([1]))
    assert piles(state) == [4, 2, 0]


def test_a_dash_needs_a_card_in_hand():
    state = run(
        new(2, dogo_dash=True),
        reveal({"0": "dog", "1": "dog"}),
        reveal({"0": "bear", "1": "bear"}),
        reveal({"0": "cat", "1": "cat"}),
        reveal({"0": "dog", "1": "bear"}),
    )
    # Ann revealed dogs but has no card left: nobody may dash, so Ben collects at once.
    assert piles(state) == [0, 8] and engine.expect(state)["actions"] == ["reveal"] and state["round"] == 2


def test_without_the_option_there_is_no_collect():
    state = run(new(3), reveal({"0": "dog", "1": "bear", "2": "dog"}))
    assert piles(state) == [0, 3, 0] and engine.expect(state)["actions"] == ["reveal"]
    refuse(state, collect([]), code="unexpected_action")


def test_dashes_count_dogs_dd11():
    state = new(3, dogo_dash=True)
    state["seen"]["dog"] = 15  # as if 15 dogs had been seen in earlier rounds
    state = run(state, reveal({"0": "dog", "1": "bear", "2": "dog"}))
    assert engine.expect(state)["seats"] == [0, 2]
    error = refuse(state, collect([0, 2]), code="card_count", rule="DD-11")
    assert error.message == "Only 1 dog is still unseen (17 of 18 seen), but these dashes show 2 (DD-11)."
    assert run(state, collect([0]))["seen"]["dog"] == 18
    # With every dog seen nobody can dash: the pot is collected at once.
    state = new(3, dogo_dash=True)
    state["seen"]["dog"] = 16
    assert engine.expect(run(state, reveal({"0": "dog", "1": "bear", "2": "dog"})))["actions"] == ["reveal"]


# ---------------------------------------------------------------------------------------------
# Card counting on reveals (DD-11)


def test_a_fifth_cookie_is_refused():
    state = run(new(5), reveal({"0": "cookie", "1": "cookie", "2": "cookie", "3": "cookie", "4": "cat"}))
    assert piles(state) == [0, 0, 0, 0, 5]
    action = reveal({"0": "cookie", "1": "cat", "2": "cat", "3": "cat", "4": "cat"})
    error = refuse(state, action, code="card_count", rule="DD-11")
    assert error.message == "All 4 cookies have already been seen (DD-11): nobody can reveal another."


def test_two_good_boys_when_one_is_left_are_refused():
    state = run(new(5), reveal({"0": "good_boy", "1": "good_boy", "2": "good_boy", "3": "cat", "4": "dog"}))
    action = reveal({"0": "good_boy", "1": "good_boy", "2": "cat", "3": "cat", "4": "cat"})
    error = refuse(state, action, code="card_count", rule="DD-11")
    assert error.message == "Only 1 good boy is still unseen (3 of 4 seen), but this reveal shows 2 (DD-11)."


# ---------------------------------------------------------------------------------------------
# Malformed actions (400) and other refusals (422)


@pytest.mark.parametrize(
    "action",
    [
        [],
        {"type": "dance"},
        {"cards": {"0": "cat", "1": "dog", "2": "dog"}},
        {"type": "reveal"},
        reveal([]),
        reveal("cat"),
        reveal(None),
        reveal({"x": "cat", "1": "dog", "2": "dog"}),
        reveal({"-1": "cat", "1": "dog", "2": "dog"}),
        reveal({"00": "cat", "1": "dog", "2": "dog"}),
        reveal({" 0": "cat", "1": "dog", "2": "dog"}),
        reveal({"0": "wolf", "1": "dog", "2": "dog"}),
        reveal({"0": "Cat", "1": "dog", "2": "dog"}),
        reveal({"0": 3, "1": "dog", "2": "dog"}),
        reveal({"0": ["cat"], "1": "dog", "2": "dog"}),
        reveal({"0": "cat", "1": "dog", "2": "dog"}, catnip="0"),
        reveal({"0": "cat", "1": "dog", "2": "dog"}, catnip=0),
        reveal({"0": "cat", "1": "dog", "2": "dog"}, catnip=[True]),
        reveal({"0": "cat", "1": "dog", "2": "dog"}, catnip=["1"]),
        {"type": "reveal", "cards": {"0": "cat", "1": "dog", "2": "dog"}, "cats": 1},
        {"type": "collect", "dogo_dash": "1"},
        {"type": "collect", "dogo_dash": [None]},
    ],
)
def test_malformed_actions_are_bad_actions(action):
    state = new(3, catnip=True, dogo_dash=True)
    if isinstance(action, dict) and action.get("type") == "collect":
        state = run(state, reveal({"0": "dog", "1": "bear", "2": "dog"}))
    refuse(state, action, error=BadAction)


@pytest.mark.parametrize("action", [[], "reveal", {"type": "dance"}, {"cards": {}}])
def test_apply_itself_refuses_malformed_actions(action):
    state = new(3)
    before = copy.deepcopy(state)
    with pytest.raises(BadAction):
        play(engine, state, action)
    assert state == before


def test_apply_never_changes_its_input():
    state = new(3)
    before = copy.deepcopy(state)
    after = play(engine, state, reveal({"0": "dog", "1": "dog", "2": "cat"}))
    assert state == before and after != before


def test_a_missing_seat_and_an_unknown_seat_are_refused():
    state = new(3)
    error = refuse(state, reveal({"0": "cat", "1": "dog"}), code="missing_card", rule="DD-3")
    assert error.message == "Seat 2 must reveal a card: every seat reveals a card (DD-3)."
    error = refuse(state, reveal({"0": "cat"}), code="missing_card")
    assert error.message == "Seat 1 and Seat 2 must each reveal a card: every seat reveals a card (DD-3)."
    error = refuse(state, reveal({"0": "cat", "1": "dog", "2": "dog", "3": "dog"}), code="unknown_seat")
    assert error.rule == "DD-1"
    assert (
        error.message == "This table has 3 players, so there is no seat 3 (seats are numbered 0 to 2) (DD-1)."
    )
    # G-1: the shared checks name their rulings too.
    error = refuse(state, collect([]), code="unexpected_action", rule="DD-10")
    assert error.message == "Nobody can dash now: the round's cards are revealed first (DD-10)."
    with pytest.raises(RuleViolation):
        play(engine, state, collect([]))
    dash = run(new(3, dogo_dash=True), reveal({"0": "dog", "1": "bear", "2": "dog"}))
    error = refuse(dash, reveal({"0": "cat", "1": "dog", "2": "dog"}), code="unexpected_action", rule="DD-10")
    assert (
        error.message
        == "Seat 1 won the round: first enter who dashes, if anyone, before the next reveal (DD-10)."
    )


def test_one_shape_before_rules_and_null_means_left_out():
    """An unknown field is a 400 whatever the seat says; JSON null means "left out" (G-2)."""
    state = new(3, catnip=True)
    for seat in (0, 7, None, "x"):
        refuse(state, {**reveal({"0": "cat", "1": "dog", "2": "dog"}), "seat": seat}, error=BadAction)
    after = run(state, {**reveal({"0": "cat", "1": "dog", "2": "bear"}), "catnip": None})
    assert after["last"]["catnip"] == [] and piles(after) == [0, 0, 3]
    dash = run(new(3, dogo_dash=True), reveal({"0": "dog", "1": "bear", "2": "dog"}))
    assert piles(run(dash, {"type": "collect", "dogo_dash": None})) == [0, 3, 0]
    over = run(short_deck(new(2), 0), reveal({"0": "cat", "1": "dog"}), reveal({"0": "bear", "1": "dog"}))
    assert engine.result(over) is not None
    refuse(over, {**reveal({"0": "cat", "1": "dog"}), "cats": 1}, error=BadAction)
    error = refuse(over, reveal({"0": "cat", "1": "dog"}), code="game_over", rule="DD-7")
    assert error.message == "The game is over: no more entries can be made (DD-7)."


# ---------------------------------------------------------------------------------------------
# The log


def test_describe_says_what_happened():
    state = new(3, catnip=True, dogo_dash=True)
    action = reveal({"0": "cookie", "1": "cat", "2": "good_boy"})
    assert describe(engine, state, action, NAMES) == (
        "Ann revealed a cookie, Ben a cat and Cleo a good boy. "
        "A good boy forces a tie: Ann, Ben and Cleo reveal again."
    )
    action = reveal({"1": "dog", "2": "bear"}, catnip=[0])
    assert describe(engine, state, action, NAMES) == (
        "Ann played catnip: 4 cats to their pile. Ben revealed a dog and Cleo a bear. "
        "Cleo wins the round; Ben may dash before the pot of 2 is taken."
    )
    state = run(state, reveal({"0": "dog", "1": "bear", "2": "dog"}))
    sentence = describe(engine, state, collect([2]), NAMES)
    assert sentence == "Cleo dashed: 2 dogs to their pile. Ben takes the pot of 2."
    assert describe(engine, last_round_table(), reveal({"0": "cookie", "1": "dog", "2": "bear"}), NAMES) == (
        "Last round: Ann revealed a cookie, Ben a dog and Cleo a bear. The Super Pot holds 7 cards. "
        "Ann takes the 3 revealed cards and the Super Pot of 7. Game over: Ann wins with 10 cards."
    )


# ---------------------------------------------------------------------------------------------
# Random legal games (property) and the golden playthrough

# Every round draws at least one card from the deck, so there are at most 53 rounds, each of at
# most 4 reveals (a hand of 4) and a collect.
MAX_STEPS = 53 * 5


def check_invariants(state: dict) -> None:
    assert in_play(state) == DECK_TOTAL
    assert all(state["seen"][kind] <= DECK[kind] for kind in KINDS)
    assert all(0 <= hand <= HAND_SIZE for hand in hands(state))
    for score, seat in zip(engine.scores(state), state["seats"], strict=True):
        assert score["total"] == seat["pile"] == sum(score["breakdown"].values())
    assert json.loads(json.dumps(state)) == state
    expect = engine.expect(state)
    assert all(state["seats"][seat]["hand"] > 0 for seat in expect["seats"])


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 5),
    catnip=st.booleans(),
    dash=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_legal_games_end_and_conserve_cards(players, catnip, dash, seed):
    rng = random.Random(seed)
    options = {"catnip": catnip, "dogo_dash": dash}
    state = engine.setup(players, options)
    actions = []
    while engine.result(state) is None:
        assert len(actions) < MAX_STEPS
        action = engine.sample_action(state, rng)
        assert describe(engine, state, action, NAMES)
        state = play(engine, state, action)
        actions.append(action)
        check_invariants(state)
    assert state["deck"] == 0 and sum(hands(state)) == 0
    assert engine.expect(state)["actions"] == []
    assert replay(engine, players, options, actions) == state


def test_random_play_uses_catnip_and_dashes():
    catnips = dashes = no_winner = 0
    for seed in range(40):
        rng, state = random.Random(seed), new(2 + seed % 4, catnip=True, dogo_dash=True)
        while engine.result(state) is None:
            action = engine.sample_action(state, rng)
            catnips += len(action.get("catnip", []))
            dashes += len(action.get("dogo_dash", []))
            state = play(engine, state, action)
            no_winner += state["last"]["outcome"] == "none"
    assert catnips > 0 and dashes > 0 and no_winner > 0
