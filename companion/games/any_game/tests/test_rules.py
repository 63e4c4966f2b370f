"""The any-game score pad: rulings AG-1..AG-6 pinned with exact totals and winners, every refusal,
the log sentences, and the golden file."""

from __future__ import annotations

import pytest

from companion.games.any_game import engine
from companion.games.base import BadAction, RuleViolation, describe, play, shown, validate_options
from tests.engines.refusals import refuser

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
WONDERS = ["Military", "Coins", "Wonder"]

refuse = refuser(engine)


def new(players: int = 3, **options) -> dict:
    return engine.setup(players, validate_options(engine, {"game_name": "Skull King", **options}))


def pad(players: int = 3, **options) -> dict:
    return new(players, mode="categories", categories=WONDERS, **options)


def score(*points: int) -> dict:
    return {"type": "score", "points": {str(seat): value for seat, value in enumerate(points)}}


def cell(category: str, **points: int) -> dict:
    return {
        "type": "score",
        "category": category,
        "points": {seat[1:]: value for seat, value in points.items()},
    }


def run(state: dict, *actions: dict) -> dict:
    for action in actions:
        state = play(engine, state, action)
    return state


def totals(state: dict) -> list[int]:
    return [score["total"] for score in engine.scores(state)]


# --- AG-1: the setup ---------------------------------------------------------------------------


def test_the_setup_keeps_the_name_trimmed_and_every_option():
    state = engine.setup(
        2, validate_options(engine, {"game_name": "  Ticket   to Ride ", "bgg_id": 9209, "target": 0})
    )
    assert state["game_name"] == "Ticket to Ride" and state["bgg_id"] == 9209
    assert state["mode"] == "rounds" and state["rounds"] == [] and state["seats"] == [{"total": 0}] * 2
    assert engine.played_game(
        {"game_name": " Ticket  to Ride", "bgg_id": 9209, "lowest_wins": True}
    ).title == ("Ticket to Ride")
    assert engine.played_game({"game_name": "Hearts", "lowest_wins": True}).highest_wins is False


@pytest.mark.parametrize(
    "options, message",
    [
        ({}, "Name the game this pad keeps the score of (AG-1)."),
        ({"game_name": "   "}, "Name the game this pad keeps the score of (AG-1)."),
        ({"game_name": "x" * 81}, "A game's name has at most 80 characters, not 81 (AG-1)."),
        (
            {"game_name": "Go", "bgg_id": -1},
            "The BoardGameGeek id is a positive whole number (0 for none), not -1 (AG-1).",
        ),
        (
            {"game_name": "Go", "mode": "turns"},
            "The pad counts 'rounds' or 'categories', not \"turns\" (AG-1).",
        ),
        (
            {"game_name": "Go", "target": -5},
            "The target is a positive whole number (0 for none), not -5 (AG-1).",
        ),
        (
            {"game_name": "Go", "categories": ["Coins"]},
            "A pad of rounds has no categories: choose the categories mode to name them (AG-1).",
        ),
        ({"game_name": "Go", "mode": "categories"}, "A pad of categories has 1 to 30 of them, not 0 (AG-1)."),
        (
            {"game_name": "Go", "mode": "categories", "categories": [f"C{i}" for i in range(31)]},
            "A pad of categories has 1 to 30 of them, not 31 (AG-1).",
        ),
        (
            {"game_name": "Go", "mode": "categories", "categories": ["Coins", " "]},
            'A category\'s name has 1 to 40 characters: "" (AG-1).',
        ),
        (
            {"game_name": "Go", "mode": "categories", "categories": ["Coins", "coins"]},
            'Each category is named once: "Coins" is there twice (AG-1).',
        ),
        (
            {"game_name": "Go", "mode": "categories", "categories": ["Coins"], "target": 50},
            "A target ends a pad of rounds; a pad of categories ends when every cell is written (AG-1).",
        ),
    ],
)
def test_a_setup_outside_ag1_is_refused_whole(options, message):
    with pytest.raises(BadAction) as refused:
        engine.setup(3, validate_options(engine, options))
    assert refused.value.code == "bad_options" and refused.value.message == message


@pytest.mark.parametrize("players", [0, 21])
def test_one_to_twenty_players(players):
    with pytest.raises(BadAction):
        new(players)
    assert len(new(1)["seats"]) == 1 and len(new(20)["seats"]) == 20


# --- AG-2, AG-3: rounds --------------------------------------------------------------------------


def test_rounds_add_up_per_seat_and_name_each_round_in_the_breakdown():
    state = run(new(), score(12, -3, 0), score(5, 20, 7))
    assert totals(state) == [17, 17, 7]
    assert engine.scores(state)[1]["breakdown"] == {"1": -3, "2": 20}
    assert engine.expect(state) == {
        "actions": ["score", "finish"],
        "seats": [],
        "mode": "rounds",
        "outcome": "points",
        "round": 3,
        "tied": [0, 1],
    }  # a finish here may settle the tie (AG-9)
    assert engine.result(state) is None


def test_points_are_whole_numbers_in_range():
    state = new()
    assert totals(run(state, score(9999, -9999, 0))) == [9999, -9999, 0]
    error = refuse(state, score(10000, 0, 0), RuleViolation, "points_out_of_range", "AG-2")
    assert error.message == "Seat 0 scored 10000: points go from -9999 to 9999 (AG-2)."
    refuse(state, score(-10000, 0, 0), RuleViolation, "points_out_of_range", "AG-2")
    error = refuse(state, {"type": "score", "points": {"0": 1, "1": "2", "2": 3}}, BadAction)
    assert error.message == 'Seat 1\'s points must be a whole number, not "2" (AG-2).'
    refuse(state, {"type": "score", "points": {"0": 1.5, "1": 2, "2": 3}}, BadAction)
    refuse(state, {"type": "score", "points": {"0": True, "1": 2, "2": 3}}, BadAction)
    refuse(state, {"type": "score", "points": {"zero": 1}}, BadAction)
    refuse(state, {"type": "score", "points": [1, 2, 3]}, BadAction)
    refuse(state, {"type": "score"}, BadAction)


def test_a_round_gives_points_to_every_seat_and_no_other():
    state = new()
    error = refuse(state, {"type": "score", "points": {"0": 4}}, RuleViolation, "missing_points", "AG-3")
    assert (
        error.message
        == "A round gives points to every player: enter Seat 1 and Seat 2's too, 0 for nothing (AG-3)."
    )
    refuse(state, score(1, 2, 3, 4), RuleViolation, "unknown_seat", "AG-1")
    error = refuse(state, {**score(1, 2, 3), "category": "Coins"}, RuleViolation, "no_categories", "AG-3")
    assert "counts rounds" in error.message
    assert totals(run(state, {**score(1, 2, 3), "category": None})) == [1, 2, 3]  # null is left out (G-2)


# --- AG-4: categories ----------------------------------------------------------------------------


def test_categories_are_written_once_per_cell_and_the_breakdown_names_them():
    state = run(pad(), cell("Coins", s0=3, s2=5), cell("military", s1=6))
    assert totals(state) == [3, 6, 5]
    assert [score["breakdown"] for score in engine.scores(state)] == [
        {"Coins": 3},
        {"Military": 6},
        {"Coins": 5},
    ]
    assert engine.expect(state)["open"] == {"Military": [0, 2], "Coins": [1], "Wonder": [0, 1, 2]}
    error = refuse(state, cell("Coins", s1=2, s2=9), RuleViolation, "cell_written", "AG-4")
    assert error.message == (
        "Seat 2 already has 5 for Coins: each cell is written once; undo that entry to correct it (AG-4)."
    )
    error = refuse(state, cell("Science", s0=1), RuleViolation, "unknown_category", "AG-4")
    assert (
        error.message
        == 'This pad has no category "Science": its categories are Military, Coins and Wonder (AG-4).'
    )
    refuse(state, cell("Wonder"), RuleViolation, "no_points", "AG-4")
    refuse(state, {"type": "score", "points": {"0": 1}}, BadAction)  # no category named
    refuse(state, {"type": "score", "category": 7, "points": {"0": 1}}, BadAction)


def test_a_categories_pad_ends_when_every_cell_is_written():
    state = run(pad(), cell("Military", s0=3, s1=1, s2=0), cell("Coins", s0=4, s1=6, s2=2))
    assert engine.result(state) is None
    error = refuse(state, {"type": "finish"}, RuleViolation, "unexpected_action", "AG-5")
    assert "ends by itself once every cell is written" in error.message
    state = run(state, cell("Wonder", s0=0, s2=9))
    assert engine.result(state) is None and engine.expect(state)["open"] == {"Wonder": [1]}
    state = run(state, cell("Wonder", s1=3))
    assert totals(state) == [7, 10, 11]
    assert engine.result(state) == {"winners": [2], "end_reason": "complete"}
    refuse(state, cell("Wonder", s1=3), RuleViolation, "game_over", "AG-5")


# --- AG-5, AG-6: the end and the win ------------------------------------------------------------


def test_finish_ends_a_rounds_pad_after_one_round_at_least():
    state = new()
    error = refuse(state, {"type": "finish"}, RuleViolation, "unexpected_action", "AG-5")
    assert error.message == "Enter a round before finishing the pad (AG-5)."
    state = run(state, score(10, 30, 30), {"type": "finish"})
    assert engine.result(state) == {"winners": [1, 2], "end_reason": "finished"}  # AG-6: a tie shares
    refuse(state, score(1, 1, 1), RuleViolation, "game_over", "AG-5")


def test_the_round_reaching_the_target_ends_the_pad_and_the_lowest_wins():
    state = run(new(4, lowest_wins=True, target=100), score(40, 20, 99, 10))
    assert engine.result(state) is None
    state = run(state, score(60, 30, 0, 5))
    assert totals(state) == [100, 50, 99, 15]
    assert engine.result(state) == {"winners": [3], "end_reason": "target"}


def test_the_highest_wins_without_a_target_the_round_goes_on():
    state = run(new(2), score(500, 200), score(600, 100))
    assert engine.result(state) is None
    assert engine.result(run(state, {"type": "finish"})) == {"winners": [0], "end_reason": "finished"}


# --- The log ------------------------------------------------------------------------------------


def test_log_sentences():
    state = new(3, target=50)
    assert describe(engine, state, score(12, -3, 0), NAMES) == "Round 1: Ann 12, Ben -3, Cleo 0."
    state = run(state, score(12, -3, 0))
    assert describe(engine, state, score(40, 60, 1), NAMES) == (
        "Round 2: Ann 40, Ben 60, Cleo 1. Ann and Ben reached the target of 50. Game over: Ben wins with 57."
    )
    assert describe(engine, state, {"type": "finish"}, NAMES) == (
        "The pad is closed after 1 round. Game over: Ann wins with 12."
    )
    state = run(pad(2), cell("Military", s0=3, s1=3), cell("Coins", s0=1, s1=1))
    assert describe(engine, state, cell("wonder", s0=5, s1=5), NAMES) == (
        "Wonder: Ann 5, Ben 5. Every cell is written. Game over: Ann and Ben share the win with 9."
    )


# --- AG-7: games without points, co-op games --------------------------------------------------


def finish(**fields) -> dict:
    return {"type": "finish", **fields}


def test_a_game_without_points_takes_no_score_and_ends_naming_its_winners():
    state = new(4, game_name="The Resistance", outcome="win_loss")
    assert engine.expect(state) == {
        "actions": ["finish"],
        "seats": [],
        "mode": "rounds",
        "outcome": "win_loss",
        "round": 1,
    }
    refused = refuse(state, score(1, 0, 0, 0), code="no_points", rule="AG-7")
    assert refused.message == "A game without points takes no scores: finish it naming who won (AG-7)."
    refused = refuse(state, finish(), code="winners_needed", rule="AG-7")
    assert refused.message == "A game without points ends naming who won: one player or more (AG-7)."
    refuse(state, finish(winners=[]), BadAction)
    refuse(state, finish(winners=[1, 1]), BadAction)
    refuse(state, finish(winners=[4]), RuleViolation, code="unknown_seat")
    refuse(state, finish(won=True), BadAction)
    over = play(engine, state, finish(winners=[3, 1]))
    assert engine.result(over) == {"winners": [1, 3], "end_reason": "finished"}
    assert describe(engine, state, finish(winners=[3, 1]), NAMES) == (
        "The pad is closed. Game over: Ben and Dan win."  # no "after 0 rounds" (issue 43)
    )
    assert totals(over) == [0, 0, 0, 0]
    assert engine.played_game(over) == engine.played_game({**over, "outcome": "win_loss"})
    assert engine.played_game(over).no_points and not engine.played_game(over).cooperative


def test_a_coop_game_is_won_or_lost_by_everyone_with_an_optional_group_score():
    state = new(3, game_name="Pandemic", outcome="coop")
    assert engine.expect(state)["actions"] == ["score", "finish"]
    refused = refuse(state, score(3, 4, 3), code="group_score", rule="AG-7")
    assert (
        refused.message
        == "In a co-op game the score is the group's: give every player the same points (AG-7)."
    )
    scored = run(state, score(5, 5, 5), score(2, 2, 2))
    assert totals(scored) == [7, 7, 7]
    refuse(scored, finish(), BadAction)
    refuse(scored, finish(winners=[0]), BadAction)
    refuse(scored, finish(won="yes"), BadAction)
    won = play(engine, scored, finish(won=True))
    assert engine.result(won) == {"winners": [0, 1, 2], "end_reason": "won"}
    lost = play(engine, state, finish(won=False))  # no score at all: allowed
    assert engine.result(lost) == {"winners": [], "end_reason": "lost"}
    assert describe(engine, scored, finish(won=True), NAMES[:3]) == (
        "The pad is closed after 2 rounds. Game over: the players won together."
    )
    assert describe(engine, state, finish(won=False), NAMES[:3]) == (
        "The pad is closed. Game over: the game beat the players."
    )
    assert engine.played_game(won).cooperative


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"outcome": "coop", "lowest_wins": True}, "A co-op game has no lowest total (AG-7)."),
        (
            {"outcome": "coop", "target": 50},
            "A co-op game has no target: the table says the result when it ends (AG-7).",
        ),
        (
            {"outcome": "win_loss", "mode": "categories", "categories": ["A"]},
            "A game without points has no categories (AG-7).",
        ),
        ({"outcome": "draw"}, "The outcome is 'points', 'win_loss' or 'coop', not \"draw\" (AG-7)."),
        (
            {"outcome": "coop", "teams": [[0], [1, 2]]},
            "A co-op game is played by everyone together: it has no teams (AG-8).",
        ),
    ],
)
def test_an_outcome_that_does_not_fit_the_pad_is_refused(options, message):
    with pytest.raises(BadAction) as refused:
        new(3, **options)
    assert refused.value.message == message and refused.value.code == "bad_options"


# --- AG-8: teams --------------------------------------------------------------------------------


def test_teams_add_up_their_players_and_the_best_team_wins_whole():
    state = new(4, game_name="Spades", teams=[[2, 0], [1, 3]])
    assert state["teams"] == [[0, 2], [1, 3]]
    assert [score.get("team") for score in engine.scores(state)] == [0, 1, 0, 1]
    played = run(state, score(60, 40, 30, 40), score(10, 5, 0, 20))
    assert totals(played) == [70, 45, 30, 60]  # team 0: 100, team 1: 105
    over = play(engine, played, finish())
    assert engine.result(over) == {"winners": [1, 3], "end_reason": "finished"}
    assert describe(engine, played, finish(), NAMES) == (
        "The pad is closed after 2 rounds. Game over: Ben and Dan win with 105 together."
    )


def test_a_team_total_reaches_the_target():
    state = new(4, game_name="Spades", teams=[[0, 2], [1, 3]], target=100)
    over = play(engine, state, score(60, 40, 45, 40))  # team 0 reaches 105; nobody alone does
    assert engine.result(over) == {"winners": [0, 2], "end_reason": "target"}
    assert describe(engine, state, score(60, 40, 45, 40), NAMES) == (
        "Round 1: Ann 60, Ben 40, Cleo 45, Dan 40. Ann and Cleo reached the target of 100. "
        "Game over: Ann and Cleo win with 105 together."
    )


def test_without_points_the_winners_are_whole_teams():
    state = new(4, game_name="Codenames", outcome="win_loss", teams=[[0, 2], [1, 3]])
    refused = refuse(state, finish(winners=[0]), code="whole_team", rule="AG-7")
    assert refused.message == "Teams win whole: Seat 2 is in the same team as Seat 0 (AG-7)."
    assert engine.result(play(engine, state, finish(winners=[0, 2]))) == {
        "winners": [0, 2],
        "end_reason": "finished",
    }


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ([[0, 1, 2]], "Teams play against each other: two teams at least (AG-8)."),
        ([[0, 1], [1, 2]], "Seat 1 is in two teams: each seat is in one team (AG-8)."),
        ([[0], [1]], "Seat 2 is in no team: every seat is in one (AG-8)."),
        ([[0, 3], [1, 2]], "This table has no seat 3: its seats are 0 to 2 (AG-8)."),
        (
            [[0, "1"], [2]],
            "The teams are a list of teams, each a list of seat numbers, e.g. [[0, 2], [1, 3]] (AG-8).",
        ),
    ],
)
def test_teams_that_do_not_seat_everyone_once_are_refused(teams, message):
    with pytest.raises(BadAction) as refused:
        new(3, teams=teams)
    assert refused.value.message == message


# --- AG-9: a tie settled among the tied ---------------------------------------------------------


def test_a_tie_is_settled_among_the_tied_only():
    state = run(new(3), score(10, 10, 4))
    assert engine.expect(state)["tied"] == [0, 1]
    refused = refuse(state, finish(winners=[2]), code="not_tied", rule="AG-9")
    assert refused.message == "Seat 2 is not among the tied: only Seat 0 and Seat 1 may win the tie (AG-9)."
    settled = play(engine, state, finish(winners=[1]))
    assert engine.result(settled) == {"winners": [1], "end_reason": "finished"}
    assert describe(engine, state, finish(winners=[1]), NAMES[:3]) == (
        "The pad is closed after 1 round. Game over: Ben wins the tie at 10."
    )
    shared = play(engine, state, finish())  # without it the tied share the win (AG-6)
    assert engine.result(shared) == {"winners": [0, 1], "end_reason": "finished"}
    leading = run(new(3), score(11, 10, 4))
    assert "tied" not in engine.expect(leading)
    refused = refuse(leading, finish(winners=[0]), code="no_tie", rule="AG-9")
    assert refused.message == "There is no tie to settle: Seat 0 has the best total (AG-9)."


# --- AG-10: roles and expansions -----------------------------------------------------------------


def test_roles_and_expansions_are_kept_tidy_and_change_no_score():
    state = new(
        3,
        game_name="Root",
        roles={"2": " Woodland   Alliance ", "0": "Marquise de Cat"},
        expansions=["The Riverfolk"],
    )
    assert state["roles"] == {"0": "Marquise de Cat", "2": "Woodland Alliance"}
    assert state["expansions"] == ["The Riverfolk"]
    played = play(engine, state, score(30, 24, 28))
    assert totals(played) == [30, 24, 28] and engine.result(play(engine, played, finish()))["winners"] == [0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"roles": {"3": "Red"}}, 'A role\'s key is a seat of this table, not "3" (AG-10).'),
        ({"roles": {"00": "Red"}}, 'A role\'s key is a seat of this table, not "00" (AG-10).'),
        ({"roles": {"0": "R" * 41}}, "A role has at most 40 characters: " + shown("R" * 41) + " (AG-10)."),
        (
            {"roles": {"0": "Re\u200bd"}},
            "A role cannot hold invisible characters or ones that turn the text around (U+200B) (AG-10).",
        ),
        ({"expansions": ["A"] * 2}, 'Each expansion is named once: "A" is there twice (AG-10).'),
        ({"expansions": [f"E{n}" for n in range(21)]}, "A play names 20 expansions at most (AG-10)."),
    ],
)
def test_roles_and_expansions_outside_their_rules_are_refused(options, message):
    with pytest.raises(BadAction) as refused:
        new(3, **options)
    assert refused.value.message == message
